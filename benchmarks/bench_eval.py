"""Evaluation benchmarks: the two speed ratios of issue 14 (reported, not asserted).

1. Scoring: N generated trajectories (default 100,000) over N synthetic samples,
   ``read_for_scoring`` + ``score`` (what ``eval score`` runs once the dataset is loaded) vs
   bare ``json.loads`` of every line of the same file, both with the cyclic GC paused.
   Target: at most 3x. Normalization caches are per call (nothing carries over a round).
2. Runner: an ``openai:`` agent (2 model calls per episode) against the local fake endpoint,
   which answers LATENCY after each request arrives (default 200 ms); wall time of
   ``run_agent`` vs calls x latency / concurrency. Target: at most 1.1x at concurrency 8
   and 32. The fake endpoint runs in its own process, like a real server (in-process, its
   request handling would compete with the runner for the GIL and count as runner time).

The machine these run on is shared, so each measurement is repeated ``--rounds`` times,
the two sides of a ratio are measured back to back within a round (bare parse then score;
each concurrency in turn), and the median ratio over the rounds is printed last.

    python benchmarks/bench_eval.py [--n 100000] [--episodes 64] [--latency 0.2]
        [--concurrency 8 32] [--rounds 5] [--only scoring|runner]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from builder.config import Settings  # noqa: E402
from builder.evaluation import run_agent, score  # noqa: E402
from builder.evaluation.io import gc_paused, read_for_scoring  # noqa: E402
from builder.records.sample import Sample  # noqa: E402
from builder.synthetic import make_sample  # noqa: E402
from tests.fakes.openai_server import FakeOpenAIServer, Reply, tool_reply  # noqa: E402


def _trajectory(sample: Sample, rng: random.Random) -> dict[str, Any]:
    events: list[dict[str, Any]] = []
    stated: dict[str, str] = {}
    for cp in sample.checkpoints:
        events.append({"type": "search", "query": cp.goal, "results": None})
        if cp.ambiguous and rng.random() < 0.5:
            target = cp.index if rng.random() < 0.8 else None
            events.append({"type": "ask", "question": cp.goal, "reply": cp.clue, "target": target})
        stated[str(cp.index)] = cp.answer if rng.random() < 0.7 else "wrong"
    final = sample.answer if rng.random() < 0.6 else "wrong"
    events.append({"type": "answer", "answer": final, "checkpoints": stated})
    return {
        "sample_id": sample.id,
        "run": {"agent": "bench", "setting": "neutral", "ablation": "none"},
        "events": events,
        "usage": {"input_tokens": rng.randint(1000, 9000), "output_tokens": rng.randint(50, 900)},
        "error": None if rng.random() < 0.98 else "boom",
    }


def _timed(fn: Any) -> tuple[float, float, Any]:
    """Wall and CPU seconds of one call, and its result."""
    t0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    return time.perf_counter() - t0, time.process_time() - c0, out


def bench_scoring(n: int, tmp: Path, rounds: int) -> float:
    """Scoring vs bare parsing, interleaved round by round; returns the median wall ratio."""
    rng = random.Random(0)
    t0 = time.perf_counter()
    samples = [make_sample(i) for i in range(n)]
    path = tmp / "trajectories.jsonl"
    with path.open("w", encoding="utf-8") as fh:
        for s in samples:
            fh.write(json.dumps(_trajectory(s, rng)) + "\n")
    gen = time.perf_counter() - t0
    size_mb = path.stat().st_size / 1e6

    def bare_parse() -> int:
        """Parse every line and drop the result (freed inside the timing, like the
        scorer's records)."""
        with gc_paused(), path.open(encoding="utf-8") as fh:  # same footing as the scorer
            return len([json.loads(line) for line in fh])

    def eval_score() -> Any:
        with gc_paused():  # what `eval score` runs after loading the dataset
            return score(samples, read_for_scoring(path))

    print(f"scoring: {n} trajectories, {size_mb:.1f} MB (generated in {gen:.1f}s), {rounds} rounds")
    print("  round   bare wall   cpu   score wall   cpu    ratio wall   cpu")
    walls: list[float] = []
    cpus: list[float] = []
    metrics: Any = None
    for r in range(1, rounds + 1):
        bw, bc, _ = _timed(bare_parse)
        sw, sc, metrics = _timed(eval_score)
        walls.append(sw / bw)
        cpus.append(sc / bc)
        print(
            f"  {r:5d}  {bw:8.2f}s {bc:6.2f}s  {sw:9.2f}s {sc:6.2f}s  {sw / bw:9.2f}x {sc / bc:5.2f}x"
        )
    assert metrics.n_trajectories == n
    # where the time goes (one more pass, reported for reading, not in the ratio)
    rw, _, trajs = _timed(lambda: read_for_scoring(path))
    with gc_paused():
        mw, _, _ = _timed(lambda: score(samples, trajs))
    print(f"  split of one pass: read_for_scoring {rw:.2f}s, score {mw:.2f}s")
    print(f"  (accuracy {metrics.accuracy:.3f}, ce_a {metrics.ce_a:.3f})")
    wall = statistics.median(walls)
    print(
        f"  SCORING RATIO (median of {rounds}): {wall:.2f}x bare json.loads wall, "
        f"{statistics.median(cpus):.2f}x cpu  (target <= 3x)"
    )
    return wall


def _policy(body: dict[str, Any]) -> Reply:
    """Ask, then answer. Token counts are given, so the endpoint does not serialize the
    conversation to count them (CPU the runner's process would compete with)."""
    msgs = body["messages"]
    if not any(m["role"] == "tool" for m in msgs):
        return tool_reply(("ask", {"question": "Which entity is hop 1 meant?"}), usage=(900, 20))
    return tool_reply(("answer", {"answer": "x", "checkpoints": {"1": "y"}}), usage=(1000, 30))


def _serve(latency: float, conn: Any) -> None:
    """Child process: the fake endpoint until the parent closes the pipe."""
    with FakeOpenAIServer(_policy, latency=latency) as server:
        conn.send(server.url)
        with contextlib.suppress(EOFError):
            conn.recv()


def bench_runner(
    episodes: int, latency: float, concurrencies: list[int], tmp: Path, rounds: int
) -> dict[int, float]:
    """Wall time vs calls x latency / concurrency, concurrencies interleaved round by round;
    returns the median ratio per concurrency."""
    import multiprocessing as mp

    samples = [make_sample(i) for i in range(episodes)]
    print(
        f"runner: {episodes} episodes x 2 model calls, fake endpoint (own process) answering "
        f"{latency:.3f}s after each request, {rounds} rounds"
    )
    parent, child = mp.Pipe()
    proc = mp.get_context("spawn").Process(target=_serve, args=(latency, child), daemon=True)
    proc.start()
    url = parent.recv()
    ratios: dict[int, list[float]] = {c: [] for c in concurrencies}
    try:
        settings = Settings(OPENAI_BASE_URL=url, OPENAI_API_KEY="sk-bench")
        for r in range(1, rounds + 1):
            for c in concurrencies:
                t0, c0 = time.perf_counter(), time.process_time()
                summary = run_agent(
                    samples,
                    agent="openai:bench",
                    store=None,
                    out=tmp / f"run-c{c}.jsonl",
                    ablation="no_search",
                    concurrency=c,
                    progress=False,
                    settings=settings,
                    llm_cache=False,
                    fresh=True,
                )
                wall, cpu = time.perf_counter() - t0, time.process_time() - c0
                ideal = summary.model_calls * latency / c
                ratios[c].append(wall / ideal)
                print(
                    f"  round {r} concurrency {c:3d}: {summary.model_calls} calls, wall "
                    f"{wall:6.2f}s, ideal {ideal:6.2f}s, ratio {wall / ideal:.2f}x, runner cpu "
                    f"{cpu * 1e3 / max(1, summary.model_calls):.2f} ms/call, errors {summary.errors}"
                )
    finally:
        parent.send("stop")
        proc.join(5)
    medians = {c: statistics.median(v) for c, v in ratios.items()}
    print(
        f"  RUNNER RATIO (median of {rounds}): "
        + ", ".join(f"concurrency {c}: {m:.2f}x" for c, m in medians.items())
        + "  (target <= 1.1x)"
    )
    return medians


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--episodes", type=int, default=64)
    ap.add_argument("--latency", type=float, default=0.2)
    ap.add_argument("--concurrency", type=int, nargs="*", default=[8, 32])
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds; medians reported")
    ap.add_argument("--only", choices=["scoring", "runner"], default=None)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        if args.only != "runner":
            bench_scoring(args.n, tmp, args.rounds)
        if args.only != "scoring":
            bench_runner(args.episodes, args.latency, args.concurrency, tmp, args.rounds)


if __name__ == "__main__":
    main()
