"""Every design of a game that a picture is made of: card faces in deck order, deck backs, player aids, counters."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from printkit.data import settings
from printkit.data.cards import Card
from printkit.data.game import Game
from printkit.data.model import Component
from printkit.draw import cardview
from printkit.draw.layout import Layout, face_layouts, layouts_for
from printkit.sheets import counters

AIDS = "aids"  # the folder the player aids' pictures go in


@dataclass(frozen=True)
class Face:
    """One picture to make: where it goes, what it shows."""

    name: str  # file name without extension, in deck order: "troops/001-R1", "troops/back"
    layout: Layout
    fields: dict[str, Any]
    size: tuple[float, float]
    label: str  # for error messages: the card id
    card: Card | None = None
    deck: str = ""
    copies: int = 1
    place: str = ""  # where its data is written, for error messages: "cards/x/cards.yaml:3:5"
    side: Literal["front", "back"] = "front"  # a deck's back, a counter's reverse, an aid's blank back: back
    title: str = ""  # its name as players read it: the card's or the aid's ("" for a back)


def card_faces(game: Game, size: tuple[float, float]) -> list[Face]:
    """Each deck's cards in deck order, then its back, at the given trim size."""
    layouts = layouts_for(game, {"back"})
    faces = face_layouts(game)
    out = []
    for deck in game.decks:
        d = deck.deck.id
        for n, (card, copies) in enumerate(deck.entries, start=1):
            out.append(
                Face(
                    f"{d}/{n:03d}-{card.id}",
                    faces[(d, card.kind)],
                    cardview.face_fields(game, deck, card),
                    size,
                    card.id,
                    card,
                    d,
                    copies,
                    game.place("card", card.id),
                    title=card.name,
                )
            )
        back = cardview.back_fields(game, deck)
        place = game.place("deck", d)
        out.append(Face(f"{d}/back", layouts["back"], back, size, f"{d} back", None, d, 1, place, "back"))
    return out


def aid_faces(game: Game, card_size: tuple[float, float]) -> list[Face]:
    """The player-aid cards (components of kind reference) in data order, each once with its copies counted, at
    their own size where the data gives one. Each is a deck of its own, "aid-<id>", as on the card sheets."""
    aids = game.components("reference")
    if not aids:
        return []
    layout = layouts_for(game, {"reference"})["reference"]
    return [
        Face(
            f"{AIDS}/{comp.id}",
            layout,
            cardview.aid_fields(game, comp),
            aid_size(comp, card_size),
            comp.id,
            deck=f"aid-{comp.id}",
            copies=game.printed_count(comp),
            place=game.place("component", comp.id),
            title=comp.name,
        )
        for comp in aids
    ]


def blank_back(face: Face) -> Face:
    """The back of a one-sided card (a player aid) where a tool needs one: blank paper, as the sheet prints it."""
    blank = Layout("blank", (), face.size, ())
    return Face(f"{face.name}-back", blank, {}, face.size, f"{face.label} back", deck=face.deck, side="back")


def aid_size(comp: Component, card_size: tuple[float, float]) -> tuple[float, float]:
    """A player aid's size: its own, when the data gives one, else the game's cards'."""
    return settings.card_size(comp.size).size if comp.size else card_size


def counter_faces(game: Game) -> list[Face]:
    """Each counter, token and marker once, with its reverse where it has one."""
    pieces = counters.counter_pieces(game)
    out, seen = [], set()
    for piece in pieces:
        if piece.id in seen:
            continue
        seen.add(piece.id)
        face, back = piece.face, piece.back
        out.append(Face(f"counters/{piece.id}", face.layout, face.fields, piece.size, piece.id, place=face.place))
        if back is not None:
            out.append(
                Face(
                    f"counters/{piece.id}-back",
                    back.layout,
                    back.fields,
                    piece.size,
                    piece.id,
                    place=back.place,
                    side="back",
                )
            )
    return out
