"""Memoized, index-only read access to the knowledge store for one seeding/injection run.

Every lookup goes through a store index (reverse index, P31/P279 closure, time groups,
numeric values) or reads one entity by id; nothing scans all entities. Caches are per run:
the store is read-only while a stage runs.
"""

from __future__ import annotations

from decimal import Decimal

from builder.kb.store import KnowledgeStore
from builder.records.kb import TimedValue
from builder.records.seed import Constraint
from builder.records.wikidata import DataValue, Entity, QuantityValue, TimeValue

HUMAN = "Q5"


def year_of(time: str | None) -> int | None:
    """Signed year of a Wikidata time string (``+2017-03-03T00:00:00Z`` → 2017)."""
    if not time:
        return None
    sign = -1 if time.startswith("-") else 1
    head = time.lstrip("+-").split("-", 1)[0]
    try:
        return sign * int(head)
    except ValueError:
        return None


def qualifier_time(value: TimedValue, qualifier: str) -> str | None:
    """The time of a time-group value's qualifier (P585, P580 or P582)."""
    if qualifier == "P585":
        return value.point_in_time
    if qualifier == "P580":
        return value.start
    if qualifier == "P582":
        return value.end
    return None


def at_time(value: TimedValue, qualifier: str, year: int | None) -> bool:
    """Whether a time-group value is the version of ``year``: P585 in that year; P580: in
    force that year (started in or before it, ended after it or not at all); P582: ended
    that year."""
    if year is None:
        return False
    if qualifier == "P580":
        start, end = year_of(value.start), year_of(value.end)
        return start is not None and start <= year and (end is None or year < end)
    return year_of(qualifier_time(value, qualifier)) == year


class Facts:
    """The store plus per-run caches of entities, classes, labels and time groups."""

    def __init__(self, store: KnowledgeStore) -> None:
        self.store = store
        self._entities: dict[str, Entity | None] = {}
        self._classes: dict[str, list[str]] = {}
        self._labels: dict[str, str] = {}
        self._timed: dict[tuple[str, str], list[TimedValue]] = {}
        self._counts: dict[tuple[str, str], int] = {}
        self._datatypes: dict[str, str | None] = {}
        self._numeric: dict[str, list[str]] = {}
        self._instances: dict[str, list[str]] = {}
        self._search: dict[tuple[str, int], list[str]] = {}
        self._keys: dict[tuple[str, str], tuple[list[str], frozenset[int]]] = {}

    # ---------------------------------------------------------------- entities
    def entity(self, entity_id: str) -> Entity | None:
        if entity_id not in self._entities:
            self._entities[entity_id] = self.store.get_entity(entity_id)
        return self._entities[entity_id]

    def classes(self, entity_id: str) -> list[str]:
        if entity_id not in self._classes:
            self._classes[entity_id] = self.store.classes_of(entity_id)
        return self._classes[entity_id]

    def is_human(self, entity_id: str) -> bool:
        ent = self.entity(entity_id)
        return ent is not None and HUMAN in [v.key() for v in ent.best_values("P31")]

    def label(self, entity_id: str) -> str:
        """English label, or the id itself when the entity has none."""
        if entity_id not in self._labels:
            self._labels[entity_id] = self.store.label(entity_id) or entity_id
        return self._labels[entity_id]

    def has_label(self, entity_id: str) -> bool:
        return self.label(entity_id) != entity_id

    def aliases(self, entity_id: str) -> list[str]:
        ent = self.entity(entity_id)
        return ent.alias_list() if ent else []

    def datatype(self, pid: str) -> str | None:
        if pid not in self._datatypes:
            self._datatypes[pid] = self.store.property_datatype(pid)
        return self._datatypes[pid]

    # ---------------------------------------------------------------- values
    def values(self, entity_id: str, pid: str) -> list[DataValue]:
        """Best-rank values (preferred if any, else normal; never deprecated)."""
        ent = self.entity(entity_id)
        return ent.best_values(pid) if ent else []

    def _keyed(self, entity_id: str, pid: str) -> tuple[list[str], frozenset[int]]:
        """Value keys (in order) and years of time values, cached: ``holds`` is hot."""
        got = self._keys.get((entity_id, pid))
        if got is None:
            vals = self.values(entity_id, pid)
            years = {t.year for v in vals if isinstance(t := v.parsed(), TimeValue) and t.year}
            got = (list(dict.fromkeys(v.key() for v in vals)), frozenset(years))
            self._keys[(entity_id, pid)] = got
        return got

    def value_keys(self, entity_id: str, pid: str) -> list[str]:
        return list(self._keyed(entity_id, pid)[0])

    def literal(self, entity_id: str, pid: str, key: str) -> DataValue | None:
        """The non-deprecated value of ``pid`` on ``entity_id`` whose key is ``key``."""
        ent = self.entity(entity_id)
        if ent is None:
            return None
        for st in ent.claims.get(pid, []):
            if st.rank != "deprecated" and st.value is not None and st.value.key() == key:
                return st.value
        return None

    def holds(self, entity_id: str, c: Constraint) -> bool:
        """Whether the entity has ``c.property`` = ``c.value`` as a best-rank fact."""
        keys, years = self._keyed(entity_id, c.property)
        if c.match == "year":
            return year_of(c.value) in years
        return c.value in keys

    def count(self, pid: str, key: str) -> int:
        if (pid, key) not in self._counts:
            self._counts[(pid, key)] = self.store.count_subjects(pid, key)
        return self._counts[(pid, key)]

    def timed(self, subject_id: str, pid: str) -> list[TimedValue]:
        """Time-qualified values of (subject, pid), empty unless >= 2 versions exist."""
        if (subject_id, pid) not in self._timed:
            groups = self.store.time_groups(subject_id, pid)
            self._timed[(subject_id, pid)] = groups[0].values if groups else []
        return self._timed[(subject_id, pid)]

    def dated(self, subject_id: str, pid: str) -> list[TimedValue]:
        """The time-qualified values of (subject, pid): the time group, else the one dated
        statement (a population "in 2021" when the snapshot holds one census)."""
        timed = self.timed(subject_id, pid)
        if timed:
            return timed
        ent = self.entity(subject_id)
        out = []
        for st in ent.claims.get(pid, []) if ent else []:
            pit = st.qualifier_time("P585")
            if st.rank != "deprecated" and st.value is not None and pit is not None:
                key, text = st.value.key(), self.display(st.value)
                out.append(
                    TimedValue(
                        statement_id=st.id, value_key=key, display=text, rank=st.rank,
                        point_in_time=pit.time,
                    )
                )  # fmt: skip
        return out if len(out) == 1 else []

    def instances(self, class_id: str) -> list[str]:
        if class_id not in self._instances:
            self._instances[class_id] = self.store.instances_of(class_id)
        return self._instances[class_id]

    def numeric_properties(self, class_id: str) -> list[str]:
        if class_id not in self._numeric:
            self._numeric[class_id] = self.store.numeric_properties(class_id)
        return self._numeric[class_id]

    def search_titles(self, query: str, k: int) -> list[str]:
        if (query, k) not in self._search:
            self._search[(query, k)] = [h.title for h in self.store.search(query, k)]
        return self._search[(query, k)]

    def numbers(self, pid: str, ids: list[str]) -> dict[str, float]:
        return {v.entity_id: v.amount for v in self.store.numeric_values(pid, ids)}

    # ---------------------------------------------------------------- display
    def display(self, dv: DataValue) -> str:
        """Human text: label, date at precision (``3 March 2017``), number with unit."""
        v = dv.parsed()
        if isinstance(dv.parsed(), TimeValue) and isinstance(v, TimeValue):
            return format_time(v)
        if isinstance(v, QuantityValue):
            return format_quantity(v, self.label(v.unit_id) if v.unit_id else "")
        key = dv.key()
        if dv.type == "wikibase-entityid":
            return self.label(key)
        return dv.display()

    def key_text(self, key: str, *, subject: str = "", pid: str = "") -> str:
        """Display text of a value key: an entity's label, or a literal read from its subject."""
        if subject and pid:
            dv = self.literal(subject, pid, key)
            if dv is not None:
                return self.display(dv)
        return self.label(key)


_MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]


def format_time(t: TimeValue) -> str:
    year = t.year
    if year is None:
        return t.time
    text = str(year) if year > 0 else f"{-year} BC"
    parts = t.time.lstrip("+-").split("T", 1)[0].split("-")
    month = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
    day = int(parts[2]) if len(parts) > 2 and parts[2].isdigit() else 0
    if t.precision >= 11 and month and day:
        return f"{day} {_MONTHS[month - 1]} {text}"
    if t.precision == 10 and month:
        return f"{_MONTHS[month - 1]} {text}"
    return text


def time_aliases(t: TimeValue) -> list[str]:
    """Other accepted forms of a date: ISO and US order."""
    out = [t.iso()]
    parts = t.time.lstrip("+-").split("T", 1)[0].split("-")
    if t.precision >= 11 and len(parts) == 3 and parts[1].isdigit() and int(parts[1]):
        out.append(f"{_MONTHS[int(parts[1]) - 1]} {int(parts[2])}, {t.year}")
    return out


def format_number(num: Decimal) -> str:
    if num == num.to_integral():
        return f"{int(num):,}"
    return f"{num.normalize():,f}"


def format_quantity(q: QuantityValue, unit_label: str) -> str:
    num = q.number
    text = q.amount.lstrip("+") if num is None else format_number(num)
    words = unit_label.split()
    if words and num is not None and abs(num) != 1 and words[-1].isalpha():
        last = words[-1]
        if last.islower() and not last.endswith("s"):
            words[-1] = last + "s"  # 134 minutes, 22,000,000 United States dollars
    return f"{text} {' '.join(words)}".strip()
