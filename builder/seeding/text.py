"""Text matching shared by seeding, injection and the checks."""

from __future__ import annotations

from collections.abc import Sequence

from builder.kb.text import normalize_name


def leaks(text: str, forbidden: Sequence[str]) -> list[str]:
    """The forbidden strings (answers, aliases) that ``text`` contains as whole words."""
    hay = f" {normalize_name(text)} "
    out = []
    for item in forbidden:
        needle = normalize_name(item)
        if needle and f" {needle} " in hay:
            out.append(item)
    return out
