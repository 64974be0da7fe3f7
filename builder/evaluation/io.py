"""Reading datasets and trajectories, appending trajectories (one JSON line per episode)."""

from __future__ import annotations

import gc
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from builder.errors import InputError
from builder.records.sample import Sample
from builder.records.trajectory import RunInfo, Trajectory
from builder.samples_io import read_jsonl, read_samples


def _field(exc: ValidationError) -> str:
    loc = exc.errors()[0]["loc"]
    return ".".join(str(p) for p in loc)


def _parquet_files(folder: Path) -> list[Path]:
    """An export folder: the ``default`` config's files (every split), else every file."""
    default = folder / "default"
    files = sorted(default.rglob("*.parquet")) if default.is_dir() else []
    return files or sorted(folder.rglob("*.parquet"))


def _read_parquet(path: Path) -> Iterator[Sample]:
    for row_no, row in enumerate(pq.read_table(path).to_pylist(), start=1):
        try:
            yield Sample.model_validate(row)
        except ValidationError as exc:
            raise InputError(
                f"row {row_no} is not a Sample: {exc.errors()[0]['msg']}",
                path=path,
                field=_field(exc),
                hint="pass a folder written by `discobench export`, or a samples JSONL",
            ) from None


def load_dataset(path: Path | str) -> list[Sample]:
    """Samples from an export folder, a Parquet file or a samples JSONL (ids must be unique)."""
    p = Path(path)
    if p.is_dir():
        files = _parquet_files(p)
        if not files:
            raise InputError(
                "no Parquet files in this folder", path=p, hint="run `discobench export` first"
            )
        samples = [s for f in files for s in _read_parquet(f)]
    elif p.suffix == ".parquet":
        if not p.exists():
            raise InputError("no such Parquet file", path=p)
        samples = list(_read_parquet(p))
    else:
        samples = list(read_samples(p))
    seen: set[str] = set()
    for s in samples:
        if s.id in seen:
            raise InputError(
                f"sample id {s.id} appears twice",
                path=p,
                field="id",
                hint="a dataset must hold each sample once (for an export folder, point at "
                "one config, e.g. EXPORT/default)",
            )
        seen.add(s.id)
    if not samples:
        raise InputError("the dataset holds no samples", path=p)
    return samples


def load_dataset_bulk(path: Path | str) -> list[Sample]:
    """:func:`load_dataset` with the garbage collector paused (big datasets)."""
    with gc_paused():
        return load_dataset(path)


def iter_trajectories(path: Path | str) -> Iterator[Trajectory]:
    """Trajectories in file order; a bad line is an error naming file:line and field."""
    return read_jsonl(path, Trajectory, what="trajectory")


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while building many acyclic records: with 100k
    trajectories in memory, repeated full collections otherwise take ~80% of the time."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def read_trajectories(path: Path | str) -> list[Trajectory]:
    """All trajectories of a file (see :func:`iter_trajectories`), loaded in bulk."""
    with gc_paused():
        return list(iter_trajectories(path))


def read_done(path: Path, run: dict[str, Any], *, retry_errors: bool = True) -> set[str]:
    """Sample ids already in ``path`` for this run (resume); a torn last line is ignored."""
    if not path.exists():
        return set()
    done: dict[str, bool] = {}
    with path.open(encoding="utf-8") as fh:
        for raw in fh:
            try:
                data = json.loads(raw)
            except json.JSONDecodeError:
                continue  # an interrupted write; the sample runs again
            if not isinstance(data, dict) or data.get("run") != run or "sample_id" not in data:
                continue
            done[str(data["sample_id"])] = data.get("error") is None
    return {sid for sid, ok in done.items() if ok or not retry_errors}


class TrajectoryWriter:
    """Appends one line per finished episode, flushed, from any thread."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._repair_tail(path)
        self._fh = path.open("a", encoding="utf-8")
        self._lock = threading.Lock()

    @staticmethod
    def _repair_tail(path: Path) -> None:
        """Drop a torn last line (crash mid-write); that sample simply runs again."""
        if not path.exists() or not path.stat().st_size:
            return
        data = path.read_bytes()
        if data.endswith(b"\n"):
            return
        with path.open("r+b") as fh:
            fh.truncate(data.rfind(b"\n") + 1)

    def write(self, traj: Trajectory) -> None:
        line = traj.model_dump_json(exclude_none=False) + "\n"
        with self._lock:
            self._fh.write(line)
            self._fh.flush()

    def close(self) -> None:
        self._fh.close()


# --- the scorer's view of a trajectory ---------------------------------------------------
# ``eval score`` validates what the metrics read and skips the rest: search results,
# queries, replies and extra fields are never turned into Python objects, which is most of
# the cost of loading a big file (pydantic parses them in Rust and drops them).


class _Slim(BaseModel):
    model_config = ConfigDict(extra="ignore")


class ScoreEvent(_Slim):
    """Any event; ``answer`` is required on answer events and ``question`` on asks (checked
    by :func:`read_for_scoring`, which names the line)."""

    type: str
    question: str | None = None
    target: int | None = None
    answer: str | None = None
    checkpoints: dict[str, str] | None = None

    @property
    def has_target(self) -> bool:
        return "target" in self.model_fields_set


_REQUIRED = {"answer": "answer", "ask": "question"}


class ScoreUsage(_Slim):
    input_tokens: int = 0
    output_tokens: int = 0


class ScoreTrajectory(_Slim):
    """A trajectory line as the scorer reads it (same field rules as :class:`Trajectory`
    for every field a metric uses)."""

    sample_id: str
    run: RunInfo = Field(default_factory=RunInfo)
    events: list[ScoreEvent] = Field(default_factory=list)
    usage: ScoreUsage = Field(default_factory=ScoreUsage)
    error: str | None = None


def read_for_scoring(path: Path | str) -> list[ScoreTrajectory]:
    """Every line of a trajectories file, validated as the scorer needs (file:line errors
    like :func:`read_trajectories`)."""
    with gc_paused():
        lines = list(read_jsonl(path, ScoreTrajectory, what="trajectory"))
    for lineno, traj in enumerate(lines, start=1):
        for pos, ev in enumerate(traj.events):
            need = _REQUIRED.get(ev.type)
            if need is not None and getattr(ev, need) is None:
                raise InputError(
                    f"invalid trajectory: Field required ({ev.type} event without {need!r})",
                    path=Path(path),
                    line=_line_of(Path(path), lineno),
                    field=f"events[{pos}].{need}",
                    hint="fix that event so it matches the Trajectory record "
                    "(see `discobench schema`)",
                )
    return lines


def _line_of(path: Path, nth: int) -> int:
    """The file line of the ``nth`` non-blank line (errors only)."""
    with path.open(encoding="utf-8") as fh:
        seen = 0
        for lineno, raw in enumerate(fh, start=1):
            seen += bool(raw.strip())
            if seen == nth:
                return lineno
    return nth
