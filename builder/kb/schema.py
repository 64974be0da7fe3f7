"""SQLite schema of the snapshot store.

One row per entity (its JSON document exactly as read: a dump line is stored as is, never
re-encoded), one row per statement holding only the columns the indexes need (its JSON is
read from the entity document with SQLite's ``json_extract``), one row per indexed
label/alias, one row per page plus an FTS5 index over page texts. Secondary indexes are
listed apart so a bulk import can drop them and build them once at the end, which is much
faster than updating them row by row.
"""

from __future__ import annotations

SCHEMA_VERSION = "2"

TABLES = """
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS entities (
    id       TEXT PRIMARY KEY,
    kind     TEXT NOT NULL,          -- item | property
    datatype TEXT,                   -- properties only
    doc      TEXT NOT NULL           -- the entity JSON document
);
CREATE TABLE IF NOT EXISTS statements (
    entity_id     TEXT NOT NULL,
    pid           TEXT NOT NULL,
    ordinal       INTEGER NOT NULL,  -- position in claims (property order, then statement order)
    pos           INTEGER NOT NULL,  -- position in claims[pid] (JSON array index)
    statement_id  TEXT,
    rank          INTEGER NOT NULL,  -- 2 preferred, 1 normal, 0 deprecated
    best          INTEGER NOT NULL,  -- 1: preferred if any, else normal; never deprecated
    value_type    TEXT,              -- datavalue type; NULL for somevalue/novalue
    value_key     TEXT,              -- DataValue.key()
    datatype      TEXT,              -- mainsnak datatype (property datatype)
    amount        REAL,              -- quantities only
    unit          TEXT,              -- quantities only: unit entity id, NULL when unitless
    point_in_time TEXT,              -- qualifier P585
    start_time    TEXT,              -- qualifier P580
    end_time      TEXT,              -- qualifier P582
    qualified     INTEGER NOT NULL   -- 1 when the statement has any qualifier
);
CREATE TABLE IF NOT EXISTS names (
    entity_id TEXT NOT NULL,
    lang      TEXT NOT NULL,
    is_alias  INTEGER NOT NULL,
    position  INTEGER NOT NULL,
    value     TEXT NOT NULL,
    norm      TEXT NOT NULL          -- builder.kb.text.normalize_name(value)
);
CREATE TABLE IF NOT EXISTS completeness (
    id   TEXT PRIMARY KEY,           -- declaration id
    doc  TEXT NOT NULL               -- the Declaration JSON
);
CREATE TABLE IF NOT EXISTS pages (
    rowid     INTEGER PRIMARY KEY,
    entity_id TEXT NOT NULL UNIQUE,
    title     TEXT NOT NULL,
    url       TEXT NOT NULL,
    text      TEXT NOT NULL,
    lang      TEXT NOT NULL,
    source    TEXT NOT NULL
);
CREATE VIRTUAL TABLE IF NOT EXISTS pages_fts USING fts5 (
    title, text, content='pages', content_rowid='rowid',
    tokenize='unicode61 remove_diacritics 2'
);
CREATE TRIGGER IF NOT EXISTS pages_ai AFTER INSERT ON pages BEGIN
    INSERT INTO pages_fts (rowid, title, text) VALUES (new.rowid, new.title, new.text);
END;
CREATE TRIGGER IF NOT EXISTS pages_ad AFTER DELETE ON pages BEGIN
    INSERT INTO pages_fts (pages_fts, rowid, title, text)
    VALUES ('delete', old.rowid, old.title, old.text);
END;
CREATE TRIGGER IF NOT EXISTS pages_au AFTER UPDATE ON pages BEGIN
    INSERT INTO pages_fts (pages_fts, rowid, title, text)
    VALUES ('delete', old.rowid, old.title, old.text);
    INSERT INTO pages_fts (rowid, title, text) VALUES (new.rowid, new.title, new.text);
END;
"""

# Per-subject indexes: reads by entity, and the deletes when an entity is replaced. A bulk
# import into an empty store drops them too and restores them at the first replacement.
SUBJECT_INDEXES: dict[str, str] = {
    "statements_subject": "CREATE INDEX IF NOT EXISTS statements_subject "
    "ON statements (entity_id, pid, ordinal)",
    "names_entity": "CREATE INDEX IF NOT EXISTS names_entity "
    "ON names (entity_id, lang, is_alias, position)",
}

# name -> CREATE statement; dropped during bulk imports and rebuilt at the end.
SECONDARY_INDEXES: dict[str, str] = {
    # reverse index (property, value) -> subjects; covering, so subjects() never reads rows
    "statements_value": "CREATE INDEX IF NOT EXISTS statements_value "
    "ON statements (pid, value_key, best, rank, entity_id)",
    # time-qualified groups
    "statements_timed": "CREATE INDEX IF NOT EXISTS statements_timed "
    "ON statements (entity_id, pid) WHERE rank > 0 AND "
    "(point_in_time IS NOT NULL OR start_time IS NOT NULL OR end_time IS NOT NULL)",
    "names_norm": "CREATE INDEX IF NOT EXISTS names_norm ON names (norm, entity_id)",
    "entities_kind": "CREATE INDEX IF NOT EXISTS entities_kind ON entities (kind, id)",
}
