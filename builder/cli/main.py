"""The ``discobench`` command: a thin layer over the library, one module per command group."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from builder import __version__
from builder.cli import build, evaluation, export, kb, review, samples, schema, show
from builder.cli.common import console, new_app

app = new_app(
    "Build clarification-aware deep-search benchmarks (DiscoBench) and evaluate agents on them."
)


def _version(value: bool) -> None:
    if value:
        console.print(f"discobench-builder {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    ctx: typer.Context,
    workspace: Annotated[
        Path | None,
        typer.Option(
            "--workspace",
            "-w",
            envvar="DISCOBENCH_WORKSPACE",
            help="Folder for every stage's files and the snapshot store.",
            show_default="./work",
        ),
    ] = None,
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print version.")
    ] = False,
) -> None:
    ctx.obj = {"workspace": workspace or Path("work")}


app.add_typer(kb.app, name="kb")
app.add_typer(review.app, name="review")
app.add_typer(evaluation.app, name="eval")
samples.register(app)
export.register(app)
schema.register(app)
build.register(app)
show.register(app)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
