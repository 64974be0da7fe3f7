"""Benchmark seeding + injection: samples/s, and how lookup cost grows with snapshot size.

Runs ``generate_seeds`` + ``inject`` (all six checks included) on
  * the bundled snapshot (``seeds/kb``, converted and imported into a temporary store), and
  * generated snapshots of 10,000 and 100,000 entities with the same shape as the bundled
    one (studios with games, directors, cities with populations by year, chief executives
    with start/end dates, two numeric properties per game), pages stating every fact.

Every SQL statement the store runs is counted (``sqlite3`` trace callback): statements per
sample stay flat from 10^4 to 10^5 entities when every candidate lookup goes through an index
(reverse index, P31/P279 closure, time groups, numeric values, FTS); a scan of all entities
per lookup would grow tenfold. The one-time topic ordering (one pass over entity domains) is
timed apart.

    python benchmarks/bench_inject.py                       # bundled + 10k + 100k
    python benchmarks/bench_inject.py --sizes 10000 --n 50    # quick run

Results: ``benchmarks/out/inject.json`` and a table on stdout.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from builder.ambiguity import inject  # noqa: E402
from builder.ambiguity.stats import table1  # noqa: E402
from builder.kb.importers import import_paths  # noqa: E402
from builder.kb.store import KnowledgeStore  # noqa: E402
from builder.records.page import Page  # noqa: E402
from builder.records.wikidata import Entity  # noqa: E402
from builder.seeding import generate_seeds  # noqa: E402
from builder.seeding.topics import topic_order  # noqa: E402
from tests.ambiguity import minikb  # noqa: E402

OUT = ROOT / "benchmarks" / "out"
GENRES = ["action", "platformer", "puzzle", "racing", "strategy", "shooter", "sports game",
          "role-playing", "simulation", "fighting", "rhythm", "stealth"]  # fmt: skip
minikb.PROPS.setdefault("P2130", ("cost", "quantity"))


def synthetic(size: int, seed: int = 0) -> list[tuple[Entity, Page | None]]:
    """About ``size`` entities: games (half), people, studios, cities, countries."""
    rng = random.Random(seed)
    ent = minikb.ent
    out = [ent("Q7889", "video game"), ent("Q210167", "video game developer"), ent("Q5", "human"),
           ent("Q515", "city"), ent("Q6256", "country"), ent("Q2526255", "film director")]  # fmt: skip
    genres = [f"L:genre-{i}" for i in range(len(GENRES))]
    out += [ent(g, name) for g, name in zip(genres, GENRES, strict=True)]
    n_countries = max(10, size // 2000)
    cities: list[str] = []
    for c in range(n_countries):
        cid = f"L:country-{c}"
        mine = [f"L:city-{c}-{i}" for i in range(5)]
        cities += mine
        out.append(ent(cid, f"Country {c}", "Q6256", {"P36": mine[0]},
                       f"Country {c} is a country. Its capital is City {c}-0."))  # fmt: skip
        for i, city in enumerate(mine):
            p10, p20 = rng.randint(10_000, 9_000_000), rng.randint(10_000, 9_000_000)
            pops = [{"v": p10, "P585": "2010"}, {"v": p20, "P585": "2020", "rank": "preferred"}]
            out.append(ent(city, f"City {c}-{i}", "Q515", {"P17": cid, "P1082": pops},
                           f"City {c}-{i} is a city in Country {c}. Its population was "
                           f"{p10:,} in 2010 and {p20:,} in 2020."))  # fmt: skip
    n_people = size // 6
    people = [f"L:person-{i}" for i in range(n_people)]
    for i, pid in enumerate(people):
        year, city = rng.randint(1930, 1995), rng.choice(cities)
        out.append(ent(pid, f"Person {i}", "Q5",
                       {"P106": "Q2526255", "P569": str(year), "P19": city},
                       f"Person {i} is a director born in {year} in City "
                       f"{city.removeprefix('L:city-')}."))  # fmt: skip
    n_studios = max(10, size // 25)
    for s in range(n_studios):
        a, b = rng.sample(people, 2)
        y0 = rng.randint(1970, 2005)
        y1 = rng.randint(y0 + 1, 2020)
        city = rng.choice(cities)
        ceos = [{"v": a, "P580": str(y0), "P582": str(y1)},
                {"v": b, "P580": str(y1), "rank": "preferred"}]  # fmt: skip
        out.append(ent(f"L:studio-{s}", f"Studio {s}", "Q210167",
                       {"P159": city, "P571": str(y0), "P169": ceos},
                       f"Studio {s} is a video game developer founded in {y0}, based in City "
                       f"{city.removeprefix('L:city-')}. Person {a.rsplit('-', 1)[1]} was its "
                       f"chief executive from {y0} to {y1}, and Person {b.rsplit('-', 1)[1]} "
                       f"since {y1}."))  # fmt: skip
    n_games = max(0, size - len(out))
    for g in range(n_games):
        s = rng.randrange(n_studios)
        year, d, gi = rng.randint(1985, 2023), rng.randrange(n_people), rng.randrange(len(GENRES))
        box, cost = rng.randint(1, 900) * 1_000_000, rng.randint(1, 300) * 1_000_000
        out.append(ent(f"L:game-{g}", f"Game {g}", "Q7889",
                       {"P178": f"L:studio-{s}", "P577": str(year), "P57": people[d],
                        "P136": genres[gi], "P2142": box, "P2130": cost},
                       f"Game {g} is a {GENRES[gi]} video game developed by Studio {s} and "
                       f"released in {year}. It was directed by Person {d}."))  # fmt: skip
    return out


class SqlCounter:
    """Top-level statements (our lookups) and FTS5-internal ones (``-- `` prefixed)."""

    def __init__(self, store: KnowledgeStore) -> None:
        self.count = 0
        self.fts = 0
        store.conn.set_trace_callback(self._hit)

    def _hit(self, sql: str) -> None:
        if sql.startswith("--"):
            self.fts += 1
        else:
            self.count += 1


def measure(store: KnowledgeStore, label: str, n: int, entities: int) -> dict[str, Any]:
    t0 = time.perf_counter()
    topic_order(store, None, 0)
    order_s = time.perf_counter() - t0
    counter = SqlCounter(store)
    t1 = time.perf_counter()
    seeds = generate_seeds(store, n=n, seed=0, progress=False)
    t2 = time.perf_counter()
    seed_sql, seed_fts = counter.count, counter.fts
    result = inject(store, seeds, seed=0, progress=False)
    t3 = time.perf_counter()
    inject_sql = counter.count - seed_sql
    inject_fts = counter.fts - seed_fts
    stats = table1(result.samples)
    samples = max(len(result.samples), 1)
    return {
        "snapshot": label, "entities": entities, "seeds": len(seeds),
        "samples": len(result.samples), "instances": stats.instances,
        "topic_order_s": round(order_s, 2), "seed_s": round(t2 - t1 - order_s, 2),
        "inject_s": round(t3 - t2, 2),
        "samples_per_s": round(len(result.samples) / (t3 - t1), 2),
        "sql_per_seed": round(seed_sql / max(len(seeds), 1)),
        "sql_per_sample_inject": round(inject_sql / samples),
        "fts_rows_per_seed": round(seed_fts / max(len(seeds), 1)),
        "fts_rows_per_sample_inject": round(inject_fts / samples),
        "ms_per_sample": round(1000 * (t3 - t1) / samples, 1),
    }  # fmt: skip


def bundled_store(tmp: Path) -> KnowledgeStore:
    spec = importlib.util.spec_from_file_location("kbbuild", ROOT / "seeds" / "kb" / "build.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules["kbbuild"] = mod
    spec.loader.exec_module(mod)
    if mod.main(["--out", str(tmp / "snap")]) != 0:
        raise SystemExit("seeds/kb/build.py failed; fix the snapshot first")
    store = KnowledgeStore.open(tmp / "bundled.sqlite")
    import_paths(store, [tmp / "snap"], progress=False)
    return store


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--n", type=int, default=100, help="seed chains per generated snapshot")
    parser.add_argument("--n-bundled", type=int, default=600, help="seed chains, bundled")
    parser.add_argument("--no-bundled", action="store_true")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        if not args.no_bundled:
            store = bundled_store(tmp)
            rows.append(measure(store, "bundled", args.n_bundled, store.stats().items))
            store.close()
        for size in (int(s) for s in args.sizes.split(",")):
            t0 = time.perf_counter()
            store = minikb.build_store(tmp / f"syn-{size}.sqlite", synthetic(size))
            build_s = time.perf_counter() - t0
            row = measure(store, f"synthetic-{size}", args.n, store.stats().items)
            row["build_s"] = round(build_s, 1)
            rows.append(row)
            store.close()
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "inject.json").write_text(json.dumps(rows, indent=2) + "\n")
    keys = ["snapshot", "entities", "seeds", "samples", "instances", "samples_per_s",
            "ms_per_sample", "sql_per_seed", "sql_per_sample_inject", "fts_rows_per_seed",
            "topic_order_s"]  # fmt: skip
    print(" | ".join(keys))
    for row in rows:
        print(" | ".join(str(row.get(k, "")) for k in keys))


if __name__ == "__main__":
    main()
