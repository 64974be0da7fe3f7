"""A chain cut to the hops its ambiguities need: the same ambiguity, fewer hops, every check
passed again, and a plain hop from a named place never left at the start."""

from __future__ import annotations

from builder.ambiguity import inject
from builder.ambiguity.checks import run_checks
from builder.ambiguity.trim import cut, needed
from builder.kb.store import KnowledgeStore
from builder.records.seed import HopSpec, SeedChain
from builder.seeding.facts import Facts
from builder.seeding.generate import chain_from_specs
from tests.ambiguity.chains import Y2017, ceo_chain, game_chain
from tests.ambiguity.world import CONSOLE


def _console_chain(store: KnowledgeStore) -> SeedChain:
    """The console released in 2017 -> its maker -> Nintendo's president in 2016 -> birthplace:
    only the third hop can be ambiguous (a version)."""
    specs = [
        HopSpec(class_id=CONSOLE, constraints=[Y2017]),
        HopSpec(link="P178"),
        HopSpec(link="P169", qualifier="P580", qualifier_value="+2016-00-00T00:00:00Z"),
        HopSpec(link="P19"),
    ]
    return chain_from_specs(store, "seed-000007", specs)


def test_a_cut_chain_names_the_entity_it_starts_from(mini: KnowledgeStore) -> None:
    chain = _console_chain(mini)
    assert needed(chain, [2]) == (1, 3)
    assert needed(chain, [2], before=0) == (2, 3)  # Nintendo named
    piece = cut(Facts(mini), chain, 1, 3)
    assert piece is not None and piece.id == chain.id
    assert piece.hops[0].spec.anchor == "L:switch"  # the Switch is named, not reached
    assert [h.answer for h in piece.hops] == [h.answer for h in chain.hops[1:]]
    assert [h.certificate for h in piece.hops] == [h.certificate for h in chain.hops[1:]]
    assert cut(Facts(mini), chain, 0, 3) is None  # the whole chain is no cut
    assert cut(Facts(mini), chain, 3, 3) is None  # nor is one hop


def test_a_sample_is_made_again_from_the_hops_its_ambiguity_needs(mini: KnowledgeStore) -> None:
    # Breath of the Wild (an entity ambiguity: Odyssey fits too) -> director -> birthplace
    whole = inject(mini, [game_chain(mini)], types=["entity"], progress=False)
    full = whole.samples[0]
    assert [c.index for c in full.checkpoints if c.ambiguous] == [1] and whole.shortened == 0
    got = inject(mini, [game_chain(mini)], types=["entity"], progress=False, shorten_chains=True)
    assert got.shortened == 1
    short = got.samples[0]
    # the birthplace is not needed: the wrong game's director differs already
    assert [c.answer for c in short.checkpoints] == [c.answer for c in full.checkpoints[:2]]
    assert short.answer == "Hidemaro Fujibayashi" and full.answer == "Kyoto"
    downstream = {c.id: c.downstream_answer for c in short.checkpoints[0].candidates}
    assert downstream == {"L:botw": "Hidemaro Fujibayashi", "L:odyssey": "Kenta Motokura"}
    assert [c.ambiguity_type for c in short.checkpoints if c.ambiguous] == ["entity"]
    assert short.id == full.id and short.provenance.seed_id == full.provenance.seed_id
    assert run_checks(mini, short).passed
    assert got.rejects == whole.rejects  # trying the cut leaves no rejects of its own


def test_the_cut_starts_at_the_first_ambiguous_hop_with_its_subject_named(
    mini: KnowledgeStore,
) -> None:
    # the console -> its maker -> the CEO in 2016 (a version) -> birthplace: "Where was
    # Nintendo's CEO born?" (the cut at the Switch would say "Nintendo Switch", naming the
    # maker it asks for: no_leakage)
    got = inject(mini, [_console_chain(mini)], types=["version"], progress=False,
                 shorten_chains=True)  # fmt: skip
    assert got.shortened == 1
    short = got.samples[0]
    assert [c.answer for c in short.checkpoints] == ["Tatsumi Kimishima", "Tokyo"]
    assert "Nintendo" in short.question and "Switch" not in short.question
    assert run_checks(mini, short).passed


def test_a_cut_asking_what_another_sample_asks_leaves_the_hop_before(
    mini: KnowledgeStore,
) -> None:
    """Two chains whose first ambiguous hop is Nintendo's CEO: the first is cut to "Where was
    Nintendo's CEO born?"; the second may not ask it again, and its cut one hop earlier (at
    the Switch) fails a check, so it stays whole."""
    chains = [ceo_chain(mini), _console_chain(mini)]
    got = inject(mini, chains, types=["version"], progress=False, shorten_chains=True)
    first, second = got.samples
    assert len(first.checkpoints) == 2 and len(second.checkpoints) == 4
    assert first.question != second.question
    assert got.shortened == 1


def test_the_cut_never_starts_with_a_plain_hop_from_a_named_place(mini: KnowledgeStore) -> None:
    chain = chain_from_specs(
        mini, "seed-000008", [*(h.spec for h in game_chain(mini).hops), HopSpec(link="P17")]
    )
    assert [h.spec.link for h in chain.hops][1:] == ["P57", "P19", "P17"]
    assert needed(chain, [0]) == (0, 1)  # the tail goes
    assert needed(chain, [0, 3]) == (0, 3)
    assert needed(chain, [3]) == (2, 3)  # "the country where Hidemaro Fujibayashi was born"
    longer = chain_from_specs(
        mini, "seed-000009", [*(h.spec for h in chain.hops), HopSpec(link="P36")]
    )
    # an ambiguity at the capital's hop would start the cut at "the country Kyoto is in",
    # which reads as nothing: it starts one hop earlier, at the director
    assert needed(longer, [4]) == (2, 4)
    # nor when the capital's subject would be named and the cut needs a second hop
    assert needed(longer, [4], before=0) == (2, 4)


def test_cut_chains_that_differ_only_in_their_year_have_one_shape(mini: KnowledgeStore) -> None:
    from builder.ambiguity.trim import _shape

    facts = Facts(mini)
    a = cut(facts, _console_chain(mini), 1, 3)
    later = _console_chain(mini).hops
    specs = [h.spec for h in later]
    specs[2] = specs[2].model_copy(update={"qualifier_value": "+2019-00-00T00:00:00Z"})
    b = cut(facts, chain_from_specs(mini, "seed-000011", specs), 1, 3)
    assert a is not None and b is not None
    assert a.hops[1].answer != b.hops[1].answer  # Kimishima in 2016, Furukawa in 2019
    assert _shape(a) == _shape(b)
    assert _shape(a) != _shape(_console_chain(mini))
