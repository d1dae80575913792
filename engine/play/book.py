"""A game's play.yaml read into a rule book: its zones, counters, set-up, turn, moves and ends, compiled and checked.

Every problem is one line at its place in play.yaml (file:line:column, the column of the very word in an
expression), all of them found in one reading, and nothing of a game runs until the book reads whole.
"""

from __future__ import annotations

import contextlib
import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path as FilePath
from typing import Any

from engine.play import effects as fx
from engine.play import grid, patterns
from engine.play.expr import Compiled, ExprError, as_test, names, parse
from engine.play.scope import Counter, Named, Scope, Zone
from printkit.core import files
from printkit.core.errors import DataError, Problem
from printkit.data import yamlsource
from printkit.data.cardtypes import TABLES
from printkit.data.game import Game
from printkit.data.loader import PLAY_FILE
from printkit.data.playfile import MOVE_KEYS, REACHES, TOP, ZONE_KEYS

MAX_BYTES = 1_000_000
MAX_ZONES = 40
MAX_COUNTERS = 40
MAX_PILES = 100  # piles of one row: a move to a pile is numbered within its card's block
MAX_MOVES = 100
MIN_PLAYERS, MAX_PLAYERS = 2, 6  # seats a rule book may have: the table sizes the issue names and the runner plays
CHANCE_BLOCK = 10_000  # action numbers a kind of chance outcome takes: a card's number, a seat, a die's total

PLAYER_BINDINGS = {"me": "number"}
ROWS = {"piles": "row of piles", "counts": "counter of piles"}  # a row's kinds, as a problem says them


@dataclass
class Move:
    """Something a player may do: its cards and target, when it may, what it spends and what it does."""

    name: str
    number: int
    sources: list[Compiled] | None  # the zones its card comes from (None: a move of no card)
    target: Compiled | None  # the zone its target lies in, by place
    stride: int  # targets each card's numbers leave room for
    test: Compiled | None
    reads_target: bool  # its test reads the target: asked of each target, not once a card
    spend: Compiled | None
    ops: fx.Block
    plays: str | None  # which card it records as played: card, target or none
    ends_turn: bool
    says: str | None
    grouped: bool = False  # its card comes from the group it is written in
    span: int = 1  # how many action numbers it takes from its first: a block per kind of card, if it plays one
    allowed: tuple[bool, ...] | None = None  # by card: whether the parts of its test that read the card alone hold
    general: Compiled | None = None  # the parts of its test that read no card: asked once a list of legal moves
    to: Compiled | None = None  # the places it goes to (cells or columns of a grid), each an offer of its own
    places: int = 0  # how many places `to` numbers among: its offers are number + card (or cell) x places + place
    cells: int = 0  # the cells of the grid whose cards make it (0: its cards come from a zone)
    plain: bool = False  # its effects only change the position (effects.is_plain): they run in place, no frame
    # the parts of its test that read the place `to` gives and nothing of a card (not full(my.flags[to])), where its
    # places are the same for every card: asked once a place for a whole list of moves, not once a card and place
    where: Compiled | None = None
    where_key: str = ""  # the binding a list of moves keeps where's places under (a name no rule can write)
    cost: Any = None  # what it spends when that is a fixed number (1: spend: not given), not asked in play; None: asked
    draws: bool = False  # its effects only change the position and then may draw (fx.ends_in_draw): in place too
    asks: Any = None  # the ends asked after it, as PlayGame works them out: kept here, found with no lookup

    def __post_init__(self) -> None:
        self.plain = fx.is_plain(self.ops)
        self.draws = not self.plain and fx.ends_in_draw(self.ops)
        self.where_key = f"\0where{id(self)}"
        if self.spend is None:
            self.cost = 1
        elif self.spend.constant and type(spent := self.spend.fn(None, {})) in (int, float):
            self.cost = spent


@dataclass
class Group:
    """Moves offered card by card: for each card of a zone, each of the moves that card allows, in turn."""

    each: Compiled
    moves: list[Move]
    grid: bool = False  # the zone is a grid: each cell holding a card of the player to move, in cell order
    test: Compiled | None = None  # which cards offer the moves at all (if:): the part asked once a card
    allowed: tuple[bool, ...] | None = None  # by card: whether the parts of its test that read the card alone hold
    general: Compiled | None = None  # the parts of its test that read no card: asked once a list of legal moves
    by_card: bool = False  # order: cards: its cards offered in the game's order of cards, not as the zone lies
    rows: tuple[Compiled, ...] | None = None  # each: rows of piles: their cards offered pile by pile, from its pile
    piles: int = 0  # the rows' piles
    step: int = 1  # zones from one pile of a row to the next
    open: bool = False  # none of its moves has a test of the position alone: each is offered as far as that goes

    def __post_init__(self) -> None:
        self.open = all(m.general is None for m in self.moves)


@dataclass
class End:
    """A way the game ends, checked after every move: a seat wins (or loses) by its test, or all at once."""

    kind: str  # wins, loses, draw, most
    test: Compiled
    score: Compiled | None
    how: str  # normal, stalemate or cap: how the reports count it
    after: str = "move"  # when it is asked: after every move, or only as a turn ends (turn)
    # the zones and counters its test can read, by name (None: it may read anything, such as the turn, a card or a
    # check): a move that writes none of them leaves the test as it found it (PlayGame.asks)
    reads: frozenset[str] | None = None


@dataclass
class Book:
    """One game's rules as the interpreter plays them."""

    file: FilePath
    players: int
    cards: list[str]  # card ids by number
    names: list[str]
    fields: list[dict[str, Any]]
    start: list[list[int]]  # the cards the game starts with, in deck order, by number: one list a seat (or one)
    zones: dict[str, Zone]
    zone_at: list[tuple[Zone, int]]  # each zone index: its declaration and owner (-1: the game's)
    counters: dict[str, Counter]
    drawing: tuple[Zone, Zone | None] | None
    setup: fx.Block
    turn_start: fx.Block
    turn_end: fx.Block
    budget: Counter | None
    entries: list[Move | Group]
    moves: list[Move]
    ends: list[End]
    cap_moves: int | None
    cap_turns: int | None
    value: Compiled | None
    scale: float
    chance_base: int
    effects: dict[str, Named] = field(default_factory=dict)
    ends_turns: bool = False  # some effect ends the turn (end_turn): a move's effects may, not only ends_turn:
    curve: str = "clamp"  # how the heuristic's (value - other's) / scale becomes -1..1: clamped, or through tanh
    starts: dict[str, list[list[int]]] = field(default_factory=dict)  # by zone holding cards at first: start's lists
    move_ends: list[End] = field(default_factory=list)  # the ends asked after every move, not only as a turn ends
    places: dict[int, str] = field(
        default_factory=dict
    )  # by id of an effect's op: its place in play.yaml (RuleError's)

    def __post_init__(self) -> None:
        self.move_ends = [end for end in self.ends if end.after == "move"]


class _Reader:
    """Reads play.yaml's data by paths, placing each problem; compiles expressions through the scope."""

    def __init__(self, game: Game, data: dict[str, Any], smap: yamlsource.SourceMap, lines: list[str]) -> None:
        self.game, self.data, self.smap, self.lines = game, data, smap, lines
        self.problems: list[Problem] = []
        self.counters: dict[str, Counter] = {}
        self.zones: dict[str, Zone] = {}
        self.effects: dict[str, Named] = {}
        self.checks: dict[str, Named] = {}
        # by check: the names its test reads of what a move binds (card, target), and the checks it calls
        self.check_reads: dict[str, tuple[set[str], set[str]]] = {}
        self.drawing: tuple[Zone, Zone | None] | None = None
        self.applied: list[tuple[str, fx.Path]] = []
        self.ends_turns = False  # an end_turn effect is written somewhere: any move's effects may end the turn
        self.players = int(game.info.players) if isinstance(game.info.players, int) else 2
        self.scope: Scope | None = None
        self.places: dict[int, str] = {}  # by id of each effect's op: where it is written, for an error in play

    def note_place(self, op: fx.Op, path: fx.Path) -> None:
        self.places.setdefault(id(op), self.smap.place(path))

    # -- places ----------------------------------------------------------------------------------
    def fail(self, path: fx.Path, message: str, at_key: bool = False) -> None:
        self.problems.append(self.smap.problem(path, message, at_key=at_key))

    def fail_at(self, path: fx.Path, column: int, message: str) -> None:
        """A problem at a character of the text at path: the column of the word in an expression."""
        mark = self.smap.values.get(path)
        if mark is None:
            self.fail(path, message)
            return
        line = self.lines[mark.line - 1] if 0 < mark.line <= len(self.lines) else ""
        quoted = 1 if mark.column - 1 < len(line) and line[mark.column - 1] in "'\"" else 0
        where = yamlsource.format_path(path)
        file = self.smap.problem(path, "").file
        self.problems.append(Problem(file, mark.line, mark.column + quoted + column - 1, f"{where}: {message}"))

    def keys(self, raw: Any, path: fx.Path, allowed: tuple[str, ...], required: tuple[str, ...] = ()) -> bool:
        ok = True
        if not isinstance(raw, dict):
            self.fail(path, f"expected a mapping with {', '.join(allowed)}")
            return False
        for key in raw:
            if key not in allowed:
                hint = difflib.get_close_matches(str(key), allowed, n=1)
                said = f" (did you mean {hint[0]!r}?)" if hint else f" (expected one of: {', '.join(allowed)})"
                self.fail((*path, str(key)), f"unknown key {key!r}{said}", at_key=True)
                ok = False
        for key in required:
            if key not in raw:
                self.fail(path, f"missing {key}:")
                ok = False
        return ok

    # -- expressions -----------------------------------------------------------------------------
    def expr(self, raw: Any, path: fx.Path, bound: dict[str, str], want: str = "any") -> Compiled | None:
        if isinstance(raw, bool):
            raw = "true" if raw else "false"
        elif isinstance(raw, int | float):
            raw = str(raw)
        if not isinstance(raw, str) or not raw.strip():
            self.fail(path, f"expected an expression, found {raw!r}")
            return None
        assert self.scope is not None
        try:
            compiled = self.scope.compile(parse(raw), {**PLAYER_BINDINGS, **bound})
        except ExprError as exc:
            self.fail_at(path, exc.column, str(exc))
            return None
        if want == "number" and compiled.kind in (
            "zone", "slots", "bool", "text", "table", "row", "card", "grid", "marks", "places", "piles", "counts"
        ):  # fmt: skip
            self.fail(path, f"expected a number, found a {ROWS.get(compiled.kind, compiled.kind)}")
            return None
        if want == "value" and compiled.kind in (
            "zone", "slots", "bool", "text", "table", "row", "grid", "marks", "places", "piles", "counts"
        ):  # fmt: skip  # a number, or a card: its number (a counter set to the card a move took)
            self.fail(path, f"expected a number or a card, found a {ROWS.get(compiled.kind, compiled.kind)}")
            return None
        if want == "bool":
            if compiled.kind in ("zone", "slots", "table", "row", "grid", "marks", "places", "piles", "counts"):
                self.fail(path, f"expected a test, found a {ROWS.get(compiled.kind, compiled.kind)}")
                return None
            return as_test(compiled)
        return compiled

    def zone(self, raw: Any, path: fx.Path, bound: dict[str, str]) -> Compiled | None:
        compiled = self.expr(raw, path, bound)
        if compiled is not None and compiled.kind == "piles":
            self.fail(path, f"expected a zone: {raw} is a row of piles, {raw}[pile] one of them")
            return None
        if compiled is not None and compiled.kind not in ("zone", "slots", "grid"):
            self.fail(path, f"expected a zone, such as my.hand or discard, found {raw!r}")
            return None
        return compiled

    def constant(self, raw: Any, path: fx.Path, low: int, high: int) -> int | None:
        """A whole number fixed for the game (a literal or rule options): a zone's limit, a cap."""
        compiled = self.expr(raw, path, {})
        if compiled is None:
            return None
        if not compiled.constant:
            self.fail(path, "expected a number fixed for the game (a number, or rules.<option>)")
            return None
        value = compiled.fn(None, {})
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            self.fail(path, f"expected a whole number from {low} to {high:,}, found {value!r}")
            return None
        return value

    def note_apply(self, name: str, path: fx.Path) -> None:
        self.applied.append((name, path))

    def note_end_turn(self) -> None:
        self.ends_turns = True


def read(game: Game) -> Book:
    """The game's play.yaml as a rule book; DataError with every problem, each placed, when it does not read."""
    path = game.folder / PLAY_FILE
    within = game.reads_from or (game.folder,)
    raw = files.read(path, MAX_BYTES, within, "YAML")
    data, smap = yamlsource.parse(raw, path)
    if not isinstance(data, dict):
        raise DataError([smap.problem((), "expected a mapping: zones:, setup:, turn:, moves:, end:")])
    reader = _Reader(game, data, smap, raw.decode("utf-8-sig", errors="replace").splitlines())
    book = _book(reader)
    if reader.problems or book is None:
        error = DataError(reader.problems or [smap.problem((), "the rules do not read")])
        error.in_rules_file = True  # type: ignore[attr-defined]  # said as they are, each at its place in play.yaml
        raise error
    return book


def _book(r: _Reader) -> Book | None:
    data = r.data
    r.keys(data, (), TOP, ("zones", "moves", "end"))
    players = data.get("players", r.players)
    if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        said = f"players: expected a whole number of players from {MIN_PLAYERS} to {MAX_PLAYERS}, found {players!r}"
        r.fail(("players",), said)
        return None
    r.players = players
    game = r.game
    cards, names, fields = _cards(game)
    tables = {name: _table(getattr(game.info, name, None)) for name in TABLES}
    tables = {k: v for k, v in tables.items() if v}
    checks: dict[str, Named] = {}
    r.checks = checks
    r.scope = Scope(r.players, r.zones, r.counters, game.rule, tables, fields, checks)
    _zones(r, data.get("zones"), cards)
    _counters(r, data.get("counters"))
    for zone in r.zones.values():  # a grid's rules may read counters and zones: read once both are declared
        if zone.grid is not None:
            _grid_rules(r, zone, data["zones"][zone.name], ("zones", zone.name))
    _drawing(r, data.get("drawing"))
    patterns.read(r, data.get("patterns"))  # before the checks and moves whose strength() and claimable() name them
    _named_checks(r, data.get("checks"))
    r.effects = {}
    _named_effects(r, data.get("effects"))
    setup = fx.block(r, data.get("setup"), ("setup",), {})
    turn = data.get("turn") or {}
    budget = None
    turn_start: fx.Block = ()
    turn_end: fx.Block = ()
    if r.keys(turn, ("turn",), ("start", "budget", "end")):
        turn_start = fx.block(r, turn.get("start"), ("turn", "start"), {})
        turn_end = fx.block(r, turn.get("end"), ("turn", "end"), {})
        if "budget" in turn:
            budget = r.counters.get(str(turn["budget"]))
            if budget is None or not budget.per_player or budget.piles:  # (one number a player, not one a pile)
                r.fail(("turn", "budget"), f"budget: expected a counter each player has, found {turn['budget']!r}")
    entries, moves = _moves(r, data.get("moves"), budget, len(cards))
    ends = _ends(r, data.get("end"))
    cap = data.get("cap") or {}
    cap_moves = cap_turns = None
    if r.keys(cap, ("cap",), ("moves", "turns")):
        cap_moves = r.constant(cap["moves"], ("cap", "moves"), 1, 1_000_000) if "moves" in cap else None
        cap_turns = r.constant(cap["turns"], ("cap", "turns"), 1, 100_000) if "turns" in cap else None
    value, scale, curve = _heuristic(r, data.get("heuristic"))
    for name, where in r.applied:
        if name not in r.effects:
            r.fail(where, f"no effect {name!r} under effects: (effects: {', '.join(r.effects) or 'none'})")
    highest = max((m.number + m.span for m in moves), default=0)
    chance_base = max(2 * CHANCE_BLOCK, -(-highest // CHANCE_BLOCK) * CHANCE_BLOCK)
    if len(cards) >= CHANCE_BLOCK:
        r.fail((), f"{len(cards):,} kinds of card: the interpreter numbers at most {CHANCE_BLOCK - 1:,}")
    drawing = r.drawing
    holders = [z for z in r.zones.values() if z.start is not None]
    if not holders and drawing is not None:
        r.fail(("zones",), "no zone holds the cards as the game begins: give the draw pile cards: <deck id>")
    start = _starts(game, holders[0] if holders else None, r.players, cards)
    # every zone holding cards as the game begins (a second deck, say), each with its lists by seat
    starts = {z.name: _starts(game, z, r.players, cards) for z in holders}
    zone_at = [  # a row's piles one after another, each with every seat's side
        (z, seat if z.per_player else -1)
        for z in r.zones.values()
        for _ in range(max(1, z.piles))
        for seat in range(r.players if z.per_player else 1)
    ]
    if r.problems:
        return None
    return Book(
        r.smap.file, r.players, cards, names, fields, start, r.zones, zone_at, r.counters, drawing, setup,
        turn_start, turn_end, budget, entries, moves, ends, cap_moves, cap_turns, value, scale, chance_base, r.effects,
        r.ends_turns, curve, starts, places=r.places,
    )  # fmt: skip


def _cards(game: Game) -> tuple[list[str], list[str], list[dict[str, Any]]]:
    """The kinds of card in the game's decks, numbered in deck order, with their fields."""
    order: dict[str, int] = {}
    cards: list[str] = []
    names: list[str] = []
    fields: list[dict[str, Any]] = []
    for deck in game.decks:
        for card, copies in deck.entries:
            if card.id not in order:
                order[card.id] = len(cards)
                cards.append(card.id)
                names.append(card.name)
                fields.append({"id": card.id, "name": card.name, "kind": card.kind, "copies": copies, **card.values})
    return cards, names, fields


def _starts(game: Game, holder: Zone | None, players: int, cards: list[str]) -> list[list[int]]:
    """The cards the holding zone starts with: one list a seat for a zone each player has, else one list."""
    if holder is None:
        return [[]]
    decks = holder.start if isinstance(holder.start, list) else [holder.start] * (players if holder.per_player else 1)
    return [_start(game, deck, cards) for deck in decks]


def _start(game: Game, deck: str | None, cards: list[str]) -> list[int]:
    """The cards a zone holds as the game begins, by number, each copy once, in its deck's order."""
    if deck is None:
        return []
    number = {card: i for i, card in enumerate(cards)}
    return [
        number[card.id] for d in game.decks if deck in ("all", d.deck.id) for card, n in d.entries for _ in range(n)
    ]


def _table(rows: Any) -> dict[str, dict[str, Any]]:
    if isinstance(rows, dict):
        return {str(k): {"id": k, "name": v} for k, v in rows.items()}
    if not isinstance(rows, list):
        return {}
    out: dict[str, dict[str, Any]] = {}
    for row in rows:
        dump = row.model_dump() if hasattr(row, "model_dump") else row
        if isinstance(dump, Mapping) and isinstance(dump.get("id"), str):
            out[dump["id"]] = dict(dump)
    return out


def _zones(r: _Reader, raw: Any, cards: list[str]) -> None:
    if not isinstance(raw, dict) or not raw:
        r.fail(
            ("zones",), "expected the zones cards lie in: a mapping such as {deck: {cards: main}, hand: {per: player}}"
        )
        return
    if len(raw) > MAX_ZONES:
        r.fail(("zones",), f"{len(raw)} zones: expected at most {MAX_ZONES}")
        return
    base = 0
    decks = {d.deck.id for d in r.game.decks}
    pending: list[tuple[Zone, Any, Any, fx.Path]] = []
    for name, spec in raw.items():
        path: fx.Path = ("zones", str(name))
        if not str(name).isidentifier():
            r.fail(path, f"zone {name!r}: expected a name of letters, digits and _", at_key=True)
            continue
        spec = spec or {}
        if not isinstance(spec, dict):
            r.fail(path, "expected a zone: a mapping such as {per: player, visible: owner}")
            continue
        r.keys(spec, path, ZONE_KEYS)  # an unknown key is said, and the zone still declared for what names it
        per = spec.get("per", "game")
        visible = spec.get("visible", "owner" if per == "player" else "all")
        order = spec.get("order", "pile")
        bad = [
            (k, v, ok)
            for k, v, ok in (
                ("per", per, ("game", "player")),
                ("visible", visible, ("all", "owner", "none")),
                ("order", order, ("pile", "sorted")),
            )
            if v not in ok
        ]
        for key, value, ok in bad:  # said once; the zone is still declared, so what names it says nothing more
            r.fail((*path, key), f"{key}: expected {' or '.join(ok)}, found {value!r}")
        per = per if per in ("game", "player") else "game"
        visible = visible if visible in ("all", "owner", "none") else "all"
        order = order if order in ("pile", "sorted") else "pile"
        start = spec.get("cards")
        listed = isinstance(start, list) and per == "player" and len(start) == r.players
        if start is not None and not listed and (not isinstance(start, str) or (start != "all" and start not in decks)):
            r.fail(
                (*path, "cards"),
                f"cards: expected all or a deck's id ({', '.join(sorted(decks))}), or for a zone each player has a "
                f"list of {r.players} deck ids, found {start!r}",
            )
            start = None
        elif isinstance(start, list) and any(d not in decks for d in start):
            r.fail((*path, "cards"), f"cards: expected deck ids ({', '.join(sorted(decks))}), found {start!r}")
            start = None
        zone = Zone(str(name), base, per == "player", visible, order, start=start)
        if "piles" in spec:
            _row(r, zone, spec, path)
        base += zone.span(r.players)
        r.zones[zone.name] = zone
        if "limit" in spec:
            zone.limit = r.constant(spec["limit"], (*path, "limit"), 0, 100_000)
        slots = spec.get("slots")
        if slots is not None:
            if isinstance(slots, int) and not isinstance(slots, bool) and 1 <= slots <= 1000:
                zone.slots = tuple(str(i + 1) for i in range(slots))
            elif isinstance(slots, str) and slots in TABLES and getattr(r.game.info, slots, None):
                zone.slots = tuple(_table(getattr(r.game.info, slots)))
            else:
                r.fail(
                    (*path, "slots"),
                    f"slots: expected a number from 1 to 1,000 or a table of game.yaml, found {slots!r}",
                )
        if "grid" in spec:
            _grid(r, zone, spec, path)
        elif any(k in spec for k in GRID_KEYS):
            key = next(k for k in GRID_KEYS if k in spec)
            r.fail((*path, key), f"{key}: only a grid zone (grid: {{rows:, columns:}}) has it", at_key=True)
        pending.append((zone, spec.get("holds"), spec.get("slot"), path))
        if "overflow" in spec:
            zone.overflow = str(spec["overflow"])
    _no_deck_twice(r)
    for zone, holds, slot, path in pending:
        if holds is not None:
            zone.holds = r.expr(holds, (*path, "holds"), {"card": "card"}, "bool")
        if slot is not None:
            if zone.slots is None:
                r.fail((*path, "slot"), "slot: only a zone of slots: (a row of slots) places a card by a key")
            else:
                zone.slot_of = r.expr(slot, (*path, "slot"), {"card": "card"})
        if zone.overflow is not None:
            other = r.zones.get(zone.overflow)
            if other is None or other is zone:
                r.fail((*path, "overflow"), f"overflow: expected another zone's name, found {zone.overflow!r}")
            elif zone.limit is None:
                r.fail((*path, "overflow"), "overflow: a zone overflows past its limit: give it limit:")


def _no_deck_twice(r: _Reader) -> None:
    """Zones may each start with a deck of their own (a Troop deck and a Tactics deck), but no deck in two of them."""
    held: dict[str, str] = {}  # deck id (or all) -> the zone that starts with it
    for zone in r.zones.values():
        if zone.start is None:
            continue
        for deck in zone.start if isinstance(zone.start, list) else [zone.start]:
            other = held.get(deck) or held.get("all") or (next(iter(held.values())) if deck == "all" and held else None)
            if other is not None and other != zone.name:
                said = f"cards: {deck}'s cards already start in {other}: give each zone a deck of its own"
                r.fail(("zones", zone.name, "cards"), said)
                return
            held.setdefault(deck, zone.name)


def _row(r: _Reader, zone: Zone, spec: dict[str, Any], path: fx.Path) -> None:
    """A row of piles (piles: rules.flags): that many piles fixed for the game, each a zone with every seat's side."""
    # a row of one pile until its size reads: what names a pile of it is still right, and says no more
    zone.piles, zone.step = 1, r.players if zone.per_player else 1
    piles = r.constant(spec["piles"], (*path, "piles"), 1, MAX_PILES)
    clash = next((k for k in ("cards", "slots", "slot", "grid", "overflow") if k in spec), None)
    if clash is not None:  # a row's piles start empty and take cards one by one, each pile a zone of its own
        r.fail((*path, clash), f"{clash}: a row of piles (piles:) takes no {clash}:", at_key=True)
        return
    zone.piles = piles or 1


GRID_KEYS = ("home", "reach", "enter_enemy_home", "marks", "hit_points", "reserve")
MAX_CELLS = 100  # a grid's cells: a move from a cell to a cell is numbered within a block of 10,000


def _grid(r: _Reader, zone: Zone, spec: dict[str, Any], path: fx.Path) -> None:
    """A grid's size: rows x columns fixed for the game, one card a cell."""
    raw = spec["grid"]
    zone.grid = (0, 0)  # a grid of no cells until its size reads: what names it is still a grid's, and says no more
    if zone.per_player:
        r.fail((*path, "grid"), "grid: a grid is the whole game's (no per: player)", at_key=True)
        return
    wrong = [k for k in ("slots", "limit", "order", "overflow") if k in spec]
    for key in wrong:
        r.fail((*path, key), f"{key}: a grid holds one card a cell: it has no {key}:", at_key=True)
    if wrong:
        return
    if zone.visible != "all":  # its cards lie face up: search deals no card of it anew
        r.fail((*path, "visible"), f"visible: a grid's cards are seen by all: expected all, found {zone.visible!r}")
        return
    if not r.keys(raw, (*path, "grid"), ("rows", "columns"), ("rows", "columns")):
        return
    rows = r.constant(raw["rows"], (*path, "grid", "rows"), 1, MAX_CELLS)
    cols = r.constant(raw["columns"], (*path, "grid", "columns"), 1, MAX_CELLS)
    if rows is None or cols is None:
        return
    if rows * cols > MAX_CELLS:
        r.fail((*path, "grid"), f"grid: {rows} x {cols} cells: expected at most {MAX_CELLS}")
        return
    zone.grid = (rows, cols)


def _grid_rules(r: _Reader, zone: Zone, spec: dict[str, Any], path: fx.Path) -> None:
    """A grid's marks, reserve, home rows, reaches and steps: read once its zones and counters are declared."""
    assert zone.grid is not None
    rows, cols = zone.grid
    marks = spec.get("marks") or {}
    if not isinstance(marks, dict) or any(not str(k).isidentifier() or k == "owner" for k in marks):
        r.fail((*path, "marks"), "marks: expected names (not owner) and their start, such as {hp: card.hp}")
        marks = {}
    for name, start in marks.items():
        compiled = r.expr(start, (*path, "marks", str(name)), {"card": "card"}, "number")
        zone.marks[str(name)] = compiled if compiled is not None else Compiled(lambda s, e: 0, "number", True)
    if "hit_points" in spec:
        if spec["hit_points"] not in zone.marks:
            said = ", ".join(zone.marks) or "none"
            found = spec["hit_points"]
            r.fail((*path, "hit_points"), f"hit_points: expected one of its marks ({said}), found {found!r}")
            zone.hit_points = -2  # said here: a damage: on it says no more
        else:
            zone.hit_points = zone.mark_index(str(spec["hit_points"]))
    if "reserve" in spec:
        zone.reserve = r.expr(spec["reserve"], (*path, "reserve"), {}, "number")
    if not zone.cells:  # its size did not read, and said so: no rows to place homes and reaches in
        return
    homes: list[int] = []
    home = r.expr(spec.get("home", 0), (*path, "home"), {}, "number")
    for seat in range(r.players):
        try:
            row = home.fn(None, {"me": seat}) if home is not None else 0
        except Exception:  # it reads the position: a home row is fixed for the game
            row = None
        if isinstance(row, bool) or not isinstance(row, int) or not 0 <= row < rows:
            r.fail((*path, "home"), f"home: expected a row from 0 to {rows - 1} fixed for the game, found {row!r}")
            return
        homes.append(row)
    enter = True
    if "enter_enemy_home" in spec:
        given = r.expr(spec["enter_enemy_home"], (*path, "enter_enemy_home"), {}, "bool")
        if given is not None and not given.constant:
            r.fail((*path, "enter_enemy_home"), "enter_enemy_home: expected a test fixed for the game")
            return
        enter = bool(given.fn(None, {})) if given is not None else True
    reach = r.expr(spec.get("reach", "nearest_in_column"), (*path, "reach"), {"card": "card"})
    words: list[str] = []
    for card in range(r.scope.cards if r.scope is not None else 0):
        try:
            word = reach.fn(None, {"card": card}) if reach is not None else "nearest_in_column"
        except Exception:  # it reads the position, not the card alone
            word = None
        if word not in REACHES:
            r.fail((*path, "reach"), f"reach: expected one of {', '.join(REACHES)} for each card, found {word!r}")
            return
        words.append(str(word))
    zone.enter_enemy_home = enter
    zone.reach = tuple(words)
    zone.layout = grid.layout(rows, cols, homes, enter, words)


def _counters(r: _Reader, raw: Any) -> None:
    if raw is None:
        return
    if not isinstance(raw, dict) or len(raw) > MAX_COUNTERS:
        r.fail(("counters",), f"expected at most {MAX_COUNTERS} counters, each {{start: 0, min: 0, max: 10}}")
        return
    pending = []
    for name, spec in raw.items():
        path: fx.Path = ("counters", str(name))
        if not str(name).isidentifier() or name in r.zones:
            r.fail(path, f"counter {name!r}: expected a name of letters, digits and _, not a zone's", at_key=True)
            continue
        spec = {"start": spec} if isinstance(spec, int | float) and not isinstance(spec, bool) else spec or {}
        if not isinstance(spec, dict):
            r.fail(path, "expected a counter: a number to start from, or {start:, min:, max:}")
            continue
        r.keys(spec, path, ("per", "start", "min", "max", "piles"))
        per = spec.get("per", "player")
        if per not in ("player", "game"):
            r.fail((*path, "per"), f"per: expected player or game, found {per!r}")
            continue
        counter = Counter(str(name), len(r.counters), per == "player", Compiled(lambda s, e: 0, "number", True))
        if "piles" in spec:  # a value for each pile of a row (who holds each flag): as many as its piles
            counter.piles = r.constant(spec["piles"], (*path, "piles"), 1, MAX_PILES) or 0
        r.counters[counter.name] = counter
        pending.append((counter, spec, path))
    for counter, spec, path in pending:  # bounds may name other counters (max: my.cap)
        if "start" in spec:
            start = r.expr(spec["start"], (*path, "start"), {}, "number")
            if start is not None:
                counter.start = start
        if "min" in spec:
            counter.low = r.expr(spec["min"], (*path, "min"), {}, "number")
        if "max" in spec:
            counter.high = r.expr(spec["max"], (*path, "max"), {}, "number")


def _drawing(r: _Reader, raw: Any) -> None:
    if raw is None:
        return
    if not r.keys(raw, ("drawing",), ("from", "refill"), ("from",)):
        return
    pile = r.zones.get(str(raw["from"]))
    if pile is None or pile.slots is not None or pile.grid is not None or pile.piles:
        said = f"from: expected a pile the whole game shares or one each player has, found {raw['from']!r}"
        r.fail(("drawing", "from"), said)
        return
    refill = None
    if "refill" in raw:  # each player's pile is refilled from each player's, a shared one from a shared one
        refill = r.zones.get(str(raw["refill"]))
        if refill is None or refill.per_player != pile.per_player or refill is pile or refill.slots is not None:
            whose = "each player's" if pile.per_player else "shared"
            r.fail(("drawing", "refill"), f"refill: expected another {whose} pile, found {raw['refill']!r}")
            return
    r.drawing = (pile, refill)


def _named(r: _Reader, raw: Any, where: str) -> list[tuple[str, Any, Any, fx.Path, str]]:
    """checks: or effects: entries: (name, its single body, its cases, path, the name of its value)."""
    out: list[tuple[str, Any, Any, fx.Path, str]] = []
    if raw is None:
        return out
    if not isinstance(raw, dict):
        r.fail((where,), f"expected named {where}, each {{given: a name, cases: {{kind: ...}}}}")
        return out
    for name, spec in raw.items():
        path: fx.Path = (where, str(name))
        if not str(name).isidentifier():
            r.fail(path, f"{name!r}: expected a name of letters, digits and _", at_key=True)
            continue
        if not r.keys(spec, path, ("given", "is", "do", "cases")):
            continue
        given = str(spec.get("given", "it"))
        body_key = "is" if where == "checks" else "do"
        if (body_key in spec) == ("cases" in spec):
            r.fail(path, f"expected {body_key}: (one for every value) or cases: (one for each kind), one of them")
            continue
        if "cases" in spec and not isinstance(spec["cases"], dict):
            r.fail((*path, "cases"), "cases: expected a mapping of kinds")
            continue
        out.append((str(name), spec.get(body_key), spec.get("cases"), path, given))
    return out


def _named_checks(r: _Reader, raw: Any) -> None:
    entries = _named(r, raw, "checks")
    for name, _body, _cases, path, given in entries:  # declared first: a check may call another
        r.checks[name] = Named(name, given, place=r.smap.place(path))
    for name, body, cases, path, given in entries:
        bound = {given: "any", "card": "card", "target": "card"}
        named = r.checks[name]
        read: set[str] = set()
        for text in [body] if cases is None else list(cases.values()):
            with contextlib.suppress(ExprError):  # (a test that does not parse is said as it compiles)
                read |= _named_in(parse(str(text))) - {given}
        r.check_reads[name] = (read & {"card", "target"}, read & set(r.checks))
        if cases is None:
            named.body = r.expr(body, (*path, "is"), bound, "bool")
            continue
        for kind, text in cases.items():
            compiled = r.expr(text, (*path, "cases", str(kind)), bound, "bool")
            if compiled is not None:
                named.cases[str(kind)] = compiled


def _named_effects(r: _Reader, raw: Any) -> None:
    entries = _named(r, raw, "effects")
    for name, _body, _cases, path, given in entries:
        r.effects[name] = Named(name, given, place=r.smap.place(path))
    for name, body, cases, path, given in entries:
        bound = {given: "any", "card": "card", "target": "card"}
        named = r.effects[name]
        if cases is None:
            named.body = fx.block(r, body, (*path, "do"), bound)
            continue
        for kind, ops in cases.items():
            named.cases[str(kind)] = fx.block(r, ops, (*path, "cases", str(kind)), dict(bound))


def _moves(r: _Reader, raw: Any, budget: Counter | None, kinds: int) -> tuple[list[Move | Group], list[Move]]:
    entries: list[Move | Group] = []
    flat: list[Move] = []
    if not isinstance(raw, list) or not raw:
        r.fail(("moves",), "expected a list of moves, each {id: ..., do: [...]}")
        return entries, flat
    for i, spec in enumerate(raw):
        path: fx.Path = ("moves", i)
        if isinstance(spec, dict) and "each" in spec:
            if not r.keys(spec, path, ("each", "if", "order", "moves"), ("each", "moves")):
                continue
            rows = _rows(r, spec["each"], (*path, "each"))
            each = rows[0] if rows else r.zone(spec["each"], (*path, "each"), {}) if rows is None else None
            inner = spec["moves"]
            if not isinstance(inner, list) or not inner:
                r.fail((*path, "moves"), "expected the moves a card of the zone offers")
                continue
            on_grid: Zone | None = each.meta if each is not None and each.kind == "grid" else None
            group = [
                _move(r, m, (*path, "moves", j), budget, grouped=True, grid=on_grid, at_pile=bool(rows))
                for j, m in enumerate(inner)
            ]
            found = [m for m in group if m is not None]
            # which of the zone's cards offer the moves at all: asked once a card, not once a move
            bound = {"card": "card", "from": "number"} if on_grid is not None or rows else {"card": "card"}
            which = r.expr(spec["if"], (*path, "if"), bound, "bool") if "if" in spec else None
            if each is not None and found and ("if" not in spec or which is not None):
                made = Group(each, found, on_grid is not None, which)
                made.by_card = spec.get("order") == "cards"
                if rows:
                    made.rows, made.piles = tuple(rows), rows[0].meta.piles
                    made.step = r.players if rows[0].meta.per_player else 1
                if spec.get("order", "zone") not in ("zone", "cards") or (made.by_card and on_grid is not None):
                    r.fail((*path, "order"), f"order: expected zone or cards (not on a grid), found {spec['order']!r}")
                if which is not None:  # its parts by what they read: the card alone, nothing of a card, the rest
                    made.allowed, made.general, made.test = _split(r, str(spec["if"]), bound, which)
                entries.append(made)
                flat += found
            continue
        move = _move(r, spec, path, budget)
        if move is not None:
            entries.append(move)
            flat.append(move)
    if len(flat) > MAX_MOVES:
        r.fail(("moves",), f"{len(flat)} moves: expected at most {MAX_MOVES}")
    for move in flat:
        if move.places:  # a move to places: a block of places for each card, or each cell of the grid it acts from
            move.span = move.places * (move.cells or max(1, kinds))
            continue
        move.span = 1 if move.sources is None else max(1, kinds) * max(1, move.stride)
    _number(r, flat)
    return entries, flat


def _rows(r: _Reader, raw: Any, path: fx.Path) -> list[Compiled] | None:
    """each: a row of piles (their.flags) or a list of rows of as many piles, whose cards a group offers pile by pile;
    None when raw names no row (a zone's group), [] when it names rows badly (said at its place)."""
    if isinstance(raw, list):
        found = [r.expr(item, (*path, j), {}) for j, item in enumerate(raw)]
        rows = [c for c in found if c is not None]
        if len(rows) < len(found):
            return []
        if not rows or any(c.kind != "piles" for c in rows):
            r.fail(path, "each: expected a zone, a row of piles, or a list of rows of piles such as [my.flags, my.env]")
            return []
        if len({c.meta.piles for c in rows}) > 1 or len({c.meta.per_player for c in rows}) > 1:
            r.fail(path, "each: rows offered pile by pile need as many piles, each row a player's or the game's")
            return []
        return rows
    if not isinstance(raw, str) or "(" in raw:
        return None
    assert r.scope is not None
    try:
        compiled = r.scope.compile(parse(raw), dict(PLAYER_BINDINGS))
    except ExprError:
        return None  # said by r.zone as it reads the zone
    return [compiled] if compiled.kind == "piles" else None


def _number(r: _Reader, moves: list[Move]) -> None:
    """Each move's block of action numbers: the one it gives (number:), else the next free one."""
    taken: list[tuple[int, int, str]] = [(m.number, m.number + m.span, m.name) for m in moves if m.number >= 0]
    for a, b, name in taken:
        for c, d, other in taken:
            if name < other and a < d and c < b:
                r.fail(("moves",), f"moves {name} and {other} take the same action numbers: give them numbers apart")
    at = max((b for _, b, _ in taken), default=0)
    for move in moves:
        if move.number < 0:
            move.number = at
            at += move.span


def _move(
    r: _Reader,
    spec: Any,
    path: fx.Path,
    budget: Counter | None,
    grouped: bool = False,
    grid: Zone | None = None,
    at_pile: bool = False,
) -> Move | None:
    if not isinstance(spec, dict):
        r.fail(path, "expected a move: {id: ..., if: ..., do: [...]}")
        return None
    if not r.keys(spec, path, MOVE_KEYS, ("id",)):
        return None
    name = str(spec["id"])
    number = spec.get("number", -1)
    if "number" in spec and (not isinstance(number, int) or isinstance(number, bool) or not 0 <= number < 1_000_000):
        r.fail((*path, "number"), f"number: expected a whole number from 0 to 999,999, found {number!r}")
        return None
    bound: dict[str, str] = {}
    sources: list[Compiled] | None = None
    if grouped:
        if "card" in spec:
            r.fail((*path, "card"), "card: a move in a group takes the group's card (each:)")
            return None
        bound["card"] = "card"
        if grid is not None or at_pile:
            bound["from"] = "number"  # the cell the card stands on, or the pile of a row it lies in
        sources = []
    elif "card" in spec:
        wanted = spec["card"] if isinstance(spec["card"], list) else [spec["card"]]
        sources = [
            z
            for j, w in enumerate(wanted)
            if (z := r.zone(w, (*path, "card", j) if isinstance(spec["card"], list) else (*path, "card"), {}))
            is not None
        ]
        if len(sources) != len(wanted):
            return None
        bound["card"] = "card"
    target = None
    stride = 1
    if "target" in spec:
        target = r.zone(spec["target"], (*path, "target"), {})
        if target is None:
            return None
        zone: Zone = target.meta
        stride = zone.stride
        if stride <= 0:
            r.fail((*path, "target"), f"target: {zone.name} needs a limit: (or slots:) to number its places")
            return None
        bound["target"] = "card"
    places = 0
    to: Compiled | None = None
    if "to" in spec:
        if "target" in spec or "card" not in bound:
            r.fail((*path, "to"), "to: a move to places plays a card (each: or card:) and aims at no target:")
            return None
        to = r.expr(spec["to"], (*path, "to"), bound)
        if to is None:
            return None
        if to.kind != "places":
            r.fail((*path, "to"), "to: expected places on a grid: steps(), targets() or open_columns()")
            return None
        places = int(to.meta)
        bound["to"] = "number"
    test = r.expr(spec["if"], (*path, "if"), bound, "bool") if "if" in spec else None
    reads_target = "if" in spec and test is not None and bool({"target", "to"} & _names(spec["if"]))
    allowed = general = where = None
    if test is not None and "card" in bound:
        allowed, general, test = _split(r, str(spec["if"]), bound, test)
    if test is not None and to is not None and not _names(spec["to"]) & {"card", "target", "from"}:
        where, test, reads_target = _places_part(r, str(spec["if"]), bound)
    spend = r.expr(spec["spend"], (*path, "spend"), bound, "number") if "spend" in spec else None
    if "spend" in spec and budget is None:
        r.fail((*path, "spend"), "spend: the turn has no budget: give turn: {budget: <counter>}")
    ops = fx.block(r, spec.get("do"), (*path, "do"), dict(bound))
    plays = spec.get("plays", "card" if "card" in bound else None)
    if plays not in (None, "card", "target") or (plays is not None and plays not in bound):
        r.fail((*path, "plays"), f"plays: expected card or target, one the move has, found {plays!r}")
        return None
    ends = spec.get("ends_turn", False)
    if not isinstance(ends, bool):
        r.fail((*path, "ends_turn"), f"ends_turn: expected true or false, found {ends!r}")
        return None
    says = spec.get("says")
    if says is not None and not isinstance(says, str):
        r.fail((*path, "says"), "says: expected the move in words, {card} and {target} standing for their names")
        return None
    if (sources is None) and target is not None:
        stride = 1
    return Move(
        name, number, sources, target, stride if target is not None else 1, test, reads_target, spend, ops, plays, ends,
        says, grouped, allowed=allowed, general=general, to=to, places=places, cells=grid.cells if grid else 0,
        where=where,
    )  # fmt: skip


def _reads(r: _Reader, node: Any) -> set[str]:
    """The names a test reads, with card and target where a check it calls (or one that calls) reads them."""
    read = names(node)
    todo, seen = list(_named_in(node) & set(r.check_reads)), set()
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            own, calls = r.check_reads[name]
            read |= own
            todo.extend(calls)
    return read


def _named_in(node: Any) -> set[str]:
    """names() of a test, with the functions it calls (a check's name: fits(to))."""
    out = names(node)

    def walk(n: Any) -> None:
        if isinstance(n, tuple) and n:
            if n[0] == "call":
                out.add(n[2])
            for item in n[2:]:
                for x in item if isinstance(item, list) else [item]:
                    walk(x)

    walk(node)
    return out


def _conjuncts(node: Any) -> list[Any]:
    """The parts of a test joined by and, in order: each can be asked on its own, where what it reads allows."""
    if node[0] == "and":
        return _conjuncts(node[2]) + _conjuncts(node[3])
    return [node]


def _split(
    r: _Reader, text: str, bound: dict[str, str], test: Compiled
) -> tuple[tuple[bool, ...] | None, Compiled | None, Compiled | None]:
    """A move's test parted into what reads its card alone (worked out now for every card, so a card that can never
    make the move is passed over at once), what reads no card (asked once for all the cards), and the rest."""
    assert r.scope is not None
    parts = _conjuncts(parse(text))
    scope = {**PLAYER_BINDINGS, **bound}
    compiled = [(as_test(r.scope.compile(node, scope)), _reads(r, node)) for node in parts]
    pure = [c for c, _ in compiled if c.card == "card" or c.constant]
    allowed = tuple(all(c.fn(None, {"card": i}) for c in pure) for i in range(r.scope.cards)) if pure else None
    own = {"card", "target", "from", "to"}  # what an offer binds: a test reading them is asked of each offer
    free = [c for c, read in compiled if not (c.card == "card" or c.constant) and not read & own]
    rest = [c for c, read in compiled if not (c.card == "card" or c.constant) and read & own]
    return allowed, _all(free), _all(rest)


def _places_part(r: _Reader, text: str, bound: dict[str, str]) -> tuple[Compiled | None, Compiled | None, bool]:
    """Of a move to places' test, the parts left to ask of each offer (_split's rest): those that read the place
    alone (where), the others, and whether those others read the place or a target still."""
    assert r.scope is not None
    parts = _conjuncts(parse(text))
    scope = {**PLAYER_BINDINGS, **bound}
    own = {"card", "target", "from", "to"}
    where: list[tuple[Compiled, set[str]]] = []
    rest: list[tuple[Compiled, set[str]]] = []
    for node in parts:
        read = _reads(r, node)
        c = as_test(r.scope.compile(node, scope))
        if c.card == "card" or c.constant or not read & own:  # _split's: asked by card, or once a list
            continue
        (where if read & own == {"to"} else rest).append((c, read))
    reads = any(read & {"target", "to"} for _, read in rest)
    return _all([c for c, _ in where]), _all([c for c, _ in rest]), reads


def _all(tests: list[Compiled]) -> Compiled | None:
    if not tests:
        return None
    joined = tests[0]
    for more in tests[1:]:
        joined = _both(joined, more)
    return joined


def _both(a: Compiled, b: Compiled) -> Compiled:
    fa, fb = a.fn, b.fn
    return Compiled(lambda s, e: fa(s, e) and fb(s, e), "bool")


def _names(text: Any) -> set[str]:
    try:
        return names(parse(str(text)))
    except ExprError:
        return set()


def _ends(r: _Reader, raw: Any) -> list[End]:
    out: list[End] = []
    if not isinstance(raw, list) or not raw:
        r.fail(("end",), "expected how the game ends: a list such as [{wins: count(their.army) == 0}]")
        return out
    for i, spec in enumerate(raw):
        path: fx.Path = ("end", i)
        if not isinstance(spec, dict):
            r.fail(path, "expected {wins: test}, {loses: test}, {draw: test} or {when: test, most: score}")
            continue
        kinds = [k for k in ("wins", "loses", "draw", "when") if k in spec]
        if len(kinds) != 1 or not r.keys(spec, path, ("wins", "loses", "draw", "when", "most", "as", "after")):
            if len(kinds) != 1:
                r.fail(path, "expected one of wins:, loses:, draw: or when: (with most:)")
            continue
        kind = kinds[0]
        if kind == "loses" and r.players > 2:  # with two, the other wins; with more, who would is not said
            r.fail((*path, kind), f"loses: ends a two-player game; with {r.players} players write wins: or when:/most:")
            continue
        how = spec.get("as", "normal")
        if how not in ("normal", "stalemate", "cap"):
            r.fail((*path, "as"), f"as: expected normal, stalemate or cap, found {how!r}")
            continue
        after = spec.get("after", "move")
        if after not in ("move", "turn"):
            r.fail((*path, "after"), f"after: expected move (every move) or turn (as a turn ends), found {after!r}")
            continue
        test = r.expr(spec[kind], (*path, kind), {}, "bool")
        score = None
        if kind == "when":
            if "most" not in spec:
                r.fail(path, "when: needs most: the score whose highest wins (equal: a draw)")
                continue
            score = r.expr(spec["most"], (*path, "most"), {}, "number")
            kind = "most"
        elif "most" in spec:
            r.fail((*path, "most"), "most: goes with when:")
            continue
        if test is not None and (kind != "most" or score is not None):
            out.append(End(kind, test, score, how, after, _end_reads(spec[kind], r.zones.keys() | r.counters.keys())))
    return out


# The words an end's test may hold besides zones' and counters' names and still read only the zones and counters it
# names: the seats' prefixes, the operators, and the functions whose answer is of their arguments alone
_PURE = frozenset(
    ("my", "their", "and", "or", "not", "is", "in", "if", "else", "true", "false")
    + ("count", "open", "empty", "full", "top", "min", "max", "abs", "sum")
)


def _end_reads(text: Any, known: set[str]) -> frozenset[str] | None:
    """The zones and counters (known: their names) a test's text can read; None when it holds any other word (turn,
    moves, me, card, a field, a check, game.): it may then read anything. A rule option (rules.hand_limit) is fixed."""
    words = set(re.findall(r"[A-Za-z_]\w*", re.sub(r"(?<![.\w])rules\.\w+", "", str(text))))
    if any(word not in known and word not in _PURE for word in words):
        return None
    return frozenset(words & known)


def _heuristic(r: _Reader, raw: Any) -> tuple[Compiled | None, float, str]:
    if raw is None:
        return None, 1.0, "clamp"
    if not r.keys(raw, ("heuristic",), ("value", "scale", "curve"), ("value",)):
        return None, 1.0, "clamp"
    curve = raw.get("curve", "clamp")
    if curve not in ("clamp", "tanh"):
        r.fail(("heuristic", "curve"), f"curve: expected clamp or tanh, found {curve!r}")
        return None, 1.0, "clamp"
    value = r.expr(raw["value"], ("heuristic", "value"), {}, "number")
    scale = raw.get("scale", 1)
    if isinstance(scale, bool) or not isinstance(scale, int | float) or scale <= 0:
        r.fail(("heuristic", "scale"), f"scale: expected a number above 0, found {scale!r}")
        return None, 1.0, "clamp"
    return value, float(scale), curve
