"""Search snippets as passages: the sentences and list rows of a page that hold the query's
words, instead of a fixed window of tokens.

A page states a fact in one sentence or one row of a list ("2019 Lionel Messi;", "Succession
won in 2020, 2022 and 2024"); a window of 24 tokens around the densest match often cuts
the row off from its year, or shows the page's opening sentence with none of the numbers.
Here the page is split into segments (sentences, and the ``;``-separated rows inside them)
and segments are picked greedily: each next one covers the most query words not yet shown,
a word counting less the more segments of the page hold it (``won`` on a page of winners
tells nothing; ``2019`` does). Up to ``MAX_SEGMENTS`` segments, in page order, joined by
``…``; a segment longer than ``MAX_SEGMENT_CHARS`` is cut to a window around the query's
year (named, or held by a span) when it has one — a long list row of office holders shows
the holder of that year — else around its first query word.

Words are compared the way the FTS5 index tokenizes them (``unicode61 remove_diacritics``:
letters and digits, case and diacritics folded), so a snippet shows what matched. A year in
the query is also held by a segment that gives a span of years around it (``served from 26
October 1951 to 5 April 1955`` holds ``1953``): a question "as of 1953" is answered by a span.
"""

from __future__ import annotations

import math
import re
import unicodedata
from functools import lru_cache

# names how snippets are made, for caches of search responses (bump when the choice changes)
SNIPPETS = "passages-2"
MAX_SEGMENTS = 3
MAX_SEGMENT_CHARS = 240

_TOKEN = re.compile(r"\w+", re.UNICODE)
# a sentence ends at . ! ? after a word of two letters or more, a number or a bracket
# ("Nedvěd.", "1955.", "(2021)."; not the initials of "George H. W. Bush" nor "U.S."), or a
# list row at ";"
_BOUNDARY = re.compile(r"(?<=[\w)\]][\w)\]][.!?])\s+(?=[^\W_a-z]|[\"'(])|(?<=;)\s+")


# a span of years: "1951–1955", "(2023–)", "from 26 October 1951 to 5 April 1955",
# "between 1993 and 2013", "since 2019", "(from 2012)" in a list row; a dash before a date
# ("1874 – 24 January 1965", a life span) is not an open span
_SPAN = re.compile(
    r"\b(\d{4})\s*[–—-]\s*(?:(\d{4})\b|(?!\s*\d))"
    r"|\bfrom\b[^;]*?\b(\d{4})\b[^;]*?\b(?:to|until)\b[^;]*?\b(\d{4})\b"
    r"|\bbetween\s+(\d{4})\s+and\s+(\d{4})\b"
    r"|\bsince\s+(?:\w+\s+){0,2}?(\d{4})\b"
    r"|\(from\s+(\d{4})\)"
)
_YEAR = re.compile(r"^\d{4}$")
OPEN_END = 9999


# "the first non-LDP government since 1955": an event that ended a run, not a span of it
_FIRST_SINCE = re.compile(r"\bfirst\b(?:\W+\w+){0,6}\W*$")


def spans(text: str) -> list[tuple[int, int]]:
    """The spans of years ``text`` gives, as (first, last) years; an open span ends at
    ``OPEN_END``. "The first … since 1955" is no span: it says what happened then, not what
    lasted since."""
    out = []
    for m in _SPAN.finditer(text):
        a, b, c, d, f, g, e, h = m.groups()
        if e and _FIRST_SINCE.search(text[max(0, m.start() - 80) : m.start()]):
            continue
        if a:
            out.append((int(a), int(b) if b else OPEN_END))
        elif c:
            out.append((int(c), int(d)))
        elif f:
            out.append((int(f), int(g)))
        elif h:
            out.append((int(h), OPEN_END))
        else:
            out.append((int(e), OPEN_END))
    return out


def covers(text: str, year: int) -> bool:
    """``text`` gives a span of years that holds ``year``."""
    return any(lo <= year <= hi for lo, hi in spans(text))


@lru_cache(maxsize=1 << 16)
def fold(word: str) -> str:
    """A token as the index sees it: diacritics removed, case folded."""
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def terms(text: str) -> list[str]:
    """The distinct folded tokens of ``text``, in order."""
    return list(dict.fromkeys(fold(t) for t in _TOKEN.findall(text)))


def segments(text: str) -> list[str]:
    """The page's sentences, and the ``;``-separated rows inside them."""
    return [s.strip() for s in _BOUNDARY.split(text) if s.strip()]


def _year_at(segment: str, years: list[int]) -> int | None:
    """Where ``segment`` names one of ``years``, else where a span of it holds one."""
    for y in years:
        m = re.search(rf"\b{y}\b", segment)
        if m:
            return m.start()
    for m in _SPAN.finditer(segment):
        if any(lo <= y <= hi for lo, hi in spans(m.group()) for y in years):
            return m.start()
    return None


def _window(segment: str, wanted: set[str], years: list[int] | None = None) -> str:
    """A long segment cut to ``MAX_SEGMENT_CHARS`` around the query's year when it names
    one or a span holding it (in a long list row, "Shinzo Abe (2012–2020)" for a query "…
    2019": the names come before their spans, so the window leads up to it), else around
    its first query word."""
    if len(segment) <= MAX_SEGMENT_CHARS:
        return segment
    at = _year_at(segment, years) if years else None
    if at is not None:
        first = at
        lead = 2 * MAX_SEGMENT_CHARS // 3
    else:
        words = (m.start() for m in _TOKEN.finditer(segment) if fold(m.group()) in wanted)
        first = next(words, 0)
        lead = MAX_SEGMENT_CHARS // 3
    start = max(0, min(first - lead, len(segment) - MAX_SEGMENT_CHARS))
    if start:
        space = segment.find(" ", start)
        start = space + 1 if 0 <= space < first else start
    end = start + MAX_SEGMENT_CHARS
    if end < len(segment):
        space = segment.rfind(" ", start, end)
        end = space if space > first else end
    cut = segment[start:end].strip()
    return ("…" if start else "") + cut + ("…" if end < len(segment) else "")


def passage(text: str, query: str) -> str:
    """The segments of ``text`` that best cover the words of ``query`` (see module doc);
    the page's first segment when none holds any."""
    parts = segments(text)
    if not parts:
        return ""
    wanted = set(terms(query))
    years = [int(w) for w in wanted if _YEAR.match(w)]
    # a span holding a year is its own, lesser word ("~1953"): a row naming the year still
    # adds to a sentence whose span ("since 1956") holds it
    held = [(set(terms(p)) & wanted) | {f"~{y}" for y in years if covers(p, y)} for p in parts]
    df: dict[str, int] = {}
    for h in held:
        for w in h:
            df[w] = df.get(w, 0) + 1
    weight = {w: math.log(1 + len(parts) / n) / (2 if w[0] == "~" else 1) for w, n in df.items()}
    chosen: list[int] = []
    shown: set[str] = set()
    while len(chosen) < MAX_SEGMENTS:
        gains = [
            (sum(weight[w] for w in h - shown), -i) for i, h in enumerate(held) if i not in chosen
        ]
        best = max(gains, default=(0.0, 0))
        if best[0] <= 0:
            break
        i = -best[1]
        chosen.append(i)
        shown |= held[i]
    if not chosen:
        return _window(parts[0], set())
    return " … ".join(_window(parts[i], wanted, years) for i in sorted(chosen))
