"""Search backends of the harness: ``local`` (BM25 over the snapshot's pages) and ``tavily``.

Every response goes through :class:`CachedSearch`, keyed by (backend, its identity, query,
k), so a re-run sees exactly the results the first run saw.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from pydantic import BaseModel, ConfigDict, Field

from builder.errors import ConfigError
from builder.evaluation.registry import Registry
from builder.kb.passages import SNIPPETS
from builder.llm.cache import JsonCache, request_key

if TYPE_CHECKING:
    from builder.config import Settings
    from builder.kb.store import KnowledgeStore


class SearchResult(BaseModel):
    """One search result as the agent sees it (``entity_id`` only for local pages)."""

    model_config = ConfigDict(frozen=True)

    title: str
    url: str = ""
    snippet: str = ""
    entity_id: str = Field("", description="KB id of the page (local backend), else empty.")
    score: float = 0.0


class SearchBackend(Protocol):
    name: str

    def identity(self) -> str:
        """What the results depend on besides the query (snapshot, API version)."""
        ...

    def search(self, query: str, k: int) -> list[SearchResult]: ...


SearchFactory = Callable[["KnowledgeStore | None", "Settings"], SearchBackend]
SEARCH_BACKENDS: Registry[SearchFactory] = Registry("search backend")


class LocalSearch:
    """BM25 over the snapshot's page texts (``KnowledgeStore.search``).

    SQLite connections belong to their thread: worker threads open their own read-only
    connection to the same file; the creating thread uses the store it was given.
    """

    name = "local"

    def __init__(self, store: KnowledgeStore) -> None:
        self.store = store
        self._owner = threading.get_ident()
        self._local = threading.local()
        stats = store.stats()
        # the snippets' making is part of it: a cached response keeps the snippets it had
        self._identity = f"{stats.snapshot_id}|{stats.snapshot_version}|{stats.pages}|{SNIPPETS}"

    def identity(self) -> str:
        return self._identity

    def _store(self) -> KnowledgeStore:
        if threading.get_ident() == self._owner:
            return self.store
        st: KnowledgeStore | None = getattr(self._local, "store", None)
        if st is None:
            from builder.kb.store import KnowledgeStore

            st = KnowledgeStore.open(self.store.path, read_only=True)
            self._local.store = st  # closed when the worker thread's locals are collected
        return st

    def search(self, query: str, k: int) -> list[SearchResult]:
        return [
            SearchResult(
                title=h.title, url=h.url, snippet=h.snippet, entity_id=h.entity_id, score=h.score
            )
            for h in self._store().search(query, k)
        ]


class CachedSearch:
    """Wraps a backend with an on-disk cache of every response."""

    def __init__(self, backend: SearchBackend, cache_dir: Path | None) -> None:
        self.backend = backend
        self.name = backend.name
        self.cache = JsonCache(cache_dir) if cache_dir is not None else None
        self.hits = 0
        self.misses = 0
        self._lock = threading.Lock()

    def identity(self) -> str:
        return self.backend.identity()

    def search(self, query: str, k: int) -> list[SearchResult]:
        if self.cache is None:
            return self.backend.search(query, k)
        key = request_key(
            {"backend": self.backend.name, "id": self.backend.identity(), "q": query, "k": k}
        )
        hit = self.cache.get(key)
        if hit is not None:
            with self._lock:
                self.hits += 1
            return [SearchResult.model_validate(r) for r in hit["results"]]
        with self._lock:
            self.misses += 1
        results = self.backend.search(query, k)
        self.cache.put(key, {"query": query, "k": k, "results": [r.model_dump() for r in results]})
        return results


@SEARCH_BACKENDS.register("local")
def _local(store: KnowledgeStore | None, settings: Settings) -> SearchBackend:
    if store is None:
        raise ConfigError(
            "the local search backend needs the snapshot store",
            hint="build or import the knowledge store first (discobench kb import), "
            "or use --search tavily",
        )
    return LocalSearch(store)


@SEARCH_BACKENDS.register("tavily")
def _tavily(store: KnowledgeStore | None, settings: Settings) -> SearchBackend:
    from builder.evaluation.tavily import TavilySearch

    if settings.tavily_api_key is None:
        raise ConfigError("no Tavily API key", hint="set TAVILY_API_KEY in the environment")
    return TavilySearch(settings.tavily_api_key, timeout=settings.http_timeout)
