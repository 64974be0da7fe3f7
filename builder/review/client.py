"""The thin Label Studio client layer: connect, find/create the round's project, list tasks.

Everything goes through ``label_studio_sdk`` 2.x (``LabelStudio``); errors from it become
:class:`ServiceError` naming the call. The API token comes from a flag, the environment
(``LABEL_STUDIO_API_KEY``) or the 0600 credentials file of a local server; it is never
printed, logged or written to the workspace.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx

from builder.errors import ConfigError, ServiceError
from builder.records.review import Round
from builder.review import server
from builder.review.state import ReviewStore

CONFIG_DIR = Path(__file__).resolve().parents[2] / "annotation_configs"
PROJECT_TITLES: dict[str, str] = {
    "annotate": "DiscoBench review: annotators",
    "inspect": "DiscoBench review: inspectors",
}
PAGE_SIZE = 500

if TYPE_CHECKING:
    from label_studio_sdk import LabelStudio


@dataclass
class RemoteTask:
    """One task of our project on the server, identified by our own meta."""

    id: int
    sample_id: str
    revision: int
    content_hash: str
    annotations: list[dict[str, Any]] = field(default_factory=list)
    predictions: list[dict[str, Any]] = field(default_factory=list)


def default_data_dir() -> Path:
    """Where ``review server start`` keeps the server's data (outside any workspace)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "discobench" / "label-studio"


def resolve(url: str | None, token: str | None, *, data_dir: Path | None = None) -> tuple[str, str]:
    """URL and token: flags, else LABEL_STUDIO_URL / LABEL_STUDIO_API_KEY, else a local server.

    The local fallback is the server started by ``discobench review server start`` from
    ``data_dir`` (default :func:`default_data_dir`), whose token sits in its 0600 file.
    """
    url = url or os.environ.get("LABEL_STUDIO_URL")
    token = token or os.environ.get("LABEL_STUDIO_API_KEY")
    if not url or not token:
        info, _ = server.status(data_dir or default_data_dir())
        if info is not None:
            url = url or info.url
            token = token or info.token()
    if not url:
        raise ConfigError(
            "no Label Studio URL",
            hint="set LABEL_STUDIO_URL or pass --url (or start one with "
            "`discobench review server start`)",
        )
    if not token:
        raise ConfigError(
            f"no API token for {url}", hint="set LABEL_STUDIO_API_KEY or pass --token"
        )
    return url.rstrip("/"), token


def connect(url: str, token: str, *, timeout: float = 120.0) -> LabelStudio:
    from label_studio_sdk import LabelStudio  # heavy (pandas …): only when a command needs it

    return LabelStudio(base_url=url, api_key=token, timeout=timeout)  # type: ignore[no-untyped-call]


def base_url(client: LabelStudio) -> str:
    return str(client._client_wrapper.get_base_url()).rstrip("/")


@contextmanager
def calling(what: str) -> Iterator[None]:
    """Turn SDK and transport errors into a ServiceError naming the call."""
    from label_studio_sdk.core.api_error import ApiError

    try:
        yield
    except ApiError as exc:
        raise ServiceError(
            f"Label Studio {what} failed: HTTP {exc.status_code} {str(exc.body)[:300]}",
            hint="check the URL, the token and the server log",
        ) from None
    except (httpx.HTTPError, OSError) as exc:
        raise ServiceError(
            f"Label Studio {what} failed: {type(exc).__name__}: {exc}",
            hint="is the server running? rerun the same command to resume",
        ) from None


def label_config(round: Round, config_dir: Path | None = None) -> str:
    path = (config_dir or CONFIG_DIR) / (
        "annotator.xml" if round == "annotate" else "inspector.xml"
    )
    if not path.exists():
        raise ConfigError(f"labeling config {path} is missing", hint="pass --config-dir")
    return path.read_text(encoding="utf-8")


INSTRUCTIONS: dict[str, str] = {
    "annotate": "annotator_instructions.html",
    "inspect": "inspector_instructions.html",
}

# Settings that keep each reviewer's decision their own. Label Studio Community has no
# per-role permissions, so isolation rests on the labeling queue (it hands each reviewer
# only items they have not answered, with a fresh form) plus pull's overwrite detection.
ISOLATION: dict[str, Any] = {
    "show_collab_predictions": False,  # nothing pre-filled from predictions
    "reveal_preannotations_interactively": False,
    "show_annotation_history": False,
    "show_ground_truth_first": False,
    "enable_empty_annotation": False,  # an untouched form cannot be submitted
    "show_instruction": True,  # the instructions open before the first item
    "show_skip_button": True,  # a skip is recorded as cancelled, never as a decision
    "sampling": "Sequential sampling",
}


def instructions(round: Round, config_dir: Path | None = None) -> str:
    path = (config_dir or CONFIG_DIR) / INSTRUCTIONS[round]
    if not path.exists():
        raise ConfigError(f"project instructions {path} are missing", hint="pass --config-dir")
    return path.read_text(encoding="utf-8")


def queue_url_for(url: str, project_id: int) -> str:
    """The round's labeling queue ("Label All Tasks"): the one view reviewers work in."""
    return f"{url.rstrip('/')}/projects/{project_id}/data?labeling=1"


def _settings(round: Round, config_dir: Path | None) -> dict[str, Any]:
    return {**ISOLATION, "expert_instruction": instructions(round, config_dir)}


def _bring_up_to_date(
    client: LabelStudio, project: Any, round: Round, config_dir: Path | None
) -> None:
    """Give an existing project today's settings, instructions and labeling config.

    Label Studio refuses a config that the project's annotations no longer fit (an earlier
    form's fields); that is reported with what to do rather than pushing tasks the old form
    cannot ask the per-checkpoint questions for.
    """
    from label_studio_sdk.core.api_error import ApiError

    wanted = label_config(round, config_dir)
    update = _settings(round, config_dir)
    if (project.label_config or "").strip() != wanted.strip():
        update["label_config"] = wanted
    try:
        client.projects.update(id=int(project.id), **update)
    except ApiError as exc:
        if "label_config" not in update or exc.status_code != 400:
            with calling(f"update settings of project {project.id}"):
                raise
        raise ConfigError(
            f"project {project.id} ({project.title!r}) holds annotations made with an earlier "
            f"form, and Label Studio refuses the current one: {str(exc.body)[:200]}",
            hint="pull its decisions, then rename or archive that project in Label Studio so "
            "the next push creates a fresh one",
        ) from None


def ensure_project(
    client: LabelStudio,
    store: ReviewStore,
    round: Round,
    *,
    overlap: int,
    title: str | None = None,
    config_dir: Path | None = None,
) -> tuple[int, int]:
    """(project id, overlap) of the round's project: recorded, found by title, or created."""
    from label_studio_sdk.core.api_error import ApiError

    url = base_url(client)
    known = store.project(url, round)
    if known is not None:
        with calling("get project"):
            current: Any = None
            try:
                current = client.projects.get(id=known[0])
            except ApiError as exc:
                if exc.status_code != 404:
                    raise
        if current is not None:
            _bring_up_to_date(client, current, round, config_dir)
            return known
    title = title or PROJECT_TITLES[round]
    with calling("list projects"):
        projects: list[Any] = list(client.projects.list(title=title))
        existing = [p for p in projects if p.title == title]
    if existing:
        project = existing[0]
        found = int(project.id or 0)
        overlap = int(project.maximum_annotations or overlap)
        _bring_up_to_date(client, project, round, config_dir)
    else:
        with calling("create project"):
            project = client.projects.create(
                title=title,
                label_config=label_config(round, config_dir),
                maximum_annotations=overlap,
                description="Created by discobench review; items are matched by sample id. "
                "Reviewers work in the labeling queue (Label All Tasks), never the task list.",
                **_settings(round, config_dir),
            )
        found = int(project.id or 0)
    store.set_project(url, round, found, overlap)
    return found, overlap


def list_tasks(client: LabelStudio, project_id: int, *, annotations: bool) -> list[RemoteTask]:
    """All tasks of a project that carry our meta (paginated)."""
    out: list[RemoteTask] = []
    # Without annotations, ``include`` spares the server computing every Data Manager column
    # (~3x faster); with it, annotations would shrink to their ids, so all fields are read.
    kwargs: dict[str, str] = (
        {"fields": "all"} if annotations else {"fields": "task_only", "include": "id,meta"}
    )
    with calling(f"list tasks of project {project_id}"):
        pager: Any = client.tasks.list(project=project_id, page_size=PAGE_SIZE, **kwargs)
        for task in pager:
            meta = task.meta if isinstance(task.meta, dict) else {}
            sid = meta.get("discobench_sample_id")
            if not isinstance(sid, str) or task.id is None:
                continue
            anns = [a if isinstance(a, dict) else a.dict() for a in (task.annotations or [])]
            preds = [p if isinstance(p, dict) else p.dict() for p in (task.predictions or [])]
            out.append(
                RemoteTask(
                    id=int(task.id),
                    sample_id=sid,
                    revision=int(meta.get("revision", 0)),
                    content_hash=str(meta.get("content_hash", "")),
                    annotations=anns,
                    predictions=preds,
                )
            )
    return out


def user_emails(client: LabelStudio) -> dict[int, str]:
    with calling("list users"):
        return {int(u.id): str(u.email or u.username or u.id) for u in client.users.list() if u.id}
