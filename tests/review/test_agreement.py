"""Agreement statistics against published worked examples."""

from __future__ import annotations

import pytest

from builder.review.agreement import (
    cohen_kappa,
    krippendorff_alpha,
    pair_agreement,
    pairwise_kappas,
)


def test_cohen_kappa_matches_the_textbook_example() -> None:
    # 50 items: yes/yes 20, yes/no 5, no/yes 10, no/no 15 -> p_o = .7, p_e = .5, kappa = .4
    a = ["yes"] * 25 + ["no"] * 25
    b = ["yes"] * 20 + ["no"] * 5 + ["yes"] * 10 + ["no"] * 15
    assert cohen_kappa(a, b) == pytest.approx(0.4)


def test_cohen_kappa_perfect_and_undefined() -> None:
    assert cohen_kappa(["a", "b", "a"], ["a", "b", "a"]) == pytest.approx(1.0)
    assert cohen_kappa([], []) is None
    assert cohen_kappa(["ok", "ok"], ["ok", "ok"]) is None  # chance agreement is 1
    with pytest.raises(ValueError, match="different numbers"):
        cohen_kappa(["a"], ["a", "b"])


def test_krippendorff_alpha_matches_krippendorffs_nominal_example() -> None:
    # Krippendorff (2011), "Computing Krippendorff's alpha-reliability": 4 observers,
    # 12 units, missing values; nominal alpha = 0.743.
    n = None
    obs_a = [1, 2, 3, 3, 2, 1, 4, 1, 2, n, n, n]
    obs_b = [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, n, 3]
    obs_c = [n, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, n]
    obs_d = [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, n]
    alpha = krippendorff_alpha(zip(obs_a, obs_b, obs_c, obs_d, strict=True))
    assert alpha == pytest.approx(0.743, abs=5e-4)


def test_krippendorff_alpha_undefined_cases() -> None:
    assert krippendorff_alpha([]) is None
    assert krippendorff_alpha([["a"], ["b"]]) is None  # nothing pairable
    assert krippendorff_alpha([["a", "a"], ["a", "a"]]) is None  # one category only
    assert krippendorff_alpha([["a", "a"], ["b", "b"]]) == pytest.approx(1.0)


def test_pairwise_kappas_use_only_shared_items() -> None:
    ratings = {
        "ann": {1: "x", 2: "y", 3: "x"},
        "bob": {1: "x", 2: "y", 4: "y"},
        "cid": {9: "x"},
    }
    out = pairwise_kappas(ratings)
    assert out[("ann", "bob")] == (pytest.approx(1.0), 2)
    assert out[("ann", "cid")] == (None, 0)
    assert set(out) == {("ann", "bob"), ("ann", "cid"), ("bob", "cid")}


def test_pair_agreement_share_of_agreeing_pairs() -> None:
    assert pair_agreement(["accept", "accept", "fix"]) == pytest.approx(1 / 3)
    assert pair_agreement(["accept"]) is None
