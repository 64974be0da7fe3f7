"""The card says which questions were paraphrased and by which model."""

from __future__ import annotations

from pathlib import Path

from builder.export.writer import export_dataset
from builder.records.sample import Sample
from builder.records.seed import GeneratorInfo, HopSpec, PlanHop
from builder.samples_io import write_samples
from builder.synthetic import make_sample


def _paraphrased(sample: Sample, model: str) -> Sample:
    plan = [
        PlanHop(index=c.index, spec=HopSpec(), answer_key=c.entity_id or "x")
        for c in sample.checkpoints
    ]
    info = GeneratorInfo(seed=0, types=[], plan=plan, paraphrase_model=model)
    prov = sample.provenance.model_copy(update={"generator": info.model_dump_json()})
    return sample.model_copy(update={"provenance": prov})


def test_card_lists_paraphrased_questions_by_model(tmp_path: Path) -> None:
    samples = [make_sample(i, status="accepted") for i in range(6)]
    samples[1] = _paraphrased(samples[1], "qwen-7b")
    samples[4] = _paraphrased(samples[4], "qwen-7b")
    path = tmp_path / "samples.jsonl"
    write_samples(path, samples)
    export_dataset(path, tmp_path / "d")
    body = (tmp_path / "d" / "README.md").read_text(encoding="utf-8")
    ids = f"{samples[1].id}, {samples[4].id}"
    assert (
        f"2 of 6 questions were paraphrased by `qwen-7b` (every\n  fact kept, checks re-run): {ids}."
        in body
    )


def test_card_says_when_nothing_was_paraphrased(tmp_path: Path) -> None:
    path = tmp_path / "samples.jsonl"
    write_samples(path, [make_sample(i, status="accepted") for i in range(3)])
    export_dataset(path, tmp_path / "d")
    assert "No question was paraphrased by an LLM." in (tmp_path / "d" / "README.md").read_text()
