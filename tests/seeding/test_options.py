"""Hop options from a previous answer: a superlative over its reverse relation."""

from __future__ import annotations

from pathlib import Path

from builder.seeding.facts import Facts
from builder.seeding.options import link_options
from tests.ambiguity.minikb import build_store, ent

COUNTRY, CITY = "Q6256", "Q515"


def test_a_superlative_over_two_that_two_criteria_rank_apart_is_a_criterion_option(
    tmp_path: Path,
) -> None:
    """Two cities of a country, one first by area, the other by population: each is 'the
    city with the largest …' of that country, an option a criteria ambiguity can use."""
    items = [
        ent(COUNTRY, "country"),
        ent(CITY, "city"),
        ent("L:land", "Land", COUNTRY, {}, "Land is a country."),
        ent(
            "L:wide",
            "Wide",
            CITY,
            {"P17": "L:land", "P2046": 500, "P1082": {"v": 100, "P585": "2020"}},
            "Wide is a city in Land.",
        ),
        ent(
            "L:crowd",
            "Crowd",
            CITY,
            {"P17": "L:land", "P2046": 100, "P1082": {"v": 900, "P585": "2020"}},
            "Crowd is a city in Land.",
        ),
    ]
    kb = build_store(tmp_path / "kb.sqlite", items)  # type: ignore[arg-type]
    got = {
        (o.spec.criterion, o.answer_key)
        for o in link_options(Facts(kb), "L:land", ["P17"])
        if o.kind == "criterion" and o.spec.criterion_order == "max"
    }
    assert got == {("P1082", "L:crowd"), ("P2046", "L:wide")}
    kb.close()
