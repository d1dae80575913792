"""Fit text into a box: wrap at spaces, then shrink step by step down to a minimum size.

Text may hold inline icons written {name}; they take the width of a square one size high. Rich text
(data/richtext.py) holds marks that set words in bold or italic: each such piece is a Bold, Italic
or BoldItalic string, measured and drawn in the font's face of that style.
Right-to-left text (Hebrew) is wrapped in logical order and each line turned to visual order.
Everything printkit draws outside a card layout (boards, tiles, maps, covers, calibration pages)
goes through fitted() or one_line(): text that cannot fit at the smallest size stops the build
naming the part and the field, as a card's text does in the card painter.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

from printkit.core.errors import PlacedError
from printkit.core.units import MM
from printkit.data import richtext
from printkit.data.model import ICON_NAMES
from printkit.draw import fonts
from printkit.draw import rtl as rtl_text

STEP = 0.25  # points per shrink step
ASCENT = 0.95  # of a size: the first line needs the font's ascent, each further one a full leading
SMALLEST = 6.0  # points: the least any text prints at (layout.SMALLEST_TEXT is this)
ICON_ADVANCE = 1.05  # an inline icon's width, in font sizes
_ICON = re.compile(r"\{([a-z_]+)\}")

Segment = str | tuple[str]  # text (a Bold, Italic or BoldItalic one in that style), or (icon name,)
Word = tuple[Segment, ...]


class Bold(str):
    """Text set in its font's bold face."""


class Italic(str):
    """Text set in its font's italic face."""


class BoldItalic(str):
    """Text set in its font's bold italic face."""


# the faces of a font for its styled text: bold, italic, bold italic (a font's own name where it has none)
Styles = tuple[str, str, str]
_STYLED: dict[tuple[bool, bool], type[str]] = {(True, False): Bold, (False, True): Italic, (True, True): BoldItalic}


def styled_font(segment: str, font: str, styles: Styles | tuple[()]) -> str:
    """The font a piece of text is measured and drawn in: its style's face, else the font itself."""
    if not styles or type(segment) is str:
        return font
    return styles[(Bold, Italic, BoldItalic).index(type(segment))]


@dataclass(frozen=True)
class Fitted:
    size: float
    leading: float  # baseline to baseline, points
    lines: tuple[tuple[Word, ...], ...]  # a right-to-left line: one word, the line as it is seen
    widths: tuple[float, ...]
    logical: tuple[str, ...] = ()  # a right-to-left text's lines as typed, which draw/rtl.py writes

    @property
    def height(self) -> float:
        """The height the lines take, points: the first line's ascent and a leading for each further line."""
        return block_height(self.size, self.leading, len(self.lines))

    @property
    def texts(self) -> list[str]:
        """Each line as plain text, its icons left out: for text drawn without them."""
        return [" ".join("".join(s for s in word if isinstance(s, str)) for word in line) for line in self.lines]


def block_height(size: float, leading: float, lines: int) -> float:
    """The height lines of text take at a size and a leading (baseline to baseline), points."""
    return size * ASCENT + (lines - 1) * leading


def _segments(word: str, icons: frozenset[str], style: list[bool] | None = None) -> Word:
    """A word's pieces: icons, and text in the style its marks set (style: [bold, italic], carried word to word)."""
    style = style if style is not None else [False, False]
    parts: list[Segment] = []
    for piece in re.split(f"([{richtext.MARKS}])", word):
        if piece in (richtext.BOLD, richtext.ITALIC):
            style[piece == richtext.ITALIC] = not style[piece == richtext.ITALIC]
            continue
        kind = _STYLED.get((style[0], style[1]), str)
        pos = 0
        for match in _ICON.finditer(piece):
            if match.group(1) not in icons:
                continue
            if match.start() > pos:
                parts.append(kind(piece[pos : match.start()]))
            parts.append((match.group(1),))
            pos = match.end()
        if pos < len(piece):
            parts.append(kind(piece[pos:]))
    return tuple(parts)


def _words(text: str, icons: frozenset[str]) -> tuple[Word, ...]:
    style = [False, False]
    return tuple(word for word in (_segments(w, icons, style) for w in text.split()) if word)


def plain(text: str, icons: frozenset[str] = ICON_NAMES) -> str:
    """The text without its inline icons and its marks of style."""
    return richtext.plain(_ICON.sub(lambda m: "" if m.group(1) in icons else m.group(0), text))


def word_width(word: Word, font: str, size: float, styles: Styles | tuple[()] = ()) -> float:
    return sum(
        size * ICON_ADVANCE if isinstance(s, tuple) else fonts.width(s, styled_font(s, font, styles), size)
        for s in word
    )


def _wrap(
    paragraphs: tuple[tuple[Word, ...], ...],
    font: str,
    size: float,
    width: float,
    styles: Styles | tuple[()] = (),
    balance: bool = False,
) -> tuple[list[tuple[Word, ...]], list[float]] | None:
    space = fonts.width(" ", font, size)
    lines: list[tuple[Word, ...]] = []
    widths: list[float] = []
    for words in paragraphs:
        measured = [word_width(word, font, size, styles) for word in words]
        if any(w > width + 1e-6 for w in measured):
            return None  # one word wider than the box: only a smaller size can help
        para_lines, para_widths = _greedy(words, measured, space, width)
        if balance and len(para_lines) >= 2:
            even = _balanced(measured, space, width, len(para_lines))
            para_lines, para_widths = _greedy(words, measured, space, even)
        if len(para_lines) >= 2:
            _no_lone_last_word(para_lines, para_widths, space, width, lambda w: word_width(w, font, size, styles))
        lines += para_lines
        widths += para_widths
    return lines, widths


def _greedy(
    words: tuple[Word, ...], measured: list[float], space: float, width: float
) -> tuple[list[tuple[Word, ...]], list[float]]:
    """A paragraph's words set line by line, each line as full as width lets it be."""
    lines: list[tuple[Word, ...]] = []
    widths: list[float] = []
    line: list[Word] = []
    used = 0.0
    for word, w in zip(words, measured, strict=True):
        extra = w if not line else space + w
        if line and used + extra > width + 1e-6:
            lines.append(tuple(line))
            widths.append(used)
            line, used = [word], w
        else:
            line.append(word)
            used += extra
    lines.append(tuple(line))
    widths.append(used)
    return lines, widths


def _balanced(measured: list[float], space: float, width: float, count: int) -> float:
    """The narrowest measure at which the words still take count lines: set there, the lines come out of even
    length, where a full measure leaves a long line over a short one (the way CSS's text-wrap: balance works)."""

    def lines_at(measure: float) -> int:  # as _greedy counts them
        lines, used = 1, measured[0]
        for w in measured[1:]:
            if used + space + w > measure + 1e-6:
                lines, used = lines + 1, w
            else:
                used += space + w
        return lines

    low, high = max(max(measured), (sum(measured) + space * (len(measured) - count)) / count), width
    for _ in range(14):  # to within width / 16,000: a hundredth of a point on a card
        middle = (low + high) / 2
        if lines_at(middle) > count:
            low = middle
        else:
            high = middle
    return high


def _no_lone_last_word(
    lines: list[tuple[Word, ...]], widths: list[float], space: float, width: float, measure: Callable[[Word], float]
) -> None:
    """A paragraph's last line given a second word from the line above when it holds one alone ("... for / 3."
    reads as a stray): the line above keeps two words at least, the last line still fits, and the lines stay
    as many, so the text's size and height do not change."""
    above, last = lines[-2], lines[-1]
    if len(last) != 1 or len(above) < 3:
        return
    moved = measure(above[-1])
    if moved + space + widths[-1] > width + 1e-6:
        return
    lines[-2], lines[-1] = above[:-1], (above[-1], *last)
    widths[-2], widths[-1] = widths[-2] - space - moved, moved + space + widths[-1]


# The hits that pay: a card's text measured and then drawn (a few calls apart), the same card drawn again, and a
# proof's texts fitted again as the sheets draw them (a deck of up to about 500 cards, two texts each). A larger deck
# of different cards hits nothing more, and 4,096 entries held 7 MB of Fitted texts never asked for again.
@functools.lru_cache(maxsize=1024)
def fit(
    text: str,
    font: str,
    width: float,
    height: float,
    size: float,
    min_size: float,
    leading: float,
    rtl: bool = False,
    wrap: bool = True,
    icons: frozenset[str] = ICON_NAMES,
    styles: Styles | tuple[()] = (),
    balance: bool = False,
) -> Fitted | None:
    """The largest size from size down to min_size at which text fits the box, or None.

    icons: the names that {name} shows as an icon; any other {word} is text.
    styles: the fonts its bold, italic and bold italic pieces are set in; none: all in font.
    balance: each paragraph's lines set as even in length as they can be, in as many lines (centred text).
    """
    if rtl:  # a right-to-left text is set as typed, in one style
        text = richtext.plain(text)
    paragraphs = tuple(_words(p, icons) for p in text.split("\n"))
    if not wrap:  # a title: the whole text is one unbreakable line
        paragraphs = ((_segments(" ".join(text.split()), icons),),)
    current = size
    while current >= min_size - 1e-9:
        wrapped = _wrap(paragraphs, font, current, width, styles, balance)
        if wrapped is not None:
            lines, widths = wrapped
            if block_height(current, current * leading, len(lines)) <= height + 1e-6:
                logical: tuple[str, ...] = ()
                if rtl:
                    logical = tuple(" ".join(str(s) for w in line for s in w) for line in lines)
                    lines = [((rtl_text.visual(text),),) for text in logical]
                return Fitted(current, current * leading, tuple(lines), tuple(widths), logical)
        current = round(current - STEP, 4)
    return None


def wrapped(text: str, font: str, width: float, size: float, leading: float = 1.2) -> list[str] | None:
    """text in lines no wider than width at one size, however many lines; None when a word alone is wider."""
    fitted = fit(text, font, max(width, 1.0), 1e6, size, size, leading)
    return None if fitted is None else fitted.texts


class TextDoesNotFit(PlacedError):
    """Text outside a card layout that does not fit its space even at the smallest size: part and field named."""


def fitted(
    text: str,
    font: str,
    width: float,
    height: float,
    size: float,
    where: str,
    min_size: float = SMALLEST,
    leading: float = 1.2,
) -> Fitted:
    """text wrapped and shrunk into width x height from size down to min_size; else TextDoesNotFit.

    where: the part and field, after the place in the data that the text comes from
    ("cards/x/game.yaml:3:5: board track: its name").
    """
    found = fit(" ".join(text.split()), font, max(width, 1.0), height, size, max(min_size, SMALLEST), leading)
    if found is None:
        raise TextDoesNotFit(
            f"{where} does not fit its {width / MM:.0f} x {height / MM:.0f} mm even at {max(min_size, SMALLEST):g} pt: "
            f"{text[:60]!r}"
        )
    return found


def one_line(text: str, font: str, width: float, size: float, where: str, min_size: float = SMALLEST) -> float:
    """The largest size from size down to min_size at which text fits width on one line; else TextDoesNotFit."""
    found = fit(" ".join(text.split()), font, max(width, 1.0), size, size, max(min_size, SMALLEST), 1.2, wrap=False)
    if found is None:
        raise TextDoesNotFit(
            f"{where} does not fit its {width / MM:.0f} mm on one line even at {max(min_size, SMALLEST):g} pt: "
            f"{text[:60]!r}"
        )
    return found.size
