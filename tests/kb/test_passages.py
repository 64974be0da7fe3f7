"""Search snippets as passages: the sentences and list rows holding the query's words."""

from __future__ import annotations

from builder.kb.passages import MAX_SEGMENT_CHARS, covers, passage, segments, spans
from builder.kb.store import KnowledgeStore
from builder.records.page import Page

BALLON = (
    "The Ballon d'Or is an annual football award presented by France Football since 1956. "
    "It is given to the best male footballer of the previous season. Winners since 2000: "
    "2000 Luís Figo; 2001 Michael Owen; 2002 Ronaldo Nazário; 2003 Pavel Nedvěd. "
    "Lionel Messi holds the record with eight wins."
)
CHURCHILL = (
    "Winston Churchill (30 November 1874 – 24 January 1965) was a politician from the United "
    "Kingdom. He served as the Prime Minister of the United Kingdom from 10 May 1940 to 26 "
    "July 1945. He served as the Prime Minister of the United Kingdom from 26 October 1951 to "
    "5 April 1955. He received the Nobel Prize in Literature."
)


def test_segments_are_sentences_and_list_rows() -> None:
    parts = segments(BALLON)
    assert "2001 Michael Owen;" in parts and "2002 Ronaldo Nazário;" in parts
    assert parts[-1] == "Lionel Messi holds the record with eight wins."
    # initials and titles do not end a sentence
    assert segments("George H. W. Bush was president. He died in 2018.") == [
        "George H. W. Bush was president.",
        "He died in 2018.",
    ]


def test_the_row_holding_the_year_is_shown_with_the_page_about_the_relation() -> None:
    got = passage(BALLON, "won Ballon d'Or 2002")
    assert "2002 Ronaldo Nazário;" in got and "The Ballon d'Or is an annual" in got
    assert "2001 Michael Owen" not in got  # only what holds the query's words
    # diacritics and case folded as the index folds them
    assert "2003 Pavel Nedvěd" in passage(BALLON, "nedved")
    # nothing matches: the opening sentence
    assert passage(BALLON, "tennis").startswith("The Ballon d'Or is an annual")


def test_a_span_of_years_holds_a_year_of_the_query() -> None:
    assert spans("from 26 October 1951 to 5 April 1955") == [(1951, 1955)]
    assert spans("Pep Guardiola (2016–); Roy Hodgson (2010–2011)") == [(2016, 9999), (2010, 2011)]
    assert spans("won it seven times between 1993 and 2000") == [(1993, 2000)]
    assert spans("(30 November 1874 – 24 January 1965)") == []  # a life span's dates
    assert covers("in office since 5 July 2024", 2025) and not covers("since 2024", 2023)
    got = passage(CHURCHILL, "Winston Churchill head government United Kingdom 1953")
    assert "from 26 October 1951 to 5 April 1955" in got
    assert "from 10 May 1940" not in got


def test_an_open_row_span_counts_and_the_first_since_is_no_span() -> None:
    assert spans("Dmitry Medvedev (2008–2012) and Vladimir Putin (from 2012)") == [
        (2008, 2012),
        (2012, 9999),
    ]
    # "the first … since 1955" ended a run in 1993; it lasted nothing since
    assert spans("He led the first non-LDP government since 1955, at the head of it") == []
    assert covers("It has been the largest party since 2003", 2010)


# the heads of government row of a country page: longer than a snippet's window
JAPAN_PMS = "Japan is a country in Asia. Its heads of government have included " + ", ".join(
    f"{name} ({a}–{b})"
    for name, a, b in [
        ("Toshiki Kaifu", 1989, 1991),
        ("Kiichi Miyazawa", 1991, 1993),
        ("Morihiro Hosokawa", 1993, 1994),
        ("Tomiichi Murayama", 1994, 1996),
        ("Ryutaro Hashimoto", 1996, 1998),
        ("Keizo Obuchi", 1998, 2000),
        ("Yoshiro Mori", 2000, 2001),
        ("Junichiro Koizumi", 2001, 2006),
        ("Shinzo Abe", 2006, 2007),
        ("Yasuo Fukuda", 2007, 2008),
        ("Taro Aso", 2008, 2009),
        ("Yukio Hatoyama", 2009, 2010),
        ("Naoto Kan", 2010, 2011),
        ("Yoshihiko Noda", 2011, 2012),
        ("Shinzo Abe", 2012, 2020),
        ("Yoshihide Suga", 2020, 2021),
    ]
)


def test_a_long_row_is_cut_around_the_span_holding_the_query_year() -> None:
    got = passage(JAPAN_PMS, "head government Japan 2019")
    assert "Shinzo Abe (2012–2020)" in got  # the name before its span is in the window
    assert len(got) <= 2 * (MAX_SEGMENT_CHARS + 2)
    got = passage(JAPAN_PMS, "head government Japan 2003")
    assert "Junichiro Koizumi (2001–2006)" in got
    # no year in the query: cut around the first query word, as before
    assert "Toshiki Kaifu" in passage(JAPAN_PMS, "heads government Japan")


def test_a_long_sentence_is_cut_around_the_words() -> None:
    text = "Intro. " + " ".join(["filler"] * 80) + " the key word here " + " ".join(["x"] * 80)
    got = passage(text, "key")
    assert "key word" in got and len(got) <= MAX_SEGMENT_CHARS + 2
    assert got.startswith("…") and got.endswith("…")


def test_store_search_returns_passages(store: KnowledgeStore) -> None:
    store.upsert_pages([Page(entity_id="L:b", title="Ballon d'Or", text=BALLON)])
    (hit,) = store.search("Ballon d'Or 2002", k=3)
    assert "2002 Ronaldo Nazário;" in hit.snippet and " … " in hit.snippet


def test_a_sentence_ends_after_a_bracket() -> None:
    assert segments("Head coach of: FC Barcelona (2021–2024). As a player he won in 2010.") == [
        "Head coach of: FC Barcelona (2021–2024).",
        "As a player he won in 2010.",
    ]
