"""Run the three offline baselines (and direct-guess under the unambiguous ablation) and
score them: what ``discobench build`` shows to prove the pipeline end to end offline."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from builder.evaluation.io import read_trajectories
from builder.evaluation.metrics import Metrics
from builder.evaluation.runner import run_agent
from builder.evaluation.scorer import score
from builder.records.sample import Sample

if TYPE_CHECKING:
    from builder.kb.store import KnowledgeStore

BASELINE_RUNS: tuple[tuple[str, str, str], ...] = (
    # (display name, agent, ablation)
    ("direct-guess", "baseline:direct-guess", "none"),
    ("search-then-ask", "baseline:search-then-ask", "none"),
    ("oracle-ask", "baseline:oracle-ask", "none"),
    ("direct-guess (unambiguous)", "baseline:direct-guess", "unambiguous"),
)


def run_baselines(
    samples: Sequence[Sample],
    *,
    store: KnowledgeStore,
    out_dir: Path,
    concurrency: int = 4,
    progress: bool = True,
    heavy_search: int = 3,
    fresh: bool = True,
) -> dict[str, Metrics]:
    """Trajectories in ``out_dir/<name>.jsonl``; returns display name → metrics."""
    results: dict[str, Metrics] = {}
    for name, agent, ablation in BASELINE_RUNS:
        slug = name.replace(" ", "").replace("(", "-").replace(")", "")
        out = Path(out_dir) / f"{slug}.jsonl"
        run_agent(
            samples,
            agent=agent,
            store=store,
            out=out,
            ablation=ablation,
            concurrency=concurrency,
            progress=progress,
            search_cache_dir=Path(out_dir) / "search-cache",
            fresh=fresh,
        )
        results[name] = score(samples, read_trajectories(out), heavy_search=heavy_search)
    return results
