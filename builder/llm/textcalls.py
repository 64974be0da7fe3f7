"""Tool calls written in a reply's text instead of ``tool_calls``.

Small local models behind llama.cpp, Ollama or vLLM often write their call as JSON in the
message text: in a fenced block (```json {"name": "search", "arguments": {...}} ```), inside
Hermes/Qwen ``<tool_call>…</tool_call>`` tags, or as a bare JSON object. This module finds
those, for the tools the caller names, in the order they appear. A block that names a known
tool but is not valid JSON (a generation cut at ``max_tokens``, a missing brace) is returned
as a call with ``arguments_error`` set, so the agent can send the error back to the model.

Accepted shapes of one call: ``{"name": N, "arguments": {...}}`` (``arguments`` may also be
a JSON string, or be called ``parameters``/``args``/``input``), ``{"function": {"name": N,
"arguments": ...}}``, ``{"tool": N, ...}``, or a list of those.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection
from typing import Any

from builder.llm.client import ToolCall

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[ \t]*\n?(.*?)(?:```|\Z)", re.DOTALL)
_TAG = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|\Z)", re.DOTALL)
_NAME = re.compile(r'"(?:name|tool)"\s*:\s*"([^"\\]+)"')
_ARG_KEYS = ("arguments", "parameters", "args", "input")


def _one(obj: Any, known: Collection[str]) -> tuple[str, dict[str, Any] | None, str] | None:
    """(name, arguments or None when malformed, raw arguments) of one call object."""
    if not isinstance(obj, dict):
        return None
    if isinstance(obj.get("function"), dict):
        obj = obj["function"]
    name = obj.get("name", obj.get("tool"))
    if not isinstance(name, str) or name not in known:
        return None
    if _is_schema(obj):
        return None
    raw: Any = next((obj[k] for k in _ARG_KEYS if k in obj), None)
    if raw is None:  # {"name": "search", "query": "..."}: the arguments inline
        raw = {k: v for k, v in obj.items() if k not in ("name", "tool", "type", "id")}
    if isinstance(raw, str):
        try:
            raw = json.loads(raw) if raw.strip() else {}
        except json.JSONDecodeError:
            return name, None, raw
    if not isinstance(raw, dict):
        return name, None, json.dumps(raw, ensure_ascii=False)
    return name, raw, json.dumps(raw, ensure_ascii=False)


def _is_schema(obj: dict[str, Any]) -> bool:
    """A tool's definition echoed back (``{"name", "description", "parameters": {"type":
    "object", "properties": …}}``), which small models copy from their prompt: not a call."""
    if any(k in obj for k in ("arguments", "args", "input")):
        return False
    params = obj.get("parameters")
    return isinstance(params, dict) and isinstance(params.get("properties"), dict)


def _calls_in(blob: str, known: Collection[str]) -> list[tuple[str, dict[str, Any] | None, str]]:
    """Calls in one candidate block: JSON parsed, or a known name found in broken JSON."""
    text = blob.strip()
    try:
        obj = json.loads(text)
    except json.JSONDecodeError:
        found = _bare(text, known)
        if found:
            return found
        m = _NAME.search(text)
        if m and m.group(1) in known:
            return [(m.group(1), None, text)]
        return []
    items = obj if isinstance(obj, list) else [obj]
    return [c for c in (_one(o, known) for o in items) if c is not None]


def _bare(text: str, known: Collection[str]) -> list[tuple[str, dict[str, Any] | None, str]]:
    """JSON objects anywhere in ``text`` that name a known tool."""
    decoder = json.JSONDecoder()
    out = []
    pos = text.find("{")
    while pos != -1:
        try:
            obj, end = decoder.raw_decode(text, pos)
        except json.JSONDecodeError:
            pos = text.find("{", pos + 1)
            continue
        call = _one(obj, known)
        if call is not None:
            out.append(call)
            pos = text.find("{", end)
        else:
            pos = text.find("{", pos + 1)
    return out


def parse_text_tool_calls(
    content: str | None, known: Collection[str], *, id_prefix: str = "text"
) -> tuple[list[ToolCall], str]:
    """The calls written in ``content`` and the text left around them.

    Fenced blocks and ``<tool_call>`` tags are read first; when none holds a call, a bare
    JSON object naming a known tool counts too (so prose that merely mentions a tool does
    not). Ids are ``{id_prefix}_{i}``.
    """
    if not content or not known:
        return [], content or ""
    found: list[tuple[str, dict[str, Any] | None, str]] = []
    rest = content
    for pattern in (_TAG, _FENCE):
        for block in pattern.finditer(content):
            in_block = _calls_in(block.group(block.lastindex or 1), known)
            if in_block:
                found += in_block
                rest = rest.replace(block.group(0), "")
        if found:
            break
    if not found:
        found = _bare(content, known)
        if found:
            rest = ""
        else:
            stripped = content.strip()
            named = _NAME.search(stripped)
            if stripped.startswith("{") and named and named.group(1) in known:  # cut off
                found, rest = [(named.group(1), None, stripped)], ""
    calls: list[ToolCall] = []
    for i, (name, args, raw) in enumerate(found):
        if args is None:
            calls.append(
                ToolCall(
                    id=f"{id_prefix}_{i}",
                    name=name,
                    raw_arguments=raw,
                    arguments_error="the call written in the text is not valid JSON",
                    from_text=True,
                )
            )
        else:
            calls.append(
                ToolCall(
                    id=f"{id_prefix}_{i}",
                    name=name,
                    arguments=args,
                    raw_arguments=raw,
                    from_text=True,
                )
            )
    return calls, rest.strip()
