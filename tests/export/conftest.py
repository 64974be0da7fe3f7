"""Sample records for export tests, varied across domains, difficulties and types."""

from __future__ import annotations

from pathlib import Path

import pytest

from builder.samples_io import write_samples
from builder.synthetic import make_sample


@pytest.fixture
def samples_file(tmp_path: Path) -> Path:
    """66 samples: 60 accepted, 6 still in annotation."""
    samples = [
        make_sample(i, status="in_annotation" if i % 11 == 5 else "accepted") for i in range(66)
    ]
    path = tmp_path / "samples.jsonl"
    write_samples(path, samples)
    return path
