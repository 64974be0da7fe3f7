"""The oracle walk and the ``oracle_solvable`` check over a real snapshot store (SQLite
FTS5): queries built from the relation and the answer found, answers read from results."""

from __future__ import annotations

from pathlib import Path

import pytest

from builder.ambiguity.checks import CHECKS
from builder.ambiguity.oracle_check import check_oracle_solvable
from builder.evaluation.oracle import (
    _span_holder,
    choose,
    clue_groups,
    hop_query,
    restored_by_hop,
    restored_words,
    support,
    unambiguous_sample,
    walk,
)
from builder.evaluation.search import SearchResult
from builder.kb.store import KnowledgeStore
from builder.records.sample import Candidate
from builder.seeding.facts import Facts
from tests.evaluation.world import (
    RESTORED_PAGES,
    booker_sample,
    build_store,
    mayor_sample,
    world_samples,
)


@pytest.fixture
def store(tmp_path: Path):  # type: ignore[no-untyped-def]
    st = build_store(tmp_path / "kb.sqlite")
    yield st
    st.close()


def _search(store: KnowledgeStore, log: list[str] | None = None):  # type: ignore[no-untyped-def]
    def search(query: str) -> list[SearchResult]:
        if log is not None:
            log.append(query)
        return [
            SearchResult(title=h.title, snippet=h.snippet, entity_id=h.entity_id)
            for h in store.search(query, 5)
        ]

    return search


def test_the_query_names_the_answer_found_not_the_reference() -> None:
    assert hop_query("Who directed that game?", "Breath of the Wild") == "directed Breath Wild game"
    assert hop_query("Who is the mayor of that city?", "Lyon") == "mayor Lyon city"
    assert hop_query("Which game developed by Nintendo EPD?", "") == "game developed Nintendo EPD"
    assert hop_query("When was it founded?", "Paris") == "founded Paris"  # no "that"
    assert hop_query("Which city?", "", "capital Olympics") == "city capital Olympics"


def test_asking_walk_reaches_the_answer_hop_by_hop(store: KnowledgeStore) -> None:
    game = world_samples()[0]
    queries: list[str] = []
    result = walk(game, _search(store, queries), lambda cp: cp.clue, policy="always")
    assert result.reached and result.reason == ""
    assert result.stated == {"1": "Breath of the Wild", "2": "Hidemaro Fujibayashi"}
    assert result.final == "Hidemaro Fujibayashi"
    # hop 1 with the clue's words; hop 2 with the answer found at hop 1
    assert queries[0].startswith("game developed Nintendo EPD") and "paraglider" in queries[0]
    assert queries[1] == "directed Breath Wild game"


def test_without_asking_the_vague_query_picks_the_decoy(store: KnowledgeStore) -> None:
    game = world_samples()[0]
    result = walk(game, _search(store), None, policy="never")
    assert result.failed_hop == 1
    assert result.stated == {"1": "Super Mario Odyssey"} and result.final == "Kenta Motokura"
    assert "rank 'Super Mario Odyssey' first, not 'Breath of the Wild'" in result.reason
    # the unambiguous question's restored words do the clue's job; a sample recorded without
    # unambiguous goals reads them all at its ambiguous hop, none at the other
    restored = restored_words(game.question, game.unambiguous_question)
    assert "paraglider" in restored and "Nintendo" not in restored
    assert restored_by_hop(game) == {1: restored}
    fixed = walk(game, _search(store), None, policy="never", extra=restored_by_hop(game))
    assert fixed.reached and fixed.final == game.answer


def test_each_ambiguous_hop_reads_the_words_restored_there(tmp_path: Path) -> None:
    sample = mayor_sample()
    every = restored_words(sample.question, sample.unambiguous_question)
    assert "2005" in every and "Olympics" in every
    # by hop: the words of the hop's unambiguous goal its goal lacks ("city", "mayor" are
    # in both; "2024" is restored at hop 1, "2005" at hop 2)
    per_hop = restored_by_hop(sample)
    assert per_hop == {1: "capital hosted 2024 Summer Olympics", 2: "2005"}
    with build_store(tmp_path / "kb.sqlite", RESTORED_PAGES) as store:
        search = _search(store)
        # without them the vague hop 1 picks the decoy city
        assert walk(sample, search, None, policy="never").failed_hop == 1
        # every word at every hop: hop 2 sees two years (2005, 2024) and ranks the mayor
        # the Olympics page names
        everywhere = {cp.index: every for cp in sample.checkpoints}
        got = walk(sample, search, None, policy="never", extra=everywhere)
        assert got.failed_hop == 2 and "'Anne Hidalgo (2014)' first" in got.reason
        assert got.final == "Anne Hidalgo"
        # each hop its own words: the capital, then the mayor in office in 2005
        queries: list[str] = []
        got = walk(sample, _search(store, queries), None, policy="never", extra=per_hop)
        assert got.reached and got.final == sample.answer == "Bertrand Delanoë"
        assert queries == [
            "city France capital hosted 2024 Summer Olympics",
            "mayor Paris city 2005",
        ]
        # read as the unambiguous question asks it: the unambiguous goals are the relations
        queries = []
        clear = unambiguous_sample(sample)
        got = walk(clear, _search(store, queries), None, policy="never", extra=per_hop)
        assert got.reached and got.final == "Bertrand Delanoë"
        assert queries == ["capital France hosted 2024 Summer Olympics", "mayor Paris city 2005"]


def test_a_factual_hop_is_read_without_its_false_detail(tmp_path: Path) -> None:
    sample = booker_sample()
    # the true year is the prize's year too: no word is new, the false 2013 stays in the goal
    assert restored_by_hop(sample) == {1: ""}
    clear = unambiguous_sample(sample)
    assert clear.question == sample.unambiguous_question
    assert clear.checkpoints[0].goal == sample.checkpoints[0].unambiguous_goal
    assert clear.checkpoints[1] == sample.checkpoints[1]
    with build_store(tmp_path / "kb.sqlite", RESTORED_PAGES) as store:
        got = walk(sample, _search(store), None, policy="never", extra=restored_by_hop(sample))
        assert got.failed_hop == 1 and "'The Luminaries (2013)' first" in got.reason
        queries: list[str] = []
        got = walk(clear, _search(store, queries), None, policy="never", extra={1: ""})
        assert got.reached and got.final == "Paul Lynch"
        assert queries[0] == "novel released 2023 won Booker Prize"
        # on the question, the clue does it
        assert walk(sample, _search(store), lambda c: c.clue).final == "Paul Lynch"


def test_an_answer_the_results_do_not_show_stops_the_walk(store: KnowledgeStore) -> None:
    game = world_samples()[0]
    cps = list(game.checkpoints)
    cps[1] = cps[1].model_copy(update={"answer": "Eiji Aonuma", "entity_id": ""})
    result = walk(game.model_copy(update={"checkpoints": cps}), _search(store), lambda c: c.clue)
    assert result.failed_hop == 2
    assert result.reason == (
        "hop 2: 'Eiji Aonuma' not in the results of 'directed Breath Wild game'"
    )


def test_the_reply_reads_candidates() -> None:
    a = Candidate(id="A", label="Batman Begins", downstream_answer="x")
    b = Candidate(id="B", label="The Dark Knight", downstream_answer="y")
    hits = [SearchResult(title="Batman Begins", entity_id="A"), SearchResult(title="Nolan")]
    # a candidate the reply names is not the one meant
    assert choose([a, b], hits, "I remember it came after Batman Begins.", lambda q: []) == b
    # a year picks the version in force then
    v = [
        Candidate(id="1", label="Jacob Zuma (2009)", downstream_answer="x"),
        Candidate(id="2", label="Cyril Ramaphosa (2018)", downstream_answer="y"),
    ]
    assert choose(v, [], "I mean the one in 2019.", lambda q: [], kind="version") == v[1]
    assert choose(v, [], "I mean the one in 2012.", lambda q: [], kind="version") == v[0]
    # … at a version hop only: a factual hop's clue year ("born in 2015") dates nothing
    assert choose(v, [], "I mean the one in 2019.", lambda q: [], kind="factual") is None
    # clue words shown next to a candidate, found by a search for each candidate
    c = Candidate(id="C", label="Steven Spielberg", downstream_answer="z")
    d = Candidate(id="D", label="Christopher Nolan", downstream_answer="w")
    pages = {
        "Steven Spielberg": SearchResult(
            title="Steven Spielberg", snippet="born in 1946", entity_id="C"
        ),
        "Christopher Nolan": SearchResult(
            title="Christopher Nolan", snippet="born 1970", entity_id="D"
        ),
    }

    def by_name(q: str) -> list[SearchResult]:
        return [r for name, r in pages.items() if q.startswith(name)]

    top = [pages["Christopher Nolan"], pages["Steven Spielberg"]]
    assert choose([d, c], top, "I think they were born in 1946.", by_name) == c


def test_oracle_solvable_check(store: KnowledgeStore) -> None:
    assert CHECKS[-1] == "oracle_solvable"
    facts = Facts(store)
    for sample in world_samples():
        res = check_oracle_solvable(facts, sample)
        assert res.passed, res.detail
        assert res.name == "oracle_solvable" and "2 hops" in res.detail
    game = world_samples()[0]
    vague = game.checkpoints[0].model_copy(update={"clue": "Hmm, a game, I think."})
    bad = game.model_copy(update={"checkpoints": [vague, game.checkpoints[1]]})
    res = check_oracle_solvable(facts, bad)
    assert not res.passed and res.detail.startswith("hop 1: results of")
    assert "'Super Mario Odyssey' first" in res.detail
    # a walk longer than an episode's search budget could not be played by oracle:ask
    res = check_oracle_solvable(facts, game, max_searches=1)
    assert not res.passed and res.detail == (
        "reached the answer in 2 searches, more than an episode's 1"
    )


def test_a_measure_in_the_reply_compares_the_candidates_numbers() -> None:
    cands = [
        Candidate(id="N", label="Neptune", downstream_answer="x"),
        Candidate(id="J", label="Jupiter", downstream_answer="y"),
        Candidate(id="M", label="Mercury", downstream_answer="z"),
    ]
    snippets = {
        "Neptune": "It has a mean radius of 24,622 kilometres, found in 1846.",
        "Jupiter": "Its mean radius is 69,911 kilometres.",
        "Mercury": "Mercury has a radius of 2,439.7 kilometres.",
    }

    def search(q: str) -> list[SearchResult]:
        name = q.split()[0]
        return [SearchResult(title=name, snippet=snippets[name], entity_id=name[0])]

    def pick(goal: str, reply: str) -> str:
        got = choose(cands, [], reply, search, kind="criteria", goal=goal)
        return got.label if got else ""

    assert pick("Which is the biggest planet?", "I meant by radius.") == "Jupiter"
    assert pick("Which is the smallest planet?", "I meant by radius.") == "Mercury"
    # no result shows the measure: nothing to read, no candidate chosen
    assert pick("Which is the biggest planet?", "I meant by mass.") == ""


def _pages(*pages: tuple[str, str, str]) -> list[SearchResult]:
    return [SearchResult(title=t, snippet=s, entity_id=e) for e, t, s in pages]


def test_a_version_year_is_read_from_the_results_not_the_labels_first_year() -> None:
    # a version's label carries the year it began: a repeated winner's first win
    messi = Candidate(id="M", label="Lionel Messi (2009)", downstream_answer="x")
    modric = Candidate(id="L", label="Luka Modrić (2018)", downstream_answer="y")
    rivaldo = Candidate(id="R", label="Rivaldo (1999)", downstream_answer="z")
    hits = _pages(
        (
            "R",
            "Rivaldo",
            "He won the Ballon d'Or in 1999 and the FIFA World Cup with Brazil in 2019.",
        ),
        ("M", "Lionel Messi", "He won the Ballon d'Or in 2009, 2010, 2011, 2012, 2015, 2019."),
        ("L", "Luka Modrić", "He won the Ballon d'Or in 2018."),
    )
    cands = [messi, modric, rivaldo]
    reply, goal = "I mean the one from 2019.", "won Ballon d'Or"
    assert choose(cands, hits, reply, lambda q: [], kind="version", goal=goal) == messi
    # a list page's row ties the year to the name; the labels alone would say Modrić
    row = _pages(("B", "Ballon d'Or", "Winners: 2018 Luka Modrić; … 2019 Lionel Messi;"))
    assert choose(cands, row, reply, lambda q: [], kind="version", goal=goal) == messi
    assert choose(cands, [], reply, lambda q: [], kind="version", goal=goal) == modric


def test_as_of_a_year_is_read_from_a_span_and_not_from_a_birth_date() -> None:
    attlee = Candidate(id="A", label="Clement Attlee (1945)", downstream_answer="x")
    churchill = Candidate(id="C", label="Winston Churchill (1940)", downstream_answer="y")
    blair = Candidate(id="B", label="Tony Blair (1997)", downstream_answer="z")
    pages = {
        "A": ("A", "Clement Attlee", "Clement Attlee served as the Prime Minister of the United "
              "Kingdom from 26 July 1945 to 26 October 1951."),
        "C": ("C", "Winston Churchill", "Winston Churchill served as the Prime Minister of the "
              "United Kingdom from 26 October 1951 to 5 April 1955."),
        "B": ("B", "Tony Blair", "Tony Blair (born 6 May 1953) is a politician from the United "
              "Kingdom."),
    }  # fmt: skip

    def search(q: str) -> list[SearchResult]:
        return _pages(*(p for p in pages.values() if q.startswith(p[1])))

    got = choose(
        [attlee, churchill, blair],
        _pages(pages["B"]),
        "As of 1953, I mean.",
        search,
        kind="version",
        goal="head government United Kingdom",
    )
    assert got == churchill


def test_a_clue_is_read_as_a_reader_reads_it() -> None:
    kandel = Candidate(id="K", label="Eric Kandel (2000)", downstream_answer="x")
    greengard = Candidate(id="G", label="Paul Greengard (2000)", downstream_answer="y")
    hits = _pages(
        ("G", "Paul Greengard", "Paul Greengard was an American neuroscientist. … He shared the "
         "2000 Nobel Prize with Eric Kandel."),
        ("K", "Eric Kandel", "Eric Kandel is an Austrian-born American neuroscientist."),
    )  # fmt: skip
    # "from Austria" is said of an Austrian-born scientist; Greengard's page names Kandel,
    # but not in the sentence that says "American"
    assert choose([greengard, kandel], hits, "They were from Austria.", lambda q: []) == kandel
    # a life span's dates are a birth and a death; a number tells more than a word
    bush = Candidate(id="B", label="George H. W. Bush (1989)", downstream_answer="x")
    carter = Candidate(id="C", label="Jimmy Carter (1977)", downstream_answer="y")
    hits = _pages(
        ("C", "Jimmy Carter", "Jimmy Carter (1 October 1924 – 29 December 2024) was a politician "
         "from the United States. … He died at the age of 100."),
        ("B", "George H. W. Bush", "George H. W. Bush (12 June 1924 – 30 November 2018) was a "
         "politician from the United States."),
    )  # fmt: skip
    assert choose([carter, bush], hits, "I'm fairly sure they died in 2018.", lambda q: []) == bush
    assert support(bush, hits, clue_groups("they died in 2018")) == 3  # died 1, 2018 2
    assert support(carter, hits, clue_groups("they died in 2018")) == 1


def test_a_list_row_of_holders_with_spans_ties_the_year_to_one() -> None:
    """A country page lists its heads of state, each with the span they held office."""
    cands = [
        Candidate(id=i, label=f"{n} ({y})", downstream_answer=n)
        for i, n, y in (
            ("R", "Franklin D. Roosevelt", 1933),
            ("T", "Harry S. Truman", 1945),
            ("E", "Dwight D. Eisenhower", 1953),
        )
    ]
    row = _pages(
        (
            "US",
            "United States",
            "its heads of state have included Franklin D. Roosevelt (1933–1945), Harry S. "
            "Truman (1945–1953), Dwight D. Eisenhower (1953–1961)",
        )
    )
    goal = "head state United States country"
    searched: list[str] = []

    def search(q: str) -> list[SearchResult]:
        searched.append(q)
        return []

    got = choose(cands, row, "I mean in 1949.", search, kind="version", goal=goal)
    assert got == cands[1] and searched == []  # read from the row, no search per candidate
    # a transition year is held by two spans: the row tells none apart
    text = row[0].snippet
    assert _span_holder(text, cands, 1949) == 1
    assert _span_holder(text, cands, 1953) is None
    assert _span_holder(text, cands, 1990) is None


def test_per_candidate_searches_begin_with_the_latest_holder_begun_by_that_year() -> None:
    """When the hop's results do not decide, the versions begun by the year are searched
    latest first, and the first whose own page ties the year to it ends the searching."""
    names = {"A": ("Clement Attlee", 1945), "W": ("Harold Wilson", 1964), "B": ("Tony Blair", 1997)}
    names |= {"G": ("Gordon Brown", 2007), "C": ("David Cameron", 2010)}
    cands = [
        Candidate(id=i, label=f"{n} ({y})", downstream_answer=n) for i, (n, y) in names.items()
    ]
    searched: list[str] = []

    def search(q: str) -> list[SearchResult]:
        searched.append(q)
        if q.startswith("Tony Blair"):
            return _pages(("B", "Tony Blair", "Tony Blair was Prime Minister from 1997 to 2007."))
        return []

    got = choose(cands, [], "As of 2002, I mean.", search, kind="version", goal="prime minister")
    assert got == cands[2]
    assert len(searched) == 1 and searched[0].startswith("Tony Blair")


def test_a_narrowing_fact_is_read_on_the_candidates_page_or_the_named_entitys() -> None:
    lux = Candidate(id="L", label="Luxembourg", downstream_answer="x")
    france = Candidate(id="F", label="France", downstream_answer="y")
    hits = _pages(
        ("L", "Luxembourg", "Luxembourg shares land borders with France, Germany and Belgium;"),
        ("F", "France", "France shares land borders with Belgium, Luxembourg, Spain and "
         "Andorra;"),
    )  # fmt: skip
    # France's page names Luxembourg next to Andorra, but says France borders Andorra
    assert choose([lux, france], hits, "Andorra", lambda q: []) == france
    # a sentence denying the fact does not show it
    norway = Candidate(id="N", label="Norway", downstream_answer="x")
    finland = Candidate(id="FI", label="Finland", downstream_answer="y")
    hits = _pages(
        ("N", "Norway", "Norway is a country in Europe. … It is not a member of the European "
         "Union."),
        ("FI", "Finland", "It is a member of the United Nations, the European Union and NATO;"),
    )  # fmt: skip
    assert choose([norway, finland], hits, "European Union", lambda q: []) == finland


def test_a_candidate_showing_part_of_the_fact_is_checked_against_the_others() -> None:
    nepal = Candidate(id="NP", label="Nepal", downstream_answer="x")
    china = Candidate(id="CN", label="China", downstream_answer="y")
    hits = _pages(
        ("NP", "Nepal", "Its capital is Kathmandu. … It contains Mount Everest on its border "
         "with China."),
    )  # fmt: skip
    china_page = _pages(("CN", "China", "China is a country in Asia. … Its capital is Beijing."))

    def by_name(q: str) -> list[SearchResult]:
        return china_page if q.startswith("China") else hits

    # Nepal's page shows "capital", not "Beijing": China's own page is searched for both
    assert choose([nepal, china], hits, "capital Beijing", by_name) == china


def test_a_search_for_the_narrowing_fact_reads_the_named_entitys_page() -> None:
    austria = Candidate(id="AT", label="Austria", downstream_answer="x")
    germany = Candidate(id="DE", label="Germany", downstream_answer="y")
    hits = _pages(
        ("AT", "Austria", "Austria shares land borders with Germany, Italy and Hungary;"),
        ("DE", "Germany", "Germany is a country in Europe."),
    )
    alps = _pages(("ALPS", "Alps", "It extends across France, Switzerland, Austria and Germany."))
    france = _pages(("FR", "France", "France shares land borders with Belgium, Germany and Spain;"))
    log: list[str] = []

    def search(q: str) -> list[SearchResult]:
        log.append(q)
        return france if q.startswith("France") else alps

    fact = "neighbour country borders"
    assert choose([austria, germany], hits, "France", search, fact=fact) == germany
    assert log[-1] == "France french neighbour country borders"


def test_a_short_name_in_the_question_restores_its_labels_words() -> None:
    """The question says "the one in the G7" (names.yaml's short name), the hop's goal
    "a member of the Group of Seven": the hop reads "Group Seven", the words its pages say."""
    sample = mayor_sample()
    cp = sample.checkpoints[0].model_copy(
        update={"goal": "Which country borders that country?",
                "unambiguous_goal": "Which neighbour of that country is a member of the Group of Seven?"}
    )  # fmt: skip
    g7 = sample.model_copy(
        update={"question": "Which country borders Germany?",
                "unambiguous_question": "Which country borders Germany? I mean the one in the G7.",
                "checkpoints": [cp, *sample.checkpoints[1:]]}
    )  # fmt: skip
    assert restored_by_hop(g7)[1] == "Group Seven"
