"""SQL of the store's index queries, and the small helpers they need."""

from __future__ import annotations

import re

from builder.kb.domains import CLASS_DOMAIN, HUMAN, OCCUPATION_DOMAINS

# ?cls = the class and its P279 descendants, up to (param 2) steps; param 1 = the class.
SUBCLASSES = """
WITH RECURSIVE cls(id, depth) AS (
    SELECT ?1, 0
    UNION
    SELECT s.entity_id, cls.depth + 1 FROM cls
    JOIN statements s ON s.pid = 'P279' AND s.value_key = cls.id AND s.rank > 0
    WHERE cls.depth < ?2
)
"""

INSTANCES_OF = (
    SUBCLASSES
    + """
SELECT DISTINCT s.entity_id FROM cls
JOIN statements s ON s.pid = 'P31' AND s.value_key = cls.id AND s.rank > 0
"""
)

NUMERIC_PROPERTIES = (
    SUBCLASSES
    + """,
inst(entity_id) AS (
    SELECT DISTINCT s.entity_id FROM cls
    JOIN statements s ON s.pid = 'P31' AND s.value_key = cls.id AND s.rank > 0
)
SELECT s.pid, COUNT(DISTINCT s.entity_id) AS n FROM inst
JOIN statements s ON s.entity_id = inst.entity_id
WHERE s.value_type = 'quantity' AND s.best = 1 AND s.amount IS NOT NULL
GROUP BY s.pid HAVING n >= ?3 ORDER BY n DESC, s.pid
"""
)

_TIMED = (
    "rank > 0 AND (point_in_time IS NOT NULL OR start_time IS NOT NULL OR end_time IS NOT NULL)"
)

TIME_GROUPS = f"""
WITH groups AS (
    SELECT entity_id, pid FROM statements WHERE {_TIMED} {{where}}
    GROUP BY entity_id, pid
    HAVING COUNT(DISTINCT ifnull(point_in_time, '') || '|' || ifnull(start_time, '') || '|'
                 || ifnull(end_time, '')) >= 2
)
SELECT s.entity_id, s.pid, s.statement_id, s.rank, s.point_in_time, s.start_time,
       s.end_time, s.value_type, s.value_key, s.pos
FROM groups g JOIN statements s ON s.entity_id = g.entity_id AND s.pid = g.pid
WHERE s.rank > 0 AND s.value_key IS NOT NULL
  AND (s.point_in_time IS NOT NULL OR s.start_time IS NOT NULL OR s.end_time IS NOT NULL)
ORDER BY s.entity_id, s.pid, s.ordinal
"""


def filters(subject_id: str | None, pid: str | None) -> tuple[str, list[str]]:
    """Extra WHERE conditions for an optional subject and property."""
    where, params = "", []
    if subject_id is not None:
        where += " AND entity_id = ?"
        params.append(subject_id)
    if pid is not None:
        where += " AND pid = ?"
        params.append(pid)
    return where, params


SEARCH = """
SELECT p.entity_id, p.title, p.url,
       p.text, bm25(pages_fts, 2.0, 1.0) AS score
FROM pages_fts JOIN pages p ON p.rowid = pages_fts.rowid
WHERE pages_fts MATCH ? ORDER BY score, p.entity_id LIMIT ?
"""

_WORD = re.compile(r"\w+", re.UNICODE)


def fts_query(text: str) -> str:
    """A safe FTS5 MATCH expression: every word quoted, any word may match (BM25 ranks)."""
    words = dict.fromkeys(w.casefold() for w in _WORD.findall(text))
    return " OR ".join(f'"{w}"' for w in words)


def time_key(time: str | None) -> tuple[int, int, int, int]:
    """Sort key of a Wikidata time string; None sorts first, BCE years before CE ones."""
    if not time:
        return (0, 0, 0, 0)
    sign = -1 if time.startswith("-") else 1
    parts = time.lstrip("+-").split("T", 1)[0].split("-")
    try:
        year, month, day = (int(p) for p in [*parts, "0", "0"][:3])
    except ValueError:
        return (0, 0, 0, 0)
    return (1, sign * year, month, day)


def per_domain_query() -> tuple[str, list[str | int]]:
    """SQL mapping every item to its domain: nearest domain class through P31/P279{0,3}
    (ties: first P31 statement), else, for humans (P31 Q5), the first mapped occupation."""
    classes = sorted(CLASS_DOMAIN.items())
    occupations = sorted(OCCUPATION_DOMAINS.items())
    class_values = ",".join("(?, ?)" for _ in classes)
    occ_values = ",".join("(?, ?)" for _ in occupations)
    sql = f"""
WITH RECURSIVE
dom_class(id, domain) AS (VALUES {class_values}),
occ(id, domain) AS (VALUES {occ_values}),
dc(id, domain, depth) AS (
    SELECT id, domain, 0 FROM dom_class
    UNION
    SELECT s.entity_id, dc.domain, dc.depth + 1 FROM dc
    JOIN statements s ON s.pid = 'P279' AND s.value_key = dc.id AND s.rank > 0
    WHERE dc.depth < 3
),
by_class AS (
    SELECT s.entity_id AS e, dc.domain AS domain,
           ROW_NUMBER() OVER (PARTITION BY s.entity_id ORDER BY dc.depth, s.ordinal, dc.domain)
           AS rn
    FROM dc JOIN statements s ON s.pid = 'P31' AND s.value_key = dc.id AND s.rank > 0
),
by_occ AS (
    SELECT s.entity_id AS e, occ.domain AS domain,
           ROW_NUMBER() OVER (PARTITION BY s.entity_id ORDER BY s.ordinal) AS rn
    FROM occ JOIN statements s ON s.pid = 'P106' AND s.value_key = occ.id AND s.best = 1
    WHERE s.entity_id IN (SELECT entity_id FROM statements
                          WHERE pid = 'P31' AND value_key = ? AND rank > 0)
      AND s.entity_id NOT IN (SELECT e FROM by_class)
)
SELECT e, domain FROM by_class WHERE rn = 1
UNION ALL
SELECT e, domain FROM by_occ WHERE rn = 1
ORDER BY 1
"""
    params: list[str | int] = [x for pair in classes for x in pair]
    params += [x for pair in occupations for x in pair]
    params.append(HUMAN)
    return sql, params
