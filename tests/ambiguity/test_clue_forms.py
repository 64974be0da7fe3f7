"""Replies that read as a person wrote them (issue 11): a person said "he"/"she" where that
can mean no one else the question names, a detail the question got wrong put right as a
correction, a criterion the question asks the value of confirmed rather than announced, and
short, varied version replies. The fact a reply states stays the one the certifier checked:
only the words around it change."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from builder.ambiguity.base import ChainContext, Proposal
from builder.ambiguity.clues import (
    criterion_clue,
    era_clue,
    of_pronoun,
    pick_fact_clue,
    pronoun_of,
    qualifier_clue,
    render,
)
from builder.ambiguity.version import VersionInjector
from builder.evaluation.oracle import clue_words
from builder.kb.store import KnowledgeStore
from builder.records.seed import ClueFact, Constraint, HopSpec
from builder.seeding.era import Era
from builder.seeding.facts import Facts
from builder.seeding.generate import chain_from_specs
from builder.seeding.templates import load_templates
from builder.validity.certify import Certifier
from tests.ambiguity.minikb import build_store_with, ent

ROOT = Path(__file__).resolve().parents[2] / "builder" / "prompts" / "eval"
MALE, FEMALE = "Q6581097", "Q6581072"

MORE_PROPS = {
    "P27": ("country of citizenship", "wikibase-item"),
    "P35": ("head of state", "wikibase-item"),
    "P6": ("head of government", "wikibase-item"),
    "P570": ("date of death", "time"),
}


def _world() -> list[tuple]:  # type: ignore[type-arg]
    return [
        ent("Q5", "human"),
        ent("Q6256", "country"),
        ent(MALE, "male"),
        ent(FEMALE, "female"),
        ent(
            "L:land",
            "Freedonia",
            "Q6256",
            {
                "P35": [
                    {"v": "L:rufus", "P580": "1930", "P582": "1940"},
                    {"v": "L:chico", "P580": "1940"},
                ],
                "P6": [
                    {"v": "L:margaret", "P580": "1930", "P582": "1940"},
                    {"v": "L:zeppo", "P580": "1940"},
                ],
            },
            page="Freedonia is a country. The head of state of Freedonia since 1930 is Rufus "
            "Firefly. The head of government of Freedonia since 1930 is Margaret Dumont, and since 1940 "
            "Zeppo Marx.",
        ),
        ent(
            "L:rufus",
            "Rufus Firefly",
            "Q5",
            {"P21": MALE, "P569": "1890", "P570": "1977", "P27": "L:land"},
            page="Rufus Firefly, born in 1890, a citizen of Freedonia, became head of state of "
            "Freedonia in 1930.",
        ),
        ent(
            "L:chico",
            "Chicolini",
            "Q5",
            {"P21": MALE, "P569": "1887", "P570": "1961", "P27": "L:sylvania"},
            page="Chicolini, born in 1887, a citizen of Sylvania.",
        ),
        ent(
            "L:sylvania",
            "Sylvania",
            "Q6256",
            {
                "P6": [
                    {"v": "L:trentino", "P580": "1930", "P582": "1940"},
                    {"v": "L:pinky", "P580": "1940"},
                ]
            },
            page="Sylvania is a country led by Ambassador Trentino since 1930.",
        ),
        ent("L:trentino", "Trentino", "Q5", {"P21": MALE, "P569": "1870"}),
        ent("L:pinky", "Pinky", "Q5", {"P21": MALE, "P569": "1880"}),
        ent(
            "L:margaret",
            "Margaret Dumont",
            "Q5",
            {"P21": FEMALE, "P569": "1882", "P570": "1965"},
            page="Margaret Dumont, born in 1882, led the government of Freedonia from 1930.",
        ),
        ent("L:zeppo", "Zeppo Marx", "Q5", {"P21": MALE, "P569": "1901", "P570": "1979"}),
        ent(
            "L:groucho",
            "Groucho Marx",
            "Q5",
            {"P21": MALE, "P569": "1895", "P27": "L:land"},
            page="Groucho Marx, born in 1895, was a citizen of Freedonia.",
        ),
        ent(
            "L:harpo",
            "Harpo Marx",
            "Q5",
            {"P569": "1888", "P27": "L:land"},
            page="Harpo Marx, born in 1888, was a citizen of Freedonia.",
        ),
    ]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KnowledgeStore]:
    s = build_store_with(tmp_path_factory.mktemp("forms") / "kb.sqlite", MORE_PROPS, _world)
    yield s
    s.close()


def _year(pid: str, y: int) -> ClueFact:
    return ClueFact(kind="fact", property=pid, value=f"+{y}-00-00T00:00:00Z", match="year", text="")


def _ctx(store: KnowledgeStore, seed: str, citizen: str, link: str) -> ChainContext:
    """A citizen, their country, and the country's head (``link``) in 1930."""
    person = HopSpec(class_id="Q5", constraints=[Constraint(property="P27", value="L:land")])
    person = person.model_copy(update={"constraints": [*person.constraints, _born(citizen)]})
    head = HopSpec(link=link, qualifier="P580", qualifier_value="+1930-00-00T00:00:00Z")
    chain = chain_from_specs(store, seed, [person, HopSpec(link="P27"), head], domain="law_policy")
    return ChainContext(Facts(store), chain, random.Random(0))


def _born(key: str) -> Constraint:
    year = {"L:groucho": 1895, "L:harpo": 1888}[key]
    return Constraint(property="P569", value=f"+{year}-00-00T00:00:00Z", match="year")


def test_a_pronoun_takes_its_verb_and_possessive() -> None:
    assert of_pronoun("they were born in {v}", "she") == "she was born in {v}"
    assert of_pronoun("they're based in {v}", "he") == "he's based in {v}"
    assert of_pronoun("they play in {tv}", "he") == "he plays in {tv}"
    assert of_pronoun("they died in {v}", "she") == "she died in {v}"
    assert of_pronoun("their father was {v}", "she") == "her father was {v}"
    assert of_pronoun("{v} was one of their doctoral students", "he") == (
        "{v} was one of his doctoral students"
    )
    assert of_pronoun("{v} directed it", "he") == "{v} directed it"
    assert of_pronoun("they were born in {v}", "") == "they were born in {v}"


def test_the_pronoun_comes_from_the_snapshot_sex_only(store: KnowledgeStore) -> None:
    facts = Facts(store)
    assert pronoun_of(facts, "L:margaret") == "she"
    assert pronoun_of(facts, "L:rufus") == "he"
    assert pronoun_of(facts, "L:harpo") == ""  # no P21: "they"
    assert pronoun_of(facts, "L:land") == ""  # not a person


def test_he_or_she_only_where_it_can_mean_no_one_else(store: KnowledgeStore) -> None:
    # Groucho and the head of government, a woman: "she" is her (the noun is kept for a
    # reply that says her sex; a leader's noun is "the leader", not the office's kind the
    # question has just said: "I'm fairly sure the leader died in 1979")
    assert _ctx(store, "seed-000001", "L:groucho", "P6").person_ref(2) == ("leader", "she")
    # Groucho and the head of state, both men: "he" could be either, the noun is said
    assert _ctx(store, "seed-000002", "L:groucho", "P35").person_ref(2) == ("leader", "")
    # Harpo's sex is not in the snapshot: "she" might be read as Harpo, so the noun
    harpo = _ctx(store, "seed-000003", "L:harpo", "P6")
    assert harpo.person_ref(2) == ("leader", "")
    # a country is no person
    assert harpo.person_ref(1) == ("", "")
    # one person in the chain (a head named as the country's constraint is that person):
    # "he", though another hop has a time of its own
    land = HopSpec(class_id="Q6256", constraints=[Constraint(property="P35", value="L:rufus")])
    head = HopSpec(link="P35", qualifier="P580", qualifier_value="+1930-00-00T00:00:00Z")
    alone = ChainContext(
        Facts(store),
        chain_from_specs(store, "seed-000004", [land, head], domain="law_policy"),
        random.Random(0),
    )
    assert alone.person_ref(1) == ("", "he")


def test_a_reply_says_she_and_the_same_fact(store: KnowledgeStore) -> None:
    facts = Facts(store)
    for i in range(10):
        salt = f"seed-{i:06d}"
        said = render(facts, _year("P569", 1882), salt=salt, pronoun="she")
        plain = render(facts, _year("P569", 1882), salt=salt)
        assert "she was born in 1882" in said.casefold(), said
        assert not {"they", "head", "winner"} & set(re.findall(r"[a-z']+", said.casefold()))
        assert clue_words(said) == clue_words(plain)  # the oracle reads the same fact
    # the sex itself is the fact: no "she was a woman", the noun says who
    sex = ClueFact(kind="fact", property="P21", value=FEMALE, value_label="female", text="")
    assert "she" not in render(facts, sex, pronoun="she").casefold().split()
    said = {
        render(facts, sex, salt=f"seed-{i:06d}", noun="head of government", pronoun="she")
        for i in range(6)
    }
    assert all("a woman" in x and "she" not in x.casefold().split() for x in said), said
    assert all("the head of government i mean is a woman" in x.casefold() for x in said), said


def test_a_reply_puts_right_what_the_question_said_wrong(store: KnowledgeStore) -> None:
    """Factual ambiguity: the question said the head of state was born in 1891; the reply
    with the true year reads as a correction, a reply of another fact does not."""
    facts = Facts(store)
    certifier = Certifier.from_settings(facts)
    t = load_templates()
    keys = ["L:rufus", "L:chico"]
    spec = HopSpec(class_id="Q5")
    openings = {f.split("{")[0] for f in t.correction_frames if not f.startswith("{")}
    seen = set()
    for i in range(8):
        salt = f"seed-{i:06d}"
        clue = pick_fact_clue(
            facts, "L:rufus", keys, spec, forbidden=["Rufus Firefly"], banned_values=set(),
            rng=random.Random(i), salt=salt, pronoun="he", corrects="P569",
            accept=lambda c: c.property == "P569",
        )  # fmt: skip
        assert clue is not None and clue.property == "P569"
        assert any(clue.text.startswith(o) for o in openings), clue.text
        assert "he was born in 1890" in clue.text.casefold() and "1891" not in clue.text
        assert certifier.clue_matches(clue, keys, spec, None) == ["L:rufus"]
        seen.add(clue.text)
        other = pick_fact_clue(
            facts, "L:rufus", keys, spec, forbidden=["Rufus Firefly"], banned_values=set(),
            rng=random.Random(i), salt=salt, pronoun="he", corrects="P569",
            accept=lambda c: c.property == "P570",
        )  # fmt: skip
        assert other is not None and "he died in 1977" in other.text.casefold()
        assert not any(other.text.startswith(o) for o in openings), other.text
    assert len(seen) >= 2  # not the same words in every sample


def test_a_criterion_the_question_asks_for_is_confirmed(store: KnowledgeStore) -> None:
    facts = Facts(store)
    asked = {criterion_clue(facts, "P2046", "min", f"s{i}", asked=True).text for i in range(12)}
    told = {criterion_clue(facts, "P2046", "min", f"s{i}").text for i in range(12)}
    assert len(asked) >= 2 and len(told) >= 2
    assert all("area" in a and not a.startswith("I meant") for a in asked), asked
    assert all("area" in a for a in told) and asked.isdisjoint(told)
    biggest = {criterion_clue(facts, "P2046", "max", f"s{i}", asked=True).text for i in range(12)}
    assert not any("smallest" in b.casefold() for b in biggest), biggest


def test_criterion_replies_say_no_measure_but_their_own() -> None:
    """The oracle ranks candidates by a criterion reply's words that are neither filler nor
    a superlative: the varied and the confirming forms leave the measure's own word only."""
    t = load_templates()
    lists = [
        w
        for name in ("oracle_filler.txt", "oracle_superlatives.txt", "oracle_smallest.txt")
        for line in (ROOT / name).read_text(encoding="utf-8").splitlines()
        if not line.startswith("#")
        for w in line.split()
    ]
    known = set(lists) | set((ROOT / "oracle_stopwords.txt").read_text(encoding="utf-8").split())
    measures = {"P2046": "area", "P1082": "population", "default": "{p}"}
    for pid, measure in measures.items():
        phrases = t.criterion(pid) if pid != "default" else t.criterion_default
        assert phrases.clue_asked, pid
        for form in (*phrases.clue, *phrases.clue_least, *phrases.clue_asked):
            said = form.replace("{w}", phrases.vague).replace("{W}", phrases.vague_least)
            assert measure in said, form
            words = set(re.findall(r"[a-z']+", said.replace(measure, "").casefold()))
            assert words <= known, form


def test_version_replies_are_short_and_varied(store: KnowledgeStore) -> None:
    facts = Facts(store)
    spec = HopSpec(link="P35", qualifier="P580", qualifier_value="+1998-00-00T00:00:00Z")
    era = Era(year=1998, hop=0, source="qualifier", property="P169")
    named = {
        era_clue(facts, spec, era, "L:land", f"seed-{i:06d}", noun="head of state").text
        for i in range(12)
    }
    plain = {era_clue(facts, spec, era, "L:land", f"seed-{i:06d}").text for i in range(12)}
    quals = {qualifier_clue(facts, spec, f"seed-{i:06d}", "head of state").text for i in range(12)}
    assert len(named) >= 2 and len(plain) >= 2 and len(quals) >= 2
    for text in named | plain | quals:
        assert "1998" in text and "back then, in" not in text.casefold(), text
        assert len(text.split()) <= 9, text
    assert all("head of state" in n for n in named | quals)


def test_new_reply_words_are_filler() -> None:
    t = load_templates()
    lines = (ROOT / "oracle_filler.txt").read_text(encoding="utf-8").splitlines()
    stop = (ROOT / "oracle_stopwords.txt").read_text(encoding="utf-8").split()
    known = {w for line in lines if not line.startswith("#") for w in line.split()} | set(stop)
    assert t.correction_frames and set(t.clue_pronouns.values()) == {"he", "she"}
    for frame in t.correction_frames:
        words = re.findall(r"[a-z']+", frame.replace("{c}", "").replace("{C}", "").lower())
        assert set(words) <= known, frame
    assert {"he", "she", "his", "her", "him", "he's", "she's"} <= known


def test_two_replies_of_one_sample_take_different_forms(store: KnowledgeStore) -> None:
    """A sample's replies (one per ambiguous hop) are worded by the hop they are for: two
    version replies never say the same words around their years, two fact replies never
    share a frame."""
    facts = Facts(store)
    spec = HopSpec(link="P35", qualifier="P580", qualifier_value="+1998-00-00T00:00:00Z")
    for i in range(10):
        salt = f"seed-{i:06d}"
        first = qualifier_clue(facts, spec, salt, "head of state", turn=0).text
        second = qualifier_clue(facts, spec, salt, "head of state", turn=1).text
        assert first != second, salt
        born = render(facts, _year("P569", 1882), salt=salt, turn=0)
        died = render(facts, _year("P570", 1965), salt=salt, turn=2)
        frame = {x.replace("they were born in 1882", "").replace("they died in 1965", "")
                 for x in (born.casefold(), died.casefold())}  # fmt: skip
        assert len(frame) == 2, (born, died)


def test_version_form_lists_alternate_their_openings() -> None:
    """Version replies of one sample take forms by their hops, one place on each: with an
    "I mean" form at each even place and another at each odd one (lists of two or four),
    two version replies in a row never both open with "I mean"."""
    t = load_templates()
    lists = [
        *t.era_clues.values(),
        *t.era_noun_clues.values(),
        t.qualifier_noun_clues,
        *(f for f in t.qualifier_clues.values() if len(f) > 1),
    ]
    for forms in lists:
        assert len(forms) in (2, 4), forms
        for i, form in enumerate(forms):
            assert form.startswith("I mean") == (i % 2 == 0), forms


def test_version_replies_of_one_chain_alternate_across_an_untimed_hop(
    store: KnowledgeStore,
) -> None:
    """Freedonia → its head of state in 1930 → his country → its head of government in
    1930: the two version replies (hops 2 and 4, a country between) open one with "I mean",
    the other not, for every chain id."""
    land = HopSpec(class_id="Q6256", constraints=[Constraint(property="P6", value="L:zeppo")])
    specs = [
        land,
        HopSpec(link="P35", qualifier="P580", qualifier_value="+1930-00-00T00:00:00Z"),
        HopSpec(link="P27"),
        HopSpec(link="P6", qualifier="P580", qualifier_value="+1930-00-00T00:00:00Z"),
    ]  # fmt: skip
    for i in range(6):
        chain = chain_from_specs(store, f"seed-{i:06d}", specs, domain="law_policy")
        ctx = ChainContext(Facts(store), chain, random.Random(0))
        said = []
        for hop in (1, 3):
            got = VersionInjector().propose(ctx, hop)
            assert len(got) == 1 and isinstance(got[0], Proposal), got
            said.append(got[0].injection.clue.text)
        assert "1930" in said[0] and "1930" in said[1]
        assert said[0].startswith("I mean") != said[1].startswith("I mean"), said


def test_a_winners_year_is_not_always_said_with_one_tail(store: KnowledgeStore) -> None:
    """A version reply of the year an earlier hop's person won ("The head of state back when
    they won, in 1930.") takes several forms over chains, not ", when they won." on every
    one; each says the year once and names the person it is of."""
    facts = Facts(store)
    spec = HopSpec(link="P35", qualifier="P580", qualifier_value="+1930-00-00T00:00:00Z")
    era = Era(year=1930, hop=0, source="qualifier", property="P1346")
    named = {
        era_clue(facts, spec, era, "L:rufus", f"seed-{i:06d}", "head of state", turn=1).text
        for i in range(24)
    }
    plain = {era_clue(facts, spec, era, "L:rufus", f"seed-{i:06d}").text for i in range(24)}
    for texts in (named, plain):
        assert len(texts) >= 3, texts
        assert not all(t.endswith(", when they won.") for t in texts), texts
        assert all(t.count("1930") == 1 and "won" in t for t in texts), texts
    assert all("head of state" in t for t in named)


def test_a_founding_year_is_no_year_said_too(store: KnowledgeStore) -> None:
    """The build replied "I mean in 1941 too." to a question that said the maker was
    "founded in 1942" (a misremembered year) and "In 2015 as well, I mean." where no 2015 was
    said (the developer's founding): "too" only of a year an earlier hop's own time says."""
    facts = Facts(store)
    spec = HopSpec(link="P35", qualifier="P580", qualifier_value="+1941-00-00T00:00:00Z")
    for source in ("constraint", "answer"):
        era = Era(year=1941, hop=0, source=source, property="P571")
        for i in range(8):
            said = era_clue(facts, spec, era, "L:land", f"seed-{i:06d}").text
            assert "1941" in said, said
            assert not re.search(r"\b(?:too|as well|also)\b", said, re.I), said
    own = Era(year=1941, hop=0, source="qualifier", property="P39")
    said = {era_clue(facts, spec, own, "L:land", f"seed-{i:06d}").text for i in range(8)}
    assert any(re.search(r"\b(?:too|as well|Also)\b", s) for s in said), said


def test_a_countrys_clue_says_the_one_the_user_means(store: KnowledgeStore) -> None:
    """ "I think it's the one that borders Suriname", not "I remember it borders Suriname" or
    "I remember Denali is there" (a puzzle's clue to blind raters); the fact's value is still
    said, and the words around it are filler or stop words (a search for the clue finds what
    it found before)."""
    facts = Facts(store)
    t = load_templates()
    lines = (ROOT / "oracle_filler.txt").read_text(encoding="utf-8").splitlines()
    stop = (ROOT / "oracle_stopwords.txt").read_text(encoding="utf-8").split()
    known = {w for line in lines if not line.startswith("#") for w in line.split()} | set(stop)
    values = {"P47": "Suriname", "P610": "Denali", "P38": "Guyanese dollar"}
    verbs = {"borders", "uses"}  # (the relation's own word, as before)
    for pid, label in values.items():
        forms = t.fact_clues.get(pid) or t.more_clues[pid]
        for form in [forms] if isinstance(forms, str) else forms:
            assert form.startswith("it's the one "), form
            words = re.findall(r"[a-z']+", form.replace("{v}", "").replace("{tv}", "").lower())
            assert set(words) - verbs <= known, form
        clue = ClueFact(kind="fact", property=pid, value=f"L:{pid}", value_label=label, text="")
        for i in range(8):
            said = render(facts, clue, salt=f"seed-{i:06d}")
            assert label in said and "the one" in said, said
            assert not re.search(r"\b(?:is there|it borders|it uses)\b", said), said
