"""The export folder: new or its own, never someone else's files lost; swapped in atomically."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

from builder.cli.main import app
from builder.errors import InputError
from builder.export import export_dataset
from builder.export.folder import MARKER, staged_export, verify_export

runner = CliRunner()


def _listing(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


def test_reexport_into_its_own_folder_replaces_only_its_files(samples_file: Path, tmp_path: Path):
    out = tmp_path / "bench"
    first = export_dataset(samples_file, out, dev_fraction=0.2)
    assert MARKER in first.files and verify_export(out) is None
    assert (out / "default" / "dev-00000-of-00001.parquet").exists()
    # a second export without a dev split: the old dev files (its own) go, nothing else stays
    export_dataset(samples_file, out)
    assert not (out / "default" / "dev-00000-of-00001.parquet").exists()
    marker = json.loads((out / MARKER).read_text())
    assert set(marker["files"]) == {p for p in _listing(out) if p != MARKER}
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".bench.")]  # no leftovers


def test_folder_with_foreign_files_is_refused_and_untouched(samples_file: Path, tmp_path: Path):
    out = tmp_path / "bench"
    export_dataset(samples_file, out)
    (out / "default" / "notes.txt").write_text("my notes")
    before = _listing(out)
    with pytest.raises(InputError, match=r"notes\.txt") as err:
        export_dataset(samples_file, out)
    assert "--force" in str(err.value)
    assert _listing(out) == before

    # a plain folder with a user's README: refused too, README kept
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "README.md").write_text("my project")
    result = runner.invoke(app, ["export", str(samples_file), "--out", str(mine)])
    assert result.exit_code == 3
    assert "README.md" in result.stderr and "--force" in result.stderr
    assert (mine / "README.md").read_text() == "my project"


def test_force_keeps_the_foreign_files(samples_file: Path, tmp_path: Path):
    out = tmp_path / "bench"
    export_dataset(samples_file, out)
    (out / "default" / "notes.txt").write_text("my notes")
    export_dataset(samples_file, out, force=True)
    assert (out / "default" / "notes.txt").read_text() == "my notes"
    assert verify_export(out) is None


def test_a_failed_export_leaves_the_previous_one_intact(samples_file: Path, tmp_path: Path):
    out = tmp_path / "bench"
    export_dataset(samples_file, out)
    before = _listing(out)
    broken = tmp_path / "broken.jsonl"
    broken.write_text(samples_file.read_text() + '{"id": "x"}\n')
    with pytest.raises(InputError, match=r"broken\.jsonl:67"):
        export_dataset(broken, out)
    # an error (or Ctrl-C) while the new export is written aside: the old one stays whole
    with pytest.raises(KeyboardInterrupt), staged_export(out) as stage:
        (stage / "README.md").write_text("half written")
        raise KeyboardInterrupt
    assert _listing(out) == before and verify_export(out) is None
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_verify_notices_a_missing_or_changed_file(samples_file: Path, tmp_path: Path):
    out = tmp_path / "bench"
    export_dataset(samples_file, out)
    parquet = out / "default" / "test-00000-of-00001.parquet"
    parquet.write_bytes(parquet.read_bytes()[:-10])
    assert verify_export(out) == "default/test-00000-of-00001.parquet was changed"
    parquet.unlink()
    assert verify_export(out) == "default/test-00000-of-00001.parquet is missing"


def test_output_files_get_the_default_mode(samples_file: Path, tmp_path: Path):
    out = tmp_path / "bench"
    export_dataset(samples_file, out)
    for path in (out / "README.md", out / MARKER, samples_file):
        assert stat.S_IMODE(path.stat().st_mode) & 0o044, path  # readable by group/others
