"""Run an agent over a dataset: bounded concurrency, resume, progress, per-episode errors.

Each finished episode is appended to the output JSONL at once, so an interrupted run loses
at most the episodes in flight; a re-run skips samples already there for the same run
(errored ones are retried unless ``retry_errors=False``; the scorer takes the last line).
Rate limits are retried with backoff inside the LLM and Tavily clients.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Generator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

from builder.config import Settings, get_settings
from builder.errors import ConfigError
from builder.evaluation.agents import AGENTS, AgentContext
from builder.evaluation.harness import ABLATIONS, SETTINGS, Episode, Limits
from builder.evaluation.io import TrajectoryWriter, read_done
from builder.evaluation.judges import JUDGES, Judge
from builder.evaluation.search import SEARCH_BACKENDS, CachedSearch
from builder.evaluation.users import USERS, SimulatedUser
from builder.llm.client import LLMClient, TokenUsage
from builder.progress import LogProgress
from builder.records.sample import Sample
from builder.records.trajectory import OtherEvent, RunInfo, Trajectory

if TYPE_CHECKING:
    from builder.evaluation.agents.base import Agent
    from builder.evaluation.search import SearchBackend
    from builder.kb.store import KnowledgeStore


class RunSummary(BaseModel):
    """What one ``run_agent`` call did."""

    out: str
    run: RunInfo
    total: int = Field(description="Samples in the dataset.")
    skipped: int = Field(description="Already in the output file for this run (resume).")
    ran: int = Field(description="Episodes played now.")
    errors: int = Field(description="Episodes played now that ended with an error.")
    error_kinds: dict[str, int] = Field(
        default_factory=dict,
        description="Errors of the episodes played now, grouped: message (first line) → count.",
    )
    model_calls: int = Field(0, description="Agent model calls of the episodes played now.")
    usage: TokenUsage = Field(default_factory=TokenUsage, description="Agent tokens, played now.")
    wall_seconds: float = 0.0
    search_cache_hits: int = 0
    search_cache_misses: int = 0

    @property
    def error_rate(self) -> float:
        """Share of the episodes played now that errored (0 when none was played)."""
        return self.errors / self.ran if self.ran else 0.0


def error_kind(error: str, width: int = 160) -> str:
    """The group an episode's error falls in: its first line, cut to ``width`` characters."""
    line = error.strip().splitlines()[0] if error.strip() else "(empty error)"
    return line if len(line) <= width else line[: width - 1] + "…"


def _check(setting: str, ablation: str) -> None:
    if setting not in SETTINGS:
        raise ConfigError(f"unknown setting {setting!r}", hint=f"one of {', '.join(SETTINGS)}")
    if ablation not in ABLATIONS:
        raise ConfigError(f"unknown ablation {ablation!r}", hint=f"one of {', '.join(ABLATIONS)}")


def play_episode(
    sample: Sample,
    *,
    agent: Agent,
    run: RunInfo,
    search: SearchBackend | None,
    user: SimulatedUser,
    judge: Judge,
    limits: Limits,
) -> Trajectory:
    """One episode; any exception becomes the trajectory's ``error`` (the run goes on)."""
    ep = Episode(sample, run=run, search=search, user=user, limits=limits)
    error: str | None = None
    try:
        agent.run(ep)
    except Exception as exc:  # recorded per episode, by design
        error = f"{type(exc).__name__}: {exc}"
    traj = ep.trajectory(error)
    if error is None:
        try:
            spent = judge.fill(sample, traj, ep.last_message)
            traj.aux_usage = (ep.aux_usage + spent).model_dump()  # type: ignore[attr-defined]
        except Exception as exc:
            traj.error = f"judge {type(exc).__name__}: {exc}"
    return traj


def _children(i: int, n: int) -> list[int]:
    """The threads thread ``i`` of ``n`` starts (a binary tree rooted at 0)."""
    return [c for c in (2 * i + 1, 2 * i + 2) if c < n]


def _subtree_size(i: int, n: int) -> int:
    """Thread ``i`` and all it starts, directly or not."""
    return 1 + sum(_subtree_size(c, n) for c in _children(i, n))


def play_all(
    samples: Sequence[Sample], play: Callable[[Sample], Trajectory], concurrency: int
) -> Generator[Trajectory, None, None]:
    """``play`` every sample on ``concurrency`` threads; trajectories as they finish.

    Each thread takes the next sample as soon as it has finished one, so exactly
    ``concurrency`` episodes are in flight until the samples run out (no batches). The
    threads are all started, and waiting, before the first episode begins: a thread started
    while others run Python code waits for the GIL up to the 5 ms switch interval, so
    starting 32 on demand spread the first model calls over ~150 ms. They start as a tree
    (each thread starts two more): ``Thread.start`` returns only once the new thread runs,
    which on a busy machine waits for the scheduler (~4 ms), and 32 starts in a row by one
    thread held the first model call back by up to ~130 ms. Closing the generator (the
    caller stopped: Ctrl-C, a failed write) lets no new episode start; an exception raised
    by ``play`` is re-raised here.
    """
    pending = iter(samples)
    take = threading.Lock()
    done: queue.SimpleQueue[Trajectory | BaseException | None] = queue.SimpleQueue()
    go = threading.Event()
    stop = threading.Event()
    ready = threading.Condition()
    settled = [0]  # threads that have started theirs, plus those that never will
    failed: list[BaseException] = []  # starts that failed

    def work(i: int) -> None:
        for child in _children(i, n):
            try:
                threads[child].start()
            except BaseException as exc:  # "can't start new thread": for the caller
                with ready:
                    failed.append(exc)
                    settled[0] += _subtree_size(child, n)
        with ready:
            settled[0] += 1
            ready.notify()
        go.wait()
        try:
            while not stop.is_set():
                with take:
                    sample = next(pending, None)
                if sample is None:
                    break
                done.put(play(sample))
        except BaseException as exc:  # for the caller to re-raise
            done.put(exc)
        finally:
            done.put(None)

    n = max(1, min(concurrency, len(samples)))
    threads = [
        threading.Thread(target=work, args=(i,), name=f"episode-{i}", daemon=True) for i in range(n)
    ]
    try:
        threads[0].start()
        with ready:
            ready.wait_for(lambda: settled[0] == n)
        if failed:
            raise failed[0]
        go.set()
        running = n
        while running:
            try:
                item = done.get(timeout=0.5)  # a timeout keeps Ctrl-C responsive
            except queue.Empty:
                continue
            if item is None:
                running -= 1
            elif isinstance(item, BaseException):
                raise item
            else:
                yield item
    finally:
        stop.set()
        go.set()  # threads still waiting to begin end at once


def run_agent(
    samples: Sequence[Sample],
    *,
    agent: str,
    store: KnowledgeStore | None,
    out: Path,
    setting: str = "neutral",
    ablation: str = "none",
    search: str = "local",
    concurrency: int = 4,
    progress: bool = True,
    user: str = "deterministic",
    judge: str = "match",
    limits: Limits | None = None,
    settings: Settings | None = None,
    search_cache_dir: Path | None = None,
    llm_cache_dir: Path | None = None,
    llm_cache: bool = True,
    retry_errors: bool = True,
    fresh: bool = False,
) -> RunSummary:
    """Play ``agent`` on every sample not yet in ``out`` and append the trajectories."""
    _check(setting, ablation)
    settings = settings or get_settings()
    limits = limits or Limits()
    out = Path(out)
    search_cache_dir = search_cache_dir or out.parent / "search-cache"
    llm_cache_dir = llm_cache_dir or out.parent / "llm-cache"
    run = RunInfo(agent=agent, setting=setting, ablation=ablation)
    ctx = AgentContext(
        spec=agent,
        settings=settings,
        setting=setting,
        ablation=ablation,
        llm_cache_dir=llm_cache_dir if llm_cache else None,
        llm_cache=llm_cache,
    )
    agent_obj = AGENTS.get(agent)(ctx)
    helper: LLMClient | None = None
    if user == "llm" or judge == "llm":
        helper = LLMClient.from_settings(settings, cache_dir=llm_cache_dir)
    user_obj = USERS.get(user)(helper)
    judge_obj = JUDGES.get(judge)(helper)
    backend: CachedSearch | None = None
    if ablation != "no_search":
        backend = CachedSearch(SEARCH_BACKENDS.get(search)(store, settings), search_cache_dir)

    if fresh and out.exists():
        out.unlink()
    done = read_done(out, run.model_dump(mode="json"), retry_errors=retry_errors)
    todo = [s for s in samples if s.id not in done]
    summary = RunSummary(
        out=str(out), run=run, total=len(samples), skipped=len(samples) - len(todo), ran=0, errors=0
    )
    writer = TrajectoryWriter(out)
    started = time.perf_counter()
    bar = LogProgress(
        TextColumn(f"[bold]{agent}[/] {setting}/{ablation}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        disable=not progress,
    )

    def play(sample: Sample) -> Trajectory:
        return play_episode(
            sample,
            agent=agent_obj,
            run=run,
            search=backend,
            user=user_obj,
            judge=judge_obj,
            limits=limits,
        )

    episodes = play_all(todo, play, concurrency)
    try:
        with bar:
            task = bar.add_task("episodes", total=len(todo))
            for traj in episodes:
                writer.write(traj)
                summary.ran += 1
                if traj.error is not None:
                    summary.errors += 1
                    kind = error_kind(traj.error)
                    summary.error_kinds[kind] = summary.error_kinds.get(kind, 0) + 1
                summary.usage = summary.usage + TokenUsage(
                    input_tokens=traj.usage.input_tokens, output_tokens=traj.usage.output_tokens
                )
                summary.model_calls += sum(
                    1 for e in traj.events if isinstance(e, OtherEvent) and e.type == "model"
                )
                bar.advance(task)
    finally:
        # Ctrl-C or a writer failure: no new episode starts (finished ones are on disk; a
        # re-run resumes), the running ones end in the background
        episodes.close()
        writer.close()
        agent_obj.close()
        if helper is not None:
            helper.close()
    summary.wall_seconds = time.perf_counter() - started
    if backend is not None:
        summary.search_cache_hits, summary.search_cache_misses = backend.hits, backend.misses
    return summary
