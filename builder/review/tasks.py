"""Samples as Label Studio tasks, check reports as predictions, annotations as decisions.

A task's ``data`` carries what the labeling configs in ``annotation_configs/`` display (the
question, the unambiguous question, the answer and one HTML block per checkpoint); its
``meta`` carries our own identity (sample id, revision, content hash), which is how pushes
match items against the server: Label Studio itself happily imports duplicates.
"""

from __future__ import annotations

import hashlib
import html
import json
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from pathlib import Path
from string import Template
from typing import Any, Protocol

from builder.records.review import CriterionJudgement, ReviewDecision, Round
from builder.records.sample import Sample

TEMPLATES = Path(__file__).parent / "templates"
MODEL_VERSION = "discobench-checks"
CRITERIA: tuple[str, ...] = ("factuality", "retrieval", "logic", "solvability")

# Which automatic checks speak to which reviewer question (factuality has none: facts come
# from the snapshot, so only a human can doubt them).
CHECKS_FOR: dict[str, tuple[str, ...]] = {
    "retrieval": ("retrievable",),
    "logic": ("unique", "consequential"),
    "solvability": ("ambiguous", "solvable", "no_leakage"),
}


class CheckResultLike(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def passed(self) -> bool: ...
    @property
    def detail(self) -> str: ...


class CheckReportLike(Protocol):
    """The shape of ``builder.ambiguity.checks.CheckReport``."""

    @property
    def passed(self) -> bool: ...
    @property
    def results(self) -> Sequence[CheckResultLike]: ...


Checker = Callable[[Sample], CheckReportLike]


@cache
def _template(name: str) -> Template:
    return Template((TEMPLATES / name).read_text(encoding="utf-8"))


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def content_hash(sample: Sample) -> str:
    """Hash of everything a reviewer sees or judges (the review info itself excluded)."""
    payload = sample.model_dump(mode="json", exclude={"review"})
    raw = json.dumps(payload, sort_keys=True, ensure_ascii=False).encode("utf-8")
    return hashlib.sha256(raw).hexdigest()[:32]


def checkpoints_html(sample: Sample) -> str:
    blocks = []
    for cp in sample.checkpoints:
        candidates = ", ".join(
            f"{_e(c.label)} ({_e(c.id)}) &rarr; {_e(c.downstream_answer or '—')}"
            for c in cp.candidates
        )
        evidence = "".join(
            f'<li><a href="{_e(ev.url)}" target="_blank">{_e(ev.title)}</a>: {_e(ev.snippet)}</li>'
            for ev in cp.evidence
        )
        aliases = f" <i>(also: {_e(', '.join(cp.answer_aliases))})</i>" if cp.answer_aliases else ""
        note = (
            f"<div><b>What is vague:</b> {_e(cp.ambiguity_note)}</div>" if cp.ambiguity_note else ""
        )
        blocks.append(
            _template("checkpoint.html").substitute(
                index=cp.index,
                ambi_class="db-ambi" if cp.ambiguous else "db-unambi",
                ambi_label="Ambi" if cp.ambiguous else "Unambi",
                ambiguity_type=f" ({_e(cp.ambiguity_type)})" if cp.ambiguity_type else "",
                goal=_e(cp.goal),
                answer=_e(cp.answer),
                aliases=aliases,
                note=note,
                candidates=candidates or "—",
                clue=_e(cp.clue) if cp.clue else "—",
                evidence=evidence or "<li>—</li>",
            )
        )
    return "\n".join(blocks)


def checks_html(report: CheckReportLike | None) -> str:
    if report is None:
        return '<div class="db-checks"><i>automatic checks not run for this push</i></div>'
    rows = "".join(
        f'<li class="{"" if r.passed else "db-fail"}">{"✔" if r.passed else "✘"} '
        f"<b>{_e(r.name)}</b>: {_e(r.detail)}</li>"
        for r in report.results
    )
    verdict = "all checks passed" if report.passed else "some checks FAILED"
    return _template("checks.html").substitute(verdict=verdict, rows=rows)


def _cell(j: CriterionJudgement | None) -> str:
    if j is None:
        return "—"
    return j.verdict + (f" (cp {j.checkpoint})" if j.checkpoint is not None else "")


def annotators_html(decisions: Iterable[ReviewDecision]) -> str:
    rows = "".join(
        "<tr>"
        + "".join(
            f"<td>{_e(v)}</td>"
            for v in (
                d.reviewer,
                d.created_at,
                d.overall,
                _cell(d.factuality),
                _cell(d.retrieval),
                _cell(d.logic),
                _cell(d.solvability),
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
    return _template("annotators.html").substitute(rows=rows)


def _choice(name: str, value: str) -> dict[str, Any]:
    return {
        "from_name": name,
        "to_name": "question",
        "type": "choices",
        "value": {"choices": [value]},
    }


def prediction(report: CheckReportLike) -> dict[str, Any]:
    """The automatic checks as a Label Studio prediction pre-filling the reviewer's form."""
    by_name = {r.name: r for r in report.results}
    result: list[dict[str, Any]] = []
    for question, names in CHECKS_FOR.items():
        ran = [by_name[n] for n in names if n in by_name]
        if ran:
            result.append(_choice(question, "ok" if all(r.passed for r in ran) else "issue"))
    result.append(_choice("overall", "accept" if report.passed else "fix"))
    failed = [f"{r.name}: {r.detail}" for r in report.results if not r.passed]
    if failed:
        result.append(
            {
                "from_name": "notes",
                "to_name": "question",
                "type": "textarea",
                "value": {"text": ["; ".join(failed)]},
            }
        )
    score = sum(1 for r in report.results if r.passed) / max(1, len(report.results))
    return {"model_version": MODEL_VERSION, "score": score, "result": result}


def task_payload(
    sample: Sample,
    *,
    revision: int,
    round: Round,
    report: CheckReportLike | None,
    annotator_decisions: Sequence[ReviewDecision] = (),
) -> dict[str, Any]:
    """The import payload of one item: data, meta (our identity) and predictions."""
    data: dict[str, Any] = {
        "sample_id": sample.id,
        "revision": revision,
        "domain": sample.domain,
        "difficulty": sample.difficulty,
        "question": sample.question,
        "unambiguous_question": sample.unambiguous_question,
        "answer": sample.answer,
        "checkpoints_html": checkpoints_html(sample),
        "checks_html": checks_html(report),
    }
    if round == "inspect":
        data["annotators_html"] = annotators_html(annotator_decisions)
    payload: dict[str, Any] = {
        "data": data,
        "meta": task_meta(sample, revision=revision, round=round),
    }
    if report is not None:
        payload["predictions"] = [prediction(report)]
    return payload


def task_meta(sample: Sample, *, revision: int, round: Round) -> dict[str, Any]:
    return {
        "discobench_sample_id": sample.id,
        "revision": revision,
        "round": round,
        "content_hash": content_hash(sample),
    }


def _values(result: Sequence[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for r in result:
        name, value = r.get("from_name"), r.get("value") or {}
        if not isinstance(name, str) or not isinstance(value, dict):
            continue
        if value.get("choices"):
            out[name] = str(value["choices"][0])
        elif "number" in value and value["number"] is not None:
            out[name] = int(value["number"])
        elif "text" in value:
            text = value["text"]
            out[name] = "\n".join(text) if isinstance(text, list) else str(text)
    return out


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

    Raises ``ValueError`` when the required overall decision is missing or unknown.
    """
    values = _values(result)
    overall = values.get("overall")
    if overall not in ("accept", "reject", "fix"):
        raise ValueError(f"annotation {annotation_id} has no overall accept/reject/fix")
    criteria: dict[str, CriterionJudgement | None] = {}
    for name in CRITERIA:
        verdict = values.get(name)
        criteria[name] = (
            CriterionJudgement(verdict=verdict, checkpoint=values.get(f"{name}_checkpoint"))
            if verdict in ("ok", "issue")
            else None
        )
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
        notes=str(values.get("notes", "")),
        corrected_clue=str(values.get("corrected_clue", "")).strip(),
        corrected_clue_checkpoint=values.get("corrected_clue_checkpoint"),
        task_id=task_id,
        annotation_id=annotation_id,
    )


def result_for(decision: ReviewDecision) -> list[dict[str, Any]]:
    """The Label Studio ``result`` a reviewer submitting ``decision`` produces (tests, demos)."""
    out: list[dict[str, Any]] = []
    for name in CRITERIA:
        j: CriterionJudgement | None = getattr(decision, name)
        if j is None:
            continue
        out.append(_choice(name, j.verdict))
        if j.checkpoint is not None:
            out.append(_number(f"{name}_checkpoint", j.checkpoint))
    out.append(_choice("overall", decision.overall))
    if decision.notes:
        out.append(_text("notes", decision.notes))
    if decision.corrected_clue:
        out.append(_text("corrected_clue", decision.corrected_clue))
    if decision.corrected_clue_checkpoint is not None:
        out.append(_number("corrected_clue_checkpoint", decision.corrected_clue_checkpoint))
    return out


def _number(name: str, value: int) -> dict[str, Any]:
    return {"from_name": name, "to_name": "question", "type": "number", "value": {"number": value}}


def _text(name: str, value: str) -> dict[str, Any]:
    return {
        "from_name": name,
        "to_name": "question",
        "type": "textarea",
        "value": {"text": [value]},
    }
