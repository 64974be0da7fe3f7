"""`discobench build`, the README's main job, end to end on the bundled snapshot."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
from typer.testing import CliRunner

from builder.cli.main import app
from builder.pipeline import baseline_metrics
from builder.records.sample import Sample
from builder.workspace import Workspace

runner = CliRunner()


def test_build_runs_every_stage_offline_and_resumes(tmp_path: Path):
    ws, export = tmp_path / "ws", tmp_path / "export"
    args = ["-w", str(ws), "build", "--n", "200", "--export-dir", str(export), "--no-progress"]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    for step in ("import", "seed", "inject", "export", "eval"):
        assert step in first.output
    state = json.loads((ws / "build-state.json").read_text())
    assert set(state["fingerprints"]) == {"import", "seed", "inject", "export", "eval"}

    rows = pq.read_table(export / "default" / "test-00000-of-00001.parquet").to_pylist()
    samples = [Sample.model_validate(r) for r in rows]
    assert len(samples) >= 100
    assert {s.review.status for s in samples} == {"draft"}  # unreviewed, and the card says so
    assert "have **not** passed human review" in (export / "README.md").read_text()

    metrics = baseline_metrics(Workspace(ws))
    guess, ask = metrics["oracle:direct-guess"], metrics["oracle:search-then-ask"]
    unamb = metrics["oracle:direct-guess (unambiguous)"]
    # the two orderings, on the bundled samples
    assert ask.ambiguous_checkpoint_pass is not None and guess.ambiguous_checkpoint_pass is not None
    assert ask.ambiguous_checkpoint_pass > guess.ambiguous_checkpoint_pass
    assert unamb.accuracy > guess.accuracy
    assert guess.ask_turns == 0 and ask.ask_turns > 0

    # a second run finds every input unchanged and redoes nothing
    samples_before = (ws / "samples.jsonl").read_bytes()
    again = runner.invoke(app, args)
    assert again.exit_code == 0, again.output
    assert again.output.count("unchanged") >= 5
    assert (ws / "samples.jsonl").read_bytes() == samples_before

    # a deleted Parquet file is noticed (not only the card's presence): export runs again
    parquet = export / "default" / "test-00000-of-00001.parquet"
    parquet.unlink()
    repaired = runner.invoke(app, args)
    assert repaired.exit_code == 0, repaired.output
    assert "re-run" in repaired.output and parquet.exists()


def test_build_on_a_missing_snapshot_names_the_file_and_the_fix(tmp_path: Path):
    result = runner.invoke(app, ["-w", str(tmp_path / "ws"), "build", "--kb", str(tmp_path)])
    assert result.exit_code == 3
    assert "entities.json" in result.output and "seeds/kb/build.py" in result.output
