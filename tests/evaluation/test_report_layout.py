"""Report tables fit an 80-column log; long run names move to a legend; headers are explained."""

from __future__ import annotations

from rich.console import Console
from typer.testing import CliRunner

from builder.cli.main import app
from builder.evaluation.report import print_full_report
from builder.evaluation.scorer import score
from builder.records.trajectory import RunInfo
from tests.evaluation.factories import S, answer, ask, three_samples, traj


def _named() -> dict[str, object]:
    trajs = [
        traj("s1", [S, ask(1), answer("Hidemaro Fujibayashi", {"1": "BotW"})]),
        traj("s2", [ask(), answer("nope")]),
    ]
    m = score(three_samples(), trajs)
    long_run = RunInfo(agent="baseline:search-then-ask", setting="neutral", ablation="none")
    return {
        "baseline:search-then-ask [neutral/none]": m.model_copy(update={"run": long_run}),
        "direct-guess (unambiguous)": m,
    }


def test_every_table_fits_80_columns_with_a_legend_of_runs() -> None:
    console = Console(width=80, record=True, force_terminal=False)
    print_full_report(_named(), console)  # type: ignore[arg-type]
    text = console.export_text()
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "#1 = baseline:search-then-ask [neutral/none]" in text
    assert "#2 = direct-guess (unambiguous)" in text
    assert "SearchThenAsk" in text and "≥ 3 searches" in text  # no bare "H" column

    wide = Console(width=200, record=True)
    print_full_report(_named(), wide)  # type: ignore[arg-type]
    assert "#1 =" not in wide.export_text()


def test_help_explains_every_column_header() -> None:
    runner = CliRunner()
    for args in (["eval", "score", "--help"], ["eval", "report", "--help"], ["build", "--help"]):
        out = " ".join(runner.invoke(app, args).output.split())
        for header in ("Acc", "CP", "Det-Acc", "Det-F1", "Amb-Rec", "CE-A", "CE-B", "Ask",
                       "Search", "In tok", "Out tok", "err", "miss", "SearchHeavyGuess"):  # fmt: skip
            assert f"{header} " in out or f"{header}," in out, (args, header)
