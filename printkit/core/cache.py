"""Where printkit keeps what it may reuse between runs: card pictures, and the finished games of a run to resume.

$PRINTKIT_CACHE when set, else $XDG_CACHE_HOME/printkit, else ~/.cache/printkit: the user's own cache,
outside every project and its output, so a failed run writes nothing there, deleting it costs only
time, and a project from a stranger has no say in where it lies.
"""

from __future__ import annotations

import os
from pathlib import Path


def folder(kind: str) -> Path:
    """The cache's folder for one kind of thing kept ("drawings", "chunks"); made when first written."""
    if os.environ.get("PRINTKIT_CACHE"):
        root = Path(os.environ["PRINTKIT_CACHE"])
    elif os.environ.get("XDG_CACHE_HOME"):
        root = Path(os.environ["XDG_CACHE_HOME"]) / "printkit"
    else:
        root = Path.home() / ".cache" / "printkit"
    return root / kind
