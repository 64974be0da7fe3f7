"""Ctrl-C (a real SIGINT to a real process) says what was kept and that a re-run resumes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from tests.readme.snapshot import write_small_snapshot

REPO = Path(__file__).resolve().parents[2]


def test_sigint_during_seed_keeps_no_half_file_and_says_to_rerun(tmp_path: Path) -> None:
    kb = write_small_snapshot(tmp_path / "kb")
    env = {**os.environ, "PYTHONPATH": str(REPO), "DISCOBENCH_PROGRESS_INTERVAL": "0"}
    cli = [sys.executable, "-m", "builder.cli.main", "-w", str(tmp_path / "ws")]
    subprocess.run([*cli, "kb", "import", str(kb), "--no-progress"], env=env, check=True,
                   capture_output=True)  # fmt: skip
    # a suite started in the background (``cmd &``, nohup) passes SIGINT on as ignored, and
    # Python then installs no Ctrl-C handler: the child gets the default back, as a terminal's
    proc = subprocess.Popen(
        [*cli, "seed", "--n", "600"], env=env, stderr=subprocess.PIPE, stdout=subprocess.PIPE,
        text=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    assert proc.stderr is not None
    for line in proc.stderr:  # a progress line: the command is inside its work now
        if "seed" in line and "elapsed" in line:
            break
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "interrupted (Ctrl-C)" in err and "Run the same command again" in err
    assert "Traceback" not in err
    assert not (tmp_path / "ws" / "seeds.jsonl").exists()
