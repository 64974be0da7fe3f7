"""Question words for one hop: noun phrases and questions from per-relation templates.

A hop's noun phrase nests the previous hop's noun phrase (``the founder of the developer of
the video game released in 2017``). Wording rules, so that nesting stays readable:

* a noun's modifiers are all reduced (``the film directed by X and released in 1994``) or all
  one relative clause (``the novel that was released in 1961 and won …``), never a mix;
  ``who`` for people, ``that`` otherwise;
* a person's occupation constraint is the head noun (``the painter born in 1853``), the
  constraint is still there, only worded as a noun;
* a superlative sits next to its noun (``the film with the highest budget directed by X``);
* in the question a person reads (``said``), a relation takes its ``said_of``/``said_ask``
  words (``the home country of X``), an office's year follows its noun (``the head of state in
  1945 of …``), the country of a place is where something happened there (``the country
  where Elvis Presley died``) and a person's name takes a possessive (``John Backus's
  birthplace``); a person's reduced facts are said after the question
  (:mod:`builder.seeding.realize`), so facts between commas next to a noun remain only for
  facts no person has (``the home country, in Asia, of …``).

How hops are put together into one question (and when a phrase is said first, in a sentence
of its own) is :mod:`builder.seeding.realize`'s part.
"""

from __future__ import annotations

import re

from builder.kb.domains import CLASS_LABELS
from builder.records.seed import Constraint, HopSpec
from builder.seeding.facts import HUMAN, Facts, year_of
from builder.seeding.phrases import (
    NO_JOIN,
    OF_HEAD,
    PLACE_PREPOSITIONS,
    WHICH_ASK,
    X_INSIDE,
    Modifier,
    Phrase,
    fill,
    merged,
    places,
    plural,
    ref_noun,
    repeats,
    x_last,
)
from builder.seeding.templates import RelationPhrases, Templates, load_templates
from builder.seeding.text import article, definite, join_verbs, plain

__all__ = ["CITIZENSHIP", "PERSON_PROPS", "Wording", "short_person"]

OCCUPATION = "P106"
POINT_IN_TIME = "P585"
GENDER = "P21"
# a person's gender is worded in the noun: "the man", "the female painter"
_GENDER_NOUNS = {"male": ("man", "male"), "female": ("woman", "female")}
# constraints only people have: a forward hop narrowed by one of them answers a person
PERSON_PROPS = frozenset(
    {"P569", "P570", "P19", "P20", "P106", "P27", "P69", "P102", "P39", "P54", "P1412", "P21"}
    | {"P26", "P22", "P25", "P184", "P185", "P1050", "P101", "P108"}
)
# class nouns whose names read with "the" ("the Academy Award for Best Picture")
# a phrase that ends with a reference back ("… received by that novel"), no verb after it
_ENDS_REF = re.compile(r"\b(?:that|those) (?:(?!\w+ed\b)[\w'-]+ ?){1,3}$")
# a question that ends with its preposition ("Which country is {x} in?")
_STRANDED = re.compile(r"^(Which|What) (.+) (in|on|at|for|to|from|with)\?$")
# a place described by what happened there, whose country the question asks about: "the
# place where Elvis Presley died", "the city where the manufacturer of Spikevax is
# headquartered", "the region where the team … is located", "the birthplace of X"
COUNTRY = "P17"
_PLACE_WHERE = re.compile(r"^the (?:place|city|region) where (.+?) (?:(is|was|were|are) )?(\w+)$")
_BASE_VERBS = {"died": "die", "lived": "live", "premiered": "premiere"}
# a name that reads badly before its winner ("the Academy Award for Best Actor winner")
_PRENOMINAL = re.compile(r" for ")
_BIRTHPLACE = re.compile(r"^the birthplace of (.+)$")
_BIRTHPLACE_OF = re.compile(r"^(.+)'s birthplace$")
_HOSTED = re.compile(r"^the (?:city|place) that hosted (.+)$")
_END_PREPOSITIONS = (" in", " on", " of", " at", " to", " for", " by", " with")
_THE_NOUNS = ("award", "prize", "office", "position", "competition", "tournament", "cup", "medal")


CITIZENSHIP = "P27"
# a country's head of government (P6) or of state (P35), and the property naming the office
# they hold: "the Prime Minister of Japan", not "the head of government of Japan"
OFFICE_OF = {"P6": "P1313", "P35": "P1906"}
_REFS = ("that ", "those ")


def short_person(person: str) -> bool:
    """Whether a person's phrase takes a possessive ("the 1988 Turing Award winner's"): no
    clause, "of" or possessive in it ("Beloved's author's home country" would not read), a
    few words, not ending in "s" or a full stop."""
    if re.search(r"\b(?:that|who|which|where|whose)\b", person) or " of " in person:
        return False
    if person.endswith(("s", ".")) or "'s " in person or "{" in person:
        return False
    words = person.split()
    # a noun last ("the 1988 Turing Award winner's"), or a name ("Jacinda Ardern's"); not a
    # phrase ending in a name ("the artist behind We Are's")
    named = all(w[:1].isupper() for w in words)
    return len(words) <= 7 and (named or re.search(r"\b[a-z]+$", person) is not None)


class Wording:
    """One hop's noun phrase and question, worded with the template files; labels come from
    the store."""

    def __init__(self, facts: Facts, templates: Templates | None = None) -> None:
        self.facts = facts
        self.t = templates or load_templates()
        # wording the question a person reads (``said_of``), not the hop goals searched with
        self.said = False

    def _relation(self, pid: str, class_id: str = "") -> RelationPhrases:
        return self.t.relation(pid, class_id, said=self.said)

    def plabel(self, pid: str) -> str:
        return self.facts.label(pid)

    def class_noun(self, class_id: str) -> str:
        if class_id == HUMAN:
            return "person"
        return CLASS_LABELS.get(class_id) or (
            self.facts.label(class_id) if self.facts.has_label(class_id) else "one"
        )

    def noun_of(self, entity_id: str, spec: HopSpec | None = None) -> str:
        """``that person`` / ``that <class>`` for referring back to an answer."""
        if spec is not None and (spec.class_id or self.facts.is_human(entity_id)):
            noun = self._head(spec)[0] if spec.class_id else "person"
            return self._that(noun)
        if self.facts.is_human(entity_id):
            return "that person"
        for cls in self.facts.classes(entity_id):
            if cls in CLASS_LABELS or self.facts.has_label(cls):
                return self._that(self.class_noun(cls))
        return "that one"

    def _that(self, noun: str) -> str:
        """How a later phrase points back: ``that film``, ``those Olympic Games``."""
        noun = self.t.style.short.get(noun, noun)
        return f"{'those' if noun in self.t.style.plural else 'that'} {noun}"

    # -- facts as words -------------------------------------------------------------------

    def name(self, key: str, label: str = "") -> str:
        """A value's name as it reads after a verb or preposition (``the United States``)."""
        text = plain(label or self.facts.label(key))
        return definite(text, self.t.names.takes_the(text, self.facts.classes(key)))

    def _value(self, c: Constraint) -> str:
        if c.match == "year":
            return str(year_of(c.value))
        return self.name(c.value, c.value_label)

    def modifier(self, c: Constraint, class_id: str = "") -> Modifier:
        rel = self._relation(c.property, class_id)
        year = c.match == "year"
        forms = (rel.in_ or "", rel.is_in) if year else (rel.by or "", rel.is_)
        value = self._value(c)
        if value in self.t.names.bare:
            # "plays in Serie A": a name the lexicon keeps bare gets no "the" from {tv} either
            forms = (forms[0].replace("{tv}", "{v}"), forms[1].replace("{tv}", "{v}"))
        return self._modifier(c.property + c.match, forms, self.plabel(c.property), value)

    @staticmethod
    def _modifier(key: str, forms: tuple[str, str], p: str, v: str) -> Modifier:
        forms = (forms[0].replace("{p}", p), forms[1].replace("{p}", p))
        return Modifier(fill(forms[0], v=v), fill(forms[1], v=v), key, forms, (v,))

    def constraint(self, c: Constraint) -> str:
        """One constraint as a standalone phrase (used in rationales)."""
        m = self.modifier(c)
        return m.reduced or m.verb

    def _link_modifier(self, spec: HopSpec, x: str) -> Modifier:
        rel = self._relation(spec.link, spec.class_id)
        forms = ("", rel.linked) if rel.linked else (rel.by or "", rel.is_)
        return self._modifier(spec.link + "exact", forms, self.plabel(spec.link), x)

    def _qualifier(self, spec: HopSpec) -> str:
        if not spec.qualifier:
            return ""
        tmpl = self.t.qualifiers.get(spec.qualifier, "in {v}")
        return fill(tmpl, v=str(year_of(spec.qualifier_value)))

    def _head(self, spec: HopSpec) -> tuple[str, list[Constraint]]:
        """The head noun and the constraints left to word as modifiers: a person's first
        occupation is the noun itself (``painter``), their gender its adjective or noun."""
        rest = list(spec.constraints)
        if spec.class_id != HUMAN:
            return self.class_noun(spec.class_id) if spec.class_id else "one", rest
        noun, adjective = "person", ""
        for c in list(rest):
            gender = _GENDER_NOUNS.get(self._value(c)) if c.property == GENDER else None
            if gender and c.match == "exact" and not adjective:
                noun, adjective = gender
                rest.remove(c)
        for c in rest:
            if c.property == OCCUPATION and c.match == "exact":
                rest.remove(c)
                return " ".join(w for w in (adjective, self._value(c)) if w), rest
        return noun, rest

    def _mods(self, spec: HopSpec, x: str, rest: list[Constraint]) -> list[Modifier]:
        mods = [self.modifier(c, spec.class_id) for c in rest]
        if spec.link and spec.link_inverse:
            # the nested phrase goes last so that its own modifiers do not read as ours; a
            # short "of that country" comes first ("the government office of that country
            # founded in 1954")
            link = self._link_modifier(spec, x)
            short = x.startswith(("that ", "those ")) and len(x.split()) <= 4
            if short and link.reduced.split(" ", 1)[0] in PLACE_PREPOSITIONS:
                mods.insert(0, link)
            else:
                mods.append(link)
        return places(merged(mods))

    def _superlative(self, spec: HopSpec) -> tuple[str, str]:
        """(adjective before the noun, phrase right after it)."""
        least = spec.criterion_order == "min"
        if spec.criterion:
            phrases = self.t.criterion(spec.criterion)
            most = phrases.least if least else phrases.most
            return "", fill(most, p=self.plabel(spec.criterion))
        if spec.criteria_options:
            phrases = self.t.criterion(spec.criteria_options[0], spec.class_id)
            return (phrases.vague_least if least else phrases.vague), ""
        return "", ""

    # -- noun phrases and questions ---------------------------------------------------------

    @staticmethod
    def _pronoun(spec: HopSpec) -> str:
        if spec.class_id:
            return "who" if spec.class_id == HUMAN else "that"
        human = any(c.property in PERSON_PROPS for c in spec.constraints)
        return "who" if human else "that"

    def _modified(self, noun: str, mods: list[Modifier], pronoun: str) -> str:
        if not mods:
            return noun
        if all(m.reduced for m in mods):
            reduced = [m.reduced for m in mods]
            first, second = (r.split(" ", 1)[0] for r in (reduced + reduced)[:2])
            if len(reduced) == 2 and first in PLACE_PREPOSITIONS and second not in NO_JOIN:
                # "the political party in Canada founded in 1943" (no "and" after a place)
                return f"{noun} {reduced[0]} {reduced[1]}"
            return f"{noun} {join_verbs(reduced)}"
        return f"{noun} {pronoun} {self._verbs(noun, mods)}"

    @staticmethod
    def _verbs(noun: str, mods: list[Modifier]) -> str:
        """The modifiers' verb phrases, in the plural for plural nouns (``Olympic Games``)."""
        verbs = [m.verb for m in mods]
        if noun.endswith("Games"):
            verbs = [plural(v) for v in verbs]
        return join_verbs(verbs)

    def _class_np(self, spec: HopSpec, x: str, vague: str = "") -> Phrase:
        noun, rest = self._head(spec)
        adj, tail = self._superlative(spec)
        mods = self._mods(spec, x, rest)
        head = " ".join(w for w in ("the", adj, vague, noun, tail) if w)
        text = self._modified(head, mods, self._pronoun(spec))
        return Phrase(text, self._own(spec), 1, self._that(noun))

    def _rel(self, spec: HopSpec, subject: str, named: str) -> RelationPhrases:
        """The relation's phrases; around a name its ``named_of``/``named_ask`` (an office's
        holder is "the Prime Minister of New Zealand", not "the holder of …")."""
        rel = self._relation(spec.link, subject)
        if named and (rel.named_of or rel.named_ask):
            update = {"of": rel.named_of or rel.of, "ask": rel.named_ask or rel.ask}
            rel = rel.model_copy(update=update)
        noun = self._value_noun(named, spec.link) if named and rel.typed_of else ""
        if rel.typed_of and spec.class_id and spec.link and not spec.link_inverse:
            # the hop names its value's class ("the club Cristiano Ronaldo played for")
            noun = self.class_noun(spec.class_id)
            noun = self.t.style.short.get(noun, noun)
        if noun:
            # "the film that won the Academy Award for Best Animated Feature": every value
            # the name has for the relation is of that class
            of, ask = fill(rel.typed_of, n=noun), fill(rel.typed_ask or rel.ask, n=noun)
            rel = rel.model_copy(update={"of": of, "ask": ask, "noun": noun})
        return rel

    def _value_noun(self, key: str, pid: str) -> str:
        """The class noun every value of ``key``'s ``pid`` shares ("" for people, or none)."""
        values = self.facts.value_keys(key, pid)
        shared: set[str] | None = None
        for v in values:
            own = {c for c in self.facts.classes(v) if c in CLASS_LABELS}
            shared = own if shared is None else shared & own
        if not values or not shared or any(self.facts.is_human(v) for v in values):
            return ""
        noun = self.class_noun(min(shared))
        return self.t.style.short.get(noun, noun) if len(shared) == 1 else ""

    def _is_dated(self, spec: HopSpec, x: str, named: str) -> bool:
        rel = self._relation(spec.link)
        dated = rel.dated and spec.qualifier == POINT_IN_TIME
        return bool(named) and dated and x.startswith("the ")

    def _dated(self, spec: HopSpec, x: str, named: str) -> tuple[HopSpec, str]:
        """A point in time said inside a name that takes "the": ``the 2020 Nobel Prize in
        Physics`` (the edition), and the hop without its qualifier left to word."""
        if not self._is_dated(spec, x, named):
            return spec, x
        year = year_of(spec.qualifier_value)
        dropped = spec.model_copy(update={"qualifier": "", "qualifier_value": ""})
        return dropped, f"the {year} {x[4:]}"

    def _time_before(self, of: str, spec: HopSpec, marker: str) -> str:
        """A relation's time before a described phrase, as an adjective where it is a year
        ("the 2014 head coach of <x>"), else after the relation ("the holder until 1990 of
        <x>"): a final "in 2014" would read as the described phrase's time. The question a
        person reads says an office's year after its noun ("the head of state in 1981 of
        <x>"), as people do; "the 1981 head of state" reads as a label."""
        q = self._qualifier(spec)
        if q.startswith("in ") and of.startswith("the ") and not self.said:
            return f"the {year_of(spec.qualifier_value)} {of[4:]}"
        return of.replace(marker, f" {q}{marker}", 1)

    def _of_np(
        self, spec: HopSpec, x: str, subject: str, named: str = "", vague: str = ""
    ) -> Phrase:
        said = self.said and _PRENOMINAL.search(x) is None
        if (spec.constraints or said) and self._is_dated(spec, x, named) and not vague:
            # (the question a person reads says "the 1982 Fields Medal winner" even without
            # facts: "the winner of the 1982 Fields Medal" adds an "of the" to a chain of them;
            # not "the Academy Award for Best Actor winner", a name too long to go first)
            return self._dated_np(spec, x, subject, named)
        spec, x = self._dated(spec, x, named)
        rel = self._rel(spec, subject, named)
        of = fill(rel.of, p=self.plabel(spec.link))
        if vague:
            # "the award-winning notable work of X", "an award-winning …"
            of = re.sub(r"^(?:the|a|an) ", lambda m: f"{m.group(0)}{vague} ", of, count=1)
            of = re.sub(r"^an? ", f"{article(vague)} ", of)
        noun = rel.noun or ref_noun(of)
        if spec.qualifier:
            # the time belongs to the relation: "the head coach in 2021 of <a described x>"
            # (after a name or "that <noun>": "the chairperson of the Federal Reserve in 2016")
            q = self._qualifier(spec)
            marker = next((m for m in (" of {x}", " by {x}") if m in of), "")
            front = not named or (self.said and spec.constraints)
            said_ref = self.said and spec.constraints and x.startswith(("that ", "those "))
            said_name = self.said and bool(spec.constraints) and re.match(r"[A-Z]", x) is not None
            # a name's thing with facts of its own ("Lionel Messi's club founded in 1970"): a
            # final "in 2023" would read as one more of them
            owned = re.match(r"[A-Z][^,]*'s \w", x) is not None and " in " in x
            described = re.match(r"(?:the|a|an) ", x) or said_ref or said_name or owned
            if marker and front and described:
                of = self._time_before(of, spec, marker)
            else:
                of = f"{of} {q}"
        person = any(c.property in PERSON_PROPS for c in spec.constraints)
        # "that winner" rather than "that person", which an earlier sentence may use too
        ref = "that person" if person and noun in ("one", "whole") else self._that(noun)
        mods = [self.modifier(c, f"via:{spec.link}") for c in spec.constraints]
        if not mods:
            text = self._said_of(rel, of, x, named, spec)
            return Phrase(text, self._own(spec), 1, ref, of=True)
        of = re.sub(r"^(?:a|an) ", "the ", of)
        # a time after {x} ("the head coach of {x} in 2019") is no verb phrase to wrap around
        inner = None if spec.qualifier else X_INSIDE.match(of)
        last = None if spec.qualifier else x_last(of)
        if last:
            # "the collection that was founded in 1915 and holds <x>"
            noun_words, link = last
            link_mod = Modifier(fill(link.reduced, x=x), fill(link.verb, x=x))
            text = "the " + self._modified(noun_words, [*mods, link_mod], self._pronoun(spec))
        elif inner:
            # "the organization founded in 1950 that <x> is a member of"
            words = self._modified(inner.group(1), mods, self._pronoun(spec))
            rel_pron = "which" if x.startswith("that ") else "that"
            joint = f" {rel_pron} " if all(m.reduced for m in mods) else f" and {rel_pron} "
            text = f"the {words}{joint}{x} {inner.group(2)}"
        elif self._facts_first(of, x, named, mods):
            # the facts of a holder before a described phrase, where they cannot read as its
            # own ("the 1945 head of state, born in 1917, of the home country of the …"); after
            # a name, the facts after it ("Eric Kandel's home country in Europe", "the 1967 head
            # of government of the United Kingdom, born in 1894,")
            reduced = join_verbs([m.reduced for m in mods])
            head = OF_HEAD.match(of)
            if named and head and not spec.qualifier and self.facts.is_human(named):
                text = f"{x}'s {head.group(1)} {reduced}"
            elif named:
                text = f"{fill(of, x=x)}, {reduced},"
            else:
                text = fill(of.replace(" of {x}", f", {reduced}, of {{x}}", 1), x=x)
        else:
            verbs = join_verbs([m.verb for m in mods])
            text = f"{fill(of, x=x)} {self._pronoun(spec)} {verbs}"
            if spec.qualifier and self._pronoun(spec) == "who" and not rel.dated:
                # the holder at a time is one person (an edition may have several winners):
                # their facts can be said of them
                statement = f"{fill(of, x=x)} {verbs}"
                return Phrase(text, self._own(spec), 1, ref, of=True, statement=statement)
        return Phrase(text, self._own(spec), 1, ref, of=True)

    def _said_of(
        self, rel: RelationPhrases, of: str, x: str, named: str, spec: HopSpec | None = None
    ) -> str:
        """A relation's phrase around ``x`` as a person says it: the country of a place by
        what happened there ("the country where Elvis Presley died"), a person's name with a
        possessive ("John Backus's birthplace"), a winner by "whose" ("the country whose team
        won …"), else the phrase itself."""
        where = self._where(spec, x) if spec is not None else None
        if where is not None:
            return f"the country {where[0]}"
        office = self._office(rel, spec, named) if spec is not None else None
        if office is not None and x == self.facts.label(named):
            # "the Prime Minister of Japan in 1991" (the qualifier stays where it was)
            return fill(of, x=x).replace(f"the {rel.noun} of {x}", f"the {office}", 1)
        head = OF_HEAD.match(of)
        definite = of.startswith("the ")  # "a member of X" is not "X's member"
        if (
            self.said
            and named
            and head
            and definite
            and self.facts.is_human(named)
            and "{" not in x
        ):
            return f"{x}'s {head.group(1)}"
        home = spec is not None and spec.link == CITIZENSHIP and not spec.link_inverse
        if self.said and home and head and short_person(x) and not x.startswith(_REFS):
            # "the Turing Award winner's home country", one "of the" fewer
            return f"{x}'s {head.group(1)}"
        prenominal = _PRENOMINAL.search(x) is None
        if self.said and named and head and rel.dated and x.startswith("the ") and prenominal:
            # "the Turing Award winner", as people say it (and one "of the" fewer)
            return f"the {x[4:]} {head.group(1)}"
        if self.said and named and head and definite and self._owns(x, head.group(1)):
            # a person of a named thing ("BP's CEO", "FC Barcelona's head coach"): one "of
            # the" fewer in "the head of state of the home country of the CEO of BP"
            return f"{x}'s {head.group(1)}"
        whose = re.match(r"the ([\w' -]+?) that (\w.*)$", x)
        if self.said and rel.whose_of and whose and of == rel.of:
            return fill(rel.whose_of, xn=f"{whose.group(1)} {whose.group(2)}")
        return fill(of, x=x)

    def _office(self, rel: RelationPhrases, spec: HopSpec, named: str) -> str | None:
        """The office a named country's head of government or state holds, as it is called
        ("Prime Minister of Japan", "Taoiseach", "Monarch of Belgium"), in the question a
        person reads; None for other hops, a country holding no one office, or one whose
        phrase is not "the <noun> of {x}"."""
        pid = OFFICE_OF.get(spec.link)
        if not (self.said and named and pid and not spec.link_inverse and rel.noun):
            return None
        if not rel.of.startswith(f"the {rel.noun} of {{x}}"):
            return None
        offices = self.facts.value_keys(named, pid)
        if len(offices) != 1:
            return None
        label = self.facts.label(offices[0])
        # "the monarch of Spain", as people write it, not "the Monarch of Spain" (a title of
        # one person keeps its capital: "the Prime Minister of Japan")
        return "monarch" + label[7:] if label.startswith("Monarch ") else label

    def _owns(self, x: str, noun: str) -> bool:
        """Whether a name reads with a possessive before a person's noun: a name of its own
        (capitalized, no "the" or "of" inside, not ending in "s" or a full stop: "The
        Beatles's", "Warner Bros.'s" would not read) and a noun of people."""
        if noun not in self.t.style.people or noun in self.t.style.remark_weak:
            return False
        if not re.match(r"[A-Z0-9]", x) or x.startswith("The ") or "{" in x:
            return False
        return " of " not in x and not x.endswith(("s", ".", "'"))

    def _where(self, spec: HopSpec, x: str) -> tuple[str, str] | None:
        """The country of a place said by what happened there, in the question a person
        reads: ("where Elvis Presley died", "In which country did Elvis Presley die?") for
        the country of "the place where Elvis Presley died" (the place is in that country, so
        both name one country); None for other hops and phrases."""
        if not (self.said and spec.link == COUNTRY and not spec.link_inverse):
            return None
        if spec.constraints or spec.qualifier:
            return None
        m = _PLACE_WHERE.match(x)
        if m:
            who, aux, verb = m.group(1), m.group(2), m.group(3)
            if aux:
                return f"where {who} {aux} {verb}", f"In which country {aux} {who} {verb}?"
            base = _BASE_VERBS.get(verb)
            if base is None:
                return None
            return f"where {who} {verb}", f"In which country did {who} {base}?"
        m = _BIRTHPLACE.match(x) or _BIRTHPLACE_OF.match(x)
        if m:
            return f"where {m.group(1)} was born", f"In which country was {m.group(1)} born?"
        m = _HOSTED.match(x)
        if m:
            return f"that hosted {m.group(1)}", f"Which country hosted {m.group(1)}?"
        return None

    def _facts_first(self, of: str, x: str, named: str, mods: list[Modifier]) -> bool:
        """Whether a relation's facts go between its noun and a described ``x`` (in the
        question a person reads, where ``x`` is a phrase of its own, not a name)."""
        described = bool(named) or re.match(r"(?:the|a|an|that|those) ", x) is not None
        return self.said and described and " of {x}" in of and all(m.reduced for m in mods)

    def _dated_np(self, spec: HopSpec, x: str, subject: str, named: str) -> Phrase:
        """An edition's winner with facts: ``the 2020 Nobel Prize in Physics winner who was
        born in 1942`` (the facts after the winner, where they cannot read as the prize's)."""
        dropped, name = self._dated(spec, x, named)
        plain_np = self._of_np(dropped, name, subject, named)
        head = OF_HEAD.match(fill(self._rel(dropped, subject, named).of, p=self.plabel(spec.link)))
        if head is None:
            return plain_np
        mods = [self.modifier(c, f"via:{spec.link}") for c in spec.constraints]
        text = self._modified(f"{name} {head.group(1)}", mods, self._pronoun(spec))
        return Phrase(text, plain_np.weight, 1, plain_np.ref, of=True)

    def phrase(
        self, spec: HopSpec, x: str, subject: str = "", named: str = "", vague: str = ""
    ) -> Phrase:
        """The hop as a noun phrase around ``x``; ``subject`` is the class of the previous
        answer (a painting's inception reads ``the year <x> was painted``); ``named``: the
        entity ``x`` names when it is a name, not a described phrase; ``vague``: an adjective
        an ambiguous hop says instead of its dropped fact (``award-winning``)."""
        if spec.link and not spec.link_inverse:
            return self._of_np(spec, x, subject, named, vague)
        return self._class_np(spec, x, vague)

    @staticmethod
    def _own(spec: HopSpec) -> int:
        """How many modifiers a hop adds to the phrase it wraps (an occupation is the noun)."""
        if spec.class_id == HUMAN:
            rest = [c for c in spec.constraints if c.property not in (OCCUPATION, GENDER)]
        else:
            rest = list(spec.constraints)
        extra = int(bool(spec.criterion or spec.criteria_options)) + int(bool(spec.qualifier))
        return len(rest) + int(spec.link_inverse) + extra

    def noun_phrase(self, spec: HopSpec, x: str, subject: str = "") -> str:
        """The hop's answer as a noun phrase; ``x`` is the previous hop's noun phrase."""
        return self.phrase(spec, x, subject).text

    def ask(
        self, spec: HopSpec, x: str, subject: str = "", named: str = "", vague: str = ""
    ) -> str:
        """The hop as a question about ``x`` (``that game`` in goals, a noun phrase at the end);
        a plural ``x`` takes a plural verb (``Which country are those Olympic Games in?``)."""
        q = self._ask(spec, x, subject, named, vague)
        stranded = _STRANDED.match(q)
        # (or a clause with no pronoun that ends in its own: "In which country is the league
        # Denver Nuggets plays in?", not "… plays in in?")
        ends = re.search(r" (?:in|on|at|for|to|from)$", x)
        if stranded and (re.search(r" (?:where|that|who|which) ", x) or ends):
            # after a clause the preposition goes first: "In which country is the place where
            # that band was formed?", not "Which country is the place where … formed in?";
            # only the ask's own preposition, not the clause's ("What was the winner of the
            # league that team plays in?")
            wh, rest, prep = stranded.groups()
            if q.endswith(f"{x} {prep}?"):
                q = f"{prep.capitalize()} {wh.lower()} {rest}?"
        if x.startswith("those "):
            for one, many in (("is", "are"), ("was", "were"), ("does", "do"), ("has", "have")):
                q = q.replace(f" {one} {x}", f" {many} {x}")
        return q

    def _ask(
        self, spec: HopSpec, x: str, subject: str = "", named: str = "", vague: str = ""
    ) -> str:
        where = self._where(spec, x)
        if where is not None:
            return where[1]
        if spec.link and not spec.link_inverse:
            spec, x = self._dated(spec, x, named)
            rel = self._rel(spec, subject, named)
            if not spec.constraints:
                ask = rel.again if rel.again and repeats(rel.ask, x) else rel.ask
                q = fill(ask, p=self.plabel(spec.link), x=x)
                if spec.qualifier:
                    of = fill(rel.of, p=self.plabel(spec.link))
                    # (a phrase ending with a reference may take it: "Who won the award
                    # received by that novel in 1953?"; "… where that member died in 2010"
                    # may not)
                    ends_ref = _ENDS_REF.search(x) and not x.endswith(_END_PREPOSITIONS)
                    nested = not named and re.match(r"(?:the|a|an) ", x) and not ends_ref
                    if " of {x}" in of and nested:
                        # after a described phrase a final "in 2011" would read as its time
                        # ("the winner of Wimbledon … in 2011"): the time goes with the relation
                        # an office's holder is a person whatever the hop's facts say
                        noun = rel.noun or ref_noun(of)
                        person = self._pronoun(spec) == "who" or noun in self.t.style.people
                        head = "Who" if person else "What"
                        of = self._time_before(of, spec, " of {x}")
                        return f"{head} was {fill(of, x=x)}?"
                    q = q.rstrip("?") + " " + self._qualifier(spec) + "?"
                return q
            mods = [self.modifier(c, f"via:{spec.link}") for c in spec.constraints]
            v = f"{vague} " if vague else ""
            wh = WHICH_ASK.match(fill(rel.ask, p=self.plabel(spec.link)))
            if wh:
                # "Which organization founded in 1950 is that country a member of?"
                words = v + self._modified(wh.group(1), mods, self._pronoun(spec))
                when = f" {self._qualifier(spec)}" if spec.qualifier else ""
                return f"Which {words} {wh.group(2)} {x}{wh.group(3)}{when}?"
            last = None if spec.qualifier else x_last(fill(rel.of, p=self.plabel(spec.link)))
            if last:
                # "Which collection was founded in 1915 and holds that painting?"
                verbs = join_verbs([*(m.verb for m in mods), fill(last[1].verb, x=x)])
                return f"Which {v}{last[0]} {verbs}?"
            m = OF_HEAD.match(fill(rel.of, p=self.plabel(spec.link)))
            if m and not spec.qualifier:
                return f"Which {v}{m.group(1)} of {x} {join_verbs([m.verb for m in mods])}?"
            phrase = self.phrase(spec, x, subject, named, vague)
            noun = phrase.ref.removeprefix("that ")
            human = noun in self.t.style.people or self._pronoun(spec) == "who"
            verb = "was" if spec.qualifier else "is"  # a version is a past state of things
            verbs = join_verbs([m.verb for m in mods])
            if ", " in phrase.text:
                # the facts already said next to the noun ("the 1963 head of state, born in
                # 1911, of …")
                return f"{'Who' if human else 'What'} {verb} {phrase.text}?"
            if phrase.statement.endswith(f" {verbs}") and all(m.reduced for m in mods):
                # the holder at a time, and what else is known of them: "Who was its head of
                # state in 2019, born in 1946?" (not "… in 2019 who was born in 1946?")
                core = phrase.statement.removesuffix(f" {verbs}")
                return f"Who was {core}, {join_verbs([m.reduced for m in mods])}?"
            return f"{'Who' if human else 'What'} {verb} {phrase.text}?"
        noun, rest = self._head(spec)
        noun = f"{vague} {noun}" if vague else noun
        adj, tail = self._superlative(spec)
        mods = self._mods(spec, x, rest)
        described = self._modified(noun, mods, self._pronoun(spec)) if mods else ""
        if adj and described and spec.class_id != HUMAN and len(described.split()) <= 10:
            # "Which film produced by X is the biggest?", not "Which is the biggest film …?";
            # a long description keeps its weight at the end ("What is the biggest …?")
            return f"Which {described} is the {adj}?"
        if adj or not mods:
            what = "Who" if spec.class_id == HUMAN else "What"
            return f"{what} is {self._class_np(spec, x, vague).text}?"
        if tail:
            if all(m.reduced for m in mods) and tail.startswith("with "):
                reduced = join_verbs([m.reduced for m in mods])
                return f"Which {noun} {reduced} has {tail[5:]}?"
            return (
                f"{'Who' if spec.class_id == HUMAN else 'What'} is "
                f"{self._class_np(spec, x, vague).text}?"
            )
        verbs = self._verbs(noun, mods)
        if noun == "person":
            return f"Who {verbs}?"
        return f"Which {noun} {verbs}?"

    @staticmethod
    def _wh(spec: HopSpec) -> str:
        return "Who" if spec.class_id == HUMAN else "Which"

    def _class_of(self, entity_id: str) -> str:
        """The entity's nearest class with a name of its own (for class-specific wording)."""
        return next((c for c in self.facts.classes(entity_id) if c in CLASS_LABELS), "")

    def anchor_text(self, spec: HopSpec) -> str:
        """The named entity an anchored hop 1 starts from, as it reads in a sentence: awards,
        offices and competitions take "the" ("the Palme d'Or"), names of people, places and
        clubs do not."""
        if not spec.anchor:
            return ""
        label = plain(self.facts.label(spec.anchor))
        if self.facts.is_human(spec.anchor):
            return label
        cls = self._class_of(spec.anchor)
        if cls and any(w in self.class_noun(cls) for w in _THE_NOUNS):
            if self.said and label.startswith("Monarch "):
                label = "monarch" + label[7:]  # "the monarch of Spain", no title in capitals
            return definite(label, True)
        if cls and label.isdigit():
            # a work named by a number reads as a year without its noun: "the album 1989"
            noun = self.class_noun(cls)
            return f"the {self.t.style.short.get(noun, noun)} {label}"
        return self.name(spec.anchor, label)
