"""``discobench kb fetch``: entities (and their Wikipedia leads) from the live sources into the
workspace's store. Thin: the work is :func:`builder.kb.fetch.fetch_into_store`."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer
from rich.table import Table

from builder.cli.common import console, err_console, workspace_from
from builder.config import get_settings
from builder.errors import ServiceError
from builder.kb.fetch import (
    EXPANDABLE_ID,
    PROPERTY_ID,
    fetch_into_store,
    open_live_sources,
    parse_id_list,
)
from builder.kb.store import KnowledgeStore
from builder.records.live import FetchReport

SHOW_FAILURES = 20


class CacheModeChoice(StrEnum):
    live = "live"
    record = "record"
    replay = "replay"


def fetch_cmd(
    ctx: typer.Context,
    ids: Annotated[
        str, typer.Option("--ids", help="Comma-separated Wikidata ids, e.g. Q42,Q1299.")
    ],
    expand: Annotated[
        str,
        typer.Option(
            "--expand", help="Comma-separated properties to follow outwards, e.g. P31,P17."
        ),
    ] = "",
    depth: Annotated[
        int, typer.Option("--depth", min=0, help="Hops to follow the --expand properties.")
    ] = 1,
    cache_mode: Annotated[
        CacheModeChoice | None,
        typer.Option(
            "--cache-mode",
            help="live: no cache; record: serve hits, fetch+store misses; replay: offline. "
            "Default: DISCOBENCH_HTTP_CACHE_MODE (record).",
        ),
    ] = None,
    no_pages: Annotated[
        bool, typer.Option("--no-pages", help="Entities only, no Wikipedia lead text.")
    ] = False,
    refresh: Annotated[
        bool, typer.Option("--refresh", help="Re-fetch entities already in the store.")
    ] = False,
    progress: Annotated[bool, typer.Option(help="Show a progress bar.")] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Fetch entities and their enwiki pages into the store (resumable: stored ids are
    skipped unless --refresh). Exit code 4 when some items failed (reasons listed)."""
    ws = workspace_from(ctx)
    settings = get_settings()
    id_list = parse_id_list(ids, what="--ids", pattern=EXPANDABLE_ID)
    props = parse_id_list(expand, what="--expand", pattern=PROPERTY_ID)
    wikidata, wikipedia = open_live_sources(
        settings,
        cache_dir=settings.http_cache_dir or ws.http_cache_dir,
        mode=cache_mode.value if cache_mode is not None else None,
        pages=not no_pages,
    )
    with KnowledgeStore.open(ws.kb_path) as store:
        report = fetch_into_store(
            store,
            wikidata,
            wikipedia,
            id_list,
            expand=props,
            depth=depth,
            progress=progress and not as_json,
            refresh=refresh,
        )
    if as_json:
        console.print_json(report.model_dump_json())
    else:
        _print_report(report, wikidata.http.mode)
    if report.failures:
        raise ServiceError(
            f"{len(report.failures)} item(s) failed (see above)",
            hint="re-run the same command to retry them: stored entities are skipped",
        )


def _print_report(report: FetchReport, mode: str) -> None:
    table = Table(title=f"kb fetch ({mode})", show_header=False)
    table.add_row("requested", str(len(report.requested)))
    table.add_row("fetched", str(len(report.fetched)))
    table.add_row("skipped (already stored)", str(len(report.skipped)))
    table.add_row("pages written", str(report.pages))
    table.add_row("without page", str(len(report.no_page)))
    table.add_row("missing on Wikidata", ", ".join(report.missing) or "0")
    if report.redirects:
        table.add_row("redirected", ", ".join(f"{a}→{b}" for a, b in report.redirects.items()))
    table.add_row("failures", str(len(report.failures)))
    console.print(table)
    for failure in report.failures[:SHOW_FAILURES]:
        err_console.print(
            f"{failure.id} ({failure.stage}): {failure.reason}",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )
    if len(report.failures) > SHOW_FAILURES:
        err_console.print(f"… and {len(report.failures) - SHOW_FAILURES} more (use --json)")


def register(app: typer.Typer) -> None:
    """Mount ``fetch`` on the ``kb`` group."""
    app.command("fetch")(fetch_cmd)
