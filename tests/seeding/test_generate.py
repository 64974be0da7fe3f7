"""Seed chains over the mini world: unique hops, evidence, question text, determinism."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from builder.errors import ConfigError, StageError
from builder.kb.store import KnowledgeStore
from builder.records.seed import HopSpec
from builder.seeding import generate_seeds
from builder.seeding.facts import Facts
from builder.seeding.generate import chain_from_specs, iter_seeds
from builder.seeding.resolve import fits
from builder.seeding.search import ChainBuilder
from tests.ambiguity.chains import ceo_chain, game_chain
from tests.ambiguity.minikb import build_store
from tests.ambiguity.world import world


def test_every_hop_is_unique_and_evidenced(mini: KnowledgeStore) -> None:
    seeds = generate_seeds(mini, n=50, hops=(2, 4), seed=1, progress=False)
    assert seeds, "the mini world has chains"
    facts = Facts(mini)
    for chain in seeds:
        assert 2 <= len(chain.hops) <= 4
        assert chain.domain == mini.domain_of(chain.topic_id)
        prev: str | None = None
        for hop in chain.hops:
            assert fits(facts, hop.spec, prev) == [hop.answer_key]
            assert hop.evidence and hop.evidence[0].snippet
            prev = hop.answer_key
    assert [s.id for s in seeds] == [f"seed-{i:06d}" for i in range(1, len(seeds) + 1)]


def test_same_seed_same_chains_other_seed_other_order(mini: KnowledgeStore) -> None:
    a = generate_seeds(mini, n=5, seed=7, progress=False)
    b = generate_seeds(mini, n=5, seed=7, progress=False)
    assert [c.model_dump_json() for c in a] == [c.model_dump_json() for c in b]


def test_domains_filter(mini: KnowledgeStore) -> None:
    seeds = generate_seeds(mini, n=20, domains=["geography"], progress=False)
    assert seeds and {s.domain for s in seeds} == {"geography"}


def test_bad_hops_and_domains_are_config_errors(mini: KnowledgeStore) -> None:
    with pytest.raises(ConfigError, match="out of range"):
        generate_seeds(mini, n=1, hops=(1, 7), progress=False)
    with pytest.raises(ConfigError, match="unknown domain"):
        generate_seeds(mini, n=1, domains=["cooking"], progress=False)


def test_goals_refer_back_without_naming_previous_answers(mini: KnowledgeStore) -> None:
    chain = game_chain(mini)
    assert chain.hops[1].goal == "Who directed that video game?"
    assert chain.hops[2].goal == "Where was that person born?"
    assert chain.question == (
        "I've been reading about the video game developed by Nintendo EPD, released in 2017 "
        "and in the action-adventure genre. Where was its director born?"
    )
    assert chain.hops[0].answer_aliases == ["Breath of the Wild", "BotW"]


def test_version_hop_reads_its_time(mini: KnowledgeStore) -> None:
    chain = ceo_chain(mini)
    assert chain.hops[1].goal == "Who was the chief executive of that company in 2016?"
    assert chain.hops[1].answer == "Tatsumi Kimishima"
    assert "Tatsumi Kimishima from 2015 to 2018" in chain.hops[1].evidence[0].snippet


def test_chain_from_specs_refuses_a_non_unique_hop(mini: KnowledgeStore) -> None:
    with pytest.raises(StageError, match="hop 1: 4 answers fit"):
        chain_from_specs(mini, "seed-x", [HopSpec(class_id="Q7889", constraints=[]),
                                          HopSpec(link="P57")])  # fmt: skip


def test_literal_answers_are_formatted(mini: KnowledgeStore) -> None:
    from tests.ambiguity.chains import KYOTO

    spec = [HopSpec(class_id="Q783794", constraints=[KYOTO]), HopSpec(link="P571")]
    chain = chain_from_specs(mini, "seed-y", spec)
    assert chain.hops[1].answer == "1889" and chain.hops[1].answer_kind == "time"


def test_a_hop_counts_as_ambiguity_capable_only_over_a_complete_set(
    mini: KnowledgeStore, tmp_path: Path
) -> None:
    """Seeding keeps a hop's wrong candidates only where the certifier accepts the weakened
    description: over the closed mini world the CEO hop's other terms count; over the same
    facts with nothing declared complete, none do."""
    chain = ceo_chain(mini)
    hop = chain.hops[1]
    prev = chain.hops[0].answer_key
    closed = ChainBuilder(Facts(mini)).certified_alternatives(hop.spec, prev, hop.answer_key)
    assert closed and hop.answer_key not in closed
    open_store = build_store(tmp_path / "open.sqlite", world(), closed=False)
    try:
        facts = Facts(open_store)
        assert fits(facts, hop.spec.model_copy(update={"qualifier": "", "any_time": True}), prev)
        assert ChainBuilder(facts).certified_alternatives(hop.spec, prev, hop.answer_key) == []
    finally:
        open_store.close()


def test_a_domain_that_filled_its_share_waits_for_the_others(mini: KnowledgeStore) -> None:
    """With a quota, no domain passes it while another domain still has topics."""
    every = list(iter_seeds(mini, hops=(2, 4), domains=None, seed=1))
    counts = Counter(c.domain for c in every)
    quota = 1
    capped = list(iter_seeds(mini, hops=(2, 4), domains=None, seed=1, quota=quota))
    assert Counter(c.domain for c in capped) == counts  # the waiting topics come last
    first = capped[: len(counts)]
    assert sorted(c.domain for c in first) == sorted(counts)  # one per domain first
