"""``discobench build``: the whole chain, offline, on the bundled snapshot.

Each step is keyed by a fingerprint of its inputs and parameters (content hashes, not
timestamps) kept in ``WORKSPACE/build-state.json``; a re-run skips the steps whose
fingerprint and outputs are unchanged, so an interrupted build resumes where it stopped and
a changed input re-runs exactly the steps downstream of it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from builder.workspace import Workspace

if TYPE_CHECKING:
    from builder.evaluation import Metrics

REPO_ROOT = Path(__file__).resolve().parents[1]
BUNDLED_KB = REPO_ROOT / "seeds" / "kb"


class StepResult(BaseModel):
    name: str
    skipped: bool = Field(
        description="True when the fingerprint matched and every output was as the step left it."
    )
    summary: str = ""
    rerun_reason: str = Field(
        "", description="Why a step with an unchanged fingerprint ran again (an output missing…)."
    )


class BuildState(BaseModel):
    fingerprints: dict[str, str] = Field(default_factory=dict)
    outputs: dict[str, dict[str, str]] = Field(
        default_factory=dict, description="step → output path → sha256 when the step finished."
    )


def file_digest(paths: Iterable[Path]) -> str:
    """sha256 over the names and bytes of the files (streamed)."""
    h = hashlib.sha256()
    for path in sorted(paths):
        h.update(path.name.encode())
        with path.open("rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                h.update(chunk)
    return h.hexdigest()


def fingerprint(*parts: object) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


class BuildInterrupted(KeyboardInterrupt):
    """Ctrl-C during a step: which steps finished (kept) and which one was cut off."""

    def __init__(self, step: str, done: list[str], workspace: Path) -> None:
        super().__init__(step)
        self.step, self.done, self.workspace = step, done, workspace

    def explain(self) -> str:
        kept = ", ".join(self.done) if self.done else "nothing yet"
        return (
            f"interrupted during the {self.step} step. Kept in {self.workspace}: the finished "
            f"steps' outputs ({kept}). Run the same command again to resume from {self.step}."
        )


def _keep_aside(path: Path) -> Path:
    """Move a changed output out of the way (``NAME.changed-N``) so a re-run loses nothing."""
    n = 1
    while (aside := path.with_name(f"{path.name}.changed-{n}")).exists():
        n += 1
    path.replace(aside)
    return aside


class BuildRunner:
    """Runs named steps, skipping those whose fingerprint and outputs are unchanged."""

    def __init__(self, ws: Workspace, *, force: bool = False) -> None:
        self.ws = ws
        self.force = force
        self.path = ws.root / "build-state.json"
        self.state = (
            BuildState.model_validate_json(self.path.read_text())
            if self.path.exists()
            else BuildState()
        )
        self.results: list[StepResult] = []

    def step(
        self,
        name: str,
        key: str,
        outputs: list[Path],
        run: Callable[[], str],
        describe_skip: Callable[[], str] | None = None,
        verify: Callable[[], str | None] | None = None,
    ) -> StepResult:
        """Run ``run`` unless the fingerprint matches and the outputs are as it left them.

        Outputs are checked by content (sha256 recorded when the step finished), not by
        presence, and ``verify`` can add a deeper check (e.g. every file of an export).
        """
        reason = "" if self.force else self._stale(name, key, outputs, verify)
        if not self.force and reason is None:
            result = StepResult(
                name=name, skipped=True, summary=describe_skip() if describe_skip else ""
            )
        else:
            # Forget the old fingerprint first: a step cut off midway must re-run.
            self.state.fingerprints.pop(name, None)
            self.state.outputs.pop(name, None)
            self._save()
            try:
                summary = run()
            except KeyboardInterrupt:
                done = [r.name for r in self.results]
                raise BuildInterrupted(name, done, self.ws.root) from None
            self.state.fingerprints[name] = key
            self.state.outputs[name] = {str(p): file_digest([p]) for p in outputs}
            self._save()
            result = StepResult(
                name=name, skipped=False, summary=summary, rerun_reason=reason or ""
            )
        self.results.append(result)
        return result

    def _stale(
        self,
        name: str,
        key: str,
        outputs: list[Path],
        verify: Callable[[], str | None] | None,
    ) -> str | None:
        """Why the step must run again ("" for a first or changed-input run), None if fresh."""
        if self.state.fingerprints.get(name) != key:
            return ""
        recorded = self.state.outputs.get(name)
        if recorded is None:
            return "its outputs were not recorded by the earlier build"
        for path in outputs:
            if not path.is_file():
                return f"{path} is missing"
            if recorded.get(str(path)) != file_digest([path]):
                kept = _keep_aside(path)  # e.g. review decisions pulled into samples.jsonl
                return f"{path} was changed since the step wrote it (kept as {kept.name})"
        return verify() if verify is not None else None

    def _save(self) -> None:
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(self.state.model_dump_json(indent=2))
        tmp.replace(self.path)


class BuildOptions(BaseModel):
    """Parameters of ``discobench build``; each one is part of the fingerprints below it."""

    kb_dir: Path = Field(BUNDLED_KB, description="Snapshot folder (entities.json, pages.jsonl).")
    seed: int = 0
    n_seeds: int = 900
    keep_at_least: int = Field(
        400, description="Samples kept at least when approaching the paper's mix (0: all)."
    )
    hops: tuple[int, int] = (2, 4)
    export_dir: Path = Field(REPO_ROOT / "exports" / "discobench-bundled")
    run_eval: bool = True
    force: bool = False
    progress: bool = True


def _snapshot_files(kb_dir: Path) -> list[Path]:
    from builder.errors import InputError

    files = [kb_dir / "entities.json", kb_dir / "pages.jsonl"]
    for path in files:
        if not path.exists():
            raise InputError(
                "the snapshot folder lacks this file",
                path=path,
                hint="run `python seeds/kb/build.py` to regenerate the bundled snapshot",
            )
    # optional: snapshot.json (the importer records its id and version) and completeness.json
    # (the declarations the validity model certifies over; without it nothing is certified)
    extra = [kb_dir / "snapshot.json", kb_dir / "completeness.json"]
    return [*files, *(p for p in extra if p.exists())]


def step_import(runner: BuildRunner, opts: BuildOptions) -> None:
    """Import the snapshot into a fresh store (replacing an older one)."""
    from builder.kb.importers import import_paths
    from builder.kb.store import KnowledgeStore

    files = _snapshot_files(opts.kb_dir)
    key = fingerprint("import", file_digest(files))

    def run() -> str:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{runner.ws.kb_path}{suffix}").unlink(missing_ok=True)
        with KnowledgeStore.open(runner.ws.kb_path) as store:
            report = import_paths(store, files, progress=opts.progress)
        return f"{report.imported} entities, {report.pages} pages, {report.bad_count} bad"

    runner.step("import", key, [runner.ws.kb_path], run, lambda: "snapshot unchanged")


def step_seed(runner: BuildRunner, opts: BuildOptions) -> None:
    from builder.kb.store import KnowledgeStore
    from builder.samples_io import write_seeds
    from builder.seeding import generate_seeds

    ws = runner.ws
    key = fingerprint(
        "seed", runner.state.fingerprints.get("import"), opts.n_seeds, opts.hops, opts.seed
    )

    def run() -> str:
        with KnowledgeStore.open(ws.kb_path, read_only=True) as store:
            seeds = generate_seeds(
                store, n=opts.n_seeds, hops=opts.hops, seed=opts.seed, progress=opts.progress
            )
        write_seeds(ws.seeds_path, seeds)
        return f"{len(seeds)} seed chains"

    runner.step("seed", key, [ws.seeds_path], run, lambda: "seeds unchanged")


def step_inject(runner: BuildRunner, opts: BuildOptions) -> None:
    from builder.ambiguity import inject
    from builder.ambiguity.mix import MixTarget
    from builder.kb.store import KnowledgeStore
    from builder.samples_io import read_seeds, write_rejects, write_samples

    ws = runner.ws
    key = fingerprint(
        "inject",
        file_digest([ws.seeds_path]),
        runner.state.fingerprints.get("import"),
        opts.seed,
        opts.keep_at_least,
        "shorten",
    )

    def run() -> str:
        seeds = list(read_seeds(ws.seeds_path))
        mix = MixTarget(min_samples=opts.keep_at_least) if opts.keep_at_least else None
        with KnowledgeStore.open(ws.kb_path, read_only=True) as store:
            result = inject(
                store, seeds, seed=opts.seed, progress=opts.progress, mix=mix, shorten_chains=True
            )
        write_samples(ws.samples_path, result.samples)
        write_rejects(ws.rejects_path, result.rejects)
        return (
            f"{len(result.samples)} samples ({result.shortened} cut to the hops their "
            f"ambiguities need), {len(result.rejects)} rejects"
        )

    runner.step("inject", key, [ws.samples_path, ws.rejects_path], run, lambda: "samples unchanged")


def step_export(runner: BuildRunner, opts: BuildOptions) -> None:
    from builder.export import export_dataset
    from builder.export.folder import MARKER, verify_export

    ws = runner.ws
    key = fingerprint("export", file_digest([ws.samples_path]), str(opts.export_dir))

    def run() -> str:
        report = export_dataset(
            ws.samples_path,
            opts.export_dir,
            include_unreviewed=True,
            pretty_name="DiscoBench (bundled snapshot, unreviewed)",
        )
        return f"{report.rows['default']['test']} rows → {opts.export_dir}"

    runner.step(
        "export",
        key,
        [opts.export_dir / MARKER],
        run,
        lambda: "export unchanged",
        verify=lambda: verify_export(opts.export_dir),
    )


def step_eval(runner: BuildRunner, opts: BuildOptions) -> None:
    """Run the ``oracle:`` reference policies on the exported dataset; metrics JSON per run."""
    from builder.evaluation import load_dataset, run_baselines
    from builder.kb.store import KnowledgeStore

    ws = runner.ws
    metrics_path = ws.runs_dir / "baselines.json"
    key = fingerprint(
        "eval", runner.state.fingerprints.get("export"), runner.state.fingerprints.get("import")
    )

    def run() -> str:
        samples = load_dataset(opts.export_dir)
        with KnowledgeStore.open(ws.kb_path, read_only=True) as store:
            results = run_baselines(
                samples, store=store, out_dir=ws.runs_dir, progress=opts.progress
            )
        payload = {name: m.model_dump(mode="json") for name, m in results.items()}
        metrics_path.parent.mkdir(parents=True, exist_ok=True)
        metrics_path.write_text(json.dumps(payload, indent=2), encoding="utf-8")
        return f"{len(results)} oracle runs on {len(samples)} samples → {ws.runs_dir}"

    runner.step("eval", key, [metrics_path], run, lambda: "baseline metrics unchanged")


def baseline_metrics(ws: Workspace) -> dict[str, Metrics]:
    """The metrics of the last build's baseline runs (display name → metrics)."""
    from builder.evaluation import Metrics

    path = ws.runs_dir / "baselines.json"
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return {name: Metrics.model_validate(m) for name, m in data.items()}


def run_build(ws: Workspace, opts: BuildOptions) -> list[StepResult]:
    """Run every step of the offline build in order; return what each did."""
    runner = BuildRunner(ws, force=opts.force)
    step_import(runner, opts)
    step_seed(runner, opts)
    step_inject(runner, opts)
    step_export(runner, opts)
    if opts.run_eval:
        step_eval(runner, opts)
    return runner.results
