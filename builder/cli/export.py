"""``discobench export``: write the dataset folder that ``datasets.load_dataset`` reads."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from builder.cli.common import console, workspace_from


def register(app: typer.Typer) -> None:
    @app.command("export")
    def export_cmd(
        ctx: typer.Context,
        samples: Annotated[
            Path | None,
            typer.Argument(help="Samples JSONL (default: the workspace's samples.jsonl)."),
        ] = None,
        out: Annotated[
            Path, typer.Option("--out", help="Dataset folder to write, e.g. exports/NAME.")
        ] = Path("exports/discobench"),
        dev_fraction: Annotated[
            float | None,
            typer.Option(
                "--dev-fraction",
                help="Also write a dev split of this share, stratified by domain and difficulty.",
            ),
        ] = None,
        include_unreviewed: Annotated[
            bool,
            typer.Option(
                "--include-unreviewed",
                help="Export samples not accepted by review too (the card says so).",
            ),
        ] = False,
        canary: Annotated[
            str, typer.Option("--canary", help="Contamination canary for the card and every row.")
        ] = "",
        seed: Annotated[int, typer.Option("--seed", help="Seed of the dev split.")] = 0,
        pretty_name: Annotated[str, typer.Option("--pretty-name")] = "DiscoBench",
        push: Annotated[
            str | None,
            typer.Option(
                "--push-to-hub",
                help="Upload to this dataset repo (user/name); token from HF_TOKEN.",
            ),
        ] = None,
        private: Annotated[
            bool, typer.Option("--private", help="Create the repo private.")
        ] = False,
        force: Annotated[
            bool,
            typer.Option(
                "--force",
                help="Write into a folder that holds files export did not write (they are "
                "kept; README.md is replaced). Without it such a folder is refused.",
            ),
        ] = False,
    ) -> None:
        """Export samples as Parquet per config (default, unambiguous) and split, with a card.

        OUT must be a new folder or one an earlier export wrote (it leaves a
        .discobench-export.json marker); the new export is written aside and swapped in,
        replacing only its own files. A folder holding other files is refused (see --force).
        """
        from builder.export import export_dataset, push_to_hub  # datasets is slow to import

        path = samples if samples is not None else workspace_from(ctx).samples_path
        report = export_dataset(
            path,
            out,
            dev_fraction=dev_fraction,
            include_unreviewed=include_unreviewed,
            canary=canary,
            seed=seed,
            pretty_name=pretty_name,
            force=force,
        )
        table = Table(title=f"exported to {report.out}")
        for col in ("config", "split", "rows"):
            table.add_column(col)
        for config, splits in report.rows.items():
            for split, n in splits.items():
                table.add_row(config, split, str(n))
        console.print(table)
        if report.excluded_unreviewed:
            console.print(
                f"{report.excluded_unreviewed} of {report.input_samples} samples left out "
                "(not accepted by review; --include-unreviewed exports them)"
            )
        if push:
            url = push_to_hub(out, push, private=private)
            console.print(f"pushed to {push}: {url}")
