"""The HTTP layer: retries (429, 5xx, maxlag, connection errors) with Retry-After, the
on-disk cache in live/record/replay modes, and secrets never reaching the disk."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
import requests
import responses
from responses import matchers

from builder.config import Settings
from builder.errors import CacheMissError, ConfigError, ServiceError
from builder.kb.http import HttpCache, HttpClient, HttpRequest
from tests.conftest import FIXTURES_DIR, shared_fixtures

CASSETTES = FIXTURES_DIR / "wikipedia-cassettes"
API = "https://www.wikidata.org/w/api.php"
UA = "discobench-tests/0.1 (https://example.org/discobench; tests@example.org)"
OK_BODY = '{"entities": {"Q42": {"id": "Q42", "type": "item"}}, "success": 1}'
MAXLAG_BODY = json.dumps(
    {
        "error": {
            "code": "maxlag",
            "info": "Waiting for 10.64.48.35: 6.2 seconds lagged.",
            "host": "10.64.48.35",
            "lag": 6.2,
            "type": "db",
        },
        "servedby": "mw1355",
    }
)


class Sleeps:
    """Test-injected sleep: records the waits instead of waiting."""

    def __init__(self) -> None:
        self.calls: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.calls.append(seconds)


def client(
    tmp_path: Path, mode: str = "record", retries: int = 3, **kw: object
) -> tuple[HttpClient, Sleeps]:
    sleeps = Sleeps()
    cache = HttpCache(tmp_path / "cache", mode) if mode != "live" else None  # type: ignore[arg-type]
    http = HttpClient(user_agent=UA, cache=cache, retries=retries, sleep=sleeps, **kw)  # type: ignore[arg-type]
    return http, sleeps


def cache_files(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "cache").rglob("*.json"))


def test_cache_key_ignores_param_order_and_maxlag_but_not_values() -> None:
    a = HttpRequest.build("GET", API + "?action=wbgetentities", {"ids": "Q1|Q2", "maxlag": 5})
    b = HttpRequest.build(
        "get", API, [("maxlag", "10"), ("ids", "Q1|Q2"), ("action", "wbgetentities")]
    )
    c = HttpRequest.build("GET", API, {"action": "wbgetentities", "ids": "Q1|Q3"})
    d = HttpRequest.build("POST", API, data={"action": "wbgetentities", "ids": "Q1|Q2"})
    assert a.key() == b.key()
    assert a.key() != c.key()
    assert a.key() != d.key()


@responses.activate
def test_user_agent_comes_from_settings(tmp_path: Path) -> None:
    settings = Settings(user_agent="my-bench/2.0 (mailto:me@example.org)")
    responses.get(API, body=OK_BODY)
    http = HttpClient.from_settings(settings, cache_dir=tmp_path / "c", mode="record")
    http.get(API, {"action": "wbgetentities", "ids": "Q42"})
    assert responses.calls[0].request.headers["User-Agent"] == settings.user_agent
    assert http.timeout == settings.http_timeout
    assert http.retries == settings.http_retries


def test_too_short_user_agent_is_refused() -> None:
    with pytest.raises(ConfigError, match="User-Agent"):
        HttpClient(user_agent=" ab ")


def test_unknown_cache_mode_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="unknown HTTP cache mode 'offline'"):
        HttpCache(tmp_path, "offline")  # type: ignore[arg-type]


@responses.activate
def test_retry_on_429_honours_retry_after_seconds(tmp_path: Path) -> None:
    responses.get(API, status=429, headers={"Retry-After": "7"}, body="slow down")
    responses.get(API, body=OK_BODY)
    http, sleeps = client(tmp_path)
    resp = http.get(API, {"action": "wbgetentities", "ids": "Q42"})
    assert resp.status == 200
    assert resp.json()["entities"]["Q42"]["id"] == "Q42"
    assert sleeps.calls == [7.0]
    assert len(responses.calls) == 2


@responses.activate
def test_retry_after_as_http_date_uses_the_injected_clock(tmp_path: Path) -> None:
    now = datetime(2026, 3, 29, 20, 0, 0, tzinfo=UTC)
    responses.get(API, status=503, headers={"Retry-After": "Sun, 29 Mar 2026 20:00:12 GMT"})
    responses.get(API, body=OK_BODY)
    http, sleeps = client(tmp_path, now=lambda: now)
    http.get(API, {"action": "wbgetentities", "ids": "Q42"})
    assert sleeps.calls == [12.0]


@responses.activate
def test_5xx_without_retry_after_backs_off_exponentially(tmp_path: Path) -> None:
    responses.get(API, status=502)
    responses.get(API, status=503)
    responses.get(API, status=500)
    responses.get(API, body=OK_BODY)
    http, sleeps = client(tmp_path, backoff=0.5)
    assert http.get(API, {"ids": "Q42"}).status == 200
    assert sleeps.calls == [0.5, 1.0, 2.0]


@responses.activate
def test_retry_after_is_capped_by_max_wait(tmp_path: Path) -> None:
    responses.get(API, status=429, headers={"Retry-After": "3600"})
    responses.get(API, body=OK_BODY)
    http, sleeps = client(tmp_path, max_wait=30.0)
    http.get(API, {"ids": "Q42"})
    assert sleeps.calls == [30.0]


@responses.activate
def test_gives_up_after_retries_with_a_message_naming_the_request(tmp_path: Path) -> None:
    responses.get(API, status=503)
    http, sleeps = client(tmp_path, retries=2)
    with pytest.raises(ServiceError) as info:
        http.get(API, {"action": "wbgetentities", "ids": "Q42"})
    message = str(info.value)
    assert "GET https://www.wikidata.org/w/api.php?action=wbgetentities&ids=Q42" in message
    assert "3 attempts" in message and "HTTP 503" in message
    assert len(responses.calls) == 3 and len(sleeps.calls) == 2
    assert cache_files(tmp_path) == []  # failures are never cached


@responses.activate
def test_maxlag_error_with_http_200_is_retried_and_never_cached(tmp_path: Path) -> None:
    responses.get(API, body=MAXLAG_BODY, headers={"Retry-After": "5"})
    responses.get(API, body=OK_BODY)
    http, sleeps = client(tmp_path)
    resp = http.get(API, {"action": "wbgetentities", "ids": "Q42", "maxlag": 5})
    assert resp.json()["success"] == 1
    assert sleeps.calls == [5.0]
    assert "maxlag=5" in str(responses.calls[0].request.url)
    [entry] = cache_files(tmp_path)
    assert json.loads(entry.read_text())["response"]["body"] == OK_BODY


@responses.activate
def test_maxlag_that_never_clears_is_a_service_error(tmp_path: Path) -> None:
    responses.get(API, body=MAXLAG_BODY)
    http, _ = client(tmp_path, retries=1)
    with pytest.raises(
        ServiceError, match=r"maxlag: Waiting for 10\.64\.48\.35: 6\.2 seconds lagged"
    ):
        http.get(API, {"ids": "Q42", "maxlag": 5})


@responses.activate
def test_api_error_documents_are_returned_but_not_cached(tmp_path: Path) -> None:
    body = '{"error": {"code": "no-such-entity", "info": "Could not find Q0."}, "servedby": "x"}'
    responses.get(API, body=body)
    http, _ = client(tmp_path)
    resp = http.get(API, {"action": "wbgetentities", "ids": "Q0"})
    assert resp.api_error_code() == "no-such-entity"
    assert cache_files(tmp_path) == []
    http.get(API, {"action": "wbgetentities", "ids": "Q0"})
    assert len(responses.calls) == 2


@responses.activate
def test_connection_errors_are_retried(tmp_path: Path) -> None:
    responses.get(API, body=requests.ConnectionError("connection reset"))
    responses.get(API, body=requests.exceptions.ChunkedEncodingError("truncated body"))
    responses.get(API, body=requests.Timeout("read timed out"))
    responses.get(API, body=OK_BODY)
    http, sleeps = client(tmp_path)
    assert http.get(API, {"ids": "Q42"}).status == 200
    assert sleeps.calls == [1.0, 2.0, 4.0]


@responses.activate
def test_client_errors_are_not_retried(tmp_path: Path) -> None:
    responses.get(API, status=400, body="bad request")
    http, sleeps = client(tmp_path)
    with pytest.raises(ServiceError, match="HTTP 400"):
        http.get(API, {"ids": "Q42"})
    assert len(responses.calls) == 1 and sleeps.calls == []


def test_replay_miss_names_method_url_and_params_without_touching_the_network(
    tmp_path: Path,
) -> None:
    http, _ = client(tmp_path, mode="replay")
    with responses.RequestsMock() as mock:  # nothing registered: any real call would fail
        with pytest.raises(CacheMissError) as info:
            http.get(API, {"action": "wbgetentities", "ids": "Q1|Q2", "format": "json"})
        assert len(mock.calls) == 0
    message = str(info.value)
    assert "GET https://www.wikidata.org/w/api.php?" in message
    assert "action=wbgetentities&ids=Q1%7CQ2&format=json" in message
    assert "--cache-mode record" in message


def test_record_then_replay_round_trip(tmp_path: Path) -> None:
    params = {"action": "wbgetentities", "ids": "Q42", "format": "json"}
    with responses.RequestsMock() as mock:
        mock.get(
            API,
            body=OK_BODY,
            content_type="application/json; charset=utf-8",
            match=[matchers.query_param_matcher(params)],
        )
        recorder, _ = client(tmp_path, mode="record")
        first = recorder.get(API, params)
        again = recorder.get(API, dict(reversed(list(params.items()))))  # hit, any order
        assert len(mock.calls) == 1
    assert not first.from_cache and again.from_cache
    assert recorder.cache_hits == 1
    [entry] = cache_files(tmp_path)
    stored = json.loads(entry.read_text())
    assert stored["request"]["url"] == API
    assert ["ids", "Q42"] in stored["request"]["params"]

    replayer, _ = client(tmp_path, mode="replay")
    with responses.RequestsMock() as mock:
        replayed = replayer.get(API, params)
        assert len(mock.calls) == 0
    assert replayed.from_cache
    assert (replayed.status, replayed.text) == (200, OK_BODY)
    assert replayed.headers["content-type"] == "application/json; charset=utf-8"


@responses.activate
def test_live_mode_writes_no_cache_files(tmp_path: Path) -> None:
    responses.get(API, body=OK_BODY)
    settings = Settings(http_cache_mode="live")
    http = HttpClient.from_settings(settings, cache_dir=tmp_path / "cache")
    http.get(API, {"ids": "Q42"})
    http.get(API, {"ids": "Q42"})
    assert http.mode == "live"
    assert len(responses.calls) == 2
    assert not (tmp_path / "cache").exists()


@responses.activate
def test_secrets_never_reach_cache_files(tmp_path: Path) -> None:
    responses.get(
        API,
        body=OK_BODY,
        headers={"Set-Cookie": "session=SECRET-COOKIE-4; Path=/", "X-Client-IP": "203.0.113.9"},
    )
    http, _ = client(tmp_path)
    http.session.cookies.set("centralauth_Session", "SECRET-COOKIE-2")
    http.get(
        API,
        {"action": "query", "token": "SECRET-TOKEN-3", "api_key": "SECRET-KEY-5"},
        headers={"Authorization": "Bearer SECRET-BEARER-1"},
    )
    # the secrets did go out on the wire …
    sent = responses.calls[0].request
    assert sent.headers["Authorization"] == "Bearer SECRET-BEARER-1"
    # … but nothing secret (nor the client's IP) is on disk
    [entry] = cache_files(tmp_path)
    text = entry.read_text()
    assert "SECRET" not in text and "203.0.113.9" not in text
    assert "<redacted>" in text
    # and the redacted request is still found again (same key)
    assert http.get(API, {"action": "query", "token": "SECRET-TOKEN-3", "api_key": "x"}).from_cache


@shared_fixtures
def test_vcr_cassette_import_keeps_bodies_and_drops_cookies(tmp_path: Path) -> None:
    cache = HttpCache(tmp_path / "cache", "replay")
    assert cache.import_cassette(CASSETTES / "TestVcrWikiLinks.test_links.json") == 2
    files = cache_files(tmp_path)
    assert len(files) == 2
    text = "".join(f.read_text() for f in files)
    assert "WMF-Uniq" not in text and "GeoIP" not in text and "85.193.0.48" not in text
    http = HttpClient(user_agent=UA, cache=cache)
    resp = http.get(
        "https://en.wikipedia.org/w/api.php",
        {
            "action": "query",
            "prop": "links",
            "titles": "Python_(programming_language)",
            "pllimit": 500,
            "format": "json",
            "redirects": 1,
        },
    )
    assert resp.json()["continue"]["plcontinue"].startswith("23862|0|")
