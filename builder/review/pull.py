"""``review pull`` and ``review status``: decisions in, states forward, agreement out.

Pull reads every annotation of both projects (paginated) and keeps each decision with who
and when, credited to whoever made it, after checking it is complete
(:mod:`builder.review.fetch`); then it moves items on:

* annotate round: once ``overlap`` annotators answered the current revision the item is
  ``annotated`` (all of them rejecting it makes it ``rejected`` with their notes as reason);
* inspect round: the inspector's latest decision is final: accept -> ``accepted``,
  reject -> ``rejected`` with its reason, fix -> the corrected clue is applied, the
  automatic checks re-run, the revision bumped and the item ``needs_fix`` (the next
  ``push --round annotate`` sends it back for another round).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from typing import TYPE_CHECKING

from builder.records.review import (
    QUESTIONS,
    REVIEW_STATES,
    AgreementReport,
    AuditEntry,
    ItemIssue,
    PairAgreement,
    PullReport,
    QuestionAgreement,
    Queue,
    Refusal,
    ReviewDecision,
    StatusReport,
)
from builder.records.sample import ReviewInfo, Sample
from builder.review.agreement import krippendorff_alpha, pair_agreement, pairwise_kappas
from builder.review.client import base_url, queue_url_for
from builder.review.fetch import fetch
from builder.review.state import Item, ReviewStore, now_iso
from builder.review.tasks import Checker

if TYPE_CHECKING:
    from label_studio_sdk import LabelStudio


def _latest(decisions: Iterable[tuple[int, ReviewDecision]]) -> dict[str, ReviewDecision]:
    """Each reviewer's latest decision (input is ordered by update time)."""
    out: dict[str, ReviewDecision] = {}
    for _, d in decisions:
        out[d.reviewer] = d
    return out


def pull(client: LabelStudio, *, store: ReviewStore, checker: Checker | None = None) -> PullReport:
    """Fetch all decisions, advance item states, apply inspector fixes, report agreement."""
    report = PullReport()
    fetch(client, store, "annotate", report)
    fetch(client, store, "inspect", report)
    known = store.project(base_url(client), "annotate")
    overlap = known[1] if known else 2
    changed: list[Item] = []
    audit: list[AuditEntry] = []
    for item in store.items():
        before = item.status
        if item.status in ("in_annotation", "annotated"):
            _after_annotation(item, store, overlap)
        elif item.status == "in_inspection":
            _after_inspection(item, store, checker, report, audit)
        if item.status != before:
            report.transitions[item.status] = report.transitions.get(item.status, 0) + 1
            audit.append(
                AuditEntry(
                    at=now_iso(),
                    action="state",
                    sample_id=item.sample_id,
                    actor="discobench",
                    detail=json.dumps(
                        {
                            "from": before,
                            "to": item.status,
                            "revision": item.revision,
                            "reason": item.reason,
                        }
                    ),
                )
            )
        changed.append(item)
    store.save_items(changed)
    store.audit.append(audit)
    report.agreement = agreement_report(store)
    return report


def _after_annotation(item: Item, store: ReviewStore, overlap: int) -> None:
    latest = _latest(store.decisions("annotate", item.sample_id, item.revision))
    item.annotators = len(latest)
    item.agreement = pair_agreement([d.overall for d in latest.values()])
    if len(latest) < overlap or item.status != "in_annotation":
        return
    if all(d.overall == "reject" for d in latest.values()):
        item.status = "rejected"
        notes = "; ".join(f"{d.reviewer}: {d.notes}" for d in latest.values() if d.notes)
        item.reason = "rejected by all annotators" + (f" ({notes})" if notes else "")
    else:
        item.status = "annotated"


def _after_inspection(
    item: Item,
    store: ReviewStore,
    checker: Checker | None,
    report: PullReport,
    audit: list[AuditEntry],
) -> None:
    decisions = store.decisions("inspect", item.sample_id, item.revision)
    if not decisions:
        return
    final = decisions[-1][1]
    item.inspector_decision = final.overall
    item.reason = final.notes
    if final.overall == "accept":
        item.status = "accepted"
    elif final.overall == "reject":
        item.status = "rejected"
        item.reason = final.notes or f"rejected by inspector {final.reviewer}"
    else:
        apply_fix(item, final, checker, report, audit)


def apply_fix(
    item: Item,
    decision: ReviewDecision,
    checker: Checker | None,
    report: PullReport,
    audit: list[AuditEntry],
) -> None:
    """Apply the inspector's edit, re-run the checks, and send the item back (needs_fix)."""
    sample = item.sample.model_copy(deep=True)
    edit: dict[str, object] = {}
    item.change = ""
    if decision.corrected_clue:
        index = decision.corrected_clue_checkpoint
        ambiguous = [cp.index for cp in sample.checkpoints if cp.ambiguous]
        if index is None and len(ambiguous) == 1:
            index = ambiguous[0]
        target = next((cp for cp in sample.checkpoints if cp.index == index), None)
        if target is None:
            report.issues.append(
                ItemIssue(
                    sample_id=item.sample_id,
                    reason=f"corrected clue names no valid checkpoint ({index}); "
                    "sent back unchanged",
                )
            )
        else:
            edit = {
                "checkpoint": target.index,
                "old_clue": target.clue,
                "new_clue": decision.corrected_clue,
            }
            target.clue = decision.corrected_clue
            item.change = (
                f"checkpoint {target.index}'s clue was changed by {decision.reviewer} "
                f'from "{edit["old_clue"]}" to "{decision.corrected_clue}"'
                + (f" (reason: {decision.notes})" if decision.notes else "")
            )
    checks: list[dict[str, object]] | None = None
    if checker is not None:
        try:
            result = checker(sample)
            checks = [
                {"name": r.name, "passed": r.passed, "detail": r.detail} for r in result.results
            ]
        except Exception as exc:  # recorded; the item still goes back for review
            report.issues.append(ItemIssue(sample_id=item.sample_id, reason=f"checks: {exc}"))
    item.sample = sample
    item.revision += 1
    item.status = "needs_fix"
    item.annotators = 0
    item.agreement = None
    report.fixes_applied += 1
    audit.append(
        AuditEntry(
            at=now_iso(),
            action="apply_fix",
            sample_id=item.sample_id,
            round="inspect",
            actor=decision.reviewer,
            detail=json.dumps({"edit": edit, "checks": checks, "new_revision": item.revision}),
        )
    )


def agreement_report(store: ReviewStore) -> AgreementReport:
    """Per question: Krippendorff's alpha over items, Cohen's kappa per annotator pair."""
    per_item: dict[tuple[str, int], dict[str, ReviewDecision]] = defaultdict(dict)
    for revision, d in store.decisions("annotate"):
        per_item[(d.sample_id, revision)][d.reviewer] = d
    questions = []
    for q in QUESTIONS:
        ratings: dict[str, dict[tuple[str, int], str]] = defaultdict(dict)
        units: list[list[str]] = []
        for unit, by_reviewer in per_item.items():
            values = []
            for reviewer, d in by_reviewer.items():
                value = _answer(d, q)
                if value is not None:
                    ratings[reviewer][unit] = value
                    values.append(value)
            units.append(values)
        pairs = [
            PairAgreement(rater_a=a, rater_b=b, items=n, kappa=k)
            for (a, b), (k, n) in pairwise_kappas(ratings).items()
            if n > 0
        ]
        questions.append(
            QuestionAgreement(
                question=q,
                units=sum(1 for u in units if len(u) >= 2),
                alpha=krippendorff_alpha(units),
                pairs=pairs,
            )
        )
    return AgreementReport(questions=questions)


def _answer(decision: ReviewDecision, question: str) -> str | None:
    if question == "overall":
        return decision.overall
    judgement = getattr(decision, question)
    return None if judgement is None else str(judgement.verdict)


def status(store: ReviewStore, samples: Iterable[Sample] | None = None) -> StatusReport:
    """Items per review state (samples not yet pushed count as draft) and agreement."""
    counts = dict.fromkeys(REVIEW_STATES, 0)
    counts.update(store.counts())
    if samples is not None:
        known = {i.sample_id for i in store.items()}
        counts["draft"] += sum(1 for s in samples if s.id not in known)
    return StatusReport(
        counts=counts,
        total=sum(counts.values()),
        agreement=agreement_report(store),
        refused=[
            Refusal(
                sample_id=v.sample_id,
                round="inspect" if rnd == "inspect" else "annotate",
                reviewer=v.reviewer,
                annotation_id=aid,
                reason=v.refused,
            )
            for rnd, aid, v in store.refusals()
            if _still_open(store, v.sample_id, v.revision)
        ],
        queues=[
            Queue(round=rnd, project_id=pid, url=queue_url_for(url, pid))
            for url, rnd, pid in store.projects()
        ],
        reviewers=store.reviewers(),
    )


def _still_open(store: ReviewStore, sample_id: str, revision: int) -> bool:
    """A refusal matters while its item is still under review at that revision."""
    item = store.item(sample_id)
    return item is None or (
        item.revision == revision and item.status in ("in_annotation", "in_inspection")
    )


def apply_review(samples: Iterable[Sample], store: ReviewStore) -> list[Sample]:
    """The samples with their review info filled in (and inspector fixes applied)."""
    out = []
    for sample in samples:
        item = store.item(sample.id)
        if item is None:
            out.append(sample.model_copy(update={"review": ReviewInfo()}))
            continue
        base = item.sample if item.revision > 0 else sample
        info = ReviewInfo(
            status=item.status,
            annotators=item.annotators,
            agreement=item.agreement,
            inspector_decision=item.inspector_decision,
            reason=item.reason,
        )
        out.append(base.model_copy(update={"review": info}))
    return out
