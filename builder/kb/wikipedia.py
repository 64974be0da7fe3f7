"""Wikipedia client: page lead text, links, categories and full-text search.

Links, categories and search use the ``wikipedia-api`` package (which knows the MediaWiki
Action API's parameters, pagination and response shapes), but every request it makes goes
through *our* :class:`~builder.kb.http.HttpClient`: Wikipedia-API (>= 0.16) speaks ``httpx``
and accepts a custom ``transport``; :class:`HttpClientTransport` is that transport. So the
cache (record/replay), retries, maxlag handling and User-Agent are the same for Wikipedia as
for Wikidata, and Wikipedia-API's own retry loop is switched off (``max_retries=0``).

Lead texts are fetched on the HttpClient directly, 20 titles per request: Wikipedia-API
asks for one page per request, which is 20 times the load on Wikimedia for ``kb fetch``.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable
from typing import Any, TypeVar
from urllib.parse import quote

import httpx
import wikipediaapi

from builder.config import Settings
from builder.errors import ServiceError
from builder.kb.http import HttpClient
from builder.records.live import WikiSearchResult
from builder.records.page import Page

T = TypeVar("T")
_TAG = re.compile(r"<[^>]+>")
EXTRACT_BATCH = 20  # TextExtracts returns at most 20 intros per request


class HttpClientTransport(httpx.BaseTransport):
    """An ``httpx`` transport that sends through :class:`HttpClient` (cache + etiquette).

    The caller's headers are dropped on purpose: the HttpClient's session sets the
    User-Agent, and nothing else Wikipedia-API sends changes the response."""

    def __init__(self, http: HttpClient) -> None:
        self.http = http

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        body = request.read()
        data = None
        if body:
            form = httpx.QueryParams(body.decode("utf-8"))
            data = list(form.multi_items())
        resp = self.http.request(request.method, str(request.url), data=data)
        headers = {"content-type": resp.headers.get("content-type", "application/json")}
        return httpx.Response(
            resp.status, headers=headers, content=resp.text.encode("utf-8"), request=request
        )


def wiki_title(title: str) -> str:
    """The URL form of a title (underscores), so one page has one cache entry."""
    return title.strip().replace(" ", "_")


def plain_snippet(snippet: str) -> str:
    """Search snippet without ``<span class="searchmatch">`` markup and HTML entities."""
    return html.unescape(_TAG.sub("", snippet))


class WikipediaClient:
    """One language edition of Wikipedia, read through the shared HTTP layer."""

    def __init__(self, http: HttpClient, lang: str = "en", *, maxlag: int | None = 5) -> None:
        self.http = http
        self.lang = lang
        self.maxlag = maxlag
        self.api_url = f"https://{lang}.wikipedia.org/w/api.php"
        self._wiki = wikipediaapi.Wikipedia(
            user_agent=http.user_agent,
            language=lang,
            extract_format=wikipediaapi.ExtractFormat.WIKI,
            max_retries=0,
            extra_api_params={"maxlag": maxlag} if maxlag is not None else None,
            transport=HttpClientTransport(http),
        )

    @classmethod
    def from_settings(cls, http: HttpClient, settings: Settings) -> WikipediaClient:
        return cls(http, settings.wikipedia_lang, maxlag=settings.maxlag)

    def page_url(self, title: str) -> str:
        return f"https://{self.lang}.wikipedia.org/wiki/{quote(wiki_title(title), safe='()_,:')}"

    def page_extract(self, title: str, *, entity_id: str = "") -> Page | None:
        """The lead section as plain text (``prop=extracts&exintro&explaintext``).

        None when the page does not exist or has no lead text. Redirects are followed;
        the returned title is the target's."""
        page = self.page_extracts([title]).get(title)
        return None if page is None else page.model_copy(update={"entity_id": entity_id})

    def page_extracts(self, titles: Iterable[str]) -> dict[str, Page | None]:
        """Lead texts of several pages, 20 titles per request (the API's limit for intros).

        Keyed by the titles as given; None for a missing page or an empty lead. Done on our
        HTTP client directly: Wikipedia-API fetches one page per request."""
        given = list(dict.fromkeys(t for t in titles if t.strip()))
        out: dict[str, Page | None] = {}
        for start in range(0, len(given), EXTRACT_BATCH):
            batch = given[start : start + EXTRACT_BATCH]
            found = self._extract_batch([wiki_title(t) for t in batch])
            for title in batch:
                out[title] = found.get(wiki_title(title))
        return out

    def _extract_batch(self, titles: list[str]) -> dict[str, Page | None]:
        params: dict[str, object] = {
            "action": "query",
            "format": "json",
            "prop": "extracts",
            "exintro": 1,
            "explaintext": 1,
            "exlimit": len(titles),
            "redirects": 1,
            "titles": "|".join(titles),
        }
        if self.maxlag is not None:
            params["maxlag"] = self.maxlag
        alias: dict[str, str] = {}
        pages: dict[str, dict[str, Any]] = {}
        cont: dict[str, object] = {}
        for _ in range(len(titles) + 2):  # continuation: at most one round per title
            doc = self.http.get(self.api_url, {**params, **cont}).json()
            if isinstance(doc, dict) and isinstance(doc.get("error"), dict):
                err = doc["error"]
                raise ServiceError(
                    f"{self.api_url} extracts for {'|'.join(titles)[:200]}: API error "
                    f"{err.get('code')!r}: {err.get('info', '')}"
                )
            query = doc.get("query", {}) if isinstance(doc, dict) else {}
            for step in (*query.get("normalized", []), *query.get("redirects", [])):
                alias[str(step["from"])] = str(step["to"])
            for entry in query.get("pages", {}).values():
                known = pages.setdefault(str(entry.get("title", "")), {})
                known.update({k: v for k, v in entry.items() if k != "extract" or v})
            if not isinstance(doc.get("continue"), dict):
                break
            cont = dict(doc["continue"])
        out: dict[str, Page | None] = {}
        for title in titles:
            final = title
            for _ in range(4):  # normalized, then redirect (then a normalized redirect)
                final = alias.get(final, final)
            entry = pages.get(final) or pages.get(final.replace("_", " "))
            text = str(entry.get("extract") or "").strip() if entry else ""
            if entry is None or "missing" in entry or "invalid" in entry or not text:
                out[title] = None
                continue
            name = str(entry.get("title", final))
            out[title] = Page(
                entity_id="", title=name, url=self.page_url(name), text=text, lang=self.lang
            )
        return out

    def links(self, title: str) -> list[str]:
        """Titles the page links to (all namespaces, API order; follows ``plcontinue``)."""
        page = self._wiki.page(wiki_title(title))
        found = self._call(title, "links", lambda: self._wiki.links(page))
        return [str(t) for t in found]

    def categories(self, title: str) -> list[str]:
        """Category titles (``Category:…``) of the page, hidden ones included."""
        page = self._wiki.page(wiki_title(title))
        found = self._call(title, "categories", lambda: self._wiki.categories(page))
        return [str(t) for t in found]

    def search(self, query: str, limit: int = 10) -> list[WikiSearchResult]:
        """Full-text search in the main namespace, the wiki's relevance order."""
        found = self._call(query, "search", lambda: self._wiki.search(query, limit=limit))
        results: list[WikiSearchResult] = []
        for title, page in found.pages.items():
            meta = page.search_meta
            pageid = page.pageid  # set from the search entry: no extra request
            results.append(
                WikiSearchResult(
                    title=str(title),
                    pageid=int(pageid) if isinstance(pageid, int) and pageid > 0 else None,
                    snippet=plain_snippet(str(meta.snippet)) if meta else "",
                    size=int(meta.size) if meta else 0,
                    wordcount=int(meta.wordcount) if meta else 0,
                    timestamp=str(meta.timestamp) if meta else "",
                )
            )
        return results

    def _call(self, subject: str, what: str, fn: Callable[[], T]) -> T:
        try:
            return fn()
        except wikipediaapi.WikipediaException as exc:
            raise ServiceError(
                f"{self.lang}.wikipedia.org {what} for {subject!r}: {type(exc).__name__}: {exc}"
            ) from exc
        except (KeyError, TypeError) as exc:
            raise ServiceError(
                f"{self.lang}.wikipedia.org {what} for {subject!r}: unexpected response shape "
                f"({type(exc).__name__}: {exc})"
            ) from exc
