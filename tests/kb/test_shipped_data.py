"""The core knowledge paths on the small hand-written data in ``tests/data`` (no ../shared).

Import (CLI), stats, show, entity round trip, best-rank choice and the Wikidata client's
replay, so that a fresh clone tests them even without the recorded fixtures.
"""

from __future__ import annotations

import json
from pathlib import Path

import responses
from pydantic import TypeAdapter
from responses import matchers
from typer.testing import CliRunner

from builder.cli.main import app
from builder.kb.http import HttpCache, HttpClient
from builder.kb.wikidata import WikidataClient
from builder.records.wikidata import AnyEntity, Entity
from builder.workspace import Workspace

runner = CliRunner()
API = "https://www.wikidata.org/w/api.php"
UA = "discobench-tests/0.1 (https://example.org/discobench; tests@example.org)"


def reply(data_dir: Path) -> dict[str, dict[str, object]]:
    return json.loads((data_dir / "wikidata/wbgetentities-small.json").read_text("utf-8"))


def test_import_stats_and_show_on_the_small_reply(tmp_workspace: Workspace, data_dir: Path):
    wd = data_dir / "wikidata"
    result = runner.invoke(app, ["kb", "import", str(wd), "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "imported 5" in result.stdout.replace("\n", " ")

    stats = json.loads(runner.invoke(app, ["kb", "stats", "--json"]).stdout)
    assert (stats["entities"], stats["properties"], stats["pages"]) == (5, 1, 1)

    shown = runner.invoke(app, ["kb", "show", "Q900001", "--json"])
    assert shown.exit_code == 0
    doc = json.loads(shown.stdout)
    assert [s["rank"] for s in doc["claims"]["P1082"]] == ["deprecated", "normal", "preferred"]
    text = runner.invoke(app, ["kb", "show", "Q900001"]).stdout
    assert "Lowmere" in text and "P31 instance of" in text


def test_entities_round_trip_and_best_rank(data_dir: Path):
    adapter = TypeAdapter(AnyEntity)
    for doc in reply(data_dir)["entities"].values():
        if "missing" in doc:
            continue
        assert adapter.validate_python(doc).to_wire() == doc
    town = Entity.model_validate(reply(data_dir)["entities"]["Q900001"])
    best = town.best_statements("P1082")
    assert [s.rank for s in best] == ["preferred"]
    assert town.enwiki_title() == "Lowmere"


@responses.activate
def test_wikidata_client_reads_the_reply_then_replays_it_offline(tmp_path: Path, data_dir: Path):
    ids = ["Q900001", "Q900002", "Q900009"]
    params = {"action": "wbgetentities", "format": "json", "ids": "|".join(ids), "maxlag": "5"}
    body = (data_dir / "wikidata/wbgetentities-small.json").read_text("utf-8")
    responses.get(API, body=body, match=[matchers.query_param_matcher(params)])

    def client(mode: str) -> WikidataClient:
        cache = HttpCache(tmp_path / "cache", mode)  # type: ignore[arg-type]
        http = HttpClient(user_agent=UA, cache=cache, retries=1, sleep=lambda s: None)
        return WikidataClient(http, api_url=API, maxlag=5)

    found = client("record").lookup(ids)
    assert found.missing == ["Q900009"]
    assert {e.id for e in found.entities} >= {"Q900001", "Q900002"}
    with responses.RequestsMock() as mock:
        again = client("replay").lookup(ids)
        assert len(mock.calls) == 0
    assert {e.id for e in again.entities} == {e.id for e in found.entities}
