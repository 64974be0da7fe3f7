"""The root CLI: help, version, schema, errors and secrets."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from builder.cli.main import app
from builder.config import Settings

runner = CliRunner()


def test_help_lists_every_command_group():
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for name in ("kb", "seed", "inject", "validate", "stats", "review", "export", "eval", "build"):
        assert name in result.output


def test_schema_writes_valid_json_schemas(tmp_path: Path):
    result = runner.invoke(app, ["schema", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    sample = json.loads((tmp_path / "sample.schema.json").read_text())
    assert sample["title"] == "Sample"
    assert {"checkpoints", "question", "unambiguous_question"} <= set(sample["properties"])
    entity = json.loads((tmp_path / "entity.schema.json").read_text())
    statement = entity["$defs"]["Statement"]["properties"]
    assert "qualifiers-order" in statement  # wire names, not Python names
    names = sorted(p.name for p in tmp_path.iterdir())
    assert "trajectory.schema.json" in names and "review_decision.schema.json" in names


def test_secrets_never_show_in_settings_repr(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-abcdefghijklmnopqrstuv")
    monkeypatch.setenv("LABEL_STUDIO_API_KEY", "ls-token-1234567890")
    monkeypatch.setenv("HF_TOKEN", "hf_fake_token_for_tests_only")
    settings = Settings()
    text = repr(settings) + str(settings.model_dump()) + settings.model_dump_json()
    for secret in ("sk-test-abcdefghijklmnopqrstuv", "ls-token-1234567890", "hf_fake_token"):
        assert secret not in text
    assert settings.openai_api_key is not None
    assert settings.openai_api_key.get_secret_value() == "sk-test-abcdefghijklmnopqrstuv"


def test_workspace_env_var_is_honoured(tmp_path: Path, monkeypatch, fixtures_dir: Path):
    monkeypatch.setenv("DISCOBENCH_WORKSPACE", str(tmp_path / "ws"))
    result = runner.invoke(app, ["kb", "stats", "--json"])
    # no store in that workspace yet: a clear error naming the file and the fix
    assert result.exit_code == 3
    assert "kb.sqlite" in result.output and "discobench kb import" in result.output
    entity = fixtures_dir / "wikidata" / "wikibase-sdk" / "Q2112.json"
    result = runner.invoke(app, ["kb", "import", str(entity), "--no-progress"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "ws" / "kb.sqlite").exists()
    flag = runner.invoke(app, ["-w", str(tmp_path / "other"), "kb", "import", str(entity)])
    assert flag.exit_code == 0 and (tmp_path / "other" / "kb.sqlite").exists()
