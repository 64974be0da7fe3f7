"""Name normalization shared by the store's name index and every caller that looks names up."""

from __future__ import annotations

import re
import unicodedata

_PUNCT = re.compile(r"[^\w\s]|_", re.UNICODE)
_SPACE = re.compile(r"\s+", re.UNICODE)


def normalize_name(s: str) -> str:
    """NFKC, casefold, punctuation to spaces, collapsed spaces, stripped.

    ``"  The  Beatles!"`` and ``"the beatles"`` compare equal; ``"AC/DC"`` becomes ``"ac dc"``.
    Diacritics are kept (``"Zürich"`` ≠ ``"Zurich"``): they tell real names apart.
    """
    text = unicodedata.normalize("NFKC", s).casefold()
    text = _PUNCT.sub(" ", text)
    return _SPACE.sub(" ", text).strip()
