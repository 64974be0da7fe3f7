"""A chain through a country to its leader or its neighbour, said as a person asks it (issue
11, builder/seeding/frames.py), on a hand-built world: the question first and the country by
whose it is, the office's year at the clause, a leader's remembered fact said once, the
neighbour's ranking with its criterion (and without it where the hop leaves it open), and
every fact of every hop still said."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from builder.kb.store import KnowledgeStore
from builder.records.seed import Constraint, HopSpec
from builder.seeding.facts import Facts
from builder.seeding.frames import _with_facts
from builder.seeding.lint import text_problems
from builder.seeding.realize import Realizer
from tests.ambiguity.minikb import build_store_with, ent
from tests.seeding.leads import lead_and_ask
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
    "P175": ("performer", "wikibase-item"),
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
        ent("L:ok-computer", "OK Computer", None, {"P175": "L:radiohead"}),
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


def _clean(question: str) -> None:
    assert text_problems(question) == [], question
    assert "home country of" not in question and "the country with the" not in question
    assert "head of government" not in question and "I mean" not in question


def test_the_question_comes_first_and_the_country_is_whose_it_is(realizer: Realizer) -> None:
    question = realizer.question([SOUL, HOME, LARGEST, timed("P6", "P580", 1957)])
    # not "In the country with the largest area bordering the home country of Soul's
    # composer, who led the government in 1957?", nor "In 1957, who led the government of
    # the largest country by area that borders the country Soul's composer is from?" (the
    # blind reviewer: stacked qualifiers)
    lead, ask = lead_and_ask(question)
    assert "Soul's composer" in lead
    assert ask == "In 1957, who led the government of its largest neighbour by area?"
    _clean(question)


def test_a_vague_ranking_keeps_its_criterion_open(realizer: Realizer) -> None:
    vague = LARGEST.model_copy(update={"criterion": "", "criteria_options": ["P2046", "P1082"]})
    question = realizer.question([SOUL, HOME, vague, timed("P6", "P580", 1957)])
    assert "biggest" in question and "area" not in question and "population" not in question
    least = LARGEST.model_copy(update={"criterion": "P1082", "criterion_order": "min"})
    assert "its least populous neighbour?" in realizer.question(
        [SOUL, HOME, least, timed("P6", "P580", 1957)]
    )
    _clean(question)


def test_each_persons_fact_is_said_once_next_to_them(realizer: Realizer) -> None:
    head = timed("P6", "P580", 1968, constraints=[year("P569", 1929)])
    question = realizer.question([WINNER, HOME, LARGEST, head])
    # the winner's year where the winner is said, the leader's after the question about
    # them, lightly: not "I mean the winner born in 1950 and the head of government born in
    # 1929."
    first, rest = lead_and_ask(question)
    # (not "I'm thinking of the … winner who was born in 1950.", a template opener)
    assert "1998 Nobel Prize in Physics winner born in 1950" in first
    assert rest.startswith("In 1968, who led the government of its largest neighbour by area? ")
    assert rest.endswith("someone born in 1929.") or rest.endswith(
        "someone born in 1929, if I remember right."
    )
    for y in ("1998", "1950", "1968", "1929"):
        assert question.count(y) == 1
    _clean(question)


def test_a_leaders_fact_is_what_is_known_of_them(realizer: Realizer) -> None:
    head = timed("P6", "P580", 1963, constraints=[year("P569", 1912)])
    question = realizer.question([SOUL, HOME, head, HopSpec(link="P570")])
    # not "In 1963, the country … had a head of government born in 1912. Who was that head
    # of government?", nor the riddle "In 1963, someone born in 1912 led the government of
    # …. When did they die?": the question, then what is known of them
    lead, ask = lead_and_ask(question)
    assert "Soul's composer" in lead
    assert ask.startswith("When did the person who led its government in 1963 die? ")
    assert "they were born in 1912" in ask.lower() and question.count("1912") == 1
    # the question about their birth keeps the fact before it ("When was the person … born?
    # I think they were born in 1912." would ask what it says)
    born = realizer.question([SOUL, HOME, head, HopSpec(link="P569")])
    assert born == (
        "In 1963, someone born in 1912 led the government of the country Soul's composer is "
        "from. When exactly were they born?"
    )
    # a misremembered year is said the same way
    false = head.model_copy(update={"constraints": [year("P569", 1913)]})
    wrong = realizer.question([SOUL, HOME, false, HopSpec(link="P570")])
    assert wrong == question.replace("1912", "1913")
    _clean(question)


def test_a_long_country_keeps_the_question_verb_first(realizer: Realizer) -> None:
    head = timed("P6", "P580", 1957)
    question = realizer.question([SOUL, HOME, LARGEST, head, HopSpec(link="P569")])
    # no "… is from born?": the clause about the leader after the verb
    lead, ask = lead_and_ask(question)
    assert "Soul's composer" in lead
    assert ask == (
        "When was the person born who, in 1957, led the government of its largest neighbour by "
        "area?"
    )
    # a version left open says no year at all, and the leader is asked about by the noun
    open_head = HopSpec(link="P6")
    loose = realizer.question([SOUL, HOME, LARGEST, open_head, HopSpec(link="P569")])
    assert re.search(r"\d{4}", loose) is None
    assert lead_and_ask(loose)[1] == (
        "When was the person who led the government of its largest neighbour by area born?"
    )
    state = realizer.question([SOUL, HOME, LARGEST, HopSpec(link="P35"), HopSpec(link="P570")])
    assert (
        lead_and_ask(state)[1] == "When did the head of state of its largest neighbour by area die?"
    )
    assert "person born who" not in loose and "person die who" not in state
    _clean(question)


def test_a_clubs_country_is_where_it_plays(realizer: Realizer) -> None:
    venue = HopSpec(link="P115", anchor="L:bvb")
    head = timed("P6", "P580", 1974, constraints=[year("P569", 1897)])
    question = realizer.question([venue, HopSpec(link="P17"), head, HopSpec(link="P570")])
    # not "the head of government in 1974 of the country of the home venue of Borussia
    # Dortmund"
    assert "the country where Borussia Dortmund plays its home games" in question
    assert "home venue" not in question and "1974 of" not in question
    _clean(question)


def test_one_year_is_said_once(realizer: Realizer) -> None:
    winner = WINNER.model_copy(update={"constraints": []})
    question = realizer.question([winner, HOME, timed("P35", "P580", 1998)])
    # not "In 1998, who was head of state of the 1998 … winner's country?"
    assert question == (
        "Who was head of state of the 1998 Nobel Prize in Physics winner's country that year?"
    )


def test_a_universitys_head_is_its_president(realizer: Realizer) -> None:
    head = timed("P1037", "P580", 2012, anchor="L:harvard")
    question = realizer.question([head, HOME, timed("P6", "P580", 1968)])
    assert "Harvard University's 2012 president" in question
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
    # not "the country where the 1998 … winner born in 1950 was born", nor "… born in 1950
    # was born in"
    assert question == (
        "The 1998 Nobel Prize in Physics winner was born in 1950, in a country I have a "
        "question about. Which country is its largest neighbour by area?"
    )
    currency = realizer.question([WINNER, HOME, LARGEST, HopSpec(link="P38")])
    assert currency.endswith("What is the currency of its largest neighbour by area?")


def test_a_phrase_too_heavy_to_nest_is_said_first(realizer: Realizer) -> None:
    composer = HopSpec(link="P86", anchor="L:sex")
    question = realizer.question([composer, HOME, timed("P6", "P580", 1963)])
    # not "the country Sex, Lies, and Videotape's composer is from" inside the question
    first, ask = question.split(". ", 1)
    assert first.endswith("Sex, Lies, and Videotape's composer")
    assert ask == "Who led their country's government in 1963?"


def test_one_of_several_is_not_a_possessive(realizer: Realizer) -> None:
    member = HopSpec(link="P527", anchor="L:radiohead", constraints=[year("P569", 1968)])
    chain = [member, HopSpec(link="P19"), HopSpec(link="P17"), timed("P6", "P580", 1976)]
    question = realizer.question(chain)
    # "a member of Radiohead", one of several: not "Radiohead's member"
    assert question == (
        "A member of Radiohead was born in 1968, in a country I'd like to know more about. "
        "Who led its government in 1976?"
    )
    assert "Radiohead's" not in question


def test_the_performers_member_is_a_member_not_a_part(realizer: Realizer) -> None:
    performer = HopSpec(link="P175", anchor="L:ok-computer")
    member = HopSpec(link="P527", constraints=[year("P569", 1968)])
    question = realizer.question([performer, member, HopSpec(link="P19")])
    # the band is reached as the album's performer, not named by its class: still its members
    assert "member of" in question, question
    assert "a part of" not in question
    goals = realizer.goals([performer, member], ["L:radiohead", "L:yorke"])
    assert "a part of" not in goals[1] and "member" in goals[1], goals


def test_a_neighbours_fact_in_a_year_says_the_year_first(realizer: Realizer) -> None:
    population = timed("P1082", "P585", 2023)
    question = realizer.question([SOUL, HOME, LARGEST, population])
    # not "the population in 2023 of the largest country …", nor "… of its largest
    # neighbour by area in 2023" (the year read as the area's); a lead ending in ":" runs on
    lead, ask = lead_and_ask(question)
    assert "Soul's composer" in lead
    assert ask == "In 2023, what was the population of its largest neighbour by area?"


def test_the_country_frame_starts_at_the_country_the_rest_fits(realizer: Realizer) -> None:
    # the composer's country, then its capital, then the capital's country: the frame is
    # the last country's
    chain = [SOUL, HOME, HopSpec(link="P36"), HopSpec(link="P17"), timed("P6", "P580", 2021)]
    question = realizer.question(chain)
    # (a long country said first: "the country the capital of … is in")
    lead, ask = lead_and_ask(question)
    assert "is in" in lead and ask == "Who led its government in 2021?"
    assert "had a head" not in question and "head of government" not in question


def test_a_long_country_before_its_leader_is_said_first(realizer: Realizer) -> None:
    died = [HopSpec(link="P170", anchor="L:kiss"), HopSpec(link="P20"), HopSpec(link="P17")]
    question = realizer.question([*died, timed("P6", "P580", 1968)])
    # not "In 1968, who led the government of the country where the artist who painted The
    # Kiss died?" (marked stiff by the blind reviewer)
    lead, ask = lead_and_ask(question)
    assert "the artist who painted The Kiss died" in lead.replace("The artist", "the artist")
    assert ask == "Who led its government in 1968?"
    _clean(question)
    # a short one stays in the question
    assert realizer.question([SOUL, HOME, timed("P6", "P580", 1968)]) == (
        "In 1968, who led the government of the country Soul's composer is from?"
    )


def test_an_unranked_neighbour_is_which_country_borders(realizer: Realizer) -> None:
    painter = HopSpec(link="P170", anchor="L:kiss")
    border = HopSpec(link="P47", link_inverse=True, class_id=COUNTRY)
    question = realizer.question([painter, HopSpec(link="P20"), HopSpec(link="P17"), border])
    # not "Which country does the country where the artist who painted The Kiss died border?"
    assert question.startswith("Which country borders the country where ")
    assert question.endswith(" died?") and " border?" not in question
    _clean(question)
    # before its leader it is one of the country's neighbours
    led = realizer.question([SOUL, HOME, border, timed("P6", "P580", 1981)])
    lead, ask = lead_and_ask(led)
    assert ask == "In 1981, who led the government of one of its neighbours?"
    assert "Soul's composer" in lead
    _clean(led)


def test_a_possessive_country_without_a_year_stays_one_question(realizer: Realizer) -> None:
    physics = HopSpec(link="P1346", anchor="L:nobel")
    question = realizer.question([physics, HOME, HopSpec(link="P35"), HopSpec(link="P569")])
    # not "When was the person who was head of state of …'s country born?"
    assert question == (
        "When was the head of state of the Nobel Prize in Physics winner's country born?"
    )
    # a possessive with a year of its own is said first: not "When was the person born who
    # led the government of the 1998 … winner's country?"
    dated = WINNER.model_copy(update={"constraints": []})
    said = realizer.question([dated, HOME, HopSpec(link="P6"), HopSpec(link="P569")])
    lead, ask = lead_and_ask(said)
    assert "1998 Nobel Prize in Physics winner" in lead
    assert ask == "When was the person who led its government born?"
    assert "person born who" not in said
    _clean(said)


def test_a_persons_facts_tell_them_apart_in_the_lead(realizer: Realizer) -> None:
    coach = timed("P1037", "P580", 2012, anchor="L:harvard", constraints=[year("P569", 1950)])
    question = realizer.question([coach, HOME, LARGEST, HopSpec(link="P38")])
    lead, ask = lead_and_ask(question)
    assert "Harvard University's 2012 president born in 1950 is from" in lead
    assert ask == "What is the currency of its largest neighbour by area?"
    assert question.count("1950") == 1 and question.count("2012") == 1
    _clean(question)
    # after a year a clause ("… in 2024 born in 1978" would run two years together), after
    # a clause of the person's own, commas
    born = ("born in 1978", "was born in 1978")
    assert _with_facts("the head coach of Chelsea F.C. in 2024", born) == (
        "the head coach of Chelsea F.C. in 2024 who was born in 1978"
    )
    assert _with_facts("the artist who painted The Kiss", born) == (
        "the artist who painted The Kiss, who was born in 1978,"
    )


def test_another_question_about_the_leader_ends_with_them(realizer: Realizer) -> None:
    father = HopSpec(link="P22")
    question = realizer.question([SOUL, HOME, timed("P35", "P580", 2019), father])
    # not "Soul's composer is from a country whose head of state in 2019 was born in …"
    lead, ask = lead_and_ask(question)
    assert "Soul's composer" in lead
    assert ask == "Who was the father of its head of state in 2019?"
    head = timed("P35", "P580", 2019, constraints=[year("P569", 1901)])
    known = realizer.question([SOUL, HOME, head, father])
    # not the riddle "In 2019, someone born in 1901 was head of state of …. Who was the
    # father of that head of state?"
    lead, ask = lead_and_ask(known)
    assert "Soul's composer" in lead
    assert ask.startswith("Who was the father of the person who was its head of state in 2019? ")
    assert "they were born in 1901" in ask.lower() and known.count("1901") == 1
    _clean(question)
    _clean(known)


def test_a_country_of_several_is_said_by_its_phrase(realizer: Realizer) -> None:
    european = HopSpec(link="P27", constraints=[Constraint(property="P30", value="L:europe")])
    question = realizer.question([SOUL, european, HopSpec(link="P35"), HopSpec(link="P569")])
    # the one of the composer's countries in Europe: a lead by the country's phrase, never
    # "In Europe that Soul's composer is from a country …"
    lead, ask = lead_and_ask(question)
    assert "the country in Europe that Soul's composer is from" in lead
    assert ask == "When was its head of state born?"
    _clean(question)


def test_the_leads_vary_across_chains(realizer: Realizer) -> None:
    # one opener for half the build would read as a template (the blind reviewer marked "I'm
    # thinking of … who was born in …" repeated across items)
    heads = [timed("P6", "P580", y) for y in range(1950, 1962)]
    leads = {
        lead_and_ask(realizer.question([SOUL, HOME, LARGEST, h]))[0].replace("Soul's composer", "X")
        for h in heads
    }
    assert len(leads) >= 4, leads


def test_after_a_persons_topic_a_leaders_fact_stays_a_statement(realizer: Realizer) -> None:
    composer = HopSpec(link="P86", anchor="L:sex")
    head = timed("P6", "P580", 1963, constraints=[year("P569", 1912)])
    question = realizer.question([composer, HOME, head, HopSpec(link="P570")])
    # "… their country's government in 1963 die? They were born in 1912." could be the
    # composer's year: the leader's fact is said of "someone" before the question
    assert question.endswith(
        "In 1963, someone born in 1912 led their country's government. When did they die?"
    )
    _clean(question)
