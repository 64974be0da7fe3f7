"""Seed chains and injection plans: verifiable multi-hop chains over the snapshot.

Every hop's description is a :class:`HopSpec`: what a query needs to find the hop's answer
again (a link from the previous answer, a class, constraints, a time qualifier, a ranking
criterion). Seeding writes specs, injection weakens them (:class:`InjectionSpec`), and the
checks re-run them against the store. Samples carry the plan as :class:`GeneratorInfo`
(compact JSON in ``Provenance.generator``), so checks work on a Sample alone.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from builder.records.sample import AmbiguityType, Certificate, Domain, Evidence

AnswerKind = Literal["entity", "time", "quantity", "string"]


class _Rec(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Constraint(_Rec):
    """One fact that narrows a hop's entity: ``?x property value``."""

    property: str = Field(description="Property id, e.g. P178 (developer).")
    value: str = Field(description="Value key (entity id, time string or amount).")
    value_label: str = Field("", description="Display text of the value.")
    match: Literal["exact", "year"] = Field(
        "exact", description="exact: same value key; year: a time value in the same year."
    )


class HopSpec(_Rec):
    """A hop's description as a query: the answer is every value that fits all of it.

    Fits are: link pool (``prev link ?x``, or ``?x link prev`` when ``link_inverse``; for hop 1
    the pool of the most selective constraint), filtered by ``class_id`` and ``constraints``,
    by the ``qualifier`` year of the link statement, then the top by ``criterion``.
    """

    link: str = Field("", description="Property linking the previous answer; empty for hop 1.")
    anchor: str = Field(
        "",
        description="Hop 1 only: the named entity the hop links from (an award, an office, a "
        "club…), in place of a previous answer.",
    )
    link_inverse: bool = Field(False, description="True: ``?x link prev`` (e.g. games BY x).")
    qualifier: str = Field("", description="P585/P580 of the link statement that pins a version.")
    qualifier_value: str = Field("", description="Time string of that qualifier (year match).")
    any_time: bool = Field(
        False, description="Weakened version: every time-qualified value of the link fits."
    )
    class_id: str = Field("", description="Class of ?x (P31/P279*), empty for literals.")
    constraints: list[Constraint] = Field(default_factory=list)
    criterion: str = Field("", description="Numeric property ranking the fits (superlative).")
    criterion_order: Literal["max", "min"] = "max"
    criteria_options: list[str] = Field(
        default_factory=list,
        description="Weakened criteria: numeric properties a vague superlative may mean.",
    )


class Hop(_Rec):
    """One step of a seed chain; becomes one Checkpoint."""

    index: int = Field(ge=1)
    subject_id: str = Field("", description="Previous hop's answer id; empty for hop 1.")
    spec: HopSpec
    goal: str = Field(description="The sub-question in English.")
    answer: str
    answer_key: str = Field(description="Value key of the answer (entity id, time, amount).")
    answer_aliases: list[str] = Field(default_factory=list)
    answer_id: str = Field("", description="KB id when the answer is an entity.")
    answer_kind: AnswerKind = "entity"
    evidence: list[Evidence] = Field(default_factory=list)
    certificate: Certificate = Field(
        default_factory=Certificate,
        description="Why the description has exactly this answer in the real world.",
    )


class SeedChain(_Rec):
    """A verifiable multi-hop chain."""

    id: str = Field(description="Stable id, e.g. seed-000042.")
    domain: Domain
    topic_id: str = Field(description="KB id of the hop-1 entity.")
    hops: list[Hop] = Field(min_length=1)
    question: str = Field("", description="Unambiguous question text for the whole chain.")


class ClueFact(_Rec):
    """The structured fact a clue was built from, so ``solvable`` can re-check it by query.

    kind ``fact``: the candidate holds ``property`` = ``value`` (year match for times);
    ``qualifier``: the candidate's link statement has qualifier ``property`` in ``value``'s
    year; ``criterion``: the candidate ranks first by numeric ``property``.
    """

    kind: Literal["fact", "qualifier", "criterion"] = "fact"
    property: str
    value: str = ""
    value_label: str = ""
    match: Literal["exact", "year"] = "exact"
    text: str = Field(description="The clue as generated; an edited clue differs from it.")

    @classmethod
    def from_fact(cls, c: Constraint, text: str = "") -> ClueFact:
        """The clue fact of a constraint the target holds (kind ``fact``)."""
        return cls(
            kind="fact",
            property=c.property,
            value=c.value,
            value_label=c.value_label,
            match=c.match,
            text=text,
        )


class InjectionSpec(_Rec):
    """How a checkpoint was made ambiguous."""

    type: AmbiguityType
    constraint: int = Field(
        -1,
        description="Index of the dropped (entity) or falsified (factual) constraint; for "
        "entity, -1 drops the time qualifier of a version described by a fact of its holder "
        "(the Japanese Nobel laureate in physics, no year given).",
    )
    false_value: str = Field("", description="factual: the false value key put in its place.")
    false_label: str = ""
    criteria: list[str] = Field(
        default_factory=list,
        description="criteria: numeric properties the vague superlative "
        "may mean (the gold criterion first).",
    )
    clue: ClueFact


class PlanHop(_Rec):
    """One checkpoint's query plan: the gold spec, and the injection if ambiguous."""

    index: int = Field(ge=1)
    spec: HopSpec
    answer_key: str
    answer_kind: AnswerKind = "entity"
    injection: InjectionSpec | None = None


class GeneratorInfo(_Rec):
    """What ``Provenance.generator`` holds (compact JSON): settings and the chain's plan."""

    seed: int = 0
    types: list[str] = Field(default_factory=list)
    paraphrase_model: str = ""
    plan: list[PlanHop] = Field(default_factory=list)


class Reject(_Rec):
    """One item that failed a stage or a check, with the numbers behind the failure.

    Rejects are JSONL of these (``builder.samples_io.write_rejects``); a run goes on after one.
    """

    seed_id: str = Field("", description="Seed chain the item came from, if any.")
    sample_id: str = Field("", description="Sample id, empty when no sample was built.")
    check: str = Field(
        description="Failing check (unique, ambiguous, solvable, consequential, no_leakage, "
        "retrievable) or stage step (e.g. inject:entity, seed)."
    )
    reason: str = Field(description="One-line human reason.")
    detail: str = Field("", description="The numbers behind it (counts, ids), compact text.")
