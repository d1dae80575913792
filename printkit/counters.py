"""Counters, tokens and markers: square or round pieces, double-sided where the data gives a reverse."""

from __future__ import annotations

from dataclasses import replace

from . import cardview, pieces, units
from .cardsheets import layouts_for
from .errors import UsageError
from .game import Game
from .model import Component
from .pieces import Design, Manifest, Piece, RunOptions

KINDS = ("counter", "token", "marker")
MARGIN = 5 * units.MM  # counters keep inside any home printer's printable area
MARGIN = 5 * units.MM  # counters keep inside any home printer's printable area
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
        face = Design(f"counter-{comp.id}", layout, fields, comp.id)
        back = (
            Design(f"counter-back-{comp.id}", layouts["counter-back"], fields, f"{comp.id} back")
            if comp.reverse
            else None
        )
        group = f"{size_of(comp)[0]:.2f}-{'double' if back else 'single'}"
        out.extend(
            Piece(comp.id, comp.name, group, n, size_of(comp), face, back) for n in range(game.printed_count(comp))
        )
    return out


def build(game: Game, options: RunOptions) -> tuple[bytes, Manifest] | None:
    """The counter sheet and its manifest, or None when the game has no counters."""
    order = counter_pieces(game)
    if not order:
        return None
    if options.foldover:
        raise UsageError("fold-over is for cards; counters print single- or double-sided")
    options = replace(options, margin=max(options.margin, MARGIN))
    writer = pieces.SheetWriter(
        game.slug, options, f"{game.title} - counters ({options.paper.upper()})", game.info.credit
    )
    manifest = pieces.render(writer, order)
    return writer.finish(), manifest
