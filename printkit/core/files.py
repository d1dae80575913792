"""Reading files that may come from a stranger: regular files inside the allowed folders only, never blocking,
never more than a size limit. Every stage reads game data, layouts, rules and spreadsheets through here.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from pathlib import Path

from printkit.core.errors import DataError, Problem, display_path

_KINDS = {
    stat.S_IFDIR: "a folder",
    stat.S_IFIFO: "a named pipe (FIFO)",
    stat.S_IFCHR: "a device",
    stat.S_IFBLK: "a device",
    stat.S_IFSOCK: "a socket",
}


def refused(path: Path, message: str) -> DataError:
    """The one-line refusal of a path."""
    return DataError([Problem(display_path(path), 1, 1, message)])


def resolved(path: Path, within: Sequence[Path] | None = None, home: str = "the game's folder") -> Path:
    """path with every link followed; refused when that leads outside the folders within (when given), which
    the refusal calls home."""
    try:
        real = path.resolve(strict=True)
    except FileNotFoundError:
        raise refused(path, "cannot read: no such file (or a link to nothing)") from None
    except RuntimeError:  # Python's word for a loop of links
        raise refused(path, "cannot read: a link that loops back on itself") from None
    except OSError as exc:
        raise refused(path, f"cannot read: {exc.strerror or exc}") from None
    if within is not None and not any(real.is_relative_to(folder.resolve()) for folder in within):
        # a path with ../ that climbs out is not a link: say which it is, so the fix is plain
        spelled = Path(os.path.abspath(path))
        inside = any(spelled.is_relative_to(os.path.abspath(folder)) for folder in within)
        what = "a link to a file" if inside else "a file"
        raise refused(path, f"{what} outside {home}: refused")
    return real


def read(path: Path, limit: int, within: Sequence[Path] | None = None, what: str = "data") -> bytes:
    """The bytes of the regular file at path, at most limit of them; anything else is a one-line DataError.

    within: the folders the file, its links followed, must lie inside (any folder when None).
    Named pipes, devices, sockets and folders are refused without being read, so none can block
    or stream without end.
    """
    real = resolved(path, within)
    try:
        check_regular(path, os.stat(real).st_mode)  # before opening: a socket cannot even be opened
        # O_NONBLOCK: opening a named pipe with no writer would otherwise wait forever
        fd = os.open(real, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise refused(path, f"cannot read: {exc.strerror or exc}") from None
    try:
        check_regular(path, os.fstat(fd).st_mode)  # again: it may have been swapped since
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise refused(path, f"cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if size > limit:
        raise refused(path, f"file is over {_amount(limit)}: expected at most {_amount(limit)} of {what}")
    return b"".join(chunks)


def check_regular(path: Path, mode: int) -> None:
    """Refuse path, whose stat mode is given, unless it is a regular file."""
    if not stat.S_ISREG(mode):
        kind = _KINDS.get(stat.S_IFMT(mode), "not a regular file")
        raise refused(path, f"{kind}, not a regular file: refused")


def _amount(size: int) -> str:
    return f"{size / 1e6:.0f} MB" if size >= 1e6 else f"{size / 1e3:.0f} kB"
