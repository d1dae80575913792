"""Card sheets: every deck's cards with its back, plus player-aid cards, as pieces on A4 or Letter pages."""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from printkit.core.errors import Problem, UsageError
from printkit.data.cards import MAX_PRINTED
from printkit.data.game import Game
from printkit.data.settings import PAPERS, PrintSettings
from printkit.draw import cardview
from printkit.draw.layout import face_layouts, layouts_for
from printkit.sheets import counters, designs, pieces
from printkit.sheets.pieces import Design, Manifest, Piece


@dataclass(frozen=True)
class Selection:
    """Which cards a run prints: some decks, some cards, each so many times; everything by default."""

    decks: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()
    copies: int = 1

    @property
    def everything(self) -> bool:
        return not self.decks and not self.cards and self.copies == 1


EVERYTHING = Selection()


def card_pieces(
    game: Game, size: tuple[float, float], selection: Selection = EVERYTHING, refused: list[Problem] | None = None
) -> list[Piece]:
    """Every card to print, deck by deck in deck order, copies together, then the player aids.

    refused: where the problems of a face layout that does not load go, its cards left out (a proof's way of
    checking every other card in the same run); by default it stops the run."""
    unknown = set(selection.decks) - {d.deck.id for d in game.decks}
    if unknown:
        decks = ", ".join(d.deck.id for d in game.decks)
        raise UsageError(f"--decks: {game.slug} has no deck {', '.join(sorted(unknown))} (its decks: {decks})")
    unknown_cards = sorted(set(selection.cards) - {c.id for c in game.cards})
    if unknown_cards:
        by_lower = {c.id.lower(): c.id for c in game.cards}  # r1 for R1 is the commonest slip
        hint = difflib.get_close_matches(unknown_cards[0].lower(), by_lower, n=1)
        guess = f"; did you mean {by_lower[hint[0]]!r}?" if hint else ""
        raise UsageError(f"--cards: {game.slug} has no card {', '.join(unknown_cards)}{guess}")
    chosen = sum(
        copies
        for deck in game.decks
        if not selection.decks or deck.deck.id in selection.decks
        for card, copies in deck.entries
        if not selection.cards or card.id in selection.cards
    )
    if chosen * selection.copies > MAX_PRINTED:  # the game holds its own count to it, and --copies may not pass it
        raise UsageError(
            f"--copies {selection.copies}: {chosen * selection.copies:,} cards to print: expected at most "
            f"{MAX_PRINTED:,} in one run (fewer copies, or some --decks or --cards)"
        )
    layouts = layouts_for(game, {"back"})
    faces = face_layouts(game, refused)
    out: list[Piece] = []
    for deck in game.decks:
        if selection.decks and deck.deck.id not in selection.decks:
            continue
        back = Design(
            f"back-{deck.deck.id}",
            layouts["back"],
            cardview.back_fields(game, deck),
            f"{deck.deck.id} back",
            game.place("deck", deck.deck.id),
        )
        for card, copies in deck.entries:
            if (selection.cards and card.id not in selection.cards) or (deck.deck.id, card.kind) not in faces:
                continue
            face = Design(
                f"face-{deck.deck.id}-{card.id}",
                faces[(deck.deck.id, card.kind)],
                cardview.face_fields(game, deck, card),
                card.id,
                game.place("card", card.id),
            )
            out.extend(
                Piece(card.id, card.name, deck.deck.id, n, size, face, back) for n in range(copies * selection.copies)
            )
    if not selection.decks and not selection.cards:
        out += aid_pieces(game, size)
    return out


def aid_pieces(game: Game, size: tuple[float, float]) -> list[Piece]:
    """Player-aid cards (components of kind reference), single-sided, one per copy, at their own size if given."""
    out: list[Piece] = []
    for aid in designs.aid_faces(game, size):
        face = Design(f"aid-{aid.label}", aid.layout, aid.fields, aid.label, aid.place)
        out.extend(Piece(aid.label, aid.title, aid.deck, n, aid.size, face, None) for n in range(aid.copies))
    return out


def build(game: Game, settings: PrintSettings, paper: str, selection: Selection = EVERYTHING) -> tuple[bytes, Manifest]:
    """The sheet PDF and its manifest for one game on one paper: with the game's counters on its last
    page when they all fit in the room its cards leave there (see counters_aboard)."""
    order = card_pieces(game, settings.card_size, selection)
    if not order:
        raise UsageError(f"{game.slug}: the selection holds no cards")
    pages = _tucked(game, settings, paper, selection, order)
    title = f"{game.title} - cards{' and counters' if pages else ''} ({paper.upper()})"
    writer = pieces.SheetWriter(game, settings, paper, title)
    manifest = pieces.render(writer, order, pages=pages)
    # every piece is drawn: its design's fields (a few KB a card) go before save, the run's highest moment
    del order, pages
    return writer.finish(), manifest


def counters_aboard(game: Game, settings: PrintSettings, paper: str, selection: Selection = EVERYTHING) -> int:
    """How many counters, tokens and markers the card sheet prints on its last page (then no counter sheet is
    made): all of the game's, when they fit in the room its cards leave there, else none.

    A fold-over sheet keeps them on a counter sheet of their own (counters never fold over), and a run of
    chosen cards (--decks, --cards, --copies) prints cards only.
    """
    if _tucked(game, settings, paper, selection, card_pieces(game, settings.card_size, selection)) is None:
        return 0
    return len(counters.counter_pieces(game))


def _tucked(
    game: Game, settings: PrintSettings, paper: str, selection: Selection, order: list[Piece]
) -> list[list[pieces.Band]] | None:
    """The card sheet's pages with the counters below the last page's cards, or None when they go elsewhere
    (pieces.tuck refuses a fold-over sheet)."""
    if not selection.everything:
        return None
    return pieces.tuck(PAPERS[paper], settings, order, counters.counter_pieces(game))


def output_name(settings: PrintSettings, paper: str) -> str:
    return f"cards-{paper}{'-foldover' if settings.foldover else ''}.pdf"
