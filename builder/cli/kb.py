"""``discobench kb``: import, inspect (and fetch) the knowledge snapshot. Thin: see builder.kb."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from builder.cli.common import console, err_console, new_app, workspace_from
from builder.errors import InputError
from builder.kb.importers import import_paths
from builder.kb.inspect import entity_view
from builder.kb.store import KnowledgeStore
from builder.records.kb import ImportReport
from builder.seeding.facts import Facts
from builder.validity.completeness import declaration_sizes, declarations_about

app = new_app("Knowledge snapshot: import Wikidata JSON and pages, inspect the store.")

SHOW_BAD = 20  # bad records listed on screen (all are in --json output)
SHOW_SKIPPED_FILES = 3  # e.g. the snapshot folder's README and YAML sources


@app.command("import")
def import_cmd(
    ctx: typer.Context,
    paths: Annotated[
        list[Path],
        typer.Argument(
            help="Files or folders: wbgetentities replies, entity documents, JSON arrays, "
            "Wikidata dumps (.json/.gz/.bz2), JSONL of entities or pages."
        ),
    ],
    strict: Annotated[
        bool, typer.Option("--strict", help="Fail (exit 3) at the first bad record.")
    ] = False,
    snapshot_id: Annotated[
        str | None, typer.Option(help="Record this snapshot id in the store.")
    ] = None,
    snapshot_version: Annotated[
        str | None, typer.Option(help="Record this snapshot version in the store.")
    ] = None,
    progress: Annotated[bool, typer.Option(help="Show a progress bar.")] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Import entities and pages into the workspace's store (same id = replaced)."""
    ws = workspace_from(ctx)
    for path in paths:  # before the store is created: a typo leaves nothing behind
        if not path.exists():
            raise InputError("no such file or folder", path=path, hint="check the path")
    new_store = not ws.kb_path.exists()
    try:
        with KnowledgeStore.open(ws.kb_path) as store:
            report = import_paths(store, paths, strict=strict, progress=progress and not as_json)
            if snapshot_id:
                store.set_meta("snapshot_id", snapshot_id)
            if snapshot_version:
                store.set_meta("snapshot_version", snapshot_version)
            empty = not store.has_any_entity()
    except BaseException:
        if new_store:
            _remove_store(ws.kb_path)
        raise
    if new_store and empty and report.pages == 0:
        _remove_store(ws.kb_path)  # a failed first import leaves no empty store
    if as_json:
        console.print_json(report.model_dump_json())
    else:
        _print_report(report, ws.kb_path)
    if report.total == 0:
        raise InputError(
            "nothing could be imported",
            hint="give files holding entity documents or pages (see `discobench kb import --help`)",
        )


def _remove_store(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def _print_report(report: ImportReport, kb_path: Path) -> None:
    for skipped in report.skipped_files[:SHOW_SKIPPED_FILES]:
        err_console.print(f"[yellow]skipped file[/] {skipped.path}: {skipped.reason}")
    if len(report.skipped_files) > SHOW_SKIPPED_FILES:
        more = len(report.skipped_files) - SHOW_SKIPPED_FILES
        err_console.print(
            f"[yellow]… {more} more skipped files[/] (not entity or page files; --json)"
        )
    for warning in report.warnings:
        err_console.print(f"[yellow]warning[/] {warning.path}: {warning.reason}")
    for bad in report.bad_records[:SHOW_BAD]:
        where = f"{bad.path}:{bad.line}" if bad.line is not None else str(bad.path)
        err_console.print(f"[red]bad record[/] {where}: {bad.reason}", highlight=False)
    if report.bad_count > SHOW_BAD:
        err_console.print(f"[red]… {report.bad_count - SHOW_BAD} more bad records[/] (--json)")
    console.print(
        f"imported {report.imported}, replaced {report.replaced}, pages {report.pages}, "
        f"skipped {report.skipped_records} records + {len(report.skipped_files)} files, "
        f"bad {report.bad_count} ({report.files} files read) → {kb_path}"
    )


def _open_existing(ctx: typer.Context) -> KnowledgeStore:
    return KnowledgeStore.open(workspace_from(ctx).kb_path, read_only=True)


@app.command("stats")
def stats_cmd(
    ctx: typer.Context,
    as_json: Annotated[bool, typer.Option("--json", help="Print as JSON.")] = False,
) -> None:
    """Counts: entities, statements, qualified statements, pages, entities per domain."""
    with _open_existing(ctx) as store:
        stats = store.stats()
    if as_json:
        console.print_json(stats.model_dump_json())
        return
    table = Table(title="knowledge store", show_header=False)
    for key, value in stats.model_dump(exclude={"per_domain"}).items():
        table.add_row(key.replace("_", " "), "-" if value is None else str(value))
    for domain, count in stats.per_domain.items():
        table.add_row(f"domain {domain}", str(count))
    console.print(table)


@app.command("show")
def show_cmd(
    ctx: typer.Context,
    entity_id: Annotated[str, typer.Argument(help="Entity id, e.g. Q8646 or L:nintendo.")],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the entity document as stored.")
    ] = False,
    lang: Annotated[str, typer.Option(help="Language of labels.")] = "en",
) -> None:
    """One entity: labels, aliases, best statements with qualifiers (values with labels)."""
    with _open_existing(ctx) as store:
        if as_json:
            text = store.get_entity_json(entity_id)
            if text is None:
                raise InputError(f"entity {entity_id} is not in the store ({store.path})")
            typer.echo(json.dumps(json.loads(text), ensure_ascii=False, indent=1))
            return
        view = entity_view(store, entity_id, lang)
    head = f"[bold]{view.id}[/] {view.label or ''}"
    console.print(head + (f" — {view.description}" if view.description else ""))
    if view.aliases:
        console.print(f"aliases: {', '.join(view.aliases)}", highlight=False)
    console.print(
        f"kind: {view.kind}  datatype: {view.datatype or '-'}  domain: {view.domain or '-'}"
    )
    table = Table("property", "value", "rank", "qualifiers")
    for prop in view.properties:
        name = f"{prop.property} {prop.property_label or ''}".strip()
        for statement in prop.statements:
            quals = "; ".join(
                f"{q.property_label or q.property}: {q.value}" for q in statement.qualifiers
            )
            table.add_row(name, statement.value, statement.rank, quals)
            name = ""
    console.print(table)
    with _open_existing(ctx) as store:
        marks = declarations_about(Facts(store), entity_id)
    for m in marks:
        d = m.declaration
        arrow = "values of" if d.direction == "forward" else "things with"
        console.print(
            f"complete: {arrow} {d.property} ({d.scope}; {m.size} in the store, as of "
            f"{d.as_of}; declaration {d.id})",
            highlight=False,
        )


@app.command("completeness")
def completeness_cmd(
    ctx: typer.Context,
    as_json: Annotated[bool, typer.Option("--json", help="Print as JSON.")] = False,
) -> None:
    """Completeness declarations: sets known to hold every real member, with their sizes.

    Columns: id; dir (fwd: the subject's values of the property; inv: everything whose
    property is the subject); property; subject; range (years a timed set covers); size
    (members in the store); as of (date the set is complete at)."""
    with _open_existing(ctx) as store:
        sizes = declaration_sizes(Facts(store))
    if as_json:
        typer.echo(json.dumps([s.model_dump(exclude_defaults=True) for s in sizes], indent=1))
        return
    if not sizes:
        console.print(
            "no completeness declarations in this store: every description is "
            "refused unless live counts are enabled (see docs/validity.md)"
        )
        return
    table = Table("id", "dir", "property", "subject", "range", "size", "as of")
    for s in sizes:
        d = s.declaration
        span = f"{d.since or ''}-{d.until or ''}" if d.since or d.until else ""
        table.add_row(
            d.id,
            "fwd" if d.direction == "forward" else "inv",
            d.property,
            d.subject,
            span,
            str(s.size),
            d.as_of,
        )
    console.print(table)
    console.print(f"{len(sizes)} declarations", highlight=False)


# --- `discobench kb fetch` (HTTP clients engineer): add the command below this line. --------
from builder.cli import kb_fetch  # noqa: E402  (kept next to its registration)

kb_fetch.register(app)
