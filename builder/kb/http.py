"""One HTTP layer for every live source, with Wikimedia etiquette and a replayable cache.

Every request to Wikidata, the Wikidata Query Service and Wikipedia goes through
:class:`HttpClient`, which

- sends a descriptive ``User-Agent`` (Settings.user_agent; Wikimedia's User-Agent policy),
- sends requests one at a time (no parallelism: the API etiquette asks for serial requests),
- retries with exponential backoff on HTTP 429, 5xx, connection errors and MediaWiki
  ``maxlag`` errors (which arrive as HTTP 200 with ``{"error": {"code": "maxlag"}}``),
  honouring ``Retry-After`` (seconds or an HTTP date) when the server sends it,
- consults :class:`HttpCache` (successful, non-error answers only): one JSON file per
  request on disk, in one of three modes:
  ``live`` (no cache), ``record`` (hits served from disk, misses fetched and stored) and
  ``replay`` (offline; a miss raises :class:`CacheMissError` naming the request).

The cache key is a sha256 over method, URL, sorted query parameters and sorted form body.
Headers are never part of the key or the file, so credentials (Authorization, cookies) never
reach the disk; parameters whose names look secret (token, key, password…) are redacted
before hashing and storing. ``maxlag`` is excluded from the key: it is etiquette, not content,
so a response recorded with one maxlag value replays under another.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import requests

from builder.config import CacheMode, Settings
from builder.errors import CacheMissError, ConfigError, ServiceError

CACHE_FORMAT = "discobench-http-cache/1"
CACHE_MODES: tuple[CacheMode, ...] = ("live", "record", "replay")
SECRET_PARAM = re.compile(r"(?i)(token|key|secret|passw|auth|session|cookie|credential)")
REDACTED = "<redacted>"
TIMESTAMP = "%Y-%m-%dT%H:%M:%SZ"
KEY_EXCLUDED_PARAMS = frozenset({"maxlag"})
KEPT_RESPONSE_HEADERS = ("content-type", "content-language", "last-modified", "etag")
RETRY_STATUS = frozenset({429, 500, 502, 503, 504})

Params = Mapping[str, object] | Iterable[tuple[str, object]]  # values sent as str(v), bool as 1/0


def _pairs(params: Params | None) -> list[tuple[str, str]]:
    if params is None:
        return []
    items = params.items() if isinstance(params, Mapping) else params
    out: list[tuple[str, str]] = []
    for k, v in items:
        if isinstance(v, bool):
            out.append((str(k), "1" if v else "0"))
        else:
            out.append((str(k), str(v)))
    return out


def _without_query(url: str) -> str:
    """The URL without its query: a final (redirected) URL may repeat secret parameters."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))


def _redact(pairs: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(k, REDACTED if SECRET_PARAM.search(k) else v) for k, v in pairs]


@dataclass(frozen=True)
class HttpRequest:
    """A request as the cache sees it: the URL without its query, and the parameters."""

    method: str
    url: str
    params: tuple[tuple[str, str], ...] = ()
    data: tuple[tuple[str, str], ...] | None = None

    @classmethod
    def build(
        cls, method: str, url: str, params: Params | None = None, data: Params | None = None
    ) -> HttpRequest:
        """Split any query string off ``url`` and merge it (first) with ``params``."""
        query = parse_qsl(urlsplit(url).query, keep_blank_values=True)
        base = _without_query(url)
        body = None if data is None else tuple(_pairs(data))
        return cls(method.upper(), base, tuple(query + _pairs(params)), body)

    def key(self) -> str:
        """sha256 over method, URL, sorted (redacted) params and body; maxlag left out."""
        params = sorted(p for p in _redact(self.params) if p[0] not in KEY_EXCLUDED_PARAMS)
        body = None if self.data is None else sorted(_redact(self.data))
        canon = json.dumps([self.method, self.url, params, body], ensure_ascii=False)
        return hashlib.sha256(canon.encode("utf-8")).hexdigest()

    def describe(self, limit: int = 500) -> str:
        """``GET https://…?a=b`` with secrets redacted; for error messages and logs."""
        text = f"{self.method} {self.url}"
        if self.params:
            text += "?" + urlencode(_redact(self.params))
        if self.data is not None:
            text += " body: " + urlencode(_redact(self.data))
        return text if len(text) <= limit else text[: limit - 1] + "…"

    def to_json(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "url": self.url,
            "params": [list(p) for p in _redact(self.params)],
            "data": None if self.data is None else [list(p) for p in _redact(self.data)],
        }


@dataclass(frozen=True)
class HttpResponse:
    """A response as callers see it, whether it came from the network or the cache."""

    status: int
    text: str
    headers: Mapping[str, str] = field(default_factory=dict)  # lower-case names
    url: str = ""
    from_cache: bool = False
    fetched_at: str = ""  # UTC ``2026-12-01T09:30:00Z``: when the answer left the server
    # (now for a fresh answer, the recording time for a cached one; "" if unknown)

    def json(self) -> Any:
        try:
            return json.loads(self.text)
        except ValueError as exc:
            raise ServiceError(
                f"{self.url}: response is not JSON ({exc}); starts with {self.text[:120]!r}",
                hint="The service may be down or returned an HTML error page; retry later.",
            ) from exc

    def api_error_code(self) -> str | None:
        """The ``error.code`` of a MediaWiki error document (sent with HTTP 200), else None.

        Only bodies that start like one are parsed, so big answers are not read twice."""
        head = self.text[:200].lstrip()
        if not head.startswith("{") or '"error"' not in head:
            return None
        try:
            doc = json.loads(self.text)
        except ValueError:
            return None
        error = doc.get("error") if isinstance(doc, dict) else None
        return str(error.get("code", "")) if isinstance(error, dict) else None

    def maxlag_error(self) -> bool:
        """True for MediaWiki's ``maxlag`` refusal (HTTP 200 with an error document)."""
        return self.status == 200 and self.api_error_code() == "maxlag"


class HttpCache:
    """On-disk response cache, one JSON file per request under ``root/<key[:2]>/<key>.json``."""

    def __init__(self, root: Path | str, mode: CacheMode = "record") -> None:
        if mode not in CACHE_MODES:
            raise ConfigError(
                f"unknown HTTP cache mode {mode!r}", hint=f"use one of {', '.join(CACHE_MODES)}"
            )
        self.root = Path(root)
        self.mode: CacheMode = mode

    def path_for(self, request: HttpRequest) -> Path:
        key = request.key()
        return self.root / key[:2] / f"{key}.json"

    def load(self, request: HttpRequest) -> HttpResponse | None:
        path = self.path_for(request)
        if not path.is_file():
            return None
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
            resp = doc["response"]
            return HttpResponse(
                status=int(resp["status"]),
                text=str(resp["body"]),
                headers=dict(resp.get("headers") or {}),
                url=str(resp.get("url") or request.url),
                from_cache=True,
                fetched_at=str(doc.get("recorded_at") or ""),
            )
        except (ValueError, KeyError, TypeError) as exc:
            raise ServiceError(
                f"{path}: unreadable HTTP cache entry ({exc}) for {request.describe()}",
                hint="Delete the file; record mode will fetch it again.",
            ) from exc

    def store(self, request: HttpRequest, response: HttpResponse) -> Path:
        """Write one entry atomically. Only a whitelist of response headers is kept."""
        path = self.path_for(request)
        path.parent.mkdir(parents=True, exist_ok=True)
        headers = {
            k.lower(): v for k, v in response.headers.items() if k.lower() in KEPT_RESPONSE_HEADERS
        }
        doc = {
            "format": CACHE_FORMAT,
            "request": request.to_json(),
            "response": {
                "status": response.status,
                "url": _without_query(response.url) or request.url,
                "headers": dict(sorted(headers.items())),
                "body": response.text,
            },
            "recorded_at": response.fetched_at or datetime.now(UTC).strftime(TIMESTAMP),
        }
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(doc, fh, ensure_ascii=False, indent=1)
        os.replace(tmp, path)
        return path

    def import_cassette(self, cassette: Path | str) -> int:
        """Turn a vcrpy JSON cassette into cache entries; returns how many were stored.

        Lets tests replay real recorded Wikipedia responses through this very layer."""
        path = Path(cassette)
        doc = json.loads(path.read_text(encoding="utf-8"))
        count = 0
        for i, interaction in enumerate(doc.get("interactions", [])):
            try:
                req = interaction["request"]
                resp = interaction["response"]
                body = req.get("body") or ""
                data = parse_qsl(body, keep_blank_values=True) if body else None
                request = HttpRequest.build(req["method"], req["uri"], data=data)
                headers = {k.lower(): v[0] for k, v in (resp.get("headers") or {}).items() if v}
                response = HttpResponse(
                    status=int(resp["status"]["code"]),
                    text=resp["body"]["string"],
                    headers=headers,
                    url=req["uri"],
                )
            except (KeyError, TypeError, IndexError) as exc:
                raise ServiceError(
                    f"{path}: interaction {i} is not a vcrpy JSON interaction ({exc})"
                ) from exc
            self.store(request, response)
            count += 1
        return count


class HttpStatusError(ServiceError):
    """The server refused the request itself (a 4xx other than 429): not retried.

    Carries the status and body so callers can explain the refusal in their own terms (e.g.
    the SPARQL endpoint's parse error for a malformed query)."""

    def __init__(self, message: str, *, status: int, body: str, hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.status = status
        self.body = body


def _utcnow() -> datetime:
    return datetime.now(UTC)


class HttpClient:
    """The one way the toolkit talks HTTP to live sources. Not thread-safe by design: serial."""

    def __init__(
        self,
        *,
        user_agent: str,
        cache: HttpCache | None = None,
        timeout: float = 30.0,
        retries: int = 5,
        backoff: float = 1.0,
        max_wait: float = 120.0,
        session: requests.Session | None = None,
        sleep: Callable[[float], None] = time.sleep,
        now: Callable[[], datetime] = _utcnow,
    ) -> None:
        if len(user_agent.strip()) < 5:
            raise ConfigError(
                "the HTTP User-Agent is empty or too short",
                hint="set DISCOBENCH_USER_AGENT to 'tool/version (contact URL or e-mail)' "
                "as Wikimedia's User-Agent policy asks",
            )
        self.user_agent = user_agent
        self.cache = cache
        self.timeout = timeout
        self.retries = max(0, retries)
        self.backoff = backoff
        self.max_wait = max_wait
        self.session = session or requests.Session()
        self.session.headers["User-Agent"] = user_agent
        self.sleep = sleep
        self.now = now
        self.sent = 0  # requests that went to the network (attempts, retries included)
        self.cache_hits = 0
        self.waits: list[float] = []  # every backoff wait, in order (for reports and tests)

    @classmethod
    def from_settings(
        cls,
        settings: Settings,
        *,
        cache_dir: Path | None = None,
        mode: CacheMode | None = None,
        **kwargs: Any,
    ) -> HttpClient:
        """A client configured from Settings; ``cache_dir``/``mode`` override them."""
        used_mode: CacheMode = mode or settings.http_cache_mode
        folder = cache_dir or settings.http_cache_dir
        if folder is None and used_mode != "live":
            folder = settings.workspace / "http-cache"
        cache = HttpCache(folder, used_mode) if folder is not None else None
        return cls(
            user_agent=settings.user_agent,
            cache=cache,
            timeout=settings.http_timeout,
            retries=settings.http_retries,
            **kwargs,
        )

    @property
    def mode(self) -> CacheMode:
        return "live" if self.cache is None else self.cache.mode

    def get(
        self,
        url: str,
        params: Params | None = None,
        *,
        headers: Mapping[str, str] | None = None,
        timeout: float | None = None,
        cacheable: Callable[[HttpResponse], bool] | None = None,
    ) -> HttpResponse:
        return self.request(
            "GET", url, params=params, headers=headers, timeout=timeout, cacheable=cacheable
        )

    def post(
        self,
        url: str,
        data: Params,
        *,
        params: Params | None = None,
        headers: Mapping[str, str] | None = None,
        timeout: float | None = None,
        cacheable: Callable[[HttpResponse], bool] | None = None,
    ) -> HttpResponse:
        return self.request(
            "POST",
            url,
            params=params,
            data=data,
            headers=headers,
            timeout=timeout,
            cacheable=cacheable,
        )

    def request(
        self,
        method: str,
        url: str,
        *,
        params: Params | None = None,
        data: Params | None = None,
        headers: Mapping[str, str] | None = None,
        timeout: float | None = None,
        cacheable: Callable[[HttpResponse], bool] | None = None,
    ) -> HttpResponse:
        """Serve from the cache or the network (per the mode); successful answers only.

        ``cacheable``: an extra test a fresh answer must pass to be stored, for services
        whose failures arrive as HTTP 200 (a query service's truncated body after a timeout).

        Raises :class:`CacheMissError` in replay mode for an unrecorded request and
        :class:`ServiceError` for a non-retryable HTTP error or when retries run out."""
        req = HttpRequest.build(method, url, params, data)
        cache = self.cache if self.mode != "live" else None
        if cache is not None:
            hit = cache.load(req)
            if hit is not None:
                self.cache_hits += 1
                return hit
            if cache.mode == "replay":
                raise CacheMissError(
                    f"replay mode: no recorded response for {req.describe()} "
                    f"(expected {cache.path_for(req)})",
                    hint="run once with --cache-mode record (needs network) to record it, "
                    "or point DISCOBENCH_HTTP_CACHE_DIR at a cache that has it",
                )
        response = self._send(req, headers, timeout)
        # API error documents (bad ids, rate limits…) are answers of the moment: not cached
        keep = response.api_error_code() is None and (cacheable is None or cacheable(response))
        if cache is not None and keep:
            cache.store(req, response)
        return response

    def _send(
        self, req: HttpRequest, headers: Mapping[str, str] | None, timeout: float | None
    ) -> HttpResponse:
        last = ""
        for attempt in range(self.retries + 1):
            wait: float | None = None
            try:
                self.sent += 1
                raw = self.session.request(
                    req.method,
                    req.url,
                    params=list(req.params) or None,
                    data=list(req.data) if req.data is not None else None,
                    headers=dict(headers) if headers else None,
                    timeout=timeout or self.timeout,
                )
            except (
                requests.ConnectionError,
                requests.Timeout,
                requests.exceptions.ChunkedEncodingError,
            ) as exc:
                last = f"{type(exc).__name__}: {exc}"
            else:
                if raw.encoding is None:
                    raw.encoding = "utf-8"
                headers_lc = {k.lower(): v for k, v in raw.headers.items()}
                resp = HttpResponse(raw.status_code, raw.text, headers_lc, raw.url)
                if resp.status in RETRY_STATUS or resp.status >= 500:
                    last = f"HTTP {resp.status}"
                elif resp.maxlag_error():
                    last = "maxlag: " + str(resp.json()["error"].get("info", "database lag"))
                elif resp.status >= 400:
                    raise HttpStatusError(
                        f"{req.describe()}: HTTP {resp.status}: {resp.text[:300]!r}",
                        status=resp.status,
                        body=resp.text,
                        hint="the request itself was refused; check ids and parameters",
                    )
                else:
                    return replace(resp, fetched_at=self.now().strftime(TIMESTAMP))
                wait = self._retry_after(resp.headers.get("retry-after"))
            if attempt == self.retries:
                break
            delay = wait if wait is not None else self.backoff * (2**attempt)
            delay = min(max(delay, 0.0), self.max_wait)
            self.waits.append(delay)
            self.sleep(delay)
        raise ServiceError(
            f"{req.describe()}: gave up after {self.retries + 1} attempts; last error: {last}",
            hint="the service is overloaded, rate-limiting or unreachable; try again later "
            "(DISCOBENCH_HTTP_RETRIES raises the number of retries)",
        )

    def _retry_after(self, value: str | None) -> float | None:
        """Seconds to wait from a ``Retry-After`` header (delta-seconds or HTTP date)."""
        if not value:
            return None
        value = value.strip()
        if value.isdigit():
            return float(value)
        try:
            when = parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        return max(0.0, (when - self.now()).total_seconds())
