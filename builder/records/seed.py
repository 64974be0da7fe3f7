"""Seed chains: verifiable multi-hop chains over the snapshot, before any ambiguity.

Hop 1 identifies a topic entity by constraints; each later hop follows one relation from
the previous hop's answer; the last hop ends in a checkable fact.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from builder.records.sample import Domain, Evidence

AnswerKind = Literal["entity", "time", "quantity", "string"]


class Constraint(BaseModel):
    """One fact that narrows a hop's entity: ``?x property value`` (optionally qualified)."""

    model_config = ConfigDict(extra="forbid")

    property: str = Field(description="Property id, e.g. P178 (developer).")
    value: str = Field(description="Value key (entity id, time string or amount).")
    value_label: str = Field("", description="Display text of the value.")
    inverse: bool = Field(
        False, description="True when the constraint reads ``value property ?x`` instead."
    )
    qualifier: str = Field("", description="Qualifier property that pins a version, if any.")
    qualifier_value: str = Field("", description="Qualifier value key, if any.")


class Hop(BaseModel):
    """One step of a seed chain; becomes one Checkpoint."""

    model_config = ConfigDict(extra="forbid")

    index: int = Field(ge=1)
    subject_id: str = Field(
        "", description="Entity the relation starts from (the previous answer); empty for hop 1."
    )
    property: str = Field("", description="Relation followed from the subject; empty for hop 1.")
    constraints: list[Constraint] = Field(
        default_factory=list, description="Facts that single out this hop's answer."
    )
    goal: str = Field(description="The sub-question in English.")
    answer: str
    answer_aliases: list[str] = Field(default_factory=list)
    answer_id: str = Field("", description="KB id when the answer is an entity.")
    answer_kind: AnswerKind = "entity"
    evidence: list[Evidence] = Field(default_factory=list)


class SeedChain(BaseModel):
    """A verifiable multi-hop chain."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(description="Stable id, e.g. seed-000042.")
    domain: Domain
    topic_id: str = Field(description="KB id of the hop-1 entity.")
    hops: list[Hop] = Field(min_length=1)
    question: str = Field("", description="Unambiguous question text for the whole chain.")


class Reject(BaseModel):
    """One item that failed a stage or a check, with the numbers behind the failure.

    Rejects are JSONL of these (``builder.samples_io.write_rejects``); a run goes on after one.
    """

    model_config = ConfigDict(extra="forbid")

    seed_id: str = Field("", description="Seed chain the item came from, if any.")
    sample_id: str = Field("", description="Sample id, empty when no sample was built.")
    check: str = Field(
        description="Failing check (unique, ambiguous, solvable, consequential, no_leakage, "
        "retrievable) or stage step (e.g. inject:entity, seed)."
    )
    reason: str = Field(description="One-line human reason.")
    detail: str = Field("", description="The numbers behind it (counts, ids), compact text.")
