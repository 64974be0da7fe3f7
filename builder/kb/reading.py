"""Reading entities from the store: documents, names, best statements.

Part of :class:`builder.kb.store.KnowledgeStore` (split by concern to keep modules small):
this class only reads, so it needs just a connection and the indexed label languages.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from itertools import islice
from pathlib import Path
from typing import Any, TypeVar

from pydantic import TypeAdapter

from builder.kb.text import normalize_name
from builder.records.wikidata import DataValue, Entity, Statement

T = TypeVar("T")
STATEMENTS = TypeAdapter(list[Statement])
CHUNK = 500  # ids per IN (...) query


def chunks(items: Iterable[T], size: int) -> Iterator[list[T]]:
    it = iter(items)
    while chunk := list(islice(it, size)):
        yield chunk


def marks(n: int) -> str:
    return ",".join("?" * n)


def quote(key: str) -> str:
    """A key quoted for a SQLite JSON path."""
    return key.replace("\\", "\\\\").replace('"', '\\"')


def claims_path(pid: str) -> str:
    """JSON path of one property's statements in an entity document."""
    return f'$.claims."{quote(pid)}"'


class EntityReader:
    """Entity documents, labels, aliases, names and best statements."""

    conn: sqlite3.Connection
    path: Path
    languages: tuple[str, ...]

    def get_meta(self, key: str) -> str | None:
        try:
            row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        except sqlite3.OperationalError:
            return None
        return None if row is None else str(row[0])

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
                label = self._doc_field(entity_id, f'$.labels."{quote(lang)}".value')
                if isinstance(label, str):
                    out[entity_id] = label
            return out
        for chunk in chunks(wanted, CHUNK):
            sql = (
                f"SELECT entity_id, value FROM names WHERE entity_id IN ({marks(len(chunk))}) "
                "AND lang = ? AND is_alias = 0"
            )
            out.update((str(e), str(v)) for e, v in self.conn.execute(sql, [*chunk, lang]))
        return out

    def aliases(self, entity_id: str, lang: str = "en") -> list[str]:
        if lang not in self.languages:
            raw = self._doc_field(entity_id, f'$.aliases."{quote(lang)}"')
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
        row = self.conn.execute(sql, (claims_path(pid), entity_id)).fetchone()
        if row is None or row[0] is None:
            return []
        statements = STATEMENTS.validate_json(row[0])
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
