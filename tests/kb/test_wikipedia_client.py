"""Wikipedia client: Wikipedia-API's requests go through our HTTP layer. Real recorded
cassettes are replayed offline; extracts (not in the cassettes) are hand-written in the
exact ``action=query&prop=extracts`` format."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import requests
import responses
from responses import matchers

from builder.errors import CacheMissError
from builder.kb.http import HttpCache, HttpClient
from builder.kb.wikipedia import WikipediaClient, plain_snippet
from tests.conftest import FIXTURES_DIR, shared_fixtures

CASSETTES = FIXTURES_DIR / "wikipedia-cassettes"
API = "https://en.wikipedia.org/w/api.php"
UA = "discobench-tests/0.1 (https://example.org/discobench; tests@example.org)"
PY = "Python (programming language)"


def replaying(tmp_path: Path, *cassettes: str) -> WikipediaClient:
    cache = HttpCache(tmp_path / "cache", "replay")
    for name in cassettes:
        cache.import_cassette(CASSETTES / name)
    return WikipediaClient(HttpClient(user_agent=UA, cache=cache))


def recording(tmp_path: Path, retries: int = 2) -> tuple[WikipediaClient, list[float]]:
    sleeps: list[float] = []
    http = HttpClient(
        user_agent=UA,
        cache=HttpCache(tmp_path / "cache", "record"),
        retries=retries,
        sleep=sleeps.append,
    )
    return WikipediaClient(http), sleeps


def cassette_body(name: str, index: int = 0) -> dict[str, object]:
    doc = json.loads((CASSETTES / name).read_text(encoding="utf-8"))
    body: dict[str, object] = json.loads(doc["interactions"][index]["response"]["body"]["string"])
    return body


@shared_fixtures
def test_links_follow_plcontinue_across_both_recorded_responses(tmp_path: Path) -> None:
    wiki = replaying(tmp_path, "TestVcrWikiLinks.test_links.json")
    with responses.RequestsMock() as mock:  # offline: a real request would fail
        links = wiki.links(PY)
        assert len(mock.calls) == 0
    first = cassette_body("TestVcrWikiLinks.test_links.json", 0)
    second = cassette_body("TestVcrWikiLinks.test_links.json", 1)
    n1 = len(first["query"]["pages"]["23862"]["links"])  # type: ignore[index]
    n2 = len(second["query"]["pages"]["23862"]["links"])  # type: ignore[index]
    assert len(links) == n1 + n2
    assert links[0] == '"Hello, World!" program'  # from the first response
    assert "Pyrex (programming language)" in links  # first title of the continuation
    assert "Guido van Rossum" in links


@shared_fixtures
def test_categories_from_the_recorded_response(tmp_path: Path) -> None:
    wiki = replaying(tmp_path, "TestVcrWikiCategories.test_categories.json")
    cats = wiki.categories(PY)
    body = cassette_body("TestVcrWikiCategories.test_categories.json")
    expected = [c["title"] for c in body["query"]["pages"]["23862"]["categories"]]  # type: ignore[index]
    assert cats == expected
    assert "Category:Class-based programming languages" in cats


@shared_fixtures
def test_search_from_recorded_responses_strips_match_markup(tmp_path: Path) -> None:
    wiki = replaying(
        tmp_path, "TestVcrWikiSearch.test_default.json", "TestVcrWikiSearch.test_limit.json"
    )
    hits = wiki.search("Python programming")
    assert len(hits) == 10
    top = hits[0]
    assert (top.title, top.pageid, top.wordcount) == (PY, 23862, 11448)
    assert top.snippet.startswith("Python is a high-level, general-purpose programming language.")
    assert "<span" not in top.snippet
    assert [h.title for h in wiki.search("Python programming", limit=3)] == [
        h.title for h in hits[:3]
    ]


@shared_fixtures
def test_replay_miss_names_the_wikipedia_request(tmp_path: Path) -> None:
    wiki = replaying(tmp_path, "TestVcrWikiSearch.test_default.json")
    with pytest.raises(CacheMissError) as info:
        wiki.search("Python programming", limit=5)
    message = str(info.value)
    assert "GET https://en.wikipedia.org/w/api.php?" in message
    assert "list=search" in message and "srlimit=5" in message


EXTRACT = {
    "batchcomplete": "",
    "query": {
        "normalized": [{"from": "Douglas_Adams", "to": "Douglas Adams"}],
        "pages": {
            "8091": {
                "pageid": 8091,
                "ns": 0,
                "title": "Douglas Adams",
                "extract": "Douglas Noël Adams (11 March 1952 – 11 May 2001) was an English "
                "author, humorist, and screenwriter, best known for The Hitchhiker's Guide "
                "to the Galaxy.",
            }
        },
    },
}
REDIRECTED = {
    "batchcomplete": "",
    "query": {
        "normalized": [{"from": "The_Fab_Four", "to": "The Fab Four"}],
        "redirects": [{"from": "The Fab Four", "to": "The Beatles"}],
        "pages": {
            "29812": {
                "pageid": 29812,
                "ns": 0,
                "title": "The Beatles",
                "extract": "The Beatles were an English rock band formed in Liverpool in 1960.",
            }
        },
    },
}
MISSING = {
    "batchcomplete": "",
    "query": {
        "normalized": [{"from": "No_such_page_xyz", "to": "No such page xyz"}],
        "pages": {"-1": {"ns": 0, "title": "No such page xyz", "missing": ""}},
    },
}


def extract_params(*titles: str) -> dict[str, str]:
    return {
        "action": "query",
        "format": "json",
        "prop": "extracts",
        "exintro": "1",
        "explaintext": "1",
        "exlimit": str(len(titles)),
        "redirects": "1",
        "titles": "|".join(titles),
        "maxlag": "5",
    }


@responses.activate
def test_page_extract_reads_the_lead_as_a_page_record(tmp_path: Path) -> None:
    responses.get(
        API, json=EXTRACT, match=[matchers.query_param_matcher(extract_params("Douglas_Adams"))]
    )
    wiki, _ = recording(tmp_path)
    page = wiki.page_extract("Douglas Adams", entity_id="Q42")
    assert page is not None
    assert page.entity_id == "Q42" and page.title == "Douglas Adams"
    assert page.url == "https://en.wikipedia.org/wiki/Douglas_Adams"
    assert page.text.startswith("Douglas Noël Adams (11 March 1952")
    assert (page.lang, page.source) == ("en", "wikipedia")
    # our User-Agent, not Wikipedia-API's
    assert responses.calls[0].request.headers["User-Agent"] == UA


@responses.activate
def test_page_extract_follows_redirects_and_reports_missing_pages(tmp_path: Path) -> None:
    responses.get(
        API, json=REDIRECTED, match=[matchers.query_param_matcher(extract_params("The_Fab_Four"))]
    )
    responses.get(
        API, json=MISSING, match=[matchers.query_param_matcher(extract_params("No_such_page_xyz"))]
    )
    wiki, _ = recording(tmp_path)
    page = wiki.page_extract("The Fab Four", entity_id="Q1299")
    assert page is not None and page.title == "The Beatles"
    assert page.url == "https://en.wikipedia.org/wiki/The_Beatles"
    assert wiki.page_extract("No such page xyz") is None


@responses.activate
def test_wikipedia_calls_get_our_retries_and_cache(tmp_path: Path) -> None:
    match = [matchers.query_param_matcher(extract_params("Douglas_Adams"))]
    responses.get(API, status=503, headers={"Retry-After": "3"}, match=match)
    responses.get(API, json=EXTRACT, match=match)
    wiki, sleeps = recording(tmp_path)
    assert wiki.page_extract("Douglas Adams") is not None
    assert sleeps == [3.0]
    assert wiki.page_extract("Douglas_Adams") is not None  # same page, from the cache
    assert len(responses.calls) == 2


BATCH = {
    "batchcomplete": "",
    "query": {
        "normalized": [
            {"from": "Douglas_Adams", "to": "Douglas Adams"},
            {"from": "The_Fab_Four", "to": "The Fab Four"},
            {"from": "No_such_page_xyz", "to": "No such page xyz"},
        ],
        "redirects": [{"from": "The Fab Four", "to": "The Beatles"}],
        "pages": {
            "-1": {"ns": 0, "title": "No such page xyz", "missing": ""},
            "8091": EXTRACT["query"]["pages"]["8091"],  # type: ignore[index]
            "29812": REDIRECTED["query"]["pages"]["29812"],  # type: ignore[index]
        },
    },
}


@responses.activate
def test_page_extracts_batches_titles_and_maps_answers_back(tmp_path: Path) -> None:
    titles = ("Douglas_Adams", "The_Fab_Four", "No_such_page_xyz")
    responses.get(API, json=BATCH, match=[matchers.query_param_matcher(extract_params(*titles))])
    wiki, _ = recording(tmp_path)
    pages = wiki.page_extracts(["Douglas Adams", "The Fab Four", "No such page xyz"])
    assert len(responses.calls) == 1
    assert list(pages) == ["Douglas Adams", "The Fab Four", "No such page xyz"]
    assert pages["Douglas Adams"] is not None and pages["Douglas Adams"].title == "Douglas Adams"
    fab = pages["The Fab Four"]
    assert fab is not None and fab.title == "The Beatles" and "Liverpool" in fab.text
    assert pages["No such page xyz"] is None


@responses.activate
def test_page_extracts_go_20_titles_per_request_and_follow_continue(tmp_path: Path) -> None:
    asked: list[list[str]] = []

    def answer(request: requests.PreparedRequest) -> tuple[int, dict[str, str], str]:
        params: dict[str, str] = request.params  # type: ignore[attr-defined]
        titles = params["titles"].split("|")
        asked.append(titles)
        offset = int(params.get("excontinue", "0"))
        pages = {}
        for n, title in enumerate(titles):
            entry: dict[str, object] = {"pageid": 100 + n, "ns": 0, "title": title}
            if n >= offset and n < offset + 10:  # ten extracts per round, as the API does
                entry["extract"] = f"Lead of {title}."
            pages[str(100 + n)] = entry
        body: dict[str, object] = {"query": {"pages": pages}}
        if offset + 10 < len(titles):
            body["continue"] = {"excontinue": offset + 10, "continue": "||"}
        else:
            body["batchcomplete"] = ""
        return 200, {}, json.dumps(body)

    responses.add_callback(responses.GET, API, callback=answer)
    wiki, _ = recording(tmp_path)
    titles = [f"Page{n}" for n in range(45)]
    pages = wiki.page_extracts(titles)
    assert [len(a) for a in asked] == [20, 20, 20, 20, 5]  # 3 batches, continuation in two
    assert all(p is not None and p.text == f"Lead of {t}." for t, p in pages.items())
    assert len(pages) == 45


def test_plain_snippet_unescapes_entities() -> None:
    raw = 'A <span class="searchmatch">Python</span> &amp; &quot;Monty&quot;'
    assert plain_snippet(raw) == 'A Python & "Monty"'
