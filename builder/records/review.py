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


Confirmation = Literal["yes", "no"]


class CheckpointVerdict(BaseModel):
    """A reviewer's verdict on one checkpoint: what the machine cannot certify."""

    model_config = ConfigDict(extra="forbid")

    index: int = Field(ge=1, description="Checkpoint index.")
    unique: Confirmation | None = Field(
        None, description="Is the hop's answer the only one in the real world?"
    )
    clue_singles_out: Confirmation | None = Field(
        None, description="Ambiguous hops: does the clue single the answer out? None otherwise."
    )

    def confirmed(self, ambiguous: bool) -> bool:
        return self.unique == "yes" and (not ambiguous or self.clue_singles_out == "yes")


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
    checkpoints: list[CheckpointVerdict] = Field(
        default_factory=list, description="Per-checkpoint verdicts, in checkpoint order."
    )
    author: str = Field(
        "",
        description="Who created the Label Studio annotation when someone else (``reviewer``) "
        "overwrote it; empty when the reviewer is its author.",
    )
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


ReviewState = Literal[
    "draft", "in_annotation", "annotated", "in_inspection", "accepted", "rejected", "needs_fix"
]
REVIEW_STATES: tuple[str, ...] = (
    "draft",
    "in_annotation",
    "annotated",
    "in_inspection",
    "accepted",
    "rejected",
    "needs_fix",
)
QUESTIONS: tuple[str, ...] = ("factuality", "retrieval", "logic", "solvability", "overall")
"""The per-item questions agreement is computed on (criteria verdicts and the overall call)."""


class _Report(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ItemIssue(_Report):
    """A per-item problem recorded instead of stopping the run."""

    sample_id: str
    reason: str


class PairAgreement(_Report):
    rater_a: str
    rater_b: str
    items: int = Field(description="Items both raters answered.")
    kappa: float | None = Field(description="Cohen's kappa; None when undefined.")


class QuestionAgreement(_Report):
    question: str
    units: int = Field(description="Items with at least two answers.")
    alpha: float | None = Field(description="Krippendorff's alpha (nominal); None if undefined.")
    pairs: list[PairAgreement] = Field(default_factory=list)


class AgreementReport(_Report):
    """Agreement of the annotator round, per question."""

    questions: list[QuestionAgreement] = Field(default_factory=list)

    def get(self, question: str) -> QuestionAgreement | None:
        return next((q for q in self.questions if q.question == question), None)


class PushReport(_Report):
    round: Round
    project_id: int
    imported: int = Field(0, description="Tasks created (bulk import).")
    updated: int = Field(0, description="Tasks whose data changed and were updated in place.")
    unchanged: int = Field(0, description="Items already on the server with the same content.")
    batches: int = Field(0, description="Bulk import calls made.")
    skipped: list[ItemIssue] = Field(default_factory=list)


class Refusal(_Report):
    """A submission pull did not count as a decision, with the reason (shown by status)."""

    sample_id: str
    round: Round
    reviewer: str
    annotation_id: int
    reason: str


class Queue(_Report):
    """Where the reviewers of a round work: the project's labeling stream."""

    round: Round
    project_id: int
    url: str


class PullReport(_Report):
    tasks_seen: int = 0
    new_decisions: int = 0
    revised_decisions: int = 0
    overwrites: int = Field(0, description="Annotations changed by someone else than the author.")
    refused: list[Refusal] = Field(
        default_factory=list, description="Submissions refused this pull (not decisions)."
    )
    transitions: dict[str, int] = Field(
        default_factory=dict, description="Items that moved into each state during this pull."
    )
    fixes_applied: int = 0
    issues: list[ItemIssue] = Field(default_factory=list)
    agreement: AgreementReport = Field(default_factory=AgreementReport)


class StatusReport(_Report):
    counts: dict[str, int] = Field(default_factory=dict, description="Items per review state.")
    total: int = 0
    agreement: AgreementReport = Field(default_factory=AgreementReport)
    refused: list[Refusal] = Field(
        default_factory=list, description="Open refusals: the item waits for a valid decision."
    )
    queues: list[Queue] = Field(default_factory=list, description="Labeling queue per round.")
    reviewers: dict[str, str] = Field(
        default_factory=dict, description="Reviewers added with `review annotators add`: role."
    )
