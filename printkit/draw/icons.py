"""Icons drawn as vector shapes, usable in layouts and inline in card text as {name}."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from printkit.data.game import Game
from printkit.data.model import ICON_NAMES
from printkit.draw import art

Poly = list[tuple[float, float]]


def _poly(c: Canvas, points: Poly, *, close: bool = True) -> None:
    path = c.beginPath()
    path.moveTo(*points[0])
    for point in points[1:]:
        path.lineTo(*point)
    if close:
        path.close()
    c.drawPath(path, fill=1, stroke=0)


def _sword(c: Canvas) -> None:
    _poly(c, [(0.47, 0.3), (0.53, 0.3), (0.53, 0.86), (0.5, 0.98), (0.47, 0.86)])
    _poly(c, [(0.3, 0.25), (0.7, 0.25), (0.7, 0.31), (0.3, 0.31)])
    _poly(c, [(0.46, 0.06), (0.54, 0.06), (0.54, 0.25), (0.46, 0.25)])
    c.circle(0.5, 0.05, 0.05, fill=1, stroke=0)


def _axe(c: Canvas) -> None:
    _poly(c, [(0.45, 0.02), (0.52, 0.02), (0.52, 0.95), (0.45, 0.95)])
    path = c.beginPath()
    path.moveTo(0.52, 0.85)
    path.curveTo(0.75, 0.95, 0.95, 0.8, 0.92, 0.6)
    path.curveTo(0.85, 0.5, 0.7, 0.5, 0.52, 0.6)
    path.close()
    c.drawPath(path, fill=1, stroke=0)


def _spear(c: Canvas) -> None:
    _poly(c, [(0.47, 0.02), (0.53, 0.02), (0.53, 0.7), (0.47, 0.7)])
    _poly(c, [(0.5, 0.99), (0.62, 0.72), (0.5, 0.66), (0.38, 0.72)])


def _crossbow(c: Canvas) -> None:
    _poly(c, [(0.46, 0.05), (0.54, 0.05), (0.54, 0.85), (0.46, 0.85)])
    path = c.beginPath()
    path.moveTo(0.05, 0.55)
    path.curveTo(0.25, 0.85, 0.75, 0.85, 0.95, 0.55)
    path.lineTo(0.9, 0.52)
    path.curveTo(0.72, 0.76, 0.28, 0.76, 0.1, 0.52)
    path.close()
    c.drawPath(path, fill=1, stroke=0)
    c.setLineWidth(0.02)
    c.line(0.08, 0.54, 0.5, 0.3)
    c.line(0.92, 0.54, 0.5, 0.3)


def _heart(c: Canvas) -> None:
    path = c.beginPath()
    path.moveTo(0.5, 0.08)
    path.curveTo(0.1, 0.4, 0.0, 0.6, 0.12, 0.8)
    path.curveTo(0.25, 0.97, 0.45, 0.92, 0.5, 0.75)
    path.curveTo(0.55, 0.92, 0.75, 0.97, 0.88, 0.8)
    path.curveTo(1.0, 0.6, 0.9, 0.4, 0.5, 0.08)
    path.close()
    c.drawPath(path, fill=1, stroke=0)


def _shield(c: Canvas) -> None:
    path = c.beginPath()
    path.moveTo(0.1, 0.9)
    path.lineTo(0.9, 0.9)
    path.curveTo(0.9, 0.45, 0.75, 0.2, 0.5, 0.04)
    path.curveTo(0.25, 0.2, 0.1, 0.45, 0.1, 0.9)
    path.close()
    c.drawPath(path, fill=1, stroke=0)


def _star(c: Canvas) -> None:
    points = []
    for i in range(10):
        r = 0.48 if i % 2 == 0 else 0.2
        angle = math.pi / 2 + i * math.pi / 5
        points.append((0.5 + r * math.cos(angle), 0.47 + r * math.sin(angle)))
    _poly(c, points)


def _hourglass(c: Canvas) -> None:
    _poly(c, [(0.2, 0.95), (0.8, 0.95), (0.52, 0.5), (0.8, 0.05), (0.2, 0.05), (0.48, 0.5)])


def _flag(c: Canvas) -> None:
    _poly(c, [(0.18, 0.02), (0.25, 0.02), (0.25, 0.98), (0.18, 0.98)])
    _poly(c, [(0.25, 0.95), (0.88, 0.8), (0.25, 0.55)])


def _skull(c: Canvas) -> None:
    path = c.beginPath()
    path.circle(0.5, 0.6, 0.36)
    path.rect(0.3, 0.12, 0.4, 0.3)
    path.circle(0.36, 0.6, 0.09)
    path.circle(0.64, 0.6, 0.09)
    c.drawPath(path, fill=1, stroke=0, fillMode=0)  # even-odd: the eyes are holes


def _coin(c: Canvas) -> None:
    path = c.beginPath()
    path.circle(0.5, 0.5, 0.46)
    path.circle(0.5, 0.5, 0.3)
    path.circle(0.5, 0.5, 0.18)
    c.drawPath(path, fill=1, stroke=0, fillMode=0)


def _arrow(c: Canvas) -> None:
    _poly(c, [(0.05, 0.4), (0.6, 0.4), (0.6, 0.2), (0.95, 0.5), (0.6, 0.8), (0.6, 0.6), (0.05, 0.6)])


def _bolt(c: Canvas) -> None:
    _poly(c, [(0.6, 0.98), (0.2, 0.45), (0.45, 0.45), (0.35, 0.02), (0.8, 0.58), (0.55, 0.58)])


def _eye(c: Canvas) -> None:
    path = c.beginPath()
    path.moveTo(0.02, 0.5)
    path.curveTo(0.3, 0.9, 0.7, 0.9, 0.98, 0.5)
    path.curveTo(0.7, 0.1, 0.3, 0.1, 0.02, 0.5)
    path.close()
    path.circle(0.5, 0.5, 0.16)
    c.drawPath(path, fill=1, stroke=0, fillMode=0)


def _scroll(c: Canvas) -> None:
    _poly(c, [(0.2, 0.1), (0.8, 0.1), (0.8, 0.9), (0.2, 0.9)])
    c.circle(0.2, 0.9, 0.08, fill=1, stroke=0)
    c.circle(0.8, 0.1, 0.08, fill=1, stroke=0)


ICONS: dict[str, Callable[[Canvas], None]] = {
    "sword": _sword,
    "axe": _axe,
    "spear": _spear,
    "crossbow": _crossbow,
    "heart": _heart,
    "shield": _shield,
    "star": _star,
    "hourglass": _hourglass,
    "flag": _flag,
    "skull": _skull,
    "coin": _coin,
    "move": _arrow,
    "force": _bolt,
    "eye": _eye,
    "scroll": _scroll,
}


# a new icon is named in the data's vocabulary too, so validation knows it
assert set(ICONS) == ICON_NAMES, set(ICONS) ^ ICON_NAMES


def draw(c: Canvas, name: str, x: float, y: float, size: float) -> None:
    """Draw icon name in the square of side size whose bottom-left is (x, y), in the current fill colour."""
    c.saveState()
    c.translate(x, y)
    c.scale(size, size)
    ICONS[name](c)
    c.restoreState()


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
        return ICON_NAMES | {name for name, _ in self.own}

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
