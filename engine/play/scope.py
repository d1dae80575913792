"""What the rules language's names mean: a player's counters and zones, the cards' fields, rule options, tables.

my.tokens and their.study name the counters and zones of the player a rule is about and of the next
player; a zone declared for the whole game goes by its name alone (deck, discard). card, target and it are
cards (card.era, card.effect.amount read their fields); rules.<id> is a rule option of game.yaml and
game.<table> one of its tables (game.eras[card.era].power). count, open, empty, full, top, min, max, abs,
all and any are the functions; a check the rule book names is called like one (requirement(need)). A row of piles
(my.flags) and a counter of piles (claimed) are read a pile at a time, my.flags[pile], claimed[pile].
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.play import patterns
from engine.play.expr import (
    COUNT,
    COUNTER,
    GAME,
    MINE,
    THEIRS,
    TURN,
    ZONE,
    Compiled,
    Compiler,
    ExprError,
    Fn,
    Node,
    RuleError,
    const,
    kind_of,
    read_against,
    same,
    truthy,
)
from engine.play.grid import GRID_FUNCTIONS, grid_function
from engine.play.patterns import PATTERN_FUNCTIONS

NO_CARD = -1  # an open slot


@dataclass
class Zone:
    """A place cards lie: a pile, a hand, a row of slots; the whole game's or one for each player."""

    name: str
    base: int  # its first index among the position's zones (each player's own follow it, seat by seat)
    per_player: bool
    visible: str  # all, owner or none: who may see its cards
    order: str  # pile (as they came, the top last) or sorted (in the game's order of cards)
    limit: int | None = None  # most cards it holds
    overflow: str | None = None  # where a card goes that finds it full
    holds: Compiled | None = None  # which cards it may hold (a condition on card), when it matters to a deal
    slots: tuple[str, ...] | None = None  # a row of slots: their keys (a table's ids), each holding one card
    slot_of: Compiled | None = None  # which slot a card takes: its key
    start: str | list[str] | None = None  # the deck whose cards it holds as the game begins (a list: one a seat)
    grid: tuple[int, int] | None = None  # a grid's rows and columns: a cell each holds one card and its owner
    home: Compiled | None = None  # a grid's row where a seat (me) deploys
    reach: tuple[str, ...] = ()  # by card: what it attacks from its cell (REACHES)
    enter_enemy_home: bool = True  # whether a card may step onto another seat's home row
    marks: dict[str, Compiled] = field(default_factory=dict)  # numbers a card carries on the grid, from its entry
    hit_points: int = -1  # which mark is its hit points (its index among the marks, owner's being 0)
    reserve: Compiled | None = None  # cards a seat (me) may still bring onto the grid: for progress()
    layout: Any = None  # a grid's steps and reaches (grid.Layout), worked out once the rules are read
    piles: int = 0  # a row of piles (piles:): how many, each a zone of its own (0: one zone, no row)
    step: int = 1  # how far one pile lies from the next among the position's zones: a pile holds every seat's side

    @property
    def cells(self) -> int:
        return self.grid[0] * self.grid[1] if self.grid is not None else 0

    def mark_index(self, name: str) -> int:
        """A mark's row in the position's marks of the grid: the owner first, then the declared marks in order."""
        return 0 if name == "owner" else 1 + list(self.marks).index(name)

    def index(self, seat: int) -> int:
        return self.base + seat if self.per_player else self.base

    def span(self, players: int) -> int:
        """How many of the position's zones it is: one, one a seat, or for a row that for each of its piles."""
        return (players if self.per_player else 1) * max(1, self.piles)

    def hidden_from(self, seat: int, owner: int) -> bool:
        return self.visible == "none" or (self.visible == "owner" and owner != seat)

    @property
    def stride(self) -> int:
        """How many places a target in it is numbered among: its slots, its limit, else as many as a card count."""
        if self.slots is not None:
            return len(self.slots)
        if self.grid is not None:
            return self.cells
        return self.limit if self.limit is not None else 0


@dataclass
class Counter:
    """A number the game keeps: each player's (tokens) or the whole game's."""

    name: str
    index: int
    per_player: bool
    start: Compiled
    low: Compiled | None = None
    high: Compiled | None = None
    piles: int = 0  # a value for each pile of a row (piles:), each seat's side by side (0: one value a seat)


@dataclass
class Named:
    """A check or an effect the rule book names, given one value: one body, or a case for each kind."""

    name: str
    given: str
    cases: dict[str, Any] = field(default_factory=dict)  # kind -> compiled body (a Compiled, or ops)
    body: Any = None  # one body for every value
    place: str = ""  # where it is written, for a value with no case

    def pick(self, value: Any) -> Any:
        if self.body is not None:
            return self.body
        # a value of the data's {kind: ..., amount: ...} form goes by its kind; a word (a choice's value) by itself
        # (the exact types first: isinstance against Mapping goes through the abc machinery, ten times the cost)
        kind = value.get("kind") if type(value) is dict or isinstance(value, Mapping) else value
        found = self.cases.get(kind) if type(kind) is str or isinstance(kind, str) else None
        if found is None:
            raise RuleError(f"{self.place}: {self.name} has no case for {kind!r} (its cases: {', '.join(self.cases)})")
        return found


class Scope(Compiler):
    """Compiles expressions against one rule book's declarations."""

    def __init__(
        self,
        players: int,
        zones: dict[str, Zone],
        counters: dict[str, Counter],
        rules: Callable[[str], Any],
        tables: dict[str, dict[str, dict[str, Any]]],
        fields: Sequence[Mapping[str, Any]],
        checks: dict[str, Named],
    ) -> None:
        self.players = players
        self.zones, self.counters, self.rules, self.tables = zones, counters, rules, tables
        self.fields = fields  # each card's fields by its number: id, name, kind, copies and its declared ones
        self.cards = len(fields)
        self.checks = checks
        self.patterns: dict[str, Any] = {}  # play.yaml's patterns: by name (patterns.Pattern), for strength()...

    # -- names ---------------------------------------------------------------------------------
    def name(self, parts: list[str], column: int, bound: dict[str, str]) -> Compiled:
        root, rest = parts[0], parts[1:]
        if root in bound:
            kind = bound[root]
            if not rest:  # meta: what reads a bound cell (field.acted[from], steps(field, from)) reads it itself
                return Compiled(_bound(root), kind, meta=("bound", root))
            return self._fields(_bound(root), kind, rest, column, root)
        if root in ("my", "their"):
            if not rest:
                raise ExprError(f"expected a counter or zone after {root}., such as {root}.hand", column)
            return self._players(root, rest, column)
        if root == "rules":
            if len(rest) != 1:
                raise ExprError("expected one rule option's id after rules., such as rules.hand_limit", column)
            try:
                value = self.rules(rest[0])
            except Exception as exc:  # MissingRule: no such option in game.yaml
                raise ExprError(f"rules.{rest[0]}: game.yaml has no rule option {rest[0]!r}", column) from exc
            return const(value, kind_of(value))
        if root == "game":
            if not rest or rest[0] not in self.tables:
                tables = ", ".join(sorted(self.tables)) or "none"
                raise ExprError(f"expected a table of game.yaml after game. (its tables: {tables})", column)
            if len(rest) > 1:
                raise ExprError(
                    f"expected game.{rest[0]}[id] and then a field, such as game.eras[card.era].power", column
                )
            return const(self.tables[rest[0]], "table")
        if root in ("me", "opponent"):
            if rest:
                raise ExprError(f"{root} is a seat: write my.{rest[0]} or their.{rest[0]}", column)
            players = self.players
            if root == "me":
                return Compiled(lambda s, e: e["me"], "number")
            return Compiled(lambda s, e: (e["me"] + 1) % players, "number")
        if root in ("turn", "moves", "players") and not rest:
            if root == "players":
                return const(self.players, "number")
            if root == "turn":
                return Compiled(lambda s, e: s.turn, "number", reads=(TURN, 0, GAME))
            return Compiled(lambda s, e: s.moves, "number")
        if root in self.zones and not self.zones[root].per_player:
            return self._zone(self.zones[root], None, rest, column)
        if root in self.counters and not self.counters[root].per_player:
            if self.counters[root].piles:
                return _row_counter(self.counters[root], None, rest, column)
            if rest:
                raise ExprError(f"{root} is a number: it has no {'.'.join(rest)}", column)
            index = self.counters[root].index
            # meta: a comparison with a fixed number reads the counter itself, without this call
            return Compiled(
                lambda s, e: s.values[index][0], "number", meta=("counter", index), reads=(COUNTER, index, GAME)
            )
        if root in self.zones or root in self.counters:
            raise ExprError(f"{root} is each player's: write my.{root} or their.{root}", column)
        known = sorted({*bound, "my", "their", "rules", "game", "me", "opponent", "turn", "moves", "players"})
        known += sorted(n for n, z in self.zones.items() if not z.per_player)
        raise ExprError(f"unknown name {root!r} (expected one of: {', '.join(known)})", column)

    def _players(self, root: str, rest: list[str], column: int) -> Compiled:
        name = rest[0]
        players = self.players
        seat: Fn = _my_seat if root == "my" else (lambda s, e: (e["me"] + 1) % players)
        if name in self.counters and self.counters[name].per_player:
            if self.counters[name].piles:
                return _row_counter(self.counters[name], seat, rest[1:], column)
            if len(rest) > 1:
                raise ExprError(f"{root}.{name} is a number: it has no {'.'.join(rest[1:])}", column)
            index = self.counters[name].index
            if root == "my":  # meta: a bound (max: my.cap) reads the seat's value itself, without this call
                return Compiled(
                    lambda s, e: s.values[index][e["me"]], "number", meta=("mine", index), reads=(COUNTER, index, MINE)
                )
            return Compiled(
                lambda s, e: s.values[index][(e["me"] + 1) % players], "number", reads=(COUNTER, index, THEIRS)
            )
        if name in self.zones and self.zones[name].per_player:
            return self._zone(self.zones[name], seat, rest[1:], column)
        mine = sorted(
            [
                *(n for n, c in self.counters.items() if c.per_player),
                *(n for n, z in self.zones.items() if z.per_player),
            ]
        )
        raise ExprError(f"{root}.{name}: no counter or zone {name!r} of a player (each has: {', '.join(mine)})", column)

    def _zone(self, zone: Zone, seat: Fn | None, rest: list[str], column: int) -> Compiled:
        if zone.grid is not None and seat is None:
            base = zone.base
            if not rest:
                return Compiled(lambda s, e: base, "grid", meta=zone)
            if len(rest) == 1 and (rest[0] == "owner" or rest[0] in zone.marks):
                return Compiled(lambda s, e: base, "marks", meta=(zone, zone.mark_index(rest[0])))
            marks = ", ".join(["owner", *zone.marks])
            raise ExprError(f"{zone.name} is a grid: {zone.name}[cell] is its card, its marks are: {marks}", column)
        if zone.piles:  # a row: its piles are read by number, my.flags[pile]
            if rest:
                raise ExprError(f"{zone.name} is a row of piles: {zone.name}[pile] is one of them", column)
            first, side = zone.base, seat
            # reads: whose side it is (ZONE: a reference no comparison reads), for _pile to read a pile in place
            if side is None:
                return Compiled(lambda s, e: first, "piles", meta=zone, reads=(ZONE, first, GAME))
            whose = MINE if side is _my_seat else THEIRS
            return Compiled(lambda s, e: first + side(s, e), "piles", meta=zone, reads=(ZONE, first, whose))
        if rest:
            raise ExprError(
                f"{zone.name} is a zone: count({zone.name}) counts it, top({zone.name}) is its top card", column
            )
        base = zone.base
        kind = "slots" if zone.slots is not None else "zone"
        if seat is None:
            return Compiled(lambda s, e: base, kind, meta=zone, reads=(ZONE, base, GAME))
        if seat is _my_seat:
            return Compiled(lambda s, e: base + e["me"], kind, meta=zone, reads=(ZONE, base, MINE))
        players = self.players  # their.<zone>: the next seat's, written in rather than called
        return Compiled(lambda s, e: base + (e["me"] + 1) % players, kind, meta=zone, reads=(ZONE, base, THEIRS))

    def _fields(self, get: Fn, kind: str, rest: list[str], column: int, root: str) -> Compiled:
        """A bound value and the fields read from it: a card's by its number, a value's by its keys."""
        if not rest:
            return Compiled(get, kind)
        if kind == "card":
            fields, first, more = self.fields, rest[0], rest[1:]

            def card_field(s: Any, e: dict[str, Any]) -> Any:
                card = get(s, e)
                if card is None or card < 0:
                    raise RuleError(f"column {column}: {root} is no card here")
                return fields[card].get(first)

            if more:
                return self.fold(_keys(card_field, more, column, root))
            return self.fold(Compiled(card_field, "any", card=root))
        if kind in ("number", "bool", "text"):
            raise ExprError(f"{root} is a {kind}: it has no {'.'.join(rest)}", column)
        if len(rest) == 1:  # need.amount: the binding and its field read in one call
            key = rest[0]

            def field_of(s: Any, e: dict[str, Any]) -> Any:
                value = e.get(root)
                if type(value) is not dict and not isinstance(value, Mapping):  # the exact type first, as _keys
                    raise RuleError(f"column {column}: {value!r} has no field {key!r}")
                return value.get(key)

            return Compiled(field_of, "any")
        return _keys(get, rest, column)

    def index(self, base: Compiled, key: Compiled, after: list[str], column: int) -> Compiled:
        if base.kind in ("piles", "counts"):
            return _pile(base, key, after, column, self.players)
        fb, fk = base.fn, key.fn
        if base.kind == "table":
            rows = base.fn(None, {})

            def row(s: Any, e: dict[str, Any]) -> Any:
                found = rows.get(fk(s, e))
                if found is None:
                    raise RuleError(f"column {column}: no row {fk(s, e)!r} in the table")
                return found

            card = key.card if not key.constant else None
            if after:
                return self.fold(_keys(row, after, column, card))
            return self.fold(Compiled(row, "row", card=card))
        if base.kind == "slots":
            zone: Zone = base.meta
            assert zone.slots is not None
            where = {k: i for i, k in enumerate(zone.slots)}

            def slot(s: Any, e: dict[str, Any]) -> Any:
                i = where.get(fk(s, e))
                if i is None:
                    raise RuleError(f"column {column}: {zone.name} has no slot {fk(s, e)!r}")
                card = s.zones[fb(s, e)][i]
                return None if card < 0 else card

            found = slot
            if key.card is not None and not key.constant and base.reads is not None and base.reads[2] == MINE:
                mine: str = key.card
                # my.timeline[card.era]: each card's slot worked out now (its key reads the card alone), the seat's row
                # read in place; a card with no slot is asked as slot() asks, to say so in play
                try:
                    index = [where.get(fk(None, {mine: c})) for c in range(self.cards)]
                except (RuleError, TypeError, ArithmeticError, KeyError, AttributeError):
                    index = []
                at = base.reads[1]

                def slot_of_card(s: Any, e: dict[str, Any]) -> Any:
                    c = e.get(mine)
                    i = index[c] if type(c) is int and 0 <= c < len(index) else None
                    if i is None:
                        return slot(s, e)
                    card = s.zones[at + e["me"]][i]
                    return None if card < 0 else card

                found = slot_of_card
            if after:
                return self._fields(found, "card", after, column, zone.name)
            return Compiled(found, "card")
        if base.kind == "grid":
            grid: Zone = base.meta
            cells = grid.cells

            def card_at(s: Any, e: dict[str, Any]) -> Any:
                i = fk(s, e)
                if type(i) is not int or not 0 <= i < cells:
                    raise RuleError(f"column {column}: {grid.name} has no cell {i!r}")
                card = s.zones[fb(s, e)][i]
                return None if card < 0 else card

            if after:
                return self._fields(card_at, "card", after, column, grid.name)
            return Compiled(card_at, "card")
        if base.kind == "marks":
            grid, mark = base.meta
            cells, at = grid.cells, grid.base  # a grid is the whole game's: where it lies is fixed
            if after:
                raise ExprError("a mark is a number: it has no fields", column)
            name = key.meta[1] if type(key.meta) is tuple and key.meta[0] == "bound" else None

            def mark_at(s: Any, e: dict[str, Any]) -> Any:
                i = fk(s, e) if name is None else e.get(name)
                if type(i) is not int or not 0 <= i < cells:
                    raise RuleError(f"column {column}: {grid.name} has no cell {i!r}")
                return s.marks[at][mark][i]

            return Compiled(mark_at, "number")
        if base.kind == "zone":
            raise ExprError(f"{base.meta.name} is a zone of no slots: top() or count() read it", column)
        if after:
            return _keys(lambda s, e: _item(fb(s, e), fk(s, e), column), after, column)
        return Compiled(lambda s, e: _item(fb(s, e), fk(s, e), column), "any")

    def contains(self, item: Compiled, group: Compiled, column: int) -> Compiled:
        if group.kind in ("piles", "counts"):
            raise ExprError(f"{group.meta.name} is a row of piles: ask of one of them, {group.meta.name}[pile]", column)
        fi, fg = item.fn, group.fn
        if group.kind in ("zone", "slots"):
            return Compiled(lambda s, e: fi(s, e) in s.zones[fg(s, e)], "bool")
        return Compiled(lambda s, e: any(same(fi(s, e), x) for x in _items(fg(s, e), column)), "bool")

    # -- functions -----------------------------------------------------------------------------
    def call(self, fname: str, nodes: list[Node], column: int, bound: dict[str, str]) -> Compiled:
        if fname in PATTERN_FUNCTIONS:  # the first is a pattern's name: not a value
            return patterns.function(self, fname, nodes, column, bound)
        if fname in ("all", "any", "sum"):  # the second is a check's name, or a card's field: not a value
            args = [self.compile(nodes[0], bound)] if nodes else []
        else:
            args = [self.compile(n, bound) for n in nodes]
        if fname in self.checks:
            if len(args) != 1:
                raise ExprError(f"{fname}(...) takes one value, its {self.checks[fname].given}", column)
            return self._check(self.checks[fname], args[0].fn)
        if fname in ("all", "any"):
            if len(nodes) != 2 or nodes[1][0] != "name" or len(nodes[1][2]) != 1 or nodes[1][2][0] not in self.checks:
                checks = ", ".join(self.checks) or "none yet: declare them under checks:"
                raise ExprError(f"{fname}(list, check): expected a list and a check's name (checks: {checks})", column)
            check, items = self.checks[nodes[1][2][0]], args[0].fn
            given, case_of, every = check.given, check.pick, fname == "all"
            if args[0].kind in ("zone", "slots"):  # a zone's cards, each given as its fields (c.kind, c.value)
                items = _cards_of(items, self.fields)

            # the check asked of each item in turn, as the quantifier would (stopping at the first that settles
            # it), written as a loop: a generator and a call an item were most of a Tanach card's test
            def over(s: Any, e: dict[str, Any]) -> bool:
                for x in _items(items(s, e), column):
                    body: Compiled = case_of(x)
                    e[given] = x  # bound in place: only the check's own body names it
                    if truthy_bool(body.fn(s, e)) is not every:
                        return not every
                return every

            name = args[0].card
            if name is None or args[0].constant:
                return Compiled(over, "bool")
            # a list read off one card alone (card.requires): each card's items and the case each takes, looked up once
            # (at the first ask, when every check has compiled) rather than at every list of moves; a card whose list
            # cannot be read so (no case for an item) is asked as over() asks, to say so in play
            tables: list[tuple[tuple[Fn, Any], ...] | None] = []

            def by_card(c: int) -> tuple[tuple[Fn, Any], ...] | None:
                try:
                    return tuple((case_of(x).fn, x) for x in _items(items(None, {name: c}), column))
                except (RuleError, TypeError, ArithmeticError, KeyError, AttributeError):
                    return None

            def over_card(s: Any, e: dict[str, Any]) -> bool:
                card = e.get(name)
                if not tables:
                    tables.extend(by_card(c) for c in range(self.cards))
                pairs = tables[card] if type(card) is int and 0 <= card < len(tables) else None
                if pairs is None:
                    return over(s, e)
                for fn, x in pairs:
                    e[given] = x  # bound in place: only the check's own body names it
                    holds = fn(s, e)
                    if holds is not True and holds is not False:  # truthy_bool's answer, without its call
                        holds = bool(holds)
                    if holds is not every:
                        return not every
                return every

            return Compiled(over_card, "bool")
        if fname in ("min", "max"):
            if not args:
                raise ExprError(f"{fname}() needs at least one value", column)
            for a in args:
                self.need_number(a, column)
            fns = [a.fn for a in args]
            pick = min if fname == "min" else max
            return self.fold(Compiled(lambda s, e: pick(f(s, e) for f in fns), "number", all(a.constant for a in args)))
        if fname == "abs":
            self._arity(fname, args, 1, column)
            self.need_number(args[0], column)
            f = args[0].fn
            return self.fold(Compiled(lambda s, e: abs(f(s, e)), "number", args[0].constant))
        if fname == "sum":
            return self._sum(nodes, args, column)
        if fname in GRID_FUNCTIONS:
            return grid_function(fname, args, column)
        if fname in ROW_FUNCTIONS:
            return _row_function(fname, args, column, self.players)
        if fname in ("count", "open", "empty", "full", "top"):
            self._arity(fname, args, 1, column)
            return self._zone_function(fname, args[0], column)
        functions = [
            "count", "open", "empty", "full", "top", "min", "max", "abs", "all", "any", "sum", *GRID_FUNCTIONS,
            *ROW_FUNCTIONS, *PATTERN_FUNCTIONS, *self.checks,
        ]  # fmt: skip
        raise ExprError(f"unknown function {fname!r} (expected one of: {', '.join(functions)})", column)

    def _sum(self, nodes: list[Node], args: list[Compiled], column: int) -> Compiled:
        """sum(my.hand, hp): a number field of the cards in a zone, added up (a card without it counts 0);
        sum(my.worth): a counter of piles' values, the seat's, added up over the row."""
        if len(args) == 1 and args[0].kind == "counts":
            counter, fr, players = args[0].meta, args[0].fn, self.players
            index, piles = counter.index, counter.piles

            def over_row(s: Any, e: dict[str, Any]) -> Any:
                values, seat = s.values[index], fr(s, e)
                total = 0
                for i in range(piles):  # (a loop, not a generator: that is a call of its own)
                    total += values[i * players + seat]
                return total

            return Compiled(over_row, "number")
        if len(nodes) != 2 or nodes[1][0] != "name" or len(nodes[1][2]) != 1 or args[0].kind not in ("zone", "slots"):
            raise ExprError(
                "sum(zone, field): expected a zone and a card field's name, such as sum(my.hand, hp), or a counter of "
                "piles, such as sum(my.worth)",
                column,
            )
        name = nodes[1][2][0]
        values = []
        for card in self.fields:
            value = card.get(name, 0)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ExprError(f"sum(): {card['id']}'s {name} is no number ({value!r})", column)
            values.append(value)
        table, f = tuple(values), args[0].fn
        return Compiled(lambda s, e: sum([table[c] for c in s.zones[f(s, e)] if c >= 0]), "number")

    def _arity(self, fname: str, args: list[Compiled], n: int, column: int) -> None:
        if len(args) != n:
            raise ExprError(f"{fname}() takes {n} value{'s' if n != 1 else ''}, given {len(args)}", column)

    def _check(self, check: Named, value: Fn) -> Compiled:
        given = check.given

        def holds(s: Any, e: dict[str, Any]) -> bool:
            x = value(s, e)
            body: Compiled = check.pick(x)
            e[given] = x  # bound in place: only the check's own body names it
            return bool(body.fn(s, e))

        return Compiled(holds, "bool")

    def _zone_function(self, fname: str, arg: Compiled, column: int) -> Compiled:
        if arg.kind in ("piles", "counts"):
            name = f"my.{arg.meta.name}" if arg.meta.per_player else arg.meta.name
            raise ExprError(
                f"{fname}(): {name} is a row of piles: ask of one of them, such as {fname}({name}[pile])", column
            )
        f = arg.fn
        if arg.reads is not None and arg.reads[2] != THEIRS and arg.kind in ("slots", "zone"):
            if fname == "full" and arg.kind == "zone" and arg.meta.limit is not None:
                # its count against its limit, as a comparison reads it: not full(my.study) is then one call too
                return read_against((COUNT, arg.reads[1], arg.reads[2]), operator.ge, arg.meta.limit, self.players)
            fused = _fused(fname, arg)
            if fused is not None:
                return fused
        if arg.kind == "grid":
            if fname == "count":
                return Compiled(lambda s, e: _filled(s.zones[f(s, e)]), "number")
            if fname == "empty":
                return Compiled(lambda s, e: _filled(s.zones[f(s, e)]) == 0, "bool")
            raise ExprError(f"{fname}() reads a pile; a grid is read by count(), empty() and units()", column)
        if arg.kind == "slots":
            if fname == "count":
                # a row of slots holds card numbers and NO_CARD alone: its open slots are NO_CARD's count (list.count
                # and in run in C, where a generator over the row was a call a slot)
                return Compiled(lambda s, e: _filled(s.zones[f(s, e)]), "number")
            if fname == "open":
                return Compiled(lambda s, e: s.zones[f(s, e)].count(NO_CARD), "number")
            if fname == "empty":
                return Compiled(lambda s, e: _filled(s.zones[f(s, e)]) == 0, "bool")
            if fname == "full":
                return Compiled(lambda s, e: NO_CARD not in s.zones[f(s, e)], "bool")
            raise ExprError("top() reads a pile, not a row of slots", column)
        if arg.kind == "zone":
            zone: Zone = arg.meta
            if fname == "count":
                counted = (COUNT, zone.base, arg.reads[2]) if arg.reads is not None else None
                return Compiled(lambda s, e: len(s.zones[f(s, e)]), "number", reads=counted)
            if fname == "empty":
                return Compiled(lambda s, e: not s.zones[f(s, e)], "bool")
            if fname == "top":
                return Compiled(lambda s, e: s.zones[f(s, e)][-1] if s.zones[f(s, e)] else None, "card")
            if zone.limit is None:
                raise ExprError(f"{fname}({zone.name}): {zone.name} has no limit", column)
            limit = zone.limit
            if fname == "open":
                return Compiled(lambda s, e: limit - len(s.zones[f(s, e)]), "number")
            return Compiled(lambda s, e: len(s.zones[f(s, e)]) >= limit, "bool")
        if fname == "count":
            return Compiled(lambda s, e: len(_items(f(s, e), column)), "number")
        if fname == "empty":
            if arg.kind == "card":  # an open slot, my.timeline[card.era]: no card there
                return Compiled(lambda s, e: f(s, e) is None, "bool")
            return Compiled(lambda s, e: not truthy(f(s, e)) or f(s, e) == [], "bool")
        raise ExprError(f"{fname}() reads a zone, found a {arg.kind}", column)


def _fused(fname: str, arg: Compiled) -> Compiled | None:
    """count, open, empty or full of my.<zone> or a game's zone in one closure, the zone's index written in: the
    commonest tests (full(my.timeline) after every move, not full(my.study) at every list of moves) were two calls."""
    assert arg.reads is not None
    zone: Zone = arg.meta
    base, mine, slots, limit = arg.reads[1], arg.reads[2] == MINE, arg.kind == "slots", zone.limit
    if fname == "count" and not slots:  # (COUNT: a comparison with a number reads it itself, as before)
        counted = (COUNT, base, arg.reads[2])
        if mine:
            return Compiled(lambda s, e: len(s.zones[base + e["me"]]), "number", reads=counted)
        return Compiled(lambda s, e: len(s.zones[base]), "number", reads=counted)
    if fname == "full" and slots:
        if mine:
            return Compiled(lambda s, e: NO_CARD not in s.zones[base + e["me"]], "bool")
        return Compiled(lambda s, e: NO_CARD not in s.zones[base], "bool")
    if fname == "open" and slots:
        if mine:
            return Compiled(lambda s, e: s.zones[base + e["me"]].count(NO_CARD), "number")
        return Compiled(lambda s, e: s.zones[base].count(NO_CARD), "number")
    if fname == "empty" and not slots:
        if mine:
            return Compiled(lambda s, e: not s.zones[base + e["me"]], "bool")
        return Compiled(lambda s, e: not s.zones[base], "bool")
    if fname == "full" and not slots and limit is not None:
        if mine:
            return Compiled(lambda s, e: len(s.zones[base + e["me"]]) >= limit, "bool")
        return Compiled(lambda s, e: len(s.zones[base]) >= limit, "bool")
    return None


ROW_FUNCTIONS = ("piles", "longest")


def _row_counter(counter: Counter, seat: Fn | None, rest: list[str], column: int) -> Compiled:
    """A counter with a value for each pile (claimed, my.done): read by a pile's number, claimed[pile]."""
    if rest:
        raise ExprError(f"{counter.name} has a value for each pile: {counter.name}[pile] is one", column)
    whose = GAME if seat is None else MINE if seat is _my_seat else THEIRS  # (as a row's: for _pile)
    return Compiled(seat or (lambda s, e: 0), "counts", meta=counter, reads=(ZONE, counter.index, whose))


def _pile(base: Compiled, key: Compiled, after: list[str], column: int, players: int) -> Compiled:
    """One pile of a row (my.flags[pile]: a zone) or a counter's value for one pile (claimed[pile]: a number)."""
    row = base.meta
    if after:
        raise ExprError(f"{row.name}[pile] has no {'.'.join(after)}", column)
    if key.kind not in ("number", "any"):
        raise ExprError(f"{row.name}[...]: expected a pile's number (from 0), found a {key.kind}", column)
    fb, fk, piles = base.fn, key.fn, row.piles

    def pile(s: Any, e: dict[str, Any]) -> int:
        i = fk(s, e)
        if type(i) is not int or not 0 <= i < piles:
            raise RuleError(f"column {column}: {row.name} has no pile {i!r} (its piles: 0 to {piles - 1})")
        return i

    meta = key.meta
    name = meta[1] if type(meta) is tuple and meta[0] == "bound" else None  # a bound pile (to, pile): read in place
    whose = base.reads[2] if base.reads is not None else None
    if base.kind == "piles":  # the pile's own zone: a seat's side of it, where a row lies pile by pile
        step, first = row.step, row.base
        if name is not None and whose in (MINE, GAME):  # the commonest, my.flags[to], written in: asked every offer
            mine = whose == MINE

            def side(s: Any, e: dict[str, Any]) -> int:
                i = e.get(name)
                if type(i) is not int or not 0 <= i < piles:
                    raise RuleError(f"column {column}: {row.name} has no pile {i!r} (its piles: 0 to {piles - 1})")
                return first + i * step + e["me"] if mine else first + i * step

            return Compiled(side, "zone", meta=row)
        return Compiled(lambda s, e: fb(s, e) + pile(s, e) * step, "zone", meta=row)
    index = row.index  # a counter's values lie pile by pile too, each pile's seats side by side
    if name is not None and whose in (MINE, GAME):  # claimed[to], my.done[pile]: written in, as above
        mine = whose == MINE

        def value(s: Any, e: dict[str, Any]) -> Any:
            i = e.get(name)
            if type(i) is not int or not 0 <= i < piles:
                raise RuleError(f"column {column}: {row.name} has no pile {i!r} (its piles: 0 to {piles - 1})")
            return s.values[index][i * players + e["me"] if mine else i * players]

        return Compiled(value, "number")
    return Compiled(lambda s, e: s.values[index][pile(s, e) * players + fb(s, e)], "number")


def _row_function(fname: str, args: list[Compiled], column: int, players: int) -> Compiled:
    """piles(row): its piles' numbers, each a place a move goes to (to:) or an effect takes in turn (each:);
    longest(counter, value): the most piles side by side whose value it is (flags held in a row)."""
    wanted = 1 if fname == "piles" else 2
    if len(args) != wanted or args[0].kind not in ("piles", "counts"):
        said = "a row of piles or a counter of one" if fname == "piles" else "a counter of piles and a value"
        raise ExprError(f"{fname}(): expected {said}, such as {_ROW_EXAMPLE[fname]}", column)
    row = args[0].meta
    if fname == "piles":
        numbers = tuple(range(row.piles))
        return Compiled(lambda s, e: numbers, "places", meta=row.piles)
    if args[0].kind != "counts":
        raise ExprError(f"longest(): expected a counter of piles first, found the row {row.name}", column)
    fr, fv, index, piles = args[0].fn, args[1].fn, row.index, row.piles

    def longest(s: Any, e: dict[str, Any]) -> int:
        values, seat, value = s.values[index], fr(s, e), fv(s, e)
        best = run = 0
        for i in range(piles):
            run = run + 1 if values[i * players + seat] == value else 0
            best = max(best, run)
        return best

    return Compiled(longest, "number")


_ROW_EXAMPLE = {"piles": "piles(my.flags)", "longest": "longest(claimed, me)"}


def _filled(row: list[int]) -> int:
    return len(row) - row.count(NO_CARD)


def truthy_bool(value: Any) -> bool:
    """bool(value), the answer a check's body gives: at once for a bool, the commonest."""
    return value if value is True or value is False else bool(value)


def _my_seat(s: Any, e: dict[str, Any]) -> int:  # the seat a rule is about: my.hand's
    return int(e["me"])


def _bound(name: str) -> Fn:
    return lambda s, e: e.get(name)


def _keys(get: Fn, keys: list[str], column: int, card: str | None = None) -> Compiled:
    """Fields of a value from the data (effect.amount): a missing one is none."""

    def read(s: Any, e: dict[str, Any]) -> Any:
        value = get(s, e)
        for key in keys:
            if type(value) is not dict and not isinstance(value, Mapping):  # the exact type first: abc's check is slow
                raise RuleError(f"column {column}: {value!r} has no field {key!r}")
            value = value.get(key)
        return value

    return Compiled(read, "any", card=card)


def _item(value: Any, key: Any, column: int) -> Any:
    if isinstance(value, Mapping):
        return value.get(key)
    if isinstance(value, list | tuple) and isinstance(key, int) and not isinstance(key, bool):
        return value[key] if -len(value) <= key < len(value) else None
    raise RuleError(f"column {column}: cannot look up {key!r} in {value!r}")


def _cards_of(zone: Fn, fields: Sequence[Mapping[str, Any]]) -> Fn:
    """The fields of each card lying in a zone (all() and any() over a zone ask their check of each card)."""
    return lambda s, e: [fields[c] for c in s.zones[zone(s, e)] if c >= 0]


def _items(value: Any, column: int) -> Sequence[Any]:
    if value is None:
        return ()
    if isinstance(value, list | tuple):
        return value
    raise RuleError(f"column {column}: expected a list, found {value!r}")
