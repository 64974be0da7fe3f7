"""OpenAI-compatible LLM client with retries, token accounting and an on-disk cache."""

from builder.llm.client import ChatResult, LLMClient, TokenUsage, ToolCall, UsageMeter

__all__ = ["ChatResult", "LLMClient", "TokenUsage", "ToolCall", "UsageMeter"]
