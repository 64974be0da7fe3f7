"""The question a person reads, on hand-built chains (issue 11): a person's facts said after
the question instead of stacked between commas, an office's year after its noun, a country
said by what happened there, and a country the question happens in."""

from __future__ import annotations

import re

from builder.records.seed import HopSpec
from builder.seeding.compose import Intro, compose
from builder.seeding.lint import text_problems
from builder.seeding.realize import Realizer, _owned_year, readable
from builder.seeding.templates import load_templates
from tests.seeding.test_vague import realizer, store, timed, year

__all__ = ["realizer", "store"]

WINNER = timed("P1346", "P585", 1903, anchor="L:physics", constraints=[year("P569", 1867)])
HEAD = timed("P6", "P580", 2019, constraints=[year("P569", 1980)])
HOME = HopSpec(link="P27")


def test_two_peoples_facts_are_said_of_them_not_after_the_question(
    realizer: Realizer,
) -> None:
    question = realizer.question([WINNER, HOME, HEAD, HopSpec(link="P570")])
    # each person's facts said once, briefly, after the question about them, by their noun:
    # not "the 1903 … winner born in 1867" stacked in the noun phrase, nor "I mean the
    # winner born in 1867 and the head of government born in 1980."
    # (the winner's folded into the question about them: not a remark between the
    # questions; the leader's by "the leader", not the noun the question just said)
    country, head, told = re.split(r"(?<=[?.]) ", question)
    assert country == (
        "Which country is the 1903 Nobel Prize in Physics winner from, the one born in 1867?"
    )
    assert "1980" not in head and "the leader was born in 1980" in told.lower(), question
    assert question.count("1980") == 1 and question.count("1867") == 1
    assert " and the head of government" not in question and text_problems(question) == []


def test_a_persons_facts_are_said_of_their_noun_before_the_question(
    realizer: Realizer,
) -> None:
    question = realizer.question([WINNER, HOME, HopSpec(link="P6"), HopSpec(link="P569")])
    # "the one born in 1867" could be the head of government: the winner's facts are said
    # of the winner, right after the question about them
    # (not "The 1903 … winner born in 1867 is from a country I'm curious about.", a filler
    # lead with facts stacked in it)
    assert question == (
        "Which country is the 1903 Nobel Prize in Physics winner from, the one born in 1867? "
        "When was its head of government born?"
    )
    # no "What is the birth date of …", no "of the home country of"
    assert not question.startswith("What is the birth date")
    assert "of the home country of" not in question


def test_an_offices_year_follows_its_noun(realizer: Realizer) -> None:
    head = HEAD.model_copy(update={"constraints": []})
    question = realizer.question([WINNER, HOME, head, HopSpec(link="P570")])
    # the year after the noun of the second question ("the head of government there in
    # 2019", not "its 2019 head of government", a label)
    assert question.endswith(" When did the head of government there in 2019 die?")
    assert question.count("2019") == 1
    assert "2019 head" not in question
    # hop goals keep the words they are searched with
    goals = realizer.goals([WINNER, HOME, head], ["L:curie", "L:nz", "L:ardern"])
    assert goals[2] == "Who was the head of government of that country in 2019?"


def test_a_country_is_said_by_what_happened_there(realizer: Realizer) -> None:
    died = HopSpec(link="P20", anchor="L:ardern")
    country = HopSpec(link="P17")
    assert realizer.question([died, country]) == "In which country did Jacinda Ardern die?"
    born = HopSpec(link="P19", anchor="L:ardern")
    assert realizer.question([born, country]) == "In which country was Jacinda Ardern born?"
    question = realizer.question([born, country, HopSpec(link="P6")])
    assert question == ("Which country was Jacinda Ardern born in? Who was its head of government?")
    assert "of the birthplace" not in question and "country of the place" not in question
    # a company's country is where it is based, not "its country"
    made = HopSpec(link="P178", anchor="L:pulp")
    question = realizer.question([made, country, HopSpec(link="P6")])
    assert question.startswith("In which country is the developer of Pulp Fiction based? ")


def test_a_country_said_first_is_where_the_question_happens(realizer: Realizer) -> None:
    died = HopSpec(link="P20", anchor="L:ardern")
    chain = [died, HopSpec(link="P17"), HopSpec(link="P6"), HopSpec(link="P570")]
    # "… where Jacinda Ardern died die?" reads as broken; the country is asked first and
    # its head about in a question of its own (not "When did the person die who led the
    # government of the country where Jacinda Ardern died?")
    question = realizer.question(chain)
    assert question == (
        "Which country did Jacinda Ardern die in? When did its head of government die?"
    )
    style = load_templates().style
    intro = [Intro("the country where Nino Rota died", "that country", "its")]
    assert compose(style, intro, "When did the head of government of that country die?") == (
        "In the country where Nino Rota died, when did the head of government die?"
    )
    # a person said first is said under a lead, not as a topic before a dash
    person = [Intro("the director of the film that won X", "that person", "their")]
    said = compose(style, person, "Who was the head of state of the home country of that person?")
    assert " — " not in said and said.endswith(
        "the film that won X. Who was the head of state of their home country?"
    )


def test_the_again_form_of_a_birth_date_is_no_one_sentence_question() -> None:
    assert not readable(
        "What is the birth date of the head of state of the country where X was born?"
    )


def test_an_offices_holder_is_asked_with_who(realizer: Realizer) -> None:
    head = HEAD.model_copy(update={"constraints": []})
    question = realizer.question([WINNER.model_copy(update={"constraints": []}), HOME, head])
    # the country first, then its head that year: not "the head of government in 2019 of
    # the home country of …"
    assert question == (
        "Which country is the 1903 Nobel Prize in Physics winner from? Who was head of "
        "government there in 2019?"
    )


def test_a_name_takes_a_possessive_before_a_noun_of_people(realizer: Realizer) -> None:
    directed = HopSpec(link="P57", anchor="L:pulp")
    question = realizer.question([directed, HOME, HopSpec(link="P6"), HopSpec(link="P569")])
    # one possessive at a time: not "Pulp Fiction's director's home country"
    assert question == (
        "Where is Pulp Fiction's director from? I'd like to know when the head of government "
        "there was born."
    )
    assert "of the director of" not in question and "director's" not in question


def test_a_clause_verb_met_by_a_preposition_or_is_is_no_one_sentence() -> None:
    assert not readable(
        "When did the head of state of the country the Missouri River flows through die?"
    )
    assert not readable("When was the head of state of the country where the lake is born?")


def test_a_network_is_the_one_that_first_aired_it(realizer: Realizer) -> None:
    aired = HopSpec(link="P449", anchor="L:pulp")
    question = realizer.question([aired, HopSpec(link="P571")])
    assert question == "When was the network that first aired Pulp Fiction founded?"
    # the goal keeps the words its search is measured with
    assert realizer.goals([aired], ["L:n"]) == ["Which network first aired Pulp Fiction?"]


def test_a_prizes_winner_goes_after_a_short_name_only(realizer: Realizer) -> None:
    physics = HopSpec(link="P1346", anchor="L:physics")
    question = realizer.question([physics, HOME, HopSpec(link="P6"), HopSpec(link="P569")])
    assert question.startswith("Where is the Nobel Prize in Physics winner from? ")
    # "the Academy Award for Best Actor winner" would not read: the winner of it
    realizer.said = True
    try:
        won = HopSpec(link="P1346")
        short = realizer.phrase(won, "the Turing Award", named="L:physics").text
        long = realizer.phrase(won, "the Academy Award for Best Actor", named="L:physics").text
    finally:
        realizer.said = False
    assert short == "the Turing Award winner"
    assert long == "the winner of the Academy Award for Best Actor"


def test_the_one_only_where_no_other_person_is_described(realizer: Realizer) -> None:
    # the question's only person: "the one" is enough (and "the officeholder" would not read)
    holder = timed("P1308", "P580", 2017, anchor="L:pm-nz", constraints=[year("P569", 1980)])
    question = realizer.question([holder, HopSpec(link="P570")])
    assert question.startswith("When did the Prime Minister of New Zealand in 2017 die? ")
    assert "the one born in 1980" in question.casefold()
    # a country's country is no person's home country: the nested form and its remark stay
    first = HopSpec(link="P1308", anchor="L:pm-nz")
    chain = [first, HOME, HOME, HEAD, HopSpec(link="P570")]
    question = realizer.question(chain)
    assert " is from" not in question
    assert question.endswith("The head of government born in 1980, I mean.")


def test_a_country_is_what_its_person_is_from_and_its_head_its_own_question(
    realizer: Realizer,
) -> None:
    physics = HopSpec(link="P1346", anchor="L:physics")
    # the country asked first, its head "there" after "Where …?" (no country said for "its")
    assert realizer.question([physics, HOME, HopSpec(link="P6")]) == (
        "Where is the Nobel Prize in Physics winner from? Who was head of government there?"
    )
    named = [HopSpec(link="P27", anchor="L:ardern"), HopSpec(link="P6"), HopSpec(link="P569")]
    assert realizer.question(named) == (
        "Where is Jacinda Ardern from? When was the head of government there born?"
    )
    # two hops stay one question
    assert realizer.question(named[:2]) == (
        "Who was the head of government of Jacinda Ardern's home country?"
    )
    # a place the country is known by keeps its words
    born = [physics, HopSpec(link="P19"), HopSpec(link="P17"), HopSpec(link="P6")]
    question = realizer.question([*born, HopSpec(link="P569")])
    assert question == (
        "Which country was the Nobel Prize in Physics winner born in? When was its head of "
        "government born?"
    )


def test_a_heads_facts_are_a_statement_about_the_country(realizer: Realizer) -> None:
    winner = WINNER.model_copy(update={"constraints": []})
    question = realizer.question([winner, HOME, HEAD, HopSpec(link="P570")])
    # the country, the question about its leader, then what is known of the leader
    assert question == (
        "Where is the 1903 Nobel Prize in Physics winner from? When did the head of government "
        "there in 2019 die? As far as I know, the leader was born in 1980."
    )
    alone = realizer.question([winner, HOME, HEAD])
    assert alone.startswith("Where is the 1903 Nobel Prize in Physics winner from? ")
    assert "who the head of government there was in 2019" in alone, alone
    assert "the leader was born in 1980" in alone.lower(), alone
    # a factual ambiguity's false year is said with the same confidence
    false = HEAD.model_copy(update={"constraints": [year("P569", 1979)]})
    assert realizer.question([winner, HOME, false, HopSpec(link="P570")]) == question.replace(
        "1980", "1979"
    )
    # a country known by what happened there: "the country where X died"
    died = [HopSpec(link="P20", anchor="L:ardern"), HopSpec(link="P17"), HEAD]
    death = realizer.question([*died, HopSpec(link="P570")])
    assert death.startswith(
        "Which country did Jacinda Ardern die in? When did the head of government there in "
        "2019 die? "
    )


def test_an_ambiguous_hops_vague_word_keeps_the_nested_wording(realizer: Realizer) -> None:
    winner = WINNER.model_copy(update={"constraints": []})
    chain = [winner, HOME, HopSpec(link="P6"), HopSpec(link="P569")]
    question = realizer.question(chain, ["", "", "award-winning", ""])
    assert "award-winning" in question and " is from" not in question


def test_an_office_holder_in_a_year_of_a_name_takes_its_possessive(realizer: Realizer) -> None:
    assert _owned_year("the CEO of Walmart in 1982", realizer._owns) == "Walmart's CEO in 1982"
    # a name ending in a full stop reads badly with "'s" ("Chelsea F.C.'s"): left as it is
    said = "the head coach of Chelsea F.C. in 2024"
    assert _owned_year(said, realizer._owns) == said


def test_a_persons_facts_are_said_first_where_their_home_country_follows(
    realizer: Realizer,
) -> None:
    # a country bordering the winner's home country: the winner's facts are said of the
    # winner, by their noun, after the question (not "I'm thinking of … who was born in …")
    border = HopSpec(link="P47", link_inverse=True, class_id="Q6256")
    chain = [WINNER, HOME, border, HopSpec(link="P6")]
    question = realizer.question(chain)
    country, ask = re.split(r"(?<=[?.]) ", question)
    assert country == (
        "Which country is the 1903 Nobel Prize in Physics winner from, the one born in 1867?"
    )
    assert ask == "Who was the head of government of a neighbouring country?"
    assert text_problems(question) == []


def test_a_short_persons_home_country_is_theirs_in_a_nested_question(
    realizer: Realizer,
) -> None:
    physics = HopSpec(link="P1346", anchor="L:physics")
    border = HopSpec(link="P47", link_inverse=True, class_id="Q6256")
    question = realizer.question([physics, HOME, border, HopSpec(link="P6")])
    assert question == (
        "Which country is the Nobel Prize in Physics winner from? Who was the head of "
        "government of a neighbouring country?"
    )
    assert realizer.question([physics, HOME, border]) == (
        "Which country is the Nobel Prize in Physics winner from? Which country borders it?"
    )
    # a phrase that ends in a name takes no possessive ("the artist behind We Are's")
    realizer.said = True
    try:
        said = realizer.phrase(HOME, "the director of Pulp Fiction", named="").text
    finally:
        realizer.said = False
    assert said == "the home country of the director of Pulp Fiction"


def test_a_named_countrys_head_is_called_by_the_office_it_holds(realizer: Realizer) -> None:
    """A person names the office: "When was the Prime Minister of New Zealand born?", not
    "When was New Zealand's head of government born?"; the hop goal keeps the words it is
    searched with."""
    chain = [HopSpec(link="P6", anchor="L:nz"), HopSpec(link="P569")]
    assert realizer.question(chain) == "When was the Prime Minister of New Zealand born?"
    assert realizer.goals(chain, ["L:ardern", "1980"])[0] == (
        "Who was the head of government of New Zealand?"
    )
    dated = [timed("P6", "P580", 2019, anchor="L:nz"), HopSpec(link="P569")]
    assert "the Prime Minister of New Zealand in 2019" in realizer.question(dated)
    # a country described, not named, keeps the relation's words
    described = [WINNER, HOME, HopSpec(link="P6"), HopSpec(link="P569")]
    assert "Prime Minister" not in realizer.question(described)
