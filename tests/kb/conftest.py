"""KB test helpers: fresh stores, the fixture store, small hand-made entities."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from builder.kb.importers import import_paths
from builder.kb.store import KnowledgeStore
from builder.records.wikidata import Entity


@pytest.fixture
def store(tmp_path: Path) -> Iterator[KnowledgeStore]:
    with KnowledgeStore.open(tmp_path / "kb.sqlite") as s:
        yield s


@pytest.fixture(scope="module")
def fixture_store(
    tmp_path_factory: pytest.TempPathFactory, fixtures_dir: Path
) -> Iterator[KnowledgeStore]:
    """Every entity file under fixtures/wikidata imported once per test module."""
    path = tmp_path_factory.mktemp("kb") / "kb.sqlite"
    with KnowledgeStore.open(path) as s:
        import_paths(s, [fixtures_dir / "wikidata"], progress=False)
        yield s


def item_snak(pid: str, target: str) -> dict[str, Any]:
    return {
        "snaktype": "value",
        "property": pid,
        "datatype": "wikibase-item",
        "datavalue": {"type": "wikibase-entityid", "value": {"entity-type": "item", "id": target}},
    }


def quantity_snak(pid: str, amount: str, unit: str = "1") -> dict[str, Any]:
    return {
        "snaktype": "value",
        "property": pid,
        "datatype": "quantity",
        "datavalue": {"type": "quantity", "value": {"amount": amount, "unit": unit}},
    }


def time_snak(pid: str, time: str) -> dict[str, Any]:
    value = {"time": time, "precision": 11, "timezone": 0, "before": 0, "after": 0}
    return {
        "snaktype": "value",
        "property": pid,
        "datatype": "time",
        "datavalue": {"type": "time", "value": value},
    }


def statement(
    snak: dict[str, Any], rank: str = "normal", qualifiers: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    quals: dict[str, list[dict[str, Any]]] = {}
    for q in qualifiers or []:
        quals.setdefault(q["property"], []).append(q)
    return {"type": "statement", "mainsnak": snak, "rank": rank, "qualifiers": quals}


def make_entity(
    entity_id: str,
    label: str,
    claims: list[dict[str, Any]] = (),  # type: ignore[assignment]
    aliases: list[str] = (),  # type: ignore[assignment]
) -> Entity:
    grouped: dict[str, list[dict[str, Any]]] = {}
    for st in claims:
        grouped.setdefault(st["mainsnak"]["property"], []).append(st)
    doc = {
        "id": entity_id,
        "type": "item",
        "labels": {"en": {"language": "en", "value": label}},
        "aliases": {"en": [{"language": "en", "value": a} for a in aliases]},
        "claims": grouped,
    }
    return Entity.model_validate(doc)


def write_dump(
    path: Path, docs: list[dict[str, Any]], extra_lines: dict[int, str] | None = None
) -> Path:
    """A Wikidata-dump-shaped file: ``[``, one entity per line with commas, ``]``.

    ``extra_lines``: {index in docs: raw line inserted before that doc} for malformed input.
    """
    lines = ["["]
    for i, doc in enumerate(docs):
        if extra_lines and i in extra_lines:
            lines.append(extra_lines[i] + ",")
        lines.append(json.dumps(doc) + ("," if i < len(docs) - 1 else ""))
    lines.append("]")
    data = ("\n".join(lines) + "\n").encode()
    if path.suffix == ".gz":
        import gzip

        data = gzip.compress(data)
    elif path.suffix == ".bz2":
        import bz2

        data = bz2.compress(data)
    path.write_bytes(data)
    return path


def fixture_docs(fixtures_dir: Path) -> list[dict[str, Any]]:
    """Every item/property document in the Wikidata fixtures (the id the document gives)."""
    docs: list[dict[str, Any]] = []
    for file in sorted((fixtures_dir / "wikidata").rglob("*.json")):
        data = json.loads(file.read_text())
        found = list(data["entities"].values()) if "entities" in data else [data]
        docs += [d for d in found if d.get("type") in ("item", "property") and "missing" not in d]
    return docs
