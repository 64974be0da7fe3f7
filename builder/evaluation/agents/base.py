"""The agent plug-in interface and its registry."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from builder.evaluation.registry import Registry

if TYPE_CHECKING:
    from builder.config import Settings
    from builder.evaluation.harness import Episode


@dataclass(frozen=True)
class AgentContext:
    """What a factory may use to build an agent for one run."""

    spec: str  # the full name given, e.g. "openai:gpt-4o-mini"
    settings: Settings
    setting: str  # neutral | guided
    ablation: str  # none | no_search | unambiguous
    llm_cache_dir: Path | None
    llm_cache: bool = True


class Agent(Protocol):
    def run(self, episode: Episode) -> None:
        """Play one episode through ``episode``'s tools (search/ask/answer)."""
        ...

    def close(self) -> None: ...


AgentFactory = Callable[[AgentContext], Agent]
AGENTS: Registry[AgentFactory] = Registry("agent")
"""Full names (``oracle:direct-guess``) or prefixes (``openai`` for ``openai:MODEL``)."""
