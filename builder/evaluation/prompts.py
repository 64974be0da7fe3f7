"""Prompt and word-list files of the evaluation stage (``builder/prompts/eval/``)."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

from builder.errors import ConfigError


@lru_cache(maxsize=64)
def load_prompt(name: str) -> str:
    """The text of ``builder/prompts/eval/<name>`` (package data)."""
    path = resources.files("builder") / "prompts" / "eval" / name
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(
            f"missing prompt file builder/prompts/eval/{name}",
            hint="reinstall the package (prompts are package data)",
        ) from None


@lru_cache(maxsize=8)
def load_word_list(name: str) -> frozenset[str]:
    """Non-comment, non-blank lines of a word-list file."""
    lines = load_prompt(name).splitlines()
    return frozenset(w.strip() for w in lines if w.strip() and not w.startswith("#"))
