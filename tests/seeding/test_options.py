"""Hop options from a previous answer: a superlative over its reverse relation."""

from __future__ import annotations

from pathlib import Path

from builder.records.page import Page
from builder.records.wikidata import Entity
from builder.seeding.facts import Facts
from builder.seeding.options import link_options
from builder.validity.certify import Certifier, Refusal
from tests.ambiguity.minikb import build_store, build_store_with, ent

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


def _shared_prize_world() -> list[tuple[Entity, Page | None]]:
    person, org = "Q5", "Q484652"
    return [
        ent(person, "human"),
        ent(org, "international organization"),
        ent("L:male", "male"),
        ent(
            "L:prize",
            "Peace Prize",
            None,
            {
                "P1346": [
                    {"v": "L:gore", "P585": "2007"},
                    {"v": "L:panel", "P585": "2007"},
                    {"v": "L:rabin", "P585": "1994"},
                    {"v": "L:peres", "P585": "1994"},
                ]
            },
            "The Peace Prize is a prize.",
        ),
        ent("L:gore", "Gore", person, {"P569": "1948", "P21": "L:male"}, "Gore is a man."),
        ent("L:panel", "Panel", org, {"P571": "1988"}, "The Panel is an organization."),
        ent("L:rabin", "Rabin", person, {"P569": "1922"}, "Rabin is a man."),
        ent("L:peres", "Peres", person, {"P569": "1923"}, "Peres is a man."),
    ]


def test_a_winner_shared_with_an_organization_is_told_apart_among_the_people_only(
    tmp_path: Path,
) -> None:
    """A prize-year shared by a person and an organization: "the 2007 winner born in 1948"
    speaks of the people among the winners (an organization has no date of birth, so the
    certifier could not decide it for the organization and would refuse it); a year shared by
    people only keeps the description as it was, over every winner of the year."""
    kb = build_store_with(
        tmp_path / "kb.sqlite",
        {"P1346": ("winner", "wikibase-item")},
        _shared_prize_world,
        single_valued=frozenset({"P569", "P571"}),
    )
    facts = Facts(kb)
    certifier = Certifier(facts)
    recalled = {
        (o.answer_key, o.spec.qualifier_value[1:5], o.spec.class_id): o.spec
        for o in link_options(facts, "L:prize", [])
        if o.kind == "version" and o.spec.constraints
    }
    assert set(recalled) == {
        ("L:gore", "2007", "Q5"),
        ("L:panel", "2007", "Q484652"),
        ("L:rabin", "1994", ""),
        ("L:peres", "1994", ""),
    }
    for (key, _, _), spec in recalled.items():
        got = certifier.hop(spec, "L:prize", key)
        assert not isinstance(got, Refusal), (key, got)
        assert got.matches == [key]
    # without the class, the same description is undecidable for the organization
    plain = recalled[("L:gore", "2007", "Q5")].model_copy(update={"class_id": ""})
    refused = certifier.hop(plain, "L:prize", "L:gore")
    assert isinstance(refused, Refusal) and refused.reason == "undecidable"
    kb.close()
