"""Wikidata's data model, as-is.

The same records read live ``wbgetentities`` responses, Wikidata JSON dumps and the bundled
snapshot. Unknown keys are kept (``extra="allow"``), so an entity document survives a round
trip through the store unchanged. Field names follow the wire format; where the wire uses a
hyphen (``qualifiers-order``, ``numeric-id``) the Python name uses an underscore and an alias.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, model_validator

Rank = Literal["preferred", "normal", "deprecated"]
RANK_ORDER: dict[str, int] = {"preferred": 2, "normal": 1, "deprecated": 0}
ENTITY_ID_PREFIX: dict[str, str] = {"item": "Q", "property": "P", "lexeme": "L"}


class _Wire(BaseModel):
    model_config = ConfigDict(extra="allow", populate_by_name=True, frozen=False)

    def to_wire(self) -> dict[str, Any]:
        """The JSON document as Wikidata writes it (aliases, no unset defaults)."""
        return self.model_dump(by_alias=True, exclude_unset=True, mode="json")


class EntityIdValue(_Wire):
    """Value of a ``wikibase-entityid`` datavalue."""

    entity_type: str = Field("item", alias="entity-type", description="item, property, lexeme…")
    numeric_id: int | None = Field(None, alias="numeric-id", description="Legacy numeric id.")
    id: str = Field(description="Entity id, e.g. Q42, P31 or a local id such as L:nintendo.")

    @model_validator(mode="before")
    @classmethod
    def _id_from_numeric_id(cls, data: Any) -> Any:
        """Older documents (e.g. 2018 dumps) give only ``numeric-id``: derive ``id``."""
        if isinstance(data, dict) and "id" not in data and "numeric-id" in data:
            prefix = ENTITY_ID_PREFIX.get(data.get("entity-type", "item"), "Q")
            return {**data, "id": f"{prefix}{data['numeric-id']}"}
        return data


class TimeValue(_Wire):
    """Value of a ``time`` datavalue (ISO-like, signed year, precision 9=year 10=month 11=day)."""

    time: str = Field(description="e.g. +2001-05-11T00:00:00Z")
    timezone: int = 0
    before: int = 0
    after: int = 0
    precision: int = Field(11, description="9 year, 10 month, 11 day; lower = coarser.")
    calendarmodel: str = "http://www.wikidata.org/entity/Q1985727"

    @property
    def year(self) -> int | None:
        """The signed year, or None when the time string cannot be read."""
        text = self.time
        sign = -1 if text.startswith("-") else 1
        digits = text.lstrip("+-").split("-", 1)[0]
        try:
            return sign * int(digits)
        except ValueError:
            return None

    def iso(self) -> str:
        """Date as text at its precision: ``2001``, ``2001-05`` or ``2001-05-11``."""
        core = self.time.lstrip("+").split("T", 1)[0]
        parts = core.split("-")
        if core.startswith("-"):
            return core
        if self.precision <= 9:
            return parts[0]
        if self.precision == 10:
            return "-".join(parts[:2])
        return "-".join(parts[:3])


class QuantityValue(_Wire):
    """Value of a ``quantity`` datavalue; amounts are decimal strings with a sign."""

    amount: str
    unit: str = Field("1", description='"1" for unitless, else an entity URI.')
    upperBound: str | None = None
    lowerBound: str | None = None

    @property
    def number(self) -> Decimal | None:
        try:
            return Decimal(self.amount)
        except (InvalidOperation, TypeError):
            return None

    @property
    def unit_id(self) -> str | None:
        """Unit entity id (``Q11573``) or None for unitless."""
        return None if self.unit in ("1", "") else self.unit.rsplit("/", 1)[-1]


class MonolingualTextValue(_Wire):
    text: str
    language: str


class GlobeCoordinateValue(_Wire):
    latitude: float
    longitude: float
    altitude: float | None = None
    precision: float | None = None
    globe: str = "http://www.wikidata.org/entity/Q2"


class DataValue(_Wire):
    """A typed value. ``type`` is the wire discriminator; ``value`` depends on it."""

    type: str = Field(
        description="wikibase-entityid, string, time, quantity, monolingualtext, "
        "globecoordinate (others are kept as raw JSON)."
    )
    value: Any

    def parsed(
        self,
    ) -> (
        EntityIdValue
        | TimeValue
        | QuantityValue
        | MonolingualTextValue
        | GlobeCoordinateValue
        | str
        | Any
    ):
        """The value as a typed record, or the raw value for unknown types."""
        parser = _PARSERS.get(self.type)
        if parser is None or isinstance(self.value, str):
            return self.value
        return parser.model_validate(self.value)

    def key(self) -> str:
        """A canonical string for indexing and comparing values.

        Entity → its id; time → the time string; quantity → the amount (plus ``|unit``);
        monolingual text → ``lang:text``; string → itself; other → compact JSON.
        """
        v = self.parsed()
        if isinstance(v, EntityIdValue):
            return v.id
        if isinstance(v, TimeValue):
            return v.time
        if isinstance(v, QuantityValue):
            return v.amount if v.unit_id is None else f"{v.amount}|{v.unit_id}"
        if isinstance(v, MonolingualTextValue):
            return f"{v.language}:{v.text}"
        if isinstance(v, GlobeCoordinateValue):
            return f"{v.latitude},{v.longitude}"
        if isinstance(v, str):
            return v
        import json

        return json.dumps(v, sort_keys=True, separators=(",", ":"))

    def display(self, labels: dict[str, str] | None = None) -> str:
        """Human text: entity label (from ``labels`` when given), date at precision, number."""
        v = self.parsed()
        if isinstance(v, EntityIdValue):
            return (labels or {}).get(v.id, v.id)
        if isinstance(v, TimeValue):
            return v.iso()
        if isinstance(v, QuantityValue):
            num = v.number
            if num is None:
                return v.amount
            text = format(num.normalize(), "f") if num == num.to_integral() else str(num)
            return text.lstrip("+")
        if isinstance(v, MonolingualTextValue):
            return v.text
        return self.key()


_PARSERS: dict[str, type[_Wire]] = {
    "wikibase-entityid": EntityIdValue,
    "time": TimeValue,
    "quantity": QuantityValue,
    "monolingualtext": MonolingualTextValue,
    "globecoordinate": GlobeCoordinateValue,
}


class Snak(_Wire):
    """A property–value pair (main snak, qualifier or reference snak)."""

    snaktype: Literal["value", "somevalue", "novalue"] = Field(
        "value", description="'value' carries a datavalue; 'somevalue' = unknown; 'novalue'."
    )
    property: str = Field(description="Property id, e.g. P585.")
    hash: str | None = None
    datavalue: DataValue | None = None
    datatype: str | None = Field(None, description="Property datatype, e.g. wikibase-item.")


class Reference(_Wire):
    hash: str | None = None
    snaks: dict[str, list[Snak]] = Field(default_factory=dict)
    snaks_order: list[str] = Field(default_factory=list, alias="snaks-order")


class Statement(_Wire):
    """A claim with its rank, qualifiers and references."""

    id: str | None = Field(None, description="Statement GUID.")
    type: str = "statement"
    mainsnak: Snak
    rank: Rank = Field("normal", description="Deprecated statements are never facts.")
    qualifiers: dict[str, list[Snak]] = Field(default_factory=dict)
    qualifiers_order: list[str] = Field(default_factory=list, alias="qualifiers-order")
    references: list[Reference] = Field(default_factory=list)

    @property
    def value(self) -> DataValue | None:
        """The main value, None for somevalue/novalue snaks."""
        return self.mainsnak.datavalue if self.mainsnak.snaktype == "value" else None

    def qualifier_values(self, pid: str) -> list[DataValue]:
        return [
            s.datavalue
            for s in self.qualifiers.get(pid, [])
            if s.snaktype == "value" and s.datavalue is not None
        ]

    def qualifier_time(self, pid: str) -> TimeValue | None:
        """The first time value of qualifier ``pid`` (e.g. P585, P580, P582), if any."""
        for dv in self.qualifier_values(pid):
            v = dv.parsed()
            if isinstance(v, TimeValue):
                return v
        return None


class LangValue(_Wire):
    language: str
    value: str


class Sitelink(_Wire):
    site: str
    title: str
    badges: list[str] = Field(default_factory=list)
    url: str | None = None


class Entity(_Wire):
    """A Wikidata item or property document."""

    id: str = Field(description="Q…/P… id, or a local id such as L:nintendo.")
    type: Literal["item", "property"] = "item"
    datatype: str | None = Field(None, description="Properties only: the value datatype.")
    labels: dict[str, LangValue] = Field(default_factory=dict)
    descriptions: dict[str, LangValue] = Field(default_factory=dict)
    aliases: dict[str, list[LangValue]] = Field(default_factory=dict)
    claims: dict[str, list[Statement]] = Field(default_factory=dict)
    sitelinks: dict[str, Sitelink] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _empty_maps(cls, data: Any) -> Any:
        """Wikibase (PHP) writes an empty map as ``[]`` in some replies; read it as ``{}``."""
        maps = ("labels", "descriptions", "aliases", "claims", "sitelinks")
        if isinstance(data, dict) and any(data.get(k) == [] for k in maps):
            return {k: ({} if k in maps and v == [] else v) for k, v in data.items()}
        return data

    def label(self, lang: str = "en") -> str | None:
        lv = self.labels.get(lang)
        return lv.value if lv else None

    def description(self, lang: str = "en") -> str | None:
        lv = self.descriptions.get(lang)
        return lv.value if lv else None

    def alias_list(self, lang: str = "en") -> list[str]:
        return [a.value for a in self.aliases.get(lang, [])]

    def best_statements(self, pid: str) -> list[Statement]:
        """Preferred statements if any, else normal ones; deprecated ones never."""
        statements = [s for s in self.claims.get(pid, []) if s.rank != "deprecated"]
        preferred = [s for s in statements if s.rank == "preferred"]
        return preferred or statements

    def best_values(self, pid: str) -> list[DataValue]:
        return [s.value for s in self.best_statements(pid) if s.value is not None]

    def enwiki_title(self) -> str | None:
        link = self.sitelinks.get("enwiki")
        return link.title if link else None


def _entity_tag(v: Any) -> str:
    kind = v.get("type") if isinstance(v, dict) else getattr(v, "type", None)
    return "lexeme" if kind in ("lexeme", "form", "sense") else "entity"


class Lexeme(_Wire):
    """Lexemes are recognised so they can be skipped with a reason; their content is kept raw."""

    id: str
    type: Literal["lexeme", "form", "sense"] = "lexeme"


AnyEntity = Annotated[
    Annotated[Entity, Tag("entity")] | Annotated[Lexeme, Tag("lexeme")],
    Discriminator(_entity_tag),
]
