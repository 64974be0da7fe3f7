"""Upload an export folder to the Hugging Face Hub (token from ``HF_TOKEN``)."""

from __future__ import annotations

from pathlib import Path

from huggingface_hub import HfApi
from huggingface_hub.errors import HfHubHTTPError

from builder.config import get_settings
from builder.errors import ConfigError, ServiceError
from builder.export.folder import MARKER


def push_to_hub(
    folder: Path,
    repo_id: str,
    *,
    private: bool = False,
    token: str | None = None,
    endpoint: str | None = None,
    commit_message: str = "Upload DiscoBench export",
) -> str:
    """Create the dataset repo if needed and upload the folder; return the commit URL.

    The token comes from ``HF_TOKEN`` unless given; it is passed to ``huggingface_hub``
    only and never printed. ``endpoint`` (or ``HF_ENDPOINT``) points at another Hub.
    """
    if "/" not in repo_id:
        raise ConfigError(
            f"--push-to-hub needs a full repo id like 'user/name', got {repo_id!r}",
            hint="e.g. --push-to-hub my-org/discobench",
        )
    settings = get_settings()
    endpoint = endpoint or settings.hf_endpoint
    if token is None:
        secret = settings.hf_token
        token = secret.get_secret_value() if secret else None
    if not token:
        raise ConfigError(
            "no Hugging Face token: HF_TOKEN is not set",
            hint="export HF_TOKEN=... (a write token from your Hub settings)",
        )
    api = HfApi(endpoint=endpoint, token=token)
    try:
        api.create_repo(repo_id, repo_type="dataset", private=private, exist_ok=True)
        info = api.upload_folder(
            folder_path=str(folder),
            repo_id=repo_id,
            repo_type="dataset",
            commit_message=commit_message,
            ignore_patterns=[MARKER],  # the local bookkeeping of export, not dataset content
        )
    except HfHubHTTPError as exc:
        status = exc.response.status_code if exc.response is not None else "?"
        raise ServiceError(
            f"Hugging Face Hub refused the upload to {repo_id} (HTTP {status})",
            hint="check that HF_TOKEN has write access to that namespace",
        ) from None
    return str(info.commit_url)
