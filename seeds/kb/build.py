"""Build the bundled knowledge snapshot from its YAML sources.

Reads ``seeds/kb/src/properties.yaml`` and every ``seeds/kb/src/*.yaml``, validates each
entry (errors name the file, the entity id and the field), and writes, deterministically:

- ``entities.json``  — Wikidata dump layout: ``[``, one entity JSON per line with a trailing
  comma, ``]``; items, the property entities, the class / occupation / unit entities;
- ``pages.jsonl``    — one ``builder.records.Page`` per item (source ``bundled``);
- ``snapshot.json``  — ``{"snapshot_id": ..., "snapshot_version": <date facts are as of>}``;
- ``completeness.json`` — the completeness declarations (``complete:`` in the sources): sets
  known to be complete in the real world, which the validity model certifies uniqueness over.

Properties may carry ``single_value: true`` (one value per subject in the real world: written
as Wikidata's single-value constraint, P2302 = Q19474404) and ``dated: true`` (a quantity that
changes over time, asked only with its date: P2302 = Q21510856 with P2306 = P585).

``--check`` prints the snapshot figures (the same definitions as
``tests/seeds/test_bundled_snapshot.py``) and every problem found, without writing.

Run: ``python seeds/kb/build.py [--check] [--only GLOB] [--out DIR]``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import fnmatch
import json
import re
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
sys.path.insert(0, str(HERE))

from figures import TARGETS, as_entities, compute  # noqa: E402  (sibling module)

from builder.kb.domains import (  # noqa: E402
    CLASS_DOMAIN,
    CLASS_LABELS,
    HUMAN,
    OCCUPATION_DOMAINS,
)
from builder.records.completeness import CompletenessFile, Declaration  # noqa: E402
from builder.records.page import Page  # noqa: E402
from builder.records.sample import DOMAINS  # noqa: E402

SNAPSHOT_ID = "discobench-bundled"
SNAPSHOT_VERSION = "2024-12-31"  # facts are as of this date unless dated by qualifiers

UNITS: dict[str, tuple[str, str]] = {
    "USD": ("Q4917", "United States dollar"),
    "EUR": ("Q4916", "euro"),
    "GBP": ("Q25224", "pound sterling"),
    "JPY": ("Q8146", "Japanese yen"),
    "km": ("Q828224", "kilometre"),
    "km2": ("Q712226", "square kilometre"),
    "m": ("Q11573", "metre"),
    "kg": ("Q11570", "kilogram"),
    "minute": ("Q7727", "minute"),
    "year": ("Q577", "year"),
    "m3/s": ("Q794261", "cubic metre per second"),
}
# Real Wikidata items used as plain values (not classes); emitted so nothing dangles.
VALUE_ENTITIES: dict[str, str] = {
    "Q6581097": "male",
    "Q6581072": "female",
    "Q19474404": "single-value constraint",
    "Q21510856": "required qualifier constraint",
}
ENTITY_TYPE = "wikibase-entityid"
SINGLE_VALUE = "Q19474404"
REQUIRED_QUALIFIER = "Q21510856"
PROPERTY_FLAGS = {"single_value", "dated"}
# properties the constraint statements themselves use
CONSTRAINT_PROPERTIES = {
    "P2302": ("property constraint", "wikibase-item"),
    "P2306": ("property", "wikibase-property"),
}
OCCUPATION_COMMENT = re.compile(r'^\s*"([^"]+)":\s*"\w+",\s*#\s*(.+?)\s*$', re.MULTILINE)


def occupation_labels() -> dict[str, str]:
    """Occupation labels from the comments in builder/kb/domains.py (the one table)."""
    import builder.kb.domains as domains_module

    text = Path(domains_module.__file__).read_text(encoding="utf-8")
    found = dict(OCCUPATION_COMMENT.findall(text))
    return {
        occ: found.get(occ) or occ.removeprefix("L:occ-").replace("-", " ")
        for occ in OCCUPATION_DOMAINS
    }


DATATYPES = {"wikibase-item", "time", "quantity", "string", "monolingualtext", "external-id"}
TIME_QUALIFIERS = ("P585", "P580", "P582")
ENTITY_ID = re.compile(r"^L:[a-z0-9]+(?:-[a-z0-9]+)*$")
REF_ID = re.compile(r"^(?:L:[a-z0-9]+(?:-[a-z0-9]+)*|Q[1-9][0-9]*)$")
DATE = re.compile(r"^(-?)(\d{1,4})(?:-(\d{2})(?:-(\d{2}))?)?$")
# A sentence end: . ! or ? before a space or the end, not after an initial ("J.") or a
# common abbreviation ("St.", "Co.", "Inc.", "Jr.", "D.C." ends in an initial).
SENTENCE_END = re.compile(
    r"(?<!\b[A-Z])(?<!\bSt)(?<!\bCo)(?<!\bJr)(?<!\bSr)(?<!\bInc)(?<!\bNo)(?<!\bMt)(?<!\bvs)(?<!\bv)"
    r"[.!?](?:\s|$)"
)
CALENDAR = "http://www.wikidata.org/entity/Q1985727"
ENTITY_URI = "http://www.wikidata.org/entity/"
STATEMENT_KEYS = {"v", "unit", "rank"}


@dataclass
class Problems:
    """Every problem found, so one run reports them all."""

    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def error(self, where: str, message: str) -> None:
        self.errors.append(f"{where}: {message}")

    def warn(self, where: str, message: str) -> None:
        self.warnings.append(f"{where}: {message}")


@dataclass
class Source:
    """One entity as written in YAML, with where it came from."""

    file: str
    raw: dict[str, Any]

    @property
    def id(self) -> str:
        return str(self.raw.get("id", ""))


@dataclass
class Build:
    properties: dict[str, tuple[str, str]]  # pid -> (label, datatype)
    items: dict[str, dict[str, Any]]  # id -> wire JSON
    item_files: dict[str, str]
    pages: dict[str, Page]
    wanted: dict[str, tuple[str, str]]  # id -> (file, description)
    dangling: dict[str, list[str]]  # missing id -> referencing places
    problems: Problems
    flags: dict[str, set[str]] = field(default_factory=dict)  # pid -> single_value / dated
    declarations: dict[str, tuple[str, Declaration]] = field(
        default_factory=dict
    )  # id -> (file, d)


class _Loader(yaml.SafeLoader):
    """Safe YAML without timestamp parsing: dates stay text, so a bad date is reported by
    ``_time`` with the file, entity and field instead of failing the whole file."""


_Loader.yaml_implicit_resolvers = {
    key: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def _load_yaml(path: Path, problems: Problems) -> dict[str, Any]:
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader) or {}
    except yaml.YAMLError as exc:
        problems.error(path.name, f"not valid YAML: {exc}")
        return {}
    if not isinstance(data, dict):
        problems.error(path.name, "top level must be a mapping (entities:, properties:, …)")
        return {}
    unknown = set(data) - {"entities", "properties", "wanted_places", "complete"}
    if unknown:
        problems.error(path.name, f"unknown top-level keys {sorted(unknown)}")
    return data


def _load_properties(
    files: list[tuple[Path, dict[str, Any]]], problems: Problems, flags: dict[str, set[str]]
) -> dict[str, tuple[str, str]]:
    props: dict[str, tuple[str, str]] = {}
    origin: dict[str, str] = {}
    for path, data in files:
        for i, entry in enumerate(data.get("properties") or []):
            where = f"{path.name}: properties[{i}]"
            if not isinstance(entry, dict) or not {"id", "label", "datatype"} <= set(entry):
                problems.error(where, "needs {id: P…, label: …, datatype: …}")
                continue
            pid, label, dtype = str(entry["id"]), str(entry["label"]), str(entry["datatype"])
            if not re.fullmatch(r"P[1-9][0-9]*", pid):
                problems.error(where, f"id {pid!r} is not a property id like P31")
                continue
            if dtype not in DATATYPES:
                problems.error(where, f"{pid}: datatype {dtype!r} not one of {sorted(DATATYPES)}")
                continue
            if pid in props and props[pid] != (label, dtype):
                problems.error(
                    where,
                    f"{pid} conflicts with its definition in {origin[pid]}: "
                    f"{props[pid]} vs {(label, dtype)}",
                )
                continue
            props.setdefault(pid, (label, dtype))
            origin.setdefault(pid, path.name)
            extra = set(entry) - {"id", "label", "datatype"}
            if extra - PROPERTY_FLAGS:
                problems.error(where, f"{pid}: unknown keys {sorted(extra - PROPERTY_FLAGS)}")
            for flag in sorted(extra & PROPERTY_FLAGS):
                if entry[flag] is not True:
                    problems.error(where, f"{pid}: {flag} takes only 'true'")
                    continue
                if flag == "dated" and dtype != "quantity":
                    problems.error(where, f"{pid}: dated applies to quantities only")
                    continue
                flags.setdefault(pid, set()).add(flag)
    return props


def _constraint_claims(pid: str, flags: set[str]) -> dict[str, Any]:
    """P2302 statements in Wikidata's own form for a property's reviewed flags."""
    out = []
    for i, flag in enumerate(sorted(flags)):
        qid = SINGLE_VALUE if flag == "single_value" else REQUIRED_QUALIFIER
        value = {"entity-type": "item", "id": qid, "numeric-id": int(qid[1:])}
        st: dict[str, Any] = {
            "mainsnak": _snak(
                "P2302", "wikibase-item", {"value": value, "type": "wikibase-entityid"}
            ),
            "type": "statement",
            "id": f"{pid}$P2302-{i}",
            "rank": "normal",
        }
        if flag == "dated":
            qv = {"entity-type": "property", "id": "P585", "numeric-id": 585}
            dv = {"value": qv, "type": ENTITY_TYPE}
            st["qualifiers"] = {"P2306": [_snak("P2306", "wikibase-property", dv)]}
            st["qualifiers-order"] = ["P2306"]
        out.append(st)
    return {"P2302": out} if out else {}


def _load_declarations(path: Path, raw: Any, build: Build) -> None:
    """``complete:`` entries: validated as :class:`Declaration`, ids unique across files."""
    problems = build.problems
    if raw is None:
        return
    if not isinstance(raw, list):
        problems.error(path.name, "complete: must be a list of declarations")
        return
    for i, entry in enumerate(raw):
        where = f"{path.name}: complete[{i}]"
        if not isinstance(entry, dict):
            problems.error(where, "each declaration must be a mapping")
            continue
        where = f"{where} ({entry.get('id', '?')})"
        for one in _expand(entry, where, problems):
            _add_declaration(one, where, path, build)


def _expand(entry: dict[str, Any], where: str, problems: Problems) -> list[dict[str, Any]]:
    """``subjects: [a, b]`` is shorthand for one declaration per subject (``<id>/<subject>``)."""
    if "subjects" not in entry:
        return [entry]
    subjects = entry["subjects"]
    if "subject" in entry or not isinstance(subjects, list) or not subjects:
        problems.error(where, "give either subject: or a non-empty list under subjects:")
        return []
    rest = {k: v for k, v in entry.items() if k != "subjects"}
    slug = "/{}".format
    return [{**rest, "subject": s, "id": str(entry.get("id", "")) + slug(s)} for s in subjects]


def _add_declaration(entry: dict[str, Any], where: str, path: Path, build: Build) -> None:
    problems = build.problems
    try:
        decl = Declaration.model_validate(entry)
    except ValueError as exc:
        first = str(exc).splitlines()
        problems.error(where, " ".join(first[1:3]) if len(first) > 2 else str(exc))
        return
    if decl.id in build.declarations:
        first_file = build.declarations[decl.id][0]
        problems.error(where, f"id {decl.id!r} already declared in {first_file}")
        return
    if decl.property not in build.properties:
        problems.error(where, f"unknown property {decl.property}")
    if decl.direction == "inverse" and (decl.since is not None or decl.until is not None):
        problems.error(where, "since/until apply to forward declarations only")
    if decl.direction == "forward" and decl.class_id:
        problems.error(where, "class_id applies to inverse declarations only")
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", decl.as_of):
        problems.error(where, f"as_of {decl.as_of!r} must be YYYY-MM-DD")
    build.declarations[decl.id] = (path.name, decl)


def _time(value: Any) -> tuple[str, int] | None:
    """(Wikidata time string, precision) from YAML (date, int year or 'YYYY[-MM[-DD]]')."""
    if isinstance(value, dt.date):
        return f"+{value.year:04d}-{value.month:02d}-{value.day:02d}T00:00:00Z", 11
    if isinstance(value, bool):
        return None
    text = str(value)
    m = DATE.fullmatch(text)
    if not m:
        return None
    sign, year, month, day = m.groups()
    if month and not 1 <= int(month) <= 12:
        return None
    if day:
        try:
            dt.date(max(int(year), 1), int(month), int(day))
        except ValueError:
            return None
    precision = 11 if day else 10 if month else 9
    return f"{sign or '+'}{int(year):04d}-{month or '00'}-{day or '00'}T00:00:00Z", precision


def _amount(value: Any) -> str | None:
    if isinstance(value, bool):
        return None
    try:
        number = Decimal(str(value))
    except InvalidOperation:
        return None
    if not number.is_finite():
        return None
    text = format(number.normalize(), "f") if number == number.to_integral() else str(number)
    text = format(Decimal(text), "f")
    return text if text.startswith("-") else f"+{text}"


def _datavalue(
    value: Any, unit: Any, dtype: str, where: str, problems: Problems, refs: list[str]
) -> dict[str, Any] | None:
    """The wire ``datavalue`` for ``value`` of datatype ``dtype``; records problems."""
    if dtype == "wikibase-item":
        if not isinstance(value, str) or not REF_ID.fullmatch(value):
            problems.error(where, f"expected an item id (L:… or Q…), got {value!r}")
            return None
        refs.append(value)
        body: dict[str, Any] = {"entity-type": "item", "id": value}
        if value.startswith("Q"):
            body["numeric-id"] = int(value[1:])
        return {"value": body, "type": "wikibase-entityid"}
    if dtype == "time":
        parsed = _time(value)
        if parsed is None:
            problems.error(where, f"bad date {value!r}: use 'YYYY', 'YYYY-MM' or 'YYYY-MM-DD'")
            return None
        time, precision = parsed
        tv = {"time": time, "timezone": 0, "before": 0, "after": 0, "precision": precision}
        return {"value": {**tv, "calendarmodel": CALENDAR}, "type": "time"}
    if dtype == "quantity":
        amount = _amount(value)
        if amount is None:
            problems.error(where, f"expected a number, got {value!r}")
            return None
        unit_uri = "1"
        if unit is not None:
            if str(unit) not in UNITS:
                problems.error(where, f"unknown unit {unit!r}; known: {sorted(UNITS)}")
                return None
            unit_uri = ENTITY_URI + UNITS[str(unit)][0]
        return {"value": {"amount": amount, "unit": unit_uri}, "type": "quantity"}
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        problems.error(where, f"expected text, got {value!r}")
        return None
    if dtype == "monolingualtext":
        return {"value": {"text": str(value), "language": "en"}, "type": "monolingualtext"}
    return {"value": str(value), "type": "string"}


def _snak(pid: str, dtype: str, datavalue: dict[str, Any]) -> dict[str, Any]:
    return {"snaktype": "value", "property": pid, "datavalue": datavalue, "datatype": dtype}


def _pid_order(pid: str) -> int:
    return int(pid[1:])


def _statements(
    src: Source, pid: str, raw: Any, build: Build, refs: list[tuple[str, str]]
) -> list[dict[str, Any]]:
    problems = build.problems
    where_base = f"{src.file}: {src.id}: {pid}"
    if pid not in build.properties:
        problems.error(where_base, f"unknown property {pid}: declare it under properties:")
        return []
    dtype = build.properties[pid][1]
    out: list[dict[str, Any]] = []
    for i, entry in enumerate(raw if isinstance(raw, list) else [raw]):
        where = f"{where_base}[{i}]"
        spec = entry if isinstance(entry, dict) else {"v": entry}
        if "v" not in spec:
            problems.error(where, "a statement mapping needs a value under 'v'")
            continue
        found: list[str] = []
        dv = _datavalue(spec["v"], spec.get("unit"), dtype, where, problems, found)
        rank = str(spec.get("rank", "normal"))
        if rank not in ("preferred", "normal", "deprecated"):
            problems.error(where, f"rank {rank!r} not one of preferred/normal/deprecated")
            continue
        qualifiers: dict[str, list[dict[str, Any]]] = {}
        for qpid in sorted((k for k in spec if k not in STATEMENT_KEYS), key=_qkey):
            qwhere = f"{where}.{qpid}"
            if qpid not in build.properties:
                problems.error(qwhere, f"unknown qualifier property {qpid}")
                continue
            qtype = build.properties[qpid][1]
            qraw = spec[qpid]
            for qentry in qraw if isinstance(qraw, list) else [qraw]:
                qspec = qentry if isinstance(qentry, dict) else {"v": qentry}
                qdv = _datavalue(qspec.get("v"), qspec.get("unit"), qtype, qwhere, problems, found)
                if qdv is not None:
                    qualifiers.setdefault(qpid, []).append(_snak(qpid, qtype, qdv))
        refs.extend((ref, where) for ref in found)
        if dv is None:
            continue
        statement: dict[str, Any] = {
            "mainsnak": _snak(pid, dtype, dv),
            "type": "statement",
            "id": f"{src.id}${pid}-{i}",
            "rank": rank,
        }
        if qualifiers:
            statement["qualifiers"] = qualifiers
            statement["qualifiers-order"] = list(qualifiers)
        out.append(statement)
    return out


def _qkey(key: str) -> tuple[int, str]:
    return (int(key[1:]), key) if re.fullmatch(r"P[0-9]+", key) else (10**9, key)


def _convert(src: Source, build: Build, refs: list[tuple[str, str]]) -> None:
    raw, problems, eid = src.raw, build.problems, src.id
    where = f"{src.file}: {eid or '<no id>'}"
    if not ENTITY_ID.fullmatch(eid):
        problems.error(where, "id must be a local id 'L:<lowercase-slug>'")
        return
    if eid in build.items:
        problems.error(where, f"duplicate id (first defined in {build.item_files[eid]})")
        return
    allowed = {"id", "label", "aliases", "description", "P31", "claims", "page"}
    for key in sorted(set(raw) - allowed):
        problems.error(f"{where}: {key}", f"unknown field; allowed: {sorted(allowed)}")
    label, desc = raw.get("label"), raw.get("description")
    if not isinstance(label, str) or not label.strip():
        problems.error(f"{where}: label", "a non-empty label is required")
        label = eid
    if not isinstance(desc, str) or not desc.strip():
        problems.error(f"{where}: description", "a non-empty description is required")
        desc = ""
    aliases = raw.get("aliases") or []
    if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
        problems.error(f"{where}: aliases", "aliases must be a list of strings")
        aliases = []
    classes = raw.get("P31")
    class_list = classes if isinstance(classes, list) else [classes]
    if classes is None or not class_list:
        problems.error(f"{where}: P31", "P31 (instance of) is required")
        class_list = []
    for cls in class_list:
        if cls != HUMAN and cls not in CLASS_DOMAIN:
            problems.error(f"{where}: P31", f"class {cls!r} is not in builder/kb/domains.py")
    claims_raw = raw.get("claims") or {}
    if not isinstance(claims_raw, dict):
        problems.error(f"{where}: claims", "claims must be a mapping of property id → values")
        claims_raw = {}
    if "P31" in claims_raw:
        problems.error(f"{where}: claims.P31", "give P31 at the top level, not under claims")
    claims: dict[str, list[dict[str, Any]]] = {}
    all_claims = {"P31": class_list, **{k: v for k, v in claims_raw.items() if k != "P31"}}
    for pid in sorted(all_claims, key=_qkey):
        if not re.fullmatch(r"P[1-9][0-9]*", str(pid)):
            problems.error(f"{where}: claims", f"{pid!r} is not a property id")
            continue
        statements = _statements(src, str(pid), all_claims[pid], build, refs)
        if statements:
            claims[str(pid)] = statements
    if HUMAN in class_list:
        occupations = [s["mainsnak"]["datavalue"]["value"]["id"] for s in claims.get("P106", [])]
        if not any(o in OCCUPATION_DOMAINS for o in occupations):
            problems.error(f"{where}: P106", "people need an occupation from OCCUPATION_DOMAINS")
    page = raw.get("page")
    if not isinstance(page, str) or not page.strip():
        problems.error(f"{where}: page", "a page text (3–6 sentences) is required")
        page = ""
    else:
        page = " ".join(page.split())
        sentences = len(SENTENCE_END.findall(page))
        if not 3 <= sentences <= 6:
            problems.warn(f"{where}: page", f"{sentences} sentences (want 3–6)")
    entity: dict[str, Any] = {"type": "item", "id": eid, "labels": _lang(label)}
    entity["descriptions"] = _lang(desc) if desc else {}
    if aliases:
        entity["aliases"] = {"en": [{"language": "en", "value": a} for a in aliases]}
    entity["claims"] = claims
    entity["sitelinks"] = {}
    build.items[eid] = entity
    build.item_files[eid] = src.file
    build.pages[eid] = Page(entity_id=eid, title=label, url="", text=page, source="bundled")


def _lang(text: str) -> dict[str, dict[str, str]]:
    return {"en": {"language": "en", "value": text}}


def fixed_entities(
    properties: dict[str, tuple[str, str]], flags: dict[str, set[str]] | None = None
) -> dict[str, dict[str, Any]]:
    """Property, class, occupation and unit entities (not items of any domain)."""
    out: dict[str, dict[str, Any]] = {}
    for pid, (label, dtype) in {**CONSTRAINT_PROPERTIES, **properties}.items():
        out[pid] = {"type": "property", "datatype": dtype, "id": pid, "labels": _lang(label)}
        claims = _constraint_claims(pid, (flags or {}).get(pid, set()))
        if claims:
            out[pid]["claims"] = claims
    labels = {**CLASS_LABELS, HUMAN: "human"}
    labels.update(occupation_labels())
    labels.update({qid: label for qid, label in UNITS.values()})
    labels.update(VALUE_ENTITIES)
    for eid, label in labels.items():
        out[eid] = {"type": "item", "id": eid, "labels": _lang(label), "claims": {}}
    return out


def load(src_dir: Path) -> Build:
    """Read and validate every source file; converted entities + all problems found."""
    problems = Problems()
    paths = sorted(src_dir.glob("*.yaml"))
    loaded = [(p, _load_yaml(p, problems)) for p in paths]
    props_first = sorted(loaded, key=lambda pd: pd[0].name != "properties.yaml")
    flags: dict[str, set[str]] = {}
    props = _load_properties(props_first, problems, flags)
    build = Build(props, {}, {}, {}, {}, {}, problems, flags)
    refs: list[tuple[str, str]] = []
    for path, data in loaded:
        for wanted in _wanted(data.get("wanted_places"), path.name, problems):
            build.wanted.setdefault(wanted[0], (path.name, wanted[1]))
        _load_declarations(path, data.get("complete"), build)
        entities = data.get("entities") or []
        if not isinstance(entities, list):
            problems.error(path.name, "entities: must be a list")
            continue
        for i, raw in enumerate(entities):
            if not isinstance(raw, dict):
                problems.error(f"{path.name}: entities[{i}]", "each entity must be a mapping")
                continue
            _convert(Source(path.name, raw), build, refs)
    known = set(build.items) | set(fixed_entities(build.properties))
    for file, decl in build.declarations.values():
        for ref in (decl.subject, decl.class_id):
            if ref:
                refs.append((ref, f"{file}: complete {decl.id}"))
    _check_timed_declarations(build)
    for ref, where in refs:
        if ref not in known:
            build.dangling.setdefault(ref, []).append(where)
    for ref in sorted(build.dangling):
        wanted_note = " (listed in wanted_places)" if ref in build.wanted else ""
        uses = build.dangling[ref]
        more = f" and {len(uses) - 3} more" if len(uses) > 3 else ""
        problems.error(
            f"undefined entity {ref}{wanted_note}", f"used by {', '.join(uses[:3])}{more}"
        )
    return build


def _check_timed_declarations(build: Build) -> None:
    """A list declared complete over years must date every statement: an undated one would
    be invisible to a question about its year, which would then look unique."""
    for file, decl in build.declarations.values():
        if decl.direction != "forward" or (decl.since is None and decl.until is None):
            continue
        item = build.items.get(decl.subject)
        for i, st in enumerate((item or {}).get("claims", {}).get(decl.property, [])):
            if not set(st.get("qualifiers", {})) & set(TIME_QUALIFIERS):
                value = st["mainsnak"].get("datavalue", {}).get("value", {})
                build.problems.error(
                    f"{file}: complete {decl.id}",
                    f"{decl.subject} {decl.property}[{i}] ({value.get('id', value)}) has no "
                    "P585/P580/P582: date it, or the list cannot be complete over years",
                )


def _wanted(raw: Any, file: str, problems: Problems) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    entries = list(raw.items()) if isinstance(raw, dict) else list(raw or [])
    for entry in entries:
        if isinstance(entry, tuple):
            out.append((str(entry[0]), str(entry[1])))
        elif isinstance(entry, dict) and "id" in entry:
            out.append((str(entry["id"]), str(entry.get("description", ""))))
        elif isinstance(entry, dict) and len(entry) == 1:
            key, value = next(iter(entry.items()))
            out.append((str(key), str(value)))
        elif isinstance(entry, str):
            key, _, value = entry.partition(" ")
            out.append((key.rstrip(":"), value.strip()))
        else:
            problems.error(f"{file}: wanted_places", f"cannot read entry {entry!r}")
    return out


def write(build: Build, out_dir: Path) -> None:
    """Write entities.json, pages.jsonl and snapshot.json deterministically."""
    out_dir.mkdir(parents=True, exist_ok=True)
    entities = {**fixed_entities(build.properties, build.flags), **build.items}
    lines = [json.dumps(entities[k], ensure_ascii=False, sort_keys=False) for k in sorted(entities)]
    body = "[\n" + "".join(f"{line},\n" for line in lines[:-1]) + lines[-1] + "\n]\n"
    (out_dir / "entities.json").write_text(body, encoding="utf-8")
    pages = "".join(build.pages[k].model_dump_json() + "\n" for k in sorted(build.pages))
    (out_dir / "pages.jsonl").write_text(pages, encoding="utf-8")
    meta = {"snapshot_id": SNAPSHOT_ID, "snapshot_version": SNAPSHOT_VERSION}
    (out_dir / "snapshot.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    decls = [
        d.model_dump(exclude_defaults=True) for _, (_, d) in sorted(build.declarations.items())
    ]
    CompletenessFile.model_validate({"declarations": decls})  # what the importer will read
    body = json.dumps({"declarations": decls}, indent=1, ensure_ascii=False) + "\n"
    (out_dir / "completeness.json").write_text(body, encoding="utf-8")


def report(build: Build, only: str = "*") -> str:
    """The figures of the items from files matching ``only``, against the issue's targets."""
    everything = as_entities(build.items)
    chosen = {k: v for k, v in everything.items() if fnmatch.fnmatch(build.item_files[k], only)}
    fig = compute(chosen, everything)
    per_file: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for eid, entity in chosen.items():
        per_file[build.item_files[eid]][0] += 1
        per_file[build.item_files[eid]][1] += sum(len(s) for s in entity.claims.values())

    def mark(value: int, target: int) -> str:
        return f"{value:6d}  (target >= {target}) {'ok' if value >= target else 'SHORT'}"

    lines = [f"figures for files matching {only!r}:"]
    for name, (n, st) in sorted(per_file.items()):
        lines.append(f"  {name:28s} {n:5d} items {st:6d} statements ({st / max(n, 1):.1f}/item)")
    lines.append(f"items                 {mark(fig.items, TARGETS['items'])}")
    lines.append(f"statements            {mark(fig.statements, TARGETS['statements'])}")
    for dom in sorted(set(DOMAINS) | set(fig.per_domain)):
        lines.append(
            f"  domain {dom:13s} {mark(fig.per_domain.get(dom, 0), TARGETS['per_domain'])}"
        )
    lines.append(f"time-qualified (multi){mark(fig.time_qualified, TARGETS['time_qualified'])}")
    lines.append(
        f"sibling clusters      {mark(len(fig.sibling_clusters), TARGETS['sibling_clusters'])}"
    )
    lines.append(
        f"ranking groups        {mark(len(fig.ranking_groups), TARGETS['ranking_groups'])}"
    )
    for (cls, pid, value), q1, q2 in fig.ranking_groups:
        lines.append(f"    {cls} {pid}={value}: {q1} vs {q2}")
    lines.append("chain starts (2-hop paths to a literal), per domain:")
    for dom in sorted(set(DOMAINS) | set(fig.chain_starts)):
        lines.append(f"  {dom:20s} {fig.chain_starts.get(dom, 0):6d}")
    lines.append(f"dangling refs         {len(build.dangling):6d}")
    lines.append(f"completeness declarations {len(build.declarations):6d}")
    lines.append("wanted_places:")
    for eid, (file, desc) in sorted(build.wanted.items()):
        state = "defined" if eid in build.items else "MISSING"
        lines.append(f"  {eid:30s} {state:8s} ({file}: {desc})")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="print figures; write nothing")
    parser.add_argument("--only", default="*", help="figures for files matching this glob")
    parser.add_argument("--src", type=Path, default=HERE / "src")
    parser.add_argument("--out", type=Path, default=HERE)
    args = parser.parse_args(argv)
    build = load(args.src)
    if args.check:
        print(report(build, args.only))
    for warning in build.problems.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    for error in build.problems.errors:
        print(f"error: {error}", file=sys.stderr)
    if build.problems.errors:
        print(f"{len(build.problems.errors)} error(s); nothing written.", file=sys.stderr)
        return 1
    if not args.check:
        write(build, args.out)
        print(f"wrote {len(build.items)} items, {len(build.pages)} pages to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
