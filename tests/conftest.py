"""Fixtures shared by every test area (each area may add its own conftest too)."""

from __future__ import annotations

from pathlib import Path

import pytest

from builder.workspace import Workspace

REPO_ROOT = Path(__file__).resolve().parents[1]
FIXTURES_DIR = (REPO_ROOT / ".." / "shared" / "fixtures").resolve()


@pytest.fixture(scope="session")
def fixtures_dir() -> Path:
    """The recorded Wikidata/Wikipedia data (``<repo>/../shared/fixtures``), read by path."""
    if not FIXTURES_DIR.is_dir():
        pytest.fail(f"shared fixtures not found at {FIXTURES_DIR}")
    return FIXTURES_DIR


@pytest.fixture
def tmp_workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Workspace:
    """A fresh workspace folder, also set as ``DISCOBENCH_WORKSPACE`` for CLI runs."""
    ws = Workspace(tmp_path / "workspace").ensure()
    monkeypatch.setenv("DISCOBENCH_WORKSPACE", str(ws.root))
    return ws
