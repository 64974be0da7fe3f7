"""Export: Parquet + card that `datasets.load_dataset` reads, round trips, determinism."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest
import yaml
from typer.testing import CliRunner

from builder.cli.main import app
from builder.errors import InputError, StageError
from builder.export import export_dataset, push_to_hub, sample_features
from builder.export.folder import MARKER
from builder.records.sample import Sample
from builder.samples_io import read_samples, write_samples
from builder.synthetic import make_sample
from tests.export.fake_hub import fake_hub


def _offline_env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        HF_DATASETS_CACHE=str(tmp_path / "hf-cache"),
        HF_HOME=str(tmp_path / "hf-home"),
        HF_HUB_OFFLINE="1",
        HF_DATASETS_OFFLINE="1",
    )
    return env


def _front_matter(card: Path) -> dict[str, object]:
    text = card.read_text(encoding="utf-8")
    assert text.startswith("---\n")
    data = yaml.safe_load(text.split("---\n", 2)[1])
    assert isinstance(data, dict)
    return data


def test_load_dataset_in_fresh_process_reads_both_configs(samples_file: Path, tmp_path: Path):
    out = tmp_path / "exports" / "disco"
    report = export_dataset(samples_file, out)
    assert report.rows == {"default": {"test": 60}, "unambiguous": {"test": 60}}
    script = f"""
import json, sys
from datasets import load_dataset
d = load_dataset({str(out)!r}, split="test")
u = load_dataset({str(out)!r}, "unambiguous", split="test")
json.dump({{"n": [len(d), len(u)], "features": [d.features.to_dict(), u.features.to_dict()],
           "q": [d[0]["question"], u[0]["question"]], "ids": [list(d["id"]), list(u["id"])]}}, sys.stdout)
"""
    proc = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env=_offline_env(tmp_path),
        check=True,
    )
    got = json.loads(proc.stdout)
    declared = sample_features().to_dict()
    assert got["n"] == [60, 60]
    assert got["features"] == [declared, declared]
    accepted = [s for s in read_samples(samples_file) if s.review.status == "accepted"]
    assert got["ids"][0] == [s.id for s in accepted] == got["ids"][1]
    assert got["q"] == [accepted[0].question, accepted[0].unambiguous_question]


def test_rows_round_trip_to_equal_sample_records(samples_file: Path, tmp_path: Path):
    out = tmp_path / "disco"
    export_dataset(samples_file, out)
    rows = pq.read_table(out / "default" / "test-00000-of-00001.parquet").to_pylist()
    back = [Sample.model_validate(row) for row in rows]
    original = [s for s in read_samples(samples_file) if s.review.status == "accepted"]
    assert back == original
    unamb = pq.read_table(out / "unambiguous" / "test-00000-of-00001.parquet").to_pylist()
    for row, sample in zip(unamb, original, strict=True):
        assert Sample.model_validate(row) == sample.model_copy(
            update={"question": sample.unambiguous_question}
        )


def test_only_accepted_unless_include_unreviewed(samples_file: Path, tmp_path: Path):
    strict = export_dataset(samples_file, tmp_path / "a")
    assert strict.excluded_unreviewed == 6
    assert "Unreviewed" not in (tmp_path / "a" / "README.md").read_text()
    loose = export_dataset(samples_file, tmp_path / "b", include_unreviewed=True)
    assert loose.rows["default"]["test"] == 66 and loose.excluded_unreviewed == 0
    assert "have **not** passed human review" in (tmp_path / "b" / "README.md").read_text()


def test_no_accepted_sample_is_a_clear_error(tmp_path: Path):
    path = tmp_path / "s.jsonl"
    write_samples(path, [make_sample(i, status="draft") for i in range(3)])
    with pytest.raises(StageError, match="none of 3 samples is accepted") as err:
        export_dataset(path, tmp_path / "out")
    assert "--include-unreviewed" in str(err.value)


def test_canary_in_card_and_every_row(samples_file: Path, tmp_path: Path):
    canary = "canary GUID 5f1c7c0e-disco"
    export_dataset(samples_file, tmp_path / "d", canary=canary, dev_fraction=0.25)
    assert canary in (tmp_path / "d" / "README.md").read_text()
    for parquet in (tmp_path / "d").rglob("*.parquet"):
        assert set(pq.read_table(parquet).column("canary").to_pylist()) == {canary}


def test_same_input_gives_byte_identical_files(samples_file: Path, tmp_path: Path):
    export_dataset(samples_file, tmp_path / "one", dev_fraction=0.2, canary="c", batch_size=7)
    export_dataset(samples_file, tmp_path / "two", dev_fraction=0.2, canary="c", batch_size=7)
    files = sorted(p.relative_to(tmp_path / "one") for p in (tmp_path / "one").rglob("*.*"))
    assert len(files) == 6  # 4 Parquet files, the card, the export marker
    for rel in files:
        assert (tmp_path / "one" / rel).read_bytes() == (tmp_path / "two" / rel).read_bytes()


def test_dev_split_is_stratified_deterministic_and_disjoint(tmp_path: Path):
    path = tmp_path / "s.jsonl"
    write_samples(path, [make_sample(i) for i in range(200)])
    report = export_dataset(path, tmp_path / "d", dev_fraction=0.1, seed=3)
    assert report.rows["default"] == {"test": 180, "dev": 20}

    def ids(split: str) -> list[str]:
        table = pq.read_table(tmp_path / "d" / "default" / f"{split}-00000-of-00001.parquet")
        return list(table.column("id").to_pylist())

    dev, test = ids("dev"), ids("test")
    assert not set(dev) & set(test) and len(dev) + len(test) == 200
    # every domain with enough samples is represented in dev
    dev_domains = {s.domain for s in read_samples(path) if s.id in set(dev)}
    assert len(dev_domains) >= 8
    again = export_dataset(path, tmp_path / "e", dev_fraction=0.1, seed=3)
    assert again.rows == report.rows
    other = export_dataset(path, tmp_path / "f", dev_fraction=0.1, seed=4)
    table = pq.read_table(tmp_path / "f" / "default" / "dev-00000-of-00001.parquet")
    assert other.rows == report.rows and table.column("id").to_pylist() != dev


def test_bad_dev_fraction_names_the_option(samples_file: Path, tmp_path: Path):
    with pytest.raises(InputError, match="--dev-fraction"):
        export_dataset(samples_file, tmp_path / "d", dev_fraction=1.5)


def test_card_front_matter_declares_configs_features_and_sizes(samples_file: Path, tmp_path):
    export_dataset(samples_file, tmp_path / "d", dev_fraction=0.5)
    meta = _front_matter(tmp_path / "d" / "README.md")
    for key in ("license", "task_categories", "language", "size_categories", "pretty_name"):
        assert meta[key]
    configs = {c["config_name"]: c for c in meta["configs"]}  # type: ignore[attr-defined]
    assert set(configs) == {"default", "unambiguous"}
    assert {f["split"] for f in configs["default"]["data_files"]} == {"test", "dev"}
    infos = {i["config_name"]: i for i in meta["dataset_info"]}  # type: ignore[attr-defined]
    splits = {s["name"]: s["num_examples"] for s in infos["unambiguous"]["splits"]}
    assert splits == {"test": 30, "dev": 30}
    names = [f["name"] for f in infos["default"]["features"]]
    assert names == list(Sample.model_fields)
    body = (tmp_path / "d" / "README.md").read_text()
    for needle in (
        "arXiv:2606.27669",
        "CC0",
        "CC BY-SA 4.0",
        "discobench eval",
        "`checkpoints[].clue`",
    ):
        assert needle in body


def test_push_to_hub_uploads_every_file_with_the_token(samples_file: Path, tmp_path: Path):
    out = tmp_path / "d"
    export_dataset(samples_file, out)
    with fake_hub() as (endpoint, log):
        url = push_to_hub(out, "u/r", token="hf_secret_token_value", endpoint=endpoint)
    assert "/commit/" in url
    assert log.repos == [
        {"name": "r", "organization": "u", "type": "dataset", "private": False}
    ] or (log.repos and log.repos[0]["type"] == "dataset")
    local = {str(p.relative_to(out)): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert MARKER in local and MARKER not in log.files  # local bookkeeping, not uploaded
    assert log.files == {k: v for k, v in local.items() if k != MARKER}
    assert all(auth == "Bearer hf_secret_token_value" for _, _, auth in log.requests)


def test_push_to_hub_refused_token_is_a_service_error(samples_file: Path, tmp_path: Path):
    from builder.errors import ServiceError

    export_dataset(samples_file, tmp_path / "d")
    with (
        fake_hub(reject_token="hf_bad") as (endpoint, _),
        pytest.raises(ServiceError, match="HTTP 401"),
    ):
        push_to_hub(tmp_path / "d", "u/r", token="hf_bad", endpoint=endpoint)


def test_cli_export_and_push_never_prints_the_token(
    samples_file: Path, tmp_path: Path, monkeypatch
):
    with fake_hub() as (endpoint, log):
        monkeypatch.setenv("HF_TOKEN", "hf_cli_secret_123456")
        monkeypatch.setenv("HF_ENDPOINT", endpoint)
        from builder.config import get_settings

        get_settings.cache_clear()
        try:
            result = CliRunner().invoke(
                app,
                [
                    "-w",
                    str(tmp_path / "ws"),
                    "export",
                    str(samples_file),
                    "--out",
                    str(tmp_path / "d"),
                    "--dev-fraction",
                    "0.1",
                    "--push-to-hub",
                    "u/r",
                ],
            )
        finally:
            get_settings.cache_clear()
    assert result.exit_code == 0, result.output
    assert "hf_cli_secret_123456" not in result.output
    assert "default" in result.output and "6 of 66 samples left out" in result.output
    assert "README.md" in log.files


def test_cli_missing_samples_file_exits_non_zero(tmp_path: Path):
    result = CliRunner().invoke(app, ["-w", str(tmp_path), "export", str(tmp_path / "nope.jsonl")])
    assert result.exit_code == InputError.exit_code
    assert "nope.jsonl" in result.output
