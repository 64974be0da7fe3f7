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


_SKELETON = "0123456789bcdfgijklmopqrsuvwxyz"
"""Digits and the letters in none of the articles a/an/the."""
_NOT_SKELETON = bytes(c for c in range(256) if chr(c) not in _SKELETON)


def _skeleton(s: str) -> bytes | None:
    """For an ASCII string, its digits and letters outside a/n/t/h/e, lower-cased, in order
    (None otherwise). ``normalize`` keeps exactly these characters of an ASCII string, in
    this order: NFKC and casefold leave ASCII as lower case, the articles removed as words
    are made of a/n/t/h/e only, and letters and digits are never dropped as characters. So
    two strings whose skeletons differ cannot normalize equal, and a string with a non-empty
    skeleton cannot normalize to the empty string."""
    if not s.isascii():
        return None
    return s.encode("ascii").lower().translate(None, _NOT_SKELETON)


def match(pred: str | None, gold: str, aliases: Iterable[str] = ()) -> bool:
    """True when ``normalize(pred)`` is non-empty and equals that of gold or of an alias."""
    if pred is None:
        return False
    p = normalize(pred)
    if not p:
        return False
    return p == normalize(gold) or any(p == normalize(a) for a in aliases)


class Matcher:
    """:func:`match` with each distinct string normalized at most once (one scoring pass:
    agents mostly state the gold strings themselves, and wrong answers repeat), and not at
    all when the result is already decided: a prediction identical to the gold string only
    needs to be non-empty, and a gold string whose skeleton differs from the prediction's
    cannot match it (see :func:`_skeleton`)."""

    def __init__(self) -> None:
        self._memo: dict[str, str] = {}
        self._skel: dict[str, bytes | None] = {}

    def norm(self, s: str) -> str:
        n = self._memo.get(s)
        if n is None:
            n = self._memo[s] = normalize(s)
        return n

    def _is(self, p: str, s: str) -> bool:
        """Whether ``normalize(s) == p`` for a normalized, non-empty prediction ``p``;
        ``s`` is normalized only when its skeleton allows the equality."""
        n = self._memo.get(s)
        if n is None:
            if p in self._skel:
                ps = self._skel[p]
            else:
                ps = self._skel[p] = _skeleton(p)
            if ps is not None and s.isascii() and ps != _skeleton(s):
                return False
            n = self._memo[s] = normalize(s)
        return n == p

    def match(self, pred: str | None, gold: str, aliases: Iterable[str] = ()) -> bool:
        if pred is None:
            return False
        if pred == gold:  # the same string normalizes the same: only emptiness is left
            return bool(_skeleton(pred)) or bool(self.norm(pred))
        p = self.norm(pred)
        if not p:
            return False
        if self._is(p, gold):
            return True
        return any(self._is(p, a) for a in aliases)
