"""Small hand-built samples and trajectories for the evaluation tests."""

from __future__ import annotations

from typing import Any

from builder.records.sample import Candidate, Checkpoint, Sample, difficulty_for
from builder.records.trajectory import Trajectory


def cp(
    index: int,
    answer: str,
    *,
    goal: str = "",
    amb: str = "",
    aliases: list[str] | None = None,
    candidates: list[Candidate] | None = None,
    clue: str = "",
) -> Checkpoint:
    return Checkpoint(
        index=index,
        goal=goal or f"Which thing is step {index}?",
        answer=answer,
        answer_aliases=aliases or [],
        ambiguous=bool(amb),
        ambiguity_type=amb,
        candidates=candidates or [],
        clue=clue,
    )


def sample(sid: str, domain: str, checkpoints: list[Checkpoint], **kw: Any) -> Sample:
    n_amb = sum(c.ambiguous for c in checkpoints)
    last = checkpoints[-1]
    return Sample(
        id=sid,
        domain=domain,
        difficulty=difficulty_for(n_amb),
        question=kw.get("question", f"Question {sid}?"),
        unambiguous_question=kw.get("unambiguous_question", f"Precise question {sid}?"),
        answer=last.answer,
        answer_aliases=last.answer_aliases,
        checkpoints=checkpoints,
        num_ambiguities=n_amb,
    )


def traj(sid: str, events: list[dict[str, Any]], **kw: Any) -> Trajectory:
    data: dict[str, Any] = {"sample_id": sid, "events": events}
    data.update(kw)
    return Trajectory.model_validate(data)


S = {"type": "search", "query": "q"}


def ask(target: int | str | None = "absent", question: str = "Which one?") -> dict[str, Any]:
    ev: dict[str, Any] = {"type": "ask", "question": question, "reply": "..."}
    if target != "absent":
        ev["target"] = target
    return ev


def answer(final: str, checkpoints: dict[str, str] | None = None) -> dict[str, Any]:
    ev: dict[str, Any] = {"type": "answer", "answer": final}
    if checkpoints is not None:
        ev["checkpoints"] = checkpoints
    return ev


def three_samples() -> list[Sample]:
    """The dataset of the hand-computed scorer case (see test_scorer.py)."""
    return [
        sample(
            "s1",
            "film_tv",
            [
                cp(1, "Breath of the Wild", amb="entity", aliases=["BotW"]),
                cp(2, "Hidemaro Fujibayashi"),
            ],
        ),
        sample(
            "s2",
            "games",
            [cp(1, "2017", amb="version"), cp(2, "Tokyo", amb="criteria"), cp(3, "Japan")],
        ),
        sample("s3", "music", [cp(1, "X"), cp(2, "Y", amb="factual")]),
    ]
