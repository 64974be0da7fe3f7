"""Side-by-side tables (the paper's Table 4 and Table 5 layouts) and PNG plots of runs.

Table 4 (main results): one row per run; answer accuracy, checkpoint pass, ambiguity
detection (accuracy, F1, recall), clarification efficiency (CE-A, CE-B), turns and tokens.
Table 5 (behaviour): one row per run; for each profile its share of the gold-ambiguous
checkpoints and its pass rate. Tables show percentages; the JSON keeps fractions.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from builder.errors import InputError
from builder.evaluation.metrics import DIFFICULTIES, PROFILES, Metrics
from builder.records.sample import AMBIGUITY_TYPES, DOMAINS


def pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}"


def num(x: float | None, digits: int = 2) -> str:
    return "–" if x is None else f"{x:.{digits}f}"


def run_name(m: Metrics, fallback: str) -> str:
    if m.run is None or not m.run.agent:
        return fallback
    return f"{m.run.agent} [{m.run.setting}/{m.run.ablation}]"


TABLE4: tuple[tuple[str, str], ...] = (
    ("Acc", "accuracy"),
    ("CP", "checkpoint_pass"),
    ("Det-Acc", "detection_accuracy"),
    ("Det-F1", "detection_f1"),
    ("Amb-Rec", "ambiguity_recall"),
    ("CE-A", "ce_a"),
    ("CE-B", "ce_b"),
)


def _run_column(t: Table) -> None:
    """Run names fold onto several lines; the numbers never get truncated."""
    t.add_column("run", overflow="fold", min_width=10, max_width=30)


def _num_column(t: Table, label: str) -> None:
    t.add_column(label, justify="right", no_wrap=True, min_width=len(label))


_TAIL: tuple[str, ...] = ("Ask", "Search", "In tok", "Out tok", "err", "miss")


def _tail_cells(m: Metrics) -> list[str]:
    return [
        num(m.ask_turns),
        num(m.search_turns),
        num(m.input_tokens, 0),
        num(m.output_tokens, 0),
        str(m.n_errors),
        str(m.n_missing),
    ]


def table4(named: Mapping[str, Metrics], part: str = "all") -> Table:
    """The main-results table; ``part`` "utility" or "interaction" gives one half, for
    narrow terminals."""
    heads = {
        "all": "Main results (%; turns and tokens per sample)",
        "utility": "Main results: task utility and ambiguity detection (%)",
        "interaction": "Main results: interaction (%; turns) and cost (per sample)",
    }
    t = Table(
        box=box.SIMPLE_HEAVY,
        title=heads[part],
        caption="task utility: Acc, CP · ambiguity detection: Det-Acc, Det-F1, Amb-Rec · "
        "interaction: CE-A, CE-B, Ask · cost: Search, tokens"
        if part == "all"
        else None,
    )
    ratio_cols = [
        (label, key)
        for label, key in TABLE4
        if part == "all" or (part == "utility") == (key not in ("ce_a", "ce_b"))
    ]
    _run_column(t)
    for label, _ in ratio_cols:
        _num_column(t, label)
    if part != "utility":
        for label in _TAIL:
            _num_column(t, label)
    for name, m in named.items():
        cells = [pct(getattr(m, key)) for _, key in ratio_cols]
        if part != "utility":
            cells += _tail_cells(m)
        t.add_row(escape(name), *cells)
    return t


def table5(named: Mapping[str, Metrics]) -> Table:
    heavy = sorted({m.heavy_search for m in named.values()})
    t = Table(
        box=box.SIMPLE_HEAVY,
        title="Behaviour profiles of gold-ambiguous checkpoints (share % / pass %)",
        caption="SearchHeavyGuess: a guess after ≥ "
        + "/".join(str(h) for h in heavy)
        + " searches (--heavy-search)",
    )
    _run_column(t)
    for p in PROFILES:
        _num_column(t, p)
    for name, m in named.items():
        cells = [f"{pct(m.profiles[p].share)} / {pct(m.profiles[p].pass_rate)}" for p in PROFILES]
        t.add_row(escape(name), *cells)
    return t


def _breakdown(title: str, named: Mapping[str, Metrics], rows: dict[str, list[str]]) -> Table:
    """Categories as rows, one column per run (scales to many domains)."""
    t = Table(box=box.SIMPLE_HEAVY, title=title)
    t.add_column("", no_wrap=True)
    for name in named:
        t.add_column(escape(name), justify="right", overflow="fold", min_width=10)
    for label, cells in rows.items():
        t.add_row(label, *cells)
    return t


def breakdown_tables(named: Mapping[str, Metrics]) -> list[Table]:
    ms = list(named.values())
    domains = [d for d in DOMAINS if any(d in m.by_domain for m in ms)]
    domains += sorted({d for m in ms for d in m.by_domain} - set(domains))
    by_type = {
        k: [
            f"{m.by_type[k].count} / {pct(m.by_type[k].recall)} / {pct(m.by_type[k].pass_rate)}"
            for m in ms
        ]
        for k in AMBIGUITY_TYPES
    }
    by_diff = {
        d: [
            f"{s.n_samples} / {pct(s.accuracy)} / {pct(s.checkpoint_pass)}"
            for s in (m.by_difficulty[d] for m in ms)
        ]
        for d in DIFFICULTIES
    }
    by_dom = {
        d: [
            f"{m.by_domain[d].n_samples} / {pct(m.by_domain[d].accuracy)}"
            if d in m.by_domain
            else "–"
            for m in ms
        ]
        for d in domains
    }
    return [
        _breakdown("By ambiguity type (count / recall % / pass %)", named, by_type),
        _breakdown("By difficulty (n / accuracy % / checkpoint pass %)", named, by_diff),
        _breakdown("By domain (n / accuracy %)", named, by_dom),
    ]


def settings_table(named: Mapping[str, Metrics]) -> Table | None:
    """Guided minus neutral, per agent and ablation that has both runs (percentage points)."""
    by_key: dict[tuple[str, str], dict[str, Metrics]] = {}
    for m in named.values():
        if m.run is not None and m.run.agent:
            by_key.setdefault((m.run.agent, m.run.ablation), {})[m.run.setting] = m
    pairs = {k: v for k, v in by_key.items() if "neutral" in v and "guided" in v}
    if not pairs:
        return None
    t = Table(
        box=box.SIMPLE_HEAVY, title="Guided vs neutral prompt (guided − neutral, points; turns)"
    )
    t.add_column("agent [ablation]", no_wrap=True)
    keys: tuple[tuple[str, str], ...] = (
        ("Acc", "accuracy"),
        ("Amb-Rec", "ambiguity_recall"),
        ("Det-F1", "detection_f1"),
        ("CE-A", "ce_a"),
        ("Ask", "ask_turns"),
    )
    for label, _ in keys:
        t.add_column(label, justify="right")
    for (agent, ablation), runs in sorted(pairs.items()):
        cells = []
        for _, key in keys:
            g, n = getattr(runs["guided"], key), getattr(runs["neutral"], key)
            scale = 1 if key == "ask_turns" else 100
            cells.append("–" if g is None or n is None else f"{scale * (g - n):+.1f}")
        t.add_row(escape(f"{agent} [{ablation}]"), *cells)
    return t


#: What every column header of the tables means (shown in the commands' --help).
COLUMNS_HELP = (
    "Columns (percentages unless said): Acc final-answer accuracy; CP checkpoint pass rate; "
    "Det-Acc / Det-F1 ambiguity detection accuracy / F1 (asking at gold-ambiguous "
    "checkpoints); Amb-Rec ambiguity recall; CE-A / CE-B clarification efficiency (share of "
    "asks at an ambiguous checkpoint, two readings); Ask / Search turns per sample; In tok / "
    "Out tok agent tokens per sample; err episodes that errored; miss samples without a "
    "trajectory; DirectGuess, SearchHeavyGuess, DirectAsk, SearchThenAsk behaviour profiles "
    "(share of gold-ambiguous checkpoints / their pass rate). On terminals under 150 columns "
    "(and in logs, 80) runs are shown as #1, #2… with a legend above the tables."
)

COMPACT_BELOW = 150  # console width under which run names become #1, #2… with a legend


def compact_names(named: Mapping[str, Metrics], width: int) -> tuple[dict[str, Metrics], list[str]]:
    """Run names as given on a wide console; else ``#1``, ``#2``… and the legend lines."""
    if width >= COMPACT_BELOW or all(len(n) <= 10 for n in named):
        return dict(named), []
    short = {f"#{i}": m for i, m in enumerate(named.values(), 1)}
    legend = [f"#{i} = {name}" for i, name in enumerate(named, 1)]
    return short, legend


def print_metrics_table(named_metrics: dict[str, Metrics], console: Console | None = None) -> None:
    """Table 4 and Table 5 layouts for several runs (what ``discobench build`` prints)."""
    console = console or Console()
    named_metrics, legend = compact_names(named_metrics, console.width)
    for line in legend:
        console.print(line, markup=False, highlight=False)
    if console.width >= 150:
        console.print(table4(named_metrics))
    else:
        console.print(table4(named_metrics, "utility"))
        console.print(table4(named_metrics, "interaction"))
    console.print(table5(named_metrics))
    comparison = settings_table(named_metrics)
    if comparison is not None:
        console.print(comparison)
    oracles = [n for n in named_metrics if n.startswith("oracle:")]
    if oracles:
        console.print(
            f"[dim]{', '.join(escape(n) for n in oracles)}: reference policies that read the "
            "gold decomposition (checkpoints, gold answers, candidates), not agents; they "
            "show the samples are solvable by search.[/]"
        )


def print_full_report(named: dict[str, Metrics], console: Console | None = None) -> None:
    console = console or Console()
    print_metrics_table(named, console)
    for t in breakdown_tables(compact_names(named, console.width)[0]):
        console.print(t)
    for name, m in named.items():
        for note in m.notes:
            console.print(f"[yellow]note[/] ({escape(name)}): {escape(note)}")


def load_metrics(path: Path) -> Metrics:
    try:
        return Metrics.model_validate_json(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError("no such metrics file", path=path) from None
    except ValueError as exc:
        raise InputError(
            f"not a metrics JSON ({str(exc).splitlines()[0]})",
            path=path,
            hint="pass files written by `discobench eval score --json OUT`",
        ) from None


def load_metrics_runs(path: Path) -> dict[str, Metrics]:
    """One metrics JSON (``eval score --json``) as ``{"": metrics}``, or the build's
    ``baselines.json`` (run name → metrics) as is."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError("no such metrics file", path=path) from None
    except ValueError:
        data = None
    runs = isinstance(data, dict) and data and "accuracy" not in data  # a mapping of runs
    if runs and isinstance(data, dict) and all(isinstance(v, dict) for v in data.values()):
        try:
            return {name: Metrics.model_validate(m) for name, m in data.items()}
        except ValueError:
            pass
    return {"": load_metrics(path)}


def _bars(
    path: Path, title: str, groups: list[str], series: dict[str, list[float | None]], ylabel: str
) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(max(6.0, 1.2 * len(groups) * max(1, len(series)) / 2), 4))
    width = 0.8 / max(1, len(series))
    for i, (name, values) in enumerate(series.items()):
        xs = [g + i * width for g in range(len(groups))]
        ax.bar(xs, [100 * (v or 0.0) for v in values], width=width, label=name)
    ax.set_xticks([g + 0.4 - width / 2 for g in range(len(groups))], groups)
    ax.set_ylim(0, 100)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=120, metadata={"Software": None})
    plt.close(fig)
    return path


def plot_report(named: Mapping[str, Metrics], out_dir: Path) -> list[Path]:
    """Detection recall by ambiguity type, accuracy by difficulty, pass rate by profile."""
    out_dir.mkdir(parents=True, exist_ok=True)
    types, diffs, profs = list(AMBIGUITY_TYPES), list(DIFFICULTIES), list(PROFILES)
    return [
        _bars(
            out_dir / "recall_by_type.png",
            "Detection recall by ambiguity type",
            types,
            {n: [m.by_type[k].recall for k in types] for n, m in named.items()},
            "recall (%)",
        ),
        _bars(
            out_dir / "accuracy_by_difficulty.png",
            "Accuracy by difficulty",
            diffs,
            {n: [m.by_difficulty[d].accuracy for d in diffs] for n, m in named.items()},
            "accuracy (%)",
        ),
        _bars(
            out_dir / "pass_rate_by_profile.png",
            "Checkpoint pass rate by behaviour profile",
            profs,
            {n: [m.profiles[p].pass_rate for p in profs] for n, m in named.items()},
            "pass rate (%)",
        ),
    ]
