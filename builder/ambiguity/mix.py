"""Choosing which samples a build keeps, to approach the paper's mix.

Injection makes at most one sample per seed chain, with as many ambiguous checkpoints as the
chain offers (up to a draw). Most chains offer one, and most of those a version, so the samples
in seed order are mostly easy and mostly version ambiguity. :func:`select_mix` keeps a subset of
at least ``min_samples`` (each domain keeping at least ``min_per_domain``, or all it has) whose
difficulty and type shares come closest to the paper's (:data:`PAPER_DIFFICULTY`,
:data:`PAPER_TYPES`): it leaves out one sample at a time, always the one whose absence brings the
shares closest, and stops when no absence helps or the floor is reached; then a kept sample
whose question another kept one asks in the same words is swapped for a left-out one of the
same difficulty, types and domain, where there is one. Nothing is changed in the samples kept;
each one left out is a reject (check ``mix``) saying why.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from builder.ambiguity.stats import PAPER_DIFFICULTY, PAPER_TYPES
from builder.records.sample import Sample
from builder.records.seed import Reject

CHECK = "mix"


@dataclass(frozen=True)
class MixTarget:
    """The floor a selection keeps: samples overall and per domain."""

    min_samples: int = 400
    min_per_domain: int = 20


@dataclass
class Selection:
    kept: list[Sample]
    rejects: list[Reject]


def _signature(s: Sample) -> tuple[str, tuple[str, ...]]:
    types = tuple(sorted(c.ambiguity_type for c in s.checkpoints if c.ambiguous))
    return s.difficulty, types


class _Mix:
    """Difficulty and type counts of a set of samples, and their distance to the paper's."""

    def __init__(self, samples: Sequence[Sample]) -> None:
        self.n = len(samples)
        self.difficulty: Counter[str] = Counter(s.difficulty for s in samples)
        self.types: Counter[str] = Counter()
        for s in samples:
            self.types.update(_signature(s)[1])

    def distance(self, without: tuple[str, tuple[str, ...]] | None = None) -> float:
        """L1 distance of the difficulty shares plus that of the type shares (with one sample
        of signature ``without`` left out)."""
        n, diff, types = self.n, self.difficulty.copy(), self.types.copy()
        if without is not None:
            n -= 1
            diff[without[0]] -= 1
            types.subtract(without[1])
        total = sum(types.values())
        if not n or not total:
            return float("inf")
        return sum(abs(diff[k] / n - v) for k, v in PAPER_DIFFICULTY.items()) + sum(
            abs(types[k] / total - v) for k, v in PAPER_TYPES.items()
        )

    def remove(self, sig: tuple[str, tuple[str, ...]]) -> None:
        self.n -= 1
        self.difficulty[sig[0]] -= 1
        self.types.subtract(sig[1])


def _fewer_repeats(
    kept: list[Sample], out: list[Sample], order: list[Sample]
) -> tuple[list[Sample], list[Sample]]:
    """Swap a kept sample whose question another kept sample asks in the same words for a
    left-out one of the same difficulty, types and domain whose question none asks: the
    shares and the domain counts stay exactly as chosen, the benchmark repeats itself less
    (the same vague question seven times, each with its own clue, tells little more than
    once). Kept samples stay in seed order."""
    asked: Counter[str] = Counter(s.question for s in kept)
    spare: dict[tuple[str, tuple[str, ...], str], list[Sample]] = {}
    for s in out:
        spare.setdefault((*_signature(s), s.domain), []).append(s)
    for i in range(len(kept) - 1, -1, -1):
        s = kept[i]
        if asked[s.question] < 2:
            continue
        pool = spare.get((*_signature(s), s.domain), [])
        new = next((o for o in pool if asked[o.question] == 0), None)
        if new is None:
            continue
        pool.remove(new)
        pool.append(s)
        kept[i] = new
        asked[s.question] -= 1
        asked[new.question] += 1
    rank = {id(s): n for n, s in enumerate(order)}
    gone = {id(s) for s in kept}
    return sorted(kept, key=lambda s: rank[id(s)]), [s for s in order if id(s) not in gone]


def select_mix(samples: Sequence[Sample], target: MixTarget | None = None) -> Selection:
    """The samples to keep (in their order) and a reject for each one left out."""
    target = target or MixTarget()
    kept = list(samples)
    mix = _Mix(kept)
    domains: Counter[str] = Counter(s.domain for s in kept)
    out: list[Sample] = []
    while len(kept) > target.min_samples:
        now = mix.distance()
        best: tuple[float, int] | None = None
        seen: set[tuple[str, tuple[str, ...], str]] = set()
        # the last sample of each (signature, domain) stands for its group: deterministic,
        # and the earliest seeds stay
        for i in range(len(kept) - 1, -1, -1):
            s = kept[i]
            sig = _signature(s)
            if (*sig, s.domain) in seen or domains[s.domain] <= target.min_per_domain:
                continue
            seen.add((*sig, s.domain))
            d = mix.distance(sig)
            if d < now - 1e-12 and (best is None or d < best[0] - 1e-12):
                best = (d, i)
        if best is None:
            break
        gone = kept.pop(best[1])
        mix.remove(_signature(gone))
        domains[gone.domain] -= 1
        out.append(gone)
    kept, out = _fewer_repeats(kept, out, list(samples))
    rejects = [
        Reject(
            seed_id=s.provenance.seed_id,
            sample_id=s.id,
            check=CHECK,
            reason="left out to bring difficulty and type shares closer to the paper's",
            detail=f"{s.difficulty}: {', '.join(_signature(s)[1])}; {s.domain}",
        )
        for s in out
    ]
    return Selection(kept=kept, rejects=rejects)
