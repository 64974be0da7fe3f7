"""``review pull`` and ``review status``: decisions in, states forward, agreement out.

Pull reads every annotation of both projects (paginated), keeps each decision with who and
when (new and revised ones also go to the append-only audit log), then moves items on:

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
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

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
    Round,
    StatusReport,
)
from builder.records.sample import ReviewInfo, Sample
from builder.review.agreement import krippendorff_alpha, pair_agreement, pairwise_kappas
from builder.review.client import RemoteTask, base_url, list_tasks, queue_url_for, user_emails
from builder.review.decisions import (
    UNTOUCHED,
    Refused,
    decision_from_result,
    refusal_reasons,
    values,
)
from builder.review.state import Item, ReviewStore, Version, now_iso
from builder.review.tasks import Checker

if TYPE_CHECKING:
    from label_studio_sdk import LabelStudio


def _latest(decisions: Iterable[tuple[int, ReviewDecision]]) -> dict[str, ReviewDecision]:
    """Each reviewer's latest decision (input is ordered by update time)."""
    out: dict[str, ReviewDecision] = {}
    for _, d in decisions:
        out[d.reviewer] = d
    return out


def _who(user: object, emails: dict[int, str]) -> str:
    """The email of a ``completed_by`` / ``updated_by`` value (an id or a user dict)."""
    uid = user.get("id") if isinstance(user, dict) else user
    if uid is None:
        return ""
    try:
        return emails.get(int(str(uid)), str(uid))
    except ValueError:
        return str(uid)


def _untouched(ann: dict[str, Any], task: RemoteTask) -> bool:
    """Submitted exactly as pre-filled by a prediction (older pushes sent some)."""
    parent = ann.get("parent_prediction")
    if parent is None:
        return False
    pred = next((p for p in task.predictions if p.get("id") == parent), None)
    return pred is not None and values(pred.get("result") or []) == values(ann.get("result") or [])


@dataclass
class _Pulled:
    """What one round's fetch collected before it is written in one go."""

    seen: list[tuple[int, Version]] = field(default_factory=list)
    rows: list[tuple[ReviewDecision, int, str]] = field(default_factory=list)
    withdrawn: list[tuple[int, str]] = field(default_factory=list)
    audit: list[AuditEntry] = field(default_factory=list)


def _fetch(client: LabelStudio, store: ReviewStore, round: Round, report: PullReport) -> None:
    known = store.project(base_url(client), round)
    if known is None:
        return
    emails = user_emails(client)
    versions = store.versions(round)
    samples = {i.sample_id: i.sample for i in store.items()}
    out = _Pulled()
    for task in list_tasks(client, known[0], annotations=True):
        report.tasks_seen += 1
        for ann in task.annotations:
            if ann.get("was_cancelled") or ann.get("id") is None:
                continue
            aid, updated = int(ann["id"]), str(ann.get("updated_at") or ann.get("created_at"))
            previous = versions.get(aid)
            if previous is not None and previous.updated_at == updated:
                continue
            author = _who(ann.get("completed_by"), emails) or "unknown"
            editor = _who(ann.get("updated_by"), emails) or author
            _one(
                store,
                round,
                task,
                ann,
                aid,
                updated,
                previous,
                author,
                editor,
                samples,
                out,
                report,
            )
    # audit lines first, then the decisions: a crash in between re-audits them on the next
    # pull rather than losing a line (the log is append-only; a repeat names the same id)
    store.audit.append(out.audit)
    store.save_pulled(round, out.seen, out.rows, out.withdrawn)


def _one(
    store: ReviewStore,
    round: Round,
    task: RemoteTask,
    ann: dict[str, Any],
    aid: int,
    updated: str,
    previous: Version | None,
    author: str,
    editor: str,
    samples: dict[str, Sample],
    out: _Pulled,
    report: PullReport,
) -> None:
    """One new or changed annotation: a decision credited to whoever made it, or a refusal."""

    def audit(action: str, detail: dict[str, object]) -> None:
        out.audit.append(
            AuditEntry(
                at=now_iso(),
                action=action,
                sample_id=task.sample_id,
                round=round,
                actor=editor,
                detail=json.dumps(
                    {
                        "annotation_id": aid,
                        "revision": task.revision,
                        "updated_at": updated,
                        **detail,
                    },
                    sort_keys=True,
                ),
            )
        )

    overwrite = editor != author
    if overwrite:
        # someone changed another person's annotation: the author's decision (as pulled
        # before, if it was) stays theirs; the new content is the editor's decision
        report.overwrites += 1
        before = store.decision(round, aid, author)
        audit(
            "overwrite",
            {
                "author": author,
                "editor": editor,
                "author_decision": before.model_dump() if before else None,
                "note": "the author's decision is kept as pulled before; the change is "
                "credited to the editor"
                if before
                else "changed before any pull: the author's own answer never reached the "
                "toolkit and is not counted",
            },
        )
        report.issues.append(
            ItemIssue(
                sample_id=task.sample_id,
                reason=f"{editor} changed annotation {aid} of {author}; counted as {editor}'s "
                "decision, audited",
            )
        )
    try:
        if _untouched(ann, task):
            raise Refused(UNTOUCHED + " (submitted as pre-filled)")
        decision = decision_from_result(
            ann.get("result") or [],
            sample_id=task.sample_id,
            round=round,
            reviewer=editor,
            created_at=str(ann.get("created_at") or updated),
            task_id=task.id,
            annotation_id=aid,
        )
        sample = samples.get(task.sample_id)
        reasons = refusal_reasons(decision, sample) if sample is not None else []
        if reasons:
            raise Refused("; ".join(reasons))
    except (Refused, ValidationError) as exc:
        reason = str(exc) if isinstance(exc, Refused) else f"unreadable annotation: {exc}"
        out.seen.append((aid, Version(updated, task.sample_id, task.revision, editor, reason)))
        out.withdrawn.append((aid, editor))  # an earlier version no longer stands
        report.refused.append(
            Refusal(
                sample_id=task.sample_id,
                round=round,
                reviewer=editor,
                annotation_id=aid,
                reason=reason,
            )
        )
        audit("refuse", {"reason": reason})
        return
    if overwrite:
        decision = decision.model_copy(update={"author": author})
    out.seen.append((aid, Version(updated, task.sample_id, task.revision, editor, "")))
    out.rows.append((decision, task.revision, updated))
    before = store.decision(round, aid, editor) if previous is not None else None
    if before is not None:  # the same person changed their decision: audit from and to
        report.revised_decisions += 1
        audit("revise", {**decision.model_dump(), "before": before.model_dump()})
    else:
        report.new_decisions += 1
        audit("decide", decision.model_dump())


def pull(client: LabelStudio, *, store: ReviewStore, checker: Checker | None = None) -> PullReport:
    """Fetch all decisions, advance item states, apply inspector fixes, report agreement."""
    report = PullReport()
    _fetch(client, store, "annotate", report)
    _fetch(client, store, "inspect", report)
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
        ],
        queues=[
            Queue(round=rnd, project_id=pid, url=queue_url_for(url, pid))
            for url, rnd, pid in store.projects()
        ],
        reviewers=store.reviewers(),
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
