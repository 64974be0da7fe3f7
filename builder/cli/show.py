"""``discobench show SAMPLE_ID``: one sample rendered for reading (builders and reviewers).

The question, the unambiguous question, then each hop: its sub-question (and, at an ambiguous
hop, the sub-question as the unambiguous question asks it) and answer, the ambiguity with its
candidates and the user's clue, and why the hop is unique (the checkpoint's certificate in
plain words, or "not certified").
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Annotated

import typer

from builder.ambiguity.plan import read_plan
from builder.cli.common import workspace_from
from builder.errors import InputError
from builder.records.sample import Certificate, Checkpoint, Sample
from builder.samples_io import read_samples

WIDTH = 92
LABEL = 14  # width of the label column

_BASIS = {
    "single_value": "{source} has a single value per subject",
    "complete_set": "the set {source} is declared complete",
    "live_count": "counted over all of Wikidata ({source})",
}


def certificate_text(cert: Certificate) -> str:
    """Why the hop is unique, in plain words: the lead's explanation when there is one, else a
    sentence from the certificate's fields, else ``not certified``."""
    if cert.explanation.strip():
        return cert.explanation.strip()
    if not cert.basis:
        return "not certified"
    source = cert.source or "the description"
    parts = [_BASIS[cert.basis].format(source=source).capitalize()]
    if cert.as_of:
        parts[0] += f" (as of {cert.as_of})"
    if cert.universe:
        n = len(cert.universe)
        fit = len(cert.matches)
        members = "member" if n == 1 else "members"
        parts.append(f"of {n} {members}, {fit} {'fits' if fit == 1 else 'fit'}")
    if cert.clue_matches:
        parts.append(f"with the clue, {len(cert.clue_matches)} left")
    return "; ".join(parts) + "."


def _line(label: str, text: str, indent: int = 0) -> str:
    lead = " " * indent + f"{label}:".ljust(LABEL)
    return textwrap.fill(
        text or "-", WIDTH, initial_indent=lead, subsequent_indent=" " * (indent + LABEL)
    )


def _hop(cp: Checkpoint) -> list[str]:
    out = [f"Hop {cp.index}" + (f"  [{cp.ambiguity_type}]" if cp.ambiguous else "")]
    out.append(_line("asks", cp.goal, 2))
    if cp.unambiguous_goal:
        out.append(_line("unambiguous", cp.unambiguous_goal, 2))
    aliases = f" (also {', '.join(cp.answer_aliases)})" if cp.answer_aliases else ""
    out.append(_line("answer", cp.answer + aliases, 2))
    if cp.ambiguous:
        out.append(_line("ambiguity", cp.ambiguity_note or cp.ambiguity_type, 2))
        for c in cp.candidates:
            mark = "target" if c.id == cp.entity_id or c.label == cp.answer else ""
            then = f"final answer {c.downstream_answer}" if c.downstream_answer else "chain stops"
            text = f"{c.label} -> {then}" + (f"  ({mark})" if mark else "")
            out.append(_line("candidate", text, 2))
        out.append(_line("clue", f'"{cp.clue}"', 2))
    out.append(_line("unique", certificate_text(cp.certificate), 2))
    for ev in cp.evidence[:1]:
        out.append(_line("evidence", f"{ev.title}: {ev.snippet}", 2))
    return out


def render_sample(sample: Sample) -> str:
    """The sample as plain text for reading."""
    head = (
        f"{sample.id}  {sample.domain}, {sample.difficulty}, "
        f"{sample.num_ambiguities} ambigu{'ity' if sample.num_ambiguities == 1 else 'ities'}"
    )
    lines = [head, ""]
    lines.append(_line("question", sample.question))
    lines.append(_line("unambiguous", sample.unambiguous_question))
    aliases = f" (also {', '.join(sample.answer_aliases)})" if sample.answer_aliases else ""
    lines.append(_line("answer", sample.answer + aliases))
    info = read_plan(sample)
    if info is not None and info.paraphrase_model:
        lines.append(_line("paraphrased", f"by {info.paraphrase_model}"))
    for cp in sample.checkpoints:
        lines += ["", *_hop(cp)]
    return "\n".join(lines)


def find_sample(path: Path, sample_id: str) -> Sample:
    if not path.exists():
        raise InputError("no samples file here", path=path, hint="run `discobench build` first")
    for sample in read_samples(path):
        if sample.id == sample_id:
            return sample
    raise InputError(
        f"no sample {sample_id!r} in this file", path=path, hint="ids look like disco-000042"
    )


def show_cmd(
    ctx: typer.Context,
    sample_id: Annotated[str, typer.Argument(help="Sample id, e.g. disco-000042.")],
    samples: Annotated[
        Path | None, typer.Option(help="Samples JSONL (default: the workspace's).")
    ] = None,
) -> None:
    """Show one sample for reading: questions, hops, ambiguities, clues and certificates."""
    path = samples or workspace_from(ctx).samples_path
    typer.echo(render_sample(find_sample(path, sample_id)))


def register(app: typer.Typer) -> None:
    app.command("show")(show_cmd)
