"""Onboarding reviewers: ``discobench review annotators add EMAIL [--role ...]``.

On the local server started by ``review server start`` the user is created through the API
and given a generated password, written to a 0600 file in the server's data dir (outside
any workspace) whose path is printed; the password itself never is. On any other server, or
with ``invite``, the organisation's invite link is returned instead: the reviewer signs up
there with their own password. Either way the role is recorded in the workspace's review
state, which ``review status`` lists.

Label Studio Community has no roles: "annotator" and "inspector" say which round's queue a
person works in (and whom ``review status`` lists for it), not what the server lets them do.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import re
import secrets
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from builder.errors import ConfigError, ServiceError
from builder.review import server
from builder.review.client import base_url, calling
from builder.review.state import ReviewStore

if TYPE_CHECKING:
    from label_studio_sdk import LabelStudio

Role = Literal["annotator", "inspector"]
ROLES: tuple[str, ...] = ("annotator", "inspector")
USERS_DIR = "users"
_EMAIL = re.compile(r"^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$")  # also a file name
# Django's own format; it re-hashes with its current iteration count on first login.
_PBKDF2_ITERATIONS = 600_000


@dataclass(frozen=True)
class Added:
    email: str
    role: Role
    existed: bool
    password_file: Path | None = None
    invite_url: str = ""


def _django_hash(password: str) -> str:
    salt = secrets.token_urlsafe(16)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt.encode(), _PBKDF2_ITERATIONS)
    return f"pbkdf2_sha256${_PBKDF2_ITERATIONS}${salt}${base64.b64encode(digest).decode()}"


def set_password(data_dir: Path, email: str) -> Path:
    """Give a local server's user a generated password; return the 0600 file holding it."""
    db_path = data_dir.resolve() / server.DB_NAME
    password = secrets.token_urlsafe(18)
    with contextlib.closing(sqlite3.connect(db_path, timeout=30)) as db, db:
        changed = db.execute(
            "UPDATE htx_user SET password = ? WHERE email = ?", (_django_hash(password), email)
        ).rowcount
    if changed != 1:
        raise ServiceError(f"no Label Studio user {email!r} in {data_dir}")
    folder = data_dir / USERS_DIR
    folder.mkdir(mode=0o700, exist_ok=True)
    path = folder / f"{email}.json"
    server._write_private(path, {"email": email, "password": password})
    return path


def invite_url(client: LabelStudio) -> str:
    with calling("get the invite link"):
        invite = client.organizations.invites.get_invite_link()
    link = str(invite.invite_url or "")
    return link if link.startswith("http") else base_url(client) + link


def add_reviewer(
    client: LabelStudio,
    store: ReviewStore,
    email: str,
    *,
    role: str = "annotator",
    local_data_dir: Path | None = None,
    invite: bool = False,
) -> Added:
    """Add a reviewer: create the user (local server) or return the invite link."""
    if not _EMAIL.match(email):
        raise ConfigError(f"{email!r} is not an email address")
    if role not in ROLES:
        raise ConfigError(f"--role must be annotator or inspector, not {role!r}")
    checked: Role = "inspector" if role == "inspector" else "annotator"
    with calling("list users"):
        existing = {str(u.email).lower() for u in client.users.list() if u.email}
    exists = email.lower() in existing
    store.add_reviewer(email, checked)
    if exists:
        return Added(email=email, role=checked, existed=True)
    if invite or local_data_dir is None:
        return Added(email=email, role=checked, existed=False, invite_url=invite_url(client))
    with calling(f"create user {email}"):
        client.users.create(username=email.split("@")[0], email=email)
    path = set_password(local_data_dir, email)
    return Added(email=email, role=checked, existed=False, password_file=path)
