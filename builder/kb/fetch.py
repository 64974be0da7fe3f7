"""``kb fetch``: pull entities (and their Wikipedia lead text) from the live sources into the
snapshot store, optionally following some properties outwards.

Resumable: entities already in the store are not fetched again (unless ``refresh``), their
missing pages are; every batch is written as soon as it arrives. Per-item failures are
recorded in the :class:`FetchReport` with a reason and the run goes on.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn

from builder.config import CacheMode, Settings
from builder.errors import DiscoBenchError, InputError
from builder.kb.http import HttpClient
from builder.kb.store import KnowledgeStore
from builder.kb.wikidata import BATCH_SIZE, WikidataClient, chunks
from builder.kb.wikipedia import EXTRACT_BATCH, WikipediaClient
from builder.progress import LogProgress
from builder.records.live import FetchFailure, FetchReport
from builder.records.page import Page
from builder.records.wikidata import Entity, EntityIdValue

PROPERTY_ID = re.compile(r"^P[1-9][0-9]*$")
EXPANDABLE_ID = re.compile(r"^[QP][1-9][0-9]*$")


def parse_id_list(text: str, *, what: str, pattern: re.Pattern[str] | None = None) -> list[str]:
    """``"Q1, Q2"`` → ``["Q1", "Q2"]``; a malformed id is an :class:`InputError`."""
    given = [part.strip() for part in text.split(",") if part.strip()]
    ids = [i.upper() for i in given]
    bad = [g for g, i in zip(given, ids, strict=True) if pattern and not pattern.match(i)]
    if bad:
        raise InputError(
            f"not a valid id: {', '.join(bad)}",
            field=what,
            hint="give comma-separated Wikidata ids, e.g. Q42,Q1299 (properties: P31,P17)",
        )
    return list(dict.fromkeys(ids))


def linked_ids(entity: Entity, properties: Sequence[str]) -> list[str]:
    """Item/property ids that ``entity`` points to through ``properties`` (best rank only)."""
    out: list[str] = []
    for pid in properties:
        for value in entity.best_values(pid):
            parsed = value.parsed()
            if isinstance(parsed, EntityIdValue) and EXPANDABLE_ID.match(parsed.id):
                out.append(parsed.id)
    return out


class _Fetcher:
    def __init__(
        self,
        store: KnowledgeStore,
        wikidata: WikidataClient,
        wikipedia: WikipediaClient | None,
        report: FetchReport,
        refresh: bool,
    ) -> None:
        self.store = store
        self.wikidata = wikidata
        self.wikipedia = wikipedia
        self.report = report
        self.refresh = refresh

    def fail(self, eid: str, stage: str, exc: Exception) -> None:
        reason = exc.message if isinstance(exc, DiscoBenchError) else str(exc)
        self.report.failures.append(
            FetchFailure(id=eid, stage="entity" if stage == "entity" else "page", reason=reason)
        )

    def level(self, ids: list[str], progress: Progress, task: TaskID) -> list[Entity]:
        """Fetch one level of ids; returns the entities of this level (fetched or stored)."""
        entities: list[Entity] = []
        todo: list[str] = []
        for eid in ids:
            stored = None if self.refresh else self.store.get_entity(eid)
            if stored is None:
                todo.append(eid)
                continue
            self.report.skipped.append(eid)
            entities.append(stored)
            if self.wikipedia is not None and self.store.get_page(eid) is None:
                self.pages([stored])
            progress.advance(task)
        for batch in chunks(todo, BATCH_SIZE):
            entities.extend(self.batch(batch))
            progress.advance(task, len(batch))
        return entities

    def batch(self, batch: list[str]) -> list[Entity]:
        try:
            found = self.wikidata.lookup(batch)
        except DiscoBenchError as exc:
            for eid in batch:
                self.fail(eid, "entity", exc)
            return []
        self.store.upsert_entities(found.entities)
        self.report.fetched.extend(e.id for e in found.entities)
        self.report.missing.extend(found.missing)
        self.report.redirects.update(found.redirects)
        for eid, reason in found.skipped.items():
            self.report.failures.append(FetchFailure(id=eid, stage="entity", reason=reason))
        if self.wikipedia is not None:
            self.pages(found.entities)
        return found.entities

    def pages(self, entities: list[Entity]) -> None:
        assert self.wikipedia is not None
        site = f"{self.wikipedia.lang}wiki"
        linked: list[tuple[Entity, str]] = []
        for entity in entities:
            link = entity.sitelinks.get(site)
            if link is None:
                self.report.no_page.append(entity.id)
            else:
                linked.append((entity, link.title))
        for start in range(0, len(linked), EXTRACT_BATCH):
            batch = linked[start : start + EXTRACT_BATCH]
            try:
                found = self.wikipedia.page_extracts([title for _, title in batch])
            except DiscoBenchError as exc:
                for entity, _ in batch:
                    self.fail(entity.id, "page", exc)
                continue
            pages: list[Page] = []
            for entity, title in batch:
                page = found.get(title)
                if page is None:
                    self.report.no_page.append(entity.id)
                else:
                    pages.append(page.model_copy(update={"entity_id": entity.id}))
            self.report.pages += self.store.upsert_pages(pages)


def fetch_into_store(
    store: KnowledgeStore,
    wikidata: WikidataClient,
    wikipedia: WikipediaClient | None,
    ids: Iterable[str],
    *,
    expand: Sequence[str] = (),
    depth: int = 1,
    progress: bool = False,
    refresh: bool = False,
) -> FetchReport:
    """Fetch ``ids`` and, ``depth`` hops out, the entities their ``expand`` properties point
    to; with ``wikipedia`` (None = no pages), each entity's lead text in that language."""
    start = list(dict.fromkeys(i.strip() for i in ids if i.strip()))
    report = FetchReport(requested=start)
    fetcher = _Fetcher(store, wikidata, wikipedia, report, refresh)
    seen: set[str] = set()
    level = start
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    with LogProgress(*columns, disable=not progress, transient=True) as bar:
        task = bar.add_task("fetching entities", total=0)
        for hop in range(max(depth, 0) + 1):
            level = [i for i in dict.fromkeys(level) if i not in seen]
            if not level:
                break
            seen.update(level)
            bar.update(task, total=len(seen), description=f"fetching entities (hop {hop})")
            entities = fetcher.level(level, bar, task)
            seen.update(e.id for e in entities)
            if hop == depth or not expand:
                break
            level = [i for e in entities for i in linked_ids(e, expand)]
    return report


def open_live_sources(
    settings: Settings,
    *,
    cache_dir: Path | None = None,
    mode: CacheMode | None = None,
    pages: bool = True,
    http: HttpClient | None = None,
) -> tuple[WikidataClient, WikipediaClient | None]:
    """The two clients over one :class:`HttpClient` built from ``settings``."""
    client = http or HttpClient.from_settings(settings, cache_dir=cache_dir, mode=mode)
    wikidata = WikidataClient.from_settings(client, settings)
    wikipedia = WikipediaClient.from_settings(client, settings) if pages else None
    return wikidata, wikipedia
