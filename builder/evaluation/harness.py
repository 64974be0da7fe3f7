"""One Search/Ask/Answer episode: the tools an agent may call, their limits, the event log.

Agents never write events themselves: every tool call goes through :class:`Episode`, which
records it in the trajectory format of evaluation.md (the ask's ``target`` is what the
simulated user decided).
"""

from __future__ import annotations

import time
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from builder.evaluation.search import SearchBackend, SearchResult
from builder.evaluation.users import SimulatedUser
from builder.llm.client import ChatResult, TokenUsage
from builder.records.sample import Sample
from builder.records.trajectory import (
    AnswerEvent,
    AskEvent,
    Event,
    OtherEvent,
    RunInfo,
    SearchEvent,
    Trajectory,
    Usage,
)

SETTINGS: tuple[str, ...] = ("neutral", "guided")
ABLATIONS: tuple[str, ...] = ("none", "no_search", "unambiguous")


class Limits(BaseModel):
    """Per-episode budgets (a model turn is one chat call)."""

    model_config = ConfigDict(frozen=True)

    max_turns: int = Field(30, ge=1, description="Model calls (or scripted steps) per episode.")
    max_searches: int = Field(15, ge=0)
    max_asks: int = Field(5, ge=0)
    top_k: int = Field(5, ge=1, description="Search results returned per query.")


class ToolUnavailable(Exception):
    """The tool is disabled (ablation) or its budget is spent; the agent is told why."""


class EpisodeOver(Exception):
    """The episode already ended with an answer."""


class Episode:
    """The environment of one sample for one agent."""

    def __init__(
        self,
        sample: Sample,
        *,
        run: RunInfo,
        search: SearchBackend | None,
        user: SimulatedUser,
        limits: Limits,
    ) -> None:
        self.sample = sample  # privileged: only the oracle: reference policies read it
        self.run = run
        self.question = (
            sample.unambiguous_question if run.ablation == "unambiguous" else sample.question
        )
        self._search = search
        self._user = user
        self.limits = limits
        self.events: list[Event] = []
        self.usage = TokenUsage()
        self.aux_usage = TokenUsage()
        self.searches = 0
        self.asks = 0
        self.turns = 0
        self.answered = False
        self.termination = ""
        self.last_message = ""  # the agent's last free text, for the LLM judge
        self.started = time.perf_counter()
        self.model_seconds = 0.0  # wall time spent waiting on the agent's model

    @property
    def can_search(self) -> bool:
        return self._search is not None and self.searches < self.limits.max_searches

    @property
    def can_ask(self) -> bool:
        return self.asks < self.limits.max_asks

    def _open(self) -> None:
        if self.answered:
            raise EpisodeOver("the episode already ended with an answer")

    def search(self, query: str) -> list[SearchResult]:
        self._open()
        if self._search is None:
            raise ToolUnavailable("search is not available in this setting")
        if self.searches >= self.limits.max_searches:
            raise ToolUnavailable(f"search limit reached ({self.limits.max_searches})")
        self.searches += 1
        results = self._search.search(query, self.limits.top_k)
        self.events.append(
            SearchEvent(
                query=query,
                results=[r.model_dump(include={"title", "url", "snippet"}) for r in results],
            )
        )
        return results

    def ask(self, question: str) -> str:
        self._open()
        if self.asks >= self.limits.max_asks:
            raise ToolUnavailable(f"ask limit reached ({self.limits.max_asks})")
        self.asks += 1
        reply = self._user.reply(self.sample, question)
        self.aux_usage = self.aux_usage + reply.usage
        event = AskEvent(question=question, reply=reply.reply, target=reply.target)
        if reply.guarded:
            event.guarded = True  # type: ignore[attr-defined]  # extra field
        self.events.append(event)
        return reply.reply

    def answer(
        self, answer: str, checkpoints: dict[str, str] | None = None, *, in_text: bool = False
    ) -> None:
        """End the episode; ``in_text``: the agent's plain-text reply taken as the answer
        (marked ``answered_in_text`` on the event)."""
        self._open()
        event = AnswerEvent(answer=answer, checkpoints=checkpoints)
        if in_text:
            event.answered_in_text = True  # type: ignore[attr-defined]  # extra field
        self.events.append(event)
        self.answered = True
        self.termination = "answer"

    def note(self, kind: str, **data: Any) -> None:
        """An event ignored by the metrics (tool_error, model, end …)."""
        self.events.append(OtherEvent(type=kind, **data))

    def record_call(
        self,
        result: ChatResult,
        *,
        from_text: int = 0,
        dropped: int = 0,
        seconds: float | None = None,
    ) -> None:
        """Token accounting of one agent model call (also logged as a ``model`` event, with
        the server's ``finish_reason``, how many tool calls were parsed from text and the
        call's wall ``seconds``)."""
        self.turns += 1
        self.usage = self.usage + result.usage
        extra: dict[str, Any] = {}
        if seconds is not None:
            self.model_seconds += seconds
            extra["seconds"] = round(seconds, 3)
        if result.finish_reason:
            extra["finish_reason"] = result.finish_reason
        if from_text:
            extra["from_text"] = from_text
        if dropped:
            extra["text_calls_dropped"] = dropped
        self.note(
            "model",
            input_tokens=result.usage.input_tokens,
            output_tokens=result.usage.output_tokens,
            cached=result.cached,
            **extra,
        )

    def trajectory(self, error: str | None = None) -> Trajectory:
        traj = Trajectory(
            sample_id=self.sample.id,
            run=self.run,
            events=list(self.events),
            usage=Usage(
                input_tokens=self.usage.input_tokens, output_tokens=self.usage.output_tokens
            ),
            error=error,
        )
        extra = {
            "termination": "error" if error else (self.termination or "no_answer"),
            "aux_usage": self.aux_usage.model_dump(),
            "question": self.question,
        }
        if self.model_seconds:
            # wall time of the episode and the part spent waiting on the agent's model (the
            # rest is the harness: search, simulated user, bookkeeping)
            total = time.perf_counter() - self.started
            extra["timing"] = {
                "seconds": round(total, 3),
                "model_seconds": round(self.model_seconds, 3),
            }
        for k, v in extra.items():
            setattr(traj, k, v)
        return traj
