"""Phrase pieces of question text: modifiers, filled templates, merged facts, places.

The helpers the realizer (``builder/seeding/realize.py``) builds noun phrases from; pure
string functions over the template files' phrases, no store access.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from builder.seeding.text import article, join_and, the

OF_HEAD = re.compile(r"^(?:the|a|an) ([\w' -]+?) of \{x\}$")
# "the organization {x} is a member of": the noun, then what {x} does
X_INSIDE = re.compile(r"^the ([\w' -]+?) (?:that )?\{x\} (.+)$")
# "Which award did {x} receive?": the noun, the auxiliary, the rest
WHICH_ASK = re.compile(r"^Which ([\w' -]+?) (is|was|did|does|do|are|were|has|had) \{x\}(.*)\?$")


@dataclass(frozen=True)
class Modifier:
    """One fact of a noun: its reduced form ("" when it has none) and its verb phrase."""

    reduced: str
    verb: str
    key: str = ""  # facts of one property merge: "won by A and B"
    forms: tuple[str, str] = ("", "")  # the two templates, {p} filled, {v}/{tv} not
    values: tuple[str, ...] = ()


@dataclass(frozen=True)
class Phrase:
    """A rendered noun phrase: ``weight`` counts its modifiers (nested ones too), ``depth``
    the hops nested in it; ``ref`` is how a later sentence refers back to it."""

    text: str
    weight: int = 0
    depth: int = 0
    ref: str = ""
    of: bool = False  # built around a relation's "of" phrase (not around a class noun)
    name: str = ""  # the entity when the phrase is its name ("the Palme d'Or"), not a description
    ofs: int = 0  # relation phrases stacked in it ("the country of the birthplace of X": 2)
    # the phrase said as a sentence when its facts are not what picks it out ("the head of
    # state of that country in 1979 was born in 1884"); "" when they are
    statement: str = ""


def fill(template: str, **values: str) -> str:
    out = template
    v = values.get("v", "")
    tail = re.search(r"\{t?v\} (\w+)", out)
    if tail and v.split()[-1:] == [tail.group(1)]:
        # "in the {v} series" with v = "that video game series"
        out = out.replace("} " + tail.group(1), "}", 1)
    named = re.search(r"the \{v\} (\w+)", out)
    if named and re.match(r"(?:the|that|a|an) ", v):
        # "in the {v} series" around a described phrase: "in the series that …", no "series"
        out = out.replace(named.group(0), "{v}", 1)
    out = out.replace("{a}", article(v)).replace("{tv}", the(v))
    for key, value in values.items():
        out = out.replace("{" + key + "}", value)
    return out


def repeats(ask: str, x: str) -> bool:
    """Whether ``x`` already uses the verb that ends ``ask`` (``When did {x} die?`` around
    ``the person who died in Seattle``)."""
    _, _, tail = ask.partition("{x}")
    verbs = [w for w in re.findall(r"[a-z]+", tail) if len(w) >= 3]
    words = re.findall(r"[a-z]+", x)
    return any(w.startswith(v) for v in verbs for w in words)


def ref_noun(of: str) -> str:
    """The noun a relation's phrase is about: ``the series {x} belongs to`` → ``series``."""
    m = OF_HEAD.match(of)
    if m:
        return m.group(1)
    words: list[str] = []
    for word in of.split()[1:]:
        if word in REF_STOP or (words and word.endswith("ed")):
            break
        words.append(word)
    return " ".join(words) or "one"


PLURAL_VERBS = {"is": "are", "was": "were", "has": "have"}
PLACE_PREPOSITIONS = frozenset({"in", "from", "on", "of", "for"})
# a second modifier starting with one of these keeps its "and" ("in Spain and in Barcelona")
NO_JOIN = frozenset({"in", "from", "on", "of", "at", "with", "part", "about", "for"})


THAT_X = re.compile(r"^(?:the|a|an) ([\w' -]+?) that (\w.* \{x\})$")
BY_X = re.compile(r"^(?:the|a|an) ([\w' -]+?) (\w+) by \{x\}$")


def x_last(of: str) -> tuple[str, Modifier] | None:
    """A relation phrase that ends with ``{x}`` after a verb, split into its noun and that
    verb: ``the collection that holds {x}`` → (collection, holds {x}); ``the award received
    by {x}`` → (award, received by {x} / was received by {x})."""
    m = THAT_X.match(of)
    if m:
        return m.group(1), Modifier("", m.group(2))
    m = BY_X.match(of)
    if m:
        return m.group(1), Modifier(f"{m.group(2)} by {{x}}", f"was {m.group(2)} by {{x}}")
    return None


def merged(mods: list[Modifier]) -> list[Modifier]:
    """Facts of one property said once: ``won by A and won by B`` → ``won by A and B``; the
    merged fact takes the later place (a nested phrase stays last)."""
    out: list[Modifier] = []
    for m in mods:
        prev = next((o for o in out if o.key == m.key), None)
        slots = [slot(f) for f in (*m.forms, *(prev.forms if prev else ()))]
        if prev is None or not all(slots) or prev.forms != m.forms:
            out.append(m)
            continue
        values = (*prev.values, *m.values)
        out.remove(prev)
        reduced, verb = fill_all(m.forms[0], values), fill_all(m.forms[1], values)
        out.append(Modifier(reduced, verb, m.key, m.forms, values))
    return out


def places(mods: list[Modifier]) -> list[Modifier]:
    """A region and its country said as one place: ``in Lombardy, Italy`` (``in that city in
    Japan`` when one is not a name), not ``in Italy and in Lombardy``."""
    region = next((m for m in mods if m.key == "P131exact" and m.reduced.startswith("in ")), None)
    country = next((m for m in mods if m.key == "P17exact" and m.reduced.startswith("in ")), None)
    if region is None or country is None or len(region.values) != 1:
        return mods
    inner, outer = region.reduced[3:], country.reduced[3:]
    named = not re.match(r"(?:the|that|those|a|an) ", inner) and not outer.startswith("the ")
    place = f"in {inner}, {outer}" if named else f"in {inner} in {outer}"
    out = [m for m in mods if m is not country]
    at = out.index(region)
    out[at] = Modifier(place, f"is {place}", "place", ("", ""), (*region.values, *country.values))
    return out


def slot(form: str) -> str:
    """The value placeholder a template ends with, if that is its only one ("" if not)."""
    for slot in ("{tv}", "{v}"):
        if form.endswith(slot) and form.count("{") == 1:
            return slot
    return "" if form else "-"


def fill_all(form: str, values: Sequence[str]) -> str:
    if not form:
        return ""
    end = slot(form)
    parts = [the(v) if end == "{tv}" else v for v in values]
    return form[: -len(end)] + join_and(parts)


def plural(verb: str) -> str:
    first, _, rest = verb.partition(" ")
    return f"{PLURAL_VERBS.get(first, first)} {rest}".strip()


REF_STOP = frozenset(
    {"of", "that", "where", "{x}", "by", "who", "in", "won", "held", "known", "behind"}
)
