"""Draw one card face or back from a layout and the card's fields, in vector shapes and embedded fonts."""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reportlab.lib.colors import Color, HexColor
from reportlab.pdfgen.canvas import Canvas

from printkit.core import units
from printkit.core.errors import PLACED, DataError, PlacedError, PrintkitError, safe
from printkit.core.errors import shown as shown_value
from printkit.data import richtext
from printkit.data.game import Game
from printkit.data.model import ICON_NAMES
from printkit.draw import art, cardview, flow, fonts, icons, rtl, textfit
from printkit.draw.layout import FIELD, Box, Layout
from printkit.draw.legibility import INK, colour, text_colour

# regions that are a shape in their colours alone: once those read, a proof has nothing to find in drawing them
_SHAPES = frozenset({"background", "box", "line", "pattern"})


class TextOverflow(PlacedError):
    """Card text that does not fit its box even at the smallest allowed size, or that its font cannot draw."""


class LayoutFieldError(PrintkitError):
    """A layout names a field, font or icon the card or game does not have."""

    def lines(self) -> list[str]:
        text = safe(str(self))
        return [text] if PLACED.match(text) else [f"printkit: {text}"]


class PictureError(LayoutFieldError):
    """A picture a card or layout names that does not read or print, reported where it is named."""


def bind(
    template: str, fields: dict[str, Any], where: Callable[[], str], icon_names: frozenset[str] = ICON_NAMES
) -> str:
    """Fill {field} placeholders ({cost:+d} in a number format); {icon} names stay for the text fitter; anything
    else is a layout error."""
    values = fields.get(cardview.VALUES) or {}

    def one(match: re.Match[str]) -> str:
        key = match.group(1)
        spec = match.group(0)[len(key) + 2 : -1]
        if key in fields and key != cardview.VALUES:
            if not spec:
                return str(fields[key])
            value = values.get(key, fields[key])
            try:
                return format(value, spec) if isinstance(value, int | float) and not isinstance(value, bool) else ""
            except ValueError:
                raise LayoutFieldError(f"{where()}: {{{key}:{spec}}}: not a number format for {value!r}") from None
        if key in icon_names and not spec:
            return match.group(0)
        shown = ", ".join(sorted(k for k in fields if k != cardview.VALUES))
        raise LayoutFieldError(f"{where()}: no field {{{key}}} on this card (fields: {shown})")

    return FIELD.sub(one, template)


@dataclass(frozen=True)
class Target:
    """Names for error messages: which game, card and layout a drawing belongs to, and where the card is written."""

    game: str
    card: str
    layout: Layout
    place: str = ""  # "file:line:column" of the card, deck or component in the game's data
    reads_from: tuple[Path, ...] = ()  # the folders the game's pictures may be read from
    icons: icons.IconSet = icons.BUILT_IN  # the icons its text may show: printkit's and the game's own
    fonts: fonts.FontTable = fonts.BUILT_IN  # the fonts its layout may name: printkit's and the game's own
    # where each of its fields is written: ("file:line:column", "cards[3].art"), from Game.fields_at
    fields_at: Mapping[str, tuple[str, str]] = field(default_factory=dict, hash=False, compare=False)

    @classmethod
    def of(cls, game: Game, label: str, layout: Layout, place: str = "") -> Target:
        """The target of a drawing of game's: what error messages name, and what it may read and show."""
        fonts_ = fonts.FontTable.of(game)
        at = game.fields_at.get(place, {}) if place else {}
        return cls(game.slug, label, layout, place, game.reads_from, icons.IconSet.of(game), fonts_, at)

    @property
    def where(self) -> str:
        """The start of an error about this drawing: its place in the data, else the game's name."""
        return f"{self.place}: " if self.place else f"{self.game}: "

    def value_at(self, name: str) -> str | None:
        """Where the value a printed field shows is written, when it is the card's own (cardview.source_key)."""
        key = cardview.source_key(name)
        return self.fields_at[key][0] if key is not None and key in self.fields_at else None

    def where_value(self, names: Iterable[str]) -> str:
        """The start of an error about the value of one of fields names (the likeliest first): where the first
        written in the card's data is, its line and column or its cell; else where the card is (where)."""
        for name in names:
            place = self.value_at(name)
            if place:
                return f"{place}: "
        return self.where


class CardPainter:
    """Draws layouts onto a canvas in card-local coordinates: origin at the trim's bottom-left."""

    def __init__(
        self,
        canvas: Canvas,
        card_size: tuple[float, float],
        bleed: float,
        proof: bool = False,
        proved_icons: set[str] | None = None,
    ) -> None:
        self.c = canvas
        # a proof's icons drawn once already, shared by its painters: drawing one again can go wrong in no new way
        self.proved_icons = proved_icons if proved_icons is not None else set()
        self.w, self.h = card_size
        self.bleed = bleed
        self.proof = proof  # a proof reads and measures pictures but does not embed them: only problems count
        self.notices: list[str] = []  # what printed but could look better, such as soft art
        self.problems: list[str] = []  # a proof's: every region's problem, where a drawing stops at the first

    def paint(self, layout: Layout, fields: dict[str, Any], target: Target) -> None:
        self._drawn: list[Box] = []  # what lies under the next region: its text may take its colour from it
        boxes = layout.boxes((self.w, self.h))
        if any(box.spec.room_from for box in boxes):
            boxes = flow.flowed(boxes, fields, lambda box: self._needed(box, fields, target))
        for box in boxes:
            spec = box.spec
            if not spec.drawn_for(fields):
                continue
            if not self.proof:
                self._region(box, fields, target)
            else:
                try:
                    self._region(box, fields, target)
                except PrintkitError as exc:
                    self.problems += [line for line in exc.lines() if line not in self.problems]
            self._drawn.append(box)

    def _icon(self, target: Target, name: str, x: float, y: float, side: float) -> None:
        if self.proof and name in self.proved_icons:
            return
        target.icons.draw(self.c, name, x, y, side)
        if self.proof:
            self.proved_icons.add(name)

    def _rect(self, box: Box) -> tuple[float, float, float, float]:
        return box.x, self.h - box.y - box.h, box.w, box.h

    def _region(self, box: Box, fields: dict[str, Any], target: Target) -> None:
        c, spec = self.c, box.spec
        fill, stroke = colour(spec.fill, fields), colour(spec.stroke, fields)
        kind = spec.type
        if self.proof and kind in _SHAPES:  # its colours read, nothing is left that can go wrong: not drawn
            return
        if fill:
            c.setFillColor(fill)
        if stroke:
            c.setStrokeColor(stroke)
            c.setLineWidth(_pt(spec.stroke_width))
        x, y, w, h = self._rect(box)
        if kind == "background":
            b = self.bleed
            c.rect(-b, -b, self.w + 2 * b, self.h + 2 * b, stroke=0, fill=1 if fill else 0)
        elif kind == "box":
            radius = _pt(spec.radius)
            if radius:
                c.roundRect(x, y, w, h, radius, stroke=1 if stroke else 0, fill=1 if fill else 0)
            else:
                c.rect(x, y, w, h, stroke=1 if stroke else 0, fill=1 if fill else 0)
        elif kind == "line":
            c.line(x, y + h, x + w, y)
        elif kind == "pattern":
            self._pattern(box, stroke)
        elif kind == "badge":
            self._badge(box, fields, target)
        elif kind == "icon":
            known = target.icons.names
            name = bind(spec.icon or "", fields, lambda: self._at(target, box, "icon"), known).strip("{}")
            if name not in known:
                raise LayoutFieldError(
                    f"{self._at(target, box, 'icon')}: no icon {name!r} (icons: {', '.join(sorted(known))})"
                )
            c.setFillColor(text_colour(self._drawn, box, fields))
            side = min(w, h)
            self._icon(target, name, x + (w - side) / 2, y + (h - side) / 2, side)
        elif kind == "text":
            self._text(box, fields, target)
        elif kind == "image":
            self._image(box, fields, target)

    def _image(self, box: Box, fields: dict[str, Any], target: Target) -> None:
        """A picture in the region by its fit; into the bleed on each side where the region meets the trim."""
        spec = box.spec
        named = bind(spec.image or "", fields, lambda: self._at(target, box, "image")).strip()
        if not named:
            return
        path = Path(named) if Path(named).is_absolute() else target.layout.files[0].parent / named
        try:
            picture = art.load(path, (*target.reads_from, *target.layout.folders))
        except DataError as exc:
            raise self._picture_error(exc, spec.image or "", named, path, box, target) from None
        x, y, w, h = self._rect(box)
        b, near = self.bleed, 0.01
        left, bottom = (x - b if x <= near else x), (y - b if y <= near else y)
        right = x + w + b if x + w >= self.w - near else x + w
        top = y + h + b if y + h >= self.h - near else y + h
        area = (left, bottom, right - left, top - bottom)
        fx, fy = (float(v) for v in (spec.focus or "0.5,0.5").split(","))
        where = art.placement(picture, area, spec.fit or "cover", (fx, fy))
        self._sharpness(picture, where[2], box, target)
        if self.proof:
            return
        c = self.c
        c.saveState()
        clip = c.beginPath()
        radius = _pt(spec.radius)
        if radius:
            clip.roundRect(*area, radius)
        else:
            clip.rect(*area)
        c.clipPath(clip, stroke=0, fill=0)
        art.draw(c, picture, where)
        c.restoreState()
        if spec.stroke and spec.stroke != "none":
            stroke = colour(spec.stroke, fields) or HexColor(INK)
            c.setStrokeColor(stroke)
            c.setLineWidth(_pt(spec.stroke_width))
            c.roundRect(*area, radius, stroke=1, fill=0) if radius else c.rect(*area, stroke=1, fill=0)

    def _picture_error(
        self, exc: DataError, template: str, named: str, path: Path, box: Box, target: Target
    ) -> PictureError:
        """What is wrong with a picture, at the place that named it: the card's field its image binds (its
        art: value), else the layout's image: setting; never at the picture file, which says no card."""
        problem = "; ".join(p.message for p in exc.problems)
        bound = [key for key in FIELD.findall(template) if key in target.fields_at]
        if bound:  # the value came from the card: its field is what to fix
            place, label = target.fields_at[bound[0]]
            home = target.reads_from[0].absolute() if target.reads_from else None
            if bound[0] == "art" and home is not None and path.is_relative_to(home):
                shown = os.path.relpath(path, home)  # as the card writes it: the binding made it absolute
            else:
                shown = shown_value(named)
            return PictureError(f"{place}: {label}: {shown} (the image of {self._where(target, box)}): {problem}")
        if FIELD.search(template):  # from a field the card does not write itself: the layout binds it
            what = f"image {shown_value(template)} gives {shown_value(named)}"
        else:
            what = f"image {shown_value(named)}"
        return PictureError(f"{self._at(target, box, 'image')}: {what}: {problem}")

    def _sharpness(self, picture: art.Picture, drawn: float, box: Box, target: Target) -> None:
        sharpness = art.dpi(picture, drawn)
        if sharpness is not None and sharpness < art.SHARP_DPI:
            self.notices.append(
                f"{target.where_value(FIELD.findall(box.spec.image or ''))}card {target.card}: "
                f"{picture.path.name} prints at {sharpness:.0f} dpi in region "
                f"{box.name} ({box.w / units.MM:.1f} x {box.h / units.MM:.1f} mm); {art.SHARP_DPI} dpi prints sharp"
            )

    def _where(self, target: Target, box: Box) -> str:
        return f"layout {target.layout.name}, region {box.name}"

    def _at(self, target: Target, box: Box, key: str) -> str:
        """_where, after the file:line:column of the region's key in the layout when known: an error's start."""
        place = target.layout.place(box.name, key)
        return f"{place}: {self._where(target, box)}" if place else self._where(target, box)

    def _pattern(self, box: Box, stroke: Color | None) -> None:
        """A figure in the stroke colour clipped to the box: hatching shows a misaligned back at once."""
        c, spec = self.c, box.spec
        x, y, w, h = self._rect(box)
        step = max(_pt(spec.step), 1.0)
        c.saveState()
        path = c.beginPath()
        radius = _pt(spec.radius)
        path.roundRect(x, y, w, h, radius) if radius else path.rect(x, y, w, h)
        c.clipPath(path, stroke=0, fill=0)
        if stroke:
            c.setStrokeColor(stroke)
            c.setFillColor(stroke)
        motif = spec.motif or "hatching"
        cx, cy = x + w / 2, y + h / 2
        reach = math.hypot(w, h) / 2 + step
        if motif in ("hatching", "lattice"):
            offset = -h
            while offset < w:
                c.line(x + offset, y, x + offset + h, y + h)
                if motif == "lattice":
                    c.line(x + offset, y + h, x + offset + h, y)
                offset += step
        elif motif == "rays":  # wedges from the centre, every other one filled: a sunburst, step wide at its rim
            count = max(4, round(math.pi * min(w, h) / 2 / step)) * 2
            for i in range(0, count, 2):
                a0, a1 = 2 * math.pi * i / count, 2 * math.pi * (i + 1) / count
                wedge = c.beginPath()
                wedge.moveTo(cx, cy)
                wedge.lineTo(cx + reach * math.cos(a0), cy + reach * math.sin(a0))
                wedge.lineTo(cx + reach * math.cos(a1), cy + reach * math.sin(a1))
                wedge.close()
                c.drawPath(wedge, stroke=0, fill=1)
        elif motif == "rings":
            r = step
            while r < reach:
                c.circle(cx, cy, r, stroke=1, fill=0)
                r += step
        elif motif == "dots":  # a staggered grid, each dot a quarter of the step across
            row = 0
            yy = y - step
            while yy < y + h + step:
                xx = x - step + (step / 2 if row % 2 else 0)
                while xx < x + w + step:
                    c.circle(xx, yy, step / 8, stroke=0, fill=1)
                    xx += step
                yy += step * 0.866
                row += 1
        c.restoreState()

    def _badge(self, box: Box, fields: dict[str, Any], target: Target) -> None:
        spec = box.spec
        if not self.proof:  # a proof checks the badge's text alone: its shape, like a box's, cannot go wrong
            self._badge_shape(box, fields)
        if spec.text:
            w, h = box.w, box.h
            inner = Box(box.name, spec, box.x + w * 0.12, box.y + h * 0.18, w * 0.76, h * 0.64)
            self._text(inner, fields, target, centred=True)

    def _badge_shape(self, box: Box, fields: dict[str, Any]) -> None:
        c, spec = self.c, box.spec
        x, y, w, h = self._rect(box)
        fill = colour(spec.fill, fields)
        stroke = colour(spec.stroke, fields)
        path = c.beginPath()
        cx, cy, r = x + w / 2, y + h / 2, min(w, h) / 2
        shape = spec.shape or "circle"
        if shape == "circle" and fill and self.bleed and self._outline(box):
            # a round piece's disc: its colour runs past the cut circle by the bleed, so a cut a little off the
            # circle leaves no ring of paper (the disc's own stroke, if any, is drawn at the circle as designed)
            c.circle(cx, cy, r + self.bleed, stroke=0, fill=1)
        if shape == "circle":
            path.circle(cx, cy, r)
        elif shape == "diamond":
            for i, (px, py) in enumerate([(cx, y + h), (x + w, cy), (cx, y), (x, cy)]):
                (path.moveTo if i == 0 else path.lineTo)(px, py)
            path.close()
        elif shape == "hexagon":
            pts = [
                (x + w * fx, y + h * fy) for fx, fy in ((0.25, 1), (0.75, 1), (1, 0.5), (0.75, 0), (0.25, 0), (0, 0.5))
            ]
            for i, (px, py) in enumerate(pts):
                (path.moveTo if i == 0 else path.lineTo)(px, py)
            path.close()
        elif shape == "shield":
            path.moveTo(x, y + h)
            path.lineTo(x + w, y + h)
            path.curveTo(x + w, y + h * 0.4, x + w * 0.8, y + h * 0.15, cx, y)
            path.curveTo(x + w * 0.2, y + h * 0.15, x, y + h * 0.4, x, y + h)
            path.close()
        else:
            path.roundRect(x, y, w, h, min(w, h) * 0.2)
        c.drawPath(path, stroke=1 if stroke else 0, fill=1 if fill else 0)

    def _outline(self, box: Box) -> bool:
        """Whether a region fills the whole trim: a circle that does is a round piece's own outline."""
        near = 0.01 * min(self.w, self.h)
        return abs(box.x) < near and abs(box.y) < near and abs(box.w - self.w) < near and abs(box.h - self.h) < near

    def _needed(self, box: Box, fields: dict[str, Any], target: Target) -> float | None:
        """The height a text region's text takes as it is fitted to its box; None if it cannot be set there."""
        try:
            found = self._fitted(box, fields, target)
        except PrintkitError:  # drawing the region says what is wrong, in its place
            return None
        if found is None:
            return None
        return found[1].height

    def _fitted(
        self, box: Box, fields: dict[str, Any], target: Target, centred: bool = False
    ) -> tuple[str, textfit.Fitted, textfit.Styles | tuple[()]] | None:
        """A text region's text bound to the card's fields and fitted to its box: (font, fitted, styles); None
        when it is empty. Raises when it does not fit or its font cannot draw it."""
        spec = box.spec
        known = target.icons.names
        text = bind(spec.text or "", fields, lambda: self._at(target, box, "text"), known).strip()
        if not text:
            return None
        name = spec.font or "sans"
        try:
            font = target.fonts.face(name)
        except fonts.FontMissing as exc:
            raise LayoutFieldError(f"{self._at(target, box, 'font')}: {exc}") from None
        styles = target.fonts.styles(name) if any(m in text for m in richtext.MARKS) else ()
        missing = "".join(
            sorted({ch for f in (font, *styles) for ch in fonts.missing_glyphs(textfit.plain(text, known), f)})
        )
        if missing:
            named = FIELD.findall(spec.text or "")
            lacking = [
                k
                for k in named
                if k in fields and set(fonts.missing_glyphs(textfit.plain(str(fields[k]), known), font)) & set(missing)
            ]
            raise TextOverflow(
                f"{target.where_value(lacking)}card {target.card}: field {box.name}: font {name} has no glyph for "
                f"{missing!r}; choose a font that covers it in {self._where(target, box)}"
            )
        fitted = textfit.fit(
            text,
            font,
            box.w,
            box.h,
            float(spec.size or 9),
            float(spec.min_size or 6),
            float(spec.leading or 1.2),
            bool(spec.rtl),
            spec.wrap is not False,
            known,
            styles,
            balance=centred or spec.align == "center",  # ragged both sides, so even lines read as one block
        )
        if fitted is None:  # placed at the longest of the values it shows: the likeliest to shorten
            named = sorted(
                (k for k in FIELD.findall(spec.text or "") if k in fields), key=lambda k: -len(str(fields[k]))
            )
            raise TextOverflow(
                f"{target.where_value(named)}card {target.card}: field {box.name} does not fit its box "
                f"({box.w / units.MM:.1f} x {box.h / units.MM:.1f} mm) even at {spec.min_size} pt: {text[:60]!r}"
            )
        return font, fitted, styles

    def _text(self, box: Box, fields: dict[str, Any], target: Target, centred: bool = False) -> None:
        c, spec = self.c, box.spec
        found = self._fitted(box, fields, target, centred)
        if found is None:
            return
        font, fitted, styles = found
        if self.proof and not fitted.logical:  # fitted: of what is left, only an icon's drawing can go wrong
            text_colour(self._drawn, box, fields)
            for word in (word for line in fitted.lines for word in line):
                for seg in word:
                    if isinstance(seg, tuple):
                        self._icon(target, seg[0], 0, 0, fitted.size)
            return
        x, y, w, h = self._rect(box)
        size = fitted.size
        block = fitted.height
        valign = "middle" if centred else (spec.valign or "top")
        top = y + h - (0 if valign == "top" else (h - block) / 2 if valign == "middle" else h - block)
        baseline = top - size * 0.76
        c.setFillColor(text_colour(self._drawn, box, fields))
        face = fonts.face(font)
        space = fonts.width(" ", font, size)
        align = "center" if centred else (spec.align or "left")
        for number, line in enumerate(fitted.lines):
            width = sum(textfit.word_width(wd, font, size, styles) for wd in line) + space * (len(line) - 1)
            cursor = x + (0 if align == "left" else (w - width) / 2 if align == "center" else w - width)
            if fitted.logical:  # right to left: seen in visual order, written as typed
                rtl.draw(c, face, size, cursor, baseline, fitted.logical[number])
                baseline -= fitted.leading
                continue
            for i, word in enumerate(line):
                if i:
                    cursor += space
                for seg in word:
                    if isinstance(seg, tuple):
                        self._icon(target, seg[0], cursor + size * 0.02, baseline - size * 0.12, size)
                        cursor += size * textfit.ICON_ADVANCE
                    else:
                        set_in = textfit.styled_font(seg, font, styles)
                        c.setFont(fonts.face(set_in), size)
                        c.drawString(cursor, baseline, seg)
                        cursor += fonts.width(seg, set_in, size)
            baseline -= fitted.leading


def _pt(length: str | None) -> float:
    return units.length(length) if length else 0.0
