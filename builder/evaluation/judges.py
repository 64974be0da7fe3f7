"""Judges: what turns an agent's free-form answer into per-checkpoint results.

Correctness is always decided by the scorer's deterministic matching (evaluation.md).
``match`` (default) leaves the agent's stated checkpoints as they are. ``llm`` reads the
agent's final answer and last message and *extracts* (never grades; it does not see gold
answers) the result of each checkpoint the agent left out, filling ``answer.checkpoints``.
Its calls go through the LLM client's cache.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Protocol

from builder.evaluation.prompts import load_prompt
from builder.evaluation.registry import Registry
from builder.llm.client import LLMClient, TokenUsage
from builder.records.sample import Sample
from builder.records.trajectory import AnswerEvent, Trajectory


class Judge(Protocol):
    def fill(self, sample: Sample, traj: Trajectory, last_message: str) -> TokenUsage:
        """Complete ``traj``'s last answer event in place; return the tokens it spent."""
        ...


JudgeFactory = Callable[[LLMClient | None], Judge]
JUDGES: Registry[JudgeFactory] = Registry("judge")


class MatchJudge:
    def fill(self, sample: Sample, traj: Trajectory, last_message: str) -> TokenUsage:
        return TokenUsage()


class LLMJudge:
    def __init__(self, client: LLMClient) -> None:
        self.client = client

    def fill(self, sample: Sample, traj: Trajectory, last_message: str) -> TokenUsage:
        answers = [e for e in traj.events if isinstance(e, AnswerEvent)]
        if not answers:
            return TokenUsage()
        ev = answers[-1]
        stated = dict(ev.checkpoints or {})
        wanted = [str(cp.index) for cp in sample.checkpoints]
        if all(stated.get(i) for i in wanted):
            return TokenUsage()
        steps = "\n".join(f"{cp.index}. {cp.goal}" for cp in sample.checkpoints)
        prompt = load_prompt("judge_system.md").format(
            question=sample.question,
            steps=steps,
            answer=ev.answer,
            checkpoints=json.dumps(stated, ensure_ascii=False),
            last_message=last_message or "(none)",
        )
        result = self.client.chat([{"role": "user", "content": prompt}], temperature=0.0)
        extracted = _parse_object(result.content or "")
        filled = [i for i in wanted if not stated.get(i) and extracted.get(i)]
        for i in filled:
            stated[i] = extracted[i]
        if filled:
            ev.checkpoints = stated
            setattr(ev, "checkpoints_filled_by_judge", filled)  # noqa: B010 (extra field)
        return result.usage


def _parse_object(text: str) -> dict[str, str]:
    start, end = text.find("{"), text.rfind("}")
    if start < 0:
        return {}
    try:
        data = json.loads(text[start : end + 1])
    except json.JSONDecodeError:
        return {}
    if not isinstance(data, dict):
        return {}
    return {str(k): str(v).strip() for k, v in data.items() if v is not None}


@JUDGES.register("match")
def _match(client: LLMClient | None) -> Judge:
    return MatchJudge()


@JUDGES.register("llm")
def _llm(client: LLMClient | None) -> Judge:
    from builder.errors import ConfigError

    if client is None:
        raise ConfigError("the llm judge needs an LLM client", hint="set OPENAI_BASE_URL/KEY")
    return LLMJudge(client)
