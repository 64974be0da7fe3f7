"""Clues: first-person memory fragments built from one structured fact of the target.

A clue's fact is true of the target and false of every other candidate, so ``solvable`` is a
query. Clues edited by reviewers (text no longer the rendered one) are judged by which
candidates' fact texts they mention.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from builder.kb.text import normalize_name
from builder.records.seed import ClueFact, Constraint, HopSpec
from builder.seeding.compose import stable_index
from builder.seeding.era import Era
from builder.seeding.facts import Facts, at_time, year_of
from builder.seeding.options import distinct_facts, fact_constraints
from builder.seeding.resolve import base_fits, top
from builder.seeding.templates import Templates, load_templates
from builder.seeding.text import article, definite, leaks, plain, the, tidy


def _fill(template: str, v: str = "", p: str = "", bare: bool = False) -> str:
    template = template.replace("{a}", article(v)).replace("{tv}", v if bare else the(v))
    template = template.replace("{v}", v).replace("{p}", p)
    # A label ending in a full stop ("Washington, D.C.") at the end of a sentence; a value
    # that starts the sentence ("mass–energy equivalence is part of it") takes a capital.
    text = tidy(template).replace("..", ".")
    return text[:1].upper() + text[1:]


def _pick(seed: str, n: int, turn: int | None = None, base: str = "") -> int:
    """Which of ``n`` forms: by ``seed``, or, given the reply's ``turn`` (its hop), by
    ``base`` (the seed chain) moved on by the turn, so two replies of one sample never take
    the same form ("I meant the winner in 2010." then "I mean the head coach in 2014.")."""
    if turn is None or not base:
        return stable_index(seed, n)
    return (stable_index(base, n) + turn) % n


def _word(
    t: Templates,
    forms: Sequence[str],
    seed: str,
    noun: str = "",
    pronoun: str = "",
    frames: Sequence[str] = (),
    turn: int | None = None,
    salt: str = "",
    by_turn: bool = False,
) -> str:
    """One of a fact's clauses put in one of the frames (both by ``seed``); an entry that is
    a whole sentence is used as it is. ``noun``: the person the clause is about, named
    instead of "they" (see :func:`of_noun`); ``pronoun``: "he" or "she" instead of "they"
    (see :func:`of_pronoun`); ``frames``: other frames than ``clue_frames`` (a correction's).
    ``turn``: the reply's hop, whose frame (and with ``by_turn`` its form) differs from the
    other replies' of the seed chain ``salt``."""
    i = _pick(seed, len(forms), turn if by_turn else None, f"form|{salt}")
    core = forms[i]
    core = of_pronoun(core, pronoun) if pronoun else of_noun(core, noun)
    frames = frames or t.clue_frames
    if core.endswith((".", "?", "!")) or not frames:
        return core
    frame = frames[_pick(seed + "|frame", len(frames), turn, f"frame|{salt}")]
    return frame.replace("{c}", core).replace("{C}", core[:1].upper() + core[1:])


def of_noun(clause: str, noun: str) -> str:
    """A clause about a person said of them by their noun where the question has two people
    and "they" could be either: "they were born in {v}" → "the head of state was born in
    {v}"; the clause as it is without a noun or a "they" to replace."""
    if not noun:
        return clause
    for start, said in (
        ("they were ", f"the {noun} was "),
        ("they're ", f"the {noun} is "),
        ("they ", f"the {noun} "),
        ("the one I mean ", f"the {noun} I mean "),
    ):
        if clause.startswith(start):
            return said + clause[len(start) :]
    return clause


_PRONOUN_VERBS = {"play": "plays", "have": "has", "are": "is"}
_POSSESSIVE = {"he": "his", "she": "her"}


def of_pronoun(clause: str, pronoun: str) -> str:
    """A clause about a person said with "he" or "she" instead of "they", the verb agreeing
    ("they were born in {v}" → "she was born in {v}", "they play in {tv}" → "he plays in
    {tv}", "their father was {v}" → "his father was {v}"); the clause as it is without a
    pronoun."""
    if pronoun not in _POSSESSIVE:
        return clause
    words = clause.split(" ")
    out: list[str] = []
    for i, w in enumerate(words):
        if w == "they":
            out.append(pronoun)
            nxt = words[i + 1] if i + 1 < len(words) else ""
            if nxt == "were":
                words[i + 1] = "was"
            elif nxt in _PRONOUN_VERBS:
                words[i + 1] = _PRONOUN_VERBS[nxt]
        elif w == "they're":
            out.append(f"{pronoun}'s")
        elif w == "their":
            out.append(_POSSESSIVE[pronoun])
        elif w == "them":
            out.append("him" if pronoun == "he" else "her")
        else:
            out.append(w)
    return " ".join(out)


def pronoun_of(facts: Facts, key: str, templates: Templates | None = None) -> str:
    """The pronoun ("he", "she") of a person whose sex the snapshot gives (P21), else ""."""
    t = templates or load_templates()
    if not facts.is_human(key):
        return ""
    said = {t.clue_pronouns[v] for v in facts.value_keys(key, "P21") if v in t.clue_pronouns}
    return said.pop() if len(said) == 1 else ""


def render(
    facts: Facts,
    clue: ClueFact,
    templates: Templates | None = None,
    salt: str = "",
    noun: str = "",
    pronoun: str = "",
    correcting: bool = False,
    asked: bool = False,
    turn: int | None = None,
) -> str:
    """The clue's fact as the user's words; the wording varies with the fact and ``salt``
    (the seed chain's id, so two samples with the same fact need not say it word for word):
    a stable hash, never the run. ``noun``: the person the clue is about, where the question
    has another ("the head of state was born in 1908", not "they were born …");
    ``pronoun``: "he"/"she" for that person where it cannot mean another ("she was born in
    1908"); ``correcting``: the reply puts right a detail the question said wrong
    ("Actually, I think he was born in 1919."); ``asked``: a criterion the question asks
    the value of ("What is the area of the smallest …?": "By area, yes."); ``turn``: the
    hop the reply is for, so the replies of one sample take different frames."""
    t = templates or load_templates()
    p = facts.label(clue.property)
    if clue.kind == "criterion":
        phrases = t.criterion(clue.property)
        forms = phrases.clue if clue.value != "min" else phrases.clue_least
        if asked and phrases.clue_asked:
            forms = phrases.clue_asked
        word = phrases.vague if clue.value != "min" else phrases.vague_least
        form = forms[stable_index(f"criterion|{clue.property}|{clue.value}|{salt}", len(forms))]
        return _fill(form.replace("{w}", word).replace("{W}", word[:1].upper() + word[1:]), "", p)
    seed = f"{clue.kind}|{clue.property}|{clue.value}" + (f"|{salt}" if salt else "")
    if clue.match == "year":
        v, bare = str(year_of(clue.value)), True
    else:
        label = t.clue_values.get(clue.value) or plain(clue.value_label or facts.label(clue.value))
        listed = t.names.takes_the(label, facts.classes(clue.value))
        v, bare = definite(label, listed), label in t.names.bare
    if clue.kind == "qualifier":
        forms = t.qualifier_clues.get(clue.property) or t.qualifier_clues["default"]
        if noun and t.qualifier_noun_clues:
            # "I mean the head of state in 2021.": not "I'm asking about 2021." after "the
            # 1930 one", which reads as a change of mind
            forms = t.qualifier_noun_clues
        said = _word(t, forms, seed, turn=turn, salt=salt, by_turn=True)
        return _fill(said.replace("{n}", noun), v, p, bare)
    forms = (
        t.fact_clues.get(clue.property)
        or t.more_clues.get(clue.property)
        or t.fact_clues["default_year" if clue.match == "year" else "default"]
    )
    if clue.property in t.person_clues and _of_people(facts, clue):
        forms = t.person_clues[clue.property]
    if clue.property == "P21":  # "she was a woman" says it twice
        pronoun = ""
    frames = t.correction_frames if correcting else ()
    return _fill(_word(t, forms, seed, noun, pronoun, frames, turn, salt), v, p, bare)


def _of_people(facts: Facts, clue: ClueFact) -> bool:
    """Whether everyone the snapshot gives this fact is a person (the clue says "they")."""
    holders = facts.store.subjects(clue.property, clue.value)
    return bool(holders) and all(facts.is_human(h) for h in holders)


def holds(facts: Facts, clue: ClueFact, key: str, spec: HopSpec, prev: str | None) -> bool:
    """Whether candidate ``key`` satisfies the clue's structured fact."""
    if clue.kind == "fact":
        c = Constraint(property=clue.property, value=clue.value, match=clue.match)
        return facts.holds(key, c)
    if clue.kind == "qualifier":
        if not prev or not spec.link:
            return False
        want = year_of(clue.value)
        return any(
            v.value_key == key and at_time(v, clue.property, want)
            for v in facts.timed(prev, spec.link)
        )
    group = base_fits(facts, spec, prev)
    return key in top(facts, group, clue.property, spec.criterion_order)


def _forms(facts: Facts, key: str) -> set[str]:
    """Texts of a candidate's facts that a free-text clue may mention."""
    out: set[str] = set()
    for c in fact_constraints(facts, key, clue=True):
        out.add(normalize_name(c.value_label))
    return {f for f in out if len(f) >= 3}


def free_text_match(facts: Facts, text: str, keys: Sequence[str]) -> list[str]:
    """Candidates singled out by an edited clue: those with a mentioned fact text that no
    other candidate shares."""
    hay = f" {normalize_name(text)} "
    forms = {k: _forms(facts, k) for k in keys}
    out = []
    for k in keys:
        others = set().union(*(forms[o] for o in keys if o != k)) if len(keys) > 1 else set()
        if any(f" {f} " in hay for f in forms[k] - others):
            out.append(k)
    return out


def resolve_clue(
    facts: Facts,
    clue_text: str,
    clue: ClueFact,
    keys: Sequence[str],
    spec: HopSpec,
    prev: str | None,
) -> list[str]:
    """Candidates the clue leaves: by its fact when unedited, by its words when edited."""
    if " ".join(clue_text.split()) == " ".join(clue.text.split()):
        return [k for k in keys if holds(facts, clue, k, spec, prev)]
    return free_text_match(facts, clue_text, keys)


def pick_fact_clue(
    facts: Facts,
    target: str,
    keys: Sequence[str],
    spec: HopSpec,
    forbidden: Sequence[str],
    banned_values: set[str],
    rng: random.Random,
    avoid: Constraint | None = None,
    accept: Callable[[ClueFact], bool] | None = None,
    exclude_property: str = "",
    salt: str = "",
    noun: str = "",
    pronoun: str = "",
    corrects: str = "",
    turn: int | None = None,
) -> ClueFact | None:
    """A fact of the target that no other candidate has, rendered without leaking answers.

    ``accept`` vets each fact (the certifier: decidable for every candidate, not the answer's
    definition); ``exclude_property`` is the dropped constraint's, which a clue may not restate;
    ``corrects``: the property the question said a false value of (factual ambiguity), whose
    true value a clue says as a correction ("Actually, I think …"); ``noun``/``pronoun``: how
    the clue names a person (see :func:`render`).
    """
    t = load_templates()
    used = {(c.property, c.value) for c in spec.constraints}
    good: list[tuple[int, ClueFact]] = []

    def skip(c: Constraint) -> bool:
        return (
            (c.property, c.value) in used
            or c.value in banned_values
            or (spec.link_inverse and c.property == spec.link)
            or c.property == exclude_property
        )

    for c in distinct_facts(facts, target, keys, skip):
        clue = ClueFact.from_fact(c)
        if accept is not None and not accept(clue):
            continue
        correcting = bool(corrects) and c.property == corrects
        text = render(facts, clue, t, salt, noun, pronoun, correcting, turn=turn)
        if leaks(text, forbidden):
            continue
        rank = (0 if c.property in t.fact_clues else 1) + (2 if avoid == c else 0)
        good.append((rank, clue.model_copy(update={"text": text})))
    if not good:
        return None
    best = min(r for r, _ in good)
    return rng.choice([c for r, c in good if r == best])


def criterion_clue(
    facts: Facts, pid: str, order: str = "max", salt: str = "", asked: bool = False
) -> ClueFact:
    """The criterion itself (``value`` = ``max`` or ``min``) as the user's clarification;
    ``asked``: the question asks for that quantity of the ranked entity."""
    clue = ClueFact(kind="criterion", property=pid, value=order, text="")
    return clue.model_copy(update={"text": render(facts, clue, salt=salt, asked=asked)})


def qualifier_clue(
    facts: Facts, spec: HopSpec, salt: str = "", noun: str = "", turn: int | None = None
) -> ClueFact:
    """The version's year as the user's reply; ``noun``: the person the version is of, said
    where the question has another person; ``turn``: the reply's hop (see :func:`render`)."""
    clue = ClueFact(
        kind="qualifier", property=spec.qualifier, value=spec.qualifier_value, match="year", text=""
    )
    return clue.model_copy(update={"text": render(facts, clue, salt=salt, noun=noun, turn=turn)})


WON = frozenset({"P1346", "P166"})  # an earlier hop's year is the year its answer won
# (a founding year is worded as any other: "back when it was founded" after "the country of
# that company" would read as the country's)
RELEASED = frozenset({"P577", "P1191"})


def era_clue(
    facts: Facts,
    spec: HopSpec,
    era: Era,
    era_answer: str,
    salt: str = "",
    noun: str = "",
    turn: int | None = None,
) -> ClueFact:
    """The version's year said as the chain's own time ("Back when they won, in 1993."):
    the same structured clue as :func:`qualifier_clue`, worded by where the year comes from
    (``era``, whose hop's answer is ``era_answer``). The year stays the clue's one number.
    ``noun``: the person the version is of, said where the question has another ("I mean
    the head of state in 1998.": a reply of its own, not a second "I mean in 1998");
    ``turn``: the reply's hop (see :func:`render`)."""
    clue = qualifier_clue(facts, spec, salt, noun, turn)
    t = load_templates()
    if era.source == "qualifier" and era.property in WON:
        key = "won" if facts.is_human(era_answer) or _team(facts, era_answer) else "won_it"
    elif era.property in RELEASED:
        key = "released"
    elif era.source == "qualifier":
        key = "same"  # (a year the question or an earlier reply says: "I mean in 1998 too.")
    else:
        # a founding year the question does not say, or says as a fact the user may
        # misremember ("founded in 1942"): "I mean in 1941 too." would refer to nothing
        return clue
    forms = (t.era_noun_clues.get(key) if noun else None) or t.era_clues.get(key)
    if not forms:
        return clue
    seed = f"era|{key}|{clue.property}|{clue.value}|{salt}"
    form = forms[_pick(seed, len(forms), turn, f"form|{salt}")]
    text = form.replace("{v}", str(year_of(clue.value)))
    text = text.replace("{n}", noun)
    return clue.model_copy(update={"text": text})


def _team(facts: Facts, key: str) -> bool:
    """Whether the winner is a group that wins as "they" (a club, a team, a band)."""
    return not TEAMS.isdisjoint(facts.classes(key))


# football club, sports team, sports club, basketball team, national team, musical group
TEAMS = frozenset(
    {"Q476028", "Q12973014", "Q847017", "Q13393265", "L:class-national-team", "Q215380"}
)
