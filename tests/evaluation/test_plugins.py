"""Search backends, simulated users, judges, matcher and registries."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import responses
from pydantic import SecretStr

from builder.errors import ConfigError, ServiceError
from builder.evaluation.agents import AGENTS
from builder.evaluation.judges import LLMJudge
from builder.evaluation.registry import Registry
from builder.evaluation.search import CachedSearch, LocalSearch, SearchResult
from builder.evaluation.targets import match_target
from builder.evaluation.tavily import TAVILY_URL, TavilySearch
from builder.evaluation.users import DeterministicUser, LLMUser, leaked, noncommittal
from builder.llm import LLMClient
from tests.evaluation.factories import answer, traj
from tests.evaluation.world import build_store, world_samples
from tests.fakes.openai_server import FakeOpenAIServer, Reply, text_reply

DATA = Path(__file__).parent / "data"
KEY = "tvly-secret-key"


# --- registries -------------------------------------------------------------------------
def test_registry_refuses_duplicates_and_resolves_prefixes() -> None:
    reg: Registry[int] = Registry("thing")
    reg.add("a", 1)
    reg.add("openai", 2)
    with pytest.raises(ConfigError, match="already registered"):
        reg.add("a", 3)
    assert reg.get("openai:gpt-x") == 2 and reg.get("a") == 1
    with pytest.raises(ConfigError, match="choose one of: a, openai"):
        reg.get("b")
    with pytest.raises(ConfigError):
        AGENTS.add("oracle:direct-guess", lambda ctx: None)  # type: ignore[arg-type,return-value]


# --- matcher ----------------------------------------------------------------------------
def test_matcher_on_world_samples() -> None:
    game, city = world_samples()
    cps = game.checkpoints
    assert match_target("Which game do you mean?", cps) == 1  # "that game" in step 2 → step 1
    assert match_target("Do you mean Super Mario Odyssey?", cps) == 1  # candidate label
    assert match_target("Who directed it, do you know?", cps) == 2
    assert match_target("Can you tell me more?", cps) is None
    assert match_target("What is the weather like?", cps) is None
    assert match_target("Which city in France?", city.checkpoints) == 1


# --- users ------------------------------------------------------------------------------
def test_deterministic_user_gives_clue_or_noncommittal_never_answers() -> None:
    game, _ = world_samples()
    user = DeterministicUser()
    r = user.reply(game, "Which game do you mean?")
    assert (r.target, r.reply) == (1, game.checkpoints[0].clue)
    r2 = user.reply(game, "Who directed it?")
    assert r2.target == 2 and r2.reply == noncommittal("Who directed it?")
    r3 = user.reply(game, "Hmm?")
    assert r3.target is None and leaked(r3.reply, game) is None
    assert user.reply(game, "Hmm?") == r3  # deterministic


def test_deterministic_user_guard_replaces_a_leaking_clue() -> None:
    game, _ = world_samples()
    bad = game.model_copy(deep=True)
    bad.checkpoints[0].clue = "I remember it was directed by Hidemaro Fujibayashi."
    r = DeterministicUser().reply(bad, "Which game do you mean?")
    assert r.guarded and r.target == 1 and "Fujibayashi" not in r.reply


def test_leak_detection_is_whole_words() -> None:
    game, _ = world_samples()
    assert leaked("It was Breath of the Wild, I think", game) == "Breath of the Wild"
    assert leaked("the legend of zelda: breath of the wild!", game) is not None  # alias
    assert leaked("I liked breathing wild air", game) is None


def _user_server(replies: list[str]) -> FakeOpenAIServer:
    return FakeOpenAIServer([text_reply(r) for r in replies])


def test_llm_user_replies_and_regenerates_a_leak(tmp_path: Path) -> None:
    game, _ = world_samples()
    leaking = json.dumps({"target": 1, "reply": "It was Breath of the Wild."})
    clean = json.dumps({"target": 1, "reply": "I recall gliding over a huge open world."})
    with _user_server([leaking, clean]) as server:
        client = LLMClient(model="u", base_url=server.url, api_key="k", cache_dir=tmp_path)
        r = LLMUser(client).reply(game, "Which game?")
    assert (r.target, r.reply, r.guarded) == (1, "I recall gliding over a huge open world.", True)
    assert len(server.requests) == 2
    system = server.requests[0]["messages"][0]["content"]
    assert game.checkpoints[0].clue in system
    assert "Hidemaro" not in system and "Breath of the Wild" not in system  # no answers given
    assert r.usage.input_tokens > 0


def test_llm_user_replaces_after_repeated_leaks_and_bad_json() -> None:
    game, _ = world_samples()
    leaking = json.dumps({"target": 1, "reply": "Hidemaro Fujibayashi directed it."})
    with _user_server([leaking, "not json at all"]) as server:
        client = LLMClient(model="u", base_url=server.url, api_key="k")
        r = LLMUser(client).reply(game, "Which game do you mean?")
    assert r.guarded and r.target == 1 and leaked(r.reply, game) is None


# --- judge ------------------------------------------------------------------------------
def test_llm_judge_fills_only_missing_checkpoints_and_is_cached(tmp_path: Path) -> None:
    game, _ = world_samples()
    extracted = json.dumps({"1": "Breath of the Wild", "2": "Someone else"})
    with FakeOpenAIServer([text_reply(extracted)]) as server:
        client = LLMClient(model="j", base_url=server.url, api_key="k", cache_dir=tmp_path)
        judge = LLMJudge(client)
        t = traj("w-game", [answer("Hidemaro Fujibayashi", {"2": "Hidemaro Fujibayashi"})])
        usage = judge.fill(game, t, "It is Zelda BotW, by Fujibayashi.")
        again = traj("w-game", [answer("Hidemaro Fujibayashi", {"2": "Hidemaro Fujibayashi"})])
        judge.fill(game, again, "It is Zelda BotW, by Fujibayashi.")
    assert len(server.requests) == 1  # second call served from the cache
    assert "Breath of the Wild" not in server.requests[0]["messages"][0]["content"]  # no gold
    ev = t.events[-1]
    assert ev.checkpoints == {"2": "Hidemaro Fujibayashi", "1": "Breath of the Wild"}  # type: ignore[union-attr]
    assert (ev.model_extra or {})["checkpoints_filled_by_judge"] == ["1"]
    assert usage.input_tokens > 0
    assert again.events[-1].checkpoints == t.events[-1].checkpoints  # type: ignore[union-attr]


# --- search -----------------------------------------------------------------------------
@responses.activate
def test_tavily_wire_format_auth_and_parsing() -> None:
    payload = json.loads((DATA / "tavily_search_response.json").read_text())
    responses.post(TAVILY_URL, json=payload)
    backend = TavilySearch(SecretStr(KEY))
    results = backend.search("zelda goty", 2)
    call = responses.calls[0]
    assert call.request.headers["Authorization"] == f"Bearer {KEY}"
    body = json.loads(call.request.body or b"{}")
    assert body["query"] == "zelda goty" and body["max_results"] == 2
    assert "api_key" not in body
    assert results[0] == SearchResult(
        title="The Legend of Zelda: Breath of the Wild - Wikipedia",
        url="https://en.wikipedia.org/wiki/The_Legend_of_Zelda:_Breath_of_the_Wild",
        snippet=payload["results"][0]["content"],
        score=0.91234,
    )
    assert KEY not in repr(backend)


@responses.activate
def test_tavily_retries_429_then_fails_cleanly_on_401() -> None:
    payload = json.loads((DATA / "tavily_search_response.json").read_text())
    responses.post(TAVILY_URL, status=429, json={"detail": "rate limited"})
    responses.post(TAVILY_URL, json=payload)
    backend = TavilySearch(SecretStr(KEY), backoff_base=0.0)
    assert len(backend.search("q", 5)) == 2
    responses.replace(responses.POST, TAVILY_URL, status=401, json={"detail": "bad key"})
    with pytest.raises(ServiceError, match="HTTP 401") as info:
        backend.search("q2", 5)
    assert KEY not in str(info.value)


@responses.activate
def test_cached_search_replays_without_network(tmp_path: Path) -> None:
    payload = json.loads((DATA / "tavily_search_response.json").read_text())
    responses.post(TAVILY_URL, json=payload)
    cached = CachedSearch(TavilySearch(SecretStr(KEY)), tmp_path)
    first = cached.search("zelda", 5)
    responses.reset()  # no network any more: a miss would raise ConnectionError
    assert cached.search("zelda", 5) == first
    assert (cached.hits, cached.misses) == (1, 1)
    assert KEY not in "".join(p.read_text() for p in tmp_path.rglob("*.json"))


def test_local_search_from_worker_threads(tmp_path: Path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    store = build_store(tmp_path / "kb.sqlite")
    backend = LocalSearch(store)
    main = backend.search("Paris capital", 3)
    with ThreadPoolExecutor(2) as pool:
        others = list(pool.map(lambda q: backend.search(q, 3), ["Paris capital"] * 4))
    assert all(o == main for o in others) and main[0].entity_id == "Q5"
    assert "test-world" in backend.identity()
    store.close()


def test_fake_server_replies_follow_request(tmp_path: Path) -> None:
    seen: list[dict[str, Any]] = []

    def echo(body: dict[str, Any]) -> Reply:
        seen.append(body)
        return text_reply(body["messages"][-1]["content"].upper())

    with FakeOpenAIServer(echo) as server:
        client = LLMClient(model="e", base_url=server.url, api_key="k")
        assert client.chat([{"role": "user", "content": "abc"}]).content == "ABC"
    assert seen and seen[0]["model"] == "e"


@responses.activate
def test_run_with_tavily_backend_and_cached_rerun(tmp_path: Path) -> None:
    from builder.config import Settings
    from builder.evaluation import read_trajectories, run_agent

    payload = json.loads((DATA / "tavily_search_response.json").read_text())
    responses.post(TAVILY_URL, json=payload)
    settings = Settings(TAVILY_API_KEY=KEY)
    game = world_samples()[:1]
    out = tmp_path / "tv.jsonl"
    first = run_agent(game, agent="oracle:direct-guess", store=None, out=out, search="tavily",
                      settings=settings, progress=False)  # fmt: skip
    assert (first.errors, first.search_cache_misses) == (0, 2)
    (traj,) = read_trajectories(out)
    search = traj.events[0]
    assert search.type == "search" and search.results  # type: ignore[union-attr]
    assert search.results[0]["url"].endswith("Breath_of_the_Wild")  # type: ignore[union-attr]
    # the snippet of the top result names the target candidate: direct-guess picks it; the
    # recorded response does not name the director, so the walk stops at hop 2 (it reads
    # answers only from results)
    assert traj.events[-1].checkpoints == {"1": "Breath of the Wild"}  # type: ignore[union-attr]
    stopped = next(e for e in traj.events if e.type == "oracle_stopped")
    assert "'Hidemaro Fujibayashi' not in the results" in (stopped.model_extra or {})["reason"]
    calls = len(responses.calls)
    again = run_agent(game, agent="oracle:direct-guess", store=None, out=out, search="tavily",
                      settings=settings, progress=False, fresh=True)  # fmt: skip
    assert again.search_cache_hits == 2 and len(responses.calls) == calls  # no new request
    assert KEY not in out.read_text()
