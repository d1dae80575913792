"""`printkit export tts`: Tabletop Simulator deck sheets and a saved object (JSON) per deck and per player aid.

A sheet holds at most MAX_COLS x MAX_ROWS cards in at most MAX_PIXELS square. Tabletop
Simulator shows a sheet's last slot as the hidden side of cards in a hand unless a deck's
BackIsHidden is set; with --hidden-in-last-slot the back goes there and a sheet holds one card
fewer.

Memory holds one sheet and a few cards' pictures whatever a deck's size: cards are drawn a few at a
time and each pasted into its sheet as it comes; every file is staged as it is made and all land
together, so a refused write leaves the last export as it was.
"""

from __future__ import annotations

import hashlib
import json
import math
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from printkit.core import atomic
from printkit.data.cards import Card
from printkit.data.game import DeckCards, Game
from printkit.data.settings import PrintSettings
from printkit.draw import cardtext, cardview, raster, textfit
from printkit.draw.icons import IconSet
from printkit.sheets.designs import Face, aid_faces, blank_back, card_faces

MAX_COLS, MAX_ROWS, MAX_PIXELS = 10, 7, 4096
MIN_GRID = 2  # its deck importer takes sheets of 2 to 10 columns and 2 to 7 rows
CARD_ID_STRIDE = 100  # Tabletop Simulator's CardID: deck key x 100 + slot
THUMBNAIL_PX = 256  # the picture beside a saved object in the game's list
DRAWN_TOGETHER = 16  # cards drawn as one document (fonts loaded once for them), their pictures alone in memory


@dataclass(frozen=True)
class SheetPlan:
    """How one deck's cards go onto sheets."""

    cols: int
    rows: int
    per_sheet: int  # cards a sheet holds (one less when the last slot is the hidden card)
    sheets: int
    card_px: tuple[int, int]


def plan(cards: int, card_size: tuple[float, float], hidden_in_last_slot: bool) -> SheetPlan:
    """The grid and card pixel size: as large as the sheet limit allows, grid no bigger than needed."""
    capacity = MAX_COLS * MAX_ROWS - (1 if hidden_in_last_slot else 0)
    sheets = max(1, math.ceil(cards / capacity))
    on_one = min(cards + (1 if hidden_in_last_slot else 0), MAX_COLS * MAX_ROWS)
    cols = max(MIN_GRID, min(MAX_COLS, on_one))
    rows = max(MIN_GRID, min(MAX_ROWS, math.ceil(on_one / cols)))
    scale = min(MAX_PIXELS / cols / card_size[0], MAX_PIXELS / rows / card_size[1])
    card_px = (int(card_size[0] * scale), int(card_size[1] * scale))
    per_sheet = cols * rows - (1 if hidden_in_last_slot else 0)
    return SheetPlan(cols, rows, per_sheet, sheets, card_px)


def _grid(slots: int, p: SheetPlan) -> tuple[int, int]:
    """A sheet's columns and rows: the plan's, or for a last sheet of few cards as few as hold them, so its
    picture is no bigger than they need (Tabletop Simulator reads each sheet's grid from its own entry)."""
    cols = max(MIN_GRID, min(p.cols, slots))
    return cols, min(p.rows, max(MIN_GRID, math.ceil(slots / cols)))


def _url(path: Path, base_url: str | None) -> str:
    return f"{base_url.rstrip('/')}/{urllib.parse.quote(path.name)}" if base_url else path.resolve().as_uri()


def _guid(*parts: object) -> str:
    """Six hex digits, as Tabletop Simulator's own GUIDs are, from what the object is: the same every export."""
    return hashlib.sha1("\x1f".join(str(p) for p in parts).encode()).hexdigest()[:6]


def _transform(x: float = 0.0) -> dict[str, float]:
    return {
        "posX": x,
        "posY": 1.0,
        "posZ": 0.0,
        "rotX": 0.0,
        "rotY": 180.0,
        "rotZ": 180.0,  # face down, as a deck is dealt from
        "scaleX": 1.0,
        "scaleY": 1.0,
        "scaleZ": 1.0,
    }


def _object(name: str, guid: str, nickname: str, description: str, x: float = 0.0) -> dict[str, Any]:
    """The fields every object of a real save carries, in their order there."""
    return {
        "GUID": guid,
        "Name": name,
        "Transform": _transform(x),
        "Nickname": nickname,
        "Description": description,
        "GMNotes": "",
        "ColorDiffuse": {"r": 0.713235259, "g": 0.713235259, "b": 0.713235259},
        "Locked": False,
        "Grid": True,
        "Snap": True,
        "IgnoreFoW": False,
        "Autoraise": True,
        "Sticky": True,
        "Tooltip": True,
        "GridProjection": False,
        "HideWhenFaceDown": name != "DeckCustom",
        "Hands": name != "DeckCustom",  # a card without it cannot be held in a hand
    }


def _description(game: Game, card: Card, deck: DeckCards) -> str:
    """What Tabletop Simulator shows under a card's name: what it does, then each field it declares, labelled.
    (Its GMNotes hold the card's data as JSON, for a table's scripts.)"""
    said = cardtext.told(game, card, cardview.face_fields(game, deck, card))
    lines = [" ".join(textfit.plain(line, IconSet.of(game).names).split()) for line in said.lines]
    return "\n".join([*lines, *(f"{label}: {value}" for label, value in said.rows[1:])])  # [0]: its kind


def _script_fields() -> dict[str, str]:
    return {"LuaScript": "", "LuaScriptState": "", "XmlUI": ""}


def export(
    game: Game,
    folder: Path,
    settings: PrintSettings,
    base_url: str | None = None,
    hidden_in_last_slot: bool = False,
    copy_to: Path | None = None,
) -> list[Path]:
    """Sheets, backs and one saved object (JSON) per deck, cards at the settings' size; the files written.

    Each player aid is a deck of its own (of its copies), its back blank as the sheet prints it.
    copy_to: a Tabletop Simulator "Saved Objects" folder to put each deck's JSON into as well, with the
    thumbnail picture the game's list shows beside it.
    """
    with atomic.landing(folder) as batch:
        _export(batch, game, folder, settings, base_url, hidden_in_last_slot, copy_to)
    return batch.landed


def _export(
    batch: atomic.Landing,
    game: Game,
    folder: Path,
    settings: PrintSettings,
    base_url: str | None,
    hidden_in_last_slot: bool,
    copy_to: Path | None,
) -> None:
    """Every deck's files, staged in batch as each is made."""
    faces = card_faces(game, settings.card_size)
    first_deck = {card.id: deck for deck in reversed(game.decks) for card, _ in deck.entries}
    described = {c.id: _description(game, c, first_deck[c.id]) for c in game.cards if c.id in first_deck}
    noted = {c.id: json.dumps(c.written(), ensure_ascii=False, sort_keys=True) for c in game.cards}
    decks = [
        (deck.deck.id, deck.deck.name, [f for f in faces if f.deck == deck.deck.id and f.side == "front"])
        for deck in game.decks
    ]
    backs = {f.deck: f for f in faces if f.side == "back"}
    for aid in aid_faces(game, settings.card_size):
        decks.append((aid.deck, aid.title, [aid]))
        backs[aid.deck] = blank_back(aid)
    next_key = 1  # CustomDeck keys run on across the game's decks: two decks on one table never clash
    for index, (d, title, fronts) in enumerate(decks):
        back = backs[d]
        p = plan(len(fronts), back.size, hidden_in_last_slot)
        dpi = p.card_px[0] / back.size[0] * 72
        (back_image,) = _render(game, [back], dpi, p.card_px)
        back_path = folder / f"{d}-back.png"
        batch.write(back_path, raster.png(back_image, 1, dpi))
        sideways = back.size[0] > back.size[1]
        custom: dict[str, dict[str, Any]] = {}
        contained, deck_ids = [], []
        pictures = _pictures(game, fronts, dpi, p.card_px)
        thumb = None  # the deck's first card, small, for the saved object's picture
        for s in range(p.sheets):
            on_sheet = fronts[s * p.per_sheet : (s + 1) * p.per_sheet]
            cols, rows = _grid(len(on_sheet) + hidden_in_last_slot, p)
            sheet = Image.new("RGB", (cols * p.card_px[0], rows * p.card_px[1]), "white")
            for slot, image in zip(range(len(on_sheet)), pictures, strict=False):
                sheet.paste(image, ((slot % cols) * p.card_px[0], (slot // cols) * p.card_px[1]))
                if thumb is None:
                    thumb = _thumbnail(image)
            if hidden_in_last_slot:
                last = cols * rows - 1
                sheet.paste(back_image, ((last % cols) * p.card_px[0], (last // cols) * p.card_px[1]))
            path = folder / f"{d}-sheet-{s + 1}.png"
            batch.write(path, raster.png(sheet, 1, dpi))
            del sheet  # before the next sheet is made: one in memory at a time
            key = str(next_key)
            next_key += 1
            custom[key] = {
                "FaceURL": _url(path, base_url),
                "BackURL": _url(back_path, base_url),
                "NumWidth": cols,
                "NumHeight": rows,
                "BackIsHidden": not hidden_in_last_slot,
                "UniqueBack": False,
                "Type": 0,
            }
            for slot, face in enumerate(on_sheet):
                card_id = int(key) * CARD_ID_STRIDE + slot
                said = described.get(face.card.id, "") if face.card is not None else ""
                for copy in range(face.copies):
                    deck_ids.append(card_id)
                    card = _object("Card", _guid(game.slug, d, face.label, copy), face.title, said)
                    if face.card is not None:  # the card's data, for a table's scripts
                        card["GMNotes"] = noted[face.card.id]
                    card |= {"CardID": card_id, "SidewaysCard": sideways, "CustomDeck": {key: custom[key]}}
                    contained.append(card | _script_fields())
        if len(contained) == 1:  # one card is a card on the table, not a deck of one
            only = contained[0] | {"Name": "CardCustom", "Transform": _transform(index * 3.0)}
            state = only
        else:
            state = _object("DeckCustom", _guid(game.slug, d), title, game.info.credit, index * 3.0)
            state |= {"SidewaysCard": sideways, "DeckIDs": deck_ids, "CustomDeck": custom}
            state |= _script_fields() | {"ContainedObjects": contained}
        saved = {
            "SaveName": "",
            "GameMode": "",
            "Date": "",
            "Table": "",
            "Sky": "",
            "Note": game.info.credit,
            "Rules": "",
            "PlayerTurn": "",
            "LuaScript": "",
            "ObjectStates": [state],
        }
        text = json.dumps(saved, indent=1, ensure_ascii=False) + "\n"
        batch.write(folder / f"{d}.json", text)
        if copy_to is not None:
            # the game lists a saved object by its file name, with the picture of the same name as its thumbnail
            name = f"{game.printed_title} - {title}".replace("/", "-")
            batch.write(copy_to / f"{name}.json", text)
            thumb = _thumbnail(back_image) if thumb is None else thumb
            batch.write(copy_to / f"{name}.png", raster.png(thumb, 1, dpi * thumb.width / p.card_px[0]))


def _thumbnail(image: Image.Image) -> Image.Image:
    small = image.copy()
    small.thumbnail((THUMBNAIL_PX, THUMBNAIL_PX))
    return small


def _pictures(game: Game, faces: list[Face], dpi: float, px: tuple[int, int]) -> Iterator[Image.Image]:
    """Each face as _render makes it, drawn DRAWN_TOGETHER at a time and handed on one by one, so a deck's
    pictures are never all in memory: a picture is freed once the caller has pasted it."""
    for start in range(0, len(faces), DRAWN_TOGETHER):
        drawn = _render(game, faces[start : start + DRAWN_TOGETHER], dpi, px)
        drawn.reverse()
        while drawn:
            yield drawn.pop()


def _render(game: Game, faces: list[Face], dpi: float, px: tuple[int, int]) -> list[Image.Image]:
    """Faces at trim size (no bleed), exactly px pixels each."""
    images = raster.pictures(game, faces, 0.0, dpi)
    return [im if im.size == px else im.resize(px, Image.Resampling.LANCZOS) for im in images]
