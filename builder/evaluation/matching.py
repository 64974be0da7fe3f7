"""Answer matching exactly as evaluation.md defines it (order of steps included)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

_ARTICLES = re.compile(r"\b(?:a|an|the)\b")
_ASCII_DROP = re.compile(r"[^a-z0-9\s]")


def normalize(s: str) -> str:
    """NFKC, casefold, drop the articles a/an/the as words, drop every character that is not
    a letter, digit or whitespace, collapse whitespace, strip."""
    s = unicodedata.normalize("NFKC", s).casefold()
    s = _ARTICLES.sub(" ", s)
    if s.isascii():  # fast path, same result: ASCII letters/digits/whitespace kept
        s = _ASCII_DROP.sub("", s)
    else:
        s = "".join(ch for ch in s if ch.isalpha() or ch.isdigit() or ch.isspace())
    return " ".join(s.split())  # collapse whitespace runs and strip


def match(pred: str | None, gold: str, aliases: Iterable[str] = ()) -> bool:
    """True when ``normalize(pred)`` is non-empty and equals that of gold or of an alias."""
    if pred is None:
        return False
    p = normalize(pred)
    if not p:
        return False
    return p == normalize(gold) or any(p == normalize(a) for a in aliases)
