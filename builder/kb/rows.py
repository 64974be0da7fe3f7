"""Turn one entity into the rows the store writes.

Works on the entity's wire dict (``Entity.to_wire()``), not on the pydantic objects: the
import of a 10^6-entity dump spends most of its time here, and plain dict access is several
times faster than parsing every datavalue into a typed record. ``value_key`` mirrors
``DataValue.key()`` exactly (a test checks them against each other on every fixture).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, cast

from builder.kb.wire import EntityDoc
from builder.records.wikidata import ENTITY_ID_PREFIX

RANKS = {"preferred": 2, "normal": 1, "deprecated": 0}
RANK_NAMES = {2: "preferred", 1: "normal", 0: "deprecated"}

StatementRow = tuple[
    str, str, int, int, str | None, int, int, str | None, str | None, str | None,
    float | None, str | None, str | None, str | None, str | None, int,
]  # fmt: skip
NameRow = tuple[str, str, int, int, str, str]


_NO_TIMES: tuple[None, None, None] = (None, None, None)


def dumps(doc: Any) -> str:
    """Compact JSON, UTF-8 kept as is."""
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":"))


def value_key(datavalue: dict[str, Any]) -> str:
    """``DataValue.key()`` on a wire dict (see the module docstring)."""
    kind = datavalue.get("type")
    value = datavalue.get("value")
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        try:
            if kind == "wikibase-entityid":
                if "id" in value:
                    return str(value["id"])
                prefix = ENTITY_ID_PREFIX.get(value.get("entity-type", "item"), "Q")
                return f"{prefix}{value['numeric-id']}"
            if kind == "time":
                return str(value["time"])
            if kind == "quantity":
                unit = value.get("unit", "1")
                amount = str(value["amount"])
                return amount if unit in ("1", "") else f"{amount}|{unit.rsplit('/', 1)[-1]}"
            if kind == "monolingualtext":
                return f"{value['language']}:{value['text']}"
            if kind == "globecoordinate":
                return f"{float(value['latitude'])},{float(value['longitude'])}"
        except (KeyError, TypeError, ValueError):
            pass
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _qualifier_time(qualifiers: dict[str, Any], pid: str) -> str | None:
    for snak in qualifiers.get(pid, ()):
        dv = snak.get("datavalue")
        if snak.get("snaktype", "value") == "value" and dv and dv.get("type") == "time":
            value = dv.get("value")
            if isinstance(value, dict) and isinstance(value.get("time"), str):
                return str(value["time"])
    return None


def _amount(value: Any) -> tuple[float | None, str | None]:
    if not isinstance(value, dict):
        return None, None
    try:
        amount = float(value["amount"])
    except (KeyError, TypeError, ValueError):
        return None, None
    unit = value.get("unit", "1")
    return amount, None if unit in ("1", "") else str(unit).rsplit("/", 1)[-1]


@dataclass(frozen=True)
class EntityRows:
    """Everything the store writes for one entity."""

    id: str
    kind: str
    datatype: str | None
    doc: str
    statements: list[StatementRow]
    names: list[NameRow]


def entity_rows(
    wire: EntityDoc | dict[str, Any],
    languages: Iterable[str],
    normalize: Callable[[str], str],
    text: str | None = None,
) -> EntityRows:
    """Rows for one entity wire dict. ``normalize`` is ``builder.kb.text.normalize_name``;
    ``text``: the document's JSON when the caller has it already (a dump line)."""
    wire = cast(dict[str, Any], wire)  # read as plain JSON below: keys are checked by .get
    entity_id = str(wire["id"])
    claims: dict[str, list[dict[str, Any]]] = wire.get("claims") or {}
    doc = text if text is not None else dumps(wire)
    statements: list[StatementRow] = []
    ordinal = 0
    for pid, group in claims.items():
        ranks = [RANKS.get(s.get("rank", "normal"), 1) for s in group]
        top = 2 if 2 in ranks else 1
        for pos, (statement, rank) in enumerate(zip(group, ranks, strict=True)):
            snak = statement.get("mainsnak") or {}
            dv = snak.get("datavalue") if snak.get("snaktype", "value") == "value" else None
            qualifiers = statement.get("qualifiers")
            if qualifiers:
                times = (
                    _qualifier_time(qualifiers, "P585") if "P585" in qualifiers else None,
                    _qualifier_time(qualifiers, "P580") if "P580" in qualifiers else None,
                    _qualifier_time(qualifiers, "P582") if "P582" in qualifiers else None,
                )
            else:
                times = _NO_TIMES
            kind = dv.get("type") if dv else None
            amount, unit = _amount(dv.get("value")) if dv and kind == "quantity" else (None, None)
            statements.append(
                (
                    entity_id, pid, ordinal, pos, statement.get("id"), rank, int(rank == top),
                    kind, value_key(dv) if dv else None, snak.get("datatype"), amount, unit,
                    *times, int(bool(qualifiers)),
                )
            )  # fmt: skip
            ordinal += 1
    names: list[NameRow] = []
    labels = wire.get("labels") or {}
    aliases = wire.get("aliases") or {}
    for lang in languages:
        label = labels.get(lang)
        if label and label.get("value"):
            names.append((entity_id, lang, 0, 0, label["value"], normalize(label["value"])))
        for pos, alias in enumerate(aliases.get(lang) or ()):
            if alias.get("value"):
                names.append((entity_id, lang, 1, pos, alias["value"], normalize(alias["value"])))
    return EntityRows(
        id=entity_id,
        kind=str(wire.get("type", "item")),
        datatype=wire.get("datatype"),
        doc=doc,
        statements=statements,
        names=names,
    )
