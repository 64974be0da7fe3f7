"""Whole episodes of an ``openai:`` agent against a local fake chat-completions server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from builder.config import Settings
from builder.evaluation import Limits, iter_trajectories, run_agent, score
from builder.evaluation.agents import AGENTS, AgentContext
from builder.evaluation.agents.base import Agent
from builder.records.trajectory import AnswerEvent, AskEvent, SearchEvent
from tests.evaluation.world import build_store, world_samples
from tests.fakes.openai_server import FakeOpenAIServer, Reply, text_reply, tool_reply

GOLD = {
    "Who directed the game developed by Nintendo EPD?": (
        "Breath of the Wild",
        "Hidemaro Fujibayashi",
    ),
    "Who is the mayor of the city in France?": ("Paris", "Anne Hidalgo"),
}


def policy(body: dict[str, Any]) -> Reply:
    """A scripted model: search, ask, then answer from what it was told."""
    msgs = body["messages"]
    question = next(m["content"] for m in msgs if m["role"] == "user")
    tools_seen = [m for m in msgs if m["role"] == "tool"]
    if not tools_seen:
        return tool_reply(("search", {"query": question}), usage=(100, 10))
    if len(tools_seen) == 1:
        results = json.loads(tools_seen[0]["content"])
        assert isinstance(results, list) and results and "title" in results[0]
        topic = "game" if "game" in question else "city"
        return tool_reply(("ask", {"question": f"Which {topic} do you mean?"}), usage=(200, 8))
    first, final = GOLD[question]
    return tool_reply(("answer", {"answer": final, "checkpoints": {"1": first}}), usage=(300, 12))


@pytest.fixture
def store(tmp_path: Path):  # type: ignore[no-untyped-def]
    st = build_store(tmp_path / "kb.sqlite")
    yield st
    st.close()


def _settings(server: FakeOpenAIServer) -> Settings:
    return Settings(OPENAI_BASE_URL=server.url, OPENAI_API_KEY="sk-fake")


def test_whole_episodes_tool_calls_asks_answer(store, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    samples = world_samples()
    out = tmp_path / "run.jsonl"
    with FakeOpenAIServer(policy) as server:
        summary = run_agent(
            samples,
            agent="openai:fake-model",
            store=store,
            out=out,
            setting="guided",
            concurrency=2,
            progress=False,
            settings=_settings(server),
        )
    assert (summary.ran, summary.errors, summary.model_calls) == (2, 0, 6)
    assert summary.usage.input_tokens == 2 * 600 and summary.usage.output_tokens == 2 * 30
    body = server.requests[0]
    assert body["model"] == "fake-model"
    assert [t["function"]["name"] for t in body["tools"]] == ["search", "ask", "answer"]
    assert "underspecified" in body["messages"][0]["content"]  # the guided prompt
    trajs = {t.sample_id: t for t in iter_trajectories(out)}
    game = trajs["w-game"]
    kinds = [e.type for e in game.events]
    assert kinds == ["model", "search", "model", "ask", "model", "answer"]
    ask = next(e for e in game.events if isinstance(e, AskEvent))
    assert ask.target == 1 and ask.reply == samples[0].checkpoints[0].clue
    search = next(e for e in game.events if isinstance(e, SearchEvent))
    assert search.query == samples[0].question
    answer = next(e for e in game.events if isinstance(e, AnswerEvent))
    assert answer.answer == "Hidemaro Fujibayashi"
    assert (game.usage.input_tokens, game.usage.output_tokens) == (600, 30)
    assert game.run.agent == "openai:fake-model" and game.run.setting == "guided"
    m = score(samples, list(trajs.values()))
    assert m.accuracy == 1.0 and m.ambiguity_recall == 1.0 and m.ask_turns == 1.0
    assert m.input_tokens == 600.0
    # the tool result of the ask went back to the model as the clue
    last_game = [
        b for b in server.requests if b["messages"][1]["content"].startswith("Who directed")
    ]
    assert last_game[-1]["messages"][-1] == {
        "role": "tool",
        "tool_call_id": last_game[-1]["messages"][-2]["tool_calls"][0]["id"],
        "content": samples[0].checkpoints[0].clue,
    }


def test_no_search_ablation_and_neutral_prompt(tmp_path: Path) -> None:
    def answer_now(body: dict[str, Any]) -> Reply:
        return tool_reply(("answer", {"answer": "x", "checkpoints": ["a", "b"]}))

    out = tmp_path / "ns.jsonl"
    with FakeOpenAIServer(answer_now) as server:
        run_agent(
            world_samples()[:1],
            agent="openai:m",
            store=None,
            out=out,
            ablation="no_search",
            progress=False,
            settings=_settings(server),
        )
    assert [t["function"]["name"] for t in server.requests[0]["tools"]] == ["ask", "answer"]
    assert "underspecified" not in server.requests[0]["messages"][0]["content"]
    (traj,) = iter_trajectories(out)
    answer = traj.events[-1]
    assert isinstance(answer, AnswerEvent) and answer.checkpoints == {"1": "a", "2": "b"}


def test_bad_arguments_nudges_and_turn_limit(tmp_path: Path) -> None:
    script = [
        tool_reply(("search", "{broken")),  # malformed JSON arguments
        text_reply("I think it is Zelda."),  # no tool call → nudge
        tool_reply(("fly", {})),  # unknown tool
    ]
    out = tmp_path / "bad.jsonl"
    with FakeOpenAIServer(script) as server:
        run_agent(
            world_samples()[:1],
            agent="openai:m",
            store=None,
            out=out,
            ablation="no_search",
            progress=False,
            settings=_settings(server),
            limits=Limits(max_turns=3),
        )
    (traj,) = iter_trajectories(out)
    assert traj.error is None
    assert [e.type for e in traj.events] == [
        "model",
        "tool_error",
        "model",
        "model",
        "tool_error",
    ]
    assert (traj.model_extra or {})["termination"] == "max_turns"
    second = server.requests[1]["messages"]
    assert second[-1]["role"] == "tool" and second[-1]["content"].startswith("error:")
    third = server.requests[2]["messages"]
    assert third[-1]["role"] == "user" and "answer" in third[-1]["content"]


def test_endpoint_failure_is_recorded_per_episode_and_run_goes_on(store, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "err.jsonl"
    with FakeOpenAIServer([], fail_first=100, fail_status=400) as server:
        summary = run_agent(
            world_samples(),
            agent="openai:m",
            store=store,
            out=out,
            progress=False,
            settings=_settings(server),
            concurrency=1,
        )
    assert (summary.ran, summary.errors) == (2, 2)
    trajs = list(iter_trajectories(out))
    assert all(t.error and "ServiceError" in t.error for t in trajs)
    assert "sk-fake" not in out.read_text()
    m = score(world_samples(), trajs)
    assert m.n_errors == 2 and m.accuracy == 0.0


def test_rate_limits_are_retried(store, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "rl.jsonl"
    with FakeOpenAIServer(policy, fail_first=2, retry_after="0") as server:
        summary = run_agent(
            world_samples(),
            agent="openai:m",
            store=store,
            out=out,
            progress=False,
            settings=_settings(server),
            concurrency=1,
        )
    assert summary.errors == 0 and server.failures_sent == 2
    assert score(world_samples(), list(iter_trajectories(out))).accuracy == 1.0


def test_llm_user_and_llm_judge_wired_through_the_runner(store, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """One fake endpoint plays agent, user and judge; the user's leak is guarded."""

    def dispatch(body: dict[str, Any]) -> Reply:
        system = body["messages"][0]["content"]
        if system.startswith("You play a user"):
            leak = "Hidemaro Fujibayashi" in body["messages"][-1]["content"]
            reply = "It was directed by Hidemaro Fujibayashi." if leak else "A glider, I think."
            return text_reply(json.dumps({"target": 1, "reply": reply}))
        if "You read a search agent" in system:
            return text_reply(json.dumps({"1": "Breath of the Wild", "2": ""}))
        tools_seen = [m for m in body["messages"] if m["role"] == "tool"]
        if not tools_seen:
            return tool_reply(("ask", {"question": "Who directed it? Hidemaro Fujibayashi?"}))
        if len(tools_seen) == 1:
            return tool_reply(("ask", {"question": "Which game?"}))
        return tool_reply(("answer", {"answer": "Hidemaro Fujibayashi"}))

    out = tmp_path / "wired.jsonl"
    game = world_samples()[:1]
    with FakeOpenAIServer(dispatch) as server:
        summary = run_agent(
            game,
            agent="openai:m",
            store=store,
            out=out,
            progress=False,
            settings=_settings(server),
            user="llm",
            judge="llm",
        )
    assert summary.errors == 0
    (traj,) = iter_trajectories(out)
    asks = [e for e in traj.events if isinstance(e, AskEvent)]
    assert [a.target for a in asks] == [1, 1]
    assert "Fujibayashi" not in asks[0].reply  # leak regenerated, then replaced
    assert getattr(asks[0], "guarded", False) is True
    assert asks[1].reply == "A glider, I think."
    final = traj.events[-1]
    assert isinstance(final, AnswerEvent)
    assert final.checkpoints == {"1": "Breath of the Wild"}  # filled by the judge
    aux = (traj.model_extra or {})["aux_usage"]
    assert aux["input_tokens"] > 0  # user + judge tokens, kept apart from the agent's
    m = score(game, [traj])
    assert m.accuracy == 1.0 and m.checkpoint_pass == 1.0 and m.ce_a == 1.0


def _wait_for(cond: Any, timeout: float = 3.0) -> bool:
    import time

    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.02)
    return cond()


_KEPT: list[Any] = []  # agents made by "kept-openai": referenced, so only a close ends them


if "kept-openai" not in AGENTS:

    @AGENTS.register("kept-openai")
    def _kept_openai(ctx: AgentContext) -> Agent:
        agent = AGENTS.get("openai")(ctx)
        _KEPT.append(agent)
        return agent


def test_a_run_closes_its_model_connections(store, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The agent's and the helper's (LLM user and judge) keep-alive connections are closed
    when the run ends, not left to the garbage collector: a long-lived process (a notebook,
    a sweep over models) would otherwise hold one socket per worker thread per run."""

    def dispatch(body: dict[str, Any]) -> Reply:
        system = body["messages"][0]["content"]
        if "You read a search agent" in system:
            return text_reply(json.dumps({"1": "x", "2": ""}))
        return tool_reply(("answer", {"answer": "x"}))

    with FakeOpenAIServer(dispatch) as server:
        summary = run_agent(
            world_samples()[:3],
            agent="kept-openai:m",
            store=store,
            out=tmp_path / "closed.jsonl",
            progress=False,
            settings=_settings(server),
            concurrency=3,
            judge="llm",
        )
        assert summary.errors == 0 and len(server.requests) > 3  # agent and judge calls
        assert _wait_for(lambda: server.open_connections == 0), server.open_connections
        assert _KEPT and _KEPT[-1].client.closed
