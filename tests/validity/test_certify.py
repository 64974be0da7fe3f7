"""The validity model on a small open world: every refusal of issue 10 with its reason, and
the certificates of what is certified (single value, complete set), re-checked by validate.

The world is *open*: only what a declaration says is complete is complete, as for the bundled
snapshot; nothing else is assumed about what exists beyond it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from builder.kb.store import KnowledgeStore
from builder.records.completeness import Declaration
from builder.records.sample import Certificate
from builder.records.seed import ClueFact, Constraint, HopSpec, InjectionSpec
from builder.seeding.facts import Facts
from builder.validity.certify import Certifier, Refusal
from tests.ambiguity.minikb import build_store, ent

FILM, HUMAN, CITY, COMPANY, WRITER = "Q11424", "Q5", "Q515", "Q783794", "L:occ-writer"
NOLAN = Constraint(property="P57", value="L:nolan", value_label="Christopher Nolan")
SINGLE = frozenset({"P19", "P569", "P577", "P2130", "P2047"})
DATED = frozenset({"P1082"})


def _y(year: int) -> str:
    return f"+{year:04d}-00-00T00:00:00Z"


def _film(eid: str, label: str, year: str, budget: int | None, minutes: int) -> object:
    claims: dict[str, object] = {"P57": "L:nolan", "P577": year, "P2047": minutes}
    if budget is not None:
        claims["P2130"] = budget
    return ent(
        eid,
        label,
        FILM,
        claims,
        f"{label} is a {year} film by Christopher Nolan.",
        description=f"{year} film directed by Christopher Nolan",
    )


def world() -> list[object]:
    return [
        ent(FILM, "film"),
        ent(HUMAN, "human"),
        ent(CITY, "city"),
        ent(COMPANY, "company"),
        ent(WRITER, "writer"),
        ent("L:london", "London", CITY, {"P1082": {"v": 8799800, "P585": "2021"}}),
        ent(
            "L:nolan",
            "Christopher Nolan",
            HUMAN,
            {"P569": "1970-07-30", "P19": "L:london", "P166": ["L:oscar", "L:bafta"]},
        ),
        ent("L:oscar", "Academy Award for Best Director"),
        ent("L:bafta", "BAFTA Award for Best Direction"),
        _film("L:following", "Following", "1998", 6000, 69),
        _film("L:memento", "Memento", "2000", 9000000, 113),
        _film("L:inception", "Inception", "2010", 160000000, 148),
        _film("L:oppenheimer", "Oppenheimer", "2023", 100000000, 180),
        ent("L:austen", "Jane Austen", HUMAN, {"P106": WRITER, "P569": "1775-12-16"}),
        ent("L:lamb", "Charles Lamb", HUMAN, {"P106": WRITER, "P569": "1775-02-10"}),
        ent(
            "L:acme",
            "Acme",
            COMPANY,
            {
                "P169": [
                    {"v": "L:ceo-a", "P580": "2002", "P582": "2015"},
                    {"v": "L:ceo-b", "P580": "2015", "P582": "2018"},
                    {"v": "L:ceo-c", "P580": "2018", "rank": "preferred"},
                ]
            },
        ),
        ent("L:buruli", "Buruli ulcer", None, {"P828": "L:m-ulcerans"}, description="skin disease"),
        ent(
            "L:m-ulcerans",
            "Mycobacterium ulcerans",
            description="bacterium that causes Buruli ulcer",
        ),
        ent("L:ceo-a", "Ada", HUMAN, {"P569": "1950"}),
        ent("L:ceo-b", "Bo", HUMAN, {"P569": "1960"}),
        ent("L:ceo-c", "Cy", HUMAN, {"P569": "1970"}),
    ]


DECLS = (
    Declaration(
        id="films-by-nolan",
        subject="L:nolan",
        property="P57",
        direction="inverse",
        class_id=FILM,
        as_of="2024-12-31",
        scope="films Nolan directed",
    ),
    Declaration(
        id="acme-ceos",
        subject="L:acme",
        property="P169",
        direction="forward",
        since=2000,
        until=2024,
        as_of="2024-12-31",
        scope="Acme's CEOs 2000-2024",
    ),
)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KnowledgeStore]:
    path = tmp_path_factory.mktemp("open") / "kb.sqlite"
    kb = build_store(
        path,
        world(),
        closed=False,
        single_valued=SINGLE,
        dated=DATED,  # type: ignore[arg-type]
        declarations=DECLS,
    )
    yield kb
    kb.close()


@pytest.fixture
def cert(store: KnowledgeStore) -> Certifier:
    return Certifier(Facts(store))


def _refused(got: object, reason: str) -> Refusal:
    assert isinstance(got, Refusal), got
    assert got.reason == reason, got
    return got


def test_an_open_class_filter_is_refused(cert: Certifier) -> None:
    """'the writer born in 1775' fits Austen, Lamb, Landor… in reality: no complete set."""
    spec = HopSpec(
        class_id=HUMAN,
        constraints=[
            Constraint(property="P106", value=WRITER, value_label="writer"),
            Constraint(property="P569", value=_y(1775), value_label="1775", match="year"),
        ],
    )
    got = _refused(cert.hop(spec, None, "L:austen"), "open_class")
    assert "writer" in got.detail


def test_a_multi_valued_forward_hop_is_refused(cert: Certifier) -> None:
    got = _refused(cert.hop(HopSpec(link="P166"), "L:nolan", "L:oscar"), "multi_valued")
    assert "Christopher Nolan" in got.detail


def test_a_single_valued_hop_is_certified(cert: Certifier) -> None:
    got = cert.hop(HopSpec(link="P19"), "L:nolan", "L:london")
    assert isinstance(got, Certificate), got
    assert (got.basis, got.source, got.universe, got.matches) == (
        "single_value",
        "P19",
        ["L:london"],
        ["L:london"],
    )
    assert "one value per subject" in got.explanation and "London" in got.explanation


def test_a_hop_over_a_declared_set_is_certified(cert: Certifier) -> None:
    spec = HopSpec(
        class_id=FILM,
        constraints=[
            NOLAN,
            Constraint(property="P577", value=_y(2010), value_label="2010", match="year"),
        ],
    )
    got = cert.hop(spec, None, "L:inception")
    assert isinstance(got, Certificate), got
    assert got.basis == "complete_set" and got.source == "films-by-nolan"
    assert got.universe == ["L:following", "L:inception", "L:memento", "L:oppenheimer"]
    assert got.matches == ["L:inception"] and got.as_of == "2024-12-31"


def test_a_superlative_needs_every_member_ranked(store: KnowledgeStore, tmp_path: Path) -> None:
    spec = HopSpec(class_id=FILM, constraints=[NOLAN], criterion="P2130", criterion_order="min")
    ok = Certifier(Facts(store)).hop(spec, None, "L:following")
    assert isinstance(ok, Certificate) and ok.matches == ["L:following"]
    # the same set with a member whose budget is unknown: the cheapest is not known
    items = [*world(), _film("L:doodlebug", "Doodlebug", "1997", None, 3)]
    kb = build_store(
        tmp_path / "kb.sqlite",
        items,
        closed=False,
        single_valued=SINGLE,  # type: ignore[arg-type]
        declarations=DECLS,
    )
    got = _refused(Certifier(Facts(kb)).hop(spec, None, "L:following"), "superlative_incomplete")
    assert "Doodlebug" in got.detail
    kb.close()


def test_a_superlative_over_an_undeclared_set_is_refused(cert: Certifier) -> None:
    spec = HopSpec(
        class_id=HUMAN,
        constraints=[Constraint(property="P106", value=WRITER, value_label="writer")],
        criterion="P569",
    )
    _refused(cert.hop(spec, None, "L:austen"), "open_class")


def test_a_transition_year_is_refused_and_a_mid_term_year_certified(cert: Certifier) -> None:
    """Ada's term ended and Bo's began in 2015: 'the CEO in 2015' fits both."""
    y2015 = HopSpec(link="P169", qualifier="P580", qualifier_value=_y(2015))
    got = _refused(cert.hop(y2015, "L:acme", "L:ceo-b"), "not_unique")
    assert "Ada" in got.detail and "Bo" in got.detail
    y2016 = HopSpec(link="P169", qualifier="P580", qualifier_value=_y(2016))
    ok = cert.hop(y2016, "L:acme", "L:ceo-b")
    assert isinstance(ok, Certificate) and ok.source == "acme-ceos"


def test_a_fact_over_all_time_needs_every_holder_ever(cert: Certifier) -> None:
    """Acme's CEOs are declared for 2000-2024 only: 'the Acme CEO born in 1960' may fit
    someone before 2000, so it is refused; the time-less version (its clue's year inside the
    range) still ranges over the declared years."""
    born = Constraint(property="P569", value=_y(1960), value_label="1960", match="year")
    by_fact = HopSpec(link="P169", any_time=True, constraints=[born])
    got = _refused(cert.hop(by_fact, "L:acme", "L:ceo-b"), "version_incomplete")
    assert "over all time" in got.detail
    assert cert.members_fitting(by_fact, "L:acme") is None
    versions = HopSpec(link="P169", any_time=True)
    assert cert.members_fitting(versions, "L:acme") == ["L:ceo-a", "L:ceo-b", "L:ceo-c"]


def test_a_version_clue_on_a_transition_year_does_not_single_out(cert: Certifier) -> None:
    spec = HopSpec(link="P169", qualifier="P580", qualifier_value=_y(2016))
    clue = ClueFact(kind="qualifier", property="P580", value=_y(2015), match="year", text="")
    inj = InjectionSpec(type="version", clue=clue)
    got = _refused(cert.ambiguous(spec, inj, "L:acme", "L:ceo-b"), "clue_not_unique")
    assert "2 members" in got.detail
    good = inj.model_copy(update={"clue": clue.model_copy(update={"value": _y(2016)})})
    ok = cert.ambiguous(spec, good, "L:acme", "L:ceo-b")
    assert isinstance(ok, Certificate), ok
    assert ok.matches == ["L:ceo-a", "L:ceo-b", "L:ceo-c"] and ok.clue_matches == ["L:ceo-b"]


def test_a_false_detail_true_of_a_member_is_no_false_premise(cert: Certifier) -> None:
    """'the Nolan film released in 2000' is Memento: saying 2000 for Inception is no mistake."""
    spec = HopSpec(
        class_id=FILM,
        constraints=[
            NOLAN,
            Constraint(property="P577", value=_y(2010), value_label="2010", match="year"),
        ],
    )
    clue = ClueFact(property="P2047", value="+148", value_label="148", text="")
    wrong = InjectionSpec(
        type="factual", constraint=1, false_value=_y(2000), false_label="2000", clue=clue
    )
    got = _refused(cert.ambiguous(spec, wrong, None, "L:inception"), "false_detail_true")
    assert "Memento" in got.detail
    false = wrong.model_copy(update={"false_value": _y(2011), "false_label": "2011"})
    ok = cert.ambiguous(spec, false, None, "L:inception")
    assert isinstance(ok, Certificate), ok
    assert ok.matches == [] and ok.clue_matches == ["L:inception"]


def test_a_definitional_clue_is_refused(cert: Certifier) -> None:
    clue = ClueFact(property="P57", value="L:nolan", value_label="Christopher Nolan", text="")
    got = _refused(cert.definitional("L:inception", clue), "definitional_clue")
    assert "Christopher Nolan" in got.detail
    other = ClueFact(property="P19", value="L:london", value_label="London", text="")
    assert cert.definitional("L:inception", other) is None
    # the other way round: the clue's value is defined by the answer
    cause = ClueFact(
        property="P828", value="L:m-ulcerans", value_label="Mycobacterium ulcerans", text=""
    )
    got = _refused(cert.definitional("L:buruli", cause), "definitional_clue")
    assert "defined by the answer" in got.detail


def test_an_entity_clue_may_not_restate_the_dropped_constraint(cert: Certifier) -> None:
    spec = HopSpec(
        class_id=FILM,
        constraints=[
            NOLAN,
            Constraint(property="P577", value=_y(2010), value_label="2010", match="year"),
        ],
    )
    clue = ClueFact(property="P577", value=_y(2010), value_label="2010", match="year", text="")
    inj = InjectionSpec(type="entity", constraint=1, clue=clue)
    _refused(cert.ambiguous(spec, inj, None, "L:inception"), "clue_restates")
    other = ClueFact(property="P2047", value="+148", value_label="148 minutes", text="")
    ok = cert.ambiguous(spec, inj.model_copy(update={"clue": other}), None, "L:inception")
    assert isinstance(ok, Certificate) and ok.clue_matches == ["L:inception"]
    assert len(ok.matches) == 4


def test_an_undated_changing_quantity_is_refused(cert: Certifier) -> None:
    got = _refused(cert.hop(HopSpec(link="P1082"), "L:london", "+8799800"), "undated_quantity")
    assert "population" in got.detail


COUNTRY = "Q6256"
ALPIA = Declaration(
    id="countries-of-alpia",
    subject="L:alpia",
    property="P30",
    direction="inverse",
    class_id=COUNTRY,
    as_of="2024-12-31",
    scope="countries of Alpia",
)


def _countries(tmp_path: Path, populations: dict[str, list[tuple[int, int]]]) -> KnowledgeStore:
    """Countries of a declared-complete continent, with areas and dated populations."""
    areas = {"L:big": 500, "L:many": 300, "L:small": 20}
    items: list[object] = [ent(COUNTRY, "country"), ent("L:alpia", "Alpia")]
    for key, area in areas.items():
        pops = [{"v": v, "P585": str(y)} for y, v in populations[key]]
        claims = {"P30": "L:alpia", "P2046": area, "P1082": pops}
        items.append(ent(key, key[2:].title(), COUNTRY, claims, f"{key[2:]} is in Alpia."))
    return build_store(
        tmp_path / "countries.sqlite",
        items,  # type: ignore[arg-type]
        closed=False,
        single_valued=frozenset({"P2046"}),
        dated=DATED,
        declarations=(ALPIA,),
    )


MOST_PEOPLE = HopSpec(
    class_id=COUNTRY,
    constraints=[Constraint(property="P30", value="L:alpia", value_label="Alpia")],
    criterion="P1082",
)


def test_a_changing_quantity_is_ranked_at_a_year_every_member_has(tmp_path: Path) -> None:
    """Latest populations of 2023 and 2024: compared at 2023, which every country has, and
    the same country is first either way, so 'the most populous' holds."""
    kb = _countries(
        tmp_path,
        {
            "L:big": [(2023, 60), (2024, 61)],
            "L:many": [(2023, 80)],
            "L:small": [(2022, 4), (2023, 5)],
        },
    )
    cert = Certifier(Facts(kb))
    got = cert.hop(MOST_PEOPLE, None, "L:many")
    assert isinstance(got, Certificate) and got.matches == ["L:many"], got
    # the criteria ambiguity over the same set: by population or by area
    inj = InjectionSpec(
        type="criteria",
        criteria=["P1082", "P2046"],
        clue=ClueFact(kind="criterion", property="P1082", value="max", text=""),
    )
    amb = cert.ambiguous(MOST_PEOPLE, inj, None, "L:many")
    assert isinstance(amb, Certificate), amb
    assert amb.matches == ["L:big", "L:many"] and amb.clue_matches == ["L:many"]
    kb.close()


def test_a_changing_quantity_without_a_common_year_is_refused(tmp_path: Path) -> None:
    kb = _countries(
        tmp_path,
        {"L:big": [(2024, 61)], "L:many": [(2023, 80)], "L:small": [(2022, 4)]},
    )
    got = _refused(Certifier(Facts(kb)).hop(MOST_PEOPLE, None, "L:many"), "dates_unaligned")
    assert "2022" in got.detail and "2024" in got.detail
    kb.close()


def test_a_common_year_that_ranks_another_first_is_refused(tmp_path: Path) -> None:
    """Big is first by its 2024 figure but Many was first in 2023, the year all share: the
    undated superlative's answer would hang on the year."""
    kb = _countries(
        tmp_path,
        {
            "L:big": [(2023, 60), (2024, 90)],
            "L:many": [(2023, 80)],
            "L:small": [(2023, 5)],
        },
    )
    got = _refused(Certifier(Facts(kb)).hop(MOST_PEOPLE, None, "L:big"), "dates_unaligned")
    assert "in 2023 Many ranked first" in got.detail
    kb.close()
