"""One thin client for any OpenAI-compatible chat-completions endpoint (OpenAI, vLLM, Ollama).

Why not the SDK's own retry: we want one place that decides which failures are retried
(429, 5xx, connection errors, timeouts), how long to wait (``Retry-After`` when the server
sends it, else exponential backoff), and that turns the final failure into a
:class:`ServiceError` naming the endpoint and model — never the key. Responses are cached on
disk keyed by a hash of the request (host, model, messages, tools, parameters) so that
re-runs are reproducible and free; the key is never part of the cache or any message.
"""

from __future__ import annotations

import json
import ssl
import threading
import time
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlparse

import openai
from pydantic import BaseModel, ConfigDict, Field

from builder.errors import ConfigError, ServiceError
from builder.llm.cache import JsonCache, request_key

if TYPE_CHECKING:
    from builder.config import Settings

CACHE_VERSION = 1
"""Bump when the cached payload's shape changes; old entries then miss."""


class TokenUsage(BaseModel):
    """Tokens of one call or a sum of calls."""

    model_config = ConfigDict(frozen=True)

    input_tokens: int = Field(0, ge=0, description="Prompt tokens.")
    output_tokens: int = Field(0, ge=0, description="Completion tokens.")

    def __add__(self, other: TokenUsage) -> TokenUsage:
        return TokenUsage(
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
        )


class ToolCall(BaseModel):
    """A function call the model asked for."""

    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    raw_arguments: str = Field("", description="The arguments exactly as the model sent them.")
    arguments_error: str | None = Field(
        None, description="Why ``raw_arguments`` is not a JSON object (then arguments is {})."
    )
    from_text: bool = Field(
        False, description="Parsed from the message text (fenced JSON, <tool_call> tags)."
    )


class ChatResult(BaseModel):
    """The first choice of a chat completion."""

    model_config = ConfigDict(frozen=True)

    content: str | None = None
    tool_calls: list[ToolCall] = Field(default_factory=list)
    usage: TokenUsage = Field(default_factory=TokenUsage)
    finish_reason: str | None = Field(
        None, description="stop, tool_calls, length (cut at max_tokens), ... as the server said."
    )
    cached: bool = Field(False, description="Served from the on-disk cache.")

    def as_message(self) -> dict[str, Any]:
        """The assistant message to append to the conversation (OpenAI wire format)."""
        msg: dict[str, Any] = {"role": "assistant", "content": self.content}
        if self.tool_calls:
            msg["tool_calls"] = [
                {
                    "id": tc.id,
                    "type": "function",
                    "function": {
                        "name": tc.name,
                        # calls found in text are sent back as valid JSON (the server's chat
                        # template renders them); native calls exactly as the model sent them
                        "arguments": json.dumps(tc.arguments, ensure_ascii=False)
                        if tc.from_text
                        else tc.raw_arguments or "{}",
                    },
                }
                for tc in self.tool_calls
            ]
        return msg


class UsageMeter:
    """Thread-safe running totals over every call of a client."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.calls = 0
        self.cached_calls = 0
        self.retries = 0
        self.usage = TokenUsage()

    def add(self, result: ChatResult) -> None:
        with self._lock:
            self.calls += 1
            self.cached_calls += int(result.cached)
            self.usage = self.usage + result.usage

    def add_retry(self) -> None:
        with self._lock:
            self.retries += 1


_RETRYABLE = (
    openai.RateLimitError,
    openai.InternalServerError,
    openai.APIConnectionError,  # APITimeoutError (a subclass) is handled before
)

DEFAULT_TIMEOUT = 300.0
"""Seconds per call: a slow local model (~13 tokens/s on two cores) writing 512 tokens plus a
long prompt takes minutes; hosted APIs answer well within it."""


def _plain_http_client(base_url: str | None) -> openai.DefaultHttpxClient | None:
    """The SDK's HTTP client for a plain-``http://`` endpoint reached without a proxy, with a
    TLS context that loads no CA certificates; ``None`` (the SDK's own) otherwise.

    The SDK's default client loads the system's CA bundle when it is created (~50 ms of CPU
    on two cores, before the first call can go out) although a local ``http://`` server
    (llama-server, vLLM, Ollama) never uses TLS. The context still verifies — it trusts no
    one — so a redirect to ``https://`` fails instead of going unverified."""
    if base_url is None or urlparse(base_url).scheme != "http":
        return None
    if any(k != "no" for k in urllib.request.getproxies()):  # an env proxy may be https
        return None
    return openai.DefaultHttpxClient(verify=ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT))


def _parse_tool_call(tc_id: str, name: str, raw: str) -> ToolCall:
    try:
        args = json.loads(raw) if raw.strip() else {}
    except json.JSONDecodeError as exc:
        return ToolCall(id=tc_id, name=name, raw_arguments=raw, arguments_error=str(exc))
    if not isinstance(args, dict):
        return ToolCall(id=tc_id, name=name, raw_arguments=raw, arguments_error="not a JSON object")
    return ToolCall(id=tc_id, name=name, arguments=args, raw_arguments=raw)


class LLMClient:
    """Chat completions with retries, token accounting and an on-disk cache."""

    def __init__(
        self,
        *,
        model: str,
        base_url: str | None = None,
        api_key: str | None = None,
        cache_dir: Path | None = None,
        max_retries: int = 5,
        backoff_base: float = 1.0,
        backoff_max: float = 30.0,
        timeout: float = DEFAULT_TIMEOUT,
        timeout_retries: int = 0,
        replay: bool = False,
    ) -> None:
        if not api_key:
            if base_url is None:
                raise ConfigError(
                    "no API key for the OpenAI endpoint",
                    hint="set OPENAI_API_KEY, or OPENAI_BASE_URL for a local vLLM/Ollama server",
                )
            api_key = "EMPTY"  # local servers (vLLM, Ollama) accept any key
        self.model = model
        self.base_url = base_url
        self.host = urlparse(base_url).netloc if base_url else "api.openai.com"
        self.max_retries = max_retries
        self.timeout = timeout
        self.timeout_retries = timeout_retries
        self.backoff_base = backoff_base
        self.backoff_max = backoff_max
        self.cache = JsonCache(cache_dir) if cache_dir is not None else None
        if replay and self.cache is None:
            raise ConfigError(
                "LLM cache replay needs a cache folder", hint="run with the LLM cache on"
            )
        self.replay = replay
        self.meter = UsageMeter()
        self._client = openai.OpenAI(
            api_key=api_key,
            base_url=base_url,
            max_retries=0,
            timeout=timeout,
            http_client=_plain_http_client(base_url),
        )

    @classmethod
    def from_settings(
        cls,
        settings: Settings,
        *,
        cache_dir: Path | None = None,
        model: str | None = None,
        **kwargs: Any,
    ) -> LLMClient:
        """Endpoint, key and default model from :class:`Settings` (env ``OPENAI_*``)."""
        key = settings.openai_api_key.get_secret_value() if settings.openai_api_key else None
        kwargs.setdefault("timeout", settings.llm_timeout)
        kwargs.setdefault("replay", settings.llm_cache_mode == "replay")
        return cls(
            model=model or settings.openai_model,
            base_url=settings.openai_base_url,
            api_key=key,
            cache_dir=cache_dir,
            **kwargs,
        )

    def __repr__(self) -> str:  # never show the key
        return f"LLMClient(model={self.model!r}, host={self.host!r})"

    def close(self) -> None:
        """Close the HTTP connections now (not at garbage collection). Idempotent; a call
        made afterwards fails with the SDK's connection error."""
        self._client.close()

    @property
    def closed(self) -> bool:
        return self._client.is_closed()

    def chat(
        self,
        messages: list[dict[str, Any]],
        *,
        tools: list[dict[str, Any]] | None = None,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        cache: bool = True,
    ) -> ChatResult:
        """One chat completion (first choice); cached unless ``cache=False``."""
        params: dict[str, Any] = {"temperature": temperature}
        if max_tokens is not None:
            params["max_tokens"] = max_tokens
        key = ""  # hashed only when the cache is used: the whole conversation is serialized
        if cache and self.cache is not None:
            key = request_key(
                {
                    "v": CACHE_VERSION,
                    "host": self.host,
                    "model": self.model,
                    "messages": messages,
                    "tools": tools,
                    "params": params,
                }
            )
            hit = self.cache.get(key)
            if hit is not None:
                result = ChatResult.model_validate({**hit, "cached": True})
                self.meter.add(result)
                return result
        if self.replay:
            raise ServiceError(
                f"model call not in the LLM cache {self.cache.root if self.cache else ''} "
                f"(replay mode; model {self.model}, {len(messages)} messages)",
                hint="the conversation differs from the recorded one (prompts, samples or "
                "search results changed): record again with DISCOBENCH_LLM_CACHE_MODE=record "
                "against the server",
            )
        result = self._call(messages, tools, params)
        if key and self.cache is not None:
            self.cache.put(key, result.model_dump(mode="json", exclude={"cached"}))
        self.meter.add(result)
        return result

    def _call(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None, params: Any
    ) -> ChatResult:
        kwargs: dict[str, Any] = {"model": self.model, "messages": messages, **params}
        if tools:
            kwargs["tools"] = tools
        attempt = 0
        timeouts = 0
        while True:
            try:
                # the body is plain JSON already: posting it skips the SDK's recursive
                # request transform (a quarter of a call's CPU; the GIL serializes it
                # across the runner's threads); the reply is read as plain JSON too
                body = self._client.post("/chat/completions", body=kwargs, cast_to=object)
                break
            except openai.APITimeoutError:
                # a slow generation is slow again: re-sending it only burns the same minutes
                if timeouts >= self.timeout_retries:
                    raise ServiceError(
                        f"LLM endpoint {self.host} (model {self.model}) did not answer within "
                        f"{self.timeout:g} s",
                        hint="a slow local model: raise DISCOBENCH_LLM_TIMEOUT or lower "
                        "DISCOBENCH_LLM_MAX_TOKENS; re-run resumes",
                    ) from None
                timeouts += 1
                self.meter.add_retry()
            except _RETRYABLE as exc:
                if attempt >= self.max_retries:
                    raise ServiceError(
                        f"LLM endpoint {self.host} (model {self.model}) failed after "
                        f"{attempt + 1} attempts: {type(exc).__name__}",
                        hint="check the server is up and the rate limits; re-run resumes",
                    ) from None
                time.sleep(self._delay(exc, attempt))
                self.meter.add_retry()
                attempt += 1
            except openai.APIStatusError as exc:
                raise ServiceError(
                    f"LLM endpoint {self.host} (model {self.model}) refused the request: "
                    f"HTTP {exc.status_code}",
                    hint="check OPENAI_BASE_URL, the model name and OPENAI_API_KEY",
                ) from None
        return self._result(body)

    def _result(self, body: Any) -> ChatResult:
        """The first choice of a response body, read as JSON without building the SDK's
        ``ChatCompletion`` (its recursive model construction was a sixth of a call's CPU,
        serialized by the GIL across the runner's threads); missing fields read as empty,
        as the SDK's unvalidated construction left them."""
        if isinstance(body, str):  # JSON sent under another content type
            try:
                body = json.loads(body)
            except json.JSONDecodeError:
                body = None
        choices = body.get("choices") if isinstance(body, dict) else None
        if not choices or not isinstance(choices, list) or not isinstance(choices[0], dict):
            raise ServiceError(f"LLM endpoint {self.host} returned no choices")
        choice = choices[0]
        msg = choice.get("message") or {}
        calls: list[ToolCall] = []
        for tc in msg.get("tool_calls") or []:
            if tc.get("type", "function") != "function":
                continue
            fn = tc.get("function") or {}
            args = fn.get("arguments") or ""
            raw = args if isinstance(args, str) else json.dumps(args, ensure_ascii=False)
            calls.append(_parse_tool_call(str(tc.get("id") or ""), str(fn.get("name") or ""), raw))
        usage = body.get("usage") or {}
        return ChatResult(
            content=msg.get("content"),
            tool_calls=calls,
            usage=TokenUsage(
                input_tokens=usage.get("prompt_tokens") or 0,
                output_tokens=usage.get("completion_tokens") or 0,
            ),
            finish_reason=choice.get("finish_reason"),
        )

    def _delay(self, exc: Exception, attempt: int) -> float:
        """``Retry-After`` (seconds) when the server sent one, else exponential backoff."""
        response = getattr(exc, "response", None)
        if response is not None:
            value = response.headers.get("retry-after")
            if value:
                try:
                    return min(float(value), self.backoff_max)
                except ValueError:
                    pass
        return float(min(self.backoff_base * (2**attempt), self.backoff_max))
