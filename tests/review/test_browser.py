"""Two annotators in a real browser: isolation, attribution, overwrites and refusals.

Headless Debian Chromium drives Label Studio as started by ``review server start``; the
decisions go through the labeling UI, everything else through Label Studio's own SDK, and
what ``pull`` records is checked in the review state and the audit log.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from builder.review import ReviewStore, connect, pull, push, result_for, server, status
from builder.review.decisions import UNTOUCHED
from builder.review.people import add_reviewer
from tests.review.checker import ClueChecker
from tests.review.conftest import LiveServer
from tests.review.decide import decision
from tests.review.factory import make_samples

browser_mod = pytest.importorskip("tests.review.browser", reason="selenium is not installed")
ui = browser_mod

pytestmark = [pytest.mark.labelstudio, pytest.mark.timeout(600)]

UNIQUE = "Unique in the real world: this is the only answer"
NOT_UNIQUE = "NOT unique: another answer fits too"


def _annotations(client: object, task_id: int) -> list[dict[str, object]]:
    task = client.tasks.get(id=str(task_id))  # type: ignore[attr-defined]
    return [a if isinstance(a, dict) else a.dict() for a in task.annotations or []]


def _uid(user: object) -> object:
    return user.get("id") if isinstance(user, dict) else user


def _by(client: object, task_id: int, user_id: int) -> dict[str, object] | None:
    return next(
        (a for a in _annotations(client, task_id) if _uid(a.get("completed_by")) == user_id),
        None,
    )


def _submit(browser: object, client: object, task_id: int, user_id: int) -> dict[str, object]:
    ui.button(browser, "Submit").click()
    return ui.until("the annotation on the server", lambda: _by(client, task_id, user_id))


def test_two_annotators_in_the_browser(ls_server: LiveServer, tmp_path: Path, title: str) -> None:
    started = time.monotonic()
    client = ls_server.client()
    store = ReviewStore(tmp_path / "review")
    people = {}
    for name in ("browser-a", "browser-b"):
        added = add_reviewer(
            client, store, f"{name}@discobench.test", local_data_dir=ls_server.data_dir
        )
        assert added.password_file is not None and added.password_file.stat().st_mode & 0o077 == 0
        people[name] = json.loads(added.password_file.read_text(encoding="utf-8"))
    ids = {u.email: int(u.id or 0) for u in client.users.list()}
    a_email, b_email = people["browser-a"]["email"], people["browser-b"]["email"]
    a_id, b_id = ids[a_email], ids[b_email]

    samples = make_samples(2)
    pushed = push(
        client, samples, round="annotate", store=store, checker=ClueChecker(), title=title
    )
    (queue,) = status(store, samples).queues
    assert queue.url.endswith(f"/projects/{pushed.project_id}/data?labeling=1")
    s0, s1 = (store.item(s.id) for s in samples)
    assert s0 is not None and s1 is not None
    t0, t1 = s0.annotate_task_id or 0, s1.annotate_task_id or 0

    shots = tmp_path / "shots"
    shots.mkdir()
    with ui.chrome(shots) as b:
        # A, in the queue: a fresh, untouched form that cannot be submitted as it is
        ui.login(b, ls_server.url, a_email, people["browser-a"]["password"])
        ui.open_labeling(b, queue.url, shows="disco-000000")
        assert ui.checked(b) == 0  # nothing pre-filled
        assert not ui.enabled(ui.button(b, "Submit"))  # an untouched form is no decision
        ui.tick(b, UNIQUE)
        ui.tick(b, "yes")  # the clue singles out the answer of the ambiguous checkpoint
        ui.tick(b, "accept")
        b.save_screenshot(str(shots / "a-accepts.png"))
        a0 = _submit(b, client, t0, a_id)

        # A on the second item: checkpoint 2 NOT unique, and yet "accept"
        ui.open_labeling(b, queue.url, shows="disco-000001")
        ui.tick(b, UNIQUE, nth=0)
        ui.tick(b, NOT_UNIQUE, nth=1)
        ui.tick(b, "yes")
        ui.tick(b, "accept")
        _submit(b, client, t1, a_id)

        # B, in the queue: the same first item, in B's own empty form (A's answer not shown)
        ui.login(b, ls_server.url, b_email, people["browser-b"]["password"])
        ui.open_labeling(b, queue.url, shows="disco-000000")
        assert ui.checked(b) == 0 and ui.annotation_tabs(b) == []  # no one else's answer
        ui.tick(b, UNIQUE)
        ui.tick(b, "yes")
        ui.tick(b, "reject")
        ui.button(b, "Submit").click()  # without notes: the form refuses
        ui.until("the required-notes message", lambda: "Reject and fix need notes" in b.page_source)
        b.save_screenshot(str(shots / "b-reject-without-notes.png"))
        assert _by(client, t0, b_id) is None
        ui.button(b, "OK").click()
        ui.write(b, "notes", "hop 2 has two birthplaces on record")
        b0 = _submit(b, client, t0, b_id)

        # B's own client: an untouched (empty) submission on the second item
        b_client = connect(ls_server.url, server.user_token(ls_server.data_dir, b_email))
        b1 = b_client.annotations.create(id=t1, result=[])

        first = pull(client, store=store)
        decided = {d.reviewer: d for _, d in store.decisions("annotate", "disco-000000")}
        assert set(decided) == {a_email, b_email}
        assert decided[a_email].overall == "accept" and decided[b_email].overall == "reject"
        assert decided[b_email].notes == "hop 2 has two birthplaces on record"
        assert decided[a_email].checkpoints[1].unique == "yes"
        refused = {(r.sample_id, r.reviewer): r.reason for r in first.refused}
        assert (
            "accept although checkpoint(s) 2 are not confirmed"
            in refused[("disco-000001", a_email)]
        )
        assert UNTOUCHED in refused[("disco-000001", b_email)]
        assert store.decisions("annotate", "disco-000001") == []
        after = status(store, samples)
        assert after.counts["annotated"] == 1 and after.counts["in_annotation"] == 1
        assert {r.sample_id for r in after.refused} == {"disco-000001"}
        item0 = store.item("disco-000000")
        assert item0 is not None and item0.annotators == 2 and item0.agreement == 0.0

        # B opens A's annotation from the task list and presses Update
        ui.open_labeling(
            b,
            f"{ls_server.url}/projects/{pushed.project_id}/data?task={t0}&annotation={a0['id']}",
            shows="disco-000000",
        )
        assert len(ui.annotation_tabs(b)) == 2  # the task list shows A's answer to B
        ui.select_annotation(b, lambda: ui.choices(b, "accept")[0].is_selected())  # A's
        ui.tick(b, "fix")
        ui.write(b, "notes", "B was here")
        ui.write(b, "corrected_clue", "My poster had a spinning top.")
        ui.tick(b, "1")  # the checkpoint of the corrected clue
        b.save_screenshot(str(shots / "b-overwrites-a.png"))
        ui.button(b, "Update").click()
        changed = ui.until(
            "A's annotation changed by B",
            lambda: (
                ann
                if (ann := _by(client, t0, a_id)) and ann.get("updated_at") != a0["updated_at"]
                else None
            ),
        )
    assert _uid(changed["updated_by"]) == b_id and _uid(changed["completed_by"]) == a_id

    second = pull(client, store=store)
    assert second.overwrites == 1
    mine = store.decisions("annotate", "disco-000000")
    by_person: dict[str, list[str]] = {}
    for _, d in mine:
        by_person.setdefault(d.reviewer, []).append(d.overall)
    assert by_person[a_email] == ["accept"]  # A's own decision, untouched by B's edit
    assert sorted(by_person[b_email]) == ["fix", "reject"]  # B's own, and B's edit of A's
    overwrite = next(e for e in store.audit.read() if e.action == "overwrite")
    detail = json.loads(overwrite.detail)
    assert overwrite.actor == b_email and detail["author"] == a_email
    assert detail["author_decision"]["overall"] == "accept"
    item0 = store.item("disco-000000")
    assert item0 is not None and item0.annotators == 2  # distinct people, never merged

    # B corrects the empty submission into a reject without notes: still refused
    b_client.annotations.update(id=int(b1.id or 0), result=result_for(decision("reject", notes="")))
    third = pull(client, store=store)
    assert [r.reason for r in third.refused] == ["reject without notes: say why in the notes"]
    item1 = store.item("disco-000001")
    assert item1 is not None and item1.status == "in_annotation"

    # no decision in the audit log is credited to someone who did not make it
    editors = {int(str(a0["id"])): [a_email, b_email], int(str(b0["id"])): [b_email]}
    for entry in store.audit.read():
        if entry.action in ("decide", "revise", "overwrite", "refuse"):
            aid = json.loads(entry.detail)["annotation_id"]
            if aid in editors:
                assert entry.actor in editors[aid]
                if entry.action == "overwrite":
                    assert entry.actor == b_email
    a0_entries = [
        (e.action, e.actor)
        for e in store.audit.read()
        if e.action in ("decide", "revise", "overwrite")
        and json.loads(e.detail)["annotation_id"] == a0["id"]
    ]
    # A's decision, then B's overwrite and B's decision, never one credited to A
    assert a0_entries == [("decide", a_email), ("overwrite", b_email), ("decide", b_email)]
    print(f"browser test: {time.monotonic() - started:.1f} s")
