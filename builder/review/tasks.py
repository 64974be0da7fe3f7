"""Samples as Label Studio tasks.

A task's ``data`` carries what the labeling configs in ``annotation_configs/`` display (the
question against the unambiguous question, the answer, one block per checkpoint for the
config's ``Repeater`` with the per-checkpoint questions, the automatic checks in words and,
on a re-sent item, a revision banner); its ``meta`` carries our own identity (sample id,
revision, content hash), which is how pushes match items against the server: Label Studio
itself happily imports duplicates. No prediction is sent: the checks are information, and
nothing a human must decide is pre-filled.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from builder.records.review import CriterionJudgement, ReviewDecision, Round
from builder.records.sample import Sample
from builder.review import render
from builder.review.decisions import decision_from_result, result_for
from builder.review.render import CheckReportLike, CheckResultLike, e

__all__ = [
    "CheckReportLike",
    "CheckResultLike",
    "Checker",
    "content_hash",
    "decision_from_result",
    "result_for",
    "task_payload",
]

Checker = Callable[[Sample], CheckReportLike]


def content_hash(sample: Sample) -> str:
    """Hash of everything a reviewer sees or judges (the review info itself excluded)."""
    payload = sample.model_dump(mode="json", exclude={"review"})
    raw = json.dumps(payload, sort_keys=True, ensure_ascii=False).encode("utf-8")
    return hashlib.sha256(raw).hexdigest()[:32]


def _cell(j: CriterionJudgement | None) -> str:
    if j is None:
        return "—"
    return j.verdict + (f" (cp {j.checkpoint})" if j.checkpoint is not None else "")


def _verdicts(d: ReviewDecision) -> str:
    words = {"yes": "yes", "no": "NO", None: "—"}
    return "; ".join(
        f"cp {v.index}: unique {words[v.unique]}"
        + (f", clue {words[v.clue_singles_out]}" if v.clue_singles_out else "")
        for v in d.checkpoints
    )


def annotators_html(decisions: Iterable[ReviewDecision]) -> str:
    rows = "".join(
        "<tr>"
        + "".join(
            f"<td>{e(v)}</td>"
            for v in (
                d.reviewer + (f" (by changing {d.author}'s annotation)" if d.author else ""),
                d.created_at,
                d.overall,
                _cell(d.factuality),
                _cell(d.retrieval),
                _cell(d.logic),
                _cell(d.solvability),
                _verdicts(d) or "—",
                d.notes or "—",
                (
                    f"cp {d.corrected_clue_checkpoint}: {d.corrected_clue}"
                    if d.corrected_clue
                    else "—"
                ),
            )
        )
        + "</tr>"
        for d in decisions
    )
    return render._template("annotators.html").substitute(rows=rows)


def _yes_no(yes: str, no: str) -> list[dict[str, str]]:
    return [{"value": "yes", "html": yes}, {"value": "no", "html": no}]


def checkpoint_data(sample: Sample) -> list[dict[str, Any]]:
    """One entry per checkpoint for the config's ``Repeater`` (block and its questions)."""
    return [
        {
            "index": cp.index,
            "html": render.checkpoint_html(cp),
            # only ambiguous hops ask whether the clue singles the answer out
            "clue_options": _yes_no(
                f"Yes: the clue singles out {cp.answer}",
                "No: with the clue, more than one candidate (or none) is left",
            )
            if cp.ambiguous
            else [],
        }
        for cp in sample.checkpoints
    ]


def task_payload(
    sample: Sample,
    *,
    revision: int,
    round: Round,
    report: CheckReportLike | None,
    annotator_decisions: Sequence[ReviewDecision] = (),
    change: str = "",
) -> dict[str, Any]:
    """The import payload of one item: data and meta (our identity); no prediction."""
    data: dict[str, Any] = {
        "sample_id": sample.id,
        "revision": revision,
        "revision_html": render.revision_html(revision, change),
        "domain": sample.domain,
        "difficulty": sample.difficulty,
        "question": sample.question,
        "unambiguous_question": sample.unambiguous_question,
        "question_diff_html": render.question_diff_html(
            sample.question, sample.unambiguous_question
        ),
        "answer": sample.answer,
        "checkpoints": checkpoint_data(sample),
        "checkpoint_options": [
            {"value": str(cp.index), "html": f"Checkpoint {cp.index}: {render.e(cp.goal)}"}
            for cp in sample.checkpoints
        ],
        "checks_html": render.checks_html(report),
    }
    if round == "inspect":
        data["annotators_html"] = annotators_html(annotator_decisions)
    return {"data": data, "meta": task_meta(sample, revision=revision, round=round)}


def task_meta(sample: Sample, *, revision: int, round: Round) -> dict[str, Any]:
    return {
        "discobench_sample_id": sample.id,
        "revision": revision,
        "round": round,
        "content_hash": content_hash(sample),
    }
