"""Typed records crossing stage boundaries. Pure models, no I/O."""

from builder.records.page import Page
from builder.records.review import AuditEntry, CriterionJudgement, ReviewDecision
from builder.records.sample import (
    AMBIGUITY_TYPES,
    DOMAINS,
    Candidate,
    Checkpoint,
    Evidence,
    Provenance,
    ReviewInfo,
    Sample,
    difficulty_for,
)
from builder.records.seed import Constraint, Hop, Reject, SeedChain
from builder.records.trajectory import (
    AnswerEvent,
    AskEvent,
    Event,
    OtherEvent,
    RunInfo,
    SearchEvent,
    Trajectory,
    Usage,
)
from builder.records.wikidata import (
    DataValue,
    Entity,
    EntityIdValue,
    Lexeme,
    QuantityValue,
    Snak,
    Statement,
    TimeValue,
)

__all__ = [
    "AMBIGUITY_TYPES",
    "DOMAINS",
    "AnswerEvent",
    "AskEvent",
    "AuditEntry",
    "Candidate",
    "Checkpoint",
    "Constraint",
    "CriterionJudgement",
    "DataValue",
    "Entity",
    "EntityIdValue",
    "Event",
    "Evidence",
    "Hop",
    "Lexeme",
    "OtherEvent",
    "Page",
    "Provenance",
    "QuantityValue",
    "Reject",
    "ReviewDecision",
    "ReviewInfo",
    "RunInfo",
    "Sample",
    "SearchEvent",
    "SeedChain",
    "Snak",
    "Statement",
    "TimeValue",
    "Trajectory",
    "Usage",
    "difficulty_for",
]
