"""Hop descriptions run as store queries: links, constraints, versions, superlatives, bounds."""

from __future__ import annotations

from pathlib import Path

from builder.kb.store import KnowledgeStore
from builder.records.seed import Constraint, HopSpec
from builder.seeding.facts import Facts
from builder.seeding.resolve import MAX_POOL, alternatives, bounded, fits, near_fits, run_rest
from tests.ambiguity.chains import AFRICA, EPD, Y2017
from tests.ambiguity.minikb import build_store, ent


def test_constraints_links_and_years(mini: KnowledgeStore) -> None:
    f = Facts(mini)
    assert fits(f, HopSpec(class_id="Q7889", constraints=[EPD, Y2017]), None) == [
        "L:botw", "L:odyssey",
    ]  # fmt: skip
    assert fits(f, HopSpec(link="P57"), "L:botw") == ["L:fujibayashi"]
    games = fits(f, HopSpec(link="P178", link_inverse=True, class_id="Q7889"), "L:epd")
    assert games == ["L:acnh", "L:botw", "L:odyssey"]


def test_versions_by_qualifier_year(mini: KnowledgeStore) -> None:
    f = Facts(mini)
    spec = HopSpec(link="P169", qualifier="P580", qualifier_value="+2018-00-00T00:00:00Z")
    assert fits(f, spec, "L:nintendo") == ["L:furukawa"]
    # P580 reads "in force that year": the term that ends in 2015 is not the 2015 one
    during = spec.model_copy(update={"qualifier_value": "+2010-00-00T00:00:00Z"})
    assert fits(f, during, "L:nintendo") == ["L:iwata"]
    turn = spec.model_copy(update={"qualifier_value": "+2015-00-00T00:00:00Z"})
    assert fits(f, turn, "L:nintendo") == ["L:kimishima"]
    every = HopSpec(link="P169", any_time=True)
    assert fits(f, every, "L:nintendo") == ["L:furukawa", "L:iwata", "L:kimishima"]
    # best rank only without a qualifier: the preferred (current) value
    assert fits(f, HopSpec(link="P169"), "L:nintendo") == ["L:furukawa"]


def test_superlatives_both_ways_and_vague(mini: KnowledgeStore) -> None:
    f = Facts(mini)
    base = HopSpec(class_id="Q23397", constraints=[AFRICA])
    assert fits(f, base.model_copy(update={"criterion": "P2046"}), None) == ["L:lake-victoria"]
    smallest = base.model_copy(update={"criterion": "P2046", "criterion_order": "min"})
    assert fits(f, smallest, None) == ["L:lake-malawi"]
    vague = base.model_copy(update={"criteria_options": ["P2046", "P4511"]})
    assert fits(f, vague, None) == ["L:lake-tanganyika", "L:lake-victoria"]
    alts = alternatives(f, base.model_copy(update={"criterion": "P2046"}), None, "L:lake-victoria")
    assert alts == ["L:lake-tanganyika"]


def test_near_fits_and_rest_of_chain(mini: KnowledgeStore) -> None:
    f = Facts(mini)
    y2016 = Constraint(property="P577", value="+2016-00-00T00:00:00Z", match="year")
    false = HopSpec(class_id="Q7889", constraints=[EPD, y2016])
    assert fits(f, false, None) == []
    assert near_fits(f, false, None) == ["L:acnh", "L:botw", "L:odyssey"]
    assert run_rest(f, [HopSpec(link="P57"), HopSpec(link="P19")], "L:odyssey") == [
        "L:odyssey", "L:motokura", "L:city-osaka",
    ]  # fmt: skip
    assert run_rest(f, [HopSpec(link="P169", any_time=True)], "L:nintendo") is None


def test_near_fits_of_a_change_year_include_the_outgoing_holder(mini: KnowledgeStore) -> None:
    """Nintendo's CEO "in 2015" was Iwata until July and Kimishima after: a user who
    misremembers the 2015 CEO's birth year has both in mind, not only the incoming one."""
    f = Facts(mini)
    born_1972 = Constraint(property="P569", value="+1972-00-00T00:00:00Z", match="year")
    spec = HopSpec(
        link="P169",
        qualifier="P580",
        qualifier_value="+2015-00-00T00:00:00Z",
        constraints=[born_1972],
    )
    assert fits(f, spec, "L:nintendo") == []
    # Kimishima (in office from 2015) and Iwata (until 2015) differ in the birth year only;
    # Furukawa (born 1972) in the year only
    assert near_fits(f, spec, "L:nintendo") == ["L:furukawa", "L:iwata", "L:kimishima"]
    # a year inside one term has no outgoing holder
    inside = spec.model_copy(update={"qualifier_value": "+2010-00-00T00:00:00Z"})
    assert near_fits(f, inside, "L:nintendo") == ["L:furukawa", "L:iwata"]


def test_hub_values_are_not_explored(tmp_path: Path) -> None:
    items = [ent("Q7889", "video game"), ent("L:genre", "puzzle"), ent("L:dev", "Dev")]
    for i in range(MAX_POOL + 1):
        items.append(ent(f"L:g{i}", f"Game {i}", "Q7889", {"P136": "L:genre", "P178": "L:dev"}))
    store = build_store(tmp_path / "kb.sqlite", items)
    f = Facts(store)
    genre = Constraint(property="P136", value="L:genre")
    assert not bounded(f, HopSpec(class_id="Q7889", constraints=[genre]), None)
    small = Constraint(property="P178", value="L:dev")
    assert not bounded(f, HopSpec(constraints=[small, genre]), None)  # both hubs here
    assert bounded(f, HopSpec(link="P178"), "L:g1")
    store.close()
