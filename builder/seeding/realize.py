"""Question text from hop descriptions: nested multi-hop English from per-relation templates.

A hop's noun phrase nests the previous hop's noun phrase (``the founder of the developer of
the video game released in 2017``); a hop's goal refers to the previous answer as ``that
<class>`` so it never names a previous answer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from builder.kb.domains import CLASS_LABELS
from builder.records.seed import Constraint, HopSpec
from builder.seeding.facts import HUMAN, Facts, year_of
from builder.seeding.templates import Templates, load_templates


def plain(label: str) -> str:
    """A label without its disambiguator: ``The Last of Us (series)`` → ``The Last of Us``."""
    return re.sub(r"\s+\([^)]*\)$", "", label) or label


def article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def _fill(template: str, **values: str) -> str:
    out = template
    if "{a}" in out:
        out = out.replace("{a}", article(values.get("v", "")))
    for key, value in values.items():
        out = out.replace("{" + key + "}", value)
    return out


class Realizer:
    """Renders specs with the template files; labels come from the store."""

    def __init__(self, facts: Facts, templates: Templates | None = None) -> None:
        self.facts = facts
        self.t = templates or load_templates()

    def plabel(self, pid: str) -> str:
        return self.facts.label(pid)

    def class_noun(self, class_id: str) -> str:
        if class_id == HUMAN:
            return "person"
        return CLASS_LABELS.get(class_id) or (
            self.facts.label(class_id) if self.facts.has_label(class_id) else "one"
        )

    def noun_of(self, entity_id: str, spec: HopSpec | None = None) -> str:
        """``that person`` / ``that <class>`` for referring back to an answer."""
        if self.facts.is_human(entity_id):
            return "that person"
        if spec is not None and spec.class_id:
            return f"that {self.class_noun(spec.class_id)}"
        for cls in self.facts.classes(entity_id):
            if cls in CLASS_LABELS or self.facts.has_label(cls):
                return f"that {self.class_noun(cls)}"
        return "that one"

    def constraint(self, c: Constraint) -> str:
        rel = self.t.relation(c.property)
        p = self.plabel(c.property)
        if c.match == "year":
            return _fill(rel.in_, p=p, v=str(year_of(c.value)))
        return _fill(rel.by, p=p, v=plain(c.value_label or self.facts.label(c.value)))

    def _restrictions(self, spec: HopSpec, x: str) -> list[str]:
        parts = [self.constraint(c) for c in spec.constraints]
        if spec.link and spec.link_inverse:
            # the nested phrase goes last so that its own restrictions do not read as ours
            parts.append(_fill(self.t.relation(spec.link).by, p=self.plabel(spec.link), v=x))
        return parts

    def _qualifier(self, spec: HopSpec) -> str:
        if not spec.qualifier:
            return ""
        tmpl = self.t.qualifiers.get(spec.qualifier, "in {v}")
        return _fill(tmpl, v=str(year_of(spec.qualifier_value)))

    def _class_phrase(self, spec: HopSpec, x: str, lead: str) -> str:
        adj = ""
        tail = ""
        least = spec.criterion_order == "min"
        if spec.criterion:
            phrases = self.t.criterion(spec.criterion)
            most = phrases.least if least else phrases.most
            tail = " " + _fill(most, p=self.plabel(spec.criterion))
        elif spec.criteria_options:
            phrases = self.t.criterion(spec.criteria_options[0])
            adj = (phrases.vague_least if least else phrases.vague) + " "
        restr = _join(self._restrictions(spec, x))
        noun = self.class_noun(spec.class_id) if spec.class_id else "one"
        if lead == "Which" and (adj or tail):
            lead = "Which is the"
        return f"{lead} {adj}{noun}{' ' + restr if restr else ''}{tail}"

    def noun_phrase(self, spec: HopSpec, x: str) -> str:
        """The hop's answer as a noun phrase; ``x`` is the previous hop's noun phrase."""
        if spec.link and not spec.link_inverse:
            of = _fill(self.t.relation(spec.link).of, p=self.plabel(spec.link))
            if spec.qualifier and " of {x}" in of:
                # the time belongs to the relation: "the head coach from 2021 of <x>"
                of = of.replace(" of {x}", f" {self._qualifier(spec)} of {{x}}", 1)
            elif spec.qualifier:
                of = f"{of} {self._qualifier(spec)}"
            head = _fill(of, x=x)
            return " ".join([head, *(self.constraint(c) for c in spec.constraints)])
        return self._class_phrase(spec, x, "the")

    def ask(self, spec: HopSpec, x: str) -> str:
        """The hop as a question about ``x`` (``that game`` in goals, a noun phrase at the end)."""
        if spec.link and not spec.link_inverse and not spec.constraints:
            q = _fill(self.t.relation(spec.link).ask, p=self.plabel(spec.link), x=x)
            if spec.qualifier:
                q = q.rstrip("?") + " " + self._qualifier(spec) + "?"
            return q
        if spec.link and not spec.link_inverse:
            return f"Which is {self.noun_phrase(spec, x)}?"
        return self._class_phrase(spec, x, "Which") + "?"

    def goals(self, specs: Sequence[HopSpec], answers: Sequence[str]) -> list[str]:
        """One sub-question per hop; later hops refer to the previous answer's class."""
        out = []
        for i, spec in enumerate(specs):
            ref = self.noun_of(answers[i - 1], specs[i - 1]) if i else ""
            out.append(_capital(self.ask(spec, ref)))
        return out

    def question(self, specs: Sequence[HopSpec]) -> str:
        """The whole chain as one nested question."""
        x = ""
        for spec in specs[:-1]:
            x = self.noun_phrase(spec, x)
        return _capital(self.ask(specs[-1], x))


def _join(parts: list[str]) -> str:
    if len(parts) <= 2:
        return " and ".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _capital(text: str) -> str:
    text = " ".join(text.split())
    for old, new in ((" the the ", " the "), (" the that ", " that "), (" the The ", " The ")):
        text = text.replace(old, new)
    return text[:1].upper() + text[1:]
