"""What a game's cover shows: a fan of its cards, drawn by the card sheets' own drawing, and its players and length.

The rules booklet's cover, the reference site's front page and the print-and-play bundle's first page picture the
same fan and say the same play time in words.
"""

from __future__ import annotations

import math
from typing import Any

from PIL import Image, ImageDraw, ImageFilter

from printkit.core.units import MM
from printkit.data.game import Game
from printkit.data.model import PlayTime
from printkit.draw import raster
from printkit.sheets.designs import Face, card_faces

FAN_MOST = 6  # cards in a fan at most: more would hide each other
STEP = 13.0  # degrees between neighbours in the fan
REACH = 1.9  # from the point the fan turns about to a card's centre, in the card's heights
CORNER = 3.0 * MM  # a card's rounded corner, as a die-cut deck's
EDGE = 3  # pixels of clear border around a card before it is turned
SHADOW = (0.5 * MM, 0.9 * MM, 1.1 * MM, 0.32)  # right, down, blur and darkness of the shadow under each card


def fan_faces(game: Game, size: tuple[float, float]) -> list[Face]:
    """The cards a cover fans out, left to right: deck by deck in game.yaml's order, for each kind of card the
    deck holds its first card (in deck order) that the fan does not show yet, else its first, then the deck's
    back; at most FAN_MOST in all. The first deck's back leads and every other deck's follows its faces, so the
    backs frame the faces between them."""
    decks: dict[str, list[Face]] = {}
    for face in card_faces(game, size):
        decks.setdefault(face.deck, []).append(face)
    shown: set[str] = set()
    fan: list[Face] = []
    for i, faces in enumerate(decks.values()):
        cards = [(face, face.card) for face in faces if face.card is not None]
        picked = []
        for kind in dict.fromkeys(card.kind for _, card in cards):
            of_kind = [(face, card) for face, card in cards if card.kind == kind]
            face, card = next(((f, c) for f, c in of_kind if c.id not in shown), of_kind[0])
            shown.add(card.id)
            picked.append(face)
        back = [face for face in faces if face.card is None]
        fan += back + picked if i == 0 else picked + back
    return fan[:FAN_MOST]


def described(game: Game, faces: list[Face]) -> str:
    """The fan in words, for a reader who cannot see it: whose cards, then each one left to right by the name
    players know it by ("the back of the Troop deck" for a back)."""
    decks = {d.deck.id: d.deck.name for d in game.decks}
    shown = [
        face.title or face.card.name if face.card else f"the back of the {decks.get(face.deck, face.deck)}"
        for face in faces
    ]
    return f"Cards of {game.title}, fanned out: {', '.join(shown)}"


def _angles(count: int) -> list[float]:
    """Each card's turn in degrees, clockwise, left to right: the fan even about upright."""
    return [(i - (count - 1) / 2) * STEP for i in range(count)]


def extent(faces: list[Face]) -> tuple[float, float]:
    """The fan's width and height at the cards' printed size (points), shadows included."""
    boxes = [_box(face.size, angle) for face, angle in zip(faces, _angles(len(faces)), strict=True)]
    right, down, blur, _ = SHADOW
    left, top = min(b[0] for b in boxes), min(b[1] for b in boxes)
    width = max(b[2] for b in boxes) - left + right + 2 * blur
    height = max(b[3] for b in boxes) - top + down + 2 * blur
    return width, height


def _box(size: tuple[float, float], angle: float) -> tuple[float, float, float, float]:
    """A card's box turned by angle about the fan's point (0, 0), its left, top, right and bottom (points, y down)."""
    w, h = size
    turn = math.radians(angle)
    x, y = REACH * h * math.sin(turn), -REACH * h * math.cos(turn)
    half_w = (w * abs(math.cos(turn)) + h * abs(math.sin(turn))) / 2
    half_h = (w * abs(math.sin(turn)) + h * abs(math.cos(turn))) / 2
    return x - half_w, y - half_h, x + half_w, y + half_h


def fan(game: Game, faces: list[Face], dpi: float, ground: str | None = "white") -> Image.Image:
    """The faces fanned out at dpi, each with rounded corners and a soft shadow, the middle cards on top: on
    ground (RGB), or with no ground (RGBA, clear around the cards) for a page whose colour varies (the site's
    dark style)."""
    scale = dpi / 72
    angles = _angles(len(faces))
    boxes = [_box(face.size, angle) for face, angle in zip(faces, angles, strict=True)]
    right, down, blur, darkness = SHADOW
    left, top = min(b[0] for b in boxes) - blur, min(b[1] for b in boxes) - blur
    width, height = extent(faces)
    canvas = Image.new("RGBA", (round(width * scale), round(height * scale)), ground or (255, 255, 255, 0))
    pictures = raster.pictures(game, faces, 0.0, dpi)  # the reference site's drawing: kept between builds
    # the outer cards first, so the middle ones lie on top; of two alike, the left first
    order = sorted(range(len(faces)), key=lambda i: (-abs(angles[i]), i))
    for i in order:
        card = _rounded(pictures[i], CORNER * scale).rotate(-angles[i], resample=Image.Resampling.BICUBIC, expand=True)
        card = card.convert("RGBA")
        box = boxes[i]
        x = round(((box[0] + box[2]) / 2 - left) * scale - card.width / 2)
        y = round(((box[1] + box[3]) / 2 - top) * scale - card.height / 2)
        shade = card.getchannel("A").point(lambda a: round(a * darkness)).filter(ImageFilter.GaussianBlur(blur * scale))
        shadow = Image.new("RGBA", card.size, "black")
        shadow.putalpha(shade)
        canvas.alpha_composite(shadow, (x + round(right * scale), y + round(down * scale)))
        canvas.alpha_composite(card, (x, y))
    return canvas.convert("RGB") if ground else canvas


def _rounded(picture: Image.Image, radius: float) -> Image.Image:
    """The picture with its corners cut round, smooth, on a clear border: premultiplied (RGBa), as a turn should
    blend it."""
    r, grain = max(1, round(radius)), 4  # a corner drawn this many times finer, then brought down: no steps
    corner = Image.new("L", (2 * r * grain, 2 * r * grain), 0)
    ImageDraw.Draw(corner).ellipse((0, 0, corner.width - 1, corner.height - 1), fill=255)
    corner = corner.crop((0, 0, r * grain, r * grain)).resize((r, r), Image.Resampling.LANCZOS)
    mask = Image.new("L", picture.size, 255)
    w, h = picture.size
    flip = Image.Transpose
    for turned, at in (
        (corner, (0, 0)),
        (corner.transpose(flip.FLIP_LEFT_RIGHT), (w - r, 0)),
        (corner.transpose(flip.FLIP_TOP_BOTTOM), (0, h - r)),
        (corner.transpose(flip.ROTATE_180), (w - r, h - r)),
    ):
        mask.paste(turned, at)
    card = picture.convert("RGBA")
    card.putalpha(mask)
    # on a clear border: a turn blends only the pixels it has, so without one the turned edges would be stepped
    framed = Image.new("RGBa", (w + 2 * EDGE, h + 2 * EDGE), (0, 0, 0, 0))
    framed.paste(card.convert("RGBa"), (EDGE, EDGE))
    return framed


def play_time(time: PlayTime | None) -> dict[str, Any] | None:
    """A play time in words: "30 min", or "20-40 min" marked an estimate when the figure is reconstructed."""
    if time is None:
        return None
    low, high = (time.minutes, time.minutes) if isinstance(time.minutes, int) else time.minutes
    words = f"{low} min" if low == high else f"{low}–{high} min"
    return {"words": words, "estimate": time.origin == "reconstructed", "note": time.note or ""}


def facts(game: Game) -> str:
    """Who plays and how long, as the cover says it: "2 players · about 20–30 min"."""
    players = game.info.players
    said = [f"{players} player{'s' if players != 1 else ''}"]
    time = play_time(game.info.play_time)
    if time:
        said.append(("about " if time["estimate"] else "") + time["words"])
    return " · ".join(said)
