"""The ``openai:`` agent against a server that answers the way llama.cpp's ``llama-server``
does with Qwen2.5-Coder-1.5B-Instruct: calls written as fenced JSON in the text, a
generation that runs until ``max_tokens``, malformed arguments, plain-text answers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from builder.config import Settings
from builder.errors import ServiceError
from builder.evaluation import iter_trajectories, run_agent, score
from builder.llm.client import LLMClient
from builder.llm.textcalls import parse_text_tool_calls
from builder.records.trajectory import AnswerEvent, AskEvent, OtherEvent, SearchEvent
from tests.evaluation.world import build_store, world_samples
from tests.fakes.openai_server import (
    FakeOpenAIServer,
    Reply,
    fenced_reply,
    runaway_reply,
    text_reply,
)

TOOLS = ("search", "ask", "answer")


@pytest.fixture
def store(tmp_path: Path):  # type: ignore[no-untyped-def]
    st = build_store(tmp_path / "kb.sqlite")
    yield st
    st.close()


def _settings(server: FakeOpenAIServer, **kw: Any) -> Settings:
    return Settings(OPENAI_BASE_URL=server.url, OPENAI_API_KEY="sk-fake", **kw)


# --- parsing calls out of text ------------------------------------------------------------


def test_fenced_json_with_prose_around_it() -> None:
    content = (
        "To find the game, I will search.\n\n```json\n"
        '{"name": "search", "arguments": {"query": "Nintendo EPD game"}}\n```\nDone.'
    )
    calls, rest = parse_text_tool_calls(content, TOOLS)
    assert [(c.name, c.arguments, c.from_text) for c in calls] == [
        ("search", {"query": "Nintendo EPD game"}, True)
    ]
    assert calls[0].arguments_error is None
    assert rest == "To find the game, I will search.\n\n\nDone."


def test_tool_call_tags_bare_objects_and_argument_shapes() -> None:
    tagged = (
        '<tool_call>\n{"name": "ask", "arguments": "{\\"question\\": \\"Which?\\"}"}\n</tool_call>'
    )
    (call,), _ = parse_text_tool_calls(tagged, TOOLS)
    assert (call.name, call.arguments) == ("ask", {"question": "Which?"})  # arguments as string
    bare = 'Sure. {"function": {"name": "answer", "parameters": {"answer": "Paris"}}}'
    (call,), rest = parse_text_tool_calls(bare, TOOLS)
    assert (call.name, call.arguments, rest) == ("answer", {"answer": "Paris"}, "")
    listed = '```\n[{"name": "search", "query": "a"}, {"name": "search", "query": "b"}]\n```'
    calls, _ = parse_text_tool_calls(listed, TOOLS, id_prefix="t")
    assert [(c.id, c.arguments) for c in calls] == [
        ("t_0", {"query": "a"}),
        ("t_1", {"query": "b"}),
    ]


def test_text_that_is_not_a_call_of_a_known_tool() -> None:
    assert parse_text_tool_calls("I will search for it and then answer.", TOOLS)[0] == []
    assert parse_text_tool_calls('{"name": "fly", "arguments": {}}', TOOLS)[0] == []
    assert parse_text_tool_calls('The data: {"name": "Paris"}', TOOLS)[0] == []
    assert parse_text_tool_calls(None, TOOLS) == ([], "")


def test_malformed_or_cut_call_is_a_call_with_an_error() -> None:
    cut = '```json\n{"name": "search", "arguments": {"query": "Los Angeles Olym'
    (call,), _ = parse_text_tool_calls(cut, TOOLS)
    assert call.name == "search" and call.arguments == {} and call.arguments_error
    bare_cut = '{"name": "answer", "arguments": {"answer": "Ber'
    (call,), _ = parse_text_tool_calls(bare_cut, TOOLS)
    assert call.name == "answer" and call.arguments_error


def test_a_tool_definition_echoed_from_the_prompt_is_not_a_call() -> None:
    """Qwen2.5-Coder-1.5B behind llama-server, seen: the reply copies the tool list."""
    echo = (
        "To answer this question, I'll need to search.\n\n<tools>\n"
        '{"type": "function", "function": {"name": "search", "description": "Search the '
        'knowledge base.", "parameters": {"type": "object", "properties": {"query": '
        '{"type": "string"}}, "required": ["query"]}}}\n'
        '{"type": "function", "function": {"name": "ask", "description": "Ask the user.", '
        '"parameters": {"type": "object", "properties": {"question": {"type": "string"}}}}}'
    )
    assert parse_text_tool_calls(echo, TOOLS)[0] == []
    # a call whose arguments are named "parameters" is still a call
    (call,), _ = parse_text_tool_calls('{"name": "search", "parameters": {"query": "x"}}', TOOLS)
    assert call.arguments == {"query": "x"}


# --- whole episodes against a llama-server-like endpoint -----------------------------------


def qwen_like(body: dict[str, Any]) -> Reply:
    """Fenced search, fenced ask, a runaway reply, a malformed call, then a tagged answer."""
    msgs = body["messages"]
    turn = sum(1 for m in msgs if m["role"] == "assistant")
    question = msgs[1]["content"]
    if turn == 0:
        return fenced_reply("search", {"query": question}, prose="Let me search.")
    if turn == 1:
        return fenced_reply("ask", {"question": "Which game do you mean?"})
    if turn == 2:
        return runaway_reply("The game could be one of many games developed by Nintendo. ")
    if turn == 3:
        return fenced_reply("answer", '{"answer": "Hidemaro Fujibayashi", "checkpoints": {')
    return text_reply(
        '<tool_call>\n{"name": "answer", "arguments": {"answer": "Hidemaro Fujibayashi", '
        '"checkpoints": {"1": "Breath of the Wild", "2": "Hidemaro Fujibayashi"}}}\n</tool_call>'
    )


def test_episode_with_calls_in_text_runaway_and_malformed(store, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    game = world_samples()[:1]
    out = tmp_path / "qwen.jsonl"
    with FakeOpenAIServer(qwen_like, llama_server=True, model="qwen2.5-coder.gguf") as server:
        summary = run_agent(
            game,
            agent="openai:qwen",
            store=store,
            out=out,
            setting="guided",
            progress=False,
            settings=_settings(server, llm_max_tokens=200),
        )
    assert summary.errors == 0 and summary.model_calls == 5
    assert all(b["max_tokens"] == 200 for b in server.requests)
    (traj,) = iter_trajectories(out)
    models = [e for e in traj.events if isinstance(e, OtherEvent) and e.type == "model"]
    extra = [e.model_extra or {} for e in models]
    assert [x.get("from_text", 0) for x in extra] == [1, 1, 0, 1, 1]
    assert [x["finish_reason"] for x in extra] == ["stop", "stop", "length", "stop", "stop"]
    assert models[2].model_extra and models[2].model_extra["output_tokens"] == 200  # cut
    search = next(e for e in traj.events if isinstance(e, SearchEvent))
    assert search.query == game[0].question and search.results
    ask = next(e for e in traj.events if isinstance(e, AskEvent))
    assert ask.target == 1 and ask.reply == game[0].checkpoints[0].clue
    errors = [e for e in traj.events if isinstance(e, OtherEvent) and e.type == "tool_error"]
    assert [(e.model_extra or {}).get("tool") for e in errors] == ["answer"]
    answer = traj.events[-1]
    assert isinstance(answer, AnswerEvent) and answer.answer == "Hidemaro Fujibayashi"
    assert not (answer.model_extra or {}).get("answered_in_text")
    assert (traj.model_extra or {})["termination"] == "answer"
    # what went back to the server: the parsed call as a real tool call, the result as a
    # tool message; after the cut reply a request to be short; the malformed call's error
    second = server.requests[1]["messages"]
    assert second[2]["tool_calls"][0]["function"] == {
        "name": "search",
        "arguments": json.dumps({"query": game[0].question}),
    }
    assert second[2]["content"] == "Let me search."
    assert (
        second[3]["role"] == "tool"
        and second[3]["tool_call_id"] == second[2]["tool_calls"][0]["id"]
    )
    fourth = server.requests[3]["messages"]
    assert fourth[-1]["role"] == "user" and "cut off" in fourth[-1]["content"]
    fifth = server.requests[4]["messages"]
    assert fifth[-1]["role"] == "tool" and fifth[-1]["content"].startswith("error:")
    m = score(game, [traj])
    assert m.accuracy == 1.0 and m.checkpoint_pass == 1.0 and m.ambiguity_recall == 1.0


def test_plain_text_after_the_nudge_is_the_final_answer(store, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The model answers in prose, is nudged, says it again: the episode ends there."""

    def stubborn(body: dict[str, Any]) -> Reply:
        return text_reply("Hidemaro Fujibayashi")

    out = tmp_path / "text.jsonl"
    game = world_samples()[:1]
    with FakeOpenAIServer(stubborn, llama_server=True) as server:
        summary = run_agent(
            game, agent="openai:m", store=store, out=out, progress=False, settings=_settings(server)
        )
    assert summary.model_calls == 2 and len(server.requests) == 2
    assert server.requests[1]["messages"][-1]["role"] == "user"  # the nudge
    (traj,) = iter_trajectories(out)
    answer = traj.events[-1]
    assert isinstance(answer, AnswerEvent) and answer.answer == "Hidemaro Fujibayashi"
    assert (answer.model_extra or {})["answered_in_text"] is True
    assert (traj.model_extra or {})["termination"] == "answer"
    assert score(game, [traj]).accuracy == 1.0


def test_runaway_replies_are_never_taken_as_answers(tmp_path: Path) -> None:
    def runaway(body: dict[str, Any]) -> Reply:
        return runaway_reply("Let me think about this step by step. ")

    out = tmp_path / "run.jsonl"
    with FakeOpenAIServer(runaway) as server:
        run_agent(
            world_samples()[:1],
            agent="openai:m",
            store=None,
            out=out,
            ablation="no_search",
            progress=False,
            settings=_settings(server, llm_max_tokens=50),
            limits=None,
        )
    (traj,) = iter_trajectories(out)
    assert not any(isinstance(e, AnswerEvent) for e in traj.events)
    assert (traj.model_extra or {})["termination"] == "max_turns"
    assert len(server.requests) == 30
    assert all(len(m["content"] or "") <= 200 for m in server.requests[-1]["messages"][2::2])


def test_a_timeout_is_not_retried(tmp_path: Path) -> None:
    with FakeOpenAIServer([text_reply("late")] * 5, latency=1.0) as server:
        client = LLMClient(model="m", base_url=server.url, api_key="sk-x", timeout=0.3)
        with pytest.raises(ServiceError, match=r"did not answer within 0\.3 s"):
            client.chat([{"role": "user", "content": "hi"}], cache=False)
        assert len(server.requests) == 1
        retried = LLMClient(
            model="m", base_url=server.url, api_key="sk-x", timeout=0.3, timeout_retries=1
        )
        with pytest.raises(ServiceError):
            retried.chat([{"role": "user", "content": "hi"}], cache=False)
        assert len(server.requests) == 3


def test_timeout_comes_from_the_settings() -> None:
    s = Settings(OPENAI_BASE_URL="http://127.0.0.1:9/v1", llm_timeout=42)
    assert LLMClient.from_settings(s).timeout == 42.0
    assert Settings().llm_max_tokens == 512


def test_a_text_planning_several_calls_runs_only_the_first(store, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Seen from the real model: a plan with three fenced calls, the later ones built on
    results it imagined. Only the first runs; the model then sees its result."""
    plan = (
        "1. First, I'll search:\n```json\n"
        '{"name": "search", "arguments": {"query": "D.I.C.E. Game of the Year winner"}}\n```\n'
        "2. After searching, I'll find that the winner was The Last of Us Part II.\n"
        '```json\n{"name": "search", "arguments": {"query": "The Last of Us Part II developer"}}'
        '\n```\n3. Then:\n```json\n{"name": "answer", "arguments": {"answer": "Bethesda"}}\n```'
    )

    def planner(body: dict[str, Any]) -> Reply:
        turn = sum(1 for m in body["messages"] if m["role"] == "assistant")
        return text_reply(plan) if turn == 0 else fenced_reply("answer", {"answer": "Naughty Dog"})

    out = tmp_path / "plan.jsonl"
    game = world_samples()[:1]
    with FakeOpenAIServer(planner, llama_server=True) as server:
        summary = run_agent(
            game, agent="openai:m", store=store, out=out, progress=False, settings=_settings(server)
        )
    assert summary.model_calls == 2
    (traj,) = iter_trajectories(out)
    searches = [e for e in traj.events if isinstance(e, SearchEvent)]
    assert [s.query for s in searches] == ["D.I.C.E. Game of the Year winner"]
    first = next(e for e in traj.events if isinstance(e, OtherEvent) and e.type == "model")
    assert (first.model_extra or {})["text_calls_dropped"] == 2
    sent = server.requests[1]["messages"]
    assert len(sent[2]["tool_calls"]) == 1 and sent[3]["role"] == "tool"
    answer = traj.events[-1]
    assert isinstance(answer, AnswerEvent) and answer.answer == "Naughty Dog"
