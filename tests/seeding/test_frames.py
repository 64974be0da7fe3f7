"""A chain through a country to its leader or its neighbour, said as a person asks it (issue
11, builder/seeding/frames.py), on a hand-built world: one direct question with no lead
sentence before it, the country by whose it is, the neighbour by "the … country bordering",
the leader by "the head of state"/"the head of government", the office's year once where it
belongs, a remembered fact in a short sentence after the question (never stacked into a noun
phrase), the neighbour's ranking with its criterion (and without it where the hop leaves it
open), and every fact of every hop still said."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from builder.kb.store import KnowledgeStore
from builder.records.seed import Constraint, HopSpec
from builder.seeding.facts import Facts
from builder.seeding.lint import text_problems
from builder.seeding.realize import Realizer
from builder.seeding.templates import load_templates
from tests.ambiguity.minikb import build_store_with, ent
from tests.seeding.test_vague import timed, year

COUNTRY, HUMAN, FILM, PRIZE, CLUB, UNIVERSITY = (
    "Q6256",
    "Q5",
    "Q11424",
    "L:class-science-prize",
    "Q476028",
    "Q3918",
)
MORE_PROPS = {
    "P27": ("country of citizenship", "wikibase-item"),
    "P6": ("head of government", "wikibase-item"),
    "P35": ("head of state", "wikibase-item"),
    "P47": ("shares border with", "wikibase-item"),
    "P86": ("composer", "wikibase-item"),
    "P115": ("home venue", "wikibase-item"),
    "P1037": ("director / manager", "wikibase-item"),
    "P1346": ("winner", "wikibase-item"),
    "P1906": ("office held by head of state", "wikibase-item"),
    "P570": ("date of death", "time"),
    "P38": ("currency", "wikibase-item"),
    "P527": ("has part", "wikibase-item"),
    "P1308": ("officeholder", "wikibase-item"),
    "P22": ("father", "wikibase-item"),
    "P20": ("place of death", "wikibase-item"),
    "P170": ("creator", "wikibase-item"),
    "P30": ("continent", "wikibase-item"),
}


def _world() -> list[tuple]:  # type: ignore[type-arg]
    return [
        ent(COUNTRY, "country"),
        ent(HUMAN, "human"),
        ent(FILM, "film"),
        ent(PRIZE, "science prize"),
        ent(CLUB, "association football club"),
        ent(UNIVERSITY, "university"),
        ent("L:us", "United States", COUNTRY),
        ent("L:de", "Germany", COUNTRY),
        ent("L:class-government-office", "government office"),
        ent("L:monarch-es", "Monarch of Spain", "L:class-government-office"),
        ent("L:es", "Spain", COUNTRY, {"P1906": "L:monarch-es"}),
        ent("L:felipe", "Felipe VI", HUMAN, {"P569": "1968"}),
        ent("L:reznor", "Trent Reznor", HUMAN, {"P569": "1965", "P27": "L:us"}),
        ent("L:soul", "Soul", FILM, {"P86": "L:reznor"}),
        ent("L:nobel", "Nobel Prize in Physics", PRIZE),
        ent("L:stadium", "Westfalenstadion", None, {"P17": "L:de"}),
        ent("L:bvb", "Borussia Dortmund", CLUB, {"P115": "L:stadium"}),
        ent("L:harvard", "Harvard University", UNIVERSITY),
        ent("Q215380", "musical group"),
        ent("L:yorke", "Thom Yorke", HUMAN, {"P569": "1968"}),
        ent("L:radiohead", "Radiohead", "Q215380", {"P527": "L:yorke"}),
        ent("L:sex", "Sex, Lies, and Videotape", FILM, {"P86": "L:reznor"}),
        ent("Q3305213", "painting"),
        ent("L:kiss", "The Kiss", "Q3305213"),
        ent("Q5107", "continent"),
        ent("L:europe", "Europe", "Q5107"),
    ]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KnowledgeStore]:
    s = build_store_with(Path(tmp_path_factory.mktemp("frames")) / "kb.sqlite", MORE_PROPS, _world)
    yield s
    s.close()


@pytest.fixture(scope="module")
def realizer(store: KnowledgeStore) -> Realizer:
    return Realizer(Facts(store))


SOUL = HopSpec(link="P86", anchor="L:soul")
HOME = HopSpec(link="P27")
LARGEST = HopSpec(link="P47", link_inverse=True, class_id=COUNTRY, criterion="P2046")
WINNER = timed("P1346", "P585", 1998, anchor="L:nobel", constraints=[year("P569", 1950)])


# the lead sentences a blind rater read as filler nobody types
_FILLER = re.compile(
    r"a country I|I'm curious|I have a question|I'd like to know|I've been reading|"
    r"^Take |My question is|I'm thinking of|This is about|Think of"
)


def _clean(question: str) -> None:
    assert text_problems(question) == [], question
    assert _FILLER.search(question) is None, question
    # (database wording: "the person who led its government", "its smallest neighbour by
    # area", "the country with the largest area")
    assert "person who" not in question and "led" not in question, question
    assert "neighbour by" not in question and "the country with the" not in question, question
    assert re.search(r"\bits (?:government|head|\w+est|most|least)\b", question) is None, question


def _first(question: str) -> str:
    """The question sentence, the first of the text."""
    return re.split(r"(?<=\?) ", question, maxsplit=1)[0]


def test_one_direct_question_with_the_neighbour_bordering(realizer: Realizer) -> None:
    question = realizer.question([SOUL, HOME, LARGEST, timed("P6", "P580", 1957)])
    # not "Soul's composer is from a country I have a question about. In 1957, who led the
    # government of its largest neighbour by area?" (a filler lead, database wording)
    assert question == (
        "In 1957, who was the head of government of the largest country by area bordering "
        "the home country of Soul's composer?"
    )
    _clean(question)
    # a short person's country is theirs
    physics = HopSpec(link="P1346", anchor="L:nobel")
    short = realizer.question([physics, HOME, LARGEST, HopSpec(link="P38")])
    assert short == (
        "What is the currency of the largest country by area bordering the Nobel Prize in "
        "Physics winner's home country?"
    )
    _clean(short)


def test_a_vague_ranking_keeps_its_criterion_open(realizer: Realizer) -> None:
    vague = LARGEST.model_copy(update={"criterion": "", "criteria_options": ["P2046", "P1082"]})
    question = realizer.question([SOUL, HOME, vague, timed("P6", "P580", 1957)])
    assert "the biggest country bordering" in question
    assert "area" not in question and "population" not in question
    least = LARGEST.model_copy(update={"criterion": "P1082", "criterion_order": "min"})
    populous = realizer.question([SOUL, HOME, least, timed("P6", "P580", 1957)])
    assert "the least populous country bordering the home country of Soul's composer?" in (populous)
    _clean(question)
    _clean(populous)


def test_each_remembered_fact_is_said_once_after_the_question(realizer: Realizer) -> None:
    head = timed("P6", "P580", 1968, constraints=[year("P569", 1929)])
    question = realizer.question([WINNER, HOME, LARGEST, head])
    # not "The 1998 … winner born in 1950 is from a country …" (stacked into the noun
    # phrase), nor "I mean the winner born in 1950 and the head of government born in 1929."
    first, after = question.split("? ", 1)
    assert first == (
        "In 1968, who was the head of government of the largest country by area bordering "
        "the 1998 Nobel Prize in Physics winner's home country"
    )
    assert "born in 1950" not in first and "1929" not in first
    # the shared verb said once
    assert after in (
        "I think the winner was born in 1950, and the head of government in 1929.",
        "If I remember right, the winner was born in 1950 and the head of government in 1929.",
    )
    for y in ("1998", "1950", "1968", "1929"):
        assert question.count(y) == 1
    _clean(question)


def test_a_leaders_fact_is_what_is_remembered_of_them(realizer: Realizer) -> None:
    head = timed("P6", "P580", 1963, constraints=[year("P569", 1912)])
    question = realizer.question([SOUL, HOME, head, HopSpec(link="P570")])
    # not "When did the person who led its government in 1963 die?" after a lead, nor the
    # riddle "In 1963, someone born in 1912 led …. When did they die?"
    # (the year after the question: "… of the home country of Soul's composer in 1963 die?"
    # would read as the composer's)
    assert _first(question) == (
        "When did the head of government of the home country of Soul's composer die?"
    )
    assert "the one in 1963" in question.lower()
    # the year and what is remembered of the leader in one short sentence after it
    assert question.endswith(
        (
            "The one in 1963, born in 1912 I think.",
            "I mean the one in 1963, who I think was born in 1912.",
        )
    )
    assert question.count("1912") == 1 and question.count("1963") == 1
    # where their birth is asked the question asks the exact date of the year remembered
    # ("When was … born? I think they were born in 1912." would ask what it says)
    born = realizer.question([SOUL, HOME, head, HopSpec(link="P569")])
    assert born.startswith(
        "When exactly was the head of government of the home country of Soul's composer born? "
    )
    assert born.endswith(("I think it was in 1912.", "It was in 1912, I think."))
    # after a possessive country the year is said in the question
    named = [HopSpec(link="P27", anchor="L:reznor"), head, HopSpec(link="P570")]
    assert _first(realizer.question(named)) == (
        "When did the head of government of Trent Reznor's home country in 1963 die?"
    )
    # a misremembered year is said the same way
    false = head.model_copy(update={"constraints": [year("P569", 1913)]})
    wrong = realizer.question([SOUL, HOME, false, HopSpec(link="P570")])
    assert wrong == question.replace("1912", "1913")
    _clean(question)
    _clean(born)


def test_a_year_a_clause_would_take_is_said_after_the_question(realizer: Realizer) -> None:
    head = timed("P6", "P580", 1957)
    question = realizer.question([SOUL, HOME, LARGEST, head, HopSpec(link="P569")])
    # not "When was the person born who, in 1957, led the government of its largest
    # neighbour by area?", nor "… bordering the home country of Soul's composer in 1957
    # born?"
    assert _first(question) == (
        "When was the head of government of the largest country by area bordering the home "
        "country of Soul's composer born?"
    )
    assert question.endswith(("I mean the one in 1957.", "The one in 1957, I mean."))
    # a version left open says no year at all
    loose = realizer.question([SOUL, HOME, LARGEST, HopSpec(link="P6"), HopSpec(link="P569")])
    assert re.search(r"\d{4}", loose) is None and loose == _first(question)
    state = realizer.question([SOUL, HOME, LARGEST, HopSpec(link="P35"), HopSpec(link="P570")])
    assert state.startswith("When did the head of state of the largest country by area ")
    _clean(question)
    _clean(state)


def test_a_clubs_country_is_where_it_plays(realizer: Realizer) -> None:
    venue = HopSpec(link="P115", anchor="L:bvb")
    head = timed("P6", "P580", 1974, constraints=[year("P569", 1897)])
    question = realizer.question([venue, HopSpec(link="P17"), head, HopSpec(link="P570")])
    # not "the head of government in 1974 of the country of the home venue of Borussia
    # Dortmund", nor "… plays its home games die?": the country the question happens in
    assert _first(question) == (
        "In the country where Borussia Dortmund plays its home games, when did the head of "
        "government die?"
    )
    assert "in 1974" in question and "born in 1897" in question
    assert "home venue" not in question and "1974 of" not in question
    _clean(question)


def test_one_year_is_said_once(realizer: Realizer) -> None:
    winner = WINNER.model_copy(update={"constraints": []})
    question = realizer.question([winner, HOME, timed("P35", "P580", 1998)])
    # not "In 1998, who was head of state of the 1998 … winner's country?"
    assert question == (
        "Who was the head of state of the 1998 Nobel Prize in Physics winner's home country "
        "that year?"
    )
    born = realizer.question([winner, HOME, timed("P35", "P580", 1998), HopSpec(link="P569")])
    assert born.count("1998") == 1
    assert born.endswith(("The one at the time, I mean.", "I mean the one at the time."))


def test_a_universitys_head_is_its_president(realizer: Realizer) -> None:
    head = timed("P1037", "P580", 2012, anchor="L:harvard")
    question = realizer.question([head, HOME, timed("P6", "P580", 1968)])
    # two years: the office's first ("… 2012 president in 1968?" would run them together)
    assert question == (
        "In 1968, who was the head of government of the home country of Harvard University's "
        "2012 president?"
    )
    assert "head of Harvard" not in question


def test_a_monarch_is_not_a_title_in_capitals(realizer: Realizer) -> None:
    king = timed("P35", "P580", 2014, anchor="L:es")
    question = realizer.question([king, HopSpec(link="P569")])
    assert "the monarch of Spain" in question and "Monarch" not in question
    # the office held as the anchor ("When was the monarch of Spain in 1994 born?")
    held = timed("P1308", "P580", 1994, anchor="L:monarch-es")
    question = realizer.question([held, HopSpec(link="P569")])
    assert "the monarch of Spain" in question and "Monarch" not in question


def test_a_birthplaces_country_is_where_they_were_born(realizer: Realizer) -> None:
    born = [WINNER, HopSpec(link="P19"), HopSpec(link="P17"), LARGEST]
    question = realizer.question(born)
    # not "the country where the 1998 … winner born in 1950 was born", nor "… was born in
    # 1950, in a country I have a question about."
    assert _first(question) == (
        "What is the largest country by area bordering the country where the 1998 Nobel "
        "Prize in Physics winner was born?"
    )
    assert question.count("born in 1950") == 1
    _clean(question)


def test_a_title_with_commas_stays_in_the_question(realizer: Realizer) -> None:
    composer = HopSpec(link="P86", anchor="L:sex")
    question = realizer.question([composer, HOME, timed("P6", "P580", 1963)])
    # not "I'm curious about Sex, Lies, and Videotape's composer. Who led their country's
    # government in 1963?"
    assert question == (
        "In 1963, who was the head of government of the home country of Sex, Lies, and "
        "Videotape's composer?"
    )
    _clean(question)


def test_one_of_several_is_not_a_possessive(realizer: Realizer) -> None:
    member = HopSpec(link="P527", anchor="L:radiohead", constraints=[year("P569", 1968)])
    chain = [member, HopSpec(link="P19"), HopSpec(link="P17"), timed("P6", "P580", 1976)]
    question = realizer.question(chain)
    # "a member of Radiohead", one of several: not "Radiohead's member"; the year after
    assert _first(question) == (
        "In 1976, who was the head of government of the country where a member of Radiohead "
        "was born?"
    )
    assert "Radiohead's" not in question and question.count("1968") == 1
    _clean(question)


def test_a_neighbours_fact_in_a_year_says_the_year_first(realizer: Realizer) -> None:
    population = timed("P1082", "P585", 2023)
    question = realizer.question([SOUL, HOME, LARGEST, population])
    # not "the population in 2023 of the largest country …", nor "… in 2023?" (the year
    # read as the neighbour's)
    assert question == (
        "In 2023, what was the population of the largest country by area bordering the home "
        "country of Soul's composer?"
    )
    _clean(question)


def test_the_country_frame_starts_at_the_country_the_rest_fits(realizer: Realizer) -> None:
    # the composer's country, then its capital, then the capital's country: the frame is
    # the last country's
    chain = [SOUL, HOME, HopSpec(link="P36"), HopSpec(link="P17"), timed("P6", "P580", 2021)]
    question = realizer.question(chain)
    assert question.startswith("In 2021, who was the head of government of the country ")
    assert question.endswith(" is in?") and "had a head" not in question
    _clean(question)


def test_a_country_with_a_clause_takes_the_year_first(realizer: Realizer) -> None:
    died = [HopSpec(link="P170", anchor="L:kiss"), HopSpec(link="P20"), HopSpec(link="P17")]
    question = realizer.question([*died, timed("P6", "P580", 1968)])
    # not "The artist who painted The Kiss died in a country I'm curious about: who led its
    # government in 1968?", nor "… died in 1968?"
    assert question == (
        "In 1968, who was the head of government of the country where the artist who painted "
        "The Kiss died?"
    )
    _clean(question)
    # a possessive country takes it after
    reznor = HopSpec(link="P27", anchor="L:reznor")
    assert realizer.question([reznor, timed("P6", "P580", 1968)]) == (
        "Who was the head of government of Trent Reznor's home country in 1968?"
    )
    # a verb after the clause would meet its own ("… where … died die?")
    death = realizer.question([*died, timed("P6", "P580", 1968), HopSpec(link="P570")])
    assert _first(death) == (
        "In the country where the artist who painted The Kiss died, when did the head of "
        "government die?"
    )
    assert death.endswith(("I mean the one in 1968.", "The one in 1968, I mean."))
    _clean(death)


def test_an_unranked_neighbour_is_which_country_borders(realizer: Realizer) -> None:
    painter = HopSpec(link="P170", anchor="L:kiss")
    border = HopSpec(link="P47", link_inverse=True, class_id=COUNTRY)
    question = realizer.question([painter, HopSpec(link="P20"), HopSpec(link="P17"), border])
    # not "Which country does the country where the artist who painted The Kiss died border?"
    assert question == (
        "Which country borders the country where the artist who painted The Kiss died?"
    )
    _clean(question)
    # before its leader it is a country bordering it
    led = realizer.question([SOUL, HOME, border, timed("P6", "P580", 1981)])
    assert led == (
        "In 1981, who was the head of government of a country bordering the home country of "
        "Soul's composer?"
    )
    _clean(led)


def test_a_named_countrys_neighbour_is_the_country_bordering_it(realizer: Realizer) -> None:
    smallest = LARGEST.model_copy(update={"anchor": "L:us", "criterion_order": "min"})
    head = timed("P35", "P580", 2024, constraints=[year("P569", 1966)])
    question = realizer.question([smallest, head])
    # not "In the country with the smallest area bordering the United States, who was the
    # head of state in 2024? The one born in 1966, I mean."
    assert _first(question) == (
        "In 2024, who was the head of state of the smallest country by area bordering the "
        "United States?"
    )
    assert "the head of state was born in 1966" in question
    _clean(question)
    assert realizer.question([smallest]) == (
        "What is the smallest country by area bordering the United States?"
    )


def test_a_possessive_country_stays_one_question(realizer: Realizer) -> None:
    physics = HopSpec(link="P1346", anchor="L:nobel")
    question = realizer.question([physics, HOME, HopSpec(link="P35"), HopSpec(link="P569")])
    # not "When was the person who was head of state of …'s country born?"
    assert question == (
        "When was the head of state of the Nobel Prize in Physics winner's home country born?"
    )
    # a possessive with a year of its own too: not "The 1998 … winner is from a country I'm
    # curious about. When was the person who led its government born?"
    dated = WINNER.model_copy(update={"constraints": []})
    said = realizer.question([dated, HOME, HopSpec(link="P6"), HopSpec(link="P569")])
    assert said == (
        "When was the head of government of the 1998 Nobel Prize in Physics winner's home "
        "country born?"
    )
    _clean(said)


def test_a_persons_facts_are_not_stacked_on_their_noun(realizer: Realizer) -> None:
    coach = timed("P1037", "P580", 2012, anchor="L:harvard", constraints=[year("P569", 1950)])
    question = realizer.question([coach, HOME, LARGEST, HopSpec(link="P38")])
    # not "Harvard University's 2012 president born in 1950 is from …"
    assert question.startswith(
        "What is the currency of the largest country by area bordering the home country of "
        "Harvard University's 2012 president? "
    )
    assert "the president was born in 1950" in question
    assert question.count("1950") == 1 and question.count("2012") == 1
    _clean(question)


def test_another_question_about_the_leader_ends_with_them(realizer: Realizer) -> None:
    father = HopSpec(link="P22")
    question = realizer.question([SOUL, HOME, timed("P35", "P580", 2019), father])
    # not "Who was the father of its head of state in 2019?" after a lead
    assert question == (
        "Who was the father of the head of state of the home country of Soul's composer? I "
        "mean the head of state in 2019."
    )
    head = timed("P35", "P580", 2019, constraints=[year("P569", 1901)])
    known = realizer.question([SOUL, HOME, head, father])
    # not the riddle "In 2019, someone born in 1901 was head of state of …. Who was the
    # father of that head of state?"
    assert known.startswith(question + " ")
    # (a possessive country takes the year in the question)
    named = [HopSpec(link="P27", anchor="L:reznor"), timed("P35", "P580", 2019), father]
    assert realizer.question(named) == (
        "Who was the father of the head of state of Trent Reznor's home country in 2019?"
    )
    assert "the head of state was born in 1901" in known and known.count("1901") == 1
    _clean(question)
    _clean(known)


def test_a_country_of_several_is_said_by_its_phrase(realizer: Realizer) -> None:
    european = HopSpec(link="P27", constraints=[Constraint(property="P30", value="L:europe")])
    question = realizer.question([SOUL, european, HopSpec(link="P35"), HopSpec(link="P569")])
    # the one of the composer's countries in Europe, never "In Europe that Soul's composer
    # is from a country …"
    assert question == (
        "In the country in Europe that Soul's composer is from, when was the head of state born?"
    )
    _clean(question)
    # a short person's is theirs ("Satya Nadella's home country in Asia")
    reznor = european.model_copy(update={"anchor": "L:reznor"})
    named = realizer.question([reznor, timed("P6", "P580", 2004), HopSpec(link="P570")])
    assert named.startswith(
        "When did the head of government of Trent Reznor's home country in Europe die? "
    )
    assert named.endswith(("I mean the one in 2004.", "The one in 2004, I mean."))
    _clean(named)


def test_the_sentences_after_the_question_vary_across_chains(realizer: Realizer) -> None:
    # one form for half the build would read as a template
    heads = [timed("P6", "P580", 1950, constraints=[year("P569", y)]) for y in range(1900, 1912)]
    said = {re.sub(r"\b19\d\d\b", "Y", realizer.question([SOUL, HOME, LARGEST, h])) for h in heads}
    # (the forms are picked by the facts' properties: every year's chain reads the same)
    assert len(said) == 1
    chains = [
        [SOUL, HOME, LARGEST, timed("P6", "P580", y, constraints=[year("P569", 1901)])]
        for y in range(1950, 1962)
    ]
    forms = {realizer.question(c).split("? ", 1)[1] for c in chains}
    assert len(forms) >= 2, forms
    frame = load_templates().style.frame
    assert all(len(frame[k]) >= 2 for k in ("fact", "year", "exact")), frame


def test_a_vague_persons_facts_are_theirs(realizer: Realizer) -> None:
    composer = HopSpec(link="P86", anchor="L:sex")
    head = timed("P6", "P580", 1963, constraints=[year("P569", 1912)])
    question = realizer.question([composer, HOME, head, HopSpec(link="P570")])
    # the leader's fact is "the one" of the year: "They were born in 1912" could be the
    # composer's
    said = r"the one in 1963, (?:born in 1912 I think|who I think was born in 1912)\.$"
    assert re.search(said, question, re.IGNORECASE), question
    assert "they were" not in question.lower()
    _clean(question)


def test_a_fact_of_a_persons_country_says_their_facts_after_it(realizer: Realizer) -> None:
    question = realizer.question([WINNER, HOME, HopSpec(link="P30")])
    # not "I'm thinking of the 1998 … winner who was born in 1950. On which continent is
    # their home country?" (a lead read as filler)
    assert question.startswith(
        "On which continent is the 1998 Nobel Prize in Physics winner's home country? "
    )
    assert "the winner was born in 1950" in question.lower() and question.count("1950") == 1
    _clean(question)
