"""A question whose country is said first (builder/seeding/frames.py): its lead and the
question after it, for the tests of the wording."""

from __future__ import annotations

import re

from builder.seeding.templates import load_templates
from builder.seeding.text import capitalize

__all__ = ["lead_and_ask"]

# a lead, then the question asked after it (which may run on after a ":")
_LEAD = re.compile(
    r"^(.+? country.*?[.:]) ((?:[Ii]n|[Ww]ho|[Ww]hen|[Ww]hat|[Ww]hich|[Ss]omeone) .*)$"
)


def lead_and_ask(question: str) -> tuple[str, str]:
    """A question with its country said first: the lead, one of the style's ``lead`` or
    ``lead_topic`` forms, and the question after it (capitalized)."""
    m = _LEAD.match(question)
    assert m, question
    lead, ask = m.groups()
    frame = load_templates().style.frame
    patterns = [
        re.escape(f).replace(re.escape("{s}"), ".+").replace(re.escape("{x}"), ".+")
        for f in [*frame["lead"], *frame["lead_topic"]]
    ]
    assert any(re.fullmatch(p, lead) for p in patterns), lead
    return lead, capitalize(ask)
