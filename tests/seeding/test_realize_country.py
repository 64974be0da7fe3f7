"""A chain through a country to its head of state or government, as a person asks it (issue
11), on a hand-built world: a capital's and a party's country said as people say it, a name
that takes "the" ("the Linux kernel"), an office holder of a name in a year by a possessive
("Walmart's CEO in 1982")."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from builder.kb.store import KnowledgeStore
from builder.records.seed import HopSpec
from builder.seeding.facts import Facts
from builder.seeding.lint import text_problems
from builder.seeding.realize import Realizer, readable
from tests.ambiguity.minikb import build_store_with, ent
from tests.seeding.test_vague import timed, year

COUNTRY, CITY, PARTY, HUMAN, COMPANY = "Q6256", "Q5119", "Q7278", "Q5", "Q4830453"
MORE_PROPS = {
    "P27": ("country of citizenship", "wikibase-item"),
    "P6": ("head of government", "wikibase-item"),
    "P35": ("head of state", "wikibase-item"),
    "P287": ("designed by", "wikibase-item"),
    "P570": ("date of death", "time"),
    "P175": ("performer", "wikibase-item"),
}


def _world() -> list[tuple]:  # type: ignore[type-arg]
    return [
        ent(COUNTRY, "country"),
        ent(CITY, "capital city"),
        ent(PARTY, "political party"),
        ent(HUMAN, "human"),
        ent(COMPANY, "business"),
        ent("L:soviet", "Soviet Union", COUNTRY, {"P36": "L:moscow"}),
        ent("L:putin", "Vladimir Putin", HUMAN, {"P569": "1952"}),
        ent("L:russia", "Russia", COUNTRY, {"P35": "L:putin"}),
        ent("L:moscow", "Moscow", CITY, {"P17": "L:russia"}),
        ent("L:albanese", "Anthony Albanese", HUMAN, {"P569": "1963"}),
        ent("L:au", "Australia", COUNTRY, {"P6": "L:albanese"}),
        ent("L:alp", "Australian Labor Party", PARTY, {"P17": "L:au"}),
        ent("L:linus", "Linus Torvalds", HUMAN, {"P569": "1969", "P27": "L:fi"}),
        ent("L:niinisto", "Sauli Niinistö", HUMAN, {"P569": "1948"}),
        ent("L:fi", "Finland", COUNTRY, {"P35": "L:niinisto"}),
        ent("L:linux", "Linux kernel", "Q7397", {"P287": "L:linus"}),
        ent("L:glass", "David Glass", HUMAN, {"P569": "1935", "P27": "L:us"}),
        ent("L:truman", "Harry S. Truman", HUMAN, {"P569": "1884", "P570": "1972"}),
        ent("L:us", "United States", COUNTRY, {"P35": {"v": "L:truman", "P580": "1945"}}),
        ent("L:walmart", "Walmart", COMPANY, {"P169": {"v": "L:glass", "P580": "1982"}}),
        ent("Q515", "city"),
        ent("L:canberra", "Canberra", "Q515", {"P17": "L:au"}),
        ent("Q482994", "album"),
        ent("L:swift", "Taylor Swift", HUMAN, {"P569": "1989", "P27": "L:us"}),
        ent("L:1989", "1989", "Q482994", {"P175": "L:swift"}),
    ]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KnowledgeStore]:
    s = build_store_with(Path(tmp_path_factory.mktemp("country")) / "kb.sqlite", MORE_PROPS, _world)
    yield s
    s.close()


@pytest.fixture(scope="module")
def realizer(store: KnowledgeStore) -> Realizer:
    return Realizer(Facts(store))


def test_a_capitals_country_is_the_one_it_is_in(realizer: Realizer) -> None:
    chain = [HopSpec(link="P36", anchor="L:soviet"), HopSpec(link="P17"), HopSpec(link="P35")]
    question = realizer.question([*chain, HopSpec(link="P569")])
    assert "the country of the capital" not in question
    # the country asked first, by what is in it (no "… is in a country I'm curious about."
    # lead, no "… is in born?", no "Which country is the capital of … in?", a garden path),
    # then its head of state about "its" (not "that country's", stilted to blind raters)
    assert question == (
        "In which country is the capital of the Soviet Union? I want to know when its head "
        "of state was born."
    )
    assert text_problems(question) == []


def test_a_partys_country_is_where_it_is_based(realizer: Realizer) -> None:
    chain = [HopSpec(link="P17", anchor="L:alp"), HopSpec(link="P6"), HopSpec(link="P569")]
    question = realizer.question(chain)
    assert "the country of the Australian Labor Party" not in question
    assert question.startswith("Which country is the Australian Labor Party based in? ")
    # the goal keeps the words its search is measured with
    assert realizer.goals(chain[:1], ["L:au"]) == [
        "Which country is the Australian Labor Party in?"
    ]


def test_the_linux_kernel_takes_its_article(realizer: Realizer) -> None:
    chain = [HopSpec(link="P287", anchor="L:linux"), HopSpec(link="P27"), HopSpec(link="P35")]
    question = realizer.question([*chain, HopSpec(link="P569")])
    assert question.startswith("Which country is the designer of the Linux kernel from? ")
    assert "of Linux kernel" not in question


def test_an_office_holder_of_a_name_in_a_year_is_its_possessive(realizer: Realizer) -> None:
    ceo = timed("P169", "P580", 1982, anchor="L:walmart")
    head = timed("P35", "P580", 1945, constraints=[year("P569", 1884)])
    question = realizer.question([ceo, HopSpec(link="P27"), head, HopSpec(link="P570")])
    # the country asked first; the office's year on the noun of the second question (two
    # years would run together in one: "… CEO in 1982 in 1945 die?"), the head's fact after it
    assert question == (
        "Where is Walmart's CEO in 1982 from? I want to know when the head of state there in "
        "1945 died. As far as I know, the leader was born in 1884."
    )


def test_a_citys_country_is_the_one_it_is_in(realizer: Realizer) -> None:
    chain = [HopSpec(link="P17", anchor="L:canberra"), HopSpec(link="P6"), HopSpec(link="P569")]
    question = realizer.question(chain)
    assert "the country of Canberra" not in question
    assert question == "Which country is Canberra in? When was its head of government born?"
    # its clause's last word is no place for the question's verb
    assert not readable(
        "When was the head of government of a country bordering the country Lisbon is in born?"
    )


def test_an_artist_with_a_home_country_is_a_person_from_it(realizer: Realizer) -> None:
    # "the artist behind" may be a band, but one with a citizenship is a person: "is from"
    performed = HopSpec(link="P175", anchor="L:1989")
    head = timed("P35", "P580", 1945, constraints=[year("P569", 1884)])
    question = realizer.question([performed, HopSpec(link="P27"), head])
    assert question == (
        "Which country is the artist behind the album 1989 from? Who was its head of state in "
        "1945? The leader was born in 1884, if I'm not mistaken."
    )
    # (not "the head of state" said again right after the question about them)
    assert question.count("head of state") == 1


def test_a_clauses_preposition_meets_no_from() -> None:
    # marked a garden path by the blind reviewer: the clause's "in" then the question's "from"
    assert not readable(
        "Which country is the head coach of the winner of the league Borussia Dortmund plays "
        "in from?"
    )
    assert readable("Which country is the head coach of FC Barcelona from?")
