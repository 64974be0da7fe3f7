"""A real model in the loop: run an OpenAI-compatible server's model on N samples, neutral and
guided, and report what the paper's Table 4 reports plus where the time went.

    python benchmarks/bench_local_model.py --dataset exports/discobench-bundled \\
        --base-url http://127.0.0.1:8089/v1 --model qwen2.5-coder-1.5b-instruct --limit 30 \\
        --out .local-model/runs

Resumable (episodes already in OUT/<setting>.jsonl are skipped). Prints Table 4, the behaviour
profiles, tokens, wall time per episode, and the share of wall time spent waiting on the model
versus in the harness (search, simulated user, bookkeeping), from the ``timing`` each
trajectory of an ``openai:`` agent carries. ``--report-only`` reads OUT without running.

``--pack DIR`` then writes the run as a replayable cassette for tests: the samples, every
recorded search and model reply (the run's caches), and the trajectories — see
tests/evaluation/test_local_model_replay.py. ``scripts/local_model.sh`` calls this script.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

from rich.console import Console
from rich.table import Table

from builder.evaluation import load_dataset, read_trajectories, run_agent, score
from builder.evaluation.harness import Limits
from builder.evaluation.metrics import PROFILES, Metrics
from builder.evaluation.report import print_full_report
from builder.records.trajectory import OtherEvent, Trajectory
from builder.samples_io import write_samples

SETTINGS = ("neutral", "guided")


def episode_figures(trajs: list[Trajectory]) -> dict[str, float]:
    """Wall time per episode and how it splits between the model and the harness."""
    secs: list[float] = []
    model = 0.0
    calls = 0
    from_text = 0
    in_text = 0
    cut = 0
    for t in trajs:
        timing = getattr(t, "timing", None) or {}
        if "seconds" in timing:
            secs.append(float(timing["seconds"]))
            model += float(timing.get("model_seconds", 0.0))
        for e in t.events:
            if isinstance(e, OtherEvent) and e.type == "model":
                calls += 1
                from_text += int(getattr(e, "from_text", 0) or 0)
                cut += int(getattr(e, "finish_reason", "") == "length")
            elif e.type == "answer" and getattr(e, "answered_in_text", False):
                in_text += 1
    total = sum(secs)
    return {
        "episodes": len(trajs),
        "timed": len(secs),
        "median_s": statistics.median(secs) if secs else 0.0,
        "mean_s": statistics.fmean(secs) if secs else 0.0,
        "max_s": max(secs) if secs else 0.0,
        "model_share": model / total if total else 0.0,
        "model_calls": calls,
        "calls_from_text": from_text,
        "answers_in_text": in_text,
        "replies_cut": cut,
        "no_answer": sum(1 for t in trajs if getattr(t, "termination", "") != "answer"),
        "errors": sum(1 for t in trajs if t.error),
    }


def timing_table(figs: dict[str, dict[str, float]]) -> Table:
    t = Table(title="Episodes: wall time and where it went")
    t.add_column("setting")
    for col in (
        "episodes",
        "median s",
        "mean s",
        "max s",
        "model wait",
        "harness",
        "model calls",
        "calls from text",
        "answers in text",
        "cut at max_tokens",
        "no answer",
        "errors",
    ):
        t.add_column(col, justify="right")
    for name, f in figs.items():
        t.add_row(
            name,
            str(int(f["episodes"])),
            f"{f['median_s']:.1f}",
            f"{f['mean_s']:.1f}",
            f"{f['max_s']:.1f}",
            f"{100 * f['model_share']:.2f}%",
            f"{100 * (1 - f['model_share']):.2f}%",
            str(int(f["model_calls"])),
            str(int(f["calls_from_text"])),
            str(int(f["answers_in_text"])),
            str(int(f["replies_cut"])),
            str(int(f["no_answer"])),
            str(int(f["errors"])),
        )
    return t


def profile_table(named: dict[str, Metrics]) -> Table:
    t = Table(title="Behaviour profiles at gold-ambiguous checkpoints (share / pass rate)")
    t.add_column("setting")
    for p in PROFILES:
        t.add_column(p, justify="right")
    for name, m in named.items():
        cells = []
        for p in PROFILES:
            s = m.profiles[p]
            share = "-" if s.share is None else f"{100 * s.share:.0f}%"
            rate = "-" if s.pass_rate is None else f"{100 * s.pass_rate:.0f}%"
            cells.append(f"{share} / {rate}")
        t.add_row(name, *cells)
    return t


def pack(out: Path, dest: Path, subset: Path, meta: dict[str, object]) -> None:
    """The run as a cassette: samples, recorded searches and model replies, trajectories."""
    dest.mkdir(parents=True, exist_ok=True)
    (dest / "meta.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    (dest / "samples.jsonl").write_text(subset.read_text(encoding="utf-8"), encoding="utf-8")
    for name, folder in (("searches.jsonl", "search-cache"), ("llm.jsonl", "llm-cache")):
        rows = []
        for p in sorted((out / folder).rglob("*.json")):
            entry = json.loads(p.read_text(encoding="utf-8"))
            rows.append(json.dumps({"key": p.stem, **entry}, ensure_ascii=False, sort_keys=True))
        (dest / name).write_text("\n".join(rows) + "\n", encoding="utf-8")
        print(f"{len(rows)} entries -> {dest / name}", file=sys.stderr)
    for setting in SETTINGS:
        src = out / f"{setting}.jsonl"
        if src.exists():
            (dest / src.name).write_text(src.read_text(encoding="utf-8"), encoding="utf-8")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dataset", type=Path, default=Path("exports/discobench-bundled"))
    ap.add_argument("--out", type=Path, default=Path(".local-model/runs"))
    ap.add_argument("--model", default="qwen2.5-coder-1.5b-instruct")
    ap.add_argument("--base-url", default="http://127.0.0.1:8089/v1")
    ap.add_argument("--limit", type=int, default=30)
    ap.add_argument("--max-turns", type=int, default=12)
    ap.add_argument(
        "--kb", type=Path, default=Path("work/kb.sqlite"), help="the store for local search"
    )
    ap.add_argument("--settings", nargs="+", default=list(SETTINGS), choices=SETTINGS)
    ap.add_argument(
        "--concurrency",
        type=int,
        default=1,
        help="episodes at once (serve with llama-server --parallel N to batch them)",
    )
    ap.add_argument("--report-only", action="store_true")
    ap.add_argument("--pack", type=Path, help="write the run as a test cassette here")
    args = ap.parse_args()

    args.out.mkdir(parents=True, exist_ok=True)
    subset = args.out / "subset.jsonl"
    samples = load_dataset(args.dataset)[: args.limit]
    if not args.report_only:
        write_samples(subset, samples)
        os.environ.setdefault("OPENAI_BASE_URL", args.base_url)
        os.environ.setdefault("OPENAI_API_KEY", "local")
        from builder.config import get_settings
        from builder.kb.store import KnowledgeStore

        with KnowledgeStore.open(args.kb, read_only=True) as store:
            for setting in args.settings:
                summary = run_agent(
                    samples,
                    agent=f"openai:{args.model}",
                    store=store,
                    out=args.out / f"{setting}.jsonl",
                    setting=setting,
                    concurrency=args.concurrency,
                    limits=Limits(max_turns=args.max_turns),
                    settings=get_settings(),
                    search_cache_dir=args.out / "search-cache",
                    llm_cache_dir=args.out / "llm-cache",
                )
                print(
                    f"{setting}: {summary.ran} episodes in {summary.wall_seconds:.0f} s "
                    f"({summary.errors} errors)",
                    file=sys.stderr,
                )
    named: dict[str, Metrics] = {}
    figs: dict[str, dict[str, float]] = {}
    for setting in SETTINGS:
        path = args.out / f"{setting}.jsonl"
        trajs = read_trajectories(path) if path.exists() else []
        if not trajs:
            continue
        named[setting] = score(samples, trajs)
        figs[setting] = episode_figures(trajs)
        (args.out / f"{setting}.metrics.json").write_text(
            named[setting].model_dump_json(indent=2), encoding="utf-8"
        )
    console = Console(width=160)
    print_full_report(named, console)
    console.print(profile_table(named))
    console.print(timing_table(figs))
    (args.out / "episodes.json").write_text(json.dumps(figs, indent=2), encoding="utf-8")
    if args.pack is not None:
        from builder.config import get_settings

        meta = {
            "model": args.model,
            "base_url": args.base_url,
            "max_tokens": get_settings().llm_max_tokens,
            "max_turns": args.max_turns,
            "samples": len(samples),
        }
        pack(args.out, args.pack, subset, meta)
    return 0


if __name__ == "__main__":
    sys.exit(main())
