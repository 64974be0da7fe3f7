"""Shared CLI plumbing: consoles, the workspace from context, error handling."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from typer._click.core import Context as ClickContext
from typer.core import TyperGroup

from builder.config import get_settings
from builder.errors import DiscoBenchError
from builder.workspace import Workspace

# soft_wrap: plain lines (paths, commands to copy) are never folded at 80 columns in logs;
# tables still fit the width.
console = Console(soft_wrap=True)
err_console = Console(stderr=True, soft_wrap=True)

INTERRUPTED = (
    "interrupted (Ctrl-C). Output files are written whole or not at all, so nothing "
    "half-written was kept; the store and earlier outputs are as they were. Run the same "
    "command again: `build` and `eval run` resume where they stopped."
)


class ErrorHandlingGroup(TyperGroup):
    """Turns :class:`DiscoBenchError` into a red one-line message and its exit code."""

    def invoke(self, ctx: ClickContext) -> Any:
        try:
            return super().invoke(ctx)
        except DiscoBenchError as exc:
            err_console.print("error:", style="bold red", end=" ")
            err_console.print(str(exc), markup=False, highlight=False)
            raise typer.Exit(exc.exit_code) from None
        except KeyboardInterrupt:
            err_console.print(INTERRUPTED, markup=False, highlight=False)
            raise typer.Exit(130) from None
        except OSError as exc:  # a path the user gave cannot be read or written
            err_console.print("error:", style="bold red", end=" ")
            err_console.print(_os_error(exc), markup=False, highlight=False)
            raise typer.Exit(3) from None


def _os_error(exc: OSError) -> str:
    where = f"{exc.filename}: " if exc.filename else ""
    what = exc.strerror or str(exc)
    return f"{where}{what}\n  hint: check the path and its permissions"


def new_app(help_text: str) -> typer.Typer:
    """A command group with the project's conventions."""
    return typer.Typer(
        help=help_text,
        cls=ErrorHandlingGroup,
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )


def workspace_from(ctx: ClickContext) -> Workspace:
    """The workspace chosen by ``--workspace`` / ``DISCOBENCH_WORKSPACE`` (default ./work)."""
    root = ctx.find_root()
    obj = root.obj if isinstance(root.obj, dict) else {}
    path = obj.get("workspace")
    if path is None:
        path = get_settings().workspace
    return Workspace(Path(path)).ensure()
