"""The project's default matcher: which checkpoint a clarifying question is about.

Used by the deterministic simulated user (to pick the clue to give) and by the scorer when a
trajectory's ``ask`` event has no ``target`` key. Deterministic and explainable: a question
is about the checkpoint whose goal and candidate labels share the most content words with
it (ties: larger share of the goal's words covered, then the earlier checkpoint); a question
sharing no content word with any checkpoint is about none (``None``). A word a later goal
uses to refer back ("Who directed *that game*?") counts for the earlier checkpoint.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from itertools import pairwise

from builder.evaluation.prompts import load_word_list
from builder.records.sample import Checkpoint

MIN_OVERLAP = 1
"""Content words a question must share with a checkpoint to be about it."""


def _stem(word: str) -> str:
    """Crude plural folding (awards → award), enough for question/goal overlap."""
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


_NON_WORD = re.compile(r"[^\w]|_")


def words(text: str) -> list[str]:
    """NFKC-casefolded words; punctuation splits words (award-winning → award, winning)."""
    return _NON_WORD.sub(" ", unicodedata.normalize("NFKC", text).casefold()).split()


def content_words(text: str) -> set[str]:
    """Words of ``text`` minus stopwords, plural-folded."""
    stop = load_word_list("stopwords.txt")
    return {_stem(w) for w in words(text) if w not in stop}


_BACK_REFERENCE = frozenset({"that", "this", "these", "those"})


def _split_goal(goal: str) -> tuple[set[str], set[str]]:
    """(own content words, back-referenced words) of a goal: in "Who directed that game?",
    "game" names the previous hop's result, so it is about the previous checkpoint."""
    ws = words(goal)
    back = {_stem(w) for prev, w in pairwise(ws) if prev in _BACK_REFERENCE}
    return content_words(goal) - back, back


def match_target(
    question: str, checkpoints: Sequence[Checkpoint], *, min_overlap: int = MIN_OVERLAP
) -> int | None:
    """Index of the checkpoint ``question`` is about, or None when it is about none."""
    q = content_words(question)
    if not q:
        return None
    split = [_split_goal(cp.goal) for cp in checkpoints]
    best: tuple[int, float, int] | None = None
    best_index: int | None = None
    for i, cp in enumerate(checkpoints):
        goal = split[i][0]
        keys = set(goal)
        if i + 1 < len(checkpoints):
            keys |= split[i + 1][1]  # the next goal's "that game" refers to this hop
        for cand in cp.candidates:
            keys |= content_words(cand.label)
        overlap = len(q & keys)
        if overlap < min_overlap:
            continue
        coverage = len(q & goal) / len(goal) if goal else 0.0
        rank = (overlap, coverage, -cp.index)
        if best is None or rank > best:
            best, best_index = rank, cp.index
    return best_index
