"""``discobench build``: the README's main job — the whole chain offline on the bundled KB."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from builder.cli.common import console, err_console, workspace_from
from builder.evaluation.report import COLUMNS_HELP
from builder.kb.store import KnowledgeStore
from builder.pipeline import (
    BUNDLED_KB,
    BuildInterrupted,
    BuildOptions,
    baseline_metrics,
    run_build,
)


def register(app: typer.Typer) -> None:
    @app.command("build", epilog=COLUMNS_HELP)
    def build_cmd(
        ctx: typer.Context,
        kb_dir: Annotated[
            Path, typer.Option("--kb", help="Snapshot folder (entities.json + pages.jsonl).")
        ] = BUNDLED_KB,
        seed: Annotated[int, typer.Option("--seed", help="Seed of every random choice.")] = 0,
        force: Annotated[
            bool, typer.Option("--force", help="Re-run every step, even unchanged ones.")
        ] = False,
        n_seeds: Annotated[
            int,
            typer.Option(
                "--n", min=1, help="Seed chains to generate (samples come from these), at least 1."
            ),
        ] = BuildOptions().n_seeds,
        keep_at_least: Annotated[
            int,
            typer.Option(
                "--keep-at-least",
                min=0,
                help="Leave samples out to approach the paper's difficulty and type mix while "
                "at least this many remain, and 20 per domain (0: keep every sample).",
            ),
        ] = BuildOptions().keep_at_least,
        export_dir: Annotated[
            Path, typer.Option("--export-dir", help="Where the dataset folder goes.")
        ] = BuildOptions().export_dir,
        run_eval: Annotated[
            bool, typer.Option("--eval/--no-eval", help="Run the offline baselines at the end.")
        ] = True,
        progress: Annotated[bool, typer.Option(help="Show progress bars.")] = True,
    ) -> None:
        """Import the bundled snapshot and build the benchmark from it, offline.

        Steps whose inputs did not change since the last run are skipped, so an
        interrupted build resumes.
        """
        ws = workspace_from(ctx)
        opts = BuildOptions(
            kb_dir=kb_dir,
            seed=seed,
            n_seeds=n_seeds,
            keep_at_least=keep_at_least,
            export_dir=export_dir,
            run_eval=run_eval,
            force=force,
            progress=progress,
        )
        try:
            results = run_build(ws, opts)
        except BuildInterrupted as stop:
            err_console.print(stop.explain(), markup=False, highlight=False)
            raise typer.Exit(130) from None
        steps = Table("step", "status", "result", title=f"discobench build → {ws.root}")
        for r in results:
            status = "unchanged" if r.skipped else ("re-run" if r.rerun_reason else "done")
            why = f" (re-run: {r.rerun_reason})" if r.rerun_reason else ""
            steps.add_row(r.name, status, r.summary + why)
        console.print(steps)
        with KnowledgeStore.open(ws.kb_path, read_only=True) as store:
            stats = store.stats()
        kb = Table("knowledge", "count", title="snapshot")
        for key in ("items", "properties", "statements", "qualified_statements", "pages"):
            kb.add_row(key.replace("_", " "), str(getattr(stats, key)))
        for domain, count in stats.per_domain.items():
            kb.add_row(f"domain {domain}", str(count))
        console.print(kb)
        from builder.evaluation.report import print_metrics_table

        metrics = baseline_metrics(ws) if run_eval else {}
        if metrics:
            print_metrics_table(metrics, console)
