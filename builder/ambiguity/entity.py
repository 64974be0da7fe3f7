"""Entity ambiguity: drop one constraint so that several snapshot entities fit (siblings)."""

from __future__ import annotations

from builder.ambiguity.base import ChainContext, Failure, Proposal, finish
from builder.records.seed import ClueFact, InjectionSpec
from builder.seeding.realize import Realizer
from builder.seeding.resolve import bounded, fits, weaken, without


class EntityInjector:
    name = "entity"

    def propose(self, ctx: ChainContext, hop: int) -> list[Proposal | Failure]:
        spec = ctx.specs[hop]
        if spec.criterion:
            return []
        prev = ctx.prev(hop)
        realizer = Realizer(ctx.facts)
        out: list[Proposal | Failure] = []
        for i, c in enumerate(spec.constraints):
            weak = without(spec, i)
            if not bounded(ctx.facts, weak, prev):
                continue
            keys = fits(ctx.facts, weak, prev)
            clue = ctx.fact_clue(hop, keys, weak, avoid=c, exclude_property=c.property)
            inj = InjectionSpec(type="entity", constraint=i, clue=ClueFact(property="", text=""))
            note = (
                f"The description no longer says '{realizer.constraint(c)}': "
                f"{len(keys)} candidates fit."
            )
            out.append(finish(ctx, hop, inj, weak, keys, note, clue))
        if spec.qualifier and spec.constraints and spec.link and not spec.link_inverse:
            out.append(self._without_time(ctx, hop))
        return out

    @staticmethod
    def _without_time(ctx: ChainContext, hop: int) -> Proposal | Failure:
        """A holder described by a fact, with no year ("the Japanese Nobel laureate in
        physics"): several holders fit, and a fact of the one meant (not a date) tells them
        apart."""
        spec = ctx.specs[hop]
        inj = InjectionSpec(type="entity", constraint=-1, clue=ClueFact(property="", text=""))
        weak = weaken(spec, inj)
        keys = fits(ctx.facts, weak, ctx.prev(hop))
        clue = ctx.fact_clue(hop, keys, weak)
        rel = ctx.facts.label(spec.link)
        note = f"No year is given for '{rel}': {len(keys)} holders fit what is said of them."
        return finish(ctx, hop, inj, weak, keys, note, clue)
