"""The eight automatic checks, run on a Sample and the store alone.

The sample's plan (``Provenance.generator``, a :class:`GeneratorInfo`) says what each hop's
description is as a query, and how each ambiguous hop was weakened; every check re-runs those
queries against the store, so a check is a query, never an assumption. Details carry the
numbers behind a verdict.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from pydantic import BaseModel, ConfigDict, Field

from builder.ambiguity.clues import resolve_clue
from builder.ambiguity.plan import candidate_keys, final_text, prev_keys, read_plan, weaken
from builder.kb.store import KnowledgeStore
from builder.kb.text import normalize_name
from builder.records.sample import Sample
from builder.records.seed import GeneratorInfo
from builder.seeding.evidence import SEARCH_K, answer_text, hop_query
from builder.seeding.facts import Facts
from builder.seeding.resolve import fits
from builder.seeding.text import leaks
from builder.validity.certify import Certifier, Refusal

CHECKS = (
    "unique",
    "ambiguous",
    "solvable",
    "consequential",
    "no_leakage",
    "retrievable",
    "certified",
    "oracle_solvable",
)


class CheckResult(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    passed: bool
    detail: str = Field("", description="The numbers behind the verdict.")


class CheckReport(BaseModel):
    model_config = ConfigDict(extra="forbid")

    sample_id: str
    passed: bool
    results: list[CheckResult]

    def failed(self) -> list[CheckResult]:
        return [r for r in self.results if not r.passed]


def _same(a: str, b: str) -> bool:
    return normalize_name(a) == normalize_name(b)


def check_unique(facts: Facts, sample: Sample, info: GeneratorInfo) -> CheckResult:
    prevs = prev_keys(info.plan)
    for ph, cp, prev in zip(info.plan, sample.checkpoints, prevs, strict=True):
        found = fits(facts, ph.spec, prev)
        if found != [ph.answer_key]:
            return CheckResult(
                name="unique",
                passed=False,
                detail=f"hop {ph.index}: {len(found)} answers fit {found[:5]}, "
                f"expected {ph.answer_key}",
            )
        text, aliases = answer_text(facts, ph.answer_key, prev or "", ph.spec.link)
        if not any(_same(t, cp.answer) for t in (text, *aliases)):
            return CheckResult(
                name="unique",
                passed=False,
                detail=f"hop {ph.index}: store answer {text!r} != {cp.answer!r}",
            )
    last = sample.checkpoints[-1]
    if sample.answer != last.answer or sample.answer_aliases != last.answer_aliases:
        return CheckResult(
            name="unique",
            passed=False,
            detail=f"final answer {sample.answer!r} (aliases {sample.answer_aliases}) is not the "
            f"last checkpoint's {last.answer!r} (aliases {last.answer_aliases})",
        )
    return CheckResult(name="unique", passed=True, detail=f"{len(info.plan)} hops, 1 answer each")


def check_ambiguous(facts: Facts, info: GeneratorInfo) -> CheckResult:
    prevs = prev_keys(info.plan)
    parts = []
    for ph, prev in zip(info.plan, prevs, strict=True):
        inj = ph.injection
        if inj is None:
            continue
        weak = weaken(ph.spec, inj)
        exact = fits(facts, weak, prev)
        if inj.type == "factual":
            near = candidate_keys(facts, ph.spec, inj, prev)
            ok = not exact and ph.answer_key in near
            parts.append(f"hop {ph.index} factual: exact={len(exact)} near={len(near)}")
        else:
            ok = len(exact) >= 2 and ph.answer_key in exact
            parts.append(f"hop {ph.index} {inj.type}: fits={len(exact)}")
        if not ok:
            return CheckResult(name="ambiguous", passed=False, detail="; ".join(parts))
    if not parts:
        return CheckResult(name="ambiguous", passed=False, detail="no ambiguous checkpoint")
    return CheckResult(name="ambiguous", passed=True, detail="; ".join(parts))


def check_solvable(facts: Facts, sample: Sample, info: GeneratorInfo) -> CheckResult:
    prevs = prev_keys(info.plan)
    parts = []
    for ph, cp, prev in zip(info.plan, sample.checkpoints, prevs, strict=True):
        if ph.injection is None:
            continue
        keys = candidate_keys(facts, ph.spec, ph.injection, prev)
        weak = weaken(ph.spec, ph.injection)
        left = resolve_clue(facts, cp.clue, ph.injection.clue, keys, weak, prev)
        edited = " (edited clue)" if cp.clue.split() != ph.injection.clue.text.split() else ""
        parts.append(f"hop {ph.index}: {len(keys)} -> {len(left)}{edited}")
        if left != [ph.answer_key]:
            return CheckResult(
                name="solvable", passed=False, detail="; ".join(parts) + f" left={left[:5]}"
            )
    return CheckResult(name="solvable", passed=bool(parts), detail="; ".join(parts))


def check_consequential(facts: Facts, sample: Sample, info: GeneratorInfo) -> CheckResult:
    specs = [p.spec for p in info.plan]
    prevs = prev_keys(info.plan)
    parts = []
    for i, (ph, prev) in enumerate(zip(info.plan, prevs, strict=True)):
        if ph.injection is None:
            continue
        keys = candidate_keys(facts, ph.spec, ph.injection, prev)
        finals = {k: final_text(facts, specs, i, k, prev or "") for k in keys if k != ph.answer_key}
        differ = [k for k, f in finals.items() if f and not _same(f, sample.answer)]
        parts.append(f"hop {ph.index}: {len(differ)}/{len(finals)} wrong candidates change it")
        if not differ:
            return CheckResult(name="consequential", passed=False, detail="; ".join(parts))
    return CheckResult(name="consequential", passed=bool(parts), detail="; ".join(parts))


def check_no_leakage(sample: Sample) -> CheckResult:
    forbidden = [sample.answer, *sample.answer_aliases]
    for cp in sample.checkpoints:
        forbidden += [cp.answer, *cp.answer_aliases]
    forbidden = list(dict.fromkeys(f for f in forbidden if f))
    found = [f"question: {x!r}" for x in leaks(sample.question, forbidden)]
    for cp in sample.checkpoints:
        found += [f"clue {cp.index}: {x!r}" for x in leaks(cp.clue, forbidden)]
    return CheckResult(
        name="no_leakage",
        passed=not found,
        detail="; ".join(found) if found else f"{len(forbidden)} strings absent",
    )


def check_retrievable(facts: Facts, sample: Sample, info: GeneratorInfo) -> CheckResult:
    prevs = prev_keys(info.plan)
    ranks = []
    for ph, cp, prev in zip(info.plan, sample.checkpoints, prevs, strict=True):
        titles = [h.title for h in facts.store.search(hop_query(facts, ph.spec, prev), SEARCH_K)]
        want = [e.title for e in cp.evidence]
        hit = next((i + 1 for i, t in enumerate(titles) if t in want), None)
        ranks.append(f"hop {ph.index}: rank {hit or '>' + str(SEARCH_K)}")
        if hit is None:
            return CheckResult(name="retrievable", passed=False, detail="; ".join(ranks))
    return CheckResult(name="retrievable", passed=True, detail="; ".join(ranks))


def _oracle_check(facts: Facts, sample: Sample) -> CheckResult:
    from builder.ambiguity.oracle_check import check_oracle_solvable  # imports CheckResult

    return check_oracle_solvable(facts, sample)


def check_certified(certifier: Certifier, sample: Sample, info: GeneratorInfo) -> CheckResult:
    """Every checkpoint's certificate re-computed from the store and the declarations: the
    description still has exactly the answers it claims over a set complete in the world."""
    prevs = prev_keys(info.plan)
    parts = []
    for ph, cp, prev in zip(info.plan, sample.checkpoints, prevs, strict=True):
        if ph.injection is None:
            got = certifier.hop(ph.spec, prev, ph.answer_key)
        else:
            got = certifier.ambiguous(ph.spec, ph.injection, prev, ph.answer_key)
        where = f"hop {ph.index}"
        if isinstance(got, Refusal):
            return CheckResult(name="certified", passed=False, detail=f"{where}: {got}")
        fresh = got.model_dump(exclude={"explanation"})
        if cp.certificate.model_dump(exclude={"explanation"}) != fresh:
            changed = [k for k, v in fresh.items() if getattr(cp.certificate, k) != v]
            return CheckResult(
                name="certified",
                passed=False,
                detail=f"{where}: certificate no longer holds ({', '.join(changed)} changed)",
            )
        parts.append(f"{where}: {got.basis} {got.source}")
    return CheckResult(name="certified", passed=True, detail="; ".join(parts))


def run_checks(
    store: KnowledgeStore,
    sample: Sample,
    *,
    facts: Facts | None = None,
    certifier: Certifier | None = None,
    skip: Collection[str] = (),
) -> CheckReport:
    """All eight checks on one sample (``facts`` and ``certifier`` share caches across many
    samples), but those named in ``skip`` (to measure what a check filters: a sample then
    passes on the others)."""
    unknown = set(skip) - set(CHECKS)
    if unknown:
        raise ValueError(f"unknown checks {sorted(unknown)}; known: {', '.join(CHECKS)}")

    facts = facts or Facts(store)
    certifier = certifier or Certifier.from_settings(facts)
    info = read_plan(sample)
    if info is None:
        results = [
            CheckResult(name=n, passed=False, detail="no readable plan in provenance.generator")
            for n in CHECKS
            if n not in skip
        ]
        return CheckReport(sample_id=sample.id, passed=False, results=results)
    runs: dict[str, Callable[[], CheckResult]] = {
        "unique": lambda: check_unique(facts, sample, info),
        "ambiguous": lambda: check_ambiguous(facts, info),
        "solvable": lambda: check_solvable(facts, sample, info),
        "consequential": lambda: check_consequential(facts, sample, info),
        "no_leakage": lambda: check_no_leakage(sample),
        "retrievable": lambda: check_retrievable(facts, sample, info),
        "certified": lambda: check_certified(certifier, sample, info),
        "oracle_solvable": lambda: _oracle_check(facts, sample),
    }
    results = [runs[name]() for name in CHECKS if name not in skip]
    return CheckReport(sample_id=sample.id, passed=all(r.passed for r in results), results=results)
