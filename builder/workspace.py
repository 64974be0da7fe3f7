"""The workspace folder: where every stage reads and writes its files.

One place names every path, so stages never guess each other's file names.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Workspace:
    """Paths of one workspace (``--workspace`` / ``DISCOBENCH_WORKSPACE``, default ``./work``)."""

    root: Path

    def ensure(self) -> Workspace:
        self.root.mkdir(parents=True, exist_ok=True)
        return self

    @property
    def kb_path(self) -> Path:
        """The snapshot store (SQLite)."""
        return self.root / "kb.sqlite"

    @property
    def http_cache_dir(self) -> Path:
        return self.root / "http-cache"

    @property
    def llm_cache_dir(self) -> Path:
        return self.root / "llm-cache"

    @property
    def seeds_path(self) -> Path:
        return self.root / "seeds.jsonl"

    @property
    def samples_path(self) -> Path:
        return self.root / "samples.jsonl"

    @property
    def rejects_path(self) -> Path:
        return self.root / "rejects.jsonl"

    @property
    def review_dir(self) -> Path:
        return self.root / "review"

    @property
    def runs_dir(self) -> Path:
        return self.root / "runs"

    @property
    def exports_dir(self) -> Path:
        return self.root / "exports"
