"""Read entity and page records from files, whatever their layout, one record at a time.

Layouts: ``wbgetentities`` replies (``{"entities": {...}}``), single entity documents, JSON
arrays of entity documents, Wikidata JSON dumps (``[`` / one entity per line / ``]``, plain,
``.gz`` or ``.bz2``, streamed line by line) and JSONL of entity documents or of pages. Each
record comes out as a :class:`Record`: a typed entity or page, or the reason it was skipped
or is bad, with its file and line.
"""

from __future__ import annotations

import bz2
import gzip
import io
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from pydantic import TypeAdapter, ValidationError

from builder.kb.wire import ENTITY_DOC, EntityDoc
from builder.records.completeness import CompletenessFile, Declaration
from builder.records.page import Page
from builder.records.wikidata import AnyEntity, Entity, Lexeme

ENTITY_ADAPTER: TypeAdapter[Entity | Lexeme] = TypeAdapter(AnyEntity)
JSON_SUFFIXES = (".json", ".jsonl", ".ndjson")
SNAPSHOT_KEYS = {"snapshot_id", "snapshot_version"}  # snapshot.json of the bundled snapshot
COMPRESSED = {".gz": gzip.open, ".bz2": bz2.open}


@dataclass(frozen=True)
class Record:
    """One record read from a file. Exactly one of doc/page/skip/bad is set.

    ``doc`` is an entity document validated against the wire types (:mod:`builder.kb.wire`),
    which accept exactly what :class:`Entity` accepts.
    """

    path: Path
    line: int | None
    doc: EntityDoc | None = None
    text: str | None = None  # the document's JSON text when read from a line, stored as is
    page: Page | None = None
    skip: str | None = None  # skipped on purpose (lexeme, missing entity): the reason
    bad: str | None = None  # could not be read: the reason
    warning: str | None = None  # imported, but something looked off
    meta: dict[str, str] | None = None  # snapshot.json: snapshot_id / snapshot_version
    declarations: list[Declaration] | None = None  # completeness.json


class FileSkipped(Exception):
    """The file holds no entities or pages; the message says what it seems to be."""


def is_importable(path: Path) -> bool:
    name = path.name.lower()
    for suffix in COMPRESSED:
        name = name.removesuffix(suffix)
    return name.endswith(JSON_SUFFIXES)


def open_text(path: Path) -> tuple[IO[str], IO[bytes]]:
    """The file as text (decompressed when .gz/.bz2), plus the raw byte stream for progress."""
    raw = open(path, "rb")  # noqa: SIM115 - closed by the caller
    opener = COMPRESSED.get(path.suffix.lower())
    binary: IO[bytes] = opener(raw) if opener else raw  # type: ignore[operator]
    return io.TextIOWrapper(binary, encoding="utf-8"), raw


def _reason(exc: ValidationError) -> str:
    err = exc.errors(include_url=False)[0]
    loc = ".".join(str(p) for p in err["loc"] if p not in ("entity", "lexeme"))
    more = f" (+{exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    return f"{loc or 'document'}: {err['msg']}{more}"


def parse_entity(raw: dict[str, Any] | str, path: Path, line: int | None) -> Record:
    """One entity document (parsed dict or raw JSON text) as a Record."""
    if isinstance(raw, dict) and "missing" in raw:
        return Record(path, line, skip=f"entity {raw.get('id', '?')} is missing at source")
    try:
        # fast path: the wire TypedDicts, validated in pydantic-core straight from the text
        if isinstance(raw, str):
            return Record(path, line, doc=ENTITY_DOC.validate_json(raw), text=raw)
        return Record(path, line, doc=ENTITY_DOC.validate_python(raw))
    except ValidationError as first:
        error = first
    # slow path: lexemes, PHP's [] for empty maps, or a real error to report
    try:
        data = json.loads(raw) if isinstance(raw, str) else raw
    except json.JSONDecodeError as exc:
        return Record(path, line, bad=f"invalid JSON: {exc.msg} at column {exc.colno}")
    if not isinstance(data, dict):
        return Record(path, line, bad=f"expected an entity object, got {type(data).__name__}")
    if "missing" in data:
        return Record(path, line, skip=f"entity {data.get('id', '?')} is missing at source")
    kind = data.get("type")
    if kind not in (None, "item", "property", "lexeme", "form", "sense"):
        return Record(path, line, skip=f"unsupported entity type {kind!r}")
    try:
        parsed = ENTITY_ADAPTER.validate_python(data)
    except ValidationError:
        return Record(path, line, bad=_reason(error))
    if isinstance(parsed, Lexeme):
        return Record(path, line, skip=f"lexeme {parsed.id} (lexemes are not imported)")
    return Record(path, line, doc=ENTITY_DOC.validate_python(parsed.to_wire()))


def parse_page(text: str, path: Path, line: int | None) -> Record:
    try:
        return Record(path, line, page=Page.model_validate_json(text))
    except ValidationError as exc:
        return Record(path, line, bad=_reason(exc))


def read_records(path: Path, progress: Callable[[int], None] | None = None) -> Iterator[Record]:
    """Every record in one file. Raises :class:`FileSkipped` for files without entities.

    ``progress`` is called now and then with the bytes of the file read so far (compressed
    bytes for .gz/.bz2), so a caller can show progress through a big dump.
    """
    text, raw = open_text(path)
    with raw, text:
        first = text.readline()
        if first.strip() == "[":
            second = text.readline()
            if _complete_object(second):
                yield from _reporting(_dump_lines(path, text, second), raw, progress)
                return
            first += second
        name = path.name.lower()
        if any(s in name for s in (".jsonl", ".ndjson")):
            yield from _reporting(_jsonl(path, text, first), raw, progress)
            return
        body = first + text.read()
    yield from _document(path, body)


def _reporting(
    records: Iterator[Record], raw: IO[bytes], progress: Callable[[int], None] | None
) -> Iterator[Record]:
    for n, record in enumerate(records):
        if progress is not None and n % 2000 == 0:
            progress(raw.tell())
        yield record


def _complete_object(line: str) -> bool:
    s = line.strip().removesuffix(",")
    if not (s.startswith("{") and s.endswith("}")):
        return False
    try:
        json.loads(s)
    except json.JSONDecodeError:
        return False
    return True


def _dump_lines(path: Path, text: IO[str], second: str) -> Iterator[Record]:
    """A Wikidata dump: line 1 ``[``, then one entity per line (comma-ended), last ``]``."""
    yield parse_entity(second.strip().removesuffix(","), path, 2)
    for number, line in enumerate(text, start=3):
        s = line.strip()
        if s in ("", "]"):
            continue
        yield parse_entity(s.removesuffix(","), path, number)


def _jsonl(path: Path, text: IO[str], first: str) -> Iterator[Record]:
    pages: bool | None = None
    for number, line in enumerate(_chain(first, text), start=1):
        s = line.strip()
        if not s:
            continue
        if pages is None:  # the first record decides: pages carry entity_id and text
            try:
                head = json.loads(s)
            except json.JSONDecodeError as exc:
                yield Record(path, number, bad=f"invalid JSON: {exc.msg} at column {exc.colno}")
                continue
            pages = isinstance(head, dict) and "entity_id" in head and "text" in head
        yield parse_page(s, path, number) if pages else parse_entity(s, path, number)


def _chain(first: str, rest: IO[str]) -> Iterator[str]:
    yield first
    yield from rest


def _document(path: Path, body: str) -> Iterator[Record]:
    """A whole-file JSON document: wbgetentities reply, entity, or array of either kind."""
    try:
        data = json.loads(body)
    except json.JSONDecodeError as exc:
        yield Record(path, exc.lineno, bad=f"invalid JSON: {exc.msg} at column {exc.colno}")
        return
    if isinstance(data, dict) and isinstance(data.get("entities"), dict):
        for key, doc in data["entities"].items():
            record = parse_entity(doc, path, None)
            if record.doc is not None and record.doc["id"] != key:
                real = record.doc["id"]
                msg = f"reply key {key} holds entity {real}; stored as {real}"
                record = Record(path, None, doc=record.doc, warning=msg)
            yield record
    elif isinstance(data, dict) and data and set(data) <= SNAPSHOT_KEYS:
        yield Record(path, None, meta={k: str(v) for k, v in data.items()})
    elif isinstance(data, dict) and set(data) == {"declarations"}:
        try:
            found = CompletenessFile.model_validate(data).declarations
        except ValidationError as exc:
            yield Record(path, None, bad=f"not a completeness file: {_reason(exc)}")
            return
        yield Record(path, None, declarations=found)
    elif isinstance(data, dict) and "id" in data and "type" in data:
        yield parse_entity(data, path, None)
    elif isinstance(data, list):
        for index, doc in enumerate(data):
            if isinstance(doc, dict) and "entity_id" in doc and "text" in doc:
                yield parse_page(json.dumps(doc), path, None)
            else:
                record = parse_entity(doc, path, None)
                if record.bad:
                    record = Record(path, None, bad=f"element {index}: {record.bad}")
                yield record
    else:
        raise FileSkipped(_what(data))


def _what(data: Any) -> str:
    if isinstance(data, dict):
        if "search" in data and "searchinfo" in data:
            return "a wbsearchentities reply (search results, no entity documents)"
        if "query" in data:
            return "an action=query reply (no entity documents)"
        return f"a JSON object without entities (keys: {', '.join(list(data)[:5])})"
    return f"a JSON {type(data).__name__}, not entities"
