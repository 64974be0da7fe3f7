"""Mechanical faults of generated text that a reader notices at once: a doubled word, ``that
that``, a raw id, ``None``, an unfilled template slot, a sentence ending in ``and?``, "they was",
a country name missing its "the"."""

from __future__ import annotations

import re

from builder.seeding.templates import Templates, load_templates

_DOUBLED = re.compile(r"\b(\w+) \1\b", re.IGNORECASE)
_RAW_ID = re.compile(r"\b(?:L:[\w-]+|[QP]\d+)\b")
_SLOT = re.compile(r"[{}]")
_NONE = re.compile(r"\bNone\b")
_DANGLING = re.compile(r"\b(?:and|or|the|a|an|that|its|their)[?.]$")
_THEY_WAS = re.compile(r"\bthey (?:was|is|has)\b", re.IGNORECASE)


def text_problems(text: str, templates: Templates | None = None) -> list[str]:
    """What is wrong with ``text``, in words (empty when nothing is)."""
    t = templates or load_templates()
    out = []
    m = _DOUBLED.search(text)
    if m:
        out.append(f"doubled word {m.group(0)!r}")
    if _RAW_ID.search(text):
        out.append("raw id")
    if _NONE.search(text):
        out.append("'None'")
    if _SLOT.search(text):
        out.append("unfilled template slot")
    if _DANGLING.search(text):
        out.append("ends with a dangling word")
    m = _THEY_WAS.search(text)
    if m:
        out.append(f"{m.group(0)!r}")
    for name in t.names.names:
        # a lower-case word right before the name, and the name not the start of a longer one
        pattern = rf"\b([a-z]+) {re.escape(name)}\b(?! [A-Z0-9])"
        if any(m.group(1) != "the" for m in re.finditer(pattern, text)):
            out.append(f"{name!r} without 'the'")
    return out
