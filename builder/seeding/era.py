"""The years a chain is already about, for a later hop that asks for a version.

A person who asks about the head of state of a Wimbledon champion's country means the one at
the time of the win, not one of a year picked from the country's history. A chain names or
reaches a year through an earlier hop: its own year (the 1993 winner, the coach in 2011), a
year it is described by (the film released in 2007), or the year its answer came out or was
founded (an album, a company). Seeding prefers the version of that year (see
:func:`builder.seeding.options.aligned_versions`) and the version clue says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from builder.records.seed import HopSpec
from builder.seeding.facts import Facts, year_of

# an answer's own year (the first it has): released, founded, premiered, launched, took
# place, began
ANSWER_YEARS = ("P577", "P571", "P1191", "P619", "P585", "P580")
# a described year that dates an event (a birth or death year does not: "the head of state
# when they were born" is not what a chain about a prize winner asks)
CONSTRAINT_YEARS = frozenset(ANSWER_YEARS) | {"P575"}


@dataclass(frozen=True)
class Era:
    """A year of the chain: ``hop`` (0-based) it comes from, and how (``source``): the hop's
    own qualifier (``qualifier``), a year it is described by (``constraint``) or its answer's
    fact (``answer``); ``property`` is the hop's link, the constraint's or the answer fact's."""

    year: int
    hop: int
    source: str
    property: str


def eras(facts: Facts, specs: Sequence[HopSpec], keys: Sequence[str]) -> list[Era]:
    """The years of hops ``specs`` (answers ``keys``) for the hop after them, best first: the
    hops' own years (the time the question is about), then their described years, then their
    answers' years (release, founding), each nearest hop first. The last hop's described and
    answer years are left out: they are facts of the subject the next hop asks about (a
    country's founding is no era of its heads of state)."""
    own: list[Era] = []
    described: list[Era] = []
    answered: list[Era] = []
    last = len(specs) - 1
    for j in range(last, -1, -1):
        spec = specs[j]
        y = year_of(spec.qualifier_value) if spec.qualifier in ("P585", "P580") else None
        if y is not None and not spec.any_time:
            own.append(Era(y, j, "qualifier", spec.link))
        if j == last:
            continue
        for c in spec.constraints:
            cy = year_of(c.value) if c.match == "year" else None
            if cy is not None and c.property in CONSTRAINT_YEARS:
                described.append(Era(cy, j, "constraint", c.property))
        for pid in ANSWER_YEARS if j < len(keys) and facts.entity(keys[j]) else ():
            if facts.timed(keys[j], pid):
                continue
            vals = facts.value_keys(keys[j], pid)
            ay = year_of(vals[0]) if len(vals) == 1 else None
            if ay is not None:
                answered.append(Era(ay, j, "answer", pid))
                break
    out = [*own, *described, *answered]
    seen: set[int] = set()
    unique = []
    for e in out:
        if e.year not in seen:
            seen.add(e.year)
            unique.append(e)
    return unique


def era_of(facts: Facts, specs: Sequence[HopSpec], keys: Sequence[str], hop: int) -> Era | None:
    """The era hop ``hop``'s own year (its qualifier) is the same as, if any."""
    spec = specs[hop]
    y = year_of(spec.qualifier_value) if spec.qualifier else None
    if y is None:
        return None
    return next((e for e in eras(facts, specs[:hop], keys[:hop]) if e.year == y), None)
