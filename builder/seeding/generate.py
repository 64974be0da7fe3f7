"""Seed chains: 2–5 hop chains over the snapshot, each hop unique by query, with evidence.

Topics are taken round-robin over domains (each domain's entities shuffled by the seed), so
the first ``n`` chains spread over every domain; each topic yields at most one chain, built
depth-first over the hop options of :mod:`builder.seeding.options`. Same store + same seed
give the same chains.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from builder.errors import ConfigError, StageError
from builder.kb.store import KnowledgeStore
from builder.records.sample import DOMAINS, Evidence
from builder.records.seed import Hop, HopSpec, SeedChain
from builder.seeding.evidence import answer_text, hop_evidence
from builder.seeding.facts import Facts
from builder.seeding.options import Option, link_options, literal_kind, topic_options
from builder.seeding.realize import Realizer
from builder.seeding.resolve import fits
from builder.seeding.templates import load_templates

INJECTABLE = frozenset({"constraints", "criterion", "version", "narrowed", "inverse"})
MAX_TRIES = 5


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


class ChainBuilder:
    """Builds one chain from a topic, depth-first, trying a few shuffled options per hop."""

    def __init__(self, facts: Facts) -> None:
        self.facts = facts
        rels = load_templates().relations
        self.inverse_props = [p for p in sorted(rels) if facts.datatype(p) == "wikibase-item"]

    def _ordered(self, opts: list[Option], rng: random.Random) -> list[Option]:
        rng.shuffle(opts)
        keyed = [(0 if o.kind in INJECTABLE and rng.random() < 0.75 else 1, i) for i, o in
                 enumerate(opts)]  # fmt: skip
        return [opts[i] for _, i in sorted(keyed)]

    def build(
        self, topic: str, length: int, rng: random.Random
    ) -> list[tuple[Option, list[Evidence]]] | None:
        if self.facts.store.get_page(topic) is None:
            return None
        for opt in self._ordered(topic_options(self.facts, topic), rng)[:MAX_TRIES]:
            ev = hop_evidence(self.facts, opt.spec, None, topic)
            if not ev:
                continue
            path = [(opt, ev)]
            if self._extend(path, length, rng):
                return path
        return None

    def _extend(
        self, path: list[tuple[Option, list[Evidence]]], length: int, rng: random.Random
    ) -> bool:
        if len(path) == length:
            return True
        last = path[-1][0]
        if last.answer_kind != "entity":
            return False
        prev = last.answer_key
        seen = {o.answer_key for o, _ in path}
        used = {c.property for c in last.spec.constraints} | {last.spec.link}
        final = len(path) + 1 == length
        opts = [
            o
            for o in link_options(self.facts, prev, self.inverse_props)
            if o.answer_key not in seen
            and o.spec.link not in used
            and (final or o.answer_kind == "entity")
        ]
        for opt in self._ordered(opts, rng)[:MAX_TRIES]:
            ev = hop_evidence(self.facts, opt.spec, prev, opt.answer_key)
            if not ev:
                continue
            path.append((opt, ev))
            if self._extend(path, length, rng):
                return True
            path.pop()
        return False


def to_chain(
    facts: Facts, seed_id: str, domain: str, path: list[tuple[Option, list[Evidence]]]
) -> SeedChain:
    realizer = Realizer(facts)
    specs = [o.spec for o, _ in path]
    keys = [o.answer_key for o, _ in path]
    goals = realizer.goals(specs, keys)
    hops = []
    for i, (opt, ev) in enumerate(path):
        prev = keys[i - 1] if i else ""
        text, aliases = answer_text(facts, opt.answer_key, prev, opt.spec.link)
        hops.append(
            Hop(
                index=i + 1, subject_id=prev, spec=opt.spec, goal=goals[i], answer=text,
                answer_key=opt.answer_key, answer_aliases=aliases,
                answer_id=opt.answer_key if opt.answer_kind == "entity" else "",
                answer_kind=opt.answer_kind,
                evidence=ev,
            )
        )  # fmt: skip
    return SeedChain(
        id=seed_id, domain=domain, topic_id=keys[0], hops=hops,
        question=realizer.question(specs),
    )  # fmt: skip


def _progress(enabled: bool) -> Progress:
    return Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        console=Console(stderr=True), disable=not enabled, transient=True,
    )  # fmt: skip


def iter_seeds(
    store: KnowledgeStore, *, hops: tuple[int, int], domains: Sequence[str] | None, seed: int
) -> Iterator[SeedChain]:
    """Chains in topic order (unnumbered ids are assigned by :func:`generate_seeds`)."""
    lo, hi = hops
    if not 2 <= lo <= hi <= 5:
        raise ConfigError(f"--hops {lo}-{hi} is out of range", hint="use a range within 2-5")
    facts = Facts(store)
    builder = ChainBuilder(facts)
    for topic in topic_order(store, domains, seed):
        rng = random.Random(f"{seed}:{topic}")
        path = builder.build(topic, rng.randint(lo, hi), rng)
        if path is not None:
            dom = store.domain_of(topic) or ""
            yield to_chain(facts, "", dom, path)


def generate_seeds(
    store: KnowledgeStore,
    *,
    n: int,
    hops: tuple[int, int] = (2, 4),
    domains: Sequence[str] | None = None,
    seed: int = 0,
    progress: bool = True,
) -> list[SeedChain]:
    """Up to ``n`` verifiable chains (fewer when the snapshot runs out of topics)."""
    out: list[SeedChain] = []
    with _progress(progress) as bar:
        task = bar.add_task("seeding", total=n)
        for chain in iter_seeds(store, hops=hops, domains=domains, seed=seed):
            out.append(chain.model_copy(update={"id": f"seed-{len(out) + 1:06d}"}))
            bar.advance(task)
            if len(out) >= n:
                break
    return out


def chain_from_specs(
    store: KnowledgeStore, seed_id: str, specs: Sequence[HopSpec], domain: str | None = None
) -> SeedChain:
    """A chain from hand-written hop descriptions (tests, curated seeds).

    Raises StageError naming the hop whose description does not pick out exactly one answer
    or whose fact no page states.
    """
    facts = Facts(store)
    path: list[tuple[Option, list[Evidence]]] = []
    prev: str | None = None
    for i, spec in enumerate(specs, start=1):
        found = fits(facts, spec, prev)
        if len(found) != 1:
            raise StageError(f"{seed_id} hop {i}: {len(found)} answers fit ({found[:5]})")
        key = found[0]
        kind = "entity"
        if spec.link and not spec.link_inverse:
            dtype = facts.datatype(spec.link) or ""
            kind = "entity" if dtype == "wikibase-item" else literal_kind(dtype) or "string"
        ev = hop_evidence(facts, spec, prev, key)
        if not ev:
            raise StageError(f"{seed_id} hop {i}: no page states the fact")
        path.append((Option(spec, key, kind, "given"), ev))
        prev = key
    topic = path[0][0].answer_key
    return to_chain(facts, seed_id, domain or store.domain_of(topic) or "", path)
