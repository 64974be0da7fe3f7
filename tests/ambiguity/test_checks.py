"""Each of the seven checks rejects a sample that breaks it, and says why with numbers."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from builder.ambiguity import inject
from builder.ambiguity.assemble import assemble
from builder.ambiguity.base import ChainContext, Proposal
from builder.ambiguity.checks import CheckReport, run_checks
from builder.ambiguity.plan import read_plan
from builder.ambiguity.validate import validate_samples
from builder.kb.store import KnowledgeStore
from builder.records.sample import Candidate, Certificate, Provenance, Sample
from builder.records.seed import ClueFact, Constraint, InjectionSpec
from builder.seeding.facts import Facts
from builder.seeding.resolve import without
from tests.ambiguity.chains import game_chain, same_platform_chain


@pytest.fixture(scope="module")
def good(mini: KnowledgeStore) -> Sample:
    result = inject(mini, [game_chain(mini)], types=["entity"], progress=False)
    return result.samples[0]


def _failed(report: CheckReport) -> dict[str, str]:
    return {r.name: r.detail for r in report.results if not r.passed}


def _with_plan(sample: Sample, **hop1: object) -> Sample:
    info = read_plan(sample)
    assert info is not None
    plan = [info.plan[0].model_copy(update=hop1), *info.plan[1:]]
    gen = info.model_copy(update={"plan": plan}).model_dump_json()
    prov = sample.provenance.model_copy(update={"generator": gen})
    return sample.model_copy(update={"provenance": prov})


def _edit_cp(sample: Sample, index: int, **fields: object) -> Sample:
    cps = list(sample.checkpoints)
    cps[index] = cps[index].model_copy(update=fields)
    return sample.model_copy(update={"checkpoints": cps})


def test_good_sample_passes_all(mini: KnowledgeStore, good: Sample) -> None:
    report = run_checks(mini, good)
    assert report.passed, report
    assert [r.name for r in report.results] == [
        "unique",
        "ambiguous",
        "solvable",
        "consequential",
        "no_leakage",
        "retrievable",
        "certified",
        "oracle_solvable",
    ]


def test_checks_left_out_are_not_run(mini: KnowledgeStore, good: Sample) -> None:
    # what benchmarks/oracle_reach.py does: the other checks filter, the oracle's is measured
    report = run_checks(mini, good, skip=("oracle_solvable",))
    assert report.passed and "oracle_solvable" not in [r.name for r in report.results]
    assert len(report.results) == 7
    with pytest.raises(ValueError, match="unknown checks"):
        run_checks(mini, good, skip=("oracle",))


def test_unique_rejects_a_description_that_fits_two(mini: KnowledgeStore, good: Sample) -> None:
    info = read_plan(good)
    assert info is not None
    loose = without(info.plan[0].spec, 2)  # no genre: BotW and Odyssey both fit
    failed = _failed(run_checks(mini, _with_plan(good, spec=loose)))
    assert "2 answers fit" in failed["unique"]


def test_unique_rejects_a_wrong_answer_text(mini: KnowledgeStore, good: Sample) -> None:
    failed = _failed(run_checks(mini, _edit_cp(good, 0, answer="Super Mario Odyssey")))
    assert "!= 'Super Mario Odyssey'" in failed["unique"]


def test_ambiguous_rejects_when_one_candidate_is_left(mini: KnowledgeStore, good: Sample) -> None:
    info = read_plan(good)
    assert info is not None and info.plan[0].injection is not None
    inj = info.plan[0].injection.model_copy(update={"constraint": 0})  # drop EPD: 1 fits
    failed = _failed(run_checks(mini, _with_plan(good, injection=inj)))
    assert "fits=1" in failed["ambiguous"]


def test_solvable_rejects_a_clue_that_fits_every_candidate(
    mini: KnowledgeStore, good: Sample
) -> None:
    edited = _edit_cp(good, 0, clue="I think it was on the Nintendo Switch.")
    failed = _failed(run_checks(mini, edited))
    assert "2 -> 0 (edited clue)" in failed["solvable"]


def test_solvable_accepts_an_edited_clue_naming_a_distinguishing_fact(
    mini: KnowledgeStore, good: Sample
) -> None:
    edited = _edit_cp(good, 0, clue="I think it was an action-adventure game.")
    report = run_checks(mini, edited)
    assert report.passed, _failed(report)


def test_solvable_rejects_a_structured_clue_shared_by_others(
    mini: KnowledgeStore, good: Sample
) -> None:
    info = read_plan(good)
    assert info is not None and info.plan[0].injection is not None
    shared = ClueFact(property="P400", value="L:switch", value_label="Nintendo Switch",
                      text="I played it on the Nintendo Switch.")  # fmt: skip
    inj = info.plan[0].injection.model_copy(update={"clue": shared})
    sample = _edit_cp(_with_plan(good, injection=inj), 0, clue=shared.text)
    failed = _failed(run_checks(mini, sample))
    assert "2 -> 2" in failed["solvable"]


def test_consequential_rejects_siblings_with_the_same_final_answer(
    mini: KnowledgeStore,
) -> None:
    chain = same_platform_chain(mini)
    ctx = ChainContext(Facts(mini), chain, random.Random(0))
    clue = ClueFact(property="P166", value="L:goty", value_label="Game of the Year",
                    text="I remember it won the Game of the Year.")  # fmt: skip
    inj = InjectionSpec(type="entity", constraint=2, clue=clue)
    cands = [
        Candidate(id=k, label=k, downstream_answer="3 March 2017") for k in ("L:botw", "L:odyssey")
    ]
    weak = without(chain.hops[0].spec, 2)
    cert = ctx.certifier.ambiguous(chain.hops[0].spec, inj, None, chain.hops[0].answer_key)
    assert isinstance(cert, Certificate), cert
    forced = {0: Proposal(0, inj, weak, cands, "forced", cert)}
    sample = assemble(ctx, forced, provenance=Provenance(), seed=0, types=["entity"])
    failed = _failed(run_checks(mini, sample))
    assert failed["consequential"] == "hop 1: 0/1 wrong candidates change it"
    assert set(failed) == {"consequential"}


def test_no_leakage_rejects_a_clue_naming_an_answer(mini: KnowledgeStore, good: Sample) -> None:
    edited = _edit_cp(good, 0, clue="I remember it won the Game of the Year, like Kyoto.")
    failed = _failed(run_checks(mini, edited))
    assert failed["no_leakage"] == "clue 1: 'Kyoto'"


def test_no_leakage_rejects_an_alias_in_the_question(mini: KnowledgeStore, good: Sample) -> None:
    leaky = good.model_copy(update={"question": good.question.replace("video game", "BotW")})
    failed = _failed(run_checks(mini, leaky))
    assert failed["no_leakage"] == "question: 'BotW'"


def test_retrievable_rejects_evidence_search_cannot_find(
    mini: KnowledgeStore, good: Sample
) -> None:
    cp = good.checkpoints[2]
    ev = [cp.evidence[0].model_copy(update={"title": "Some Unindexed Page"})]
    failed = _failed(run_checks(mini, _edit_cp(good, 2, evidence=ev)))
    assert failed["retrievable"].endswith("hop 3: rank >10")


def test_a_sample_without_plan_fails_every_check(mini: KnowledgeStore, good: Sample) -> None:
    bare = good.model_copy(update={"provenance": Provenance()})
    report = run_checks(mini, bare)
    assert not report.passed and len(report.failed()) == 8
    assert "no readable plan" in report.results[0].detail


def test_validate_turns_failures_into_rejects(mini: KnowledgeStore, good: Sample) -> None:
    bad = _edit_cp(good, 0, clue="It was Kyoto-ish.")
    result = validate_samples(mini, [good, bad])
    assert result.failed == 1
    assert {r.check for r in result.rejects} >= {"no_leakage"}
    assert all(r.sample_id == good.id and r.seed_id == "seed-000001" for r in result.rejects)
    assert result.failures_by_check()["unique"] == 0


def test_constraint_year_match(mini: KnowledgeStore) -> None:
    facts = Facts(mini)
    c = Constraint(property="P577", value="+2017-00-00T00:00:00Z", match="year")
    assert facts.holds("L:botw", c) and not facts.holds("L:acnh", c)


def test_every_checkpoint_carries_a_certificate(good: Sample) -> None:
    for cp in good.checkpoints:
        assert cp.certificate.basis in ("single_value", "complete_set")
        assert cp.certificate.matches and cp.certificate.explanation
    amb = next(cp for cp in good.checkpoints if cp.ambiguous)
    assert sorted(amb.certificate.matches) == sorted(c.id for c in amb.candidates)
    assert amb.certificate.clue_matches == [amb.entity_id]


def test_certified_fails_when_a_declaration_no_longer_holds(mini_path: Path) -> None:
    """validate re-checks every certificate against the store: a set that is no longer
    declared complete (or whose members changed) fails the sample, with the reason."""
    with KnowledgeStore.open(mini_path) as store:
        sample = inject(store, [game_chain(store)], types=["entity"], progress=False).samples[0]
        assert run_checks(store, sample).passed
        store.conn.execute("DELETE FROM completeness WHERE id LIKE 'inv:%'")
        failed = _failed(run_checks(store, sample))
    assert set(failed) == {"certified"}
    assert failed["certified"].startswith("hop 1: open_class: no complete set of video game")


def test_certified_fails_when_the_certificate_was_edited(
    mini: KnowledgeStore, good: Sample
) -> None:
    cert = good.checkpoints[0].certificate
    edited = _edit_cp(good, 0, certificate=cert.model_copy(update={"matches": ["L:botw"]}))
    failed = _failed(run_checks(mini, edited))
    assert failed["certified"] == "hop 1: certificate no longer holds (matches changed)"
