"""Card text in HTML, as the cards print it: inline icons as pictures, rich text's bold and italic as <strong>, <em>.

The booklet and the reference site show the same words the cards do. An icon named in text ({sword}, a
game's own {lantern}) becomes a small picture drawn from the same vector shape (or SVG) the card
draws, with its name as the text a screen reader says. Everything else stays escaped text: only
names in the game's icon set become pictures, and only the marks rich text reading made become tags.
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Callable
from typing import Any

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from printkit.data import richtext
from printkit.data.game import Game
from printkit.docs import templating
from printkit.draw import raster
from printkit.draw.icons import IconSet
from printkit.draw.legibility import INK

PIXELS = 96  # an icon's picture: a line of body text at about 4x, sharp in print and on a dense screen
_NAMED = re.compile(r"\{([a-z_]+)\}")
_TAG = re.compile(r"(<[^>]*>)")


@functools.lru_cache(maxsize=512)
def _png(icons: IconSet, name: str) -> bytes:
    """One icon, black on a transparent square: an icon of printkit's is its shape; a game's own SVG its colours."""
    side = 72.0  # points: rendered at PIXELS across

    def draw(c: Canvas) -> None:
        c.setFillColor(HexColor(INK))
        icons.draw(c, name, 0, 0, side)

    picture = raster.render_pdf(raster.drawing_pdf((side, side), draw), PIXELS * 72 / side).convert("RGBA")
    # white paper becomes clear: each pixel's darkness is how much of the icon covers it, its colour kept
    pixels = picture.load()
    for y in range(picture.height):
        for x in range(picture.width):
            r, g, b, _ = pixels[x, y]  # type: ignore[index, misc]
            cover = 255 - min(r, g, b)
            if cover == 0:
                pixels[x, y] = (0, 0, 0, 0)  # type: ignore[index]
            else:  # the colour before it was laid on white

                def back(v: int, c: int = cover) -> int:
                    return max(0, min(255, round((v - (255 - c)) * 255 / c)))

                pixels[x, y] = (back(r), back(g), back(b), cover)  # type: ignore[index]
    return raster.png(picture)


def data_uri(game: Game, name: str) -> str:
    """An icon's picture as a data: URI, for a document that carries its pictures in itself (the booklet)."""
    return templating.png_uri(_png(IconSet.of(game), name))


def icon_png(game: Game, name: str) -> bytes:
    """An icon's picture as PNG bytes, for a site that keeps its pictures in files."""
    return _png(IconSet.of(game), name)


def _img(name: str, src: str) -> str:
    return f'<img class="icon" src="{html.escape(src)}" alt="{html.escape(name)}" width="16" height="16">'


def icons_in(markup: str, game: Game, src: Callable[[str], str]) -> tuple[str, set[str]]:
    """HTML with every {name} of the game's icons in its text (not in a tag) as the icon's picture; and the names.
    src(name): where the picture is, a data: URI or a file's path."""
    known = IconSet.of(game).names
    used: set[str] = set()

    def one(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in known:
            return match.group(0)
        used.add(name)
        return _img(name, src(name))

    parts = _TAG.split(markup)
    out = [part if part.startswith("<") else _NAMED.sub(one, part) for part in parts]
    return "".join(out), used


def card_html(text: str, game: Game, src: Callable[[str], str]) -> tuple[str, set[str]]:
    """A line of card text (rich text's marks and icons in it) as HTML: escaped, emphasis tagged, icons pictured."""
    return icons_in(richtext.as_html(text), game, src)


def card_runs(text: str, game: Game, src: Callable[[str], str]) -> list[dict[str, Any]]:
    """A line of card text as runs a page's script builds as text nodes and pictures, never as HTML:
    {"text": ..., "b": true, "i": true} and {"icon": name, "src": where}."""
    known = IconSet.of(game).names
    out: list[dict[str, Any]] = []
    for part, bold, italic in richtext.styles(text):
        pos = 0
        for match in _NAMED.finditer(part):
            if match.group(1) not in known:
                continue
            out += [_run(part[pos : match.start()], bold, italic)] if match.start() > pos else []
            out.append({"icon": match.group(1), "src": src(match.group(1))})
            pos = match.end()
        out += [_run(part[pos:], bold, italic)] if pos < len(part) else []
    return out


def _run(text: str, bold: bool, italic: bool) -> dict[str, Any]:
    return {"text": text} | ({"b": True} if bold else {}) | ({"i": True} if italic else {})
