"""Live counts: HopSpec → SPARQL, checked three ways: the query's shape, a real SPARQL engine
(rdflib) evaluating it over a small Wikidata-shaped graph, and the WDQS wire format replayed
through the real HTTP layer and cache (``responses`` at the requests level; no network)."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
import requests
import responses
from rdflib import Graph
from rdflib.plugins.sparql import prepareQuery
from responses import matchers

from builder.errors import CacheMissError, ServiceError
from builder.kb.http import HttpCache, HttpClient
from builder.kb.wikidata import SparqlError, WikidataClient
from builder.records.seed import Constraint, HopSpec
from builder.validity.live import LiveCounter, LiveMatches, sparql_for

SPARQL = "https://query.wikidata.org/sparql"
UA = "discobench-tests/0.1 (https://example.org/discobench; tests@example.org)"
XSD_INTEGER = "http://www.w3.org/2001/XMLSchema#integer"
ENTITY = "http://www.wikidata.org/entity/"
RECORDED = datetime(2026, 11, 30, 17, 5, 0, tzinfo=UTC)

# the descriptions of the task: films by Nolan in 2010, Real Madrid's coach in 2014, the
# country bordering France with the largest area
NOLAN_2010 = HopSpec(
    link="P57",
    link_inverse=True,
    class_id="Q11424",
    constraints=[Constraint(property="P577", value="+2010-07-16T00:00:00Z", match="year")],
)
COACH_2014 = HopSpec(link="P286", qualifier="P580", qualifier_value="+2014-00-00T00:00:00Z")
LARGEST_NEIGHBOUR = HopSpec(link="P47", class_id="Q6256", criterion="P2046")


def query(spec: HopSpec, prev: str | None, mode: str = "count", limit: int = 50) -> str:
    q = sparql_for(spec, prev, mode=mode, limit=limit)  # type: ignore[arg-type]
    assert q is not None
    prepareQuery(q)  # a SPARQL 1.1 parser accepts it (raises on a syntax error)
    return q


# ---------------------------------------------------------------- translation: shape


def test_plain_forward_link_is_truthy_best_rank() -> None:
    q = query(HopSpec(link="P36"), "Q142")
    assert "wd:Q142 wdt:P36 ?x ." in q
    assert "SELECT (COUNT(DISTINCT ?x) AS ?n)" in q
    assert "p:P36" not in q and "wikibase:rank" not in q  # wdt: is exactly the best rank
    assert "PREFIX wdt: <http://www.wikidata.org/prop/direct/>" in q
    assert "PREFIX pq:" not in q  # only the prefixes used are declared


def test_inverse_link_with_class_and_year_constraint() -> None:
    q = query(NOLAN_2010, "Q25191")
    assert "?x wdt:P57 wd:Q25191 ." in q
    assert "?x wdt:P31/wdt:P279* wd:Q11424 ." in q
    assert "?x wdt:P577 ?c0 ." in q and "FILTER(YEAR(?c0) = 2010)" in q


def test_exact_constraints_on_items_times_and_amounts() -> None:
    spec = HopSpec(
        class_id="Q11424",
        constraints=[
            Constraint(property="P136", value="Q188473"),
            Constraint(property="P577", value="+2010-07-16T00:00:00Z"),
            Constraint(property="P2047", value="+148"),
        ],
    )
    q = query(spec, None)
    assert "?x wdt:P136 wd:Q188473 ." in q
    assert 'FILTER(?c1 = "2010-07-16T00:00:00Z"^^xsd:dateTime)' in q
    assert "FILTER(?c2 = 148)" in q
    assert "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>" in q


def test_point_in_time_version_uses_every_non_deprecated_statement() -> None:
    spec = HopSpec(link="P1346", qualifier="P585", qualifier_value="+1998-00-00T00:00:00Z")
    q = query(spec, "Q1102006")
    assert "wd:Q1102006 p:P1346 ?st ." in q and "?st ps:P1346 ?x ;" in q
    assert "FILTER(?rank != wikibase:DeprecatedRank)" in q
    assert "?st pq:P585 ?t ." in q and "FILTER(YEAR(?t) = 1998)" in q
    assert "wdt:P1346" not in q  # truthy would hide normal-rank past values


def test_start_time_version_is_the_term_meeting_the_year() -> None:
    q = query(COACH_2014, "Q8682")
    assert "OPTIONAL { ?st pq:P580 ?start }" in q and "OPTIONAL { ?st pq:P582 ?end }" in q
    assert "YEAR(?start) <= 2014" in q and "YEAR(?end) >= 2014" in q


def test_any_time_keeps_every_time_qualified_value() -> None:
    q = query(HopSpec(link="P286", any_time=True), "Q8682")
    assert "FILTER EXISTS { ?st pq:P585|pq:P580|pq:P582 ?when }" in q
    assert "YEAR(" not in q


@pytest.mark.parametrize("order", ["max", "min"])
def test_superlative_is_the_top_of_the_set_plus_the_unranked_count(order: str) -> None:
    spec = LARGEST_NEIGHBOUR.model_copy(update={"criterion_order": order})
    q = query(spec, "Q142")
    assert f"SELECT ({order.upper()}(?v_) AS ?best)" in q
    assert "wd:Q142 wdt:P47 ?x_ ." in q  # the same set, inside the subquery
    assert "FILTER(?v = ?best)" in q
    assert "SELECT ?n ?unranked WHERE" in q
    assert "FILTER NOT EXISTS { ?xu wdt:P2046 ?vu . FILTER(isNumeric(?vu)) }" in q


def test_select_mode_lists_members_in_order_with_the_limit() -> None:
    q = query(NOLAN_2010, "Q25191", mode="select", limit=7)
    assert q.count("SELECT DISTINCT ?x WHERE {") == 1
    assert q.rstrip().endswith("ORDER BY ?x\nLIMIT 7")
    assert "COUNT(" not in q
    top = query(LARGEST_NEIGHBOUR, "Q142", mode="select")
    assert "MAX(?v_)" in top and "?unranked" not in top


@pytest.mark.parametrize(
    ("spec", "prev"),
    [
        (HopSpec(link="P36"), None),  # a link needs the previous answer
        (HopSpec(constraints=[Constraint(property="P577", value="+2010", match="year")]), None),
        (HopSpec(link="P57", link_inverse=True, any_time=True), "Q25191"),
        (HopSpec(link="P286", qualifier="P580", qualifier_value="sometime"), "Q8682"),
        (HopSpec(link="P286", qualifier="P31", qualifier_value="+2014"), "Q8682"),
        (HopSpec(link="P47", criteria_options=["P2046", "P1082"]), "Q142"),
        (HopSpec(class_id="Q5", constraints=[Constraint(property="P1477", value="en:Bob")]), None),
        (HopSpec(link="P36"), "Q142 } DELETE { ?s ?p ?o"),  # not an id: never pasted in
        (HopSpec(link="P36 ?y"), "Q142"),
    ],
)
def test_descriptions_without_a_faithful_query_give_none(spec: HopSpec, prev: str | None) -> None:
    assert sparql_for(spec, prev, mode="count") is None
    assert sparql_for(spec, prev, mode="select") is None


# ---------------------------------------------------------------- translation: semantics

GRAPH = """
@prefix wd: <http://www.wikidata.org/entity/> .
@prefix wdt: <http://www.wikidata.org/prop/direct/> .
@prefix p: <http://www.wikidata.org/prop/> .
@prefix ps: <http://www.wikidata.org/prop/statement/> .
@prefix pq: <http://www.wikidata.org/prop/qualifier/> .
@prefix wikibase: <http://wikiba.se/ontology#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix s: <http://www.wikidata.org/entity/statement/> .

# office holders of Q1: Q10 until mid-1970, Q11 since mid-1970 (preferred, current),
# Q12 deprecated, Q13 in the 1980s, Q14 with an unknown (somevalue) end, Q15 with only an end
wd:Q1 wdt:P6 wd:Q11 ;
  p:P6 s:a, s:b, s:c, s:d, s:e, s:f .
s:a ps:P6 wd:Q10 ; wikibase:rank wikibase:NormalRank ;
  pq:P580 "1965-01-01T00:00:00Z"^^xsd:dateTime ; pq:P582 "1970-06-01T00:00:00Z"^^xsd:dateTime .
s:b ps:P6 wd:Q11 ; wikibase:rank wikibase:PreferredRank ;
  pq:P580 "1970-06-01T00:00:00Z"^^xsd:dateTime .
s:c ps:P6 wd:Q12 ; wikibase:rank wikibase:DeprecatedRank ;
  pq:P580 "1969-01-01T00:00:00Z"^^xsd:dateTime .
s:d ps:P6 wd:Q13 ; wikibase:rank wikibase:NormalRank ;
  pq:P580 "1980-01-01T00:00:00Z"^^xsd:dateTime ; pq:P582 "1985-01-01T00:00:00Z"^^xsd:dateTime .
s:e ps:P6 wd:Q14 ; wikibase:rank wikibase:NormalRank ;
  pq:P580 "1950-01-01T00:00:00Z"^^xsd:dateTime ;
  pq:P582 <http://www.wikidata.org/.well-known/genid/0a1b2c> .
s:f ps:P6 wd:Q15 ; wikibase:rank wikibase:NormalRank ;
  pq:P582 "1960-01-01T00:00:00Z"^^xsd:dateTime .

# neighbours of Q2 (class Q6256 via a subclass), areas: Q20 10, Q21 30, Q22 30, Q23 none
wd:Q2 wdt:P47 wd:Q20, wd:Q21, wd:Q22, wd:Q23, wd:Q24 .
wd:Q7 wdt:P279 wd:Q6256 .
wd:Q20 wdt:P31 wd:Q6256 ; wdt:P2046 "10"^^xsd:decimal .
wd:Q21 wdt:P31 wd:Q6256 ; wdt:P2046 "30"^^xsd:decimal .
wd:Q22 wdt:P31 wd:Q7 ; wdt:P2046 "30"^^xsd:decimal .
wd:Q23 wdt:P31 wd:Q6256 .
wd:Q24 wdt:P31 wd:Q5 ; wdt:P2046 "99"^^xsd:decimal .
"""


@pytest.fixture(scope="module")
def graph() -> Graph:
    return Graph().parse(data=GRAPH, format="turtle")


def run(graph: Graph, q: str) -> list[dict[str, str]]:
    out = []
    for row in graph.query(q):
        out.append({str(k): str(v) for k, v in row.asdict().items()})  # type: ignore[union-attr]
    return out


def members(graph: Graph, spec: HopSpec, prev: str) -> list[str]:
    rows = run(graph, query(spec, prev, mode="select"))
    return [r["x"].removeprefix(ENTITY) for r in rows]


@pytest.mark.parametrize(
    ("year", "expected"),
    [
        (1970, ["Q10", "Q11", "Q14"]),  # two holders that year, and the unknown-end one
        (1971, ["Q11", "Q14"]),
        (1985, ["Q11", "Q13", "Q14"]),  # the end year still counts
        (1949, ["Q15"]),  # only an end: the term is open towards the past
        (1961, ["Q14"]),
    ],
)
def test_term_version_counts_every_holder_of_that_year(
    graph: Graph, year: int, expected: list[str]
) -> None:
    spec = HopSpec(link="P6", qualifier="P580", qualifier_value=f"+{year}-01-01T00:00:00Z")
    assert members(graph, spec, "Q1") == expected  # deprecated Q12 never
    assert run(graph, query(spec, "Q1")) == [{"n": str(len(expected))}]


def test_truthy_link_sees_only_the_preferred_value(graph: Graph) -> None:
    assert members(graph, HopSpec(link="P6"), "Q1") == ["Q11"]
    assert members(graph, HopSpec(link="P6", any_time=True), "Q1") == [
        "Q10",
        "Q11",
        "Q13",
        "Q14",
        "Q15",
    ]


def test_superlative_ties_subclasses_and_unranked_members(graph: Graph) -> None:
    assert members(graph, LARGEST_NEIGHBOUR, "Q2") == ["Q21", "Q22"]  # a tie: both
    assert run(graph, query(LARGEST_NEIGHBOUR, "Q2")) == [{"n": "2", "unranked": "1"}]
    smallest = LARGEST_NEIGHBOUR.model_copy(update={"criterion_order": "min"})
    assert members(graph, smallest, "Q2") == ["Q20"]  # Q24 (not a country) never ranks


# ---------------------------------------------------------------- the wire, through the cache


def count_body(n: int, unranked: int | None = None) -> dict[str, Any]:
    row = {"n": {"datatype": XSD_INTEGER, "type": "literal", "value": str(n)}}
    if unranked is not None:
        row["unranked"] = {"datatype": XSD_INTEGER, "type": "literal", "value": str(unranked)}
    return {"head": {"vars": list(row)}, "results": {"bindings": [row]}}


def select_body(cells: list[dict[str, str]]) -> dict[str, Any]:
    return {"head": {"vars": ["x"]}, "results": {"bindings": [{"x": c} for c in cells]}}


def uri(qid: str) -> dict[str, str]:
    return {"type": "uri", "value": ENTITY + qid}


def make_counter(
    tmp_path: Path, mode: str = "record", now: datetime = RECORDED, limit: int = 50
) -> LiveCounter:
    cache = HttpCache(tmp_path / "cache", mode)  # type: ignore[arg-type]
    http = HttpClient(user_agent=UA, cache=cache, retries=2, sleep=lambda s: None, now=lambda: now)
    client = WikidataClient(http, sparql_url=SPARQL)
    return LiveCounter(client, limit=limit, today=lambda: date(1999, 1, 1))


def serve(q: str, body: dict[str, Any] | str, status: int = 200) -> None:
    text = body if isinstance(body, str) else json.dumps(body)
    responses.get(
        SPARQL,
        body=text,
        status=status,
        content_type="application/sparql-results+json",
        match=[
            matchers.query_param_matcher({"query": q, "format": "json"}),
            matchers.header_matcher({"Accept": "application/sparql-results+json"}),
        ],
    )


def serve_nolan(counted: int = 3) -> None:
    serve(query(NOLAN_2010, "Q25191"), count_body(counted))
    cells = [
        uri("Q25188"),
        uri("Q163872"),
        {"type": "uri", "value": "http://www.wikidata.org/.well-known/genid/5b1f2e"},
    ]
    serve(query(NOLAN_2010, "Q25191", mode="select"), select_body(cells))


@responses.activate
def test_count_and_select_answers_become_live_matches(tmp_path: Path) -> None:
    serve_nolan()
    got = make_counter(tmp_path).matches(NOLAN_2010, "Q25191")
    assert got is not None
    assert got.count == 3
    assert got.ids == ["Q25188", "Q163872"]  # sorted by number, not as text
    assert got.unknown == 1 and got.values == []
    assert got.listed and not got.unique
    assert got.unranked is None
    assert got.query == query(NOLAN_2010, "Q25191") and "LIMIT 50" in got.select_query
    assert got.endpoint == SPARQL
    assert got.as_of == "2026-11-30"  # the date the answer was fetched


@responses.activate
def test_a_count_of_one_is_unique_and_literals_are_values(tmp_path: Path) -> None:
    spec = HopSpec(link="P577")
    serve(query(spec, "Q25188"), count_body(1))
    cell = {
        "datatype": "http://www.w3.org/2001/XMLSchema#dateTime",
        "type": "literal",
        "value": "2010-07-16T00:00:00Z",
    }
    serve(query(spec, "Q25188", mode="select"), select_body([cell]))
    got = make_counter(tmp_path).matches(spec, "Q25188")
    assert got is not None and got.unique
    assert got.values == ["2010-07-16T00:00:00Z"] and got.ids == []


@responses.activate
def test_zero_matches_skip_the_select_query(tmp_path: Path) -> None:
    serve(query(NOLAN_2010, "Q25191"), count_body(0))
    got = make_counter(tmp_path).matches(NOLAN_2010, "Q25191")
    assert got is not None and got.count == 0 and got.ids == []
    assert len(responses.calls) == 1


@responses.activate
def test_more_matches_than_the_limit_are_counted_not_listed(tmp_path: Path) -> None:
    spec = HopSpec(link="P161", link_inverse=True)
    serve(query(spec, "Q38111"), count_body(120))
    serve(query(spec, "Q38111", mode="select", limit=2), select_body([uri("Q2"), uri("Q1")]))
    got = make_counter(tmp_path, limit=2).matches(spec, "Q38111")
    assert got is not None
    assert (got.count, got.ids, got.listed) == (120, ["Q1", "Q2"], False)


@responses.activate
def test_superlative_reports_unranked_members(tmp_path: Path) -> None:
    serve(query(LARGEST_NEIGHBOUR, "Q142"), count_body(1, unranked=2))
    serve(query(LARGEST_NEIGHBOUR, "Q142", mode="select"), select_body([uri("Q29")]))
    got = make_counter(tmp_path).matches(LARGEST_NEIGHBOUR, "Q142")
    assert got is not None
    assert (got.count, got.ids, got.unranked) == (1, ["Q29"], 2)
    assert not got.unique  # two neighbours without an area could be larger


@responses.activate
def test_long_queries_are_posted_and_counted_the_same(tmp_path: Path) -> None:
    many = [Constraint(property="P136", value=f"Q{1000 + i}") for i in range(80)]
    spec = HopSpec(class_id="Q11424", constraints=many)
    q = sparql_for(spec, None, mode="count")  # (rdflib's parser recurses too deep on 80 triples)
    assert q is not None and len(q) > 1800
    responses.post(
        SPARQL,
        json=count_body(0),
        match=[matchers.urlencoded_params_matcher({"query": q, "format": "json"})],
    )
    got = make_counter(tmp_path).matches(spec, None)
    assert got is not None and got.count == 0 and got.query == q


def test_untranslatable_description_asks_nothing(tmp_path: Path) -> None:
    with responses.RequestsMock() as mock:
        assert make_counter(tmp_path).matches(HopSpec(link="P36"), None) is None
        assert len(mock.calls) == 0


@responses.activate
def test_a_count_answer_without_n_is_an_error_naming_the_query(tmp_path: Path) -> None:
    q = query(NOLAN_2010, "Q25191")
    serve(q, {"head": {"vars": ["x"]}, "results": {"bindings": [{"x": uri("Q1")}]}})
    with pytest.raises(SparqlError, match=r"no count \?n") as err:
        make_counter(tmp_path).matches(NOLAN_2010, "Q25191")
    assert err.value.query == q and "?x wdt:P57 wd:Q25191 ." in str(err.value)


def test_replay_miss_names_the_query(tmp_path: Path) -> None:
    with pytest.raises(CacheMissError) as err:
        make_counter(tmp_path, mode="replay").matches(NOLAN_2010, "Q25191")
    text = str(err.value)
    assert "replay mode: no recorded response" in text
    assert "    ?x wdt:P57 wd:Q25191 ." in text  # the query, readable, not URL-encoded
    assert "--cache-mode record" in text


MALFORMED = """SPARQL-QUERY: queryStr=SELECT ...
java.util.concurrent.ExecutionException: org.openrdf.query.MalformedQueryException: \
Encountered " "}" "} "" at line 3, column 1.
Was expecting one of:
    <EOF>
\tat java.util.concurrent.FutureTask.report(FutureTask.java:122)
"""


@responses.activate
def test_endpoint_rejecting_the_query_is_not_retried_and_names_it(tmp_path: Path) -> None:
    q = query(NOLAN_2010, "Q25191")
    serve(q, MALFORMED, status=400)
    with pytest.raises(SparqlError) as err:
        make_counter(tmp_path).matches(NOLAN_2010, "Q25191")
    text = str(err.value)
    assert "rejected the query (HTTP 400)" in text
    assert 'MalformedQueryException: Encountered " "}" "} "" at line 3, column 1.' in text
    assert "?x wdt:P31/wdt:P279* wd:Q11424 ." in text and err.value.query == q
    assert isinstance(err.value, ServiceError)
    assert len(responses.calls) == 1


@responses.activate
def test_answer_cut_off_by_the_timeout_is_an_error_and_never_cached(tmp_path: Path) -> None:
    q = query(NOLAN_2010, "Q25191")
    cut = (
        '{\n  "head" : {\n    "vars" : [ "n" ]\n  },\n  "results" : {\n    "bindings" : [ '
        "SPARQL-QUERY: queryStr=...\njava.util.concurrent.TimeoutException\n"
        "\tat java.util.concurrent.FutureTask.get(FutureTask.java:205)\n"
    )
    serve(q, cut)
    counter = make_counter(tmp_path)
    for _ in range(2):  # the second time goes to the network again: nothing was stored
        with pytest.raises(SparqlError, match="time limit"):
            counter.matches(NOLAN_2010, "Q25191")
    assert len(responses.calls) == 2
    assert not list((tmp_path / "cache").rglob("*.json"))


@responses.activate
def test_timeout_as_http_500_is_retried_by_the_http_layer(tmp_path: Path) -> None:
    q = query(NOLAN_2010, "Q25191")
    serve(q, "java.util.concurrent.TimeoutException", status=500)
    serve(q, count_body(0))
    got = make_counter(tmp_path).matches(NOLAN_2010, "Q25191")
    assert got is not None and got.count == 0
    assert len(responses.calls) == 2


@responses.activate
def test_record_then_replay_without_network_gives_the_same_matches(tmp_path: Path) -> None:
    serve_nolan()
    recorded = make_counter(tmp_path, mode="record").matches(NOLAN_2010, "Q25191")
    later = datetime(2027, 3, 1, tzinfo=UTC)
    replay = make_counter(tmp_path, mode="replay", now=later)
    with responses.RequestsMock() as mock:
        again = replay.matches(NOLAN_2010, "Q25191")
        assert len(mock.calls) == 0
    assert isinstance(again, LiveMatches) and again == recorded
    assert again.as_of == "2026-11-30"  # the recording date, not the replay's


def test_live_mode_without_a_cache_uses_the_fetch_date(tmp_path: Path) -> None:
    http = HttpClient(user_agent=UA, retries=0, sleep=lambda s: None, now=lambda: RECORDED)
    counter = LiveCounter(WikidataClient(http, sparql_url=SPARQL))
    with responses.RequestsMock() as mock:
        mock.get(SPARQL, json=count_body(0))
        got = counter.matches(NOLAN_2010, "Q25191")
    assert got is not None and got.as_of == "2026-11-30"


def test_connection_failures_are_retried_then_reported(tmp_path: Path) -> None:
    with responses.RequestsMock() as mock:
        mock.get(SPARQL, body=requests.ConnectionError("refused"))
        with pytest.raises(ServiceError, match="gave up after 3 attempts"):
            make_counter(tmp_path).matches(NOLAN_2010, "Q25191")
        assert len(mock.calls) == 3
