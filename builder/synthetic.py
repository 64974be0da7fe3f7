"""Synthetic but well-formed records for tests and benchmarks (no knowledge base needed).

Shapes vary with the index: 2–4 hops, 1–3 ambiguous checkpoints of rotating types, all
domains, so exports, scoring and reports see every branch.
"""

from __future__ import annotations

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


def make_sample(i: int, *, status: str = "accepted") -> Sample:
    """A realistic sample whose shape varies with ``i`` (1–3 ambiguous of 2–4 hops)."""
    hops = 2 + i % 3
    n_amb = 1 + i % min(3, hops)
    checkpoints = []
    for h in range(1, hops + 1):
        amb = h <= n_amb
        kind = AMBIGUITY_TYPES[(i + h) % 4] if amb else ""
        checkpoints.append(
            Checkpoint(
                index=h,
                goal=f"Which entity is hop {h} of chain {i}?",
                answer=f"answer {i}-{h}",
                answer_aliases=[f"alias {i}-{h}"] if h % 2 else [],
                entity_id=f"L:e{i}-{h}" if h < hops else "",
                ambiguous=amb,
                ambiguity_type=kind,
                ambiguity_note=f"constraint dropped at hop {h}" if amb else "",
                candidates=(
                    [
                        Candidate(id=f"L:e{i}-{h}", label=f"answer {i}-{h}", downstream_answer="x"),
                        Candidate(id=f"L:o{i}-{h}", label=f"other {i}-{h}", downstream_answer="y"),
                    ]
                    if amb
                    else []
                ),
                clue=f"I remember hop {h} was the one from {1990 + h}" if amb else "",
                evidence=[Evidence(title=f"Page {i}-{h}", url="", snippet=f"Fact {i}-{h}.")],
            )
        )
    return Sample(
        id=f"disco-{i:06d}",
        domain=DOMAINS[i % len(DOMAINS)],
        difficulty=difficulty_for(n_amb),
        question=f"Vague question number {i}?",
        unambiguous_question=f"Precise question number {i} with every constraint?",
        answer=f"answer {i}-{hops}",
        answer_aliases=[f"alias {i}-{hops}"],
        checkpoints=checkpoints,
        num_ambiguities=n_amb,
        provenance=Provenance(snapshot_id="test-kb", snapshot_version="2024-06", seed_id=f"s{i}"),
        review=ReviewInfo(status=status, annotators=2, agreement=0.5 + (i % 5) / 10),
    )
