"""The oracle walk: a reference policy that reads the gold decomposition and solves a sample
by search, hop by hop, the way an agent that asks at the right moment would.

Privileged (it reads the checkpoints: goals, gold answers, candidates), but honest about
search: per hop it builds the query from the hop's relation (its ``goal``, with the
reference to the previous step — ``that composer`` — replaced by the answer it *found* at
the previous hop; function words dropped), plus the user's reply when it asked, and it
takes an answer only when the search results show it:

- at an unambiguous hop, the gold answer (or an alias) must be a result's page or be named
  in a result's title or snippet;
- at an ambiguous hop (when the policy asks there) the reply is added to the query and the
  candidate the results rank first is taken (a candidate's own page counts before a snippet
  that merely names it); without asking, the same reading on the vague query.

A wrong candidate, or a gold answer absent from the results, stops the walk at that hop with
the reason. The same walk is the ``oracle:…`` agents of the harness and the
``oracle_solvable`` check of the injection stage.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal, Protocol

from builder.evaluation.matching import normalize
from builder.evaluation.prompts import load_word_list
from builder.kb.passages import covers, segments
from builder.records.sample import Candidate, Checkpoint, Sample
from builder.seeding.templates import load_templates

_WORD = re.compile(r"[\w'-]+")
# "that person", "that one", "that video game award": the reference to the previous answer
_REF = re.compile(r"\bthat\b")
_YEAR = re.compile(r"\s*\(\d{3,4}\)\s*$")


class Hit(Protocol):
    @property
    def title(self) -> str: ...
    @property
    def snippet(self) -> str: ...
    @property
    def entity_id(self) -> str: ...


SearchFn = Callable[[str], Sequence[Hit]]
AskFn = Callable[[Checkpoint], str | None]


@dataclass
class Walk:
    """What the oracle did: the answers it stated, where and why it stopped."""

    stated: dict[str, str] = field(default_factory=dict)
    final: str = ""
    failed_hop: int | None = None
    reason: str = ""
    queries: list[str] = field(default_factory=list)

    @property
    def reached(self) -> bool:
        return self.failed_hop is None


def _words(text: str) -> list[str]:
    stop = load_word_list("oracle_stopwords.txt")
    return [w for w in _WORD.findall(text) if w.casefold() not in stop]


def hop_query(goal: str, previous: str, reply: str = "") -> str:
    """The hop's relation with the previous answer named (plus the user's reply)."""
    text = goal
    if previous:
        text, n = _REF.subn(lambda _: previous, goal, count=1)
        if not n:
            text = f"{goal} {previous}"
    if reply:
        text = f"{text} {reply}"
    return " ".join(dict.fromkeys(_words(text)))


@lru_cache(maxsize=1 << 16)
def _phrase(text: str) -> str:
    """`` normalized text `` (cached: the same titles, snippets and labels come back for
    every sample of a run)."""
    return f" {normalize(text)} "


def states(hit: Hit, cp: Checkpoint) -> bool:
    """The result shows the checkpoint's gold answer: it is the answer's page or the page of
    the checkpoint's evidence sentence (which states the fact), or names the answer in its
    title or snippet as whole words."""
    if cp.entity_id and hit.entity_id == cp.entity_id:
        return True
    if any(hit.title == e.title for e in cp.evidence):
        return True
    title, snippet = _phrase(hit.title), _phrase(hit.snippet)
    for form in (cp.answer, *cp.answer_aliases):
        f = _phrase(form)
        if f.strip() and (f in title or f in snippet):
            return True
    return False


def name_of(c: Candidate) -> str:
    """The candidate as pages name it: a version's label without its year (``"Lionel Messi
    (2009)"`` is written ``Lionel Messi``)."""
    return _YEAR.sub("", c.label) or c.label


def rank_candidates(cands: Sequence[Candidate], hits: Sequence[Hit]) -> list[Candidate]:
    """Candidates whose own page is in the results (in rank order), then those a result's
    title or snippet names (in rank order, then by position in the snippet)."""
    order: list[Candidate] = []
    taken: set[int] = set()  # by position: comparing pydantic records is slow
    for h in hits:
        t = _phrase(h.title)
        for i, c in enumerate(cands):
            if i not in taken and (
                (h.entity_id and h.entity_id == c.id) or t == _phrase(name_of(c))
            ):
                order.append(c)
                taken.add(i)
    for h in hits:
        text = _phrase(f"{h.title} . {h.snippet}")
        named = []
        for i, c in enumerate(cands):
            label = _phrase(name_of(c))
            if i not in taken and label.strip() and label in text:
                named.append((text.index(label), i))
        for _, i in sorted(named):
            order.append(cands[i])
            taken.add(i)
    return order


def clue_words(reply: str) -> set[str]:
    """The words of the user's reply that can tell candidates apart."""
    filler = load_word_list("oracle_filler.txt")
    return {normalize(w) for w in _words(reply) if w.casefold() not in filler and normalize(w)}


def clue_text(reply: str) -> str:
    """Those words as the reply wrote them, for a query (the search backend tokenizes
    ``Schleswig-Holstein`` itself; the normalized ``schleswigholstein`` would match nothing)."""
    filler = load_word_list("oracle_filler.txt")
    kept = (w for w in _words(reply) if w.casefold() not in filler and normalize(w))
    return " ".join(dict.fromkeys(kept))


# "(12 June 1924 – 30 November 2018)" after a name: born on the first date, died on the second
_LIFESPAN = re.compile(r"\((\d{1,2} \w+ \d{3,4}) – (\d{1,2} \w+ \d{3,4})\)")


@lru_cache(maxsize=1 << 16)
def _read(text: str) -> str:
    """`` normalized text `` as the reader takes it in: hyphenated words apart
    ("Austrian-born", "German-American"), a life span's dates said as born and died."""
    text = _LIFESPAN.sub(r"(born \1 died \2)", text).replace("-", " ")
    return f" {normalize(text)} "


@lru_cache(maxsize=1)
def _demonyms() -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    for line in load_word_list("oracle_demonyms.txt"):
        country, _, adjectives = line.partition("=")
        out[normalize(country)] = tuple(normalize(a) for a in adjectives.split(","))
    return out


def with_demonyms(reply: str) -> str:
    """The reply with the adjectives of each country it names ("from Austria" is said of an
    "Austrian-born" scientist; ``oracle_demonyms.txt``), for a query."""
    said = f" {normalize(reply)} "
    extra = [a for country, adjs in _demonyms().items() if f" {country} " in said for a in adjs]
    return f"{reply} {' '.join(dict.fromkeys(extra))}" if extra else reply


Clue = Sequence[tuple[str, ...]]


def clue_groups(reply: str) -> list[tuple[str, ...]]:
    """What the reply says, as groups of words any of which shows it: a country it names with
    the adjectives for it (``("austria", "austrian")``), else each telling word alone."""
    said = _read(reply)
    groups: list[tuple[str, ...]] = []
    used: set[str] = set()
    for country, adjectives in _demonyms().items():
        if f" {country} " in said:
            groups.append((country, *adjectives))
            used |= set(country.split())
    words = {part for w in clue_words(reply) for part in _read(w).split()}
    groups += [(w,) for w in sorted(words - used)]
    return groups


def _weight(group: tuple[str, ...]) -> int:
    """How much a clue group tells candidates apart: a number (a year, "died in 2018") more
    than a word ("died")."""
    return 2 if any(w.isdigit() for w in group) else 1


def full_support(clue: Clue) -> int:
    """The support of results that show every group of the clue (none in a label)."""
    return sum(_weight(g) for g in clue)


_NEGATION = (" not ", " never ", " no longer ")


def _shown(text: str) -> bool:
    """A sentence that can show a fact: one that does not deny it ("It is not a member of
    the European Union")."""
    return not any(n in text for n in _NEGATION)


def _clue_page(hit: Hit, clue: Clue) -> bool:
    """The result is the page of an entity the clue names ("borders Andorra": Andorra's
    page), which states the narrowing fact from the other side ("Andorra shares land
    borders with France")."""
    title = set(_read(hit.title).split())
    return bool(title) and title <= {w for g in clue for w in g}


def named_groups(clue: Clue, reply: str) -> list[tuple[str, ...]]:
    """The clue's groups that name an entity: a word the reply capitalizes ("Andorra",
    "Beijing", "European Union")."""
    caps = {p for w in _WORD.findall(reply) if w[:1].isupper() for p in _read(w).split()}
    return [g for g in clue if any(w in caps for w in g)]


def support(c: Candidate, hits: Sequence[Hit], clue: Clue, *, direct: bool = False) -> int:
    """How much the results about ``c`` (its page; on another page, the sentences naming it)
    show the clue (:func:`clue_groups`; a group in the candidate's label counts double). A
    sentence denying the fact does not show it. ``direct``: only the candidate's own page
    and the pages of the entities the clue names (read both ways: Monaco's page says it
    borders France), not a third page that names it next to the clue's words."""
    label = _read(name_of(c))
    own = _read(c.label)  # a version's label carries its year: "X (2018)"
    texts: list[str] = []
    for h in hits:
        if h.entity_id and h.entity_id == c.id:
            texts += [_read(h.title), *(_read(p) for p in _pieces(h))]
            continue
        if direct and not _clue_page(h, clue):
            continue
        texts += [t for piece in (h.title, *_pieces(h)) if label in (t := _read(piece))]
    texts = [t for t in texts if _shown(t)]
    total = 0
    for group in clue:
        if any(f" {w} " in own for w in group):
            total += 2 * _weight(group)
        elif any(f" {w} " in t for t in texts for w in group):
            total += _weight(group)
    return total


_YEAR_LABEL = re.compile(r"\((\d{3,4})\)\s*$")
_CLUE_YEAR = re.compile(r"\b(\d{4})\b")


def _by_year(cands: Sequence[Candidate], reply: str) -> Candidate | None:
    """Versions (labels ending in their year, ``"X (2018)"``) and a year in the reply: the
    version in force then, the latest that began in or before that year."""
    years = [int(y) for y in _CLUE_YEAR.findall(reply)]
    dated = [(int(m.group(1)), c) for c in cands if (m := _YEAR_LABEL.search(c.label))]
    if len(years) != 1 or len(dated) != len(cands):
        return None
    before = [(y, c) for y, c in dated if y <= years[0]]
    return max(before, key=lambda p: p[0])[1] if before else None


# a person's own dates: "(born 6 May 1953)", "(3 January 1883 – 8 October 1967)", "born in
# 1946", "died on 21 February 1999" — a year there is not the year they held anything
_LIFE = re.compile(
    r"\(born [^)]*\)|\(\d{1,2} \w+ \d{3,4} – \d{1,2} \w+ \d{3,4}\)"
    r"|\b(?:born|died)\s+(?:on\s+|in\s+)?(?:\d{1,2}\s+\w+\s+)?\d{3,4}"
)


# words of a sentence before and after a year (or a run of years) that count as next to it
_NEAR_BEFORE, _NEAR_AFTER = 10, 3


def _next_to(text: str, year: int) -> set[str]:
    """The words next to ``year`` in normalized ``text``: a run of years ("in 2011 2014
    and 2021") is one place, so the words before its first year count."""
    words = text.split()
    at = words.index(str(year))
    start = at
    while start > 0 and (words[start - 1].isdigit() or words[start - 1] == "and"):
        start -= 1
    end = at + 1
    while end < len(words) and (words[end].isdigit() or words[end] == "and"):
        end += 1
    return set(words[max(0, start - _NEAR_BEFORE) : end + _NEAR_AFTER])


def _pieces(hit: Hit) -> list[str]:
    """A result's snippet as the sentences and list rows it shows."""
    return [seg for part in hit.snippet.split(" … ") for seg in segments(part.strip("… "))]


def _gap(spot: int, at: int, size: int) -> tuple[int, int]:
    """Distance from a year at ``spot`` to a name at ``at`` (its nearer end); a name before
    the year wins a tie."""
    return (spot - (at + size), 0) if at < spot else (at - spot, 1)


def _year_votes(
    cands: Sequence[Candidate], hits: Sequence[Hit], year: int, relation: set[str]
) -> list[int]:
    """Per candidate, how strongly the results tie ``year`` to it. A sentence or row of a
    result that names the year (2) or gives a span holding it (1) counts that many times the
    relation's words shown with it — in the result's title or next to the year ("won the
    Ballon d'Or in 1997 and 2002", not "won the Ballon d'Or in 1999 and the World Cup in
    2002") — and goes to the candidate named nearest the year in it, or, when it names none,
    to the candidate whose page it is. On the page of that year's edition ("2014 FIFA World
    Cup") every sentence holds the year. A person's own dates (born, died) are not read."""
    names = [f" {normalize(name_of(c))} " for c in cands]
    votes = [0] * len(cands)
    for h in hits:
        owner = next((i for i, c in enumerate(cands) if h.entity_id and h.entity_id == c.id), None)
        title = set(normalize(h.title).split())
        for piece in _pieces(h):
            piece = _LIFE.sub(" ", piece)
            text = f" {normalize(piece)} "
            spot = text.find(f" {year} ")
            if spot >= 0:
                weight = 2 * len(relation & (title | _next_to(text, year)))
            elif str(year) in title:  # the page of that year's edition: "2014 FIFA World Cup"
                weight = 2 * len(relation & (title | set(text.split())))
            else:
                weight = len(relation & (title | set(text.split()))) if covers(piece, year) else 0
            if not weight:
                continue
            named = [
                (i, text.find(n), len(n)) for i, n in enumerate(names) if n.strip() and n in text
            ]
            if named and spot >= 0:
                votes[min(named, key=lambda m: _gap(spot, m[1], m[2]))[0]] += weight
            elif len(named) == 1:
                votes[named[0][0]] += weight
            elif named and (held := _span_holder(piece, cands, year)) is not None:
                votes[held] += weight
            elif not named and owner is not None:
                votes[owner] += weight
    return votes


_SPAN = re.compile(r"\((\d{4})\s*[–-]\s*(\d{4})\)|\(from (\d{4})\)")


def _span_holder(piece: str, cands: Sequence[Candidate], year: int) -> int | None:
    """In a list row naming several candidates each followed by its span ("Harry S. Truman
    (1945–1953), Dwight D. Eisenhower (1953–1961)"), the one whose own span holds ``year``;
    None when no span or two spans hold it (a transition year tells none apart)."""
    held: set[int] = set()
    for m in _SPAN.finditer(piece):
        lo = int(m.group(1) or m.group(3))
        hi = int(m.group(2)) if m.group(2) else 9999
        if not lo <= year <= hi:
            continue
        before = f" {normalize(piece[: m.start()])}"
        for i, c in enumerate(cands):
            name = normalize(name_of(c))
            if name and before.endswith(f" {name}"):
                held.add(i)
    return held.pop() if len(held) == 1 else None


def _by_year_in_results(
    cands: Sequence[Candidate],
    hits: Sequence[Hit],
    reply: str,
    goal_terms: set[str],
    search: SearchFn,
) -> Candidate | None:
    """A version named by a year in the reply ("I mean the one from 2022"): the candidate
    the results tie that year to (see :func:`_year_votes`); when the hop's results do not
    decide, a search for each candidate with the relation and the year."""
    years = [int(y) for y in _CLUE_YEAR.findall(reply)]
    if len(years) != 1:
        return None
    year = years[0]
    own = {w for c in cands for w in normalize(name_of(c)).split()}
    relation = goal_terms - own - {str(year)}

    def decided(votes: list[int]) -> Candidate | None:
        top = max(votes, default=0)
        return cands[votes.index(top)] if top and votes.count(top) == 1 else None

    votes = _year_votes(cands, hits, year, relation)
    got = decided(votes)
    if got is not None:
        return got
    words = " ".join(sorted(relation))

    # the versions that began by that year first, the latest beginning first (the likeliest
    # holder then); the first whose own page ties the year to it alone ends the searching
    def began(i: int) -> tuple[int, int]:
        m = _YEAR_LABEL.search(cands[i].label)
        start = int(m.group(1)) if m else 0
        return (0, -start) if start and start <= year else (1, start or 9999)

    for i in sorted(range(len(cands)), key=began):
        c = cands[i]
        theirs = [h for h in search(f"{name_of(c)} {words} {year}") if h.entity_id == c.id]
        votes[i] += _year_votes([c], theirs, year, relation)[0]
        if votes[i] and (got := decided(votes)) is c:
            return got
    return decided(votes)


def _by_label_year(cands: Sequence[Candidate], reply: str) -> Candidate | None:
    """The one version whose label's year is the reply's year (the candidate list dates
    each version by when it began)."""
    years = _CLUE_YEAR.findall(reply)
    if len(years) != 1:
        return None
    same = [c for c in cands if (m := _YEAR_LABEL.search(c.label)) and m.group(1) == years[0]]
    return same[0] if len(same) == 1 else None


_NUMBER = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?:\s*(million|billion))?")
_SCALE = {"million": 1e6, "billion": 1e9}


def _numbers_near(text: str, words: set[str]) -> list[tuple[int, float]]:
    """(distance in characters to the nearest clue word, value) of each number in ``text``;
    a bare year-like integer (1000-2100) is not a measure."""
    low = text.casefold()
    spots = [m.start() for w in words for m in re.finditer(rf"\b{re.escape(w)}", low)]
    if not spots:
        return []
    out = []
    for m in _NUMBER.finditer(text):
        whole, frac, scale = m.group(1), m.group(2), m.group(3)
        if "," not in whole and not frac and not scale and 1000 <= int(whole) <= 2100:
            continue
        value = float(whole.replace(",", "") + (f".{frac}" if frac else ""))
        value *= _SCALE.get((scale or "").casefold(), 1.0)
        out.append((min(abs(m.start() - p) for p in spots), value))
    return out


def _by_number(
    cands: Sequence[Candidate], goal: str, reply: str, search: SearchFn
) -> Candidate | None:
    """A vague superlative resolved by the reply's measure ("I meant by radius"): each
    candidate's own result for its label and the measure words, the number nearest those
    words, the largest (or the smallest, for "smallest", "least", "lowest", …)."""
    smallest_words = load_word_list("oracle_smallest.txt")
    measure = clue_words(reply) - smallest_words - load_word_list("oracle_superlatives.txt")
    if not measure:
        return None
    words = set(normalize(goal).split()) | set(normalize(reply).split())
    smallest = bool(words & smallest_words)
    values: list[tuple[float, int, Candidate]] = []
    for i, c in enumerate(cands):
        for h in search(f"{name_of(c)} {' '.join(sorted(measure))}"):
            if (h.entity_id and h.entity_id == c.id) or normalize(h.title) == normalize(name_of(c)):
                near = _numbers_near(h.snippet, measure)
                if near:
                    values.append((min(near)[1], i, c))
                break
    if len(values) < 2:
        return None
    pick = min(values) if smallest else max(values, key=lambda v: (v[0], -v[1]))
    return pick[2]


def choose(
    cands: Sequence[Candidate],
    hits: Sequence[Hit],
    reply: str,
    search: SearchFn,
    *,
    kind: str = "",
    goal: str = "",
    fact: str = "",
) -> Candidate | None:
    """The candidate the results support best: a candidate the reply itself names is not
    the one meant ("it came after X"); a year picks among dated versions; else clue words
    shown next to a candidate (in the clue query's results, else in a search for the
    candidate with the clue, else in a search for the clue with ``fact``, the hop's
    relation without the previous answer), then rank; a candidate whose own page (or the
    page of the entity the clue names) shows the clue before one a third page names."""
    said = _phrase(reply)
    pool = [c for c in cands if _phrase(name_of(c)) not in said] or list(cands)
    if len(pool) == 1:
        return pool[0]
    if kind == "version":
        dated = _by_label_year(pool, reply) or _by_year_in_results(
            pool, hits, reply, set(normalize(goal).split()), search
        )
        if dated is None:
            dated = _by_year(pool, reply)
        if dated is not None:
            return dated
    if kind == "criteria":
        measured = _by_number(pool, goal, reply, search)
        if measured is not None:
            return measured
    ranked = rank_candidates(pool, hits)
    clue = clue_groups(reply)
    if not clue:
        return ranked[0] if ranked else None
    rest = [c for c in pool if c not in ranked]
    order = [*ranked, *rest]
    scores = [support(c, hits, clue) if c in ranked else 0 for c in order]
    # the entities the clue names ("borders Andorra", "capital Beijing"): a reader checks the
    # fact on the candidate's own page or the named entity's, not on a third page
    named = named_groups(clue, reply)
    full_named = full_support(named)
    direct = [support(c, hits, named, direct=True) if c in ranked else 0 for c in order]
    best = max(scores, default=0)
    full = full_support(clue)
    # a search for each candidate with the clue: all of them when the first results do not
    # tell one apart (no single best, the best's own page does not show the entities the
    # clue names, or it lacks a number the clue gives: "born in 1946" is not shown by a page
    # saying "born 1882"), else those they do not show; the first (in rank order) that
    # shows all of the clue (the entities it names on its own page) ends the searching
    words = clue_text(with_demonyms(reply))
    numbers = [g for g in clue if _weight(g) > 1]
    undecided = (
        best == 0
        or scores.count(best) > 1
        or direct[scores.index(best)] < full_named
        or support(order[scores.index(best)], hits, numbers) < full_support(numbers)
    )
    for i, c in enumerate(order):
        if undecided or i >= len(ranked):
            theirs = search(f"{name_of(c)} {words}")
            scores[i] = max(scores[i], support(c, theirs, clue))
            direct[i] = max(direct[i], support(c, theirs, named, direct=True))
            if scores[i] >= full and direct[i] >= full_named:
                break
    if fact and named and max(direct, default=0) < full_named:
        # no candidate's page shows the entities the clue names: a search for the narrowing
        # fact itself ("France borders"), whose entity's page may state it of the candidate
        # ("France shares land borders with … Germany")
        theirs = search(f"{words} {fact}")
        for i, c in enumerate(order):
            scores[i] = max(scores[i], support(c, theirs, clue))
            direct[i] = max(direct[i], support(c, theirs, named, direct=True))
    top = max(scores, default=0)
    if top == 0:
        return ranked[0] if ranked else None
    # the most shown; between equals, the one shown on its own page (or the clue's
    # entity's) before one a third page names next to the clue's words; then rank
    return order[max(range(len(order)), key=lambda i: (scores[i], direct[i], -i))]


def restored_words(question: str, unambiguous: str) -> str:
    """The words the unambiguous question has and the question lacks (the restored
    constraints, every hop's together)."""
    have = {w.casefold() for w in _words(question)}
    return " ".join(dict.fromkeys(w for w in _words(unambiguous) if w.casefold() not in have))


def restored_by_hop(sample: Sample) -> dict[int, str]:
    """Per ambiguous checkpoint (by index), the words the unambiguous question restores at
    that hop, for the reference policies under ``--ablation unambiguous``: the words of the
    hop's ``unambiguous_goal`` that its ``goal`` lacks and the unambiguous question says
    (two ambiguous hops restore two years: each hop reads its own). Unambiguous hops read
    nothing. A checkpoint recorded without an unambiguous goal (a sample built before the
    field) reads every restored word of the question."""
    # a short name the question says ("the one in the G7") restores its label's words ("member
    # of the Group of Seven" in the hop's goal)
    asked = sample.unambiguous_question
    text = " ".join([asked, *load_templates().names.formal(asked)])
    said = {w.casefold() for w in _words(text)}
    every = restored_words(sample.question, sample.unambiguous_question)
    out: dict[int, str] = {}
    for cp in sample.checkpoints:
        if not (cp.ambiguous and cp.candidates):
            continue
        if not cp.unambiguous_goal:
            out[cp.index] = every
            continue
        have = {w.casefold() for w in _words(cp.goal)}
        out[cp.index] = " ".join(
            dict.fromkeys(
                w
                for w in _words(cp.unambiguous_goal)
                if w.casefold() not in have and w.casefold() in said
            )
        )
    return out


def target_of(sample: Sample, cp: Checkpoint) -> Candidate | None:
    """The gold candidate: same id as the checkpoint's entity, else the label matching the
    answer (a trailing "(2017)" ignored), else the only one leading to the gold answer."""
    for c in cp.candidates:
        if cp.entity_id and c.id == cp.entity_id:
            return c
    golds = {normalize(a) for a in (cp.answer, *cp.answer_aliases)}
    for c in cp.candidates:
        if normalize(c.label) in golds or normalize(_YEAR.sub("", c.label)) in golds:
            return c
    final = {normalize(a) for a in (sample.answer, *sample.answer_aliases)}
    leading = [c for c in cp.candidates if normalize(c.downstream_answer) in final]
    return leading[0] if len(leading) == 1 else None


def unambiguous_sample(sample: Sample) -> Sample:
    """The sample as its unambiguous question asks it: each ambiguous checkpoint's goal is
    its ``unambiguous_goal`` (a factual hop's false detail is not read: the unambiguous
    question says the true one). Read with :func:`restored_by_hop` of the sample itself."""
    cps = [
        cp.model_copy(update={"goal": cp.unambiguous_goal}) if cp.unambiguous_goal else cp
        for cp in sample.checkpoints
    ]
    return sample.model_copy(update={"question": sample.unambiguous_question, "checkpoints": cps})


AskPolicy = Literal["never", "on_conflict", "always"]


def walk(
    sample: Sample,
    search: SearchFn,
    ask: AskFn | None = None,
    *,
    policy: AskPolicy = "always",
    extra: Mapping[int, str] | None = None,
) -> Walk:
    """Solve ``sample`` hop by hop. At a gold-ambiguous hop ``ask`` is called before
    searching (``always``), after a search whose results show two or more candidates
    (``on_conflict``), or never; the reply joins the query. ``extra`` (by checkpoint index)
    joins that hop's reading like a reply (the words the unambiguous question restores
    there, :func:`restored_by_hop`)."""
    out = Walk()
    previous = ""
    for cp in sample.checkpoints:
        ambiguous = bool(cp.ambiguous and cp.candidates)
        restored = (extra or {}).get(cp.index, "")
        reply = ""
        hits: Sequence[Hit] | None = None
        if ambiguous and ask is not None and policy == "always":
            reply = ask(cp) or ""
        elif ambiguous and ask is not None and policy == "on_conflict":
            first = hop_query(cp.goal, previous, clue_text(restored))
            out.queries.append(first)
            hits = search(first)
            if len(rank_candidates(cp.candidates, hits)) >= 2:
                reply = ask(cp) or ""
                hits = None
        said = f"{reply} {restored}".strip()
        query = hop_query(cp.goal, previous, clue_text(said))
        if hits is None:
            out.queries.append(query)
            hits = search(query)
        if ambiguous:
            relation = hop_query(cp.goal, previous)
            chosen = choose(
                cp.candidates,
                hits,
                said,
                search,
                kind=cp.ambiguity_type,
                goal=relation,
                fact=hop_query(cp.goal, ""),
            )
            gold = target_of(sample, cp)
            if chosen is None:
                return _stop(out, cp, f"no candidate in the results of {query!r}")
            if chosen != gold:
                out.stated[str(cp.index)] = chosen.label
                out.final = chosen.downstream_answer
                return _stop(
                    out,
                    cp,
                    f"results of {query!r} rank {chosen.label!r} first, not "
                    f"{gold.label if gold else cp.answer!r}",
                )
            found = cp.answer
        else:
            if not any(states(h, cp) for h in hits):
                return _stop(out, cp, f"{cp.answer!r} not in the results of {query!r}")
            found = cp.answer
        out.stated[str(cp.index)] = found
        previous = found
    out.final = previous
    return out


def _stop(out: Walk, cp: Checkpoint, reason: str) -> Walk:
    out.failed_hop = cp.index
    out.reason = f"hop {cp.index}: {reason}"
    return out
