"""Depth-first search of one chain from a topic, keeping ambiguity-capable hops consequential."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from builder.records.sample import Evidence
from builder.records.seed import ClueFact, Constraint, HopSpec
from builder.seeding.era import eras
from builder.seeding.evidence import answer_text, evidence_options, retrievable
from builder.seeding.facts import Facts, year_of
from builder.seeding.options import (
    Option,
    aligned_versions,
    distinct_facts,
    link_options,
    topic_options,
)
from builder.seeding.realize import Realizer
from builder.seeding.resolve import base_fits, bounded, fits, top, without
from builder.seeding.templates import load_templates
from builder.seeding.text import leaks
from builder.validity.certify import Certifier, Refusal

INJECTABLE = frozenset({"constraints", "criterion", "version", "narrowed", "inverse"})
MAX_TRIES = 7
MAX_SCORED = 24
# rarer ambiguity kinds are preferred when they keep their own alternatives
KIND_BONUS = {"criterion": 2.5, "version": 0.5}
MAX_ALTS = 6
HUB_BONUS = 0.5
# a version of another year than the one the chain is already about, where that year's
# version is an option ("its head of state at the time"): it loses every tie (the random
# spread) but not to an option it keeps one more ambiguity over. A penalty, not a bonus of
# the aligned one, so that versions gain no ground on the other kinds (nor from one that may
# carry an entity ambiguity no version of the chain's year may, see recalls)
OFF_ERA_PENALTY = 0.9
SEARCH_BUDGET = 200
MAX_CANDIDATES = 20  # as injection: more candidates than one clue can tell apart


@dataclass
class Step:
    """One hop of a chain being built, and where wrong candidates of earlier ambiguity-capable
    hops stand after it (origin hop -> their current keys): a hop stays consequential while
    some of its wrong candidates still execute and differ from the gold path."""

    opt: Option
    evidence: list[Evidence]
    alts: dict[int, list[str]]


class ChainBuilder:
    """Builds one chain from a topic, depth-first, trying a few options per hop, preferring
    options that keep earlier ambiguity-capable hops consequential."""

    def __init__(self, facts: Facts, certifier: Certifier | None = None) -> None:
        self.facts = facts
        self.certifier = certifier or Certifier.from_settings(facts)
        rels = load_templates().relations
        self.inverse_props = [p for p in sorted(rels) if facts.datatype(p) == "wikibase-item"]
        self._links: dict[str, list[Option]] = {}
        self._aligned: dict[tuple[str, int], list[Option]] = {}
        self._anchored: dict[str, list[Option]] | None = None
        self.hubs = self._hubs()

    def _hubs(self) -> frozenset[str]:
        """Entities a later hop can leave through a declared-complete set of several
        members (office holders by year, a club's coaches, the films of a director, a
        country's neighbours): a chain reaching one can carry one more ambiguity."""
        comp = self.certifier.completeness
        out = set()
        for d in comp.declarations:
            ranged = d.since is not None or d.until is not None
            if d.subject not in out and (ranged or len(comp.members(d)) >= 2):
                out.add(d.subject)
        return frozenset(out)

    def _carry(
        self, opt: Option, prev: str | None, alts: dict[int, list[str]], index: int
    ) -> dict[int, list[str]]:
        out: dict[int, list[str]] = {}
        for origin, keys in alts.items():
            moved = []
            for key in keys:
                got = fits(self.facts, opt.spec, key)
                if len(got) == 1 and got[0] != opt.answer_key:
                    moved.append(got[0])
            if moved:
                out[origin] = sorted(set(moved))[:MAX_ALTS]
        if opt.kind in INJECTABLE:
            own = self.certified_alternatives(opt.spec, prev, opt.answer_key)
            if own:
                out[index] = own[:MAX_ALTS]
        return out

    def certified_alternatives(self, spec: HopSpec, prev: str | None, target: str) -> list[str]:
        """The wrong candidates an ambiguity injected at this hop could offer, counted only
        where it would be real in the world: the weakened description (a fact dropped, the
        time dropped, the criterion left vague) is evaluated over a complete set, at least two
        members fit, and for a dropped fact another fact of the target, decidable for every
        member, tells it from them. (Store-only siblings would make the search keep chains
        whose ambiguity the certifier then refuses.)"""
        out: set[str] = set()
        weak_time = spec.model_copy(
            update={"qualifier": "", "qualifier_value": "", "any_time": True}
        )
        if not spec.criterion:
            for i, c in enumerate(spec.constraints):
                weak = without(spec, i)
                if not bounded(self.facts, weak, prev):
                    continue
                got = self._members(weak, prev, target)
                if got and self._clued(target, got, weak, prev, c.property):
                    out.update(got)
        if spec.qualifier:
            got = self._members(weak_time, prev, target)
            if got:
                out.update(got)
        if spec.criterion and spec.class_id:
            group = base_fits(self.facts, spec, prev)
            options = [spec.criterion]
            for pid in self.facts.numeric_properties(spec.class_id):
                t = top(self.facts, group, pid, spec.criterion_order)
                if len(t) == 1 and t[0] != target and len(options) < 3:
                    options.append(pid)
            weak = spec.model_copy(update={"criterion": "", "criteria_options": options})
            got = self._members(weak, prev, target) if len(options) > 1 else None
            if got:
                out.update(got)
        out.discard(target)
        return sorted(out)

    def _members(self, weak: HopSpec, prev: str | None, target: str) -> list[str] | None:
        got = self.certifier.members_fitting(weak, prev)
        if got is None or target not in got or not 2 <= len(got) <= MAX_CANDIDATES * 4:
            return None
        return got

    def _clued(
        self, target: str, keys: list[str], weak: HopSpec, prev: str | None, dropped: str
    ) -> bool:
        """Whether a fact of the target other than the dropped one singles it out among
        ``keys``, decidably for each (what an entity ambiguity's clue needs)."""
        if len(keys) > MAX_CANDIDATES:
            return False
        used = {(c.property, c.value) for c in weak.constraints}

        def skip(c: Constraint) -> bool:
            return c.property == dropped or (c.property, c.value) in used

        for c in distinct_facts(self.facts, target, keys, skip):
            clue = ClueFact.from_fact(c)
            if self.certifier.definitional(target, clue) is not None:
                continue
            if self.certifier.clue_matches(clue, keys, weak, prev) == [target]:
                return True
        return False

    def _ranked(
        self,
        opts: list[Option],
        prev: str | None,
        alts: dict[int, list[str]],
        index: int,
        rng: random.Random,
        years: tuple[int, ...] = (),
    ) -> list[tuple[Option, dict[int, list[str]]]]:
        """Options by how many ambiguity-capable hops they keep consequential, with bonuses
        for rarer kinds and hubs, and versions of the chain's ``years`` before the others."""
        rng.shuffle(opts)
        # the options that may add an ambiguity, or lead to a set that may, are scored first
        # (and among them the versions of the chain's years, which a long list would crowd out)
        opts.sort(
            key=lambda o: (
                o.kind not in INJECTABLE,
                o.answer_key not in self.hubs,
                not aligned(o, years),
            )
        )
        carry = [(o, self._carry(o, prev, alts, index)) for o in opts[:MAX_SCORED]]
        # links with a version of one of the chain's years, and those where one may also
        # carry an entity ambiguity (a recalled fact its own alternatives share)
        era_links = {o.spec.link for o, _ in carry if aligned(o, years)}
        era_entity = {o.spec.link for o, c in carry if aligned(o, years) and recalls(o, index, c)}
        scored = []
        for o, carried in carry:
            bonus = KIND_BONUS.get(o.kind, 0.0) if index in carried else 0.0
            bonus += HUB_BONUS if o.answer_key in self.hubs else 0.0
            entity = recalls(o, index, carried) and o.spec.link not in era_entity
            if o.kind == "version" and o.spec.link in era_links and not aligned(o, years):
                bonus -= 0.0 if entity else OFF_ERA_PENALTY
            scored.append((len(carried) + bonus + rng.random() * 0.9, o, carried))
        scored.sort(key=lambda t: -t[0])
        return [(o, c) for _, o, c in scored]

    def build(self, topic: str, length: int, rng: random.Random) -> list[Step] | None:
        """The complete chain (within a search budget) keeping the most ambiguity-capable
        hops consequential; None when no chain reaches ``length`` with one such hop."""
        if self.facts.store.get_page(topic) is None:
            return None
        self.best: list[Step] | None = None
        self.budget = SEARCH_BUDGET
        opts = [o for o in topic_options(self.facts, topic) if self._certified(o, None)]
        opts += self.anchored().get(topic, [])
        ranked = self._ranked(opts, None, {}, 0, rng)
        for opt, carried in ranked[:MAX_TRIES]:
            ev = evidence_options(self.facts, opt.spec, opt.spec.anchor or None, topic)
            if not ev:
                continue
            self._extend([Step(opt, ev, carried)], length, rng)
            if self.budget <= 0 or self._full(self.best, length):
                break
        return self.best

    def anchored(self) -> dict[str, list[Option]]:
        """Hop-1 options that start from a named entity whose relation is declared complete
        ("the winner of the Palme d'Or in 1994"), by the answer they lead to."""
        if self._anchored is None:
            self._anchored = {}
            comp = self.certifier.completeness
            subjects = sorted({d.subject for d in comp.declarations if d.direction == "forward"})
            for anchor in subjects:
                if self.facts.entity(anchor) is None:
                    continue
                dated = self.certifier.completeness.dated
                for o in link_options(self.facts, anchor, [], dated, self._accept(anchor)):
                    if o.answer_kind != "entity" or o.answer_key == anchor:
                        continue
                    spec = o.spec.model_copy(update={"anchor": anchor})
                    opt = Option(spec, o.answer_key, o.answer_kind, o.kind)
                    if self._certified(opt, None):
                        self._anchored.setdefault(o.answer_key, []).append(opt)
        return self._anchored

    def _years(self, path: list[Step]) -> list[int]:
        """The years the chain so far names or reaches, best first
        (:func:`builder.seeding.era.eras`)."""
        specs = [s.opt.spec for s in path]
        return [e.year for e in eras(self.facts, specs, [s.opt.answer_key for s in path])]

    def _era_options(self, prev: str, years: tuple[int, ...]) -> list[Option]:
        """Versions of ``prev``'s time-qualified relations in one of ``years`` that its
        options do not already have (a term that began that year is one)."""
        have = {
            (o.spec.link, year_of(o.spec.qualifier_value))
            for o in self._links[prev]
            if o.kind == "version"
        }
        kinds = {o.spec.link: o.answer_kind for o in self._links[prev] if o.kind == "version"}
        out: list[Option] = []
        for year in sorted(years):
            if (prev, year) not in self._aligned:
                self._aligned[(prev, year)] = [
                    o
                    for pid, kind in sorted(kinds.items())
                    if (pid, year) not in have
                    for o in aligned_versions(self.facts, prev, pid, kind, year)
                ]
            out += self._aligned[(prev, year)]
        return out

    def _accept(self, prev: str) -> Callable[[HopSpec, str], bool]:
        """Whether a hop from ``prev`` to an answer is certified (narrowed variants count
        towards their limit only then)."""

        def accept(spec: HopSpec, answer: str) -> bool:
            return not isinstance(self.certifier.hop(spec, prev, answer), Refusal)

        return accept

    def _certified(self, opt: Option, prev: str | None) -> bool:
        """Only descriptions unique in the real world (see :mod:`builder.validity`)."""
        got = self.certifier.hop(opt.spec, prev, opt.answer_key)
        return not isinstance(got, Refusal)

    def _leaky(self, path: list[Step]) -> bool:
        """Whether the chain's question would name one of its own answers."""
        question = Realizer(self.facts).question([s.opt.spec for s in path])
        texts: list[str] = []
        prev = path[0].opt.spec.anchor
        for s in path:
            text, aliases = answer_text(self.facts, s.opt.answer_key, prev, s.opt.spec.link)
            texts += [text, *aliases]
            prev = s.opt.answer_key
        return bool(leaks(question, texts))

    def _searchable(self, path: list[Step]) -> bool:
        """Keep, per hop, only evidence that local search finds for the hop's query (searched
        once a whole chain stands, so abandoned branches cost no searches)."""
        prev: str | None = path[0].opt.spec.anchor or None
        found: list[list[Evidence]] = []
        for step in path:
            got = retrievable(self.facts, step.opt.spec, prev, step.evidence)
            if not got:
                return False
            found.append(got)
            prev = step.opt.answer_key
        for step, ev in zip(path, found, strict=True):
            step.evidence = ev
        return True

    @staticmethod
    def _full(path: list[Step] | None, length: int) -> bool:
        return path is not None and len(path[-1].alts) >= min(length, 3)

    def _extend(self, path: list[Step], length: int, rng: random.Random) -> None:
        self.budget -= 1
        if len(path) == length:
            if (
                path[-1].alts
                and not self._leaky(path)
                and (self.best is None or len(path[-1].alts) > len(self.best[-1].alts))
                and self._searchable(path)
                and (self.best is None or len(path[-1].alts) > len(self.best[-1].alts))
            ):
                self.best = list(path)
            return
        last = path[-1].opt
        if last.answer_kind != "entity" or self.budget <= 0:
            return
        prev = last.answer_key
        answers = {s.opt.answer_key for s in path}
        mentioned = {c.value for s in path for c in s.opt.spec.constraints}
        mentioned.add(path[0].opt.spec.anchor)
        used = {c.property for c in last.spec.constraints} | {last.spec.link}
        final = len(path) + 1 == length
        if prev not in self._links:
            self._links[prev] = link_options(
                self.facts,
                prev,
                self.inverse_props,
                self.certifier.completeness.dated,
                self._accept(prev),
            )
        years = tuple(self._years(path))
        opts = [
            o
            for o in [*self._links[prev], *self._era_options(prev, years)]
            if o.answer_key not in answers | mentioned
            and not ({c.value for c in o.spec.constraints} & answers)
            and o.spec.link not in used
            and (final or o.answer_kind == "entity")
            and self._certified(o, prev)
        ]
        ranked = self._ranked(opts, prev, path[-1].alts, len(path), rng, years)
        for opt, carried in ranked[:MAX_TRIES]:
            if final and not carried:
                continue
            ev = evidence_options(self.facts, opt.spec, prev, opt.answer_key)
            if not ev:
                continue
            self._extend([*path, Step(opt, ev, carried)], length, rng)
            if self.budget <= 0 or self._full(self.best, length):
                return


def aligned(opt: Option, years: tuple[int, ...]) -> bool:
    """Whether ``opt`` is a version of one of ``years``."""
    return opt.kind == "version" and year_of(opt.spec.qualifier_value) in years


def recalls(opt: Option, index: int, carried: dict[int, list[str]]) -> bool:
    """Whether a version with a recalled fact has alternatives of its own ("the head of
    state who was born in 1946" fits several): it may carry an entity ambiguity."""
    return opt.kind == "version" and bool(opt.spec.constraints) and index in carried
