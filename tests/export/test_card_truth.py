"""The dataset card says where the page texts come from and describes every column."""

from __future__ import annotations

import re
from pathlib import Path

from builder.export import export_dataset, sample_features
from builder.export.card import field_docs
from builder.records.sample import Evidence, Provenance
from builder.samples_io import write_samples
from builder.synthetic import make_sample


def _card(tmp_path: Path, wikipedia: bool, snapshot: str = "test-kb") -> str:
    samples = []
    for i in range(12):
        s = make_sample(i, status="accepted")
        if wikipedia and i % 2:
            url = f"https://en.wikipedia.org/wiki/Page_{i}"
            cps = [
                cp.model_copy(update={"evidence": [Evidence(title="P", url=url, snippet="F.")]})
                for cp in s.checkpoints
            ]
            s = s.model_copy(update={"checkpoints": cps})
        s = s.model_copy(update={"provenance": Provenance(snapshot_id=snapshot)})
        samples.append(s)
    path = tmp_path / f"s-{wikipedia}-{snapshot}.jsonl"
    write_samples(path, samples)
    out = tmp_path / f"out-{wikipedia}-{snapshot}"
    export_dataset(path, out)
    return (out / "README.md").read_text("utf-8")


def test_bundled_page_texts_are_not_called_wikipedias(tmp_path: Path):
    card = _card(tmp_path, wikipedia=False, snapshot="discobench-bundled")
    assert "written for discobench-builder" in card and "no text is copied from Wikipedia" in card
    assert "Page text taken from Wikipedia" not in card
    assert re.search(r"\d+ evidence snippet\(s\) quote page texts shipped with the snapshot", card)


def test_wikipedia_evidence_is_credited_with_its_licence(tmp_path: Path):
    card = _card(tmp_path, wikipedia=True)
    assert re.search(r"\d+ evidence snippet\(s\) quote Wikipedia pages \(CC BY-SA 4.0\)", card)
    assert "Page text taken from Wikipedia is under" in card
    assert "written for discobench-builder" not in card


def test_every_exported_column_has_a_meaning_on_the_card(tmp_path: Path):
    docs = dict(field_docs())
    assert all(docs.values()), [name for name, doc in docs.items() if not doc]
    top = set(sample_features())
    assert top <= set(docs) | {"canary"}
    card = _card(tmp_path, wikipedia=False)
    assert not re.search(r"^\| `[^`]+` \|\s*\|$", card, re.M)  # no empty meaning cell
