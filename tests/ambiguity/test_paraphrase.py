"""Paraphrase through a local fake OpenAI-compatible server: accepted only when safe."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from builder.ambiguity import inject
from builder.ambiguity.checks import run_checks
from builder.ambiguity.paraphrase import Paraphraser
from builder.ambiguity.plan import read_plan
from builder.kb.store import KnowledgeStore
from builder.llm.client import LLMClient
from tests.ambiguity.chains import game_chain
from tests.fakes.openai_server import FakeOpenAIServer, text_reply

GOOD = "Where was the person who directed the 2017 Nintendo EPD video game born?"


def _client(server: FakeOpenAIServer, cache: Path) -> LLMClient:
    return LLMClient(model="para-model", base_url=server.url, api_key="sk-test", cache_dir=cache)


def test_accepted_paraphrase_replaces_question_and_is_recorded(
    mini: KnowledgeStore, tmp_path: Path
) -> None:
    with FakeOpenAIServer([text_reply(GOOD)]) as server:
        para = Paraphraser(_client(server, tmp_path))
        result = inject(mini, [game_chain(mini)], types=["entity"], progress=False,
                        paraphraser=para)  # fmt: skip
        body: dict[str, Any] = server.requests[0]
    sample = result.samples[0]
    assert sample.question == GOOD
    assert result.paraphrased is not None and result.paraphrased.accepted == 1
    info = read_plan(sample)
    assert info is not None and info.paraphrase_model == "para-model"
    assert run_checks(mini, sample).passed
    assert body["messages"][0]["role"] == "system"
    assert "Keep every name" in body["messages"][0]["content"]
    assert "Nintendo EPD" in body["messages"][1]["content"]


def test_refusals_keep_the_templated_question(mini: KnowledgeStore, tmp_path: Path) -> None:
    base = inject(mini, [game_chain(mini)], types=["entity"], progress=False).samples
    replies = [
        text_reply("Where was the director of the 2017 Nintendo EPD game born, Kyoto?"),
        text_reply("Where was the director of that 2017 video game born?"),
        text_reply("Where was the director of the 2017 action-adventure game by Nintendo EPD "
                   "born?"),
    ]  # fmt: skip
    reasons = []
    with FakeOpenAIServer(replies) as server:
        para = Paraphraser(_client(server, tmp_path))
        for _ in replies:
            got = para.apply(mini, base)
            assert got.accepted == 0 and got.samples == base
            reasons.append(got.refused[0][1])
            para.client.cache = None  # ask again: next scripted reply
    assert reasons == [
        "checks fail: no_leakage",
        "drops 'Nintendo EPD'",
        "restores 'action-adventure' (hop 1 must stay ambiguous)",
    ]


def test_paraphrases_are_cached_by_prompt(mini: KnowledgeStore, tmp_path: Path) -> None:
    base = inject(mini, [game_chain(mini)], types=["entity"], progress=False).samples
    with FakeOpenAIServer([text_reply(GOOD)]) as server:
        Paraphraser(_client(server, tmp_path)).apply(mini, base)
        again = Paraphraser(_client(server, tmp_path)).apply(mini, base)
        assert len(server.requests) == 1
    assert again.accepted == 1 and again.samples[0].question == GOOD
