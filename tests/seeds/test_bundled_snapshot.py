"""The bundled snapshot (issue 3): imported whole into a real store, it meets the issue's figures.

The figures use the definitions in ``seeds/kb/figures.py`` (shared with ``build.py --check``),
computed here from what the store gives back, and the time groups come from the store itself.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

from builder.kb.importers import import_paths
from builder.kb.store import KnowledgeStore
from builder.records.sample import DOMAINS
from builder.records.wikidata import Entity, EntityIdValue, Snak

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT / "seeds" / "kb"
OUTPUTS = ("entities.json", "pages.jsonl", "snapshot.json")


def _module(name: str) -> ModuleType:
    """Load ``seeds/kb/<name>.py`` (a script folder, not a package). ``build.py`` imports its
    sibling as ``figures``, so that one keeps its plain name; ``build`` is registered under a
    prefixed name so it cannot shadow anything else called ``build``."""
    key = name if name == "figures" else f"seeds_kb_{name}"
    spec = importlib.util.spec_from_file_location(key, SEEDS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[key] = module
    spec.loader.exec_module(module)
    return module


figures = _module("figures")
build = _module("build")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> KnowledgeStore:
    path = tmp_path_factory.mktemp("kb") / "kb.sqlite"
    kb = KnowledgeStore.open(path)
    report = import_paths(kb, [SEEDS / name for name in OUTPUTS], strict=True, progress=False)
    assert report.bad_count == 0, report.bad_records[:5]
    return kb


@pytest.fixture(scope="module")
def fixed_ids() -> set[str]:
    """Property, class, occupation, unit and value entities: not items of any domain."""
    props = build.load(SEEDS / "src").properties
    return set(build.fixed_entities(props))


@pytest.fixture(scope="module")
def items(store: KnowledgeStore, fixed_ids: set[str]) -> dict[str, Entity]:
    ids = [i for i in store.iter_entity_ids("item") if i not in fixed_ids]
    return store.get_entities(ids)


def test_snapshot_meta_is_imported(store: KnowledgeStore) -> None:
    meta = json.loads((SEEDS / "snapshot.json").read_text(encoding="utf-8"))
    assert store.get_meta("snapshot_id") == meta["snapshot_id"] == "discobench-bundled"
    assert store.get_meta("snapshot_version") == meta["snapshot_version"]


def test_size(items: dict[str, Entity]) -> None:
    assert len(items) >= 800
    assert sum(len(s) for e in items.values() for s in e.claims.values()) >= 5000


def test_every_domain_has_40_items(store: KnowledgeStore, items: dict[str, Entity]) -> None:
    per_domain = Counter(store.domain_of(i) for i in items)
    short = {d: per_domain.get(d, 0) for d in DOMAINS if per_domain.get(d, 0) < 40}
    assert not short, f"domains under 40 items: {short}"
    assert per_domain.get(None, 0) == 0, "every item must have a domain"


def test_time_qualified_statements_in_multivalued_groups(
    store: KnowledgeStore, items: dict[str, Entity]
) -> None:
    groups = [g for g in store.time_groups() if g.subject_id in items]
    assert all(len(g.values) >= 2 for g in groups)
    assert sum(len(g.values) for g in groups) >= 400
    # the store and the shared definition agree
    assert sum(len(g.values) for g in groups) == figures.time_qualified(items)


def test_sibling_clusters_and_ranking_groups(items: dict[str, Entity]) -> None:
    found = figures.compute(items)
    assert len(found.sibling_clusters) >= 60
    assert len(found.ranking_groups) >= 30
    # each cluster really is >= 3 items of one class sharing the value, each told apart
    cls, pid, value = found.sibling_clusters[0]
    members = [
        i
        for i, e in items.items()
        if cls in figures.entity_ids(e, "P31") and value in figures.entity_ids(e, pid)
    ]
    assert len(members) >= 3 and figures.is_sibling_cluster(members, items)


def test_every_domain_offers_chains(items: dict[str, Entity]) -> None:
    starts = figures.chain_starts(items, items)
    thin = {d: starts.get(d, 0) for d in DOMAINS if starts.get(d, 0) < 20}
    assert not thin, f"domains with few 2-hop chains ending in a fact: {thin}"


def _referenced(entity: Entity) -> list[str]:
    snaks: list[Snak] = []
    for statements in entity.claims.values():
        for st in statements:
            snaks.append(st.mainsnak)
            snaks.extend(q for qs in st.qualifiers.values() for q in qs)
    out = []
    for snak in snaks:
        if snak.datavalue is not None:
            value = snak.datavalue.parsed()
            if isinstance(value, EntityIdValue):
                out.append(value.id)
        out.append(snak.property)
        raw = snak.datavalue.value if snak.datavalue is not None else None
        unit = raw.get("unit") if isinstance(raw, dict) else None
        if isinstance(unit, str) and unit.startswith("http"):
            out.append(unit.rsplit("/", 1)[-1])
    return out


def test_no_dangling_reference(store: KnowledgeStore, items: dict[str, Entity]) -> None:
    wanted = {ref for e in items.values() for ref in _referenced(e)}
    present = store.get_entities(wanted)
    missing = sorted(wanted - set(present))
    assert not missing, f"referenced but not in the snapshot: {missing[:20]}"


def test_every_item_has_a_page(store: KnowledgeStore, items: dict[str, Entity]) -> None:
    missing = []
    for eid, entity in items.items():
        page = store.get_page(eid)
        if page is None or not page.text.strip() or page.title != entity.label():
            missing.append(eid)
    assert not missing, f"items without a proper page: {missing[:20]}"


def _build(*args: str) -> subprocess.CompletedProcess[str]:
    """Run seeds/kb/build.py as a user does."""
    cmd = [sys.executable, str(SEEDS / "build.py"), *args]
    return subprocess.run(cmd, capture_output=True, text=True, check=False)


def _sources(tmp_path: Path) -> Path:
    """A sources folder holding the shared properties.yaml, for hand-written source files."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "properties.yaml").write_text(
        (SEEDS / "src" / "properties.yaml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    return src


def test_build_reproduces_the_committed_files(tmp_path: Path) -> None:
    run = _build("--out", str(tmp_path))
    assert run.returncode == 0, run.stderr[-2000:]
    for name in OUTPUTS:
        assert (tmp_path / name).read_bytes() == (SEEDS / name).read_bytes(), name


def test_build_refuses_bad_sources(tmp_path: Path) -> None:
    src = _sources(tmp_path)
    (src / "a.yaml").write_text(
        "entities:\n"
        "  - {id: L:thing, label: Thing, description: d, P31: Q515,\n"
        "     claims: {P17: L:nowhere, P571: 2020-13-01, P9999: x}, page: A. B. C.}\n",
        encoding="utf-8",
    )
    (src / "b.yaml").write_text(
        "entities:\n  - {id: L:thing, label: T, description: d, P31: Q999999, page: A. B. C.}\n",
        encoding="utf-8",
    )
    run = _build("--src", str(src), "--out", str(tmp_path))
    assert run.returncode == 1
    for needle in (
        "a.yaml: L:thing: P571[0]: bad date",
        "a.yaml: L:thing: P9999: unknown property",
        "b.yaml: L:thing: duplicate id (first defined in a.yaml)",
        "undefined entity L:nowhere",
    ):
        assert needle in run.stderr, needle
    assert not (tmp_path / "entities.json").exists()


def test_build_refuses_bad_declarations(tmp_path: Path) -> None:
    """Completeness declarations are validated like facts: unknown keys, properties and
    subjects, duplicate ids, and a list declared complete over years with an undated member."""
    src = _sources(tmp_path)
    (src / "a.yaml").write_text(
        "entities:\n"
        "  - {id: L:cup, label: Cup, description: d, P31: Q515, page: A. B. C.,\n"
        "     claims: {P1346: [{v: L:x, P585: '2001'}, L:y]}}\n"
        "  - {id: L:x, label: X, description: d, P31: Q515, page: A. B. C.}\n"
        "  - {id: L:y, label: Y, description: d, P31: Q515, page: A. B. C.}\n"
        "complete:\n"
        "  - {id: cup-winners, subject: L:cup, property: P1346, direction: forward,\n"
        "     since: 2000, until: 2024, as_of: '2024-12-31', scope: winners}\n"
        "  - {id: cup-winners, subject: L:cup, property: P1346, direction: forward,\n"
        "     as_of: '2024-12-31', scope: again}\n"
        "  - {id: ghost, subject: L:nobody, property: P9999, direction: inverse,\n"
        "     as_of: '31.12.2024', scope: s}\n"
        "  - {id: odd, subject: L:cup, property: P17, direction: sideways, as_of: '2024-12-31',\n"
        "     scope: s}\n",
        encoding="utf-8",
    )
    run = _build("--src", str(src), "--out", str(tmp_path))
    assert run.returncode == 1
    for needle in (
        "complete cup-winners: L:cup P1346[1] (L:y) has no P585/P580/P582",
        "id 'cup-winners' already declared in a.yaml",
        "(ghost): unknown property P9999",
        "(ghost): as_of '31.12.2024' must be YYYY-MM-DD",
        "undefined entity L:nobody",
        "complete[3] (odd): direction",
    ):
        assert needle in run.stderr, (needle, run.stderr)
    assert not (tmp_path / "completeness.json").exists()


def _year(snak: Snak) -> int | None:
    value = snak.datavalue.parsed() if snak.datavalue is not None else None
    return getattr(value, "year", None)


def _item(snak: Snak) -> str | None:
    value = snak.datavalue.parsed() if snak.datavalue is not None else None
    return value.id if isinstance(value, EntityIdValue) else None


def test_economics_prize_is_a_finance_topic_with_every_laureate(
    store: KnowledgeStore, items: dict[str, Entity]
) -> None:
    """Entity ambiguity needs co-laureates of one prize-year; the economics prize supplies them
    outside the capped academic domain: it is a finance item, its winner list holds every prize
    from the first (1969) to 2024 with all laureates of shared prizes, each laureate's own P166
    says the same year, and both declarations (by year and of all time) cover exactly them."""
    prize = "L:nobel-prize-economics"
    assert store.domain_of(prize) == "finance"
    by_year: dict[int, set[str]] = {}
    for st in items[prize].claims["P1346"]:
        key = _item(st.mainsnak)
        (year,) = [_year(q) for q in st.qualifiers["P585"]]
        assert key is not None and year is not None
        by_year.setdefault(year, set()).add(key)
    assert sorted(by_year) == list(range(1969, 2025))
    laureates = {k for ks in by_year.values() for k in ks}
    assert len(laureates) == sum(len(ks) for ks in by_year.values()) == 96
    assert max(len(ks) for ks in by_year.values()) == 3
    for year, keys in by_year.items():
        for key in keys:
            won = _wins(items, key, prize)
            assert won == {year}, (key, won)
            assert items[key].best_values("P569"), key
    economists = [k for k in laureates if store.domain_of(k) == "finance"]
    assert len(economists) >= 90  # Nash (academic) and Simon (technology) stay where they are
    decls = json.loads((SEEDS / "completeness.json").read_text("utf-8"))["declarations"]
    mine = {d["id"]: d for d in decls if d["subject"] == prize and d["property"] == "P1346"}
    assert set(mine) == {"nobel-economics-laureates-1969-2024", "nobel-economics-laureates-all"}
    ranged, whole = (
        mine["nobel-economics-laureates-1969-2024"],
        mine["nobel-economics-laureates-all"],
    )
    assert (ranged.get("since"), ranged.get("until")) == (1969, 2024)
    assert (whole.get("since"), whole.get("until")) == (None, None)


def _winners_by_year(items: dict[str, Entity], prize: str) -> dict[int, set[str]]:
    """The prize's P1346 winners by the year of their P585, each winner's own P166 agreeing."""
    by_year: dict[int, set[str]] = {}
    for st in items[prize].claims["P1346"]:
        key = _item(st.mainsnak)
        (year,) = [_year(q) for q in st.qualifiers["P585"]]
        assert key is not None and year is not None
        by_year.setdefault(year, set()).add(key)
    for year, keys in by_year.items():
        for key in keys:
            won = _wins(items, key, prize)
            assert year in won, (key, year, won)
    return by_year


def _wins(items: dict[str, Entity], key: str, prize: str) -> set[int | None]:
    """The years of ``key``'s own P166 statements of ``prize``."""
    return {
        _year(q)
        for st in items[key].claims.get("P166", [])
        if _item(st.mainsnak) == prize
        for q in st.qualifiers.get("P585", [])
    }


def _declarations(prize: str) -> dict[str, dict[str, object]]:
    decls = json.loads((SEEDS / "completeness.json").read_text("utf-8"))["declarations"]
    return {d["id"]: d for d in decls if d["subject"] == prize and d["property"] == "P1346"}


def test_pritzker_prize_holds_every_laureate_of_all_time(items: dict[str, Entity]) -> None:
    """Entity ambiguity in art comes from the Pritzker's shared years (1988, 2001, 2010, 2017,
    2020, 2021) and from laureates described without the year ("the laureate born in 1925"),
    which needs every laureate since the first prize: one or more for each year 1979-2024, 53 in
    all, each with a sex and a birth date (a year at least) so that a birth-year description is
    decidable for every member, under a ranged and an all-time declaration."""
    prize = "L:pritzker-prize"
    by_year = _winners_by_year(items, prize)
    assert sorted(by_year) == list(range(1979, 2025))
    assert sum(len(ks) for ks in by_year.values()) == 53
    shared = sorted(y for y, ks in by_year.items() if len(ks) > 1)
    assert shared == [1988, 2001, 2010, 2017, 2020, 2021]
    for keys in by_year.values():
        for key in keys:
            assert items[key].best_values("P569"), key
            assert items[key].best_values("P21"), key
    mine = _declarations(prize)
    assert set(mine) == {"pritzker-prize-laureates-1979-2024", "pritzker-prize-laureates-all"}
    ranged, whole = mine["pritzker-prize-laureates-1979-2024"], mine["pritzker-prize-laureates-all"]
    assert (ranged.get("since"), ranged.get("until")) == (1979, 2024)
    assert (whole.get("since"), whole.get("until")) == (None, None)


def test_palme_dor_holds_every_winner_since_1975_with_their_directors(
    items: dict[str, Entity],
) -> None:
    """The Palme d'Or list is declared complete from 1975 (when the name was restored): a film
    for every festival but the cancelled one of 2020, two in the shared years; the films whose
    directors are declared complete name each of them, with a birth date."""
    prize = "L:palme-dor"
    by_year = {y: ks for y, ks in _winners_by_year(items, prize).items() if y >= 1975}
    assert sorted(by_year) == [y for y in range(1975, 2025) if y != 2020]
    assert sum(len(ks) for ks in by_year.values()) == 54
    shared = sorted(y for y, ks in by_year.items() if len(ks) > 1)
    assert shared == [1979, 1980, 1982, 1993, 1997]
    mine = _declarations(prize)
    assert set(mine) == {"palme-dor-winners-1975-2024"}
    assert (
        mine["palme-dor-winners-1975-2024"].get("since"),
        mine["palme-dor-winners-1975-2024"].get("until"),
    ) == (1975, 2024)
    decls = json.loads((SEEDS / "completeness.json").read_text("utf-8"))["declarations"]
    directed = {d["subject"] for d in decls if d["id"].startswith("film-directors-complete")}
    films = {k for ks in by_year.values() for k in ks}
    # Not declared: Barton Fink (Joel Coen alone was credited), Yol, Chronicle of the Years of
    # Fire, and the eleven 2010-2024 winners other than Amour, I, Daniel Blake and Parasite.
    assert len(films & directed) == 40
    for film in films & directed:
        directors = [_item(st.mainsnak) for st in items[film].claims["P57"]]
        assert directors, film
        for person in directors:
            assert person is not None and items[person].best_values("P569"), (film, person)


def test_a_short_name_clues_say_is_on_the_pages_of_what_it_names() -> None:
    """Clues and questions say "the G7" (clues.yaml's values, names.yaml's short names); the
    offline reference reads a clue's words on the candidates' pages, so every member's page
    says "G7" too (otherwise "It's a member of the G7" finds no country)."""
    from builder.seeding.templates import load_templates

    said = load_templates().clue_values
    entities = json.loads((SEEDS / "entities.json").read_text(encoding="utf-8"))
    pages = {
        p["entity_id"]: p["text"]
        for p in map(json.loads, (SEEDS / "pages.jsonl").read_text(encoding="utf-8").splitlines())
    }
    for value, words in said.items():
        if not value.startswith("L:"):
            continue
        short = words.removeprefix("the ")
        members = [
            e["id"]
            for e in entities
            if any(
                s["mainsnak"].get("datavalue", {}).get("value", {}).get("id") == value
                for s in e.get("claims", {}).get("P463", [])
            )
        ]
        assert members, value
        for m in members:
            assert short in pages[m], f"{m}'s page does not say {short!r}"
