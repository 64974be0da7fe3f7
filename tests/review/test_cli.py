"""``discobench review`` end to end against the real server; the token never leaks."""

from __future__ import annotations

import json
import sqlite3
import uuid
from pathlib import Path

import pytest
from typer.testing import CliRunner

from builder.cli.main import app
from builder.review import result_for
from builder.samples_io import read_samples, write_samples
from builder.workspace import Workspace
from tests.review.conftest import LiveServer, Reviewer
from tests.review.decide import decision
from tests.review.factory import make_samples

runner = CliRunner()
OUTPUTS: list[str] = []


def _run(ws: Workspace, *args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["--workspace", str(ws.root), "review", *args])
    OUTPUTS.append(result.output)
    return result.exit_code, result.output


@pytest.mark.labelstudio
def test_push_pull_status_from_the_command_line(
    ls_server: LiveServer,
    annotators: tuple[Reviewer, Reviewer],
    tmp_workspace: Workspace,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("LABEL_STUDIO_URL", ls_server.url)
    monkeypatch.setenv("LABEL_STUDIO_API_KEY", ls_server.token)
    ws = tmp_workspace
    write_samples(ws.samples_path, make_samples(4))

    code, out = _run(ws, "push")
    assert code == 2 and "--no-checks" in out  # no snapshot for the checks: says what to do

    code, out = _run(ws, "push", "--no-checks")
    assert code == 0, out
    assert "imported 4" in out
    code, out = _run(ws, "push", "--no-checks")
    assert code == 0 and "imported 0" in out and "unchanged 4" in out

    code, out = _run(ws, "status", "--json")
    assert code == 0, out
    assert json.loads(out)["counts"]["in_annotation"] == 4

    task_ids = [
        t.id
        for t in ls_server.client().tasks.list(project=_annotate_project(ws), fields="task_only")
    ]
    for n, task_id in enumerate(task_ids):
        for who in annotators:
            overall = "reject" if n == 0 else "accept"
            made = decision(overall, notes="off topic" if overall == "reject" else None)
            who.client.annotations.create(
                id=task_id, result=result_for(made), unique_id=str(uuid.uuid4())
            )

    code, out = _run(ws, "pull")
    assert code == 0, out
    assert "8 new" in out and "Krippendorff" in out
    backup = ws.samples_path.with_name(ws.samples_path.name + ".bak")
    assert backup.exists()
    statuses = sorted(s.review.status for s in read_samples(ws.samples_path))
    assert statuses == ["annotated", "annotated", "annotated", "rejected"]

    code, out = _run(ws, "status")
    assert code == 0 and "annotated" in out

    # the token is never printed nor stored in the workspace
    assert all(ls_server.token not in printed for printed in OUTPUTS)
    for path in ws.root.rglob("*"):
        if path.is_file():
            assert ls_server.token.encode() not in path.read_bytes(), path


def _annotate_project(ws: Workspace) -> int:
    import sqlite3

    with sqlite3.connect(ws.review_dir / "state.sqlite") as db:
        row = db.execute("SELECT project_id FROM projects WHERE round = 'annotate'").fetchone()
    return int(row[0])


def test_server_data_dir_inside_the_workspace_is_refused(tmp_workspace: Workspace) -> None:
    code, out = _run(tmp_workspace, "server", "start", "--data-dir", str(tmp_workspace.root / "ls"))
    assert code == 2
    assert "inside the workspace" in out


def test_push_without_server_or_token_explains(
    tmp_workspace: Workspace, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("LABEL_STUDIO_URL", raising=False)
    monkeypatch.delenv("LABEL_STUDIO_API_KEY", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "nothing-here"))
    write_samples(tmp_workspace.samples_path, make_samples(1))
    code, out = _run(tmp_workspace, "push", "--no-checks")
    assert code == 2
    assert "LABEL_STUDIO_URL" in out


@pytest.mark.labelstudio
def test_annotators_add_and_status_show_people_queues_and_refusals(
    ls_server: LiveServer,
    annotators: tuple[Reviewer, Reviewer],
    tmp_workspace: Workspace,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("LABEL_STUDIO_URL", raising=False)
    monkeypatch.delenv("LABEL_STUDIO_API_KEY", raising=False)
    ws, data = tmp_workspace, str(ls_server.data_dir)

    code, out = _run(ws, "annotators", "add", "cli-ann@discobench.test", "--data-dir", data)
    assert code == 0, out
    secret = ls_server.data_dir / "users" / "cli-ann@discobench.test.json"
    assert str(secret) in out.replace("\n", "")
    password = json.loads(secret.read_text(encoding="utf-8"))["password"]
    assert password not in out and (secret.stat().st_mode & 0o077) == 0

    code, out = _run(
        ws,
        "annotators",
        "add",
        "cli-qi@discobench.test",
        "--role",
        "inspector",
        "--invite",
        "--data-dir",
        data,
    )
    assert code == 0, out
    assert f"{ls_server.url}/user/signup/?token=" in out
    code, out = _run(ws, "annotators", "add", annotators[0].email, "--data-dir", data)
    assert code == 0 and "already has an account" in out
    code, out = _run(ws, "annotators", "add", "x@y.test", "--role", "boss", "--data-dir", data)
    assert code == 2 and "annotator or inspector" in out
    code, out = _run(ws, "annotators", "add", "../etc@y.test", "--data-dir", data)
    assert code == 2 and "not an email address" in out

    monkeypatch.setenv("LABEL_STUDIO_URL", ls_server.url)
    monkeypatch.setenv("LABEL_STUDIO_API_KEY", ls_server.token)
    write_samples(ws.samples_path, make_samples(1, start=40))  # the project is shared
    assert _run(ws, "push", "--no-checks")[0] == 0
    with sqlite3.connect(ws.review_dir / "state.sqlite") as db:
        (task_id,) = db.execute("SELECT annotate_task_id FROM items").fetchone()
    annotators[0].client.annotations.create(
        id=task_id, result=result_for(decision("reject", notes=""))
    )
    code, out = _run(ws, "pull")
    assert code == 0 and "reject without notes" in " ".join(out.split())
    code, out = _run(ws, "status")
    assert code == 0, out
    flat = out.replace("\n", "")
    assert f"{ls_server.url}/projects/{_annotate_project(ws)}/data?labeling=1" in flat
    assert "inspector: cli-qi@discobench.test" in out and "annotator: cli-ann@" in out
    words = " ".join(out.split())  # rich wraps long lines at spaces
    assert "1 submission(s) refused" in words and "reject without notes" in words
    assert all(password not in printed for printed in OUTPUTS)
