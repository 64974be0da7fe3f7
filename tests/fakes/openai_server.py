"""A real HTTP server on 127.0.0.1 that speaks the OpenAI chat-completions wire format.

Scripted: give it a list of replies (served in order) or a function of the request body.
Replies are built with :func:`text_reply`, :func:`tool_reply`, and — the way llama.cpp's
``llama-server`` answers for Qwen2.5-Coder-Instruct, which writes its calls as text —
:func:`fenced_reply` and :func:`runaway_reply` (a generation that only stops at the
request's ``max_tokens``, ``finish_reason: "length"``). Options: a per-request latency (the
reply leaves that long after the request arrived, the handler's own work included, as from a
server whose response time is that latency; for concurrency benchmarks), a number of initial
failures with a status code (429 or 5xx, optional ``Retry-After``) to exercise retries, and
``llama_server=True`` to add the fields
llama-server adds (``timings``, ``system_fingerprint``) and name the model by its GGUF file.

    with FakeOpenAIServer([text_reply("hi")]) as server:
        client = LLMClient(model="m", base_url=server.url, api_key="sk-test")
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Reply = dict[str, Any]
Responder = Callable[[dict[str, Any]], Reply]


def text_reply(content: str, *, usage: tuple[int, int] | None = None) -> Reply:
    """An assistant message with text content."""
    return {"content": content, "tool_calls": [], "usage": usage}


def tool_reply(
    *calls: tuple[str, dict[str, Any] | str],
    content: str | None = None,
    usage: tuple[int, int] | None = None,
) -> Reply:
    """An assistant message calling tools: ``tool_reply(("search", {"query": "x"}))``.

    An argument given as ``str`` is sent verbatim (to test malformed JSON).
    """
    return {"content": content, "tool_calls": list(calls), "usage": usage}


def fenced_reply(
    name: str, arguments: dict[str, Any] | str, *, prose: str = "", lang: str = "json"
) -> Reply:
    """A call written as JSON in a fenced block of the text (no ``tool_calls``).

    ``arguments`` given as ``str`` is pasted verbatim (to write malformed JSON)."""
    args = arguments if isinstance(arguments, str) else json.dumps(arguments)
    body = f'{{"name": "{name}", "arguments": {args}}}'
    head = f"{prose}\n\n" if prose else ""
    return {"content": f"{head}```{lang}\n{body}\n```", "tool_calls": [], "usage": None}


def runaway_reply(text: str, *, tokens: int = 1500) -> Reply:
    """A reply that never stops by itself: ``tokens`` tokens (4 characters each) of ``text``
    repeated, cut at the request's ``max_tokens`` when it sends one."""
    return {"content": text, "tool_calls": [], "usage": None, "runaway": tokens}


def _default_usage(body: dict[str, Any], reply: Reply) -> tuple[int, int]:
    """Deterministic stand-in token counts: ~4 characters per token."""
    prompt = sum(len(json.dumps(m, sort_keys=True)) for m in body.get("messages", []))
    completion = len(reply.get("content") or "") + sum(
        len(json.dumps(c[1])) for c in reply.get("tool_calls", [])
    )
    return max(1, prompt // 4), max(1, completion // 4)


class _Server(ThreadingHTTPServer):
    request_queue_size = 256  # the default backlog (5) drops connects under high concurrency

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.accepted: dict[Any, float] = {}  # connection → when it was accepted

    def get_request(self) -> tuple[Any, Any]:
        conn, addr = super().get_request()
        self.accepted[conn] = time.monotonic()  # before its thread starts (that takes a while)
        return conn, addr


class FakeOpenAIServer:
    """``POST /v1/chat/completions`` on a free local port, in a background thread."""

    def __init__(
        self,
        script: Sequence[Reply] | Responder | None = None,
        *,
        latency: float = 0.0,
        fail_first: int = 0,
        fail_status: int = 429,
        retry_after: str | None = None,
        model: str = "fake-model",
        llama_server: bool = False,
    ) -> None:
        self._script = script
        self._cursor = 0
        self.latency = latency
        self.fail_first = fail_first
        self.fail_status = fail_status
        self.retry_after = retry_after
        self.model = model
        self.llama_server = llama_server
        self.requests: list[dict[str, Any]] = []
        self.auth_headers: list[str] = []
        self.failures_sent = 0
        self.open_connections = 0  # client connections not yet closed (keep-alive)
        self._lock = threading.Lock()
        self._calls = 0
        self._httpd = _Server(("127.0.0.1", 0), self._handler_class())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    @property
    def url(self) -> str:
        """Base URL to give the OpenAI client (ends in ``/v1``)."""
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def start(self) -> FakeOpenAIServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- request handling -------------------------------------------------------------
    def _next_reply(self, body: dict[str, Any]) -> Reply | None:
        if self._script is None:
            return text_reply("ok")
        if callable(self._script):
            return self._script(body)
        with self._lock:
            if self._cursor >= len(self._script):
                return None
            reply = self._script[self._cursor]
            self._cursor += 1
        return reply

    def _completion(self, body: dict[str, Any], reply: Reply) -> dict[str, Any]:
        with self._lock:
            self._calls += 1
            n = self._calls
        tool_calls = [
            {
                "id": f"call_{n}_{i}",
                "type": "function",
                "function": {
                    "name": name,
                    "arguments": args if isinstance(args, str) else json.dumps(args),
                },
            }
            for i, (name, args) in enumerate(reply.get("tool_calls", []))
        ]
        content = reply.get("content")
        finish = "tool_calls" if tool_calls else "stop"
        usage = reply.get("usage")
        if reply.get("runaway"):
            want = int(reply["runaway"])
            cap = body.get("max_tokens")
            n_tokens = min(want, int(cap)) if cap else want
            text = str(content or "x")
            content = (text * (4 * n_tokens // max(1, len(text)) + 1))[: 4 * n_tokens]
            finish = "length" if cap and int(cap) < want else "stop"
            usage = usage or (_default_usage(body, {})[0], n_tokens)
        message: dict[str, Any] = {"role": "assistant", "content": content}
        if tool_calls:
            message["tool_calls"] = tool_calls
        prompt, completion = usage or _default_usage(body, {**reply, "content": content})
        payload: dict[str, Any] = {
            "id": f"chatcmpl-{n}",
            "object": "chat.completion",
            "created": 1_700_000_000 + n,
            "model": body.get("model", self.model),
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "finish_reason": finish,
                    "logprobs": None,
                }
            ],
            "usage": {
                "prompt_tokens": prompt,
                "completion_tokens": completion,
                "total_tokens": prompt + completion,
            },
        }
        if self.llama_server:  # what llama-server adds to the OpenAI shape
            payload["model"] = self.model
            payload["system_fingerprint"] = "b5000-fake"
            payload["timings"] = {
                "prompt_n": prompt,
                "prompt_ms": prompt * 12.5,
                "predicted_n": completion,
                "predicted_ms": completion * 76.9,  # ~13 tokens/s
            }
        return payload

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive, like real endpoints
            disable_nagle_algorithm = True  # headers and body are separate writes

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                return

            def setup(self) -> None:
                super().setup()
                with server._lock:
                    server.open_connections += 1

            def finish(self) -> None:  # the client closed the connection (or it broke)
                try:
                    super().finish()
                finally:
                    with server._lock:
                        server.open_connections -= 1

            def _send(
                self,
                status: int,
                payload: dict[str, Any],
                headers: dict[str, str],
                due: float = 0.0,
            ) -> None:
                data = json.dumps(payload).encode("utf-8")
                head = [
                    f"HTTP/1.1 {status} {self.responses[status][0]}",
                    "Content-Type: application/json",
                    f"Content-Length: {len(data)}",
                    *(f"{k}: {v}" for k, v in headers.items()),
                ]
                response = ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + data
                wait = due - time.monotonic()
                if wait > 0:  # the latency includes this handler's own work: all of it
                    time.sleep(wait)  # is done before, the reply leaves in one write
                self.wfile.write(response)

            def do_POST(self) -> None:
                # answer `latency` after arrival: the first request of a connection arrived
                # when the connection was accepted
                arrived = server._httpd.accepted.pop(self.connection, None) or time.monotonic()
                due = arrived + server.latency
                length = int(self.headers.get("Content-Length", "0"))
                raw = self.rfile.read(length)
                if self.path.rstrip("/") != "/v1/chat/completions":
                    self._send(404, {"error": {"message": "not found"}}, {})
                    return
                body = json.loads(raw or b"{}")
                with server._lock:
                    server.requests.append(body)
                    server.auth_headers.append(self.headers.get("Authorization", ""))
                    fail = server.failures_sent < server.fail_first
                    if fail:
                        server.failures_sent += 1
                if fail:
                    headers = {"Retry-After": server.retry_after} if server.retry_after else {}
                    err = {"error": {"message": "scripted failure", "type": "rate_limit"}}
                    self._send(server.fail_status, err, headers, due)
                    return
                reply = server._next_reply(body)
                if reply is None:
                    msg = {"error": {"message": "fake server: script exhausted"}}
                    self._send(400, msg, {}, due)
                    return
                self._send(200, server._completion(body, reply), {}, due)

        return Handler
