"""Wikipedia client: page lead text, links, categories and full-text search.

Built on the ``wikipedia-api`` package (which knows the MediaWiki Action API's parameters,
pagination and response shapes), but every request it makes goes through *our*
:class:`~builder.kb.http.HttpClient`: Wikipedia-API (>= 0.10) speaks ``httpx`` and accepts a
custom ``transport``; :class:`HttpClientTransport` is that transport. So the cache
(record/replay), retries, maxlag handling and User-Agent are the same for Wikipedia as for
Wikidata, and Wikipedia-API's own retry loop is switched off (``max_retries=0``).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import TypeVar
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
        page = self._wiki.page(wiki_title(title))
        text = self._call(title, "extract", lambda: self._wiki.extracts(page, exintro=1))
        if not page.exists() or not str(text).strip():
            return None
        final = str(page.title)
        return Page(
            entity_id=entity_id,
            title=final,
            url=self.page_url(final),
            text=str(text).strip(),
            lang=self.lang,
            source="wikipedia",
        )

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
