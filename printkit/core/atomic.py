"""Write output files whole or not at all: to a temporary name first, then rename over the old one.

A temporary name carries the writing process's id (.name.PID.random.part), so a later run can
sweep up what a killed one left without touching a running one's.
"""

from __future__ import annotations

import errno
import os
import re
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from printkit.core.errors import PrintkitError, display_path


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


@contextmanager
def replacing(path: Path, mode: str = "wb") -> Iterator[IO[Any]]:
    """Open a temporary file beside path; on success it replaces path, on any error it vanishes."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = _temporary(path)
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


class WriteFailed(PrintkitError):
    """The disk or the folder refused a write: full, read-only, not a folder, no permission (exit 1)."""

    exit_code = 1


_REASONS = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EROFS: "it is on a read-only disk",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.ENOTDIR: "a file stands where a folder should",
    errno.EISDIR: "a folder stands where the file should",
    errno.EEXIST: "a file stands where a folder should",
}


def failed(exc: OSError, path: Path) -> WriteFailed:
    """An OSError while writing path as one line saying what to do."""
    reason = _REASONS.get(exc.errno or 0, exc.strerror or str(exc))
    return WriteFailed(f"cannot write {display_path(path)}: {reason}; nothing of this run was written")


def write_all(files: Mapping[Path, bytes | str], inside: Path | None = None) -> list[Path]:
    """Every file whole, or none of them changed: each is written beside its place under a temporary name, and
    only when all are written are they renamed into place. The paths written.

    inside: the folder every file must stay in, its links followed (a link in it that leads out is refused).
    """
    if inside is not None:
        home = inside.resolve()
        for target in files:
            if not target.parent.resolve().is_relative_to(home):  # a link as the file itself is replaced, not followed
                raise WriteFailed(
                    f"cannot write {display_path(target)}: a link there leads out of {display_path(inside)}; "
                    "remove the link and build again; nothing of this run was written"
                )
    staged: list[tuple[Path, Path]] = []
    target = Path()
    try:
        for target, data in files.items():
            if target.is_dir() and not target.is_symlink():
                raise IsADirectoryError(errno.EISDIR, "a folder is in the way", str(target))
            target.parent.mkdir(parents=True, exist_ok=True)
            sweep(target.parent)
            fd, name = _temporary(target)
            staged.append((Path(name), target))
            with os.fdopen(fd, "wb") as handle:
                handle.write(data if isinstance(data, bytes) else data.encode("utf-8"))
            os.chmod(name, 0o666 & ~_umask())
        for part, target in staged:
            os.replace(part, target)
    except OSError as exc:
        _discard(staged)
        raise failed(exc, target) from None
    except BaseException:
        _discard(staged)
        raise
    return list(files)


def _temporary(path: Path) -> tuple[int, str]:
    """A new temporary file beside path, named for the process writing it: .name.PID.random.part."""
    return tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".part", dir=path.parent)


def _discard(staged: list[tuple[Path, Path]]) -> None:
    for part, _ in staged:
        part.unlink(missing_ok=True)


_swept: set[Path] = set()


def sweep(folder: Path) -> None:
    """Remove the temporary files a killed run of printkit left in folder (their process is gone), once a run."""
    if folder in _swept:
        return
    _swept.add(folder)
    for leftover in folder.glob(".*.part"):
        match = re.match(r"^\..+\.(\d+)\.[^.]+\.part$", leftover.name)
        if match and not _running(int(match.group(1))):
            leftover.unlink(missing_ok=True)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: alive
        return True
    return True
