"""A chain through a country, said the way a person asks it (issue 11). A chain of three hops
or more asks the country first, in a short question of its own, and the rest about "it" in a
second (the form two blind raters rated 4.42 / 4.08 of 5, against 2.75 / 3.00 for one
nested sentence)::

    Which country is the Turing Award winner from? When was its head of government born?
    Which country is the 1986 Turing Award winner from, the one born in 1928? Who was the
    head of government of its largest neighbour by area in 1963? He was born in 1939, as
    far as I know.
    Which country is the Nobel Prize in Physics winner from? I'm after the currency of its
    biggest neighbour.

The first question asks the country by what its person or thing is ("Which country is X
from?", "Which country was X born in?", "In which country is the capital of …?", "Which
country won the FIFA World Cup?" of a national team); after "Where …?" the country is
"there" ("the head of state there"), and a neighbour is asked only after "Which country …?"
(after "Where …?" "its neighbours" read as the person's). The second is the question or
what is wanted (``style.yaml``'s ``frame`` ``then`` forms: "I'd like to know when …", "I'm
after the capital of …"); the neighbour is ``frame``'s ``neighbour`` forms ("its most
populous neighbour", "the smallest of its neighbours by area", "one of its neighbours"),
asked as "Which of its neighbours is the biggest?". A person's remembered facts are folded
into the first question ("…, the one born in 1928?", "…, the one who was born in 1953 and
died in 2020?"), never a remark between the two questions ("The winner born in 1961, I
mean.", marked by blind raters); a leader's follow the question about them, by "he" or
"she" where the caller gives it (``Realizer.pronouns``) and the country is not asked of a
person ("Which country was Salman Rushdie born in? … He was born in 1917" reads as
Rushdie's), else "they" or "the leader" (not their noun said again), joined with the
office's year where that is said after the question too ("I mean the one in 1957, who as
far as I know was born in 1912."). The remarks' hedges ("as
far as I know", "if I'm not mistaken") are none of the clues' (``clues.yaml``), so a reply
does not repeat the question's. The office's year goes after its noun ("the head of
government there in 1963"), at the end of a question about a neighbour, or after the
question ("I mean the one in 1957."); a neighbour's dated fact says it on its noun ("What
was the 2023 population of …?"). A chain of two hops stays one direct question with no lead
sentence::

    Who was the head of government of Trent Reznor's home country in 1968?
    Who was the head of state of the United States' smallest neighbour by area in 2024?
    They were born in 1966, as far as I know.

with the country by whose it is, a named country's neighbour by its possessive ("one of
Nepal's neighbours"), another's by a compact relative form ("the smallest country bordering
…"), its leader by the noun of the office's kind ("the head of state", "the head of
government"), and remembered facts in a short sentence after the question.

The chains this covers are a person or thing (any first hops), their country (citizenship,
P27, or the country a thing is in, P17), optionally that country's largest or smallest
neighbour (P47, inverse, ranked by area or population, or by a vague "biggest"), and then
either the country's leader (P6, P35) in a year, with or without a fact of theirs and a
last question about them (birth or death date, or one ending with them: their father), or
one fact of the neighbour (its currency, capital, area…), or (three hops or more) one fact
of the country itself. Not a lead sentence before the question ("Linus Torvalds is from a
country I'm curious about: …", "Take the country … is from:", marked as filler by the blind
raters), nor facts stacked into a noun phrase ("Paris Saint-Germain's 2018 head coach born
in 1972"), nor "the person who led its government" (database wording), nor "the largest
country next to it by area", "a country next to it" (puzzle wording to blind raters).
Every fact of every hop is said: the year of the office, the ranking and its criterion (a
vague hop's word where the spec leaves the criterion open), each person's facts. No office
is named ("prime minister"): where an earlier hop is ambiguous the candidate countries'
offices differ. The forms are picked by a stable hash of the chain's words and its facts'
properties (so a misremembered year is worded as the true one would be); where a sentence
would not read (``readable``) the chain is said in one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from builder.records.seed import HopSpec
from builder.seeding.compose import stable_index
from builder.seeding.phrases import fill, ref_noun
from builder.seeding.text import capitalize
from builder.seeding.wording import CITIZENSHIP, short_person

if TYPE_CHECKING:
    from builder.seeding.realize import Realizer

__all__ = ["country_frame"]

COUNTRY_LINKS = frozenset({CITIZENSHIP, "P17"})
BORDERS = "P47"
HEADS = frozenset({"P6", "P35"})
COUNTRY_CLASS = "Q6256"
# what is asked of a leader after the year ("When did they die?")
_LIFE = frozenset({"P569", "P570"})
# a ranking by a criterion, said of a neighbour: (most, least, the criterion after the noun)
_RANKS = {
    "P2046": ("largest", "smallest", " by area"),
    "P1082": ("most populous", "least populous", ""),
}
# the leader's noun, of the office's kind (never the office: the candidates' offices differ)
_NOUNS = {"P6": "head of government", "P35": "head of state"}
# a country phrase ending in a clause ("the country X is from", "the country where X died"):
# a year or a verb right after it would read as the clause's ("… is from in 1968", "… where
# Elvis Presley died die?"); "the country whose team won …" ends in its noun
_OPEN = re.compile(r"\b(?:that|who|which|where)\b|\bis (?:from|in)\b|\b(?:is|was) \w+ed\b")
# a person's phrase this long is not put in a question (the caller words it otherwise)
_MAX_PERSON = 16
# a person's or a leader's single year of birth or death ("born in 1912")
_ONE_YEAR = re.compile(r"^(?:born|died) in (\d{4})$")
_DEFAULT = {
    "fact": ["I think the {n} {v}."],
    "they": ["I think they {v}."],
    "year_noun": ["I mean the {n} {w}."],
    "year_fact": ["I mean the one {w}, who I think {v}."],
    "facts": ["I think the {n} {v}, and the {m} {w}."],
    "year": ["I mean the one {w}."],
    "exact": ["I think it was in {y}."],
    "then": ["{q}"],
    "first_fact": ["I mean the {n} {r}."],
    "first_facts": ["I mean the {n} who {v}."],
    "folded": ["{q}, the one {r}?"],
    "neighbour_by": ["the {rank} of its neighbours{by}"],
    "neighbour": ["its {rank} neighbour"],
    "neighbour_any": ["a country next to it"],
    "neighbour_which": ["Which of its neighbours is the {rank}{by}?"],
    "leader_fact": ["I think {p} {v}."],
}
# the place of a person's life whose country a chain asks about, (birth, death)
_LIFE_PLACES = {"P19": "was born", "P20": "died"}
# the verb a fact of a leader's life answers ("When exactly did they die? I think it was in …")
_LIFE_VERBS = {"P569": "born", "P570": "died"}


def country_frame(r: Realizer, specs: Sequence[HopSpec], vague: Sequence[str]) -> str:
    """The chain as a person asks it, or "" when it is not of the shape above (the caller
    words it otherwise)."""
    parsed = _parse(r, specs, vague)
    if parsed is None:
        return ""
    at, border, head, tail = parsed
    forms = {**_DEFAULT, **r.t.style.frame}
    # (the facts' properties, not their values: a misremembered year is worded as the true
    # one would be)
    key = " ".join(
        s.model_dump_json(exclude={"constraints"}) + " ".join(c.property for c in s.constraints)
        for s in specs
    )
    # a person's remembered facts are said after the question, not in their noun phrase
    # ("Paris Saint-Germain's 2018 head coach born in 1972")
    shown = list(specs)
    remarks: list[tuple[str, str]] = []
    known = _known(r, specs, at) if at >= 0 else None
    reduced = ""
    if known is not None:
        i, noun, verbs, reduced = known
        shown[i] = specs[i].model_copy(update={"constraints": []})
        remarks.append((noun, verbs))
    # (a named country its neighbour is of: "the United States")
    place = _place(r, shown, at, vague) if at >= 0 else r.anchor_text(specs[0])
    if not place:
        return ""
    # (the leader's "he" or "she" where the caller knows it can mean no one else, and the
    # country is not asked of a person: after "Which country was Salman Rushdie born in?",
    # "He was born in 1917" reads as Rushdie's, a blind rater's complaint; "the leader" then)
    of_person = at >= 0 and (
        r.facts.is_human(specs[0].anchor)
        or any(s.link in (CITIZENSHIP, *_LIFE_PLACES) for s in specs[: at + 1])
    )
    pronoun = r.pronouns.get(specs.index(head), "") if head is not None and not of_person else ""
    if len(specs) >= 3 and at >= 0:
        # three hops or more: the country asked first, the rest of it in a second sentence
        two = _two(r, place, border, head, tail, (remarks, reduced, pronoun), forms, key)
        if two:
            return two
    if border is None and head is None:
        return ""  # (a fact of the country itself: the caller words it in one sentence)
    if border is not None:
        ranked = _ranked(r, border)
        if ranked is None:
            return ""
        rank, by = ranked
        if not rank and head is None:
            # "Which country borders the country where the artist who painted The Kiss
            # died?", not "Which country does the country where … died border?"
            return (
                ""
                if tail is not None
                else _said(f"Which country borders {place}?", remarks, forms, key)
            )
        if at < 0:
            # a named country's: "the United States' largest neighbour by area", "one of
            # Nepal's neighbours", not "the largest country by area bordering the United
            # States" (blind raters marked it as a puzzle's wording)
            owner = f"{place}'" if place.endswith("s") else f"{place}'s"
            place = f"{owner} {rank} neighbour{by}" if rank else f"one of {owner} neighbours"
            if head is None and tail is None:
                return _said(f"What is {place}?", remarks, forms, key)
            if head is None:
                assert tail is not None
                return _said(_neighbour_ask(r, border, tail, place), remarks, forms, key)
            return _leader(r, head, tail, place, True, remarks, forms, key, pronoun)
        if not rank:
            place = f"a country bordering {place}"  # (told apart by its leader's facts)
        elif head is None and tail is None:
            return _said(f"What is the {rank} country{by} bordering {place}?", remarks, forms, key)
        else:
            # "the smallest country bordering the 2020 Nobel Prize in Physics winner's home
            # country", not "the 2020 … winner's home country's smallest neighbour"
            place = f"the {rank} country{by} bordering {place}"
    if head is None:
        assert border is not None and tail is not None
        return _said(_neighbour_ask(r, border, tail, place), remarks, forms, key)
    return _leader(r, head, tail, place, border is not None, remarks, forms, key, pronoun)


# the country a person's or thing's phrase says, asked on its own ({x}: the person or thing):
# one of the first forms picked by a stable hash of the chain, then (where it does not read:
# "Which country is the capital of the Soviet Union in?") the form after the "|"
_ASKS: tuple[tuple[re.Pattern[str], tuple[str, ...], str], ...] = (
    (re.compile(r"(?P<x>.+)'s home country (?P<w>in .+)"), ("Which country {w} is {x} from?",), ""),
    (
        re.compile(r"(?P<x>.+)'s home country|the home country of (?P<y>.+)"),
        ("Which country is {x} from?", "Where is {x} from?"),
        "",
    ),
    (
        re.compile(r"the country (?P<w>in .+) that (?P<x>.+) is from"),
        ("Which country {w} is {x} from?",),
        "",
    ),
    (re.compile(r"the country (?P<x>.+) is from"), ("Which country is {x} from?",), ""),
    (
        re.compile(r"the country where (?P<x>.+) was born"),
        ("Which country was {x} born in?",),
        "In which country was {x} born?",
    ),
    (
        re.compile(r"the country where (?P<x>.+) was (?P<v>\w+ed)"),
        ("Which country was {x} {v} in?",),
        "In which country was {x} {v}?",
    ),
    (
        re.compile(r"the country where (?P<x>.+) died"),
        ("Which country did {x} die in?",),
        "In which country did {x} die?",
    ),
    (
        re.compile(r"the country where (?P<x>.+) plays its home games"),
        ("Which country does {x} play its home games in?",),
        "In which country does {x} play its home games?",
    ),
    (
        re.compile(r"the country where (?P<x>.+) is (?P<v>\w+ed)"),
        ("Which country is {x} {v} in?",),
        "In which country is {x} {v}?",
    ),
    (
        re.compile(r"the country where (?P<x>.+) is|the country (?P<y>.+) is in"),
        ("Which country is {x} in?",),
        "In which country is {x}?",
    ),
    (re.compile(r"the country that (?P<x>\w+ed .+)"), ("Which country {x}?",), ""),
    # (a country's national team winning is the country winning, as people say it)
    (re.compile(r"the country whose team (?P<x>won .+)"), ("Which country {x}?",), ""),
    (re.compile(r"the country whose (?P<x>.+)"), ("Which country's {x}?",), ""),
)


# a person's or thing's phrase is no clause of the country's own
_CLAUSE_FIRST = re.compile(r"(?:whose|that|which|where|who|in|of)\b")


def _country_ask(place: str, key: str, where: bool = True) -> str:
    """The country of ``place`` asked on its own ("Which country is the Turing Award winner
    from?", "Which country is Biogen headquartered in?"); "" where no such words fit or
    read. ``where``: "Where is X from?" may be picked (not where a neighbour follows: after
    it no country is said for "its neighbours" to be of, and blind raters read "its" as
    X's)."""
    from builder.seeding.realize import readable  # (realize.py imports this module)

    for pattern, forms, other in _ASKS:
        m = pattern.fullmatch(place)
        if m is None:
            continue
        found = {k: v for k, v in m.groupdict().items() if v}
        slots = {"x": found.get("x") or found.get("y", ""), **found}
        clauses = sum(1 for w in re.findall(r"\b(?:that|whose)\b", place))
        if _CLAUSE_FIRST.match(slots["x"]) or (place.startswith("the country ") and clauses > 1):
            return ""  # ("the country whose capital is Budapest that the CEO … is from")
        kept = [f for f in forms if where or not f.startswith("Where ")] or list(forms)
        asks = [kept[stable_index(key + " country", len(kept))], other]
        if re.search(r" (?:in|on|at|for|to)$", slots["x"]):
            # "In which country is the league Denver Nuggets plays in?", not "Which country
            # is the league Denver Nuggets plays in in?"
            asks = [a for a in asks if not re.search(r"\{x\} \w+\?$", a)]
        for ask in asks:
            for k, v in slots.items():
                ask = ask.replace("{" + k + "}", v)
            if ask and readable(ask):
                return ask
        return ""
    return ""


def _two(
    r: Realizer,
    place: str,
    border: HopSpec | None,
    head: HopSpec | None,
    tail: HopSpec | None,
    told: tuple[Sequence[tuple[str, str]], str, str],
    forms: dict[str, list[str]],
    key: str,
) -> str:
    """The chain in two questions: the country first ("Which country is the Turing Award
    winner from?", the person's remembered fact folded into it), then the rest of it about
    "it" ("When was its head of government born?", "Who was the head of state of its
    smallest neighbour by area in 2024?"), "that country" or "there" after "Where is X
    from?", where no country is said for "its" to be of; "" where the country has no
    question of its own. ``told``: the person's (noun, facts as a verb phrase), their facts
    reduced ("born in 1954"), and the leader's pronoun. At most one remark sentence follows
    the second question."""
    from builder.seeding.realize import readable  # (realize.py imports this module)

    remarks, reduced, pronoun = told
    first = _country_ask(place, key, border is None)
    if not first:
        return ""  # ("Which country is the head coach of … the league X plays in from?")
    said = _first_told(first, remarks, reduced, forms, key)
    years = re.findall(r"\b\d{4}\b", first)
    there = ""
    if border is not None:
        ranked = _ranked(r, border)
        if ranked is None:
            return ""
        rank, by = ranked
        there = _neighbour(rank, by, forms, key, head is not None or tail is not None)
        if head is None and tail is None:
            which = _pick(forms["neighbour_which"], key + " which")
            ask = which.replace("{rank}", rank).replace("{by}", by) if rank else ""
            rest = [ask or "Which country borders it?"]
        elif head is None:
            assert tail is not None
            rest = [_neighbour_ask(r, border, tail, there)]
        else:
            rest = _leader_two(r, head, tail, there, years, forms, key, first, pronoun)
    elif head is None:
        # a fact of the country itself ("What is the capital of that country?")
        assert tail is not None
        ask = r.ask(tail, "that country", COUNTRY_CLASS)
        own = "that country's" if first.startswith("Where ") else "its"
        # "What is its currency?", not "What is the currency of that country?"
        rest = [re.sub(r"^(What (?:is|was)) the ([a-z ]+) of that country\b", rf"\1 {own} \2", ask)]
    else:
        rest = _leader_two(r, head, tail, "", years, forms, key, first, pronoun)
    if not rest or not rest[0] or not readable(rest[0]):
        return ""
    rest[0] = _wrapped(rest[0], forms, key)
    return " ".join(capitalize(s) for s in [*said, *rest])


def _first_told(
    first: str,
    remarks: Sequence[tuple[str, str]],
    reduced: str,
    forms: dict[str, list[str]],
    key: str,
) -> list[str]:
    """The first question with what is remembered of its person folded into it ("Which
    country is the 2002 Nobel Prize in Medicine winner from, the one born in 1940?", "…, the
    one who was born in 1953 and died in 2020?"): not a remark after it ("The winner born in
    1961, I mean."), which blind raters marked as a fragment wedged between the questions,
    the second's "its" then read as the person's."""
    if not remarks:
        return [first]
    verbs = remarks[0][1]
    single = bool(reduced) and " and " not in reduced and "," not in reduced
    if single:
        form = _pick(forms["folded"], key + " folded")
        return [form.replace("{q}", first.rstrip("?")).replace("{r}", reduced)]
    form = _pick(forms["folded_facts"], key + " folded")
    return [form.replace("{q}", first.rstrip("?")).replace("{v}", plain_verbs(verbs))]


def plain_verbs(verbs: str) -> str:
    """Facts said after "the one who": "was born in 1953, and died in 2020" → "was born in
    1953 and died in 2020" (no comma before the last)."""
    return verbs.replace(", and ", " and ")


def _neighbour(rank: str, by: str, forms: dict[str, list[str]], key: str, held: bool) -> str:
    """The neighbour of the country asked first, by its ranking ("the smallest of its
    neighbours by area", "its most populous neighbour", "its largest neighbour by area"), or
    any of them ("one of its neighbours", "a neighbouring country"): not "the smallest
    country by area bordering it", which blind raters marked as database wording, nor "the
    smallest country next to it" (a puzzle's). ``held``: said after "the head of state of",
    where a form with "of" of its own would stack three."""
    options = forms["neighbour_any" if not rank else "neighbour_by" if by else "neighbour"]
    if held:
        options = [f for f in options if " of " not in f] or options
    return _pick(options, key + " neighbour").replace("{rank}", rank).replace("{by}", by)


def _fact(noun: str, verbs: str, forms: dict[str, list[str]], key: str, shift: int = 0) -> str:
    """A person's remembered facts by their noun ("I think the winner was born in 1924."),
    or as "they" where the noun is too vague to name them by; ``shift``: the form after the
    one picked (a second person's facts not said in the same words)."""
    options = forms["fact" if noun else "they"]
    form = options[(stable_index(key, len(options)) + shift) % len(options)]
    return form.replace("{n}", noun).replace("{v}", verbs if noun else plural_verbs(verbs))


_PLURAL = {"was": "were", "is": "are", "has": "have"}


def plural_verbs(verbs: str) -> str:
    """Facts said of "they": "was born in 1953, and died in 2020" → "were born in 1953, and
    died in 2020" (the build had "They was born in 1953, if I remember right.")."""
    words = verbs.split(" ")
    for i, w in enumerate(words):
        if w in _PLURAL and (
            i == 0 or words[i - 1] in {"and", "and,"} or words[i - 1].endswith(",")
        ):
            words[i] = _PLURAL[w]
    return " ".join(words)


def _leader_fact(
    verbs: str, pronoun: str, forms: dict[str, list[str]], key: str, alone: bool = False
) -> str:
    """What is remembered of the leader the question just asked about, by "he" or "she"
    (``pronoun``), or where the pronoun is not known to tell no candidate apart "they" if
    they are the only person the question says (``alone``) and "the leader" otherwise
    ("they" could be the winner): not "the head of government was born in …" right after
    "Who was the head of government …?" (blind raters marked the noun said twice)."""
    p = pronoun or ("they" if alone else "the leader")
    said = _pick(forms["leader_fact"], key + " leader")
    v = plural_verbs(verbs) if p == "they" else verbs
    return said.replace("{p}", p).replace("{P}", capitalize(p)).replace("{v}", v)


def _leader_two(
    r: Realizer,
    head: HopSpec,
    tail: HopSpec | None,
    there: str,
    years: Sequence[str],
    forms: dict[str, list[str]],
    key: str,
    first: str,
    pronoun: str = "",
) -> list[str]:
    """The second sentence about the leader of the country asked first ("its", "there"
    after "Where …?", or of ``there``, its neighbour), then what is remembered of the leader
    ("He was born in 1874, as far as I know.": ``pronoun``, "they" where it is not known)
    and the office's year where the question has no place for it, in one remark."""
    noun = _NOUNS[head.link]
    when = r._qualifier(head)
    told = r._person_facts(head) or ("", "")
    # the one year said once ("Which country is the 1998 … winner from? Who was its head of
    # state that year?")
    same = bool(when) and len(years) == 1 and when == f"in {years[0]}"
    dated = re.fullmatch(r"in (\d{4})", when)
    # (after "Where is X from?" no country is said for "its" to be of: "the head of state
    # there"; not "that country's head of state", which blind raters marked as stilted)
    where = first.startswith("Where ")
    own = "its"
    after: list[str] = []
    if tail is None:
        if there:
            holder = f"the {noun} of {there}"
            if same:
                ask = f"Who was {holder} that year?"
            else:
                # "Who was the head of government of its largest neighbour by area in 1957?",
                # not "In 1957, who was …", which blind raters marked as a puzzle's wording
                ask = f"Who was {holder} {when}".rstrip() + "?"
        else:
            w = " that year" if same else f" {when}" if when else ""
            if where or stable_index(key + " there", 2):
                ask = f"Who was {noun} there{w}?"
            else:
                ask = f"Who was {own} {noun}{w}?"
    else:
        exact = _exact(tail, told[0])
        inline = not when
        if not there and dated and not same:
            # "When was the head of government there in 1963 born?" (not "its 1963 head of
            # government", a year before the office that reads as a label)
            holder, inline = f"the {noun} there in {dated.group(1)}", True
        elif there:
            holder = f"the {noun} of {there}"
        else:
            holder = f"the {noun} there" if where else f"{own} {noun}"
        life = _life(r, head, tail)
        if exact:
            life = life.replace("When was ", "When exactly was ").replace(
                "When did ", "When exactly did "
            )
        ask = life.replace("{p}", holder)
        if not inline:
            w = "at the time" if same else when
            year = forms["year" if tail.link in _LIFE else "year_noun"]
            facts = ("", "")
            if told[0] and not exact and tail.link in _LIFE:
                year, facts, told = forms["year_fact"], told, ("", "")
            said = _pick(year, key).replace("{n}", noun).replace("{w}", w)
            after.append(said.replace("{r}", facts[0]).replace("{v}", facts[1]))
        if exact:
            after.append(_pick(forms["exact"], key).replace("{y}", exact))
            told = ("", "")
    if told[0]:
        after.append(_leader_fact(told[1], pronoun, forms, key))
    if len(after) > 1:
        # one remark after the question: "I mean the one in 1957. I think it was in 1912."
        # as "I mean the one in 1957; I think it was in 1912."
        after = ["; ".join([after[0].rstrip("."), *(_lowered(a) for a in after[1:])])]
    return [ask, *after]


# a second sentence said as what is wanted ("I'd like to know when its head of government
# was born.", "I'm after the capital of the smallest country bordering it.")
_INDIRECT = (
    (re.compile(r"When (?P<e>exactly )?was (?P<x>.+) born\?"), "when {e}{x} was born"),
    (re.compile(r"When (?P<e>exactly )?did (?P<x>.+) die\?"), "when {e}{x} died"),
    # "who the head of state there was in 1976", not "who was head of state there in 1976"
    (re.compile(r"Who was (?P<x>.+?)(?P<e> in \d{4}| that year)?\?"), "who {x} was{e}"),
)
_WANTED = re.compile(r"What (?:is|was) (?P<x>the .+)\?")


def _wrapped(ask: str, forms: dict[str, list[str]], key: str) -> str:
    """The second question as a person puts it: as is, or as what they would like to know
    (``style.yaml``'s ``frame`` ``then`` forms: {q} the question, {i} it indirect, {n} what
    it asks as a noun phrase), one picked by a stable hash of the chain among those that
    fit."""
    slots = {"q": ask}
    for pattern, form in _INDIRECT:
        m = pattern.fullmatch(ask)
        if m is not None:
            e = m.groupdict().get("e") or ""
            x = m.group("x")
            if form.startswith("who ") and " of " in re.sub(r"head of (?:state|government)", "", x):
                break  # (not "who the head of state of the biggest country next to it was")
            if form.startswith("who ") and not re.match(r"(?:the|its|a|an|one)\b", x):
                x = f"the {x}"  # ("who the head of state there was")
            slots["i"] = form.replace("{e}", e).replace("{x}", x)
            break
    wanted = _WANTED.fullmatch(ask)
    if wanted is not None:
        slots["n"] = wanted.group("x")
    fit = [f for f in forms["then"] if all(k in slots for k in re.findall(r"\{(\w)\}", f))]
    if not fit:
        return ask
    form = _pick(fit, key + " then")
    for k, v in slots.items():
        form = form.replace("{" + k + "}", v)
    return form


def _leader(
    r: Realizer,
    head: HopSpec,
    tail: HopSpec | None,
    place: str,
    nested: bool,
    remarks: list[tuple[str, str]],
    forms: dict[str, list[str]],
    key: str,
    pronoun: str = "",
) -> str:
    """The question about the leader of ``place`` (a neighbour's where ``nested``), with
    what is remembered of them (by ``pronoun`` or "they" where they are the only person
    said) and the office's year where a clause would take it."""
    noun = _NOUNS[head.link]
    when = r._qualifier(head)
    told = r._person_facts(head) or ("", "")
    # a clause at the end of the place takes any year or verb after it as its own
    open_ = _OPEN.search(place) is not None
    # a year goes right after a possessive country only ("Yann Martel's home country in
    # 1963"): after "… of the winner of the Academy Award for Best Original Score" it would
    # read as the award's
    owned = place.endswith("'s home country") and not nested
    # (a named country's neighbour ends in its own noun: "… of the United States' largest
    # neighbour by area in 1957?")
    named = nested and place.endswith((" neighbour", " neighbours", " by area"))
    years = re.findall(r"\b\d{4}\b", place)
    # the one year said once ("… the 2002 Wimbledon men's singles winner's home country that
    # year?", not "In 2002, who … the 2002 …")
    same = bool(when) and len(years) == 1 and when == f"in {years[0]}"
    after: list[str] = []
    holder = f"the {noun} of {place}"
    if tail is None:
        if same:
            ask = f"Who was {holder} {'at the time' if open_ else 'that year'}?"
        elif when and (open_ or not (owned or named) or years):
            # "In 1968, who was the head of government of the country where James Gosling
            # was born?", not "… was born in 1968?"
            ask = f"{capitalize(when)}, who was {holder}?"
        else:
            ask = f"Who was {holder} {when}".rstrip() + "?"
    else:
        life = _life(r, head, tail)
        exact = _exact(tail, told[0])
        if exact:
            # "When exactly was … born? I think it was in 1912.", not "When was … born? I
            # think they were born in 1912." (asking what it says)
            life = life.replace("When was ", "When exactly was ").replace(
                "When did ", "When exactly did "
            )
        # (not after a place with a year of its own: "… 2012 president in 1968")
        inline = bool(when) and not same and owned and not years
        if inline:
            # "When did the head of government of Yann Martel's home country in 1963 die?"
            ask = life.replace("{p}", f"{holder} {when}")
        elif open_ and tail.link in _LIFE:
            # "In the country where Elvis Presley died, when did the head of government
            # die?", not "… where Elvis Presley died die?"
            asked = life.replace("{p}", f"the {noun}")
            ask = f"In {place}, {asked[:1].lower()}{asked[1:]}"
        else:
            ask = life.replace("{p}", holder)
        if when and not inline:
            # "I mean the one in 1957." ("the head of state in 2019" where the question ends
            # with another person: "Who was the father of …?")
            w = "at the time" if same else when
            year = forms["year" if tail.link in _LIFE else "year_noun"]
            facts = ("", "")
            if told[0] and not remarks and not exact and tail.link in _LIFE:
                # the one year and what is remembered of them in one sentence ("I mean the
                # one in 1957, who I think was born in 1874."), not three sentences
                year, facts, told = forms["year_fact"], told, ("", "")
            said = _pick(year, key).replace("{n}", noun).replace("{w}", w)
            after.append(said.replace("{r}", facts[0]).replace("{v}", facts[1]))
        if exact:
            after.append(_pick(forms["exact"], key).replace("{y}", exact))
    if told[0] and not (tail is not None and _exact(tail, told[0])):
        if not remarks:
            after.append(_leader_fact(told[1], pronoun, forms, key, nested and named))
        else:
            remarks = [*remarks, (noun, told[1])]
    return _said(ask, remarks, forms, key, after)


def _neighbour_ask(r: Realizer, border: HopSpec, tail: HopSpec, place: str) -> str:
    """A fact of the neighbour: "What is the currency of the smallest country bordering …?",
    "In 2023, what was the population of …" (not "the population in 2023 of …")."""
    subject = r._subject(border)
    when = r._qualifier(tail)
    if when:
        timeless = tail.model_copy(update={"qualifier": "", "qualifier_value": ""})
        asked = r._ask(timeless, place, subject)
        dated = re.fullmatch(r"in (\d{4})", when)
        noun = re.match(r"What (?:is|was) the (?=[a-z ]+ of )", asked)
        if dated and noun and asked.endswith(f"{place}?"):
            # "What was the 2023 population of its biggest neighbour?", not "In 2023, what
            # was the population of …" (marked as template wording)
            return f"What was the {dated.group(1)} {asked[noun.end() :]}"
        ask = f"{capitalize(when)}, {asked[:1].lower()}{asked[1:]}"
    else:
        # (the raw ask: a place ending "… is from" keeps its preposition there)
        ask = r._ask(tail, place, subject)
    if _OPEN.search(place) and not ask.endswith(f"{place}?"):
        return ""  # a verb after the clause ("When was … the country X is from founded?")
    return ask


def _said(
    ask: str,
    remarks: Sequence[tuple[str, str]],
    forms: dict[str, list[str]],
    key: str,
    after: Sequence[str] = (),
) -> str:
    """The question, then the short sentences after it: the office's year, the people's
    remembered facts ("I think the winner was born in 1950, and the head of government in
    1929.")."""
    if not ask:
        return ""
    said = [capitalize(ask), *(capitalize(a) for a in after)]
    if len(remarks) == 1 or (remarks and not remarks[0][0]):
        # (a person of a vague noun is "they"; a leader's facts then go with the question)
        said.extend(_fact(n, v, forms, key) for n, v in remarks)
    elif remarks:
        (n, v), (m, w) = remarks[0], remarks[-1]
        form = _pick(forms["facts"], key)
        said.append(
            form.replace("{n}", n).replace("{v}", v).replace("{m}", m).replace("{w}", _elided(v, w))
        )
    return " ".join(capitalize(s) for s in said)


def _elided(first: str, second: str) -> str:
    """The second of two facts without the verb it shares with the first ("was born in
    1950" → "was born in 1929" is "in 1929")."""
    a, b = first.split(), second.split()
    n = 0
    while n < min(len(a), len(b)) - 1 and a[n] == b[n] and b[n] != "in":
        n += 1
    rest = " ".join(b[n:])
    return rest if n and rest.startswith("in ") and " and " not in second else second


def _exact(tail: HopSpec, facts: str) -> str:
    """The year a leader's one remembered fact gives of what is asked ("born in 1912" where
    their birth is asked): the question asks for the exact date; "" otherwise."""
    m = _ONE_YEAR.match(facts)
    verb = _LIFE_VERBS.get(tail.link, "")
    return m.group(1) if m and verb and facts.startswith(verb) else ""


def _life(r: Realizer, head: HopSpec, tail: HopSpec) -> str:
    """The last question, about the leader ``{p}``: "When was {p} born?", "Who was the
    father of {p}?"."""
    if tail.link in _LIFE:
        return {"P569": "When was {p} born?", "P570": "When did {p} die?"}[tail.link]
    return r.ask(tail, "{p}", r._subject(head))


def _known(r: Realizer, specs: Sequence[HopSpec], at: int) -> tuple[int, str, str, str] | None:
    """The person before the country whose facts are said after the question: (their hop,
    their noun, the facts as a verb phrase: "was born in 1947", and reduced: "born in
    1947"): the person whose country
    it is, or whose birthplace or place of death is in it; None where there is none, or
    their noun is too vague to say the facts of ("the one", kept next to them)."""
    country = specs[at]
    if country.link == CITIZENSHIP and at >= 1:
        i = at - 1
    elif country.link == "P17" and at >= 2 and specs[at - 1].link in _LIFE_PLACES:
        place = specs[at - 1]
        if not r._forward(place) or place.constraints or place.qualifier:
            return None
        i = at - 2
    else:
        return None
    spec = specs[i]
    if not r._forward(spec) or not r._person(spec):
        return None
    own = r._person_facts(spec)
    if not own or not own[0]:
        return None
    subject = r._subject(specs[i - 1]) if i else r._class_of(spec.anchor)
    rel = r._relation(spec.link, subject)
    noun = rel.noun or ref_noun(fill(rel.of, p=r.plabel(spec.link)))
    noun = r.t.style.short.get(noun, noun)
    # (a noun too vague to say the facts of: "they", the only person said so)
    return i, "" if noun in r.t.style.remark_weak else noun, own[1], own[0]


def _place(r: Realizer, shown: Sequence[HopSpec], at: int, vague: Sequence[str]) -> str:
    """The country by whose it is: "the Turing Award winner's home country", "the home
    country of the designer of the Linux kernel", "the country where Biogen is headquartered",
    "the country whose team won the FIFA World Cup"; "" where no such words fit."""
    country = shown[at]
    said = r._said_phrase(shown[:at], vague) if at else r.anchor_text(country)
    person = r._owned_person(said)
    if "{" in person or len(person.split()) > _MAX_PERSON:
        return ""
    if country.link == CITIZENSHIP:
        if country.constraints:
            # the one of a person's countries the hop means ("the country in Europe that
            # Linus Torvalds is from")
            where = _country_facts(r, country)
            if where and short_person(person):
                return f"{person}'s home country {where}"  # ("Satya Nadella's … in Asia")
            return f"the country {where} that {person} is from" if where else ""
        # (not "the country Soul's composer is from", a clause a year or a verb would follow)
        return (
            f"{person}'s home country" if short_person(person) else f"the home country of {person}"
        )
    if country.constraints:
        return ""
    return _thing_country(r, shown, at, person)


def _thing_country(r: Realizer, specs: Sequence[HopSpec], at: int, thing: str) -> str:
    """The country of a thing, by what the thing is or does there ("the country where Biogen
    is headquartered", "the country Ghent is in", "the country whose club won the 1995
    Premier League", "the country where Borussia Dortmund plays its home games"); "" when no
    such words fit."""
    country = specs[at]
    before = specs[at - 1] if at else None
    if before is not None and not before.constraints and not before.qualifier:
        by = r.t.style.frame_country.get(before.link, "")
        if by and r._forward(before):
            said = r._said_phrase(specs[: at - 1], ()) if at > 1 else r.anchor_text(before)
            return by.replace("{x}", said) if len(said.split()) <= 8 else ""
    subject = r._subject(before) if before else r._class_of(country.anchor)
    place = r._country_place(country, thing, subject)
    if place:
        return place
    said = r.phrase(country, thing, subject, country.anchor if not at else "").text
    return said if said.startswith("the country whose ") else ""


def _country_facts(r: Realizer, country: HopSpec) -> str | None:
    """A country hop's own facts, reduced ("in Europe"), or None when some do not read so."""
    mods = [r.modifier(c, f"via:{country.link}") for c in country.constraints]
    if not all(m.reduced for m in mods):
        return None
    return " ".join(m.reduced for m in mods)


def _parse(
    r: Realizer, specs: Sequence[HopSpec], vague: Sequence[str]
) -> tuple[int, HopSpec | None, HopSpec | None, HopSpec | None] | None:
    """(the country hop's index, the neighbour hop, the leader hop, the hop asked last), or
    None when the chain is not of this module's shape: the first country hop that the rest
    of the chain fits ("the capital of the country that hosted …" has two). A chain from a
    named country to its neighbour ("the smallest country bordering the United States") is
    at -1, the anchor its country."""
    first = specs[0] if specs else None
    if first is not None and first.link == BORDERS and first.anchor:
        named = r._class_of(first.anchor) == COUNTRY_CLASS
        parsed = _parse_at(r, specs, vague, -1) if named else None
        if parsed is not None:
            return parsed
    for at, s in enumerate(specs):
        if s.link in COUNTRY_LINKS and r._forward(s) and (at or s.anchor):
            parsed = _parse_at(r, specs, vague, at)
            if parsed is not None:
                return parsed
    return None


def _parse_at(
    r: Realizer, specs: Sequence[HopSpec], vague: Sequence[str], at: int
) -> tuple[int, HopSpec | None, HopSpec | None, HopSpec | None] | None:
    if at >= 0 and specs[at].qualifier:
        return None
    if any(i < len(vague) and vague[i] for i in range(max(at, 0), len(specs))):
        return None  # (an ambiguous hop's vague word is said in the nested wording)
    if at < 0:
        pass
    elif at == 0:
        human = r.facts.is_human(specs[0].anchor)
        if specs[0].link == CITIZENSHIP and not human:
            return None  # "the country X is from" of a person only
    elif specs[at].link == CITIZENSHIP and not r._citizen(specs[at - 1]):
        return None
    rest = list(specs[at + 1 :])
    border = head = tail = None
    if rest and rest[0].link == BORDERS:  # (either way: a border is shared)
        border = rest.pop(0)
        if border.constraints or border.qualifier or border.class_id not in ("", COUNTRY_CLASS):
            return None
    if rest and rest[0].link in HEADS and r._forward(rest[0]):
        head = rest.pop(0)
        if r._person_facts(head) is None:
            return None
    if rest:
        tail = rest.pop(0)
        if not r._forward(tail) or tail.constraints or rest:
            return None
        if head is not None and tail.qualifier:
            return None
        if head is not None and tail.link not in _LIFE and not r._short_ask(tail):
            return None  # (a question ending with the leader: "Who was the father of …?")
    if head is None and border is None and (tail is None or at < 0):
        return None
    return at, border, head, tail


def _ranked(r: Realizer, border: HopSpec) -> tuple[str, str] | None:
    """A neighbour's ranking: ("largest", " by area"), ("most populous", ""), a vague hop's
    word ("biggest", ""), or ("", "") for none; None for a criterion with no words here."""
    least = border.criterion_order == "min"
    if border.criterion:
        words = _RANKS.get(border.criterion)
        if words is None:
            return None
        return (words[1] if least else words[0]), words[2]
    if border.criteria_options:
        adjective = r._superlative(border)[0]
        return (adjective, "") if adjective else None
    return "", ""


def _lowered(sentence: str) -> str:
    """A sentence to go on after another's semicolon ("I think …" stays)."""
    return sentence if sentence.startswith("I ") else sentence[:1].lower() + sentence[1:]


def _pick(options: Sequence[str], key: str) -> str:
    return options[stable_index(key, len(options))]
