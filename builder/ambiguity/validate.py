"""``discobench validate``: the eight checks over any samples file."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from builder.ambiguity.checks import CHECKS, CheckReport, run_checks
from builder.kb.store import KnowledgeStore
from builder.records.sample import Sample
from builder.records.seed import Reject
from builder.seeding.facts import Facts
from builder.validity.certify import Certifier


@dataclass
class ValidateResult:
    reports: list[CheckReport] = field(default_factory=list)
    rejects: list[Reject] = field(default_factory=list)

    @property
    def failed(self) -> int:
        return sum(not r.passed for r in self.reports)

    def failures_by_check(self) -> dict[str, int]:
        counts = Counter(res.name for r in self.reports for res in r.results if not res.passed)
        return {name: counts[name] for name in CHECKS}


def validate_samples(store: KnowledgeStore, samples: Iterable[Sample]) -> ValidateResult:
    """Run every check on every sample; each failing check becomes a reject."""
    facts = Facts(store)
    certifier = Certifier.from_settings(facts)
    out = ValidateResult()
    for sample in samples:
        report = run_checks(store, sample, facts=facts, certifier=certifier)
        out.reports.append(report)
        for res in report.failed():
            out.rejects.append(
                Reject(
                    seed_id=sample.provenance.seed_id,
                    sample_id=sample.id,
                    check=res.name,
                    reason=f"failed {res.name}",
                    detail=res.detail,
                )
            )
    return out
