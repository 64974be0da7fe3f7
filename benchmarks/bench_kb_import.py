"""Benchmark the snapshot store: dump import speed, memory, and query latencies.

Generates Wikidata-dump-shaped files (``[`` / one entity per line / ``]``, gzip) of synthetic
but realistic entities (labels in 3 languages, aliases, descriptions, sitelinks, 8-15
properties, time-qualified populations with one preferred rank, positions with start/end,
quantities with units, references), imports each with ``import_paths`` in a fresh process
(so peak RSS is per size), then times the store's queries.

    python benchmarks/bench_kb_import.py                  # 25k and 100k entities
    python benchmarks/bench_kb_import.py --sizes 10000    # quick run

Results: ``benchmarks/out/kb_import.json`` and a table on stdout.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parent / "out"
WORDS = [
    "river", "north", "saint", "lake", "new", "port", "upper", "green", "stone", "black",
    "white", "royal", "grand", "old", "east", "west", "south", "valley", "hill", "bridge",
    "castle", "forest", "bay", "cape", "mount", "field", "spring", "rock", "iron", "gold",
]  # fmt: skip
N_CLASSES = 200


def _item(pid: str, target: str) -> dict[str, Any]:
    return {"snaktype": "value", "property": pid, "datatype": "wikibase-item",
            "datavalue": {"type": "wikibase-entityid",
                          "value": {"entity-type": "item", "numeric-id": int(target[1:]), "id": target}}}  # fmt: skip


def _time(pid: str, year: int, precision: int = 9) -> dict[str, Any]:
    return {"snaktype": "value", "property": pid, "datatype": "time",
            "datavalue": {"type": "time", "value": {
                "time": f"+{year:04d}-01-01T00:00:00Z", "timezone": 0, "before": 0, "after": 0,
                "precision": precision, "calendarmodel": "http://www.wikidata.org/entity/Q1985727"}}}  # fmt: skip


def _quantity(pid: str, amount: float, unit: str = "1") -> dict[str, Any]:
    text = f"+{amount:.0f}" if amount == int(amount) else f"+{amount}"
    return {"snaktype": "value", "property": pid, "datatype": "quantity",
            "datavalue": {"type": "quantity", "value": {"amount": text, "unit": unit}}}  # fmt: skip


def _string(pid: str, value: str, datatype: str = "external-id") -> dict[str, Any]:
    return {"snaktype": "value", "property": pid, "datatype": datatype,
            "datavalue": {"type": "string", "value": value}}  # fmt: skip


def _statement(qid: str, n: int, snak: dict[str, Any], rank: str = "normal",
               qualifiers: list[dict[str, Any]] | None = None, ref: bool = False) -> dict[str, Any]:  # fmt: skip
    st: dict[str, Any] = {"mainsnak": snak, "type": "statement", "id": f"{qid}${n:08x}-bench",
                          "rank": rank}  # fmt: skip
    if qualifiers:
        st["qualifiers"] = {}
        for q in qualifiers:
            st["qualifiers"].setdefault(q["property"], []).append(q)
        st["qualifiers-order"] = list(st["qualifiers"])
    if ref:
        st["references"] = [{"hash": f"{n:040x}", "snaks": {"P143": [_item("P143", "Q328")]},
                             "snaks-order": ["P143"]}]  # fmt: skip
    return st


def make_entity(i: int, rng: random.Random) -> dict[str, Any]:
    """One synthetic entity; ids Q1000..; classes Q10..Q209 form a P279 forest."""
    qid = f"Q{1000 + i}"
    name = f"{rng.choice(WORDS).title()} {rng.choice(WORDS).title()} {i % 5000}"
    claims: list[dict[str, Any]] = []
    n = 0

    def add(snak: dict[str, Any], **kw: Any) -> None:
        nonlocal n
        claims.append(_statement(qid, n, snak, **kw))
        n += 1

    human = i % 3 == 0
    add(_item("P31", "Q5" if human else f"Q{10 + rng.randrange(N_CLASSES)}"), ref=True)
    add(_item("P17", f"Q{1000 + rng.randrange(300)}"))
    add(_time("P571", rng.randrange(1200, 2020)), ref=True)
    if human:
        add(_item("P106", f"Q{300 + rng.randrange(40)}"))
        for _ in range(rng.randrange(1, 4)):
            start = rng.randrange(1950, 2015)
            add(_item("P39", f"Q{400 + rng.randrange(60)}"),
                qualifiers=[_time("P580", start, 11), _time("P582", start + rng.randrange(1, 8), 11)])  # fmt: skip
    else:
        years = sorted(rng.sample(range(1950, 2024), rng.randrange(2, 6)))
        for k, year in enumerate(years):
            rank = "preferred" if k == len(years) - 1 else "normal"
            add(_quantity("P1082", rng.randrange(1000, 9_000_000)), rank=rank,
                qualifiers=[_time("P585", year)], ref=True)  # fmt: skip
        add(
            _quantity(
                "P2046", round(rng.uniform(1, 5000), 2), "http://www.wikidata.org/entity/Q712226"
            )
        )
        add(_item("P131", f"Q{1000 + rng.randrange(2000)}"))
    while len({c["mainsnak"]["property"] for c in claims}) < rng.randrange(8, 16):
        pid = f"P{2000 + rng.randrange(60)}"
        add(_string(pid, f"{rng.randrange(10**9):09d}"))
    if rng.random() < 0.05:
        add(_item("P31", "Q999"), rank="deprecated")
    grouped: dict[str, list[dict[str, Any]]] = {}
    for c in claims:
        grouped.setdefault(c["mainsnak"]["property"], []).append(c)
    langs = ("en", "de", "fr")
    return {
        "type": "item", "id": qid,
        "labels": {lg: {"language": lg, "value": name} for lg in langs},
        "descriptions": {lg: {"language": lg, "value": f"synthetic entity {i} ({lg})"} for lg in langs},
        "aliases": {"en": [{"language": "en", "value": f"{name} alias {k}"} for k in range(rng.randrange(0, 4))]},
        "claims": grouped,
        "sitelinks": {"enwiki": {"site": "enwiki", "title": name, "badges": []}},
    }  # fmt: skip


def make_classes() -> list[dict[str, Any]]:
    """Classes Q10..Q209: each a subclass of (k-1)//2 (a binary tree, depth ~7)."""
    out = []
    for k in range(N_CLASSES):
        qid = f"Q{10 + k}"
        claims = {"P279": [_statement(qid, 0, _item("P279", f"Q{10 + (k - 1) // 2}"))]} if k else {}
        out.append({"type": "item", "id": qid,
                    "labels": {"en": {"language": "en", "value": f"class {k}"}}, "claims": claims})  # fmt: skip
    return out


def write_dump(path: Path, size: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    with gzip.open(path, "wt", encoding="utf-8", compresslevel=1) as f:
        f.write("[\n")
        docs = make_classes()
        for doc in docs:
            f.write(json.dumps(doc, separators=(",", ":")) + ",\n")
        for i in range(size):
            end = ",\n" if i < size - 1 else "\n"
            f.write(json.dumps(make_entity(i, rng), separators=(",", ":")) + end)
        f.write("]\n")


def child_import(dump: Path, db: Path) -> dict[str, Any]:
    """Runs in a fresh process: import the dump, report rate and peak RSS."""
    from builder.kb.importers import import_paths
    from builder.kb.store import KnowledgeStore

    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    start, cpu_start = time.perf_counter(), time.process_time()
    with KnowledgeStore.open(db) as store:
        report = import_paths(store, [dump], progress=False)
        elapsed = time.perf_counter() - start
        cpu = time.process_time() - cpu_start
        stats = store.stats()
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    n = report.imported + report.replaced
    return {"entities": n, "statements": stats.statements, "seconds": round(elapsed, 2),
            "entities_per_s": round(n / elapsed), "cpu_seconds": round(cpu, 2),
            "entities_per_cpu_s": round(n / cpu), "peak_rss_mb": round(rss_mb, 1),
            "db_mb": round(db.stat().st_size / 2**20, 1), "bad": report.bad_count,
            "dump_mb": round(dump.stat().st_size / 2**20, 1)}  # fmt: skip


def parse_costs(dump: Path, limit: int = 5000) -> dict[str, float]:
    """Microseconds per entity for each step of the import's hot path, and the alternative
    it avoids (validating into Entity models, then model_dump)."""
    import gc
    from itertools import islice

    from builder.kb.readers import ENTITY_ADAPTER
    from builder.kb.rows import entity_rows
    from builder.kb.text import normalize_name
    from builder.kb.wire import ENTITY_DOC

    with gzip.open(dump, "rt", encoding="utf-8") as f:
        lines = [line.strip().rstrip(",") for line in islice(f, limit + N_CLASSES + 1)]
    lines = [x for x in lines[N_CLASSES + 1 :] if x.startswith("{")]

    def per_entity(fn: Any) -> float:
        gc.collect()
        t = time.perf_counter()
        for x in lines:
            fn(x)
        return round((time.perf_counter() - t) / len(lines) * 1e6, 1)

    return {
        "json.loads (reference)": per_entity(json.loads),
        "Entity model validate_json (not used)": per_entity(ENTITY_ADAPTER.validate_json),
        "Entity validate + model_dump (not used)": per_entity(
            lambda x: ENTITY_ADAPTER.validate_json(x).to_wire()
        ),
        "wire TypedDict validate_json (used)": per_entity(ENTITY_DOC.validate_json),
        "validate + entity_rows (used)": per_entity(
            lambda x: entity_rows(ENTITY_DOC.validate_json(x), ("en",), normalize_name, x)
        ),
    }


def _pct(samples: list[float]) -> dict[str, float]:
    samples = sorted(samples)
    return {"p50_ms": round(statistics.median(samples) * 1e3, 3),
            "p95_ms": round(samples[int(len(samples) * 0.95) - 1] * 1e3, 3)}  # fmt: skip


def query_latencies(db: Path, n: int = 1000, seed: int = 11) -> dict[str, dict[str, float]]:
    from builder.kb.store import KnowledgeStore

    rng = random.Random(seed)
    with KnowledgeStore.open(db, read_only=True) as store:
        pairs = store.conn.execute(
            "SELECT pid, value_key FROM statements WHERE best = 1 AND value_key IS NOT NULL "
            "AND ordinal % 7 = 3 LIMIT 20000"
        ).fetchall()
        ids = [r[0] for r in store.conn.execute("SELECT id FROM entities WHERE rowid % 53 = 0")]
        out: dict[str, dict[str, float]] = {}

        def timed(name: str, k: int, fn: Any) -> None:
            samples = []
            for _ in range(k):
                t = time.perf_counter()
                fn()
                samples.append(time.perf_counter() - t)
            out[name] = {**_pct(samples), "n": k}

        timed("subjects", n, lambda: store.subjects(*rng.choice(pairs)))
        timed("count_subjects", n, lambda: store.count_subjects(*rng.choice(pairs)))
        timed("get_entity", n, lambda: store.get_entity(rng.choice(ids)))
        timed("best_statements", n, lambda: store.best_statements(rng.choice(ids), "P1082"))
        timed(
            "ids_by_name",
            n,
            lambda: store.ids_by_name(
                f"{rng.choice(WORDS)} {rng.choice(WORDS)} {rng.randrange(5000)}"
            ),
        )
        timed("time_groups(subject)", n, lambda: store.time_groups(rng.choice(ids)))
        timed(
            "instances_of(leaf class)",
            200,
            lambda: store.instances_of(f"Q{10 + rng.randrange(100, N_CLASSES)}"),
        )
        timed("instances_of(root, depth 3)", 20, lambda: store.instances_of("Q10", 3))
        timed(
            "numeric_values(100 ids)",
            200,
            lambda: store.numeric_values("P1082", rng.sample(ids, min(100, len(ids)))),
        )
        timed("search", n, lambda: store.search(f"{rng.choice(WORDS)} {rng.choice(WORDS)}"))
    return out  # fmt: skip


def add_pages(db: Path, count: int, seed: int = 5) -> None:
    """Give the first ``count`` items a page so search has text to rank."""
    from builder.kb.store import KnowledgeStore
    from builder.records.page import Page

    rng = random.Random(seed)
    with KnowledgeStore.open(db) as store:
        ids = [r[0] for r in store.conn.execute("SELECT id FROM entities LIMIT ?", (count,))]
        store.upsert_pages(
            Page(entity_id=e, title=f"{e} page", url=f"https://example.org/{e}",
                 text=" ".join(rng.choice(WORDS) for _ in range(120)))
            for e in ids
        )  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[25_000, 100_000])
    ap.add_argument("--child", nargs=2, metavar=("DUMP", "DB"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(child_import(Path(args.child[0]), Path(args.child[1]))))
        return
    OUT.mkdir(parents=True, exist_ok=True)
    import os
    import sqlite3

    results: dict[str, Any] = {"python": sys.version.split()[0], "sqlite": sqlite3.sqlite_version,
                               "load_avg_at_start": os.getloadavg(), "imports": []}  # fmt: skip
    for size in args.sizes:
        dump = OUT / f"dump-{size}.json.gz"
        if not dump.exists():
            t = time.perf_counter()
            write_dump(dump, size)
            print(f"generated {dump.name} in {time.perf_counter() - t:.1f}s", file=sys.stderr)
        db = OUT / f"kb-{size}.sqlite"
        proc = subprocess.run([sys.executable, __file__, "--child", str(dump), str(db)],
                              check=True, capture_output=True, text=True)  # fmt: skip
        row = json.loads(proc.stdout)
        results["imports"].append(row)
        print(f"imported {size}: {row}", file=sys.stderr)
    largest = args.sizes[-1]
    results["hot_path_us_per_entity"] = parse_costs(OUT / f"dump-{largest}.json.gz")
    db = OUT / f"kb-{largest}.sqlite"
    add_pages(db, 20_000)
    results["queries"] = query_latencies(db)
    results["queries_on_entities"] = largest
    (OUT / "kb_import.json").write_text(json.dumps(results, indent=2))
    _print_table(results)


def _print_table(results: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    t = Table("entities", "statements", "dump MB", "wall s", "entities/s", "CPU s",
              "entities/CPU s", "peak RSS MB", "db MB", title="kb import (one process, gzip dump)")  # fmt: skip
    for r in results["imports"]:
        t.add_row(*(str(r[k]) for k in ("entities", "statements", "dump_mb", "seconds",
                                       "entities_per_s", "cpu_seconds", "entities_per_cpu_s",
                                       "peak_rss_mb", "db_mb")))  # fmt: skip
    console.print(t)
    h = Table("step", "µs / entity", title="hot path per entity")
    for k, v in results["hot_path_us_per_entity"].items():
        h.add_row(k, str(v))
    console.print(h)
    q = Table("query", "p50 ms", "p95 ms", "n",
              title=f"query latency ({results['queries_on_entities']} entities)")  # fmt: skip
    for k, v in results["queries"].items():
        q.add_row(k, str(v["p50_ms"]), str(v["p95_ms"]), str(v["n"]))
    console.print(q)


if __name__ == "__main__":
    main()
