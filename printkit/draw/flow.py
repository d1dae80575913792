"""Room a card's short text leaves, given to the regions that take it: a small emblem grows, the text box shrinks."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from printkit.draw.layout import Box

MOST_GROWTH = 1.7  # an emblem grows to at most this times its size: past it, an icon reads as a poster
EASE = 0.5  # points the text keeps beyond what it needs, so fitting it again finds the same size


def flowed(boxes: tuple[Box, ...], fields: Mapping[str, Any], needed: Callable[[Box], float | None]) -> tuple[Box, ...]:
    """The boxes of one card with each room_from: text region's slack handed on.

    A text region named by room_from: gives up the height its text does not need, from its top. The regions
    that take that room and lie above it (an emblem, the rule under it) stretch down into it: the band from
    their top to the text is stretched, regions as wide as the band stretch with it, narrower ones (a medallion,
    an icon) grow about their centre and keep their shape. Those that hold the text (its tinted box) shrink
    with it. Nothing takes room when no region above the text is drawn on this card (one with a picture, say).
    needed: the height a text region's fitted text needs, None when it does not fit (its own error says so).
    """
    drawn = {box.name: box for box in boxes if box.spec.drawn_for(fields)}
    sources = {box.spec.room_from for box in drawn.values() if box.spec.room_from}
    changed: dict[str, Box] = {}
    for name in sorted(s for s in sources if s in drawn):
        text = drawn[name]
        takers = [b for b in drawn.values() if b.spec.room_from == name]
        above = [b for b in takers if b.y + b.h <= text.y + 1e-6]
        need = needed(text) if above else None
        if need is None or need + EASE >= text.h:
            continue
        top = min(b.y for b in above)
        band = text.y - top
        if band <= 0:
            continue
        left, right = min(b.x for b in above), max(b.x + b.w for b in above)
        stretch = min((band + text.h - need - EASE) / band, MOST_GROWTH)
        room = band * (stretch - 1)
        for b in above:
            if b.w >= (right - left) - 1e-6:  # as wide as the band: a rule, a strip; it stretches with it
                changed[b.name] = dataclasses.replace(b, y=top + (b.y - top) * stretch, h=b.h * stretch)
                continue
            grown = min(stretch, (right - left) / b.w)
            cx, cy = b.x + b.w / 2, top + (b.y + b.h / 2 - top) * stretch
            w, h = b.w * grown, b.h * grown
            changed[b.name] = dataclasses.replace(b, x=cx - w / 2, y=cy - h / 2, w=w, h=h)
        for b in (text, *(b for b in takers if b not in above)):
            changed[b.name] = dataclasses.replace(b, y=b.y + room, h=b.h - room)
    return tuple(changed.get(box.name, box) for box in boxes) if changed else boxes
