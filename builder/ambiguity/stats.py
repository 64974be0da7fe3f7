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


def _shares(counts: Counter[str], keys: Iterable[str], total: int) -> dict[str, Share]:
    return {
        k: Share(count=counts[k], share=round(counts[k] / total, 4) if total else 0.0) for k in keys
    }


def table1(samples: Iterable[Sample]) -> Table1Stats:
    items = list(samples)
    n = len(items)
    types: Counter[str] = Counter(
        cp.ambiguity_type for s in items for cp in s.checkpoints if cp.ambiguous
    )
    inst = sum(types.values())
    diff: Counter[str] = Counter(str(s.difficulty) for s in items)
    dom: Counter[str] = Counter(str(s.domain) for s in items)
    hops = Counter(str(len(s.checkpoints)) for s in items)
    return Table1Stats(
        samples=n,
        instances=inst,
        instances_per_sample=round(inst / n, 2) if n else 0.0,
        difficulty=_shares(diff, ("easy", "medium", "hard"), n),
        types=_shares(types, AMBIGUITY_TYPES, inst),
        domains=_shares(dom, DOMAINS, n),
        hops=_shares(hops, sorted(hops), n),
    )
