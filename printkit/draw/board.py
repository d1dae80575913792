"""Boards, mats, tracks and strips drawn whole at full size: title, sections, spaces and their labels."""

from __future__ import annotations

from typing import Any

from reportlab.lib.colors import Color, HexColor
from reportlab.pdfgen.canvas import Canvas

from printkit.core.errors import PlacedError
from printkit.core.units import MM
from printkit.data import settings
from printkit.data.game import Game
from printkit.data.model import Component, Section
from printkit.draw import fonts, icons, textfit
from printkit.draw.layout import FIELD, SMALLEST_TEXT
from printkit.draw.legibility import INK, PAPER, legible, needed
from printkit.draw.legibility import mix as _mix

PAD = 6 * MM  # around the board's art
TITLE_H = 12 * MM
SECTION_TITLE_H = 7 * MM
SECTION_GAP = 5 * MM


def _cell(section: Section) -> tuple[float, float]:
    return settings.card_size(section.cell).size


def section_size(section: Section) -> tuple[float, float]:
    cw, ch = _cell(section)
    title = SECTION_TITLE_H if section.title else 0.0
    return section.cols * cw, section.rows * ch + title


def board_size(comp: Component) -> tuple[float, float]:
    """Width and height of a part's art, padding and title included."""
    assert comp.board is not None
    sizes = [section_size(s) for s in comp.board.sections]
    width = max(w for w, _ in sizes) + 2 * PAD
    height = sum(h for _, h in sizes) + SECTION_GAP * (len(sizes) - 1) + TITLE_H + 2 * PAD
    return width, height


def _fill(template: str, values: dict[str, Any]) -> str:
    return FIELD.sub(lambda m: str(values.get(m.group(1), "")), template)


def space_labels(game: Game, section: Section) -> list[str]:
    """The text of each space of a section, row by row."""
    count = section.cols * section.rows
    labels = [""] * count
    if section.eras:
        texts = game.info.texts
        for i, era in enumerate(game.info.eras[:count]):
            values = {"number": era.number or i + 1, "name": era.name, "force": era.force, "power": era.power}
            if era.home_of:
                home = next((f.name for f in game.info.factions if f.id == era.home_of), era.home_of)
                stat = _fill(texts.get("board.home_stat", "{home}"), {"home": home})
            else:
                stat = _fill(texts.get("board.era_stat", ""), values)
            labels[i] = _fill(texts.get("board.era", "{name}"), values | {"stat": stat})
    if section.numbers:
        first, last = section.numbers
        for i, n in enumerate(range(first, last + 1)):
            labels[i] = str(n)
    for i, text in enumerate(section.labels[:count]):
        labels[i] = text
    for i in range(count):
        row, col = divmod(i, section.cols)
        extra = [section.row_labels[row]] if row < len(section.row_labels) else []
        extra += [section.col_labels[col]] if col < len(section.col_labels) else []
        labels[i] = "\n".join([*extra, labels[i]] if labels[i] else extra)
    return labels


def _accent(game: Game) -> str:
    return str(game.info.factions[0].colour if game.info.factions else game.decks[0].deck.back.colour)


class BoardTextOverflow(PlacedError):
    """A board's own words (its name, the game's title and credit) that do not fit the board."""


CREDIT_SIZE = SMALLEST_TEXT
NAME_LEAST = 9.0  # points: a board's name may shrink this far on a narrow board


def _lines(text: str, width: float) -> list[str] | None:
    return textfit.wrapped(text, "sans", width, CREDIT_SIZE)


Rect = tuple[float, float, float, float]  # x0, y0, x1, y1 on the board, points


def _line(c: Canvas, text: str, face: str, size: float, x: float, baseline: float, labels: list[Rect] | None) -> None:
    """Note where one line of text lies (left edge x): its ascent above the baseline, its descent below."""
    if labels is not None:
        labels.append((x, baseline - 0.25 * size, x + c.stringWidth(text, face, size), baseline + 0.8 * size))


def _credit(
    c: Canvas, game: Game, comp: Component, width: float, height: float, labels: list[Rect] | None = None
) -> None:
    """The game's title and credit, right-aligned in the column beside the board's name, wrapped to fit.

    When they do not fit there (a narrow board), the credit moves to the strip along the board's
    bottom edge, on two lines at most; when even that does not fit, the build stops naming the board.
    """
    leading = CREDIT_SIZE * 1.2
    column = width - 2 * PAD - c.stringWidth(comp.name, fonts.use("serif-bold"), name_size(game, comp)) - 3 * MM
    title = _lines(game.printed_title, column) or []
    credit = _lines(game.info.credit, column) if game.info.credit else []
    below: list[str] = []
    if credit is None or (len(title) + len(credit)) * leading > TITLE_H:
        below = _lines(game.info.credit, width - 2 * PAD) or []
        credit = []
        if not below or len(below) > 2:
            below = []
    if not title or (game.info.credit and not credit and not below) or len(title) * leading > TITLE_H:
        raise BoardTextOverflow(
            f"{game.place('component', comp.id)}: {comp.id}: the board's name, the game's title and its credit "
            f"do not fit its {width / MM:.0f} mm width at {CREDIT_SIZE:g} pt: widen the board or shorten the credit"
        )
    face = fonts.use("sans")
    c.setFont(face, CREDIT_SIZE)
    c.setFillColor(HexColor(INK))
    placed = [(line, height - PAD - 2.5 * MM - i * leading) for i, line in enumerate(title + credit)]
    placed += [(line, 1.6 * MM + i * leading) for i, line in enumerate(reversed(below))]  # in the bottom padding
    for line, baseline in placed:
        c.drawRightString(width - PAD, baseline, line)
        _line(c, line, face, CREDIT_SIZE, width - PAD - c.stringWidth(line, face, CREDIT_SIZE), baseline, labels)


def name_size(game: Game, comp: Component) -> float:
    """The size the board's name prints at: 16 pt, smaller on a narrow board; one that cannot fit stops the build."""
    width, _ = board_size(comp)
    where = f"{game.place('component', comp.id)}: board {comp.id}: its name"
    return textfit.one_line(comp.name, "serif-bold", width - 2 * PAD, 16, where, min_size=NAME_LEAST)


def spaces_box(comp: Component) -> tuple[float, float, float, float]:
    """Where a board's sections lie, under its name and credit: left, bottom, right, top in points."""
    width, height = board_size(comp)
    return (0.0, PAD, width, height - PAD - TITLE_H)


def draw_board(c: Canvas, game: Game, comp: Component, labels: list[Rect] | None = None) -> None:
    """The whole part at full size, its bottom-left at the origin; labels, when given, gets where each line of
    its text lies, so that marks printed over the board can keep clear of it."""
    assert comp.board is not None
    width, height = board_size(comp)
    accent = _accent(game)
    size = name_size(game, comp)
    ground = _mix(accent, "#ffffff", 0.88)
    c.setFillColor(ground)
    c.setStrokeColor(HexColor(accent))
    c.setLineWidth(1.2)
    c.roundRect(0, 0, width, height, 4 * MM, stroke=1, fill=1)
    _lattice(c, width, height, _mix(accent, "#ffffff", 0.72))
    c.setStrokeColor(HexColor(accent))
    c.setLineWidth(0.5)
    c.roundRect(2 * MM, 2 * MM, width - 4 * MM, height - 4 * MM, 2.5 * MM, stroke=1, fill=0)
    c.setFillColor(legible(HexColor(accent), ground, needed(size, "serif-bold")))  # a pale accent is darkened
    c.setFont(fonts.use("serif-bold"), size)
    c.drawString(PAD, height - PAD - 9 * MM, comp.name)
    _line(c, comp.name, fonts.use("serif-bold"), size, PAD, height - PAD - 9 * MM, labels)
    _credit(c, game, comp, width, height, labels)
    top = height - PAD - TITLE_H
    at = f"{game.place('component', comp.id)}: board {comp.id}"  # where a label that cannot fit is reported
    for section in comp.board.sections:
        top = _draw_section(c, game, section, top, accent, at, labels) - SECTION_GAP


def _lattice(c: Canvas, width: float, height: float, colour: Color) -> None:
    """Fine diagonal lines both ways over the board's ground, inside its rounded edge: a printed texture."""
    c.saveState()
    clip = c.beginPath()
    clip.roundRect(0, 0, width, height, 4 * MM)
    c.clipPath(clip, stroke=0, fill=0)
    c.setStrokeColor(colour)
    c.setLineWidth(0.4)
    step = 6 * MM
    offset = -height
    while offset < width:
        c.line(offset, 0, offset + height, height)
        c.line(offset, height, offset + height, 0)
        offset += step
    c.restoreState()


def _draw_section(
    c: Canvas, game: Game, section: Section, top: float, accent: str, at: str, labels: list[Rect] | None = None
) -> float:
    cw, ch = _cell(section)
    if section.title:
        where = f"{at}: section {section.title[:30]!r}: its title"
        size = textfit.one_line(section.title, "sans-bold", section.cols * cw - 2 * MM, 11, where, min_size=7)
        ground = _mix(accent, "#ffffff", 0.88)
        c.setFillColor(legible(_mix(accent, "#000000", 0.35), ground, needed(size, "sans-bold")))
        c.setFont(fonts.use("sans-bold"), size)
        c.drawString(PAD + 1 * MM, top - 5 * MM, section.title)
        _line(c, section.title, fonts.use("sans-bold"), size, PAD + 1 * MM, top - 5 * MM, labels)
        top -= SECTION_TITLE_H
    spaces = space_labels(game, section)
    for i, label in enumerate(spaces):
        row, col = divmod(i, section.cols)
        x = PAD + col * cw
        y = top - (row + 1) * ch
        c.setFillColor(HexColor(PAPER))
        c.setStrokeColor(_mix(accent, "#000000", 0.2))
        c.setLineWidth(0.8)
        c.roundRect(x + 1 * MM, y + 1 * MM, cw - 2 * MM, ch - 2 * MM, 2 * MM, stroke=1, fill=1)
        c.setStrokeColor(_mix(accent, "#ffffff", 0.55))
        c.setLineWidth(0.4)
        c.roundRect(x + 1.8 * MM, y + 1.8 * MM, cw - 3.6 * MM, ch - 3.6 * MM, 1.4 * MM, stroke=1, fill=0)
        # an era's space shows the icon the game's icons: table gives that era, else the section's
        era = game.info.eras[i] if section.eras and i < len(game.info.eras) else None
        icon = (game.info.icons.get(era.id) if era else None) or section.icon
        if icon:
            side = min(cw, ch) * 0.45
            c.setFillColor(_mix(accent, "#ffffff", 0.7))
            icons.IconSet.of(game).draw(c, icon, x + (cw - side) / 2, y + (ch - side) / 2, side)
        if label:
            _label(c, label, (x + 2.5 * MM, y + 2.5 * MM, cw - 5 * MM, ch - 5 * MM), min(ch, cw), at, labels)
    return top - section.rows * ch


def _label(
    c: Canvas, text: str, box: tuple[float, float, float, float], scale: float, at: str, labels: list[Rect] | None
) -> None:
    x, y, w, h = box
    size = max(SMALLEST_TEXT, min(14.0, scale / 5))
    fitted = textfit.fit(text, "sans-bold", w, h, size, SMALLEST_TEXT, 1.2, False, True)
    if fitted is None:
        space = f"{w / MM:.0f} x {h / MM:.0f} mm"
        raise PlacedError(f"{at}: a space's label does not fit its {space} even at {SMALLEST_TEXT} pt: {text[:50]!r}")
    c.setFillColor(HexColor(INK))
    face = fonts.use("sans-bold")
    c.setFont(face, fitted.size)
    baseline = y + h - fitted.size * 0.8
    for words in fitted.texts:
        c.drawCentredString(x + w / 2, baseline, words)
        _line(c, words, face, fitted.size, x + (w - c.stringWidth(words, face, fitted.size)) / 2, baseline, labels)
        baseline -= fitted.leading
