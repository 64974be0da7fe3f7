"""The samples CLI end to end on a real store in a workspace: seed, inject, validate, stats."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from builder.cli.main import app
from builder.samples_io import read_rejects, read_samples, read_seeds

runner = CliRunner()


def _run(ws: Path, *args: str) -> str:
    result = runner.invoke(app, ["-w", str(ws), *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_seed_inject_validate_stats(tmp_path: Path, mini_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    shutil.copy(mini_path, ws / "kb.sqlite")
    seeds, samples, rejects = tmp_path / "s.jsonl", tmp_path / "x.jsonl", tmp_path / "r.jsonl"
    _run(ws, "seed", "--out", str(seeds), "--n", "30", "--seed", "2", "--no-progress")
    chains = list(read_seeds(seeds))
    assert chains
    out = _run(ws, "inject", str(seeds), "--out", str(samples), "--rejects", str(rejects),
               "--seed", "2", "--no-progress")  # fmt: skip
    got = list(read_samples(samples))
    assert f"wrote {len(got)} samples" in out and got
    assert all(s.provenance.snapshot_id == "minikb" for s in got)
    assert all(s.provenance.created_at == "2026-01-01" for s in got)
    list(read_rejects(rejects))
    first = samples.read_bytes()
    _run(ws, "inject", str(seeds), "--out", str(samples), "--rejects", str(rejects),
         "--seed", "2", "--no-progress")  # fmt: skip
    assert samples.read_bytes() == first
    assert f"{len(got)} passed, 0 failed" in _run(ws, "validate", str(samples))
    stats = json.loads(_run(ws, "stats", str(samples), "--json"))
    assert stats["samples"] == len(got)
    assert stats["instances"] == sum(s.num_ambiguities for s in got)
    assert "ambiguity instances" in _run(ws, "stats", str(samples))


def test_validate_exits_1_and_writes_rejects(tmp_path: Path, mini_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    shutil.copy(mini_path, ws / "kb.sqlite")
    seeds, samples = tmp_path / "s.jsonl", tmp_path / "x.jsonl"
    _run(ws, "seed", "--out", str(seeds), "--n", "10", "--no-progress")
    _run(ws, "inject", str(seeds), "--out", str(samples), "--no-progress")
    rows = [json.loads(line) for line in samples.read_text().splitlines()]
    rows[0]["checkpoints"][-1]["clue"] = rows[0]["answer"]
    samples.write_text("".join(json.dumps(r) + "\n" for r in rows))
    result = runner.invoke(app, ["-w", str(ws), "validate", str(samples), "--rejects",
                                 str(tmp_path / "bad.jsonl")])  # fmt: skip
    assert result.exit_code == 1
    bad = list(read_rejects(tmp_path / "bad.jsonl"))
    assert any(r.check == "no_leakage" and r.sample_id == rows[0]["id"] for r in bad)


def test_missing_store_is_a_clear_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["-w", str(tmp_path), "seed", "--out", str(tmp_path / "s")])
    assert result.exit_code == 3
    text = " ".join(result.output.split())
    assert "no knowledge store" in text and "kb import" in text


def test_bad_hops_flag(tmp_path: Path, mini_path: Path) -> None:
    result = runner.invoke(app, ["-w", str(mini_path.parent), "seed", "--hops", "two"])
    assert result.exit_code == 2 and "2-4" in result.output


def test_validate_notices_an_edited_final_answer(tmp_path: Path, mini_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    shutil.copy(mini_path, ws / "kb.sqlite")
    seeds, samples = tmp_path / "s.jsonl", tmp_path / "x.jsonl"
    _run(ws, "seed", "--out", str(seeds), "--n", "10", "--no-progress")
    _run(ws, "inject", str(seeds), "--out", str(samples), "--no-progress")
    rows = [json.loads(line) for line in samples.read_text().splitlines()]
    rows[0]["answer"] = "Somebody Else Entirely"
    samples.write_text("".join(json.dumps(r) + "\n" for r in rows))
    result = runner.invoke(app, ["-w", str(ws), "validate", str(samples), "--rejects",
                                 str(tmp_path / "bad.jsonl")])  # fmt: skip
    assert result.exit_code == 1
    bad = [r for r in read_rejects(tmp_path / "bad.jsonl") if r.sample_id == rows[0]["id"]]
    assert any(r.check == "unique" and "Somebody Else Entirely" in r.detail for r in bad)
    assert f"{len(rows) - 1} passed, 1 failed" in result.output
