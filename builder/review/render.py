"""What a reviewer reads: samples, certificates and check reports as plain-worded HTML.

Everything here is information only: nothing is pre-filled in the form. Check details are
put in words (the raw numbers stay available, greyed, for the curious), certificates say in
a sentence why a hop has exactly the answers it claims, or plainly that the machine could
not certify it, and the vague question is shown against the unambiguous one with the words
that differ highlighted.
"""

from __future__ import annotations

import difflib
import html
import re
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from string import Template
from typing import Protocol

from builder.records.sample import Certificate, Checkpoint, Sample

TEMPLATES = Path(__file__).parent / "templates"


class CheckResultLike(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def passed(self) -> bool: ...
    @property
    def detail(self) -> str: ...


class CheckReportLike(Protocol):
    """The shape of ``builder.ambiguity.checks.CheckReport``."""

    @property
    def passed(self) -> bool: ...
    @property
    def results(self) -> Sequence[CheckResultLike]: ...


@cache
def _template(name: str) -> Template:
    return Template((TEMPLATES / name).read_text(encoding="utf-8"))


def e(text: object) -> str:
    return html.escape(str(text), quote=True)


# -- certificates ------------------------------------------------------------------------

_BASIS_WORDS = {
    "single_value": "the property {source} has a single value per subject",
    "complete_set": "the set {source} is declared complete",
    "live_count": "a count over all of Wikidata ({source})",
}


def certificate_text(cert: Certificate, labels: dict[str, str] | None = None) -> str:
    """The certificate in plain words (its own explanation when it has one)."""
    if cert.explanation.strip():
        return cert.explanation.strip()
    if not cert.basis:
        return (
            "The machine could not certify this hop: nothing shows that its description has "
            "exactly this answer in the real world. You decide whether it is unique."
        )
    names = labels or {}

    def named(ids: Sequence[str]) -> str:
        return ", ".join(names.get(i, i) for i in ids) or "none"

    basis = _BASIS_WORDS[cert.basis].format(source=cert.source or "?")
    as_of = f" as of {cert.as_of}" if cert.as_of else ""
    text = (
        f"Certified because {basis}{as_of}: of {len(cert.universe)} known member(s), "
        f"{len(cert.matches)} fit the description ({named(cert.matches)})"
    )
    if cert.clue_matches:
        text += f"; with the clue, {named(cert.clue_matches)}"
    return text + "."


def _labels(cp: Checkpoint) -> dict[str, str]:
    out = {c.id: c.label for c in cp.candidates}
    if cp.entity_id:
        out.setdefault(cp.entity_id, cp.answer)
    return out


# -- checkpoints -------------------------------------------------------------------------


def checkpoint_html(cp: Checkpoint) -> str:
    """One checkpoint's block: goal, answer, candidates, clue, evidence and certificate."""
    candidates = "".join(
        f"<li>{e(c.label)} &rarr; final answer {e(c.downstream_answer or 'cannot be followed')}"
        "</li>"
        for c in cp.candidates
    )
    evidence = "".join(
        (
            f'<li><a href="{e(ev.url)}" target="_blank" rel="noopener">{e(ev.title)}</a>: '
            if ev.url.startswith(("http://", "https://"))
            else f"<li><b>{e(ev.title)}</b> <i>(no link)</i>: "
        )
        + f"{e(ev.snippet)}</li>"
        for ev in cp.evidence
    )
    aliases = f" <i>(also: {e(', '.join(cp.answer_aliases))})</i>" if cp.answer_aliases else ""
    note = f"<div><b>What is vague:</b> {e(cp.ambiguity_note)}</div>" if cp.ambiguity_note else ""
    certified = "db-cert" if cp.certificate.basis else "db-cert db-uncertified"
    return _template("checkpoint.html").substitute(
        index=cp.index,
        ambi_class="db-ambi" if cp.ambiguous else "db-unambi",
        ambi_label="Ambiguous" if cp.ambiguous else "Unambiguous",
        ambiguity_type=f" ({e(cp.ambiguity_type)})" if cp.ambiguity_type else "",
        goal=e(cp.goal),
        answer=e(cp.answer),
        aliases=aliases,
        note=note,
        candidates=f"<ul>{candidates}</ul>" if candidates else "none (unambiguous hop)",
        clue=e(cp.clue) if cp.clue else "none",
        evidence=evidence or "<li>none</li>",
        cert_class=certified,
        certificate=e(certificate_text(cp.certificate, _labels(cp))),
    )


def checkpoints_html(sample: Sample) -> str:
    return "\n".join(checkpoint_html(cp) for cp in sample.checkpoints)


# -- the vague and the unambiguous question ----------------------------------------------


def question_diff_html(vague: str, unambiguous: str) -> str:
    """Both questions, word by word, with what the vague one lost or changed highlighted."""
    a, b = vague.split(), unambiguous.split()
    left: list[str] = []
    right: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        old, new = " ".join(a[i1:i2]), " ".join(b[j1:j2])
        if op == "equal":
            left.append(e(old))
            right.append(e(new))
            continue
        if old:
            left.append(f'<mark class="db-vague">{e(old)}</mark>')
        if new:
            right.append(f'<mark class="db-restored">{e(new)}</mark>')
    return (
        '<div class="db-diff">'
        f"<div><b>Vague (what the user asks):</b> {' '.join(left)}</div>"
        f"<div><b>Unambiguous (every constraint restored):</b> {' '.join(right)}</div>"
        "<div><i>Highlighted: the words that differ.</i></div></div>"
    )


# -- automatic checks, in words ----------------------------------------------------------

_CHECK_WORDS: dict[str, tuple[str, str]] = {
    "unique": (
        "In the knowledge snapshot, every hop has exactly one answer.",
        "In the knowledge snapshot, a hop does not have exactly one answer.",
    ),
    "ambiguous": (
        "Every ambiguous hop really fits more than one candidate.",
        "An 'ambiguous' hop does not fit several candidates.",
    ),
    "solvable": (
        "Every clue narrows its hop down to the right answer.",
        "A clue does not narrow its hop down to the right answer.",
    ),
    "consequential": (
        "Choosing a wrong candidate changes the final answer.",
        "A wrong candidate would lead to the same final answer.",
    ),
    "no_leakage": (
        "No answer is given away in the question or the clues.",
        "An answer is given away in the question or a clue.",
    ),
    "retrievable": (
        "Every hop's evidence is found by a search.",
        "A hop's evidence is not found by a search.",
    ),
}

_DETAIL_WORDS: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]] = [
    (
        re.compile(r"hop (\d+): (\d+) -> (\d+)( \(edited clue\))?"),
        lambda m: (
            f"checkpoint {m[1]}: {m[2]} candidate(s) fit the vague wording, "
            f"{m[3]} remain with the clue{' (clue edited by a reviewer)' if m[4] else ''}"
        ),
    ),
    (
        re.compile(r"hop (\d+): rank (>?\d+)"),
        lambda m: (
            f"checkpoint {m[1]}: evidence found at search rank {m[2]}"
            if not m[2].startswith(">")
            else f"checkpoint {m[1]}: evidence not in the top {m[2][1:]} search results"
        ),
    ),
    (
        re.compile(r"hop (\d+): (\d+)/(\d+) wrong candidates change it"),
        lambda m: f"checkpoint {m[1]}: {m[2]} of {m[3]} wrong candidates change the answer",
    ),
    (
        re.compile(r"hop (\d+): (\d+) answers fit"),
        lambda m: f"checkpoint {m[1]}: {m[2]} answers fit where one was expected",
    ),
]


def detail_in_words(detail: str) -> str:
    """The parts of a check's detail that have a plain reading, joined; else the detail."""
    parts = []
    for part in detail.split(";"):
        part = part.strip()
        for pattern, words in _DETAIL_WORDS:
            match = pattern.search(part)
            if match:
                parts.append(words(match))
                break
    return "; ".join(parts)


def checks_html(report: CheckReportLike | None) -> str:
    if report is None:
        return (
            '<div class="db-checks"><i>The automatic checks were not run for this push.</i></div>'
        )
    rows = []
    for r in report.results:
        passed, failed = _CHECK_WORDS.get(r.name, (f"{r.name}: passed", f"{r.name}: FAILED"))
        words = detail_in_words(r.detail)
        rows.append(
            f'<li class="{"db-pass" if r.passed else "db-fail"}">'
            f"{'✔' if r.passed else '✘'} {e(passed if r.passed else failed)}"
            + (f" <span>({e(words)})</span>" if words else "")
            + f' <span class="db-raw">[{e(r.name)}: {e(r.detail)}]</span></li>'
        )
    verdict = (
        "All automatic checks passed."
        if report.passed
        else "Some automatic checks FAILED; look at these first."
    )
    return _template("checks.html").substitute(verdict=verdict, rows="".join(rows))


# -- revision banner ---------------------------------------------------------------------


def revision_html(revision: int, change: str) -> str:
    """A banner on a re-sent item saying what changed since the reviewers last saw it."""
    if revision == 0:
        return ""
    what = e(change) if change else "no change was recorded"
    return (
        f'<div class="db-revision"><b>Revision {revision}: this item was sent back.</b> '
        f"What changed: {what}</div>"
    )
