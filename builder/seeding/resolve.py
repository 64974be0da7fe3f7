"""Running hop descriptions (:class:`HopSpec`) as queries: the core every stage shares.

``fits`` returns the value keys that satisfy a description; seeding needs exactly one,
ambiguity needs several (or, for a falsified description, none plus near fits); the checks
re-run the same functions on a Sample's recorded plan.
"""

from __future__ import annotations

from collections.abc import Sequence

from builder.records.seed import HopSpec, InjectionSpec
from builder.seeding.facts import Facts, at_time, year_of


def indexable(spec: HopSpec) -> bool:
    """A description has an index to start from: a link, or an exact-value constraint."""
    return bool(spec.link) or any(c.match == "exact" for c in spec.constraints)


MAX_POOL = 200


def bounded(facts: Facts, spec: HopSpec, prev: str | None) -> bool:
    """Indexable, and the index yields at most ``MAX_POOL`` keys (counted, not fetched):
    exploratory lookups (relaxed descriptions) skip hub values such as a genre shared by
    thousands, so their cost does not grow with the snapshot."""
    if not indexable(spec):
        return False
    prev = prev or spec.anchor or None
    if spec.link:
        if spec.link_inverse:
            return bool(prev) and facts.count(spec.link, prev or "") <= MAX_POOL
        return True
    exact = [c for c in spec.constraints if c.match == "exact"]
    return min(facts.count(c.property, c.value) for c in exact) <= MAX_POOL


def pool(facts: Facts, spec: HopSpec, prev: str | None) -> list[str]:
    """Keys the description's index yields before filtering (never all entities)."""
    prev = prev or spec.anchor or None
    if spec.link:
        if not prev:
            return []
        if spec.link_inverse:
            return facts.store.subjects(spec.link, prev)
        if spec.any_time or spec.qualifier:
            timed = facts.dated(prev, spec.link)
            if spec.any_time:
                return list(dict.fromkeys(v.value_key for v in timed))
            want = year_of(spec.qualifier_value)
            return list(
                dict.fromkeys(v.value_key for v in timed if at_time(v, spec.qualifier, want))
            )
        return facts.value_keys(prev, spec.link)
    exact = [c for c in spec.constraints if c.match == "exact"]
    if exact:
        best = min(exact, key=lambda c: (facts.count(c.property, c.value), c.property, c.value))
        return facts.store.subjects(best.property, best.value)
    if spec.class_id:
        return facts.instances(spec.class_id)
    return []


def _passes(facts: Facts, spec: HopSpec, key: str) -> bool:
    if spec.class_id and spec.class_id not in facts.classes(key):
        return False
    return all(facts.holds(key, c) for c in spec.constraints)


def top(facts: Facts, keys: Sequence[str], pid: str, order: str = "max") -> list[str]:
    """The keys ranked first by numeric ``pid`` (all of them on a tie; none without values)."""
    nums = facts.numbers(pid, list(keys))
    if not nums:
        return []
    best = max(nums.values()) if order == "max" else min(nums.values())
    return sorted(k for k, v in nums.items() if v == best)


def fits(facts: Facts, spec: HopSpec, prev: str | None) -> list[str]:
    """Sorted value keys satisfying the whole description."""
    keys = [k for k in pool(facts, spec, prev) if _passes(facts, spec, k)]
    if spec.criterion:
        keys = top(facts, keys, spec.criterion, spec.criterion_order)
    elif spec.criteria_options:
        order = spec.criterion_order
        keys = list({t for pid in spec.criteria_options for t in top(facts, keys, pid, order)})
    return sorted(set(keys))


def base_fits(facts: Facts, spec: HopSpec, prev: str | None) -> list[str]:
    """Fits before any ranking criterion (the group a superlative ranks)."""
    plain = spec.model_copy(update={"criterion": "", "criteria_options": []})
    return fits(facts, plain, prev)


def without(spec: HopSpec, i: int) -> HopSpec:
    return spec.model_copy(
        update={"constraints": [c for j, c in enumerate(spec.constraints) if j != i]}
    )


def weaken(spec: HopSpec, inj: InjectionSpec) -> HopSpec:
    """The description the user gives at an ambiguous hop."""
    if inj.type == "entity" and inj.constraint >= 0:
        return without(spec, inj.constraint)
    if inj.type in ("entity", "version"):
        return spec.model_copy(update={"qualifier": "", "qualifier_value": "", "any_time": True})
    if inj.type == "criteria":
        return spec.model_copy(update={"criterion": "", "criteria_options": list(inj.criteria)})
    cons = list(spec.constraints)
    old = cons[inj.constraint]
    cons[inj.constraint] = old.model_copy(
        update={"value": inj.false_value, "value_label": inj.false_label}
    )
    return spec.model_copy(update={"constraints": cons})


def near_fits(facts: Facts, spec: HopSpec, prev: str | None) -> list[str]:
    """Keys failing exactly one constraint (class and link always kept), or only the time
    qualifier of a version.

    Relaxations left without an index (no link, no exact constraint) are not enumerated.
    """
    out: set[str] = set()
    for i, c in enumerate(spec.constraints):
        relaxed = without(spec, i)
        if not bounded(facts, relaxed, prev):
            continue
        out.update(k for k in fits(facts, relaxed, prev) if not facts.holds(k, c))
    if spec.qualifier and spec.constraints:
        # a holder of another version who has every stated fact: the year was the mistake
        held = set(fits(facts, spec.model_copy(update={"constraints": []}), prev))
        anytime = spec.model_copy(update={"qualifier": "", "qualifier_value": "", "any_time": True})
        out.update(k for k in fits(facts, anytime, prev) if k not in held)
        # the holder whose term ended that year held it that year too ("the prime minister
        # of Canada in 1957" is St. Laurent until June as well as Diefenbaker after), though
        # ``at_time`` gives the year to the incoming holder: a near fit when one fact fails
        for k in _outgoing(facts, spec, prev):
            if spec.class_id and spec.class_id not in facts.classes(k):
                continue
            if sum(not facts.holds(k, c) for c in spec.constraints) == 1:
                out.add(k)
    return sorted(out)


def _outgoing(facts: Facts, spec: HopSpec, prev: str | None) -> list[str]:
    """Holders of a version in force ("P580") whose term ended in the qualifier's year."""
    prev = prev or spec.anchor or None
    if not (spec.link and not spec.link_inverse and spec.qualifier == "P580" and prev):
        return []
    want = year_of(spec.qualifier_value)
    if want is None:
        return []
    return sorted(
        {
            v.value_key
            for v in facts.dated(prev, spec.link)
            if year_of(v.end) == want and not at_time(v, spec.qualifier, want)
        }
    )


def run_rest(facts: Facts, specs: Sequence[HopSpec], start: str) -> list[str] | None:
    """Execute the later hops from ``start``: the keys reached (``start`` first), or None
    when a later hop does not have exactly one answer."""
    path = [start]
    for spec in specs:
        found = fits(facts, spec, path[-1])
        if len(found) != 1:
            return None
        path.append(found[0])
    return path


def alternatives(facts: Facts, spec: HopSpec, prev: str | None, target: str) -> list[str]:
    """Keys a weakened version of ``spec`` would let in besides ``target``: siblings when a
    constraint is dropped, other versions when the time qualifier is, other tops when the
    criterion is. (What injection can later offer as wrong candidates.)"""
    out: set[str] = set()
    for i in range(len(spec.constraints)):
        relaxed = without(spec, i)
        if not spec.criterion and bounded(facts, relaxed, prev):
            out.update(fits(facts, relaxed, prev))
    if spec.qualifier:
        out.update(fits(facts, spec.model_copy(update={"qualifier": "", "any_time": True}), prev))
    if spec.criterion and spec.class_id:
        group = base_fits(facts, spec, prev)
        for pid in facts.numeric_properties(spec.class_id):
            t = top(facts, group, pid, spec.criterion_order)
            if len(t) == 1:
                out.add(t[0])
    out.discard(target)
    return sorted(out)
