"""The typed records read the real wire formats and keep what the stages rely on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import TypeAdapter, ValidationError

from builder.records import (
    AnswerEvent,
    AskEvent,
    Checkpoint,
    Entity,
    OtherEvent,
    Sample,
    SearchEvent,
    Trajectory,
)
from builder.records.wikidata import AnyEntity, Lexeme


def _documents(fixtures_dir: Path) -> list[dict[str, object]]:
    docs: list[dict[str, object]] = []
    for path in sorted((fixtures_dir / "wikidata").rglob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if "entities" in data:
            docs.extend(data["entities"].values())
        elif "type" in data and "id" in data:
            docs.append(data)
    return docs


def test_every_fixture_entity_round_trips_unchanged(fixtures_dir: Path):
    adapter = TypeAdapter(AnyEntity)
    docs = _documents(fixtures_dir)
    assert len(docs) >= 25
    entities = 0
    for doc in docs:
        parsed = adapter.validate_python(doc)
        if isinstance(parsed, Lexeme):
            assert doc["type"] == "lexeme"
            continue
        entities += 1
        # PHP writes an empty map as []; the record reads it as {} (the same thing).
        expected = {k: ({} if v == [] else v) for k, v in doc.items()}
        assert parsed.to_wire() == expected, doc["id"]
    assert entities >= 24


def test_best_statements_prefer_preferred_and_never_deprecated(fixtures_dir: Path):
    doc = json.loads((fixtures_dir / "wikidata/qwikidata/wd_Q42.json").read_text())
    q42 = Entity.model_validate(doc)
    for pid, statements in q42.claims.items():
        ranks = {s.rank for s in statements}
        best = q42.best_statements(pid)
        assert all(s.rank != "deprecated" for s in best)
        if "preferred" in ranks:
            assert {s.rank for s in best} == {"preferred"}, pid
        elif ranks == {"deprecated"}:
            assert best == []
    assert any(s.rank == "deprecated" for ss in q42.claims.values() for s in ss)
    assert any(s.rank == "preferred" for ss in q42.claims.values() for s in ss)


def test_value_keys_and_display_per_datatype(fixtures_dir: Path):
    doc = json.loads((fixtures_dir / "wikidata/dahlia-wikidata/Q8646.json").read_text())
    hk = Entity.model_validate(doc["entities"]["Q8646"])
    population = hk.best_statements("P1082")
    assert len(population) == 1 and population[0].rank == "preferred"
    value = population[0].value
    assert value is not None and value.key() == "+7409800" and value.display() == "7409800"
    when = population[0].qualifier_time("P585")
    assert when is not None and when.year is not None and when.iso() == str(when.year)
    country = hk.best_values("P17")[0]
    assert country.key().startswith("Q") and country.display({country.key(): "PRC"}) == "PRC"
    assert hk.label() == "Hong Kong" and hk.enwiki_title() == "Hong Kong"


def test_ask_target_absent_is_not_null():
    absent = AskEvent.model_validate({"type": "ask", "question": "which?", "reply": "r"})
    null = AskEvent.model_validate({"type": "ask", "question": "which?", "target": None})
    given = AskEvent.model_validate({"type": "ask", "question": "which?", "target": 2})
    assert not absent.has_target and null.has_target and given.target == 2


def test_trajectory_parses_events_and_keeps_unknown_types():
    line = {
        "sample_id": "disco-0001",
        "run": {"agent": "openai:gpt-x", "setting": "neutral", "ablation": "none"},
        "events": [
            {"type": "search", "query": "q"},
            {"type": "think", "text": "hmm"},
            {"type": "ask", "question": "which?", "reply": "I remember", "target": 1},
            {"type": "answer", "answer": "1998", "checkpoints": {"1": "x", "2": "1998"}},
        ],
        "usage": {"input_tokens": 5, "output_tokens": 3},
        "error": None,
    }
    traj = Trajectory.model_validate(line)
    kinds = [type(e) for e in traj.events]
    assert kinds == [SearchEvent, OtherEvent, AskEvent, AnswerEvent]
    assert traj.model_dump(mode="json", exclude_none=True)["events"][1] == {
        "type": "think",
        "text": "hmm",
    }
    bare = Trajectory.model_validate({"sample_id": "x"})
    assert bare.usage.input_tokens == 0 and bare.events == [] and bare.error is None


def test_sample_rejects_unknown_domain_and_names_the_field():
    with pytest.raises(ValidationError) as err:
        Sample(
            id="disco-1",
            domain="cooking",  # type: ignore[arg-type]
            difficulty="easy",
            question="q",
            unambiguous_question="q",
            answer="a",
            checkpoints=[Checkpoint(index=1, goal="g", answer="a")],
            num_ambiguities=0,
        )
    assert err.value.errors()[0]["loc"] == ("domain",)
