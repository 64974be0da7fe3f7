"""Vague words of an ambiguous checkpoint: what a person says instead of the fact they left
out ("that award-winning game Nintendo made").

A word is said only when it is true of every candidate in the snapshot (each has a fact of
the dropped property; a decade only when all their years fall in it), so the question still
describes exactly the certified candidates, and the word is true of the one meant. The words
are data (``builder/prompts/templates/vague.yaml``).
"""

from __future__ import annotations

from collections.abc import Sequence

from builder.records.seed import HopSpec, InjectionSpec
from builder.seeding.facts import Facts, year_of
from builder.seeding.templates import Templates, load_templates


def entity_word(
    facts: Facts,
    spec: HopSpec,
    injection: InjectionSpec,
    candidates: Sequence[str],
    templates: Templates | None = None,
) -> str:
    """The word an entity-ambiguous hop says for its dropped constraint, or ""."""
    t = templates or load_templates()
    if injection.type != "entity" or not 0 <= injection.constraint < len(spec.constraints):
        return ""
    dropped = spec.constraints[injection.constraint]
    word = t.vague.entity.get(dropped.property, "")
    kept = [c for i, c in enumerate(spec.constraints) if i != injection.constraint]
    said = spec.link in t.vague.entity_not_with or any(c.property == dropped.property for c in kept)
    if not word or not candidates or said:
        return ""
    if "{decade}" in word:
        decades = {_decade(facts, k, dropped.property) for k in candidates}
        if len(decades) != 1 or None in decades:
            return ""
        return word.replace("{decade}", f"{decades.pop()}s")
    if all(facts.value_keys(k, dropped.property) for k in candidates):
        return word
    return ""


def _decade(facts: Facts, key: str, pid: str) -> int | None:
    years = {year_of(v.key()) for v in facts.values(key, pid)}
    decades = {y - y % 10 for y in years if y is not None}
    return decades.pop() if len(decades) == 1 else None
