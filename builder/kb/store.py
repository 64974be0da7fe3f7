"""The snapshot store: Wikidata entities and page texts in one SQLite file.

Why SQLite (see docs/store.md): it is in the standard library, FTS5 gives BM25 search for
free, the whole snapshot is one file to copy or ship, WAL lets readers run while an import
writes, and 10^5–10^6 entities fit comfortably on one machine. Every index the later stages
need is a SQL query here; nothing scans all entities in Python.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from itertools import islice
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

from pydantic import TypeAdapter

from builder.errors import InputError
from builder.kb import queries
from builder.kb.domains import HUMAN, domain_for_classes
from builder.kb.rows import RANK_NAMES, EntityRows, entity_rows
from builder.kb.schema import SCHEMA_VERSION, SECONDARY_INDEXES, TABLES
from builder.kb.text import normalize_name
from builder.records.kb import (
    KBStats,
    NumericValue,
    SearchHit,
    TimedValue,
    TimeGroup,
    UpsertCounts,
)
from builder.records.page import Page
from builder.records.wikidata import DataValue, Entity, Statement

T = TypeVar("T")
_STATEMENTS = TypeAdapter(list[Statement])
_CHUNK = 500  # ids per IN (...) query
DEFAULT_LANGUAGES = ("en",)
CACHE_KIB = 65536  # SQLite page cache for queries
BULK_CACHE_KIB = 16384  # during bulk imports


def _chunks(items: Iterable[T], size: int) -> Iterator[list[T]]:
    it = iter(items)
    while chunk := list(islice(it, size)):
        yield chunk


def _when(value: TimedValue) -> tuple[int, int, int, int]:
    return queries.time_key(value.point_in_time or value.start or value.end)


def _quote(key: str) -> str:
    """A key quoted for a SQLite JSON path."""
    return key.replace("\\", "\\\\").replace('"', '\\"')


def _claims_path(pid: str) -> str:
    """JSON path of one property's statements in an entity document."""
    return f'$.claims."{_quote(pid)}"'


def _check_schema(conn: sqlite3.Connection, path: Path) -> None:
    """Refuse a store written with another schema version (its tables would not match)."""
    has_meta = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'"
    ).fetchone()
    if not has_meta:
        return
    row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    if row is not None and row[0] != SCHEMA_VERSION:
        raise InputError(
            f"knowledge store has schema version {row[0]}, this version reads {SCHEMA_VERSION}",
            path=path,
            hint="delete the file and run `discobench kb import` again",
        )


def _marks(n: int) -> str:
    return ",".join("?" * n)


class KnowledgeStore:
    """Read and write a snapshot. Open with :meth:`open`; use as a context manager."""

    def __init__(self, conn: sqlite3.Connection, path: Path, *, read_only: bool) -> None:
        self.conn = conn
        self.path = path
        self.read_only = read_only
        self.batch_size = 1000
        langs = self.get_meta("languages")
        self.languages: tuple[str, ...] = tuple(langs.split(",")) if langs else DEFAULT_LANGUAGES

    # ------------------------------------------------------------------ lifecycle
    @classmethod
    def open(
        cls,
        path: Path | str,
        *,
        read_only: bool = False,
        languages: Sequence[str] = DEFAULT_LANGUAGES,
    ) -> KnowledgeStore:
        """Open (and create when missing) a store. ``languages``: label languages to index
        for names; fixed when the store is created, later values are ignored."""
        path = Path(path)
        if read_only:
            if not path.exists():
                raise InputError(
                    "no knowledge store here", path=path, hint="run `discobench kb import` first"
                )
            conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(path, isolation_level=None)
        try:
            conn.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
            _check_schema(conn, path)
            if not read_only:
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA synchronous=NORMAL")
                conn.executescript(TABLES)
                for ddl in SECONDARY_INDEXES.values():
                    conn.execute(ddl)
                conn.execute(
                    "INSERT OR IGNORE INTO meta VALUES ('schema_version', ?), ('languages', ?)",
                    (SCHEMA_VERSION, ",".join(languages)),
                )
            return cls(conn, path, read_only=read_only)
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise InputError(f"not a knowledge store: {exc}", path=path) from exc
        except InputError:
            conn.close()
            raise

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> KnowledgeStore:
        return self

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    @contextmanager
    def bulk(self) -> Iterator[KnowledgeStore]:
        """Fast mode for big imports: no fsync, secondary indexes built once at the end.

        A crash in this mode may lose the last batches (re-run the import: it replaces by
        id), never the store's consistency on disk beyond what SQLite guarantees.
        """
        self.conn.execute("PRAGMA synchronous=OFF")
        # a small page cache keeps memory flat in dump size; measured: no slower here
        self.conn.execute(f"PRAGMA cache_size=-{BULK_CACHE_KIB}")
        for name in SECONDARY_INDEXES:
            self.conn.execute(f"DROP INDEX IF EXISTS {name}")
        try:
            yield self
        finally:
            for ddl in SECONDARY_INDEXES.values():
                self.conn.execute(ddl)
            self.conn.execute("PRAGMA analysis_limit=1000")  # sampled statistics: fast
            self.conn.execute("ANALYZE")
            self.conn.execute("PRAGMA synchronous=NORMAL")
            self.conn.execute(f"PRAGMA cache_size=-{CACHE_KIB}")

    # ------------------------------------------------------------------ writing
    def set_meta(self, key: str, value: str) -> None:
        self.conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def get_meta(self, key: str) -> str | None:
        try:
            row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        except sqlite3.OperationalError:
            return None
        return None if row is None else str(row[0])

    def upsert_entities(self, entities: Iterable[Entity]) -> UpsertCounts:
        """Insert entities; an entity whose id is already stored replaces the old one."""
        return self.upsert_rows(
            entity_rows(e.to_wire(), self.languages, normalize_name) for e in entities
        )

    def upsert_rows(self, rows: Iterable[EntityRows]) -> UpsertCounts:
        """Like :meth:`upsert_entities`, from rows already built with ``entity_rows``."""
        inserted = replaced = 0
        for batch in _chunks(rows, self.batch_size):
            i, r = self._write_batch(batch)
            inserted += i
            replaced += r
        return UpsertCounts(inserted=inserted, replaced=replaced)

    def _write_batch(self, batch: list[EntityRows]) -> tuple[int, int]:
        latest: dict[str, EntityRows] = {}
        for rows in batch:
            latest[rows.id] = rows  # the last copy of an id in a batch wins
        in_batch_dupes = len(batch) - len(latest)
        ids = list(latest)
        c = self.conn
        c.execute("BEGIN")
        try:
            existing: list[str] = []
            for chunk in _chunks(ids, _CHUNK):
                sql = f"SELECT id FROM entities WHERE id IN ({_marks(len(chunk))})"
                existing.extend(str(r[0]) for r in c.execute(sql, chunk))
            for chunk in _chunks(existing, _CHUNK):
                for table, col in (("statements", "entity_id"), ("names", "entity_id")):
                    c.execute(f"DELETE FROM {table} WHERE {col} IN ({_marks(len(chunk))})", chunk)
            values = latest.values()
            c.executemany(
                "INSERT OR REPLACE INTO entities (id, kind, datatype, doc) VALUES (?, ?, ?, ?)",
                [(r.id, r.kind, r.datatype, r.doc) for r in values],
            )
            c.executemany(
                "INSERT INTO statements VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                [s for r in values for s in r.statements],
            )
            c.executemany(
                "INSERT INTO names VALUES (?,?,?,?,?,?)", [n for r in values for n in r.names]
            )
            c.execute("COMMIT")
        except BaseException:
            c.execute("ROLLBACK")
            raise
        return len(ids) - len(existing), len(existing) + in_batch_dupes

    def upsert_pages(self, pages: Iterable[Page]) -> int:
        """Insert or replace pages (one per entity). Returns how many were written."""
        n = 0
        sql = (
            "INSERT INTO pages (entity_id, title, url, text, lang, source) VALUES (?,?,?,?,?,?) "
            "ON CONFLICT (entity_id) DO UPDATE SET title=excluded.title, url=excluded.url, "
            "text=excluded.text, lang=excluded.lang, source=excluded.source"
        )
        for batch in _chunks(pages, self.batch_size):
            self.conn.execute("BEGIN")
            try:
                self.conn.executemany(
                    sql, [(p.entity_id, p.title, p.url, p.text, p.lang, p.source) for p in batch]
                )
                self.conn.execute("COMMIT")
            except BaseException:
                self.conn.execute("ROLLBACK")
                raise
            n += len(batch)
        return n

    # ------------------------------------------------------------------ entities
    def get_entity_json(self, entity_id: str) -> str | None:
        """The entity document as stored (JSON text)."""
        row = self.conn.execute("SELECT doc FROM entities WHERE id = ?", (entity_id,)).fetchone()
        return None if row is None else str(row[0])

    def get_entity(self, entity_id: str) -> Entity | None:
        text = self.get_entity_json(entity_id)
        return None if text is None else Entity.model_validate_json(text)

    def get_entities(self, ids: Iterable[str]) -> dict[str, Entity]:
        out: dict[str, Entity] = {}
        for entity_id in dict.fromkeys(ids):
            entity = self.get_entity(entity_id)
            if entity is not None:
                out[entity_id] = entity
        return out

    def has_any_entity(self) -> bool:
        return self.conn.execute("SELECT 1 FROM entities LIMIT 1").fetchone() is not None

    def has_entity(self, entity_id: str) -> bool:
        sql = "SELECT 1 FROM entities WHERE id = ?"
        return self.conn.execute(sql, (entity_id,)).fetchone() is not None

    def _doc_field(self, entity_id: str, path: str) -> Any:
        # languages that are not indexed: read the stored document (in SQLite, not Python)
        sql = "SELECT json_extract(doc, ?) FROM entities WHERE id = ?"
        row = self.conn.execute(sql, (path, entity_id)).fetchone()
        return None if row is None else row[0]

    def label(self, entity_id: str, lang: str = "en") -> str | None:
        return self.labels([entity_id], lang).get(entity_id)

    def labels(self, ids: Iterable[str], lang: str = "en") -> dict[str, str]:
        """Labels of the given ids that have one in ``lang`` (ids without one are absent)."""
        wanted = list(dict.fromkeys(ids))
        out: dict[str, str] = {}
        if lang not in self.languages:
            for entity_id in wanted:
                label = self._doc_field(entity_id, f'$.labels."{_quote(lang)}".value')
                if isinstance(label, str):
                    out[entity_id] = label
            return out
        for chunk in _chunks(wanted, _CHUNK):
            sql = (
                f"SELECT entity_id, value FROM names WHERE entity_id IN ({_marks(len(chunk))}) "
                "AND lang = ? AND is_alias = 0"
            )
            out.update((str(e), str(v)) for e, v in self.conn.execute(sql, [*chunk, lang]))
        return out

    def aliases(self, entity_id: str, lang: str = "en") -> list[str]:
        if lang not in self.languages:
            raw = self._doc_field(entity_id, f'$.aliases."{_quote(lang)}"')
            return [a["value"] for a in json.loads(raw)] if isinstance(raw, str) else []
        sql = (
            "SELECT value FROM names WHERE entity_id = ? AND lang = ? AND is_alias = 1 "
            "ORDER BY position"
        )
        return [str(r[0]) for r in self.conn.execute(sql, (entity_id, lang))]

    def ids_by_name(self, name: str) -> list[str]:
        """Entities whose label or alias (indexed languages) normalizes to ``name``'s form."""
        norm = normalize_name(name)
        if not norm:
            return []
        sql = "SELECT DISTINCT entity_id FROM names WHERE norm = ? ORDER BY entity_id"
        return [str(r[0]) for r in self.conn.execute(sql, (norm,))]

    def best_statements(self, entity_id: str, pid: str) -> list[Statement]:
        """Preferred statements if any, else normal ones; deprecated ones never."""
        sql = "SELECT json_extract(doc, ?) FROM entities WHERE id = ?"
        row = self.conn.execute(sql, (_claims_path(pid), entity_id)).fetchone()
        if row is None or row[0] is None:
            return []
        statements = _STATEMENTS.validate_json(row[0])
        usable = [s for s in statements if s.rank != "deprecated"]
        preferred = [s for s in usable if s.rank == "preferred"]
        return preferred or usable

    def best_values(self, entity_id: str, pid: str) -> list[DataValue]:
        return [s.value for s in self.best_statements(entity_id, pid) if s.value is not None]

    def property_datatype(self, pid: str) -> str | None:
        """The property's datatype: from its entity, else from any statement using it."""
        row = self.conn.execute("SELECT datatype FROM entities WHERE id = ?", (pid,)).fetchone()
        if row is not None and row[0]:
            return str(row[0])
        sql = "SELECT datatype FROM statements WHERE pid = ? AND datatype IS NOT NULL LIMIT 1"
        row = self.conn.execute(sql, (pid,)).fetchone()
        return None if row is None else str(row[0])

    def iter_entity_ids(self, kind: str = "item") -> Iterator[str]:
        """All ids of one kind (item or property), sorted."""
        cursor = self.conn.execute("SELECT id FROM entities WHERE kind = ? ORDER BY id", (kind,))
        for row in cursor:
            yield str(row[0])

    # ------------------------------------------------------------------ indexes
    def subjects(self, pid: str, value_key: str) -> list[str]:
        """Reverse index: subjects holding ``pid`` = value as a best-rank statement, sorted."""
        sql = (
            "SELECT DISTINCT entity_id FROM statements WHERE pid = ? AND value_key = ? "
            "AND best = 1 ORDER BY entity_id"
        )
        return [str(r[0]) for r in self.conn.execute(sql, (pid, value_key))]

    def count_subjects(self, pid: str, value_key: str) -> int:
        sql = (
            "SELECT COUNT(DISTINCT entity_id) FROM statements WHERE pid = ? AND value_key = ? "
            "AND best = 1"
        )
        return int(self.conn.execute(sql, (pid, value_key)).fetchone()[0])

    def instances_of(self, class_id: str, max_depth: int = 3) -> list[str]:
        """Items ``?x`` with ``?x P31/P279{0..max_depth} class_id`` (non-deprecated), sorted."""
        sql = queries.INSTANCES_OF + " ORDER BY entity_id"
        return [str(r[0]) for r in self.conn.execute(sql, (class_id, max_depth))]

    def subclasses_of(self, class_id: str, max_depth: int = 3) -> list[str]:
        """The class and its P279 descendants up to ``max_depth`` steps, sorted."""
        sql = queries.SUBCLASSES + " SELECT DISTINCT id FROM cls ORDER BY id"
        return [str(r[0]) for r in self.conn.execute(sql, (class_id, max_depth))]

    def classes_of(self, entity_id: str, max_depth: int = 3) -> list[str]:
        """P31 classes, then their P279 ancestors up to ``max_depth`` steps; nearest first."""
        seen: dict[str, None] = {}
        frontier = self._values_of([entity_id], "P31")
        depth = 0
        while frontier:
            fresh = [c for c in frontier if c not in seen]
            seen.update(dict.fromkeys(fresh))
            if depth >= max_depth:
                break
            frontier = self._values_of(fresh, "P279")
            depth += 1
        return list(seen)

    def _values_of(self, subjects: list[str], pid: str) -> list[str]:
        """Entity values of ``pid`` (non-deprecated) in subject then statement order."""
        out: list[str] = []
        for subject in subjects:
            sql = (
                "SELECT value_key FROM statements WHERE entity_id = ? AND pid = ? AND rank > 0 "
                "AND value_type = 'wikibase-entityid' ORDER BY ordinal"
            )
            out.extend(str(r[0]) for r in self.conn.execute(sql, (subject, pid)))
        return list(dict.fromkeys(out))

    def domain_of(self, entity_id: str) -> str | None:
        """Domain from the class table (classes nearest first), then P106 for humans."""
        occupations: list[str] = []
        if HUMAN in self._values_of([entity_id], "P31"):
            occupations = [v.key() for v in self.best_values(entity_id, "P106")]
        return domain_for_classes(self.classes_of(entity_id), occupations)

    def time_groups(self, subject_id: str | None = None, pid: str | None = None) -> list[TimeGroup]:
        """(subject, property) pairs with >= 2 non-deprecated statements told apart by
        P585 or P580/P582 (at least two distinct time tuples). Only time-qualified
        statements are listed, ordered by time (P585, else P580, else P582)."""
        where, params = queries.filters(subject_id, pid)
        rows = self.conn.execute(queries.TIME_GROUPS.format(where=where), params).fetchall()
        names = self.labels(r[8] for r in rows if r[7] == "wikibase-entityid")
        groups: dict[tuple[str, str], list[TimedValue]] = {}
        claims: list[Any] = []
        for subject, prop, sid, rank, pit, start, end, _kind, key, pos in rows:
            if (subject, prop) not in groups:
                sql = "SELECT json_extract(doc, ?) FROM entities WHERE id = ?"
                raw = self.conn.execute(sql, (_claims_path(prop), subject)).fetchone()[0]
                claims = json.loads(raw)
                groups[(subject, prop)] = []
            dv = DataValue.model_validate(claims[pos]["mainsnak"]["datavalue"])
            groups[(subject, prop)].append(
                TimedValue(
                    statement_id=sid, value_key=key, display=dv.display(names),
                    rank=RANK_NAMES[rank], point_in_time=pit, start=start, end=end,
                )
            )  # fmt: skip
        return [
            TimeGroup(subject_id=s, property=p, values=sorted(v, key=_when))
            for (s, p), v in groups.items()
        ]

    def numeric_properties(self, class_id: str, min_entities: int = 2) -> list[str]:
        """Quantity properties held (best rank) by >= ``min_entities`` instances of the class;
        most widely held first, then by id."""
        sql = queries.NUMERIC_PROPERTIES
        return [str(r[0]) for r in self.conn.execute(sql, (class_id, 3, min_entities))]

    def numeric_values(self, pid: str, entity_ids: Iterable[str]) -> list[NumericValue]:
        """Best-rank quantity per entity (the latest P585 when several), in input order."""
        wanted = list(dict.fromkeys(entity_ids))
        best: dict[str, NumericValue] = {}
        for chunk in _chunks(wanted, _CHUNK):
            sql = (
                "SELECT entity_id, amount, unit, point_in_time FROM statements "
                f"WHERE pid = ? AND entity_id IN ({_marks(len(chunk))}) AND best = 1 "
                "AND amount IS NOT NULL ORDER BY entity_id, ordinal"
            )
            for e, amount, unit, pit in self.conn.execute(sql, [pid, *chunk]):
                old = best.get(e)
                if old is None or queries.time_key(pit) > queries.time_key(old.point_in_time):
                    best[e] = NumericValue(entity_id=e, amount=amount, unit=unit, point_in_time=pit)
        return [best[e] for e in wanted if e in best]

    # ------------------------------------------------------------------ pages
    def search(self, query: str, k: int = 10) -> list[SearchHit]:
        """BM25 over page titles (weight 2) and texts (weight 1); any query word may match."""
        match = queries.fts_query(query)
        if not match or k <= 0:
            return []
        rows = self.conn.execute(queries.SEARCH, (match, k))
        return [
            SearchHit(entity_id=e, title=t, url=u, snippet=s, score=-float(score))
            for e, t, u, s, score in rows
        ]

    def get_page(self, entity_id: str) -> Page | None:
        sql = "SELECT entity_id, title, url, text, lang, source FROM pages WHERE entity_id = ?"
        row = self.conn.execute(sql, (entity_id,)).fetchone()
        if row is None:
            return None
        keys = ("entity_id", "title", "url", "text", "lang", "source")
        return Page(**dict(zip(keys, row, strict=True)))

    # ------------------------------------------------------------------ stats
    def stats(self) -> KBStats:
        def one(sql: str) -> int:
            return int(self.conn.execute(sql).fetchone()[0])

        kinds = dict(self.conn.execute("SELECT kind, COUNT(*) FROM entities GROUP BY kind"))
        sql, params = queries.per_domain_query()
        per_domain: dict[str, int] = {}
        for _, domain in self.conn.execute(sql, params):
            per_domain[domain] = per_domain.get(domain, 0) + 1
        return KBStats(
            entities=sum(int(v) for v in kinds.values()),
            items=int(kinds.get("item", 0)),
            properties=int(kinds.get("property", 0)),
            statements=one("SELECT COUNT(*) FROM statements"),
            qualified_statements=one("SELECT COUNT(*) FROM statements WHERE qualified = 1"),
            pages=one("SELECT COUNT(*) FROM pages"),
            per_domain=dict(sorted(per_domain.items())),
            snapshot_id=self.get_meta("snapshot_id"),
            snapshot_version=self.get_meta("snapshot_version"),
        )

    def domains_by_entity(self) -> dict[str, str]:
        """Every item's domain in one SQL pass (the same rules as :meth:`domain_of`)."""
        sql, params = queries.per_domain_query()
        return {str(e): str(d) for e, d in self.conn.execute(sql, params)}
