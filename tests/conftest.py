"""Fixtures shared by every test area (each area may add its own conftest too).

Recorded data beside the repository
-----------------------------------
Some tests replay real Wikidata/Wikipedia responses kept in ``<repo>/../shared/fixtures``, a
folder beside the repository that CI has and a fresh clone does not. Those tests (the ones
that take the ``fixtures_dir`` fixture, directly or through another fixture, or carry the
``shared_fixtures`` marker) are skipped with one reason when the folder is absent; set
``DISCOBENCH_REQUIRE_SHARED_FIXTURES=1`` (CI does) to make its absence an error instead.
The core paths are also covered by small hand-written data under ``tests/data``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from builder.workspace import Workspace

REPO_ROOT = Path(__file__).resolve().parents[1]
FIXTURES_DIR = (REPO_ROOT / ".." / "shared" / "fixtures").resolve()
DATA_DIR = Path(__file__).resolve().parent / "data"
HAVE_SHARED_FIXTURES = FIXTURES_DIR.is_dir()
SHARED_FIXTURES_REASON = (
    f"needs the recorded data in ../shared/fixtures beside the repository ({FIXTURES_DIR} "
    "not found; CI has it)"
)

#: Marks a test that reads ``FIXTURES_DIR`` without taking the ``fixtures_dir`` fixture.
shared_fixtures = pytest.mark.shared_fixtures


def pytest_configure(config: pytest.Config) -> None:
    if not HAVE_SHARED_FIXTURES and os.environ.get("DISCOBENCH_REQUIRE_SHARED_FIXTURES"):
        raise pytest.UsageError(
            f"DISCOBENCH_REQUIRE_SHARED_FIXTURES is set but {FIXTURES_DIR} does not exist"
        )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if HAVE_SHARED_FIXTURES:
        return
    skip = pytest.mark.skip(reason=SHARED_FIXTURES_REASON)
    for item in items:
        names = getattr(item, "fixturenames", ())
        if "fixtures_dir" in names or item.get_closest_marker("shared_fixtures"):
            item.add_marker(skip)


@pytest.fixture(scope="session")
def fixtures_dir() -> Path:
    """The recorded Wikidata/Wikipedia data (``<repo>/../shared/fixtures``), read by path."""
    if not HAVE_SHARED_FIXTURES:  # normally skipped at collection already
        pytest.skip(SHARED_FIXTURES_REASON)
    return FIXTURES_DIR


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """Small hand-written data shipped with the tests, in the exact wire formats."""
    return DATA_DIR


@pytest.fixture
def tmp_workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Workspace:
    """A fresh workspace folder, also set as ``DISCOBENCH_WORKSPACE`` for CLI runs."""
    ws = Workspace(tmp_path / "workspace").ensure()
    monkeypatch.setenv("DISCOBENCH_WORKSPACE", str(ws.root))
    return ws
