"""A misremembered birth or death year is one a person could mix up, not one that contradicts
the year the question places the person in ("In 1974, someone born in 1958 led …")."""

from __future__ import annotations

import random

from builder.ambiguity.base import ChainContext
from builder.ambiguity.factual import false_values, plausible_year
from builder.kb.store import KnowledgeStore
from builder.records.seed import Constraint, HopSpec
from builder.seeding.facts import Facts
from tests.ambiguity.chains import ceo_chain


def _years(store: KnowledgeStore, when: int) -> list[int]:
    facts = Facts(store)
    ctx = ChainContext(facts, ceo_chain(store), random.Random(0))
    born = Constraint(
        property="P569", value="+1950-00-00T00:00:00Z", value_label="1950", match="year"
    )
    spec = HopSpec(
        link="P169",
        qualifier="P580",
        qualifier_value=f"+{when:04d}-00-00T00:00:00Z",
        constraints=[born],
    )
    return [int(label) for _, label in false_values(ctx, spec, 0, "L:nintendo")]


def test_other_holders_birth_years_are_offered_only_where_they_fit_the_year(
    mini: KnowledgeStore,
) -> None:
    # Nintendo's presidents were born in 1959 (Iwata), 1950 (Kimishima), 1972 (Furukawa)
    in_2016 = _years(mini, 2016)
    assert {1959, 1972} <= set(in_2016)
    # in 1985 someone born in 1972 was 13 (and 1959, 26): no one recalls a president so young
    in_1985 = _years(mini, 1985)
    assert 1959 not in in_1985 and 1972 not in in_1985 and 1950 - 3 in in_1985
    assert all(1885 <= y <= 1955 for y in in_1985)


def test_plausible_years() -> None:
    assert plausible_year("P569", 1918, 1974)
    assert not plausible_year("P569", 1958, 1974)  # 16 when in office
    assert not plausible_year("P569", 1870, 1974)  # 104
    assert plausible_year("P570", 1990, 1974) and not plausible_year("P570", 1970, 1974)
    assert plausible_year("P577", 2030, 1974)  # other properties are not limited
    assert plausible_year("P569", 1999, None)  # nor hops without a year
