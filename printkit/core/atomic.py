"""Write output files whole or not at all: to a temporary name first, then rename over the old one."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


@contextmanager
def replacing(path: Path, mode: str = "wb") -> Iterator[IO[Any]]:
    """Open a temporary file beside path; on success it replaces path, on any error it vanishes."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    try:
        handle: IO[Any]
        handle = os.fdopen(fd, mode) if "b" in mode else os.fdopen(fd, mode, encoding="utf-8", newline="\n")
        with handle:
            yield handle
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; outputs get the usual permissions
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_text(path: Path, text: str) -> None:
    with replacing(path, "w") as handle:
        handle.write(text)


def write_bytes(path: Path, data: bytes) -> None:
    with replacing(path, "wb") as handle:
        handle.write(data)
