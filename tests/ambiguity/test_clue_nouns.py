"""Replies that name the person they are about where the question has two people (issue 11):
"the head of state was born in 1908", not "they were born in 1908", which could be either."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from builder.ambiguity.base import ChainContext
from builder.ambiguity.clues import era_clue, of_noun, qualifier_clue, render
from builder.kb.store import KnowledgeStore
from builder.records.seed import ClueFact, Constraint, HopSpec
from builder.seeding.era import Era
from builder.seeding.facts import Facts
from builder.seeding.generate import chain_from_specs
from builder.seeding.templates import load_templates
from tests.ambiguity.minikb import build_store_with, ent

ROOT = Path(__file__).resolve().parents[2] / "builder" / "prompts" / "eval"


def _known_words() -> set[str]:
    lines = (ROOT / "oracle_filler.txt").read_text(encoding="utf-8").splitlines()
    stop = (ROOT / "oracle_stopwords.txt").read_text(encoding="utf-8").split()
    return {w for line in lines if not line.startswith("#") for w in line.split()} | set(stop)


# the properties this world has beside minikb's own
MORE_PROPS = {
    "P27": ("country of citizenship", "wikibase-item"),
    "P35": ("head of state", "wikibase-item"),
    "P39": ("position held", "wikibase-item"),
}


def _world() -> list[tuple]:  # type: ignore[type-arg]
    return [
        ent("Q5", "human"),
        ent("Q6256", "country"),
        ent(
            "L:land",
            "Freedonia",
            "Q6256",
            {
                "P35": [
                    {"v": "L:rufus", "P580": "1930", "P582": "1940"},
                    {"v": "L:chico", "P580": "1940"},
                ]
            },
            page="Freedonia is a country. The head of state of Freedonia since 1930 is Rufus Firefly.",
        ),
        ent(
            "L:rufus",
            "Rufus Firefly",
            "Q5",
            {
                "P569": "1890",
                "P39": [
                    {"v": "L:mayor", "P580": "1920", "P582": "1930"},
                    {"v": "L:general", "P580": "1930"},
                ],
            },
            page="Rufus Firefly, born in 1890, became head of state of Freedonia in 1930. "
            "He was Mayor of Fredonia Town from 1920 and General of Freedonia from 1930.",
        ),
        ent("L:chico", "Chicolini", "Q5", {"P569": "1887"}),
        ent("L:mayor", "Mayor of Fredonia Town"),
        ent("L:general", "General of Freedonia"),
        ent(
            "L:groucho",
            "Groucho Marx",
            "Q5",
            {"P569": "1890", "P27": "L:land"},
            page="Groucho Marx, born in 1890, was a citizen of Freedonia.",
        ),
    ]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KnowledgeStore]:
    s = build_store_with(tmp_path_factory.mktemp("nouns") / "kb.sqlite", MORE_PROPS, _world)
    yield s
    s.close()


def born(y: int) -> ClueFact:
    return ClueFact(
        kind="fact", property="P569", value=f"+{y}-00-00T00:00:00Z", match="year", text=""
    )


def test_a_reply_names_its_person_by_their_noun(store: KnowledgeStore) -> None:
    facts = Facts(store)
    for i in range(8):
        said = render(facts, born(1908), salt=f"seed-{i:06d}", noun="head of state")
        assert "the head of state was born in 1908" in said.casefold(), said
        assert "they" not in said.casefold().split()
        # without a noun the reply stays as it was
        alone = render(facts, born(1908), salt=f"seed-{i:06d}")
        assert "they were born in 1908" in alone.casefold(), alone
    assert of_noun("the one I mean is {v}", "winner") == "the winner I mean is {v}"
    assert of_noun("{v} directed it", "winner") == "{v} directed it"


def test_a_second_version_reply_names_its_person(store: KnowledgeStore) -> None:
    facts = Facts(store)
    spec = HopSpec(link="P35", qualifier="P580", qualifier_value="+1998-00-00T00:00:00Z")
    era = Era(year=1998, hop=0, source="qualifier", property="P169")
    plain = era_clue(facts, spec, era, "L:land", "seed-000001").text
    named = era_clue(facts, spec, era, "L:land", "seed-000001", noun="head of state").text
    assert "1998" in plain and "head of state" not in plain
    assert "1998" in named and "head of state" in named and named != plain
    # a year that is not the chain's own: "I mean the head of state in 1998."
    said = {qualifier_clue(facts, spec, f"seed-{i:06d}", "head of state").text for i in range(6)}
    assert all("the head of state" in s.casefold() and "1998" in s for s in said), said
    assert "head of state" not in qualifier_clue(facts, spec, "seed-000001").text


def test_person_noun_only_where_the_chain_has_two_people(store: KnowledgeStore) -> None:
    facts = Facts(store)
    citizen = HopSpec(class_id="Q5", constraints=[Constraint(property="P27", value="L:land")])
    land = HopSpec(class_id="Q6256", constraints=[Constraint(property="P35", value="L:rufus")])
    head = HopSpec(link="P35", qualifier="P580", qualifier_value="+1930-00-00T00:00:00Z")
    chain = chain_from_specs(
        store, "seed-000001", [citizen, HopSpec(link="P27"), head], domain="law_policy"
    )
    ctx = ChainContext(facts, chain, random.Random(0))
    assert ctx.person_noun(2) == "head of state"  # Groucho Marx and the head of state
    assert ctx.person_noun(1) == ""  # a country is no person with a noun
    alone = ChainContext(
        facts,
        chain_from_specs(store, "seed-000002", [land, head], domain="law_policy"),
        random.Random(0),
    )
    assert alone.person_noun(1) == ""  # one person in the chain: "they" is clear
    # one person, but another hop has a time of its own: its reply says another year
    post = HopSpec(link="P39", qualifier="P580", qualifier_value="+1925-00-00T00:00:00Z")
    timed = ChainContext(
        facts,
        chain_from_specs(store, "seed-000003", [land, head, post], domain="law_policy"),
        random.Random(0),
    )
    assert timed.person_noun(1) == "head of state"


def test_nouns_and_their_era_forms_add_only_filler_words() -> None:
    t = load_templates()
    known = _known_words()
    assert t.clue_nouns and t.era_noun_clues
    assert t.clue_fact_nouns
    for noun in [*t.clue_nouns.values(), *t.clue_fact_nouns.values()]:
        assert set(noun.casefold().split()) <= known, noun
    for forms in [*t.era_noun_clues.values(), t.qualifier_noun_clues]:
        for form in forms:
            assert form.count("{v}") == 1 and form.count("{n}") == 1, form
            words = set(re.findall(r"[a-z']+", form.replace("{v}", "").replace("{n}", "").lower()))
            assert words <= known, form
