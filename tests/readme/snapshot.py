"""A small snapshot cut from the bundled one: a few domains' items and what they point at."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from builder.kb.domains import domain_for_classes

BUNDLED = Path(__file__).resolve().parents[2] / "seeds" / "kb"


def _targets(doc: dict[str, Any], pid: str | None = None) -> list[str]:
    out: list[str] = []
    for prop, statements in doc.get("claims", {}).items():
        if pid is not None and prop != pid:
            continue
        for st in statements:
            value = st.get("mainsnak", {}).get("datavalue", {}).get("value")
            if isinstance(value, dict) and "id" in value:
                out.append(value["id"])
    return out


def write_small_snapshot(dst: Path, domains: tuple[str, ...] = ("games",)) -> Path:
    """Write entities.json, pages.jsonl, snapshot.json and completeness.json (the declarations
    about kept entities) of the cut into ``dst``."""
    lines = (BUNDLED / "entities.json").read_text("utf-8").splitlines()
    docs = [json.loads(line.rstrip(",")) for line in lines if line.startswith("{")]
    pages = [json.loads(line) for line in (BUNDLED / "pages.jsonl").read_text("utf-8").splitlines()]
    with_page = {p["entity_id"] for p in pages}
    keep = {d["id"] for d in docs if d["id"] not in with_page}  # properties, classes, units
    chosen = {
        d["id"]
        for d in docs
        if d["id"] in with_page
        and domain_for_classes(_targets(d, "P31"), _targets(d, "P106")) in domains
    }
    by_id = {d["id"]: d for d in docs}
    linked = {t for i in chosen for t in _targets(by_id[i]) if t in by_id}
    keep |= chosen | linked
    dst.mkdir(parents=True, exist_ok=True)
    body = ",\n".join(json.dumps(d, ensure_ascii=False) for d in docs if d["id"] in keep)
    (dst / "entities.json").write_text(f"[\n{body}\n]\n", encoding="utf-8")
    kept_pages = [json.dumps(p, ensure_ascii=False) for p in pages if p["entity_id"] in keep]
    (dst / "pages.jsonl").write_text("\n".join(kept_pages) + "\n", encoding="utf-8")
    shutil.copy(BUNDLED / "snapshot.json", dst / "snapshot.json")
    decls = json.loads((BUNDLED / "completeness.json").read_text("utf-8"))["declarations"]
    kept = [d for d in decls if d["subject"] in keep]
    (dst / "completeness.json").write_text(json.dumps({"declarations": kept}), encoding="utf-8")
    return dst
