"""Certificates from live counts: a description no declaration covers is counted over all of
Wikidata, through the real HTTP layer and cache, with WDQS answers replayed in their exact wire
format (``responses``; no network)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import responses

from builder.kb.store import KnowledgeStore
from builder.records.sample import Certificate
from builder.records.seed import ClueFact, InjectionSpec
from builder.seeding.facts import Facts
from builder.validity.certify import Certifier, Refusal
from tests.ambiguity.minikb import build_store, ent
from tests.validity.test_live import (
    NOLAN_2010,
    count_body,
    make_counter,
    query,
    select_body,
    serve,
    uri,
)

NOLAN, INCEPTION, MEMENTO, TENET = "Q25191", "Q25188", "Q190525", "Q63985561"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[KnowledgeStore]:
    """An open store (no declarations) as `kb fetch` leaves it: real ids, nothing complete."""
    items = [
        ent("Q11424", "film"),
        ent(NOLAN, "Christopher Nolan", "Q5", {"P569": "1970-07-30"}),
        ent(INCEPTION, "Inception", "Q11424", {"P57": NOLAN, "P577": "2010-07-16", "P2047": 148}),
        ent(MEMENTO, "Memento", "Q11424", {"P57": NOLAN, "P577": "2000-09-05", "P2047": 113}),
        ent(TENET, "Tenet", "Q11424", {"P57": NOLAN, "P577": "2020-08-26", "P2047": 150}),
    ]
    kb = build_store(tmp_path / "kb.sqlite", items, closed=False)  # type: ignore[arg-type]
    yield kb
    kb.close()


def _live(store: KnowledgeStore, tmp_path: Path) -> Certifier:
    return Certifier(Facts(store), make_counter(tmp_path))


def test_without_live_counts_an_undeclared_set_is_refused(store: KnowledgeStore) -> None:
    got = Certifier(Facts(store)).hop(NOLAN_2010, NOLAN, INCEPTION)
    assert isinstance(got, Refusal) and got.reason == "inverse_incomplete"


@responses.activate
def test_a_count_of_one_over_wikidata_certifies_the_hop(
    store: KnowledgeStore, tmp_path: Path
) -> None:
    serve(query(NOLAN_2010, NOLAN), count_body(1))
    serve(query(NOLAN_2010, NOLAN, mode="select"), select_body([uri(INCEPTION)]))
    got = _live(store, tmp_path).hop(NOLAN_2010, NOLAN, INCEPTION)
    assert isinstance(got, Certificate), got
    assert got.basis == "live_count"
    assert got.source == query(NOLAN_2010, NOLAN)  # the COUNT query is the source
    assert got.as_of == "2026-11-30"  # the date the answer was recorded
    assert got.universe == [INCEPTION] and got.matches == [INCEPTION]
    assert got.explanation == "Counted over all of Wikidata on 2026-11-30: only Inception fits."


@responses.activate
def test_two_matches_over_wikidata_are_not_unique(store: KnowledgeStore, tmp_path: Path) -> None:
    serve(query(NOLAN_2010, NOLAN), count_body(2))
    serve(query(NOLAN_2010, NOLAN, mode="select"), select_body([uri(INCEPTION), uri(TENET)]))
    got = _live(store, tmp_path).hop(NOLAN_2010, NOLAN, INCEPTION)
    assert isinstance(got, Refusal) and got.reason == "not_unique"
    assert "2 match over Wikidata" in got.detail and TENET in got.detail


@responses.activate
def test_an_entity_ambiguity_counts_candidates_and_the_clue(
    store: KnowledgeStore, tmp_path: Path
) -> None:
    weak = NOLAN_2010.model_copy(update={"constraints": []})
    clue = ClueFact(property="P2047", value="+148", value_label="148 minutes", text="")
    clued = weak.model_copy(update={"constraints": [
        NOLAN_2010.constraints[0].model_copy(update={"property": "P2047", "value": "+148",
                                                     "match": "exact", "value_label": ""})]})  # fmt: skip
    serve(query(weak, NOLAN), count_body(3))
    serve(query(weak, NOLAN, mode="select"),
          select_body([uri(INCEPTION), uri(MEMENTO), uri(TENET)]))  # fmt: skip
    serve(query(clued, NOLAN), count_body(1))
    serve(query(clued, NOLAN, mode="select"), select_body([uri(INCEPTION)]))
    inj = InjectionSpec(type="entity", constraint=0, clue=clue)
    got = _live(store, tmp_path).ambiguous(NOLAN_2010, inj, NOLAN, INCEPTION)
    assert isinstance(got, Certificate), got
    assert got.basis == "live_count"
    assert sorted(got.matches) == sorted([INCEPTION, MEMENTO, TENET])
    assert got.clue_matches == [INCEPTION]


@responses.activate
def test_a_replay_without_the_recording_is_an_error_naming_the_query(
    store: KnowledgeStore, tmp_path: Path
) -> None:
    from builder.errors import CacheMissError

    certifier = Certifier(Facts(store), make_counter(tmp_path, mode="replay"))
    with pytest.raises(CacheMissError) as err:
        certifier.hop(NOLAN_2010, NOLAN, INCEPTION)
    assert "wdt:P57 wd:Q25191" in str(err.value)
