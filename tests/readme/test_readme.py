"""The README's tour runs as written: every command block, in order, on a small snapshot.

The blocks run with bash from a fresh folder laid out like the repository root (a small cut
of the bundled snapshot at ``seeds/kb``), through a ``discobench`` on PATH that runs this
checkout's code. A block preceded by ``<!-- readme-test: skip (REASON) -->`` is not run
(the network, a Label Studio server, an LLM endpoint); every other one must exit 0.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.readme.snapshot import write_small_snapshot

REPO = Path(__file__).resolve().parents[2]
SKIP = re.compile(r"<!-- readme-test: skip \((?P<reason>[^)]+)\) -->\s*$")
FENCE = re.compile(r"^```bash\n(?P<body>.*?)^```$", re.S | re.M)


def tour_blocks(readme: str) -> list[tuple[str, str | None]]:
    """(commands, skip reason or None) of each bash block of the "A short tour" section."""
    start = readme.index("## A short tour")
    end = readme.index("\n## ", start + 1)
    section = readme[start:end]
    blocks: list[tuple[str, str | None]] = []
    for match in FENCE.finditer(section):
        before = section[: match.start()].rstrip("\n").splitlines()
        skip = SKIP.match(before[-1]) if before else None
        blocks.append((match["body"], skip["reason"] if skip else None))
    return blocks


def test_the_tour_has_runnable_blocks_and_says_why_others_are_skipped():
    blocks = tour_blocks((REPO / "README.md").read_text("utf-8"))
    runnable = [body for body, reason in blocks if reason is None]
    assert len(runnable) >= 3
    joined = "\n".join(runnable)
    for step in ("kb import", "seed", "inject", "validate", "export", "eval run", "eval score",
                 "eval report"):  # fmt: skip
        assert f"discobench {step}" in joined, step
    assert "../shared" not in joined  # a fresh clone has nothing beside it


@pytest.mark.slow
def test_every_tour_block_runs_as_written(tmp_path: Path):
    root = tmp_path / "repo"
    write_small_snapshot(root / "seeds" / "kb")
    (root / "exports").mkdir()
    (root / "exports" / "README.md").write_text("generated datasets go here\n")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "discobench"
    shim.write_text(f'#!/bin/sh\nexec {sys.executable} -m builder.cli.main "$@"\n')
    shim.chmod(0o755)
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DISCOBENCH_", "OPENAI_", "LABEL_STUDIO_", "HF_", "TAVILY_"))
    }
    env.update(
        PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}",
        PYTHONPATH=str(REPO),
        HF_HOME=str(tmp_path / "hf-home"),
        HF_DATASETS_CACHE=str(tmp_path / "hf-cache"),
        HF_HUB_OFFLINE="1",
        HF_DATASETS_OFFLINE="1",
        MPLBACKEND="Agg",
    )
    blocks = tour_blocks((REPO / "README.md").read_text("utf-8"))
    for n, (body, reason) in enumerate(blocks, 1):
        if reason is not None:
            continue
        proc = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", body],
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert proc.returncode == 0, (
            f"README tour block {n} failed (exit {proc.returncode}):\n{body}\n"
            f"--- stdout\n{proc.stdout[-3000:]}\n--- stderr\n{proc.stderr[-3000:]}"
        )
    assert (root / "exports" / "mybench" / "README.md").exists()
    assert (root / "work" / "report" / "recall_by_type.png").exists()
