"""``review push``: send items to the annotator or the inspector project, idempotently.

Items are matched against the server by our own identity in each task's meta (sample id and
revision), never by Label Studio ids alone, because Label Studio imports duplicates without
complaint. So a re-push imports nothing for unchanged items, updates changed ones in place
(``tasks.update`` keeps their annotations), and a push cut off midway (server gone, Ctrl-C)
is resumed by running it again: whatever reached the server is found there, the rest is
imported. New tasks go in bulk, one import call per batch, with the automatic check results
in words (as information: no prediction, nothing is pre-filled).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, cast

from builder.records.review import AuditEntry, ItemIssue, PushReport, ReviewDecision, Round
from builder.records.sample import Sample
from builder.review.client import RemoteTask, calling, ensure_project, list_tasks
from builder.review.state import Item, ReviewStore, now_iso
from builder.review.tasks import Checker, CheckReportLike, content_hash, task_payload

Progress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` after each imported batch."""

ANNOTATE_FROM = ("draft", "in_annotation", "needs_fix")

if TYPE_CHECKING:
    from label_studio_sdk import LabelStudio
    from label_studio_sdk.types.import_api_request import ImportApiRequest


def _run_checker(
    checker: Checker | None, sample: Sample, issues: list[ItemIssue]
) -> CheckReportLike | None:
    if checker is None:
        return None
    try:
        return checker(sample)
    except Exception as exc:  # a per-item failure is recorded, the push goes on
        issues.append(ItemIssue(sample_id=sample.id, reason=f"automatic checks failed: {exc}"))
        return None


def _candidates(
    samples: Iterable[Sample] | None, store: ReviewStore, round: Round, issues: list[ItemIssue]
) -> list[Item]:
    """The items this round may push, with the content to push."""
    out: list[Item] = []
    seen: set[str] = set()
    if round == "inspect":
        wanted = None if samples is None else {s.id for s in samples}
        return [i for i in store.items("annotated") if wanted is None or i.sample_id in wanted]
    for sample in samples or ():
        if sample.id in seen:
            issues.append(ItemIssue(sample_id=sample.id, reason="duplicate sample id in input"))
            continue
        seen.add(sample.id)
        item = store.item(sample.id)
        if item is None:
            out.append(Item(sample.id, 0, "draft", content_hash(sample), sample))
        elif item.status not in ANNOTATE_FROM:
            issues.append(ItemIssue(sample_id=sample.id, reason=f"already {item.status}"))
        elif item.status == "needs_fix":
            out.append(item)  # the inspector's fixed copy is what goes back for review
        else:
            item.sample = sample
            out.append(item)
    return out


def push(
    client: LabelStudio,
    samples: Iterable[Sample] | None,
    *,
    round: Round,
    store: ReviewStore,
    checker: Checker | None = None,
    overlap: int = 2,
    batch_size: int = 500,
    title: str | None = None,
    progress: Progress | None = None,
) -> PushReport:
    """Create or reuse the round's project and bring the server in line with the items.

    ``annotate``: draft, in-annotation and needs-fix items of ``samples``. ``inspect``: items
    the annotators finished (state ``annotated``; all of them, or those in ``samples``), shown
    with the annotators' answers. ``checker`` (e.g. ``run_checks`` bound to a store) supplies
    the check results shown in the task; None pushes without them.
    """
    if batch_size < 1:
        raise ValueError("batch_size must be >= 1")
    issues: list[ItemIssue] = []
    items = _candidates(samples, store, round, issues)
    project_id, _ = ensure_project(
        client, store, round, overlap=overlap if round == "annotate" else 1, title=title
    )
    report = PushReport(round=round, project_id=project_id, skipped=issues)
    remote: dict[tuple[str, int], RemoteTask] = {}
    for task in list_tasks(client, project_id, annotations=False):
        remote.setdefault((task.sample_id, task.revision), task)

    to_import: list[tuple[Item, dict[str, Any]]] = []
    done: list[Item] = []
    audit: list[AuditEntry] = []
    for item in items:
        item.content_hash = content_hash(item.sample)
        found = remote.get((item.sample_id, item.revision))
        if found is not None and found.content_hash == item.content_hash:
            report.unchanged += 1
        else:
            payload = task_payload(
                item.sample,
                revision=item.revision,
                round=round,
                report=_run_checker(checker, item.sample, issues),
                annotator_decisions=_annotator_decisions(store, item) if round == "inspect" else (),
                change=item.change,
            )
            if found is None:
                to_import.append((item, payload))
                continue
            with calling(f"update task {found.id}"):
                client.tasks.update(id=str(found.id), data=payload["data"], meta=payload["meta"])
            report.updated += 1
            audit.append(_entry("update", item, round, task_id=found.id))
        _mark(item, round, found.id if found else None)
        done.append(item)
    store.save_items(done)
    store.audit.append(audit)

    total = len(to_import)
    for start in range(0, total, batch_size):
        batch = to_import[start : start + batch_size]
        with calling(f"import of {len(batch)} tasks into project {project_id}"):
            response = client.projects.import_tasks(
                id=project_id,
                # plain dicts (data + meta): the server takes them as they are
                request=cast("list[ImportApiRequest]", [payload for _, payload in batch]),
                return_task_ids=True,
            )
        ids: Sequence[int | None] = list(getattr(response, "task_ids", None) or [])
        if len(ids) != len(batch):
            ids = [None] * len(batch)
        for (item, _), task_id in zip(batch, ids, strict=True):
            _mark(item, round, task_id)
        store.save_items([item for item, _ in batch])
        store.audit.append(
            [
                _entry("push", item, round, task_id=tid)
                for (item, _), tid in zip(batch, ids, strict=True)
            ]
        )
        report.imported += len(batch)
        report.batches += 1
        if progress is not None:
            progress(min(start + batch_size, total), total)
    return report


def _mark(item: Item, round: Round, task_id: int | None) -> None:
    if round == "annotate":
        item.status = "in_annotation"
        item.annotate_task_id = task_id or item.annotate_task_id
    else:
        item.status = "in_inspection"
        item.inspect_task_id = task_id or item.inspect_task_id


def _entry(action: str, item: Item, round: Round, *, task_id: int | None) -> AuditEntry:
    detail = {"task_id": task_id, "revision": item.revision, "content_hash": item.content_hash}
    return AuditEntry(
        at=now_iso(),
        action=action,
        sample_id=item.sample_id,
        round=round,
        actor="discobench",
        detail=json.dumps(detail, sort_keys=True),
    )


def _annotator_decisions(store: ReviewStore, item: Item) -> list[ReviewDecision]:
    """Each annotator's latest decision on the item's current revision."""
    latest: dict[str, ReviewDecision] = {}
    for _, decision in store.decisions("annotate", item.sample_id, item.revision):
        latest[decision.reviewer] = decision
    return [latest[k] for k in sorted(latest)]
