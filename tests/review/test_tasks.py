"""Labeling configs, task payloads, predictions and decision parsing (no server needed)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest
from label_studio_sdk.label_interface import LabelInterface

from builder.records.review import CriterionJudgement, ReviewDecision
from builder.review.client import CONFIG_DIR
from builder.review.tasks import (
    content_hash,
    decision_from_result,
    prediction,
    result_for,
    task_payload,
)
from tests.review.factory import make_sample


@dataclass
class Result:
    name: str
    passed: bool
    detail: str = ""


@dataclass
class Report:
    results: list[Result] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return all(r.passed for r in self.results)


def _interface(name: str) -> LabelInterface:
    return LabelInterface((CONFIG_DIR / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize("config", ["annotator.xml", "inspector.xml"])
def test_configs_are_valid_and_ask_every_question(config: str) -> None:
    li = _interface(config)
    li.validate()
    controls = {c.name for c in li.controls}
    for q in ("factuality", "retrieval", "logic", "solvability"):
        assert {q, f"{q}_checkpoint"} <= controls
        assert li.get_control(q).labels == ["ok", "issue"]
    assert li.get_control("overall").labels == ["accept", "reject", "fix"]
    assert {"notes", "corrected_clue", "corrected_clue_checkpoint"} <= controls


@pytest.mark.parametrize(
    ("config", "round"), [("annotator.xml", "annotate"), ("inspector.xml", "inspect")]
)
def test_payload_data_and_prediction_fit_the_config(config: str, round: str) -> None:
    li = _interface(config)
    report = Report([Result("unique", True), Result("solvable", False, "clue fits 2 candidates")])
    payload = task_payload(make_sample(3), revision=0, round=round, report=report)  # type: ignore[arg-type]
    object_vars = {obj.value.lstrip("$") for obj in li.objects}
    assert object_vars <= set(payload["data"])
    assert li.validate_task({"data": payload["data"]}) is True
    for pred in payload["predictions"]:
        assert li.validate_prediction(pred, return_errors=True) == []
    # what a reviewer submits (choices, numbers, text areas) fits the config too
    decision = ReviewDecision(
        sample_id="s",
        round="annotate",
        reviewer="r",
        created_at="",
        logic=CriterionJudgement(verdict="issue", checkpoint=2),
        overall="fix",
        notes="n",
        corrected_clue="c",
        corrected_clue_checkpoint=1,
    )
    assert li.validate_prediction({"result": result_for(decision)}, return_errors=True) == []
    if round == "inspect":
        assert "annotators_html" in payload["data"]
    assert payload["meta"]["discobench_sample_id"] == "disco-000003"


def test_prediction_maps_checks_to_questions() -> None:
    report = Report(
        [
            Result("unique", True),
            Result("consequential", True),
            Result("retrievable", False, "no page states hop 2"),
            Result("solvable", True),
        ]
    )
    pred = prediction(report)
    values = {r["from_name"]: r["value"] for r in pred["result"]}
    assert values["logic"] == {"choices": ["ok"]}
    assert values["retrieval"] == {"choices": ["issue"]}
    assert values["solvability"] == {"choices": ["ok"]}
    assert "factuality" not in values  # no automatic check speaks to it
    assert values["overall"] == {"choices": ["fix"]}
    assert "retrievable: no page states hop 2" in values["notes"]["text"][0]
    assert pred["score"] == pytest.approx(0.75)


def test_html_is_escaped() -> None:
    sample = make_sample(0)
    sample.checkpoints[0].clue = "<script>alert(1)</script> & more"
    html = task_payload(sample, revision=0, round="annotate", report=None)["data"][
        "checkpoints_html"
    ]
    assert "<script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; more" in html
    assert "Ambi" in html and "Unambi" in html


def test_content_hash_ignores_review_info_only() -> None:
    a = make_sample(1)
    b = a.model_copy(deep=True)
    b.review.status = "accepted"
    assert content_hash(a) == content_hash(b)
    b.checkpoints[0].clue = "another clue"
    assert content_hash(a) != content_hash(b)


def test_decision_round_trips_through_label_studio_result() -> None:
    decision = ReviewDecision(
        sample_id="disco-000001",
        round="annotate",
        reviewer="ann@x",
        created_at="2026-01-01T00:00:00Z",
        factuality=CriterionJudgement(verdict="ok"),
        solvability=CriterionJudgement(verdict="issue", checkpoint=1),
        overall="fix",
        notes="clue matches both films",
        corrected_clue="The poster showed a spinning top.",
        corrected_clue_checkpoint=1,
        task_id=7,
        annotation_id=9,
    )
    parsed = decision_from_result(
        result_for(decision),
        sample_id="disco-000001",
        round="annotate",
        reviewer="ann@x",
        created_at="2026-01-01T00:00:00Z",
        task_id=7,
        annotation_id=9,
    )
    assert parsed == decision


def test_decision_without_overall_is_refused() -> None:
    result = [{"from_name": "factuality", "type": "choices", "value": {"choices": ["ok"]}}]
    with pytest.raises(ValueError, match="no overall"):
        decision_from_result(
            result,
            sample_id="s",
            round="annotate",
            reviewer="r",
            created_at="",
            task_id=1,
            annotation_id=2,
        )


def test_config_dir_is_the_repo_folder() -> None:
    assert Path(__file__).resolve().parents[2] / "annotation_configs" == CONFIG_DIR
