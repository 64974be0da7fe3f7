"""Reading one round's annotations: decisions credited to whoever made them, or refusals.

Label Studio keeps who created an annotation (``completed_by``) and who last saved it
(``updated_by``). When they differ, someone changed another person's annotation: that is
audited as an ``overwrite``, the new content is the editor's decision, and the author's
decision as pulled before stays theirs (decisions are keyed by annotation *and* person, so
two people's answers are never merged into one). A submission that is not a complete
decision (:func:`builder.review.decisions.refusal_reasons`) is refused: recorded with its
reason, audited, and left open in ``review status`` until the annotation changes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from builder.records.review import (
    AuditEntry,
    ItemIssue,
    PullReport,
    Refusal,
    ReviewDecision,
    Round,
)
from builder.records.sample import Sample
from builder.review.client import RemoteTask, base_url, list_tasks, user_emails
from builder.review.decisions import (
    UNTOUCHED,
    Refused,
    decision_from_result,
    refusal_reasons,
    values,
)
from builder.review.state import ReviewStore, Version, now_iso

if TYPE_CHECKING:
    from label_studio_sdk import LabelStudio


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


def fetch(client: LabelStudio, store: ReviewStore, round: Round, report: PullReport) -> None:
    """Read the round's new and changed annotations into the store (and the report)."""
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
