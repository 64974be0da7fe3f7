"""What every injector shares: the chain context, proposals, failures, and the final steps
(candidates with downstream answers, the consequential test, a clue)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from builder.ambiguity.clues import pick_fact_clue, pronoun_of
from builder.ambiguity.plan import final_text
from builder.kb.text import normalize_name
from builder.records.sample import Candidate, Certificate
from builder.records.seed import ClueFact, Constraint, HopSpec, InjectionSpec, SeedChain
from builder.seeding.facts import Facts
from builder.seeding.templates import load_templates
from builder.validity.certify import Certifier, Refusal

MAX_CANDIDATES = 20
# a version's clue is its date, which tells any number of versions apart
MAX_VERSIONS = 80


@dataclass
class ChainContext:
    """One seed chain under injection."""

    facts: Facts
    seed: SeedChain
    rng: random.Random
    certifier: Certifier = field(default=None)  # type: ignore[assignment]  # set in post-init
    specs: list[HopSpec] = field(init=False)
    keys: list[str] = field(init=False)
    forbidden: list[str] = field(init=False)

    def __post_init__(self) -> None:
        if self.certifier is None:
            self.certifier = Certifier.from_settings(self.facts)
        self.specs = [h.spec for h in self.seed.hops]
        self.keys = [h.answer_key for h in self.seed.hops]
        self.forbidden = [s for h in self.seed.hops for s in (h.answer, *h.answer_aliases)]

    def prev(self, hop: int) -> str | None:
        return self.keys[hop - 1] if hop else (self.specs[0].anchor or None)

    def clue_ok(self, hop: int, keys: Sequence[str], spec: HopSpec) -> Callable[[ClueFact], bool]:
        """A clue fact the certifier accepts: decidable for every candidate in ``keys`` and not
        the target's definition."""
        prev = self.prev(hop)
        target = self.keys[hop]

        def ok(clue: ClueFact) -> bool:
            if self.certifier.definitional(target, clue) is not None:
                return False
            got = self.certifier.clue_matches(clue, keys, spec, prev)
            return not isinstance(got, Refusal) and got == [target]

        return ok

    def fact_clue(
        self,
        hop: int,
        keys: Sequence[str],
        spec: HopSpec,
        *,
        avoid: Constraint | None = None,
        exclude_property: str = "",
        vetted_over: HopSpec | None = None,
        corrects: str = "",
    ) -> ClueFact | None:
        """A fact of the hop's target that tells it from the other ``keys`` (see
        :func:`pick_fact_clue`), vetted by the certifier over ``vetted_over`` (default
        ``spec``, the description the user gives); ``corrects``: the property the question
        gave a false value of, whose true value the clue says as a correction."""
        noun, pronoun = self.person_ref(hop)
        return pick_fact_clue(
            self.facts,
            self.keys[hop],
            keys,
            spec,
            self.forbidden,
            set(self.keys),
            self.rng,
            avoid=avoid,
            accept=self.clue_ok(hop, keys, vetted_over or spec),
            exclude_property=exclude_property,
            salt=self.seed.id,
            noun=noun,
            pronoun=pronoun,
            corrects=corrects,
            turn=hop,
        )

    def people(self) -> list[str]:
        """The people the question names or asks through: its anchor, the answers and the
        values of its hops' constraints that are people."""
        said = [self.specs[0].anchor, *self.keys]
        said += [c.value for s in self.specs for c in s.constraints]
        return [k for k in dict.fromkeys(said) if k and self.facts.is_human(k)]

    def person_ref(self, hop: int) -> tuple[str, str]:
        """How a reply of a fact names hop ``hop``'s person: (noun, pronoun). The noun
        ("head of state") where the question has another person "they" could mean, else "";
        the pronoun ("he"/"she") where it can mean no one else the question names (every
        other person's sex is known and not theirs), else "". A reply says the pronoun where
        it has one (the noun serves a fact that is the sex itself: "the leader I mean is a
        woman"; ``fact_nouns`` in clues.yaml before ``nouns``). A fact reply says no year,
        so another hop's time needs no noun here (cf. :meth:`person_noun`)."""
        target = self.keys[hop]
        pronoun = pronoun_of(self.facts, target)
        others = [k for k in self.people() if k != target]
        if not all(pronoun_of(self.facts, k) not in ("", pronoun) for k in others):
            pronoun = ""
        # (a leader's fact by "the leader": the question has said "the head of government")
        spec = self.specs[hop]
        said = "" if spec.link_inverse else load_templates().clue_fact_nouns.get(spec.link, "")
        noun = said or self._noun(hop)
        return (noun if noun and others and self.facts.is_human(target) else ""), pronoun

    def _noun(self, hop: int) -> str:
        """The role noun of hop ``hop``'s person (``nouns`` in clues.yaml), "" if none."""
        spec = self.specs[hop]
        return "" if spec.link_inverse else load_templates().clue_nouns.get(spec.link, "")

    def person_noun(self, hop: int) -> str:
        """How a reply names hop ``hop``'s person where the chain has another person (its
        anchor or an answer), so that "they" cannot mean either, or another hop with a time of
        its own, whose reply would say another year ("the 1930 one", then "I'm asking about
        2021"); ``nouns`` in clues.yaml. "" otherwise, or where the hop's noun is not
        listed."""
        noun = self._noun(hop)
        anchor = self.specs[0].anchor
        people = sum(self.facts.is_human(k) for k in self.keys)
        people += bool(anchor and self.facts.is_human(anchor))
        timed = any(s.qualifier for i, s in enumerate(self.specs) if i != hop)
        return noun if noun and (people >= 2 or timed) else ""

    @property
    def final(self) -> str:
        return self.seed.hops[-1].answer

    def downstream(self, hop: int, key: str) -> str:
        return final_text(self.facts, self.specs, hop, key, self.prev(hop) or "")

    def candidate_label(self, hop: int, key: str) -> str:
        spec = self.specs[hop]
        prev = self.prev(hop)
        if spec.link and not spec.link_inverse and prev:
            text = self.facts.key_text(key, subject=prev, pid=spec.link)
        else:
            text = self.facts.label(key)
        for v in self.facts.timed(prev, spec.link) if prev and spec.link else []:
            if v.value_key == key and (when := v.point_in_time or v.start):
                return f"{text} ({when.lstrip('+')[:4]})"
        return text


@dataclass(frozen=True)
class Proposal:
    """A checkpoint made ambiguous, ready to go into a sample."""

    hop: int  # 0-based
    injection: InjectionSpec
    weakened: HopSpec
    candidates: list[Candidate]
    note: str
    certificate: Certificate | None = None


@dataclass(frozen=True)
class Failure:
    """An ambiguity that was tried and failed a check (goes to the rejects file)."""

    hop: int
    type: str
    check: str
    reason: str
    detail: str


class Injector(Protocol):
    """One ambiguity type: proposes ambiguous versions of a hop."""

    name: str

    def propose(self, ctx: ChainContext, hop: int) -> list[Proposal | Failure]: ...


def same(a: str, b: str) -> bool:
    return normalize_name(a) == normalize_name(b)


def finish(
    ctx: ChainContext,
    hop: int,
    injection: InjectionSpec,
    weakened: HopSpec,
    keys: list[str],
    note: str,
    clue: ClueFact | None,
) -> Proposal | Failure:
    """Attach candidates (target included) with downstream answers and the clue; refuse when
    fewer than 2 candidates, no wrong candidate changes the final answer, or no clue."""
    kind = injection.type
    target = ctx.keys[hop]
    if target not in keys or len(keys) < 2:
        return Failure(
            hop,
            kind,
            "ambiguous",
            "fewer than 2 candidates fit",
            f"fits={len(keys)} target_in={target in keys}",
        )
    limit = MAX_VERSIONS if kind == "version" else MAX_CANDIDATES
    if len(keys) > limit:
        return Failure(
            hop,
            kind,
            "ambiguous",
            "too many candidates for one clue",
            f"fits={len(keys)} max={limit}",
        )
    cands = [
        Candidate(
            id=k,
            label=ctx.candidate_label(hop, k),
            downstream_answer=ctx.final if k == target else ctx.downstream(hop, k),
        )
        for k in keys
    ]
    wrong = [c for c in cands if c.id != target]
    if not any(c.downstream_answer and not same(c.downstream_answer, ctx.final) for c in wrong):
        got = [c.downstream_answer or "-" for c in wrong]
        return Failure(
            hop,
            kind,
            "consequential",
            "no wrong candidate changes the final answer",
            f"final={ctx.final!r} wrong_downstream={got[:5]}",
        )
    if clue is None:
        return Failure(
            hop,
            kind,
            "solvable",
            "no fact tells the target from every candidate",
            f"candidates={len(keys)}",
        )
    injection = injection.model_copy(update={"clue": clue})
    return Proposal(hop, injection, weakened, cands, note)
