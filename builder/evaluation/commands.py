"""File-level entry points the CLI calls (one function per command; the CLI only prints)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from builder.errors import InputError
from builder.evaluation.io import gc_paused, load_dataset, read_for_scoring
from builder.evaluation.metrics import Metrics
from builder.evaluation.report import load_metrics_runs, plot_report, run_name
from builder.evaluation.runner import RunSummary, run_agent
from builder.evaluation.scorer import score


def score_files(
    dataset: Path, trajectories: Path, *, heavy_search: int = 3, json_out: Path | None = None
) -> Metrics:
    """Score a trajectories file against a dataset; optionally write the metrics JSON."""
    if heavy_search < 1:
        raise InputError(
            f"--heavy-search must be at least 1, got {heavy_search}", field="heavy_search"
        )
    with gc_paused():
        samples = load_dataset(dataset)
        trajs = read_for_scoring(trajectories)
        metrics = score(samples, trajs, heavy_search=heavy_search)
    if json_out is not None:
        json_out.parent.mkdir(parents=True, exist_ok=True)
        json_out.write_text(metrics.model_dump_json(indent=2) + "\n", encoding="utf-8")
    return metrics


def run_files(dataset: Path, *, kb_path: Path, search: str, ablation: str, **kw: Any) -> RunSummary:
    """Load the dataset, open the snapshot store when local search needs it, run the agent."""
    samples = load_dataset(dataset)
    if search != "local" or ablation == "no_search":
        return run_agent(samples, store=None, search=search, ablation=ablation, **kw)
    from builder.kb.store import KnowledgeStore

    with KnowledgeStore.open(kb_path, read_only=True) as store:
        return run_agent(samples, store=store, search=search, ablation=ablation, **kw)


def report_files(runs: list[Path], out_dir: Path | None) -> tuple[dict[str, Metrics], list[Path]]:
    """Load metrics JSONs (named by their run, else file name); plot when ``out_dir``."""
    named: dict[str, Metrics] = {}
    for path in runs:
        for key, m in load_metrics_runs(path).items():
            name = key or run_name(m, path.stem)
            if name in named:
                name = f"{name} ({path.name})"
            named[name] = m
    plots = plot_report(named, out_dir) if out_dir is not None else []
    return named, plots
