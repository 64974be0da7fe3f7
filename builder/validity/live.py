"""Live counts: a hop description evaluated over the whole of Wikidata (the Query Service).

A :class:`~builder.records.seed.HopSpec` is unique only over a set known to be complete. On
a store fetched from live Wikidata, that set can be Wikidata itself: :func:`sparql_for`
translates the description into SPARQL, :class:`LiveCounter` runs the COUNT query (and a
SELECT for the first matches) through the one HTTP layer, so the answer is cached and
replayable like every other live request.

The translation follows what :mod:`builder.seeding.resolve` does over the store:

- a plain link uses ``wdt:`` (truthy): exactly the best-rank statements (preferred ones if
  the subject has any, else normal ones; deprecated never), as ``Facts.values`` and the
  store's reverse index do. ``p:``/``ps:`` with ``wikibase:BestRank`` would say the same in
  more words;
- a version (``qualifier``, ``any_time``) needs the statement node (``p:``/``ps:``/``pq:``)
  and *every* non-deprecated statement, not the best-ranked ones: a subject's past values
  (former head coaches, earlier populations) are usually normal rank beside a preferred
  current one, and truthy ``wdt:`` would hide them (the store's time groups also keep every
  non-deprecated statement);
- ``P580`` (start time) means "in force that year": the term [P580, P582] meets the year, so
  two office holders who both served in 1970 both count (a question about 1970 is ambiguous
  then). An open end, or an end Wikidata gives as "unknown value", does not bound the term.
  This is stricter than ``facts.at_time`` (which requires a start and excludes the end year):
  the live count errs towards more candidates, never fewer;
- classes are ``wdt:P31/wdt:P279*`` (any depth: the store stops at three subclass steps, so
  the live set is a superset);
- a superlative keeps the members whose value equals the MAX/MIN over the set, computed in a
  subquery; the COUNT query also counts the members *without* a numeric value
  (``unranked``): the top is only known when every member has a value.

Values Wikidata gives as "unknown value" (``somevalue``) are counted as members: a real
value Wikidata cannot name is still a second answer. They are reported apart (``unknown``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, date, datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from builder.kb.wikidata import SparqlError, WikidataClient
from builder.records.seed import Constraint, HopSpec
from builder.seeding.facts import year_of

ENTITY = "http://www.wikidata.org/entity/"
GENID = "http://www.wikidata.org/.well-known/genid/"  # "unknown value" (somevalue) nodes
PREFIXES = {
    "wd": ENTITY,
    "wdt": "http://www.wikidata.org/prop/direct/",
    "p": "http://www.wikidata.org/prop/",
    "ps": "http://www.wikidata.org/prop/statement/",
    "pq": "http://www.wikidata.org/prop/qualifier/",
    "wikibase": "http://wikiba.se/ontology#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
}
ITEM_ID = re.compile(r"^[QPL][1-9][0-9]*$")
PROPERTY_ID = re.compile(r"^P[1-9][0-9]*$")
TIME_KEY = re.compile(r"^[+-]\d{1,16}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
AMOUNT_KEY = re.compile(r"^[+-]?\d+(\.\d+)?$")
Mode = Literal["count", "select"]


class Untranslatable(ValueError):
    """A part of the description has no faithful SPARQL form (internal: becomes None)."""


def _prop(pid: str) -> str:
    if not PROPERTY_ID.match(pid):
        raise Untranslatable(f"not a property id: {pid!r}")
    return pid


def _item(qid: str) -> str:
    if not ITEM_ID.match(qid):
        raise Untranslatable(f"not an entity id: {qid!r}")
    return f"wd:{qid}"


def _literal(key: str) -> str:
    """A SPARQL term for a literal value key: a time instant or a unitless amount."""
    if TIME_KEY.match(key):
        return f'"{key.lstrip("+")}"^^xsd:dateTime'
    if AMOUNT_KEY.match(key):
        return key.lstrip("+")
    raise Untranslatable(f"no SPARQL form for the value key {key!r}")


def _year(time: str) -> int:
    year = year_of(time)
    if year is None:
        raise Untranslatable(f"no year in {time!r}")
    return year


def _version(spec: HopSpec, st: str, s: str) -> list[str]:
    """Filters on the link statement ``st`` that pin the version (qualifier year)."""
    if spec.any_time:
        return [f"FILTER EXISTS {{ {st} pq:P585|pq:P580|pq:P582 ?when{s} }}"]
    year = _year(spec.qualifier_value)
    if spec.qualifier in ("P585", "P582"):
        t = f"?t{s}"
        return [f"{st} pq:{spec.qualifier} {t} .", f"FILTER(YEAR({t}) = {year})"]
    if spec.qualifier == "P580":
        start, end = f"?start{s}", f"?end{s}"
        return [
            f"OPTIONAL {{ {st} pq:P580 {start} }}",
            f"OPTIONAL {{ {st} pq:P582 {end} }}",
            f"FILTER(BOUND({start}) || BOUND({end}))",
            f"FILTER(!BOUND({start}) || !isLiteral({start}) || YEAR({start}) <= {year})",
            f"FILTER(!BOUND({end}) || !isLiteral({end}) || YEAR({end}) >= {year})",
        ]
    raise Untranslatable(f"qualifier {spec.qualifier!r} is not a time qualifier")


def _link(spec: HopSpec, prev: str | None, x: str, s: str) -> list[str]:
    if not prev:
        raise Untranslatable("a linked hop needs the previous hop's answer")
    link, subject = _prop(spec.link), _item(prev)
    versioned = spec.any_time or bool(spec.qualifier)
    if spec.link_inverse:
        if versioned:
            raise Untranslatable("a version of an inverse link is not a description the store uses")
        return [f"{x} wdt:{link} {subject} ."]
    if not versioned:
        return [f"{subject} wdt:{link} {x} ."]
    st, rank = f"?st{s}", f"?rank{s}"
    return [
        f"{subject} p:{link} {st} .",
        f"{st} ps:{link} {x} ;",
        f"  wikibase:rank {rank} .",
        f"FILTER({rank} != wikibase:DeprecatedRank)",
        *_version(spec, st, s),
    ]


def _constraint(c: Constraint, x: str, var: str) -> list[str]:
    pid = _prop(c.property)
    if c.match == "year":
        return [f"{x} wdt:{pid} {var} .", f"FILTER(YEAR({var}) = {_year(c.value)})"]
    if ITEM_ID.match(c.value):
        return [f"{x} wdt:{pid} {_item(c.value)} ."]
    return [f"{x} wdt:{pid} {var} .", f"FILTER({var} = {_literal(c.value)})"]


def _members(spec: HopSpec, prev: str | None, s: str = "") -> list[str]:
    """Triple patterns binding ``?x{s}`` to every member of the (unranked) description;
    ``s`` suffixes every variable so the pattern can be repeated inside a subquery."""
    x = f"?x{s}"
    lines: list[str] = []
    if spec.link:
        lines += _link(spec, prev, x, s)
    elif not spec.class_id and not any(c.match == "exact" for c in spec.constraints):
        raise Untranslatable("no link, class or exact constraint: it would scan all of Wikidata")
    if spec.class_id:
        lines.append(f"{x} wdt:P31/wdt:P279* {_item(spec.class_id)} .")
    for i, c in enumerate(spec.constraints):
        lines += _constraint(c, x, f"?c{i}{s}")
    return lines


def _block(lines: list[str], depth: int) -> str:
    pad = "  " * depth
    return "\n".join(pad + line for line in lines)


def _top(spec: HopSpec, prev: str | None) -> list[str]:
    """Members whose criterion value equals the MAX/MIN over the whole set."""
    crit, agg = _prop(spec.criterion), spec.criterion_order.upper()
    best = [
        f"SELECT ({agg}(?v_) AS ?best) WHERE {{",
        *("  " + line for line in _members(spec, prev, "_")),
        f"  ?x_ wdt:{crit} ?v_ .",
        "  FILTER(isNumeric(?v_))",
        "}",
    ]
    return [
        "{",
        *("  " + line for line in best),
        "}",
        *_members(spec, prev),
        f"?x wdt:{crit} ?v .",
        "FILTER(?v = ?best)",
    ]


def _unranked(spec: HopSpec, prev: str | None) -> list[str]:
    crit = _prop(spec.criterion)
    return [
        "SELECT (COUNT(DISTINCT ?xu) AS ?unranked) WHERE {",
        *("  " + line for line in _members(spec, prev, "u")),
        f"  FILTER NOT EXISTS {{ ?xu wdt:{crit} ?vu . FILTER(isNumeric(?vu)) }}",
        "}",
    ]


def _with_prefixes(body: str) -> str:
    used = [n for n in PREFIXES if re.search(rf"(?<![\w?]){n}:", body)]
    return "".join(f"PREFIX {n}: <{PREFIXES[n]}>\n" for n in used) + body


def sparql_for(spec: HopSpec, prev: str | None, *, mode: Mode, limit: int = 50) -> str | None:
    """The description ``spec`` (relative to the previous answer ``prev``) as a query over
    Wikidata: ``count`` gives one row ``?n`` (distinct members; with a criterion also
    ``?unranked``), ``select`` the members ``?x`` in IRI order, at most ``limit``.

    None when the description has no faithful query:

    - a linked hop without ``prev``, or ids that are not Wikidata ids;
    - no link, class or exact constraint (the query would scan all of Wikidata);
    - a version (qualifier / any_time) on an inverse link (the store ignores it there, so a
      query honouring it would certify something else);
    - a qualifier that is not P585/P580/P582, or one without a year;
    - ``criteria_options`` (a weakened, vague superlative): its candidates are the tops of
      each option, so count each option as its own ``criterion``;
    - exact constraints on values other than entities, time instants and unitless amounts
      (strings, monolingual texts, amounts with units: ``wdt:`` drops the unit).
    """
    if limit < 1:
        raise ValueError("limit must be at least 1")
    if spec.criteria_options and not spec.criterion:
        return None
    try:
        pattern = _top(spec, prev) if spec.criterion else _members(spec, prev)
        if mode == "select":
            lines = ["SELECT DISTINCT ?x WHERE {", _block(pattern, 1), "}", "ORDER BY ?x"]
            body = "\n".join([*lines, f"LIMIT {limit}"])
        elif spec.criterion:
            count = ["SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE {", *("  " + p for p in pattern), "}"]
            body = "\n".join(
                [
                    "SELECT ?n ?unranked WHERE {",
                    "  {",
                    _block(count, 2),
                    "  }",
                    "  {",
                    _block(_unranked(spec, prev), 2),
                    "  }",
                    "}",
                ]
            )
        else:
            body = "\n".join(["SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE {", _block(pattern, 1), "}"])
    except Untranslatable:
        return None
    return _with_prefixes(body)


class LiveMatches(BaseModel):
    """A description counted over the whole of Wikidata at ``as_of``.

    Evidence of uniqueness over Wikidata, not proof over the world: Wikidata misses films,
    award years and qualifiers, and has items for things that are not notable (see
    docs/live-sources.md, "Live counts")."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    query: str = Field(description="The COUNT query (the certificate's source).")
    select_query: str = Field("", description="The SELECT query that listed the matches.")
    endpoint: str = Field(description="The SPARQL endpoint asked.")
    count: int = Field(ge=0, description="Distinct members, 'unknown value' ones included.")
    ids: list[str] = Field(
        default_factory=list, description="Entity ids among the first `limit` matches, sorted."
    )
    values: list[str] = Field(
        default_factory=list,
        description="Literal matches (times, amounts) as the service writes them, sorted.",
    )
    unknown: int = Field(0, description="'Unknown value' members among the first matches.")
    unranked: int | None = Field(
        None,
        description="Superlatives: members without a numeric value for the criterion "
        "(the top is only known when 0); None without a criterion.",
    )
    as_of: str = Field(description="Date of the COUNT answer (YYYY-MM-DD, UTC).")

    @property
    def listed(self) -> bool:
        """Every match is in ``ids``/``values``/``unknown`` (count <= limit)."""
        return len(self.ids) + len(self.values) + self.unknown >= self.count

    @property
    def unique(self) -> bool:
        """Exactly one named member, no unknown one, and (superlative) every member ranked."""
        named = len(self.ids) + len(self.values)
        return self.count == 1 and named == 1 and self.unknown == 0 and not self.unranked


def _today() -> date:
    return datetime.now(UTC).date()


class LiveCounter:
    """Counts hop descriptions over Wikidata through :class:`WikidataClient` (and so the HTTP
    cache: live, record, replay)."""

    def __init__(
        self,
        wikidata: WikidataClient,
        *,
        limit: int = 50,
        today: Callable[[], date] = _today,
    ) -> None:
        self.wikidata = wikidata
        self.limit = limit
        self.today = today

    def matches(self, spec: HopSpec, prev: str | None) -> LiveMatches | None:
        """The description's members over Wikidata, or None when it has no query
        (:func:`sparql_for` says when). The SELECT query is skipped when the count is 0.

        Raises :class:`SparqlError` (the service refused the query or timed out),
        :class:`~builder.errors.CacheMissError` (replay mode, not recorded) and
        :class:`~builder.errors.ServiceError` (unreadable answer, retries exhausted), each
        naming the query."""
        query = sparql_for(spec, prev, mode="count")
        select = sparql_for(spec, prev, mode="select", limit=self.limit)
        if query is None or select is None:
            return None
        counted = self.wikidata.sparql_result(query)
        row = counted.rows[0] if len(counted.rows) == 1 else {}
        count = _integer(row.get("n"), query, "n")
        unranked = _integer(row.get("unranked"), query, "unranked") if spec.criterion else None
        ids: list[str] = []
        values: list[str] = []
        unknown = 0
        if count:
            for got in self.wikidata.sparql_result(select).rows:
                value = got.get("x", "")
                if value.startswith(GENID):
                    unknown += 1
                elif value.startswith(ENTITY):
                    ids.append(value.removeprefix(ENTITY))
                elif value:
                    values.append(value)
        return LiveMatches(
            query=query,
            select_query=select,
            endpoint=self.wikidata.sparql_url,
            count=count,
            ids=sorted(set(ids), key=_id_order),
            values=sorted(set(values)),
            unknown=unknown,
            unranked=unranked,
            as_of=counted.fetched_at[:10] or self.today().isoformat(),
        )


def _id_order(eid: str) -> tuple[str, int]:
    return (eid[:1], int(eid[1:]) if eid[1:].isdigit() else 0)


def _integer(value: str | None, query: str, var: str) -> int:
    try:
        number = int(str(value))
    except ValueError:
        number = -1
    if number < 0:
        raise SparqlError(
            f"SPARQL answer has no count ?{var} (got {value!r}): not the answer to this query",
            query=query,
            hint="the cache entry may belong to another query or service; delete it and record",
        )
    return number
