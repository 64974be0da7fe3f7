"""``openai:MODEL``: any OpenAI-compatible chat model (OpenAI, vLLM, Ollama, llama.cpp).

The model sees only the question (never the sample's structure), a system prompt chosen by
``--setting`` and the tools search/ask/answer (search removed under ``--ablation
no_search``). Tool errors (bad JSON arguments, spent budgets, unknown tools) are returned to
the model as tool messages and logged as ``tool_error`` events.

Small local models often write their call as JSON in the text instead of ``tool_calls``:
such calls (fenced JSON, ``<tool_call>`` tags, a bare object naming a tool) are taken as
calls — only the first of several, since the later ones are planned on imagined results —
and the ``model`` event says how many came from text (``from_text``) and how many more the
text wrote (``text_calls_dropped``); a tool definition echoed from the prompt is no call.
A reply without any call gets one nudge; a plain-text reply right after the nudge is taken
as the final answer (the answer event is marked ``answered_in_text``), so a model that stops
calling tools ends its episode instead of burning every turn. Every call sends ``max_tokens``
(``DISCOBENCH_LLM_MAX_TOKENS``); a reply cut there (``finish_reason: length``) is never
taken as an answer. The episode ends at an answer or after ``max_turns`` model calls.
"""

from __future__ import annotations

import json
import time
from typing import Any

from builder.evaluation.agents.base import AGENTS, Agent, AgentContext
from builder.evaluation.harness import Episode, EpisodeOver, ToolUnavailable
from builder.evaluation.prompts import load_prompt
from builder.llm.client import ChatResult, LLMClient, ToolCall
from builder.llm.textcalls import parse_text_tool_calls


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
    def __init__(
        self,
        client: LLMClient,
        *,
        setting: str,
        ablation: str,
        cache: bool,
        max_tokens: int | None = 512,
    ) -> None:
        self.client = client
        self.setting = setting
        self.no_search = ablation == "no_search"
        self.cache = cache
        self.max_tokens = max_tokens
        self.tools = tool_specs(self.no_search)
        self.tool_names = [t["function"]["name"] for t in self.tools]
        # read once, not per episode (a file read per episode on every worker thread)
        self.system_prompt = load_prompt(f"system_{setting}.md")
        self.nudges = {
            cut: load_prompt("nudge_cut.md" if cut else "nudge.md").strip() for cut in (False, True)
        }

    def close(self) -> None:
        self.client.close()

    def _execute(self, ep: Episode, call: ToolCall) -> str:
        if call.arguments_error:
            ep.note(
                "tool_error",
                tool=call.name,
                detail=f"bad arguments: {call.arguments_error}",
                from_text=call.from_text,
            )
            return (
                f"error: the arguments are not a JSON object ({call.arguments_error}); "
                'call the tool again with valid JSON, e.g. {"name": "search", "arguments": '
                '{"query": "..."}}'
            )
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

    def _with_text_calls(self, result: ChatResult, turn: int) -> tuple[ChatResult, int]:
        """``result`` with the first call written in its text taken as its call (if it has
        none), and how many further calls the text wrote (not run)."""
        if result.tool_calls or not result.content:
            return result, 0
        calls, rest = parse_text_tool_calls(
            result.content, self.tool_names, id_prefix=f"text_{turn}"
        )
        if not calls:
            return result, 0
        # a text that writes several calls is planning ahead: the later ones are built on
        # results the model imagined ("after searching, I'll find that …"). Only the first
        # is run; the model sees its result and writes the next. Native tool_calls (the
        # server parsed them) are all run.
        taken = result.model_copy(update={"tool_calls": calls[:1], "content": rest or None})
        return taken, len(calls) - 1

    def run(self, ep: Episode) -> None:
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": self.system_prompt},
            {"role": "user", "content": ep.question},
        ]
        nudged = False
        while not ep.answered and ep.turns < ep.limits.max_turns:
            began = time.perf_counter()
            raw = self.client.chat(
                messages, tools=self.tools, cache=self.cache, max_tokens=self.max_tokens
            )
            seconds = time.perf_counter() - began
            result, dropped = self._with_text_calls(raw, ep.turns + 1)
            from_text = sum(1 for c in result.tool_calls if c.from_text)
            ep.record_call(result, from_text=from_text, dropped=dropped, seconds=seconds)
            messages.append(result.as_message())
            if result.tool_calls:
                nudged = False
                for call in result.tool_calls:
                    content = self._execute(ep, call)
                    messages.append({"role": "tool", "tool_call_id": call.id, "content": content})
                continue
            text = (result.content or "").strip()
            cut = result.finish_reason == "length"
            if nudged and text and not cut:
                ep.answer(text, None, in_text=True)
                break
            messages.append({"role": "user", "content": self.nudges[cut]})
            nudged = not cut
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
    return OpenAIAgent(
        client,
        setting=ctx.setting,
        ablation=ctx.ablation,
        cache=ctx.llm_cache,
        max_tokens=ctx.settings.llm_max_tokens,
    )
