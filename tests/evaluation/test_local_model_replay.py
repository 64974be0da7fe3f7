"""A real local model's replies, replayed: the ``openai:`` agent must handle what
Qwen2.5-Coder-1.5B-Instruct behind llama.cpp's ``llama-server`` actually sent.

The cassette in ``tests/fixtures/local_model/`` was recorded by
``benchmarks/bench_local_model.py --pack`` (see its SOURCES.md): the samples played, every
search response and every model reply of the run, and the trajectories the run wrote. Here
the same samples are played again with the model replies served from the LLM cache in replay
mode (a call not recorded is an error, never a network call) and the searches from
``--search recorded``; the trajectories must come out as recorded, event for event, and score
the same.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from builder.config import Settings
from builder.errors import ConfigError, ServiceError
from builder.evaluation import load_dataset, read_trajectories, run_agent, score
from builder.evaluation.harness import Limits
from builder.evaluation.recorded import RecordedSearch
from builder.llm.cache import JsonCache
from builder.llm.client import LLMClient
from builder.records.trajectory import OtherEvent, Trajectory

CASSETTE = Path(__file__).resolve().parents[1] / "fixtures" / "local_model"

# what differs between a live call and its replay: the call's wall time, the cache flag
_VOLATILE = {"seconds", "cached"}


def _meta() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((CASSETTE / "meta.json").read_text(encoding="utf-8"))
    return data


def _unpack_llm_cache(dest: Path) -> int:
    cache = JsonCache(dest)
    n = 0
    for line in (CASSETTE / "llm.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            entry = json.loads(line)
            cache.put(entry.pop("key"), entry)
            n += 1
    return n


def _events(traj: Trajectory) -> list[dict[str, Any]]:
    out = []
    for e in traj.events:
        d = e.model_dump(mode="json")
        out.append({k: v for k, v in d.items() if k not in _VOLATILE})
    return out


def _settings(**kw: Any) -> Settings:
    meta = _meta()
    return Settings(
        OPENAI_BASE_URL=meta["base_url"],
        OPENAI_API_KEY="local",
        llm_cache_mode="replay",
        llm_max_tokens=meta["max_tokens"],
        search_recorded=CASSETTE / "searches.jsonl",
        **kw,
    )


@pytest.mark.parametrize("setting", ["neutral", "guided"])
def test_recorded_real_model_run_replays_event_for_event(tmp_path: Path, setting: str) -> None:
    meta = _meta()
    samples = load_dataset(CASSETTE / "samples.jsonl")
    recorded = {t.sample_id: t for t in read_trajectories(CASSETTE / f"{setting}.jsonl")}
    assert len(samples) == meta["samples"] >= 30
    cache_dir = tmp_path / "llm-cache"
    assert _unpack_llm_cache(cache_dir) > 0

    out = tmp_path / f"{setting}.jsonl"
    summary = run_agent(
        samples,
        agent=f"openai:{meta['model']}",
        store=None,
        out=out,
        setting=setting,
        search="recorded",
        concurrency=2,
        progress=False,
        limits=Limits(max_turns=meta["max_turns"]),
        settings=_settings(),
        search_cache_dir=tmp_path / "search-cache",
        llm_cache_dir=cache_dir,
    )
    replayed = {t.sample_id: t for t in read_trajectories(out)}
    errors = {sid: t.error for sid, t in replayed.items() if t.error}
    recorded_errors = {sid: t.error for sid, t in recorded.items() if t.error}
    assert errors == recorded_errors, "a replayed episode failed where the recorded one did not"
    assert summary.ran == len(samples)
    for sid, rec in recorded.items():
        assert _events(replayed[sid]) == _events(rec), f"{setting} episode {sid} differs"
        assert replayed[sid].usage == rec.usage
        assert getattr(replayed[sid], "termination", None) == getattr(rec, "termination", None)
    assert score(samples, list(replayed.values())) == score(samples, list(recorded.values()))


def test_cassette_holds_what_a_small_local_model_really_does() -> None:
    """The recorded run must exercise the handling the agent has for real servers."""
    model_events = [
        e
        for setting in ("neutral", "guided")
        for t in read_trajectories(CASSETTE / f"{setting}.jsonl")
        for e in t.events
        if isinstance(e, OtherEvent) and e.type == "model"
    ]
    assert model_events
    # the replies came from the real server, with their wall time; a few were served from
    # the run's own cache when an interrupted episode was resumed (seconds ~0 then)
    live = [e for e in model_events if not getattr(e, "cached", True)]
    assert len(live) >= 0.9 * len(model_events)
    assert all(float(getattr(e, "seconds", 0)) > 0.5 for e in live)
    finish = [getattr(e, "finish_reason", None) for e in model_events]
    assert set(finish) <= {"stop", "tool_calls", "length"}
    # what this model does: calls written as text, and replies cut at max_tokens
    assert sum(int(getattr(e, "from_text", 0) or 0) for e in model_events) > 0
    assert finish.count("length") > 0


def test_replay_mode_refuses_a_call_that_was_not_recorded(tmp_path: Path) -> None:
    client = LLMClient(model="m", base_url="http://127.0.0.1:9/v1", cache_dir=tmp_path, replay=True)
    with pytest.raises(ServiceError, match="not in the LLM cache"):
        client.chat([{"role": "user", "content": "never recorded"}])
    with pytest.raises(ConfigError, match="needs a cache folder"):
        LLMClient(model="m", base_url="http://127.0.0.1:9/v1", replay=True)


def test_recorded_search_serves_entries_and_names_what_is_missing(tmp_path: Path) -> None:
    entry = {"query": "Palme d'Or 2012", "k": 5, "results": [{"title": "Amour", "snippet": "x"}]}
    folder = tmp_path / "search-cache" / "ab"
    folder.mkdir(parents=True)
    (folder / "abc.json").write_text(json.dumps(entry), encoding="utf-8")
    backend = RecordedSearch(tmp_path / "search-cache")
    assert [r.title for r in backend.search("Palme d'Or 2012", 5)] == ["Amour"]
    with pytest.raises(ServiceError, match=r"Palme d'Or 2013. \(k=5\) was not recorded"):
        backend.search("Palme d'Or 2013", 5)
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(entry) + "\n" + '{"query": "q"}\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"bad\.jsonl:2: not a recorded search"):
        RecordedSearch(bad)
    with pytest.raises(ConfigError, match="no recorded searches"):
        RecordedSearch(tmp_path / "absent")
