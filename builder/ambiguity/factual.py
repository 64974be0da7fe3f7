"""Factual ambiguity: one constraint value replaced by a false one, so that no entity fits
exactly while the target differs in that constraint only (a near fit among others)."""

from __future__ import annotations

from builder.ambiguity.base import ChainContext, Failure, Proposal, finish
from builder.records.seed import ClueFact, Constraint, HopSpec, InjectionSpec
from builder.seeding.facts import year_of
from builder.seeding.realize import Realizer
from builder.seeding.resolve import bounded, fits, near_fits, without

MAX_FALSE = 12


def _year_key(year: int) -> str:
    return f"+{year:04d}-00-00T00:00:00Z" if year >= 0 else f"-{-year:04d}-00-00T00:00:00Z"


MIN_AGE, MAX_AGE = 30, 100  # a holder's or winner's age in the hop's year, at the extremes


def plausible_year(pid: str, year: int, when: int | None) -> bool:
    """Whether a person could misremember ``year`` as the birth (P569) or death (P570) of
    someone the hop places in ``when`` (an office held, a prize won): a mix-up with another
    chancellor's birth year reads as a slip, "in 1974, someone born in 1958 led the
    government" as nonsense (the blind reviewer's "riddle"). Other properties, and hops
    without a year, are not limited."""
    if when is None:
        return True
    if pid == "P569":
        return when - MAX_AGE <= year <= when - MIN_AGE
    if pid == "P570":
        return year >= when
    return True


def false_values(
    ctx: ChainContext, spec: HopSpec, i: int, prev: str | None
) -> list[tuple[str, str]]:
    """(value key, label) candidates for replacing constraint ``i``, nearest first."""
    c = spec.constraints[i]
    if c.match == "year":
        y = year_of(c.value) or 0
        years: list[int] = []
        if spec.qualifier:  # another version's holder's year first: a mix-up with them
            anytime = spec.model_copy(
                update={"qualifier": "", "qualifier_value": "", "any_time": True}
            )
            for k in fits(ctx.facts, without(anytime, i), prev):
                for v in ctx.facts.values(k, c.property):
                    got = year_of(v.key())
                    if got is not None and got != y and got not in years:
                        years.append(got)
            ctx.rng.shuffle(years)  # which holder the user mixes up: any of them
        years += [y + d for d in (1, -1, 2, -2, 3, -3) if y + d not in years]
        when = year_of(spec.qualifier_value) if spec.qualifier else None
        years = [n for n in years if plausible_year(c.property, n, when)]
        return [(_year_key(n), str(n)) for n in years[:MAX_FALSE]]
    seen: dict[str, str] = {}
    if spec.qualifier:  # what the holders of other versions have: a mix-up with one of them
        anytime = spec.model_copy(update={"qualifier": "", "qualifier_value": "", "any_time": True})
        mixed: dict[str, str] = {}
        for k in fits(ctx.facts, without(anytime, i), prev):
            for key in ctx.facts.value_keys(k, c.property):
                if key != c.value and ctx.facts.has_label(key):
                    mixed.setdefault(key, ctx.facts.label(key))
        order = sorted(mixed)
        ctx.rng.shuffle(order)
        first = [(k, mixed[k]) for k in order]
    else:
        first = []
    rest = without(spec, i)
    for j in range(len(rest.constraints)):
        relaxed = without(rest, j)
        if not bounded(ctx.facts, relaxed, prev):
            continue
        for k in fits(ctx.facts, relaxed, prev):
            for key in ctx.facts.value_keys(k, c.property):
                if key != c.value and ctx.facts.has_label(key):
                    seen.setdefault(key, ctx.facts.label(key))
    taken = {k for k, _ in first}
    return [*first, *(kv for kv in sorted(seen.items()) if kv[0] not in taken)][:MAX_FALSE]


class FactualInjector:
    name = "factual"

    def propose(self, ctx: ChainContext, hop: int) -> list[Proposal | Failure]:
        spec = ctx.specs[hop]
        if spec.criterion:
            return []
        prev = ctx.prev(hop)
        target = ctx.keys[hop]
        realizer = Realizer(ctx.facts)
        last: Failure | None = None
        for i, c in enumerate(spec.constraints):
            for value, label in false_values(ctx, spec, i, prev):
                cons = list(spec.constraints)
                cons[i] = Constraint(
                    property=c.property, value=value, value_label=label, match=c.match
                )
                fal = spec.model_copy(update={"constraints": cons})
                if fits(ctx.facts, fal, prev):
                    continue
                near = near_fits(ctx.facts, fal, prev)
                if target not in near or len(near) < 2:
                    continue
                clue = ctx.fact_clue(
                    hop, near, fal, avoid=c, vetted_over=without(fal, i), corrects=c.property
                )
                blank = ClueFact(property="", text="")
                inj = InjectionSpec(
                    type="factual", constraint=i, false_value=value, false_label=label, clue=blank
                )
                note = (
                    f"The user misremembers: says '{realizer.constraint(cons[i])}' but the "
                    f"fact is '{realizer.constraint(c)}'; no entity fits exactly, "
                    f"{len(near)} fit all but one detail."
                )
                got = finish(ctx, hop, inj, fal, near, note, clue)
                if isinstance(got, Proposal):
                    return [got]
                last = got
        return [last] if last else []
