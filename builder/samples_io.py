"""Reading and writing the JSONL files of the samples stage: samples, seeds and rejects.

Each file holds one record per line (``model_dump_json()``); blank lines are skipped. Reading
errors name the file, the line and the pydantic field path, and say how to fix it. Writing is
atomic: a temporary file next to the target is renamed over it, so a crash never leaves half
a file behind.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from builder.errors import InputError
from builder.files import give_default_mode
from builder.records.sample import Sample
from builder.records.seed import Reject, SeedChain

__all__ = [
    "Reject",
    "line_error",
    "read_jsonl",
    "read_rejects",
    "read_samples",
    "read_seeds",
    "write_jsonl",
    "write_rejects",
    "write_samples",
    "write_seeds",
]

R = TypeVar("R", bound=BaseModel)


def _field_path(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def read_jsonl(path: Path | str, model: type[R], *, what: str) -> Iterator[R]:
    """Yield one ``model`` per non-blank line of ``path``.

    Each line is parsed and validated in one step (``model_validate_json``, much faster than
    ``json.loads`` + ``model_validate``). Raises :class:`InputError` naming ``file:line`` and
    the field path of the first problem.
    """
    p = Path(path)
    if not p.exists():
        raise InputError(
            f"no such {what} file",
            path=p,
            hint="check the path, or create the file with the stage that writes it",
        )
    with p.open(encoding="utf-8") as fh:
        for lineno, raw in enumerate(fh, start=1):
            line = raw.strip()
            if not line:
                continue
            try:
                yield model.model_validate_json(line)
            except ValidationError as exc:
                raise line_error(exc, p, lineno, what=what, record=model.__name__) from None


def line_error(
    exc: ValidationError, path: Path, lineno: int, *, what: str, record: str
) -> InputError:
    """The :class:`InputError` for a JSONL line that failed validation as ``record``."""
    err = exc.errors()[0]
    if err["type"] == "json_invalid":
        return InputError(
            f"not valid JSON ({err['msg']})",
            path=path,
            line=lineno,
            hint=f"each line must be one JSON object (a {what} record)",
        )
    field = _field_path(tuple(err["loc"]))
    more = f" (+{exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    return InputError(
        f"invalid {what}: {err['msg']}{more}",
        path=path,
        line=lineno,
        field=field or None,
        hint=f"fix field {field!r} on that line so it matches the {record} record "
        f"(see `discobench schema`)",
    )


def write_jsonl(path: Path | str, records: Iterable[BaseModel]) -> int:
    """Write records atomically (temp file + rename); returns the number written."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    count = 0
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            for rec in records:
                fh.write(rec.model_dump_json())
                fh.write("\n")
                count += 1
        give_default_mode(tmp)  # mkstemp makes it 0600; outputs get the user's usual mode
        os.replace(tmp, p)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return count


def read_samples(path: Path | str) -> Iterator[Sample]:
    """Samples JSONL (one ``Sample`` per line)."""
    return read_jsonl(path, Sample, what="sample")


def write_samples(path: Path | str, samples: Iterable[Sample]) -> int:
    return write_jsonl(path, samples)


def read_seeds(path: Path | str) -> Iterator[SeedChain]:
    """Seed chains JSONL (one ``SeedChain`` per line)."""
    return read_jsonl(path, SeedChain, what="seed chain")


def write_seeds(path: Path | str, seeds: Iterable[SeedChain]) -> int:
    return write_jsonl(path, seeds)


def read_rejects(path: Path | str) -> Iterator[Reject]:
    return read_jsonl(path, Reject, what="reject")


def write_rejects(path: Path | str, rejects: Iterable[Reject]) -> int:
    return write_jsonl(path, rejects)
