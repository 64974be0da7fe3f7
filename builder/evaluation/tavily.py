"""Tavily web search (``POST https://api.tavily.com/search``, Bearer key from TAVILY_API_KEY).

Wire format (docs.tavily.com): request ``{"query", "max_results", "search_depth",
"include_answer", "include_raw_content"}``; response ``{"query", "results": [{"title",
"url", "content", "score", ...}], "response_time", ...}``. Retries on 429/5xx with backoff.
"""

from __future__ import annotations

import time
from typing import Any

import requests
from pydantic import SecretStr

from builder.errors import ServiceError
from builder.evaluation.search import SearchResult

TAVILY_URL = "https://api.tavily.com/search"


class TavilySearch:
    name = "tavily"

    def __init__(
        self,
        api_key: SecretStr,
        *,
        url: str = TAVILY_URL,
        timeout: float = 30.0,
        retries: int = 4,
        backoff_base: float = 1.0,
        search_depth: str = "basic",
        session: requests.Session | None = None,
    ) -> None:
        self._key = api_key
        self.url = url
        self.timeout = timeout
        self.retries = retries
        self.backoff_base = backoff_base
        self.search_depth = search_depth
        self.session = session or requests.Session()

    def __repr__(self) -> str:  # never show the key
        return f"TavilySearch(url={self.url!r})"

    def identity(self) -> str:
        return f"{self.url}|{self.search_depth}"

    def search(self, query: str, k: int) -> list[SearchResult]:
        body: dict[str, Any] = {
            "query": query,
            "max_results": k,
            "search_depth": self.search_depth,
            "include_answer": False,
            "include_raw_content": False,
        }
        headers = {"Authorization": f"Bearer {self._key.get_secret_value()}"}
        for attempt in range(self.retries + 1):
            try:
                resp = self.session.post(self.url, json=body, headers=headers, timeout=self.timeout)
            except requests.RequestException as exc:
                if attempt == self.retries:
                    raise ServiceError(
                        f"Tavily search failed: {type(exc).__name__}",
                        hint="check the network; a re-run resumes",
                    ) from None
            else:
                if resp.status_code == 200:
                    return self._parse(resp.json())
                if resp.status_code != 429 and resp.status_code < 500:
                    raise ServiceError(
                        f"Tavily refused the search: HTTP {resp.status_code}",
                        hint="check TAVILY_API_KEY and your plan's limits",
                    )
                if attempt == self.retries:
                    raise ServiceError(
                        f"Tavily search failed after {attempt + 1} attempts: "
                        f"HTTP {resp.status_code}",
                        hint="wait for the rate limit to reset; a re-run resumes",
                    )
            time.sleep(self.backoff_base * 2**attempt)
        raise AssertionError("unreachable")

    @staticmethod
    def _parse(payload: Any) -> list[SearchResult]:
        if not isinstance(payload, dict) or not isinstance(payload.get("results"), list):
            raise ServiceError("Tavily response has no 'results' list")
        return [
            SearchResult(
                title=str(r.get("title", "")),
                url=str(r.get("url", "")),
                snippet=str(r.get("content", "")),
                score=float(r.get("score") or 0.0),
            )
            for r in payload["results"]
            if isinstance(r, dict)
        ]
