"""Choosing the samples a build keeps: closer to the paper's mix, never below the floors."""

from __future__ import annotations

from collections import Counter

from builder.ambiguity.mix import MixTarget, select_mix
from builder.ambiguity.stats import table1
from builder.records.sample import Checkpoint, Provenance, Sample, difficulty_for


def _sample(i: int, domain: str, types: list[str], question: str = "q?") -> Sample:
    cps = [
        Checkpoint(index=j + 1, goal="g", answer="a", ambiguous=j < len(types),
                   ambiguity_type=types[j] if j < len(types) else "")  # type: ignore[arg-type]
        for j in range(4)
    ]  # fmt: skip
    return Sample(id=f"disco-{i:06d}", domain=domain, difficulty=difficulty_for(len(types)),  # type: ignore[arg-type]
                  question=question, unambiguous_question=question, answer="a", checkpoints=cps,
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


def test_a_repeated_question_is_swapped_for_a_left_out_one_of_the_same_kind() -> None:
    """The same vague question asked by several kept samples (each with its own clue) gives
    way to a left-out sample of the same difficulty, types and domain that asks another one;
    the shares and the domain counts stay exactly as the selection chose them."""
    pool = [_sample(i, "games" if i % 2 else "music", ["version"], f"q{i}?") for i in range(40)]
    pool += [_sample(100 + i, "music", ["entity", "version"], f"r{i}?") for i in range(6)]
    # the first eight easy music samples all ask the same words
    for i in range(0, 16, 2):
        pool[i] = _sample(i, "music", ["version"], "When was the winner born?")
    target = MixTarget(min_samples=20, min_per_domain=5, prefer_shorter=False)
    got = select_mix(pool, target)
    asked = Counter(s.question for s in got.kept)
    assert asked["When was the winner born?"] == 1
    assert len(got.kept) == 20 and len(asked) == 20
    # the same shares and domains as without the repeats
    plain = select_mix([_sample(int(s.id[-6:]), s.domain, [c.ambiguity_type for c in s.checkpoints if c.ambiguous], f"u{n}?") for n, s in enumerate(pool)], target)  # fmt: skip
    assert Counter((s.difficulty, s.domain) for s in got.kept) == Counter(
        (s.difficulty, s.domain) for s in plain.kept
    )
    assert {r.sample_id for r in got.rejects} == {s.id for s in pool} - {s.id for s in got.kept}
    order = [s.id for s in pool]
    assert [s.id for s in got.kept] == sorted((s.id for s in got.kept), key=order.index)


def test_of_samples_adding_the_same_to_the_mix_the_shorter_questions_stay() -> None:
    """Long chains read worst: with ``prefer_shorter`` (the default) the samples left out
    to reach the mix are the longest questions of their kind, a repeated question first;
    the difficulty and type shares are those of the plain selection, the floors hold."""
    words = lambda i, n: f"q{i} " + " ".join(["word"] * n) + "?"  # noqa: E731
    pool = [_sample(i, "games" if i % 2 else "music", ["version"], words(i, 4 + i % 7)) for i in range(40)]  # fmt: skip
    pool += [_sample(100 + i, "music", ["entity", "version"], f"r{i}?") for i in range(6)]
    pool[3] = _sample(3, "games", ["version"], "A repeated question?")
    pool[5] = _sample(5, "games", ["version"], "A repeated question?")
    target = MixTarget(min_samples=20, min_per_domain=5)
    got = select_mix(pool, target)
    plain = select_mix(pool, MixTarget(min_samples=20, min_per_domain=5, prefer_shorter=False))
    shares = lambda ss: Counter((s.difficulty, s.num_ambiguities) for s in ss)  # noqa: E731
    assert shares(got.kept) == shares(plain.kept) and len(got.kept) == 20
    assert all(n >= 5 for n in Counter(s.domain for s in got.kept).values())
    easy = [s for s in got.kept if s.num_ambiguities == 1]
    gone = [s for s in pool if s.num_ambiguities == 1 and s not in got.kept]
    # every easy question kept is at most as long as any left out of its domain (a copy of a
    # repeated question goes however short it is)
    gone = [s for s in gone if s.question != "A repeated question?"]
    for d in ("games", "music"):
        kept_d = [len(s.question.split()) for s in easy if s.domain == d]
        gone_d = [len(s.question.split()) for s in gone if s.domain == d]
        assert max(kept_d) <= min(gone_d), d
    assert sum(len(s.question.split()) for s in easy) < sum(
        len(s.question.split()) for s in plain.kept if s.num_ambiguities == 1
    )
    assert Counter(s.question for s in got.kept)["A repeated question?"] <= 1


def test_no_domain_keeps_more_than_its_capped_share() -> None:
    """One domain with many more samples (the snapshot's Nobel laureates) gives up samples
    to the cap before the mix is weighed, each with a reject that says why; the others keep
    theirs."""
    pool = [_sample(i, "academic", ["entity", "version"]) for i in range(60)]
    pool += [_sample(100 + i, d, ["version"]) for i, d in enumerate(["games", "music"] * 10)]
    target = MixTarget(min_samples=30, min_per_domain=5, max_domain_factor=1.5)
    got = select_mix(pool, target)
    kept = Counter(s.domain for s in got.kept)
    assert kept["academic"] <= 15  # 1.5 x an even share of 30 over three domains
    assert len(got.kept) >= 30
    capped = [r for r in got.rejects if "its domain kept more than 15" in r.reason]
    assert capped and all(r.detail.endswith("; academic") for r in capped)
    # without the cap the richer academic samples crowd out the others
    loose = select_mix(pool, MixTarget(min_samples=30, min_per_domain=5, max_domain_factor=99))
    assert Counter(s.domain for s in loose.kept)["academic"] > 15


def test_the_cap_is_the_even_share_times_the_factor() -> None:
    from builder.ambiguity.mix import domain_cap

    assert domain_cap(MixTarget(min_samples=400), 11) == 80  # 2.2 x 400 / 11, not 81
    assert domain_cap(MixTarget(min_samples=400, min_per_domain=90), 11) == 90


def _in_band(samples: list[Sample]) -> bool:
    t = table1(samples)
    paper_t = {"entity": 0.38, "version": 0.235, "criteria": 0.114, "factual": 0.27}
    return all(abs(t.types[k].share - v) <= 0.08 for k, v in paper_t.items())


def test_a_type_share_outside_its_band_weighs_more_than_difficulty() -> None:
    """Medium samples of two versions bring difficulty closer but push version above its
    band and entity below it: the selection leaves them out, where the plain distance (no
    band weight) keeps some and ends with two types outside."""
    pool = [_sample(i, "music", ["entity"]) for i in range(6)]
    pool += [_sample(100 + i, "music", ["factual"]) for i in range(7)]
    pool += [_sample(200 + i, "music", ["criteria"]) for i in range(3)]
    pool += [_sample(300 + i, "music", ["version", "version"]) for i in range(8)]
    pool += [_sample(400 + i, "music", ["version"]) for i in range(4)]
    plain = select_mix(pool, MixTarget(min_samples=18, min_per_domain=1, outside_weight=0.0))
    assert not _in_band(plain.kept)
    assert any(s.difficulty == "medium" for s in plain.kept)
    banded = select_mix(pool, MixTarget(min_samples=18, min_per_domain=1))
    assert _in_band(banded.kept)
    assert len(banded.kept) == 18
    # every entity sample stays: entity is the scarce type
    assert {s.id for s in pool[:6]} <= {s.id for s in banded.kept}
