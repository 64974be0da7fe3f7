"""The store's indexes as queries: reverse index, classes, time groups, numerics, search.

Part of :class:`builder.kb.store.KnowledgeStore`. Every method here is SQL (see
:mod:`builder.kb.queries`); nothing scans all entities in Python.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from builder.kb import queries
from builder.kb.domains import HUMAN, domain_for_classes
from builder.kb.passages import passage
from builder.kb.reading import CHUNK, EntityReader, chunks, claims_path, marks
from builder.kb.rows import RANK_NAMES
from builder.records.kb import KBStats, NumericValue, SearchHit, TimedValue, TimeGroup
from builder.records.page import Page
from builder.records.wikidata import DataValue


def _when(value: TimedValue) -> tuple[int, int, int, int]:
    return queries.time_key(value.point_in_time or value.start or value.end)


class IndexQueries(EntityReader):
    """Index queries over the tables :class:`EntityReader` reads."""

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
                raw = self.conn.execute(sql, (claims_path(prop), subject)).fetchone()[0]
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
        for chunk in chunks(wanted, CHUNK):
            sql = (
                "SELECT entity_id, amount, unit, point_in_time FROM statements "
                f"WHERE pid = ? AND entity_id IN ({marks(len(chunk))}) AND best = 1 "
                "AND amount IS NOT NULL ORDER BY entity_id, ordinal"
            )
            for e, amount, unit, pit in self.conn.execute(sql, [pid, *chunk]):
                old = best.get(e)
                if old is None or queries.time_key(pit) > queries.time_key(old.point_in_time):
                    best[e] = NumericValue(entity_id=e, amount=amount, unit=unit, point_in_time=pit)
        return [best[e] for e in wanted if e in best]

    # ------------------------------------------------------------------ pages
    def search(self, query: str, k: int = 10) -> list[SearchHit]:
        """BM25 over page titles (weight 2) and texts (weight 1); any query word may match.
        The snippet is the page's passage for the query (:func:`builder.kb.passages.passage`:
        the sentences and list rows holding its words)."""
        match = queries.fts_query(query)
        if not match or k <= 0:
            return []
        rows = self.conn.execute(queries.SEARCH, (match, k))
        return [
            SearchHit(entity_id=e, title=t, url=u, snippet=passage(text, query), score=-float(s))
            for e, t, u, text, s in rows
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
            completeness_declarations=one("SELECT COUNT(*) FROM completeness"),
            per_domain=dict(sorted(per_domain.items())),
            snapshot_id=self.get_meta("snapshot_id"),
            snapshot_version=self.get_meta("snapshot_version"),
        )

    def domains_by_entity(self) -> dict[str, str]:
        """Every item's domain in one SQL pass (the same rules as :meth:`domain_of`)."""
        sql, params = queries.per_domain_query()
        return {str(e): str(d) for e, d in self.conn.execute(sql, params)}
