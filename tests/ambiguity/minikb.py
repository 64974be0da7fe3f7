"""Small hand-built knowledge bases for seeding/injection tests, written into a real store.

``ent(id, label, cls, claims, page)``: claims map a property to a value or a list of values;
a value is an id (``L:…``/``Q…``), a date string (``2017-03-03`` / ``2017``), a number, or a
dict ``{"v": value, "P580": "2002", "rank": "preferred"}`` for qualifiers and rank.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from builder.kb.store import KnowledgeStore
from builder.records.completeness import Declaration
from builder.records.page import Page
from builder.records.wikidata import Entity

PROPS: dict[str, tuple[str, str]] = {
    "P31": ("instance of", "wikibase-item"),
    "P279": ("subclass of", "wikibase-item"),
    "P17": ("country", "wikibase-item"),
    "P36": ("capital", "wikibase-item"),
    "P19": ("place of birth", "wikibase-item"),
    "P21": ("sex or gender", "wikibase-item"),
    "P30": ("continent", "wikibase-item"),
    "P57": ("director", "wikibase-item"),
    "P106": ("occupation", "wikibase-item"),
    "P112": ("founded by", "wikibase-item"),
    "P136": ("genre", "wikibase-item"),
    "P159": ("headquarters location", "wikibase-item"),
    "P166": ("award received", "wikibase-item"),
    "P169": ("chief executive officer", "wikibase-item"),
    "P178": ("developer", "wikibase-item"),
    "P400": ("platform", "wikibase-item"),
    "P569": ("date of birth", "time"),
    "P571": ("inception", "time"),
    "P577": ("publication date", "time"),
    "P580": ("start time", "time"),
    "P582": ("end time", "time"),
    "P585": ("point in time", "time"),
    "P1082": ("population", "quantity"),
    "P2046": ("area", "quantity"),
    "P4511": ("vertical depth", "quantity"),
    "P2142": ("box office", "quantity"),
    "P2130": ("cost", "quantity"),
    "P2047": ("duration", "quantity"),
    "P828": ("has cause", "wikibase-item"),
}


def _time(text: str) -> dict[str, Any]:
    parts = text.split("-")
    precision = {1: 9, 2: 10, 3: 11}[len(parts)]
    full = "-".join([*parts, *(["00"] * (3 - len(parts)))])
    return {
        "time": f"+{full}T00:00:00Z",
        "precision": precision,
        "timezone": 0,
        "before": 0,
        "after": 0,
        "calendarmodel": "http://www.wikidata.org/entity/Q1985727",
    }


def _datavalue(pid: str, value: Any) -> dict[str, Any]:
    dtype = PROPS[pid][1]
    if dtype == "wikibase-item":
        return {"type": "wikibase-entityid", "value": {"entity-type": "item", "id": value}}
    if dtype == "time":
        return {"type": "time", "value": _time(str(value))}
    return {"type": "quantity", "value": {"amount": f"+{value}", "unit": "1"}}


def _snak(pid: str, value: Any) -> dict[str, Any]:
    return {
        "snaktype": "value",
        "property": pid,
        "datatype": PROPS[pid][1],
        "datavalue": _datavalue(pid, value),
    }


def _statements(pid: str, raw: Any, eid: str) -> list[dict[str, Any]]:
    out = []
    for i, item in enumerate(raw if isinstance(raw, list) else [raw]):
        spec = item if isinstance(item, dict) else {"v": item}
        quals = {q: [_snak(q, spec[q])] for q in ("P580", "P582", "P585") if q in spec}
        out.append(
            {
                "id": f"{eid}${pid}-{i}",
                "type": "statement",
                "mainsnak": _snak(pid, spec["v"]),
                "rank": spec.get("rank", "normal"),
                "qualifiers": quals,
                "qualifiers-order": list(quals),
            }
        )
    return out


def ent(
    eid: str,
    label: str,
    cls: str | None = None,
    claims: dict[str, Any] | None = None,
    page: str | None = None,
    aliases: tuple[str, ...] = (),
    description: str = "",
) -> tuple[Entity, Page | None]:
    all_claims = dict(claims or {})
    if cls:
        all_claims["P31"] = cls
    doc = {
        "id": eid,
        "type": "item",
        "labels": {"en": {"language": "en", "value": label}},
        "aliases": {"en": [{"language": "en", "value": a} for a in aliases]},
        "descriptions": {"en": {"language": "en", "value": description}} if description else {},
        "claims": {pid: _statements(pid, v, eid) for pid, v in all_claims.items()},
    }
    pg = (
        Page(
            entity_id=eid,
            title=label,
            url=f"https://example.org/{eid}",
            text=page,
            source="bundled",
        )
        if page
        else None
    )
    return Entity.model_validate(doc), pg


def closed_world(entities: list[Entity]) -> list[Declaration]:
    """Declarations that make a hand-built world its own real world: every entity's values of
    every property, and every entity holding each value, are complete (nothing exists outside
    the test world), so the validity model certifies over it as it would over a real set."""
    out: dict[str, Declaration] = {}
    for e in entities:
        for pid, statements in e.claims.items():
            out[f"fwd:{e.id}:{pid}"] = Declaration(
                id=f"fwd:{e.id}:{pid}", subject=e.id, property=pid, direction="forward",
                as_of="2026-01-01", scope=f"all {pid} of {e.id}",
            )  # fmt: skip
            for st in statements:
                if st.value is not None and st.value.type == "wikibase-entityid":
                    v = st.value.key()
                    out[f"inv:{v}:{pid}"] = Declaration(
                        id=f"inv:{v}:{pid}", subject=v, property=pid, direction="inverse",
                        as_of="2026-01-01", scope=f"everything with {pid} {v}",
                    )  # fmt: skip
    return list(out.values())


def _constraint(pid: str, i: int, qid: str, dated: bool) -> dict[str, Any]:
    """A P2302 statement as Wikidata writes it (single-value / required-qualifier P585)."""
    value = {"entity-type": "item", "id": qid, "numeric-id": int(qid[1:])}
    st: dict[str, Any] = {
        "id": f"{pid}$P2302-{i}",
        "type": "statement",
        "rank": "normal",
        "mainsnak": {
            "snaktype": "value",
            "property": "P2302",
            "datatype": "wikibase-item",
            "datavalue": {"type": "wikibase-entityid", "value": value},
        },
    }
    if dated:
        p585 = {"entity-type": "property", "id": "P585", "numeric-id": 585}
        snak = {"snaktype": "value", "property": "P2306", "datatype": "wikibase-property",
                "datavalue": {"type": "wikibase-entityid", "value": p585}}  # fmt: skip
        st["qualifiers"] = {"P2306": [snak]}
        st["qualifiers-order"] = ["P2306"]
    return st


def build_store(
    path: Path,
    items: list[tuple[Entity, Page | None]],
    *,
    closed: bool = True,
    single_valued: frozenset[str] = frozenset(),
    dated: frozenset[str] = frozenset(),
    declarations: tuple[Declaration, ...] = (),
) -> KnowledgeStore:
    """A real store of ``items``. ``closed``: declare the hand-built world complete (it is
    the whole world of the test); otherwise only ``declarations`` hold, and the properties in
    ``single_valued`` / ``dated`` carry Wikidata's P2302 constraints."""
    store = KnowledgeStore.open(path)
    props = []
    for pid, (label, dtype) in PROPS.items():
        claims = []
        if pid in single_valued:
            claims.append(_constraint(pid, 0, "Q19474404", False))
        if pid in dated:
            claims.append(_constraint(pid, 1, "Q21510856", True))
        doc = {
            "id": pid,
            "type": "property",
            "datatype": dtype,
            "labels": {"en": {"language": "en", "value": label}},
            "claims": {"P2302": claims} if claims else {},
        }
        props.append(Entity.model_validate(doc))
    store.upsert_entities([*props, *(e for e, _ in items)])
    store.upsert_pages([p for _, p in items if p is not None])
    if closed:
        store.upsert_declarations(closed_world([e for e, _ in items]))
    store.upsert_declarations(declarations)
    store.set_meta("snapshot_id", "minikb")
    store.set_meta("snapshot_version", "2026-01-01")
    return store


def build_store_with(
    path: Path,
    props: Mapping[str, tuple[str, str]],
    world: Callable[[], list[tuple[Entity, Page | None]]],
    **kw: Any,
) -> KnowledgeStore:
    """:func:`build_store` of a world that uses properties beyond :data:`PROPS`: ``world``
    is made, and the store written, with ``props`` known; :data:`PROPS` is as before after."""
    saved = dict(PROPS)
    PROPS.update(props)
    try:
        return build_store(path, world(), **kw)
    finally:
        PROPS.clear()
        PROPS.update(saved)
