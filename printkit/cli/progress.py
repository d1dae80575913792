"""A progress bar for long work, on standard error: drawn only on a terminal, never with --quiet or --json,
so logs and pipes get the plain lines alone."""

from __future__ import annotations

import sys
import time

from printkit.cli.common import Output
from printkit.core.errors import safe

WIDTH = 30
REDRAW = 0.1  # seconds between redraws: a bar redrawn 100,000 times would cost more than the work


class Bar:
    """done/total of some unit, with the latest thing finished; close() leaves the line."""

    def __init__(self, total: int, unit: str) -> None:
        self.total, self.unit = total, unit
        self.shown = total > 0 and not Output.quiet and not Output.json and sys.stderr.isatty()
        self.drawn = False
        self.last = 0.0

    def __call__(self, done: int, total: int | None = None, latest: str = "") -> None:
        if not self.shown:
            return
        total = total or self.total
        now = time.monotonic()
        if done < total and now - self.last < REDRAW:
            return
        self.last = now
        filled = WIDTH * done // max(total, 1)
        tail = f": {safe(latest)}" if latest else ""
        # \r and erase-to-end: the bar is redrawn in place, however long the line before it was
        sys.stderr.write(f"\r\x1b[K[{'#' * filled}{'.' * (WIDTH - filled)}] {done}/{total} {self.unit}{tail}")
        sys.stderr.flush()
        self.drawn = True

    def close(self) -> None:
        """End the bar's line, so what is printed next starts on its own."""
        if self.drawn:
            sys.stderr.write("\n")
            sys.stderr.flush()
            self.drawn = False
