"""Version ambiguity: drop the time qualifier of a time-qualified multi-valued relation."""

from __future__ import annotations

from builder.ambiguity.base import ChainContext, Failure, Proposal, finish
from builder.ambiguity.clues import era_clue, holds, qualifier_clue
from builder.ambiguity.plan import weaken
from builder.records.seed import ClueFact, InjectionSpec
from builder.seeding.era import era_of
from builder.seeding.facts import year_of
from builder.seeding.resolve import fits


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
