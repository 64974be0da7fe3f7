"""Reference policies that read the gold decomposition: ``oracle:…``, not agents.

They exist to show that every sample can be solved by search (and that asking at the right
moment is what it takes), and so that build → run → score → report runs offline. They read
the sample's checkpoints (goals, gold answers, candidates), which a real agent never sees,
and play :func:`builder.evaluation.oracle.walk` through the episode's tools: each hop's
query is the hop's relation with the answer *found* at the previous hop (plus the user's
reply after an ask), and an answer is taken only when the search results show it.

- ``oracle:direct-guess`` never asks;
- ``oracle:search-then-ask`` asks (a question naming the checkpoint's goal,
  ``baseline_ask.txt``) when the results of its first search show two or more candidates;
- ``oracle:ask`` asks before searching at every gold-ambiguous checkpoint.

Under ``--ablation unambiguous`` each ambiguous hop is read as the unambiguous question asks
it: its checkpoint's ``unambiguous_goal`` is the relation, and the words it restores (against
the ``goal``) are read like a reply; the other hops read nothing more. Where the walk stops
(a wrong candidate, an answer the results do not show), later checkpoints are left out and
the final answer is the wrong candidate's downstream answer, or empty.
"""

from __future__ import annotations

from builder.evaluation.agents.base import AGENTS, Agent, AgentContext
from builder.evaluation.harness import Episode, ToolUnavailable
from builder.evaluation.oracle import AskPolicy, restored_by_hop, unambiguous_sample, walk
from builder.evaluation.prompts import load_prompt
from builder.evaluation.search import SearchResult
from builder.records.sample import Checkpoint

ORACLES: dict[str, AskPolicy] = {
    "oracle:direct-guess": "never",
    "oracle:search-then-ask": "on_conflict",
    "oracle:ask": "always",
}


class OraclePolicy:
    def __init__(self, policy: AskPolicy) -> None:
        self.policy = policy

    def close(self) -> None:
        return None

    def run(self, ep: Episode) -> None:
        def search(query: str) -> list[SearchResult]:
            try:
                return ep.search(query)
            except ToolUnavailable as exc:
                ep.note("tool_error", tool="search", detail=str(exc))
                return []

        goals = {cp.index: cp.goal for cp in ep.sample.checkpoints}

        def ask(cp: Checkpoint) -> str | None:
            # the question names the checkpoint's own goal (under the ablation too)
            goal = goals.get(cp.index, cp.goal)
            try:
                return ep.ask(load_prompt("baseline_ask.txt").strip().format(goal=goal))
            except ToolUnavailable as exc:
                ep.note("tool_error", tool="ask", detail=str(exc))
                return None

        sample = ep.sample
        extra: dict[int, str] = {}
        if ep.run.ablation == "unambiguous":
            extra = restored_by_hop(sample)
            sample = unambiguous_sample(sample)
        result = walk(
            sample, search, None if self.policy == "never" else ask, policy=self.policy,
            extra=extra,
        )  # fmt: skip
        ep.turns = result.failed_hop or len(sample.checkpoints)  # scripted steps
        if result.failed_hop is not None:
            ep.note("oracle_stopped", hop=result.failed_hop, reason=result.reason)
        ep.answer(result.final, result.stated)


for _name, _policy in ORACLES.items():

    def _make(ctx: AgentContext, _p: AskPolicy = _policy) -> Agent:
        return OraclePolicy(_p)

    AGENTS.add(_name, _make)
