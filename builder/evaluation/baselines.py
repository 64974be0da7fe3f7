"""Run the three ``oracle:`` reference policies (and direct-guess under the unambiguous
ablation) and score them: what ``discobench build`` shows to prove the pipeline end to end
offline, and that the samples are solvable by search. They read the gold decomposition:
reference points, not agents. They search with the top ``SEARCH_K`` (10) results, the
depth the ``retrievable`` and ``oracle_solvable`` checks use."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from builder.evaluation.harness import Limits
from builder.evaluation.io import read_for_scoring
from builder.evaluation.metrics import Metrics
from builder.evaluation.runner import run_agent
from builder.evaluation.scorer import score
from builder.records.sample import Sample

if TYPE_CHECKING:
    from builder.kb.store import KnowledgeStore

BASELINE_RUNS: tuple[tuple[str, str, str], ...] = (
    # (display name, reference policy, ablation)
    ("oracle:direct-guess", "oracle:direct-guess", "none"),
    ("oracle:search-then-ask", "oracle:search-then-ask", "none"),
    ("oracle:ask", "oracle:ask", "none"),
    ("oracle:direct-guess (unambiguous)", "oracle:direct-guess", "unambiguous"),
)
ORACLE_TOP_K = 10


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
        slug = name.replace("oracle:", "oracle-").replace(" ", "").replace("(", "-")
        slug = slug.replace(")", "")
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
            limits=Limits(top_k=ORACLE_TOP_K),
            fresh=fresh,
        )
        results[name] = score(samples, read_for_scoring(out), heavy_search=heavy_search)
    return results
