"""Topic order for seeding: round-robin over domains, superlative tops brought forward."""

from __future__ import annotations

import random
from collections.abc import Sequence

from builder.errors import ConfigError
from builder.kb.domains import CLASS_DOMAIN
from builder.kb.store import KnowledgeStore
from builder.records.sample import DOMAINS
from builder.seeding.facts import Facts
from builder.seeding.options import MAX_CLASS_GROUP, fact_constraints
from builder.seeding.resolve import top

RANKED_EVERY = 3


def _domains(store: KnowledgeStore) -> dict[str, str]:
    by_entity = getattr(store, "domains_by_entity", None)
    if callable(by_entity):
        got = by_entity()
        return {str(k): str(v) for k, v in got.items()}
    out = {}
    for eid in store.iter_entity_ids("item"):
        dom = store.domain_of(eid)
        if dom:
            out[eid] = dom
    return out


def topic_order(store: KnowledgeStore, domains: Sequence[str] | None, seed: int) -> list[str]:
    """Entities with a domain, shuffled per domain, interleaved round-robin over domains."""
    wanted = list(domains) if domains else list(DOMAINS)
    bad = [d for d in wanted if d not in DOMAINS]
    if bad:
        raise ConfigError(f"unknown domain(s) {bad}", hint=f"choose from {', '.join(DOMAINS)}")
    groups: dict[str, list[str]] = {d: [] for d in wanted}
    for eid, dom in sorted(_domains(store).items()):
        if dom in groups:
            groups[dom].append(eid)
    for dom, ids in groups.items():
        random.Random(f"{seed}:{dom}").shuffle(ids)
    order: list[str] = []
    for i in range(max((len(v) for v in groups.values()), default=0)):
        order.extend(ids[i] for ids in groups.values() if i < len(ids))
    return order


def superlative_tops(facts: Facts) -> set[str]:
    """Entities ranked first or last by a numeric property within a small domain class, or
    within a cluster of it (members sharing one fact)."""
    tops: set[str] = set()
    for cls in sorted(CLASS_DOMAIN):
        members = facts.instances(cls)
        if not 3 <= len(members) <= MAX_CLASS_GROUP:
            continue
        numeric = facts.numeric_properties(cls)
        if not numeric:
            continue
        groups: dict[tuple[str, str], list[str]] = {("", ""): members}
        for m in members:
            for c in fact_constraints(facts, m):
                if c.match == "exact":
                    groups.setdefault((c.property, c.value), []).append(m)
        for group in groups.values():
            if len(group) < 3:
                continue
            for pid in numeric:
                for order in ("max", "min"):
                    found = top(facts, group, pid, order)
                    if len(found) == 1:
                        tops.add(found[0])
    return tops


def ranked_first(facts: Facts, order: list[str], every: int = RANKED_EVERY) -> list[str]:
    """Bring superlative tops (candidates for criteria ambiguity, the rarest kind) forward:
    one of them every ``every`` topics, both lists keeping ``order``'s order."""
    tops = superlative_tops(facts)
    ranked = iter([e for e in order if e in tops])
    rest = iter([e for e in order if e not in tops])
    out: list[str] = []
    while True:
        chunk = [e for _, e in zip(range(every - 1), rest, strict=False)]
        extra = next(ranked, None)
        if extra is not None:
            chunk.append(extra)
        if not chunk:
            return out
        out.extend(chunk)
