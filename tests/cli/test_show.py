"""``discobench show``: one sample rendered for reading."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from builder.cli.main import app
from builder.cli.show import certificate_text, render_sample
from builder.records.sample import (
    Candidate,
    Certificate,
    Checkpoint,
    Provenance,
    Sample,
)
from builder.samples_io import write_samples

runner = CliRunner()


def _sample() -> Sample:
    plain = Checkpoint(
        index=1,
        goal="Which film director was born in New York City?",
        answer="Martin Scorsese",
        entity_id="L:scorsese",
        certificate=Certificate(
            basis="complete_set",
            source="decl-ny-directors",
            as_of="2026-01-01",
            universe=["L:scorsese", "L:kubrick", "L:lee"],
            matches=["L:scorsese"],
        ),
    )
    ambiguous = Checkpoint(
        index=2,
        goal="Which film directed by that film director is the biggest?",
        unambiguous_goal="Which film directed by that film director has the highest budget?",
        answer="The Departed",
        entity_id="L:departed",
        ambiguous=True,
        ambiguity_type="criteria",
        ambiguity_note="The superlative does not say by what.",
        candidates=[
            Candidate(id="L:departed", label="The Departed", downstream_answer="Oppenheimer"),
            Candidate(id="L:irishman", label="The Irishman", downstream_answer=""),
        ],
        clue="I meant the one that cost the most to make.",
        certificate=Certificate(explanation="Scorsese directed 26 films; one cost the most."),
    )
    return Sample(
        id="disco-000007",
        domain="film_tv",
        difficulty="easy",
        question="I'm thinking of the biggest film directed by the film director born in New "
        "York City. Who won the award it received?",
        unambiguous_question="I'm thinking of the film with the highest budget directed by "
        "the film director born in New York City. Who won the award it received?",
        answer="Oppenheimer",
        checkpoints=[plain, ambiguous],
        num_ambiguities=1,
        provenance=Provenance(),
    )


def test_certificate_in_plain_words() -> None:
    assert certificate_text(Certificate()) == "not certified"
    assert certificate_text(Certificate(explanation=" Only one. ")) == "Only one."
    cert = Certificate(
        basis="single_value", source="P19", as_of="2026-01-01", universe=["a", "b"], matches=["a"]
    )
    assert certificate_text(cert) == (
        "P19 has a single value per subject (as of 2026-01-01); of 2 members, 1 fits."
    )


def test_render_shows_every_part_of_a_sample() -> None:
    text = render_sample(_sample())
    assert text.startswith("disco-000007  film_tv, easy, 1 ambiguity\n")
    for part in (
        "question:     I'm thinking of the biggest film",
        "answer:       Oppenheimer",
        "Hop 2  [criteria]",
        "  unambiguous:  Which film directed by that film director has the highest budget?",
        "  candidate:    The Departed -> final answer Oppenheimer  (target)",
        "  candidate:    The Irishman -> chain stops",
        '  clue:         "I meant the one that cost the most to make."',
        "  unique:       Scorsese directed 26 films; one cost the most.",
        "  unique:       The set decl-ny-directors is declared complete (as of 2026-01-01); of 3",
    ):
        assert part in text, part


def test_show_command_reads_a_samples_file(tmp_path: Path) -> None:
    path = tmp_path / "samples.jsonl"
    write_samples(path, [_sample()])
    result = runner.invoke(app, ["show", "disco-000007", "--samples", str(path)])
    assert result.exit_code == 0, result.output
    assert "Hop 1" in result.output and "not certified" not in result.output
    missing = runner.invoke(app, ["show", "disco-000999", "--samples", str(path)])
    assert missing.exit_code == 3
