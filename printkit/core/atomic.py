"""Write output files whole or not at all: to a temporary name first, then rename over the old one.

A temporary name carries the writing process's id (.name.PID.random.part), so a later run can
sweep up what a killed one left without touching a running one's. A set of files (a Landing) is
staged file by file as it is made and renamed into place together: while the renames run, Ctrl-C,
kill and a closed terminal wait, and a journal lists them first, so that the next run into the
same folder finishes what a kill -9 cut short.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import signal
import tempfile
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import IO, Any

from printkit.core.errors import PrintkitError, display_path


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


@contextmanager
def replacing(path: Path, mode: str = "wb") -> Iterator[IO[Any]]:
    """Open a temporary file beside path; on success it replaces path, on any error it vanishes.

    An OSError of the temporary file names path, the file the user asked for, not the temporary name.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd, tmp = _temporary(path)
    except OSError as exc:
        raise _named(exc, path, None) from None
    try:
        handle: IO[Any]
        handle = os.fdopen(fd, mode) if "b" in mode else os.fdopen(fd, mode, encoding="utf-8", newline="\n")
        with handle:
            yield handle
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; outputs get the usual permissions
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise _named(exc, path, tmp) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _named(exc: OSError, path: Path, tmp: str | None) -> OSError:
    """exc as the same error of path when it names the temporary file (or none): a user never asked for that."""
    if tmp is not None and exc.filename not in (None, tmp):
        return exc  # another file's error, raised in the caller's block: its own name is the true one
    return type(exc)(exc.errno, exc.strerror, str(path))


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


JOURNAL = ".printkit-landing.{pid}.json"  # in a Landing's home: the renames and removals of one landing
_JOURNAL = re.compile(r"^\.printkit-landing\.(\d+)\.json$")
# what waits while files land: Ctrl-C, kill's default, a terminal closing
HELD_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


class Landing:
    """A set of files written under temporary names as they are made, then renamed into place together.

    home: the folder the run writes into; what a killed run left there (a landing cut short, temporary
    files) is finished or swept before the first file is staged, and the journal goes there. With
    confined, every file must stay inside home, its links followed (a link in it that leads out is refused).
    Any OSError while staging discards everything staged and is one WriteFailed naming the file meant.
    """

    def __init__(self, home: Path | None = None, confined: bool = False) -> None:
        self.home = home
        self.confined = confined
        self.staged: dict[Path, Path] = {}  # file -> its temporary file, beside it
        self.removals: list[Path] = []  # files no longer made: removed as the others land
        self.landed: list[Path] = []  # once land() is done: the files put in place
        self._ready = False

    @property
    def files(self) -> list[Path]:
        """The files staged so far, in the order they were."""
        return list(self.staged)

    def write(self, target: Path, data: bytes | str) -> None:
        """Stage target's contents under a temporary name beside it; nothing is in place until land()."""
        self._prepare()
        if self.confined and self.home is not None and not target.parent.resolve().is_relative_to(self.home.resolve()):
            self.discard()  # a link as the file itself is replaced, not followed
            raise WriteFailed(
                f"cannot write {display_path(target)}: a link there leads out of {display_path(self.home)}; "
                "remove the link and build again; nothing of this run was written"
            )
        try:
            if target.is_dir() and not target.is_symlink():
                raise IsADirectoryError(errno.EISDIR, "a folder is in the way", str(target))
            target.parent.mkdir(parents=True, exist_ok=True)
            if self.home is None:
                sweep(target.parent)
            fd, name = _temporary(target)
            earlier = self.staged.pop(target, None)
            self.staged[target] = Path(name)
            if earlier is not None:
                earlier.unlink(missing_ok=True)
            with os.fdopen(fd, "wb") as handle:
                handle.write(data if isinstance(data, bytes) else data.encode("utf-8"))
            os.chmod(name, 0o666 & ~_umask())
        except OSError as exc:
            self.discard()
            raise failed(exc, target) from None
        except BaseException:
            self.discard()
            raise

    def remove(self, path: Path) -> None:
        """path, a file this run no longer makes, goes as the staged files land (a link or folder stays)."""
        self.removals.append(path)

    def discard(self) -> None:
        """Delete every staged temporary file: nothing of this landing is put in place."""
        for part in self.staged.values():
            with contextlib.suppress(OSError):
                part.unlink(missing_ok=True)
        self.staged.clear()
        self.removals.clear()

    def land(self) -> list[Path]:
        """Rename every staged file into place and make the removals, all with signals held; the files landed."""
        self._prepare()
        landed = list(self.staged)
        if not landed and not self.removals:
            self.landed = landed
            return landed
        journal = self.home / JOURNAL.format(pid=os.getpid()) if self.home and self.home.is_dir() else None
        target = landed[0] if landed else self.removals[0]
        with _signals_held():
            try:
                if journal is not None:
                    entries = {"renames": [[str(p), str(t)] for t, p in self.staged.items()]}
                    write_text(journal, json.dumps(entries | {"removals": [str(p) for p in self.removals]}))
                for target, part in self.staged.items():
                    os.replace(part, target)
                self.staged.clear()
                for target in self.removals:
                    if target.is_file() and not target.is_symlink():
                        target.unlink(missing_ok=True)
                self.removals.clear()
                if journal is not None:
                    journal.unlink(missing_ok=True)
            except OSError as exc:
                self.discard()
                if journal is not None:
                    journal.unlink(missing_ok=True)
                raise failed(exc, target) from None
        self.landed = landed
        return landed

    def _prepare(self) -> None:
        """Once, before the first file: what a killed run left in home settled."""
        if self._ready or self.home is None:
            return
        self._ready = True
        settle(self.home)


@contextmanager
def landing(home: Path | None = None, confined: bool = False) -> Iterator[Landing]:
    """A Landing for the block: its files land when the block ends, or none do when it raises."""
    batch = Landing(home, confined)
    try:
        yield batch
        batch.land()
    except BaseException:
        batch.discard()
        raise


def write_all(files: Mapping[Path, bytes | str], inside: Path | None = None) -> list[Path]:
    """Every file whole, or none of them changed: each is written beside its place under a temporary name, and
    only when all are written are they renamed into place. The paths written.

    inside: the folder every file must stay in, its links followed (a link in it that leads out is refused).
    """
    with landing(inside, confined=inside is not None) as batch:
        for target, data in files.items():
            batch.write(target, data)
    return list(files)


@contextmanager
def _signals_held() -> Iterator[None]:
    """Ctrl-C, kill and a closing terminal wait until the block ends, then act as they would have.

    Python runs signal handlers in the main thread only, so elsewhere nothing can be held (and nothing
    is interrupted there either).
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        caught.append(signum)

    before = {sig: signal.signal(sig, hold) for sig in HELD_SIGNALS}
    try:
        yield
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler if handler is not None else signal.SIG_DFL)
        for sig in dict.fromkeys(caught):
            signal.raise_signal(sig)


def settle(home: Path) -> None:
    """Finish the landings a killed run left in home, then sweep its temporary files from anywhere in it."""
    if home.is_dir():
        recover(home)
        sweep(home, deep=True)


def recover(home: Path) -> None:
    """Finish the landings a killed run left in home: the renames its journal lists whose temporary file is still
    there (each was written whole before the journal was), then its removals. A running process's is left."""
    for journal in home.glob(".printkit-landing.*.json"):
        match = _JOURNAL.match(journal.name)
        if not match or _running(int(match.group(1))):
            continue
        try:
            entries = json.loads(journal.read_text(encoding="utf-8"))
            pairs = [(Path(part), Path(target)) for part, target in entries["renames"]]
            removals = [Path(p) for p in entries["removals"]]
        except (OSError, ValueError, KeyError, TypeError):
            journal.unlink(missing_ok=True)  # written whole or not at all: this is not one of printkit's
            continue
        pid = match.group(1)
        inside = home.resolve()
        with contextlib.suppress(OSError):
            for part, target in pairs:
                # only a temporary file of that run, beside the file it was written for
                if part.parent == target.parent and part.name.startswith(f".{target.name}.{pid}.") and part.is_file():
                    os.replace(part, target)
            for path in removals:
                if path.resolve().is_relative_to(inside) and path.is_file() and not path.is_symlink():
                    path.unlink(missing_ok=True)
            journal.unlink(missing_ok=True)


def _temporary(path: Path) -> tuple[int, str]:
    """A new temporary file beside path, named for the process writing it: .name.PID.random.part."""
    return tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".part", dir=path.parent)


_swept: set[Path] = set()
_LEFT = re.compile(r"^\..+\.(\d+)\.[^.]+\.part$")


def sweep(folder: Path, deep: bool = False) -> None:
    """Remove the temporary files a killed run of printkit left in folder (their process is gone), once a run;
    deep: in its subfolders too (links to folders are not followed)."""
    if folder in _swept:
        return
    _swept.add(folder)
    for where, _, names in os.walk(folder) if deep else [(str(folder), [], _names(folder))]:
        for name in names:
            match = _LEFT.match(name) if name.endswith(".part") else None
            if match and not _running(int(match.group(1))):
                with contextlib.suppress(OSError):
                    os.unlink(os.path.join(where, name))


def _names(folder: Path) -> list[str]:
    try:
        return os.listdir(folder)
    except OSError:  # gone, or not a folder: nothing left in it to sweep
        return []


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: alive
        return True
    return True
