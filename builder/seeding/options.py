"""Candidate hop descriptions: hop 1 (a topic described by constraints or a superlative) and
later hops (a relation from the previous answer, narrowed when it has several values).

Every option returned identifies its answer uniquely (checked by :func:`fits`); options are
returned in a deterministic order and the caller shuffles them with its seeded RNG.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from builder.kb.domains import CLASS_DOMAIN
from builder.records.kb import TimedValue
from builder.records.seed import Constraint, HopSpec
from builder.records.wikidata import TimeValue
from builder.seeding.facts import Facts, year_of
from builder.seeding.resolve import fits, top

SKIP_PROPS = frozenset(
    # P21: no one asks; P1549 (demonym): how pages name a country's people, for evidence only
    {"P31", "P279", "P1343", "P910", "P373", "P18", "P1889", "P460", "P21", "P1549"}
)
# facts no hop is worded by but a person recalls about someone ("I think it was a woman"):
# offered to clues only
CLUE_ONLY_PROPS = frozenset({"P21"})
CONSTRAINT_TYPES = frozenset({"wikibase-item", "time"})
LITERAL_TYPES = frozenset({"time", "quantity", "string", "monolingualtext"})
MAX_CLUSTER = 60
# value classes a multi-valued relation's hop may name to narrow it ("the club Cristiano
# Ronaldo played for in Italy"): a player's teams are clubs and a national team, and only the
# club's noun ("club") is not also every other value's ("team")
CLASS_NARROWED: dict[str, frozenset[str]] = {"P54": frozenset({"Q476028"})}
MAX_CLASS_GROUP = 400  # superlatives over a whole class only for classes this small


@dataclass(frozen=True)
class Option:
    """A hop description that picks out ``answer_key`` alone; ``kind`` says what it allows."""

    spec: HopSpec
    answer_key: str
    answer_kind: str
    kind: str  # constraints | criterion | link | version | narrowed | inverse


def home_class(facts: Facts, entity_id: str) -> str:
    """The nearest class in the domain table, else the nearest class."""
    classes = facts.classes(entity_id)
    for cls in classes:
        if cls in CLASS_DOMAIN:
            return cls
    return classes[0] if classes else ""


def fact_constraints(facts: Facts, entity_id: str, *, clue: bool = False) -> list[Constraint]:
    """Best-rank facts of an entity usable as constraints (labelled items, dates by year);
    with ``clue``, also those only a clue states (:data:`CLUE_ONLY_PROPS`)."""
    ent = facts.entity(entity_id)
    if ent is None:
        return []
    skip = SKIP_PROPS - CLUE_ONLY_PROPS if clue else SKIP_PROPS
    out: list[Constraint] = []
    for pid in sorted(ent.claims):
        if pid in skip or facts.datatype(pid) not in CONSTRAINT_TYPES:
            continue
        for dv in ent.best_values(pid):
            v = dv.parsed()
            if isinstance(v, TimeValue):
                if v.year is not None:
                    out.append(
                        Constraint(
                            property=pid, value=v.time, value_label=str(v.year), match="year"
                        )
                    )
            elif dv.type == "wikibase-entityid" and facts.has_label(dv.key()):
                key = dv.key()
                out.append(Constraint(property=pid, value=key, value_label=facts.label(key)))
    return out


def distinct_facts(
    facts: Facts, target: str, keys: Sequence[str], skip: Callable[[Constraint], bool]
) -> Iterator[Constraint]:
    """The target's facts a clue may state (``fact_constraints``) that no other of ``keys``
    holds, leaving out those ``skip`` says (checked first: it is cheaper than asking every
    key)."""
    for c in fact_constraints(facts, target, clue=True):
        if skip(c) or any(facts.holds(k, c) for k in keys if k != target):
            continue
        yield c


def narrow(
    facts: Facts, base: HopSpec, target: str, prev: str | None, extra: Iterable[Constraint]
) -> HopSpec | None:
    """Add target facts to ``base`` until it fits the target alone (at most 2 added)."""
    spec = base
    found = fits(facts, spec, prev)
    if target not in found:
        return None
    for _ in range(2):
        if found == [target]:
            return spec
        best: tuple[int, HopSpec, list[str]] | None = None
        for c in extra:
            if c in spec.constraints:
                continue
            trial = spec.model_copy(update={"constraints": [*spec.constraints, c]})
            got = [k for k in found if facts.holds(k, c)]
            if target in got and (best is None or len(got) < best[0]):
                best = (len(got), trial, got)
        if best is None:
            return None
        _, spec, found = best
    return spec if found == [target] else None


def narrow_all(
    facts: Facts,
    base: HopSpec,
    target: str,
    prev: str | None,
    extra: list[Constraint],
    limit: int = 3,
    accept: Callable[[HopSpec], bool] | None = None,
) -> list[HopSpec]:
    """Every single added fact that singles out the target (up to ``limit``, counting only
    variants ``accept`` takes), else the greedy narrowing: several variants let the chain
    search keep the one that also runs from other starting points. (A fact the certifier
    cannot decide for every value, such as the city of a national team, would otherwise
    crowd out one it can, such as the country.)"""
    found = fits(facts, base, prev)
    if target not in found:
        return []
    out = []
    for c in extra:
        if c not in base.constraints and [k for k in found if facts.holds(k, c)] == [target]:
            one = base.model_copy(update={"constraints": [*base.constraints, c]})
            if accept is not None and not accept(one):
                continue
            out.append(one)
            if len(out) >= limit:
                break
    if not out:
        spec = narrow(facts, base, target, prev, extra)
        out = [spec] if spec is not None else []
    return out


def topic_options(facts: Facts, topic: str) -> list[Option]:
    """Hop-1 descriptions of ``topic``: a cluster constraint narrowed by more facts, or a
    superlative within the cluster where another criterion ranks a different entity first."""
    cls = home_class(facts, topic)
    cons = fact_constraints(facts, topic)
    out: list[Option] = []
    if cls:
        members = facts.instances(cls)
        if 3 <= len(members) <= MAX_CLASS_GROUP:
            out.extend(_criterion_options(facts, HopSpec(class_id=cls), members, topic))
    for c in cons:
        if c.match != "exact":
            continue
        size = facts.count(c.property, c.value)
        if size < 2 or size > MAX_CLUSTER:
            continue
        base = HopSpec(class_id=cls, constraints=[c])
        group = fits(facts, base, None)
        if len(group) < 2:
            continue
        spec = narrow(facts, base, topic, None, [x for x in cons if x.property != c.property])
        if spec is not None:
            out.append(Option(spec, topic, "entity", "constraints"))
        if len(group) >= 3:
            out.extend(_criterion_options(facts, base, group, topic))
    return out


def _criterion_options(
    facts: Facts, base: HopSpec, group: list[str], target: str, prev: str | None = None
) -> list[Option]:
    if not base.class_id:
        return []
    out = []
    for order in ("max", "min"):
        tops = {p: top(facts, group, p, order) for p in facts.numeric_properties(base.class_id)}
        tops = {pid: t for pid, t in tops.items() if len(t) == 1}
        for pid, t in sorted(tops.items()):
            if t != [target]:
                continue
            if any(other != t for p2, other in tops.items() if p2 != pid):
                spec = base.model_copy(update={"criterion": pid, "criterion_order": order})
                if fits(facts, spec, prev) == [target]:
                    out.append(Option(spec, target, "entity", "criterion"))
    return out


def _ranked_options(
    facts: Facts, base: HopSpec, group: list[str], target: str, prev: str | None
) -> list[Option]:
    """``the <class> ... with the highest <p>``: unique by one criterion, so it also runs
    from other starting points (keeps earlier ambiguities consequential)."""
    out = []
    for pid in facts.numeric_properties(base.class_id) if base.class_id else []:
        if top(facts, group, pid) == [target]:
            spec = base.model_copy(update={"criterion": pid})
            out.append(Option(spec, target, "entity", "ranked"))
            break
    return out


def link_options(
    facts: Facts,
    prev: str,
    inverse_props: Iterable[str],
    dated: Callable[[str], bool] | None = None,
    accept: Callable[[HopSpec, str], bool] | None = None,
) -> list[Option]:
    """Later-hop descriptions from ``prev``: single-valued relations, time-pinned versions,
    multi-valued relations narrowed by a fact of the value (and by its class where
    :data:`CLASS_NARROWED` allows), and reverse relations. A quantity that changes over time
    (``dated``) is asked only at the date of its statement. ``accept(spec, answer)``: which
    narrowed variants count towards their limit (the certifier's)."""
    ent = facts.entity(prev)
    if ent is None:
        return []
    out: list[Option] = []
    for pid in sorted(ent.claims):
        dtype = facts.datatype(pid)
        if pid in SKIP_PROPS or dtype is None:
            continue
        kind = "entity" if dtype == "wikibase-item" else literal_kind(dtype)
        if kind is None:
            continue
        timed = facts.timed(prev, pid)
        if timed:
            out.extend(_version_options(facts, prev, pid, kind))
        keys = facts.value_keys(prev, pid)
        if kind == "entity":
            keys = [k for k in keys if facts.has_label(k)]
        if len(keys) == 1 and not timed and dated is not None and dated(pid):
            one = facts.dated(prev, pid)
            if one and one[0].point_in_time and one[0].value_key == keys[0]:
                spec = HopSpec(link=pid, qualifier="P585", qualifier_value=one[0].point_in_time)
                out.append(Option(spec, keys[0], kind, "link"))
        elif len(keys) == 1 and not timed:
            out.append(Option(HopSpec(link=pid), keys[0], kind, "link"))
        elif len(keys) >= 2 and kind == "entity":
            for k in keys:
                ok = None if accept is None else (lambda spec, k=k: accept(spec, k))
                bases = [HopSpec(link=pid)]
                cls = home_class(facts, k)
                if cls in CLASS_NARROWED.get(pid, frozenset()):
                    typed = HopSpec(link=pid, class_id=cls)
                    if fits(facts, typed, prev) == [k]:
                        out.append(Option(typed, k, kind, "narrowed"))
                    else:
                        bases.append(typed)
                for base in bases:
                    cons = fact_constraints(facts, k)
                    for spec in narrow_all(facts, base, k, prev, cons, accept=ok):
                        out.append(Option(spec, k, kind, "narrowed"))
    for pid in inverse_props:
        if not 0 < facts.count(pid, prev) <= MAX_CLUSTER:
            continue
        subs = [s for s in facts.store.subjects(pid, prev) if s != prev]
        for s in subs:
            base = HopSpec(link=pid, link_inverse=True, class_id=home_class(facts, s))
            for spec in narrow_all(facts, base, s, prev, fact_constraints(facts, s)):
                out.append(Option(spec, s, "entity", "inverse"))
            group = fits(facts, base, prev)
            # two are enough: "the country bordering the United States with the largest
            # population" is Mexico, with the largest area Canada
            if len(group) >= 2:
                out.extend(_criterion_options(facts, base, group, s, prev))
            if len(group) >= 2:
                out.extend(_ranked_options(facts, base, group, s, prev))
    return out


def literal_kind(dtype: str) -> str | None:
    if dtype == "time":
        return "time"
    if dtype == "quantity":
        return "quantity"
    if dtype in ("string", "monolingualtext"):
        return "string"
    return None


def _version_options(facts: Facts, prev: str, pid: str, kind: str) -> list[Option]:
    out = []
    timed = facts.timed(prev, pid)
    for qual, attr in (("P585", "point_in_time"), ("P580", "start")):
        years = [year_of(getattr(v, attr)) for v in timed]
        for v, y in zip(timed, years, strict=True):
            if y is None or (kind == "entity" and not facts.has_label(v.value_key)):
                continue
            if years.count(y) != 1:
                # a shared year (a prize split three ways): each holder by a fact recalled
                if kind == "entity" and qual == "P585":
                    spec = HopSpec(link=pid, qualifier=qual, qualifier_value=getattr(v, attr))
                    out.extend(_recalled(facts, spec, prev, v.value_key, timed))
                continue
            when = [getattr(v, attr)]
            end = year_of(v.end)
            if qual == "P580" and y > 0 and end is not None and end - y >= 3:
                when.append(f"+{(y + end) // 2:04d}-00-00T00:00:00Z")  # mid-term as well
            for time in when:
                spec = HopSpec(link=pid, qualifier=qual, qualifier_value=time)
                if fits(facts, spec, prev) == [v.value_key]:
                    out.append(Option(spec, v.value_key, kind, "version"))
                    if kind == "entity":
                        out.extend(_recalled(facts, spec, prev, v.value_key, timed))
        if out:
            break
    return out


def aligned_versions(facts: Facts, prev: str, pid: str, kind: str, year: int) -> list[Option]:
    """The version of ``pid`` in ``year`` (a year the chain is already about, see
    :mod:`builder.seeding.era`): the one statement dated that year (``P585``) or in force
    then (``P580``), with the recalled-fact variants :func:`_version_options` makes. Whether
    no other statement also holds in that year (a transition year) is the certifier's to
    refuse, as for every option."""
    timed = facts.timed(prev, pid)
    if not timed or year <= 0:
        return []
    qual = "P585" if any(v.point_in_time for v in timed) else "P580"
    spec = HopSpec(link=pid, qualifier=qual, qualifier_value=f"+{year:04d}-00-00T00:00:00Z")
    got = fits(facts, spec, prev)
    if len(got) != 1 or (kind == "entity" and not facts.has_label(got[0])):
        return []
    out = [Option(spec, got[0], kind, "version")]
    if kind == "entity":
        out.extend(_recalled(facts, spec, prev, got[0], timed))
    return out


RECALLED = ("P19", "P569", "P27", "P577", "P571")  # facts a person recalls
MAX_RECALLED = 2


def _recalled(
    facts: Facts, spec: HopSpec, prev: str, target: str, timed: list[TimedValue]
) -> list[Option]:
    """A version with one fact of its holder the user also recalls ("the coach of Real
    Madrid in 2011, who was born in Setúbal"): the fact another version's holder does not
    share, so that a misremembered fact points at someone else (factual ambiguity)."""
    others = {t.value_key for t in timed} - {target}
    own = _own_class(facts, spec, prev, target)
    out = []
    for c in fact_constraints(facts, target):
        if c.property not in RECALLED or (others and all(facts.holds(o, c) for o in others)):
            continue
        narrowed = spec.model_copy(update={"constraints": [c], "class_id": own})
        if fits(facts, narrowed, prev) == [target]:
            out.append(Option(narrowed, target, "entity", "version"))
        if len(out) >= MAX_RECALLED:
            break
    return out


def _own_class(facts: Facts, spec: HopSpec, prev: str, target: str) -> str:
    """The target's class where the version's other holders include something not of it (a
    prize shared by a person and an organization), else "": "the 2007 winner born in 1948"
    is then said of the people among the winners only, since whether an organization was
    born in 1948 is nothing the store knows (it has no date of birth), and the certifier
    would refuse the description as undecidable."""
    cls = home_class(facts, target)
    held = [k for k in fits(facts, spec, prev) if k != target]
    return cls if cls and any(cls not in facts.classes(k) for k in held) else ""
