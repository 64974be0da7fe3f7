"""The dataset card (README.md with YAML front matter) of an export.

Metadata comes from ``datasets``/``huggingface_hub`` (``DatasetInfo._to_yaml_dict`` and
``DatasetCardData``) so the Hub and ``load_dataset`` read it as they read their own cards; the
body is a Jinja template (``builder/templates/dataset_card.md.j2``). Field descriptions are
read from the pydantic records, so the card explains exactly the exported columns.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import jinja2
from datasets import DatasetInfo, Features, SplitDict, SplitInfo
from huggingface_hub import DatasetCardData
from pydantic import BaseModel

from builder import __version__
from builder.ambiguity.plan import read_plan
from builder.ambiguity.stats import Table1Counter
from builder.records.sample import (
    Candidate,
    Certificate,
    Checkpoint,
    Evidence,
    Provenance,
    ReviewInfo,
    Sample,
)

TEMPLATE_DIR = Path(__file__).resolve().parents[1] / "templates"


class CardStats:
    """Table 1 counts (the samples stage's counter) plus review figures, one sample at a time."""

    def __init__(self) -> None:
        self.table1 = Table1Counter()
        self.review_status: Counter[str] = Counter()
        self.agreements: list[float] = []
        self.snapshot: set[str] = set()
        self.page_sources: Counter[str] = Counter()  # evidence snippets by where the page is
        self.paraphrased: dict[str, list[str]] = {}  # model -> ids of paraphrased samples

    def add(self, sample: Sample) -> None:
        self.table1.add(sample)
        self.review_status[sample.review.status] += 1
        if sample.review.agreement is not None:
            self.agreements.append(sample.review.agreement)
        for checkpoint in sample.checkpoints:
            for evidence in checkpoint.evidence:
                self.page_sources[page_source(evidence.url)] += 1
        prov = sample.provenance
        if prov.snapshot_id:
            self.snapshot.add(f"{prov.snapshot_id} {prov.snapshot_version}".strip())
        info = read_plan(sample)
        if info is not None and info.paraphrase_model:
            self.paraphrased.setdefault(info.paraphrase_model, []).append(sample.id)

    @property
    def samples(self) -> int:
        return self.table1.n

    def table(self) -> list[tuple[str, str, int, str]]:
        """Rows (group, key, count, share%) in the paper's Table 1 order."""
        t1 = self.table1.result()

        def pct(n: int, d: int) -> str:
            return f"{100 * n / d:.1f}%" if d else "-"

        groups = (
            ("difficulty", t1.difficulty, t1.samples),
            ("ambiguity type", t1.types, t1.instances),
            ("domain", t1.domains, t1.samples),
        )
        return [
            (group, key, share.count, pct(share.count, total))
            for group, shares, total in groups
            for key, share in shares.items()
        ]


def page_source(url: str) -> str:
    """Where an evidence page comes from: ``wikipedia``, ``web`` (another URL) or ``local``
    (no URL: a page text shipped with the snapshot, like the bundled one's)."""
    if not url:
        return "local"
    return "wikipedia" if "wikipedia.org/" in url else "web"


#: Meanings of the columns whose record field carries no description (the record's own
#: description wins when it has one); the card must explain every column.
FALLBACK_DOCS: dict[str, str] = {
    "domain": "Topic domain of the sample (one of the eleven of Table 1).",
    "answer_aliases": "Other spellings of the final answer that count as correct.",
    "checkpoints": "The hops of the question in order, each with its gold answer, "
    "ambiguity (if any), candidates, clue and evidence.",
    "provenance": "How the sample was built: snapshot, builder version, seed chain, settings.",
    "review": "Human review state: status, annotators, agreement, inspector decision.",
    "checkpoints[].evidence": "Pages that state the checkpoint's fact.",
    "checkpoints[].evidence[].title": "Title of the evidence page.",
    "checkpoints[].evidence[].url": "URL of the evidence page; empty for a page text shipped "
    "with the snapshot (see How it was built).",
}


def _size_category(n: int) -> str:
    for limit, name in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K")):
        if n < limit:
            return name
    return "100K<n<1M"


def _field_docs(model: type[BaseModel], prefix: str = "") -> list[tuple[str, str]]:
    docs = []
    for name, field in model.model_fields.items():
        path = f"{prefix}{name}"
        docs.append((path, field.description or FALLBACK_DOCS.get(path, "")))
    return docs


def field_docs() -> list[tuple[str, str]]:
    """(column path, meaning) for every exported column, from the records' descriptions."""
    return [
        *_field_docs(Sample),
        *_field_docs(Checkpoint, "checkpoints[]."),
        *_field_docs(Candidate, "checkpoints[].candidates[]."),
        *_field_docs(Evidence, "checkpoints[].evidence[]."),
        *_field_docs(Certificate, "checkpoints[].certificate."),
        *_field_docs(Provenance, "provenance."),
        *_field_docs(ReviewInfo, "review."),
    ]


def write_card(
    path: Path,
    *,
    features: Features,
    counts: dict[str, dict[str, int]],
    num_bytes: dict[str, int],
    stats: CardStats,
    canary: str,
    include_unreviewed: bool,
    pretty_name: str,
) -> None:
    """Render README.md: YAML front matter (configs, dataset_info, licence …) and the body."""
    configs: list[dict[str, Any]] = []
    infos: list[dict[str, Any]] = []
    for config, splits in counts.items():
        configs.append(
            {
                "config_name": config,
                "data_files": [
                    {"split": split, "path": f"{config}/{split}-*.parquet"} for split in splits
                ],
                **({"default": True} if config == "default" else {}),
            }
        )
        split_dict = SplitDict(
            {
                split: SplitInfo(
                    name=split,
                    num_bytes=num_bytes[f"{config}/{split}-00000-of-00001.parquet"],
                    num_examples=n,
                )
                for split, n in splits.items()
            }
        )
        info = DatasetInfo(features=features, splits=split_dict, config_name=config)
        infos.append(info._to_yaml_dict())
    card_data = DatasetCardData(
        license="cc-by-sa-4.0",
        language=["en"],
        task_categories=["question-answering"],
        size_categories=[_size_category(stats.samples)],
        pretty_name=pretty_name,
        tags=["deep-search", "clarification", "ambiguity", "multi-hop", "agents"],
        configs=configs,
        dataset_info=infos,
    )
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATE_DIR),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        autoescape=False,
    )
    body = env.get_template("dataset_card.md.j2").render(
        pretty_name=pretty_name,
        stats=stats,
        table1=stats.table1.result(),
        table=stats.table(),
        counts=counts,
        canary=canary,
        include_unreviewed=include_unreviewed,
        fields=field_docs(),
        mean_agreement=(
            sum(stats.agreements) / len(stats.agreements) if stats.agreements else None
        ),
        builder_version=__version__,
        snapshots=sorted(stats.snapshot),
        page_sources=dict(stats.page_sources),
    )
    path.write_text(f"---\n{card_data.to_yaml()}\n---\n\n{body}", encoding="utf-8")
