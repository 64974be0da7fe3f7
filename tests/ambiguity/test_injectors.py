"""Each injector on a hand-built KB where it succeeds, and the pipeline's refusals."""

from __future__ import annotations

import re

import pytest

from builder.ambiguity import inject, registry
from builder.ambiguity.checks import run_checks
from builder.ambiguity.clues import era_clue, qualifier_clue
from builder.evaluation.oracle import restored_by_hop
from builder.kb.store import KnowledgeStore
from builder.records.sample import Sample
from builder.records.seed import Constraint, HopSpec
from builder.seeding.era import Era
from builder.seeding.facts import Facts
from builder.seeding.generate import chain_from_specs
from tests.ambiguity.chains import ceo_chain, game_chain, lake_chain, same_platform_chain


def _only(store: KnowledgeStore, chain_fn: object, kind: str) -> Sample:
    result = inject(store, [chain_fn(store)], types=[kind], progress=False)  # type: ignore[operator]
    assert len(result.samples) == 1, result.rejects
    sample = result.samples[0]
    assert run_checks(store, sample).passed
    return sample


def test_entity_drops_a_constraint_and_lists_siblings(mini: KnowledgeStore) -> None:
    s = _only(mini, game_chain, "entity")
    cp = s.checkpoints[0]
    assert cp.ambiguous and cp.ambiguity_type == "entity"
    downstream = {c.id: c.downstream_answer for c in cp.candidates}
    assert downstream == {"L:botw": "Kyoto", "L:odyssey": "Osaka"}
    assert "action-adventure" not in s.question
    assert "action-adventure" in s.unambiguous_question
    # the hop as the unambiguous question asks it; the other hops ask nothing restored
    assert cp.unambiguous_goal == (
        "Which video game was developed by Nintendo EPD, released in 2017 and is in the "
        "action-adventure genre?"
    )
    assert [c.unambiguous_goal for c in s.checkpoints[1:]] == ["", ""]
    assert cp.clue == "I believe it won the Game of the Year."  # framed by the chain's id and hop
    assert "Kyoto" not in cp.clue and s.difficulty == "easy" and s.num_ambiguities == 1


def test_version_drops_the_time_qualifier(mini: KnowledgeStore) -> None:
    s = _only(mini, ceo_chain, "version")
    cp = s.checkpoints[1]
    assert cp.ambiguity_type == "version"
    downstream = {c.id: c.downstream_answer for c in cp.candidates}
    assert downstream == {"L:iwata": "Sapporo", "L:kimishima": "Tokyo", "L:furukawa": "Osaka"}
    assert "2016" in cp.clue and "2016" not in s.question
    assert "2016" in s.unambiguous_question
    assert cp.unambiguous_goal == "Who was the chief executive of that company in 2016?"
    assert restored_by_hop(s) == {2: "2016"}


def test_no_version_where_the_gold_is_the_present_holder(mini: KnowledgeStore) -> None:
    """Nintendo's chief executive in 2019 is Furukawa, in office since 2018: "Where was
    Nintendo's CEO born?" already reads as asking for him, so nothing is ambiguous."""
    specs = [h.spec for h in ceo_chain(mini).hops]
    specs[1] = specs[1].model_copy(update={"qualifier_value": "+2019-00-00T00:00:00Z"})
    chain = chain_from_specs(mini, "seed-000012", specs)
    assert chain.hops[1].answer == "Shuntaro Furukawa"
    result = inject(mini, [chain], types=["version"], progress=False)
    assert result.samples == []
    rej = next(r for r in result.rejects if r.check == "ambiguous")
    assert "latest value" in rej.reason and "L:furukawa" in rej.detail


def test_criteria_drops_the_ranking_criterion(mini: KnowledgeStore) -> None:
    s = _only(mini, lake_chain, "criteria")
    cp = s.checkpoints[0]
    assert cp.ambiguity_type == "criteria"
    downstream = {c.id: c.downstream_answer for c in cp.candidates}
    assert downstream == {"L:lake-victoria": "Kampala", "L:lake-tanganyika": "Dodoma"}
    assert "biggest" in s.question and "area" not in s.question
    assert "area" in cp.clue


def test_factual_replaces_a_value_so_nothing_fits_exactly(mini: KnowledgeStore) -> None:
    s = _only(mini, game_chain, "factual")
    cp = s.checkpoints[0]
    assert cp.ambiguity_type == "factual"
    assert "released in 2017" not in s.question
    ids = {c.id for c in cp.candidates}
    assert "L:botw" in ids and len(ids) >= 2
    assert any(c.downstream_answer not in ("", "Kyoto") for c in cp.candidates)


def test_no_wrong_candidate_changes_the_answer_is_rejected(mini: KnowledgeStore) -> None:
    result = inject(mini, [same_platform_chain(mini)], types=["entity"], progress=False)
    assert result.samples == []
    checks = {r.check for r in result.rejects}
    assert "consequential" in checks
    rej = next(r for r in result.rejects if r.check == "consequential")
    assert "3 March 2017" in rej.detail and rej.seed_id == "seed-000004"


def test_same_seed_same_samples(mini: KnowledgeStore) -> None:
    chains = [game_chain(mini), ceo_chain(mini), lake_chain(mini)]
    a = inject(mini, chains, seed=3, progress=False)
    b = inject(mini, chains, seed=3, progress=False)
    assert [s.model_dump_json() for s in a.samples] == [s.model_dump_json() for s in b.samples]
    assert len(a.samples) == 3


def test_registry_refuses_duplicates_and_unknown_types() -> None:
    from builder.ambiguity.entity import EntityInjector
    from builder.errors import ConfigError

    with pytest.raises(ValueError, match="already registered"):
        registry.register(EntityInjector())
    with pytest.raises(ConfigError, match="unknown ambiguity type"):
        registry.get(["ambiguous-ish"])
    assert registry.names() == ["entity", "version", "criteria", "factual"]


def test_version_of_the_chains_year_is_worded_as_that_time(mini: KnowledgeStore) -> None:
    """Retro Studios' game (Tropical Freeze, released in 2014) -> its platform -> the
    platform's maker -> its chief executive in 2014: the clue says the year as the time the
    game came out, and the sample still passes every check."""
    retro = Constraint(property="P178", value="L:retro", value_label="Retro Studios")
    specs = [
        HopSpec(class_id="Q7889", constraints=[retro]),
        HopSpec(link="P400"),
        HopSpec(link="P178"),
        HopSpec(link="P169", qualifier="P580", qualifier_value="+2014-00-00T00:00:00Z"),
        HopSpec(link="P19"),
    ]
    chain = chain_from_specs(mini, "seed-000005", specs)
    s = _only(mini, lambda _: chain, "version")
    cp = s.checkpoints[3]
    assert cp.ambiguity_type == "version" and "2014" not in s.question
    assert cp.clue in ("In 2014, when it came out.", "I mean in 2014, when it came out.")


def test_era_clue_words_a_win_and_keeps_the_clue_a_year(mini: KnowledgeStore) -> None:
    facts = Facts(mini)
    spec = HopSpec(link="P169", qualifier="P580", qualifier_value="+2016-00-00T00:00:00Z")
    won = era_clue(facts, spec, Era(2016, 0, "qualifier", "P1346"), "L:iwata")
    plain = qualifier_clue(facts, spec)
    assert won.model_copy(update={"text": ""}) == plain.model_copy(update={"text": ""})
    assert "they won" in won.text and re.findall(r"\d{4}", won.text) == ["2016"]
    thing = era_clue(facts, spec, Era(2016, 0, "qualifier", "P1346"), "L:botw")
    assert "it won" in thing.text
    other = era_clue(facts, spec, Era(2016, 1, "qualifier", "P169"), "L:iwata")
    assert "won" not in other.text and "2016" in other.text


def test_type_furthest_below_its_paper_share_goes_first(mini: KnowledgeStore) -> None:
    """Entity, used more often than version so far but further below its 38 % (version's
    share is 23.5 %), is the type a hop offering both takes."""
    from collections import Counter

    from builder.ambiguity.inject import Injection

    run = Injection(mini, None, 0, None)
    run.used.update({"entity": 30, "version": 20})
    assert run.behind("entity", Counter()) < run.behind("version", Counter())
    run.used.update({"entity": 10})
    assert run.behind("entity", Counter()) > run.behind("version", Counter())


def test_a_wrong_candidates_path_through_a_year_two_terms_touch_has_no_answer(
    mini: KnowledgeStore,
) -> None:
    """Nintendo's chief executive "in 2015" was Iwata until July and Kimishima after: a wrong
    candidate's chain through that hop reaches no one answer in the real world (the resolver
    alone would say Kimishima's Tokyo); in 2016 it reaches Tokyo."""
    from builder.ambiguity.plan import final_text

    specs = [h.spec for h in ceo_chain(mini).hops]
    facts = Facts(mini)
    assert final_text(facts, specs, 0, "L:nintendo", "") == "Tokyo"  # 2016: Kimishima
    in_2015 = [specs[0], specs[1].model_copy(update={"qualifier_value": "+2015-00-00T00:00:00Z"}),
               specs[2]]  # fmt: skip
    assert final_text(facts, in_2015, 0, "L:nintendo", "") == ""
