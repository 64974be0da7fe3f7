"""The snapshot store: Wikidata entities and page texts in one SQLite file.

Why SQLite (see docs/store.md): it is in the standard library, FTS5 gives BM25 search for
free, the whole snapshot is one file to copy or ship, WAL lets readers run while an import
writes, and 10^5–10^6 entities fit comfortably on one machine. Every index the later stages
need is a SQL query here; nothing scans all entities in Python.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType

from builder.errors import InputError
from builder.kb.indexes import IndexQueries
from builder.kb.reading import CHUNK, chunks, marks
from builder.kb.rows import EntityRows, entity_rows
from builder.kb.schema import SCHEMA_VERSION, SECONDARY_INDEXES, SUBJECT_INDEXES, TABLES
from builder.kb.text import normalize_name
from builder.records.completeness import Declaration
from builder.records.kb import UpsertCounts
from builder.records.page import Page
from builder.records.wikidata import Entity

DEFAULT_LANGUAGES = ("en",)
CACHE_KIB = 65536  # SQLite page cache for queries
BULK_CACHE_KIB = 16384  # during bulk imports


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


class KnowledgeStore(IndexQueries):
    """Read and write a snapshot. Open with :meth:`open`; use as a context manager.

    Reading: :class:`~builder.kb.reading.EntityReader`; indexes:
    :class:`~builder.kb.indexes.IndexQueries`; lifecycle and writing: here.
    """

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
                for ddl in (*SUBJECT_INDEXES.values(), *SECONDARY_INDEXES.values()):
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
        if not self.has_any_entity():  # nothing to replace yet: per-subject indexes can wait
            for name in SUBJECT_INDEXES:
                self.conn.execute(f"DROP INDEX IF EXISTS {name}")
        try:
            yield self
        finally:
            for ddl in (*SUBJECT_INDEXES.values(), *SECONDARY_INDEXES.values()):
                self.conn.execute(ddl)
            self.conn.execute("PRAGMA analysis_limit=1000")  # sampled statistics: fast
            self.conn.execute("ANALYZE")
            self.conn.execute("PRAGMA synchronous=NORMAL")
            self.conn.execute(f"PRAGMA cache_size=-{CACHE_KIB}")

    # ------------------------------------------------------------------ writing
    def set_meta(self, key: str, value: str) -> None:
        self.conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def upsert_entities(self, entities: Iterable[Entity]) -> UpsertCounts:
        """Insert entities; an entity whose id is already stored replaces the old one."""
        return self.upsert_rows(
            entity_rows(e.to_wire(), self.languages, normalize_name) for e in entities
        )

    def upsert_rows(self, rows: Iterable[EntityRows]) -> UpsertCounts:
        """Like :meth:`upsert_entities`, from rows already built with ``entity_rows``."""
        inserted = replaced = 0
        for batch in chunks(rows, self.batch_size):
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
            for chunk in chunks(ids, CHUNK):
                sql = f"SELECT id FROM entities WHERE id IN ({marks(len(chunk))})"
                existing.extend(str(r[0]) for r in c.execute(sql, chunk))
            if existing:  # replacing: the deletes need the per-subject indexes
                for ddl in SUBJECT_INDEXES.values():
                    c.execute(ddl)
            for chunk in chunks(existing, CHUNK):
                for table, col in (("statements", "entity_id"), ("names", "entity_id")):
                    c.execute(f"DELETE FROM {table} WHERE {col} IN ({marks(len(chunk))})", chunk)
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

    def upsert_declarations(self, declarations: Iterable[Declaration]) -> int:
        """Insert or replace completeness declarations by id. Returns how many were written."""
        rows = [(d.id, d.model_dump_json(exclude_defaults=True)) for d in declarations]
        self.conn.execute("BEGIN")
        try:
            self.conn.executemany("INSERT OR REPLACE INTO completeness VALUES (?, ?)", rows)
            self.conn.execute("COMMIT")
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        return len(rows)

    def declarations(self) -> list[Declaration]:
        """Every completeness declaration, by id (none in a store made before they existed)."""
        try:
            rows = self.conn.execute("SELECT doc FROM completeness ORDER BY id").fetchall()
        except sqlite3.OperationalError:  # a read-only store from before the table existed
            return []
        return [Declaration.model_validate_json(r[0]) for r in rows]

    def upsert_pages(self, pages: Iterable[Page]) -> int:
        """Insert or replace pages (one per entity). Returns how many were written."""
        n = 0
        sql = (
            "INSERT INTO pages (entity_id, title, url, text, lang, source) VALUES (?,?,?,?,?,?) "
            "ON CONFLICT (entity_id) DO UPDATE SET title=excluded.title, url=excluded.url, "
            "text=excluded.text, lang=excluded.lang, source=excluded.source"
        )
        for batch in chunks(pages, self.batch_size):
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
