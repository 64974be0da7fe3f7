"""Records returned by the live sources (Wikidata and Wikipedia clients) and by ``kb fetch``."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from builder.records.wikidata import Entity


class SearchMatch(BaseModel):
    """One hit of Wikidata's ``wbsearchentities`` (label/alias prefix search)."""

    model_config = ConfigDict(frozen=True)

    id: str = Field(description="Entity id, e.g. Q169889.")
    label: str = ""
    description: str = ""
    aliases: list[str] = Field(default_factory=list)
    match_type: str = Field("", description="What matched: label, alias, entityId…")
    match_text: str = Field("", description="The matching label or alias text.")
    match_language: str = ""
    concept_uri: str = ""


class EntityLookup(BaseModel):
    """Result of fetching entities by id: found documents, ids Wikidata says are missing, and
    ids that were answered under another id (redirects / merged items: requested → returned)."""

    entities: list[Entity] = Field(default_factory=list)
    missing: list[str] = Field(default_factory=list)
    redirects: dict[str, str] = Field(default_factory=dict)
    skipped: dict[str, str] = Field(
        default_factory=dict, description="Ids not fetched or not readable → reason."
    )


class WikiSearchResult(BaseModel):
    """One hit of MediaWiki full-text search (``list=search``)."""

    model_config = ConfigDict(frozen=True)

    title: str
    pageid: int | None = None
    snippet: str = Field("", description="Plain text (search-match markup removed).")
    size: int = 0
    wordcount: int = 0
    timestamp: str = ""


class FetchFailure(BaseModel):
    """One item ``kb fetch`` could not fetch; the run went on without it."""

    model_config = ConfigDict(frozen=True)

    id: str
    stage: Literal["entity", "page"]
    reason: str


class FetchReport(BaseModel):
    """What one ``kb fetch`` run did. Ids are in the order they were processed."""

    requested: list[str] = Field(default_factory=list, description="Ids given by the caller.")
    fetched: list[str] = Field(default_factory=list, description="Entities written to the store.")
    skipped: list[str] = Field(
        default_factory=list, description="Already in the store (no --refresh): not re-fetched."
    )
    pages: int = Field(0, description="Pages written to the store.")
    no_page: list[str] = Field(
        default_factory=list, description="Entities without a page in the wiki's language."
    )
    missing: list[str] = Field(default_factory=list, description="Ids Wikidata does not know.")
    redirects: dict[str, str] = Field(default_factory=dict)
    failures: list[FetchFailure] = Field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures
