"""The benchmark item (Sample) and its hops (Checkpoint): the export row.

These records are the single source of the export's ``datasets.Features``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Domain = Literal[
    "film_tv",
    "games",
    "academic",
    "art",
    "finance",
    "sports",
    "geography",
    "music",
    "medicine",
    "technology",
    "law_policy",
]
DOMAINS: tuple[str, ...] = (
    "film_tv",
    "games",
    "academic",
    "art",
    "finance",
    "sports",
    "geography",
    "music",
    "medicine",
    "technology",
    "law_policy",
)
Difficulty = Literal["easy", "medium", "hard"]
AmbiguityType = Literal["entity", "version", "criteria", "factual"]
AMBIGUITY_TYPES: tuple[str, ...] = ("entity", "version", "criteria", "factual")
ReviewStatus = Literal[
    "draft", "in_annotation", "annotated", "in_inspection", "accepted", "rejected", "needs_fix"
]


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Candidate(_Record):
    """One entity that fits an ambiguous checkpoint's weakened description."""

    id: str = Field(description="KB id of the candidate.")
    label: str = Field(description="Its English label.")
    downstream_answer: str = Field(
        description="The final answer the rest of the chain gives if this candidate is chosen "
        "(empty when the chain cannot be executed from it)."
    )


class Evidence(_Record):
    """A page that states the checkpoint's fact."""

    title: str
    url: str = ""
    snippet: str = Field(description="A sentence of the page that states the fact.")


CertificateBasis = Literal["single_value", "complete_set", "live_count", ""]


class Certificate(_Record):
    """Why a checkpoint's description has exactly the answers it claims in the real world.

    A description is evaluated over a set known to be complete in the real world (one value
    per subject, a declared-complete list, or a count over all of Wikidata); ``matches`` and
    ``clue_matches`` are computed over that set. ``discobench validate`` re-computes both.
    """

    basis: CertificateBasis = Field(
        "",
        description="single_value (the property has one value per subject), complete_set (a "
        "set declared complete in the snapshot) or live_count (counted over all of Wikidata).",
    )
    source: str = Field(
        "", description="The property id, the completeness declaration's id, or the SPARQL query."
    )
    as_of: str = Field("", description="Date the set is known complete at (YYYY-MM-DD).")
    universe: list[str] = Field(
        default_factory=list,
        description="Ids (or literal value keys) of the complete set the description was "
        "evaluated in.",
    )
    matches: list[str] = Field(
        default_factory=list,
        description="Members fitting the description as the question words it: exactly one "
        "when unambiguous; the candidates for entity/version/criteria; none for factual.",
    )
    clue_matches: list[str] = Field(
        default_factory=list,
        description="Members fitting the weakened description plus the clue: exactly the "
        "target when ambiguous; empty otherwise.",
    )
    explanation: str = Field(
        "", description="The certificate in plain words, for reviewers and `discobench show`."
    )


class Checkpoint(_Record):
    """One hop of the multi-hop question."""

    index: int = Field(ge=1, description="1-based position in the chain.")
    goal: str = Field(description="The sub-question this hop answers.")
    unambiguous_goal: str = Field(
        "",
        description="The sub-question as the unambiguous question asks it (the weakened "
        "description restored); empty when the hop is not ambiguous.",
    )
    answer: str = Field(description="Gold answer of the hop.")
    answer_aliases: list[str] = Field(default_factory=list, description="Accepted alternatives.")
    entity_id: str = Field("", description="KB id of the answer, empty for literals.")
    ambiguous: bool = Field(False, description="Whether this hop is ambiguous (Ambi).")
    ambiguity_type: AmbiguityType | Literal[""] = Field(
        "", description="entity, version, criteria, factual, or empty when not ambiguous."
    )
    ambiguity_note: str = Field("", description="What is underspecified, for reviewers.")
    candidates: list[Candidate] = Field(
        default_factory=list, description="Entities that fit the weakened description."
    )
    clue: str = Field(
        "", description="The user's memory fragment that resolves it; empty when unambiguous."
    )
    evidence: list[Evidence] = Field(default_factory=list)
    certificate: Certificate = Field(
        default_factory=Certificate,
        description="Why the hop's description has exactly the answers it claims in the real "
        "world (empty basis: not certified).",
    )


class Provenance(_Record):
    snapshot_id: str = Field("", description="Identifier of the knowledge snapshot.")
    snapshot_version: str = Field("", description="Version/date of the knowledge snapshot.")
    builder_version: str = Field("", description="discobench-builder version that built it.")
    created_at: str = Field("", description="ISO timestamp of creation.")
    seed_id: str = Field("", description="Id of the seed chain the sample was built from.")
    generator: str = Field(
        "", description="Generator settings as compact JSON (seed, types, paraphrase model)."
    )


class ReviewInfo(_Record):
    status: ReviewStatus = Field("draft", description="Review state of the sample.")
    annotators: int = Field(0, ge=0, description="Number of annotators who reviewed it.")
    agreement: float | None = Field(
        None, description="Share of annotator pairs agreeing on the overall decision."
    )
    inspector_decision: Literal["", "accept", "reject", "fix"] = Field(
        "", description="Final decision of the quality inspector."
    )
    reason: str = Field("", description="Inspector's reason or notes.")


class Sample(_Record):
    """One benchmark item."""

    id: str = Field(description="Stable id, e.g. disco-000123.")
    domain: Domain
    difficulty: Difficulty = Field(description="easy=1, medium=2, hard=3+ ambiguous checkpoints.")
    question: str = Field(description="The question as the (vague) user asks it.")
    unambiguous_question: str = Field(description="The question with every constraint restored.")
    answer: str = Field(description="Gold final answer (the last checkpoint's answer).")
    answer_aliases: list[str] = Field(default_factory=list)
    checkpoints: list[Checkpoint] = Field(min_length=1)
    num_ambiguities: int = Field(ge=0, description="Number of ambiguous checkpoints.")
    canary: str = Field("", description="Contamination canary string, when the export sets one.")
    provenance: Provenance = Field(default_factory=Provenance)
    review: ReviewInfo = Field(default_factory=ReviewInfo)


def difficulty_for(num_ambiguities: int) -> Difficulty:
    """easy = 1 ambiguous checkpoint, medium = 2, hard = 3 or more."""
    if num_ambiguities <= 1:
        return "easy"
    if num_ambiguities == 2:
        return "medium"
    return "hard"
