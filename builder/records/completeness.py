"""Completeness declarations: sets of statements known to be complete in the real world.

The snapshot is not the world. A description is unique only when it is evaluated over a set
that is known to hold every real member; a declaration says which set that is and as of when.
Declarations live in the snapshot sources next to the facts (``seeds/kb/src/*.yaml``, key
``complete:``) and reach the store through ``completeness.json``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Declaration(BaseModel):
    """``forward``: every real value of ``subject``'s ``property`` is in the snapshot (e.g. all
    countries bordering France, all Palme d'Or winners 1994–2024). ``inverse``: every real
    entity ``x`` with ``x property subject`` is (e.g. all feature films Nolan directed).

    ``since``/``until`` (years, inclusive) restrict a forward set of time-qualified statements
    to those whose time (P585, or the P580–P582 term) meets the range; ``class_id`` restricts an
    inverse set to instances of a class (P31/P279*)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(description="Stable id, e.g. palme-dor-winners-1994-2024.")
    subject: str = Field(description="Entity id the set hangs on (its owner, or the value).")
    property: str = Field(description="Property id of the statements, e.g. P57.")
    direction: Literal["forward", "inverse"] = Field(
        description="forward: values of subject.property; inverse: x with x.property = subject."
    )
    class_id: str = Field("", description="inverse only: members are instances of this class.")
    since: int | None = Field(None, description="forward, timed: first year covered.")
    until: int | None = Field(None, description="forward, timed: last year covered.")
    as_of: str = Field(description="Date the set is complete at (YYYY-MM-DD).")
    scope: str = Field(description="The set in plain words, e.g. 'feature films he directed'.")
    note: str = Field("", description="Sources or caveats, for reviewers.")


class CompletenessFile(BaseModel):
    """``completeness.json`` beside a snapshot's entities."""

    model_config = ConfigDict(extra="forbid")

    declarations: list[Declaration] = Field(default_factory=list)


Basis = Literal["single_value", "complete_set", "live_count"]
