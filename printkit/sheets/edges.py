"""What shows past a piece's trim: the colour a cut a little off its line leaves on the piece or its neighbour."""

from __future__ import annotations

from typing import TYPE_CHECKING

from printkit.draw.legibility import colour

if TYPE_CHECKING:  # pieces lays pieces out by what this module says of them
    from printkit.sheets.pieces import Design


def edge_colour(design: Design) -> str:
    """What shows past a design's trim: its background's fill, as #rrggbb ("" when it paints none)."""
    fill = ""
    for _, spec in design.layout.regions:
        if spec.type == "background" and spec.drawn_for(design.fields):
            found = colour(spec.fill, design.fields)
            fill = f"#{found.hexval()[2:].lower()}" if found is not None else fill
    return fill


def backs_differ(one: Design | None, two: Design | None) -> bool:
    """Whether a cut between two pieces with these backs, a little off its line, leaves one's colour on the other.

    A one-sided piece (no back) differs from none: its back is blank paper, which a neighbour's back bleeds over.
    """
    # one design (a deck's back, named by its key) has one colour: asked of every pair of a deck's neighbours,
    # its layout's regions were read twice for each
    return one is not None and two is not None and one.key != two.key and edge_colour(one) != edge_colour(two)
