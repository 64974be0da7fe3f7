"""Trajectories of the Search/Ask/Answer harness, per ../shared/design/evaluation.md."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag


class SearchEvent(BaseModel):
    model_config = ConfigDict(extra="allow")

    type: Literal["search"] = "search"
    query: str
    results: list[dict[str, Any]] | None = Field(
        None, description="Optional: what the backend returned (title, url, snippet)."
    )


class AskEvent(BaseModel):
    """An ask. ``target`` absent (not in ``model_fields_set``) ≠ ``target: null``."""

    model_config = ConfigDict(extra="allow")

    type: Literal["ask"] = "ask"
    question: str
    reply: str = ""
    target: int | None = Field(
        None, description="Checkpoint index the simulated user judged the ask to be about."
    )

    @property
    def has_target(self) -> bool:
        """Whether the harness recorded ``target`` (even as null)."""
        return "target" in self.model_fields_set


class AnswerEvent(BaseModel):
    model_config = ConfigDict(extra="allow")

    type: Literal["answer"] = "answer"
    answer: str
    checkpoints: dict[str, str] | None = Field(
        None, description="Agent's result per checkpoint index (as string); may be partial."
    )


class OtherEvent(BaseModel):
    """Any other event type (think, tool_error …): kept, ignored by the metrics."""

    model_config = ConfigDict(extra="allow")

    type: str


def _event_tag(v: Any) -> str:
    kind = v.get("type") if isinstance(v, dict) else getattr(v, "type", None)
    return kind if kind in ("search", "ask", "answer") else "other"


Event = Annotated[
    Annotated[SearchEvent, Tag("search")]
    | Annotated[AskEvent, Tag("ask")]
    | Annotated[AnswerEvent, Tag("answer")]
    | Annotated[OtherEvent, Tag("other")],
    Discriminator(_event_tag),
]


class RunInfo(BaseModel):
    model_config = ConfigDict(extra="allow")

    agent: str = ""
    setting: str = "neutral"
    ablation: str = "none"


class Usage(BaseModel):
    model_config = ConfigDict(extra="allow")

    input_tokens: int = 0
    output_tokens: int = 0


class Trajectory(BaseModel):
    """One episode: a line of the trajectories JSONL."""

    model_config = ConfigDict(extra="allow")

    sample_id: str
    run: RunInfo = Field(default_factory=RunInfo)
    events: list[Event] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)
    error: str | None = Field(None, description="Set when the episode failed; counts incorrect.")
