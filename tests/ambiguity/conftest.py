from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from builder.kb.store import KnowledgeStore
from tests.ambiguity.minikb import build_store
from tests.ambiguity.world import world


@pytest.fixture(scope="module")
def mini(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KnowledgeStore]:
    store = build_store(tmp_path_factory.mktemp("mini") / "kb.sqlite", world())
    yield store
    store.close()


@pytest.fixture
def mini_path(tmp_path: Path) -> Path:
    path = tmp_path / "kb.sqlite"
    build_store(path, world()).close()
    return path
