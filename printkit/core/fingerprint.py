"""A hash of the code that made something: the Python sources of packages and the versions of libraries.

What printkit keeps between runs (card pictures, finished chunks of simulated games) is kept under
it, so a new printkit, engine or library makes everything afresh rather than mixing old and new.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import sys
from importlib import metadata
from pathlib import Path


@functools.cache
def code(packages: tuple[str, ...], libraries: tuple[str, ...] = ()) -> str:
    """The sources of the packages (each file's path and bytes) and the libraries' installed versions, hashed."""
    digest = hashlib.sha256(sys.version.encode())
    for package in packages:
        spec = importlib.util.find_spec(package)
        assert spec is not None and spec.origin is not None, package
        folder = Path(spec.origin).resolve().parent
        for source in sorted(folder.rglob("*.py")):
            digest.update(f"{package}/{source.relative_to(folder).as_posix()}".encode() + b"\0" + source.read_bytes())
    for name in libraries:
        try:
            digest.update(f"{name} {metadata.version(name)}".encode())
        except metadata.PackageNotFoundError:
            digest.update(f"{name} none".encode())
    return digest.hexdigest()
