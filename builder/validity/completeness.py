"""The completeness model: which sets of statements are known to hold every real member.

Three sources, in this order (see docs/validity.md):

1. single-valued properties: Wikidata's single-value constraint (P2302 = Q19474404) on the
   property entity; the bundled snapshot writes it for its reviewed list of properties;
2. declarations (:class:`~builder.records.completeness.Declaration`) stored with the snapshot;
3. live counts over all of Wikidata (:mod:`builder.validity.live`), on a store fetched live.

Dated quantities (population, revenue…) carry Wikidata's required-qualifier constraint with
P585 (P2302 = Q21510856, P2306 = P585): they are asked only with their date.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field

from builder.records.completeness import Basis, Declaration
from builder.records.kb import TimedValue
from builder.records.wikidata import EntityIdValue
from builder.seeding.facts import Facts, year_of

SINGLE_VALUE = "Q19474404"
REQUIRED_QUALIFIER = "Q21510856"


@dataclass(frozen=True)
class Universe:
    """A set known to be complete, and why: what a description is evaluated over."""

    basis: Basis
    source: str  # property id, declaration id, or SPARQL query
    as_of: str
    members: tuple[str, ...]  # value keys
    scope: str = ""


def term(value: TimedValue) -> tuple[int | None, int | None]:
    """First and last year a time-qualified statement holds (P585: that year)."""
    if value.point_in_time:
        y = year_of(value.point_in_time)
        return y, y
    return year_of(value.start), year_of(value.end)


def holds_in(value: TimedValue, year: int) -> bool:
    """Whether the statement holds at any time in ``year``: a term that ends in 1970 and one
    that starts in 1970 both hold in 1970 (a question about "1970" fits both)."""
    first, last = term(value)
    if first is None and last is None:
        return False
    return (first is None or first <= year) and (last is None or year <= last)


def meets(value: TimedValue, since: int | None, until: int | None) -> bool:
    """Whether the statement's time meets the inclusive year range."""
    first, last = term(value)
    if first is None and last is None:
        return False
    lo = since if since is not None else -(10**6)
    hi = until if until is not None else 10**6
    return (first is None or first <= hi) and (last is None or last >= lo)


class Completeness:
    """Declarations and property constraints of one store, indexed for lookups."""

    def __init__(self, facts: Facts) -> None:
        self.facts = facts
        self.declarations = facts.store.declarations()
        self.as_of = facts.store.get_meta("snapshot_version") or ""
        self._forward: dict[tuple[str, str], list[Declaration]] = defaultdict(list)
        self._inverse: dict[tuple[str, str], list[Declaration]] = defaultdict(list)
        for d in self.declarations:
            index = self._forward if d.direction == "forward" else self._inverse
            index[(d.subject, d.property)].append(d)
        self._constraints: dict[str, list[tuple[str, list[str]]]] = {}
        self._subclasses: dict[str, frozenset[str]] = {}

    # ------------------------------------------------------------ property constraints
    def constraints(self, pid: str) -> list[tuple[str, list[str]]]:
        """(constraint class, P2306 property qualifiers) of a property's P2302 statements."""
        if pid not in self._constraints:
            ent = self.facts.entity(pid)
            out: list[tuple[str, list[str]]] = []
            for st in ent.claims.get("P2302", []) if ent else []:
                if st.rank == "deprecated" or st.value is None:
                    continue
                quals = []
                for q in st.qualifiers.get("P2306", []):
                    if q.datavalue is not None and isinstance(q.datavalue.parsed(), EntityIdValue):
                        quals.append(q.datavalue.key())
                out.append((st.value.key(), quals))
            self._constraints[pid] = out
        return self._constraints[pid]

    def single_valued(self, pid: str) -> bool:
        return any(c == SINGLE_VALUE for c, _ in self.constraints(pid))

    def dated(self, pid: str) -> bool:
        """A quantity that changes over time: its statements need a P585 date."""
        return any(c == REQUIRED_QUALIFIER and "P585" in q for c, q in self.constraints(pid))

    # ------------------------------------------------------------ declarations
    def subclasses(self, class_id: str) -> frozenset[str]:
        if class_id not in self._subclasses:
            self._subclasses[class_id] = frozenset(self.facts.store.subclasses_of(class_id))
        return self._subclasses[class_id]

    def forward(self, subject: str, pid: str, year: int | None = None) -> Declaration | None:
        """A declaration that ``subject``'s ``pid`` values are complete (at ``year`` when
        given; without a year, one with no range)."""
        for d in self._forward.get((subject, pid), []):
            if year is None and d.since is None and d.until is None:
                return d
            lo, hi = d.since, d.until
            if year is not None and (lo is None or lo <= year) and (hi is None or year <= hi):
                return d
        return None

    def forward_any(self, subject: str, pid: str) -> Declaration | None:
        """Any forward declaration of (subject, pid), ranged or not."""
        found = self._forward.get((subject, pid), [])
        return found[0] if found else None

    def inverse(self, pid: str, value: str, class_id: str = "") -> Declaration | None:
        """A declaration that every ``x`` with ``x pid value`` (of ``class_id``) is known: the
        declaration's class must be ``class_id`` or one of its superclasses."""
        for d in self._inverse.get((value, pid), []):
            if not d.class_id or (class_id and class_id in self.subclasses(d.class_id)):
                return d
        return None

    def inverse_covering(self, pid: str, value: str, key: str) -> Declaration | None:
        """A declaration of every ``x`` with ``x pid value`` whose class ``key`` belongs to:
        then whether ``key pid value`` holds is known."""
        for d in self._inverse.get((value, pid), []):
            if self.covers(d, key):
                return d
        return None

    def covers(self, d: Declaration, key: str) -> bool:
        """Whether entity ``key`` lies within an inverse declaration's class."""
        return not d.class_id or d.class_id in self.facts.classes(key)

    def members(self, d: Declaration) -> list[str]:
        """The value keys a declaration makes complete, as the store holds them."""
        f = self.facts
        if d.direction == "inverse":
            subs = f.store.subjects(d.property, d.subject)
            return sorted(k for k in subs if self.covers(d, k))
        timed = f.timed(d.subject, d.property)
        if d.since is not None or d.until is not None:
            return sorted({v.value_key for v in timed if meets(v, d.since, d.until)})
        # every version of a time-qualified list, not only the preferred (current) one
        return sorted({*f.value_keys(d.subject, d.property), *(v.value_key for v in timed)})

    def universe(self, d: Declaration) -> Universe:
        return Universe("complete_set", d.id, d.as_of, tuple(self.members(d)), d.scope)


class DeclarationSize(BaseModel):
    """A declaration with the size of the set it makes complete, as the store holds it."""

    model_config = ConfigDict(extra="forbid")

    declaration: Declaration
    size: int = Field(description="Members in the store (values or subjects).")


def declaration_sizes(facts: Facts) -> list[DeclarationSize]:
    """Every declaration of the store with its member count (``kb completeness``)."""
    comp = Completeness(facts)
    return [DeclarationSize(declaration=d, size=len(comp.members(d))) for d in comp.declarations]


def declarations_about(facts: Facts, entity_id: str) -> list[DeclarationSize]:
    """Declarations whose set hangs on ``entity_id`` (``kb show`` marks them)."""
    return [s for s in declaration_sizes(facts) if s.declaration.subject == entity_id]
