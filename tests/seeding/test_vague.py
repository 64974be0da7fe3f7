"""Question text a person would type (issue 11), on a hand-built world: an office's holder,
an edition's winner, a winner named by its class, stacked relation phrases, a person said
again as "they", a holder's facts as a sentence, and each ambiguity type's vague form."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from builder.ambiguity.assemble import assemble
from builder.ambiguity.base import ChainContext, Proposal
from builder.ambiguity.clues import render
from builder.ambiguity.entity import EntityInjector
from builder.ambiguity.inject import provenance_for
from builder.ambiguity.vague import entity_word
from builder.kb.store import KnowledgeStore
from builder.records.seed import ClueFact, Constraint, HopSpec, InjectionSpec
from builder.seeding.compose import Intro, compose, plural_noun
from builder.seeding.facts import Facts
from builder.seeding.generate import chain_from_specs
from builder.seeding.lint import text_problems
from builder.seeding.realize import Realizer
from builder.seeding.resolve import weaken
from builder.seeding.templates import load_templates
from tests.ambiguity.minikb import build_store_with, ent

HUMAN, FILM, COUNTRY = "Q5", "Q11424", "Q6256"
# the properties this world has beside minikb's own
MORE_PROPS = {
    "P27": ("country of citizenship", "wikibase-item"),
    "P6": ("head of government", "wikibase-item"),
    "P1313": ("office held by head of government", "wikibase-item"),
    "P800": ("notable work", "wikibase-item"),
    "P1308": ("officeholder", "wikibase-item"),
    "P1346": ("winner", "wikibase-item"),
    "P570": ("date of death", "time"),
    "P57": ("director", "wikibase-item"),
}
OFFICE, PRIZE, FILM_AWARD = (
    "L:class-government-office",
    "L:class-science-prize",
    "L:class-film-award",
)


def _world() -> list[tuple]:  # type: ignore[type-arg]
    people = [
        ("L:ardern", "Jacinda Ardern", "1980", "2017"),
        ("L:key", "John Key", "1961", "2008"),
        ("L:curie", "Marie Curie", "1867", ""),
        ("L:becquerel", "Henri Becquerel", "1852", ""),
    ]
    return [
        ent("Q5", "human"),
        ent("Q11424", "film"),
        ent("Q6256", "country"),
        ent(OFFICE, "government office"),
        ent(PRIZE, "science prize"),
        ent(FILM_AWARD, "film award"),
        ent("L:nz", "New Zealand", COUNTRY, {"P1313": "L:pm-nz"}),
        *(ent(k, name, HUMAN, {"P569": born, "P27": "L:nz"}) for k, name, born, _ in people),
        ent(
            "L:pm-nz",
            "Prime Minister of New Zealand",
            OFFICE,
            {
                "P17": "L:nz",
                "P1308": [
                    {"v": "L:key", "P580": "2008", "P582": "2016"},
                    {"v": "L:ardern", "P580": "2017", "P582": "2023"},
                ],
            },
        ),
        ent(
            "L:physics",
            "Nobel Prize in Physics",
            PRIZE,
            {"P1346": [{"v": "L:curie", "P585": "1903"}, {"v": "L:becquerel", "P585": "1903"}]},
        ),
        ent("L:qt", "Quentin Tarantino", HUMAN, {"P569": "1963"}),
        ent("L:crime", "crime film"),
        ent("L:bafta", "BAFTA Award for Best Film"),
        ent(
            "L:pulp",
            "Pulp Fiction",
            FILM,
            {"P577": "1994", "P166": "L:palme", "P57": "L:qt", "P136": "L:crime"},
            page="Pulp Fiction is a 1994 crime film directed by Quentin Tarantino. It won "
            "the Palme d'Or.",
        ),
        ent(
            "L:jackie",
            "Jackie Brown",
            FILM,
            {"P577": "1997", "P166": "L:bafta", "P57": "L:qt"},
            page="Jackie Brown is a 1997 film directed by Quentin Tarantino. It won the BAFTA "
            "Award for Best Film.",
        ),
        ent("L:piano", "The Piano", FILM, {"P577": "1993", "P166": "L:palme"}),
        ent("L:sex", "Sex, Lies, and Videotape", FILM, {"P577": "1989"}),
        ent(
            "L:palme",
            "Palme d'Or",
            FILM_AWARD,
            {"P1346": [{"v": "L:pulp", "P585": "1994"}, {"v": "L:piano", "P585": "1993"}]},
        ),
    ]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KnowledgeStore]:
    s = build_store_with(Path(tmp_path_factory.mktemp("vague")) / "kb.sqlite", MORE_PROPS, _world)
    yield s
    s.close()


@pytest.fixture(scope="module")
def realizer(store: KnowledgeStore) -> Realizer:
    return Realizer(Facts(store))


def year(pid: str, y: int) -> Constraint:
    return Constraint(property=pid, value=f"+{y}-00-00T00:00:00Z", match="year")


def timed(pid: str, q: str, y: int, **kw: object) -> HopSpec:
    return HopSpec.model_validate(
        {"link": pid, "qualifier": q, "qualifier_value": f"+{y}-00-00T00:00:00Z", **kw}
    )


def test_an_office_names_its_holder(realizer: Realizer) -> None:
    holder = timed("P1308", "P580", 2020, anchor="L:pm-nz")
    assert realizer.question([holder, HopSpec(link="P569")]) == (
        "When was the Prime Minister of New Zealand in 2020 born?"
    )
    # version vague form: the time left out, never "back then"
    vague = holder.model_copy(update={"qualifier": "", "qualifier_value": "", "any_time": True})
    question = realizer.question([vague, HopSpec(link="P569")])
    assert question == "When was the Prime Minister of New Zealand born?"
    assert "back then" not in question and "holder" not in question


def test_an_editions_year_goes_into_its_name(realizer: Realizer) -> None:
    winner = timed("P1346", "P585", 1903, anchor="L:physics")
    # as people say it ("the 1903 Nobel Prize in Physics winner"), one "of the" fewer
    assert realizer.question([winner, HopSpec(link="P569")]) == (
        "When was the 1903 Nobel Prize in Physics winner born?"
    )
    # with a fact of the winner, the fact is said after the question, of the winner
    born = winner.model_copy(update={"constraints": [year("P569", 1867)]})
    text = realizer.question([born, HopSpec(link="P27")])
    assert text == (
        "Which country is the 1903 Nobel Prize in Physics winner from? The one born in 1867, I mean."
    )


def test_a_winner_is_named_by_the_class_all_winners_share(realizer: Realizer) -> None:
    film = HopSpec(link="P1346", anchor="L:palme")
    assert realizer.question([film, HopSpec(link="P577")]) == (
        "When was the film that won the Palme d'Or released?"
    )
    # people are winners: no "the person that won"
    assert "the Nobel Prize in Physics winner" in realizer.question(
        [HopSpec(link="P1346", anchor="L:physics"), HopSpec(link="P569")]
    )


def test_at_most_three_relation_phrases_in_one_sentence(realizer: Realizer) -> None:
    chain = [
        HopSpec(link="P1346", anchor="L:physics"),
        HopSpec(link="P19"),
        HopSpec(link="P17"),
        HopSpec(link="P6"),
        HopSpec(link="P569"),
    ]
    question = realizer.question(chain)
    assert all(s.count(" of ") <= 3 for s in re.split(r"\. | — ", question)), question
    # the birthplace's country said by what happened there, in a question of its own: "…
    # where the Nobel Prize in Physics winner was born born?" would read as broken
    assert question == (
        "Which country was the Nobel Prize in Physics winner born in? When was its head of "
        "government born?"
    )


def test_a_person_said_just_before_is_they(realizer: Realizer) -> None:
    winner = timed("P1346", "P585", 1903, anchor="L:physics", constraints=[year("P569", 1867)])
    question = realizer.question([winner, HopSpec(link="P570")])
    # one sentence where it fits, the winner's fact after it: no "winner born in 1867 die?"
    assert (
        question
        == "When did the 1903 Nobel Prize in Physics winner die? The one born in 1867, I mean."
    )
    # a person said in a sentence of their own is "they" in the next one
    chain = [HopSpec(link="P1346", anchor="L:physics"), HopSpec(link="P19"), HopSpec(link="P17")]
    question = realizer.question([*chain, HopSpec(link="P6"), HopSpec(link="P570")])
    assert "that winner" not in question and "that person" not in question


def test_a_holders_facts_at_a_known_time_are_said_next_to_them(realizer: Realizer) -> None:
    office = HopSpec(link="P1308", anchor="L:pm-nz")
    first = HopSpec(link="P27")
    head = timed("P6", "P580", 2019, constraints=[year("P569", 1980)])
    question = realizer.question([office, first, first, head, HopSpec(link="P570")])
    # the first hops asked on their own (five hops), the year after the office's noun, the
    # holder's facts after the question, never between commas ("the 2019 head of government,
    # born in 1980, of …") nor a flat sentence of their own ("Its head of government in 2019
    # was born in 1980.")
    assert question == (
        "Which country is the Prime Minister of New Zealand from? When did the head of "
        "government in 2019 of its home country die? The head of government born in 1980, I "
        "mean."
    )
    assert ", born" not in question and question.count("?") == 2
    # as the last hop: "Who was its head of government in 2019, born in 1980?"
    ask = realizer.ask(head, "that country")
    assert ask == "Who was the head of government of that country in 2019, born in 1980?"
    # factual vague form: a false year is said with the same confidence as a true one
    false = head.model_copy(update={"constraints": [year("P569", 1979)]})
    assert realizer.ask(false, "that country") == ask.replace("1980", "1979")


def test_entity_vague_word_only_when_true_of_every_candidate(store: KnowledgeStore) -> None:
    facts = Facts(store)
    spec = HopSpec(class_id=FILM, constraints=[Constraint(property="P166", value="L:palme")])
    drop = InjectionSpec(type="entity", constraint=0, clue=ClueFact(property="", text=""))
    assert entity_word(facts, spec, drop, ["L:pulp", "L:piano"]) == "award-winning"
    # one candidate has no award: the word would not be true of it
    assert entity_word(facts, spec, drop, ["L:pulp", "L:sex"]) == ""
    # a year said as the decade every candidate's year is in
    released = HopSpec(class_id=FILM, constraints=[year("P577", 1994)])
    assert entity_word(facts, released, drop, ["L:pulp", "L:piano"]) == "1990s"
    assert entity_word(facts, released, drop, ["L:pulp", "L:sex"]) == ""
    # a winner is never an "award-winning winner"
    won = HopSpec(link="P1346", constraints=spec.constraints)
    assert entity_word(facts, won, drop, ["L:pulp", "L:piano"]) == ""
    # other types have no word of their own
    other = drop.model_copy(update={"type": "factual"})
    assert entity_word(facts, spec, other, ["L:pulp", "L:piano"]) == ""


def test_entity_vague_word_is_said_in_the_question(realizer: Realizer) -> None:
    spec = HopSpec(class_id=FILM, constraints=[Constraint(property="P166", value="L:palme")])
    drop = InjectionSpec(type="entity", constraint=0, clue=ClueFact(property="", text=""))
    weak = weaken(spec, drop)
    question = realizer.question([weak, HopSpec(link="P577")], ["award-winning", ""])
    assert question == "When was the award-winning film released?"
    assert text_problems(question) == []
    # a relation phrase takes the word after its article ("an award-winning …")
    work = HopSpec(link="P800")
    assert realizer.noun_phrase(work, "that director") == "a notable work of that director"
    phrase = realizer.phrase(work, "that director", vague="award-winning").text
    assert phrase == "an award-winning notable work of that director"


def test_clues_vary_as_memory_fragments(store: KnowledgeStore) -> None:
    facts = Facts(store)
    names = [f"Director {c}" for c in "ABCDEFGHIJKLMNOP"]
    clues = {
        render(
            facts,
            ClueFact(kind="fact", property="P57", value=f"L:{n}", value_label=n, text=""),
        )
        for n in names
    }
    shapes = {c.replace(n, "X") for c in clues for n in names if n in c}
    assert len(shapes) >= 4, shapes
    assert any(s == "It was the one X directed." for s in shapes), shapes
    assert all(s[:1].isupper() and s.endswith((".", "?")) for s in shapes)


def test_every_clue_form_reads_as_a_sentence() -> None:
    t = load_templates()
    forms = [
        f
        for group in (t.fact_clues, t.more_clues, t.person_clues)
        for v in group.values()
        for f in v
    ]
    for form in forms:
        frames = ["{c}"] if form.endswith((".", "?", "!")) else t.clue_frames
        for frame in frames:
            core = form.replace("{v}", "Rome").replace("{tv}", "the Rome Prize")
            core = core.replace("{a}", "a").replace("{p}", "genre")
            text = frame.replace("{c}", core).replace("{C}", core[:1].upper() + core[1:])
            assert text_problems(text) == [], text
            assert text[:1].isupper() and text.endswith((".", "?", "!")), text


def test_a_final_time_never_reads_as_the_nested_phrases(realizer: Realizer) -> None:
    population = timed("P1082", "P585", 2010)
    died = "the place where that member died"
    assert realizer.ask(population, died) == f"What was the 2010 population of {died}?"
    # after a reference back it stays with the relation's verb
    assert realizer.ask(population, "that city") == "What was the population of that city in 2010?"


def test_an_entity_ambiguous_sample_says_the_vague_word(store: KnowledgeStore) -> None:
    """Through the injector and the sample's assembly: the dropped "won the Palme d'Or" is
    said as "award-winning" (both of Tarantino's films here won an award)."""
    facts = Facts(store)
    palme = Constraint(property="P166", value="L:palme", value_label="Palme d'Or")
    qt = Constraint(property="P57", value="L:qt", value_label="Quentin Tarantino")
    specs = [HopSpec(class_id=FILM, constraints=[qt, palme]), HopSpec(link="P577")]
    ctx = ChainContext(facts, chain_from_specs(store, "seed-000001", specs), random.Random(0))
    proposals = [p for p in EntityInjector().propose(ctx, 0) if isinstance(p, Proposal)]
    dropped = next(p for p in proposals if p.injection.constraint == 1)
    assert {c.id for c in dropped.candidates} == {"L:pulp", "L:jackie"}
    sample = assemble(ctx, {0: dropped}, provenance=provenance_for(store, None), seed=0, types=[])
    assert (
        sample.question == "When was the award-winning film directed by Quentin Tarantino released?"
    )
    assert (
        "Palme" in sample.unambiguous_question
        and "award-winning" not in sample.unambiguous_question
    )


def test_a_preposition_goes_first_after_a_clause(realizer: Realizer) -> None:
    country = HopSpec(link="P17")
    assert realizer.ask(country, "that city") == "Which country is that city in?"
    formed = "the place where that band was formed"
    assert realizer.ask(country, formed) == f"In which country is {formed}?"
    # the clause's own preposition stays where it is ("… plays in?", not "In what was …")
    league = "the league that club plays in"
    assert realizer.ask(country, league) == f"In which country is {league}?"
    winner = HopSpec(link="P1346", qualifier="P585", qualifier_value="+2020-00-00T00:00:00Z")
    assert realizer.ask(winner, league) == f"What was the 2020 winner of {league}?"


def test_one_of_several_is_asked_as_a_person_would() -> None:
    style = load_templates().style
    intro = [Intro("the country of the birthplace of X", "that country", "its")]
    assert compose(style, intro, "Which head of state of that country was born in 1913?") == (
        "I've been reading about the country of the birthplace of X. Which of its heads of "
        "state was born in 1913?"
    )
    assert plural_noun("head coach") == "head coaches" and plural_noun("city") == "cities"
    # a noun that reads wrong after "its" stays as it is
    parts = [Intro("the band formed in 1960", "that band", "its")]
    assert compose(style, parts, "Which part of that band was born in 1940?").endswith(
        ". Which part of that band was born in 1940?"
    )


def test_goals_ask_an_office_by_its_name_and_keep_a_winners_words(realizer: Realizer) -> None:
    holder = timed("P1308", "P580", 2020, anchor="L:pm-nz")
    goals = realizer.goals([holder, HopSpec(link="P569")], ["L:ardern", "+1980"])
    assert goals == [
        "Who was the Prime Minister of New Zealand in 2020?",
        "When was that person born?",
    ]
    # an edition may have several winners: their facts pick one out (no "…, born in 1867")
    winner = timed("P1346", "P585", 1903, anchor="L:physics", constraints=[year("P569", 1867)])
    goal = realizer.goals([winner], ["L:curie"])[0]
    assert "winner" in goal and ", born" not in goal
