"""Typed metric records: the ``--json`` output of ``discobench eval score``.

Top-level keys follow ../shared/design/evaluation.md exactly; the few extra keys (counts that
explain the ratios and the notes the scorer must print) are documented in docs/evaluation.md.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from builder.records.trajectory import RunInfo

PROFILES: tuple[str, ...] = ("DirectGuess", "SearchHeavyGuess", "DirectAsk", "SearchThenAsk")
Profile = Literal["DirectGuess", "SearchHeavyGuess", "DirectAsk", "SearchThenAsk"]
DIFFICULTIES: tuple[str, ...] = ("easy", "medium", "hard")


class _Rec(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ProfileStats(_Rec):
    count: int = Field(description="Gold-ambiguous checkpoints with this profile.")
    share: float | None = Field(description="count / all gold-ambiguous checkpoints.")
    pass_rate: float | None = Field(description="Passed share of these; null when count is 0.")


class TypeStats(_Rec):
    count: int = Field(description="Gold-ambiguous checkpoints of this type.")
    recall: float | None = Field(description="Share of them that were asked.")
    pass_rate: float | None = Field(description="Share of them that passed.")


class DifficultyStats(_Rec):
    n_samples: int
    accuracy: float | None
    checkpoint_pass: float | None


class DomainStats(_Rec):
    n_samples: int
    accuracy: float | None


class Confusion(_Rec):
    """Detection cells over all checkpoints: predicted = asked, gold = ambiguous."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0


class Metrics(_Rec):
    """Everything ``eval score`` reports for one run over one dataset."""

    n_samples: int = Field(description="Samples in the dataset.")
    accuracy: float | None = Field(description="Share of samples with a matching final answer.")
    checkpoint_pass: float | None = Field(description="Passed / all checkpoints (micro).")
    detection_accuracy: float | None = Field(description="(TP+TN)/(TP+TN+FP+FN).")
    detection_f1: float | None = Field(description="2TP/(2TP+FP+FN); null when that is 0/0.")
    ambiguity_recall: float | None = Field(description="TP/(TP+FN); null without ambiguity.")
    ce_a: float | None = Field(description="Asks targeting an ambiguous checkpoint / all asks.")
    ce_b: float | None = Field(
        description="Asks targeting an ambiguous checkpoint that passed / all asks."
    )
    ask_turns: float | None = Field(description="Mean ask events per sample.")
    search_turns: float | None = Field(description="Mean search events per sample.")
    input_tokens: float | None = Field(description="Mean input tokens per sample.")
    output_tokens: float | None = Field(description="Mean output tokens per sample.")
    n_errors: int = Field(description="Episodes with a non-null error.")
    n_missing: int = Field(description="Dataset samples with no trajectory.")
    profiles: dict[str, ProfileStats]
    by_type: dict[str, TypeStats]
    by_difficulty: dict[str, DifficultyStats]
    by_domain: dict[str, DomainStats]
    heavy_search: int = Field(description="H: searches from which a guess is SearchHeavyGuess.")
    run: RunInfo | None = Field(description="The trajectories' run fields when they all agree.")
    # --- extras: counts behind the ratios, and what the scorer had to decide
    ambiguous_checkpoint_pass: float | None = Field(
        None, description="Passed share of gold-ambiguous checkpoints (all profiles pooled)."
    )
    detection: Confusion = Field(default_factory=Confusion)
    n_checkpoints: int = 0
    n_ambiguous: int = Field(0, description="Gold-ambiguous checkpoints.")
    n_asks: int = 0
    n_trajectories: int = Field(0, description="Trajectory lines read.")
    n_duplicates: int = Field(0, description="Lines superseded by a later one (same sample, run).")
    n_unknown: int = Field(0, description="Trajectories whose sample_id is not in the dataset.")
    n_assigned_targets: int = Field(
        0, description="Asks without a target key, assigned by the default matcher."
    )
    n_invalid_targets: int = Field(
        0, description="Asks whose target is not a checkpoint index of the sample."
    )
    notes: list[str] = Field(default_factory=list, description="What the scorer decided, said.")
