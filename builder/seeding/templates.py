"""Loading the question and clue templates (data files under ``builder/prompts/templates``)."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, field_validator

from builder.errors import ConfigError

TEMPLATE_DIR = Path(__file__).resolve().parents[1] / "prompts" / "templates"


class RelationPhrases(BaseModel):
    """Phrases of one property; ``{x}`` = a noun phrase, ``{v}`` = a value, ``{p}`` = label.

    ``by``/``in`` are reduced modifiers put right after a noun (``directed by {v}``);
    ``is``/``is_in`` the same fact as the verb phrase of a relative clause (``was directed by
    {v}``). A relation without a reduced form says so with ``by: ""`` next to ``is``.
    ``noun`` names the value when a later sentence refers back to it (``that country``).
    """

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    of: str = ""
    ask: str = ""
    again: str = Field("", description="The ask when {x} already uses the ask's verb.")
    by: str | None = None
    in_: str | None = Field(None, alias="in")
    is_: str = Field("", alias="is")
    is_in: str = ""
    linked: str = Field("", description="Verb phrase when the value is a described phrase.")
    noun: str = Field("", description="How a later sentence names the value: 'that <noun>'.")
    named_of: str = Field("", description="The ``of`` phrase when {x} is a name, not a phrase.")
    named_ask: str = Field("", description="The ``ask`` when {x} is a name, not a phrase.")
    typed_of: str = Field(
        "",
        description="The ``of`` phrase around a name whose values share one class {n}: 'the "
        "{n} that won {x}'.",
    )
    typed_ask: str = Field("", description="The ``ask`` with that class noun {n}.")
    said_of: str = Field(
        "",
        description="The ``of`` phrase in the question a person reads ('the home country of "
        "{x}'), where it differs from the words hop goals are searched with ('the country of "
        "citizenship of {x}').",
    )
    said_ask: str = Field("", description="The ``ask`` in the question a person reads.")
    whose_of: str = Field(
        "",
        description="The ``of`` phrase around a described phrase 'the <noun> <verb> …' said "
        "with 'whose' ('the country whose team won …'); {xn} = that phrase without 'the'.",
    )
    dated: bool = Field(
        False,
        description="A point-in-time qualifier goes into a name that takes 'the': 'the winner "
        "of the 2020 Nobel Prize in Physics', not 'the winner in 2020 of …'.",
    )


class CriterionPhrases(BaseModel):
    """A criterion's words; a clue entry is one reply or a list of them (one is used, by the
    seed chain), ``clue_asked`` the reply where the question asks for that very quantity
    ("What is the area of the smallest country …?": "By area, yes.", not "I meant the
    smallest by area.")."""

    model_config = ConfigDict(extra="forbid")

    most: str = ""
    vague: str = ""
    clue: list[str] = Field(default_factory=list)
    least: str = ""
    vague_least: str = ""
    clue_least: list[str] = Field(default_factory=list)
    clue_asked: list[str] = Field(default_factory=list)

    @field_validator("clue", "clue_least", "clue_asked", mode="before")
    @classmethod
    def _variants(cls, value: Any) -> Any:
        return [value] if isinstance(value, str) else value


class NameRules(BaseModel):
    """Which names take "the" in running text (``names.yaml``)."""

    model_config = ConfigDict(extra="forbid")

    names: list[str] = Field(default_factory=list)
    classes: dict[str, str] = Field(default_factory=dict)
    bare: list[str] = Field(default_factory=list)
    patterns: list[str] = Field(default_factory=list)
    short: dict[str, str] = Field(
        default_factory=dict,
        description="A formal label → the short name people use for it, in questions only "
        "('Nobel Prize in Physiology or Medicine' → 'Nobel Prize in Medicine').",
    )

    def shortened(self, text: str) -> str:
        """``text`` with each formal label said by its short name."""
        for label, name in self.short.items():
            text = text.replace(label, name)
        return text

    def formal(self, text: str) -> list[str]:
        """The formal labels whose short names ``text`` says ("G7": "Group of Seven"): what
        a reader of the question knows it names, in the words the goals search with."""
        return [
            label
            for label, name in self.short.items()
            if re.search(rf"\b{re.escape(name)}\b", text)
        ]

    def takes_the(self, label: str, classes: list[str]) -> bool:
        if label in self.bare:
            return False
        if label in self.names or any(re.search(p, label) for p in self.patterns):
            return True
        one_word_acronym = " " not in label and len(label) > 1 and label.isupper()
        return not one_word_acronym and any(c in self.classes for c in classes)


class StylePhrases(BaseModel):
    """How sentences of one question are joined (``style.yaml``)."""

    model_config = ConfigDict(extra="forbid")

    lead: list[str] = Field(default_factory=list)
    people: list[str] = Field(default_factory=list)
    unsure: list[str] = Field(default_factory=list)
    plural: list[str] = Field(default_factory=list)
    keep_of: list[str] = Field(default_factory=list)
    short: dict[str, str] = Field(default_factory=dict)
    remark: dict[str, list[str]] = Field(
        default_factory=dict,
        description="A person's facts said after the question ('I mean the one born in 1902.'): "
        "forms under 'one', 'noun' and 'several'.",
    )
    remark_weak: list[str] = Field(
        default_factory=list, description="Referring nouns a remark never names ('the head')."
    )
    country: dict[str, list[str]] = Field(
        default_factory=dict,
        description="A chain through a country to its head: 'lead' sets up the country "
        "('Think of {x}.'), 'person' says the facts of the person it is the home country of "
        "('I'm thinking of {x} who {v}.'; 'person_after_year' after a phrase ending in a year).",
    )

    frame: dict[str, list[str]] = Field(
        default_factory=dict,
        description="A chain through a country said as a person asks it (frames.py): the short "
        "sentences after the one question: 'fact'/'facts'/'they' a person's remembered facts "
        "('I think the {n} {v}.'), 'year'/'year_noun'/'year_fact' the office's year where a "
        "clause would take it ('I mean the one {w}.'), 'exact' a leader's remembered year of "
        "what is asked ('I think it was in {y}.'), 'then' the second of two questions as is or as "
        "what is wanted ('I'd like to know {i}.', 'I'm after {n}.').",
    )
    narrowed_in: list[str] = Field(
        default_factory=list,
        description="Properties whose fact singling out a country is said 'in {v}' after the "
        "question ('I mean the one in the Group of Seven.'), not by the relation's clause.",
    )
    frame_country: dict[str, str] = Field(
        default_factory=dict,
        description="The country of a thing by what the thing does there, per the relation "
        "that led to the thing (P115 → 'the country where {x} plays its home games').",
    )


class VaguePhrases(BaseModel):
    """Vague words of an ambiguous checkpoint, per ambiguity type (``vague.yaml``)."""

    model_config = ConfigDict(extra="forbid")

    entity: dict[str, str] = Field(
        default_factory=dict, description="Property of the dropped fact → the word said instead."
    )
    entity_not_with: list[str] = Field(
        default_factory=list, description="Relations of hops whose noun already says the word."
    )


class Templates(BaseModel):
    """Every template file, validated."""

    model_config = ConfigDict(extra="forbid")

    default: RelationPhrases
    qualifiers: dict[str, str]
    relations: dict[str, RelationPhrases]
    not_worded: dict[str, str] = Field(default_factory=dict)
    class_relations: dict[str, dict[str, RelationPhrases]] = Field(default_factory=dict)
    fact_clues: dict[str, list[str]]
    qualifier_clues: dict[str, list[str]]
    person_clues: dict[str, list[str]] = Field(default_factory=dict)
    more_clues: dict[str, list[str]] = Field(
        default_factory=dict, description="Clue clauses the clue picker does not prefer."
    )
    clue_frames: list[str] = Field(default_factory=list)
    correction_frames: list[str] = Field(
        default_factory=list,
        description="Frames of a reply that corrects a detail the question got wrong "
        "(factual ambiguity): 'Actually, I think {c}.'",
    )
    clue_pronouns: dict[str, str] = Field(
        default_factory=dict,
        description="Sex value id → the pronoun a reply says of a person ('he', 'she').",
    )
    clue_values: dict[str, str] = Field(
        default_factory=dict, description="How a clue names a value (female: 'a woman')."
    )
    era_clues: dict[str, list[str]] = Field(
        default_factory=dict, description="A version's year said as the chain's own time."
    )
    qualifier_noun_clues: list[str] = Field(
        default_factory=list,
        description="A version's year naming the person it is of ({n}: 'head of state').",
    )
    era_noun_clues: dict[str, list[str]] = Field(
        default_factory=dict,
        description="The same, naming the person the version is of ({n}: 'head of state').",
    )
    clue_nouns: dict[str, str] = Field(
        default_factory=dict,
        description="Relation of a person's hop → the noun a reply names them by where the "
        "question has another person ('the head of state was born in 1908').",
    )
    clue_fact_nouns: dict[str, str] = Field(
        default_factory=dict,
        description="The same for a reply of a fact (not a year) where the question has said "
        "the noun already ('the leader died in 1979', not 'the head of government' again).",
    )
    criterion_default: CriterionPhrases
    criteria: dict[str, CriterionPhrases]
    criteria_classes: dict[str, CriterionPhrases] = Field(default_factory=dict)
    names: NameRules = Field(default_factory=NameRules)
    style: StylePhrases = Field(default_factory=StylePhrases)
    vague: VaguePhrases = Field(default_factory=VaguePhrases)

    @field_validator(
        "fact_clues",
        "qualifier_clues",
        "person_clues",
        "more_clues",
        "era_clues",
        "era_noun_clues",
        mode="before",
    )
    @classmethod
    def _variants(cls, value: Any) -> Any:
        """A clue entry is one clause or a list of them."""
        if isinstance(value, dict):
            return {k: [v] if isinstance(v, str) else v for k, v in value.items()}
        return value

    def relation(self, pid: str, class_id: str = "", said: bool = False) -> RelationPhrases:
        """A property's phrases; ``class_id`` (the subject's class) may word it its own way
        (a painting is ``painted in``, a company ``founded in``); ``said``: as the question a
        person reads words it (``said_of``/``said_ask`` in place of ``of``/``ask``)."""
        own = self.relations.get(pid)
        merged = self.default if own is None else self._merge(own, self.default)
        special = self.class_relations.get(class_id, {}).get(pid) if class_id else None
        rel = merged if special is None else self._merge(special, merged)
        if said and (rel.said_of or rel.said_ask):
            update = {"of": rel.said_of or rel.of, "ask": rel.said_ask or rel.ask}
            rel = rel.model_copy(update=update)
        return rel

    @staticmethod
    def _merge(own: RelationPhrases, d: RelationPhrases) -> RelationPhrases:
        return RelationPhrases.model_validate(
            {
                "of": own.of or d.of,
                "ask": own.ask or d.ask,
                "again": own.again if own.ask else (own.again or d.again),
                "by": own.by if own.by is not None else d.by,
                "in": own.in_ if own.in_ is not None else d.in_,
                "is": own.is_ or (derive_is(own.by) if own.by else d.is_),
                "is_in": own.is_in or (derive_is(own.in_) if own.in_ else d.is_in),
                "linked": own.linked or d.linked,
                "noun": own.noun or d.noun,
                "named_of": own.named_of or d.named_of,
                "named_ask": own.named_ask or d.named_ask,
                "dated": own.dated or d.dated,
                "said_of": own.said_of if own.of else (own.said_of or d.said_of),
                "said_ask": own.said_ask if own.ask else (own.said_ask or d.said_ask),
                "whose_of": own.whose_of or d.whose_of,
                "typed_of": own.typed_of or d.typed_of,
                "typed_ask": own.typed_ask or d.typed_ask,
            }
        )

    def criterion(self, pid: str, class_id: str = "") -> CriterionPhrases:
        """A criterion's phrases; the ranked noun's class may have vague words of its own."""
        d = self.criterion_default
        for own in (self.criteria.get(pid), self.criteria_classes.get(class_id)):
            if own is not None:
                fields = CriterionPhrases.model_fields
                d = CriterionPhrases(**{k: getattr(own, k) or getattr(d, k) for k in fields})
        return d


def derive_is(reduced: str) -> str:
    """The verb phrase of a reduced modifier: ``directed by {v}`` → ``was directed by {v}``,
    ``in {v}`` → ``is in {v}``. Relations where this guess is wrong set ``is`` themselves."""
    first = reduced.split(" ", 1)[0]
    if first in _PREPOSITIONS:
        return f"is {reduced}"
    return f"was {reduced}"


_PREPOSITIONS = frozenset({"in", "on", "at", "from", "about", "against", "of", "part"})


def _load(name: str, directory: Path) -> dict[str, Any]:
    path = directory / name
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigError(
            f"cannot read template file {path}: {exc}", hint="restore it from the repository"
        ) from None
    if not isinstance(data, dict):
        raise ConfigError(f"template file {path} must hold a mapping")
    return data


@lru_cache(maxsize=4)
def load_templates(directory: Path = TEMPLATE_DIR) -> Templates:
    rel = _load("relations.yaml", directory)
    clues = _load("clues.yaml", directory)
    crit = _load("criteria.yaml", directory)
    names = _load("names.yaml", directory)
    style = _load("style.yaml", directory)
    vague = _load("vague.yaml", directory)
    return Templates.model_validate(
        {
            "default": rel["default"],
            "qualifiers": rel.get("qualifiers", {}),
            "relations": rel.get("relations", {}),
            "not_worded": rel.get("not_worded", {}),
            "class_relations": rel.get("classes", {}),
            "fact_clues": clues.get("fact", {}),
            "qualifier_clues": clues.get("qualifier", {}),
            "clue_frames": clues.get("frames", []),
            "correction_frames": clues.get("correction_frames", []),
            "clue_pronouns": clues.get("pronouns", {}),
            "clue_values": clues.get("values", {}),
            "era_clues": clues.get("era", {}),
            "era_noun_clues": clues.get("era_noun", {}),
            "qualifier_noun_clues": clues.get("qualifier_noun", []),
            "clue_nouns": clues.get("nouns", {}),
            "clue_fact_nouns": clues.get("fact_nouns", {}),
            "person_clues": clues.get("person", {}),
            "more_clues": clues.get("more", {}),
            "criterion_default": crit["default"],
            "criteria": crit.get("criteria", {}),
            "criteria_classes": crit.get("classes", {}),
            "names": names,
            "style": style,
            "vague": vague,
        }
    )
