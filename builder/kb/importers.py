"""``discobench kb import``: load entity and page files into the snapshot store.

Files and folders (walked recursively, sorted, so imports are deterministic) are read record
by record (:mod:`builder.kb.readers`); entities go to the store in batches, so memory stays
flat however big a dump is. A bad record is recorded with file, line and reason and skipped;
files holding no entities are recorded as skipped. Re-importing an entity replaces it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import ExitStack
from pathlib import Path

from rich.progress import (
    BarColumn,
    DownloadColumn,
    Progress,
    TextColumn,
    TimeRemainingColumn,
)

from builder.errors import InputError
from builder.kb.readers import FileSkipped, Record, is_importable, read_records
from builder.kb.rows import EntityRows, entity_rows
from builder.kb.store import KnowledgeStore
from builder.kb.text import normalize_name
from builder.progress import LogProgress
from builder.records.kb import BadRecord, ImportReport, SkippedFile
from builder.records.page import Page

BULK_BYTES = 64 * 1024 * 1024  # inputs this big use the store's bulk mode
MAX_DETAILS = 10_000  # bad/skipped details kept in the report (counts stay exact)


def collect_files(paths: Sequence[Path]) -> tuple[list[Path], list[SkippedFile]]:
    """Files to read (folders walked recursively, sorted) and files skipped by name."""
    files: list[Path] = []
    skipped: list[SkippedFile] = []
    for path in paths:
        if not path.exists():
            raise InputError("no such file or folder", path=path, hint="check the path")
        candidates = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
        for file in candidates:
            if file.name.startswith("."):
                continue
            if is_importable(file):
                files.append(file)
            else:
                reason = "not a .json/.jsonl file (optionally .gz/.bz2)"
                skipped.append(SkippedFile(path=file, reason=reason))
    return files, skipped


def import_paths(
    store: KnowledgeStore,
    paths: Sequence[Path],
    *,
    strict: bool = False,
    progress: bool = True,
) -> ImportReport:
    """Import every entity and page file under ``paths`` into ``store``.

    ``strict``: the first bad record raises :class:`InputError` and nothing is written (a
    first pass reads every file before the store is touched). Otherwise bad records are
    reported and skipped.
    """
    files, skipped = collect_files([Path(p) for p in paths])
    if strict:
        _check_strict(files)
    report = ImportReport(skipped_files=skipped)
    total_bytes = sum(f.stat().st_size for f in files)
    bulk = total_bytes >= BULK_BYTES or not store.has_any_entity()
    with ExitStack() as stack:
        if bulk:
            stack.enter_context(store.bulk())
        bar = stack.enter_context(_progress(progress and total_bytes > 0))
        task = bar.add_task("import", total=total_bytes)
        done = 0
        for file in files:
            bar.update(task, description=file.name)

            def advance(position: int, base: int = done) -> None:
                bar.update(task, completed=base + position)

            _import_file(store, file, report, strict, advance)
            done += file.stat().st_size
            bar.update(task, completed=done)
            report.files += 1
    return report


def _check_strict(files: Sequence[Path]) -> None:
    """The strict pre-pass: raise at the first bad record before anything is imported."""
    for path in files:
        try:
            for record in read_records(path):
                if record.bad is not None:
                    _note(record, ImportReport(), strict=True)
        except FileSkipped:
            continue
        except (OSError, EOFError, UnicodeDecodeError) as exc:
            raise InputError(f"cannot read the file: {exc}", path=path) from exc


def _progress(enabled: bool) -> Progress:
    return LogProgress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        DownloadColumn(),
        TimeRemainingColumn(),
        disable=not enabled,
        transient=True,
    )


def _import_file(
    store: KnowledgeStore,
    path: Path,
    report: ImportReport,
    strict: bool,
    progress: Callable[[int], None] | None = None,
) -> None:
    entities: list[EntityRows] = []
    pages: list[Page] = []
    try:
        for record in read_records(path, progress):
            if record.doc is not None:
                if record.warning:
                    report.warnings.append(BadRecord(path=path, line=None, reason=record.warning))
                entities.append(
                    entity_rows(record.doc, store.languages, normalize_name, record.text)
                )
                if len(entities) >= store.batch_size:
                    _flush(store, entities, report)
            elif record.declarations is not None:
                report.declarations += store.upsert_declarations(record.declarations)
            elif record.meta is not None:
                for key, value in record.meta.items():
                    store.set_meta(key, value)
                report.snapshot_meta.update(record.meta)
            elif record.page is not None:
                pages.append(record.page)
                if len(pages) >= store.batch_size:
                    report.pages += store.upsert_pages(pages)
                    pages.clear()
            else:
                _note(record, report, strict)
    except FileSkipped as exc:
        report.skipped_files.append(SkippedFile(path=path, reason=str(exc)))
    except (OSError, EOFError, UnicodeDecodeError) as exc:
        reason = f"cannot read the file: {exc}"
        if strict:
            raise InputError(reason, path=path) from exc
        report.bad_count += 1
        report.bad_records.append(BadRecord(path=path, line=None, reason=reason))
    finally:
        _flush(store, entities, report)
        if pages:
            report.pages += store.upsert_pages(pages)


def _flush(store: KnowledgeStore, entities: list[EntityRows], report: ImportReport) -> None:
    if entities:
        counts = store.upsert_rows(entities)
        report.imported += counts.inserted
        report.replaced += counts.replaced
        entities.clear()


def _note(record: Record, report: ImportReport, strict: bool) -> None:
    detail = BadRecord(path=record.path, line=record.line, reason=record.bad or record.skip or "")
    if record.bad is not None:
        if strict:
            raise InputError(
                record.bad,
                path=record.path,
                line=record.line,
                hint="fix the record or drop --strict",
            )
        report.bad_count += 1
        if len(report.bad_records) < MAX_DETAILS:
            report.bad_records.append(detail)
    else:
        report.skipped_records += 1
        if len(report.skipped) < MAX_DETAILS:
            report.skipped.append(detail)
