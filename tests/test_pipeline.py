"""The build runner: steps re-run when an output is missing or changed, Ctrl-C says what stays."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from builder.cli.main import app
from builder.pipeline import BuildInterrupted, BuildRunner
from builder.workspace import Workspace

runner = CliRunner()


def _writer(path: Path, calls: list[str]):
    def run() -> str:
        calls.append(path.name)
        path.write_text("output")
        return "wrote it"

    return run


def test_a_step_reruns_when_its_output_is_missing_or_changed(tmp_path: Path):
    ws = Workspace(tmp_path / "ws").ensure()
    out, calls = ws.root / "out.txt", []
    assert not BuildRunner(ws).step("s", "k1", [out], _writer(out, calls)).skipped
    assert BuildRunner(ws).step("s", "k1", [out], _writer(out, calls)).skipped

    out.write_text("edited by hand")
    again = BuildRunner(ws).step("s", "k1", [out], _writer(out, calls))
    assert not again.skipped and "was changed" in again.rerun_reason
    # the changed file is not lost: it is kept aside before the step writes anew
    assert (ws.root / "out.txt.changed-1").read_text() == "edited by hand"
    assert "out.txt.changed-1" in again.rerun_reason and out.read_text() == "output"
    out.unlink()
    again = BuildRunner(ws).step("s", "k1", [out], _writer(out, calls))
    assert not again.skipped and "is missing" in again.rerun_reason
    # a deeper check (e.g. every file of an export) can refuse too
    deep = BuildRunner(ws).step("s", "k1", [out], _writer(out, calls), verify=lambda: "gone")
    assert not deep.skipped and deep.rerun_reason == "gone"
    assert BuildRunner(ws).step("s", "k2", [out], _writer(out, calls)).rerun_reason == ""
    assert len(calls) == 5


def test_ctrl_c_names_the_kept_steps_and_that_a_rerun_resumes(tmp_path: Path):
    ws = Workspace(tmp_path / "ws").ensure()
    build = BuildRunner(ws)
    build.step("import", "k", [ws.root / "a"], _writer(ws.root / "a", []))

    def interrupted() -> str:
        raise KeyboardInterrupt

    with pytest.raises(BuildInterrupted) as stop:
        build.step("seed", "k", [ws.root / "b"], interrupted)
    text = stop.value.explain()
    assert "during the seed step" in text and "(import)" in text and "again to resume" in text
    # the cut-off step has no fingerprint left, so it runs again; import stays done
    fresh = BuildRunner(ws)
    assert fresh.step("import", "k", [ws.root / "a"], _writer(ws.root / "a", [])).skipped
    assert "seed" not in fresh.state.fingerprints


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["build", "--n", "-5"], "--n"),
        (["build", "--n", "0"], "--n"),
        (["review", "server", "start", "--port", "99999"], "--port"),
        (["review", "server", "start", "--port", "0"], "--port"),
        (
            ["eval", "score", "--dataset", "d", "--trajectories", "t", "--heavy-search", "0"],
            "--heavy-search",
        ),
        (
            [
                "eval",
                "run",
                "--dataset",
                "d",
                "--agent",
                "baseline:oracle-ask",
                "--out",
                "o.jsonl",
                "--max-error-rate",
                "1.5",
            ],
            "--max-error-rate",
        ),
    ],
)
def test_bad_flags_are_refused_at_the_edge_without_a_traceback(
    args: list[str], needle: str, tmp_path: Path
):
    result = runner.invoke(app, ["-w", str(tmp_path / "ws"), *args])
    assert result.exit_code == 2
    assert needle in result.output and "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert not (tmp_path / "ws" / "kb.sqlite").exists()
