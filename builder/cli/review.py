"""``discobench review``: placeholder until its stage lands."""

from __future__ import annotations

from builder.cli.common import new_app

app = new_app("review commands.")


@app.command("help-stub", hidden=True)
def _stub() -> None:
    """Hidden; keeps the group valid until real commands land."""
