"""Scorer against hand-computed cases (numbers worked out by hand in the comments)."""

from __future__ import annotations

import pytest

from builder.errors import InputError
from builder.evaluation.matching import match, normalize
from builder.evaluation.scorer import score
from tests.evaluation.factories import S, answer, ask, cp, sample, three_samples, traj


def test_normalize_and_match_follow_the_contract() -> None:
    assert normalize("  The  Legend of Zelda: Breath-of-the-Wild! ") == (
        "legend of zelda breathof wild"  # articles go before punctuation
    )
    assert normalize("Ｔｏｋｙｏ") == "tokyo"  # NFKC
    assert normalize("STRASSE") == normalize("straße")  # casefold
    assert normalize("Pokémon") == "pokémon"  # letters are kept, accents included
    assert normalize("an apple a day") == "apple day"
    assert normalize("A") == ""  # a lone article normalizes to nothing: never matches
    assert match("the breath of the wild", "Breath of the Wild", [])
    assert match("botw", "Breath of the Wild", ["BotW"])
    assert not match("", "", [])  # empty prediction never matches
    assert not match("The", "a", [])  # normalizes to empty
    assert not match(None, "x", [])
    assert not match("1998 ", "1999", ["98"])


def test_hand_computed_run() -> None:
    samples = three_samples()
    trajs = [
        # s1: search, ask→1, search, answer. cp1 passes (article dropped), cp2 missing →
        # falls back to the final answer → passes; correct.
        traj(
            "s1",
            [S, ask(1), S, answer("Hidemaro Fujibayashi", {"1": "The Breath of the Wild"})],
            usage={"input_tokens": 100, "output_tokens": 10},
        ),
        # s2: ask→null, 3 searches, ask→3 (unambiguous: FP), answer. cp1 fails, cp2, cp3 pass.
        traj(
            "s2",
            [
                ask(None),
                S,
                S,
                S,
                ask(3),
                answer("japan", {"1": "2016", "2": "Tokyo", "3": "Japan"}),
            ],
            usage={"input_tokens": 50, "output_tokens": 20},
        ),
        # s3: missing.
    ]
    m = score(samples, trajs)
    assert m.n_samples == 3 and m.n_missing == 1 and m.n_errors == 0
    assert m.accuracy == pytest.approx(2 / 3)
    assert m.checkpoint_pass == pytest.approx(4 / 7)
    # TP: s1c1. FN: s2c1, s2c2, s3c2. FP: s2c3. TN: s1c2, s3c1.
    assert (m.detection.tp, m.detection.fn, m.detection.fp, m.detection.tn) == (1, 3, 1, 2)
    assert m.detection_accuracy == pytest.approx(3 / 7)
    assert m.detection_f1 == pytest.approx(2 / 6)
    assert m.ambiguity_recall == pytest.approx(1 / 4)
    # asks: s1→1 (ambiguous, passed), s2→null, s2→3 (not ambiguous)
    assert m.n_asks == 3
    assert m.ce_a == pytest.approx(1 / 3) and m.ce_b == pytest.approx(1 / 3)
    assert m.ask_turns == pytest.approx(1.0)
    assert m.search_turns == pytest.approx(5 / 3)
    assert m.input_tokens == pytest.approx(50.0)
    assert m.output_tokens == pytest.approx(10.0)
    # profiles over the 4 gold-ambiguous checkpoints (H=3):
    # s1c1 SearchThenAsk (pass); s2c1, s2c2 SearchHeavyGuess (S=3; one passes); s3c2 DirectGuess
    p = m.profiles
    assert (p["SearchThenAsk"].count, p["SearchThenAsk"].share) == (1, 0.25)
    assert p["SearchThenAsk"].pass_rate == 1.0
    assert (p["SearchHeavyGuess"].count, p["SearchHeavyGuess"].pass_rate) == (2, 0.5)
    assert (p["DirectGuess"].count, p["DirectGuess"].pass_rate) == (1, 0.0)
    assert (p["DirectAsk"].count, p["DirectAsk"].share, p["DirectAsk"].pass_rate) == (0, 0.0, None)
    assert m.ambiguous_checkpoint_pass == pytest.approx(2 / 4)
    t = m.by_type
    assert (t["entity"].count, t["entity"].recall, t["entity"].pass_rate) == (1, 1.0, 1.0)
    assert (t["version"].count, t["version"].recall, t["version"].pass_rate) == (1, 0.0, 0.0)
    assert (t["criteria"].count, t["criteria"].recall, t["criteria"].pass_rate) == (1, 0.0, 1.0)
    assert (t["factual"].count, t["factual"].recall, t["factual"].pass_rate) == (1, 0.0, 0.0)
    d = m.by_difficulty
    assert (d["easy"].n_samples, d["easy"].accuracy, d["easy"].checkpoint_pass) == (2, 0.5, 0.5)
    assert (d["medium"].n_samples, d["medium"].accuracy) == (1, 1.0)
    assert d["medium"].checkpoint_pass == pytest.approx(2 / 3)
    assert (d["hard"].n_samples, d["hard"].accuracy, d["hard"].checkpoint_pass) == (0, None, None)
    assert list(m.by_domain) == ["film_tv", "games", "music"]
    assert [v.accuracy for v in m.by_domain.values()] == [1.0, 1.0, 0.0]
    assert m.run is not None and m.run.agent == ""

    # H=4: s2's guesses become DirectGuess (S=3 < 4)
    m4 = score(samples, trajs, heavy_search=4)
    assert m4.heavy_search == 4
    assert m4.profiles["SearchHeavyGuess"].count == 0
    assert m4.profiles["DirectGuess"].count == 3
    assert m4.profiles["DirectGuess"].pass_rate == pytest.approx(1 / 3)


def test_no_asks_at_all() -> None:
    samples = three_samples()
    trajs = [traj(s.id, [S, answer(s.answer)]) for s in samples]
    m = score(samples, trajs)
    assert m.accuracy == 1.0 and m.checkpoint_pass == pytest.approx(3 / 7)  # only last cps
    assert m.ce_a is None and m.ce_b is None and m.ask_turns == 0.0
    assert m.ambiguity_recall == 0.0
    assert m.detection_f1 == 0.0  # 2TP/(2TP+FP+FN) = 0/4
    assert m.profiles["DirectGuess"].count == 4  # one search each < H


def test_f1_null_when_nothing_ambiguous_and_nothing_asked() -> None:
    samples = [sample("u1", "art", [cp(1, "P"), cp(2, "Q")])]
    m = score(samples, [traj("u1", [answer("Q")])])
    assert m.detection_f1 is None and m.ambiguity_recall is None
    assert m.detection_accuracy == 1.0
    assert all(p.share is None and p.count == 0 for p in m.profiles.values())


def test_no_answer_event_is_incorrect_without_fallback() -> None:
    samples = [sample("u1", "art", [cp(1, "P", amb="entity"), cp(2, "Q")])]
    m = score(samples, [traj("u1", [S, ask(1)])])
    assert m.accuracy == 0.0 and m.checkpoint_pass == 0.0
    assert m.ambiguity_recall == 1.0 and m.ce_a == 1.0 and m.ce_b == 0.0


def test_last_answer_event_counts_and_present_empty_entry_does_not_fall_back() -> None:
    samples = [sample("u1", "art", [cp(1, "P"), cp(2, "Q")])]
    m = score(samples, [traj("u1", [answer("wrong", {"1": "P"}), answer("Q", {"1": "nope"})])])
    assert m.accuracy == 1.0 and m.checkpoint_pass == 0.5  # cp1 from the LAST answer fails
    m2 = score(samples, [traj("u1", [answer("Q", {"1": "P", "2": ""})])])
    assert m2.accuracy == 1.0 and m2.checkpoint_pass == 0.5


def test_null_targets_count_in_turns_and_denominators_only() -> None:
    samples = [sample("u1", "art", [cp(1, "P", amb="entity"), cp(2, "Q")])]
    m = score(samples, [traj("u1", [ask(None), ask(None), answer("Q", {"1": "P"})])])
    assert m.ask_turns == 2.0 and m.n_asks == 2
    assert m.ce_a == 0.0 and m.ce_b == 0.0
    assert (m.detection.tp, m.detection.fp, m.detection.fn, m.detection.tn) == (0, 0, 1, 1)
    assert m.profiles["DirectGuess"].count == 1


def test_invalid_target_is_scored_as_null() -> None:
    samples = [sample("u1", "art", [cp(1, "P", amb="entity"), cp(2, "Q")])]
    m = score(samples, [traj("u1", [ask(7), answer("Q")])])
    assert m.n_invalid_targets == 1 and m.ce_a == 0.0 and m.detection.fp == 0
    assert any("named no checkpoint" in n for n in m.notes)


def test_errors_count_as_incorrect_but_behaviour_counts() -> None:
    samples = [sample("u1", "art", [cp(1, "P", amb="entity"), cp(2, "Q")])]
    events = [ask(1), S, answer("Q", {"1": "P"})]
    m = score(samples, [traj("u1", events, error="ServiceError: endpoint down")])
    assert m.n_errors == 1
    assert m.accuracy == 0.0 and m.checkpoint_pass == 0.0
    assert m.ambiguity_recall == 1.0 and m.ce_a == 1.0 and m.ce_b == 0.0
    assert m.profiles["DirectAsk"].count == 1 and m.profiles["DirectAsk"].pass_rate == 0.0


def test_direct_ask_vs_search_then_ask_uses_first_targeting_ask() -> None:
    samples = [sample("u1", "art", [cp(1, "P", amb="entity"), cp(2, "Q", amb="version")])]
    # cp1 first asked at position 0 (before any search); cp2 first asked after a search
    m = score(samples, [traj("u1", [ask(1), S, ask(1), ask(2), answer("Q", {"1": "P"})])])
    assert m.profiles["DirectAsk"].count == 1 and m.profiles["SearchThenAsk"].count == 1
    assert m.ask_turns == 3.0 and m.ce_a == 1.0 and m.ce_b == 1.0


def test_missing_samples_and_unknown_ids() -> None:
    samples = three_samples()
    m = score(samples, [traj("nope", [answer("x")]), traj("s3", [answer("Y")])])
    assert m.n_missing == 2 and m.n_unknown == 1 and m.n_trajectories == 2
    assert m.accuracy == pytest.approx(1 / 3)
    assert m.search_turns == 0.0


def test_duplicate_lines_last_one_counts() -> None:
    samples = [sample("u1", "art", [cp(1, "P"), cp(2, "Q")])]
    run = {"agent": "x", "setting": "neutral", "ablation": "none"}
    lines = [
        traj("u1", [answer("Q")], run=run, error="boom"),
        traj("u1", [S, answer("wrong")], run=run),
        traj("u1", [S, S, answer("Q")], run=run, usage={"input_tokens": 7}),
    ]
    m = score(samples, lines)
    assert m.n_duplicates == 2 and m.n_errors == 0
    assert m.accuracy == 1.0 and m.search_turns == 2.0 and m.input_tokens == 7.0
    assert m.run is not None and m.run.agent == "x"


def test_two_runs_for_one_sample_is_an_input_error() -> None:
    samples = [sample("u1", "art", [cp(1, "P"), cp(2, "Q")])]
    lines = [
        traj("u1", [answer("Q")], run={"agent": "a"}),
        traj("u1", [answer("Q")], run={"agent": "b"}),
    ]
    with pytest.raises(InputError, match="different runs"):
        score(samples, lines)


def test_runs_that_disagree_across_samples_leave_run_null() -> None:
    samples = [sample("u1", "art", [cp(1, "P")]), sample("u2", "art", [cp(1, "R")])]
    lines = [traj("u1", [answer("P")], run={"agent": "a"}), traj("u2", [], run={"agent": "b"})]
    assert score(samples, lines).run is None


def test_absent_target_is_assigned_by_default_matcher_and_said() -> None:
    samples = [
        sample(
            "u1",
            "games",
            [
                cp(1, "Zelda", amb="entity", goal="Which award-winning game by Nintendo EPD?"),
                cp(2, "Fujibayashi", goal="Who directed that game?"),
            ],
        )
    ]
    events = [
        ask(question="Which award do you mean?"),  # → 1 (shares "award")
        ask(question="Who was the director?"),  # → none ("director" ≠ "directed")
        ask(question="Can you say more?"),  # → none (only stopwords)
        answer("Fujibayashi", {"1": "Zelda"}),
    ]
    m = score(samples, [traj("u1", events)])
    assert m.n_assigned_targets == 3
    assert m.detection.tp == 1 and m.detection.fp == 0
    assert m.ce_a == pytest.approx(1 / 3)
    assert any("default matcher" in n for n in m.notes)


def test_other_event_types_are_kept_and_ignored() -> None:
    samples = [sample("u1", "art", [cp(1, "P", amb="entity")])]
    events = [{"type": "think", "text": "hmm"}, {"type": "tool_error", "detail": "x"}, ask(1)]
    t = traj("u1", [*events, answer("P")])
    assert t.events[0].type == "think"
    m = score(samples, [t])
    assert m.search_turns == 0.0 and m.profiles["DirectAsk"].count == 1 and m.accuracy == 1.0
