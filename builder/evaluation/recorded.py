"""``--search recorded``: answer searches from a recorded search cache, offline.

A run's search responses are stored by :class:`~builder.evaluation.search.CachedSearch` as one
JSON file per query (``{"query", "k", "results"}``). This backend serves exactly those
responses, keyed by (query, k), without the store or the service that produced them — so a
recorded run (a Tavily run, a local-model run) can be replayed on a machine that has neither,
and a query that was never recorded is an error naming it instead of a silent new search.
The folder comes from ``DISCOBENCH_SEARCH_RECORDED``.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import TYPE_CHECKING

from builder.errors import ConfigError, ServiceError
from builder.evaluation.search import SEARCH_BACKENDS, SearchBackend, SearchResult

if TYPE_CHECKING:
    from builder.config import Settings
    from builder.kb.store import KnowledgeStore


class RecordedSearch:
    """Search responses read from a folder of search-cache entries (or a JSONL of them)."""

    name = "recorded"

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self._by_query: dict[tuple[str, int], list[SearchResult]] = {}
        if self.root.is_file():
            lines = self.root.read_text(encoding="utf-8").splitlines()
            entries = [(f"{self.root}:{n}", line) for n, line in enumerate(lines, 1) if line]
        elif self.root.is_dir():
            entries = [(str(p), p.read_text(encoding="utf-8")) for p in self.root.rglob("*.json")]
        else:
            raise ConfigError(
                f"no recorded searches at {self.root}",
                hint="set DISCOBENCH_SEARCH_RECORDED to a run's search-cache folder",
            )
        for where, text in sorted(entries):
            try:
                entry = json.loads(text)
                key = (str(entry["query"]), int(entry["k"]))
                results = [SearchResult.model_validate(r) for r in entry["results"]]
            except (ValueError, KeyError, TypeError) as exc:
                raise ConfigError(
                    f"{where}: not a recorded search ({type(exc).__name__}: {exc})",
                    hint='each entry is {"query": ..., "k": ..., "results": [...]}',
                ) from None
            self._by_query[key] = results

    def __len__(self) -> int:
        return len(self._by_query)

    def identity(self) -> str:
        blob = json.dumps(sorted(self._by_query), ensure_ascii=False).encode("utf-8")
        return "recorded:" + hashlib.sha256(blob).hexdigest()[:16]

    def search(self, query: str, k: int) -> list[SearchResult]:
        try:
            return self._by_query[(query, k)]
        except KeyError:
            raise ServiceError(
                f"search {query!r} (k={k}) was not recorded in {self.root}",
                hint="the agent searched something the recorded run did not: record again "
                "with the original backend",
            ) from None


@SEARCH_BACKENDS.register("recorded")
def _recorded(store: KnowledgeStore | None, settings: Settings) -> SearchBackend:
    if settings.search_recorded is None:
        raise ConfigError(
            "the recorded search backend needs a folder of recorded searches",
            hint="set DISCOBENCH_SEARCH_RECORDED to a run's search-cache folder",
        )
    return RecordedSearch(settings.search_recorded)
