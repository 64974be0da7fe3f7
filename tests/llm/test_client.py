"""LLMClient against a real local HTTP server speaking the chat-completions format."""

from __future__ import annotations

from pathlib import Path

import pytest

from builder.config import Settings
from builder.errors import ConfigError, ServiceError
from builder.llm import LLMClient
from builder.llm.client import _plain_http_client
from tests.fakes.openai_server import FakeOpenAIServer, text_reply, tool_reply

SECRET = "sk-test-very-secret-123"


def _client(server: FakeOpenAIServer, cache_dir: Path | None = None, **kw: object) -> LLMClient:
    return LLMClient(
        model="m1",
        base_url=server.url,
        api_key=SECRET,
        cache_dir=cache_dir,
        backoff_base=0.001,
        **kw,  # type: ignore[arg-type]
    )


def test_text_and_usage() -> None:
    with FakeOpenAIServer([text_reply("hello", usage=(12, 3))]) as server:
        result = _client(server).chat([{"role": "user", "content": "hi"}])
    assert result.content == "hello"
    assert result.tool_calls == []
    assert (result.usage.input_tokens, result.usage.output_tokens) == (12, 3)
    assert not result.cached
    assert server.requests[0]["model"] == "m1"
    assert server.requests[0]["temperature"] == 0.0
    assert server.auth_headers[0] == f"Bearer {SECRET}"


def test_tool_calls_parsed_and_replayable() -> None:
    tools = [{"type": "function", "function": {"name": "search", "parameters": {}}}]
    script = [tool_reply(("search", {"query": "zelda"}), ("ask", "{not json"))]
    with FakeOpenAIServer(script) as server:
        result = _client(server).chat([{"role": "user", "content": "q"}], tools=tools)
    assert server.requests[0]["tools"] == tools
    first, second = result.tool_calls
    assert (first.name, first.arguments, first.arguments_error) == (
        "search",
        {"query": "zelda"},
        None,
    )
    assert second.name == "ask" and second.arguments == {} and second.arguments_error
    msg = result.as_message()
    assert msg["role"] == "assistant"
    assert msg["tool_calls"][0]["function"] == {"name": "search", "arguments": '{"query": "zelda"}'}


def test_cache_hit_skips_server_and_never_stores_key(tmp_path: Path) -> None:
    with FakeOpenAIServer([text_reply("once", usage=(5, 2))]) as server:
        client = _client(server, cache_dir=tmp_path)
        first = client.chat([{"role": "user", "content": "same"}])
        second = client.chat([{"role": "user", "content": "same"}])
    assert len(server.requests) == 1
    assert (first.cached, second.cached) == (False, True)
    assert second.content == "once" and second.usage == first.usage
    assert client.meter.calls == 2 and client.meter.cached_calls == 1
    assert client.meter.usage.input_tokens == 10
    files = list(tmp_path.rglob("*.json"))
    assert len(files) == 1
    assert SECRET not in files[0].read_text()


def test_cache_key_depends_on_messages_model_and_params(tmp_path: Path) -> None:
    with FakeOpenAIServer([text_reply(str(i)) for i in range(4)]) as server:
        client = _client(server, cache_dir=tmp_path)
        answers = [
            client.chat([{"role": "user", "content": "a"}]).content,
            client.chat([{"role": "user", "content": "b"}]).content,
            client.chat([{"role": "user", "content": "a"}], temperature=0.7).content,
        ]
        other = _client(server, cache_dir=tmp_path)
        other.model = "m2"
        answers.append(other.chat([{"role": "user", "content": "a"}]).content)
        again = client.chat([{"role": "user", "content": "a"}])
    assert answers == ["0", "1", "2", "3"]  # four distinct keys: four server calls
    assert len(server.requests) == 4
    assert again.cached and again.content == "0"


def test_cache_false_bypasses(tmp_path: Path) -> None:
    with FakeOpenAIServer([text_reply("x"), text_reply("y")]) as server:
        client = _client(server, cache_dir=tmp_path)
        a = client.chat([{"role": "user", "content": "s"}], cache=False)
        b = client.chat([{"role": "user", "content": "s"}], cache=False)
    assert (a.content, b.content) == ("x", "y")
    assert not list(tmp_path.rglob("*.json"))


def test_retries_on_429_then_succeeds() -> None:
    with FakeOpenAIServer([text_reply("after")], fail_first=2, fail_status=429) as server:
        client = _client(server)
        result = client.chat([{"role": "user", "content": "q"}])
    assert result.content == "after"
    assert server.failures_sent == 2 and len(server.requests) == 3
    assert client.meter.retries == 2


def test_retry_after_header_is_honoured_within_cap() -> None:
    with FakeOpenAIServer([text_reply("ok")], fail_first=1, retry_after="0.01") as server:
        client = _client(server, backoff_max=0.05)
        assert client._delay(Exception(), 10) == 0.05  # capped exponential
        assert client.chat([{"role": "user", "content": "q"}]).content == "ok"


def test_gives_up_after_max_retries_on_5xx() -> None:
    with FakeOpenAIServer([text_reply("never")], fail_first=10, fail_status=503) as server:
        client = _client(server, max_retries=2)
        with pytest.raises(ServiceError) as info:
            client.chat([{"role": "user", "content": "q"}])
    assert len(server.requests) == 3
    assert "3 attempts" in str(info.value)
    assert SECRET not in str(info.value)


def test_4xx_is_not_retried() -> None:
    with (
        FakeOpenAIServer([], fail_first=1, fail_status=401) as server,
        pytest.raises(ServiceError) as info,
    ):
        _client(server).chat([{"role": "user", "content": "q"}])
    assert len(server.requests) == 1
    assert "HTTP 401" in str(info.value)


def test_from_settings_and_missing_key() -> None:
    settings = Settings(OPENAI_BASE_URL="http://127.0.0.1:9/v1", openai_model="tiny")
    client = LLMClient.from_settings(settings, model=None)
    assert client.model == "tiny" and client.host == "127.0.0.1:9"
    with pytest.raises(ConfigError):
        LLMClient(model="x", base_url=None, api_key=None)
    keyed = LLMClient(model="x", base_url=None, api_key=SECRET)
    assert SECRET not in repr(keyed)


def test_plain_http_endpoint_skips_the_ca_bundle_only_without_a_proxy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for var in ("http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
        monkeypatch.delenv(var, raising=False)
    assert _plain_http_client("https://api.openai.com/v1") is None  # the SDK's, CA bundle
    assert _plain_http_client(None) is None
    assert _plain_http_client("http://127.0.0.1:8080/v1") is not None
    monkeypatch.setenv("NO_PROXY", "localhost")  # not a proxy
    assert _plain_http_client("http://127.0.0.1:8080/v1") is not None
    monkeypatch.setenv("HTTPS_PROXY", "https://proxy.example:3128")  # may need TLS
    assert _plain_http_client("http://127.0.0.1:8080/v1") is None
