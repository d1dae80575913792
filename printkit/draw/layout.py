"""Card layouts from layouts/*.yaml: named regions bound to card fields, with `extends` to share a base."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from printkit.core import units
from printkit.core.errors import DataError, Problem, display_path
from printkit.data import conditions, settings
from printkit.data.cards import Card
from printkit.data.game import DeckCards, Game
from printkit.data.layoutfile import LayoutFile, Region, condition
from printkit.data.validation import problems_from
from printkit.data.yamlsource import SourceMap, load

DEFAULTS = Region(
    x="0mm",
    y="0mm",
    w="0mm",
    h="0mm",
    fill="none",
    stroke="none",
    stroke_width="0.6pt",
    radius="0mm",
    motif="hatching",
    step="9pt",
    font="sans",
    size=9.0,
    min_size=6.0,
    leading=1.2,
    align="left",
    valign="top",
    colour="ink",
    shape="circle",
    fit="cover",
    focus="0.5,0.5",
    rtl=False,
    wrap=True,
    order=0,
)


@dataclass(frozen=True)
class Box:
    """A resolved region in points, measured from the trim's top-left corner, y downward."""

    name: str
    spec: Region
    x: float
    y: float
    w: float
    h: float


# a card's field named in a region's text: {name}, {era.power}, or with a number format, {cost:+d}
FIELD = re.compile(r"\{([a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)?)(?::[^{}]{1,12})?\}")
SMALLEST_TEXT = 6.0  # points: no text prints smaller, whatever a layout asks; print-and-play guides ask as much


@dataclass(frozen=True)
class Layout:
    name: str
    files: tuple[Path, ...]
    design_size: tuple[float, float]
    regions: tuple[tuple[str, Region], ...]
    folders: tuple[Path, ...] = ()  # where it was looked up: pictures it names are read from these only
    notices: tuple[str, ...] = ()  # what the layout asks that printkit does otherwise: each a placed warning
    # where each region, and each setting of it, is written: ((region, key or ""), "file:line:column")
    places: tuple[tuple[tuple[str, str], str], ...] = ()

    def place(self, region: str, key: str = "") -> str:
        """Where a region's setting (or, failing that, the region) is written, as file:line:column; "" if unknown."""
        places = dict(self.places)
        return places.get((region, key)) or places.get((region, "")) or ""

    def boxes(self, card_size: tuple[float, float]) -> tuple[Box, ...]:
        """The regions in drawing order, scaled from the design size to the card size."""
        # kept on the layout itself: a cache keyed by the layout hashed every region's settings at each card's
        # each drawing (280,000 hashes for 10,000 cards), where this looks up the size alone
        found = self._scaled.get(card_size)
        if found is None:
            found = self._scaled[card_size] = _boxes(self, card_size)
        return found

    @functools.cached_property
    def _scaled(self) -> dict[tuple[float, float], tuple[Box, ...]]:
        return {}


def _boxes(layout: Layout, card_size: tuple[float, float]) -> tuple[Box, ...]:
    sx = card_size[0] / layout.design_size[0]
    sy = card_size[1] / layout.design_size[1]

    def pt(length: str | None, scale: float) -> float:
        return units.length(length or "0mm") * scale

    ordered = sorted(layout.regions, key=lambda r: r[1].order or 0)
    return tuple(
        Box(name, spec, pt(spec.x, sx), pt(spec.y, sy), pt(spec.w, sx), pt(spec.h, sy)) for name, spec in ordered
    )


def _merge(base: Region, top: Region) -> Region:
    return base.model_copy(update={k: getattr(top, k) for k in top.model_fields_set})


def _read(path: Path, folders: Sequence[Path]) -> tuple[LayoutFile, SourceMap]:
    data, smap = load(path, folders)  # a layout that links out of the layout folders is refused
    try:
        return LayoutFile.model_validate(data), smap
    except ValidationError as exc:
        raise DataError(problems_from(exc, LayoutFile, data, smap)) from None


def _present(path: Path) -> bool:
    return path.exists() or path.is_symlink()


def load_layout(name: str, folders: Sequence[Path]) -> Layout:
    """Load a layout by name from the first folder that has it, following `extends` to the base.

    A layout that extends its own name extends the one it hides: a project's troop.yaml with
    `extends: troop` changes a region or two of the built-in troop layout.
    """
    chain: list[tuple[Path, LayoutFile, SourceMap]] = []
    current: str | None = name
    start = 0
    while current is not None:
        found = next(
            (
                (i, f / f"{current}.yaml")
                for i, f in enumerate(folders)
                # anything by that name counts, so a pipe or a broken link is refused, not passed over
                if i >= start and _present(f / f"{current}.yaml")
            ),
            None,
        )
        if found is None:
            searched = ", ".join(display_path(f) for f in folders[start:]) or "no folder"
            message = f"no layout {current!r} in {searched}"
            where = chain[-1][2].problem(("extends",), message) if chain else Problem("layouts", 1, 1, message)
            raise DataError([where])
        index, path = found
        if any(p == path for p, _, _ in chain):
            raise DataError([chain[-1][2].problem(("extends",), f"layout {current!r} extends itself in a loop")])
        layout, smap = _read(path, folders)
        chain.append((path, layout, smap))
        start = index + 1 if layout.extends == current else 0
        current = layout.extends
    regions: dict[str, Region] = {}
    design = settings.POKER.name
    for _, layout, _ in reversed(chain):  # base first, so each child overrides
        if layout.design_size:
            design = layout.design_size
        for region_name, region in layout.regions.items():
            if region is None:
                regions.pop(region_name, None)
            else:
                regions[region_name] = _merge(regions.get(region_name, DEFAULTS), region)
    problems = []
    for region_name, region in regions.items():
        for key in ("when", "unless"):
            text = getattr(region, key)
            if text is None:
                continue
            try:
                condition(text)
            except conditions.ConditionError as exc:
                smap = next(m for _, f, m in chain if (r := f.regions.get(region_name)) and key in r.model_fields_set)
                said = f"condition {text!r}, at character {exc.column}: {exc}"
                problems.append(smap.problem(("regions", region_name, key), said))
        if region.type is None:
            path, _, smap = next(c for c in chain if region_name in c[1].regions)
            problems.append(smap.problem(("regions", region_name), "missing required field 'type'"))
        source = regions.get(region.room_from) if region.room_from else None
        if region.room_from and (source is None or source.type != "text"):
            smap = next(m for _, f, m in chain if (r := f.regions.get(region_name)) and r.room_from)
            texts = ", ".join(sorted(n for n, r in regions.items() if r.type == "text"))
            said = f"expected a text region of this layout ({texts}), found {region.room_from!r}"
            problems.append(smap.problem(("regions", region_name, "room_from"), said))
    if problems:
        raise DataError(problems)
    try:
        size = settings.card_size(design).size
    except ValueError as exc:
        raise DataError([chain[0][2].problem(("design_size",), str(exc))]) from None
    regions, notices = _legible(regions, chain)
    places: dict[tuple[str, str], str] = {}
    for _, layout, smap in reversed(chain):  # the child's place wins, as its setting does
        for region_name, region in layout.regions.items():
            places[(region_name, "")] = smap.problem(("regions", region_name), "").place
            for key in region.model_fields_set if region is not None else ():
                places[(region_name, key)] = smap.problem(("regions", region_name, key), "").place
    return Layout(
        name,
        tuple(p for p, _, _ in chain),
        size,
        tuple(regions.items()),
        tuple(folders),
        notices,
        tuple(sorted(places.items())),
    )


def _legible(
    regions: dict[str, Region], chain: list[tuple[Path, LayoutFile, SourceMap]]
) -> tuple[dict[str, Region], tuple[str, ...]]:
    """Text sizes raised to SMALLEST_TEXT, and a warning at each place a layout file asks for less."""
    notices = []
    for region_name, region in list(regions.items()):
        low = {key: getattr(region, key) for key in ("size", "min_size") if (getattr(region, key) or 9) < SMALLEST_TEXT}
        if not low:
            continue
        regions[region_name] = region.model_copy(update={key: SMALLEST_TEXT for key in low})
        for key, value in low.items():
            smap = next(m for _, f, m in chain if (r := f.regions.get(region_name)) and key in r.model_fields_set)
            where = smap.problem(("regions", region_name, key), "").place
            notices.append(
                f"{where}: region {region_name}: {key} {value:g} pt is under the {SMALLEST_TEXT:g} pt "
                "printkit prints at the least; it is drawn at that"
            )
    return regions, tuple(notices)


def layouts_for(game: Game, kinds: set[str]) -> dict[str, Layout]:
    """The layout each kind of design of a game is drawn with: a card kind's own layout:, else the game's
    `layouts:` entry for it, else the layout of the kind's name."""
    return {kind: load_layout(layout_name(game, kind), game.layout_folders) for kind in sorted(kinds)}


def layout_name(game: Game, kind: str, deck: DeckCards | None = None) -> str:
    """The name of the layout a design is drawn with: its deck's, its kind's, the game's layouts: entry, its own."""
    if deck is not None and deck.deck.layout:
        return deck.deck.layout
    declared = game.kinds.types.get(kind)
    if declared is not None and declared.layout:
        return declared.layout
    return game.info.layouts.get(kind, kind)


def face_layouts(game: Game, refused: list[Problem] | None = None) -> dict[tuple[str, str], Layout]:
    """The layout of each deck's card faces, by (deck, kind): a deck may print its cards in a layout of its own.

    refused: where a layout that does not load puts its problems, its faces left out (a proof checks the rest);
    by default its DataError stops the run."""
    loaded: dict[str, Layout | None] = {}
    out = {}
    for deck in game.decks:
        for kind in sorted({card.kind for card, _ in deck.entries}):
            name = layout_name(game, kind, deck)
            if name not in loaded:
                try:
                    loaded[name] = load_layout(name, game.layout_folders)
                except DataError as exc:
                    if refused is None:
                        raise
                    refused += [p for p in exc.problems if p not in refused]
                    loaded[name] = None
            layout = loaded[name]
            if layout is not None:
                out[(deck.deck.id, kind)] = layout
    return out


def face_layout(game: Game, deck: DeckCards, card: Card) -> Layout:
    """The layout one card's face is drawn with in one deck."""
    return load_layout(layout_name(game, card.kind, deck), game.layout_folders)
