"""Store queries against real SQLite: fixture entities plus small hand-made graphs."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from builder.errors import InputError
from builder.kb.importers import import_paths
from builder.kb.store import KnowledgeStore
from builder.kb.text import normalize_name
from builder.records.page import Page
from tests.kb.conftest import (
    item_snak,
    make_entity,
    quantity_snak,
    statement,
    time_snak,
)


def test_normalize_name() -> None:
    assert normalize_name("  The  Beatles!") == "the beatles"
    assert normalize_name("AC/DC") == "ac dc"
    assert normalize_name("ＨＯＮＧ　ＫＯＮＧ") == "hong kong"  # NFKC: full-width letters and space
    assert normalize_name("Straße") == normalize_name("STRASSE")  # casefold
    assert normalize_name("Zürich") != normalize_name("Zurich")
    assert normalize_name("...") == ""


def test_ranks_preferred_beats_normal_deprecated_never(
    store: KnowledgeStore, fixtures_dir: Path
) -> None:
    import_paths(store, [fixtures_dir / "wikidata/qwikidata/wd_Q42.json"], progress=False)
    # P735 given name: preferred Q463035 + normal Q19688263 -> only the preferred one
    assert [v.key() for v in store.best_values("Q42", "P735")] == ["Q463035"]
    # P551 residence: deprecated Q159288 + two normal -> the normal ones
    assert [v.key() for v in store.best_values("Q42", "P551")] == ["Q84", "Q909993"]
    assert store.subjects("P551", "Q159288") == []
    assert store.subjects("P551", "Q84") == ["Q42"]
    assert store.subjects("P735", "Q19688263") == []  # normal, outranked by preferred
    stored = store.get_entity("Q42")
    assert stored is not None and len(stored.claims["P551"]) == 3  # stored as is


def test_reverse_index(store: KnowledgeStore) -> None:
    store.upsert_entities(
        [
            make_entity("Q1", "a", [statement(item_snak("P50", "Q100"))]),
            make_entity("Q2", "b", [statement(item_snak("P50", "Q100")),
                                    statement(item_snak("P50", "Q100"))]),
            make_entity("Q3", "c", [statement(item_snak("P50", "Q100"), rank="deprecated")]),
            make_entity("Q4", "d", [statement(item_snak("P50", "Q101"))]),
            make_entity("Q5x", "e", [statement(item_snak("P57", "Q100"))]),
        ]
    )  # fmt: skip
    assert store.subjects("P50", "Q100") == ["Q1", "Q2"]
    assert store.count_subjects("P50", "Q100") == 2
    assert store.subjects("P50", "Q101") == ["Q4"]
    assert store.subjects("P50", "Q999") == []


def test_reverse_index_on_fixture_values(fixture_store: KnowledgeStore) -> None:
    humans = fixture_store.subjects("P31", "Q5")
    assert {"Q42", "Q646148", "Q328212"} <= set(humans)
    assert humans == sorted(humans)
    # quantity keys carry the unit: Hong Kong's preferred population is unitless
    assert fixture_store.subjects("P1082", "+7409800") == ["Q8646"]
    assert fixture_store.subjects("P1082", "+7071576") == []  # normal, outranked


def test_time_groups_hong_kong_population(fixture_store: KnowledgeStore) -> None:
    [group] = fixture_store.time_groups("Q8646", "P1082")
    assert len(group.values) == 13
    times = [v.point_in_time for v in group.values]
    assert times[0] == "+1961-00-00T00:00:00Z" and times[-1] == "+2017-00-00T00:00:00Z"
    assert [t[:5] for t in times] == sorted(t[:5] for t in times)  # type: ignore[index]
    assert [v.rank for v in group.values].count("preferred") == 1
    assert group.values[-1].display == "7409800" and group.values[-1].rank == "preferred"
    assert {v.value_key for v in group.values} >= {"+7071576", "+3129648"}


def test_time_groups_positions_with_start_and_end(fixture_store: KnowledgeStore) -> None:
    [group] = fixture_store.time_groups("Q646148", "P39")
    keys = [v.value_key for v in group.values]
    # 13 P39 statements, 6 carry P580/P582; the untimed ones are left out
    assert len(keys) == 6
    first = group.values[0]
    assert (first.value_key, first.start, first.end) == (
        "Q64852347", "+1977-00-00T00:00:00Z", "+1984-00-00T00:00:00Z",
    )  # fmt: skip
    assert keys.count("Q1780230") == 1 and keys.count("Q12311817") == 1


def test_time_groups_band_members(fixture_store: KnowledgeStore) -> None:
    [group] = fixture_store.time_groups("Q1299", "P527")
    assert [(v.value_key, v.start, v.end) for v in group.values] == [
        ("Q204218", "+1960-01-01T00:00:00Z", "+1961-07-01T00:00:00Z"),
        ("Q207335", "+1960-08-12T00:00:00Z", "+1962-08-16T00:00:00Z"),
        ("Q2632", "+1962-08-16T00:00:00Z", None),
    ]
    every = fixture_store.time_groups()
    assert {(g.subject_id, g.property) for g in every} >= {("Q1299", "P527"), ("Q8646", "P1082")}
    assert all(len(g.values) >= 2 for g in every)


def test_time_groups_need_distinct_times_and_skip_deprecated(store: KnowledgeStore) -> None:
    p585 = "+2020-01-01T00:00:00Z"
    store.upsert_entities(
        [
            make_entity("Q1", "same time", [
                statement(quantity_snak("P1082", "+1"), qualifiers=[time_snak("P585", p585)]),
                statement(quantity_snak("P1082", "+2"), qualifiers=[time_snak("P585", p585)]),
            ]),
            make_entity("Q2", "one deprecated", [
                statement(quantity_snak("P1082", "+1"), qualifiers=[time_snak("P585", p585)]),
                statement(quantity_snak("P1082", "+2"), rank="deprecated",
                          qualifiers=[time_snak("P585", "+2021-01-01T00:00:00Z")]),
            ]),
        ]
    )  # fmt: skip
    assert store.time_groups() == []


def _chain(store: KnowledgeStore) -> None:
    """C0 <- C1 <- C2 <- C3 (P279); A P31 C3; B P31 C1; D P31 C0 (deprecated); cycle C0->C3."""
    store.upsert_entities(
        [
            make_entity("C1", "c1", [statement(item_snak("P279", "C0"))]),
            make_entity("C2", "c2", [statement(item_snak("P279", "C1"))]),
            make_entity("C3", "c3", [statement(item_snak("P279", "C2"))]),
            make_entity("C0", "c0", [statement(item_snak("P279", "C3"))]),
            make_entity("A", "a", [statement(item_snak("P31", "C3"))]),
            make_entity("B", "b", [statement(item_snak("P31", "C1"))]),
            make_entity("D", "d", [statement(item_snak("P31", "C0"), rank="deprecated")]),
        ]
    )


def test_instances_of_with_depth_bound(store: KnowledgeStore) -> None:
    _chain(store)
    assert store.instances_of("C0", max_depth=3) == ["A", "B"]
    assert store.instances_of("C0", max_depth=2) == ["B"]
    assert store.instances_of("C0", max_depth=0) == []
    assert store.instances_of("C3", max_depth=0) == ["A"]
    assert store.instances_of("C3", max_depth=10) == ["A", "B"]  # cycle terminates


def test_classes_of_nearest_first(store: KnowledgeStore) -> None:
    _chain(store)
    assert store.classes_of("A") == ["C3", "C2", "C1", "C0"]
    assert store.classes_of("A", max_depth=1) == ["C3", "C2"]
    assert store.classes_of("D") == []


def test_numeric_properties_and_values(store: KnowledgeStore) -> None:
    def city(qid: str, pop: list[tuple[str, str]], area: str | None) -> object:
        claims = [statement(item_snak("P31", "Q515"))]
        claims += [
            statement(quantity_snak("P1082", amount), qualifiers=[time_snak("P585", when)])
            for amount, when in pop
        ]
        if area:
            claims.append(
                statement(quantity_snak("P2046", area, "http://www.wikidata.org/entity/Q712226"))
            )
        return make_entity(qid, qid, claims)

    store.upsert_entities(
        [
            city("Q10", [("+100", "+2000-01-01T00:00:00Z"), ("+150", "+2010-01-01T00:00:00Z")], "+5"),
            city("Q11", [("+300", "+2010-01-01T00:00:00Z")], None),
            city("Q12", [("+50", "+1990-01-01T00:00:00Z")], "+7.5"),
            make_entity("Q13", "not a city", [statement(quantity_snak("P2067", "+1"))]),
        ]
    )  # type: ignore[list-item]  # fmt: skip
    assert store.numeric_properties("Q515") == ["P1082", "P2046"]
    assert store.numeric_properties("Q515", min_entities=3) == ["P1082"]
    values = store.numeric_values("P1082", ["Q12", "Q10", "Q13"])
    assert [(v.entity_id, v.amount, v.point_in_time) for v in values] == [
        ("Q12", 50.0, "+1990-01-01T00:00:00Z"),
        ("Q10", 150.0, "+2010-01-01T00:00:00Z"),  # latest P585 of the two
    ]
    [area] = store.numeric_values("P2046", ["Q12"])
    assert (area.amount, area.unit) == (7.5, "Q712226")


def test_numeric_values_hong_kong_uses_preferred(fixture_store: KnowledgeStore) -> None:
    [value] = fixture_store.numeric_values("P1082", ["Q8646"])
    assert (value.amount, value.point_in_time) == (7409800.0, "+2017-00-00T00:00:00Z")


def test_ids_by_name_shared_names_and_aliases(store: KnowledgeStore) -> None:
    store.upsert_entities(
        [
            make_entity("Q308", "Mercury", aliases=["planet Mercury"]),
            make_entity("Q925", "mercury", aliases=["Hg", "quicksilver"]),
            make_entity("Q152", "Freddie Mercury", aliases=["MERCURY!"]),
        ]
    )
    assert store.ids_by_name("Mercury") == ["Q152", "Q308", "Q925"]
    assert store.ids_by_name("  QUICKSILVER ") == ["Q925"]
    assert store.ids_by_name("Venus") == []
    assert store.aliases("Q925") == ["Hg", "quicksilver"]
    assert store.labels(["Q308", "Q925", "Qnone"]) == {"Q308": "Mercury", "Q925": "mercury"}


def test_labels_in_languages_not_indexed_come_from_the_document(
    fixture_store: KnowledgeStore,
) -> None:
    assert fixture_store.label("Q8646", "de") == "Hongkong"
    assert fixture_store.label("Q8646") == "Hong Kong"
    assert "HK" in fixture_store.aliases("Q8646")


def test_search_bm25(store: KnowledgeStore) -> None:
    store.upsert_pages(
        [
            Page(entity_id="Q1", title="Python (programming language)", url="https://x/1",
                 text="Python is a high-level programming language. Python emphasises readability."),
            Page(entity_id="Q2", title="Monty Python", url="https://x/2",
                 text="Monty Python were a British comedy troupe."),
            Page(entity_id="Q3", title="Java", url="https://x/3",
                 text="Java is an island of Indonesia."),
        ]
    )  # fmt: skip
    hits = store.search("python programming language", k=5)
    assert [h.entity_id for h in hits] == ["Q1", "Q2"]
    assert hits[0].score > hits[1].score > 0
    assert "programming" in hits[0].snippet and hits[0].url == "https://x/1"
    assert store.search("python", k=1)[0].entity_id == "Q1"
    assert store.search('"AND (OR* NEAR') == []  # FTS syntax is quoted, never an error
    store.upsert_pages([Page(entity_id="Q3", title="Java", text="Java is a programming language.")])
    assert {h.entity_id for h in store.search("programming")} == {"Q1", "Q3"}
    assert store.stats().pages == 3


def test_entities_round_trip(fixture_store: KnowledgeStore, fixtures_dir: Path) -> None:
    path = fixtures_dir / "wikidata/dahlia-wikidata/Q1299.json"
    from builder.records.wikidata import Entity

    original = Entity.model_validate(
        __import__("json").loads(path.read_text())["entities"]["Q1299"]
    )
    assert fixture_store.get_entity("Q1299") == original
    got = fixture_store.get_entities(["Q1299", "Q8646", "Qnope"])
    assert set(got) == {"Q1299", "Q8646"}


def test_property_entities_and_datatypes(fixture_store: KnowledgeStore) -> None:
    assert fixture_store.property_datatype("P434") == "external-id"
    assert fixture_store.property_datatype("P279") == "wikibase-item"
    assert fixture_store.property_datatype("P1082") == "quantity"  # from statements' snaks
    assert fixture_store.property_datatype("P999999") is None


def test_domains_and_stats_agree(fixture_store: KnowledgeStore) -> None:
    stats = fixture_store.stats()
    by_python = Counter(
        d for e in fixture_store.iter_entity_ids() if (d := fixture_store.domain_of(e)) is not None
    )
    assert stats.per_domain == dict(by_python)
    assert fixture_store.domain_of("Q8646") == "geography"  # P31 Q515 city
    assert stats.entities == stats.items + stats.properties == 25
    assert stats.qualified_statements < stats.statements


def test_domain_of_human_by_occupation(store: KnowledgeStore) -> None:
    store.upsert_entities(
        [make_entity("Q1", "someone", [statement(item_snak("P31", "Q5")),
                                       statement(item_snak("P106", "Q36834"))])]
    )  # fmt: skip
    assert store.domain_of("Q1") == "music"
    assert store.stats().per_domain == {"music": 1}


def test_meta_and_read_only(tmp_path: Path) -> None:
    path = tmp_path / "kb.sqlite"
    with pytest.raises(InputError, match="no knowledge store"):
        KnowledgeStore.open(path, read_only=True)
    with KnowledgeStore.open(path) as store:
        store.set_meta("snapshot_id", "test-snap")
        store.upsert_entities([make_entity("Q1", "one")])
    with KnowledgeStore.open(path, read_only=True) as ro:
        assert ro.get_meta("snapshot_id") == "test-snap"
        assert ro.stats().snapshot_id == "test-snap"
        assert ro.label("Q1") == "one"
        with pytest.raises(Exception, match="readonly"):
            ro.upsert_entities([make_entity("Q2", "two")])


def test_a_store_of_another_schema_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "kb.sqlite"
    with KnowledgeStore.open(path) as store:
        store.set_meta("schema_version", "0")
    with pytest.raises(InputError, match="schema version 0") as err:
        KnowledgeStore.open(path)
    assert err.value.hint and "import" in err.value.hint
    (tmp_path / "junk.sqlite").write_text("not a database at all, just text " * 100)
    with pytest.raises(InputError, match="not a knowledge store"):
        KnowledgeStore.open(tmp_path / "junk.sqlite")
