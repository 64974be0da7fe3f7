"""Putting a question of several sentences together: a lead for the described phrases that
get a sentence of their own, and possessives for what an earlier sentence introduced.

``I'm thinking of the film directed by X. Who won the award it received?`` rather than
``Consider the film directed by X. Who won the award received by that film?``. The lead is
picked by a stable hash of the text (never Python's ``hash``), so output is deterministic.
"""

from __future__ import annotations

import hashlib
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from builder.seeding.templates import StylePhrases
from builder.seeding.text import capitalize

# a possessive replaces "the <noun> of <ref>" only for a plain noun ("head of government" is
# one): no clause, date or second fact inside
_FUNCTION = frozenset({"and", "in", "by", "with", "for", "on", "at", "from", "to", "as", "or"})
_DETERMINER = re.compile(r"\b(?:the|a|an|that|which|who|whose|where)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Intro:
    """A described phrase said in the lead, how later sentences name it (``ref``) and the
    possessive they may use instead (``"" `` when none reads safely)."""

    text: str
    ref: str
    possessive: str = ""
    statement: str = ""  # the phrase as a sentence of its own ("its head of state in 1979 was …")


def stable_index(text: str, n: int) -> int:
    """A number in ``range(n)`` from ``text`` (the same on every run and machine)."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return int.from_bytes(digest[:4], "big") % max(n, 1)


def possessive(style: StylePhrases, ref: str, human: bool) -> str:
    """``its`` / ``their`` for ``that <noun>``, or "" when the noun may be a person or not."""
    noun = ref.removeprefix("that ").removeprefix("those ")
    if human or noun in style.people:
        return "their"
    if noun in style.unsure:
        return ""
    return "their" if noun in style.plural else "its"


def with_possessive(text: str, ref: str, pronoun: str, keep_of: Sequence[str] = ()) -> str:
    """``the winner of that award`` → ``its winner`` when ``ref`` occurs once in ``text`` and
    the noun before it has no determiner or clause of its own (and is not in ``keep_of``)."""
    if not pronoun or not ref or text.count(ref) != 1:
        return text
    at = text.find(f" of {ref}")
    if at < 0 or text[at + len(f" of {ref}") :][:1] not in ("", " ", "?", ".", ","):
        return text
    head = text[:at]
    start = head.rfind("the ")
    if start < 0 or (start and head[start - 1] != " "):
        return text
    noun = head[start + 4 :]
    words = noun.split()
    if not words or _DETERMINER.search(noun) or len(words) > 4 or _FUNCTION & set(words):
        return text
    if not all(w.isalpha() or "-" in w for w in words) or noun in keep_of:
        return text
    return f"{text[:start]}{pronoun} {noun}{text[at + len(f' of {ref}') :]}"


_SUBJECT_VERBS = {"was": "were", "is": "are", "did": "did", "does": "do", "has": "have"}


def with_pronoun(text: str, ref: str) -> str:
    """A person said just before named by a pronoun: ``When did that winner die?`` →
    ``When did they die?``, ``Who coached that person?`` → ``Who coached them?``; ``text``
    as it is when ``ref`` occurs more than once or in another place."""
    if not ref or text.count(ref) != 1:
        return text
    m = re.search(rf"\b(was|is|did|does|has) {re.escape(ref)}\b", text)
    if m:
        return f"{text[: m.start()]}{_SUBJECT_VERBS[m.group(1)]} they{text[m.end() :]}"
    m = re.search(rf"\b(\w+) {re.escape(ref)}\?$", text)
    if m and m.group(1) not in _FUNCTION | {"of", "that", "who", "than"}:
        return f"{text[: m.start(1)]}{m.group(1)} them?"
    return text


def plural_noun(noun: str) -> str:
    """``head of state`` → ``heads of state``, ``head coach`` → ``head coaches``."""
    head, of, rest = noun.partition(" of ")
    if head.endswith(("s", "x", "ch", "sh")):
        many = head + "es"
    elif head.endswith("y") and head[-2:-1] not in "aeiou":
        many = head[:-1] + "ies"
    else:
        many = head + "s"
    return many + of + rest


def with_partitive(text: str, ref: str, pronoun: str, keep_of: Sequence[str] = ()) -> str:
    """``Which head of state of that country was …?`` → ``Which of its heads of state was
    …?`` (one of several, said as a person asks it); ``text`` as it is otherwise."""
    if not pronoun or not ref or text.count(ref) != 1:
        return text
    m = re.match(rf"Which ([a-z][a-z -]*?) of {re.escape(ref)} (was|is|did|does|has|had)\b", text)
    if m is None or m.group(1) in keep_of:
        return text
    return f"Which of {pronoun} {plural_noun(m.group(1))} {m.group(2)}{text[m.end() :]}"


def compose(style: StylePhrases, intros: Sequence[Intro], ask: str) -> str:
    """``<lead with A, and B>. <question>``; each sentence names the phrase just before it by
    a possessive where it can."""
    if not intros:
        return capitalize(ask)
    parts = [intros[0].text]
    told: list[str] = []  # later phrases said as statements, after the lead
    for prev, cur in itertools.pairwise(intros):
        if cur.statement and not told:
            told.append(with_possessive(cur.statement, prev.ref, prev.possessive, style.keep_of))
        elif told:
            return _listed(style, intros, ask)
        else:
            parts.append(with_possessive(cur.text, prev.ref, prev.possessive, style.keep_of))
    ask = with_possessive(ask, intros[-1].ref, intros[-1].possessive, style.keep_of)
    ask = with_partitive(ask, intros[-1].ref, intros[-1].possessive, style.keep_of)
    if intros[-1].possessive == "their":
        ask = with_pronoun(ask, intros[-1].ref)
    said = "".join(f" {capitalize(t)}." for t in told)
    lead = _lead(style, parts, ask, topic=len(parts) == 1 and not told)
    if lead.endswith(" —"):
        # a country is where the question happens: "In the country where Nino Rota died, when
        # did the head of government die?"; another topic is said under a lead, not before a
        # dash ("The league … plays in — who coached its winner?" read as machine-made)
        inside = _in_country(intros[0], capitalize(ask))
        if inside:
            return inside
        lead = _lead(style, parts, ask, topic=False)
    return lead + said + " " + capitalize(ask)


def _in_country(intro: Intro, ask: str) -> str:
    """``In <the country …>, <the ask with "its" for "the">`` when the ask names the country
    once, by "its" ("who was its head of state in 1989?"), else ""."""
    words = ask.split()
    if intro.ref != "that country" or words.count("its") != 1 or "that country" in ask:
        return ""
    if " of its " in ask:  # "which of its heads of state …" stays the country's own
        return ""
    said = " ".join("the" if w == "its" else w for w in words)
    return f"In {intro.text}, {said[:1].lower()}{said[1:]}"


def _listed(style: StylePhrases, intros: Sequence[Intro], ask: str) -> str:
    """Every phrase under one lead (``A, B, and C``), none said as a statement."""
    plain = [Intro(i.text, i.ref, i.possessive) for i in intros]
    return compose(style, plain, ask)


def _lead(style: StylePhrases, parts: Sequence[str], ask: str, topic: bool = True) -> str:
    """The lead sentence with the phrases said first (picked by a hash of them and ``ask``);
    ``topic``: one phrase, said as the topic of the question ("{x} —") where style has one."""
    body = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + ", and " + parts[-1]
    # one phrase is the question's topic ("<x> — who …?"); several are said under a lead
    topics = [w for w in style.lead if w.endswith(" —")]
    leads = topics if topic and topics else [w for w in style.lead if not w.endswith(" —")]
    lead = leads[stable_index(body + ask, len(leads))] if leads else "{x}."
    # a name ending in a full stop ("Warner Bros.") ends the sentence once
    return capitalize(lead.replace("{x}", body).replace("..", "."))
