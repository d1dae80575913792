"""Pictures of a game's table for the booklet: the setup, and each worked example's position, at 300 ppi.

Every card, counter and board is the printed drawing (printkit/draw) rasterised at the size it
takes in the picture, so at its printed width the picture has 300 pixels to the inch; where
things stand comes from the data (decks, parts, rule options) and from the examples' replays.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from printkit.core.units import MM
from printkit.data.game import DeckCards, Game
from printkit.data.model import Component
from printkit.data.settings import PrintSettings
from printkit.docs.examples import Replay
from printkit.draw import board, cardview, fonts, raster
from printkit.draw.layout import layouts_for
from printkit.sheets import counters

PPI = 300
WIDTH = 120.0  # mm: the text width of an A5 booklet page, where every picture is shown at its own size
INK, GREY, RED = "#1c1c1c", "#666666", "#b03a2e"


def px(mm: float) -> int:
    return round(mm * PPI / 25.4)


@cache
def _font(bold: bool, pt: float) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(fonts.font_file("sans-bold" if bold else "sans")), round(pt * PPI / 72))


class Scene:
    """A picture in millimetres: drawings pasted at a width, words at a point size."""

    def __init__(self, width: float, height: float) -> None:
        self.width, self.height = width, height
        self.image = Image.new("RGB", (px(width), px(height)), "white")
        self.draw = ImageDraw.Draw(self.image)

    def pdf(self, pdf: bytes, size: tuple[float, float], x: float, y: float, width: float) -> float:
        """A one-page drawing of size (points) pasted with its top-left at x, y (mm), width mm wide; its height."""
        dpi = PPI * width / (size[0] / MM)
        picture = raster.render_pdf(pdf, dpi)
        self.image.paste(picture, (px(x), px(y)))
        return picture.height * 25.4 / PPI

    def text(self, x: float, y: float, words: str, pt: float = 7, bold: bool = False, **kw: Any) -> None:
        kw.setdefault("fill", INK)
        self.draw.text((px(x), px(y)), words, font=_font(bold, pt), **kw)

    def measure(self, words: str, pt: float = 7, bold: bool = False) -> float:
        return float(self.draw.textlength(words, font=_font(bold, pt))) * 25.4 / PPI

    def box(self, x: float, y: float, w: float, h: float, colour: str = GREY, width: float = 0.3) -> None:
        self.draw.rounded_rectangle(
            (px(x), px(y), px(x + w), px(y + h)), radius=px(1.5), outline=colour, width=max(1, px(width))
        )

    def cross(self, x: float, y: float, w: float, h: float) -> None:
        """A dead or destroyed piece: a red cross over it."""
        for a, b in (((x, y), (x + w, y + h)), ((x + w, y), (x, y + h))):
            self.draw.line((px(a[0]), px(a[1]), px(b[0]), px(b[1])), fill=RED, width=px(0.8))

    def arrow(self, x0: float, x1: float, y: float) -> None:
        self.draw.line((px(x0), px(y), px(x1), px(y)), fill=RED, width=px(0.6))
        tip = 1.6 if x1 > x0 else -1.6
        self.draw.polygon([(px(x1), px(y)), (px(x1 - tip), px(y - 1)), (px(x1 - tip), px(y + 1))], fill=RED)

    def crop(self, height: float) -> Scene:
        self.image = self.image.crop((0, 0, self.image.width, px(height)))
        self.height = height
        return self

    def png(self) -> bytes:
        return raster.png(self.image, dpi=PPI)


# -- the drawings as printed -------------------------------------------------------------------


def deck_for(game: Game, card_id: str, seat: int = 0) -> DeckCards:
    """The deck a card is printed in; of a card in several decks, the seat's own."""
    holding = [d for d in game.decks if any(c.id == card_id for c, _ in d.entries)]
    factions = [f.id for f in game.info.factions]
    own = [d for d in holding if seat < len(factions) and d.deck.faction == factions[seat]]
    return (own or holding)[0]


def card_face(game: Game, settings: PrintSettings, card_id: str, seat: int = 0) -> tuple[bytes, tuple[float, float]]:
    size = settings.card_size
    return raster.card_pdf(game, deck_for(game, card_id, seat), game.card(card_id), size, 0.0), size


def card_back(game: Game, settings: PrintSettings, deck: DeckCards) -> tuple[bytes, tuple[float, float]]:
    layout = layouts_for(game, {"back"})["back"]
    size = settings.card_size
    place = game.place("deck", deck.deck.id)
    return raster.design_pdf(layout, cardview.back_fields(game, deck), size, 0.0, game, deck.deck.id, place), size


def piece(game: Game, comp: Component) -> tuple[bytes, tuple[float, float]]:
    layouts = layouts_for(game, {"counter", "token"})
    size = counters.size_of(comp)
    layout = layouts["token" if comp.shape == "round" else "counter"]
    fields = cardview.component_fields(game, comp)
    return raster.design_pdf(layout, fields, size, 0.0, game, comp.id, game.place("component", comp.id)), size


def board_drawing(game: Game, comp: Component) -> tuple[bytes, tuple[float, float]]:
    return raster.board_pdf(game, comp), board.board_size(comp)


# -- the setup ---------------------------------------------------------------------------------


class _Flow:
    """Items placed left to right in a band, wrapping to a new row when the width is used."""

    def __init__(self, scene: Scene, top: float) -> None:
        self.scene, self.x, self.y, self.row = scene, 0.0, top, 0.0

    def place(self, width: float, height: float, draw: Callable[[float, float], None], label: str) -> None:
        if self.x + width > self.scene.width and self.x > 0:
            self.x, self.y, self.row = 0.0, self.y + self.row + 2, 0.0
        draw(self.x, self.y)
        lines = _wrap(self.scene, label, max(width, 18))
        for i, line in enumerate(lines):
            self.scene.text(self.x, self.y + height + 0.8 + i * 2.6, line, 6, fill=GREY)
        self.row = max(self.row, height + 1 + 2.6 * len(lines))
        self.x += max(width, max((self.scene.measure(ln, 6) for ln in lines), default=0)) + 4

    def bottom(self) -> float:
        return self.y + self.row


def _wrap(scene: Scene, text: str, width: float) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and scene.measure(lines[-1] + " " + word, 6) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


CARD_H = 24.0  # mm: a card's height in the setup picture
PIECE = 7.0  # mm: a counter's side there


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def setup(game: Game, settings: PrintSettings, hand: int | None, seats: list[str]) -> bytes:
    """What is on the table before the first turn: each player's side, and what lies between them."""
    scene = Scene(WIDTH, 400)
    factions = [f.id for f in game.info.factions]
    card_w = CARD_H * settings.card_size[0] / settings.card_size[1]
    shared_decks = [d for d in game.decks if d.deck.faction is None or d.deck.faction not in factions]

    def draw_deck(flow: _Flow, deck: DeckCards, dealt: int) -> None:
        pdf, size = card_back(game, settings, deck)

        def paint(x: float, y: float) -> None:
            for k in range(3):  # a little pile
                scene.pdf(pdf, size, x + 0.6 * (2 - k), y + 0.6 * k, card_w)

        left = deck.size - dealt
        flow.place(card_w + 1.2, CARD_H + 1.2, paint, f"{deck.deck.name}: {left} cards, shuffled, face down")

    def draw_hand(flow: _Flow, deck: DeckCards, n: int) -> None:
        pdf, size = card_back(game, settings, deck)
        step = min(card_w * 0.35, 40 / max(n, 1))

        def paint(x: float, y: float) -> None:
            for k in range(n):
                scene.pdf(pdf, size, x + k * step, y, card_w)

        flow.place(card_w + step * (n - 1), CARD_H, paint, f"hand: {_plural(n, 'card')}")

    def draw_part(flow: _Flow, comp: Component, n: int) -> None:
        if comp.board is not None:
            pdf, size = board_drawing(game, comp)
            w = min(WIDTH - 4, 26 * size[0] / size[1]) if comp.kind != "strip" else WIDTH - 4
            h = w * size[1] / size[0]

            def paint_board(x: float, y: float) -> None:
                scene.pdf(pdf, size, x, y, w)

            flow.place(w, h, paint_board, comp.name)
            return
        if comp.kind not in counters.KINDS:
            return
        pdf, size = piece(game, comp)
        shown = n if n <= 9 else 1  # a few drawn each, a pile drawn once
        w = PIECE * size[0] / size[1] if comp.shape == "rect" else PIECE
        label = comp.name if n == 1 else f"{comp.name} ×{n}"

        def paint(x: float, y: float) -> None:
            for k in range(shown):
                scene.pdf(pdf, size, x + k * (w + 1), y, w)

        flow.place(shown * (w + 1) - 1, PIECE, paint, label)

    def band(title: str, top: float, draw: Callable[[_Flow], None]) -> float:
        scene.text(0, top, title, 7.5, bold=True)
        flow = _Flow(scene, top + 4)
        draw(flow)
        bottom = flow.bottom() + 2
        scene.draw.line((0, px(bottom), px(WIDTH), px(bottom)), fill="#bbbbbb", width=px(0.25))
        return bottom + 3

    def player(seat: int) -> Callable[[_Flow], None]:
        def draw(flow: _Flow) -> None:
            own = [d for d in game.decks if seat < len(factions) and d.deck.faction == factions[seat]]
            for deck in own:
                draw_deck(flow, deck, hand or 0)
            if hand:
                draw_hand(flow, (own or shared_decks or list(game.decks))[0], hand)
            for comp in game.info.components:
                if comp.per == "player" and comp.kind != "reference":
                    draw_part(flow, comp, comp.count)
                elif comp.faction is not None and seat < len(factions) and comp.faction == factions[seat]:
                    start = comp.unit.start if comp.unit else 0
                    if start:
                        draw_part(flow, comp, start)

        return draw

    def between(flow: _Flow) -> None:
        dealt = (hand or 0) * game.info.players
        for deck in shared_decks:
            draw_deck(flow, deck, dealt if deck is shared_decks[0] else 0)
        for comp in game.info.components:
            if comp.per == "game" and comp.faction is None and comp.era is None:
                draw_part(flow, comp, comp.count)

    top = band(seats[1], 0, player(1))
    top = band("Between the players", top, between)
    top = band(seats[0], top, player(0))
    return scene.crop(top - 3).png()


# -- the worked examples' positions -------------------------------------------------------------


def _flags(game: Game, settings: PrintSettings, replay: Replay) -> Scene:
    """Battle Line: the flags that hold cards, each player's cards side by side on their side, claims marked."""
    seen = replay.end.observation(0)
    flags = seen["flags"]
    used = [i for i, f in enumerate(flags) if f["mine"] or f["theirs"]] or [0]
    wide = max(max(len(flags[f]["mine"]), len(flags[f]["theirs"])) for f in used) or 1
    gap = 6.0
    card_w = min(15.0, (WIDTH - gap * (len(used) - 1)) / (len(used) * wide) - 1)
    card_h = card_w * settings.card_size[1] / settings.card_size[0]
    col = wide * (card_w + 1)
    scene = Scene(len(used) * col + gap * (len(used) - 1), 2 * card_h + 24)
    mid = card_h + 9
    scene.text(0, 0, replay.seats[1], 7, bold=True, fill=GREY)
    scene.text(0, 2 * card_h + 20, replay.seats[0], 7, bold=True, fill=GREY)
    for k, f in enumerate(used):
        flag = flags[f]
        x = k * (col + gap)
        for j, name in enumerate(flag["theirs"]):
            pdf, size = card_face(game, settings, name, 1)
            scene.pdf(pdf, size, x + j * (card_w + 1), 4, card_w)
        for j, name in enumerate(flag["mine"]):
            pdf, size = card_face(game, settings, name, 0)
            scene.pdf(pdf, size, x + j * (card_w + 1), mid + 6, card_w)
        claimed = flag["claimed"]
        r = 3.4
        cx, cy = x + col / 2, mid + 1.5
        fill = "#f2e3c6" if claimed < 0 else "#e8b4ae"
        scene.draw.ellipse((px(cx - r), px(cy - r), px(cx + r), px(cy + r)), fill=fill, outline=INK, width=px(0.3))
        label = str(f + 1)
        scene.text(cx - scene.measure(label, 7.5, True) / 2, cy - 1.9, label, 7.5, bold=True)
        if claimed >= 0:
            scene.text(cx + r + 1, cy - 1.3, f"claimed by {replay.seats[claimed]}", 6, bold=True, fill=RED)
        if k:  # flags not shown lie between: a dotted line says so
            for d in range(3):
                dot = x - gap / 2 - 1 + d
                scene.draw.ellipse((px(dot - 0.25), px(cy - 0.25), px(dot + 0.25), px(cy + 0.25)), fill=GREY)
    return scene


def _battlefield(game: Game, settings: PrintSettings, replay: Replay) -> Scene:
    """Soldier Battler: the board as printed, each Soldier's card on its space with its hit points."""
    comp = next(c for c in game.info.components if c.board is not None and c.kind == "board")
    assert comp.board is not None
    section = comp.board.sections[0]
    pdf, size = board_drawing(game, comp)
    width = 84.0
    scale = width / (size[0] / MM)
    scene = Scene(width, width * size[1] / size[0] + 1)
    scene.pdf(pdf, size, 0, 0, width)
    cw, ch = (v / MM * scale for v in board._cell(section))
    left, top = board.PAD / MM * scale, (board.PAD + board.TITLE_H) / MM * scale
    seen = replay.end.observation(0)
    rows = section.rows
    for i, unit in enumerate(seen["board"]):
        if not unit:
            continue
        row, col = divmod(i, section.cols)
        x, y = left + col * cw, top + (rows - 1 - row) * ch  # the engine's first row is printed last
        w = cw * 0.62
        card = _card_id(game, unit["soldier"])
        face, fsize = card_face(game, settings, card, unit["seat"])
        h = scene.pdf(face, fsize, x + (cw - w) / 2, y + ch * 0.2, w)
        badge = f"{unit['hp']} HP"
        scene.draw.rectangle(
            (px(x + cw / 2 - 6), px(y + ch * 0.2 + h - 2), px(x + cw / 2 + 6), px(y + ch * 0.2 + h + 2.2)),
            fill="white",
            outline=RED,
            width=px(0.3),
        )
        scene.text(x + cw / 2 - scene.measure(badge, 6.5, True) / 2, y + ch * 0.2 + h - 1.8, badge, 6.5, True)
    return scene


def _card_id(game: Game, ident: str) -> str:
    ids = {c.id for c in game.cards}
    if ident in ids:
        return ident
    by_name = {c.name.lower(): c.id for c in game.cards} | {c.id.lower(): c.id for c in game.cards}
    return by_name[ident.lower()]


def _challenge(game: Game, settings: PrintSettings, replay: Replay) -> Scene:
    """Torah Timeline: the two Sages of a challenge, as printed, and the tokens before and after."""
    step = next(
        s
        for s in replay.shown
        if s.player >= 0 and s.before.observation(0)["discard"] != s.after.observation(0)["discard"]
    )
    before, after = step.before.observation(0), step.after.observation(0)
    gone = after["discard"][len(before["discard"]) :]
    card_w = 34.0
    card_h = card_w * settings.card_size[1] / settings.card_size[0]
    scene = Scene(WIDTH, card_h + 16)
    challenger = step.player
    order = sorted(gone, key=lambda c: 0 if c in step.before.observation(challenger)["hand"] else 1)
    for k, ident in enumerate(order):
        seat = challenger if k == 0 else 1 - challenger
        x = 8 + k * (card_w + 30)
        pdf, size = card_face(game, settings, ident, seat)
        scene.pdf(pdf, size, x, 0, card_w)
        scene.text(x, card_h + 1.5, f"{replay.seats[seat]}'s {game.card(ident).name}", 7, bold=True)
    scene.text(8 + card_w + 10, card_h / 2 - 3, "against", 8, bold=True, fill=RED)
    tokens = [
        f"{replay.seats[p]}: {before['tokens'][p]} → {after['tokens'][p]} tokens" for p in (challenger, 1 - challenger)
    ]
    scene.text(8, card_h + 6, "   ".join(tokens), 7, fill=GREY)
    return scene


_DAMAGE = re.compile(r"^(?P<who>.+?)'s (?P<name>.+?) (?:takes (?P<dmg>\d+) damage(?P<dies> and dies)?|is sacrificed)")


def _day(game: Game, settings: PrintSettings, replay: Replay) -> Scene:
    """Time Line Battle: each player's Characters in play on the Day, Front to Rear, with the damage each took."""
    seen = replay.end.observation(0)
    day = _window_day(replay)
    orders = {c.id: c.values["order"] for c in game.cards if isinstance(c.values.get("order"), int)}
    died_before: set[tuple[int, str]] = set()
    taken: dict[tuple[int, str], tuple[int, bool]] = {}
    for text, in_window in _events(replay):
        m = _DAMAGE.match(text)
        if not m:
            continue
        seat = replay.seats.index(m["who"]) if m["who"] in replay.seats else -1
        ident = _card_id(game, m["name"])
        if in_window:
            taken[(seat, ident)] = (int(m["dmg"] or 0), bool(m["dies"]))
        elif m["dies"] and (seat, ident) not in taken:
            died_before.add((seat, ident))
    card_w = 17.0
    card_h = card_w * settings.card_size[1] / settings.card_size[0]
    scene = Scene(WIDTH, 2 * (card_h + 14) + 4)
    for row, seat in enumerate((1, 0)):
        y = row * (card_h + 16)
        line = sorted(
            (ident for ident, d in seen["deployed"][seat].items() if d <= day and (seat, ident) not in died_before),
            key=lambda i: orders[i],
        )
        scene.text(0, y, f"{replay.seats[seat]}: Front", 6.5, bold=True, fill=GREY)
        for k, ident in enumerate(line):
            x = k * (card_w + 4)
            pdf, size = card_face(game, settings, ident, seat)
            scene.pdf(pdf, size, x, y + 3.5, card_w)
            dmg, dies = taken.get((seat, ident), (0, False))
            if dies:
                scene.cross(x, y + 3.5, card_w, card_h)
            words = f"{dmg} damage" + (", dies" if dies else "")
            scene.text(x, y + card_h + 4.5, words, 6.5, bold=True, fill=RED if dies else INK)
        if line:
            rear = "Rear"
            scene.text(
                (len(line) - 1) * (card_w + 4) + card_w - scene.measure(rear, 6.5, True), y, rear, 6.5, True, fill=GREY
            )
    return scene


def _events(replay: Replay) -> list[tuple[str, bool]]:
    """Every narration line of the shown steps, and whether it falls in the example's window."""
    out = []
    for step in replay.shown:
        out += [(e, e in step.window) for e in step.events]
    return out


def _window_day(replay: Replay) -> int:
    marker = next((s.window[0] for s in replay.shown if s.window), "")
    m = re.search(r"Day (\d+)", marker)
    return int(m.group(1)) if m else 0


def _eras(game: Game, settings: PrintSettings, replay: Replay) -> Scene:
    """Time Line: the Eras the example touches, cut from the board as printed, with every unit there at its end."""
    comp = next(c for c in game.info.components if c.board is not None and c.kind == "board")
    assert comp.board is not None
    section = comp.board.sections[0]
    start, end = replay.start.observation(0), replay.end.observation(0)
    touched = [
        e
        for e in range(len(end["control"]))
        if any(start["units"][s][e] != end["units"][s][e] for s in (0, 1)) or start["control"][e] != end["control"][e]
    ]
    inner = [e for e in touched if 0 < e < len(end["control"]) - 1]  # home Eras change by recruits alone
    first, last = min(inner or touched), max(inner or touched)
    pdf, size = board_drawing(game, comp)
    cw_mm = board._cell(section)[0] / MM
    shown = last - first + 1
    scale = min(WIDTH / (shown * cw_mm), 0.5)
    full = size[0] / MM * scale
    scene = Scene(WIDTH, 0)
    strip = Scene(full, size[1] / MM * scale)
    strip.pdf(pdf, size, 0, 0, full)
    left = (board.PAD / MM + first * cw_mm) * scale
    top = (board.PAD + board.TITLE_H) / MM * scale
    cw, ch = cw_mm * scale, board._cell(section)[1] / MM * scale
    width = shown * cw
    scene = Scene(width, ch + 10)
    scene.image.paste(strip.image.crop((px(left), px(top), px(left + width), px(top + ch))), (0, 0))
    units = {c.id: c for c in game.info.components if c.kind in counters.KINDS}
    factions = [f.id for f in game.info.factions]
    active = next((s.player for s in replay.shown if s.player >= 0), 0)
    for e in range(first, last + 1):
        x0 = (e - first) * cw
        y = ch * 0.45
        for seat in (0, 1):
            for ident, n in end["units"][seat][e].items():
                comp_ = units.get(ident)
                if comp_ is None:
                    continue
                p, psize = piece(game, comp_)
                side = min(8.0, cw / 3)
                for k in range(n):
                    scene.pdf(p, psize, x0 + 2 + k * 2 + seat * (side + 3), y + k * 1.2, side)
        for seat in (1 - active,):  # the other side's units lost in the example: where they stood, crossed out
            for ident, n in start["units"][seat][e].items():
                comp_ = units.get(ident)
                lost = n - end["units"][seat][e].get(ident, 0)
                if comp_ is None or lost <= 0:
                    continue
                p, psize = piece(game, comp_)
                side = min(8.0, cw / 3)
                x = x0 + 2 + seat * (side + 3)
                scene.pdf(p, psize, x, y + side + 2, side)
                scene.cross(x, y + side + 2, side, side)
        owner = end["control"][e]
        if owner != start["control"][e] and owner >= 0:
            marker = next((c for c in units.values() if c.faction == factions[owner] and c.unit is None), None)
            if marker is not None:
                p, psize = piece(game, marker)
                scene.pdf(p, psize, x0 + cw - 9, 2, 7)
    left_from = [
        e
        for e in range(first, last + 1)
        if sum(start["units"][active][e].values()) > sum(end["units"][active][e].values())
    ]
    came_to = [
        e
        for e in range(first, last + 1)
        if sum(end["units"][active][e].values()) > sum(start["units"][active][e].values())
    ]
    if left_from and came_to:
        a, b = left_from[0] - first, came_to[0] - first
        scene.arrow(a * cw + cw / 2, b * cw + cw / 2, ch + 4)
        scene.text(
            min(a, b) * cw + cw / 2 + 2, ch + 6, f"{replay.seats[active]}'s trip through time", 6.5, True, fill=RED
        )
    return scene


POSITIONS: dict[str, Callable[[Game, PrintSettings, Replay], Scene]] = {
    "flags": _flags,
    "battlefield": _battlefield,
    "challenge": _challenge,
    "day": _day,
    "eras": _eras,
}


def position(game: Game, settings: PrintSettings, replay: Replay) -> bytes | None:
    """The picture an example names (its picture: field), of the position its steps reach."""
    make = POSITIONS.get(replay.example.picture or "")
    return make(game, settings, replay).png() if make else None
