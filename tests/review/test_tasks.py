"""Labeling configs, task payloads, predictions and decision parsing (no server needed)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from label_studio_sdk.label_interface import LabelInterface

from builder.records.review import CriterionJudgement, ReviewDecision
from builder.records.sample import Certificate
from builder.review.client import CONFIG_DIR
from builder.review.decisions import UNTOUCHED, Refused, refusal_reasons
from builder.review.render import certificate_text, checks_html, question_diff_html
from builder.review.tasks import content_hash, decision_from_result, result_for, task_payload
from tests.review.decide import confirmed, decision
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
    # per checkpoint (the Repeater), and no number field without a label
    assert {"unique_{{idx}}", "clue_{{idx}}"} <= controls
    text = (CONFIG_DIR / config).read_text(encoding="utf-8")
    assert "<Number" not in text and "placeholder" not in text
    # reasons are required where the form shows them
    for name in ("notes", "corrected_clue", "corrected_clue_checkpoint", "overall"):
        assert re.search(rf'name="{name}"[^>]*required="true"', text), name


@pytest.mark.parametrize(
    ("config", "round"), [("annotator.xml", "annotate"), ("inspector.xml", "inspect")]
)
def test_payload_fits_the_config_and_prefills_nothing(config: str, round: str) -> None:
    li = _interface(config)
    report = Report([Result("unique", True), Result("solvable", False, "hop 1: 2 -> 2 left=[]")])
    payload = task_payload(make_sample(3), revision=0, round=round, report=report)  # type: ignore[arg-type]
    assert "predictions" not in payload  # the checks are information, not answers
    object_vars = {obj.value.lstrip("$") for obj in li.objects if "{{" not in obj.value}
    assert object_vars <= set(payload["data"])
    data = payload["data"]
    assert [cp["index"] for cp in data["checkpoints"]] == [1, 2]
    assert [o["value"] for o in data["checkpoints"][0]["clue_options"]] == ["yes", "no"]
    assert data["checkpoints"][1]["clue_options"] == []  # unambiguous: no clue question
    assert [o["value"] for o in data["checkpoint_options"]] == ["1", "2"]
    if round == "inspect":
        assert "annotators_html" in data
    assert payload["meta"]["discobench_sample_id"] == "disco-000003"


def test_checks_are_put_in_words() -> None:
    report = Report(
        [
            Result("solvable", False, "hop 3: 3 -> 0 (edited clue) left=[]"),
            Result("retrievable", True, "hop 1: rank 2; hop 2: rank >10"),
        ]
    )
    html = checks_html(report)  # type: ignore[arg-type]
    assert "A clue does not narrow its hop down to the right answer." in html
    assert "checkpoint 3: 3 candidate(s) fit the vague wording, 0 remain with the clue" in html
    assert "(clue edited by a reviewer)" in html
    assert "checkpoint 2: evidence not in the top 10 search results" in html
    assert "FAILED" in html


def test_certificate_in_plain_words() -> None:
    cp = make_sample(0).checkpoints[0]
    assert "could not certify" in certificate_text(cp.certificate)
    cert = Certificate(
        basis="complete_set",
        source="decl:films-2010",
        as_of="2025-01-01",
        universe=["Q25188", "Q163872", "Q1"],
        matches=["Q25188", "Q163872"],
        clue_matches=["Q25188"],
    )
    text = certificate_text(cert, {"Q25188": "Inception", "Q163872": "The Dark Knight"})
    assert text == (
        "Certified because the set decl:films-2010 is declared complete as of 2025-01-01: of 3 "
        "known member(s), 2 fit the description (Inception, The Dark Knight); with the clue, "
        "Inception."
    )
    own = cert.model_copy(update={"explanation": "Only one film won that award in 2011."})
    assert certificate_text(own) == "Only one film won that award in 2011."


def test_checkpoint_block_has_no_internal_ids_and_only_real_links() -> None:
    sample = make_sample(0)
    html = task_payload(sample, revision=0, round="annotate", report=None)["data"]["checkpoints"]
    first, second = html[0]["html"], html[1]["html"]
    assert "Q25188" not in first and "Q163872" not in first  # candidates without KB ids
    assert "Inception &rarr; final answer London" in first
    assert 'href="https://en.wikipedia.org/wiki/Inception"' in first
    assert "href" not in second and "(no link)" in second  # evidence without URL: no dead link


def test_question_diff_highlights_what_differs() -> None:
    html = question_diff_html("Who directed that dream film?", "Who directed Inception (2010)?")
    assert '<mark class="db-vague">that dream film?</mark>' in html
    assert '<mark class="db-restored">Inception (2010)?</mark>' in html
    assert "Who directed" in html


def test_revision_banner_says_what_changed() -> None:
    data = task_payload(
        make_sample(1), revision=2, round="annotate", report=None, change="clue of checkpoint 1"
    )["data"]
    assert "Revision 2" in data["revision_html"] and "clue of checkpoint 1" in data["revision_html"]
    assert (
        task_payload(make_sample(1), revision=0, round="annotate", report=None)["data"][
            "revision_html"
        ]
        == ""
    )


def test_html_is_escaped() -> None:
    sample = make_sample(0)
    sample.checkpoints[0].clue = "<script>alert(1)</script> & more"
    data = task_payload(sample, revision=0, round="annotate", report=None)["data"]
    html = data["checkpoints"][0]["html"]
    assert "<script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; more" in html
    assert "Ambiguous" in html and "Unambiguous" in data["checkpoints"][1]["html"]


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
        checkpoints=confirmed(),
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
    with pytest.raises(Refused, match="no overall"):
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


def _parse(made: ReviewDecision) -> ReviewDecision:
    return decision_from_result(
        result_for(made),
        sample_id="disco-000000",
        round="annotate",
        reviewer="r",
        created_at="",
        task_id=1,
        annotation_id=2,
    )


def test_untouched_submission_is_refused() -> None:
    with pytest.raises(Refused, match=UNTOUCHED):
        _parse_raw([])
    with pytest.raises(Refused, match=UNTOUCHED):  # text areas left empty count as untouched
        _parse_raw([{"from_name": "notes", "type": "textarea", "value": {"text": [" "]}}])


def _parse_raw(result: list[dict[str, object]]) -> ReviewDecision:
    return decision_from_result(
        result,
        sample_id="s",
        round="annotate",
        reviewer="r",
        created_at="",
        task_id=1,
        annotation_id=2,
    )


def test_complete_decisions_pass() -> None:
    sample = make_sample(0)
    for overall in ("accept", "reject", "fix"):
        assert refusal_reasons(_parse(decision(overall)), sample) == [], overall


@pytest.mark.parametrize(
    ("made", "reason"),
    [
        (decision("reject", notes=""), "reject without notes"),
        (decision("fix", notes=" "), "fix without notes"),
        (decision("fix", corrected_clue=""), "fix without a corrected clue"),
        (
            decision("fix", corrected_clue_checkpoint=7),
            "names checkpoint 7, which the item does not have",
        ),
        (
            decision("accept", logic=CriterionJudgement(verdict="issue")),
            "logic marked 'issue' without its checkpoint",
        ),
        (
            decision("accept").model_copy(update={"checkpoints": confirmed(not_unique=[2])}),
            "accept although checkpoint(s) 2 are not confirmed",
        ),
        (
            decision("reject").model_copy(update={"checkpoints": confirmed()[:1]}),
            "checkpoint 2: 'unique in the real world?' not answered",
        ),
    ],
)
def test_incomplete_decisions_are_refused_with_the_reason(
    made: ReviewDecision, reason: str
) -> None:
    reasons = refusal_reasons(_parse(made), make_sample(0))
    assert any(reason in r for r in reasons), reasons


def test_not_unique_still_allows_reject() -> None:
    made = decision("reject").model_copy(update={"checkpoints": confirmed(not_unique=[1])})
    assert refusal_reasons(_parse(made), make_sample(0)) == []


def test_clue_question_required_for_ambiguous_checkpoints_only() -> None:
    verdicts = confirmed()
    verdicts[0] = verdicts[0].model_copy(update={"clue_singles_out": None})
    made = decision("reject").model_copy(update={"checkpoints": verdicts})
    assert refusal_reasons(_parse(made), make_sample(0)) == [
        "checkpoint 1: 'does the clue single it out?' not answered"
    ]
