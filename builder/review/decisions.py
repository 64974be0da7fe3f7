"""Label Studio annotations as decisions, and the rules a decision must meet to count.

The labeling configs name their controls after the questions: the four criteria (with
``<criterion>_checkpoint``), ``overall``, ``notes``, ``corrected_clue`` (with
``corrected_clue_checkpoint``) and, repeated once per checkpoint, ``unique_<i>`` and
``clue_<i>`` (``i`` the 0-based position of the checkpoint in the sample).

:func:`refusal_reasons` is where "required for reject and fix" and "accepted only when every
checkpoint is confirmed" are enforced: Label Studio's own ``required`` only works where the
form shows the field, and the API accepts anything, so pull checks every submission again.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from builder.records.review import CheckpointVerdict, CriterionJudgement, ReviewDecision, Round
from builder.records.sample import Sample

CRITERIA: tuple[str, ...] = ("factuality", "retrieval", "logic", "solvability")
_PER_CHECKPOINT = re.compile(r"^(unique|clue)_(\d+)$")
UNTOUCHED = "untouched submission: nothing was chosen, so it is not a decision"


class Refused(ValueError):
    """A submission that is not a decision (the message says why)."""


def values(result: Sequence[dict[str, Any]]) -> dict[str, str]:
    """``from_name -> value`` of one annotation's result (choices, numbers and text)."""
    out: dict[str, str] = {}
    for r in result:
        name, value = r.get("from_name"), r.get("value") or {}
        if not isinstance(name, str) or not isinstance(value, dict):
            continue
        if value.get("choices"):
            out[name] = str(value["choices"][0])
        elif value.get("number") is not None:
            out[name] = str(value["number"])
        elif "text" in value:
            text = value["text"]
            out[name] = ("\n".join(text) if isinstance(text, list) else str(text)).strip()
    return {k: v for k, v in out.items() if v != ""}


def _int(raw: str | None, what: str) -> int | None:
    if raw is None:
        return None
    try:
        return int(raw)
    except ValueError:
        raise Refused(f"{what} is {raw!r}, not a checkpoint number") from None


def _yes_no(raw: str | None) -> Any:
    return raw if raw in ("yes", "no") else None


def decision_from_result(
    result: Sequence[dict[str, Any]],
    *,
    sample_id: str,
    round: Round,
    reviewer: str,
    created_at: str,
    task_id: int | None,
    annotation_id: int | None,
) -> ReviewDecision:
    """A :class:`ReviewDecision` from one annotation's ``result``.

    Raises :class:`Refused` for an untouched submission or one without a valid overall
    accept/reject/fix.
    """
    got = values(result)
    if not got:
        raise Refused(UNTOUCHED)
    overall = got.get("overall")
    if overall not in ("accept", "reject", "fix"):
        raise Refused(f"annotation {annotation_id} has no overall accept/reject/fix")
    criteria: dict[str, CriterionJudgement | None] = {}
    for name in CRITERIA:
        verdict = got.get(name)
        criteria[name] = (
            CriterionJudgement(
                verdict=verdict,
                checkpoint=_int(got.get(f"{name}_checkpoint"), f"{name} checkpoint"),
            )
            if verdict in ("ok", "issue")
            else None
        )
    per_cp: dict[int, dict[str, str]] = {}
    for name, value in got.items():
        match = _PER_CHECKPOINT.match(name)
        if match:
            per_cp.setdefault(int(match[2]), {})[match[1]] = value
    checkpoints = [
        CheckpointVerdict(
            index=pos + 1,
            unique=_yes_no(per_cp[pos].get("unique")),
            clue_singles_out=_yes_no(per_cp[pos].get("clue")),
        )
        for pos in sorted(per_cp)
    ]
    return ReviewDecision(
        sample_id=sample_id,
        round=round,
        reviewer=reviewer,
        created_at=created_at,
        factuality=criteria["factuality"],
        retrieval=criteria["retrieval"],
        logic=criteria["logic"],
        solvability=criteria["solvability"],
        overall=overall,
        notes=got.get("notes", ""),
        corrected_clue=got.get("corrected_clue", ""),
        corrected_clue_checkpoint=_int(
            got.get("corrected_clue_checkpoint"), "the corrected clue's checkpoint"
        ),
        checkpoints=checkpoints,
        task_id=task_id,
        annotation_id=annotation_id,
    )


def refusal_reasons(decision: ReviewDecision, sample: Sample) -> list[str]:
    """Why ``decision`` cannot count as a decision on ``sample`` (empty: it counts)."""
    reasons: list[str] = []
    indices = {cp.index for cp in sample.checkpoints}
    if decision.overall in ("reject", "fix") and not decision.notes.strip():
        reasons.append(f"{decision.overall} without notes: say why in the notes")
    if decision.overall == "fix":
        if not decision.corrected_clue:
            reasons.append("fix without a corrected clue")
        if decision.corrected_clue_checkpoint is None:
            reasons.append("fix without the checkpoint of the corrected clue")
        elif decision.corrected_clue_checkpoint not in indices:
            reasons.append(
                f"the corrected clue names checkpoint {decision.corrected_clue_checkpoint}, "
                "which the item does not have"
            )
    for name in CRITERIA:
        judgement: CriterionJudgement | None = getattr(decision, name)
        if judgement is None or judgement.verdict != "issue":
            continue
        if judgement.checkpoint is None:
            reasons.append(f"{name} marked 'issue' without its checkpoint")
        elif judgement.checkpoint not in indices:
            reasons.append(f"{name} names checkpoint {judgement.checkpoint}, which is not there")
    given = {v.index: v for v in decision.checkpoints}
    doubted = []
    for cp in sample.checkpoints:
        verdict = given.get(cp.index) or CheckpointVerdict(index=cp.index)
        if verdict.unique is None:
            reasons.append(f"checkpoint {cp.index}: 'unique in the real world?' not answered")
        if cp.ambiguous and verdict.clue_singles_out is None:
            reasons.append(f"checkpoint {cp.index}: 'does the clue single it out?' not answered")
        if verdict.unique == "no" or (cp.ambiguous and verdict.clue_singles_out == "no"):
            doubted.append(cp.index)
    if decision.overall == "accept" and doubted:
        listed = ", ".join(map(str, doubted))
        reasons.append(
            f"accept although checkpoint(s) {listed} are not confirmed: an item is accepted "
            "only when every checkpoint is confirmed (reject or fix it)"
        )
    return reasons


def result_for(decision: ReviewDecision) -> list[dict[str, Any]]:
    """The Label Studio ``result`` a reviewer submitting ``decision`` produces (tests, demos)."""
    out: list[dict[str, Any]] = []
    for name in CRITERIA:
        j: CriterionJudgement | None = getattr(decision, name)
        if j is None:
            continue
        out.append(choice(name, j.verdict))
        if j.checkpoint is not None:
            out.append(choice(f"{name}_checkpoint", str(j.checkpoint)))
    out.append(choice("overall", decision.overall))
    if decision.notes:
        out.append(_text("notes", decision.notes))
    if decision.corrected_clue:
        out.append(_text("corrected_clue", decision.corrected_clue))
    if decision.corrected_clue_checkpoint is not None:
        out.append(choice("corrected_clue_checkpoint", str(decision.corrected_clue_checkpoint)))
    for v in decision.checkpoints:
        to = f"checkpoint_{v.index - 1}"
        if v.unique is not None:
            out.append(choice(f"unique_{v.index - 1}", v.unique, to_name=to))
        if v.clue_singles_out is not None:
            out.append(choice(f"clue_{v.index - 1}", v.clue_singles_out, to_name=to))
    return out


def choice(name: str, value: str, *, to_name: str = "question") -> dict[str, Any]:
    return {"from_name": name, "to_name": to_name, "type": "choices", "value": {"choices": [value]}}


def _text(name: str, value: str) -> dict[str, Any]:
    return {
        "from_name": name,
        "to_name": "question",
        "type": "textarea",
        "value": {"text": [value]},
    }
