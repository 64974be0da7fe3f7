"""``discobench kb import / stats / show`` through typer's CliRunner on a real store."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from builder.cli.main import app
from builder.kb.store import KnowledgeStore
from builder.workspace import Workspace

runner = CliRunner()


def kb(ws: Workspace, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["--workspace", str(ws.root), "kb", *args])
    return result.exit_code, result.stdout, result.stderr


def test_import_fixtures_then_stats_and_show(tmp_workspace: Workspace, fixtures_dir: Path) -> None:
    code, out, err = kb(tmp_workspace, "import", str(fixtures_dir / "wikidata"), "--no-progress",
                        "--snapshot-id", "fixtures", "--snapshot-version", "2026-11")  # fmt: skip
    assert code == 0, err
    assert "imported 25, replaced 2" in out.replace("\n", " ")
    assert "wbsearchentities-abc.json" in err and "Q32063953" in err

    code, out, _ = kb(tmp_workspace, "stats", "--json")
    stats = json.loads(out)
    assert code == 0
    assert (stats["entities"], stats["properties"], stats["snapshot_id"]) == (25, 5, "fixtures")
    assert stats["snapshot_version"] == "2026-11" and stats["per_domain"]["geography"] == 2

    code, out, _ = kb(tmp_workspace, "show", "Q8646", "--json")
    assert code == 0
    doc = json.loads(out)
    population = doc["claims"]["P1082"]
    assert len(population) == 13
    ranks = {
        s["qualifiers"]["P585"][0]["datavalue"]["value"]["time"]: s["rank"] for s in population
    }
    assert (
        ranks["+2017-00-00T00:00:00Z"] == "preferred" and ranks["+1961-00-00T00:00:00Z"] == "normal"
    )

    code, out, _ = kb(tmp_workspace, "show", "Q1299")
    assert code == 0
    assert "The Beatles" in out and "Fab Four" in out and "preferred" in out

    code, out, _ = kb(tmp_workspace, "stats")
    assert code == 0 and "qualified statements" in out


def test_show_resolves_labels_of_values(tmp_workspace: Workspace, fixtures_dir: Path) -> None:
    wd = fixtures_dir / "wikidata"
    kb(tmp_workspace, "import", str(wd / "wdtk/wbgetentities-Q6-Q42-P31.json"), "--no-progress")
    code, out, _ = kb(tmp_workspace, "show", "Q42")
    assert code == 0
    assert "P31 instance of" in out  # the property's label comes from the P31 entity


def test_show_unknown_id_and_missing_store_exit_3(tmp_workspace: Workspace) -> None:
    code, _, err = kb(tmp_workspace, "stats")
    assert code == 3 and "no knowledge store" in err
    kb(tmp_workspace, "import", "--no-progress", str(_one_entity(tmp_workspace.root)))
    code, _, err = kb(tmp_workspace, "show", "Q404")
    assert code == 3 and "Q404 is not in the store" in err
    code, _, _ = kb(tmp_workspace, "show", "Q404", "--json")
    assert code == 3


def test_import_nothing_importable_exits_3(tmp_workspace: Workspace, fixtures_dir: Path) -> None:
    code, _, err = kb(tmp_workspace, "import", "--no-progress",
                      str(fixtures_dir / "wikidata/wdtk/wbsearchentities-abc.json"))  # fmt: skip
    assert code == 3 and "nothing could be imported" in err
    code, _, err = kb(tmp_workspace, "import", str(tmp_workspace.root / "absent.json"))
    assert code == 3 and "no such file" in err


def test_import_bad_lines_exit_0_but_strict_exits_3(tmp_workspace: Workspace) -> None:
    path = tmp_workspace.root / "entities.jsonl"
    path.write_text('{"id": "Q1", "type": "item"}\n{"id": \n{"id": "Q2", "type": "item"}\n')
    code, out, err = kb(tmp_workspace, "import", "--no-progress", str(path))
    assert code == 0
    assert f"{path}:2" in err.replace("\n", "") and "bad 1" in out
    code, _, err = kb(tmp_workspace, "import", "--no-progress", "--strict", str(path))
    assert code == 3 and f"{path}:2" in err.replace("\n", "")


def test_import_json_report(tmp_workspace: Workspace) -> None:
    code, out, _ = kb(tmp_workspace, "import", "--json", str(_one_entity(tmp_workspace.root)))
    assert code == 0
    report = json.loads(out)
    assert (report["imported"], report["replaced"], report["bad_count"]) == (1, 0, 0)


def _one_entity(folder: Path) -> Path:
    path = folder / "one.json"
    path.write_text(json.dumps({"id": "Q1", "type": "item", "labels": {}}))
    return path


def _entity(eid: str, label: str, claims: dict[str, list[str]]) -> dict[str, object]:
    out: dict[str, object] = {"type": "item", "id": eid,
                              "labels": {"en": {"language": "en", "value": label}}}  # fmt: skip
    out["claims"] = {
        pid: [
            {
                "mainsnak": {
                    "snaktype": "value",
                    "property": pid,
                    "datatype": "wikibase-item",
                    "datavalue": {
                        "type": "wikibase-entityid",
                        "value": {"entity-type": "item", "id": v},
                    },
                },
                "type": "statement",
                "rank": "normal",
            }
            for v in values
        ]
        for pid, values in claims.items()
    }
    return out


def test_completeness_declarations_are_imported_listed_counted_and_marked(
    tmp_workspace: Workspace, tmp_path: Path
) -> None:
    """A completeness.json beside the entities: `kb completeness` lists each declaration with
    the size of its set, `kb stats` counts them, `kb show` marks the complete relation."""
    snap = tmp_path / "snap"
    snap.mkdir()
    ents = [
        _entity("Q142", "France", {"P47": ["Q31", "Q183"]}),
        _entity("Q31", "Belgium", {"P47": ["Q142"]}),
        _entity("Q183", "Germany", {"P47": ["Q142"]}),
    ]
    (snap / "entities.json").write_text(json.dumps(ents))
    decl = {"id": "borders-of-france", "subject": "Q142", "property": "P47",
            "direction": "forward", "as_of": "2024-12-31", "scope": "countries France borders"}  # fmt: skip
    (snap / "completeness.json").write_text(json.dumps({"declarations": [decl]}))
    code, out, err = kb(tmp_workspace, "import", str(snap), "--no-progress")
    assert code == 0, err

    code, out, _ = kb(tmp_workspace, "completeness", "--json")
    assert code == 0
    (only,) = json.loads(out)
    assert only["declaration"]["id"] == "borders-of-france" and only["size"] == 2

    code, out, _ = kb(tmp_workspace, "stats", "--json")
    assert json.loads(out)["completeness_declarations"] == 1

    code, out, _ = kb(tmp_workspace, "show", "Q142")
    assert code == 0
    assert "complete: values of P47 (countries France borders; 2 in the store" in " ".join(
        out.split()
    )


def test_a_bad_completeness_file_is_reported_with_its_field(
    tmp_workspace: Workspace, tmp_path: Path
) -> None:
    bad = tmp_path / "completeness.json"
    bad.write_text(json.dumps({"declarations": [{"id": "x", "subject": "Q1", "property": "P1",
                                                 "direction": "sideways", "as_of": "2024-12-31",
                                                 "scope": "?"}]}))  # fmt: skip
    code, out, err = kb(tmp_workspace, "import", str(bad), "--no-progress")
    assert code == 3  # nothing could be imported
    assert "not a completeness file: declarations.0.direction" in " ".join((out + err).split())


def test_strict_import_is_all_or_nothing(tmp_workspace: Workspace) -> None:
    good = _one_entity(tmp_workspace.root)
    kb(tmp_workspace, "import", "--no-progress", str(good))
    path = tmp_workspace.root / "entities.jsonl"
    path.write_text('{"id": "Q7", "type": "item"}\n{"id": \n{"id": "Q8", "type": "item"}\n')
    code, _, err = kb(tmp_workspace, "import", "--no-progress", "--strict", str(path))
    assert code == 3 and f"{path}:2" in err.replace("\n", "")
    # Q7, before the bad line, was not kept
    assert kb(tmp_workspace, "show", "Q7")[0] == 3
    assert json.loads(kb(tmp_workspace, "stats", "--json")[1])["entities"] == 1


def test_failed_first_import_leaves_no_store_and_seed_says_import(tmp_workspace: Workspace):
    code, _, err = kb(tmp_workspace, "import", str(tmp_workspace.root / "absent.json"))
    assert code == 3 and "no such file or folder" in err
    assert not tmp_workspace.kb_path.exists()
    bad = tmp_workspace.root / "bad.jsonl"
    bad.write_text('{"id": \n')
    code, _, err = kb(tmp_workspace, "import", "--no-progress", "--strict", str(bad))
    assert code == 3 and not tmp_workspace.kb_path.exists()

    # an existing but empty store (e.g. made by another tool): seed refuses, naming the fix
    KnowledgeStore.open(tmp_workspace.kb_path).close()
    result = runner.invoke(app, ["-w", str(tmp_workspace.root), "seed", "--n", "3"])
    assert result.exit_code == 6
    assert "holds no entities" in result.stderr and "discobench kb import" in result.stderr


def test_seed_that_finds_no_chain_is_an_error_not_an_empty_file(
    tmp_workspace: Workspace, data_dir: Path
) -> None:
    kb(tmp_workspace, "import", "--no-progress", str(data_dir / "wikidata"))
    out = tmp_workspace.root / "seeds.jsonl"
    result = runner.invoke(app, ["seed", "--n", "5", "--no-progress", "--out", str(out)])
    assert result.exit_code == 6, result.output
    assert "no seed chain could be built" in result.stderr and "kb import" in result.stderr
    assert not out.exists()
