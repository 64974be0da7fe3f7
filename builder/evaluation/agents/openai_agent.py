"""``openai:MODEL``: any OpenAI-compatible chat model with tool calling (OpenAI, vLLM, Ollama).

The model sees only the question (never the sample's structure), a system prompt chosen by
``--setting`` and the tools search/ask/answer (search removed under ``--ablation
no_search``). Tool errors (bad JSON arguments, spent budgets, unknown tools) are returned to
the model as tool messages and logged as ``tool_error`` events; a reply without a tool call
gets one nudge message. The episode ends at ``answer`` or after ``max_turns`` model calls.
"""

from __future__ import annotations

import json
from typing import Any

from builder.evaluation.agents.base import AGENTS, Agent, AgentContext
from builder.evaluation.harness import Episode, EpisodeOver, ToolUnavailable
from builder.evaluation.prompts import load_prompt
from builder.llm.client import LLMClient, ToolCall


def tool_specs(no_search: bool) -> list[dict[str, Any]]:
    specs: list[dict[str, Any]] = json.loads(load_prompt("tools.json"))
    if no_search:
        specs = [s for s in specs if s["function"]["name"] != "search"]
    return specs


def _checkpoints(value: Any) -> dict[str, str] | None:
    """The model's ``checkpoints`` argument as {"1": "...", ...} (object or list accepted)."""
    if isinstance(value, dict):
        return {str(k): str(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return {str(i): str(v) for i, v in enumerate(value, start=1) if v is not None}
    return None


class OpenAIAgent:
    def __init__(self, client: LLMClient, *, setting: str, ablation: str, cache: bool) -> None:
        self.client = client
        self.setting = setting
        self.no_search = ablation == "no_search"
        self.cache = cache
        self.tools = tool_specs(self.no_search)

    def close(self) -> None:
        return None

    def _execute(self, ep: Episode, call: ToolCall) -> str:
        if call.arguments_error:
            ep.note("tool_error", tool=call.name, detail=f"bad arguments: {call.arguments_error}")
            return f"error: the arguments are not a JSON object ({call.arguments_error})"
        args = call.arguments
        try:
            if call.name == "search" and not self.no_search:
                results = ep.search(str(args.get("query", "")))
                return json.dumps(
                    [r.model_dump(include={"title", "url", "snippet"}) for r in results],
                    ensure_ascii=False,
                )
            if call.name == "ask":
                return ep.ask(str(args.get("question", "")))
            if call.name == "answer":
                ep.answer(str(args.get("answer", "")), _checkpoints(args.get("checkpoints")))
                return "ok: answer recorded"
        except (ToolUnavailable, EpisodeOver) as exc:
            ep.note("tool_error", tool=call.name, detail=str(exc))
            return f"error: {exc}"
        ep.note("tool_error", tool=call.name, detail="unknown tool")
        return f"error: there is no tool named {call.name!r}"

    def run(self, ep: Episode) -> None:
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": load_prompt(f"system_{self.setting}.md")},
            {"role": "user", "content": ep.question},
        ]
        while not ep.answered and ep.turns < ep.limits.max_turns:
            result = self.client.chat(messages, tools=self.tools, cache=self.cache)
            ep.record_call(result)
            messages.append(result.as_message())
            if not result.tool_calls:
                messages.append({"role": "user", "content": load_prompt("nudge.md")})
                continue
            for call in result.tool_calls:
                content = self._execute(ep, call)
                messages.append({"role": "tool", "tool_call_id": call.id, "content": content})
        if not ep.answered:
            ep.termination = "max_turns"
        texts = [m["content"] for m in messages if m["role"] == "assistant" and m["content"]]
        ep.last_message = texts[-1] if texts else ""


@AGENTS.register("openai")
def _openai(ctx: AgentContext) -> Agent:
    model = ctx.spec.split(":", 1)[1] if ":" in ctx.spec else ""
    if not model:
        from builder.errors import ConfigError

        raise ConfigError("openai agent needs a model", hint="use --agent openai:MODEL")
    client = LLMClient.from_settings(ctx.settings, cache_dir=ctx.llm_cache_dir, model=model)
    return OpenAIAgent(client, setting=ctx.setting, ablation=ctx.ablation, cache=ctx.llm_cache)
