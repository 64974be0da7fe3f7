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


class Matcher:
    """:func:`match` with each distinct string normalized once (one scoring pass: agents
    mostly state the gold strings themselves, and wrong answers repeat)."""

    def __init__(self) -> None:
        self._memo: dict[str, str] = {}

    def norm(self, s: str) -> str:
        n = self._memo.get(s)
        if n is None:
            n = self._memo[s] = normalize(s)
        return n

    def match(self, pred: str | None, gold: str, aliases: Iterable[str] = ()) -> bool:
        if pred is None:
            return False
        memo = self._memo  # inlined lookups: this runs for every checkpoint of a run
        p = memo.get(pred)
        if p is None:
            p = memo[pred] = normalize(pred)
        if not p:
            return False
        g = memo.get(gold)
        if g is None:
            g = memo[gold] = normalize(gold)
        if p == g:
            return True
        for a in aliases:
            n = memo.get(a)
            if n is None:
                n = memo[a] = normalize(a)
            if p == n:
                return True
        return False
