"""printkit's own icons: each a filled vector silhouette in the unit square (y up), drawn in the fill colour.

Shapes are built from straight lines, Bézier curves and circles; a hole is a second path drawn
with the even-odd rule. Each keeps about 0.04 of the square clear at its edges, so icons of one
card line up and none touches its neighbour in a line of text.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence

from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.pathobject import PDFPathObject

Point = tuple[float, float]


# --- helpers -----------------------------------------------------------------


def _path(c: Canvas, points: Sequence[Point], path: PDFPathObject | None = None) -> PDFPathObject:
    """A closed polygon, added to path (a new one if none)."""
    path = path or c.beginPath()
    path.moveTo(*points[0])
    for point in points[1:]:
        path.lineTo(*point)
    path.close()
    return path


def _fill(c: Canvas, path: PDFPathObject, holes: bool = False) -> None:
    c.drawPath(path, fill=1, stroke=0, fillMode=0 if holes else 1)  # even-odd when the path has holes


def _poly(c: Canvas, points: Sequence[Point]) -> None:
    _fill(c, _path(c, points))


def _star_points(cx: float, cy: float, outer: float, inner: float, n: int, turn: float = 0.0) -> list[Point]:
    points = []
    for i in range(2 * n):
        r = outer if i % 2 == 0 else inner
        angle = math.pi / 2 + turn + i * math.pi / n
        points.append((cx + r * math.cos(angle), cy + r * math.sin(angle)))
    return points


def _ring(c: Canvas, cx: float, cy: float, outer: float, inner: float) -> None:
    path = c.beginPath()
    path.circle(cx, cy, outer)
    path.circle(cx, cy, inner)
    _fill(c, path, holes=True)


def _bar(c: Canvas, x0: float, y0: float, x1: float, y1: float, width: float) -> None:
    """A straight bar of the given width from (x0, y0) to (x1, y1), square ends."""
    dx, dy = x1 - x0, y1 - y0
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length * width / 2, dx / length * width / 2
    _poly(c, [(x0 + nx, y0 + ny), (x1 + nx, y1 + ny), (x1 - nx, y1 - ny), (x0 - nx, y0 - ny)])


def _arc_band(
    c: Canvas, cx: float, cy: float, radius: float, width: float, start: float, extent: float, head: float = 0.0
) -> None:
    """A curved band along a circle from angle start (degrees) through extent; with head, an arrowhead at its end."""
    steps = max(8, int(abs(extent) / 6))
    outer, inner = radius + width / 2, radius - width / 2
    angles = [math.radians(start + extent * i / steps) for i in range(steps + 1)]
    points = [(cx + outer * math.cos(a), cy + outer * math.sin(a)) for a in angles]
    if head:
        end = angles[-1]
        tangent = 1 if extent > 0 else -1
        tip_angle = end + tangent * head / radius
        points.append((cx + (outer + width * 0.9) * math.cos(end), cy + (outer + width * 0.9) * math.sin(end)))
        points.append((cx + radius * math.cos(tip_angle), cy + radius * math.sin(tip_angle)))
        points.append((cx + (inner - width * 0.9) * math.cos(end), cy + (inner - width * 0.9) * math.sin(end)))
    points += [(cx + inner * math.cos(a), cy + inner * math.sin(a)) for a in reversed(angles)]
    _poly(c, points)


def _rounded(
    c: Canvas, x: float, y: float, w: float, h: float, r: float, path: PDFPathObject | None = None
) -> PDFPathObject:
    path = path or c.beginPath()
    path.roundRect(x, y, w, h, r)
    return path


# --- weapons and fighters ---------------------------------------------------------


def sword(c: Canvas) -> None:
    path = _path(c, [(0.44, 0.3), (0.56, 0.3), (0.56, 0.82), (0.5, 0.98), (0.44, 0.82)])
    _path(c, [(0.485, 0.36), (0.515, 0.36), (0.515, 0.8), (0.485, 0.8)], path)  # the fuller, cut out
    _fill(c, path, holes=True)
    _fill(c, _rounded(c, 0.24, 0.23, 0.52, 0.08, 0.03))
    _poly(c, [(0.455, 0.08), (0.545, 0.08), (0.545, 0.23), (0.455, 0.23)])
    c.circle(0.5, 0.07, 0.065, fill=1, stroke=0)


def dagger(c: Canvas) -> None:
    path = c.beginPath()
    path.moveTo(0.5, 0.95)
    path.curveTo(0.58, 0.8, 0.6, 0.6, 0.57, 0.44)
    path.lineTo(0.43, 0.44)
    path.curveTo(0.4, 0.6, 0.42, 0.8, 0.5, 0.95)
    path.close()
    _fill(c, path)
    _poly(c, [(0.3, 0.36), (0.7, 0.36), (0.66, 0.44), (0.34, 0.44)])
    _poly(c, [(0.455, 0.12), (0.545, 0.12), (0.545, 0.36), (0.455, 0.36)])
    c.circle(0.5, 0.1, 0.06, fill=1, stroke=0)


def axe(c: Canvas) -> None:
    _poly(c, [(0.42, 0.03), (0.5, 0.03), (0.5, 0.95), (0.42, 0.95)])
    path = c.beginPath()
    path.moveTo(0.5, 0.86)
    path.curveTo(0.62, 0.9, 0.74, 0.96, 0.86, 0.96)
    path.curveTo(0.97, 0.8, 0.97, 0.58, 0.86, 0.44)
    path.curveTo(0.74, 0.46, 0.62, 0.52, 0.5, 0.56)
    path.close()
    _fill(c, path)


def spear(c: Canvas) -> None:
    _poly(c, [(0.465, 0.03), (0.535, 0.03), (0.535, 0.68), (0.465, 0.68)])
    path = c.beginPath()
    path.moveTo(0.5, 0.98)
    path.curveTo(0.6, 0.86, 0.62, 0.76, 0.58, 0.66)
    path.lineTo(0.42, 0.66)
    path.curveTo(0.38, 0.76, 0.4, 0.86, 0.5, 0.98)
    path.close()
    _fill(c, path)
    _poly(c, [(0.4, 0.62), (0.6, 0.62), (0.6, 0.66), (0.4, 0.66)])


def lance(c: Canvas) -> None:
    """A knight's lance, raised: a long cone of a shaft, the round guard that shields the hand, the grip."""
    cone = [(0.5, 0.99), (0.585, 0.34), (0.415, 0.34)]
    grip = [(0.465, 0.06), (0.535, 0.06), (0.535, 0.3), (0.465, 0.3)]
    c.saveState()
    c.translate(0.5, 0.5)
    c.rotate(-35)
    c.translate(-0.5, -0.5)
    _poly(c, cone)
    _poly(c, grip)
    guard = c.beginPath()
    guard.moveTo(0.5, 0.46)
    guard.curveTo(0.62, 0.42, 0.7, 0.34, 0.7, 0.29)
    guard.lineTo(0.3, 0.29)
    guard.curveTo(0.3, 0.34, 0.38, 0.42, 0.5, 0.46)
    guard.close()
    _fill(c, guard)
    c.restoreState()


def crossbow(c: Canvas) -> None:
    _poly(c, [(0.46, 0.04), (0.54, 0.04), (0.54, 0.86), (0.46, 0.86)])
    path = c.beginPath()
    path.moveTo(0.05, 0.5)
    path.curveTo(0.25, 0.84, 0.75, 0.84, 0.95, 0.5)
    path.lineTo(0.89, 0.47)
    path.curveTo(0.72, 0.74, 0.28, 0.74, 0.11, 0.47)
    path.close()
    _fill(c, path)
    _bar(c, 0.08, 0.49, 0.5, 0.28, 0.025)  # the string
    _bar(c, 0.92, 0.49, 0.5, 0.28, 0.025)
    _poly(c, [(0.5, 0.97), (0.58, 0.86), (0.42, 0.86)])


def bow(c: Canvas) -> None:
    path = c.beginPath()
    path.moveTo(0.3, 0.96)
    path.curveTo(0.9, 0.8, 0.9, 0.2, 0.3, 0.04)
    path.lineTo(0.33, 0.1)
    path.curveTo(0.8, 0.26, 0.8, 0.74, 0.33, 0.9)
    path.close()
    _fill(c, path)
    _bar(c, 0.31, 0.93, 0.31, 0.07, 0.02)  # the string
    _bar(c, 0.08, 0.5, 0.86, 0.5, 0.035)  # the arrow
    _poly(c, [(0.97, 0.5), (0.84, 0.57), (0.84, 0.43)])
    _poly(c, [(0.06, 0.56), (0.16, 0.52), (0.16, 0.48), (0.06, 0.44), (0.1, 0.5)])


def scythe(c: Canvas) -> None:
    _bar(c, 0.56, 0.03, 0.66, 0.92, 0.085)  # the snath
    path = c.beginPath()  # the blade, sweeping from the top of the snath
    path.moveTo(0.7, 0.94)
    path.curveTo(0.52, 1.02, 0.2, 0.98, 0.03, 0.72)
    path.curveTo(0.26, 0.82, 0.46, 0.8, 0.64, 0.76)
    path.close()
    _fill(c, path)
    _bar(c, 0.48, 0.42, 0.74, 0.5, 0.07)  # the handle


def helmet(c: Canvas) -> None:
    path = c.beginPath()
    path.moveTo(0.14, 0.1)
    path.lineTo(0.14, 0.52)
    path.curveTo(0.14, 0.8, 0.3, 0.92, 0.5, 0.92)
    path.curveTo(0.7, 0.92, 0.86, 0.8, 0.86, 0.52)
    path.lineTo(0.86, 0.1)
    path.lineTo(0.62, 0.1)
    path.lineTo(0.62, 0.42)
    path.lineTo(0.38, 0.42)
    path.lineTo(0.38, 0.1)
    path.close()
    # the eye slit, a hole
    path.moveTo(0.22, 0.5)
    path.lineTo(0.78, 0.5)
    path.lineTo(0.78, 0.58)
    path.lineTo(0.22, 0.58)
    path.close()
    _fill(c, path, holes=True)
    _poly(c, [(0.47, 0.92), (0.53, 0.92), (0.53, 0.99), (0.47, 0.99)])


def shield(c: Canvas) -> None:
    path = c.beginPath()
    path.moveTo(0.12, 0.9)
    path.lineTo(0.88, 0.9)
    path.curveTo(0.88, 0.45, 0.74, 0.2, 0.5, 0.04)
    path.curveTo(0.26, 0.2, 0.12, 0.45, 0.12, 0.9)
    path.close()
    _fill(c, path)


def crest(c: Canvas) -> None:
    """A shield bearing a cross, cut out of it."""
    path = c.beginPath()
    path.moveTo(0.12, 0.9)
    path.lineTo(0.88, 0.9)
    path.curveTo(0.88, 0.45, 0.74, 0.2, 0.5, 0.04)
    path.curveTo(0.26, 0.2, 0.12, 0.45, 0.12, 0.9)
    path.close()
    _path(
        c,
        [(0.45, 0.8), (0.55, 0.8), (0.55, 0.64), (0.74, 0.64), (0.74, 0.55), (0.55, 0.55), (0.55, 0.22)]
        + [(0.45, 0.22), (0.45, 0.55), (0.26, 0.55), (0.26, 0.64), (0.45, 0.64)],
        path,
    )
    _fill(c, path, holes=True)


def tower(c: Canvas) -> None:
    outline = [(0.2, 0.04), (0.8, 0.04), (0.74, 0.7), (0.82, 0.7), (0.82, 0.95), (0.7, 0.95), (0.7, 0.86)]
    outline += [(0.58, 0.86), (0.58, 0.95), (0.42, 0.95), (0.42, 0.86), (0.3, 0.86), (0.3, 0.95), (0.18, 0.95)]
    outline += [(0.18, 0.7), (0.26, 0.7)]
    path = _path(c, outline)
    path.moveTo(0.42, 0.04)  # the door and a window, holes
    path.lineTo(0.42, 0.22)
    path.curveTo(0.42, 0.3, 0.58, 0.3, 0.58, 0.22)
    path.lineTo(0.58, 0.04)
    path.close()
    _path(c, [(0.46, 0.5), (0.54, 0.5), (0.54, 0.62), (0.46, 0.62)], path)
    _fill(c, path, holes=True)


def wall(c: Canvas) -> None:
    """Bricks in three courses."""
    h, gap = 0.26, 0.04
    for row, y in enumerate((0.08, 0.08 + h + gap, 0.08 + 2 * (h + gap))):
        edges = (0.04, 0.5, 0.96) if row % 2 == 0 else (0.04, 0.27, 0.73, 0.96)
        for left, right in itertools.pairwise(edges):
            _fill(c, _rounded(c, left + gap / 2, y, right - left - gap, h, 0.02))


def padlock(c: Canvas) -> None:
    _arc_band(c, 0.5, 0.56, 0.2, 0.09, 0, 180)
    _poly(c, [(0.255, 0.56), (0.345, 0.56), (0.345, 0.5), (0.255, 0.5)])
    _poly(c, [(0.655, 0.56), (0.745, 0.56), (0.745, 0.5), (0.655, 0.5)])
    path = _rounded(c, 0.16, 0.05, 0.68, 0.5, 0.06)
    path.circle(0.5, 0.33, 0.07)
    _path(c, [(0.47, 0.3), (0.53, 0.3), (0.55, 0.14), (0.45, 0.14)], path)
    _fill(c, path, holes=True)


def bomb(c: Canvas) -> None:
    c.circle(0.44, 0.4, 0.36, fill=1, stroke=0)
    _poly(c, [(0.58, 0.66), (0.74, 0.82), (0.8, 0.76), (0.64, 0.6)])
    for point in _star_points(0.84, 0.86, 0.13, 0.05, 5)[::2]:
        _bar(c, 0.84, 0.86, *point, 0.035)


def burst(c: Canvas) -> None:
    _poly(c, _star_points(0.5, 0.5, 0.48, 0.22, 12, turn=0.13))


def target(c: Canvas) -> None:
    _ring(c, 0.5, 0.5, 0.4, 0.31)
    _ring(c, 0.5, 0.5, 0.22, 0.13)
    c.circle(0.5, 0.5, 0.05, fill=1, stroke=0)
    for x0, y0, x1, y1 in (
        (0.5, 0.96, 0.5, 0.74),
        (0.5, 0.04, 0.5, 0.26),
        (0.04, 0.5, 0.26, 0.5),
        (0.96, 0.5, 0.74, 0.5),
    ):
        _bar(c, x0, y0, x1, y1, 0.06)


def claw(c: Canvas) -> None:
    """Three curved talon slashes."""
    for dx in (-0.26, 0.0, 0.26):
        path = c.beginPath()
        path.moveTo(0.42 + dx, 0.04)
        path.curveTo(0.6 + dx, 0.3, 0.64 + dx, 0.64, 0.56 + dx, 0.97)
        path.curveTo(0.52 + dx, 0.64, 0.46 + dx, 0.34, 0.42 + dx, 0.04)
        path.close()
        _fill(c, path)


def horns(c: Canvas) -> None:
    """A demon's horned head."""
    path = c.beginPath()
    path.moveTo(0.3, 0.62)
    path.curveTo(0.12, 0.68, 0.04, 0.84, 0.08, 0.98)
    path.curveTo(0.14, 0.84, 0.24, 0.78, 0.36, 0.76)
    path.close()
    path.moveTo(0.7, 0.62)
    path.curveTo(0.88, 0.68, 0.96, 0.84, 0.92, 0.98)
    path.curveTo(0.86, 0.84, 0.76, 0.78, 0.64, 0.76)
    path.close()
    _fill(c, path)
    head = c.beginPath()
    head.moveTo(0.5, 0.04)
    head.curveTo(0.3, 0.1, 0.2, 0.4, 0.24, 0.6)
    head.curveTo(0.28, 0.76, 0.4, 0.82, 0.5, 0.82)
    head.curveTo(0.6, 0.82, 0.72, 0.76, 0.76, 0.6)
    head.curveTo(0.8, 0.4, 0.7, 0.1, 0.5, 0.04)
    head.close()
    _path(c, [(0.32, 0.56), (0.46, 0.5), (0.44, 0.44), (0.34, 0.48)], head)  # slanted eyes
    _path(c, [(0.68, 0.56), (0.54, 0.5), (0.56, 0.44), (0.66, 0.48)], head)
    _path(c, [(0.4, 0.26), (0.6, 0.26), (0.5, 0.2)], head)
    _fill(c, head, holes=True)


def skull(c: Canvas) -> None:
    path = c.beginPath()
    path.moveTo(0.28, 0.16)
    path.lineTo(0.28, 0.32)
    path.curveTo(0.1, 0.4, 0.12, 0.6, 0.14, 0.66)
    path.curveTo(0.2, 0.9, 0.4, 0.96, 0.5, 0.96)
    path.curveTo(0.6, 0.96, 0.8, 0.9, 0.86, 0.66)
    path.curveTo(0.88, 0.6, 0.9, 0.4, 0.72, 0.32)
    path.lineTo(0.72, 0.16)
    path.close()
    path.circle(0.36, 0.56, 0.1)
    path.circle(0.64, 0.56, 0.1)
    _path(c, [(0.5, 0.44), (0.45, 0.34), (0.55, 0.34)], path)
    _fill(c, path, holes=True)
    for x in (0.34, 0.44, 0.56, 0.66):
        _poly(c, [(x - 0.035, 0.04), (x + 0.035, 0.04), (x + 0.035, 0.14), (x - 0.035, 0.14)])


def grave(c: Canvas) -> None:
    path = c.beginPath()
    path.moveTo(0.22, 0.14)
    path.lineTo(0.22, 0.62)
    path.curveTo(0.22, 0.9, 0.78, 0.9, 0.78, 0.62)
    path.lineTo(0.78, 0.14)
    path.close()
    _path(
        c,
        [(0.46, 0.72), (0.54, 0.72), (0.54, 0.6), (0.64, 0.6), (0.64, 0.52), (0.54, 0.52), (0.54, 0.3)]
        + [(0.46, 0.3), (0.46, 0.52), (0.36, 0.52), (0.36, 0.6), (0.46, 0.6)],
        path,
    )
    _fill(c, path, holes=True)
    _fill(c, _rounded(c, 0.06, 0.04, 0.88, 0.08, 0.03))


def crown(c: Canvas) -> None:
    _poly(c, [(0.1, 0.28), (0.06, 0.78), (0.3, 0.52), (0.5, 0.86), (0.7, 0.52), (0.94, 0.78), (0.9, 0.28)])
    _fill(c, _rounded(c, 0.1, 0.12, 0.8, 0.12, 0.03))
    for x, y in ((0.06, 0.82), (0.5, 0.9), (0.94, 0.82)):
        c.circle(x, y, 0.055, fill=1, stroke=0)


def flag(c: Canvas) -> None:
    _poly(c, [(0.16, 0.02), (0.23, 0.02), (0.23, 0.98), (0.16, 0.98)])
    path = c.beginPath()
    path.moveTo(0.23, 0.94)
    path.curveTo(0.45, 1.0, 0.6, 0.82, 0.9, 0.9)
    path.lineTo(0.9, 0.5)
    path.curveTo(0.6, 0.42, 0.45, 0.6, 0.23, 0.54)
    path.close()
    _fill(c, path)


def horseshoe(c: Canvas) -> None:
    path = c.beginPath()
    outer, inner = 0.42, 0.24
    path.moveTo(0.5 - outer, 0.1)
    path.lineTo(0.5 - outer, 0.5)
    path.curveTo(0.5 - outer, 1.06, 0.5 + outer, 1.06, 0.5 + outer, 0.5)
    path.lineTo(0.5 + outer, 0.1)
    path.lineTo(0.5 + inner, 0.1)
    path.lineTo(0.5 + inner, 0.5)
    path.curveTo(0.5 + inner, 0.82, 0.5 - inner, 0.82, 0.5 - inner, 0.5)
    path.lineTo(0.5 - inner, 0.1)
    path.close()
    for x, y in ((0.17, 0.34), (0.2, 0.6), (0.83, 0.34), (0.8, 0.6)):  # nail holes
        path.circle(x, y, 0.035)
    _fill(c, path, holes=True)


def boot(c: Canvas) -> None:
    path = c.beginPath()
    path.moveTo(0.3, 0.96)
    path.lineTo(0.6, 0.96)
    path.lineTo(0.6, 0.42)
    path.curveTo(0.78, 0.38, 0.94, 0.3, 0.94, 0.16)
    path.lineTo(0.94, 0.06)
    path.lineTo(0.1, 0.06)
    path.lineTo(0.1, 0.2)
    path.curveTo(0.2, 0.26, 0.3, 0.34, 0.3, 0.5)
    path.close()
    _fill(c, path)
    _fill(c, _rounded(c, 0.26, 0.82, 0.38, 0.1, 0.03))


def fist(c: Canvas) -> None:
    path = _rounded(c, 0.2, 0.08, 0.56, 0.56, 0.12)
    _fill(c, path)
    for i in range(4):
        _fill(c, _rounded(c, 0.22 + i * 0.14, 0.56, 0.13, 0.3, 0.06))
    _fill(c, _rounded(c, 0.1, 0.3, 0.3, 0.14, 0.07))


# --- magic, science and time -------------------------------------------------------


def force(c: Canvas) -> None:
    """A lightning bolt."""
    _poly(c, [(0.62, 0.98), (0.2, 0.44), (0.46, 0.44), (0.34, 0.02), (0.8, 0.58), (0.54, 0.58)])


def fire(c: Canvas) -> None:
    path = c.beginPath()
    path.moveTo(0.5, 0.03)
    path.curveTo(0.2, 0.03, 0.1, 0.3, 0.2, 0.52)
    path.curveTo(0.26, 0.66, 0.36, 0.7, 0.36, 0.86)
    path.curveTo(0.46, 0.78, 0.5, 0.66, 0.48, 0.54)
    path.curveTo(0.58, 0.62, 0.62, 0.78, 0.58, 0.98)
    path.curveTo(0.8, 0.84, 0.92, 0.56, 0.84, 0.32)
    path.curveTo(0.78, 0.12, 0.66, 0.03, 0.5, 0.03)
    path.close()
    path.moveTo(0.5, 0.1)  # the flame's heart, a hole
    path.curveTo(0.36, 0.1, 0.32, 0.24, 0.38, 0.34)
    path.curveTo(0.44, 0.42, 0.5, 0.44, 0.5, 0.52)
    path.curveTo(0.58, 0.44, 0.66, 0.34, 0.64, 0.24)
    path.curveTo(0.62, 0.14, 0.56, 0.1, 0.5, 0.1)
    path.close()
    _fill(c, path, holes=True)


def wand(c: Canvas) -> None:
    _bar(c, 0.08, 0.08, 0.62, 0.62, 0.08)
    _poly(c, _star_points(0.72, 0.72, 0.26, 0.1, 5, turn=-0.25))
    for x, y, r in ((0.28, 0.86, 0.05), (0.9, 0.3, 0.05), (0.16, 0.6, 0.035)):
        c.circle(x, y, r, fill=1, stroke=0)


def orb(c: Canvas) -> None:
    """A crystal ball on its stand, with a glint."""
    path = c.beginPath()
    path.circle(0.5, 0.6, 0.36)
    path.moveTo(0.3, 0.72)
    path.curveTo(0.32, 0.84, 0.42, 0.88, 0.48, 0.88)
    path.curveTo(0.4, 0.82, 0.36, 0.76, 0.36, 0.7)
    path.close()
    _fill(c, path, holes=True)
    _poly(c, [(0.26, 0.04), (0.74, 0.04), (0.64, 0.24), (0.36, 0.24)])


def vortex(c: Canvas) -> None:
    """A spiral of three arms."""
    for turn in (0, 120, 240):
        points = []
        for i in range(41):
            t = i / 40
            angle = math.radians(turn + t * 300)
            radius = 0.05 + 0.42 * t
            points.append((0.5 + radius * math.cos(angle), 0.5 + radius * math.sin(angle)))
        inner = []
        for i in range(41):
            t = i / 40
            angle = math.radians(turn + t * 300 - 40 * t)
            radius = 0.04 + 0.3 * t
            inner.append((0.5 + radius * math.cos(angle), 0.5 + radius * math.sin(angle)))
        _poly(c, points + inner[::-1])


def portal(c: Canvas) -> None:
    """An arched doorway with a swirl inside."""
    path = c.beginPath()
    path.moveTo(0.14, 0.04)
    path.lineTo(0.14, 0.56)
    path.curveTo(0.14, 1.02, 0.86, 1.02, 0.86, 0.56)
    path.lineTo(0.86, 0.04)
    path.close()
    path.moveTo(0.26, 0.04)
    path.lineTo(0.26, 0.56)
    path.curveTo(0.26, 0.88, 0.74, 0.88, 0.74, 0.56)
    path.lineTo(0.74, 0.04)
    path.close()
    _fill(c, path, holes=True)
    _arc_band(c, 0.5, 0.46, 0.14, 0.06, 200, 280)
    c.circle(0.5, 0.46, 0.05, fill=1, stroke=0)


def clock(c: Canvas) -> None:
    _ring(c, 0.5, 0.5, 0.46, 0.37)
    for i in range(12):
        angle = math.radians(i * 30)
        r0 = 0.3 if i % 3 else 0.27
        _bar(
            c,
            0.5 + r0 * math.cos(angle),
            0.5 + r0 * math.sin(angle),
            0.5 + 0.34 * math.cos(angle),
            0.5 + 0.34 * math.sin(angle),
            0.035,
        )
    _bar(c, 0.5, 0.5, 0.5, 0.8, 0.055)
    _bar(c, 0.5, 0.5, 0.7, 0.4, 0.055)
    c.circle(0.5, 0.5, 0.05, fill=1, stroke=0)


def hourglass(c: Canvas) -> None:
    _fill(c, _rounded(c, 0.16, 0.88, 0.68, 0.08, 0.03))
    _fill(c, _rounded(c, 0.16, 0.04, 0.68, 0.08, 0.03))
    path = c.beginPath()
    path.moveTo(0.24, 0.88)
    path.curveTo(0.24, 0.62, 0.46, 0.56, 0.46, 0.5)
    path.curveTo(0.46, 0.44, 0.24, 0.38, 0.24, 0.12)
    path.lineTo(0.76, 0.12)
    path.curveTo(0.76, 0.38, 0.54, 0.44, 0.54, 0.5)
    path.curveTo(0.54, 0.56, 0.76, 0.62, 0.76, 0.88)
    path.close()
    path.moveTo(0.32, 0.82)  # the empty upper glass, a hole above the sand
    path.lineTo(0.68, 0.82)
    path.curveTo(0.66, 0.72, 0.56, 0.66, 0.52, 0.6)
    path.lineTo(0.48, 0.6)
    path.curveTo(0.44, 0.66, 0.34, 0.72, 0.32, 0.82)
    path.close()
    _fill(c, path, holes=True)


def snowflake(c: Canvas) -> None:
    for i in range(6):
        angle = math.radians(90 + i * 60)
        tip = (0.5 + 0.46 * math.cos(angle), 0.5 + 0.46 * math.sin(angle))
        _bar(c, 0.5, 0.5, *tip, 0.06)
        mid = (0.5 + 0.3 * math.cos(angle), 0.5 + 0.3 * math.sin(angle))
        for side in (-1, 1):
            branch = angle + side * math.radians(45)
            _bar(c, *mid, mid[0] + 0.14 * math.cos(branch), mid[1] + 0.14 * math.sin(branch), 0.05)
    c.circle(0.5, 0.5, 0.08, fill=1, stroke=0)


def cycle(c: Canvas) -> None:
    """Two arrows chasing each other round: again."""
    _arc_band(c, 0.5, 0.5, 0.32, 0.1, 100, 140, head=0.12)
    _arc_band(c, 0.5, 0.5, 0.32, 0.1, 280, 140, head=0.12)


def rewind(c: Canvas) -> None:
    _poly(c, [(0.04, 0.5), (0.48, 0.84), (0.48, 0.16)])
    _poly(c, [(0.46, 0.5), (0.9, 0.84), (0.9, 0.16)])


def move(c: Canvas) -> None:
    """An arrow forward."""
    _poly(c, [(0.05, 0.4), (0.58, 0.4), (0.58, 0.18), (0.95, 0.5), (0.58, 0.82), (0.58, 0.6), (0.05, 0.6)])


def swap(c: Canvas) -> None:
    """Two arrows, one each way: move a card elsewhere."""
    _poly(c, [(0.06, 0.66), (0.64, 0.66), (0.64, 0.8), (0.94, 0.6), (0.64, 0.4), (0.64, 0.54), (0.06, 0.54)])
    _poly(c, [(0.94, 0.34), (0.36, 0.34), (0.36, 0.48), (0.06, 0.28), (0.36, 0.08), (0.36, 0.22), (0.94, 0.22)])


def tornado(c: Canvas) -> None:
    for i, (y, w) in enumerate(((0.84, 0.84), (0.68, 0.66), (0.52, 0.5), (0.36, 0.34), (0.2, 0.2))):
        shift = (0.06, -0.02, 0.04, -0.04, 0.02)[i]
        _fill(c, _rounded(c, 0.5 - w / 2 + shift, y, w, 0.11, 0.055))
    _fill(c, _rounded(c, 0.47, 0.05, 0.07, 0.12, 0.035))


def meteor(c: Canvas) -> None:
    c.circle(0.32, 0.32, 0.24, fill=1, stroke=0)
    for x0, y0, x1, y1, w in (
        (0.44, 0.52, 0.94, 0.96, 0.07),
        (0.5, 0.38, 0.96, 0.7, 0.05),
        (0.3, 0.56, 0.62, 0.96, 0.05),
    ):
        _bar(c, x0, y0, x1, y1, w)


def stone(c: Canvas) -> None:
    path = _path(c, [(0.1, 0.16), (0.04, 0.46), (0.24, 0.82), (0.62, 0.92), (0.92, 0.66), (0.96, 0.3), (0.72, 0.08)])
    _path(c, [(0.3, 0.64), (0.5, 0.5), (0.46, 0.46), (0.28, 0.58)], path)
    _path(c, [(0.56, 0.3), (0.74, 0.42), (0.76, 0.36), (0.6, 0.24)], path)
    _fill(c, path, holes=True)


def atom(c: Canvas) -> None:
    c.saveState()
    for angle in (0, 60, 120):
        c.saveState()
        c.translate(0.5, 0.5)
        c.rotate(angle)
        path = c.beginPath()
        path.ellipse(-0.46, -0.16, 0.92, 0.32)
        path.ellipse(-0.39, -0.1, 0.78, 0.2)
        _fill(c, path, holes=True)
        c.restoreState()
    c.restoreState()
    c.circle(0.5, 0.5, 0.08, fill=1, stroke=0)


def gear(c: Canvas) -> None:
    teeth = 8
    points = []
    for i in range(teeth * 4):
        angle = 2 * math.pi * (i - 0.5) / (teeth * 4)
        r = 0.46 if (i // 2) % 2 == 0 else 0.34
        points.append((0.5 + r * math.cos(angle), 0.5 + r * math.sin(angle)))
    path = _path(c, points)
    path.circle(0.5, 0.5, 0.14)
    _fill(c, path, holes=True)


def chip(c: Canvas) -> None:
    path = _rounded(c, 0.22, 0.22, 0.56, 0.56, 0.05)
    _path(c, [(0.34, 0.34), (0.66, 0.34), (0.66, 0.66), (0.34, 0.66)], path)
    _fill(c, path, holes=True)
    _fill(c, _rounded(c, 0.42, 0.42, 0.16, 0.16, 0.02))
    for k in (0.32, 0.44, 0.56, 0.68):
        for x0, y0, x1, y1 in ((k, 0.78, k, 0.96), (k, 0.04, k, 0.22), (0.04, k, 0.22, k), (0.78, k, 0.96, k)):
            _bar(c, x0, y0, x1, y1, 0.05)


def rocket(c: Canvas) -> None:
    path = c.beginPath()
    path.moveTo(0.5, 0.98)
    path.curveTo(0.66, 0.86, 0.66, 0.6, 0.62, 0.3)
    path.lineTo(0.38, 0.3)
    path.curveTo(0.34, 0.6, 0.34, 0.86, 0.5, 0.98)
    path.close()
    path.circle(0.5, 0.66, 0.07)
    _fill(c, path, holes=True)
    _poly(c, [(0.38, 0.44), (0.22, 0.26), (0.22, 0.16), (0.39, 0.3)])
    _poly(c, [(0.62, 0.44), (0.78, 0.26), (0.78, 0.16), (0.61, 0.3)])
    _poly(c, [(0.42, 0.26), (0.58, 0.26), (0.5, 0.04)])


def mask(c: Canvas) -> None:
    """A masquerade mask: two eye holes."""
    path = c.beginPath()
    path.moveTo(0.04, 0.66)
    path.curveTo(0.04, 0.3, 0.3, 0.26, 0.5, 0.42)
    path.curveTo(0.7, 0.26, 0.96, 0.3, 0.96, 0.66)
    path.curveTo(0.8, 0.76, 0.64, 0.74, 0.5, 0.66)
    path.curveTo(0.36, 0.74, 0.2, 0.76, 0.04, 0.66)
    path.close()
    path.ellipse(0.16, 0.46, 0.22, 0.12)
    path.ellipse(0.62, 0.46, 0.22, 0.12)
    _fill(c, path, holes=True)


def eye(c: Canvas) -> None:
    path = c.beginPath()
    path.moveTo(0.02, 0.5)
    path.curveTo(0.3, 0.9, 0.7, 0.9, 0.98, 0.5)
    path.curveTo(0.7, 0.1, 0.3, 0.1, 0.02, 0.5)
    path.close()
    path.circle(0.5, 0.5, 0.2)
    _fill(c, path, holes=True)
    c.circle(0.5, 0.5, 0.1, fill=1, stroke=0)


def magnifier(c: Canvas) -> None:
    _ring(c, 0.42, 0.58, 0.34, 0.24)
    _bar(c, 0.62, 0.34, 0.92, 0.04, 0.13)


def spyglass(c: Canvas) -> None:
    c.saveState()
    c.translate(0.5, 0.5)
    c.rotate(35)
    for x, w, h in ((-0.48, 0.3, 0.14), (-0.2, 0.3, 0.2), (0.08, 0.38, 0.28)):
        _fill(c, _rounded(c, x, -h / 2, w, h, 0.02))
    _fill(c, _rounded(c, 0.44, -0.16, 0.04, 0.32, 0.01))
    c.restoreState()


def die(c: Canvas) -> None:
    path = _rounded(c, 0.1, 0.1, 0.8, 0.8, 0.14)
    for x, y in ((0.3, 0.7), (0.5, 0.5), (0.7, 0.3), (0.7, 0.7), (0.3, 0.3)):
        path.circle(x, y, 0.07)
    _fill(c, path, holes=True)


def _turned(points: Sequence[Point], centre: Point, degrees: float) -> list[Point]:
    a = math.radians(degrees)
    cx, cy = centre
    return [
        (cx + (x - cx) * math.cos(a) - (y - cy) * math.sin(a), cy + (x - cx) * math.sin(a) + (y - cy) * math.cos(a))
        for x, y in points
    ]


def cards(c: Canvas) -> None:
    """A fan of three cards, each a little apart from the one over it."""
    card = [(0.31, 0.12), (0.69, 0.12), (0.69, 0.7), (0.31, 0.7)]
    pivot = (0.5, 0.02)
    front_first = [_turned(card, pivot, degrees) for degrees in (0, 24, -24)]
    drawn: list[list[Point]] = []
    for outline in front_first:
        c.saveState()
        if drawn:  # keep clear of the cards over this one, by a hairline gap
            clip = _path(c, [(-1, -1), (2, -1), (2, 2), (-1, 2)])
            for over in drawn:
                ox, oy = sum(x for x, _ in over) / 4, sum(y for _, y in over) / 4
                _path(c, [(ox + (x - ox) * 1.12, oy + (y - oy) * 1.06) for x, y in over], clip)
            c.clipPath(clip, stroke=0, fill=0, fillMode=0)
        _fill(c, _path(c, outline))
        c.restoreState()
        drawn.append(outline)


def scroll(c: Canvas) -> None:
    """A scroll rolled at both ends, lines of writing cut out."""
    path = _rounded(c, 0.2, 0.14, 0.6, 0.72, 0.02)
    for y in (0.64, 0.52, 0.4, 0.28):
        _path(c, [(0.3, y), (0.7, y), (0.7, y + 0.05), (0.3, y + 0.05)], path)
    _fill(c, path, holes=True)
    for y in (0.86, 0.14):
        _fill(c, _rounded(c, 0.1, y - 0.07, 0.8, 0.14, 0.07))


def book(c: Canvas) -> None:
    """An open book."""
    for side in (-1, 1):
        path = c.beginPath()
        path.moveTo(0.5, 0.18)
        path.curveTo(0.5 + side * 0.14, 0.26, 0.5 + side * 0.3, 0.26, 0.5 + side * 0.44, 0.2)
        path.lineTo(0.5 + side * 0.44, 0.8)
        path.curveTo(0.5 + side * 0.3, 0.86, 0.5 + side * 0.14, 0.86, 0.5, 0.78)
        path.close()
        for k in range(3):  # lines of text, cut out
            y = 0.62 - k * 0.13
            _path(
                c,
                [
                    (0.5 + side * 0.1, y),
                    (0.5 + side * 0.36, y + 0.01),
                    (0.5 + side * 0.36, y + 0.05),
                    (0.5 + side * 0.1, y + 0.04),
                ],
                path,
            )
        _fill(c, path, holes=True)
    _fill(c, _rounded(c, 0.46, 0.1, 0.08, 0.74, 0.03))


def books(c: Canvas) -> None:
    """Three books on a shelf, one leaning."""
    for x, w, h in ((0.08, 0.18, 0.78), (0.3, 0.2, 0.68)):
        path = _rounded(c, x, 0.1, w, h, 0.02)
        _path(
            c,
            [
                (x + 0.04, 0.1 + h - 0.2),
                (x + w - 0.04, 0.1 + h - 0.2),
                (x + w - 0.04, 0.1 + h - 0.14),
                (x + 0.04, 0.1 + h - 0.14),
            ],
            path,
        )
        _fill(c, path, holes=True)
    c.saveState()
    c.translate(0.56, 0.1)
    c.rotate(-18)
    path = _rounded(c, 0, 0, 0.2, 0.74, 0.02)
    _path(c, [(0.04, 0.54), (0.16, 0.54), (0.16, 0.6), (0.04, 0.6)], path)
    _fill(c, path, holes=True)
    c.restoreState()
    _fill(c, _rounded(c, 0.04, 0.03, 0.92, 0.06, 0.02))


def quill(c: Canvas) -> None:
    path = c.beginPath()
    path.moveTo(0.14, 0.06)
    path.curveTo(0.3, 0.3, 0.5, 0.7, 0.94, 0.96)
    path.curveTo(0.9, 0.66, 0.7, 0.34, 0.3, 0.2)
    path.close()
    _fill(c, path)
    _bar(c, 0.06, 0.02, 0.3, 0.26, 0.04)
    for k in (0.38, 0.54, 0.7):
        _poly(
            c, [(0.3 + k * 0.5, 0.22 + k * 0.62), (0.36 + k * 0.5, 0.16 + k * 0.62), (0.35 + k * 0.5, 0.24 + k * 0.6)]
        )


def lamp(c: Canvas) -> None:
    """An oil lamp with its flame."""
    path = c.beginPath()
    path.moveTo(0.06, 0.3)
    path.curveTo(0.06, 0.14, 0.34, 0.1, 0.56, 0.12)
    path.curveTo(0.74, 0.14, 0.86, 0.2, 0.96, 0.36)
    path.lineTo(0.72, 0.34)
    path.curveTo(0.6, 0.4, 0.34, 0.42, 0.22, 0.38)
    path.curveTo(0.14, 0.36, 0.06, 0.36, 0.06, 0.3)
    path.close()
    _fill(c, path)
    _fill(c, _rounded(c, 0.3, 0.04, 0.3, 0.06, 0.03))
    flame = c.beginPath()
    flame.moveTo(0.86, 0.42)
    flame.curveTo(0.72, 0.5, 0.72, 0.66, 0.82, 0.9)
    flame.curveTo(0.96, 0.7, 0.98, 0.52, 0.86, 0.42)
    flame.close()
    _fill(c, flame)
    c.circle(0.33, 0.42, 0.05, fill=1, stroke=0)


def tablets(c: Canvas) -> None:
    """Two tablets side by side, rounded at the top."""
    for x in (0.06, 0.52):
        path = c.beginPath()
        path.moveTo(x, 0.06)
        path.lineTo(x, 0.7)
        path.curveTo(x, 0.96, x + 0.42, 0.96, x + 0.42, 0.7)
        path.lineTo(x + 0.42, 0.06)
        path.close()
        for k in range(4):
            y = 0.62 - k * 0.14
            _path(c, [(x + 0.09, y), (x + 0.33, y), (x + 0.33, y + 0.05), (x + 0.09, y + 0.05)], path)
        _fill(c, path, holes=True)


def key(c: Canvas) -> None:
    path = c.beginPath()
    path.circle(0.28, 0.64, 0.22)
    path.circle(0.28, 0.64, 0.1)
    _fill(c, path, holes=True)
    _bar(c, 0.46, 0.52, 0.94, 0.2, 0.09)
    _bar(c, 0.76, 0.32, 0.86, 0.46, 0.07)
    _bar(c, 0.62, 0.41, 0.7, 0.53, 0.07)


def chest(c: Canvas) -> None:
    path = _rounded(c, 0.08, 0.08, 0.84, 0.48, 0.04)
    _path(c, [(0.44, 0.4), (0.56, 0.4), (0.56, 0.28), (0.44, 0.28)], path)
    _fill(c, path, holes=True)
    lid = c.beginPath()
    lid.moveTo(0.08, 0.6)
    lid.lineTo(0.92, 0.6)
    lid.lineTo(0.92, 0.7)
    lid.curveTo(0.92, 0.96, 0.08, 0.96, 0.08, 0.7)
    lid.close()
    _fill(c, lid)


def coin(c: Canvas) -> None:
    _ring(c, 0.5, 0.5, 0.46, 0.38)
    path = c.beginPath()
    path.circle(0.5, 0.5, 0.32)
    _path(c, _star_points(0.5, 0.49, 0.22, 0.09, 5), path)
    _fill(c, path, holes=True)


def coins(c: Canvas) -> None:
    """A stack of coins, each edge a band, the top one showing its face."""
    for i in range(4):
        y = 0.1 + i * 0.15
        path = c.beginPath()
        path.moveTo(0.12, y + 0.08)
        path.lineTo(0.12, y + 0.14)
        path.lineTo(0.88, y + 0.14)
        path.lineTo(0.88, y + 0.08)
        path.curveTo(0.88, y - 0.04, 0.12, y - 0.04, 0.12, y + 0.08)
        path.close()
        _fill(c, path)
    top = c.beginPath()
    top.ellipse(0.12, 0.64, 0.76, 0.22)
    top.ellipse(0.24, 0.69, 0.52, 0.12)
    _fill(c, top, holes=True)


def heart(c: Canvas) -> None:
    path = c.beginPath()
    path.moveTo(0.5, 0.08)
    path.curveTo(0.1, 0.4, 0.0, 0.6, 0.12, 0.8)
    path.curveTo(0.25, 0.97, 0.45, 0.92, 0.5, 0.75)
    path.curveTo(0.55, 0.92, 0.75, 0.97, 0.88, 0.8)
    path.curveTo(1.0, 0.6, 0.9, 0.4, 0.5, 0.08)
    path.close()
    _fill(c, path)


def star(c: Canvas) -> None:
    _poly(c, _star_points(0.5, 0.47, 0.48, 0.2, 5))


def cloud(c: Canvas) -> None:
    path = c.beginPath()
    path.roundRect(0.08, 0.22, 0.84, 0.3, 0.15)
    _fill(c, path)
    for x, y, r in ((0.34, 0.54, 0.2), (0.58, 0.6, 0.24), (0.76, 0.48, 0.15)):
        c.circle(x, y, r, fill=1, stroke=0)


def drops(c: Canvas) -> None:
    """Drops of water: rain and mud."""
    for x, y, s in ((0.28, 0.5, 0.24), (0.7, 0.58, 0.2), (0.52, 0.08, 0.22)):
        path = c.beginPath()
        path.moveTo(x, y + 1.6 * s)
        path.curveTo(x + 0.1 * s, y + 1.2 * s, x + s, y + 0.8 * s, x + s, y + 0.45 * s)
        path.curveTo(x + s, y + 0.05 * s, x + 0.5 * s, y - 0.1 * s, x, y - 0.1 * s)
        path.curveTo(x - 0.5 * s, y - 0.1 * s, x - s, y + 0.05 * s, x - s, y + 0.45 * s)
        path.curveTo(x - s, y + 0.8 * s, x - 0.1 * s, y + 1.2 * s, x, y + 1.6 * s)
        path.close()
        _fill(c, path)


def deflect(c: Canvas) -> None:
    """An arrow turned aside by a wall."""
    _fill(c, _rounded(c, 0.78, 0.04, 0.12, 0.92, 0.03))
    _bar(c, 0.06, 0.82, 0.68, 0.52, 0.08)
    _bar(c, 0.68, 0.52, 0.3, 0.18, 0.08)
    _poly(c, [(0.16, 0.06), (0.44, 0.14), (0.26, 0.32)])


def beacon(c: Canvas) -> None:
    _poly(c, [(0.3, 0.04), (0.7, 0.04), (0.6, 0.52), (0.4, 0.52)])
    c.circle(0.5, 0.62, 0.1, fill=1, stroke=0)
    for angle in (20, 55, 125, 160):
        a = math.radians(angle)
        _bar(
            c,
            0.5 + 0.18 * math.cos(a),
            0.62 + 0.18 * math.sin(a),
            0.5 + 0.44 * math.cos(a),
            0.62 + 0.36 * math.sin(a),
            0.05,
        )


def column(c: Canvas) -> None:
    """A broken pillar."""
    _fill(c, _rounded(c, 0.16, 0.04, 0.68, 0.1, 0.02))
    _poly(c, [(0.26, 0.14), (0.74, 0.14), (0.74, 0.62), (0.6, 0.7), (0.5, 0.6), (0.38, 0.76), (0.26, 0.7)])
    _poly(c, [(0.5, 0.72), (0.62, 0.82), (0.7, 0.76), (0.76, 0.9), (0.62, 0.96), (0.48, 0.86)])


SHAPES: dict[str, Callable[[Canvas], None]] = {
    # the fifteen printkit started with, under their old names
    "sword": sword,
    "axe": axe,
    "spear": spear,
    "crossbow": crossbow,
    "heart": heart,
    "shield": shield,
    "star": star,
    "hourglass": hourglass,
    "flag": flag,
    "skull": skull,
    "coin": coin,
    "move": move,
    "force": force,
    "eye": eye,
    "scroll": scroll,
    # fighters and their gear
    "dagger": dagger,
    "lance": lance,
    "bow": bow,
    "scythe": scythe,
    "helmet": helmet,
    "crest": crest,
    "tower": tower,
    "wall": wall,
    "padlock": padlock,
    "bomb": bomb,
    "burst": burst,
    "target": target,
    "claw": claw,
    "horns": horns,
    "grave": grave,
    "crown": crown,
    "horseshoe": horseshoe,
    "boot": boot,
    "fist": fist,
    # magic, science and time
    "fire": fire,
    "wand": wand,
    "orb": orb,
    "vortex": vortex,
    "portal": portal,
    "clock": clock,
    "snowflake": snowflake,
    "cycle": cycle,
    "rewind": rewind,
    "swap": swap,
    "tornado": tornado,
    "meteor": meteor,
    "stone": stone,
    "atom": atom,
    "gear": gear,
    "chip": chip,
    "rocket": rocket,
    "mask": mask,
    "magnifier": magnifier,
    "spyglass": spyglass,
    "die": die,
    "cards": cards,
    "deflect": deflect,
    "beacon": beacon,
    # learning, wealth and weather
    "book": book,
    "books": books,
    "quill": quill,
    "lamp": lamp,
    "tablets": tablets,
    "key": key,
    "chest": chest,
    "coins": coins,
    "column": column,
    "cloud": cloud,
    "drops": drops,
}
