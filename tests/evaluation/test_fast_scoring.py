"""The fast scoring path (``read_for_scoring`` + ``score``, memoized matching) against the
plain reference (tests/evaluation/reference_scorer.py, full records, plain ``match``) on
varied generated trajectories, and malformed lines reported with their line numbers."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from builder.errors import InputError
from builder.evaluation import read_trajectories, score
from builder.evaluation.io import read_for_scoring
from builder.evaluation.matching import Matcher, _skeleton, match, normalize
from builder.records.sample import Sample
from builder.synthetic import make_sample
from tests.evaluation.reference_scorer import reference_score

# characters that exercise every step of normalize: articles' letters, case, punctuation
# next to articles, underscores (word characters that are dropped), digits, whitespace
# variants (\x1c is whitespace to str.split), NFKC (fullwidth, ligature, superscript) and
# casefold (ß) and letters kept with accents
_ALPHABET = [*"aanntheTHEA bcxyz019-_'.,\t\x1c", "Ｔ", "ﬁ", "²", "ß", "é", "İ"]
_WORDS = ["the", "a", "an", "The", "A", "Zelda", "breath", "of", "wild", "1998", "BotW", "-"]


def _random_string(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return "".join(rng.choice(_ALPHABET) for _ in range(rng.randint(0, 8)))
    sep = rng.choice([" ", "  ", "-", " - ", "_", "\t"])
    return sep.join(rng.choice(_WORDS) for _ in range(rng.randint(1, 4)))


def _variant(s: str, rng: random.Random) -> str:
    """A string likely to normalize like ``s`` (or nearly)."""
    ops = [
        str.upper,
        str.lower,
        lambda x: f"The {x}",
        lambda x: f"{x}!",
        lambda x: f"  {x} ",
        lambda x: x.replace(" ", "  "),
        lambda x: x.replace("-", ""),
        lambda x: x + "s",
    ]
    return rng.choice(ops)(s)


def test_skeleton_is_what_normalize_keeps_of_an_ascii_string() -> None:
    rng = random.Random(1)
    keep = set("0123456789bcdfgijklmopqrsuvwxyz")
    for _ in range(3000):
        s = _random_string(rng)
        if not s.isascii():
            assert _skeleton(s) is None
            continue
        assert _skeleton(s) == "".join(c for c in normalize(s) if c in keep).encode()


def test_matcher_agrees_with_match() -> None:
    rng = random.Random(2)
    shared = Matcher()  # memo filled across calls, as in one scoring pass
    for _ in range(6000):
        gold = _random_string(rng)
        aliases = [_random_string(rng) for _ in range(rng.randint(0, 2))]
        roll = rng.random()
        pred: str | None
        if roll < 0.25:
            pred = gold
        elif roll < 0.5:
            pred = _variant(gold, rng)
        elif roll < 0.6 and aliases:
            pred = _variant(aliases[0], rng)
        elif roll < 0.65:
            pred = None
        else:
            pred = _random_string(rng)
        want = match(pred, gold, aliases)
        assert shared.match(pred, gold, aliases) == want, (pred, gold, aliases)
        assert Matcher().match(pred, gold, aliases) == want, (pred, gold, aliases)


def _samples(rng: random.Random) -> list[Sample]:
    samples = [make_sample(i) for i in range(40)]
    # awkward gold strings (articles, case, unicode) and one sample whose checkpoint indexes
    # repeat (nothing forbids it; both scorers must treat it alike)
    odd = make_sample(40)
    cps = [c.model_copy(update={"answer": _random_string(rng) or "x"}) for c in odd.checkpoints]
    cps[0] = cps[0].model_copy(
        update={"answer": "The Legend of Zelda", "answer_aliases": ["Ｚelda"]}
    )
    samples.append(odd.model_copy(update={"checkpoints": cps, "answer": cps[-1].answer}))
    dup = make_sample(41)
    dcps = list(dup.checkpoints)
    dcps[1] = dcps[1].model_copy(update={"index": dcps[0].index})
    samples.append(dup.model_copy(update={"checkpoints": dcps}))
    return samples


def _prediction(gold: str, aliases: list[str], rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.35:
        return gold
    if roll < 0.55:
        return _variant(gold, rng)
    if roll < 0.65 and aliases:
        return rng.choice(aliases)
    if roll < 0.7:
        return ""
    return rng.choice(["wrong", "The", "Ｔｏｋｙｏ", _random_string(rng)])


def _event(sample: Sample, rng: random.Random) -> dict[str, Any]:
    roll = rng.random()
    if roll < 0.4:
        return {
            "type": "search",
            "query": "q",
            "results": [{"title": "t", "url": "", "snippet": ""}],
        }
    if roll < 0.7:
        ev: dict[str, Any] = {"type": "ask", "question": rng.choice(sample.checkpoints).goal}
        t = rng.random()
        if t < 0.5:
            ev["target"] = rng.choice(sample.checkpoints).index
        elif t < 0.65:
            ev["target"] = None
        elif t < 0.75:
            ev["target"] = 99  # names no checkpoint
        return ev  # else: no target key, assigned by the default matcher
    if roll < 0.8:
        return {"type": rng.choice(["think", "tool_error", "model"]), "detail": "x"}
    stated: dict[str, str] = {}
    for c in sample.checkpoints:
        if rng.random() < 0.8:
            stated[str(c.index)] = _prediction(c.answer, c.answer_aliases, rng)
    ev = {"type": "answer", "answer": _prediction(sample.answer, sample.answer_aliases, rng)}
    if rng.random() < 0.85:
        ev["checkpoints"] = stated
    return ev


def _lines(samples: list[Sample], rng: random.Random) -> list[dict[str, Any]]:
    run = {"agent": "a", "setting": "neutral", "ablation": "none"}
    if rng.random() < 0.3:
        run["seed"] = 7  # an extra run field: still one run
    lines = []
    for s in samples:
        for _ in range(rng.choice([0, 1, 1, 1, 2])):  # missing, once, superseded
            line: dict[str, Any] = {
                "sample_id": s.id,
                "run": run,
                "events": [_event(s, rng) for _ in range(rng.randint(0, 7))],
            }
            if rng.random() < 0.8:
                line["usage"] = {"input_tokens": rng.randint(0, 99), "output_tokens": 3}
            if rng.random() < 0.1:
                line["error"] = "boom"
            lines.append(line)
    lines.append({"sample_id": "not-in-the-dataset", "run": run})
    rng.shuffle(lines)
    return lines


@pytest.mark.parametrize("seed", range(12))
def test_fast_path_scores_exactly_like_the_reference(seed: int, tmp_path: Path) -> None:
    rng = random.Random(seed)
    samples = _samples(rng)
    path = tmp_path / "t.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in _lines(samples, rng)))
    heavy = 1 + seed % 4
    want = reference_score(samples, read_trajectories(path), heavy_search=heavy)
    assert score(samples, read_for_scoring(path), heavy_search=heavy) == want
    assert score(samples, read_trajectories(path), heavy_search=heavy) == want


def test_two_runs_for_one_sample_is_an_error_in_both(tmp_path: Path) -> None:
    samples = [make_sample(0)]
    path = tmp_path / "t.jsonl"
    lines = [{"sample_id": samples[0].id, "run": {"agent": a}} for a in ("x", "y")]
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    for scorer, reader in ((score, read_for_scoring), (reference_score, read_trajectories)):
        with pytest.raises(InputError, match="2 different runs"):
            scorer(samples, reader(path))  # type: ignore[operator]


def test_a_field_the_metrics_ignore_is_read_as_the_full_record_reads_it(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    line = {
        "sample_id": "disco-000000",
        "events": [
            {"type": "think", "target": "the second one", "answer": 3},  # not ask/answer
            {"type": "answer", "answer": "answer 0-2"},
        ],
    }
    path.write_text(json.dumps(line) + "\n")
    samples = [make_sample(0)]
    m = score(samples, read_for_scoring(path))
    assert m == reference_score(samples, read_trajectories(path)) and m.accuracy == 1.0


GOOD = json.dumps({"sample_id": "a", "events": [{"type": "search", "query": "q"}]})


@pytest.mark.parametrize(
    ("bad", "field"),
    [
        ('{"sample_id": ', None),
        ('{"events": []}', "sample_id"),
        ('{"sample_id": "a", "events": [{"type": "ask"}]}', "question"),
        (
            '{"sample_id": "a", "events": [{"type": "search", "query": "q"}, {"type": "answer"}]}',
            "answer",
        ),
        ('{"sample_id": "a", "events": [{"type": "answer", "answer": null}]}', "answer"),
        (
            '{"sample_id": "a", "events": [{"type": "ask", "question": "q", "target": "x"}]}',
            "target",
        ),
        ('{"sample_id": "a", "usage": {"input_tokens": "many"}}', "input_tokens"),
        ('{"sample_id": "a", "events": {"type": "search"}}', "events"),
        ('{"sample_id": "a", "error": 3}', "error"),
    ],
)
def test_malformed_lines_are_named_by_file_line_and_field(
    bad: str, field: str | None, tmp_path: Path
) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text(f"{GOOD}\n\n{GOOD}\n{bad}\n{GOOD}\n")  # the bad line is line 4
    for reader in (read_for_scoring, read_trajectories):
        with pytest.raises(InputError) as info:
            reader(path)
        text = str(info.value)
        assert "t.jsonl:4" in text, (reader.__name__, text)
        if field is not None:
            assert field in text, (reader.__name__, text)
