"""Review state in the workspace: ``review/state.sqlite`` plus the append-only ``audit.jsonl``.

The state holds, per sample, its review status, the revision under review (a fix bumps it;
each revision is its own Label Studio task so a re-review starts clean while the earlier
annotations stay on the earlier task), the content hash last pushed, and the sample itself
as last pushed or fixed. Every pulled decision is kept (keyed by Label Studio annotation id)
and every push, decision and state change is appended to the audit log with who and when.
The server is the truth for "what was imported": the state only speeds things up.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from builder.records.review import AuditEntry, ReviewDecision, Round
from builder.records.sample import Sample

_SCHEMA = """
CREATE TABLE IF NOT EXISTS projects (
    url TEXT NOT NULL, round TEXT NOT NULL, project_id INTEGER NOT NULL,
    overlap INTEGER NOT NULL, PRIMARY KEY (url, round)
);
CREATE TABLE IF NOT EXISTS items (
    sample_id TEXT PRIMARY KEY, revision INTEGER NOT NULL, status TEXT NOT NULL,
    content_hash TEXT NOT NULL, sample_json TEXT NOT NULL,
    annotate_task_id INTEGER, inspect_task_id INTEGER,
    annotators INTEGER NOT NULL DEFAULT 0, agreement REAL,
    inspector_decision TEXT NOT NULL DEFAULT '', reason TEXT NOT NULL DEFAULT '',
    updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS decisions (
    annotation_id INTEGER NOT NULL, round TEXT NOT NULL, sample_id TEXT NOT NULL,
    revision INTEGER NOT NULL, reviewer TEXT NOT NULL, updated_at TEXT NOT NULL,
    json TEXT NOT NULL, PRIMARY KEY (round, annotation_id)
);
CREATE INDEX IF NOT EXISTS decisions_by_item ON decisions (round, sample_id, revision);
"""


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass
class Item:
    """One sample's review state."""

    sample_id: str
    revision: int
    status: str
    content_hash: str
    sample: Sample
    annotate_task_id: int | None = None
    inspect_task_id: int | None = None
    annotators: int = 0
    agreement: float | None = None
    inspector_decision: str = ""
    reason: str = ""


class AuditLog:
    """Append-only JSONL of :class:`AuditEntry` (never rewritten)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def append(self, entries: list[AuditEntry]) -> None:
        if not entries:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as fh:
            fh.writelines(e.model_dump_json() + "\n" for e in entries)
            fh.flush()

    def read(self) -> Iterator[AuditEntry]:
        if not self.path.exists():
            return
        with self.path.open(encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    yield AuditEntry.model_validate_json(line)


class ReviewStore:
    """The SQLite review state of one workspace (``review/state.sqlite``)."""

    def __init__(self, review_dir: Path) -> None:
        review_dir.mkdir(parents=True, exist_ok=True)
        self.dir = review_dir
        self.db = sqlite3.connect(review_dir / "state.sqlite")
        self.db.executescript(_SCHEMA)
        self.audit = AuditLog(review_dir / "audit.jsonl")

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> ReviewStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # projects -------------------------------------------------------------------------
    def project(self, url: str, round: Round) -> tuple[int, int] | None:
        """(project id, overlap) recorded for this server and round."""
        row = self.db.execute(
            "SELECT project_id, overlap FROM projects WHERE url = ? AND round = ?", (url, round)
        ).fetchone()
        return (int(row[0]), int(row[1])) if row else None

    def set_project(self, url: str, round: Round, project_id: int, overlap: int) -> None:
        with self.db:
            self.db.execute(
                "INSERT OR REPLACE INTO projects VALUES (?, ?, ?, ?)",
                (url, round, project_id, overlap),
            )

    # items ----------------------------------------------------------------------------
    _COLS = (
        "sample_id, revision, status, content_hash, sample_json, annotate_task_id, "
        "inspect_task_id, annotators, agreement, inspector_decision, reason"
    )

    @staticmethod
    def _item(row: tuple[object, ...]) -> Item:
        return Item(
            sample_id=str(row[0]),
            revision=int(str(row[1])),
            status=str(row[2]),
            content_hash=str(row[3]),
            sample=Sample.model_validate_json(str(row[4])),
            annotate_task_id=None if row[5] is None else int(str(row[5])),
            inspect_task_id=None if row[6] is None else int(str(row[6])),
            annotators=int(str(row[7])),
            agreement=None if row[8] is None else float(str(row[8])),
            inspector_decision=str(row[9]),
            reason=str(row[10]),
        )

    def item(self, sample_id: str) -> Item | None:
        row = self.db.execute(
            f"SELECT {self._COLS} FROM items WHERE sample_id = ?", (sample_id,)
        ).fetchone()
        return self._item(row) if row else None

    def items(self, status: str | None = None) -> list[Item]:
        if status is None:
            rows = self.db.execute(f"SELECT {self._COLS} FROM items ORDER BY sample_id")
        else:
            rows = self.db.execute(
                f"SELECT {self._COLS} FROM items WHERE status = ? ORDER BY sample_id", (status,)
            )
        return [self._item(r) for r in rows.fetchall()]

    def save_items(self, items: list[Item]) -> None:
        at = now_iso()
        with self.db:
            self.db.executemany(
                f"INSERT OR REPLACE INTO items ({self._COLS}, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        i.sample_id,
                        i.revision,
                        i.status,
                        i.content_hash,
                        i.sample.model_dump_json(),
                        i.annotate_task_id,
                        i.inspect_task_id,
                        i.annotators,
                        i.agreement,
                        i.inspector_decision,
                        i.reason,
                        at,
                    )
                    for i in items
                ],
            )

    def counts(self) -> dict[str, int]:
        rows = self.db.execute("SELECT status, COUNT(*) FROM items GROUP BY status").fetchall()
        return {str(s): int(n) for s, n in rows}

    # decisions ------------------------------------------------------------------------
    def decision_versions(self, round: Round) -> dict[int, str]:
        """``updated_at`` of every stored annotation of a round, by annotation id."""
        rows = self.db.execute(
            "SELECT annotation_id, updated_at FROM decisions WHERE round = ?", (round,)
        ).fetchall()
        return {int(a): str(u) for a, u in rows}

    def save_decisions(self, rows: list[tuple[ReviewDecision, int, str]]) -> None:
        """Store (decision, revision, updated_at) rows in one transaction."""
        with self.db:
            self.db.executemany(
                "INSERT OR REPLACE INTO decisions VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        d.annotation_id,
                        d.round,
                        d.sample_id,
                        revision,
                        d.reviewer,
                        updated_at,
                        d.model_dump_json(),
                    )
                    for d, revision, updated_at in rows
                ],
            )

    def decisions(
        self, round: Round, sample_id: str | None = None, revision: int | None = None
    ) -> list[tuple[int, ReviewDecision]]:
        """(revision, decision) pairs of a round, optionally of one item/revision."""
        sql = "SELECT revision, json FROM decisions WHERE round = ?"
        args: list[object] = [round]
        if sample_id is not None:
            sql += " AND sample_id = ?"
            args.append(sample_id)
        if revision is not None:
            sql += " AND revision = ?"
            args.append(revision)
        sql += " ORDER BY sample_id, revision, updated_at, annotation_id"
        return [
            (int(r), ReviewDecision.model_validate_json(j))
            for r, j in self.db.execute(sql, args).fetchall()
        ]
