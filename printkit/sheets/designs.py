"""Every design of a game that a picture is made of: card faces in deck order, deck backs, counters."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from printkit.data.cards import Card
from printkit.data.game import Game
from printkit.draw import cardview
from printkit.draw.layout import Layout, face_layouts, layouts_for
from printkit.sheets import counters


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
                )
            )
        back = cardview.back_fields(game, deck)
        out.append(Face(f"{d}/back", layouts["back"], back, size, f"{d} back", None, d, 1, game.place("deck", d)))
    return out


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
                Face(f"counters/{piece.id}-back", back.layout, back.fields, piece.size, piece.id, place=back.place)
            )
    return out
