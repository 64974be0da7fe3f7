"""Export throughput and peak memory on generated samples, beside bare pyarrow.

Each measurement runs in a fresh subprocess so peak RSS (``ru_maxrss``) belongs to it alone.

    python benchmarks/bench_export.py --n 100000

Writes benchmarks/out/export.json and prints a table.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

OUT = Path(__file__).resolve().parent / "out"


def _generate(path: Path, n: int) -> None:
    from builder.samples_io import write_samples
    from builder.synthetic import make_sample

    write_samples(path, (make_sample(i) for i in range(n)))


def _run_export(samples: Path, out: Path) -> dict[str, float]:
    from builder.export import export_dataset

    start = time.perf_counter()
    report = export_dataset(samples, out, dev_fraction=0.1, canary="bench")
    seconds = time.perf_counter() - start
    rows = sum(report.rows["default"].values())
    return {"rows": rows, "seconds": seconds}


def _run_bare(samples: Path, out: Path) -> dict[str, float]:
    """The same rows through pyarrow alone: parse JSON lines, one table, one file per config."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from builder.export.features import sample_features

    schema = sample_features().arrow_schema
    start = time.perf_counter()
    rows = [json.loads(line) for line in samples.open(encoding="utf-8") if line.strip()]
    out.mkdir(parents=True, exist_ok=True)
    for config in ("default", "unambiguous"):
        if config == "unambiguous":
            for row in rows:
                row["question"] = row["unambiguous_question"]
        pq.write_table(pa.Table.from_pylist(rows, schema=schema), out / f"{config}.parquet")
    return {"rows": len(rows), "seconds": time.perf_counter() - start}


def _child(kind: str, samples: Path, out: Path) -> None:
    result = (_run_export if kind == "export" else _run_bare)(samples, out)
    result["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(result))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--child", choices=["export", "bare"])
    parser.add_argument("--samples", type=Path)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if args.child:
        _child(args.child, args.samples, args.out)
        return
    OUT.mkdir(exist_ok=True)
    results: dict[str, object] = {"n": args.n}
    with tempfile.TemporaryDirectory() as tmp:
        samples = Path(tmp) / "samples.jsonl"
        _generate(samples, args.n)
        results["input_mb"] = samples.stat().st_size / 1e6
        for kind in ("export", "bare"):
            proc = subprocess.run(
                [
                    sys.executable,
                    __file__,
                    "--child",
                    kind,
                    "--samples",
                    str(samples),
                    "--out",
                    str(Path(tmp) / kind),
                ],
                capture_output=True,
                text=True,
                check=True,
            )
            results[kind] = json.loads(proc.stdout.strip().splitlines()[-1])
    (OUT / "export.json").write_text(json.dumps(results, indent=2))
    print(f"samples: {args.n:,} ({results['input_mb']:.0f} MB JSONL)")
    print(f"{'':10} {'rows/s':>10} {'seconds':>9} {'peak RSS MB':>12}")
    for kind in ("export", "bare"):
        r = results[kind]
        assert isinstance(r, dict)
        print(
            f"{kind:10} {r['rows'] / r['seconds']:>10,.0f} {r['seconds']:>9.1f} {r['peak_rss_mb']:>12.0f}"
        )


if __name__ == "__main__":
    main()
