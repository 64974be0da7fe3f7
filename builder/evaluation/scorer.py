"""The scorer: ../shared/design/evaluation.md, to the letter.

Readings where the contract is silent (also in docs/evaluation.md):
- an episode with a non-null ``error`` is incorrect: its final answer and all its
  checkpoints fail; its events still count (asks, searches, detection, profiles);
- a checkpoint entry that is present but empty does not fall back to the final answer
  (only a *missing* entry of the last checkpoint does);
- an ask whose target is not a checkpoint index of the sample counts like ``target: null``;
- trajectories of samples not in the dataset are ignored and counted (``n_unknown``);
- one sample with trajectories from different runs is an input error (score one run).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Sequence

from builder.errors import InputError
from builder.evaluation.io import ScoreEvent, ScoreRun, ScoreTrajectory, score_view
from builder.evaluation.matching import Matcher
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
from builder.records.trajectory import RunInfo, Trajectory


def _ratio(num: float, den: float) -> float | None:
    return num / den if den else None


Line = Trajectory | ScoreTrajectory
"""What the scorer reads: full records, or the dicts of ``read_for_scoring``."""

_DIRECT_GUESS, _HEAVY_GUESS, _DIRECT_ASK, _SEARCH_THEN_ASK = range(4)  # PROFILES' order
RunKey = tuple[str, str, str] | str


def _run_info(run: ScoreRun | None) -> RunInfo:
    return RunInfo.model_validate(run or {})


def _run_key(run: ScoreRun | None) -> RunKey:
    """Equal for equal runs (absent fields as RunInfo's defaults, extra fields included)."""
    if (
        run is not None
        and len(run) == 3
        and "agent" in run
        and "setting" in run
        and "ablation" in run
    ):
        return (run["agent"], run["setting"], run["ablation"])  # the common case
    info = _run_info(run)
    if not info.model_extra:
        return (info.agent, info.setting, info.ablation)
    return json.dumps(info.model_dump(mode="json"), sort_keys=True)


def _dedupe(
    samples: Sequence[Sample], trajectories: Iterable[Line]
) -> tuple[dict[str, ScoreTrajectory], int, int, int, list[RunInfo]]:
    """Last line per (sample_id, run) wins; returns by-id map, read, duplicates, unknown, runs."""
    known = {s.id for s in samples}
    latest: dict[tuple[str, RunKey], ScoreTrajectory] = {}
    read = unknown = 0
    for line in trajectories:
        read += 1
        traj = line if isinstance(line, dict) else score_view(line)
        sid = traj["sample_id"]
        if sid not in known:
            unknown += 1
            continue
        latest[(sid, _run_key(traj.get("run")))] = traj
    kept = read - unknown
    by_id: dict[str, ScoreTrajectory] = {}
    runs: dict[RunKey, ScoreTrajectory] = {}
    for (sid, run_key), traj in latest.items():
        runs[run_key] = traj
        if sid in by_id:
            first, second = _run_info(by_id[sid].get("run")), _run_info(traj.get("run"))
            raise InputError(
                f"sample {sid} has trajectories from {len(runs)} different runs "
                f"(e.g. {first.model_dump()} and {second.model_dump()})",
                hint="score one run at a time: write each run to its own trajectories file",
            )
        by_id[sid] = traj
    run_infos = [_run_info(t.get("run")) for t in runs.values()]
    return by_id, kept - len(latest), unknown, read, run_infos


def score(
    samples: Sequence[Sample], trajectories: Iterable[Line], *, heavy_search: int = 3
) -> Metrics:
    """Metrics of one run (``trajectories``) over a dataset (``samples``).

    One pass over the samples with plain counters: this loop runs for every sample and
    checkpoint of a run, so it reads each record field once and builds no per-sample
    objects. tests/evaluation/reference_scorer.py is the same contract written plainly;
    tests compare the two.
    """
    by_id, duplicates, unknown, read, runs = _dedupe(samples, trajectories)
    match = Matcher().match
    tp = fp = fn = tn = 0
    prof_count = [0, 0, 0, 0]
    prof_pass = [0, 0, 0, 0]
    type_count: dict[str, int] = dict.fromkeys(AMBIGUITY_TYPES, 0)
    type_asked: dict[str, int] = dict.fromkeys(AMBIGUITY_TYPES, 0)
    type_pass: dict[str, int] = dict.fromkeys(AMBIGUITY_TYPES, 0)
    n_asks = asks_amb = asks_amb_pass = n_search = n_errors = missing = 0
    tok_in = tok_out = assigned = invalid = 0
    n_amb = amb_pass = 0
    cells: dict[tuple[str, str], list[int]] = {}  # (difficulty, domain) → counts
    for sample in samples:
        cps = sample.checkpoints
        traj = by_id.get(sample.id)
        # --- the episode's events: last answer, asks and their targets, searches
        last: ScoreEvent | None = None
        errored = False
        searches = 0
        first_search = -1
        targets: list[int] = []  # valid targets of the asks, in order
        first_ask: dict[int, int] = {}  # checkpoint index → position of its first ask
        if traj is None:
            missing += 1
        else:
            errored = traj.get("error") is not None
            n_errors += errored
            usage = traj.get("usage")
            if usage:
                tok_in += usage.get("input_tokens", 0)
                tok_out += usage.get("output_tokens", 0)
            indexes: set[int] | None = None
            for pos, ev in enumerate(traj.get("events", ())):
                kind = ev["type"]
                if kind == "search":
                    if not searches:
                        first_search = pos
                    searches += 1
                elif kind == "answer":
                    last = ev
                elif kind == "ask":
                    n_asks += 1
                    if "target" in ev:
                        target = ev["target"]
                    else:  # key absent ≠ null: the default matcher decides
                        target = match_target(ev.get("question") or "", cps)
                        assigned += 1
                    if target is None:
                        continue
                    if indexes is None:
                        indexes = {cp.index for cp in cps}
                    if target not in indexes:
                        invalid += 1  # scored as a null target
                        continue
                    targets.append(target)
                    if target not in first_ask:
                        first_ask[target] = pos
            n_search += searches
        # --- final answer and checkpoints (an errored episode passes nothing)
        passed: dict[int, bool] = {}
        if last is not None and not errored:
            final = last.get("answer")
            correct = match(final, sample.answer, sample.answer_aliases)
            stated = last.get("checkpoints")
            last_index = cps[-1].index
            for cp in cps:
                idx = cp.index
                pred = stated.get(str(idx)) if stated else None
                if pred is None and idx == last_index:
                    pred = final
                passed[idx] = match(pred, cp.answer, cp.answer_aliases)
        else:
            correct = False
            for cp in cps:
                passed[cp.index] = False
        key = (sample.difficulty, sample.domain)
        acc = cells.get(key)
        if acc is None:
            acc = cells[key] = [0, 0, 0, 0]
        acc[0] += 1
        acc[1] += correct
        acc[2] += len(cps)
        acc[3] += sum(passed.values())
        if targets:
            amb = {cp.index for cp in cps if cp.ambiguous}
            for target in targets:
                if target in amb:
                    asks_amb += 1
                    asks_amb_pass += passed[target]
        # --- detection cells over all checkpoints; profiles of the ambiguous ones
        for cp in cps:
            idx = cp.index
            asked = idx in first_ask
            if not cp.ambiguous:
                if asked:
                    fp += 1
                else:
                    tn += 1
                continue
            ok = passed[idx]
            n_amb += 1
            amb_pass += ok
            if asked:
                tp += 1
                searched_before = 0 <= first_search < first_ask[idx]
                profile = _SEARCH_THEN_ASK if searched_before else _DIRECT_ASK
            else:
                fn += 1
                profile = _HEAVY_GUESS if searches >= heavy_search else _DIRECT_GUESS
            prof_count[profile] += 1
            prof_pass[profile] += ok
            kind = cp.ambiguity_type
            if kind in type_count:
                type_count[kind] += 1
                type_asked[kind] += asked
                type_pass[kind] += ok

    totals = [0, 0, 0, 0]
    diff: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    dom: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for (d, o), counts in cells.items():
        for pooled in (totals, diff[d], dom[o]):
            for i, v in enumerate(counts):
                pooled[i] += v
    n, total_correct, total_cps, total_passed = totals
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
    if missing:
        notes.append(f"{missing} sample(s) have no trajectory: scored incorrect with no events")
    domains_present = [d for d in DOMAINS if d in dom] + sorted(set(dom) - set(DOMAINS))
    return Metrics(
        n_samples=n,
        accuracy=_ratio(total_correct, n),
        checkpoint_pass=_ratio(total_passed, total_cps),
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
                count=prof_count[i],
                share=_ratio(prof_count[i], n_amb),
                pass_rate=_ratio(prof_pass[i], prof_count[i]),
            )
            for i, p in enumerate(PROFILES)
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
                n_samples=diff[d][0],
                accuracy=_ratio(diff[d][1], diff[d][0]),
                checkpoint_pass=_ratio(diff[d][3], diff[d][2]),
            )
            for d in DIFFICULTIES
        },
        by_domain={
            d: DomainStats(n_samples=dom[d][0], accuracy=_ratio(dom[d][1], dom[d][0]))
            for d in domains_present
        },
        heavy_search=heavy_search,
        run=runs[0] if len(runs) == 1 else None,
        ambiguous_checkpoint_pass=_ratio(amb_pass, n_amb),
        detection=conf,
        n_checkpoints=total_cps,
        n_ambiguous=n_amb,
        n_asks=n_asks,
        n_trajectories=read,
        n_duplicates=duplicates,
        n_unknown=unknown,
        n_assigned_targets=assigned,
        n_invalid_targets=invalid,
        notes=notes,
    )
