"""Dataset and trajectory readers: every bad input is an error naming file, line or field."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from builder.errors import InputError
from builder.evaluation.io import iter_trajectories, load_dataset, read_done
from builder.samples_io import write_samples
from tests.evaluation.factories import three_samples


def test_duplicate_ids_empty_folder_and_bad_rows(tmp_path: Path) -> None:
    data = tmp_path / "dup.jsonl"
    write_samples(data, [*three_samples(), three_samples()[0]])
    with pytest.raises(InputError, match="s1 appears twice"):
        load_dataset(data)
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="no Parquet files"):
        load_dataset(tmp_path / "empty")
    rows = [s.model_dump(mode="json") for s in three_samples()]
    rows[1]["difficulty"] = "impossible"
    bad = tmp_path / "bad.parquet"
    pq.write_table(pa.Table.from_pylist(rows), bad)
    with pytest.raises(InputError) as info:
        load_dataset(bad)
    assert "row 2" in str(info.value) and "difficulty" in str(info.value)


def test_trajectory_reader_errors(tmp_path: Path) -> None:
    p = tmp_path / "t.jsonl"
    p.write_text('{"sample_id": "a"}\n\n{"sample_id": "b", "events": [{"type": "ask"}]}\n')
    with pytest.raises(InputError) as info:
        list(iter_trajectories(p))
    assert "t.jsonl:3" in str(info.value) and "events[0].ask.question" in str(info.value)
    p.write_text('{"sample_id": "a"}\n{"sample_id": \n')
    with pytest.raises(InputError, match=r"t.jsonl:2.*not valid JSON"):
        list(iter_trajectories(p))
    with pytest.raises(InputError, match="no such trajectory file"):
        list(iter_trajectories(tmp_path / "missing.jsonl"))


def test_read_done_filters_by_run_and_errors(tmp_path: Path) -> None:
    p = tmp_path / "t.jsonl"
    run = {"agent": "x", "setting": "neutral", "ablation": "none"}
    other = {**run, "setting": "guided"}
    lines = [
        json.dumps({"sample_id": "a", "run": run, "error": None}),
        json.dumps({"sample_id": "b", "run": run, "error": "boom"}),
        json.dumps({"sample_id": "c", "run": other, "error": None}),
        '{"sample_id": "d", "run": ',  # torn last line
    ]
    p.write_text("\n".join(lines))
    assert read_done(p, run) == {"a"}
    assert read_done(p, run, retry_errors=False) == {"a", "b"}


def test_the_scorers_reader_names_line_and_field_and_scores_the_same(tmp_path: Path) -> None:
    from builder.evaluation import read_trajectories, score
    from builder.evaluation.io import read_for_scoring

    p = tmp_path / "t.jsonl"
    p.write_text('{"sample_id": "a"}\n\n{"sample_id": "b", "events": [{"type": "ask"}]}\n')
    with pytest.raises(InputError) as info:
        read_for_scoring(p)
    assert "t.jsonl:3" in str(info.value) and "events[0].question" in str(info.value)
    p.write_text('{"sample_id": "a", "events": [{"type": "answer", "checkpoints": {}}]}\n')
    with pytest.raises(InputError) as info:
        read_for_scoring(p)
    assert "t.jsonl:1" in str(info.value) and "events[0].answer" in str(info.value)
    p.write_text('{"sample_id": "a", "usage": {"input_tokens": "many"}}\n')
    with pytest.raises(InputError, match=r"usage\.input_tokens"):
        read_for_scoring(p)
    # the slim records score exactly like the full ones
    samples = three_samples()
    first = samples[0]
    lines = [
        {
            "sample_id": first.id,
            "run": {"agent": "x", "setting": "neutral", "ablation": "none", "seed": 1},
            "events": [
                {"type": "search", "query": "q", "results": [{"title": "t"}]},
                {"type": "ask", "question": first.checkpoints[0].goal, "reply": "r"},
                {"type": "think", "text": "hmm"},
                {"type": "ask", "question": "?", "target": None},
                {"type": "answer", "answer": first.answer, "checkpoints": {"1": "x"}},
            ],
            "usage": {"input_tokens": 10, "output_tokens": 2},
        },
        {"sample_id": samples[1].id, "events": [], "error": "boom"},
    ]
    p.write_text("".join(json.dumps(x) + "\n" for x in lines))
    slim, full = score(samples, read_for_scoring(p)), score(samples, read_trajectories(p))
    assert slim == full
    assert slim.n_asks == 2 and slim.n_assigned_targets == 1 and slim.n_errors == 1
