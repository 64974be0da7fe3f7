"""``discobench eval run / score / report`` through the CLI runner, on real files."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from builder.cli.main import app
from builder.config import get_settings
from builder.evaluation import iter_trajectories
from builder.evaluation.commands import report_files
from builder.samples_io import write_samples
from tests.evaluation.factories import S, answer, ask, three_samples, traj
from tests.evaluation.world import build_store, world_samples
from tests.fakes.openai_server import FakeOpenAIServer

runner = CliRunner()

SPEC_KEYS = {
    "n_samples", "accuracy", "checkpoint_pass", "detection_accuracy", "detection_f1",
    "ambiguity_recall", "ce_a", "ce_b", "ask_turns", "search_turns", "input_tokens",
    "output_tokens", "n_errors", "n_missing", "profiles", "by_type", "by_difficulty",
    "by_domain", "heavy_search", "run",
}  # fmt: skip


def _write_trajs(path: Path) -> None:
    lines = [
        traj("s1", [S, ask(1), answer("Hidemaro Fujibayashi", {"1": "BotW"})]),
        traj("s2", [ask(), answer("nope")]),  # target absent → default matcher
    ]
    path.write_text("".join(t.model_dump_json(exclude_unset=True) + "\n" for t in lines))


def test_score_jsonl_dataset_writes_json_with_spec_keys(tmp_path: Path) -> None:
    data = tmp_path / "samples.jsonl"
    write_samples(data, three_samples())
    trajs = tmp_path / "t.jsonl"
    _write_trajs(trajs)
    out = tmp_path / "m.json"
    res = runner.invoke(
        app,
        ["eval", "score", "--dataset", str(data), "--trajectories", str(trajs), "--json", str(out)],
    )
    assert res.exit_code == 0, res.output
    m = json.loads(out.read_text())
    assert set(m) >= SPEC_KEYS
    assert set(m["profiles"]) == {"DirectGuess", "SearchHeavyGuess", "DirectAsk", "SearchThenAsk"}
    assert set(m["by_type"]) == {"entity", "version", "criteria", "factual"}
    assert set(m["by_difficulty"]) == {"easy", "medium", "hard"}
    assert m["accuracy"] == 1 / 3 and m["n_missing"] == 1 and m["heavy_search"] == 3
    assert m["n_assigned_targets"] == 1
    assert "Main results" in res.output and "default matcher" in res.output


def test_score_parquet_file_and_export_folder(tmp_path: Path) -> None:
    rows = [s.model_dump(mode="json") for s in three_samples()]
    folder = tmp_path / "export"
    (folder / "default").mkdir(parents=True)
    (folder / "unambiguous").mkdir()
    pq.write_table(pa.Table.from_pylist(rows), folder / "default" / "test-00000-of-00001.parquet")
    pq.write_table(pa.Table.from_pylist(rows), folder / "unambiguous" / "test.parquet")
    trajs = tmp_path / "t.jsonl"
    _write_trajs(trajs)
    for dataset in (folder, folder / "default" / "test-00000-of-00001.parquet"):
        out = tmp_path / f"{dataset.name}.json"
        res = runner.invoke(
            app,
            ["eval", "score", "--dataset", str(dataset), "--trajectories", str(trajs),
             "--json", str(out), "--heavy-search", "1"],
        )  # fmt: skip
        assert res.exit_code == 0, res.output
        m = json.loads(out.read_text())
        assert m["n_samples"] == 3 and m["heavy_search"] == 1


def test_score_bad_trajectory_line_names_file_and_line(tmp_path: Path) -> None:
    data = tmp_path / "samples.jsonl"
    write_samples(data, three_samples())
    trajs = tmp_path / "t.jsonl"
    trajs.write_text('{"sample_id": "s1", "events": []}\n{"events": []}\n')
    res = runner.invoke(
        app, ["eval", "score", "--dataset", str(data), "--trajectories", str(trajs)]
    )
    assert res.exit_code == 3
    assert "t.jsonl:2" in res.output and "sample_id" in res.output


def test_run_then_score_then_report(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    build_store(ws / "kb.sqlite").close()
    data = tmp_path / "samples.jsonl"
    write_samples(data, world_samples())
    metrics = []
    for agent in ("oracle:direct-guess", "oracle:ask"):
        out = tmp_path / f"{agent.split(':')[1]}.jsonl"
        res = runner.invoke(
            app,
            ["--workspace", str(ws), "eval", "run", "--dataset", str(data), "--agent", agent,
             "--out", str(out), "--no-progress", "--concurrency", "2"],
        )  # fmt: skip
        assert res.exit_code == 0, res.output
        assert "2 episode(s) played" in res.output
        mj = tmp_path / f"{agent.split(':')[1]}.json"
        res = runner.invoke(
            app,
            ["eval", "score", "--dataset", str(data), "--trajectories", str(out),
             "--json", str(mj)],
        )  # fmt: skip
        assert res.exit_code == 0, res.output
        metrics.append(mj)
    assert (ws / "runs" / "search-cache").is_dir()
    plots = tmp_path / "plots"
    res = runner.invoke(app, ["eval", "report", *map(str, metrics), "--out", str(plots)])
    assert res.exit_code == 0, res.output
    assert "Main results" in res.output and "Behaviour profiles" in res.output
    named, _ = report_files(metrics, None)  # the rows are named by their run
    assert list(named) == [
        "oracle:direct-guess [neutral/none]",
        "oracle:ask [neutral/none]",
    ]
    for name in ("recall_by_type.png", "accuracy_by_difficulty.png", "pass_rate_by_profile.png"):
        assert (plots / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_run_unknown_agent_lists_choices(tmp_path: Path) -> None:
    data = tmp_path / "samples.jsonl"
    write_samples(data, world_samples())
    res = runner.invoke(
        app,
        ["--workspace", str(tmp_path), "eval", "run", "--dataset", str(data), "--agent",
         "oracle:nope", "--out", str(tmp_path / "x.jsonl"), "--ablation", "no_search"],
    )  # fmt: skip
    assert res.exit_code == 2
    assert "unknown agent" in res.output and "oracle:direct-guess" in res.output


def test_help_texts() -> None:
    for cmd in ("run", "score", "report"):
        res = runner.invoke(app, ["eval", cmd, "--help"])
        assert res.exit_code == 0
    assert "--heavy-search" in runner.invoke(app, ["eval", "score", "--help"]).output


def test_report_compares_guided_and_neutral_runs(tmp_path: Path) -> None:
    from rich.console import Console

    from builder.evaluation.report import print_metrics_table
    from builder.evaluation.scorer import score

    samples = three_samples()
    named = {}
    for setting, asks in (("neutral", []), ("guided", [ask(1)])):
        run = {"agent": "openai:m", "setting": setting, "ablation": "none"}
        lines = [traj("s1", [*asks, answer("Hidemaro Fujibayashi")], run=run)]
        named[setting] = score(samples, lines)
    console = Console(width=200, record=True)
    print_metrics_table(named, console)
    text = console.export_text()
    assert "Guided vs neutral" in text
    # recall 0/4 → 1/4: +25.0 points; ask turns 0 → 1/3 per sample
    row = next(line for line in text.splitlines() if "openai:m [none]" in line)
    assert "+25.0" in row and "+0.3" in row
    assert "reference policies" not in text
    console = Console(width=200, record=True)
    print_metrics_table({"oracle:ask": named["guided"], "openai:m": named["neutral"]}, console)
    text = console.export_text()
    assert "oracle:ask: reference policies that read the gold decomposition" in text
    assert "openai:m:" not in text


def test_score_reads_a_folder_written_by_the_export_stage(tmp_path: Path) -> None:
    from builder.evaluation.io import load_dataset
    from builder.export import export_dataset

    data = tmp_path / "samples.jsonl"
    write_samples(data, three_samples())
    export_dataset(data, tmp_path / "export", include_unreviewed=True, dev_fraction=0.4)
    loaded = load_dataset(tmp_path / "export")  # default config, test + dev splits
    assert sorted(s.id for s in loaded) == ["s1", "s2", "s3"]
    assert {s.id: s for s in loaded}["s1"] == three_samples()[0]


def test_run_resumes_or_starts_fresh(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    build_store(ws / "kb.sqlite").close()
    data = tmp_path / "samples.jsonl"
    write_samples(data, world_samples())
    out = tmp_path / "dg.jsonl"
    base = ["--workspace", str(ws), "eval", "run", "--dataset", str(data),
            "--agent", "oracle:direct-guess", "--out", str(out), "--no-progress"]  # fmt: skip
    assert "2 episode(s) played" in runner.invoke(app, base).output
    again = runner.invoke(app, base)
    assert "0 episode(s) played, 2 skipped" in again.output
    fresh = runner.invoke(app, [*base, "--fresh"])
    assert "2 episode(s) played, 0 skipped" in fresh.output
    assert len(out.read_text().splitlines()) == 2


def test_run_where_every_episode_errors_exits_7_grouping_the_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "samples.jsonl"
    write_samples(data, world_samples())
    out = tmp_path / "gpt.jsonl"
    args = ["--workspace", str(tmp_path / "ws"), "eval", "run", "--dataset", str(data),
            "--agent", "openai:m", "--out", str(out), "--no-progress", "--ablation", "no_search",
            "--concurrency", "1", "--no-cache"]  # fmt: skip
    with FakeOpenAIServer([], fail_first=100, fail_status=400) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-fake-for-tests")
        get_settings.cache_clear()
        try:
            failed = runner.invoke(app, args)
            tolerated = runner.invoke(app, [*args, "--max-error-rate", "1"])
        finally:
            get_settings.cache_clear()
    assert failed.exit_code == 7, failed.output
    assert "2 of 2 episodes errored" in failed.stderr and "--max-error-rate" in failed.stderr
    assert "2 × ServiceError" in failed.stderr  # grouped by message, with the count
    assert "sk-fake-for-tests" not in failed.output
    # the errors stay in the trajectories; a tolerant threshold exits 0 and still lists them
    assert all(t.error for t in iter_trajectories(out))
    assert tolerated.exit_code == 0, tolerated.output
    assert "2 × ServiceError" in tolerated.stderr


def test_report_reads_the_builds_baselines_json_next_to_single_runs(tmp_path: Path) -> None:
    data = tmp_path / "samples.jsonl"
    write_samples(data, three_samples())
    trajs = tmp_path / "t.jsonl"
    _write_trajs(trajs)
    single = tmp_path / "runs" / "sta.json"
    single.parent.mkdir()
    args = ["eval", "score", "--dataset", str(data), "--trajectories", str(trajs)]
    assert runner.invoke(app, [*args, "--json", str(single)]).exit_code == 0
    metrics = json.loads(single.read_text())
    baselines = tmp_path / "runs" / "baselines.json"  # what `discobench build` writes
    baselines.write_text(json.dumps({"direct-guess": metrics, "oracle-ask": metrics}))
    named, _ = report_files(sorted((tmp_path / "runs").glob("*.json")), None)
    assert {"direct-guess", "oracle-ask"} <= set(named) and len(named) == 3
    res = runner.invoke(app, ["eval", "report", str(baselines), str(single)])
    assert res.exit_code == 0, res.output
