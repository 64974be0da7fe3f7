"""Agents: the registry, the offline baselines and the OpenAI-compatible agent."""

from builder.evaluation.agents import baselines, openai_agent
from builder.evaluation.agents.base import AGENTS, Agent, AgentContext

__all__ = ["AGENTS", "Agent", "AgentContext", "baselines", "openai_agent"]
