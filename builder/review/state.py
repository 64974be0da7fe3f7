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
from collections.abc import Iterator, Sequence
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
    json TEXT NOT NULL, PRIMARY KEY (round, annotation_id, reviewer)
);
CREATE INDEX IF NOT EXISTS decisions_by_item ON decisions (round, sample_id, revision);
CREATE TABLE IF NOT EXISTS versions (
    round TEXT NOT NULL, annotation_id INTEGER NOT NULL, updated_at TEXT NOT NULL,
    sample_id TEXT NOT NULL, revision INTEGER NOT NULL, reviewer TEXT NOT NULL,
    refused TEXT NOT NULL DEFAULT '', PRIMARY KEY (round, annotation_id)
);
CREATE TABLE IF NOT EXISTS reviewers (
    email TEXT PRIMARY KEY, role TEXT NOT NULL, added_at TEXT NOT NULL
);
"""

# State files written before per-person decisions: one decision row per annotation id.
_MIGRATE_DECISIONS = """
ALTER TABLE decisions RENAME TO decisions_v1;
CREATE TABLE decisions (
    annotation_id INTEGER NOT NULL, round TEXT NOT NULL, sample_id TEXT NOT NULL,
    revision INTEGER NOT NULL, reviewer TEXT NOT NULL, updated_at TEXT NOT NULL,
    json TEXT NOT NULL, PRIMARY KEY (round, annotation_id, reviewer)
);
INSERT INTO decisions SELECT * FROM decisions_v1;
INSERT OR IGNORE INTO versions
    SELECT round, annotation_id, updated_at, sample_id, revision, reviewer, '' FROM decisions_v1;
DROP TABLE decisions_v1;
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
    change: str = ""
    """What the last fix changed, in words (the revision banner of the re-sent task)."""


@dataclass(frozen=True)
class Version:
    """The last version of an annotation pull has seen, and whether it was refused."""

    updated_at: str
    sample_id: str
    revision: int
    reviewer: str
    refused: str


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
        self._migrate()
        self.audit = AuditLog(review_dir / "audit.jsonl")

    def _migrate(self) -> None:
        old = {r[1]: r[5] for r in self.db.execute("PRAGMA table_info(decisions)").fetchall()}
        self.db.executescript(_SCHEMA)
        if old and not old.get("reviewer"):  # primary key without the reviewer
            self.db.executescript(_MIGRATE_DECISIONS)
        columns = {r[1] for r in self.db.execute("PRAGMA table_info(items)").fetchall()}
        if "change" not in columns:
            self.db.execute("ALTER TABLE items ADD COLUMN change TEXT NOT NULL DEFAULT ''")
            self.db.commit()

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

    def projects(self) -> list[tuple[str, Round, int]]:
        """(server url, round, project id) of every recorded project."""
        rows = self.db.execute("SELECT url, round, project_id FROM projects ORDER BY url, round")
        return [(str(u), "inspect" if r == "inspect" else "annotate", int(p)) for u, r, p in rows]

    # items ----------------------------------------------------------------------------
    _COLS = (
        "sample_id, revision, status, content_hash, sample_json, annotate_task_id, "
        "inspect_task_id, annotators, agreement, inspector_decision, reason, change"
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
            change=str(row[11]),
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
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                        i.change,
                        at,
                    )
                    for i in items
                ],
            )

    def counts(self) -> dict[str, int]:
        rows = self.db.execute("SELECT status, COUNT(*) FROM items GROUP BY status").fetchall()
        return {str(s): int(n) for s, n in rows}

    # decisions ------------------------------------------------------------------------
    def versions(self, round: Round) -> dict[int, Version]:
        """The last seen version of every annotation of a round, by annotation id."""
        rows = self.db.execute(
            "SELECT annotation_id, updated_at, sample_id, revision, reviewer, refused "
            "FROM versions WHERE round = ?",
            (round,),
        ).fetchall()
        return {
            int(r[0]): Version(str(r[1]), str(r[2]), int(r[3]), str(r[4]), str(r[5])) for r in rows
        }

    def decision(self, round: Round, annotation_id: int, reviewer: str) -> ReviewDecision | None:
        row = self.db.execute(
            "SELECT json FROM decisions WHERE round = ? AND annotation_id = ? AND reviewer = ?",
            (round, annotation_id, reviewer),
        ).fetchone()
        return ReviewDecision.model_validate_json(row[0]) if row else None

    def save_pulled(
        self,
        round: Round,
        seen: list[tuple[int, Version]],
        decisions: list[tuple[ReviewDecision, int, str]],
        withdrawn: Sequence[tuple[int, str]] = (),
    ) -> None:
        """Record the versions seen and the (decision, revision, updated_at) rows, at once.

        A decision is keyed by annotation and *person*: someone overwriting another's
        annotation adds their own decision and leaves the author's as it was. ``withdrawn``
        (annotation id, person) drops a decision whose annotation now reads as refused.
        """
        with self.db:
            self.db.executemany(
                "DELETE FROM decisions WHERE round = ? AND annotation_id = ? AND reviewer = ?",
                [(round, aid, who) for aid, who in withdrawn],
            )
            self.db.executemany(
                "INSERT OR REPLACE INTO versions VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (round, aid, v.updated_at, v.sample_id, v.revision, v.reviewer, v.refused)
                    for aid, v in seen
                ],
            )
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
                    for d, revision, updated_at in decisions
                ],
            )

    def refusals(self) -> list[tuple[str, int, Version]]:
        """(round, annotation id, version) of every submission still refused."""
        rows = self.db.execute(
            "SELECT round, annotation_id, updated_at, sample_id, revision, reviewer, refused "
            "FROM versions WHERE refused != '' ORDER BY sample_id, round, annotation_id"
        ).fetchall()
        return [
            (str(r[0]), int(r[1]), Version(str(r[2]), str(r[3]), int(r[4]), str(r[5]), str(r[6])))
            for r in rows
        ]

    # reviewers ------------------------------------------------------------------------
    def add_reviewer(self, email: str, role: str) -> None:
        with self.db:
            self.db.execute(
                "INSERT OR REPLACE INTO reviewers VALUES (?, ?, ?)", (email, role, now_iso())
            )

    def reviewers(self) -> dict[str, str]:
        rows = self.db.execute("SELECT email, role FROM reviewers ORDER BY email").fetchall()
        return {str(e): str(r) for e, r in rows}

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
