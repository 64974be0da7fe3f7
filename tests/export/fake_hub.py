"""A local server speaking the Hub endpoints ``create_repo`` + ``upload_folder`` use.

It records each request and the files of each commit (decoded from the NDJSON payload), so a
test can check what our code sent at the request level. Preupload answers ``regular`` for
every file, so contents arrive inline (base64) instead of through LFS.
"""

from __future__ import annotations

import base64
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class HubLog:
    requests: list[tuple[str, str, str]] = field(default_factory=list)  # method, path, auth
    files: dict[str, bytes] = field(default_factory=dict)
    repos: list[dict[str, object]] = field(default_factory=list)


@contextmanager
def fake_hub(*, reject_token: str | None = None) -> Iterator[tuple[str, HubLog]]:
    log = HubLog()

    class Handler(BaseHTTPRequestHandler):
        def _reply(self, status: int, payload: object) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            auth = self.headers.get("Authorization", "")
            log.requests.append((self.command, self.path, auth))
            base = f"http://127.0.0.1:{self.server.server_address[1]}"
            if reject_token and auth == f"Bearer {reject_token}":
                self._reply(401, {"error": "Invalid credentials"})
            elif self.path == "/api/repos/create":
                log.repos.append(json.loads(body))
                self._reply(200, {"url": f"{base}/datasets/u/r", "name": "u/r"})
            elif self.path == "/api/validate-yaml":
                self._reply(200, {"errors": [], "warnings": []})
            elif "/preupload/" in self.path:
                files = json.loads(body)["files"]
                self._reply(
                    200,
                    {
                        "files": [
                            {"path": f["path"], "uploadMode": "regular", "shouldIgnore": False}
                            for f in files
                        ]
                    },
                )
            elif "/commit/" in self.path:
                for line in body.decode().splitlines():
                    item = json.loads(line)
                    if item["key"] == "file":
                        value = item["value"]
                        log.files[value["path"]] = base64.b64decode(value["content"])
                self._reply(
                    200,
                    {"commitUrl": f"{base}/datasets/u/r/commit/{'a' * 40}", "commitOid": "a" * 40},
                )
            else:
                self._reply(404, {"error": f"unknown endpoint {self.path}"})

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", log
    finally:
        server.shutdown()
        server.server_close()
