"""Commands of the samples stage: seed, inject, validate, stats. Thin: see builder.seeding
and builder.ambiguity."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from builder.ambiguity import inject as inject_samples
from builder.ambiguity.mix import MixTarget
from builder.ambiguity.stats import (
    PAPER_DIFFICULTY,
    PAPER_INSTANCES_PER_SAMPLE,
    PAPER_TYPES,
    Table1Stats,
    table1,
)
from builder.ambiguity.validate import validate_samples
from builder.cli.common import console, workspace_from
from builder.errors import ConfigError, InputError, StageError
from builder.kb.store import KnowledgeStore
from builder.samples_io import (
    read_samples,
    read_seeds,
    write_rejects,
    write_samples,
    write_seeds,
)
from builder.seeding import generate_seeds


def _store(ctx: typer.Context) -> KnowledgeStore:
    path = workspace_from(ctx).kb_path
    if not path.exists():
        raise InputError(
            "no knowledge store in this workspace",
            path=path,
            hint="import a snapshot first: `discobench kb import seeds/kb/…` (or pass -w)",
        )
    store = KnowledgeStore.open(path, read_only=True)
    if not store.has_any_entity():
        store.close()
        raise StageError(
            "the knowledge store holds no entities",
            hint=f"import a snapshot first: `discobench kb import seeds/kb` (store: {path})",
        )
    return store


def _hops(text: str) -> tuple[int, int]:
    try:
        lo, _, hi = text.partition("-")
        low = int(lo)
        return low, int(hi) if hi else low
    except ValueError:
        raise ConfigError(f"--hops {text!r} is not a range", hint="write it as 2-4") from None


def _split(values: list[str] | None) -> list[str] | None:
    if not values:
        return None
    return [v.strip() for item in values for v in item.split(",") if v.strip()]


def seed_cmd(
    ctx: typer.Context,
    out: Annotated[Path | None, typer.Option(help="Seeds JSONL (default: workspace).")] = None,
    n: Annotated[int, typer.Option("--n", min=1, help="How many chains.")] = 600,
    hops: Annotated[str, typer.Option(help="Hops per chain, a range within 2-5.")] = "2-4",
    domains: Annotated[
        list[str] | None, typer.Option(help="Only these domains (repeat or comma-separate).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Random seed (same seed, same output).")] = 0,
    progress: Annotated[bool, typer.Option(help="Show a progress bar.")] = True,
) -> None:
    """Generate verifiable multi-hop seed chains over the snapshot."""
    ws = workspace_from(ctx)
    with _store(ctx) as store:
        chains = generate_seeds(
            store, n=n, hops=_hops(hops), domains=_split(domains), seed=seed, progress=progress
        )
    if not chains:
        raise StageError(
            "no seed chain could be built from this store",
            hint="import a snapshot with enough linked entities (`discobench kb import "
            "seeds/kb`), or widen --domains / --hops",
        )
    path = out or ws.seeds_path
    write_seeds(path, chains)
    console.print(f"wrote {len(chains)} seed chains → {path}")


def inject_cmd(
    ctx: typer.Context,
    seeds: Annotated[Path, typer.Argument(help="Seeds JSONL from `discobench seed`.")],
    out: Annotated[Path | None, typer.Option(help="Samples JSONL (default: workspace).")] = None,
    rejects: Annotated[
        Path | None, typer.Option(help="Rejects JSONL (default: workspace).")
    ] = None,
    types: Annotated[
        list[str] | None, typer.Option(help="Ambiguity types (default: all four).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Random seed (same seed, same output).")] = 0,
    created_at: Annotated[
        str | None, typer.Option(help="Provenance timestamp (default: snapshot version).")
    ] = None,
    progress: Annotated[bool, typer.Option(help="Show a progress bar.")] = True,
    keep_at_least: Annotated[
        int,
        typer.Option(
            min=0,
            help="Leave samples out (as rejects) to bring difficulty and type shares closer to "
            "the paper's while at least this many remain, and 20 per domain (0: keep all).",
        ),
    ] = 0,
    shorten: Annotated[
        bool,
        typer.Option(
            help="Make a sample again from the hops its ambiguities need (one before the first "
            "ambiguous hop, one after the last) where that sample passes every check.",
        ),
    ] = True,
) -> None:
    """Inject ambiguity into seed chains; every sample passes the eight checks."""
    ws = workspace_from(ctx)
    chains = list(read_seeds(seeds))
    with _store(ctx) as store:
        result = inject_samples(
            store,
            chains,
            types=_split(types),
            seed=seed,
            progress=progress,
            created_at=created_at,
            mix=MixTarget(min_samples=keep_at_least) if keep_at_least else None,
            shorten_chains=shorten,
        )
    out_path = out or ws.samples_path
    rej_path = rejects or ws.rejects_path
    write_samples(out_path, result.samples)
    write_rejects(rej_path, result.rejects)
    console.print(
        f"wrote {len(result.samples)} samples → {out_path}; "
        f"{len(result.rejects)} rejects → {rej_path}"
    )


def validate_cmd(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(help="Samples JSONL.")],
    rejects: Annotated[
        Path | None, typer.Option(help="Write failing checks here as rejects JSONL.")
    ] = None,
) -> None:
    """Run the eight automatic checks on every sample; exit 1 when any fails."""
    samples = list(read_samples(file))
    with _store(ctx) as store:
        result = validate_samples(store, samples)
    if rejects:
        write_rejects(rejects, result.rejects)
    table = Table(title=f"checks on {len(samples)} samples")
    table.add_column("check")
    table.add_column("failed", justify="right")
    for name, count in result.failures_by_check().items():
        table.add_row(name, f"[red]{count}[/]" if count else "0")
    console.print(table)
    for rej in result.rejects[:20]:
        console.print(f"[red]{rej.sample_id}[/] {rej.check}: {rej.detail}", highlight=False)
    console.print(f"{len(samples) - result.failed} passed, {result.failed} failed")
    if result.failed:
        raise typer.Exit(1)


def _print_stats(stats: Table1Stats) -> None:
    head = Table(title="DiscoBench samples (Table 1 view)", show_header=False)
    head.add_row("samples", str(stats.samples))
    head.add_row("ambiguity instances", str(stats.instances))
    head.add_row(
        "instances per sample",
        f"{stats.instances_per_sample:.2f} (paper {PAPER_INSTANCES_PER_SAMPLE})",
    )
    console.print(head)
    for title, part, paper in (
        ("difficulty", stats.difficulty, PAPER_DIFFICULTY),
        ("type", stats.types, PAPER_TYPES),
        ("domain", stats.domains, {}),
        ("hops", stats.hops, {}),
        ("certificate", stats.certificates, {}),
    ):
        table = Table(title=title)
        table.add_column(title)
        table.add_column("count", justify="right")
        table.add_column("share", justify="right")
        if paper:
            table.add_column("paper", justify="right")
        for key, share in part.items():
            cells = [key, str(share.count), f"{share.share:.1%}"]
            table.add_row(*cells, *([f"{paper[key]:.1%}"] if paper else []))
        console.print(table)


def stats_cmd(
    file: Annotated[Path, typer.Argument(help="Samples JSONL.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print as JSON.")] = False,
) -> None:
    """Samples, ambiguity instances, difficulty, type, domain, hop and certificate counts with
    shares (the paper's shares beside difficulty and type)."""
    stats = table1(read_samples(file))
    if as_json:
        console.print_json(stats.model_dump_json())
    else:
        _print_stats(stats)


def register(app: typer.Typer) -> None:
    """Add this module's commands to the root app."""
    app.command("seed")(seed_cmd)
    app.command("inject")(inject_cmd)
    app.command("validate")(validate_cmd)
    app.command("stats")(stats_cmd)
