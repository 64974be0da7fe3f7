"""Importers against real fixture files and a real SQLite store."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from builder.errors import InputError
from builder.kb.importers import import_paths
from builder.kb.readers import read_records
from builder.kb.rows import value_key
from builder.kb.store import KnowledgeStore
from builder.records.page import Page
from builder.records.wikidata import Entity
from tests.kb.conftest import fixture_docs, write_dump


def test_every_fixture_entity_is_imported(store: KnowledgeStore, fixtures_dir: Path) -> None:
    report = import_paths(store, [fixtures_dir / "wikidata"], progress=False)
    expected = {d["id"] for d in fixture_docs(fixtures_dir)}
    stored = set(store.iter_entity_ids("item")) | set(store.iter_entity_ids("property"))
    assert stored == expected
    assert report.imported == len(expected)
    assert report.bad_count == 0 and report.bad_records == []
    # Q42 appears in three files: stored once, the later copies replaced it
    assert report.replaced == 2
    assert {"P31", "P279", "P434", "P2003", "P3467"} <= set(store.iter_entity_ids("property"))


def test_files_without_entities_are_reported_skipped(
    store: KnowledgeStore, fixtures_dir: Path
) -> None:
    report = import_paths(store, [fixtures_dir / "wikidata"], progress=False)
    skipped = {f.path.name: f.reason for f in report.skipped_files}
    assert "wbsearchentities" in skipped["wbsearchentities-abc.json"]
    assert "action=query" in skipped["cirrus_search_response.json"]
    assert "action=query" in skipped["d7d79f7a3f939df88ff32571cbbeb9c3.json"]
    assert len(skipped) == 4
    reasons = [s.reason for s in report.skipped]
    assert any("lexeme L3354" in r for r in reasons)
    assert any("Q6 is missing" in r for r in reasons)
    assert not store.has_entity("Q6") and not store.has_entity("L3354")


def test_wbgetentities_reply_layout(store: KnowledgeStore, fixtures_dir: Path) -> None:
    report = import_paths(
        store, [fixtures_dir / "wikidata/wdtk/wbgetentities-Q6-Q42-P31.json"], progress=False
    )
    assert report.imported == 2 and report.skipped_records == 1  # Q6 is "missing"
    assert store.label("Q42") == "Douglas Adams"
    assert store.property_datatype("P31") == "wikibase-item"
    assert store.label("P31") == "instance of"


def test_single_entity_document_layout(store: KnowledgeStore, fixtures_dir: Path) -> None:
    path = fixtures_dir / "wikidata/wikibase-sdk/Q646148.json"
    report = import_paths(store, [path], progress=False)
    assert report.imported == 1
    stored = store.get_entity("Q646148")
    assert stored is not None
    assert stored.to_wire() == Entity.model_validate_json(path.read_text()).to_wire()


def test_id_mismatch_uses_the_documents_id_and_warns(
    store: KnowledgeStore, fixtures_dir: Path
) -> None:
    report = import_paths(
        store, [fixtures_dir / "wikidata/wdtk/wbgetentities-Q32063953.json"], progress=False
    )
    assert report.imported == 1
    assert store.has_entity("Q1040") and not store.has_entity("Q32063953")
    assert len(report.warnings) == 1
    assert "Q32063953" in report.warnings[0].reason and "Q1040" in report.warnings[0].reason


@pytest.mark.parametrize("suffix", [".json", ".json.gz", ".json.bz2"])
def test_dump_layout_plain_and_compressed(
    store: KnowledgeStore, fixtures_dir: Path, tmp_path: Path, suffix: str
) -> None:
    docs = fixture_docs(fixtures_dir)
    dump = write_dump(tmp_path / f"latest-all{suffix}", docs)
    report = import_paths(store, [dump], progress=False)
    ids = {d["id"] for d in docs}
    assert report.imported == len(ids)
    assert report.replaced == len(docs) - len(ids)
    assert report.bad_count == 0
    assert len(store.best_statements("Q8646", "P1082")) == 1


def test_gz_dump_is_streamed_records_before_a_truncated_tail(
    store: KnowledgeStore, fixtures_dir: Path, tmp_path: Path
) -> None:
    """A truncated .gz dump: the records before the damage are imported, then the file error
    is reported. Reading the file whole would have failed before yielding any record."""
    docs = fixture_docs(fixtures_dir)
    full = write_dump(tmp_path / "full.json.gz", docs * 4).read_bytes()
    cut = tmp_path / "cut.json.gz"
    cut.write_bytes(full[: len(full) * 3 // 4])
    report = import_paths(store, [cut], progress=False)
    assert report.imported > 10
    assert report.bad_count == 1
    assert report.bad_records[0].path == cut
    assert "cannot read the file" in report.bad_records[0].reason


def test_malformed_dump_lines_are_reported_and_skipped(
    store: KnowledgeStore, fixtures_dir: Path, tmp_path: Path
) -> None:
    docs = fixture_docs(fixtures_dir)[:6]
    broken = json.loads(json.dumps(docs[2]))
    broken["id"] = "Q999001"
    first_pid = next(iter(broken["claims"]))
    broken["claims"][first_pid][0]["rank"] = "bogus"
    dump = write_dump(
        tmp_path / "dump.json",
        docs,
        extra_lines={1: '{"id": "Q999000", "type": "item", "labels": {', 4: json.dumps(broken)},
    )
    report = import_paths(store, [dump], progress=False)
    assert report.imported == len({d["id"] for d in docs})
    assert report.bad_count == 2
    bad = {b.line: b.reason for b in report.bad_records}
    assert set(bad) == {3, 7}  # line 1 is "[", the broken lines sit before docs 1 and 4
    assert "invalid JSON" in bad[3]
    assert "rank" in bad[7] and first_pid in bad[7]
    assert all(b.path == dump for b in report.bad_records)
    assert not store.has_entity("Q999000") and not store.has_entity("Q999001")


def test_strict_stops_at_the_first_bad_record(store: KnowledgeStore, tmp_path: Path) -> None:
    path = tmp_path / "entities.jsonl"
    path.write_text('{"id": "Q1", "type": "item"}\nnot json\n{"id": "Q2", "type": "item"}\n')
    with pytest.raises(InputError) as err:
        import_paths(store, [path], strict=True, progress=False)
    assert f"{path}:2" in str(err.value)
    report = import_paths(store, [path], progress=False)
    assert report.bad_count == 1 and report.bad_records[0].line == 2
    assert store.has_entity("Q2")


def test_json_array_and_jsonl_of_entities(
    store: KnowledgeStore, fixtures_dir: Path, tmp_path: Path
) -> None:
    docs = fixture_docs(fixtures_dir)
    array = tmp_path / "array.json"
    array.write_text(json.dumps(docs[:5], indent=2))
    lines = tmp_path / "more.jsonl.gz"
    lines.write_bytes(gzip.compress("\n".join(json.dumps(d) for d in docs[5:10]).encode()))
    report = import_paths(store, [array, lines], progress=False)
    assert report.imported + report.replaced == 10
    assert {d["id"] for d in docs[:10]} <= set(store.iter_entity_ids("item")) | set(
        store.iter_entity_ids("property")
    )


def test_page_jsonl_is_imported_and_searchable(store: KnowledgeStore, tmp_path: Path) -> None:
    pages = [
        Page(entity_id="Q8646", title="Hong Kong", url="https://en.wikipedia.org/wiki/Hong_Kong",
             text="Hong Kong is a special administrative region of China."),
        Page(entity_id="Q1299", title="The Beatles", url="https://en.wikipedia.org/wiki/The_Beatles",
             text="The Beatles were an English rock band formed in Liverpool in 1960."),
    ]  # fmt: skip
    path = tmp_path / "pages.jsonl"
    path.write_text("\n".join(p.model_dump_json() for p in pages) + '\n{"entity_id": 3}\n')
    report = import_paths(store, [path], progress=False)
    assert report.pages == 2 and report.bad_count == 1 and report.bad_records[0].line == 3
    assert store.get_page("Q1299") == pages[1]
    assert [h.entity_id for h in store.search("Liverpool rock band")] == ["Q1299"]


def test_reimport_replaces_without_duplicates(store: KnowledgeStore, fixtures_dir: Path) -> None:
    path = fixtures_dir / "wikidata/dahlia-wikidata/Q8646.json"
    first = import_paths(store, [path], progress=False)
    before = store.stats()
    second = import_paths(store, [path], progress=False)
    assert (first.imported, first.replaced) == (1, 0)
    assert (second.imported, second.replaced) == (0, 1)
    assert store.stats() == before
    assert len(store.get_entity("Q8646").claims["P1082"]) == 13  # type: ignore[union-attr]
    assert store.ids_by_name("Hong Kong") == ["Q8646"]


def test_a_newer_version_replaces_the_statements(store: KnowledgeStore, fixtures_dir: Path) -> None:
    old = fixtures_dir / "wikidata/qwikidata/wd_Q42.json"
    new = fixtures_dir / "wikidata/wdtk/wbgetentities-Douglas-Adams.json"
    import_paths(store, [old], progress=False)
    import_paths(store, [new], progress=False)
    expected = json.loads(new.read_text())["entities"]["Q42"]
    stored = store.get_entity("Q42")
    assert stored is not None
    assert stored.to_wire()["claims"] == Entity.model_validate(expected).to_wire()["claims"]
    assert store.stats().statements == sum(len(v) for v in expected["claims"].values())


def test_missing_path_is_an_input_error(store: KnowledgeStore, tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        import_paths(store, [tmp_path / "nope.json"], progress=False)


def test_value_key_mirrors_datavalue_key_on_every_fixture_value(fixtures_dir: Path) -> None:
    checked = 0
    for doc in fixture_docs(fixtures_dir):
        for group in doc.get("claims", {}).values() if isinstance(doc.get("claims"), dict) else []:
            entity = Entity.model_validate({"id": doc["id"], "claims": {"P": group}})
            for raw, typed in zip(group, entity.claims["P"], strict=True):
                snaks = [(raw["mainsnak"], typed.mainsnak)] + [
                    (r, t)
                    for pid in raw.get("qualifiers", {})
                    for r, t in zip(raw["qualifiers"][pid], typed.qualifiers[pid], strict=True)
                ]
                for r, t in snaks:
                    if t.datavalue is not None:
                        assert value_key(r["datavalue"]) == t.datavalue.key()
                        checked += 1
    assert checked > 2000


def test_read_records_reports_the_layout_it_found(fixtures_dir: Path) -> None:
    records = list(read_records(fixtures_dir / "wikidata/wdtk/wbgetentities-Q6-Q42-P31.json"))
    assert [r.doc["id"] if r.doc else r.skip for r in records][1:] == ["Q42", "P31"]
    assert records[0].skip and "missing" in records[0].skip


def test_wire_types_accept_and_reject_what_entity_does(fixtures_dir: Path) -> None:
    """The import fast path (TypedDicts) must never store what Entity cannot read back."""
    from pydantic import ValidationError

    from builder.kb.wire import ENTITY_DOC

    def accepts(validate: object, doc: object) -> bool:
        try:
            validate(doc)  # type: ignore[operator]
        except ValidationError:
            return False
        return True

    base = next(d for d in fixture_docs(fixtures_dir) if d["id"] == "Q646148")
    statement = base["claims"]["P39"][0]

    def mutated(path: list[object], value: object) -> dict[str, object]:
        doc = json.loads(json.dumps(base))
        target = doc
        for key in path[:-1]:
            target = target[key]
        if value is _DELETE:
            del target[path[-1]]
        else:
            target[path[-1]] = value
        return doc

    assert statement["qualifiers"]["P580"]
    cases = [
        mutated(["claims", "P39", 0, "rank"], "bogus"),
        mutated(["claims", "P39", 0, "mainsnak", "snaktype"], "maybe"),
        mutated(["claims", "P39", 0, "mainsnak"], _DELETE),
        mutated(["claims", "P39", 0, "mainsnak", "property"], _DELETE),
        mutated(["claims", "P39", 0, "qualifiers", "P580", 0, "property"], 580),
        mutated(["claims", "P39", 0, "references"], {"not": "a list"}),
        mutated(["labels", "en", "value"], 3),
        mutated(["labels", "en"], "Henning"),
        mutated(["sitelinks", "enwiki", "title"], _DELETE),
        mutated(["type"], "lexeme"),
        mutated(["id"], _DELETE),
        mutated(["claims"], {"P39": {"not": "a list"}}),
    ]
    for doc in [*fixture_docs(fixtures_dir), *cases]:
        if any(doc.get(k) == [] for k in ("labels", "aliases", "descriptions", "claims")):
            continue  # PHP-style empty maps: the slow path fixes them before either validator
        assert accepts(ENTITY_DOC.validate_python, doc) == accepts(Entity.model_validate, doc), doc
    assert not any(accepts(Entity.model_validate, doc) for doc in cases)


_DELETE = object()


def test_read_records_reports_progress_through_a_dump(tmp_path: Path) -> None:
    docs = [{"id": f"Q{i}", "type": "item", "labels": {"en": {"language": "en", "value": f"n{i}"}}}
            for i in range(1, 6001)]  # fmt: skip
    dump = write_dump(tmp_path / "dump.json.gz", docs)
    seen: list[int] = []
    assert sum(1 for _ in read_records(dump, seen.append)) == 6000
    assert len(seen) == 3 and seen == sorted(seen) and seen[-1] <= dump.stat().st_size


def test_snapshot_json_sets_the_snapshot_id_and_version(
    store: KnowledgeStore, tmp_path: Path
) -> None:
    folder = tmp_path / "bundled"
    folder.mkdir()
    (folder / "snapshot.json").write_text('{"snapshot_id": "bundled", "snapshot_version": "2025"}')
    write_dump(folder / "entities.json", [{"id": "Q1", "type": "item"}, {"id": "Q2"}])
    report = import_paths(store, [folder], progress=False)
    assert report.snapshot_meta == {"snapshot_id": "bundled", "snapshot_version": "2025"}
    assert report.imported == 2 and report.skipped_files == []
    stats = store.stats()
    assert (stats.snapshot_id, stats.snapshot_version) == ("bundled", "2025")
