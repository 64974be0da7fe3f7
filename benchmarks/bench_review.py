"""Push and pull of 1,000 samples beside the server's own bulk import of the same tasks.

Starts a throwaway Label Studio server (``.venv-labelstudio``, see
``discobench review server install``) on a free 127.0.0.1 port and measures, in one run:

1. bare: one ``projects.import_tasks`` call with the 1,000 task payloads (data and meta);
2. push: ``builder.review.push`` of the same 1,000 samples into a fresh project (lists the
   project to match items, bulk-imports, records state and audit);
3. re-push: the same push again (nothing to import; one paginated listing);
4. pull: 1,000 tasks carrying two annotations each (imported inline with the tasks), i.e.
   2,000 decisions parsed, stored, audited, plus agreement.

Run:  python benchmarks/bench_review.py [--n 1000] [--batch-size 500]
Writes the figures to stdout and ``benchmarks/out/bench_review.json``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from label_studio_sdk.types.import_api_request import ImportApiRequest  # noqa: E402

from builder.records.sample import Sample  # noqa: E402
from builder.review import ReviewStore, connect, pull, push, result_for, server  # noqa: E402
from builder.review.tasks import task_payload  # noqa: E402
from tests.review.checker import ClueChecker, Report  # noqa: E402
from tests.review.decide import decision  # noqa: E402
from tests.review.factory import make_samples  # noqa: E402

T = TypeVar("T")


def timed(fn: Callable[[], T]) -> tuple[T, float]:
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--batch-size", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3, help="bare/push pairs (median)")
    args = parser.parse_args()

    samples: list[Sample] = make_samples(args.n)
    reports: dict[str, Report] = {s.id: ClueChecker()(s) for s in samples}  # checks precomputed

    def checker(sample: Sample) -> Report:
        return reports[sample.id]

    payloads = [
        task_payload(s, revision=0, round="annotate", report=reports[s.id]) for s in samples
    ]
    with tempfile.TemporaryDirectory(prefix="bench-review-") as tmp:
        tmpdir = Path(tmp)
        data_dir = tmpdir / "ls"
        info, t_start = timed(lambda: server.start(data_dir, port=server.free_port()))
        try:
            client = connect(info.url, info.token())
            config = (REPO / "annotation_configs" / "annotator.xml").read_text(encoding="utf-8")

            # Alternate bare import and push (fresh projects each time) so that load from
            # anything else on the machine hits both alike; report medians.
            bare_times: list[float] = []
            push_times: list[float] = []
            for rep in range(args.repeat):
                bare_project = client.projects.create(title=f"bare {rep}", label_config=config)
                t0 = time.perf_counter()
                client.projects.import_tasks(
                    id=int(bare_project.id or 0),
                    request=cast("list[ImportApiRequest]", payloads),
                    return_task_ids=True,
                )
                bare_times.append(time.perf_counter() - t0)
                store = ReviewStore(tmpdir / f"review-{rep}")
                t0 = time.perf_counter()
                first = push(
                    client,
                    samples,
                    round="annotate",
                    store=store,
                    checker=checker,
                    batch_size=args.batch_size,
                    title=f"push {rep}",
                )
                push_times.append(time.perf_counter() - t0)
                assert first.imported == args.n, first
            t_bare, t_push = statistics.median(bare_times), statistics.median(push_times)
            again, t_repush = timed(
                lambda: push(
                    client, samples, round="annotate", store=store, title=f"push {args.repeat - 1}"
                )
            )
            assert again.imported == 0 and again.unchanged == args.n, again

            # pull: a project whose tasks carry two annotations each, imported inline.
            admin_id = int(client.users.whoami().id or 0)
            other = client.users.create(username="bench-b", email="bench-b@discobench.test")
            annotated: list[dict[str, Any]] = []
            for n, p in enumerate(payloads):
                a = decision("accept")  # complete: every checkpoint confirmed
                b = decision("accept" if n % 7 else "fix")
                annotated.append(
                    {
                        **p,
                        "annotations": [
                            {"result": result_for(a), "completed_by": admin_id},
                            {"result": result_for(b), "completed_by": int(other.id or 0)},
                        ],
                    }
                )
            pull_project = client.projects.create(
                title="pull", label_config=config, maximum_annotations=2
            )
            client.projects.import_tasks(
                id=int(pull_project.id or 0),
                request=cast("list[ImportApiRequest]", annotated),
            )
            pstore = ReviewStore(tmpdir / "review-pull")
            push(client, samples, round="annotate", store=pstore, title="pull")
            pulled, t_pull = timed(lambda: pull(client, store=pstore))
            assert pulled.new_decisions == 2 * args.n, pulled
            _, t_pull_again = timed(lambda: pull(client, store=pstore))
        finally:
            server.stop(data_dir)

    figures = {
        "n": args.n,
        "batch_size": args.batch_size,
        "server_start_s": round(t_start, 2),
        "bare_import_s": round(t_bare, 3),
        "push_s": round(t_push, 3),
        "push_over_bare": round(t_push / t_bare, 2),
        "bare_runs_s": [round(t, 3) for t in bare_times],
        "push_runs_s": [round(t, 3) for t in push_times],
        "repush_unchanged_s": round(t_repush, 3),
        "pull_2x_annotations_s": round(t_pull, 3),
        "pull_again_nothing_new_s": round(t_pull_again, 3),
        "decisions_pulled": pulled.new_decisions,
    }
    for key, value in figures.items():
        print(f"{key:>26}: {value}")
    out = REPO / "benchmarks" / "out"
    out.mkdir(parents=True, exist_ok=True)
    (out / "bench_review.json").write_text(json.dumps(figures, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
