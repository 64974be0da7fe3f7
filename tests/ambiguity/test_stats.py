"""Table 1 view: counts and shares of samples, instances, difficulty, type, domain."""

from __future__ import annotations

from builder.ambiguity.stats import table1
from builder.records.sample import Checkpoint, Sample, difficulty_for


def _sample(i: int, domain: str, types: list[str], hops: int = 3) -> Sample:
    cps = [
        Checkpoint(index=j + 1, goal="g", answer="a", ambiguous=j < len(types),
                   ambiguity_type=types[j] if j < len(types) else "")  # type: ignore[arg-type]
        for j in range(hops)
    ]  # fmt: skip
    return Sample(id=f"disco-{i:06d}", domain=domain, difficulty=difficulty_for(len(types)),  # type: ignore[arg-type]
                  question="q?", unambiguous_question="q?", answer="a", checkpoints=cps,
                  num_ambiguities=len(types))  # fmt: skip


def test_counts_and_shares() -> None:
    samples = [
        _sample(1, "games", ["entity"]),
        _sample(2, "games", ["entity", "version"]),
        _sample(3, "music", ["criteria", "factual", "entity"], hops=4),
        _sample(4, "law_policy", ["factual"], hops=2),
    ]
    t = table1(samples)
    assert (t.samples, t.instances, t.instances_per_sample) == (4, 7, 1.75)
    assert {k: v.count for k, v in t.difficulty.items()} == {"easy": 2, "medium": 1, "hard": 1}
    assert t.types["entity"].count == 3 and t.types["entity"].share == round(3 / 7, 4)
    assert t.domains["games"].share == 0.5 and t.domains["art"].count == 0
    assert list(t.domains)[:2] == ["film_tv", "games"]
    assert {k: v.count for k, v in t.hops.items()} == {"2": 1, "3": 2, "4": 1}


def test_empty() -> None:
    t = table1([])
    assert t.samples == 0 and t.instances_per_sample == 0.0
    assert all(v.share == 0.0 for v in t.types.values())
