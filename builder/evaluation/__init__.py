"""Evaluation stage: the Search/Ask/Answer harness, agents, simulated users, judges, search
backends, the scorer (evaluation.md) and reports.

Public API::

    run_agent(samples, *, agent, store, out, setting="neutral", ablation="none",
              search="local", concurrency=4, progress=True, ...) -> RunSummary
    score(samples, trajectories, *, heavy_search=3) -> Metrics
    run_baselines(samples, *, store, out_dir, ...) -> dict[str, Metrics]
    load_dataset(path) -> list[Sample];  read_trajectories(path) -> list[Trajectory]
"""

from builder.evaluation import recorded  # noqa: F401  (registers --search recorded)
from builder.evaluation.baselines import BASELINE_RUNS, run_baselines
from builder.evaluation.harness import ABLATIONS, SETTINGS, Limits
from builder.evaluation.io import iter_trajectories, load_dataset, read_trajectories
from builder.evaluation.matching import match, normalize
from builder.evaluation.metrics import Metrics
from builder.evaluation.runner import RunSummary, run_agent
from builder.evaluation.scorer import score

__all__ = [
    "ABLATIONS",
    "BASELINE_RUNS",
    "SETTINGS",
    "Limits",
    "Metrics",
    "RunSummary",
    "iter_trajectories",
    "load_dataset",
    "match",
    "normalize",
    "read_trajectories",
    "run_agent",
    "run_baselines",
    "score",
]
