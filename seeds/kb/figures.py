"""Snapshot figures (issue 3), one definition shared by ``build.py --check`` and the test.

All functions take items as ``builder.records.wikidata.Entity`` records, so the test can feed
entities read back from the real store and ``build.py`` the freshly converted ones.

- sibling cluster: (class C via P31, property p, item value v), p not P31/P279, with >= 3
  items of class C whose best p-values include v, and each member holding some best
  (property, value) pair that no other member holds;
- ranking group: such a (C, p, v) whose members include >= 3 that all hold two quantity
  properties q1, q2 (best rank, latest P585) with a unique top entity each, and the tops differ;
- time-qualified statements in multi-valued groups: for each (subject, property) whose
  non-deprecated statements carrying P585, P580 or P582 have >= 2 distinct time tuples,
  those statements (what ``KnowledgeStore.time_groups`` lists);
- chain starts: items with a 2-hop path item -p-> defined item -q-> literal (date, number,
  text), p not P31/P279/P106.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from builder.kb.domains import domain_for_classes
from builder.records.wikidata import Entity, EntityIdValue, QuantityValue, Statement

TIME_QUALIFIERS = ("P585", "P580", "P582")
STRUCTURAL = {"P31", "P279"}
TARGETS = {
    "items": 800,
    "statements": 5000,
    "per_domain": 40,
    "sibling_clusters": 60,
    "time_qualified": 400,
    "ranking_groups": 30,
}

Group = tuple[str, str, str]  # (class, property, value id)


@dataclass
class Figures:
    items: int = 0
    statements: int = 0
    per_domain: dict[str, int] = field(default_factory=dict)
    time_qualified: int = 0
    sibling_clusters: list[Group] = field(default_factory=list)
    ranking_groups: list[tuple[Group, str, str]] = field(default_factory=list)
    chain_starts: dict[str, int] = field(default_factory=dict)


def entity_ids(entity: Entity, pid: str) -> list[str]:
    """Ids of the best item values of ``pid``."""
    out = []
    for dv in entity.best_values(pid):
        v = dv.parsed()
        if isinstance(v, EntityIdValue):
            out.append(v.id)
    return out


def domain(entity: Entity) -> str | None:
    return domain_for_classes(entity_ids(entity, "P31"), entity_ids(entity, "P106"))


def time_qualified(items: Mapping[str, Entity]) -> int:
    total = 0
    for entity in items.values():
        for statements in entity.claims.values():
            timed = [s for s in statements if s.rank != "deprecated" and _has_time(s)]
            if len({_when(s) for s in timed}) >= 2:
                total += len(timed)
    return total


def _when(statement: Statement) -> tuple[str, ...]:
    times = (statement.qualifier_time(q) for q in TIME_QUALIFIERS)
    return tuple(t.time if t else "" for t in times)


def _has_time(statement: Statement) -> bool:
    return any(statement.qualifier_time(q) is not None for q in TIME_QUALIFIERS)


def groups(items: Mapping[str, Entity]) -> dict[Group, list[str]]:
    """(class, property, item value) -> members (sorted), for groups of >= 3."""
    found: dict[Group, set[str]] = defaultdict(set)
    for eid, entity in items.items():
        classes = entity_ids(entity, "P31")
        for pid in entity.claims:
            if pid in STRUCTURAL:
                continue
            for value in entity_ids(entity, pid):
                for cls in classes:
                    found[(cls, pid, value)].add(eid)
    return {g: sorted(m) for g, m in sorted(found.items()) if len(m) >= 3}


def _pairs(entity: Entity) -> set[tuple[str, str]]:
    return {(pid, dv.key()) for pid in entity.claims for dv in entity.best_values(pid)}


def is_sibling_cluster(members: list[str], items: Mapping[str, Entity]) -> bool:
    pairs = {m: _pairs(items[m]) for m in members}
    counts = Counter(p for ps in pairs.values() for p in ps)
    return all(any(counts[p] == 1 for p in ps) for ps in pairs.values())


def numeric(entity: Entity) -> dict[str, tuple[float, str | None]]:
    """pid -> (amount, unit) of the best quantity value, latest P585 first."""
    out: dict[str, tuple[float, str | None]] = {}
    for pid in entity.claims:
        best: tuple[str, float, str | None] | None = None
        for statement in entity.best_statements(pid):
            v = statement.value.parsed() if statement.value else None
            if not isinstance(v, QuantityValue) or v.number is None:
                continue
            when = statement.qualifier_time("P585")
            key = when.time if when else ""
            if best is None or key > best[0]:
                best = (key, float(v.number), v.unit_id)
        if best is not None:
            out[pid] = (best[1], best[2])
    return out


def ranking_pair(members: list[str], items: Mapping[str, Entity]) -> tuple[str, str] | None:
    """First (q1, q2) whose unique top entities differ over >= 3 members holding both."""
    values = {m: numeric(items[m]) for m in members}
    held = Counter(q for v in values.values() for q in v)
    props = sorted(q for q, n in held.items() if n >= 3)
    for q1, q2 in combinations(props, 2):
        both = [m for m in members if q1 in values[m] and q2 in values[m]]
        if len(both) < 3:
            continue
        tops = [_top(both, values, q) for q in (q1, q2)]
        if tops[0] is not None and tops[1] is not None and tops[0] != tops[1]:
            return q1, q2
    return None


def _top(
    members: list[str], values: dict[str, dict[str, tuple[float, str | None]]], q: str
) -> str | None:
    if len({values[m][q][1] for m in members}) != 1:
        return None  # mixed units: not comparable
    ranked = sorted(members, key=lambda m: values[m][q][0], reverse=True)
    if values[ranked[0]][q][0] == values[ranked[1]][q][0]:
        return None
    return ranked[0]


def chain_starts(items: Mapping[str, Entity], lookup: Mapping[str, Entity]) -> dict[str, int]:
    """Per domain: items starting a 2-hop chain ending in a literal fact."""
    has_literal = {eid: _has_literal(e) for eid, e in lookup.items()}
    out: Counter[str] = Counter()
    for entity in items.values():
        hops = (
            v
            for pid in entity.claims
            if pid not in STRUCTURAL | {"P106"}
            for v in entity_ids(entity, pid)
        )
        if any(has_literal.get(v, False) for v in hops):
            out[domain(entity) or "none"] += 1
    return dict(sorted(out.items()))


def _has_literal(entity: Entity) -> bool:
    return any(
        dv.type in ("time", "quantity", "string", "monolingualtext")
        for pid in entity.claims
        for dv in entity.best_values(pid)
    )


def compute(items: Mapping[str, Entity], lookup: Mapping[str, Entity] | None = None) -> Figures:
    figures = Figures(items=len(items))
    figures.statements = sum(len(s) for e in items.values() for s in e.claims.values())
    figures.per_domain = dict(sorted(Counter(domain(e) or "none" for e in items.values()).items()))
    figures.time_qualified = time_qualified(items)
    for group, members in groups(items).items():
        if is_sibling_cluster(members, items):
            figures.sibling_clusters.append(group)
        pair = ranking_pair(members, items)
        if pair is not None:
            figures.ranking_groups.append((group, *pair))
    figures.chain_starts = chain_starts(items, lookup if lookup is not None else items)
    return figures


def as_entities(wire: Mapping[str, dict[str, Any]]) -> dict[str, Entity]:
    return {k: Entity.model_validate(v) for k, v in wire.items()}
