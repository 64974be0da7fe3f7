"""The export folder: a marker of what the export wrote, refusal of foreign files, atomic swap.

An export writes into a new folder, or into one it wrote before, recognised by the marker
file :data:`MARKER` that lists every file it wrote with its sha256. It is written aside (a
hidden sibling folder), then swapped in with two renames, so a reader never sees half an
export and an interrupted export leaves the previous one intact. A folder holding files the
export did not write is refused unless ``force`` is given; then those files are carried over
into the new folder, never deleted.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pydantic import BaseModel, Field, ValidationError

from builder import __version__
from builder.errors import InputError

MARKER = ".discobench-export.json"
TOOL = "discobench-builder"


class ExportMarker(BaseModel):
    """What an export wrote into its folder (the marker file's content)."""

    tool: str = Field(TOOL, description="Always discobench-builder.")
    version: str = Field(__version__, description="The builder version that wrote the folder.")
    files: dict[str, str] = Field(description="Relative path → sha256 of every file written.")


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _files(folder: Path) -> list[str]:
    return sorted(
        p.relative_to(folder).as_posix()
        for p in folder.rglob("*")
        if (p.is_file() or p.is_symlink()) and p.name != MARKER
    )


def read_marker(folder: Path) -> ExportMarker | None:
    path = folder / MARKER
    if not path.is_file():
        return None
    try:
        marker = ExportMarker.model_validate_json(path.read_text(encoding="utf-8"))
    except (ValidationError, ValueError, OSError):
        return None
    return marker if marker.tool == TOOL else None


def _legacy_export(folder: Path, files: list[str]) -> bool:
    """A folder written by a builder from before the marker: our layout and our card."""
    layout = all(
        f == "README.md"
        or (f.split("/")[0] in ("default", "unambiguous") and f.endswith("-00000-of-00001.parquet"))
        for f in files
    )
    card = folder / "README.md"
    return layout and card.is_file() and "Built with discobench-builder" in card.read_text("utf-8")


def foreign_files(folder: Path) -> list[str]:
    """Files in ``folder`` that no export wrote (empty for a new or an export-owned folder)."""
    if not folder.exists():
        return []
    files = _files(folder)
    marker = read_marker(folder)
    if marker is None:
        return [] if files and _legacy_export(folder, files) else files
    return [f for f in files if f not in marker.files]


def check_target(out: Path, *, force: bool = False) -> list[str]:
    """Refuse a target that is a file, or holds files the export did not write (unless force).

    Returns the foreign files that ``force`` lets through (they are kept).
    """
    if out.exists() and not out.is_dir():
        raise InputError(
            "the export target exists and is not a folder",
            path=out,
            hint="give --out a folder path (new, or one written by export)",
        )
    foreign = foreign_files(out)
    if foreign and not force:
        shown = ", ".join(foreign[:5]) + (
            f" and {len(foreign) - 5} more" if len(foreign) > 5 else ""
        )
        raise InputError(
            f"the folder holds {len(foreign)} file(s) that export did not write ({shown}); "
            "exporting there would replace or hide them",
            path=out,
            hint="choose a new folder (export --out, build --export-dir), or move those files "
            "away, or pass `discobench export --force` to write anyway (the files export did "
            "not write are kept; README.md is replaced)",
        )
    return foreign


def verify_export(out: Path) -> str | None:
    """Why the export in ``out`` is not intact (a file missing or changed), or None if it is."""
    marker = read_marker(out)
    if marker is None:
        return f"no export marker ({MARKER}) in {out}"
    for rel, digest in marker.files.items():
        path = out / rel
        if not path.is_file():
            return f"{rel} is missing"
        if sha256_file(path) != digest:
            return f"{rel} was changed"
    return None


@contextmanager
def staged_export(out: Path, *, force: bool = False) -> Iterator[Path]:
    """Yield a hidden sibling folder to write into; on success swap it in as ``out``.

    Files written into the staged folder are recorded in the marker. On any error (or
    Ctrl-C) the staged folder is removed and ``out`` is left as it was.
    """
    foreign = check_target(out, force=force)
    out.parent.mkdir(parents=True, exist_ok=True)
    stage = out.parent / f".{out.name}.partial-{os.getpid()}"
    shutil.rmtree(stage, ignore_errors=True)
    stage.mkdir()
    try:
        yield stage
        written = {rel: sha256_file(stage / rel) for rel in _files(stage)}
        for rel in foreign:  # --force: keep what export did not write
            if rel not in written:
                (stage / rel).parent.mkdir(parents=True, exist_ok=True)
                os.replace(out / rel, stage / rel)
        marker = ExportMarker(files=written)
        (stage / MARKER).write_text(marker.model_dump_json(indent=2) + "\n", encoding="utf-8")
        _swap(stage, out)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise


def _swap(stage: Path, out: Path) -> None:
    if not out.exists():
        os.replace(stage, out)
        return
    old = out.parent / f".{out.name}.old-{os.getpid()}"
    shutil.rmtree(old, ignore_errors=True)
    os.replace(out, old)
    try:
        os.replace(stage, out)
    except BaseException:
        os.replace(old, out)
        raise
    shutil.rmtree(old, ignore_errors=True)
