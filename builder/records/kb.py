"""Records returned by the knowledge store (``builder.kb.store``) and its importers.

Query results are frozen: they are answers, not working state. Times are Wikidata time
strings (``+2017-03-03T00:00:00Z``) so callers can render them at any precision.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class UpsertCounts(_Frozen):
    """How many entities a write added and how many replaced an existing one (same id)."""

    inserted: int = 0
    replaced: int = 0


class TimedValue(_Frozen):
    """One statement of a time-qualified group: its value and the qualifiers telling it apart."""

    statement_id: str | None = Field(description="Statement GUID, None when the source had none.")
    value_key: str = Field(description="DataValue.key() of the main value.")
    display: str = Field(description="Human text of the value (entity label, number, date).")
    rank: str = Field(description="preferred or normal (deprecated statements are never listed).")
    point_in_time: str | None = Field(None, description="P585 time string, if any.")
    start: str | None = Field(None, description="P580 start time string, if any.")
    end: str | None = Field(None, description="P582 end time string, if any.")


class TimeGroup(_Frozen):
    """A (subject, property) holding >= 2 non-deprecated values told apart by time qualifiers."""

    subject_id: str
    property: str
    values: list[TimedValue] = Field(description="Ordered by time (P585, else P580, else P582).")


class NumericValue(_Frozen):
    """The best-rank quantity of one entity for one property (latest P585 when several)."""

    entity_id: str
    amount: float
    unit: str | None = Field(None, description="Unit entity id (Q11573), None when unitless.")
    point_in_time: str | None = None


class SearchHit(_Frozen):
    """One full-text search result over page texts (BM25; higher score = better)."""

    entity_id: str
    title: str
    url: str
    snippet: str
    score: float


class KBStats(_Frozen):
    """Counts describing a snapshot store."""

    entities: int
    items: int
    properties: int
    statements: int
    qualified_statements: int
    pages: int
    completeness_declarations: int = 0
    per_domain: dict[str, int]
    snapshot_id: str | None = None
    snapshot_version: str | None = None


class BadRecord(_Frozen):
    """A record an importer could not read: where, and why. The import goes on without it."""

    path: Path
    line: int | None = Field(None, description="1-based line number, None for whole documents.")
    reason: str


class SkippedFile(_Frozen):
    """A file that holds no importable entities or pages (e.g. a search reply)."""

    path: Path
    reason: str


class ImportReport(BaseModel):
    """What ``import_paths`` did; filled in as the import runs."""

    model_config = ConfigDict(extra="forbid")

    imported: int = Field(0, description="Entities newly inserted.")
    replaced: int = Field(0, description="Entities that replaced one with the same id.")
    pages: int = Field(0, description="Pages inserted or replaced.")
    declarations: int = Field(0, description="Completeness declarations inserted or replaced.")
    skipped_records: int = Field(0, description="Records skipped on purpose (lexemes, missing).")
    skipped: list[BadRecord] = Field(
        default_factory=list, description="Why records were skipped (first 10,000)."
    )
    skipped_files: list[SkippedFile] = Field(default_factory=list)
    bad_count: int = Field(0, description="Records that could not be read (exact count).")
    bad_records: list[BadRecord] = Field(
        default_factory=list, description="File, line and reason of bad records (first 10,000)."
    )
    warnings: list[BadRecord] = Field(
        default_factory=list, description="Imported, but something looked off (e.g. id mismatch)."
    )
    files: int = Field(0, description="Files read.")
    snapshot_meta: dict[str, str] = Field(
        default_factory=dict, description="snapshot_id / snapshot_version read from snapshot.json."
    )

    @property
    def total(self) -> int:
        """Entities and pages written (inserted or replaced)."""
        return self.imported + self.replaced + self.pages


class QualifierView(_Frozen):
    """One qualifier of a statement, ready to print."""

    property: str
    property_label: str | None
    value: str


class StatementView(_Frozen):
    """One best-rank statement, values shown with labels."""

    value: str = Field(
        description="Display text; '(unknown value)' / '(no value)' for those snaks."
    )
    value_key: str | None
    rank: str
    qualifiers: list[QualifierView] = Field(default_factory=list)


class PropertyView(_Frozen):
    property: str
    property_label: str | None
    statements: list[StatementView]
    total: int = Field(description="All statements of the property, deprecated included.")


class EntityView(_Frozen):
    """What ``discobench kb show`` prints: an entity with labels resolved."""

    id: str
    kind: str
    label: str | None
    description: str | None
    aliases: list[str]
    datatype: str | None
    domain: str | None
    properties: list[PropertyView]
    has_page: bool
