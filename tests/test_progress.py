"""Without a terminal, long steps print a plain progress line at intervals (not silence)."""

from __future__ import annotations

import io

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn

from builder.progress import LogProgress


def _bar(out: io.StringIO, interval: float, terminal: bool = False) -> LogProgress:
    console = Console(file=out, force_terminal=terminal, width=80)
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn())
    return LogProgress(*columns, console=console, interval=interval, transient=True)


def test_plain_lines_at_intervals_and_a_last_one_in_a_log() -> None:
    out = io.StringIO()
    with _bar(out, interval=0.0) as bar:
        task = bar.add_task("seeding", total=4)
        for _ in range(4):
            bar.advance(task)
    lines = [line for line in out.getvalue().splitlines() if line.strip()]
    assert lines[0].startswith("seeding: 1/4 (25%), 0:00 elapsed")
    assert lines[-1].startswith("seeding: 4/4 (100%)")
    assert sum("4/4" in line for line in lines) == 1  # the last line once

    quiet = io.StringIO()
    with _bar(quiet, interval=3600.0) as bar:
        task = bar.add_task("injecting", total=3)
        for _ in range(3):
            bar.advance(task)
    assert [line for line in quiet.getvalue().splitlines() if line.strip()] == [
        "injecting: 3/3 (100%), 0:00 elapsed"
    ]


def test_no_plain_lines_on_a_terminal_or_when_disabled() -> None:
    out = io.StringIO()
    with _bar(out, interval=0.0, terminal=True) as bar:
        task = bar.add_task("seeding", total=2)
        bar.advance(task)
    assert "seeding: 1/2" not in out.getvalue()
    off = io.StringIO()
    console = Console(file=off)
    with LogProgress(console=console, disable=True, interval=0.0) as bar:
        bar.advance(bar.add_task("x", total=1))
    assert off.getvalue() == ""


def test_a_kept_bar_is_not_repeated_by_a_last_line() -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=False, width=80)
    with LogProgress(TextColumn("{task.description}"), console=console, interval=3600.0) as bar:
        task = bar.add_task("episodes", total=2)
        bar.advance(task, 2)
    assert "episodes: 2/2" not in out.getvalue()  # rich leaves the finished bar itself
