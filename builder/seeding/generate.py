"""Seed chains: 2–5 hop chains over the snapshot, each hop unique by query, with evidence.

Topics are taken round-robin over domains (each domain's entities shuffled by the seed), so
the first ``n`` chains spread over every domain; each topic yields at most one chain, built
depth-first over the hop options of :mod:`builder.seeding.options`. Same store + same seed
give the same chains.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from builder.errors import ConfigError, StageError
from builder.kb.domains import CLASS_DOMAIN
from builder.kb.store import KnowledgeStore
from builder.records.sample import DOMAINS, Evidence
from builder.records.seed import Hop, HopSpec, SeedChain
from builder.seeding.evidence import (
    answer_text,
    evidence_options,
    hop_evidence,
    retrievable,
)
from builder.seeding.facts import Facts
from builder.seeding.options import (
    MAX_CLASS_GROUP,
    Option,
    fact_constraints,
    link_options,
    literal_kind,
    topic_options,
)
from builder.seeding.realize import Realizer
from builder.seeding.resolve import alternatives, fits, top
from builder.seeding.templates import load_templates
from builder.seeding.text import leaks

INJECTABLE = frozenset({"constraints", "criterion", "version", "narrowed", "inverse"})
MAX_TRIES = 7
RANKED_EVERY = 3
MAX_SCORED = 24
# rarer ambiguity kinds are preferred when they keep their own alternatives
KIND_BONUS = {"criterion": 2.5, "version": 0.5}
MAX_ALTS = 6
SEARCH_BUDGET = 200


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


@dataclass
class Step:
    """One hop of a chain being built, and where wrong candidates of earlier ambiguity-capable
    hops stand after it (origin hop -> their current keys): a hop stays consequential while
    some of its wrong candidates still execute and differ from the gold path."""

    opt: Option
    evidence: list[Evidence]
    alts: dict[int, list[str]]


class ChainBuilder:
    """Builds one chain from a topic, depth-first, trying a few options per hop, preferring
    options that keep earlier ambiguity-capable hops consequential."""

    def __init__(self, facts: Facts) -> None:
        self.facts = facts
        rels = load_templates().relations
        self.inverse_props = [p for p in sorted(rels) if facts.datatype(p) == "wikibase-item"]
        self._links: dict[str, list[Option]] = {}

    def _carry(
        self, opt: Option, prev: str | None, alts: dict[int, list[str]], index: int
    ) -> dict[int, list[str]]:
        out: dict[int, list[str]] = {}
        for origin, keys in alts.items():
            moved = []
            for key in keys:
                got = fits(self.facts, opt.spec, key)
                if len(got) == 1 and got[0] != opt.answer_key:
                    moved.append(got[0])
            if moved:
                out[origin] = sorted(set(moved))[:MAX_ALTS]
        if opt.kind in INJECTABLE:
            own = alternatives(self.facts, opt.spec, prev, opt.answer_key)
            if own:
                out[index] = own[:MAX_ALTS]
        return out

    def _ranked(
        self,
        opts: list[Option],
        prev: str | None,
        alts: dict[int, list[str]],
        index: int,
        rng: random.Random,
    ) -> list[tuple[Option, dict[int, list[str]]]]:
        rng.shuffle(opts)
        scored = []
        for o in opts[:MAX_SCORED]:
            carried = self._carry(o, prev, alts, index)
            bonus = KIND_BONUS.get(o.kind, 0.0) if index in carried else 0.0
            scored.append((len(carried) + bonus + rng.random() * 0.9, o, carried))
        scored.sort(key=lambda t: -t[0])
        return [(o, c) for _, o, c in scored]

    def build(self, topic: str, length: int, rng: random.Random) -> list[Step] | None:
        """The complete chain (within a search budget) keeping the most ambiguity-capable
        hops consequential; None when no chain reaches ``length`` with one such hop."""
        if self.facts.store.get_page(topic) is None:
            return None
        self.best: list[Step] | None = None
        self.budget = SEARCH_BUDGET
        ranked = self._ranked(topic_options(self.facts, topic), None, {}, 0, rng)
        for opt, carried in ranked[:MAX_TRIES]:
            ev = evidence_options(self.facts, opt.spec, None, topic)
            if not ev:
                continue
            self._extend([Step(opt, ev, carried)], length, rng)
            if self.budget <= 0 or self._full(self.best, length):
                break
        return self.best

    def _leaky(self, path: list[Step]) -> bool:
        """Whether the chain's question would name one of its own answers."""
        question = Realizer(self.facts).question([s.opt.spec for s in path])
        texts: list[str] = []
        prev = ""
        for s in path:
            text, aliases = answer_text(self.facts, s.opt.answer_key, prev, s.opt.spec.link)
            texts += [text, *aliases]
            prev = s.opt.answer_key
        return bool(leaks(question, texts))

    def _searchable(self, path: list[Step]) -> bool:
        """Keep, per hop, only evidence that local search finds for the hop's query (searched
        once a whole chain stands, so abandoned branches cost no searches)."""
        prev: str | None = None
        found: list[list[Evidence]] = []
        for step in path:
            got = retrievable(self.facts, step.opt.spec, prev, step.evidence)
            if not got:
                return False
            found.append(got)
            prev = step.opt.answer_key
        for step, ev in zip(path, found, strict=True):
            step.evidence = ev
        return True

    @staticmethod
    def _full(path: list[Step] | None, length: int) -> bool:
        return path is not None and len(path[-1].alts) >= min(length, 3)

    def _extend(self, path: list[Step], length: int, rng: random.Random) -> None:
        self.budget -= 1
        if len(path) == length:
            if (
                path[-1].alts
                and not self._leaky(path)
                and (self.best is None or len(path[-1].alts) > len(self.best[-1].alts))
                and self._searchable(path)
                and (self.best is None or len(path[-1].alts) > len(self.best[-1].alts))
            ):
                self.best = list(path)
            return
        last = path[-1].opt
        if last.answer_kind != "entity" or self.budget <= 0:
            return
        prev = last.answer_key
        answers = {s.opt.answer_key for s in path}
        mentioned = {c.value for s in path for c in s.opt.spec.constraints}
        used = {c.property for c in last.spec.constraints} | {last.spec.link}
        final = len(path) + 1 == length
        if prev not in self._links:
            self._links[prev] = link_options(self.facts, prev, self.inverse_props)
        opts = [
            o
            for o in self._links[prev]
            if o.answer_key not in answers | mentioned
            and not ({c.value for c in o.spec.constraints} & answers)
            and o.spec.link not in used
            and (final or o.answer_kind == "entity")
        ]
        for opt, carried in self._ranked(opts, prev, path[-1].alts, len(path), rng)[:MAX_TRIES]:
            if final and not carried:
                continue
            ev = evidence_options(self.facts, opt.spec, prev, opt.answer_key)
            if not ev:
                continue
            self._extend([*path, Step(opt, ev, carried)], length, rng)
            if self.budget <= 0 or self._full(self.best, length):
                return


def to_chain(facts: Facts, seed_id: str, domain: str, path: list[Step]) -> SeedChain:
    realizer = Realizer(facts)
    specs = [s.opt.spec for s in path]
    keys = [s.opt.answer_key for s in path]
    goals = realizer.goals(specs, keys)
    hops = []
    for i, step in enumerate(path):
        opt, ev = step.opt, step.evidence
        prev = keys[i - 1] if i else ""
        text, aliases = answer_text(facts, opt.answer_key, prev, opt.spec.link)
        hops.append(
            Hop(
                index=i + 1,
                subject_id=prev,
                spec=opt.spec,
                goal=goals[i],
                answer=text,
                answer_key=opt.answer_key,
                answer_aliases=aliases,
                answer_id=opt.answer_key if opt.answer_kind == "entity" else "",
                answer_kind=opt.answer_kind,
                evidence=ev,
            )
        )
    return SeedChain(
        id=seed_id,
        domain=domain,
        topic_id=keys[0],
        hops=hops,
        question=realizer.question(specs),
    )


def _progress(enabled: bool) -> Progress:
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        console=Console(stderr=True),
        disable=not enabled,
        transient=True,
    )


def iter_seeds(
    store: KnowledgeStore, *, hops: tuple[int, int], domains: Sequence[str] | None, seed: int
) -> Iterator[SeedChain]:
    """Chains in topic order (unnumbered ids are assigned by :func:`generate_seeds`)."""
    lo, hi = hops
    if not 2 <= lo <= hi <= 5:
        raise ConfigError(f"--hops {lo}-{hi} is out of range", hint="use a range within 2-5")
    facts = Facts(store)
    builder = ChainBuilder(facts)
    for topic in ranked_first(facts, topic_order(store, domains, seed)):
        rng = random.Random(f"{seed}:{topic}")
        # longer chains leave room for more ambiguous checkpoints; fall back to shorter ones
        first = hi if rng.random() < 0.5 else rng.randint(lo, hi)
        path = None
        for length in range(first, lo - 1, -1):
            path = builder.build(topic, length, rng)
            if path is not None:
                break
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
    path: list[Step] = []
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
            raise StageError(f"{seed_id} hop {i}: no page that search finds states the fact")
        path.append(Step(Option(spec, key, kind, "given"), ev, {}))
        prev = key
    topic = path[0].opt.answer_key
    return to_chain(facts, seed_id, domain or store.domain_of(topic) or "", path)
