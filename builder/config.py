"""Settings from the environment (prefix ``DISCOBENCH_``) and CLI flags.

Secrets are read from their conventional variables (``OPENAI_API_KEY``,
``LABEL_STUDIO_API_KEY``, ``HF_TOKEN``, ``TAVILY_API_KEY``) as :class:`SecretStr`, so that
printing or logging a settings object never shows them.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

CacheMode = Literal["live", "record", "replay"]

DEFAULT_USER_AGENT = (
    "discobench-builder/0.1 (https://github.com/discobench/discobench-builder; "
    "benchmark construction) python-requests"
)


class Settings(BaseSettings):
    """All tunables of the toolkit. Flags override these; these override defaults."""

    model_config = SettingsConfigDict(env_prefix="DISCOBENCH_", extra="ignore")

    workspace: Path = Field(Path("work"), description="Folder holding every stage's files.")
    user_agent: str = Field(
        DEFAULT_USER_AGENT,
        description="User-Agent sent to Wikimedia APIs; include a contact per their policy.",
    )
    http_cache_mode: CacheMode = Field(
        "record",
        description="live: no cache; record: serve hits, fetch and store misses; "
        "replay: offline, a miss is an error.",
    )
    http_cache_dir: Path | None = Field(
        None, description="On-disk HTTP cache; default WORKSPACE/http-cache."
    )
    http_timeout: float = Field(30.0, description="Per-request timeout in seconds.")
    http_retries: int = Field(5, description="Retries on 429/5xx and connection errors.")
    wikidata_api_url: str = "https://www.wikidata.org/w/api.php"
    wikidata_sparql_url: str = "https://query.wikidata.org/sparql"
    wikipedia_lang: str = "en"
    maxlag: int = Field(5, description="Wikimedia maxlag parameter (seconds).")
    live_counts: bool = Field(
        False,
        description="Certify a description no completeness declaration covers by counting it "
        "over all of Wikidata (SPARQL through the HTTP cache; for stores fetched live).",
    )

    openai_base_url: str | None = Field(
        None,
        validation_alias=AliasChoices("DISCOBENCH_OPENAI_BASE_URL", "OPENAI_BASE_URL"),
        description="OpenAI-compatible endpoint (vLLM, Ollama, ...).",
    )
    openai_model: str = Field(
        "gpt-4o-mini", description="Default model for paraphrase, simulated user and judge."
    )
    openai_api_key: SecretStr | None = Field(
        None, validation_alias=AliasChoices("OPENAI_API_KEY", "DISCOBENCH_OPENAI_API_KEY")
    )
    llm_max_tokens: int = Field(
        512, ge=1, description="max_tokens of each agent model call (caps runaway replies)."
    )
    llm_cache_mode: Literal["record", "replay"] = Field(
        "record",
        description="record: serve cached model replies, call the endpoint on a miss and "
        "store the reply; replay: offline, a miss is an error (re-run a recorded run).",
    )
    llm_timeout: float = Field(
        300.0, gt=0, description="Seconds per model call; a timeout is not retried."
    )

    label_studio_url: str = Field(
        "http://127.0.0.1:8080",
        validation_alias=AliasChoices("LABEL_STUDIO_URL", "DISCOBENCH_LABEL_STUDIO_URL"),
    )
    label_studio_api_key: SecretStr | None = Field(
        None,
        validation_alias=AliasChoices("LABEL_STUDIO_API_KEY", "DISCOBENCH_LABEL_STUDIO_API_KEY"),
    )
    hf_token: SecretStr | None = Field(
        None, validation_alias=AliasChoices("HF_TOKEN", "DISCOBENCH_HF_TOKEN")
    )
    hf_endpoint: str | None = Field(
        None,
        validation_alias=AliasChoices("HF_ENDPOINT", "DISCOBENCH_HF_ENDPOINT"),
        description="Another Hugging Face Hub endpoint (default: the public Hub).",
    )
    search_recorded: Path | None = Field(
        None,
        description="--search recorded: a run's search-cache folder (or JSONL) to replay.",
    )
    tavily_api_key: SecretStr | None = Field(
        None, validation_alias=AliasChoices("TAVILY_API_KEY", "DISCOBENCH_TAVILY_API_KEY")
    )


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings, read once from the environment."""
    return Settings()
