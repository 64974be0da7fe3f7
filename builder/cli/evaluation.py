"""``discobench eval``: run agents, score trajectories, compare runs."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from builder.cli.common import console, err_console, new_app, workspace_from
from builder.evaluation.report import COLUMNS_HELP

EXIT_TOO_MANY_ERRORS = 7  # eval run: more episodes errored than --max-error-rate allows

app = new_app("Evaluate search agents: run episodes, score trajectories, compare runs.")

DatasetOpt = Annotated[
    Path,
    typer.Option(
        "--dataset",
        help="Export folder, Parquet file, or samples JSONL.",
        show_default=False,
    ),
]


@app.command("score", epilog=COLUMNS_HELP)
def score_cmd(
    dataset: DatasetOpt,
    trajectories: Annotated[
        Path, typer.Option("--trajectories", help="Trajectories JSONL (one episode per line).")
    ],
    heavy_search: Annotated[
        int,
        typer.Option(
            "--heavy-search", min=1, help="Searches from which a guess is SearchHeavyGuess."
        ),
    ] = 3,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Write the metrics as JSON here.")
    ] = None,
) -> None:
    """Score trajectories against a dataset (docs/evaluation.md)."""
    from builder.evaluation.commands import score_files
    from builder.evaluation.report import print_full_report, run_name

    metrics = score_files(dataset, trajectories, heavy_search=heavy_search, json_out=json_out)
    print_full_report({run_name(metrics, trajectories.stem): metrics}, console)
    if json_out is not None:
        console.print(f"metrics written to {json_out}")


@app.command("run")
def run_cmd(
    ctx: typer.Context,
    dataset: DatasetOpt,
    agent: Annotated[
        str,
        typer.Option(
            "--agent",
            help="openai:MODEL, or a reference policy that reads the gold decomposition: "
            "oracle:direct-guess, oracle:search-then-ask, oracle:ask.",
        ),
    ],
    out: Annotated[Path, typer.Option("--out", help="Trajectories JSONL (appended; resumes).")],
    setting: Annotated[str, typer.Option(help="System prompt: neutral or guided.")] = "neutral",
    ablation: Annotated[
        str, typer.Option(help="none, no_search, or unambiguous (the restored question).")
    ] = "none",
    search: Annotated[
        str,
        typer.Option(
            help="Search backend: local, tavily, or recorded (DISCOBENCH_SEARCH_RECORDED)."
        ),
    ] = "local",
    concurrency: Annotated[int, typer.Option(min=1, help="Episodes in parallel.")] = 4,
    user: Annotated[str, typer.Option(help="Simulated user: deterministic or llm.")] = (
        "deterministic"
    ),
    judge: Annotated[str, typer.Option(help="Judge: match or llm (fills checkpoints).")] = "match",
    max_turns: Annotated[int, typer.Option(min=1, help="Model calls per episode.")] = 30,
    max_searches: Annotated[int, typer.Option(min=0, help="Searches per episode.")] = 15,
    max_asks: Annotated[int, typer.Option(min=0, help="Asks per episode.")] = 5,
    top_k: Annotated[int, typer.Option(min=1, help="Search results per query.")] = 5,
    cache: Annotated[
        bool, typer.Option("--cache/--no-cache", help="Cache the agent's model calls.")
    ] = True,
    progress: Annotated[bool, typer.Option("--progress/--no-progress")] = True,
    fresh: Annotated[
        bool, typer.Option("--fresh", help="Delete OUT first instead of resuming.")
    ] = False,
    max_error_rate: Annotated[
        float,
        typer.Option(
            "--max-error-rate",
            min=0.0,
            max=1.0,
            help="Exit 7 when more than this share of the episodes played errored (their "
            "errors stay in the trajectories; a re-run retries them). 1 never fails.",
        ),
    ] = 0.1,
) -> None:
    """Play an agent on every sample (resumable: samples already in OUT are skipped).

    Exits 0 when at most --max-error-rate of the episodes played now errored, else 7; the
    errors are listed grouped by message either way.
    """
    from builder.evaluation.commands import run_files
    from builder.evaluation.harness import Limits

    ws = workspace_from(ctx)
    try:
        summary = run_files(
            dataset,
            kb_path=ws.kb_path,
            search=search,
            ablation=ablation,
            agent=agent,
            out=out,
            setting=setting,
            concurrency=concurrency,
            progress=progress,
            user=user,
            judge=judge,
            limits=Limits(
                max_turns=max_turns, max_searches=max_searches, max_asks=max_asks, top_k=top_k
            ),
            search_cache_dir=ws.runs_dir / "search-cache",
            llm_cache_dir=ws.llm_cache_dir,
            llm_cache=cache,
            fresh=fresh,
        )
    except KeyboardInterrupt:
        err_console.print(
            f"interrupted (Ctrl-C): the episodes that finished are kept in {out}; run the same "
            "command again to play only the rest.",
            markup=False,
            highlight=False,
        )
        raise typer.Exit(130) from None
    console.print(
        f"{summary.ran} episode(s) played, {summary.skipped} skipped (already in {out}), "
        f"{summary.errors} error(s); {summary.model_calls} model call(s), "
        f"{summary.usage.input_tokens} in / {summary.usage.output_tokens} out tokens; "
        f"{summary.wall_seconds:.1f}s"
    )
    for kind, count in sorted(summary.error_kinds.items(), key=lambda kv: -kv[1]):
        err_console.print(f"  {count} × {kind}", markup=False, highlight=False)
    if summary.ran and summary.error_rate > max_error_rate:
        err_console.print(
            f"error: {summary.errors} of {summary.ran} episodes errored "
            f"({summary.error_rate:.0%} > --max-error-rate {max_error_rate:g}); the metrics "
            f"would not be comparable. Fix the cause above and re-run (errored episodes are "
            f"retried), or raise --max-error-rate.",
            markup=False,
            highlight=False,
        )
        raise typer.Exit(EXIT_TOO_MANY_ERRORS)
    console.print(f"score it: discobench eval score --dataset {dataset} --trajectories {out}")


@app.command("report", epilog=COLUMNS_HELP)
def report_cmd(
    runs: Annotated[
        list[Path],
        typer.Argument(
            help="Metrics JSON files (eval score --json; the build's baselines.json holds "
            "several runs)."
        ),
    ],
    out: Annotated[Path | None, typer.Option("--out", help="Folder for the PNG plots.")] = None,
) -> None:
    """Several runs side by side (Table 4 and Table 5 layouts) and PNG plots."""
    from builder.evaluation.commands import report_files
    from builder.evaluation.report import print_full_report

    named, plots = report_files(runs, out)
    print_full_report(named, console)
    for p in plots:
        console.print(f"plot: {p}")
    if out is None:
        console.print("(pass --out DIR to also write the PNG plots)")
