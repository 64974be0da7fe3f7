"""The oracle's reach before the ``oracle_solvable`` check filters: on the README's build.

``discobench build`` keeps only samples the asking oracle solves, so its output cannot show
how many it fails. This script re-creates the build's inject step (the bundled snapshot, 600
seed chains, seed 0) with ``oracle_solvable`` left out of the filter, then runs that check on
every sample the seven others let through, and prints the share reached and the failures
grouped by the failing hop's kind (its ambiguity type, or ``unambiguous``) and what went
wrong, with examples. For comparison, on the same samples: the walk that never asks, and
the one that never asks but reads each ambiguous hop as the unambiguous question asks it (its
``unambiguous_goal``, the words restored there read like a reply: what ``oracle:direct-guess``
does under ``--ablation unambiguous``), and the one that reads the vague goals with every
restored word at every hop (what it did before the per-hop reading).

    python benchmarks/oracle_reach.py                         # import + seed + inject, ~80 s CPU
    python benchmarks/oracle_reach.py --workspace /tmp/ws     # reuse (or keep) kb + seeds
    python benchmarks/oracle_reach.py --examples 5 --json benchmarks/out/oracle_reach.json

With ``--workspace`` the store and seeds are kept there (``kb.sqlite``, ``seeds.jsonl``, as
``discobench build`` names them) and reused when present; a ``discobench build`` workspace
works as it is.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from builder.ambiguity import inject  # noqa: E402
from builder.ambiguity.oracle_check import check_oracle_solvable  # noqa: E402
from builder.evaluation.matching import match  # noqa: E402
from builder.evaluation.oracle import (  # noqa: E402
    restored_by_hop,
    restored_words,
    unambiguous_sample,
    walk,
)
from builder.kb.importers import import_paths  # noqa: E402
from builder.kb.store import KnowledgeStore  # noqa: E402
from builder.pipeline import BUNDLED_KB, BuildOptions  # noqa: E402
from builder.records.sample import Sample  # noqa: E402
from builder.samples_io import read_seeds, write_seeds  # noqa: E402
from builder.seeding import generate_seeds  # noqa: E402
from builder.seeding.evidence import SEARCH_K  # noqa: E402
from builder.seeding.facts import Facts  # noqa: E402

_HOP = re.compile(r"^hop (\d+): ")


def what_failed(detail: str) -> str:
    """The kind of stop, from the check's reason."""
    if " rank " in detail and " first, not " in detail:
        return "wrong candidate"
    if "no candidate in the results" in detail:
        return "no candidate in the results"
    if " not in the results of " in detail:
        return "answer not in the results"
    if detail.startswith("walk ended on"):
        return "walk ended on another answer"
    return "other"


def hop_kind(sample: Sample, detail: str) -> tuple[str, int | None]:
    m = _HOP.match(detail)
    if m is None:
        return "final", None
    index = int(m.group(1))
    cp = next(c for c in sample.checkpoints if c.index == index)
    return (cp.ambiguity_type if cp.ambiguous else "unambiguous"), index


def prepare(ws: Path, n: int, seed: int) -> None:
    kb, seeds = ws / "kb.sqlite", ws / "seeds.jsonl"
    if not kb.exists():
        files = [BUNDLED_KB / f for f in ("entities.json", "pages.jsonl")]
        files += [
            p for f in ("snapshot.json", "completeness.json") if (p := BUNDLED_KB / f).exists()
        ]
        with KnowledgeStore.open(kb) as store:
            import_paths(store, files, progress=False)
    if not seeds.exists():
        with KnowledgeStore.open(kb, read_only=True) as store:
            chains = generate_seeds(store, n=n, hops=BuildOptions().hops, seed=seed, progress=False)
        write_seeds(seeds, chains)


def measure(ws: Path, seed: int, examples: int) -> dict[str, Any]:
    chains = list(read_seeds(ws / "seeds.jsonl"))
    with KnowledgeStore.open(ws / "kb.sqlite", read_only=True) as store:
        t0 = time.perf_counter()
        result = inject(store, chains, seed=seed, progress=False, skip_checks=["oracle_solvable"])
        t1 = time.perf_counter()
        facts = Facts(store)
        groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
        reached = 0
        c0 = time.process_time()
        for sample in result.samples:
            res = check_oracle_solvable(facts, sample)
            if res.passed:
                reached += 1
                continue
            kind, index = hop_kind(sample, res.detail)
            cp = next((c for c in sample.checkpoints if c.index == index), None)
            groups[(kind, what_failed(res.detail))].append(
                {
                    "sample": sample.id,
                    "question": sample.question,
                    "goal": cp.goal if cp else "",
                    "clue": cp.clue if cp and cp.ambiguous else "",
                    "gold": cp.answer if cp else sample.answer,
                    "detail": res.detail,
                }
            )
        cpu = time.process_time() - c0
        cache: dict[str, list[Any]] = {}

        def search(query: str) -> list[Any]:
            if query not in cache:
                cache[query] = list(store.search(query, SEARCH_K))
            return cache[query]

        # the per-hop reading's stops, grouped like the check's (and whether the check,
        # which asks, fails the sample too: then the build rejects it anyway)
        failed_ids = {f["sample"] for fs in groups.values() for f in fs}
        unamb_groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)

        def solved(sample: Sample, extra: dict[int, str], per_hop: bool = False) -> bool:
            read = unambiguous_sample(sample) if per_hop else sample
            got = walk(read, search, None, policy="never", extra=extra)
            ok = got.reached and match(got.final, sample.answer, sample.answer_aliases)
            if per_hop and not ok:
                detail = got.reason or f"walk ended on {got.final!r}, not {sample.answer!r}"
                kind, index = hop_kind(sample, detail)
                unamb_groups[(kind, what_failed(detail))].append(
                    {
                        "sample": sample.id,
                        "question": sample.unambiguous_question,
                        "restored": extra.get(index, "") if index else "",
                        "asking_fails_too": sample.id in failed_ids,
                        "detail": detail,
                    }
                )
            return ok

        def everywhere(sample: Sample) -> dict[int, str]:
            words = restored_words(sample.question, sample.unambiguous_question)
            return {cp.index: words for cp in sample.checkpoints}

        never = sum(solved(s, {}) for s in result.samples)
        restored = sum(solved(s, restored_by_hop(s), per_hop=True) for s in result.samples)
        restored_all = sum(solved(s, everywhere(s)) for s in result.samples)
    n = len(result.samples)
    by_type: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for sample in result.samples:
        for t in {c.ambiguity_type for c in sample.checkpoints if c.ambiguous}:
            by_type[t][0] += 1
            by_type[t][1] += sample.id not in failed_ids
    return {
        "samples": n,
        "reached": reached,
        "share": round(100 * reached / n, 1) if n else 0.0,
        "never_asking_reached": never,
        "unambiguous_reached": restored,
        "unambiguous_all_words_reached": restored_all,
        "inject_s": round(t1 - t0, 1),
        "check_cpu_ms_per_sample": round(1000 * cpu / max(n, 1), 2),
        "reached_by_type": {
            t: {"samples": a, "reached": b} for t, (a, b) in sorted(by_type.items())
        },
        "failures": [
            {"hop": kind, "stop": stop, "samples": len(fs), "examples": fs[:examples]}
            for (kind, stop), fs in sorted(groups.items(), key=lambda kv: -len(kv[1]))
        ],
        "unambiguous_failures": [
            {
                "hop": kind,
                "stop": stop,
                "samples": len(fs),
                "asking_fails_too": sum(f["asking_fails_too"] for f in fs),
                "examples": fs[:examples],
            }
            for (kind, stop), fs in sorted(unamb_groups.items(), key=lambda kv: -len(kv[1]))
        ],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workspace", type=Path, help="keep/reuse kb.sqlite and seeds.jsonl")
    parser.add_argument("--n", type=int, default=BuildOptions().n_seeds)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--examples", type=int, default=3)
    parser.add_argument("--json", type=Path, help="write the figures and every failure here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        ws = args.workspace or Path(tmp)
        ws.mkdir(parents=True, exist_ok=True)
        prepare(ws, args.n, args.seed)
        out = measure(ws, args.seed, examples=10**9 if args.json else args.examples)
    print(
        f"oracle_solvable before the filter: {out['reached']} of {out['samples']} samples "
        f"reached ({out['share']}%); check {out['check_cpu_ms_per_sample']} ms CPU per sample"
    )
    n = max(out["samples"], 1)
    for key, what in (
        ("never_asking_reached", "never asking"),
        ("unambiguous_reached", "never asking, on the unambiguous questions"),
        ("unambiguous_all_words_reached", "  … reading every restored word at every hop"),
    ):
        print(f"  {what}: {out[key]} of {out['samples']} ({100 * out[key] / n:.1f}%)")
    for t, v in out["reached_by_type"].items():
        share = 100 * v["reached"] / v["samples"]
        print(f"  samples with a {t} hop: {v['reached']}/{v['samples']} ({share:.1f}%)")
    print("stops (failing hop's kind, what went wrong):")
    for f in out["failures"]:
        print(f"  {f['samples']:4d}  {f['hop']} hop, {f['stop']}")
        for ex in f["examples"][: args.examples]:
            print(f"        {ex['sample']}: {ex['question']}")
            print(f"          goal {ex['goal']!r} clue {ex['clue']!r} gold {ex['gold']!r}")
            print(f"          {ex['detail']}")
    print("never asking, on the unambiguous questions: stops (failing hop's kind, what):")
    for f in out["unambiguous_failures"]:
        both = f"{f['asking_fails_too']} of them fail oracle_solvable too"
        print(f"  {f['samples']:4d}  {f['hop']} hop, {f['stop']} ({both})")
        for ex in f["examples"][: args.examples]:
            print(f"        {ex['sample']}: {ex['question']}")
            print(f"          restored {ex['restored']!r}: {ex['detail']}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(out, indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
