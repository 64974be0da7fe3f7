"""Turning a seed chain plus chosen proposals into a Sample (question text, plan, provenance)."""

from __future__ import annotations

from builder import __version__
from builder.ambiguity.base import ChainContext, Proposal
from builder.ambiguity.clues import pronoun_of
from builder.ambiguity.vague import entity_word
from builder.records.sample import Checkpoint, Provenance, Sample, difficulty_for
from builder.records.seed import GeneratorInfo, HopSpec, PlanHop
from builder.seeding.facts import Facts
from builder.seeding.realize import Realizer
from builder.seeding.resolve import fits

# the people a candidate's reading of the question reaches that are looked at, at most (more:
# no pronoun)
_MAX_REACHED = 200


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
    pronouns = {i: p for i, k in enumerate(ctx.keys) if (p := pronoun_of(ctx.facts, k))}
    weak_pronouns = _said_pronouns(ctx, chosen, weak_specs, pronouns)
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


def _said_pronouns(
    ctx: ChainContext,
    chosen: dict[int, Proposal],
    weak_specs: list[HopSpec],
    pronouns: dict[int, str],
) -> dict[int, str]:
    """The hops whose person the question may call "he" or "she" (a leader's remembered
    fact: "I think he was born in 1874."): not one whose person another reading of the
    question (a candidate of its hop, or of an earlier ambiguous hop followed through the
    weakened hops) could be with another pronoun or none: the word must tell no candidate
    apart."""
    out = {}
    for hop, pronoun in pronouns.items():
        # (an ambiguous hop's own candidates, each a reading of it)
        reached = {c.id for c in chosen[hop].candidates} if hop in chosen else set()
        for j, proposal in chosen.items():
            for c in proposal.candidates if j < hop else []:
                reached |= _reached(ctx.facts, weak_specs[j + 1 : hop + 1], c.id)
        if len(reached) <= _MAX_REACHED and all(
            pronoun_of(ctx.facts, k) == pronoun for k in reached
        ):
            out[hop] = pronoun
    return out


def _reached(facts: Facts, specs: list[HopSpec], start: str) -> set[str]:
    """The keys the hops ``specs`` reach from ``start`` (every answer of each)."""
    found = {start}
    for spec in specs:
        found = {k for prev in found for k in fits(facts, spec, prev)}
        if len(found) > _MAX_REACHED:
            break
    return found
