"""Version ambiguity: drop the time qualifier of a time-qualified multi-valued relation.

Not where the gold is the latest value ("When was Shell's CEO born?" of Wael Sawan, CEO since
2023; "the Turing Award winner" of the 2023 one): a question that gives no time reads as asking
for the present or the most recent, so that reading already reaches the gold and nothing is
ambiguous to a person; a real-world audit marked these as no ambiguity."""

from __future__ import annotations

from builder.ambiguity.base import ChainContext, Failure, Proposal, finish
from builder.ambiguity.clues import era_clue, holds, qualifier_clue
from builder.ambiguity.plan import weaken
from builder.records.seed import ClueFact, InjectionSpec
from builder.seeding.era import era_of
from builder.seeding.facts import Facts, year_of
from builder.seeding.resolve import fits


def latest(facts: Facts, subject: str, pid: str, keys: list[str]) -> set[str]:
    """The values among ``keys`` whose latest statement (its point in time, else its start)
    is the latest of all: the present holder, the most recent winner."""
    when: dict[str, int] = {}
    for v in facts.timed(subject, pid):
        y = year_of(v.point_in_time or v.start)
        if v.value_key in keys and y is not None:
            when[v.value_key] = max(when.get(v.value_key, y), y)
    if not when:
        return set()
    top = max(when.values())
    return {k for k, y in when.items() if y == top}


class VersionInjector:
    name = "version"

    def propose(self, ctx: ChainContext, hop: int) -> list[Proposal | Failure]:
        spec = ctx.specs[hop]
        prev = ctx.prev(hop)
        if not spec.qualifier or not spec.link or spec.link_inverse or prev is None:
            return []
        target = ctx.keys[hop]
        inj = InjectionSpec(type="version", clue=ClueFact(property="", text=""))
        weak = weaken(spec, inj)
        keys = fits(ctx.facts, weak, prev)
        if len(keys) >= 2 and target in latest(ctx.facts, prev, spec.link, keys):
            return [
                Failure(
                    hop,
                    "version",
                    "ambiguous",
                    "the gold is the latest value, which a question without a time asks for",
                    f"target={target} candidates={len(keys)}",
                )
            ]
        era = era_of(ctx.facts, ctx.specs, ctx.keys, hop)
        noun = ctx.person_noun(hop)
        # the reply's turn among the chain's timed hops (those a version reply can be of), so
        # two version replies of one sample in a row take alternate forms
        turn = sum(1 for s in ctx.specs[:hop] if s.qualifier)
        clue: ClueFact | None = (
            era_clue(ctx.facts, spec, era, ctx.keys[era.hop], ctx.seed.id, noun, turn)
            if era is not None and ctx.facts.entity(target) is not None
            else qualifier_clue(ctx.facts, spec, ctx.seed.id, noun, turn)
        )
        assert clue is not None
        if [k for k in keys if holds(ctx.facts, clue, k, weak, prev)] != [target]:
            clue = None
        if clue is None and ctx.specs[hop].link and ctx.facts.entity(target) is not None:
            clue = ctx.fact_clue(hop, keys, weak)
        rel = ctx.facts.label(spec.link)
        note = (
            f"No time is given for '{rel}' (the gold value is the one of "
            f"{year_of(spec.qualifier_value)}): {len(keys)} values over time fit."
        )
        return [finish(ctx, hop, inj, weak, keys, note, clue)]
