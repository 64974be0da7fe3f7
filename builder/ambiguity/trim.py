"""A chain cut to the hops its ambiguities need: from the first ambiguous hop (its subject
named) or, where that cut is refused, one hop before it, to one after the last.

A four-hop chain whose only ambiguity is its last hop ("… the largest country by area that
borders the country where Biogen is headquartered, who led the government in 1957? I think it
was someone born in 1897") asks the same ambiguity in two hops from the United States; long
chains read worst (blind ratings: two hops 4.7 of 5, four 2.4). The first ambiguous hop's
subject named reads as a person asks ("When did the Prime Minister of Japan in 1991 die? The
one born in 1940, I mean." for "Which country is Bandai Namco Entertainment headquartered in?
When did the head of government there in 1991 die? …"); where that cut asks a question another
sample asks (many chains reach Germany), the hop before it stays. The cut chain is the same
facts, each hop keeping its evidence and certificate (a hop's uniqueness depends on its own
subject, which the cut names instead of reaching), and the cut sample passes every check
again before the mix may keep it (:mod:`builder.ambiguity.mix`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from builder.ambiguity.mix import signature
from builder.records.sample import Sample
from builder.records.seed import SeedChain
from builder.seeding.facts import Facts
from builder.seeding.generate import to_chain
from builder.seeding.options import Option
from builder.seeding.search import Step
from builder.validity.certify import Certifier

MIN_HOPS = 2
MAX_SAME_CUT = 2  # cut chains of one shape (see _shape) a build keeps
# a hop that reads as nothing once its subject is named ("the country Paris is in"): the cut
# starts one hop earlier, at the entity that reached the place
PLAIN_FROM_NAMED = frozenset({"P17", "P131", "P30"})


def needed(chain: SeedChain, ambiguous: Sequence[int], before: int = 1) -> tuple[int, int]:
    """The 0-based hops (first, last) of ``chain`` that its ``ambiguous`` hops need, keeping
    ``before`` hops ahead of the first ambiguous one (0: that hop's subject is named)."""
    n = len(chain.hops)
    lo = max(0, min(ambiguous) - before)
    hi = min(max(ambiguous) + 1, n - 1)

    def back(lo: int) -> int:
        while lo > 0 and chain.hops[lo].spec.link in PLAIN_FROM_NAMED:
            lo -= 1
        return lo

    lo = back(lo)
    while hi - lo + 1 < MIN_HOPS and hi - lo + 1 < n:
        if lo > 0:
            lo = back(lo - 1)  # (not "the country Mainz is in" to reach two hops)
        else:
            hi += 1
    return lo, hi


def cut(
    facts: Facts, chain: SeedChain, lo: int, hi: int, certifier: Certifier | None = None
) -> SeedChain | None:
    """Hops ``lo``..``hi`` of ``chain`` as a chain of their own (the entity hop ``lo`` starts
    from is its named anchor), or None when that is the whole chain or fewer than two hops."""
    hops = chain.hops[lo : hi + 1]
    if len(hops) < MIN_HOPS or len(hops) == len(chain.hops):
        return None
    path = []
    for j, hop in enumerate(hops):
        spec = hop.spec
        if j == 0 and lo > 0:
            anchor = chain.hops[lo - 1]
            if anchor.answer_kind != "entity" or not facts.has_label(anchor.answer_key):
                return None
            spec = spec.model_copy(update={"anchor": anchor.answer_key})
        path.append(Step(Option(spec, hop.answer_key, hop.answer_kind, "given"), hop.evidence, {}))
    first = path[0].opt.spec.anchor or path[0].opt.answer_key
    domain = facts.store.domain_of(first) or chain.domain
    return to_chain(facts, chain.id, domain, path, certifier)


def _shape(chain: SeedChain) -> tuple[str, ...]:
    """What a cut chain asks but for its years and remembered facts: the build cut twelve
    four-hop chains that reach the United States by way of Biogen, Elvis Presley, Costco …
    to "In the country with the largest area bordering the United States, who led the
    government in 1957 (1963, 1968 …)?", one question in all but the year."""
    first = chain.hops[0].spec
    links = (h.spec.link + ("^" if h.spec.link_inverse else "") for h in chain.hops)
    return (first.anchor, first.criterion, *links)


def shorten(
    facts: Facts,
    kept: Sequence[Sample],
    chains: dict[str, SeedChain],
    inject_one: Callable[[SeedChain], Sample | None],
    *,
    min_per_domain: int = 0,
    max_per_domain: int | None = None,
    certifier: Certifier | None = None,
) -> tuple[list[Sample], int]:
    """``kept`` with each sample whose chain has hops its ambiguities do not need replaced by
    the sample of the cut chain (:func:`needed`, :func:`cut`), where that one passes every
    check with the same difficulty and ambiguity types (``inject_one`` injects and checks a
    chain), asks a question no other kept sample asks (nor, past :data:`MAX_SAME_CUT`, one of
    the same shape), and the domain counts stay within
    ``min_per_domain``..``max_per_domain`` (a cut chain may start in another domain: "the
    largest country bordering the United States").
    Returns the samples, in order, and how many were cut."""
    domains: Counter[str] = Counter(s.domain for s in kept)
    asked: Counter[str] = Counter(s.question for s in kept)
    shapes: Counter[tuple[str, ...] | None] = Counter()
    out: list[Sample] = []
    n_cut = 0
    for s in kept:
        chain = chains.get(s.provenance.seed_id)
        ambiguous = [c.index - 1 for c in s.checkpoints if c.ambiguous]
        short = None
        if chain is not None and ambiguous and len(chain.hops) == len(s.checkpoints):
            tried: set[tuple[int, int]] = set()
            for before in (0, 1):
                lo, hi = needed(chain, ambiguous, before)
                if (lo, hi) in tried:
                    continue
                tried.add((lo, hi))
                piece = cut(facts, chain, lo, hi, certifier)
                got = inject_one(piece) if piece is not None else None
                # the cut of several chains may ask one question ("… the largest country
                # bordering the United States, who led the government in 1957?"): it is
                # asked once
                shape = _shape(piece) if piece is not None else None
                fresh = got is not None and not asked[got.question] and shapes[shape] < MAX_SAME_CUT
                if got is not None and fresh and signature(got) == signature(s):
                    moves = got.domain != s.domain
                    if not moves or (
                        domains[s.domain] > min_per_domain
                        and (max_per_domain is None or domains[got.domain] < max_per_domain)
                    ):
                        short = got
                        break
        if short is None:
            out.append(s)
            continue
        domains[s.domain] -= 1
        domains[short.domain] += 1
        asked[s.question] -= 1
        asked[short.question] += 1
        shapes[shape] += 1
        out.append(short)
        n_cut += 1
    return out, n_cut
