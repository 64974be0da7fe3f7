"""A chain's later version hop takes the year the chain is already about ("the chief executive
of the game's developer back when it came out"), unless that year is a transition year."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from builder.kb.store import KnowledgeStore
from builder.records.page import Page
from builder.records.seed import Constraint, HopSpec
from builder.records.wikidata import Entity
from builder.seeding.era import Era, era_of, eras
from builder.seeding.facts import Facts, year_of
from builder.seeding.options import aligned_versions
from builder.seeding.search import ChainBuilder
from builder.validity.certify import Refusal
from tests.ambiguity.minikb import build_store, ent

GAME, COMPANY, HUMAN = "Q7889", "Q783794", "Q5"


def _person(key: str, name: str, born: str, place: str, company: str) -> tuple[Entity, Page | None]:
    city = place.removeprefix("L:").title()
    return ent(
        key,
        name,
        HUMAN,
        {"P569": born, "P19": place},
        f"{name} is a businessperson born in {born} in {city}, chief executive of {company}.",
    )


def _game(key: str, name: str, dev: str, genre: str, year: str) -> tuple[Entity, Page | None]:
    maker = {"L:acme": "Acme Games", "L:zenith": "Zenith Soft"}[dev]
    kind = genre.removeprefix("L:")
    return ent(
        key,
        name,
        GAME,
        {"P178": dev, "P136": genre, "P577": f"{year}-05-01"},
        f"{name} is a {kind} video game developed by {maker} and released in {year}.",
    )


def _world() -> list[tuple[Entity, Page | None]]:
    return [
        ent(GAME, "video game"),
        ent(COMPANY, "company"),
        ent(HUMAN, "human"),
        ent("L:osaka", "Osaka"),
        ent("L:kyoto", "Kyoto"),
        ent("L:nara", "Nara"),
        ent("L:racing", "racing"),
        ent("L:puzzle", "puzzle"),
        ent(
            "L:acme",
            "Acme Games",
            COMPANY,
            {
                "P571": "1980",
                "P169": [
                    {"v": "L:ann", "P580": "2002", "P582": "2014"},
                    {"v": "L:bo", "P580": "2015", "P582": "2020"},
                    {"v": "L:cy", "P580": "2021", "rank": "preferred"},
                ],
            },
            "Acme Games is a video game company founded in 1980. Ann Aki was its chief "
            "executive from 2002 to 2014, Bo Baba from 2015 to 2020 and Cy Chiba since 2021.",
        ),
        _person("L:ann", "Ann Aki", "1950", "L:osaka", "Acme Games"),
        _person("L:bo", "Bo Baba", "1960", "L:kyoto", "Acme Games"),
        _person("L:cy", "Cy Chiba", "1970", "L:nara", "Acme Games"),
        ent(
            "L:zenith",
            "Zenith Soft",
            COMPANY,
            {
                "P571": "1990",
                "P169": [
                    {"v": "L:dee", "P580": "2005", "P582": "2015"},
                    {"v": "L:eve", "P580": "2015", "rank": "preferred"},
                ],
            },
            "Zenith Soft is a video game company founded in 1990. Dee Doi was its chief "
            "executive from 2005 to 2015 and Eve Endo since 2015.",
        ),
        _person("L:dee", "Dee Doi", "1955", "L:osaka", "Zenith Soft"),
        _person("L:eve", "Eve Endo", "1965", "L:kyoto", "Zenith Soft"),
        _game("L:rocket", "Rocket Run", "L:acme", "L:racing", "2019"),
        _game("L:star", "Star Sprint", "L:acme", "L:racing", "2012"),
        _game("L:comet", "Comet Chase", "L:zenith", "L:puzzle", "2015"),
        _game("L:moon", "Moon Maze", "L:zenith", "L:puzzle", "2008"),
    ]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KnowledgeStore]:
    s = build_store(Path(tmp_path_factory.mktemp("era")) / "kb.sqlite", _world())
    yield s
    s.close()


def _racing(year: int) -> HopSpec:
    racing = Constraint(property="P136", value="L:racing", value_label="racing")
    released = Constraint(
        property="P577", value=f"+{year}-00-00T00:00:00Z", value_label=str(year), match="year"
    )
    return HopSpec(class_id=GAME, constraints=[racing, released])


def test_a_chain_reaches_the_year_its_game_came_out(store: KnowledgeStore) -> None:
    facts = Facts(store)
    specs = [_racing(2019), HopSpec(link="P178")]
    # the developer's own founding year is not the era of its chief executives
    assert eras(facts, specs, ["L:rocket", "L:acme"]) == [Era(2019, 0, "constraint", "P577")]
    ceo = HopSpec(link="P169", qualifier="P580", qualifier_value="+2019-00-00T00:00:00Z")
    era = era_of(facts, [*specs, ceo], ["L:rocket", "L:acme", "L:bo"], 2)
    assert era == Era(2019, 0, "constraint", "P577")
    other = ceo.model_copy(update={"qualifier_value": "+2017-00-00T00:00:00Z"})
    assert era_of(facts, [*specs, other], ["L:rocket", "L:acme", "L:bo"], 2) is None
    # the year the question is about (a win) comes before the year the winner came out
    won = HopSpec(
        link="P1346", anchor="L:prize", qualifier="P585", qualifier_value="+2020-00-00T00:00:00Z"
    )
    assert eras(facts, [won, HopSpec(link="P178")], ["L:rocket", "L:acme"]) == [
        Era(2020, 0, "qualifier", "P1346"),
        Era(2019, 0, "answer", "P577"),
    ]


@pytest.mark.parametrize("seed", range(4))
def test_the_version_of_the_chains_year_is_chosen(store: KnowledgeStore, seed: int) -> None:
    """2019 is inside Bo Baba's term (2015-2020) and no term's start or middle: only the
    year of the game's release offers it, and the search takes it."""
    facts = Facts(store)
    steps = ChainBuilder(facts).build("L:rocket", 3, random.Random(seed))
    assert steps is not None
    last = steps[-1].opt
    assert last.spec.link == "P169" and last.answer_key == "L:bo"
    assert year_of(last.spec.qualifier_value) == 2019


def test_a_transition_year_is_not_used(store: KnowledgeStore) -> None:
    """2015, when Dee Doi's term ended and Eve Endo's began, fits both in the real world: the
    certifier refuses "the chief executive in 2015", so the chain takes another year, or 2015
    with a fact of Eve Endo's that Dee Doi does not share (born in Kyoto), as before."""
    facts = Facts(store)
    builder = ChainBuilder(facts)
    (opt, *_) = aligned_versions(facts, "L:zenith", "P169", "entity", 2015)
    assert opt.spec.constraints == [] and opt.answer_key == "L:eve"
    got = builder.certifier.hop(opt.spec, "L:zenith", opt.answer_key)
    assert isinstance(got, Refusal) and got.reason == "not_unique"
    for seed in range(4):
        steps = builder.build("L:comet", 3, random.Random(seed))
        assert steps is not None
        last = steps[-1].opt
        assert last.spec.link == "P169"
        assert year_of(last.spec.qualifier_value) != 2015 or last.spec.constraints
        got = builder.certifier.hop(last.spec, "L:zenith", last.answer_key)
        assert not isinstance(got, Refusal)
