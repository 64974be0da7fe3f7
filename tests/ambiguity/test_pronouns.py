"""A leader's remembered fact said by "he" or "she" (issue 11, builder/ambiguity/assemble.py):
only where no reading of the question reaches a person the word would tell apart, on a
hand-built world: two winners of one prize, each from a country whose head of state is a
man, or one of them a woman."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from builder.ambiguity.assemble import _said_pronouns
from builder.ambiguity.base import ChainContext, Proposal
from builder.kb.store import KnowledgeStore
from builder.records.sample import Candidate
from builder.records.seed import ClueFact, Constraint, HopSpec, InjectionSpec
from builder.seeding.facts import Facts
from builder.seeding.generate import chain_from_specs
from tests.ambiguity.minikb import build_store_with, ent

MALE, FEMALE, HUMAN, COUNTRY = "Q6581097", "Q6581072", "Q5", "Q6256"
PROPS = {
    "P27": ("country of citizenship", "wikibase-item"),
    "P35": ("head of state", "wikibase-item"),
    "P1346": ("winner", "wikibase-item"),
}


def _page(name: str) -> str:
    return (
        f"{name} (born 1930 and 1946) won the Test Prize. {name} is a citizen of Sweden, "
        "whose head of state is Carl Gustaf, born in 1946."
    )


def _world(second_head: str) -> list[tuple]:  # type: ignore[type-arg]
    return [
        ent(HUMAN, "human"),
        ent(COUNTRY, "country"),
        ent(MALE, "male"),
        ent(FEMALE, "female"),
        ent("L:king", "Carl Gustaf", HUMAN, {"P21": MALE, "P569": "1946"}, _page("Carl Gustaf")),
        ent("L:other", "Pat Other", HUMAN, {"P21": second_head, "P569": "1950"}),
        ent("L:se", "Sweden", COUNTRY, {"P35": "L:king"}, "Sweden's head of state is Carl Gustaf."),
        ent(
            "L:fi", "Finland", COUNTRY, {"P35": "L:other"}, "Finland's head of state is Pat Other."
        ),
        ent("L:ann", "Ann Winner", HUMAN, {"P27": "L:se", "P569": "1930"}, _page("Ann Winner")),
        ent("L:bo", "Bo Winner", HUMAN, {"P27": "L:fi", "P569": "1940"}),
        ent("L:prize", "Test Prize", None, {"P1346": ["L:ann", "L:bo"]}),
    ]


@pytest.fixture(params=[MALE, FEMALE], ids=["same", "differs"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[KnowledgeStore]:
    s = build_store_with(tmp_path / "kb.sqlite", PROPS, lambda: _world(request.param))
    yield s
    s.close()


def test_he_only_where_every_reading_reaches_a_man(store: KnowledgeStore) -> None:
    facts = Facts(store)
    born = Constraint(property="P569", value="+1930-00-00T00:00:00Z", match="year")
    winner = HopSpec(link="P1346", anchor="L:prize", constraints=[born])
    specs = [winner, HopSpec(link="P27"), HopSpec(link="P35")]
    ctx = ChainContext(
        facts, chain_from_specs(store, "seed-000001", specs, "academic"), random.Random(0)
    )
    assert ctx.keys == ["L:ann", "L:se", "L:king"]
    pronouns = {2: "he"}
    # no ambiguous hop: the head is "he"
    assert _said_pronouns(ctx, {}, list(ctx.specs), pronouns) == {2: "he"}
    # the winner left open (either winner): "he" only if Finland's head is a man too
    loose = winner.model_copy(update={"constraints": []})
    proposal = Proposal(
        hop=0,
        injection=InjectionSpec(type="entity", constraint=0, clue=ClueFact(property="", text="")),
        weakened=loose,
        candidates=[
            Candidate(id="L:ann", label="Ann Winner", downstream_answer="Carl Gustaf"),
            Candidate(id="L:bo", label="Bo Winner", downstream_answer="Pat Other"),
        ],
        note="",
    )
    weak = [loose, *ctx.specs[1:]]
    said = _said_pronouns(ctx, {0: proposal}, weak, pronouns)
    other = facts.value_keys("L:other", "P21")
    assert said == ({2: "he"} if other == [MALE] else {})
    # an ambiguous hop's own person: only where its every candidate is said so too
    heads = Proposal(
        hop=2,
        injection=InjectionSpec(type="factual", constraint=0, clue=ClueFact(property="", text="")),
        weakened=ctx.specs[2],
        candidates=[
            Candidate(id="L:king", label="Carl Gustaf", downstream_answer="Carl Gustaf"),
            Candidate(id="L:other", label="Pat Other", downstream_answer="Pat Other"),
        ],
        note="",
    )
    own = _said_pronouns(ctx, {2: heads}, list(ctx.specs), pronouns)
    assert own == ({2: "he"} if other == [MALE] else {})
