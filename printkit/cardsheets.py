"""Card sheets: every deck's cards with its back, plus player-aid cards, as pieces on A4 or Letter pages."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from . import cardview, pieces
from .errors import UsageError
from .game import Game
from .layout import Layout, load_layout
from .loader import project_root
from .pieces import Design, Manifest, Piece, RunOptions
from .units import MM


@dataclass(frozen=True)
class SheetOptions:
    """What a card-sheet build is asked for; a frozen value passed down to every step."""

    paper: str = "a4"
    card_size: tuple[float, float] = (63.5 * MM, 88.9 * MM)
    bleed: float = 3 * MM
    duplex: str = "long"
    offset: tuple[float, float] = (0.0, 0.0)  # points, added to every back's position
    foldover: bool = False
    decks: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()
    copies: int = 1

    def run(self) -> RunOptions:
        return RunOptions(self.paper, self.bleed, self.duplex, self.offset, self.foldover)


def layout_folders(game: Game) -> list[Path]:
    """Where layouts are looked up: the game's own layouts/ first, then the project's."""
    return [game.folder / "layouts", project_root() / "layouts"]


def layouts_for(game: Game, kinds: set[str]) -> dict[str, Layout]:
    folders = layout_folders(game)
    return {kind: load_layout(game.info.layouts.get(kind, kind), folders) for kind in sorted(kinds)}


def card_pieces(game: Game, options: SheetOptions) -> list[Piece]:
    """Every card to print, deck by deck in deck order, copies together, then the player aids."""
    unknown = set(options.decks) - {d.deck.id for d in game.decks}
    if unknown:
        decks = ", ".join(d.deck.id for d in game.decks)
        raise UsageError(f"{game.slug}: no deck {', '.join(sorted(unknown))} (decks: {decks})")
    unknown_cards = set(options.cards) - {c.id for c in game.cards}
    if unknown_cards:
        raise UsageError(f"{game.slug}: no card {', '.join(sorted(unknown_cards))}")
    layouts = layouts_for(game, {c.kind for c in game.cards} | {"back"})
    out: list[Piece] = []
    for deck in game.decks:
        if options.decks and deck.deck.id not in options.decks:
            continue
        back = Design(f"back-{deck.deck.id}", layouts["back"], cardview.back_fields(game, deck), f"{deck.deck.id} back")
        for card, copies in deck.entries:
            if options.cards and card.id not in options.cards:
                continue
            face = Design(
                f"face-{deck.deck.id}-{card.id}", layouts[card.kind], cardview.face_fields(game, deck, card), card.id
            )
            out.extend(
                Piece(card.id, card.name, deck.deck.id, n, options.card_size, face, back)
                for n in range(copies * options.copies)
            )
    if not options.decks and not options.cards:
        out += aid_pieces(game, options.card_size)
    return out


def aid_pieces(game: Game, size: tuple[float, float]) -> list[Piece]:
    """Player-aid cards (components of kind reference), single-sided, one per copy."""
    aids = game.components("reference")
    if not aids:
        return []
    layouts = layouts_for(game, {"reference"})
    out: list[Piece] = []
    for comp in aids:
        face = Design(f"aid-{comp.id}", layouts["reference"], cardview.aid_fields(game, comp), comp.id)
        out.extend(
            Piece(comp.id, comp.name, f"aid-{comp.id}", n, size, face, None) for n in range(game.printed_count(comp))
        )
    return out


def build(game: Game, options: SheetOptions) -> tuple[bytes, Manifest]:
    """The sheet PDF and its manifest for one game."""
    order = card_pieces(game, options)
    if not order:
        raise UsageError(f"{game.slug}: the selection holds no cards")
    writer = pieces.SheetWriter(
        game.slug, options.run(), f"{game.title} - cards ({options.paper.upper()})", game.info.credit
    )
    manifest = pieces.render(writer, order)
    return writer.finish(), manifest


def output_name(options: SheetOptions) -> str:
    return f"cards-{options.paper}{'-foldover' if options.foldover else ''}.pdf"
