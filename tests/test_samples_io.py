"""samples_io: JSONL round trips, atomic writes, and errors that name file:line and field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from builder.errors import InputError
from builder.records.sample import Checkpoint, Sample
from builder.records.seed import Hop, HopSpec, Reject, SeedChain
from builder.samples_io import (
    read_rejects,
    read_samples,
    read_seeds,
    write_rejects,
    write_samples,
    write_seeds,
)


def _sample(i: int) -> Sample:
    return Sample(
        id=f"disco-{i:06d}",
        domain="games",
        difficulty="easy",
        question="Which company made the game?",
        unambiguous_question="Which company made the 2017 game?",
        answer="Nintendo",
        checkpoints=[Checkpoint(index=1, goal="Which game?", answer="Nintendo")],
        num_ambiguities=1,
    )


def test_samples_round_trip_and_blank_lines(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    assert write_samples(path, [_sample(1), _sample(2)]) == 2
    text = path.read_text()
    path.write_text("\n" + text.replace("\n", "\n\n"))
    got = list(read_samples(path))
    assert [s.id for s in got] == ["disco-000001", "disco-000002"]
    assert got[0] == _sample(1)


def test_seeds_and_rejects_round_trip(tmp_path: Path) -> None:
    seed = SeedChain(
        id="seed-000001",
        domain="music",
        topic_id="Q1",
        hops=[Hop(index=1, spec=HopSpec(), goal="Which album?", answer="X", answer_key="Q1")],
    )
    write_seeds(tmp_path / "seeds.jsonl", [seed])
    assert list(read_seeds(tmp_path / "seeds.jsonl")) == [seed]
    rej = Reject(seed_id="seed-000001", check="ambiguous", reason="one fits", detail="fit=1")
    write_rejects(tmp_path / "r.jsonl", [rej])
    assert list(read_rejects(tmp_path / "r.jsonl")) == [rej]


def test_bad_field_names_line_and_field_path(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    good = _sample(1).model_dump(mode="json")
    bad = _sample(2).model_dump(mode="json")
    bad["checkpoints"][0]["index"] = 0
    path.write_text(json.dumps(good) + "\n\n" + json.dumps(bad) + "\n")
    with pytest.raises(InputError) as info:
        list(read_samples(path))
    msg = str(info.value)
    assert f"{path}:3" in msg
    assert "checkpoints[0].index" in msg
    assert "hint" in msg


def test_bad_json_names_line(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text(_sample(1).model_dump_json() + "\n{oops\n")
    with pytest.raises(InputError, match=r"s\.jsonl:2.*not valid JSON"):
        list(read_samples(path))


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such sample file"):
        list(read_samples(tmp_path / "nope.jsonl"))


def test_atomic_write_keeps_old_file_on_failure(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    write_samples(path, [_sample(1)])
    before = path.read_text()

    def broken() -> object:
        yield _sample(2)
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        write_samples(path, broken())  # type: ignore[arg-type]
    assert path.read_text() == before
    assert [p.name for p in tmp_path.iterdir()] == ["s.jsonl"]
