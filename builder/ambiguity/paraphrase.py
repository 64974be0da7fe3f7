"""Optional paraphrase of question text through any OpenAI-compatible endpoint.

The rewrite is cached by the LLM client (the request hash covers the prompt) and accepted
only when (1) every anchor of the templated question — names, numbers, years that the
description states — is still there, (2) nothing an ambiguous checkpoint left out (the dropped
value, the removed year or criterion) came back, and (3) the eight checks still pass on the
sample with the new question. Otherwise the templated question stays.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from builder.ambiguity.checks import run_checks
from builder.ambiguity.plan import read_plan, weaken
from builder.kb.store import KnowledgeStore
from builder.kb.text import normalize_name
from builder.llm.client import LLMClient
from builder.records.sample import Sample
from builder.records.seed import GeneratorInfo, HopSpec
from builder.seeding.facts import Facts, year_of
from builder.seeding.templates import TEMPLATE_DIR

PROMPT = TEMPLATE_DIR / "paraphrase.md"


def _terms(facts: Facts, spec: HopSpec) -> list[str]:
    out = [str(year_of(c.value)) if c.match == "year" else c.value_label for c in spec.constraints]
    if spec.qualifier_value:
        out.append(str(year_of(spec.qualifier_value)))
    if spec.criterion:
        out.append(facts.label(spec.criterion))
    return [t for t in out if t]


def _has(text: str, term: str) -> bool:
    return f" {normalize_name(term)} " in f" {normalize_name(text)} "


def guard(facts: Facts, sample: Sample, info: GeneratorInfo, new: str) -> str | None:
    """Why the paraphrase ``new`` cannot replace the question, or None when it can."""
    for ph in info.plan:
        weak = weaken(ph.spec, ph.injection) if ph.injection else ph.spec
        for term in _terms(facts, weak):
            if _has(sample.question, term) and not _has(new, term):
                return f"drops {term!r}"
        if ph.injection is not None:
            for term in sorted(set(_terms(facts, ph.spec)) - set(_terms(facts, weak))):
                if _has(new, term) and not _has(sample.question, term):
                    return f"restores {term!r} (hop {ph.index} must stay ambiguous)"
    if not new.strip().endswith("?"):
        return "not a question"
    return None


@dataclass
class ParaphraseResult:
    samples: list[Sample] = field(default_factory=list)
    accepted: int = 0
    refused: list[tuple[str, str]] = field(default_factory=list)  # (sample id, reason)


class Paraphraser:
    """Rewrites questions with an LLM; ``model`` is recorded in the sample's provenance."""

    def __init__(self, client: LLMClient, prompt_path: Path = PROMPT) -> None:
        self.client = client
        self.system = prompt_path.read_text(encoding="utf-8")

    def rewrite(self, question: str) -> str | None:
        result = self.client.chat(
            [{"role": "system", "content": self.system}, {"role": "user", "content": question}],
            temperature=0.0,
        )
        text = (result.content or "").strip().strip('"').strip()
        return text or None

    def apply(self, store: KnowledgeStore, samples: list[Sample]) -> ParaphraseResult:
        facts = Facts(store)
        out = ParaphraseResult()
        for sample in samples:
            out.samples.append(self._one(store, facts, sample, out))
        return out

    def _one(
        self, store: KnowledgeStore, facts: Facts, sample: Sample, out: ParaphraseResult
    ) -> Sample:
        info = read_plan(sample)
        new = self.rewrite(sample.question)
        if info is None or new is None:
            out.refused.append((sample.id, "no plan" if info is None else "empty reply"))
            return sample
        reason = guard(facts, sample, info, new)
        if reason is None:
            gen = info.model_copy(update={"paraphrase_model": self.client.model})
            prov = sample.provenance.model_copy(
                update={"generator": gen.model_dump_json(exclude_defaults=True)}
            )
            candidate = sample.model_copy(update={"question": new, "provenance": prov})
            report = run_checks(store, candidate, facts=facts)
            if report.passed:
                out.accepted += 1
                return candidate
            reason = "checks fail: " + ", ".join(r.name for r in report.failed())
        out.refused.append((sample.id, reason))
        return sample
