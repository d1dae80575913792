"""A full or read-only disk, made by the system calls printkit writes through (root writes anywhere, so permissions
cannot make one): the nth file opened, or written, fails as the disk would."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from printkit.core import atomic


def refuse(monkeypatch: pytest.MonkeyPatch, fault: int, where: str, nth: int, inside: Path | None = None) -> None:
    """From now on the nth file printkit opens ("open") or writes ("write") fails with the errno fault; inside: only
    files in that folder count (a kept picture's cache write is no output)."""
    calls = {"open": 0, "write": 0}
    real_mkstemp, real_fdopen = atomic.tempfile.mkstemp, atomic.os.fdopen

    def counted(what: str, path: str) -> bool:
        ours = inside is None or Path(path).resolve().is_relative_to(inside)
        calls[what] += ours
        return where == what and ours and calls[what] == nth

    def mkstemp(*args: object, **kwargs: object) -> tuple[int, str]:
        folder = str(kwargs["dir"])
        if counted("open", folder):  # the name the system gives is the temporary file's
            raise OSError(fault, os.strerror(fault), os.path.join(folder, f"{kwargs['prefix']}x.part"))
        return real_mkstemp(*args, **kwargs)  # type: ignore[call-overload,no-any-return]

    class Full(io.BytesIO):
        def write(self, data: object) -> int:
            raise OSError(fault, os.strerror(fault))

    def fdopen(fd: int, *args: object, **kwargs: object) -> object:
        if counted("write", os.readlink(f"/proc/self/fd/{fd}")):
            os.close(fd)
            return Full()
        return real_fdopen(fd, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(atomic.tempfile, "mkstemp", mkstemp)
    monkeypatch.setattr(atomic.os, "fdopen", fdopen)
