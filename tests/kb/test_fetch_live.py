"""``kb fetch``: entities and their enwiki leads into a real store, through the real HTTP
layer, with the Wikidata/Wikipedia APIs played by ``responses`` callbacks that answer in the
exact wire formats (entity documents are the recorded fixture files)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
import responses
from typer.testing import CliRunner

from builder.cli.main import app
from builder.errors import InputError
from builder.kb.fetch import fetch_into_store, linked_ids, parse_id_list
from builder.kb.http import HttpCache, HttpClient
from builder.kb.store import KnowledgeStore
from builder.kb.wikidata import WikidataClient
from builder.kb.wikipedia import WikipediaClient
from builder.records.wikidata import Entity
from tests.conftest import FIXTURES_DIR, shared_fixtures

FIXTURES = FIXTURES_DIR / "wikidata"
WD_API = "https://www.wikidata.org/w/api.php"
WP_API = "https://en.wikipedia.org/w/api.php"
UA = "discobench-tests/0.1 (https://example.org/discobench; tests@example.org)"
HUMAN = {
    "id": "Q5",
    "type": "item",
    "labels": {"en": {"language": "en", "value": "human"}},
    "sitelinks": {"enwiki": {"site": "enwiki", "title": "Human", "badges": []}},
}
LEADS = {
    "Douglas_Adams": "Douglas Noël Adams was an English author and humorist.",
    "The_Beatles": "The Beatles were an English rock band formed in Liverpool in 1960.",
    "Human": "Humans are a species of primate.",
}


def entity_docs() -> dict[str, dict[str, Any]]:
    docs: dict[str, dict[str, Any]] = {"Q5": HUMAN}
    for rel in ("wdtk/wbgetentities-Douglas-Adams.json", "dahlia-wikidata/Q1299.json"):
        reply = json.loads((FIXTURES / rel).read_text(encoding="utf-8"))
        docs.update(reply["entities"])
    return docs


class FakeWikimedia:
    """wbgetentities and prop=extracts answered from tables; counts what was asked."""

    def __init__(self, mock: responses.RequestsMock, broken_titles: frozenset[str] = frozenset()):
        self.docs = entity_docs()
        self.batches: list[list[str]] = []
        self.titles: list[str] = []
        self.broken = broken_titles
        mock.add_callback(responses.GET, WD_API, callback=self.wikidata)
        mock.add_callback(responses.GET, WP_API, callback=self.wikipedia)

    def wikidata(self, request: requests.PreparedRequest) -> tuple[int, dict[str, str], str]:
        params: dict[str, str] = request.params  # type: ignore[attr-defined]
        ids = params["ids"].split("|")
        self.batches.append(ids)
        entities = {i: self.docs.get(i, {"id": i, "missing": ""}) for i in ids}
        return 200, {}, json.dumps({"entities": entities, "success": 1})

    def wikipedia(self, request: requests.PreparedRequest) -> tuple[int, dict[str, str], str]:
        params: dict[str, str] = request.params  # type: ignore[attr-defined]
        assert params["prop"] == "extracts" and params["exintro"] == "1"
        titles = params["titles"].split("|")
        self.titles.extend(titles)
        if self.broken & set(titles):
            return 500, {}, "upstream timeout"
        pages: dict[str, Any] = {}
        for n, title in enumerate(titles):
            name = title.replace("_", " ")
            if title in LEADS:
                pages[str(n + 1)] = {
                    "pageid": n + 1,
                    "ns": 0,
                    "title": name,
                    "extract": LEADS[title],
                }
            else:
                pages[str(-1 - n)] = {"ns": 0, "title": name, "missing": ""}
        normalized = [{"from": t, "to": t.replace("_", " ")} for t in titles if "_" in t]
        query = {"normalized": normalized, "pages": pages}
        return 200, {}, json.dumps({"batchcomplete": "", "query": query})


def offline() -> responses.RequestsMock:
    """No real network; registered fakes need not all be called."""
    return responses.RequestsMock(assert_all_requests_are_fired=False)


def clients(tmp_path: Path, mode: str = "record") -> tuple[WikidataClient, WikipediaClient]:
    cache = HttpCache(tmp_path / "cache", mode)  # type: ignore[arg-type]
    http = HttpClient(user_agent=UA, cache=cache, retries=1, sleep=lambda s: None)
    return WikidataClient(http, api_url=WD_API), WikipediaClient(http)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[KnowledgeStore]:
    with KnowledgeStore.open(tmp_path / "kb.sqlite") as s:
        yield s


@shared_fixtures
def test_fetch_writes_entities_and_pages_and_reports_missing(
    tmp_path: Path, store: KnowledgeStore
) -> None:
    wd, wp = clients(tmp_path)
    with offline() as mock:
        fake = FakeWikimedia(mock)
        report = fetch_into_store(store, wd, wp, ["Q42", "Q1299", "Q999999999"])
    assert fake.batches == [["Q42", "Q1299", "Q999999999"]]
    assert report.fetched == ["Q42", "Q1299"]
    assert report.missing == ["Q999999999"]
    assert report.pages == 2 and report.failures == []
    entity = store.get_entity("Q42")
    assert entity is not None and entity.label() == "Douglas Adams"
    page = store.get_page("Q1299")
    assert page is not None and page.title == "The Beatles"
    assert page.text == LEADS["The_Beatles"]
    assert [h.entity_id for h in store.search("Liverpool rock band")] == ["Q1299"]


@shared_fixtures
def test_expand_follows_properties_one_hop(tmp_path: Path, store: KnowledgeStore) -> None:
    wd, wp = clients(tmp_path)
    with offline() as mock:
        fake = FakeWikimedia(mock)
        report = fetch_into_store(store, wd, wp, ["Q42"], expand=["P31"], depth=1)
    assert fake.batches == [["Q42"], ["Q5"]]  # Q42 is an instance of (P31) human (Q5)
    assert report.fetched == ["Q42", "Q5"]
    assert store.label("Q5") == "human"
    assert report.pages == 2


@shared_fixtures
def test_depth_zero_does_not_expand(tmp_path: Path, store: KnowledgeStore) -> None:
    wd, _ = clients(tmp_path)
    with offline() as mock:
        fake = FakeWikimedia(mock)
        report = fetch_into_store(store, wd, None, ["Q42"], expand=["P31"], depth=0)
    assert fake.batches == [["Q42"]] and fake.titles == []
    assert report.fetched == ["Q42"] and report.pages == 0


@shared_fixtures
def test_rerun_skips_stored_entities_but_fills_missing_pages(
    tmp_path: Path, store: KnowledgeStore
) -> None:
    wd, wp = clients(tmp_path, mode="live")
    with offline() as mock:
        FakeWikimedia(mock)
        first = fetch_into_store(store, wd, None, ["Q42", "Q1299"])  # --no-pages
    assert first.fetched == ["Q42", "Q1299"] and store.get_page("Q42") is None
    with offline() as mock:
        fake = FakeWikimedia(mock)
        second = fetch_into_store(store, wd, wp, ["Q42", "Q1299"])
    assert fake.batches == []  # nothing re-fetched from Wikidata
    assert second.skipped == ["Q42", "Q1299"] and second.fetched == []
    assert second.pages == 2 and store.get_page("Q42") is not None
    with offline() as mock:
        fake = FakeWikimedia(mock)
        third = fetch_into_store(store, wd, wp, ["Q42", "Q1299"])
    assert fake.batches == [] and fake.titles == [] and third.pages == 0
    with offline() as mock:
        fake = FakeWikimedia(mock)
        fourth = fetch_into_store(store, wd, wp, ["Q42"], refresh=True)
    assert fake.batches == [["Q42"]] and fourth.fetched == ["Q42"]


@shared_fixtures
def test_per_item_failures_are_recorded_and_the_run_goes_on(
    tmp_path: Path, store: KnowledgeStore
) -> None:
    wd, wp = clients(tmp_path)
    with offline() as mock:
        fake = FakeWikimedia(mock, broken_titles=frozenset({"Douglas_Adams"}))
        report = fetch_into_store(store, wd, wp, ["Q42", "Q1299", "L3354"], expand=["P31"])
    assert report.fetched == ["Q42", "Q1299", "Q5"]  # went on to the next hop
    # first extract batch: tried twice (retries=1) then given up; then the next hop's batch
    assert fake.titles == ["Douglas_Adams", "The_Beatles"] * 2 + ["Human"]
    assert report.pages == 1  # Human; the first extract batch failed
    by_id = {f.id: f for f in report.failures}
    assert by_id["Q42"].stage == "page" and "HTTP 500" in by_id["Q42"].reason
    assert by_id["Q1299"].stage == "page"
    assert by_id["L3354"].stage == "entity" and "lexeme" in by_id["L3354"].reason
    assert store.get_entity("Q42") is not None  # the entity stayed although its page failed
    with offline() as mock:  # re-run: entities skipped, the failed pages fetched now
        fake = FakeWikimedia(mock)
        again = fetch_into_store(store, wd, wp, ["Q42", "Q1299"])
    assert fake.batches == [] and again.pages == 2 and again.failures == []


def test_replay_mode_miss_becomes_a_recorded_failure(tmp_path: Path, store: KnowledgeStore) -> None:
    wd, wp = clients(tmp_path, mode="replay")
    report = fetch_into_store(store, wd, wp, ["Q42"])
    [failure] = report.failures
    assert failure.id == "Q42" and "replay mode: no recorded response" in failure.reason
    assert "ids=Q42" in failure.reason


@shared_fixtures
def test_linked_ids_uses_best_rank_entity_values_only() -> None:
    entity = Entity.model_validate(entity_docs()["Q42"])
    assert linked_ids(entity, ["P31"]) == ["Q5"]
    assert linked_ids(entity, ["P1477"]) == []  # not present


def test_parse_id_list_rejects_malformed_ids() -> None:
    assert parse_id_list("q42, Q1299,Q42", what="--ids") == ["Q42", "Q1299"]
    with pytest.raises(InputError, match="Qx"):
        from builder.kb.fetch import EXPANDABLE_ID

        parse_id_list("Q42,Qx", what="--ids", pattern=EXPANDABLE_ID)


@shared_fixtures
def test_cli_fetch_records_then_replays_offline(tmp_path: Path) -> None:
    runner = CliRunner()
    ws = tmp_path / "ws"
    args = ["--workspace", str(ws), "kb", "fetch", "--ids", "Q42,Q999999999"]
    with offline() as mock:
        FakeWikimedia(mock)
        result = runner.invoke(app, [*args, "--cache-mode", "record", "--expand", "P31"])
    assert result.exit_code == 0, result.output
    assert "fetched" in result.output and "Q999999999" in result.output
    with KnowledgeStore.open(ws / "kb.sqlite") as kb:
        assert kb.label("Q5") == "human"
        assert kb.get_page("Q42") is not None
    (ws / "kb.sqlite").unlink()
    with responses.RequestsMock() as mock:  # offline now
        result = runner.invoke(
            app, [*args, "--cache-mode", "replay", "--expand", "P31", "--no-progress"]
        )
        assert len(mock.calls) == 0
    assert result.exit_code == 0, result.output
    with KnowledgeStore.open(ws / "kb.sqlite") as kb:
        assert kb.label("Q5") == "human"


def test_cli_fetch_exit_code_and_reasons_when_items_fail(tmp_path: Path) -> None:
    runner = CliRunner()
    ws = tmp_path / "ws"
    result = runner.invoke(
        app, ["--workspace", str(ws), "kb", "fetch", "--ids", "Q42", "--cache-mode", "replay"]
    )
    assert result.exit_code == 4
    assert "replay mode: no recorded response" in result.output


def test_cli_fetch_rejects_bad_ids(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["--workspace", str(tmp_path), "kb", "fetch", "--ids", "Q42,foo"]
    )
    assert result.exit_code == 3
    assert "FOO" in result.output or "foo" in result.output
