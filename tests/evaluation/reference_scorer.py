"""A straightforward reference scorer for tests: evaluation.md read line by line, with no
speed work (plain :func:`match`, one object per fact, full :class:`Trajectory` records).

It is the scorer as it was before the fast path (commit 312300f), kept here so that tests can
compare ``builder.evaluation.scorer.score`` with it on varied trajectories.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from builder.errors import InputError
from builder.evaluation.matching import match
from builder.evaluation.metrics import (
    DIFFICULTIES,
    PROFILES,
    Confusion,
    DifficultyStats,
    DomainStats,
    Metrics,
    ProfileStats,
    TypeStats,
)
from builder.evaluation.targets import match_target
from builder.records.sample import AMBIGUITY_TYPES, DOMAINS, Sample
from builder.records.trajectory import AnswerEvent, AskEvent, RunInfo, Trajectory


def _ratio(num: float, den: float) -> float | None:
    return num / den if den else None


@dataclass
class _Counts:
    """Accumulators pooled over samples."""

    samples: int = 0
    correct: int = 0
    checkpoints: int = 0
    passed: int = 0


@dataclass
class _Episode:
    """Per-sample facts the metrics are computed from."""

    correct: bool
    passed: dict[int, bool]
    ask_targets: list[tuple[int, int | None]]  # (position in events, valid target or None)
    n_search: int
    first_search: int | None
    assigned: int = 0
    invalid: int = 0
    tokens: tuple[int, int] = (0, 0)
    notes: list[str] = field(default_factory=list)


def _episode(sample: Sample, traj: Trajectory | None) -> _Episode:
    events = traj.events if traj is not None else []
    errored = traj is not None and traj.error is not None
    indexes = {cp.index for cp in sample.checkpoints}
    last_answer: AnswerEvent | None = None
    asks: list[tuple[int, int | None]] = []
    n_search = 0
    first_search: int | None = None
    assigned = invalid = 0
    for pos, ev in enumerate(events):
        if isinstance(ev, AnswerEvent):
            last_answer = ev
        elif ev.type == "search":
            n_search += 1
            if first_search is None:
                first_search = pos
        elif isinstance(ev, AskEvent):
            target = ev.target
            if not ev.has_target:
                target = match_target(ev.question, sample.checkpoints)
                assigned += 1
            if target is not None and target not in indexes:
                invalid += 1
                target = None
            asks.append((pos, target))
    final = last_answer.answer if last_answer is not None else None  # str (validated)
    correct = not errored and match(final, sample.answer, sample.answer_aliases)
    stated = (last_answer.checkpoints or {}) if last_answer is not None else {}
    last_index = sample.checkpoints[-1].index
    passed: dict[int, bool] = {}
    for cp in sample.checkpoints:
        pred = stated.get(str(cp.index))
        if pred is None and cp.index == last_index:
            pred = final
        ok = not errored and last_answer is not None
        passed[cp.index] = ok and match(pred, cp.answer, cp.answer_aliases)
    tokens = (traj.usage.input_tokens, traj.usage.output_tokens) if traj is not None else (0, 0)
    return _Episode(correct, passed, asks, n_search, first_search, assigned, invalid, tokens)


def _run_key(run: RunInfo) -> str:
    return json.dumps(run.model_dump(mode="json"), sort_keys=True)


def _dedupe(
    samples: Sequence[Sample], trajectories: Iterable[Trajectory]
) -> tuple[dict[str, Trajectory], int, int, int, list[RunInfo]]:
    """Last line per (sample_id, run) wins; returns by-id map, read, duplicates, unknown, runs."""
    known = {s.id for s in samples}
    latest: dict[tuple[str, str], Trajectory] = {}
    read = unknown = 0
    for traj in trajectories:
        read += 1
        if traj.sample_id not in known:
            unknown += 1
            continue
        latest[(traj.sample_id, _run_key(traj.run))] = traj
    kept = read - unknown
    by_id: dict[str, Trajectory] = {}
    runs: dict[str, RunInfo] = {}
    for (sid, run_key), traj in latest.items():
        runs[run_key] = traj.run
        if sid in by_id:
            raise InputError(
                f"sample {sid} has trajectories from {len(runs)} different runs "
                f"(e.g. {by_id[sid].run.model_dump()} and {traj.run.model_dump()})",
                hint="score one run at a time: write each run to its own trajectories file",
            )
        by_id[sid] = traj
    return by_id, kept - len(latest), unknown, read, list(runs.values())


def reference_score(
    samples: Sequence[Sample], trajectories: Iterable[Trajectory], *, heavy_search: int = 3
) -> Metrics:
    """Metrics of one run (``trajectories``) over a dataset (``samples``)."""
    by_id, duplicates, unknown, read, runs = _dedupe(samples, trajectories)
    total = _Counts()
    diff: dict[str, _Counts] = defaultdict(_Counts)
    dom: dict[str, _Counts] = defaultdict(_Counts)
    tp = fp = fn = tn = 0
    prof_count: dict[str, int] = dict.fromkeys(PROFILES, 0)
    prof_pass: dict[str, int] = dict.fromkeys(PROFILES, 0)
    type_count: dict[str, int] = dict.fromkeys(AMBIGUITY_TYPES, 0)
    type_asked: dict[str, int] = dict.fromkeys(AMBIGUITY_TYPES, 0)
    type_pass: dict[str, int] = dict.fromkeys(AMBIGUITY_TYPES, 0)
    n_asks = asks_amb = asks_amb_pass = n_search = n_errors = 0
    tok_in = tok_out = assigned = invalid = 0
    n_amb = amb_pass = 0
    cells: dict[tuple[str, str], list[int]] = {}  # (difficulty, domain) → counts
    for sample in samples:
        traj = by_id.get(sample.id)
        ep = _episode(sample, traj)
        n_errors += int(traj is not None and traj.error is not None)
        assigned += ep.assigned
        invalid += ep.invalid
        tok_in += ep.tokens[0]
        tok_out += ep.tokens[1]
        n_search += ep.n_search
        key = (sample.difficulty, sample.domain)
        acc = cells.get(key)
        if acc is None:
            acc = cells[key] = [0, 0, 0, 0]
        acc[0] += 1
        acc[1] += ep.correct
        acc[2] += len(sample.checkpoints)
        acc[3] += sum(ep.passed.values())
        first_ask: dict[int, int] = {}
        n_asks += len(ep.ask_targets)
        if ep.ask_targets:
            amb = {cp.index for cp in sample.checkpoints if cp.ambiguous}
            for pos, target in ep.ask_targets:
                if target is not None:
                    first_ask.setdefault(target, pos)
                    if target in amb:
                        asks_amb += 1
                        asks_amb_pass += int(ep.passed[target])
        for cp in sample.checkpoints:
            asked = cp.index in first_ask
            if cp.ambiguous:
                tp += int(asked)
                fn += int(not asked)
            else:
                fp += int(asked)
                tn += int(not asked)
            if not cp.ambiguous:
                continue
            ok = ep.passed[cp.index]
            n_amb += 1
            amb_pass += int(ok)
            if asked:
                k = first_ask[cp.index]
                searched_before = ep.first_search is not None and ep.first_search < k
                profile = "SearchThenAsk" if searched_before else "DirectAsk"
            else:
                profile = "SearchHeavyGuess" if ep.n_search >= heavy_search else "DirectGuess"
            prof_count[profile] += 1
            prof_pass[profile] += int(ok)
            if cp.ambiguity_type in type_count:
                type_count[cp.ambiguity_type] += 1
                type_asked[cp.ambiguity_type] += int(asked)
                type_pass[cp.ambiguity_type] += int(ok)

    for (d, o), (k_samples, k_correct, k_cps, k_passed) in cells.items():
        for counts in (total, diff[d], dom[o]):
            counts.samples += k_samples
            counts.correct += k_correct
            counts.checkpoints += k_cps
            counts.passed += k_passed
    n = total.samples
    conf = Confusion(tp=tp, fp=fp, fn=fn, tn=tn)
    notes: list[str] = []
    if assigned:
        notes.append(
            f"{assigned} ask event(s) had no 'target' key: assigned with the default matcher "
            "(builder.evaluation.targets.match_target)"
        )
    if invalid:
        notes.append(f"{invalid} ask target(s) named no checkpoint of their sample: scored as null")
    if unknown:
        notes.append(f"{unknown} trajectory line(s) name samples not in the dataset: ignored")
    if duplicates:
        notes.append(f"{duplicates} line(s) superseded by a later line of the same sample and run")
    missing = sum(1 for s in samples if s.id not in by_id)
    if missing:
        notes.append(f"{missing} sample(s) have no trajectory: scored incorrect with no events")
    domains_present = [d for d in DOMAINS if d in dom] + sorted(set(dom) - set(DOMAINS))
    return Metrics(
        n_samples=n,
        accuracy=_ratio(total.correct, n),
        checkpoint_pass=_ratio(total.passed, total.checkpoints),
        detection_accuracy=_ratio(conf.tp + conf.tn, conf.tp + conf.tn + conf.fp + conf.fn),
        detection_f1=_ratio(2 * conf.tp, 2 * conf.tp + conf.fp + conf.fn),
        ambiguity_recall=_ratio(conf.tp, conf.tp + conf.fn),
        ce_a=_ratio(asks_amb, n_asks),
        ce_b=_ratio(asks_amb_pass, n_asks),
        ask_turns=_ratio(n_asks, n),
        search_turns=_ratio(n_search, n),
        input_tokens=_ratio(tok_in, n),
        output_tokens=_ratio(tok_out, n),
        n_errors=n_errors,
        n_missing=missing,
        profiles={
            p: ProfileStats(
                count=prof_count[p],
                share=_ratio(prof_count[p], n_amb),
                pass_rate=_ratio(prof_pass[p], prof_count[p]),
            )
            for p in PROFILES
        },
        by_type={
            t: TypeStats(
                count=type_count[t],
                recall=_ratio(type_asked[t], type_count[t]),
                pass_rate=_ratio(type_pass[t], type_count[t]),
            )
            for t in AMBIGUITY_TYPES
        },
        by_difficulty={
            d: DifficultyStats(
                n_samples=diff[d].samples,
                accuracy=_ratio(diff[d].correct, diff[d].samples),
                checkpoint_pass=_ratio(diff[d].passed, diff[d].checkpoints),
            )
            for d in DIFFICULTIES
        },
        by_domain={
            d: DomainStats(
                n_samples=dom[d].samples, accuracy=_ratio(dom[d].correct, dom[d].samples)
            )
            for d in domains_present
        },
        heavy_search=heavy_search,
        run=runs[0] if len(runs) == 1 else None,
        ambiguous_checkpoint_pass=_ratio(amb_pass, n_amb),
        detection=conf,
        n_checkpoints=total.checkpoints,
        n_ambiguous=n_amb,
        n_asks=n_asks,
        n_trajectories=read,
        n_duplicates=duplicates,
        n_unknown=unknown,
        n_assigned_targets=assigned,
        n_invalid_targets=invalid,
        notes=notes,
    )
