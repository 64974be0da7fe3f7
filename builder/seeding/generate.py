"""Seed chains: 2–5 hop chains over the snapshot, each hop unique by query, with evidence.

Topics come from :mod:`builder.seeding.topics` (round-robin over domains, so the first ``n``
chains spread over every domain); each topic yields at most one chain, searched by
:mod:`builder.seeding.search` over the hop options of :mod:`builder.seeding.options`. Same
store + same seed give the same chains.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator, Sequence

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from builder.errors import ConfigError, StageError
from builder.kb.store import KnowledgeStore
from builder.progress import LogProgress
from builder.records.sample import DOMAINS, Certificate
from builder.records.seed import Hop, HopSpec, SeedChain
from builder.seeding.evidence import answer_text, hop_evidence
from builder.seeding.facts import Facts
from builder.seeding.options import Option, literal_kind
from builder.seeding.realize import Realizer
from builder.seeding.resolve import fits
from builder.seeding.search import ChainBuilder, Step
from builder.seeding.topics import ranked_first, topic_order
from builder.validity.certify import Certifier

__all__ = ["chain_from_specs", "generate_seeds", "iter_seeds", "to_chain", "topic_order"]


def to_chain(
    facts: Facts, seed_id: str, domain: str, path: list[Step], certifier: Certifier | None = None
) -> SeedChain:
    """The chain of a search path; each hop carries its certificate (empty when the hop's
    description is not certified, e.g. a hand-written chain over an undeclared set)."""
    realizer = Realizer(facts)
    certifier = certifier or Certifier.from_settings(facts)
    specs = [s.opt.spec for s in path]
    keys = [s.opt.answer_key for s in path]
    goals = realizer.goals(specs, keys)
    hops = []
    for i, step in enumerate(path):
        opt, ev = step.opt, step.evidence
        prev = keys[i - 1] if i else opt.spec.anchor
        text, aliases = answer_text(facts, opt.answer_key, prev, opt.spec.link)
        cert = certifier.hop(opt.spec, prev or None, opt.answer_key)
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
                certificate=cert if isinstance(cert, Certificate) else Certificate(),
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
    return LogProgress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        console=Console(stderr=True),
        disable=not enabled,
        transient=True,
    )


def iter_seeds(
    store: KnowledgeStore,
    *,
    hops: tuple[int, int],
    domains: Sequence[str] | None,
    seed: int,
    quota: int | None = None,
) -> Iterator[SeedChain]:
    """Chains in topic order (unnumbered ids are assigned by :func:`generate_seeds`).

    With a ``quota``, a domain that has yielded that many chains waits: its topics come after
    every other domain's, so that domains whose topics yield chains less often (games) still
    get their share of a run that stops at ``n``."""
    lo, hi = hops
    if not 2 <= lo <= hi <= 5:
        raise ConfigError(f"--hops {lo}-{hi} is out of range", hint="use a range within 2-5")
    facts = Facts(store)
    builder = ChainBuilder(facts)
    made: Counter[str] = Counter()
    waiting: list[str] = []
    order = ranked_first(facts, topic_order(store, domains, seed))
    for pass_no, topics in enumerate((order, waiting)):
        for topic in topics:
            dom = store.domain_of(topic) or ""
            if pass_no == 0 and quota is not None and made[dom] >= quota:
                waiting.append(topic)
                continue
            rng = random.Random(f"{seed}:{topic}")
            # longer chains leave room for more ambiguous checkpoints but read worse (blind
            # ratings: two hops 4.6 of 5, four 2.65): half the topics try the longest first.
            # At three in four, the README build kept 258 four-hop samples of 400 and 17
            # hard ones; at one in two 196 and 14 (one in four: 168 and 11; before cutting
            # unneeded hops, builder.ambiguity.trim)
            first = hi if rng.random() < 0.5 else rng.randint(lo, hi)
            path = None
            for length in range(first, lo - 1, -1):
                path = builder.build(topic, length, rng)
                if path is not None:
                    break
            if path is not None:
                made[dom] += 1
                yield to_chain(facts, "", dom, path, builder.certifier)


def generate_seeds(
    store: KnowledgeStore,
    *,
    n: int,
    hops: tuple[int, int] = (2, 4),
    domains: Sequence[str] | None = None,
    seed: int = 0,
    progress: bool = True,
) -> list[SeedChain]:
    """Up to ``n`` verifiable chains (fewer when the snapshot runs out of topics), at most an
    even share per domain while other domains still have topics."""
    out: list[SeedChain] = []
    quota = math.ceil(n / len(domains or DOMAINS))
    with _progress(progress) as bar:
        task = bar.add_task("seeding", total=n)
        for chain in iter_seeds(store, hops=hops, domains=domains, seed=seed, quota=quota):
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
        # (hop 1 may start from a named entity, as the search's anchored options do)
        ev = hop_evidence(facts, spec, prev or spec.anchor or None, key)
        if not ev:
            raise StageError(f"{seed_id} hop {i}: no page that search finds states the fact")
        path.append(Step(Option(spec, key, kind, "given"), ev, {}))
        prev = key
    topic = path[0].opt.answer_key
    return to_chain(facts, seed_id, domain or store.domain_of(topic) or "", path)
