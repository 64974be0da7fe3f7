"""Write a Hugging Face dataset folder (Parquet per config and split, plus a dataset card).

Two streaming passes over the samples file keep memory bounded: the first reads only what
selection, the dev split and the card's statistics need (a few fields per sample); the second
writes rows in batches through ``pyarrow.parquet.ParquetWriter``. Output is byte-identical for
the same input and options: rows keep input order, the dev split is chosen by a hash of the
sample id, and nothing depends on the clock.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
from pydantic import BaseModel, Field

from builder.errors import InputError, StageError
from builder.export.card import CardStats, write_card
from builder.export.features import sample_features
from builder.export.folder import MARKER, check_target, staged_export
from builder.records.sample import Sample
from builder.samples_io import read_samples

CONFIGS: tuple[str, ...] = ("default", "unambiguous")


class ExportReport(BaseModel):
    """What an export wrote."""

    out: str = Field(description="The dataset folder.")
    rows: dict[str, dict[str, int]] = Field(description="config → split → number of rows.")
    files: list[str] = Field(description="Files written, relative to the folder.")
    input_samples: int = Field(description="Samples read from the input.")
    excluded_unreviewed: int = Field(description="Samples left out for not being accepted.")


class _Light(BaseModel):
    """The few fields of a sample that pass 1 keeps."""

    id: str
    domain: str
    difficulty: str


def _dev_rank(sample_id: str, seed: int) -> str:
    return hashlib.sha256(f"{seed}:{sample_id}".encode()).hexdigest()


def assign_dev(light: list[_Light], fraction: float, seed: int) -> set[str]:
    """Ids of the dev split, stratified by (domain, difficulty) and deterministic.

    The dev size is ``round(fraction · n)``; each stratum gets its floor share and the
    remainder goes to the strata with the largest fractional parts (largest-remainder
    apportionment), so small strata do not all round down. Within a stratum the samples with
    the smallest hash of (seed, id) are taken.
    """
    strata: dict[tuple[str, str], list[str]] = defaultdict(list)
    for row in light:
        strata[(row.domain, row.difficulty)].append(row.id)
    target = round(fraction * len(light))
    exact = {key: fraction * len(ids) for key, ids in strata.items()}
    quota = {key: int(share) for key, share in exact.items()}
    leftover = target - sum(quota.values())
    by_remainder = sorted(strata, key=lambda k: (-(exact[k] - quota[k]), k))
    for key in by_remainder[:leftover]:
        quota[key] += 1
    dev: set[str] = set()
    for key in sorted(strata):
        ids = sorted(strata[key], key=lambda i: _dev_rank(i, seed))
        dev.update(ids[: quota[key]])
    return dev


def _selected(samples: Iterator[Sample], include_unreviewed: bool) -> Iterator[Sample]:
    for sample in samples:
        if include_unreviewed or sample.review.status == "accepted":
            yield sample


def _row(sample: Sample, config: str, canary: str) -> dict[str, Any]:
    row = sample.model_dump(mode="json")
    if canary:
        row["canary"] = canary
    if config == "unambiguous":
        row["question"] = sample.unambiguous_question
    return row


def export_dataset(
    samples_path: Path,
    out: Path,
    *,
    dev_fraction: float | None = None,
    include_unreviewed: bool = False,
    canary: str = "",
    seed: int = 0,
    batch_size: int = 1000,
    pretty_name: str = "DiscoBench",
    force: bool = False,
) -> ExportReport:
    """Export accepted samples (or all, with ``include_unreviewed``) as a dataset folder.

    ``out`` must be new or written by an earlier export (see :mod:`builder.export.folder`);
    ``force`` writes into a folder holding other files too, keeping them.
    """
    if dev_fraction is not None and not 0.0 < dev_fraction < 1.0:
        raise InputError(
            f"--dev-fraction must be between 0 and 1 (exclusive), got {dev_fraction}",
            field="dev_fraction",
            hint="e.g. --dev-fraction 0.1",
        )
    check_target(out, force=force)  # before reading: a refused folder fails fast
    # Pass 1: counts, statistics and split assignment, without keeping whole rows.
    stats = CardStats()
    light: list[_Light] = []
    total = 0
    for sample in read_samples(samples_path):
        total += 1
        if include_unreviewed or sample.review.status == "accepted":
            stats.add(sample)
            light.append(_Light(id=sample.id, domain=sample.domain, difficulty=sample.difficulty))
    if not light:
        raise StageError(
            f"{samples_path}: none of {total} samples is accepted by review",
            hint="run the review rounds (discobench review …), or pass --include-unreviewed",
        )
    dev = assign_dev(light, dev_fraction, seed) if dev_fraction else set()
    splits = ("test", "dev") if dev else ("test",)

    with staged_export(out, force=force) as stage:
        counts, files = _write(stage, samples_path, include_unreviewed, dev, splits, canary,
                               batch_size, stats, pretty_name)  # fmt: skip
    return ExportReport(
        out=str(out),
        rows=counts,
        files=[*files, "README.md", MARKER],
        input_samples=total,
        excluded_unreviewed=total - len(light),
    )


def _write(
    out: Path,
    samples_path: Path,
    include_unreviewed: bool,
    dev: set[str],
    splits: tuple[str, ...],
    canary: str,
    batch_size: int,
    stats: CardStats,
    pretty_name: str,
) -> tuple[dict[str, dict[str, int]], list[str]]:
    """Pass 2 into the (staged) folder ``out``: Parquet per config and split, then the card."""
    features = sample_features()
    schema = features.arrow_schema
    writers: dict[tuple[str, str], pq.ParquetWriter] = {}
    batches: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    counts: dict[str, dict[str, int]] = {c: dict.fromkeys(splits, 0) for c in CONFIGS}
    files: list[str] = []
    for config in CONFIGS:
        for split in splits:
            rel = f"{config}/{split}-00000-of-00001.parquet"
            (out / config).mkdir(parents=True, exist_ok=True)
            writers[(config, split)] = pq.ParquetWriter(
                out / rel, schema, compression="zstd", use_dictionary=True, write_statistics=True
            )
            files.append(rel)

    def flush(key: tuple[str, str]) -> None:
        rows = batches.pop(key, [])
        if rows:
            writers[key].write_table(pa.Table.from_pylist(rows, schema=schema))

    try:
        # Pass 2: write rows in batches.
        for sample in _selected(read_samples(samples_path), include_unreviewed):
            split = "dev" if sample.id in dev else "test"
            for config in CONFIGS:
                key = (config, split)
                batches[key].append(_row(sample, config, canary))
                counts[config][split] += 1
                if len(batches[key]) >= batch_size:
                    flush(key)
        for key in list(batches):
            flush(key)
    finally:
        for writer in writers.values():
            writer.close()

    num_bytes = {rel: (out / rel).stat().st_size for rel in files}
    write_card(
        out / "README.md",
        features=features,
        counts=counts,
        num_bytes=num_bytes,
        stats=stats,
        canary=canary,
        include_unreviewed=include_unreviewed,
        pretty_name=pretty_name,
    )
    return counts, files
