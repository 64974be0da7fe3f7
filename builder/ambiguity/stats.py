"""The paper's Table 1 view of a samples file: counts and shares."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict, Field

from builder.records.sample import AMBIGUITY_TYPES, DOMAINS, Sample


class Share(BaseModel):
    model_config = ConfigDict(extra="forbid")

    count: int
    share: float = Field(description="Fraction of the total (0-1).")


class Table1Stats(BaseModel):
    """Samples, ambiguity instances, and their split by difficulty, type and domain."""

    model_config = ConfigDict(extra="forbid")

    samples: int
    instances: int
    instances_per_sample: float
    difficulty: dict[str, Share]
    types: dict[str, Share]
    domains: dict[str, Share]
    hops: dict[str, Share]
    certificates: dict[str, Share] = Field(
        default_factory=dict,
        description="Checkpoints by certificate basis (none: not certified).",
    )


# the paper's shares (211 samples, 463 instances), shown beside ours by `discobench stats`
PAPER_DIFFICULTY = {"easy": 0.21, "medium": 0.39, "hard": 0.40}
PAPER_TYPES = {"entity": 0.38, "version": 0.235, "criteria": 0.114, "factual": 0.27}
PAPER_INSTANCES_PER_SAMPLE = 2.2
BASES = ("single_value", "complete_set", "live_count", "none")


def _shares(counts: Counter[str], keys: Iterable[str], total: int) -> dict[str, Share]:
    return {
        k: Share(count=counts[k], share=round(counts[k] / total, 4) if total else 0.0) for k in keys
    }


class Table1Counter:
    """Counts Table 1 one sample at a time, so callers that stream (the export) need not
    hold every sample in memory."""

    def __init__(self) -> None:
        self.n = 0
        self.types: Counter[str] = Counter()
        self.difficulty: Counter[str] = Counter()
        self.domains: Counter[str] = Counter()
        self.hops: Counter[str] = Counter()
        self.bases: Counter[str] = Counter()

    def add(self, sample: Sample) -> None:
        self.n += 1
        self.types.update(cp.ambiguity_type for cp in sample.checkpoints if cp.ambiguous)
        self.difficulty[str(sample.difficulty)] += 1
        self.domains[str(sample.domain)] += 1
        self.hops[str(len(sample.checkpoints))] += 1
        self.bases.update(cp.certificate.basis or "none" for cp in sample.checkpoints)

    def result(self) -> Table1Stats:
        n, inst = self.n, sum(self.types.values())
        return Table1Stats(
            samples=n,
            instances=inst,
            instances_per_sample=round(inst / n, 2) if n else 0.0,
            difficulty=_shares(self.difficulty, ("easy", "medium", "hard"), n),
            types=_shares(self.types, AMBIGUITY_TYPES, inst),
            domains=_shares(self.domains, DOMAINS, n),
            hops=_shares(self.hops, sorted(self.hops), n),
            certificates=_shares(self.bases, BASES, sum(self.bases.values())),
        )


def table1(samples: Iterable[Sample]) -> Table1Stats:
    counter = Table1Counter()
    for sample in samples:
        counter.add(sample)
    return counter.result()
