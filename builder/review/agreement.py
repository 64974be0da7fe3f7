"""Inter-annotator agreement: Cohen's kappa per pair, Krippendorff's alpha overall (nominal).

Label Studio's agreement metrics are Enterprise-only, so the review stage computes its own
from the pulled decisions. Both are small closed formulas over nominal labels; a dependency
would add nothing but an install. Undefined cases (no pairable data, or one single category
everywhere so that chance agreement is 1) return ``None`` rather than a misleading number.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from itertools import combinations
from typing import Any


def cohen_kappa(a: Sequence[Hashable], b: Sequence[Hashable]) -> float | None:
    """Cohen's kappa of two raters who labelled the same items (``a[i]`` and ``b[i]``).

    kappa = (p_o - p_e) / (1 - p_e), with p_o the observed agreement and p_e the agreement
    expected from each rater's own label frequencies. None when undefined (no items, or
    p_e == 1).
    """
    if len(a) != len(b):
        raise ValueError(f"raters labelled different numbers of items ({len(a)} vs {len(b)})")
    n = len(a)
    if n == 0:
        return None
    observed = sum(1 for x, y in zip(a, b, strict=True) if x == y) / n
    count_a, count_b = Counter(a), Counter(b)
    expected = sum(count_a[k] * count_b[k] for k in count_a) / (n * n)
    if expected >= 1.0:
        return None
    return (observed - expected) / (1.0 - expected)


def krippendorff_alpha(units: Iterable[Iterable[Hashable | None]]) -> float | None:
    """Krippendorff's alpha for nominal data.

    ``units`` holds, per unit (item), the values the coders gave it; ``None`` (a coder who did
    not rate it) is ignored, and units with fewer than two values are not pairable. Uses the
    coincidence matrix: alpha = 1 - D_o / D_e. None when undefined (fewer than two pairable
    values, or a single category overall).
    """
    coincidence: defaultdict[tuple[Hashable, Hashable], float] = defaultdict(float)
    for unit in units:
        values = [v for v in unit if v is not None]
        m = len(values)
        if m < 2:
            continue
        for i, j in combinations(range(m), 2):
            coincidence[(values[i], values[j])] += 1.0 / (m - 1)
            coincidence[(values[j], values[i])] += 1.0 / (m - 1)
    totals: defaultdict[Hashable, float] = defaultdict(float)
    for (c, _k), weight in coincidence.items():
        totals[c] += weight
    n = sum(totals.values())
    if n < 2:
        return None
    disagreement_observed = sum(w for (c, k), w in coincidence.items() if c != k)
    cats = list(totals)
    expected_pairs = sum(totals[c] * totals[k] for c in cats for k in cats if c != k)
    if expected_pairs == 0:
        return None
    disagreement_expected = expected_pairs / (n - 1)
    return 1.0 - disagreement_observed / disagreement_expected


def pairwise_kappas(
    ratings: Mapping[str, Mapping[Any, Any]],
) -> dict[tuple[str, str], tuple[float | None, int]]:
    """Cohen's kappa and the number of shared items for every pair of raters.

    ``ratings[rater][item] = label``; only items both raters labelled count.
    """
    out: dict[tuple[str, str], tuple[float | None, int]] = {}
    for r1, r2 in combinations(sorted(ratings), 2):
        shared = sorted(set(ratings[r1]) & set(ratings[r2]), key=repr)
        a = [ratings[r1][item] for item in shared]
        b = [ratings[r2][item] for item in shared]
        out[(r1, r2)] = (cohen_kappa(a, b), len(shared))
    return out


def pair_agreement(values: Sequence[Hashable]) -> float | None:
    """Share of rater pairs that gave the same value (one item); None with < 2 raters."""
    pairs = list(combinations(values, 2))
    if not pairs:
        return None
    return sum(1 for x, y in pairs if x == y) / len(pairs)
