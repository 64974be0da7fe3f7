"""Certificates: a hop description's answers, evaluated over a set complete in the real world.

One module used by seeding, injection and the checks alike. :meth:`Certifier.hop` certifies an
unambiguous hop (exactly one member of a complete set fits the description as the question
words it); :meth:`Certifier.ambiguous` an ambiguous one (the candidates are all members fitting
the weakened description; with the clue, exactly the target; for a false detail, no member fits
and the detail is decidable for every member). Where no source of completeness applies the
answer is a :class:`Refusal` with its reason, and the generator does not use the description.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from builder.config import Settings, get_settings
from builder.kb.text import normalize_name
from builder.records.sample import Certificate
from builder.records.seed import ClueFact, Constraint, HopSpec, InjectionSpec
from builder.seeding.facts import Facts, year_of
from builder.seeding.resolve import top, weaken, without
from builder.seeding.text import capitalize
from builder.validity.completeness import Completeness, Universe, holds_in
from builder.validity.live import LiveCounter, LiveMatches

MAX_UNIVERSE = 400  # members listed in a certificate (larger complete sets are not used)


@dataclass(frozen=True)
class Refusal:
    """Why a description is not certified: ``reason`` is a short code, ``detail`` the words."""

    reason: str
    detail: str

    def __str__(self) -> str:
        return f"{self.reason}: {self.detail}"


Outcome = Certificate | Refusal


class Certifier:
    """Certifies hop descriptions over complete sets; caches per run (the store is read-only)."""

    def __init__(self, facts: Facts, live: LiveCounter | None = None) -> None:
        self.facts = facts
        self.completeness = Completeness(facts)
        self.live = live
        self._hops: dict[tuple[str, str, str], Outcome] = {}

    @classmethod
    def from_settings(cls, facts: Facts, settings: Settings | None = None) -> Certifier:
        """With ``live_counts`` (``DISCOBENCH_LIVE_COUNTS=1``): live counts over Wikidata for
        what no declaration covers, through the HTTP cache (live / record / replay)."""
        settings = settings or get_settings()
        if not settings.live_counts:
            return cls(facts)
        from builder.kb.fetch import open_live_sources  # the HTTP stack only when asked

        wikidata, _ = open_live_sources(settings, pages=False)
        return cls(facts, LiveCounter(wikidata))

    # ------------------------------------------------------------------ sets
    def universe(self, spec: HopSpec, prev: str | None) -> Universe | Refusal:
        """The complete set a description is evaluated over, or why there is none."""
        prev = prev or spec.anchor or None
        got = self._declared(spec, prev)
        if isinstance(got, Universe) and len(got.members) > MAX_UNIVERSE:
            return Refusal("too_large", f"{got.source} has {len(got.members)} members")
        return got

    def _declared(self, spec: HopSpec, prev: str | None) -> Universe | Refusal:
        f, comp = self.facts, self.completeness
        if spec.link:
            if not prev:
                return Refusal("no_subject", "a linked hop without a previous answer")
            rel, subj = f.label(spec.link), f.label(prev)
            if spec.link_inverse:
                d = comp.inverse(spec.link, prev, spec.class_id)
                if d is not None:
                    return comp.universe(d)
                return Refusal(
                    "inverse_incomplete", f"no complete set of things whose {rel} is {subj}"
                )
            if spec.qualifier == "P585" and comp.dated(spec.link):
                dated = sorted({v.value_key for v in f.dated(prev, spec.link)})
                return Universe("single_value", spec.link, comp.as_of, tuple(dated))
            if spec.qualifier:
                year = year_of(spec.qualifier_value)
                d = comp.forward(prev, spec.link, year)
                if d is not None:
                    return comp.universe(d)
                return Refusal(
                    "version_incomplete", f"{subj}'s {rel} is not declared complete for {year}"
                )
            if spec.any_time:
                # a version without its time ranges over the declared years (its clue's year
                # lies in them); a holder described by a fact over all time ("the medicine
                # laureate born in 1925") is unique only over every holder ever, which a list
                # over a range of years does not give
                d = (
                    comp.forward(prev, spec.link)
                    if spec.constraints
                    else comp.forward_any(prev, spec.link)
                )
                if d is not None:
                    return comp.universe(d)
                what = "over all time" if spec.constraints else "over time"
                return Refusal("version_incomplete", f"{subj}'s {rel} {what} is not complete")
            if comp.single_valued(spec.link):
                vals = f.value_keys(prev, spec.link)
                if len(vals) == 1:
                    return Universe("single_value", spec.link, comp.as_of, tuple(vals))
                return Refusal("multi_valued", f"single-valued {rel} has {len(vals)} values")
            d = comp.forward(prev, spec.link)
            if d is not None:
                return comp.universe(d)
            return Refusal(
                "multi_valued", f"{rel} has several values and {subj}'s are not declared complete"
            )
        exact = [c for c in spec.constraints if c.match == "exact"]
        for c in sorted(exact, key=lambda c: (f.count(c.property, c.value), c.property)):
            d = comp.inverse(c.property, c.value, spec.class_id)
            if d is not None:
                return comp.universe(d)
        if spec.class_id:
            d = comp.inverse("P31", spec.class_id, spec.class_id)
            if d is not None:
                return comp.universe(d)
        words = ", ".join(f"{f.label(c.property)}={c.value_label or c.value}" for c in exact)
        noun = f.label(spec.class_id) if spec.class_id else "thing"
        return Refusal(
            "open_class", f"no complete set of {noun} declared for {words or 'the class'}"
        )

    def _fits(self, spec: HopSpec, prev: str | None) -> tuple[Universe, list[str]] | Refusal:
        """The complete set of a description and its members that fit it."""
        u = self.universe(spec, prev)
        if isinstance(u, Refusal):
            return u
        got = self.evaluate(spec, prev, u)
        return got if isinstance(got, Refusal) else (u, got)

    def members_fitting(self, spec: HopSpec, prev: str | None) -> list[str] | None:
        """Members of the complete set that fit ``spec``, or None when no complete set
        certifies it (seeding asks this of a weakened description before counting a hop as
        one that may carry an ambiguity)."""
        got = self._fits(spec, prev)
        return None if isinstance(got, Refusal) else got[1]

    # ------------------------------------------------------------------ facts
    def decidable(self, key: str, c: Constraint) -> bool:
        """Whether the store knows, for entity ``key``, if ``c`` holds in the real world."""
        comp = self.completeness
        if comp.single_valued(c.property) and self.facts.value_keys(key, c.property):
            return True
        if comp.forward(key, c.property) is not None:
            return True
        return c.match == "exact" and comp.inverse_covering(c.property, c.value, key) is not None

    def evaluate(self, spec: HopSpec, prev: str | None, u: Universe) -> list[str] | Refusal:
        """Members of ``u`` that fit the whole description, or why that cannot be known."""
        f = self.facts
        prev = prev or spec.anchor or None
        keys = list(u.members)
        if spec.link and not spec.link_inverse and spec.qualifier and prev:
            year = year_of(spec.qualifier_value)
            timed = f.dated(prev, spec.link)
            held = {v.value_key for v in timed if year is not None and holds_in(v, year)}
            keys = [k for k in keys if k in held]
        if spec.class_id:
            keys = [k for k in keys if spec.class_id in f.classes(k)]
        for c in spec.constraints:
            unknown = [k for k in keys if not self.decidable(k, c)]
            if unknown:
                what = f"{f.label(c.property)} = {c.value_label or c.value}"
                names = ", ".join(f.label(k) for k in unknown[:3])
                return Refusal("undecidable", f"whether {what} is unknown for {names}")
            keys = [k for k in keys if f.holds(k, c)]
        criteria = [spec.criterion] if spec.criterion else list(spec.criteria_options)
        for pid in criteria:
            bad = self._unranked(keys, pid, spec.criterion_order)
            if bad is not None:
                return bad
        if spec.criterion:
            keys = top(f, keys, spec.criterion, spec.criterion_order)
        elif spec.criteria_options:
            order = spec.criterion_order
            keys = [t for pid in spec.criteria_options for t in top(f, keys, pid, order)]
        return sorted(set(keys))

    def _unranked(self, keys: Sequence[str], pid: str, order: str = "max") -> Refusal | None:
        """A superlative needs every member's value, dated alike for changing quantities.

        A changing quantity is ranked over values of one date: the members' latest values
        when they share their year, else the values of the latest year at which every member
        has one, and then only when that year ranks the same members first as the latest
        values do (the question gives no year, so its answer must not hang on which)."""
        f = self.facts
        values = f.store.numeric_values(pid, list(keys))
        missing = sorted(set(keys) - {v.entity_id for v in values})
        if missing:
            names = ", ".join(f.label(k) for k in missing[:3])
            return Refusal(
                "superlative_incomplete", f"no {f.label(pid)} for {len(missing)} members: {names}"
            )
        if not self.completeness.dated(pid):
            return None
        years = {year_of(v.point_in_time) for v in values}
        if len(years) == 1 and None not in years:
            return None
        shown = sorted(map(str, years))
        at = self._at_common_year(keys, pid)
        if at is None:
            return Refusal("dates_unaligned", f"{f.label(pid)} values dated {shown}")
        year, amounts = at
        best = max(amounts.values()) if order == "max" else min(amounts.values())
        then = sorted(k for k, v in amounts.items() if v == best)
        if then != top(f, keys, pid, order):
            names = ", ".join(f.label(k) for k in then)
            return Refusal(
                "dates_unaligned",
                f"{f.label(pid)} values dated {shown}; in {year} {names} ranked first instead",
            )
        return None

    def _at_common_year(self, keys: Sequence[str], pid: str) -> tuple[int, dict[str, float]] | None:
        """The latest year at which every member has exactly one dated value of ``pid`` (all
        in one unit), with those values; None when there is no such year."""
        per: list[dict[int, list[str]]] = []
        for k in keys:
            by_year: dict[int, list[str]] = {}
            for v in self.facts.dated(k, pid):
                y = year_of(v.point_in_time)
                if y is not None:
                    by_year.setdefault(y, []).append(v.value_key)
            per.append(by_year)
        if not per:
            return None
        common = set(per[0]).intersection(*per[1:])
        for year in sorted(common, reverse=True):
            got = [d[year] for d in per]
            if any(len(vals) != 1 for vals in got):
                continue
            amount_unit = [vals[0].partition("|") for vals in got]
            if len({unit for _, _, unit in amount_unit}) != 1:
                continue
            try:
                amounts = [float(a) for a, _, _ in amount_unit]
            except ValueError:
                continue
            return year, dict(zip(keys, amounts, strict=True))
        return None

    # ------------------------------------------------------------------ hops
    def hop(self, spec: HopSpec, prev: str | None, answer: str) -> Outcome:
        """The certificate of an unambiguous hop: exactly ``answer`` fits, over a complete set."""
        prev = prev or spec.anchor or None
        key = (spec.model_dump_json(), prev or "", answer)
        if key not in self._hops:
            self._hops[key] = self._hop(spec, prev, answer)
        return self._hops[key]

    def _hop(self, spec: HopSpec, prev: str | None, answer: str) -> Outcome:
        f = self.facts
        link_dated = spec.link and self.completeness.dated(spec.link)
        if link_dated and not spec.link_inverse and spec.qualifier != "P585":
            return Refusal("undated_quantity", f"{f.label(spec.link)} changes over time")
        u = self.universe(spec, prev)
        if isinstance(u, Refusal):
            return self._live_hop(spec, prev, answer, u)
        matches = self.evaluate(spec, prev, u)
        if isinstance(matches, Refusal):
            return matches
        if matches != [answer]:
            names = ", ".join(f.key_text(k, subject=prev or "", pid=spec.link) for k in matches[:4])
            return Refusal(
                "not_unique", f"{len(matches)} of {len(u.members)} members fit ({names or 'none'})"
            )
        return self._certificate(u, matches, [], spec, prev)

    # ------------------------------------------------------------------ live counts
    def _count(self, spec: HopSpec, prev: str | None) -> LiveMatches | Refusal:
        assert self.live is not None
        got = self.live.matches(spec, prev)
        if got is None:
            return Refusal("no_query", "the description has no SPARQL form")
        if not got.listed or got.unknown or got.unranked:
            return Refusal("live_incomplete", f"{got.count} matches over Wikidata, not all named")
        return got

    @staticmethod
    def _named(m: LiveMatches) -> list[str]:
        return [*m.ids, *(v if v.startswith(("+", "-")) else "+" + v for v in m.values)]

    def _live(
        self, m: LiveMatches, matches: list[str], clue_matches: list[str], spec: HopSpec
    ) -> Certificate:
        u = Universe("live_count", m.query, m.as_of, tuple(self._named(m)), "all of Wikidata")
        return self._certificate(u, matches, clue_matches, spec, spec.anchor or None)

    def _live_hop(self, spec: HopSpec, prev: str | None, answer: str, why: Refusal) -> Outcome:
        """No declaration covers the description: with live counts, count it over Wikidata."""
        if self.live is None or why.reason in ("undecidable", "too_large"):
            return why
        m = self._count(spec, prev)
        if isinstance(m, Refusal):
            return m
        named = self._named(m)
        if not m.unique or _key(named[0]) != _key(answer):
            shown = ", ".join(named[:4])
            return Refusal("not_unique", f"{m.count} match over Wikidata ({shown or 'none'})")
        return self._live(m, [answer], [], spec)

    def _live_ambiguous(
        self, spec: HopSpec, inj: InjectionSpec, prev: str | None, target: str, why: Refusal
    ) -> Outcome:
        """Candidates and clue counted over Wikidata (the clue as one more constraint)."""
        if self.live is None or why.reason in ("undecidable", "too_large"):
            return why
        weak = weaken(spec, inj)
        if inj.type == "factual":
            m = self._count(weak, prev)
            if isinstance(m, Refusal):
                return m
            if m.count:
                return Refusal("false_detail_true", f"{m.count} match over Wikidata")
            base, matches = without(weak, inj.constraint), []
        else:
            m = self._count(weak, prev)
            if isinstance(m, Refusal):
                return m
            matches = self._named(m)
            if len(matches) < 2 or target not in matches:
                return Refusal("not_ambiguous", f"{len(matches)} match over Wikidata")
            base = weak
        clued = _with_clue(base, inj.clue)
        if clued is None:
            return Refusal("clue_undecidable", "the clue has no SPARQL form")
        c = self._count(clued, prev)
        if isinstance(c, Refusal):
            return c
        if not c.unique or self._named(c) != [target]:
            return Refusal("clue_not_unique", f"the clue fits {c.count} over Wikidata")
        return self._live(m, matches, [target], spec)

    def ambiguous(
        self, spec: HopSpec, inj: InjectionSpec, prev: str | None, target: str
    ) -> Outcome:
        """The certificate of an ambiguous hop (the clue is ``inj.clue``)."""
        dropped_time = inj.type == "entity" and inj.constraint == -1 and bool(spec.qualifier)
        valid = 0 <= inj.constraint < len(spec.constraints) or dropped_time
        if inj.type in ("entity", "factual") and not valid:
            return Refusal("bad_plan", f"no constraint {inj.constraint} in the description")
        if inj.type == "entity" and dropped_time and inj.clue.kind == "qualifier":
            return Refusal("clue_restates", "the clue restates the dropped time")
        restated = not dropped_time and inj.type == "entity"
        if restated and inj.clue.property == spec.constraints[inj.constraint].property:
            return Refusal("clue_restates", "the clue restates the dropped constraint")
        bad = self.definitional(target, inj.clue)
        if bad is not None:
            return bad
        got = self._ambiguous(spec, inj, prev, target)
        if isinstance(got, Refusal):
            return self._live_ambiguous(spec, inj, prev or spec.anchor or None, target, got)
        return got

    def _ambiguous(
        self, spec: HopSpec, inj: InjectionSpec, prev: str | None, target: str
    ) -> Outcome:
        f = self.facts
        prev = prev or spec.anchor or None
        weak = weaken(spec, inj)
        over = self._fits(weak, prev)
        if isinstance(over, Refusal):
            return over
        cu, got = over
        clue_over = weak
        if inj.type == "factual":
            if got:
                names = ", ".join(f.label(k) for k in got[:3])
                return Refusal("false_detail_true", f"the altered detail is true of {names}")
            clue_over = without(weak, inj.constraint)
            near = self._fits(clue_over, prev)
            if isinstance(near, Refusal):
                return near
            cu, pool = near
            matches: list[str] = []
        else:
            if len(got) < 2 or target not in got:
                return Refusal("not_ambiguous", f"{len(got)} members fit the weakened description")
            matches = pool = got
        left = self.clue_matches(inj.clue, pool, clue_over, prev)
        if isinstance(left, Refusal):
            return left
        if left != [target]:
            names = ", ".join(f.label(k) for k in left[:4])
            return Refusal("clue_not_unique", f"the clue fits {len(left)} members ({names})")
        return self._certificate(cu, matches, left, spec, prev)

    def clue_matches(
        self, clue: ClueFact, keys: Sequence[str], spec: HopSpec, prev: str | None
    ) -> list[str] | Refusal:
        """Members among ``keys`` the clue's fact fits, or why that cannot be known."""
        f = self.facts
        prev = prev or spec.anchor or None
        if clue.kind == "fact":
            c = Constraint(property=clue.property, value=clue.value, match=clue.match)
            unknown = [k for k in keys if not self.decidable(k, c)]
            if unknown:
                names = ", ".join(f.label(k) for k in unknown[:3])
                return Refusal(
                    "clue_undecidable", f"whether the clue's {f.label(c.property)} fits {names}"
                )
            return sorted(k for k in keys if f.holds(k, c))
        if clue.kind == "qualifier":
            year = year_of(clue.value)
            if not prev or not spec.link or year is None:
                return Refusal("clue_undecidable", "a time clue without a timed relation")
            if self.completeness.forward(prev, spec.link, year) is None:
                return Refusal("clue_undecidable", f"no complete list of versions for {year}")
            held = {v.value_key for v in f.timed(prev, spec.link) if holds_in(v, year)}
            return sorted(k for k in keys if k in held)
        plain = spec.model_copy(update={"criterion": "", "criteria_options": []})
        over = self._fits(plain, prev)
        if isinstance(over, Refusal):
            return over
        _, group = over
        order = clue.value if clue.value in ("max", "min") else spec.criterion_order
        return sorted(k for k in top(f, group, clue.property, order) if k in keys)

    def definitional(self, target: str, clue: ClueFact) -> Refusal | None:
        """A clue that is the answer's definition ("caused by Mycobacterium ulcerans" for
        Buruli ulcer) names it rather than recalling something about it."""
        if clue.kind != "fact" or not clue.value_label or clue.match != "exact":
            return None
        if self.facts.entity(clue.value) is None:  # dates and numbers recall, never define
            return None
        ent, val = self.facts.entity(target), self.facts.entity(clue.value)
        words = " ".join(x for x in (ent.label(), ent.description()) if x) if ent else ""
        value = normalize_name(clue.value_label)
        if len(value) >= 4 and f" {value} " in f" {normalize_name(words)} ":
            return Refusal("definitional_clue", f"the clue's {clue.value_label!r} defines it")
        # ... or the answer defines the clue's value ("bacterium that causes Buruli ulcer")
        name = normalize_name(ent.label() or "") if ent else ""
        said = normalize_name(val.description() or "") if val else ""
        if len(name) >= 4 and f" {name} " in f" {said} ":
            return Refusal("definitional_clue", f"{clue.value_label!r} is defined by the answer")
        return None

    # ------------------------------------------------------------------ words
    def _certificate(
        self,
        u: Universe,
        matches: list[str],
        clue_matches: list[str],
        spec: HopSpec,
        prev: str | None,
    ) -> Certificate:
        return Certificate(
            basis=u.basis,
            source=u.source,
            as_of=u.as_of,
            universe=list(u.members),
            matches=matches,
            clue_matches=clue_matches,
            explanation=self.explain(u, matches, clue_matches, spec, prev),
        )

    def explain(
        self,
        u: Universe,
        matches: list[str],
        clue_matches: list[str],
        spec: HopSpec,
        prev: str | None,
    ) -> str:
        f = self.facts

        def name(k: str) -> str:
            return f.key_text(k, subject=prev or "", pid=spec.link) if spec.link else f.label(k)

        if u.basis == "single_value":
            head = f"'{f.label(u.source)}' has one value per subject"
        elif u.basis == "live_count":
            head = f"counted over all of Wikidata on {u.as_of}"
        else:
            scope = u.scope or u.source
            head = f"evaluated over {scope} ({len(u.members)}, complete as of {u.as_of})"
        if clue_matches:
            fits = ", ".join(name(k) for k in matches[:6]) or "none"
            more = f" and {len(matches) - 6} more" if len(matches) > 6 else ""
            said = (
                f"{len(matches)} fit the vague description ({fits}{more})"
                if matches
                else ("nothing fits the description as the user states it")
            )
            return f"{capitalize(head)}: {said}; with the clue only {name(clue_matches[0])}."
        return f"{capitalize(head)}: only {name(matches[0])} fits." if matches else head


def _key(value: str) -> str:
    """Value keys compared across the store and SPARQL (``+1970`` vs ``1970``)."""
    return value.lstrip("+")


def _with_clue(spec: HopSpec, clue: ClueFact) -> HopSpec | None:
    """The description narrowed by the clue's fact, as one query."""
    if clue.kind == "fact":
        c = Constraint(property=clue.property, value=clue.value, match=clue.match)
        return spec.model_copy(update={"constraints": [*spec.constraints, c]})
    if clue.kind == "qualifier":
        return spec.model_copy(
            update={"qualifier": clue.property, "qualifier_value": clue.value, "any_time": False}
        )
    order = clue.value if clue.value in ("max", "min") else spec.criterion_order
    return spec.model_copy(
        update={"criterion": clue.property, "criterion_order": order, "criteria_options": []}
    )
