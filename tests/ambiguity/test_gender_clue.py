"""A fact no hop is worded by but a person recalls ("it was a woman") serves as a clue."""

from __future__ import annotations

import random
from pathlib import Path

from builder.ambiguity.clues import pick_fact_clue, render
from builder.kb.store import KnowledgeStore
from builder.records.seed import ClueFact, HopSpec
from builder.seeding.facts import Facts
from builder.seeding.options import distinct_facts, fact_constraints
from builder.validity.certify import Certifier
from tests.ambiguity.minikb import build_store, ent

PRIZE = "L:prize"
WINNERS = {"L:ann": "Q6581072", "L:bob": "Q6581097", "L:carl": "Q6581097"}


def _store(path: Path) -> KnowledgeStore:
    items = [
        ent("Q5", "human"),
        ent("Q6581072", "female"),
        ent("Q6581097", "male"),
        ent(PRIZE, "Prize in Chemistry", "Q618779", page="Ann, Bob and Carl shared the prize."),
    ]
    for i, (key, sex) in enumerate(WINNERS.items()):
        name = key[2:].title()
        items.append(
            ent(
                key,
                name,
                "Q5",
                {"P21": sex, "P569": str(1940 + i), "P166": {"v": PRIZE, "P585": "2018"}},
                page=f"{name} is a chemist born in {1940 + i}.",
            )
        )
    return build_store(path, items)


def test_sex_is_a_clue_fact_but_never_a_hop_constraint(tmp_path: Path) -> None:
    with _store(tmp_path / "kb.sqlite") as store:
        facts = Facts(store)
        assert "P21" not in {c.property for c in fact_constraints(facts, "L:ann")}
        assert "P21" in {c.property for c in fact_constraints(facts, "L:ann", clue=True)}
        keys = list(WINNERS)
        got = list(distinct_facts(facts, "L:ann", keys, lambda c: c.property == "P569"))
        assert [(c.property, c.value) for c in got] == [("P21", "Q6581072")]
        # Bob shares his sex with Carl: no such clue tells him apart
        got = list(distinct_facts(facts, "L:bob", keys, lambda c: c.property == "P569"))
        assert got == []


def test_the_clue_names_the_woman_in_words_a_person_uses(tmp_path: Path) -> None:
    with _store(tmp_path / "kb.sqlite") as store:
        facts = Facts(store)
        certifier = Certifier.from_settings(facts)
        keys = list(WINNERS)
        spec = HopSpec(class_id="Q5")
        clue = pick_fact_clue(
            facts, "L:ann", keys, spec, forbidden=["Ann"], banned_values=set(),
            rng=random.Random(0), exclude_property="P569",
        )  # fmt: skip
        assert clue is not None and clue.property == "P21"
        assert "a woman" in clue.text and "female" not in clue.text
        assert certifier.clue_matches(clue, keys, spec, None) == ["L:ann"]
        plain = ClueFact(kind="fact", property="P21", value="Q6581097", value_label="male", text="")
        assert "a man" in render(facts, plain)
