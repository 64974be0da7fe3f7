"""Evidence: a sentence of a page that states a hop's fact, and the answer's surface forms."""

from __future__ import annotations

import re
from decimal import Decimal

from builder.records.page import Page
from builder.records.sample import Evidence
from builder.records.seed import HopSpec
from builder.records.wikidata import DataValue, QuantityValue, TimeValue
from builder.seeding.facts import Facts, format_time, time_aliases, year_of
from builder.seeding.realize import Realizer

SEARCH_K = 10
DEMONYM = "P1549"
# function words carry no evidence and make an OR query match (and rank) every page
STOPWORDS = frozenset(
    {
        "a",
        "an",
        "and",
        "as",
        "at",
        "by",
        "for",
        "from",
        "in",
        "into",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "that",
        "the",
        "this",
        "to",
        "was",
        "were",
        "which",
        "who",
        "whose",
        "with",
    }
)

_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(text) if s.strip()]


def number_forms(num: Decimal) -> list[str]:
    """How a page may write a number: 8,336,817 / 8336817 / 8.3 million / 8.34 million."""
    forms = []
    if num == num.to_integral():
        forms += [f"{int(num):,}", str(int(num))]
    else:
        forms.append(str(num.normalize()))
    for scale, word in ((Decimal(10**9), "billion"), (Decimal(10**6), "million")):
        if abs(num) >= scale:
            for digits in (2, 1, 0):
                text = f"{num / scale:.{digits}f}"
                if "." in text:
                    text = text.rstrip("0").rstrip(".")
                forms.append(f"{text} {word}")
            break
    return list(dict.fromkeys(forms))


def value_forms(facts: Facts, dv: DataValue) -> list[str]:
    """Surface forms of a value, most specific first."""
    v = dv.parsed()
    if isinstance(v, TimeValue):
        return [format_time(v), *time_aliases(v), str(v.year)]
    if isinstance(v, QuantityValue) and v.number is not None:
        return number_forms(v.number)
    if dv.type == "wikibase-entityid":
        key = dv.key()
        return [facts.label(key), *facts.aliases(key), *demonyms(facts, key)]
    return [facts.display(dv)]


def demonyms(facts: Facts, key: str) -> list[str]:
    """How a page names a country's people ("an American physicist" states citizenship of the
    United States): the country's demonyms (``P1549``)."""
    return [facts.display(v) for v in facts.values(key, DEMONYM)]


def entity_forms(facts: Facts, entity_id: str) -> list[str]:
    return [facts.label(entity_id), *facts.aliases(entity_id)]


def _contains(sentence: str, form: str) -> bool:
    if len(form) < 2:
        return False
    pattern = r"(?<![\w])" + re.escape(form) + r"(?![\w])"
    return re.search(pattern, sentence, flags=re.IGNORECASE) is not None


def snippet(page: Page | None, forms: list[str]) -> Evidence | None:
    """The first sentence of ``page`` that contains one of ``forms`` (in order of forms)."""
    if page is None:
        return None
    sents = sentences(page.text)
    for form in forms:
        for sent in sents:
            if _contains(sent, form):
                return Evidence(title=page.title, url=page.url, snippet=sent)
    return None


def evidence_options(
    facts: Facts, spec: HopSpec, prev: str | None, answer_key: str
) -> list[Evidence]:
    """Sentences stating the hop's fact, on the pages where they may be (best first)."""
    store = facts.store
    found: list[Evidence | None] = []
    if not spec.link:
        forms: list[str] = []
        for c in spec.constraints:
            if c.match == "year":
                forms.append(str(year_of(c.value)))
            else:
                forms += entity_forms(facts, c.value)
        found.append(snippet(store.get_page(answer_key), forms))
    elif prev is None:
        return []
    elif spec.link_inverse:
        found.append(snippet(store.get_page(answer_key), entity_forms(facts, prev)))
        found.append(snippet(store.get_page(prev), entity_forms(facts, answer_key)))
    else:
        dv = facts.literal(prev, spec.link, answer_key)
        if dv is None:
            return []
        found.append(snippet(store.get_page(prev), value_forms(facts, dv)))
        if dv.type == "wikibase-entityid":
            found.append(snippet(store.get_page(answer_key), entity_forms(facts, prev)))
    return [e for e in found if e is not None]


def hop_query(facts: Facts, spec: HopSpec, prev: str | None) -> str:
    """The search query for a hop: its description as a noun phrase, the previous answer
    named (what an agent that resolved the previous hop would type)."""
    phrase = Realizer(facts).noun_phrase(spec, facts.label(prev) if prev else "")
    words = [w for w in re.findall(r"[\w'-]+", phrase) if w.casefold() not in STOPWORDS]
    return " ".join(words)


def retrievable(
    facts: Facts, spec: HopSpec, prev: str | None, options: list[Evidence], k: int = SEARCH_K
) -> list[Evidence]:
    """The first evidence whose page local search ranks in the top ``k`` for the hop's query."""
    if not options:
        return []
    titles = set(facts.search_titles(hop_query(facts, spec, prev), k))
    return next(([ev] for ev in options if ev.title in titles), [])


def hop_evidence(facts: Facts, spec: HopSpec, prev: str | None, answer_key: str) -> list[Evidence]:
    """One evidence sentence stating the hop's fact on a page search finds, or []."""
    return retrievable(facts, spec, prev, evidence_options(facts, spec, prev, answer_key))


def answer_text(facts: Facts, key: str, subject: str, pid: str) -> tuple[str, list[str]]:
    """The answer's display text and accepted aliases."""
    dv = facts.literal(subject, pid, key) if subject and pid else None
    if dv is None or dv.type == "wikibase-entityid":
        return facts.label(key), [a for a in facts.aliases(key) if a != facts.label(key)]
    text = facts.display(dv)
    forms = [f for f in value_forms(facts, dv) if f != text]
    v = dv.parsed()
    if isinstance(v, TimeValue) and v.precision >= 10:
        forms = [f for f in forms if f != str(v.year)]
    return text, list(dict.fromkeys(forms))
