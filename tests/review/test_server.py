"""The local server wrapper: health, private credentials, refusing a busy port."""

from __future__ import annotations

import os
import socket
import stat
from pathlib import Path

import pytest

from builder.errors import ConfigError, ServiceError
from builder.review import server
from tests.review.conftest import LiveServer, require_server_install

pytestmark = pytest.mark.labelstudio


def test_running_server_is_healthy_and_credentials_are_private(ls_server: LiveServer) -> None:
    info, healthy = server.status(ls_server.data_dir)
    assert info is not None and healthy and info.url == ls_server.url
    creds = ls_server.data_dir / server.CREDENTIALS_FILE
    assert stat.S_IMODE(os.stat(creds).st_mode) == 0o600
    # Label Studio kept its config and data inside the data dir, not the home folder
    assert (ls_server.data_dir / server.DB_NAME).exists()
    assert (ls_server.data_dir / "config").is_dir()


def test_second_start_from_the_same_data_dir_is_refused(ls_server: LiveServer) -> None:
    with pytest.raises(ConfigError, match="already running"):
        server.start(ls_server.data_dir, port=server.free_port())


def test_busy_port_is_refused(tmp_path: Path) -> None:
    require_server_install()
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        with pytest.raises(ConfigError, match=f"port {port} .* busy"):
            server.start(tmp_path / "ls", port=port, auto_install=False)


def test_user_token_of_unknown_user(ls_server: LiveServer) -> None:
    with pytest.raises(ServiceError, match="no Label Studio user"):
        server.user_token(ls_server.data_dir, "nobody@discobench.test")
