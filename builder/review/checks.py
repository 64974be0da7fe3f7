"""The default checker: ``builder.ambiguity.checks.run_checks`` bound to the snapshot store.

The review stage takes the checker as a callable so tests and other front ends can pass
their own; this module wires the project's real one for the CLI.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from functools import partial
from pathlib import Path
from typing import Any

from builder.errors import ConfigError
from builder.records.sample import Sample
from builder.review.tasks import Checker, CheckReportLike


@contextmanager
def default_checker(kb_path: Path) -> Iterator[Checker]:
    """Open the snapshot read-only and yield ``run_checks`` bound to it."""
    if not kb_path.exists():
        raise ConfigError(
            f"no knowledge snapshot at {kb_path} for the automatic checks",
            hint="build it with `discobench kb import`, pass --kb, or push with --no-checks",
        )
    try:
        checks: Any = importlib.import_module("builder.ambiguity.checks")
        store_mod: Any = importlib.import_module("builder.kb.store")
    except ImportError as exc:
        raise ConfigError(
            f"the automatic checks are not available ({exc})", hint="push with --no-checks"
        ) from None
    store = store_mod.KnowledgeStore.open(kb_path, read_only=True)
    try:
        checker: Checker = partial(checks.run_checks, store)
        yield checker
    finally:
        store.close()


class LazyChecker:
    """``run_checks`` opened on first use: pull only needs it when an inspector asks a fix.

    A missing snapshot then fails that item's re-check (recorded by pull), not the pull.
    """

    def __init__(self, kb_path: Path) -> None:
        self.kb_path = kb_path
        self._stack = ExitStack()
        self._checker: Checker | None = None

    def __call__(self, sample: Sample) -> CheckReportLike:
        if self._checker is None:
            self._checker = self._stack.enter_context(default_checker(self.kb_path))
        return self._checker(sample)

    def close(self) -> None:
        self._stack.close()

    def __enter__(self) -> LazyChecker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
