"""``discobench schema``: write the JSON Schemas of the typed records."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from pydantic import BaseModel

from builder import records
from builder.cli.common import console

SCHEMA_MODELS: dict[str, type[BaseModel]] = {
    "entity": records.Entity,
    "statement": records.Statement,
    "page": records.Page,
    "seed_chain": records.SeedChain,
    "sample": records.Sample,
    "checkpoint": records.Checkpoint,
    "review_decision": records.ReviewDecision,
    "audit_entry": records.AuditEntry,
    "trajectory": records.Trajectory,
}


def write_schemas(out: Path) -> list[Path]:
    """Write one ``NAME.schema.json`` per record into ``out``; return the paths."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, model in SCHEMA_MODELS.items():
        path = out / f"{name}.schema.json"
        schema = model.model_json_schema(by_alias=True)
        path.write_text(json.dumps(schema, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        written.append(path)
    return written


def register(app: typer.Typer) -> None:
    @app.command("schema")
    def schema_cmd(
        out: Annotated[Path, typer.Option("--out", help="Folder to write the schemas into.")],
    ) -> None:
        """Write the JSON Schemas of every typed record (entity, sample, trajectory …)."""
        for path in write_schemas(out):
            console.print(f"wrote {path}")
