"""Reading datasets and trajectories, appending trajectories (one JSON line per episode)."""

from __future__ import annotations

import gc
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Required, cast

import pyarrow.parquet as pq
from pydantic import ConfigDict, TypeAdapter, ValidationError, with_config
from typing_extensions import TypedDict

from builder.errors import InputError
from builder.records.sample import Sample
from builder.records.trajectory import AnswerEvent, AskEvent, Trajectory
from builder.samples_io import line_error, read_jsonl, read_samples


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
# queries, replies and extra fields are never turned into Python objects, and each line
# becomes plain dicts (pydantic validates them in Rust; no model instance per event), which
# costs about what bare ``json.loads`` of the line does.


@with_config(ConfigDict(extra="ignore"))
class ScoreEvent(TypedDict, total=False):
    """Any event; ``answer`` is required on answer events and ``question`` on asks (checked
    by :func:`read_for_scoring`, which names the line). ``target`` absent ≠ ``null``."""

    type: Required[str]
    question: str | None
    target: int | None
    answer: str | None
    checkpoints: dict[str, str] | None


@with_config(ConfigDict(extra="allow"))
class ScoreRun(TypedDict, total=False):
    """:class:`RunInfo` as read (absent fields take RunInfo's defaults when used)."""

    agent: str
    setting: str
    ablation: str


@with_config(ConfigDict(extra="ignore"))
class ScoreUsage(TypedDict, total=False):
    input_tokens: int
    output_tokens: int


@with_config(ConfigDict(extra="ignore"))
class ScoreTrajectory(TypedDict, total=False):
    """A trajectory line as the scorer reads it (same field rules as :class:`Trajectory`
    for every field a metric uses; absent fields mean what Trajectory's defaults say)."""

    sample_id: Required[str]
    run: ScoreRun
    events: list[ScoreEvent]
    usage: ScoreUsage
    error: str | None


def score_view(traj: Trajectory) -> ScoreTrajectory:
    """A full record as :func:`read_for_scoring` returns lines: what the metrics read."""
    events: list[ScoreEvent] = []
    for ev in traj.events:
        if isinstance(ev, AskEvent):
            ask: ScoreEvent = {"type": ev.type, "question": ev.question}
            if ev.has_target:
                ask["target"] = ev.target
            events.append(ask)
        elif isinstance(ev, AnswerEvent):
            events.append({"type": ev.type, "answer": ev.answer, "checkpoints": ev.checkpoints})
        else:
            events.append({"type": ev.type})
    return {
        "sample_id": traj.sample_id,
        "run": cast(ScoreRun, traj.run.model_dump()),
        "events": events,
        "usage": {
            "input_tokens": traj.usage.input_tokens,
            "output_tokens": traj.usage.output_tokens,
        },
        "error": traj.error,
    }


def _as_full(raw: str) -> Trajectory | None:
    """The line as a full record, when it is one although the scorer's view refused it
    (a field of that name with another type on an event where the metrics ignore it)."""
    try:
        return Trajectory.model_validate_json(raw)
    except ValidationError:
        return None


_SCORE_LINE = TypeAdapter(ScoreTrajectory)
_REQUIRED = {"answer": "answer", "ask": "question"}


def read_for_scoring(path: Path | str) -> list[ScoreTrajectory]:
    """Every line of a trajectories file, validated as the scorer needs (file:line errors
    like :func:`read_trajectories`)."""
    p = Path(path)
    if not p.exists():
        raise InputError(
            "no such trajectory file",
            path=p,
            hint="check the path, or create the file with the stage that writes it",
        )
    validate = _SCORE_LINE.validate_json
    out: list[ScoreTrajectory] = []
    with gc_paused(), p.open(encoding="utf-8") as fh:
        for lineno, raw in enumerate(fh, start=1):
            if raw.isspace():
                continue
            try:
                line = validate(raw)
            except ValidationError as exc:
                full = _as_full(raw)
                if full is None:
                    raise line_error(
                        exc, p, lineno, what="trajectory", record="Trajectory"
                    ) from None
                line = score_view(full)
            for pos, ev in enumerate(line.get("events", ())):
                need = _REQUIRED.get(ev["type"])
                if need is not None and ev.get(need) is None:
                    raise InputError(
                        f"invalid trajectory: Field required ({ev['type']} event without {need!r})",
                        path=p,
                        line=lineno,
                        field=f"events[{pos}].{need}",
                        hint="fix that event so it matches the Trajectory record "
                        "(see `discobench schema`)",
                    )
            out.append(line)
    return out
