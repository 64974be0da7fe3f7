"""Choosing the samples a build keeps: closer to the paper's mix, never below the floors."""

from __future__ import annotations

from collections import Counter

from builder.ambiguity.mix import MixTarget, select_mix
from builder.ambiguity.stats import table1
from builder.records.sample import Checkpoint, Provenance, Sample, difficulty_for


def _sample(i: int, domain: str, types: list[str]) -> Sample:
    cps = [
        Checkpoint(index=j + 1, goal="g", answer="a", ambiguous=j < len(types),
                   ambiguity_type=types[j] if j < len(types) else "")  # type: ignore[arg-type]
        for j in range(4)
    ]  # fmt: skip
    return Sample(id=f"disco-{i:06d}", domain=domain, difficulty=difficulty_for(len(types)),  # type: ignore[arg-type]
                  question="q?", unambiguous_question="q?", answer="a", checkpoints=cps,
                  num_ambiguities=len(types),
                  provenance=Provenance(seed_id=f"seed-{i:06d}"))  # fmt: skip


def _pool() -> list[Sample]:
    """Mostly easy version samples, as injection makes them, and a few richer ones."""
    out = [_sample(i, "games" if i % 2 else "music", ["version"]) for i in range(40)]
    out += [_sample(100 + i, "music", ["entity", "version"]) for i in range(6)]
    out += [_sample(200 + i, "games", ["factual", "entity", "criteria"]) for i in range(4)]
    return out


def _distance(samples: list[Sample]) -> float:
    t = table1(samples)
    paper_d = {"easy": 0.21, "medium": 0.39, "hard": 0.40}
    paper_t = {"entity": 0.38, "version": 0.235, "criteria": 0.114, "factual": 0.27}
    return sum(abs(t.difficulty[k].share - v) for k, v in paper_d.items()) + sum(
        abs(t.types[k].share - v) for k, v in paper_t.items()
    )


def test_leaving_out_easy_samples_brings_the_mix_closer() -> None:
    pool = _pool()
    got = select_mix(pool, MixTarget(min_samples=20, min_per_domain=5))
    assert len(got.kept) == 20
    assert _distance(got.kept) < _distance(pool)
    # every richer sample stays; what goes are easy version samples
    assert {s.id for s in pool if s.num_ambiguities > 1} <= {s.id for s in got.kept}
    assert {r.sample_id for r in got.rejects} == {s.id for s in pool} - {s.id for s in got.kept}
    assert all(r.check == "mix" and r.detail.startswith("easy: version") for r in got.rejects)
    # kept in their order
    order = [s.id for s in pool]
    assert [s.id for s in got.kept] == sorted((s.id for s in got.kept), key=order.index)


def test_floors_hold() -> None:
    pool = _pool()
    got = select_mix(pool, MixTarget(min_samples=45, min_per_domain=5))
    assert len(got.kept) == 45
    few = [_sample(i, "games", ["version"]) for i in range(3)] + _pool()[:10]
    kept = select_mix(few, MixTarget(min_samples=1, min_per_domain=8)).kept
    assert Counter(s.domain for s in kept)["games"] >= 8


def test_nothing_left_out_when_it_would_not_help_or_the_floor_is_met() -> None:
    pool = _pool()
    assert select_mix(pool, MixTarget(min_samples=len(pool))).kept == pool
    balanced = [_sample(1, "art", ["entity", "version", "factual"])]
    assert select_mix(balanced * 3, MixTarget(min_samples=1)).rejects == []
