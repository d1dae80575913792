"""Icons drawn as vector shapes, usable in layouts and inline in card text as {name}."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from printkit.data.game import Game
from printkit.data.model import ICON_NAMES
from printkit.draw import art, iconshapes

ICONS: dict[str, Callable[[Canvas], None]] = iconshapes.SHAPES


# a new icon is named in the data's vocabulary too, so validation knows it
assert set(ICONS) == ICON_NAMES, set(ICONS) ^ ICON_NAMES


def draw(c: Canvas, name: str, x: float, y: float, size: float) -> None:
    """Draw icon name in the square of side size whose bottom-left is (x, y), in the current fill colour."""
    c.saveState()
    c.translate(x, y)
    c.scale(size, size)
    ICONS[name](c)
    c.restoreState()


@functools.lru_cache(maxsize=64)
def _names(own: tuple[tuple[str, Path], ...]) -> frozenset[str]:
    """One set of names for a game's icons, whichever card asks: the text fitter keeps what it fitted by the set it
    was given, and a set made anew for each card's text (2 KB) was kept once for each of thousands of entries."""
    return ICON_NAMES | {name for name, _ in own}


@dataclass(frozen=True)
class IconSet:
    """The icons one game may show: printkit's own, and the SVGs of its icons/ folders, which win by name."""

    own: tuple[tuple[str, Path], ...] = ()
    within: tuple[Path, ...] = ()  # the folders the SVGs may be read from

    @classmethod
    def of(cls, game: Game) -> IconSet:
        return cls(game.icons, game.reads_from)

    @property
    def names(self) -> frozenset[str]:
        return _names(self.own)

    def draw(self, c: Canvas, name: str, x: float, y: float, size: float) -> None:
        """Icon name in the square of side size at (x, y): a game's own in its colours, printkit's in the fill."""
        path = dict(self.own).get(name)
        if path is None:
            draw(c, name, x, y, size)
            return
        picture = art.load(path, self.within)
        box = art.placement(picture, (x, y, size, size), "contain", (0.5, 0.5))
        art.draw(c, picture, box)


BUILT_IN = IconSet()
