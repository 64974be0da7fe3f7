"""Review decisions and the audit log of the annotator and inspector rounds."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Round = Literal["annotate", "inspect"]
Verdict = Literal["ok", "issue"]
Overall = Literal["accept", "reject", "fix"]


class CriterionJudgement(BaseModel):
    model_config = ConfigDict(extra="forbid")

    verdict: Verdict
    checkpoint: int | None = Field(None, description="Checkpoint index the issue is about.")


class ReviewDecision(BaseModel):
    """One reviewer's decision on one sample, as pulled from Label Studio."""

    model_config = ConfigDict(extra="forbid")

    sample_id: str
    round: Round
    reviewer: str = Field(description="Label Studio user (email or id) who made it.")
    created_at: str = Field(description="ISO timestamp of the annotation.")
    factuality: CriterionJudgement | None = None
    retrieval: CriterionJudgement | None = None
    logic: CriterionJudgement | None = None
    solvability: CriterionJudgement | None = None
    overall: Overall
    notes: str = ""
    corrected_clue: str = Field("", description="Optional corrected clue (for fix).")
    corrected_clue_checkpoint: int | None = None
    task_id: int | None = Field(None, description="Label Studio task id.")
    annotation_id: int | None = Field(None, description="Label Studio annotation id.")


class AuditEntry(BaseModel):
    """One line of the append-only audit log."""

    model_config = ConfigDict(extra="forbid")

    at: str = Field(description="ISO timestamp when recorded.")
    action: str = Field(description="push, pull, decide, apply_fix, state …")
    sample_id: str = ""
    round: Round | None = None
    actor: str = Field("", description="Who (reviewer or 'discobench').")
    detail: str = Field("", description="Compact JSON or text with the specifics.")
