"""Small file helpers: atomic writes that leave files with the user's default mode."""

from __future__ import annotations

import os
from pathlib import Path


def default_file_mode() -> int:
    """The mode a plain ``open(path, "w")`` would give a new file (0o666 less the umask)."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def give_default_mode(path: Path | str) -> None:
    """``tempfile.mkstemp`` creates files 0600; give an output file the usual mode instead."""
    os.chmod(path, default_file_mode())
