"""What a block of code touched, noted as it runs: the files a drawing reads, the rule options an engine asks for."""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from typing import Generic, TypeVar

T = TypeVar("T")


class Noted(Generic[T]):
    """A set that note() adds to while a recording() block runs, and nothing outside one."""

    def __init__(self, name: str) -> None:
        self._now: contextvars.ContextVar[set[T] | None] = contextvars.ContextVar(name, default=None)

    def note(self, item: T) -> None:
        seen = self._now.get()
        if seen is not None:
            seen.add(item)

    @contextlib.contextmanager
    def recording(self) -> Iterator[set[T]]:
        """What was noted while the block ran."""
        seen: set[T] = set()
        token = self._now.set(seen)
        try:
            yield seen
        finally:
            self._now.reset(token)
