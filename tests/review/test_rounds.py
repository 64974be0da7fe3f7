"""The annotator and inspector rounds against a real Label Studio server."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest
from label_studio_sdk import LabelStudio

from builder.records.review import CriterionJudgement
from builder.records.sample import Sample
from builder.review import ReviewStore, apply_review, pull, push, result_for, status
from builder.review.client import RemoteTask, list_tasks
from tests.review.checker import ClueChecker
from tests.review.conftest import LiveServer, Reviewer
from tests.review.decide import decision
from tests.review.factory import make_samples

pytestmark = pytest.mark.labelstudio

NAMESPACE = uuid.UUID("6f1c1c8e-0000-4000-8000-000000000000")


def annotate(
    who: LabelStudio,
    task_id: int,
    overall: str,
    *,
    factuality: str | None = None,
    notes: str | None = None,
    corrected_clue: str | None = None,
    key: str = "",
) -> None:
    """Submit one annotation as the reviewer owning ``who`` (idempotent by unique_id)."""
    made = decision(
        overall,
        factuality=(
            CriterionJudgement(verdict=factuality, checkpoint=1 if factuality == "issue" else None)
            if factuality
            else None
        ),
        notes=notes,
        corrected_clue=corrected_clue,
    )
    who.annotations.create(
        id=task_id,
        result=result_for(made),
        unique_id=str(uuid.uuid5(NAMESPACE, f"{key}:{task_id}")),
    )


def by_key(client: LabelStudio, project_id: int) -> dict[tuple[str, int], list[RemoteTask]]:
    out: dict[tuple[str, int], list[RemoteTask]] = {}
    for task in list_tasks(client, project_id, annotations=True):
        out.setdefault((task.sample_id, task.revision), []).append(task)
    return out


def test_push_is_idempotent_and_updates_changed_items_in_place(
    ls_server: LiveServer, annotators: tuple[Reviewer, Reviewer], tmp_path: Path, title: str
) -> None:
    client = ls_server.client()
    store = ReviewStore(tmp_path / "review")
    samples = make_samples(50)
    checker = ClueChecker()

    first = push(
        client, samples, round="annotate", store=store, checker=checker, title=title, batch_size=20
    )
    assert (first.imported, first.batches, first.unchanged) == (50, 3, 0)
    assert len(checker.calls) == 50
    project = client.projects.get(id=first.project_id)
    assert project.maximum_annotations == 2  # the overlap
    tasks = by_key(client, first.project_id)
    assert len(tasks) == 50 and all(len(v) == 1 for v in tasks.values())
    task0 = tasks[("disco-000000", 0)][0]
    full = client.tasks.get(id=str(task0.id))
    assert full.predictions == []  # nothing pre-filled: the checks are shown in words
    assert "Every clue narrows its hop down" in full.data["checks_html"]
    assert [cp["index"] for cp in full.data["checkpoints"]] == [1, 2]
    project_settings = client.projects.get(id=first.project_id)
    assert project_settings.show_collab_predictions is False
    assert project_settings.enable_empty_annotation is False
    assert "labeling queue" in (project_settings.expert_instruction or "")

    again = push(client, samples, round="annotate", store=store, checker=checker, title=title)
    assert (again.imported, again.updated, again.unchanged, again.batches) == (0, 0, 50, 0)
    assert len(list_tasks(client, first.project_id, annotations=False)) == 50

    annotate(annotators[0].client, task0.id, "accept", key="idem")
    changed = samples[0].model_copy(update={"question": "Where was that director born, again?"})
    third = push(client, [changed, *samples[1:]], round="annotate", store=store, title=title)
    assert (third.imported, third.updated, third.unchanged) == (0, 1, 49)
    after = client.tasks.get(id=str(task0.id))
    assert after.data["question"] == "Where was that director born, again?"
    assert len(after.annotations or []) == 1  # annotations survive the in-place update
    assert len(list_tasks(client, first.project_id, annotations=False)) == 50
    actions = [e.action for e in store.audit.read()]
    assert actions.count("push") == 50 and actions.count("update") == 1


def test_annotate_agreement_inspect_accept_reject_fix(
    ls_server: LiveServer, annotators: tuple[Reviewer, Reviewer], tmp_path: Path, title: str
) -> None:
    client = ls_server.client()
    ann_a, ann_b = annotators
    store = ReviewStore(tmp_path / "review")
    samples = make_samples(50)
    checker = ClueChecker()
    push(client, samples, round="annotate", store=store, checker=checker, title=f"{title} A")
    ids = {i.sample_id: i.annotate_task_id for i in store.items()}
    assert all(ids.values())

    # A: accept 0-39, reject 40-44, fix 45-49; factuality issue on 0-4.
    # B: accept 0-34, fix 35-39, reject 40-47, fix 48-49; factuality issue on 0-9.
    for n, s in enumerate(samples):
        task = ids[s.id]
        assert task is not None
        a = "accept" if n < 40 else "reject" if n < 45 else "fix"
        b = "accept" if n < 35 else "fix" if n < 40 else "reject" if n < 48 else "fix"
        annotate(
            ann_a.client,
            task,
            a,
            factuality="issue" if n < 5 else "ok",
            key="a",
            notes="wrong year" if a == "reject" else None,
        )
        annotate(ann_b.client, task, b, factuality="issue" if n < 10 else "ok", key="b")

    report = pull(client, store=store, checker=checker)
    assert report.new_decisions == 100 and report.revised_decisions == 0
    assert report.transitions == {"annotated": 45, "rejected": 5}

    # Hand computation, overall: agreements 35 accept + 5 reject + 2 fix = 42 of 50.
    # A: accept 40, reject 5, fix 5; B: accept 35, reject 8, fix 7.
    p_o, p_e = 42 / 50, (40 * 35 + 5 * 8 + 5 * 7) / 50**2
    overall = report.agreement.get("overall")
    assert overall is not None and overall.units == 50
    (pair,) = overall.pairs
    assert {pair.rater_a, pair.rater_b} == {ann_a.email, ann_b.email} and pair.items == 50
    assert pair.kappa == pytest.approx((p_o - p_e) / (1 - p_e))
    # Krippendorff: 100 values; coincidences off the diagonal: accept~fix 5, fix~reject 3
    # (each counted both ways); totals accept 75, reject 13, fix 12.
    d_o = 2 * (5 + 3)
    d_e = 2 * (75 * 13 + 75 * 12 + 13 * 12) / (100 - 1)
    assert overall.alpha == pytest.approx(1 - d_o / d_e)
    # factuality: agree on 45 of 50; A issue 5 / ok 45, B issue 10 / ok 40.
    fact = report.agreement.get("factuality")
    assert fact is not None
    p_o, p_e = 45 / 50, (5 * 10 + 45 * 40) / 50**2
    assert fact.pairs[0].kappa == pytest.approx((p_o - p_e) / (1 - p_e))

    decided = [e for e in store.audit.read() if e.action == "decide"]
    assert len(decided) == 100
    assert {e.actor for e in decided} == {ann_a.email, ann_b.email}
    assert all(json.loads(e.detail)["created_at"] for e in decided)
    rejected = store.item("disco-000040")
    assert rejected is not None and rejected.status == "rejected"
    assert "rejected by all annotators" in rejected.reason and "wrong year" in rejected.reason
    again = pull(client, store=store, checker=checker)
    assert again.new_decisions == 0 and again.transitions == {}

    # Inspect round: 45 items (accepted, disagreed on, or marked fix), answers visible.
    insp = push(client, None, round="inspect", store=store, checker=checker, title=f"{title} I")
    assert insp.imported == 45
    inspect_ids = {i.sample_id: i.inspect_task_id for i in store.items("in_inspection")}
    shown = client.tasks.get(id=str(inspect_ids["disco-000045"]))
    assert ann_a.email in shown.data["annotators_html"] and "fix" in shown.data["annotators_html"]

    new_clue = "I recall the poster had a spinning top on a table."
    for n in range(30):
        annotate(client, inspect_ids[f"disco-{n:06d}"] or 0, "accept", key="i")
    for n in range(35, 40):
        annotate(
            client, inspect_ids[f"disco-{n:06d}"] or 0, "reject", notes="evidence is stale", key="i"
        )
    annotate(
        client,
        inspect_ids["disco-000045"] or 0,
        "fix",
        corrected_clue=new_clue,
        notes="clue fits both films",
        key="i",
    )
    checker.calls.clear()
    final = pull(client, store=store, checker=checker)
    assert final.transitions == {"accepted": 30, "rejected": 5, "needs_fix": 1}
    assert final.fixes_applied == 1
    counts = status(store, samples).counts
    assert counts["accepted"] == 30 and counts["rejected"] == 10
    assert counts["needs_fix"] == 1 and counts["in_inspection"] == 9 and counts["draft"] == 0

    fixed = store.item("disco-000045")
    assert fixed is not None and fixed.revision == 1 and fixed.inspector_decision == "fix"
    assert fixed.sample.checkpoints[0].clue == new_clue
    assert [s.checkpoints[0].clue for s in checker.calls] == [new_clue]  # checks re-ran
    fix_entry = next(e for e in store.audit.read() if e.action == "apply_fix")
    detail = json.loads(fix_entry.detail)
    assert detail["edit"]["new_clue"] == new_clue
    assert {c["name"] for c in detail["checks"]} == {"solvable", "no_leakage"}
    stale = store.item("disco-000035")
    assert stale is not None and stale.reason == "evidence is stale"

    # The fixed item goes back for another annotation round, as a new revision.
    back = push(client, samples, round="annotate", store=store, checker=checker, title=f"{title} A")
    assert back.imported == 1 and back.unchanged == 0
    tasks = by_key(client, back.project_id)
    assert len(tasks) == 51
    assert len(tasks[("disco-000045", 0)][0].annotations) == 2  # earlier round kept
    assert tasks[("disco-000045", 1)][0].annotations == []
    banner = client.tasks.get(id=str(tasks[("disco-000045", 1)][0].id)).data["revision_html"]
    assert "Revision 1" in banner and new_clue in banner and "clue fits both films" in banner

    reviewed = {s.id: s for s in apply_review(samples, store)}
    assert reviewed["disco-000045"].checkpoints[0].clue == new_clue
    assert reviewed["disco-000045"].review.status == "in_annotation"
    assert reviewed["disco-000000"].review.status == "accepted"
    assert reviewed["disco-000000"].review.inspector_decision == "accept"
    assert reviewed["disco-000000"].review.annotators == 2
    assert reviewed["disco-000000"].review.agreement == pytest.approx(1.0)
    assert reviewed["disco-000036"].review.agreement == pytest.approx(0.0)
    assert reviewed["disco-000036"].review.reason == "evidence is stale"
    assert reviewed["disco-000041"].review.status == "rejected"


def _server_keys(client: LabelStudio, project_id: int) -> list[tuple[str, int]]:
    return [(t.sample_id, t.revision) for t in list_tasks(client, project_id, annotations=False)]


def test_push_cut_off_midway_resumes_without_duplicates(tmp_path: Path) -> None:
    from builder.errors import ServiceError
    from builder.review import connect, server
    from tests.review.conftest import require_server_install

    require_server_install()
    data_dir = tmp_path / "ls"
    port = server.free_port()
    info = server.start(data_dir, port=port)
    try:
        client = connect(info.url, info.token())
        store = ReviewStore(tmp_path / "review")
        samples: list[Sample] = make_samples(50)

        def cut(done: int, total: int) -> None:
            if done == 20:
                server.stop(data_dir)

        with pytest.raises(ServiceError, match="import of 10 tasks"):
            push(
                client,
                samples,
                round="annotate",
                store=store,
                batch_size=10,
                progress=cut,
                title="cut",
            )
        assert store.counts() == {"in_annotation": 20}

        server.start(data_dir, port=port)
        resumed = push(client, samples, round="annotate", store=store, batch_size=10, title="cut")
        assert (resumed.imported, resumed.unchanged) == (30, 20)
        keys = _server_keys(client, resumed.project_id)
        assert sorted(keys) == sorted((s.id, 0) for s in samples)  # all there, once each

        # Even with the workspace state gone, the server's own meta prevents duplicates.
        fresh = ReviewStore(tmp_path / "review-lost")
        again = push(client, samples, round="annotate", store=fresh, title="cut")
        assert (again.project_id, again.imported, again.unchanged) == (resumed.project_id, 0, 50)
        assert len(_server_keys(client, resumed.project_id)) == 50
    finally:
        server.stop(data_dir)
