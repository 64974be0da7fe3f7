"""A player's teams (P54): clubs and a national team, declared complete. A hop may name the
club class ("the club Cristiano Ronaldo played for in Italy"), which leaves the national team
out of what the question and its vague form are about; unnamed, the national team is one of
the player's teams and counts (in a year, and for every fact a description or clue states).

The world is open: only the declarations below say what is complete, as in the bundled
snapshot.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from builder.ambiguity import inject
from builder.ambiguity.checks import run_checks
from builder.kb.store import KnowledgeStore
from builder.records.completeness import Declaration
from builder.records.seed import ClueFact, Constraint, HopSpec, InjectionSpec
from builder.seeding.facts import Facts
from builder.seeding.generate import chain_from_specs
from builder.seeding.options import link_options, narrow_all
from builder.seeding.realize import Realizer
from builder.validity.certify import Certifier, Refusal
from tests.ambiguity.minikb import build_store_with, ent

HUMAN, CLUB, NATIONAL, COUNTRY, CITY = (
    "Q5",
    "Q476028",
    "L:class-national-team",
    "Q6256",
    "Q515",
)
PLAYER, JUVE, MADRID, UNITED, PORTUGAL = (
    "L:cr",
    "L:juve",
    "L:real-madrid",
    "L:united",
    "L:portugal-team",
)
PROPS = {
    "P54": ("member of sports team", "wikibase-item"),
    "P131": ("located in the administrative territorial entity", "wikibase-item"),
    "P286": ("head coach", "wikibase-item"),
    "P1346": ("winner", "wikibase-item"),
}
ITALY = Constraint(property="P17", value="L:italy", value_label="Italy")
FOUNDED_1897 = Constraint(
    property="P571", value="+1897-00-00T00:00:00Z", value_label="1897", match="year"
)


def _club(eid: str, label: str, city: str, country: str, founded: str, **more: object) -> object:
    town, land = (k.removeprefix("L:").capitalize() for k in (city, country))
    return ent(
        eid,
        label,
        CLUB,
        {"P17": country, "P131": city, "P571": founded, **more},
        f"{label} is an association football club based in {town}, {land}, founded in {founded}.",
    )


def world() -> list[object]:
    return [
        ent(HUMAN, "human"),
        ent(CLUB, "association football club"),
        ent(NATIONAL, "national sports team"),
        ent(COUNTRY, "country"),
        ent(CITY, "city"),
        ent("L:italy", "Italy", COUNTRY, {}, "Italy is a country in Europe."),
        ent("L:spain", "Spain", COUNTRY, {}, "Spain is a country in Europe."),
        ent("L:uk", "United Kingdom", COUNTRY, {}, "The United Kingdom is a country."),
        ent("L:portugal", "Portugal", COUNTRY, {}, "Portugal is a country in Europe."),
        ent("L:turin", "Turin", CITY, {"P17": "L:italy"}, "Turin is a city in Italy."),
        ent("L:madrid", "Madrid", CITY, {"P17": "L:spain"}, "Madrid is a city in Spain."),
        ent("L:manchester", "Manchester", CITY, {"P17": "L:uk"}, "Manchester is a city."),
        _club(
            JUVE,
            "Juventus",
            "L:turin",
            "L:italy",
            "1897",
            P286={"v": "L:allegri", "P580": "2014", "P582": "2019"},
        ),
        ent(
            "L:allegri",
            "Massimiliano Allegri",
            HUMAN,
            {"P569": "1967-08-11"},
            "Massimiliano Allegri (born 11 August 1967) coached Juventus from 2014 to 2019.",
        ),
        _club(MADRID, "Real Madrid", "L:madrid", "L:spain", "1902"),
        ent("L:award", "award"),
        ent(
            "L:ballon",
            "Ballon d'Or",
            "L:award",
            {"P1346": [{"v": PLAYER, "P585": "2008"}]},
            "The Ballon d'Or is awarded each year; Cristiano Ronaldo won it in 2008.",
        ),
        _club(UNITED, "Manchester United", "L:manchester", "L:uk", "1878"),
        # a national team has no founding year in this world: facts about it are unknown
        ent(
            PORTUGAL,
            "Portugal national football team",
            NATIONAL,
            {"P17": "L:portugal"},
            "The Portugal national football team represents Portugal.",
        ),
        ent(
            PLAYER,
            "Cristiano Ronaldo",
            HUMAN,
            {
                "P569": "1985-02-05",
                "P54": [
                    {"v": UNITED, "P580": "2003", "P582": "2009"},
                    {"v": MADRID, "P580": "2009", "P582": "2018"},
                    {"v": JUVE, "P580": "2018", "P582": "2021"},
                    {"v": PORTUGAL, "P580": "2003"},
                ],
            },
            "Cristiano Ronaldo (born 5 February 1985) is a footballer. Clubs: Manchester "
            "United (2003–2009), Real Madrid (2009–2018), Juventus (2018–2021). He has "
            "played for the Portugal national football team since 2003.",
        ),
    ]


def _declarations() -> tuple[Declaration, ...]:
    def fwd(subject: str, pid: str) -> Declaration:
        return Declaration(
            id=f"{subject}-{pid}", subject=subject, property=pid, direction="forward",
            as_of="2024-12-31", scope=f"all {pid} of {subject}",
        )  # fmt: skip

    teams = (JUVE, MADRID, UNITED, PORTUGAL)
    clubs = (JUVE, MADRID, UNITED)
    return (
        fwd(PLAYER, "P54"),
        *(fwd(t, "P17") for t in teams),
        *(fwd(c, "P131") for c in clubs),
    )


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KnowledgeStore]:
    store = build_store_with(
        tmp_path_factory.mktemp("teams") / "kb.sqlite",
        PROPS,
        world,  # type: ignore[arg-type]
        closed=False,
        single_valued=frozenset({"P569", "P571"}),
        declarations=_declarations(),
    )
    yield store
    store.close()


def _year(y: int) -> str:
    return f"+{y:04d}-00-00T00:00:00Z"


def test_a_club_is_narrowed_by_its_class_and_a_fact_the_national_team_is_known_not_to_share(
    kb: KnowledgeStore,
) -> None:
    facts = Facts(kb)
    cert = Certifier(facts)

    def accept(spec: HopSpec, answer: str) -> bool:
        return not isinstance(cert.hop(spec, PLAYER, answer), Refusal)

    opts = link_options(facts, PLAYER, [], cert.completeness.dated, accept)
    juve = {
        (o.spec.class_id, tuple(c.property for c in o.spec.constraints))
        for o in opts
        if o.kind == "narrowed" and o.answer_key == JUVE
    }
    # as a team, Juventus is the one in Italy; as a club also the one founded in 1897 (the
    # national team's founding year is unknown, so "the team founded in 1897" is refused)
    assert (CLUB, ("P17",)) in juve and (CLUB, ("P571",)) in juve and ("", ("P17",)) in juve
    assert ("", ("P571",)) not in juve
    undecided = cert.hop(HopSpec(link="P54", constraints=[FOUNDED_1897]), PLAYER, JUVE)
    assert isinstance(undecided, Refusal) and undecided.reason == "undecidable"
    # the only national team is that, alone ("the national team" is not a class hop names)
    assert not [o for o in opts if o.answer_key == PORTUGAL and o.spec.class_id]


def test_the_club_hop_reads_club_and_the_team_hop_team(kb: KnowledgeStore) -> None:
    r = Realizer(Facts(kb))
    club = HopSpec(link="P54", anchor=PLAYER, class_id=CLUB, constraints=[ITALY])
    assert r.question([club]) == "Which club in Italy did Cristiano Ronaldo play for?"
    team = club.model_copy(update={"class_id": ""})
    assert r.question([team]) == "Which team in Italy did Cristiano Ronaldo play for?"


def test_a_clubs_year_and_possessive_read_before_its_facts(kb: KnowledgeStore) -> None:
    """Not "the head coach of Cristiano Ronaldo's club founded in 1897 in 2016" (the year
    reads as another fact of the club) nor "Cristiano Ronaldo's club founded in 1897's
    head coach"."""
    r = Realizer(Facts(kb))
    club = HopSpec(link="P54", anchor=PLAYER, class_id=CLUB, constraints=[FOUNDED_1897])
    coach = HopSpec(link="P286", qualifier="P580", qualifier_value=_year(2016))
    assert r.question([club, coach, HopSpec(link="P569")]) == (
        "When was the head coach in 2016 of Cristiano Ronaldo's club founded in 1897 born?"
    )
    assert "1897's" not in r.question([club, coach, HopSpec(link="P569")])


def test_in_a_year_the_national_team_is_one_of_the_teams_but_no_club(kb: KnowledgeStore) -> None:
    cert = Certifier(Facts(kb))
    team = HopSpec(link="P54", qualifier="P580", qualifier_value=_year(2013))
    got = cert.hop(team, PLAYER, MADRID)
    assert isinstance(got, Refusal) and got.reason == "not_unique"
    club = cert.hop(team.model_copy(update={"class_id": CLUB}), PLAYER, MADRID)
    assert not isinstance(club, Refusal) and club.matches == [MADRID]


def test_the_vague_club_hop_has_the_clubs_as_candidates_and_a_founding_year_picks_one(
    kb: KnowledgeStore,
) -> None:
    cert = Certifier(Facts(kb))
    club = HopSpec(link="P54", class_id=CLUB, constraints=[ITALY])
    inj = InjectionSpec(type="entity", constraint=0, clue=ClueFact.from_fact(FOUNDED_1897))
    got = cert.ambiguous(club, inj, PLAYER, JUVE)
    assert not isinstance(got, Refusal), got
    assert got.matches == sorted([JUVE, MADRID, UNITED])
    assert PORTUGAL in got.universe and PORTUGAL not in got.matches
    assert got.clue_matches == [JUVE]
    # the same vague hop over "team": the national team fits too, and whether it was founded
    # in 1897 is unknown, so the clue cannot be certified
    team = club.model_copy(update={"class_id": ""})
    refused = cert.ambiguous(team, inj, PLAYER, JUVE)
    assert isinstance(refused, Refusal) and refused.reason == "clue_undecidable"


def test_an_entity_ambiguity_over_the_players_clubs(kb: KnowledgeStore) -> None:
    """Which city is the club Cristiano Ronaldo played for based in? Juventus, Real
    Madrid and Manchester United lead to three cities; the clue is the club's founding
    year (the dropped country is not said again)."""
    club = HopSpec(link="P54", anchor=PLAYER, class_id=CLUB, constraints=[ITALY])
    chain = chain_from_specs(kb, "seed-000001", [club, HopSpec(link="P131")])
    result = inject(kb, [chain], types=["entity"], progress=False)
    assert len(result.samples) == 1, result.rejects
    s = result.samples[0]
    assert run_checks(kb, s).passed
    cp = s.checkpoints[0]
    assert cp.ambiguity_type == "entity"
    assert {c.id for c in cp.candidates} == {JUVE, MADRID, UNITED}
    assert "club" in s.question and "Italy" not in s.question
    assert "1897" in cp.clue


def test_narrowing_counts_only_accepted_variants(kb: KnowledgeStore) -> None:
    facts = Facts(kb)
    extra = [ITALY, FOUNDED_1897]
    base = HopSpec(link="P54", class_id=CLUB)
    assert narrow_all(facts, base, JUVE, PLAYER, extra, limit=1) == [
        base.model_copy(update={"constraints": [ITALY]})
    ]
    got = narrow_all(
        facts, base, JUVE, PLAYER, extra, limit=1, accept=lambda s: s.constraints[0] != ITALY
    )
    assert got == [base.model_copy(update={"constraints": [FOUNDED_1897]})]


def test_a_chain_through_a_narrowed_club_asks_the_club_first(kb: KnowledgeStore) -> None:
    """Not "When was the head coach in 2016 of the club, in Italy, of the 2008 Ballon d'Or
    winner born?" (a blind rater's 2 of 5): the club asked on its own, its coach about "its"."""
    r = Realizer(Facts(kb))
    winner = HopSpec(link="P1346", anchor="L:ballon", qualifier="P585", qualifier_value=_year(2008))
    club = HopSpec(link="P54", class_id=CLUB, constraints=[ITALY])
    coach = HopSpec(link="P286", qualifier="P580", qualifier_value=_year(2016))
    assert r.question([winner, club, coach, HopSpec(link="P569")]) == (
        # (the world has no short names: the bundled one says "the 2008 Ballon d'Or winner")
        "Which club in Italy did the winner of Ballon d'Or in 2008 play for? When was its 2016"
        " head coach born?"
    )
