"""The injection stage: seeds in, samples with 1–4 ambiguous checkpoints out, rejects aside.

Per seed, every registered injector proposes ambiguous versions of every hop; proposals that
fail a check become rejects. Every hop that has a proposal is made ambiguous (up to four),
each taking the type furthest below its paper share so far (uses over the share in
:data:`builder.ambiguity.stats.PAPER_TYPES`, so the types approach the paper's), and the assembled
sample must pass all eight checks (but those in ``skip_checks``); when it does not, fewer
ambiguities are tried.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn

from builder.ambiguity import registry
from builder.ambiguity.assemble import assemble, sample_id
from builder.ambiguity.base import ChainContext, Failure, Proposal
from builder.ambiguity.checks import run_checks
from builder.ambiguity.mix import MixTarget, select_mix
from builder.ambiguity.stats import PAPER_TYPES
from builder.ambiguity.trim import shorten
from builder.kb.store import KnowledgeStore
from builder.progress import LogProgress
from builder.records.sample import Provenance, Sample
from builder.records.seed import Reject, SeedChain
from builder.seeding.facts import Facts
from builder.validity.certify import Certifier, Refusal

if TYPE_CHECKING:
    from builder.ambiguity.paraphrase import Paraphraser, ParaphraseResult

# a sample takes as many ambiguous checkpoints as its chain offers, up to this many: most chains
# offer one or two, so every one is needed for the paper's 21/39/40 % (easy/medium/hard), which
# the build then approaches by choosing samples (builder.ambiguity.mix)
MAX_AMBIGUITIES = 4


@dataclass
class InjectResult:
    samples: list[Sample] = field(default_factory=list)
    rejects: list[Reject] = field(default_factory=list)
    paraphrased: ParaphraseResult | None = None
    shortened: int = 0
    """Samples whose chain was cut to the hops their ambiguities need."""


def provenance_for(store: KnowledgeStore, created_at: str | None) -> Provenance:
    version = store.get_meta("snapshot_version") or ""
    return Provenance(
        snapshot_id=store.get_meta("snapshot_id") or "",
        snapshot_version=version,
        created_at=created_at or store.get_meta("created_at") or version,
    )


class Injection:
    """State of one run: the balance of types and the rejects so far."""

    def __init__(
        self,
        store: KnowledgeStore,
        types: Sequence[str] | None,
        seed: int,
        created_at: str | None,
        skip_checks: Collection[str] = (),
    ) -> None:
        self.store = store
        self.facts = Facts(store)
        self.certifier = Certifier.from_settings(self.facts)
        self.injectors = registry.get(types)
        self.types = [i.name for i in self.injectors]
        self.seed = seed
        self.used: Counter[str] = Counter()
        self.provenance = provenance_for(store, created_at)
        self.rejects: list[Reject] = []
        self._seen: set[str] = set()
        self.skip_checks = tuple(skip_checks)

    def _reject(
        self, chain: SeedChain, check: str, reason: str, detail: str, sid: str = ""
    ) -> None:
        rej = Reject(seed_id=chain.id, sample_id=sid, check=check, reason=reason, detail=detail)
        if rej.model_dump_json() not in self._seen:
            self._seen.add(rej.model_dump_json())
            self.rejects.append(rej)

    def proposals(self, ctx: ChainContext) -> dict[int, list[Proposal]]:
        out: dict[int, list[Proposal]] = {}
        for hop in range(len(ctx.specs)):
            for injector in self.injectors:
                for got in injector.propose(ctx, hop):
                    if isinstance(got, Failure):
                        self._reject(
                            ctx.seed,
                            got.check,
                            f"{got.type} at hop {hop + 1}: {got.reason}",
                            got.detail,
                        )
                    elif (cert := self._certify(ctx, hop, got)) is not None:
                        out.setdefault(hop, []).append(cert)
        return out

    def _certify(self, ctx: ChainContext, hop: int, prop: Proposal) -> Proposal | None:
        """The proposal with its certificate, or None (a reject) when the ambiguity is not
        real in the world: candidates, clue or false detail not evaluated over a complete set."""
        got = self.certifier.ambiguous(ctx.specs[hop], prop.injection, ctx.prev(hop), ctx.keys[hop])
        if isinstance(got, Refusal):
            kind = prop.injection.type
            self._reject(
                ctx.seed, "certified", f"{kind} at hop {hop + 1}: {got.reason}", got.detail
            )
            return None
        shown = {c.id for c in prop.candidates}
        # a version's store candidates may reach beyond a declared range: the range must be in
        if got.matches and not (
            set(got.matches) <= shown
            if prop.injection.type == "version"
            else set(got.matches) == shown
        ):
            self._reject(
                ctx.seed,
                "certified",
                f"{prop.injection.type} at hop {hop + 1}: candidates_outside_set",
                f"store fits {len(prop.candidates)}, complete set {len(got.matches)}",
            )
            return None
        return replace(prop, certificate=got)

    def behind(self, kind: str, local: Counter[str]) -> float:
        """How far ``kind`` is ahead of its paper share so far: its uses over that share."""
        share = PAPER_TYPES.get(kind) or 1 / len(self.types)
        return (self.used[kind] + local[kind]) / share

    def _choose(
        self, options: dict[int, list[Proposal]], k: int, rng: random.Random
    ) -> dict[int, Proposal]:
        hops = sorted(rng.sample(sorted(options), k))
        chosen: dict[int, Proposal] = {}
        local: Counter[str] = Counter()
        for hop in hops:
            props = options[hop]
            # sorted first: the RNG must be drawn in a fixed order (set order varies by process)
            kinds = sorted({p.injection.type for p in props})
            ties = {t: rng.random() for t in kinds}
            by_type = sorted(kinds, key=lambda t: (self.behind(t, local), ties[t]))
            pick = [p for p in props if p.injection.type == by_type[0]]
            chosen[hop] = pick[rng.randrange(len(pick))]
            local[by_type[0]] += 1
        return chosen

    def one(self, chain: SeedChain) -> Sample | None:
        rng = random.Random(f"{self.seed}:{chain.id}")
        ctx = ChainContext(self.facts, chain, rng, self.certifier)
        options = self.proposals(ctx)
        if not options:
            self._reject(
                chain,
                "inject",
                "no checkpoint admits an ambiguity",
                f"hops={len(chain.hops)} types={self.types}",
            )
            return None
        for k in range(min(MAX_AMBIGUITIES, len(options)), 0, -1):
            chosen = self._choose(options, k, rng)
            sample = assemble(
                ctx, chosen, provenance=self.provenance, seed=self.seed, types=self.types
            )
            report = run_checks(
                self.store,
                sample,
                facts=self.facts,
                certifier=self.certifier,
                skip=self.skip_checks,
            )
            if report.passed:
                self.used.update(p.injection.type for p in chosen.values())
                return sample
            for r in report.failed():
                self._reject(
                    chain,
                    r.name,
                    f"sample with {k} ambiguities failed {r.name}",
                    r.detail,
                    sample_id(chain.id),
                )
        return None

    def trial(self, chain: SeedChain) -> Sample | None:
        """:meth:`one` on a chain cut from a seed whose sample already stands: its rejects are
        not the seed's (the seed has its sample) and its types do not count twice."""
        rejects, seen, used = list(self.rejects), set(self._seen), self.used.copy()
        try:
            return self.one(chain)
        finally:
            self.rejects, self._seen, self.used = rejects, seen, used


def inject(
    store: KnowledgeStore,
    seeds: Sequence[SeedChain],
    *,
    types: Sequence[str] | None = None,
    seed: int = 0,
    progress: bool = True,
    created_at: str | None = None,
    paraphraser: Paraphraser | None = None,
    skip_checks: Collection[str] = (),
    mix: MixTarget | None = None,
    shorten_chains: bool = False,
) -> InjectResult:
    """Samples from seed chains; every failure is a reject with its check and numbers.

    With ``mix``, samples are left out (each a reject) to bring the difficulty and type shares
    closer to the paper's while the target's floor remains (see :mod:`builder.ambiguity.mix`).
    With a ``paraphraser``, question texts are rewritten by an LLM where the rewrite keeps
    the checks passing (see :mod:`builder.ambiguity.paraphrase`). ``skip_checks`` leaves
    checks out of the filter (``benchmarks/oracle_reach.py`` measures ``oracle_solvable``
    on what the others let through). With ``shorten_chains``, a sample whose chain has hops
    its ambiguities do not need is made again from the cut chain, where that one passes
    every check with the same ambiguity types (see :mod:`builder.ambiguity.trim`), before
    the mix chooses."""
    run = Injection(store, types, seed, created_at, skip_checks)
    result = InjectResult()
    bar = LogProgress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        console=Console(stderr=True),
        disable=not progress,
        transient=True,
    )
    with bar:
        task = bar.add_task("injecting", total=len(seeds))
        for chain in seeds:
            sample = run.one(chain)
            if sample is not None:
                result.samples.append(sample)
            bar.advance(task)
    result.rejects = run.rejects
    if shorten_chains:
        # before the mix, so that it sees each sample as it will read: a chain whose cut is
        # refused (its question asked already: many chains reach "In 1957, who was the head
        # of government of the largest country by area bordering the United States?") keeps
        # its four hops, and the mix prefers a shorter sample of the same kind to it
        result.samples, result.shortened = shorten(
            run.facts,
            result.samples,
            {c.id: c for c in seeds},
            run.trial,
            certifier=run.certifier,
        )
    if mix is not None:
        chosen = select_mix(result.samples, mix)
        result.samples = chosen.kept
        result.rejects = [*result.rejects, *chosen.rejects]
        if shorten_chains:
            hops = {c.id: len(c.hops) for c in seeds}
            result.shortened = sum(
                len(s.checkpoints) < hops.get(s.provenance.seed_id, 0) for s in result.samples
            )
    if paraphraser is not None:
        result.paraphrased = paraphraser.apply(store, result.samples)
        result.samples = result.paraphrased.samples
    return result
