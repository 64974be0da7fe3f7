"""Choosing which samples a build keeps, to approach the paper's mix.

Injection makes at most one sample per seed chain, with as many ambiguous checkpoints as the
chain offers (up to a draw). Most chains offer one, and most of those a version, so the samples
in seed order are mostly easy and mostly version ambiguity. :func:`select_mix` keeps a subset of
at least ``min_samples`` (each domain keeping at least ``min_per_domain``, or all it has, and
at most ``max_domain_factor`` times its even share of ``min_samples``) whose difficulty and
type shares come closest to the paper's (:data:`PAPER_DIFFICULTY`, :data:`PAPER_TYPES`; a type
share outside the allowed band counting many times over): it leaves out one sample at a time,
always the one whose absence brings the shares closest, and stops when no absence helps or the
floor is reached; then a kept sample whose question another kept one asks in the same words,
and then (``prefer_shorter``) one whose question is longer, is swapped for a left-out one of
the same difficulty, types and domain, where there is one. Nothing is changed in the samples
kept; each one left out is a reject (check ``mix``) saying why.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from builder.ambiguity.stats import PAPER_DIFFICULTY, PAPER_TYPES
from builder.records.sample import Sample
from builder.records.seed import Reject

CHECK = "mix"
# the tolerance the benchmark allows around the paper's type shares (issue 10: +- 8 points)
TYPE_BAND = 0.08


@dataclass(frozen=True)
class MixTarget:
    """The floor a selection keeps: samples overall and per domain."""

    min_samples: int = 400
    min_per_domain: int = 20
    max_domain_factor: float = 2.2
    """No domain keeps more than this many times its even share of ``min_samples`` (while
    above the floor): the bundled snapshot has many more Nobel laureates than games, and a
    benchmark a third academic says less about the other ten domains."""
    outside_weight: float = 10.0
    """How much more a type share's point beyond :data:`TYPE_BAND` weighs than one inside it:
    a type outside its band is a mix the benchmark refuses, a point nearer the centre inside
    it a nicety (the bundled build: entity 29.6 -> 30.4 %, version 31.8 -> 30.6 %, all four
    inside, for hard 4.2 -> 2.0 %). Difficulty has no band weight: the snapshot's chains
    offer too few medium and hard samples to reach easy 21 +- 10 %, and weighing it kept
    four-hop chains for two-hop ones (easy 56.5 -> 46.8 %, four-hop questions 142 -> 171,
    entity down to 27.8 %), the questions that read worst."""
    prefer_shorter: bool = True
    """Of samples adding the same to the mix, keep the shorter questions (see
    :func:`_swap_within_groups`)."""


@dataclass
class Selection:
    kept: list[Sample]
    rejects: list[Reject]


def signature(s: Sample) -> tuple[str, tuple[str, ...]]:
    """What a sample adds to the mix: its difficulty and its ambiguity types."""
    types = tuple(sorted(c.ambiguity_type for c in s.checkpoints if c.ambiguous))
    return s.difficulty, types


class _Mix:
    """Difficulty and type counts of a set of samples, and their distance to the paper's."""

    def __init__(self, samples: Sequence[Sample], outside_weight: float = 0.0) -> None:
        self.outside_weight = outside_weight
        self.n = len(samples)
        self.difficulty: Counter[str] = Counter(s.difficulty for s in samples)
        self.types: Counter[str] = Counter()
        for s in samples:
            self.types.update(signature(s)[1])

    def distance(self, without: tuple[str, tuple[str, ...]] | None = None) -> float:
        """L1 distance of the difficulty shares plus that of the type shares (with one sample
        of signature ``without`` left out), a type share's distance beyond the issue's band
        (:data:`TYPE_BAND`) weighing ``outside_weight`` more."""
        n, diff, types = self.n, self.difficulty.copy(), self.types.copy()
        if without is not None:
            n -= 1
            diff[without[0]] -= 1
            types.subtract(without[1])
        total = sum(types.values())
        if not n or not total:
            return float("inf")
        gaps = [abs(types[k] / total - v) for k, v in PAPER_TYPES.items()]
        return sum(abs(diff[k] / n - v) for k, v in PAPER_DIFFICULTY.items()) + sum(
            gap + self.outside_weight * max(0.0, gap - TYPE_BAND) for gap in gaps
        )

    def remove(self, sig: tuple[str, tuple[str, ...]]) -> None:
        self.n -= 1
        self.difficulty[sig[0]] -= 1
        self.types.subtract(sig[1])


def _words(s: Sample) -> int:
    return len(s.question.split())


def _swap_within_groups(
    kept: list[Sample], out: list[Sample], order: list[Sample], prefer_shorter: bool
) -> tuple[list[Sample], list[Sample]]:
    """Swap kept samples for left-out ones of the same difficulty, types and domain, so that
    the shares and the domain counts stay exactly as chosen:

    1. a kept sample whose question another kept sample asks in the same words, for one whose
       question none asks (the same vague question seven times, each with its own clue, tells
       little more than once);
    2. with ``prefer_shorter``, a kept sample for one whose question is shorter, longest
       first: long chains read worst ("When was the head of state of the home country of the
       … born?"; in a blind rating of the bundled build, questions of two hops scored 4.5 of
       5, of four hops 2.4), and a question's length is what a reader sees of its chain.

    Kept samples stay in seed order."""
    asked: Counter[str] = Counter(s.question for s in kept)
    spare: dict[tuple[str, tuple[str, ...], str], list[Sample]] = {}
    for s in out:
        spare.setdefault((*signature(s), s.domain), []).append(s)

    def swap(i: int, pool: list[Sample], new: Sample) -> None:
        old = kept[i]
        pool.remove(new)
        pool.append(old)
        kept[i] = new
        asked[old.question] -= 1
        asked[new.question] += 1

    for i in range(len(kept) - 1, -1, -1):
        s = kept[i]
        if asked[s.question] < 2:
            continue
        pool = spare.get((*signature(s), s.domain), [])
        fresh = [o for o in pool if asked[o.question] == 0]
        if fresh:
            swap(i, pool, min(fresh, key=_words) if prefer_shorter else fresh[0])
    if prefer_shorter:
        for i in sorted(range(len(kept)), key=lambda i: -_words(kept[i])):
            s = kept[i]
            pool = spare.get((*signature(s), s.domain), [])
            shorter = [o for o in pool if asked[o.question] == 0 and _words(o) < _words(s)]
            if shorter:
                swap(i, pool, min(shorter, key=_words))
    rank = {id(s): n for n, s in enumerate(order)}
    gone = {id(s) for s in kept}
    return sorted(kept, key=lambda s: rank[id(s)]), [s for s in order if id(s) not in gone]


def domain_cap(target: MixTarget, n_domains: int) -> int:
    """The most samples one domain keeps while others could take its place."""
    share = target.max_domain_factor * target.min_samples / max(1, n_domains)
    return max(target.min_per_domain, math.ceil(share - 1e-9))  # 2.2 * 400 / 11 is 80.00…01


def select_mix(samples: Sequence[Sample], target: MixTarget | None = None) -> Selection:
    """The samples to keep (in their order) and a reject for each one left out."""
    target = target or MixTarget()
    kept = list(samples)
    mix = _Mix(kept, target.outside_weight)
    domains: Counter[str] = Counter(s.domain for s in kept)
    asked: Counter[str] = Counter(s.question for s in kept)
    out: list[Sample] = []
    capped: set[str] = set()

    # one sample stands for each (signature, domain) group, as all leave the same shares:
    # with prefer_shorter the one whose question another kept sample also asks, else the one
    # with the longest question (ties: the last); without, the last (the earliest seeds
    # stay); deterministic. Of groups whose absence helps as much, the one whose stand-in is
    # repeated, then longer, goes
    def rank(s: Sample) -> tuple[int, int]:
        return (int(asked[s.question] > 1), _words(s)) if target.prefer_shorter else (0, 0)

    cap = domain_cap(target, len(domains))
    while len(kept) > target.min_samples:
        # a domain over its cap loses samples first, the one whose absence hurts the mix least
        over = {d for d, n in domains.items() if n > cap}
        now = float("inf") if over else mix.distance()
        best: tuple[float, int, tuple[int, int]] | None = None
        stand: dict[tuple[str, tuple[str, ...], str], int] = {}
        for i in range(len(kept) - 1, -1, -1):
            s = kept[i]
            if domains[s.domain] <= target.min_per_domain or (over and s.domain not in over):
                continue
            key = (*signature(s), s.domain)
            j = stand.get(key)
            if j is None or rank(s) > rank(kept[j]):
                stand[key] = i
        for i in sorted(stand.values(), reverse=True):
            d = mix.distance(signature(kept[i]))
            r = rank(kept[i])
            if d < now - 1e-12 and (
                best is None or d < best[0] - 1e-12 or (d <= best[0] + 1e-12 and r > best[2])
            ):
                best = (d, i, r)
        if best is None:
            break
        gone = kept.pop(best[1])
        if over:
            capped.add(gone.id)
        mix.remove(signature(gone))
        domains[gone.domain] -= 1
        asked[gone.question] -= 1
        out.append(gone)
    kept, out = _swap_within_groups(kept, out, list(samples), target.prefer_shorter)
    rejects = [
        Reject(
            seed_id=s.provenance.seed_id,
            sample_id=s.id,
            check=CHECK,
            reason=(
                f"left out: its domain kept more than {cap} samples"
                if s.id in capped
                else "left out to bring difficulty and type shares closer to the paper's"
            ),
            detail=f"{s.difficulty}: {', '.join(signature(s)[1])}; {s.domain}",
        )
        for s in out
    ]
    return Selection(kept=kept, rejects=rejects)
