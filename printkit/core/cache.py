"""Where printkit keeps what it may reuse between runs: card pictures, and the finished games of a run to resume.

$PRINTKIT_CACHE when set, else $XDG_CACHE_HOME/printkit, else ~/.cache/printkit: the user's own cache,
outside every project and its output, so a failed run writes nothing there, deleting it costs only
time, and a project from a stranger has no say in where it lies.
"""

from __future__ import annotations

import contextlib
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


def keep_newest(where: Path, count: int) -> None:
    """All but the count most recently used files of a cache folder removed (a file read from the cache has its
    time set, so what a project still uses stays): small files each, but one for every state of every game."""
    try:
        found = [(entry.stat().st_mtime_ns, entry.path) for entry in os.scandir(where) if entry.is_file()]
    except OSError:
        return
    for _, path in sorted(found, reverse=True)[count:]:
        with contextlib.suppress(OSError):  # another run may have removed it first
            os.unlink(path)
