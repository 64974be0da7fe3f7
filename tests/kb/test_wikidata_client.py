"""Wikidata client over the real HTTP layer: batching, real recorded entity documents,
wbsearchentities and SPARQL in their exact wire formats."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import requests
import responses
from responses import matchers

from builder.errors import ServiceError
from builder.kb.http import HttpCache, HttpClient
from builder.kb.wikidata import WikidataClient
from tests.conftest import FIXTURES_DIR, shared_fixtures

FIXTURES = FIXTURES_DIR / "wikidata"
API = "https://www.wikidata.org/w/api.php"
SPARQL = "https://query.wikidata.org/sparql"
UA = "discobench-tests/0.1 (https://example.org/discobench; tests@example.org)"


def make_client(tmp_path: Path, mode: str = "record") -> WikidataClient:
    cache = HttpCache(tmp_path / "cache", mode)  # type: ignore[arg-type]
    http = HttpClient(user_agent=UA, cache=cache, retries=2, sleep=lambda s: None)
    return WikidataClient(http, api_url=API, sparql_url=SPARQL, maxlag=5)


def fixture_text(rel: str) -> str:
    return (FIXTURES / rel).read_text(encoding="utf-8")


def serve_file(ids: str, rel: str) -> None:
    """Serve a recorded wbgetentities response at the URL the client must ask for."""
    params = {"action": "wbgetentities", "format": "json", "ids": ids, "maxlag": "5"}
    responses.get(
        API,
        body=fixture_text(rel),
        content_type="application/json; charset=utf-8",
        match=[matchers.query_param_matcher(params)],
    )


@responses.activate
def test_120_ids_go_out_as_3_batches_of_at_most_50_joined_by_pipes(tmp_path: Path) -> None:
    asked: list[list[str]] = []

    def answer(request: requests.PreparedRequest) -> tuple[int, dict[str, str], str]:
        params: dict[str, Any] = request.params  # type: ignore[attr-defined]
        assert params["action"] == "wbgetentities" and params["format"] == "json"
        assert params["maxlag"] == "5"
        ids = params["ids"].split("|")
        asked.append(ids)
        docs = {
            i: {"id": i, "type": "item", "labels": {"en": {"language": "en", "value": i}}}
            for i in ids
        }
        return 200, {}, json.dumps({"entities": docs, "success": 1})

    responses.add_callback(responses.GET, API, callback=answer)
    ids = [f"Q{n}" for n in range(1, 121)]
    entities = make_client(tmp_path).get_entities(ids)
    assert [len(batch) for batch in asked] == [50, 50, 20]
    assert [i for batch in asked for i in batch] == ids
    assert "ids=Q1%7CQ2%7CQ3" in str(responses.calls[0].request.url)
    assert [e.id for e in entities] == ids
    assert entities[119].label() == "Q120"


@shared_fixtures
@responses.activate
def test_duplicates_lexemes_and_malformed_ids_are_not_sent(tmp_path: Path) -> None:
    serve_file("Q42", "wdtk/wbgetentities-Douglas-Adams.json")
    found = make_client(tmp_path).lookup(["Q42", "q42", "L3354", "Qfoo", " "])
    assert [e.id for e in found.entities] == ["Q42"]
    assert set(found.skipped) == {"L3354", "Qfoo"}
    assert "lexemes" in found.skipped["L3354"]
    assert len(responses.calls) == 1


@shared_fixtures
@responses.activate
def test_recorded_entity_files_replayed_through_the_http_layer(tmp_path: Path) -> None:
    serve_file("Q6|Q42|P31", "wdtk/wbgetentities-Q6-Q42-P31.json")
    found = make_client(tmp_path).lookup(["Q6", "Q42", "P31"])
    assert found.missing == ["Q6"]  # real `{"id": "Q6", "missing": ""}` entry
    by_id = {e.id: e for e in found.entities}
    assert by_id["Q42"].label() == "Douglas Adams"
    assert by_id["Q42"].enwiki_title() == "Douglas Adams"
    assert by_id["P31"].type == "property" and by_id["P31"].datatype == "wikibase-item"
    assert [v.key() for v in by_id["Q42"].best_values("P31")] == ["Q5"]


@shared_fixtures
@responses.activate
def test_entity_answered_under_another_id_is_reported_as_redirect(tmp_path: Path) -> None:
    # the recorded file holds Karlsruhe (Q1040) under the requested id Q32063953
    serve_file("Q32063953", "wdtk/wbgetentities-Q32063953.json")
    found = make_client(tmp_path).lookup(["Q32063953"])
    assert found.redirects == {"Q32063953": "Q1040"}
    assert found.entities[0].label() == "Karlsruhe"


@shared_fixtures
@responses.activate
def test_several_recorded_layouts_and_replay_without_network(tmp_path: Path) -> None:
    serve_file("Q131261|Q1299", "wdtk/wbgetentites-Oliver-Kahn.json")
    client = make_client(tmp_path)
    # the served file only holds Q131261: Q1299 absent from the answer counts as missing
    found = client.lookup(["Q131261", "Q1299"])
    assert [e.label() for e in found.entities] == ["Oliver Kahn"]
    assert found.missing == ["Q1299"]
    replay = make_client(tmp_path, mode="replay")
    with responses.RequestsMock() as mock:
        again = replay.lookup(["Q131261", "Q1299"])
        assert len(mock.calls) == 0
    assert [e.id for e in again.entities] == ["Q131261"]


@responses.activate
def test_api_error_document_becomes_a_service_error_naming_the_code(tmp_path: Path) -> None:
    body = {
        "error": {
            "code": "no-such-entity",
            "info": 'Could not find an entity with the ID "Q0".',
            "id": "Q0",
        },
        "servedby": "mw1420",
    }
    responses.get(API, json=body)
    with pytest.raises(ServiceError, match="'no-such-entity'"):
        make_client(tmp_path).get_entities(["Q1"])


@shared_fixtures
@responses.activate
def test_search_entities_reads_the_recorded_abc_search(tmp_path: Path) -> None:
    params = {
        "action": "wbsearchentities",
        "format": "json",
        "search": "abc",
        "language": "en",
        "uselang": "en",
        "type": "item",
        "limit": "7",
        "maxlag": "5",
    }
    responses.get(
        API,
        body=fixture_text("wdtk/wbsearchentities-abc.json"),
        match=[matchers.query_param_matcher(params)],
    )
    matches = make_client(tmp_path).search_entities("abc")
    assert len(matches) >= 5
    first = matches[0]
    assert (first.id, first.label) == ("Q169889", "American Broadcasting Company")
    assert (first.match_type, first.match_text) == ("alias", "ABC")
    assert first.aliases == ["ABC"]
    assert first.concept_uri == "http://www.wikidata.org/entity/Q169889"
    assert len({m.id for m in matches}) == len(matches)  # several different entities, one name
    assert any(m.description == "Wikimedia disambiguation page" for m in matches)


SPARQL_RESULT = {
    "head": {"vars": ["item", "itemLabel", "population", "inception"]},
    "results": {
        "bindings": [
            {
                "item": {"type": "uri", "value": "http://www.wikidata.org/entity/Q1040"},
                "itemLabel": {"xml:lang": "en", "type": "literal", "value": "Karlsruhe"},
                "population": {
                    "datatype": "http://www.w3.org/2001/XMLSchema#decimal",
                    "type": "literal",
                    "value": "308436",
                },
                "inception": {
                    "datatype": "http://www.w3.org/2001/XMLSchema#dateTime",
                    "type": "literal",
                    "value": "1715-06-17T00:00:00Z",
                },
            },
            {
                "item": {"type": "uri", "value": "http://www.wikidata.org/entity/Q2112"},
                "itemLabel": {"xml:lang": "en", "type": "literal", "value": "Bielefeld"},
            },
        ]
    },
}


@responses.activate
def test_sparql_select_rows_with_accept_header_and_unbound_variables(tmp_path: Path) -> None:
    query = "SELECT ?item ?itemLabel ?population ?inception WHERE { ?item wdt:P31 wd:Q515 }"
    responses.get(
        SPARQL,
        json=SPARQL_RESULT,
        content_type="application/sparql-results+json",
        match=[
            matchers.query_param_matcher({"query": query, "format": "json"}),
            matchers.header_matcher({"Accept": "application/sparql-results+json"}),
        ],
    )
    rows = make_client(tmp_path).sparql(query)
    assert rows == [
        {
            "item": "http://www.wikidata.org/entity/Q1040",
            "itemLabel": "Karlsruhe",
            "population": "308436",
            "inception": "1715-06-17T00:00:00Z",
        },
        {"item": "http://www.wikidata.org/entity/Q2112", "itemLabel": "Bielefeld"},
    ]


@responses.activate
def test_long_sparql_queries_are_posted_and_cached_by_body(tmp_path: Path) -> None:
    query = (
        "SELECT ?item WHERE { VALUES ?item { "
        + " ".join(f"wd:Q{n}" for n in range(1, 400))
        + " } }"
    )
    responses.post(
        SPARQL,
        json=SPARQL_RESULT,
        match=[matchers.urlencoded_params_matcher({"query": query, "format": "json"})],
    )
    client = make_client(tmp_path)
    assert len(client.sparql(query)) == 2
    assert len(client.sparql(query)) == 2  # second time from the cache
    assert len(responses.calls) == 1


@responses.activate
def test_ask_query_answer_is_refused_with_a_hint(tmp_path: Path) -> None:
    responses.get(SPARQL, json={"head": {}, "boolean": True})
    with pytest.raises(ServiceError, match=r"no results\.bindings"):
        make_client(tmp_path).sparql("ASK { wd:Q42 wdt:P31 wd:Q5 }")
