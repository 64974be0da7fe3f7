"""Criteria ambiguity: a superlative without its ranking criterion, where two criteria
disagree on the top entity."""

from __future__ import annotations

from builder.ambiguity.base import ChainContext, Failure, Proposal, finish
from builder.ambiguity.clues import criterion_clue, holds
from builder.records.seed import InjectionSpec
from builder.seeding.resolve import base_fits, fits, top

MAX_OPTIONS = 3


class CriteriaInjector:
    name = "criteria"

    def propose(self, ctx: ChainContext, hop: int) -> list[Proposal | Failure]:
        spec = ctx.specs[hop]
        if not spec.criterion or not spec.class_id:
            return []
        prev = ctx.prev(hop)
        target = ctx.keys[hop]
        group = base_fits(ctx.facts, spec, prev)
        options = [spec.criterion]
        tops = {target}
        for pid in ctx.facts.numeric_properties(spec.class_id):
            t = top(ctx.facts, group, pid, spec.criterion_order)
            if len(t) == 1 and t[0] not in tops and len(options) < MAX_OPTIONS:
                options.append(pid)
                tops.add(t[0])
        # "What is the area of the smallest country …?": the reply need not say "area" as news
        asked = hop + 1 < len(ctx.specs) and ctx.specs[hop + 1].link == spec.criterion
        clue = criterion_clue(ctx.facts, spec.criterion, spec.criterion_order, ctx.seed.id, asked)
        inj = InjectionSpec(type="criteria", criteria=options, clue=clue)
        weak = spec.model_copy(update={"criterion": "", "criteria_options": options})
        keys = fits(ctx.facts, weak, prev)
        if [k for k in keys if holds(ctx.facts, clue, k, weak, prev)] != [target]:
            return [finish(ctx, hop, inj, weak, keys, "", None)]
        labels = ", ".join(ctx.facts.label(p) for p in options)
        note = f"The superlative does not say by what ({labels}); each ranks another first."
        return [finish(ctx, hop, inj, weak, keys, note, clue)]
