"""A real Label Studio server for the review tests (one per session), plus reviewers.

The server runs from ``.venv-labelstudio`` (``discobench review server install``). Without it
the tests fail under CI=true (so CI cannot go green without them) and skip locally.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from label_studio_sdk import LabelStudio

from builder.review import connect, server

INSTALL = "discobench review server install"


@dataclass(frozen=True)
class LiveServer:
    url: str
    token: str
    data_dir: Path

    def client(self) -> LabelStudio:
        return connect(self.url, self.token)


@dataclass(frozen=True)
class Reviewer:
    email: str
    client: LabelStudio


def require_server_install() -> None:
    if server.is_installed():
        return
    message = f"Label Studio is not installed in {server.default_venv()}; run `{INSTALL}`"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="session")
def ls_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    require_server_install()
    data_dir = tmp_path_factory.mktemp("labelstudio")
    info = server.start(data_dir, port=server.free_port())
    try:
        yield LiveServer(url=info.url, token=info.token(), data_dir=data_dir)
    finally:
        server.stop(data_dir)


@pytest.fixture(scope="session")
def annotators(ls_server: LiveServer) -> tuple[Reviewer, Reviewer]:
    """Two annotator accounts, each with its own API token (created through the API)."""
    admin = ls_server.client()
    out = []
    for name in ("annotator-a", "annotator-b"):
        email = f"{name}@discobench.test"
        admin.users.create(username=name, email=email)
        token = server.user_token(ls_server.data_dir, email)
        out.append(Reviewer(email=email, client=connect(ls_server.url, token)))
    return out[0], out[1]


@pytest.fixture
def title() -> str:
    """A project title unique to the test, so tests sharing the server never collide."""
    return f"test {uuid.uuid4().hex[:10]}"
