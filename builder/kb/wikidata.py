"""Wikidata client: entities by id (``wbgetentities``), entity search (``wbsearchentities``)
and the SPARQL endpoint, all through :class:`builder.kb.http.HttpClient` (cache, retries,
User-Agent, maxlag)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from builder.config import Settings
from builder.errors import CacheMissError, ServiceError
from builder.kb.http import HttpClient, HttpResponse, HttpStatusError
from builder.records.live import EntityLookup, SearchMatch
from builder.records.wikidata import Entity

BATCH_SIZE = 50  # wbgetentities' limit for anonymous clients
ENTITY_ID = re.compile(r"^[QP][1-9][0-9]*$")
LEXEME_ID = re.compile(r"^L[1-9][0-9]*(-[FS][1-9][0-9]*)?$")
SPARQL_GET_LIMIT = 1800  # longer queries are POSTed (URL length limits)
SPARQL_ACCEPT = "application/sparql-results+json"


class SparqlError(ServiceError):
    """The Query Service refused a query or could not finish it: a malformed query (HTTP 400
    with the parser's message) or a result cut off by the query timeout. Not retried: the
    same query fails the same way. ``query`` holds the query text."""

    def __init__(self, message: str, *, query: str, hint: str | None = None) -> None:
        super().__init__(f"{message}\n  query:\n{_indent(query)}", hint=hint)
        self.query = query


class SparqlResult(BaseModel):
    """A SELECT answer: the rows as ``{variable: value}`` and when the service gave it."""

    model_config = ConfigDict(frozen=True)

    query: str
    variables: list[str] = Field(default_factory=list, description="head.vars, in order.")
    rows: list[dict[str, str]] = Field(default_factory=list)
    fetched_at: str = Field(
        "", description="UTC time of the answer (the recording time when replayed)."
    )
    from_cache: bool = False


def _indent(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line for line in text.strip().splitlines())


def _service_message(body: str) -> str:
    """The informative line of a Blazegraph error body (a Java stack trace): the exception's
    message, e.g. ``MalformedQueryException: Encountered "}" at line 3, column 1.``"""
    for line in body.splitlines():
        for marker in ("MalformedQueryException:", "QueryEvaluationException:", "Exception:"):
            if marker in line:
                short = marker.split(":")[0]
                return short + ":" + line.split(marker, 1)[1].rstrip()
    first = next((line for line in body.splitlines() if line.strip()), "")
    return first[:300]


def _timed_out(body: str) -> bool:
    return "TimeoutException" in body


def _is_results(resp: HttpResponse) -> bool:
    """A complete SPARQL JSON results document (not a body cut off by a timeout)."""
    try:
        doc = json.loads(resp.text)
    except ValueError:
        return False
    return isinstance(doc, dict) and isinstance(doc.get("results"), dict)


def chunks(items: list[str], size: int) -> Iterator[list[str]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _dedupe(ids: Iterable[str]) -> list[str]:
    seen: dict[str, None] = {}
    for raw in ids:
        eid = raw.strip()
        if eid:
            seen.setdefault(eid.upper() if eid[:1].islower() else eid, None)
    return list(seen)


class WikidataClient:
    """Thin client over the Wikidata Action API and Query Service."""

    def __init__(
        self,
        http: HttpClient,
        *,
        api_url: str = "https://www.wikidata.org/w/api.php",
        sparql_url: str = "https://query.wikidata.org/sparql",
        maxlag: int | None = 5,
    ) -> None:
        self.http = http
        self.api_url = api_url
        self.sparql_url = sparql_url
        self.maxlag = maxlag

    @classmethod
    def from_settings(cls, http: HttpClient, settings: Settings) -> WikidataClient:
        return cls(
            http,
            api_url=settings.wikidata_api_url,
            sparql_url=settings.wikidata_sparql_url,
            maxlag=settings.maxlag,
        )

    # ------------------------------------------------------------------ entities
    def get_entities(self, ids: Iterable[str]) -> list[Entity]:
        """Entities for ``ids`` (in request order); unknown ids are left out."""
        return self.lookup(ids).entities

    def lookup(self, ids: Iterable[str]) -> EntityLookup:
        """Fetch ``ids`` in batches of 50, reporting missing, redirected and skipped ids.

        Lexemes and malformed ids are not sent (reason in ``skipped``): one bad id makes
        ``wbgetentities`` refuse the whole batch."""
        result = EntityLookup()
        wanted: list[str] = []
        for eid in _dedupe(ids):
            if ENTITY_ID.match(eid):
                wanted.append(eid)
            elif LEXEME_ID.match(eid):
                result.skipped[eid] = "lexemes are not part of the knowledge model"
            else:
                result.skipped[eid] = "not a Wikidata item or property id (Q… or P…)"
        for batch in chunks(wanted, BATCH_SIZE):
            self._lookup_batch(batch, result)
        return result

    def _lookup_batch(self, batch: list[str], result: EntityLookup) -> None:
        params: dict[str, str | int] = {
            "action": "wbgetentities",
            "format": "json",
            "ids": "|".join(batch),
        }
        if self.maxlag is not None:
            params["maxlag"] = self.maxlag
        doc = self._api(params)
        entities = doc.get("entities")
        if not isinstance(entities, dict):
            raise ServiceError(
                f"wbgetentities for {','.join(batch)}: response has no 'entities' object"
            )
        for requested in batch:
            raw = entities.get(requested)
            if raw is None:
                same = (v for v in entities.values() if isinstance(v, dict))
                raw = next((v for v in same if v.get("id") == requested), None)
            if raw is None or "missing" in raw:
                result.missing.append(requested)
                continue
            try:
                entity = Entity.model_validate(raw)
            except ValidationError as exc:
                first = exc.errors()[0]
                where = ".".join(str(p) for p in first["loc"])
                result.skipped[requested] = f"unreadable entity document at {where}: {first['msg']}"
                continue
            if entity.id != requested:
                result.redirects[requested] = entity.id
            result.entities.append(entity)

    # ------------------------------------------------------------------ search
    def search_entities(
        self, text: str, language: str = "en", limit: int = 7, type_: str = "item"
    ) -> list[SearchMatch]:
        """Label/alias prefix search, Wikidata's own ranking (``wbsearchentities``)."""
        params: dict[str, str | int] = {
            "action": "wbsearchentities",
            "format": "json",
            "search": text,
            "language": language,
            "uselang": language,
            "type": type_,
            "limit": max(1, min(limit, 50)),
        }
        if self.maxlag is not None:
            params["maxlag"] = self.maxlag
        doc = self._api(params)
        return [self._match(hit) for hit in doc.get("search", []) if isinstance(hit, dict)]

    @staticmethod
    def _match(hit: dict[str, Any]) -> SearchMatch:
        match = hit.get("match") if isinstance(hit.get("match"), dict) else {}
        assert isinstance(match, dict)
        return SearchMatch(
            id=str(hit.get("id", "")),
            label=str(hit.get("label", "")),
            description=str(hit.get("description", "")),
            aliases=[str(a) for a in hit.get("aliases", [])],
            match_type=str(match.get("type", "")),
            match_text=str(match.get("text", "")),
            match_language=str(match.get("language", "")),
            concept_uri=str(hit.get("concepturi", "")),
        )

    # ------------------------------------------------------------------ SPARQL
    def sparql(self, query: str) -> list[dict[str, str]]:
        """Rows of a SELECT query as ``{variable: value}`` (unbound variables left out)."""
        return self.sparql_result(query).rows

    def sparql_result(self, query: str) -> SparqlResult:
        """A SELECT query's rows with its variables and the time of the answer.

        Raises :class:`SparqlError` when the service rejects the query (HTTP 400) or its
        answer was cut off by the query timeout (HTTP 200 whose body ends in a stack trace;
        never cached). Overload (429, 5xx, which includes a timeout reported as HTTP 500) is
        retried by the HTTP layer like any request."""
        headers = {"Accept": SPARQL_ACCEPT}
        params = {"query": query, "format": "json"}
        try:
            send = self.http.get if len(query) <= SPARQL_GET_LIMIT else self.http.post
            resp = send(self.sparql_url, params, headers=headers, cacheable=_is_results)
        except CacheMissError as exc:
            # the request's description is URL-encoded and cut short: name the query itself
            raise CacheMissError(
                f"{exc.message}\n  query:\n{_indent(query)}", hint=exc.hint
            ) from exc
        except HttpStatusError as exc:
            if exc.status != 400:
                raise
            raise SparqlError(
                f"SPARQL {self.sparql_url} rejected the query (HTTP 400): "
                f"{_service_message(exc.body)}",
                query=query,
                hint="the query is malformed or uses something the service does not support",
            ) from exc
        if not _is_results(resp) and _timed_out(resp.text):
            raise SparqlError(
                f"SPARQL {self.sparql_url}: the query hit the service's time limit; the answer "
                "is incomplete",
                query=query,
                hint="narrow the query (a more selective constraint or class) or count offline",
            )
        doc = resp.json()
        try:
            bindings = doc["results"]["bindings"]
        except (KeyError, TypeError) as exc:
            raise ServiceError(
                f"SPARQL {self.sparql_url}: response is not SPARQL 1.1 JSON results "
                f"(no results.bindings); starts with {resp.text[:120]!r}",
                hint="ASK queries return 'boolean', not rows; use a SELECT query",
            ) from exc
        head = doc.get("head") if isinstance(doc.get("head"), dict) else {}
        variables = [str(v) for v in head.get("vars", [])] if isinstance(head, dict) else []
        rows = [
            {var: str(cell.get("value", "")) for var, cell in row.items() if isinstance(cell, dict)}
            for row in bindings
        ]
        return SparqlResult(
            query=query,
            variables=variables,
            rows=rows,
            fetched_at=resp.fetched_at,
            from_cache=resp.from_cache,
        )

    # ------------------------------------------------------------------ plumbing
    def _api(self, params: dict[str, str | int]) -> dict[str, Any]:
        resp: HttpResponse = self.http.get(self.api_url, params)
        doc = resp.json()
        if not isinstance(doc, dict):
            raise ServiceError(f"{self.api_url} {params.get('action')}: response is not an object")
        error = doc.get("error")
        if isinstance(error, dict):
            raise ServiceError(
                f"{self.api_url} action={params.get('action')}: API error "
                f"{error.get('code')!r}: {error.get('info', '')}",
                hint="check the ids/parameters named in the message",
            )
        return doc
