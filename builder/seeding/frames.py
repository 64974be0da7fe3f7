"""A chain through a country, said the way a person asks it (issue 11): the country is named
by who or what it belongs to, said first where more follows it, and a fact remembered about
a person sits next to that person, said once.

The chains this covers are a person or thing (any first hops), their country (citizenship,
P27, or the country a thing is in, P17), optionally that country's largest or smallest
neighbour (P47, inverse, ranked by area or population, or by a vague "biggest"), and then
either the country's leader (P6, P35) in a year, with or without a fact of theirs and a
last question about them (birth or death date, or one ending with them: their father), or
one fact of the neighbour (its currency, capital, area…). They are the four-hop shape most
of a build's questions take::

    Who was head of state of the Ballon d'Or winner's country?
    The 1986 Turing Award winner born in 1928 is from a country I'm curious about: in 1963,
    who led the government of its largest neighbour by area? I think it was someone born in
    1939.
    Biogen is headquartered in a country I have a question about. When did the person who
    led its government in 1963 die? I think they were born in 1912.

not "In the country with the largest area bordering the home country of …, who led the
government in 1957? I mean the winner born in 1950 and the head of government born in
1929.", nor "When was the person born who led the government of the smallest country by
area that borders the country …" (stacked clauses the blind reviewer marked): where a
neighbour or the leader's birth or death follows, the country is said first (a ``lead``
or ``lead_topic`` form) and asked about as "its". Every fact of every hop is said: the
year of the office, the ranking and its criterion (a vague hop's word where the spec leaves
the criterion open), each person's facts. No office is named ("prime minister"): where an
earlier hop is ambiguous the candidate countries' offices differ. Forms are ``style.yaml``'s
``frame`` entries, picked by a stable hash of the chain's words and its facts' properties.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from builder.records.seed import HopSpec
from builder.seeding.compose import stable_index
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
# a phrase with a clause in it: a year after it would read as the clause's
_CLAUSE = re.compile(r"\b(?:that|who|which|where|whose)\b|\bis (?:from|in)\b")
# a country said by the pronoun of what was said first
_OWN = ("their country", "its country")
# the country said first, in a sentence of its own ("Linus Torvalds is from a country I'm
# curious about."): the question asks about it as "its" ("its head of state")
IT = "it"
# a country as the end of a statement about its person or thing, for the lead ("the country
# X is from" → "X is from", "the country where X is based" → "X is based in")
_STATEMENTS = (
    (re.compile(r"^the country (.+) is from$"), "{1} is from"),
    (re.compile(r"^(.+)'s country$"), "{1} is from"),
    (re.compile(r"^the country (.+) is in$"), "{1} is in"),
    (re.compile(r"^the country where (.+)$"), "{1} in"),
    (re.compile(r"^the country that hosted (.+)$"), "{1} took place in"),
)
# a country phrase with a clause this many words long is said first even before a plain
# question of its leader
_LONG_PLACE = 8
# the first words of a question that may run on after a lead ending in ":"
_RUN_ON = frozenset({"In", "Who", "When", "What", "Which", "Someone"})
_DEFAULT = {
    "topic": ["I'm curious about {x}."],
    "person": ["I'm thinking of {x} who {v}."],
    "head_fact": ["I think it was someone {f}."],
    "lead": ["{s} a country I'm curious about."],
    "lead_topic": ["I'm curious about {x}."],
    "they_fact": ["I think they {v}."],
}


def country_frame(r: Realizer, specs: Sequence[HopSpec], vague: Sequence[str]) -> str:
    """The chain as a person asks it, or "" when it is not of the shape above (the caller
    words it otherwise)."""
    parsed = _parse(r, specs, vague)
    if parsed is None:
        return ""
    at, border, head, tail = parsed
    before = specs[at - 1] if at else None
    country = specs[at]
    forms = {**_DEFAULT, **r.t.style.frame}

    # the person or thing the country belongs to; a person's facts said of them, first
    own = r._person_facts(before) if before and r._forward(before) else None
    strip = bool(before and own and own[0] and country.link == CITIZENSHIP and r._person(before))
    shown = list(specs[:at])
    if strip and before is not None:
        shown[-1] = before.model_copy(update={"constraints": []})
    said = r._said_phrase(shown, vague) if shown else r.anchor_text(country)
    person = r._owned_person(said)
    if "{" in person:
        return ""
    # a phrase too heavy to nest is said first, and its country is "their"/"its country"
    heavy = len(person.split()) > 16 or "," in person
    sentences: list[str] = []
    # (the facts' properties, not their values: a misremembered year is worded as the true
    # one would be)
    key = " ".join(
        s.model_dump_json(exclude={"constraints"}) + " ".join(c.property for c in s.constraints)
        for s in specs
    )
    lead = _pick(forms["person"], key)
    born = _born_where(r, specs, at, vague)
    if strip and own and not country.constraints:
        # "The 1986 Turing Award winner born in 1928 is from a country I'm curious about.
        # In 1963, who led the government of its largest neighbour by area?", not "I'm
        # thinking of the … winner who was born in 1928. … their country's …"
        sentences.append(_lead(forms, key, f"{_with_facts(person, own)} is from"))
        place = IT
    elif strip and own:
        sentences.append(capitalize(lead.replace("{x}", person).replace("{v}", own[1])))
        place = "their country"
    elif born is not None:
        # "A member of The Beatles born in 1944 died in a country I'm curious about.", not
        # "the country where a member of The Beatles born in 1944 died"
        sentences.append(_lead(forms, key, born))
        place = IT
    elif country.link == CITIZENSHIP and not heavy:
        place = f"{person}'s country" if short_person(person) else f"the country {person} is from"
    else:
        place = "" if heavy else _thing_country(r, specs, at, person, forms)
        if not place:
            # "I'm curious about the club that plays in the Premier League and was founded in
            # 1899. In 1951, who led the government of its country?"
            topic = _pick(forms["topic"], key).replace("{x}", person)
            sentences.append(capitalize(topic))
            place = "their country" if country.link == CITIZENSHIP else "its country"
            if country.link != CITIZENSHIP:
                # "the country where it is based" where the relation says so
                it = _thing_country(r, specs, at, "it", forms) if at else ""
                place = it if it.startswith("the country where it ") else place
    if country.constraints and place != IT:
        # the one of a person's countries the hop means ("the country in Europe that Linus
        # Torvalds is from", "their country in Europe")
        where = _country_facts(r, country)
        if where is None or country.link != CITIZENSHIP:
            return ""
        if place in _OWN:
            place = f"{place} {where}"
        else:
            place = f"the country {where} that {person} is from"

    ranked: tuple[str, str] | None = None
    if border is not None:
        ranked = _ranked(r, border)
        if ranked is None:
            return ""
    if place not in _OWN and place != IT and _lifts(border, ranked, head, tail, place, r):
        # the country said first, then asked about as "its": not "the smallest country by
        # area that borders the country IBM's 2012 CEO is from", "the biggest neighbour of
        # the 1991 … winner's country", "the person born who led the government of …"
        sentences.append(_lead(forms, key, place))
        place = IT
    if border is not None and ranked is not None:
        rank, by = ranked
        if not rank and place == IT and head is not None:
            place = "one of its neighbours"
        elif not rank:
            # a neighbour the leader's facts tell apart ("a country that borders …")
            if head is None:
                # "Which country borders the country where the artist who painted The Kiss
                # died?", not "Which country does the country where … died border?"
                return "" if tail is not None else f"Which country borders {place}?"
            place = f"a country that borders {place}"
        elif place == IT:
            place = f"its {rank} neighbour{by}"
        elif place in _OWN:
            place = f"{place}'s {rank} neighbour{by}"
        elif place.endswith("'s country"):
            place = f"the {rank} neighbour{by} of {place}"
        else:
            place = f"the {rank} country{by} that borders {place}"
        if head is None:
            if tail is None:
                which = place.startswith("its ")
                sentences.append(f"Which country is {place}?" if which else f"What is {place}?")
            else:
                # (the raw ask: a place ending "… is from" keeps its preposition there)
                subject = r._subject(border)
                when = r._qualifier(tail)
                if when and (_CLAUSE.search(place) or place.startswith("its ")):
                    # "In 2023, what was the population of …", not "the population in 2023 of"
                    timeless = tail.model_copy(update={"qualifier": "", "qualifier_value": ""})
                    asked = r._ask(timeless, place, subject)
                    sentences.append(f"{capitalize(when)}, {asked[:1].lower()}{asked[1:]}")
                else:
                    sentences.append(r._ask(tail, place, subject))
            return _joined(sentences)
    assert head is not None

    when = r._qualifier(head)
    told = r._person_facts(head)
    facts = told[0] if told else ""
    clause = _CLAUSE.search(place) is not None
    led = _led(head, place)
    # a year after anything but a person's country would read as part of it ("… neighbour
    # by area in 1968", "… is from in 1968"): it goes first
    owned = place in (*_OWN, IT) or (
        place.endswith("'s country") and " of " not in place and len(place.split()) <= 8
    )
    # (and after a year of its own: "the 1903 … winner's country in 2019")
    long = clause or not owned or re.search(r"\d", place) is not None
    said_year = re.findall(r"\b\d{4}\b", " ".join([*sentences, place]))
    same = bool(when) and len(said_year) == 1 and when == f"in {said_year[0]}" and not facts
    # (after a clause "that year" would read as the clause's: "… is from that year?")
    same = same and owned and not clause
    life = _life(r, head, tail)
    # (the leader's birth or death, worded around "the person who …"; any other question
    # about them ends with them: "Who was the father of {p}?")
    lived = tail is not None and tail.link in _LIFE
    if same:
        # "… the 2002 Wimbledon men's singles winner is from that year?": the one year said
        # once ("In 2002, who … the 2002 Wimbledon …" says it twice)
        ask = f"Who {led} that year?"
        if tail is not None and (place == IT or not lived):
            ask = life.replace("{p}", f"the person who {led} that year")
        elif tail is not None:
            verb = "was the person born" if tail.link == "P569" else "did the person die"
            ask = f"When {verb} who {led} that year?"
        sentences.append(ask)
        return _joined(sentences)
    if tail is None:
        if when and long:
            ask = f"{capitalize(when)}, who {led}?"
        else:
            ask = f"Who {led} {when}".rstrip() + "?"
        sentences.append(ask)
        if facts:
            sentences.append(capitalize(_pick(forms["head_fact"], key).replace("{f}", facts)))
        return _joined(sentences)
    if facts and _remarked(tail, facts) and place == IT:
        # "When did the person who led its government in 1963 die? I think they were born in
        # 1912.", not the riddle "In 1963, someone born in 1912 led its government. When did
        # they die?"
        they = re.sub(r"\bwas\b", "were", told[1] if told else "")
        holder = f"the person who {led} {when}".strip()
        sentences.append(life.replace("{p}", holder))
        sentences.append(capitalize(_pick(forms["they_fact"], key).replace("{v}", they)))
    elif facts:
        said = f"someone {facts} {led}"
        sentences.append(capitalize(f"{when}, {said}." if when else f"{said}."))
        again = {"P569": "When exactly were they born?", "P570": "When did they die?"}
        that = "that head of state" if head.link == "P35" else "that person"
        sentences.append(again.get(tail.link) or life.replace("{p}", that))
    elif long and not lived:
        time = f", {when}," if when else ""
        sentences.append(life.replace("{p}", f"the person who{time} {led}"))
    elif long and not when and place.startswith("its "):
        # "When was the head of state of its biggest neighbour born?", not "When was the
        # person born who was head of state of its biggest neighbour?"
        holder = "the head of state" if head.link == "P35" else "the person who led the government"
        sentences.append(life.replace("{p}", f"{holder} of {place}"))
    elif long:
        # the relative clause after the verb ("When was the person born who, in 1957, led …")
        verb = "was the person born" if tail.link == "P569" else "did the person die"
        time = f", {when}," if when else ""
        sentences.append(capitalize(f"When {verb} who{time} {led}?"))
    elif head.link == "P35" and place == IT and (not when or not lived):
        # ("Who was the father of its head of state in 2019?"; "… in 2019 born?" would not read)
        sentences.append(life.replace("{p}", f"its head of state {when}".strip()))
    elif head.link == "P35" and place in _OWN:
        sentences.append(life.replace("{p}", f"{place}'s head of state {when}".strip()))
    elif head.link == "P35" and place.endswith("'s country") and not when:
        # "When was the head of state of the Turing Award winner's country born?"
        sentences.append(life.replace("{p}", f"the head of state of {place}"))
    else:
        sentences.append(life.replace("{p}", f"the person who {led} {when}".strip()))
    return _joined(sentences)


def _life(r: Realizer, head: HopSpec | None, tail: HopSpec | None) -> str:
    """The last question, about the leader ``{p}``: "When was {p} born?", "Who was the
    father of {p}?"; "" when nothing is asked of the leader."""
    if tail is None or head is None:
        return ""
    if tail.link in _LIFE:
        return {"P569": "When was {p} born?", "P570": "When did {p} die?"}[tail.link]
    return r.ask(tail, "{p}", r._subject(head))


def _lifts(
    border: HopSpec | None,
    ranked: tuple[str, str] | None,
    head: HopSpec | None,
    tail: HopSpec | None,
    place: str,
    r: Realizer,
) -> bool:
    """Whether the country is said first, in a lead of its own: before its neighbour (but
    "Which country borders …?" of an unranked one), and before its leader's birth or death
    when nothing else is said of the leader ("When was the head of state of the Turing
    Award winner's country born?" stays one question)."""
    # a possessive with no year of its own stays ("When was the person who led the
    # government of Jacinda Ardern's country born?", "Who led the government of a country
    # that borders the Nobel Prize in Physics winner's country?"); "When was the person born
    # who led the government of the 1973 … winner's country?" does not
    short = place.endswith("'s country") and re.search(r"\d", place) is None
    if border is not None:
        # ("What is the biggest neighbour of the Turing Award winner's country?" stays)
        asked = head is not None or tail is not None
        return (bool(ranked and ranked[0]) and (asked or not short)) or (
            head is not None and not short
        )
    if head is None:
        return False
    if tail is None:
        # a long clause before the question's end ("In 1968, who led the government of the
        # country where the designer of Java was born?", marked stiff): said first
        return _CLAUSE.search(place) is not None and len(place.split()) >= _LONG_PLACE
    told = r._person_facts(head)
    if told and told[0]:
        # the question, then what is known of the leader (see _remarked); otherwise "In
        # 1963, someone born in 1912 led the government of …. When exactly were they born?"
        return _remarked(tail, told[0])
    return not (short and not head.qualifier)


def _remarked(tail: HopSpec, facts: str) -> bool:
    """Whether a leader's facts are said after the question about them ("When did … die?
    I think they were born in 1912.", "Who was the father of …? I think they were born in
    1901."): any question but of their birth or death, or of their death with facts not of
    it ("When was … born? I think they were born in 1912." would ask what it says)."""
    if tail.link == "P570":
        return "died" not in facts and "death" not in facts
    return tail.link not in _LIFE


def _lead(forms: dict[str, list[str]], key: str, said: str) -> str:
    """The country said first, in one of the ``lead`` forms around a statement ending where
    the country goes ("Linus Torvalds is from", "Biogen is headquartered in") or of the
    ``lead_topic`` forms around the country's phrase ("the country whose club won …");
    ``said`` is the country's phrase, or a statement where no phrase of the country reads
    ("the 1998 … winner was born in 1950, in")."""
    statement, topic = said, ""
    if said.startswith("the country ") or said.endswith("'s country"):
        topic = said
        # (not of "the country in Europe that X is from": "In Europe that X is from a …")
        matched = (p.match(said) for p, _ in _STATEMENTS)
        statement = next(
            (
                f.replace("{1}", m.group(1))
                for m, (_, f) in zip(matched, _STATEMENTS, strict=True)
                if m and not m.group(1).startswith(("in ", "on "))
            ),
            "",
        )
    elif said.endswith(" is from"):
        topic = f"the country {said.removesuffix(' is from')} is from"
    options = [f.replace("{s}", statement) for f in forms["lead"]] if statement else []
    options += [f.replace("{x}", topic) for f in forms["lead_topic"]] if topic else []
    return capitalize(_pick(options, key))


def _joined(sentences: Sequence[str]) -> str:
    """The sentences as one text; a lead ending in ":" runs on into the question after it
    ("… a country I'm curious about: who was its head of state in 2019?")."""
    out = ""
    for s in sentences:
        if out.endswith(":"):
            if s.split(" ", 1)[0] in _RUN_ON:
                s = s[:1].lower() + s[1:]
            else:
                out = out[:-1] + "."
        out = f"{out} {s}" if out else s
    return out[:-1] + "." if out.endswith(":") else out


def _with_facts(person: str, own: tuple[str, str]) -> str:
    """A person with the facts that tell them apart, as the subject of a statement: "the
    1986 Turing Award winner born in 1928"; a clause after a year or for several facts ("the
    head coach of Chelsea F.C. in 2024 who was born in 1978"), between commas after a
    clause of the person's own ("the artist who painted The Kiss, who was born in 1862,")."""
    if _CLAUSE.search(person) or "," in own[0]:
        return f"{person}, who {own[1]},"
    if re.search(r"\d{4}$", person) or " and " in own[0]:
        return f"{person} who {own[1]}"
    return f"{person} {own[0]}"


def _thing_country(
    r: Realizer, specs: Sequence[HopSpec], at: int, thing: str, forms: dict[str, list[str]]
) -> str:
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


# the place of a person's life whose country a chain asks about, as the verb of a statement
_LIFE_PLACES = {"P19": "was born", "P20": "died"}


def _born_where(r: Realizer, specs: Sequence[HopSpec], at: int, vague: Sequence[str]) -> str | None:
    """A person with facts, their birthplace (or place of death) and its country, as a
    statement ending where the country goes: "the 1998 … winner was born in 1950, in", "a
    member of The Beatles born in 1944 died in"; None for other chains."""
    if at < 2 or specs[at].link != "P17" or specs[at].constraints:
        return None
    place, person = specs[at - 1], specs[at - 2]
    where = _LIFE_PLACES.get(place.link)
    if where is None or not r._forward(place) or place.constraints or place.qualifier:
        return None
    own = r._person_facts(person) if r._forward(person) else None
    if not own or not own[0] or not r._person(person):
        return None
    shown = [*specs[: at - 2], person.model_copy(update={"constraints": []})]
    who = r._owned_person(r._said_phrase(shown, vague))
    if place.link == "P19" and own[0].startswith("born ") and " and " not in own[0]:
        return f"{who} was {own[0]}, in"  # not "… born in 1950 was born in"
    return f"{_with_facts(who, own)} {where} in"


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
    of the chain fits ("the capital of the country that hosted …" has two)."""
    for at, s in enumerate(specs):
        if s.link in COUNTRY_LINKS and r._forward(s) and (at or s.anchor):
            parsed = _parse_at(r, specs, vague, at)
            if parsed is not None:
                return parsed
    return None


def _parse_at(
    r: Realizer, specs: Sequence[HopSpec], vague: Sequence[str], at: int
) -> tuple[int, HopSpec | None, HopSpec | None, HopSpec | None] | None:
    if specs[at].qualifier:
        return None
    if any(i < len(vague) and vague[i] for i in range(at, len(specs))):
        return None  # (an ambiguous hop's vague word is said in the nested wording)
    if at == 0:
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
    if head is None and border is None:
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


def _led(head: HopSpec, place: str) -> str:
    """What the leader did, as a verb phrase about ``place``: "led the government of …",
    "was head of state of …" ("led their country's government", "led its government")."""
    if place == IT:
        return "led its government" if head.link == "P6" else "was its head of state"
    if head.link == "P6":
        if place in _OWN:
            return f"led {place}'s government"
        return f"led the government of {place}"
    if place in _OWN:
        return f"was {place}'s head of state"
    return f"was head of state of {place}"


def _pick(options: Sequence[str], key: str) -> str:
    return options[stable_index(key, len(options))]
