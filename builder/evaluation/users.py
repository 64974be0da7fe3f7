"""Simulated users: decide which checkpoint an ask is about and reply without leaking.

``deterministic`` (default, offline): the default matcher picks the target; an ambiguous
target gets its clue, anything else a non-committal reply. ``llm``: an OpenAI-compatible
model decides target and wording. Both pass the same no-leak guard: a reply naming any
checkpoint answer, the final answer or an alias is regenerated (LLM) or replaced by a
non-committal reply.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Protocol

from pydantic import BaseModel, ConfigDict, Field

from builder.evaluation.prompts import load_prompt, load_word_list
from builder.evaluation.registry import Registry
from builder.evaluation.targets import match_target, words
from builder.llm.client import LLMClient, TokenUsage
from builder.records.sample import Sample


class UserReply(BaseModel):
    model_config = ConfigDict(frozen=True)

    target: int | None = Field(description="Checkpoint the question was judged to be about.")
    reply: str
    usage: TokenUsage = Field(default_factory=TokenUsage)
    guarded: bool = Field(False, description="The no-leak guard replaced or rewrote the reply.")


class SimulatedUser(Protocol):
    def reply(self, sample: Sample, question: str) -> UserReply: ...


UserFactory = Callable[[LLMClient | None], SimulatedUser]
USERS: Registry[UserFactory] = Registry("simulated user")


def _phrase(text: str) -> str:
    return " " + " ".join(words(text)) + " "


def leaked(reply: str, sample: Sample) -> str | None:
    """The first answer (checkpoint, final, or alias) that ``reply`` states, as whole words."""
    said = _phrase(reply)
    golds = [sample.answer, *sample.answer_aliases]
    for cp in sample.checkpoints:
        golds += [cp.answer, *cp.answer_aliases]
    for gold in golds:
        g = _phrase(gold)
        if g.strip() and g in said:
            return gold
    return None


def noncommittal(question: str) -> str:
    """One of the non-committal replies, chosen by the question's hash (deterministic)."""
    options = sorted(load_word_list("noncommittal.txt"))
    digest = int(hashlib.sha256(question.encode("utf-8")).hexdigest(), 16)
    return options[digest % len(options)]


class DeterministicUser:
    """Target by the default matcher; the clue for an ambiguous target; else non-committal."""

    def reply(self, sample: Sample, question: str) -> UserReply:
        target = match_target(question, sample.checkpoints)
        cp = next((c for c in sample.checkpoints if c.index == target), None)
        if cp is not None and cp.ambiguous and cp.clue:
            if leaked(cp.clue, sample) is None:
                return UserReply(target=target, reply=cp.clue)
            return UserReply(target=target, reply=noncommittal(question), guarded=True)
        return UserReply(target=target, reply=noncommittal(question))


class LLMUser:
    """An LLM plays the user; JSON ``{"target", "reply"}``; leaks are regenerated once, then
    replaced."""

    def __init__(self, client: LLMClient, *, regenerations: int = 1) -> None:
        self.client = client
        self.regenerations = regenerations

    def _steps(self, sample: Sample) -> str:
        lines = []
        for cp in sample.checkpoints:
            line = f"{cp.index}. {cp.goal}"
            if cp.ambiguous and cp.clue:
                line += f" (ambiguous; you remember: {cp.clue})"
            lines.append(line)
        return "\n".join(lines)

    def reply(self, sample: Sample, question: str) -> UserReply:
        system = load_prompt("user_system.md").format(steps=self._steps(sample))
        messages = [
            {"role": "system", "content": system},
            {"role": "user", "content": f"Your question was: {sample.question}"},
            {"role": "assistant", "content": "(waiting for the agent)"},
            {"role": "user", "content": f"The agent asks: {question}"},
        ]
        usage = TokenUsage()
        indexes = {cp.index for cp in sample.checkpoints}
        for attempt in range(self.regenerations + 1):
            result = self.client.chat(messages, temperature=0.0)
            usage = usage + result.usage
            target, text = _parse_user_json(result.content or "", indexes)
            if text and leaked(text, sample) is None:
                return UserReply(target=target, reply=text, usage=usage, guarded=attempt > 0)
            messages += [
                {"role": "assistant", "content": result.content or ""},
                {"role": "user", "content": load_prompt("user_regenerate.md")},
            ]
        fallback = match_target(question, sample.checkpoints)
        return UserReply(target=fallback, reply=noncommittal(question), usage=usage, guarded=True)


def _parse_user_json(text: str, indexes: set[int]) -> tuple[int | None, str]:
    start, end = text.find("{"), text.rfind("}")
    try:
        data = json.loads(text[start : end + 1]) if start >= 0 else {}
    except json.JSONDecodeError:
        return None, ""
    if not isinstance(data, dict):
        return None, ""
    target = data.get("target")
    if isinstance(target, str) and target.isdigit():
        target = int(target)
    if not isinstance(target, int) or target not in indexes:
        target = None
    return target, str(data.get("reply") or "").strip()


@USERS.register("deterministic")
def _deterministic(client: LLMClient | None) -> SimulatedUser:
    return DeterministicUser()


@USERS.register("llm")
def _llm(client: LLMClient | None) -> SimulatedUser:
    from builder.errors import ConfigError

    if client is None:
        raise ConfigError("the llm user needs an LLM client", hint="set OPENAI_BASE_URL/KEY")
    return LLMUser(client)
