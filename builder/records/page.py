"""Page text: one per entity (Wikipedia lead or the bundled summary), for search and evidence."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Page(BaseModel):
    """One page of text about one entity. JSONL of these is an importable page file."""

    model_config = ConfigDict(extra="forbid")

    entity_id: str = Field(description="The KB entity the page is about (Q…, or a local id).")
    title: str = Field(description="Page title, e.g. the Wikipedia article title.")
    url: str = Field("", description="Canonical URL of the page, empty for local text.")
    text: str = Field(description="Plain text (lead section or summary).")
    lang: str = Field("en", description="Language code of the text.")
    source: str = Field(
        "wikipedia", description="Where the text comes from: wikipedia, bundled, or other."
    )
