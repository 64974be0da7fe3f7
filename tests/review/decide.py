"""Decisions as a reviewer who answers every required question makes them (tests only)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from builder.records.review import CheckpointVerdict, ReviewDecision
from builder.records.sample import Sample

FACTORY_CHECKPOINTS: tuple[tuple[int, bool], ...] = ((1, True), (2, False))
"""(index, ambiguous) of the factory's samples: a two-hop chain, the first hop ambiguous."""


def shape(sample: Sample) -> tuple[tuple[int, bool], ...]:
    return tuple((cp.index, cp.ambiguous) for cp in sample.checkpoints)


def confirmed(
    checkpoints: Sequence[tuple[int, bool]] = FACTORY_CHECKPOINTS,
    *,
    not_unique: Sequence[int] = (),
) -> list[CheckpointVerdict]:
    """Every checkpoint confirmed (unique; clue singles it out), except ``not_unique``."""
    return [
        CheckpointVerdict(
            index=i,
            unique="no" if i in not_unique else "yes",
            clue_singles_out="yes" if ambiguous else None,
        )
        for i, ambiguous in checkpoints
    ]


def decision(
    overall: str,
    *,
    checkpoints: Sequence[tuple[int, bool]] = FACTORY_CHECKPOINTS,
    notes: str | None = None,
    corrected_clue: str | None = None,
    corrected_clue_checkpoint: int | None = None,
    **extra: Any,
) -> ReviewDecision:
    """A complete decision: reject and fix get notes, a fix a clue for the first Ambi hop."""
    first_ambi = next((i for i, ambiguous in checkpoints if ambiguous), 1)
    if notes is None:
        notes = "" if overall == "accept" else f"reason for {overall}"
    if corrected_clue is None:
        corrected_clue = "The poster showed a spinning top." if overall == "fix" else ""
    if corrected_clue and corrected_clue_checkpoint is None:
        corrected_clue_checkpoint = first_ambi
    fields: dict[str, Any] = {
        "sample_id": "-",
        "round": "annotate",
        "reviewer": "-",
        "created_at": "-",
        "overall": overall,
        "notes": notes,
        "corrected_clue": corrected_clue,
        "corrected_clue_checkpoint": corrected_clue_checkpoint,
        "checkpoints": confirmed(checkpoints),
        **extra,
    }
    return ReviewDecision.model_validate(fields)
