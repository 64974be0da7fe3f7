"""The oracle: reference policies over a real snapshot store (SQLite FTS5) and hand-built
samples."""

from __future__ import annotations

from pathlib import Path

import pytest

from builder.evaluation import iter_trajectories, run_agent, run_baselines, score
from builder.records.trajectory import AnswerEvent, AskEvent, SearchEvent
from tests.evaluation.world import RESTORED_PAGES, build_store, mayor_sample, world_samples


@pytest.fixture
def store(tmp_path: Path):  # type: ignore[no-untyped-def]
    st = build_store(tmp_path / "kb.sqlite")
    yield st
    st.close()


def test_inequalities_of_the_done_when(store, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    samples = world_samples()
    m = run_baselines(samples, store=store, out_dir=tmp_path / "runs", progress=False)
    assert list(m) == [
        "oracle:direct-guess",
        "oracle:search-then-ask",
        "oracle:ask",
        "oracle:direct-guess (unambiguous)",
    ]
    dg, sta, oracle = m["oracle:direct-guess"], m["oracle:search-then-ask"], m["oracle:ask"]
    unamb = m["oracle:direct-guess (unambiguous)"]
    # the vague goals favour the decoys; the clue and the restored constraints the targets
    assert dg.ambiguous_checkpoint_pass == 0.0 and dg.accuracy == 0.0
    assert sta.ambiguous_checkpoint_pass == 1.0 and sta.accuracy == 1.0
    assert oracle.accuracy == 1.0 and oracle.ambiguity_recall == 1.0
    assert unamb.accuracy == 1.0
    assert dg.ask_turns == 0.0 and dg.ce_a is None
    assert sta.ce_a == 1.0 and sta.profiles["SearchThenAsk"].count == 2
    assert oracle.profiles["DirectAsk"].count == 2


def test_wrong_path_trajectory(store, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    samples = world_samples()
    out = tmp_path / "dg.jsonl"
    summary = run_agent(samples, agent="oracle:direct-guess", store=store, out=out, progress=False)
    assert (summary.ran, summary.errors, summary.skipped) == (2, 0, 0)
    trajs = {t.sample_id: t for t in iter_trajectories(out)}
    game = trajs["w-game"]
    searches = [e for e in game.events if isinstance(e, SearchEvent)]
    # the hop's relation as the query, function words dropped; the walk stops on the decoy
    assert [s.query for s in searches] == ["game developed Nintendo EPD"]
    assert searches[0].results and searches[0].results[0]["title"] == "Super Mario Odyssey"
    final = [e for e in game.events if isinstance(e, AnswerEvent)][-1]
    assert final.answer == "Kenta Motokura"  # the decoy's downstream answer
    assert final.checkpoints == {"1": "Super Mario Odyssey"}  # step 2 unknown on the wrong path
    stopped = next(e for e in game.events if e.type == "oracle_stopped")
    assert (stopped.model_extra or {})["hop"] == 1
    assert "'Super Mario Odyssey' first" in (stopped.model_extra or {})["reason"]
    assert game.run.agent == "oracle:direct-guess"


def test_search_then_ask_records_target_and_clue(store, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    samples = world_samples()
    out = tmp_path / "sta.jsonl"
    run_agent(samples, agent="oracle:search-then-ask", store=store, out=out, progress=False)
    city = next(t for t in iter_trajectories(out) if t.sample_id == "w-city")
    kinds = [e.type for e in city.events]
    assert kinds == ["search", "ask", "search", "search", "answer"]
    ask = next(e for e in city.events if isinstance(e, AskEvent))
    assert ask.has_target and ask.target == 1
    assert ask.reply == samples[1].checkpoints[0].clue
    assert "Which city in France?" in ask.question


def test_resume_skips_done_and_retries_errors(store, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    samples = world_samples()
    out = tmp_path / "r.jsonl"
    run_agent(samples[:1], agent="oracle:direct-guess", store=store, out=out, progress=False)
    again = run_agent(samples, agent="oracle:direct-guess", store=store, out=out, progress=False)
    assert (again.skipped, again.ran) == (1, 1)
    assert again.search_cache_hits == 0  # new sample, new queries
    # a torn last line (crash mid-write) is dropped and that sample runs again
    text = out.read_text().splitlines()
    out.write_text(text[0] + "\n" + text[1][: len(text[1]) // 2])
    third = run_agent(samples, agent="oracle:direct-guess", store=store, out=out, progress=False)
    assert (third.skipped, third.ran) == (1, 1)
    assert third.search_cache_hits == 1  # the same query as before: served from the cache
    lines = list(iter_trajectories(out))
    assert len(lines) == 2
    assert score(samples, lines).n_missing == 0
    # another run (ablation) in the same file does not count as done
    other = run_agent(
        samples,
        agent="oracle:direct-guess",
        store=store,
        out=out,
        ablation="unambiguous",
        progress=False,
    )
    assert other.ran == 2


def test_no_search_ablation_removes_the_tool(store, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "ns.jsonl"
    summary = run_agent(
        world_samples(),
        agent="oracle:search-then-ask",
        store=None,
        out=out,
        ablation="no_search",
        progress=False,
    )
    assert summary.errors == 0
    for t in iter_trajectories(out):
        assert not any(isinstance(e, SearchEvent) for e in t.events)
        assert any(e.type == "tool_error" for e in t.events)


def test_target_candidate_by_id_label_or_downstream() -> None:
    from builder.evaluation.oracle import target_of as target_candidate
    from builder.records.sample import Candidate
    from tests.evaluation.factories import cp, sample

    by_label = cp(1, "Satoru Iwata", amb="version", candidates=[
        Candidate(id="Q1", label="Hiroshi Yamauchi (1949)", downstream_answer="a"),
        Candidate(id="Q2", label="Satoru Iwata (2002)", downstream_answer="b"),
    ])  # fmt: skip
    s = sample("x", "games", [by_label, cp(2, "b")])
    assert target_candidate(s, s.checkpoints[0]) == by_label.candidates[1]
    literal = cp(1, "7,071,576", amb="version", candidates=[
        Candidate(id="+7071576", label="seven million", downstream_answer="gold"),
        Candidate(id="+6000000", label="six million", downstream_answer="other"),
    ])  # fmt: skip
    s2 = sample("y", "geography", [literal, cp(2, "gold")])
    assert target_candidate(s2, s2.checkpoints[0]) == literal.candidates[0]


def test_concurrency_does_not_change_trajectories(store, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    samples = world_samples()
    outs = []
    for c in (1, 4):
        out = tmp_path / f"c{c}.jsonl"
        run_agent(
            samples,
            agent="oracle:ask",
            store=store,
            out=out,
            concurrency=c,
            ablation="unambiguous",
            progress=False,
            search_cache_dir=tmp_path / f"sc{c}",
        )
        trajs = sorted(iter_trajectories(out), key=lambda t: t.sample_id)
        outs.append([t.model_dump(mode="json") for t in trajs])
    assert outs[0] == outs[1]
    by_id = {s.id: s for s in samples}
    for t in outs[0]:
        assert t["question"] == by_id[t["sample_id"]].unambiguous_question
        assert t["termination"] == "answer"


def test_direct_guess_on_the_unambiguous_question_reads_each_hops_words(tmp_path: Path) -> None:
    sample = mayor_sample()
    with build_store(tmp_path / "kb.sqlite", RESTORED_PAGES) as store:
        out = tmp_path / "u.jsonl"
        run_agent(
            [sample],
            agent="oracle:direct-guess",
            store=store,
            out=out,
            ablation="unambiguous",
            progress=False,
        )
        (traj,) = iter_trajectories(out)
        queries = [e.query for e in traj.events if isinstance(e, SearchEvent)]
        final = [e for e in traj.events if isinstance(e, AnswerEvent)][-1]
        # each ambiguous hop as the unambiguous question asks it: hop 2 reads 2005 alone,
        # not hop 1's 2024 too
        assert queries == [
            "capital France hosted 2024 Summer Olympics",
            "mayor Paris city 2005",
        ]
        assert final.answer == "Bertrand Delanoë"
        assert final.checkpoints == {"1": "Paris", "2": "Bertrand Delanoë"}
        assert score([sample], [traj]).accuracy == 1.0
        # on the vague question it never reads them: the decoy city
        out2 = tmp_path / "v.jsonl"
        run_agent([sample], agent="oracle:direct-guess", store=store, out=out2, progress=False)
        (vague,) = iter_trajectories(out2)
        assert [e for e in vague.events if isinstance(e, AnswerEvent)][
            -1
        ].answer == "Gérard Collomb"
