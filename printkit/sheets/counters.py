"""Counters, tokens and markers: square or round pieces, double-sided where the data gives a reverse."""

from __future__ import annotations

from dataclasses import replace

from printkit.core import units
from printkit.data.game import Game
from printkit.data.model import Component
from printkit.data.settings import PrintSettings
from printkit.draw import cardview
from printkit.draw.layout import layouts_for
from printkit.sheets import pieces
from printkit.sheets.pieces import Design, Manifest, Piece

KINDS = ("counter", "token", "marker")
DEFAULT_SIZE = "5/8in"


def size_of(comp: Component) -> tuple[float, float]:
    side = units.length(comp.size or DEFAULT_SIZE)
    return side, side


def counter_pieces(game: Game) -> list[Piece]:
    """Every counter to print, grouped by size and by whether it has a reverse, in data order."""
    comps = [c for c in game.info.components if c.kind in KINDS]
    layouts = layouts_for(game, {"counter", "token", "counter-back"})
    out: list[Piece] = []
    ordered = sorted(comps, key=lambda c: (-size_of(c)[0], c.reverse is None))
    for comp in ordered:
        fields = cardview.component_fields(game, comp)
        layout = layouts["token" if comp.shape == "round" else "counter"]
        place = game.place("component", comp.id)
        face = Design(f"counter-{comp.id}", layout, fields, comp.id, place)
        back = (
            Design(f"counter-back-{comp.id}", layouts["counter-back"], fields, f"{comp.id} back", place)
            if comp.reverse
            else None
        )
        group = f"{size_of(comp)[0]:.2f}-{'double' if back else 'single'}"
        shape = "round" if comp.shape == "round" else "square"
        out.extend(
            Piece(comp.id, comp.name, group, n, size_of(comp), face, back, shape)
            for n in range(game.printed_count(comp))
        )
    return out


def build(game: Game, settings: PrintSettings, paper: str) -> tuple[bytes, Manifest] | None:
    """The counter sheet and its manifest, or None when the game has no counters.

    Counters, tokens and markers of every size share pages, packed in bands; they print single- or
    double-sided whatever the cards do: never folded over.
    """
    order = counter_pieces(game)
    if not order:
        return None
    writer = pieces.SheetWriter(
        game, replace(settings, foldover=False), paper, f"{game.title} - counters ({paper.upper()})"
    )
    manifest = pieces.render(writer, order, pack=True)
    return writer.finish(), manifest
