"""Text helpers shared by seeding, injection and the checks: matching and small grammar."""

from __future__ import annotations

import re
from collections.abc import Sequence

from builder.kb.text import normalize_name

_AUXILIARIES = frozenset({"was", "is", "were", "are", "has", "had"})
# participles a reduced modifier starts with ("born in 1972"), never a finite verb ("died")
_PARTICIPLES = frozenset(
    {"born", "discovered", "released", "founded", "directed", "written", "produced", "created"}
    | {"published", "developed", "painted", "made", "built", "launched", "located", "founded"}
)
_DETERMINERS = frozenset({"the", "a", "an", "that", "this", "its", "their"})


def leaks(text: str, forbidden: Sequence[str]) -> list[str]:
    """The forbidden strings (answers, aliases) that ``text`` contains as whole words."""
    hay = f" {normalize_name(text)} "
    out = []
    for item in forbidden:
        needle = normalize_name(item)
        if needle and f" {needle} " in hay:
            out.append(item)
    return out


def plain(label: str) -> str:
    """A label without its disambiguator: ``The Last of Us (series)`` → ``The Last of Us``."""
    return re.sub(r"\s+\([^)]*\)$", "", label) or label


def article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def the(name: str) -> str:
    """A name as it reads after a verb: ``Nobel Prize in Physics`` → ``the Nobel Prize in
    Physics``; phrases with a determiner and acronyms (``FIFA``) stay as they are."""
    first = name.split(" ", 1)[0]
    if not name or first.casefold() in _DETERMINERS or (len(first) > 1 and first.isupper()):
        return name
    return f"the {name}"


def definite(label: str, listed: bool) -> str:
    """A name that takes "the" in running text (``listed``: by the names lexicon), with it:
    ``United States`` → ``the United States``; a label with a determiner stays, and so does a
    one-word acronym that is not listed (``NATO``)."""
    first = label.split(" ", 1)[0]
    if not label or first.casefold() in _DETERMINERS or not listed:
        return label
    return f"the {label}"


def join_and(parts: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(parts) <= 2:
        return " and ".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def join_verbs(verbs: Sequence[str]) -> str:
    """Verb phrases of one subject; a repeated auxiliary is said once (``was released in
    1994 and directed by X``), and so is a repeated verb with its preposition (``died in
    1923 in Munich``) or a repeated participle (``discovered by X in 1673``)."""
    out: list[str] = []
    prev: list[str] = []
    for verb in verbs:
        words = verb.split()
        shared = 0
        while shared < min(len(words) - 1, len(prev)) and words[shared] == prev[shared]:
            shared += 1
        if out and shared >= 2 and (prev[0] in _PARTICIPLES or words[shared - 1] == "in"):
            # a reduced modifier or a verb with "in" said twice: "born in Boston in 1967",
            # "died in 1923 in Munich"
            out[-1] = f"{out[-1]} {' '.join(words[shared - 1 :])}"
            prev = words
            continue
        if out and shared >= 2:
            verb = " ".join(words[shared - 1 :])  # the preposition stays: "and in Munich"
        elif out and shared == 1 and words[0] in _AUXILIARIES:
            verb = " ".join(words[1:])
        elif out and shared == 1 and prev[0] in _PARTICIPLES:
            # one participle, two facts: "discovered by X in 1673"
            out[-1] = f"{out[-1]} {' '.join(words[1:])}"
            prev = words
            continue
        prev = words
        out.append(verb)
    return join_and(out)


def capitalize(text: str) -> str:
    """One sentence: single spaces, no doubled determiners, capital first letter."""
    text = " ".join(text.split())
    text = tidy(text)
    # a fact said between commas at the end of a sentence: "…, born in 1911?"
    text = re.sub(r",\s*([?.,]| —)", r"\1", text)
    return text[:1].upper() + text[1:]


def tidy(text: str) -> str:
    """No doubled determiners: ``the the`` / ``the that`` / ``the The`` said once."""
    for old, new in ((" the the ", " the "), (" the that ", " that "), (" the The ", " The ")):
        text = text.replace(old, new)
    return re.sub(r"\b([Tt]he) the ", r"\1 ", text)
