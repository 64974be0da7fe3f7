"""Turning a seed chain plus chosen proposals into a Sample (question text, plan, provenance)."""

from __future__ import annotations

from builder import __version__
from builder.ambiguity.base import ChainContext, Proposal
from builder.ambiguity.clues import pronoun_of
from builder.ambiguity.vague import entity_word
from builder.records.sample import Checkpoint, Provenance, Sample, difficulty_for
from builder.records.seed import GeneratorInfo, PlanHop
from builder.seeding.realize import Realizer


def sample_id(seed_id: str) -> str:
    return "disco-" + seed_id.rsplit("-", 1)[-1]


def assemble(
    ctx: ChainContext,
    chosen: dict[int, Proposal],
    *,
    provenance: Provenance,
    seed: int,
    types: list[str],
) -> Sample:
    realizer = Realizer(ctx.facts)
    weak_specs = [chosen[i].weakened if i in chosen else s for i, s in enumerate(ctx.specs)]
    vague = [
        entity_word(ctx.facts, s, chosen[i].injection, [c.id for c in chosen[i].candidates])
        if i in chosen
        else ""
        for i, s in enumerate(ctx.specs)
    ]
    # a person's "he" or "she" in the question: of hops before every ambiguous one only (a
    # candidate of an ambiguous hop, or a later hop's person through it, could differ)
    first = min(chosen, default=len(ctx.specs))
    pronouns = {i: p for i, k in enumerate(ctx.keys) if (p := pronoun_of(ctx.facts, k))}
    weak_pronouns = {i: p for i, p in pronouns.items() if i < first}
    goals = realizer.goals(weak_specs, ctx.keys)
    # per ambiguous hop, what the unambiguous question asks there: the restored words a
    # reader of that question can tell apart hop by hop (builder.evaluation.oracle)
    gold_goals = realizer.goals(ctx.specs, ctx.keys)
    checkpoints = []
    plan = []
    for i, hop in enumerate(ctx.seed.hops):
        prop = chosen.get(i)
        checkpoints.append(
            Checkpoint(
                index=hop.index,
                goal=goals[i],
                unambiguous_goal=gold_goals[i] if prop else "",
                answer=hop.answer,
                answer_aliases=hop.answer_aliases,
                entity_id=hop.answer_id,
                ambiguous=prop is not None,
                ambiguity_type=prop.injection.type if prop else "",
                ambiguity_note=prop.note if prop else "",
                candidates=prop.candidates if prop else [],
                clue=prop.injection.clue.text if prop else "",
                evidence=hop.evidence,
                certificate=prop.certificate if prop and prop.certificate else hop.certificate,
            )
        )
        plan.append(
            PlanHop(
                index=hop.index,
                spec=hop.spec,
                answer_key=hop.answer_key,
                answer_kind=hop.answer_kind,
                injection=prop.injection if prop else None,
            )
        )
    info = GeneratorInfo(seed=seed, types=types, plan=plan)
    last = ctx.seed.hops[-1]
    return Sample(
        id=sample_id(ctx.seed.id),
        domain=ctx.seed.domain,
        difficulty=difficulty_for(len(chosen)),
        question=realizer.question(weak_specs, vague, weak_pronouns),
        unambiguous_question=realizer.question(ctx.specs, (), pronouns),
        answer=last.answer,
        answer_aliases=last.answer_aliases,
        checkpoints=checkpoints,
        num_ambiguities=len(chosen),
        provenance=provenance.model_copy(
            update={
                "seed_id": ctx.seed.id,
                "builder_version": __version__,
                "generator": info.model_dump_json(exclude_defaults=True),
            }
        ),
    )
