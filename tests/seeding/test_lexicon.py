"""The phrase lexicon covers the snapshot: every property the bundled snapshot uses has its
phrases (relation, clue, criterion), and the data files hold together."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

import pytest
import yaml

from builder.seeding.templates import load_templates

SNAPSHOT = Path(__file__).resolve().parents[2] / "seeds" / "kb" / "entities.json"
WORDED = {"wikibase-item", "time", "quantity"}
_HEDGES = ("I remember", "I think", "I'm fairly sure", "I believe", "If I remember")


@lru_cache(maxsize=1)
def used_properties() -> dict[str, str]:
    """Property → datatype of every statement in the bundled snapshot."""
    out: dict[str, str] = {}
    for entity in json.loads(SNAPSHOT.read_text(encoding="utf-8")):
        for pid, statements in entity.get("claims", {}).items():
            for st in statements:
                out.setdefault(pid, st["mainsnak"].get("datatype", ""))
    return out


def _worded() -> dict[str, str]:
    t = load_templates()
    return {p: d for p, d in used_properties().items() if d in WORDED and p not in t.not_worded}


def test_every_property_of_the_snapshot_has_relation_phrases() -> None:
    t = load_templates()
    missing = sorted(p for p in _worded() if p not in t.relations)
    assert missing == []


def test_every_fact_property_has_a_clue() -> None:
    t = load_templates()
    facts = {p for p, d in _worded().items() if d in {"wikibase-item", "time"}}
    worded = t.fact_clues.keys() | t.more_clues.keys()
    assert sorted(p for p in facts if p not in worded) == []


def test_the_clue_picker_prefers_the_same_properties_as_before() -> None:
    """Wording must not change which fact a clue states: ``pick_fact_clue`` prefers
    properties with an entry under ``fact``, so new clauses go under ``more``."""
    t = load_templates()
    assert not t.fact_clues.keys() & t.more_clues.keys()
    assert {"P6", "P35", "P286", "P1037"} <= t.more_clues.keys()


def test_every_numeric_property_has_superlatives() -> None:
    t = load_templates()
    numeric = {p for p, d in _worded().items() if d == "quantity"}
    assert sorted(p for p in numeric if p not in t.criteria) == []


def test_not_worded_lists_only_properties_the_snapshot_has_or_codes() -> None:
    t = load_templates()
    assert "P31" in t.not_worded and all(reason for reason in t.not_worded.values())


@pytest.mark.parametrize("kind", ["fact", "qualifier"])
def test_clue_entries_use_only_known_slots(kind: str) -> None:
    t = load_templates()
    entries = {**t.fact_clues, **t.more_clues} if kind == "fact" else t.qualifier_clues
    for pid, forms in entries.items():
        for form in forms:
            assert set(re.findall(r"\{(\w+)\}", form)) <= {"v", "tv", "a", "p"}, (pid, form)
            # a clause goes in a frame that hedges already: no "I think I remember …"
            assert form.endswith(".") or not form.startswith(_HEDGES), (pid, form)
    assert all("{c}" in f or "{C}" in f for f in t.clue_frames)


def test_said_phrases_keep_the_slots_of_the_phrases_they_replace() -> None:
    """A question's own words for a relation (``said_of``: "the home country of {x}") stand
    for the same relation: the previous hop's phrase goes in once, nothing else is filled."""
    t = load_templates()
    every = [*t.relations.items(), *(kv for c in t.class_relations.values() for kv in c.items())]
    said = [(pid, rel) for pid, rel in every if rel.said_of or rel.said_ask or rel.whose_of]
    assert {"P27", "P169", "P47"} <= {pid for pid, _ in said}
    for pid, rel in said:
        for form in (rel.said_of, rel.said_ask):
            assert not form or re.findall(r"\{(\w+)\}", form) == ["x"], (pid, form)
        assert not rel.said_ask or rel.said_ask.endswith("?"), pid
        assert not rel.whose_of or re.findall(r"\{(\w+)\}", rel.whose_of) == ["xn"], pid


def test_vague_superlatives_never_name_the_criterion() -> None:
    t = load_templates()
    giveaways = {"P2049": "wid", "P2048": "tall", "P2047": "long", "P2130": "expensive"}
    for pid, stem in giveaways.items():
        phrases = t.criterion(pid)
        assert stem not in phrases.vague and stem not in phrases.vague_least, pid


def test_vague_words_are_for_properties_the_snapshot_words() -> None:
    """Each entity vague word stands for a fact a question can state (a property with
    phrases), and says nothing a question would word as a relation's own noun."""
    t = load_templates()
    assert t.vague.entity and all(p in t.relations for p in t.vague.entity)
    assert all(p in t.relations for p in t.vague.entity_not_with)


def test_clue_frames_keep_to_filler_words() -> None:
    """A frame's own words are ones the oracle reads as filler, so rewording a clue never
    changes what a search for it finds."""
    t = load_templates()
    root = Path(__file__).resolve().parents[2] / "builder" / "prompts" / "eval"
    lines = (root / "oracle_filler.txt").read_text(encoding="utf-8").splitlines()
    stop = (root / "oracle_stopwords.txt").read_text(encoding="utf-8").split()
    known = {w for line in lines if not line.startswith("#") for w in line.split()} | set(stop)
    for frame in t.clue_frames:
        words = re.findall(r"[a-z']+", frame.replace("{c}", "").replace("{C}", "").lower())
        assert set(words) <= known, frame


def test_era_clues_keep_the_year_their_one_number_and_add_only_filler() -> None:
    """A version clue of the chain's own time ("Back when they won, in 1993.") says the year
    and, around it, words the oracle reads as filler, so it finds what
    "I mean in 1993." finds."""
    t = load_templates()
    root = Path(__file__).resolve().parents[2] / "builder" / "prompts" / "eval"
    lines = (root / "oracle_filler.txt").read_text(encoding="utf-8").splitlines()
    stop = (root / "oracle_stopwords.txt").read_text(encoding="utf-8").split()
    known = {w for line in lines if not line.startswith("#") for w in line.split()} | set(stop)
    assert {"won", "won_it", "released", "same"} <= t.era_clues.keys()
    for forms in t.era_clues.values():
        for form in forms:
            assert form.count("{v}") == 1 and not re.search(r"\d", form), form
            assert set(re.findall(r"\{(\w+)\}", form)) == {"v"}, form
            words = set(re.findall(r"[a-z']+", form.replace("{v}", "").lower()))
            assert words <= known, form


@pytest.mark.parametrize("name", ["relations", "clues", "criteria", "names", "style", "vague"])
def test_lexicon_files_have_no_duplicate_keys(name: str) -> None:
    """YAML keeps the last of two equal keys silently; a reviewer's entry must not vanish."""
    duplicates: list[object] = []

    class Loader(yaml.SafeLoader):
        pass

    def mapping(loader: yaml.SafeLoader, node: yaml.MappingNode) -> dict[object, object]:
        keys = [loader.construct_object(k) for k, _ in node.value]
        duplicates.extend(k for k in set(keys) if keys.count(k) > 1)
        return loader.construct_mapping(node)

    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, mapping)
    path = Path(__file__).resolve().parents[2] / "builder" / "prompts" / "templates"
    yaml.load((path / f"{name}.yaml").read_text(encoding="utf-8"), Loader)
    assert duplicates == []


def test_a_criterion_reply_says_which_superlative_it_clarifies() -> None:
    """ "I meant in terms of radius." after "What is the radius of the biggest planet …?"
    repeats the question; "I meant the biggest by radius." says what "biggest" meant."""
    t = load_templates()
    for pid in t.criteria:
        phrases = t.criterion(pid)
        for vague, clue in (
            *((phrases.vague, c) for c in phrases.clue),
            *((phrases.vague_least, c) for c in phrases.clue_least),
        ):
            if vague in ("biggest", "smallest") and "{p}" not in clue:
                assert "in terms of" not in clue, (pid, clue)
