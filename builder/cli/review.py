"""``discobench review``: annotator and inspector rounds on a real Label Studio server."""

from __future__ import annotations

import contextlib
import shutil
from pathlib import Path
from typing import Annotated, Literal

import typer
from rich.progress import Progress
from rich.table import Table

from builder.cli.common import console, new_app, workspace_from
from builder.errors import ConfigError
from builder.records.review import AgreementReport, PullReport, PushReport
from builder.review import server
from builder.review.checks import LazyChecker, default_checker
from builder.review.client import base_url, connect, default_data_dir, resolve
from builder.review.people import add_reviewer
from builder.review.pull import apply_review, pull, status
from builder.review.push import push
from builder.review.state import ReviewStore
from builder.review.tasks import Checker
from builder.samples_io import read_samples, write_samples

app = new_app("Human review rounds (annotators, then inspectors) in Label Studio.")
server_app = new_app("Run a local Label Studio server in its own virtual environment.")
app.add_typer(server_app, name="server")
people_app = new_app("Reviewers: add annotators and inspectors to the server.")
app.add_typer(people_app, name="annotators")

DataDir = Annotated[
    Path | None,
    typer.Option("--data-dir", help="Server data dir (default ~/.local/share/discobench/...)."),
]
Url = Annotated[str | None, typer.Option("--url", help="Label Studio URL (LABEL_STUDIO_URL).")]
Token = Annotated[
    str | None, typer.Option("--token", help="API token (LABEL_STUDIO_API_KEY); never printed.")
]


def _data_dir(ctx: typer.Context, data_dir: Path | None) -> Path:
    d = (data_dir or default_data_dir()).resolve()
    ws = workspace_from(ctx).root.resolve()
    if d == ws or ws in d.parents:
        raise ConfigError(
            f"server data dir {d} is inside the workspace {ws}",
            hint="the admin token would be stored in the workspace; choose another --data-dir",
        )
    return d


@server_app.command("install")
def server_install() -> None:
    """Install Label Studio into .venv-labelstudio (and migrate a template database)."""
    venv = server.install()
    console.print(f"Label Studio installed in {venv}")


@server_app.command("start")
def server_start(
    ctx: typer.Context,
    port: Annotated[
        int,
        typer.Option("--port", min=1, max=65535, help="Port on 127.0.0.1 (refused if busy)."),
    ] = 8080,
    data_dir: DataDir = None,
) -> None:
    """Start the server (installing it when missing) and wait until it is healthy."""
    info = server.start(_data_dir(ctx, data_dir), port=port)
    console.print(f"Label Studio is up at {info.url} (pid {info.pid})")
    if info.token_generated:
        console.print(f"admin credentials and API token: {info.credentials_file} (mode 0600)")
    else:
        console.print(f"admin token: LABEL_STUDIO_API_KEY; password in {info.credentials_file}")


@server_app.command("stop")
def server_stop(ctx: typer.Context, data_dir: DataDir = None) -> None:
    """Stop the server started from the data dir."""
    stopped = server.stop(_data_dir(ctx, data_dir))
    console.print("stopped" if stopped else "no server was running")


@server_app.command("status")
def server_status(ctx: typer.Context, data_dir: DataDir = None) -> None:
    """Whether the server of the data dir runs and answers /health/."""
    info, healthy = server.status(_data_dir(ctx, data_dir))
    if info is None:
        console.print("not running")
        raise typer.Exit(1)
    console.print(f"{info.url} pid {info.pid}: {'healthy' if healthy else 'NOT answering'}")
    if not healthy:
        raise typer.Exit(1)


@people_app.command("add")
def annotators_add(
    ctx: typer.Context,
    email: Annotated[str, typer.Argument(help="The reviewer's email (their login).")],
    role: Annotated[
        str, typer.Option("--role", help="annotator or inspector.", case_sensitive=False)
    ] = "annotator",
    invite: Annotated[
        bool, typer.Option("--invite", help="Print the invite link even on a local server.")
    ] = False,
    url: Url = None,
    token: Token = None,
    data_dir: DataDir = None,
) -> None:
    """Create the reviewer on the local server (password in a 0600 file), or print the invite
    link for them to sign up; the role is recorded for `review status`."""
    ws = workspace_from(ctx)
    client = connect(*resolve(url, token, data_dir=data_dir))
    info, _ = server.status(data_dir or default_data_dir())
    local = info.data_dir if info is not None and info.url == base_url(client) else None
    with ReviewStore(ws.review_dir) as store:
        added = add_reviewer(
            client, store, email, role=role.lower(), local_data_dir=local, invite=invite
        )
    if added.existed:
        console.print(f"{email} already has an account; recorded as {added.role}")
    elif added.password_file is not None:
        console.print(f"created {email} ({added.role}); login and password: {added.password_file}")
        console.print("(mode 0600: hand it over privately; the password is never printed)")
    else:
        console.print(f"recorded {email} as {added.role}; send them the invite link to sign up:")
        typer.echo(added.invite_url)
    console.print("They work in the labeling queue `discobench review status` lists.")


def _checker(
    ctx: typer.Context, no_checks: bool, kb: Path | None
) -> contextlib.AbstractContextManager[Checker | None]:
    if no_checks:
        return contextlib.nullcontext(None)
    return default_checker(kb or workspace_from(ctx).kb_path)


@app.command("push")
def push_cmd(
    ctx: typer.Context,
    samples: Annotated[
        Path | None, typer.Argument(help="Samples JSONL (default: workspace).")
    ] = None,
    round: Annotated[
        str, typer.Option("--round", help="annotate or inspect.", case_sensitive=False)
    ] = "annotate",
    overlap: Annotated[int, typer.Option(help="Annotators per item (annotate round).")] = 2,
    batch_size: Annotated[int, typer.Option(help="Tasks per bulk import call.")] = 500,
    no_checks: Annotated[
        bool, typer.Option("--no-checks", help="Push without predictions.")
    ] = False,
    kb: Annotated[Path | None, typer.Option(help="Snapshot for the checks.")] = None,
    url: Url = None,
    token: Token = None,
    data_dir: DataDir = None,
) -> None:
    """Create or reuse the round's project and import new items (idempotent, resumable)."""
    if round not in ("annotate", "inspect"):
        raise ConfigError(f"--round must be annotate or inspect, not {round!r}")
    rnd: Literal["annotate", "inspect"] = "annotate" if round == "annotate" else "inspect"
    ws = workspace_from(ctx)
    path = samples or ws.samples_path
    items = list(read_samples(path)) if rnd == "annotate" or samples else None
    client = connect(*resolve(url, token, data_dir=data_dir))
    with (
        ReviewStore(ws.review_dir) as store,
        _checker(ctx, no_checks, kb) as checker,
        Progress(console=console, transient=True) as bar,
    ):
        job = bar.add_task(f"push ({rnd})", total=None)
        report = push(
            client,
            items,
            round=rnd,
            store=store,
            checker=checker,
            overlap=overlap,
            batch_size=batch_size,
            progress=lambda done, total: bar.update(job, completed=done, total=total),
        )
    _print_push(report)


def _print_push(report: PushReport) -> None:
    console.print(
        f"project {report.project_id} ({report.round}): imported {report.imported} in "
        f"{report.batches} batch(es), updated {report.updated}, unchanged {report.unchanged}, "
        f"skipped {len(report.skipped)}"
    )
    for issue in report.skipped[:20]:
        console.print(f"  {issue.sample_id}: {issue.reason}", markup=False)


@app.command("pull")
def pull_cmd(
    ctx: typer.Context,
    samples: Annotated[Path | None, typer.Argument(help="Samples JSONL to update.")] = None,
    out: Annotated[
        Path | None, typer.Option(help="Write updated samples here (default: in place + .bak).")
    ] = None,
    no_checks: Annotated[bool, typer.Option("--no-checks", help="Skip re-checks on fix.")] = False,
    kb: Annotated[Path | None, typer.Option(help="Snapshot for the checks.")] = None,
    url: Url = None,
    token: Token = None,
    data_dir: DataDir = None,
) -> None:
    """Pull all decisions, advance states, apply inspector fixes, write the samples file."""
    ws = workspace_from(ctx)
    client = connect(*resolve(url, token, data_dir=data_dir))
    lazy = contextlib.nullcontext(None) if no_checks else LazyChecker(kb or ws.kb_path)
    with ReviewStore(ws.review_dir) as store, lazy as checker:
        report = pull(client, store=store, checker=checker)
        path = samples or ws.samples_path
        if path.exists():
            updated = apply_review(read_samples(path), store)
            target = out or path
            if out is None:
                shutil.copy2(path, path.with_name(path.name + ".bak"))
            write_samples(target, updated)
            console.print(f"wrote {len(updated)} samples with review info to {target}")
    _print_pull(report)


def _print_pull(report: PullReport) -> None:
    console.print(
        f"tasks {report.tasks_seen}: {report.new_decisions} new and "
        f"{report.revised_decisions} revised decisions, {report.fixes_applied} fixes applied, "
        f"{report.overwrites} overwrite(s) of another's annotation, "
        f"{len(report.refused)} submission(s) refused"
    )
    for refusal in report.refused[:20]:
        console.print(
            f"  refused {refusal.sample_id} ({refusal.round}, {refusal.reviewer}, annotation "
            f"{refusal.annotation_id}): {refusal.reason}",
            markup=False,
        )
    for state, n in sorted(report.transitions.items()):
        console.print(f"  -> {state}: {n}")
    for issue in report.issues[:20]:
        console.print(f"  {issue.sample_id}: {issue.reason}", markup=False)
    _print_agreement(report.agreement)


def _fmt(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.3f}"


def _print_agreement(agreement: AgreementReport) -> None:
    table = Table(title="Annotator agreement")
    for col in ("question", "items", "Krippendorff alpha", "Cohen kappa per pair"):
        table.add_column(col)
    for q in agreement.questions:
        pairs = ", ".join(
            f"{p.rater_a}~{p.rater_b}: {_fmt(p.kappa)} (n={p.items})" for p in q.pairs
        )
        table.add_row(q.question, str(q.units), _fmt(q.alpha), pairs or "—")
    console.print(table)


@app.command("status")
def status_cmd(
    ctx: typer.Context,
    samples: Annotated[Path | None, typer.Argument(help="Samples JSONL (counts drafts).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Items per review state and agreement figures."""
    ws = workspace_from(ctx)
    path = samples or ws.samples_path
    with ReviewStore(ws.review_dir) as store:
        report = status(store, read_samples(path) if path.exists() else None)
    if as_json:
        typer.echo(report.model_dump_json(indent=2))
        return
    table = Table(title=f"Review status ({report.total} items)")
    table.add_column("state")
    table.add_column("items", justify="right")
    for state, n in report.counts.items():
        table.add_row(state, str(n))
    console.print(table)
    for queue in report.queues:
        console.print(f"{queue.round} queue (project {queue.project_id}): {queue.url}")
    for email, role in report.reviewers.items():
        console.print(f"  {role}: {email}", markup=False)
    if report.refused:
        console.print(f"{len(report.refused)} submission(s) refused, their items stay open:")
    for refusal in report.refused:
        console.print(
            f"  {refusal.sample_id} ({refusal.round}) by {refusal.reviewer}, annotation "
            f"{refusal.annotation_id}: {refusal.reason}",
            markup=False,
        )
    _print_agreement(report.agreement)
