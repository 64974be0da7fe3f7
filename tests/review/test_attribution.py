"""Who a decision is credited to, and what pull refuses, against the real server (SDK only)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from builder.records.review import ReviewDecision
from builder.review import ReviewStore, pull, push, result_for, status
from builder.review.client import ensure_project
from builder.review.decisions import UNTOUCHED
from tests.review.conftest import LiveServer, Reviewer
from tests.review.decide import decision
from tests.review.factory import make_sample, make_samples

pytestmark = pytest.mark.labelstudio


def _task(store: ReviewStore, sample_id: str) -> int:
    item = store.item(sample_id)
    assert item is not None and item.annotate_task_id is not None
    return item.annotate_task_id


def test_overwrite_before_any_pull_is_credited_to_the_editor_only(
    ls_server: LiveServer, annotators: tuple[Reviewer, Reviewer], tmp_path: Path, title: str
) -> None:
    client = ls_server.client()
    a, b = annotators
    store = ReviewStore(tmp_path / "review")
    push(client, make_samples(1), round="annotate", store=store, title=title)
    task = _task(store, "disco-000000")
    mine = a.client.annotations.create(id=task, result=result_for(decision("accept")))
    b.client.annotations.update(
        id=int(mine.id or 0), result=result_for(decision("reject", notes="B thinks so"))
    )

    report = pull(client, store=store)
    assert report.overwrites == 1 and report.new_decisions == 1
    ((_, only),) = store.decisions("annotate", "disco-000000")
    assert only.reviewer == b.email and only.author == a.email and only.overall == "reject"
    entry = next(e for e in store.audit.read() if e.action == "overwrite")
    detail = json.loads(entry.detail)
    assert entry.actor == b.email and detail["author"] == a.email
    assert detail["author_decision"] is None and "never reached" in detail["note"]
    assert all(e.actor != a.email for e in store.audit.read())  # nothing credited to A
    item = store.item("disco-000000")
    assert item is not None and item.status == "in_annotation" and item.annotators == 1


def test_a_refusal_stays_open_until_the_author_corrects_it(
    ls_server: LiveServer, annotators: tuple[Reviewer, Reviewer], tmp_path: Path, title: str
) -> None:
    client = ls_server.client()
    a, b = annotators
    store = ReviewStore(tmp_path / "review")
    push(client, make_samples(1), round="annotate", store=store, title=title)
    task = _task(store, "disco-000000")
    bad = a.client.annotations.create(id=task, result=result_for(decision("fix", notes="")))
    b.client.annotations.create(id=task, result=result_for(decision("accept")))

    first = pull(client, store=store)
    assert [r.reason for r in first.refused] == ["fix without notes: say why in the notes"]
    open_ = status(store).refused
    assert [(r.reviewer, r.sample_id) for r in open_] == [(a.email, "disco-000000")]
    item = store.item("disco-000000")
    assert item is not None and item.status == "in_annotation" and item.annotators == 1
    assert pull(client, store=store).refused == []  # reported once, kept open in status

    a.client.annotations.update(
        id=int(bad.id or 0), result=result_for(decision("fix", notes="clue fits both films"))
    )
    second = pull(client, store=store)
    assert second.new_decisions == 1 and second.transitions == {"annotated": 1}
    assert status(store).refused == []
    actions = [e.action for e in store.audit.read() if e.actor == a.email]
    assert actions == ["refuse", "decide"]


def test_a_submission_left_as_a_prediction_prefilled_it_is_refused(
    ls_server: LiveServer, annotators: tuple[Reviewer, Reviewer], tmp_path: Path, title: str
) -> None:
    # older pushes sent the checks as predictions; submitting one untouched is no decision
    client = ls_server.client()
    a, _ = annotators
    store = ReviewStore(tmp_path / "review")
    push(client, make_samples(1), round="annotate", store=store, title=title)
    task = _task(store, "disco-000000")
    result = result_for(decision("accept"))
    pred = client.predictions.create(task=task, result=result, model_version="discobench-checks")
    a.client.annotations.create(id=task, result=result, parent_prediction=pred.id)
    report = pull(client, store=store)
    (refusal,) = report.refused
    assert UNTOUCHED in refusal.reason and "pre-filled" in refusal.reason
    assert store.decisions("annotate") == []


def test_an_existing_project_gets_the_current_form_and_settings(
    ls_server: LiveServer, annotators: tuple[Reviewer, Reviewer], tmp_path: Path, title: str
) -> None:
    client = ls_server.client()
    old = (
        '<View><Text name="question" value="$question"/>'
        '<Choices name="verdict" toName="question"><Choice value="ok"/></Choices></View>'
    )
    empty = client.projects.create(title=f"{title} empty", label_config=old)
    ensure_project(client, ReviewStore(tmp_path / "r1"), "annotate", overlap=2, title=empty.title)
    updated = client.projects.get(id=int(empty.id or 0))
    assert "unique_{{idx}}" in (updated.label_config or "")
    assert updated.show_collab_predictions is False and updated.show_instruction is True


def test_state_from_before_per_person_decisions_is_migrated(tmp_path: Path) -> None:
    review = tmp_path / "review"
    review.mkdir()
    made = decision("accept").model_copy(
        update={"sample_id": "disco-000000", "reviewer": "a@x.test", "annotation_id": 5}
    )
    with sqlite3.connect(review / "state.sqlite") as db:
        db.executescript(
            """
            CREATE TABLE decisions (
                annotation_id INTEGER NOT NULL, round TEXT NOT NULL, sample_id TEXT NOT NULL,
                revision INTEGER NOT NULL, reviewer TEXT NOT NULL, updated_at TEXT NOT NULL,
                json TEXT NOT NULL, PRIMARY KEY (round, annotation_id)
            );
            CREATE TABLE items (
                sample_id TEXT PRIMARY KEY, revision INTEGER NOT NULL, status TEXT NOT NULL,
                content_hash TEXT NOT NULL, sample_json TEXT NOT NULL,
                annotate_task_id INTEGER, inspect_task_id INTEGER,
                annotators INTEGER NOT NULL DEFAULT 0, agreement REAL,
                inspector_decision TEXT NOT NULL DEFAULT '', reason TEXT NOT NULL DEFAULT '',
                updated_at TEXT NOT NULL
            );
            """
        )
        db.execute(
            "INSERT INTO decisions VALUES (5, 'annotate', 'disco-000000', 0, 'a@x.test', "
            "'2026-01-01T00:00:00Z', ?)",
            (made.model_dump_json(),),
        )
        db.execute(
            "INSERT INTO items VALUES ('disco-000000', 0, 'in_annotation', 'h', ?, 1, NULL, 1, "
            "NULL, '', '', '2026-01-01')",
            (make_sample(0).model_dump_json(),),
        )
    with ReviewStore(review) as store:
        ((_, kept),) = store.decisions("annotate")
        assert ReviewDecision.model_validate(kept) == made
        assert store.versions("annotate")[5].updated_at == "2026-01-01T00:00:00Z"
        item = store.item("disco-000000")
        assert item is not None and item.change == ""
        other = made.model_copy(update={"reviewer": "b@x.test"})
        store.save_pulled("annotate", [], [(other, 0, "2026-01-02T00:00:00Z")])
        assert len(store.decisions("annotate")) == 2  # one annotation, two people


def test_an_author_changing_their_decision_after_a_pull_is_a_revision(
    ls_server: LiveServer, annotators: tuple[Reviewer, Reviewer], tmp_path: Path, title: str
) -> None:
    client = ls_server.client()
    a, _ = annotators
    store = ReviewStore(tmp_path / "review")
    push(client, make_samples(1), round="annotate", store=store, title=title)
    mine = a.client.annotations.create(
        id=_task(store, "disco-000000"), result=result_for(decision("accept"))
    )
    assert pull(client, store=store).new_decisions == 1
    a.client.annotations.update(
        id=int(mine.id or 0), result=result_for(decision("reject", notes="stale evidence"))
    )
    again = pull(client, store=store)
    assert (again.new_decisions, again.revised_decisions, again.overwrites) == (0, 1, 0)
    ((_, now),) = store.decisions("annotate", "disco-000000")
    assert now.reviewer == a.email and now.overall == "reject" and now.author == ""
    revise = next(e for e in store.audit.read() if e.action == "revise")
    detail = json.loads(revise.detail)
    assert revise.actor == a.email
    assert (detail["before"]["overall"], detail["overall"]) == ("accept", "reject")


def test_refusals_of_an_earlier_revision_are_no_longer_open(tmp_path: Path) -> None:
    from builder.review.state import Item, Version

    with ReviewStore(tmp_path / "review") as store:
        sample = make_sample(0)
        store.save_items([Item(sample.id, 1, "in_annotation", "h", sample)])
        old = Version("t0", sample.id, 0, "a@x.test", "reject without notes: say why")
        now = Version("t1", sample.id, 1, "b@x.test", "fix without a corrected clue")
        store.save_pulled("annotate", [(1, old), (2, now)], [])
        assert [r.annotation_id for r in status(store).refused] == [2]
        store.save_items([Item(sample.id, 1, "accepted", "h", sample)])
        assert status(store).refused == []
