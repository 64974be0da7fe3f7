"""A local Label Studio server in its own virtual environment: install, start, stop, status.

The server (PyPI ``label-studio``) pins ``openai<2`` and ``pyarrow<25``, which clash with the
project's own environment, so it lives in ``.venv-labelstudio/`` and runs as a subprocess.
It is started on 127.0.0.1 with SQLite, offline and headless (no version check, analytics or
Sentry; config and data inside the data dir), with a pre-made admin whose API token is
``LABEL_STUDIO_API_KEY`` when set, otherwise a generated one written to a 0600 file.

Label Studio silently moves to port+1 when its port is busy, so a busy port is refused here.
The first start runs ~25 s of migrations; ``install`` therefore also migrates an empty
template database that a fresh data dir copies, which brings a first start down to seconds.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import requests

from builder.errors import ConfigError, ServiceError

LABEL_STUDIO_REQUIREMENT = "label-studio==1.23.2"
"""The server version the review stage is tested against."""

ADMIN_EMAIL = "admin@discobench.local"
DB_NAME = "label_studio.sqlite3"
PID_FILE = "server.json"
CREDENTIALS_FILE = "credentials.json"
LOG_FILE = "server.log"
TEMPLATE_DIR = "discobench-template"

# Plain names Label Studio's get_env() falls back to (HOST, PORT, USERNAME...): never inherit.
_SCRUBBED_ENV = ("HOST", "PORT", "USERNAME", "PASSWORD", "USER_TOKEN", "DATABASE_NAME")


@dataclass(frozen=True)
class ServerInfo:
    """A running (or just stopped) server started by :func:`start`."""

    url: str
    port: int
    pid: int
    data_dir: Path
    credentials_file: Path
    token_generated: bool

    def token(self) -> str:
        """The admin API token: LABEL_STUDIO_API_KEY if it was used, else the generated one."""
        if not self.token_generated:
            env = os.environ.get("LABEL_STUDIO_API_KEY", "")
            if env:
                return env
        creds = json.loads(self.credentials_file.read_text(encoding="utf-8"))
        if "token" not in creds:
            raise ConfigError(
                f"the server in {self.data_dir} uses the LABEL_STUDIO_API_KEY it was started "
                "with, and that variable is not set here",
                hint="set LABEL_STUDIO_API_KEY (or pass --token)",
            )
        return str(creds["token"])


def default_venv() -> Path:
    """``DISCOBENCH_LABEL_STUDIO_VENV``, else ``.venv-labelstudio`` in the project checkout."""
    env = os.environ.get("DISCOBENCH_LABEL_STUDIO_VENV")
    if env:
        return Path(env)
    repo = Path(__file__).resolve().parents[2]
    if (repo / "pyproject.toml").exists():
        return repo / ".venv-labelstudio"
    return Path.cwd() / ".venv-labelstudio"


def executable(venv: Path) -> Path:
    return venv / "bin" / "label-studio"


def is_installed(venv: Path | None = None) -> bool:
    return executable(venv or default_venv()).exists()


def install(venv: Path | None = None, *, requirement: str = LABEL_STUDIO_REQUIREMENT) -> Path:
    """Create the server's venv and install Label Studio into it (a no-op when present).

    Also migrates an empty template database once, so fresh data dirs start fast.
    """
    venv = venv or default_venv()
    if not is_installed(venv):
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--disable-pip-version-check"]
        result = subprocess.run([*pip, requirement], check=False)
        if result.returncode != 0 or not is_installed(venv):
            raise ServiceError(
                f"installing {requirement} into {venv} failed (pip exit {result.returncode})",
                hint="check network access to PyPI; rerun `discobench review server install`",
            )
    _ensure_template(venv)
    return venv


def _ensure_template(venv: Path) -> Path:
    """A migrated, user-less database in the venv; ``label-studio version`` migrates and exits."""
    template = venv / TEMPLATE_DIR
    db = template / DB_NAME
    if db.exists():
        return db
    work = venv / (TEMPLATE_DIR + ".tmp")
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    env = _server_env(work)
    result = subprocess.run(
        [str(executable(venv)), "version"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )
    if result.returncode != 0 or not (work / DB_NAME).exists():
        raise ServiceError(
            "migrating the Label Studio template database failed: " + result.stderr[-2000:],
            hint=f"remove {venv} and rerun `discobench review server install`",
        )
    template.mkdir(exist_ok=True)
    shutil.copy2(work / DB_NAME, db)
    shutil.rmtree(work, ignore_errors=True)
    return db


def _server_env(data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _SCRUBBED_ENV}
    env.update(
        {
            "LABEL_STUDIO_BASE_DATA_DIR": str(data_dir),
            "XDG_CONFIG_HOME": str(data_dir / "config"),
            "LABEL_STUDIO_ENABLE_LEGACY_API_TOKEN": "true",
            "LABEL_STUDIO_DISABLE_SIGNUP_WITHOUT_LINK": "true",
            "LABEL_STUDIO_LATEST_VERSION_CHECK": "false",
            "LABEL_STUDIO_COLLECT_ANALYTICS": "false",
            "LABEL_STUDIO_SENTRY_DSN": "",
            "LABEL_STUDIO_FRONTEND_SENTRY_DSN": "",
            "DJANGO_DB": "sqlite",
        }
    )
    return env


def port_in_use(port: int) -> bool:
    """True when something listens on 127.0.0.1:port (or cannot be bound)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        # like the server itself: TIME_WAIT leftovers of a stopped server do not count
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
            sock.listen(1)
        except OSError:
            return True
    return False


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _write_private(path: Path, payload: dict[str, str]) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(payload, fh)
    os.chmod(path, 0o600)


def _credentials(data_dir: Path) -> tuple[Path, dict[str, str], bool]:
    """Admin email/password (and the token when generated), kept in a 0600 file."""
    path = data_dir / CREDENTIALS_FILE
    creds: dict[str, str] = {}
    if path.exists():
        creds = json.loads(path.read_text(encoding="utf-8"))
    env_token = os.environ.get("LABEL_STUDIO_API_KEY", "")
    creds.setdefault("email", ADMIN_EMAIL)
    creds.setdefault("password", secrets.token_urlsafe(18))
    generated = not env_token
    if generated:
        creds.setdefault("token", secrets.token_hex(20))
    _write_private(path, creds)
    return path, creds, generated


def start(
    data_dir: Path,
    *,
    port: int = 8080,
    venv: Path | None = None,
    timeout: float = 300.0,
    auto_install: bool = True,
) -> ServerInfo:
    """Start the server on 127.0.0.1:``port`` and wait until ``GET /health/`` answers."""
    venv = venv or default_venv()
    if not is_installed(venv):
        if not auto_install:
            raise ConfigError(
                f"Label Studio is not installed in {venv}",
                hint="run `discobench review server install`",
            )
        install(venv)
    data_dir = data_dir.resolve()
    data_dir.mkdir(parents=True, exist_ok=True)
    running = _running(data_dir)
    if running is not None:
        raise ConfigError(
            f"a server started from {data_dir} is already running at {running.url} "
            f"(pid {running.pid})",
            hint="use it, or `discobench review server stop` first",
        )
    if port_in_use(port):
        raise ConfigError(
            f"port {port} on 127.0.0.1 is busy (Label Studio would silently move to another)",
            hint="pick a free port with --port",
        )
    template = venv / TEMPLATE_DIR / DB_NAME
    if not (data_dir / DB_NAME).exists() and template.exists():
        shutil.copy2(template, data_dir / DB_NAME)
    cred_path, creds, generated = _credentials(data_dir)
    env = _server_env(data_dir)
    env["LABEL_STUDIO_USERNAME"] = creds["email"]
    env["LABEL_STUDIO_PASSWORD"] = creds["password"]
    env["LABEL_STUDIO_USER_TOKEN"] = os.environ.get("LABEL_STUDIO_API_KEY") or creds["token"]
    cmd = [str(executable(venv)), "start", "--no-browser", "--enable-legacy-api-token"]
    cmd += ["--internal-host", "127.0.0.1", "--port", str(port), "--data-dir", str(data_dir)]
    with (data_dir / LOG_FILE).open("ab") as log:
        proc = subprocess.Popen(
            cmd, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
    info = ServerInfo(
        url=f"http://127.0.0.1:{port}",
        port=port,
        pid=proc.pid,
        data_dir=data_dir,
        credentials_file=cred_path,
        token_generated=generated,
    )
    (data_dir / PID_FILE).write_text(
        json.dumps({"pid": proc.pid, "port": port, "token_generated": generated}),
        encoding="utf-8",
    )
    try:
        _wait_healthy(info, proc, timeout)
        _check_token(info)
    except BaseException:
        stop(data_dir)
        raise
    return info


def _wait_healthy(info: ServerInfo, proc: subprocess.Popen[bytes], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise ServiceError(
                f"Label Studio exited with code {proc.returncode} while starting",
                hint=f"see {info.data_dir / LOG_FILE}",
            )
        if health(info.url):
            return
        time.sleep(0.5)
    raise ServiceError(
        f"Label Studio did not answer {info.url}/health/ within {timeout:.0f} s",
        hint=f"see {info.data_dir / LOG_FILE}",
    )


def _check_token(info: ServerInfo) -> None:
    resp = requests.get(
        f"{info.url}/api/current-user/whoami",
        headers={"Authorization": f"Token {info.token()}"},
        timeout=30,
    )
    if resp.status_code != 200:
        raise ConfigError(
            f"the admin token is not accepted by the server in {info.data_dir} "
            f"(HTTP {resp.status_code})",
            hint="the admin was created with another LABEL_STUDIO_API_KEY; set that key, "
            "or start with a new --data-dir",
        )


def health(url: str) -> bool:
    try:
        resp = requests.get(f"{url.rstrip('/')}/health/", timeout=5)
    except requests.RequestException:
        return False
    return resp.status_code == 200


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _running(data_dir: Path) -> ServerInfo | None:
    pid_file = data_dir / PID_FILE
    if not pid_file.exists():
        return None
    meta = json.loads(pid_file.read_text(encoding="utf-8"))
    pid = int(meta["pid"])
    if not _pid_alive(pid):
        return None
    return ServerInfo(
        url=f"http://127.0.0.1:{meta['port']}",
        port=int(meta["port"]),
        pid=pid,
        data_dir=data_dir,
        credentials_file=data_dir / CREDENTIALS_FILE,
        token_generated=bool(meta.get("token_generated", True)),
    )


def status(data_dir: Path) -> tuple[ServerInfo | None, bool]:
    """The server started from ``data_dir`` (or None) and whether it answers /health/."""
    info = _running(data_dir.resolve())
    return info, bool(info and health(info.url))


def stop(data_dir: Path, *, timeout: float = 30.0) -> bool:
    """Stop the server started from ``data_dir`` (its own process group). True if one ran."""
    data_dir = data_dir.resolve()
    info = _running(data_dir)
    pid_file = data_dir / PID_FILE
    if info is None:
        pid_file.unlink(missing_ok=True)
        return False
    with contextlib.suppress(ProcessLookupError):
        os.killpg(info.pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and _pid_alive(info.pid):
        _reap(info.pid)
        time.sleep(0.2)
    if _pid_alive(info.pid):
        os.killpg(info.pid, signal.SIGKILL)
        _reap(info.pid)
    pid_file.unlink(missing_ok=True)
    return True


def _reap(pid: int) -> None:
    """Collect the exit status when the server is our own child (else it stays a zombie)."""
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)


def user_token(data_dir: Path, email: str) -> str:
    """The legacy API token of ``email``, read from the server's own SQLite database.

    Users created through the API have no password and cannot log in to read their own
    token; the server keeps it in Django REST framework's ``authtoken_token`` table (the
    same value ``label-studio user --username EMAIL`` prints, without its ~5 s start-up).
    """
    db_path = data_dir.resolve() / DB_NAME
    with contextlib.closing(sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)) as db:
        row = db.execute(
            "SELECT t.key FROM authtoken_token t JOIN htx_user u ON u.id = t.user_id "
            "WHERE u.email = ?",
            (email,),
        ).fetchone()
    if row is None:
        raise ServiceError(f"no Label Studio user {email!r} in {data_dir}")
    return str(row[0])
