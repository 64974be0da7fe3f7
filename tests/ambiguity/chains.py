"""Hand-written seed chains over the mini world, one per ambiguity type."""

from __future__ import annotations

from builder.kb.store import KnowledgeStore
from builder.records.seed import Constraint, HopSpec, SeedChain
from builder.seeding.generate import chain_from_specs

EPD = Constraint(property="P178", value="L:epd", value_label="Nintendo EPD")
Y2017 = Constraint(property="P577", value="+2017-00-00T00:00:00Z", value_label="2017", match="year")
AA = Constraint(property="P136", value="L:genre-aa", value_label="action-adventure")
KYOTO = Constraint(property="P159", value="L:city-kyoto", value_label="Kyoto")
AFRICA = Constraint(property="P30", value="L:africa", value_label="Africa")


def game_chain(store: KnowledgeStore) -> SeedChain:
    """BotW (EPD, 2017, action-adventure) -> director -> birthplace: entity and factual."""
    specs = [
        HopSpec(class_id="Q7889", constraints=[EPD, Y2017, AA]),
        HopSpec(link="P57"),
        HopSpec(link="P19"),
    ]
    return chain_from_specs(store, "seed-000001", specs)


def ceo_chain(store: KnowledgeStore) -> SeedChain:
    """Nintendo -> chief executive in 2016 -> birthplace: version (2016 is inside one term;
    2015, when Iwata's term ended and Kimishima's began, would fit both)."""
    specs = [
        HopSpec(class_id="Q783794", constraints=[KYOTO]),
        HopSpec(link="P169", qualifier="P580", qualifier_value="+2016-00-00T00:00:00Z"),
        HopSpec(link="P19"),
    ]
    return chain_from_specs(store, "seed-000002", specs)


def lake_chain(store: KnowledgeStore) -> SeedChain:
    """The African lake with the largest area -> country -> capital: criteria."""
    specs = [
        HopSpec(class_id="Q23397", constraints=[AFRICA], criterion="P2046"),
        HopSpec(link="P17"),
        HopSpec(link="P36"),
    ]
    return chain_from_specs(store, "seed-000003", specs)


def same_platform_chain(store: KnowledgeStore) -> SeedChain:
    """BotW -> platform -> its release date: every sibling game is on the same platform."""
    specs = [
        HopSpec(class_id="Q7889", constraints=[EPD, Y2017, AA]),
        HopSpec(link="P400"),
        HopSpec(link="P577"),
    ]
    return chain_from_specs(store, "seed-000004", specs)
