"""Agents: the registry, the OpenAI-compatible agent and the ``oracle:`` reference policies."""

from builder.evaluation.agents import openai_agent, oracles
from builder.evaluation.agents.base import AGENTS, Agent, AgentContext

__all__ = ["AGENTS", "Agent", "AgentContext", "openai_agent", "oracles"]
