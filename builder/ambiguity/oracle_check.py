"""The eighth check, ``oracle_solvable``: the reference policy that asks at every
gold-ambiguous checkpoint (and receives the clue) reaches the gold final answer through the
shipped local search backend (BM25 over the snapshot's pages, top ``SEARCH_K``).

The policy is :func:`builder.evaluation.oracle.walk`, the same walk the ``oracle:ask``
reference run plays in the harness: each hop's query is the hop's relation with the answer
found at the previous hop (plus the clue), and an answer is taken only when the results show
it. A failing sample names the hop where the walk stopped and why.
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

from builder.ambiguity.checks import CheckResult
from builder.evaluation.matching import match
from builder.evaluation.oracle import Hit, walk
from builder.records.sample import Sample
from builder.seeding.evidence import SEARCH_K
from builder.seeding.facts import Facts

NAME = "oracle_solvable"

# search responses per Facts (one per run), shared by every sample: retries with fewer
# ambiguities repeat most queries
_CACHE: WeakKeyDictionary[Facts, dict[str, list[Hit]]] = WeakKeyDictionary()


def check_oracle_solvable(
    facts: Facts, sample: Sample, max_searches: int | None = None
) -> CheckResult:
    """Pass when the asking oracle's walk ends on the sample's answer (or an alias) within
    ``max_searches`` (default: an episode's budget, ``Limits.max_searches``, so the
    ``oracle:ask`` run can walk it too)."""
    from builder.evaluation.harness import Limits

    budget = Limits().max_searches if max_searches is None else max_searches
    cache, k = _CACHE.setdefault(facts, {}), SEARCH_K
    searches = 0

    def search(query: str) -> list[Hit]:
        nonlocal searches
        searches += 1
        hits = cache.get(query)
        if hits is None:
            hits = cache[query] = list(facts.store.search(query, k))
        return hits

    result = walk(sample, search, lambda cp: cp.clue, policy="always")
    if not result.reached:
        return CheckResult(name=NAME, passed=False, detail=result.reason)
    if not match(result.final, sample.answer, sample.answer_aliases):
        return CheckResult(
            name=NAME,
            passed=False,
            detail=f"walk ended on {result.final!r}, not the answer {sample.answer!r}",
        )
    if searches > budget:
        return CheckResult(
            name=NAME,
            passed=False,
            detail=f"reached the answer in {searches} searches, more than an episode's {budget}",
        )
    return CheckResult(
        name=NAME,
        passed=True,
        detail=f"{len(sample.checkpoints)} hops, {searches} searches, top {k}",
    )
