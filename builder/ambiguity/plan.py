"""The plan a Sample carries (``Provenance.generator``) and what checks and injectors derive
from it: the weakened description of an ambiguous hop, its candidate set, downstream answers."""

from __future__ import annotations

from pydantic import ValidationError

from builder.records.sample import Sample
from builder.records.seed import GeneratorInfo, HopSpec, InjectionSpec, PlanHop
from builder.seeding.evidence import answer_text
from builder.seeding.facts import Facts, year_of
from builder.seeding.resolve import fits, near_fits, run_rest, weaken
from builder.validity.completeness import holds_in

__all__ = ["candidate_keys", "final_text", "prev_keys", "read_plan", "weaken"]


def candidate_keys(facts: Facts, spec: HopSpec, inj: InjectionSpec, prev: str | None) -> list[str]:
    """Who fits what the user said: weakened fits, or near fits for a falsified description."""
    weak = weaken(spec, inj)
    if inj.type == "factual":
        return near_fits(facts, weak, prev)
    return fits(facts, weak, prev)


def final_text(facts: Facts, specs: list[HopSpec], start_index: int, key: str, prev: str) -> str:
    """The chain's final answer when hop ``start_index`` (0-based) resolves to ``key``."""
    rest = specs[start_index + 1 :]
    path = run_rest(facts, rest, key)
    if path is None:
        return ""
    # a later hop "in 2009" that two terms touch (Bush's and Obama's) has no one answer in
    # the real world, whatever the resolver's in-force-at-its-start reading picks
    for spec, subject in zip(rest, path, strict=False):
        year = year_of(spec.qualifier_value) if spec.qualifier and spec.link else None
        if year is not None and not spec.link_inverse:
            held = {v.value_key for v in facts.timed(subject, spec.link) if holds_in(v, year)}
            if len(held) > 1:
                return ""
    if len(path) == 1:
        return answer_text(facts, key, prev, specs[start_index].link)[0]
    return answer_text(facts, path[-1], path[-2], specs[-1].link)[0]


def read_plan(sample: Sample) -> GeneratorInfo | None:
    """The plan recorded in the sample, or None when absent or unreadable."""
    raw = sample.provenance.generator
    if not raw:
        return None
    try:
        info = GeneratorInfo.model_validate_json(raw)
    except ValidationError:
        return None
    return info if len(info.plan) == len(sample.checkpoints) else None


def prev_keys(plan: list[PlanHop]) -> list[str | None]:
    """Each hop's subject: the previous answer (hop 1: its named anchor, if any)."""
    first = plan[0].spec.anchor or None if plan else None
    return [first, *(p.answer_key for p in plan[:-1])]
