"""A small real checker for the review tests (the project's run_checks needs a snapshot).

It checks on the sample alone what ``run_checks`` checks with the store for two of its six
names: every ambiguous checkpoint has a clue (solvable), and no clue contains an answer
(no_leakage). It records what it was called with, so tests can see re-checks after a fix.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from builder.records.sample import Sample


@dataclass(frozen=True)
class Result:
    name: str
    passed: bool
    detail: str


@dataclass(frozen=True)
class Report:
    sample_id: str
    results: list[Result]

    @property
    def passed(self) -> bool:
        return all(r.passed for r in self.results)


@dataclass
class ClueChecker:
    calls: list[Sample] = field(default_factory=list)

    def __call__(self, sample: Sample) -> Report:
        self.calls.append(sample)
        missing = [cp.index for cp in sample.checkpoints if cp.ambiguous and not cp.clue.strip()]
        answers = [sample.answer.lower()] + [cp.answer.lower() for cp in sample.checkpoints]
        leaks = [
            cp.index
            for cp in sample.checkpoints
            if cp.clue and any(a and a in cp.clue.lower() for a in answers)
        ]
        return Report(
            sample_id=sample.id,
            results=[
                Result("solvable", not missing, f"checkpoints without clue: {missing}"),
                Result("no_leakage", not leaks, f"clues naming an answer: {leaks}"),
            ],
        )
