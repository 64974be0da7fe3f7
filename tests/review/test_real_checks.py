"""The fix flow with the project's real checks: run_checks on a real snapshot and sample.

The snapshot and sample come from the injection stage's own test world (a small real
KnowledgeStore and a sample built by ``builder.ambiguity.inject``).
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest

from builder.ambiguity import inject
from builder.records.sample import Sample
from builder.review import ReviewStore, pull, push, result_for
from builder.review.checks import default_checker
from tests.ambiguity.chains import game_chain
from tests.ambiguity.minikb import build_store
from tests.ambiguity.world import world
from tests.review.conftest import LiveServer, Reviewer
from tests.review.decide import decision, shape

pytestmark = pytest.mark.labelstudio


def _real_sample(kb_path: Path) -> Sample:
    store = build_store(kb_path, world())
    try:
        return inject(store, [game_chain(store)], types=["entity"], progress=False).samples[0]
    finally:
        store.close()


def _decide(client: object, sample: Sample, task_id: int, overall: str, **extra: object) -> None:
    made = decision(overall, checkpoints=shape(sample), **extra)  # type: ignore[arg-type]
    client.annotations.create(  # type: ignore[attr-defined]
        id=task_id, result=result_for(made), unique_id=str(uuid.uuid4())
    )


def test_inspector_fix_reruns_the_real_six_checks(
    ls_server: LiveServer, annotators: tuple[Reviewer, Reviewer], tmp_path: Path, title: str
) -> None:
    kb_path = tmp_path / "kb.sqlite"
    sample = _real_sample(kb_path)
    ambiguous = next(cp.index for cp in sample.checkpoints if cp.ambiguous)
    client = ls_server.client()
    store = ReviewStore(tmp_path / "review")
    with default_checker(kb_path) as checker:
        assert checker(sample).passed
        first = push(
            client, [sample], round="annotate", store=store, checker=checker, title=f"{title} A"
        )
        item = store.item(sample.id)
        assert item is not None and item.annotate_task_id is not None
        task = client.tasks.get(id=str(item.annotate_task_id))
        assert task.predictions == []  # nothing pre-filled
        assert "All automatic checks passed" in task.data["checks_html"]  # all six passed

        _decide(annotators[0].client, sample, item.annotate_task_id, "accept")
        _decide(annotators[1].client, sample, item.annotate_task_id, "fix", notes="clue too vague")
        assert pull(client, store=store, checker=checker).transitions == {"annotated": 1}
        push(client, None, round="inspect", store=store, checker=checker, title=f"{title} I")
        item = store.item(sample.id)
        assert item is not None and item.inspect_task_id is not None

        leaking = f"I am sure it ends up in {sample.answer}."  # names the final answer
        _decide(
            client,
            sample,
            item.inspect_task_id,
            "fix",
            corrected_clue=leaking,
            corrected_clue_checkpoint=ambiguous,
            notes="make it concrete",
        )
        report = pull(client, store=store, checker=checker)
        assert report.fixes_applied == 1 and report.transitions == {"needs_fix": 1}

        fix = next(e for e in store.audit.read() if e.action == "apply_fix")
        checks = {c["name"]: c["passed"] for c in json.loads(fix.detail)["checks"]}
        assert set(checks) == {
            "unique",
            "ambiguous",
            "solvable",
            "consequential",
            "no_leakage",
            "retrievable",
            "certified",
            "oracle_solvable",
        }
        assert checks["no_leakage"] is False  # the re-run caught the inspector's leaky clue

        again = push(
            client, [sample], round="annotate", store=store, checker=checker, title=f"{title} A"
        )
        assert again.project_id == first.project_id and again.imported == 1
    fixed = store.item(sample.id)
    assert fixed is not None and fixed.revision == 1
    new_task = client.tasks.get(id=str(fixed.annotate_task_id))
    assert new_task.data["revision"] == 1
    assert new_task.predictions == []
    assert "FAILED" in new_task.data["checks_html"]  # reviewers see the failing check
    assert "An answer is given away" in new_task.data["checks_html"]
    assert leaking in new_task.data["revision_html"]  # and what changed
