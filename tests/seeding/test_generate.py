"""Seed chains over the mini world: unique hops, evidence, question text, determinism."""

from __future__ import annotations

import pytest

from builder.errors import ConfigError, StageError
from builder.kb.store import KnowledgeStore
from builder.records.seed import HopSpec
from builder.seeding import generate_seeds
from builder.seeding.facts import Facts
from builder.seeding.generate import chain_from_specs
from builder.seeding.resolve import fits
from tests.ambiguity.chains import ceo_chain, game_chain


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
