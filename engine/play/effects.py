"""The rules language's effects: each entry of a do: list compiled into an operation on a position.

An effect is a mapping of one key (gain, lose, set, move, draw, deal, first_player, reveal, later, let,
apply, roll, win) or one word (end_turn, extra_turn, draw_game); `if:` with then: and else: chooses.
Each compiles, when the rules are read, into a closure op(state, bindings) that the position runs in
turn; an effect that needs chance (a card drawn, a die rolled, a first player) asks for it and the
position waits at a chance node until it comes.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from engine.play.expr import Compiled, RuleError, truthy
from engine.play.scope import Counter, Named, Zone
from printkit.core.errors import display_path
from printkit.data.playfile import EFFECTS, WHO, WORDS

if TYPE_CHECKING:
    from engine.play.state import PlayState

Op = Callable[["PlayState", dict[str, Any]], None]
Block = tuple[Op, ...]
Path = tuple[str | int, ...]

MAX_COUNT = 10_000  # cards one draw, deal or move may take: no game needs more, and it bounds a step

# The ops that only change the position's zones, counters and bindings: none pushes effects, asks chance or ends the
# game. A block of them alone runs in place, without a frame of the effect stack (most moves' effects: the stack's
# bookkeeping cost as much as the effects themselves).
_PLAIN: weakref.WeakSet[Op] = weakref.WeakSet()


def plain(op: Op) -> Op:
    """op, noted as one that only changes the position."""
    _PLAIN.add(op)
    return op


def is_plain(ops: Block) -> bool:
    """Whether every op of a block only changes the position: it may then run in place, in order, with no frame."""
    return all(op in _PLAIN for op in ops)


# The ops that only change the position and then may ask chance for cards (draw: its cards off the pile): one
# ending a block of plain ops lets the block run in place too, the move waiting on chance with no frame of its own.
_DRAWS: weakref.WeakSet[Op] = weakref.WeakSet()


def drawing(op: Op) -> Op:
    """op, noted as one that only changes the position and then may ask chance for cards."""
    _DRAWS.add(op)
    return op


def ends_in_draw(ops: Block) -> bool:
    """Whether a block is plain ops and then one that may ask chance for cards (a move that draws: most of them)."""
    return bool(ops) and ops[-1] in _DRAWS and is_plain(ops[:-1])


# What each op can write, by name: the zones and counters it may change (a zone's overflow and a drawing pile's refill
# among them), CARD standing for the zone the move's own card or target lies in. An op not noted here may write
# anything: a move whose ops are all noted leaves an end's test that reads none of their names as it found it.
_WRITES: weakref.WeakKeyDictionary[Op, frozenset[str]] = weakref.WeakKeyDictionary()
CARD = "\0card"


def writing(op: Op, names: set[str]) -> Op:
    """op, noted as writing the zones and counters names names (and nothing else)."""
    _WRITES[op] = frozenset(names)
    return op


def writes(ops: Block) -> frozenset[str] | None:
    """The names a block's ops may write, or None when one of them may write anything."""
    out: set[str] = set()
    for op in ops:
        names = _WRITES.get(op)
        if names is None:
            return None
        out |= names
    return frozenset(out)


def _zone_names(reader: Reader, *zones: Compiled | Zone | None) -> set[str] | None:
    """The names of the zones a card may be put in (each with its overflow), or None if one is not known."""
    out: set[str] = set()
    for ref in zones:
        zone = ref if isinstance(ref, Zone) else ref.meta if ref is not None else None
        if not isinstance(zone, Zone):
            return None
        while zone is not None and zone.name not in out:  # a full zone's overflow takes the card, and its own next
            out.add(zone.name)
            zone = reader.zones.get(zone.overflow) if zone.overflow is not None else None
    return out


def _noted(op: Op, names: set[str] | None) -> Op:
    """op, noted as writing names when they are known."""
    return writing(op, names) if names is not None else op


class Reader(Protocol):
    """What compiling an effect needs of the rule book being read: its declarations, and a place for problems."""

    players: int
    counters: dict[str, Counter]
    zones: dict[str, Zone]
    effects: dict[str, Named]
    drawing: tuple[Zone, Zone | None] | None

    def fail(self, path: Path, message: str, at_key: bool = False) -> None: ...

    def expr(self, raw: Any, path: Path, bound: dict[str, str], want: str = "any") -> Compiled | None: ...

    def zone(self, raw: Any, path: Path, bound: dict[str, str]) -> Compiled | None: ...

    def keys(self, raw: Any, path: Path, allowed: tuple[str, ...], required: tuple[str, ...] = ()) -> bool: ...

    def note_apply(self, name: str, path: Path) -> None: ...

    def note_end_turn(self) -> None: ...

    def note_place(self, op: Op, path: Path) -> None: ...


def block(reader: Reader, raw: Any, path: Path, bound: dict[str, str], depth: int = 0) -> Block:
    """A do: list compiled, each problem placed; the ops of the effects that compiled."""
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raw = [raw]
    if depth > 12:
        reader.fail(path, "effects nested more than 12 deep: expected a flatter list")
        return ()
    if len(raw) > 200:
        reader.fail(path, f"{len(raw)} effects in one list: expected at most 200")
        return ()
    ops: list[Op] = []
    for i, item in enumerate(raw):
        binds = isinstance(item, dict) and len(item) == 1 and ("let" in item or "roll" in item)
        # a let or a roll binds its names for the effects after it: it is given the list's own bindings
        op = effect(reader, item, (*path, i), bound if binds else dict(bound), depth)
        if op is not None:
            reader.note_place(op, (*path, i))
            ops.append(op)
    return tuple(ops)


def placed(s: PlayState, error: RuleError, op: Op | None) -> RuleError:
    """The error said at the place in play.yaml of the effect that met it (the innermost effect run from a frame or
    in place of one; an effect inside an if or an each run in place is said at that if or each), or at the file
    alone where no effect ran (a move's test, an end's); an error already placed is left as it is."""
    if error.placed:
        return error
    book = s.g.book
    where = book.places.get(id(op)) if op is not None else None
    said = RuleError(f"{where or display_path(book.file)}: {error}")
    said.placed = True
    return said


def effect(reader: Reader, raw: Any, path: Path, bound: dict[str, str], depth: int) -> Op | None:
    if isinstance(raw, str):
        if raw == "end_turn":
            reader.note_end_turn()  # a move may end the turn by its effects: each is then followed to its end
            return writing(plain(lambda s, e: s.end_turn_now()), set())
        if raw == "extra_turn":
            return writing(plain(lambda s, e: s.extra_turn(e["me"])), set())
        if raw == "draw_game":
            return lambda s, e: s.finish(None, "normal")
        reader.fail(path, f"unknown effect {raw!r} (expected one of: {', '.join((*EFFECTS, 'if', 'each', *WORDS))})")
        return None
    if not isinstance(raw, dict) or not raw:
        reader.fail(path, "expected an effect: a mapping such as {gain: {tokens: 2}}, or end_turn")
        return None
    if "if" in raw:
        return _choice(reader, raw, path, bound, depth)
    if "each" in raw:
        return _each(reader, raw, path, bound, depth)
    if len(raw) != 1:
        reader.fail(path, f"expected one effect in each entry, found {', '.join(map(str, raw))}: give each its own -")
        return None
    ((name, body),) = raw.items()
    builder = _BUILDERS.get(str(name))
    if builder is None:
        reader.fail(
            (*path, str(name)),
            f"unknown effect {name!r} (expected one of: {', '.join((*EFFECTS, 'if', 'each', *WORDS))})",
            True,
        )
        return None
    return builder(reader, body, (*path, str(name)), bound, depth)


def _seats(who: str) -> Callable[[Any, dict[str, Any]], tuple[int, ...]]:
    if who == "me":
        return lambda s, e: (e["me"],)
    if who == "opponent":
        return lambda s, e: ((e["me"] + 1) % s.g.book.players,)
    return lambda s, e: tuple(range(s.g.book.players))


def _who(reader: Reader, raw: Any, path: Path) -> str | None:
    who = "me" if raw is None else raw
    if who not in WHO:
        reader.fail(path, f"who: expected me, opponent or each, found {who!r}")
        return None
    return str(who)


def _counters(kind: str) -> Callable[[Reader, Any, Path, dict[str, str], int], Op | None]:
    """gain, lose or set: {tokens: 2, who: opponent}: each named counter changed for each seat meant."""

    def build(reader: Reader, raw: Any, path: Path, bound: dict[str, str], depth: int) -> Op | None:
        if not isinstance(raw, dict) or not [k for k in raw if k != "who"]:
            reader.fail(path, f"expected the counters to {kind} and by how much, such as {{{kind}: {{tokens: 2}}}}")
            return None
        who = _who(reader, raw.get("who"), (*path, "who"))
        changes: list[tuple[Counter, Compiled]] = []
        steps: list[tuple[Counter, Compiled | None, Compiled]] = []  # each change, a counter of piles' with its pile
        for key, value in raw.items():
            if key == "who":
                continue
            name, _, at = str(key).partition("[")
            counter = reader.counters.get(name.strip())
            if counter is None:
                known = ", ".join(reader.counters) or "none: declare them under counters:"
                reader.fail((*path, str(key)), f"no counter {key!r} (counters: {known})", True)
                continue
            if bool(counter.piles) != bool(at):
                said = f"a value for each pile: write {counter.name}[pile]" if counter.piles else "no piles"
                reader.fail((*path, str(key)), f"{counter.name} has {said}", True)
                continue
            # set: may keep a card (its number) for a later move to find, as a Redeploy's card is placed next
            amount = reader.expr(value, (*path, str(key)), bound, "value" if kind == "set" else "number")
            pile = _pile_of(reader, str(key), at, path, bound, counter) if at else None
            if amount is not None and (pile is not None or not at):
                steps.append((counter, pile, amount))
                if not at:
                    changes.append((counter, amount))
        if who is None or not steps:
            return None
        names = {counter.name for counter, _, _ in steps}
        if len(steps) > len(changes):  # a counter of piles among them: one op for all, in the order written
            return writing(_change_piles(kind, who, steps, reader.players), names)
        seats, mine = _seats(who), who == "me"
        gain, lose = kind == "gain", kind == "lose"
        if kind == "set" and all(_plain(counter, amount) for counter, amount in changes):
            # game counters of no bounds set to fixed whole numbers (set: {phase: 0}): written, nothing to check
            fixed = [(counter.index, amount.fn(None, {})) for counter, amount in changes]

            def put(s: PlayState, e: dict[str, Any]) -> None:
                values = s.values
                for index, n in fixed:
                    values[index][0] = n

            return writing(plain(put), names)

        if len(changes) == 1 and (mine or not changes[0][0].per_player):  # (a game's counter has one seat, 0)
            return writing(plain(_change_one(kind, *changes[0])), names)

        def change(s: PlayState, e: dict[str, Any]) -> None:
            for counter, amount in changes:
                n = amount.fn(s, e)
                # an int is the commonest answer: one test of its type before the full check
                if type(n) is not int and (isinstance(n, bool) or not isinstance(n, int | float)):
                    raise RuleError(f"{kind} {counter.name}: expected a number, found {n!r}")
                values = s.values[counter.index]
                for seat in ((e["me"],) if mine else seats(s, e)) if counter.per_player else (0,):
                    now = values[seat]
                    s.g.setters[counter.index](s, seat, now + n if gain else now - n if lose else n)

        return writing(plain(change), names)

    return build


def _pile_of(reader: Reader, key: str, at: str, path: Path, bound: dict[str, str], counter: Counter) -> Compiled | None:
    """The pile a change of a counter of piles is for: claimed[pile]'s pile, a number from 0."""
    if not at.endswith("]") or not at[:-1].strip():
        reader.fail((*path, key), f"{key}: expected {counter.name}[pile], a pile's number in the brackets", True)
        return None
    return reader.expr(at[:-1], (*path, key), bound, "number")


def _change_piles(kind: str, who: str, steps: list[tuple[Counter, Compiled | None, Compiled]], players: int) -> Op:
    """gain, lose or set of counters of which some have a value for each pile (set: {claimed[pile]: me}): each
    change in turn, for each seat meant, the pile's value found among its seats (pile x players + seat)."""
    seats, mine = _seats(who), who == "me"
    gain, lose = kind == "gain", kind == "lose"

    def change(s: PlayState, e: dict[str, Any]) -> None:
        for counter, pile, amount in steps:
            n = amount.fn(s, e)
            if type(n) is not int and (isinstance(n, bool) or not isinstance(n, int | float)):
                raise RuleError(f"{kind} {counter.name}: expected a number, found {n!r}")
            first = 0
            if pile is not None:
                i = pile.fn(s, e)
                if type(i) is not int or not 0 <= i < counter.piles:
                    raise RuleError(f"{kind} {counter.name}: no pile {i!r} (its piles: 0 to {counter.piles - 1})")
                first = i * players
            values = s.values[counter.index]
            for seat in ((e["me"],) if mine else seats(s, e)) if counter.per_player else (0,):
                now = values[first + seat]
                s.set_counter(counter, first + seat, now + n if gain else now - n if lose else n)

    return plain(change)


def _change_one(kind: str, counter: Counter, amount: Compiled) -> Op:
    """gain, lose or set of one counter, the game's or the seat's the rule is about (gain: {tokens: 2}), the commonest
    change: no loop over counters or seats, and a counter of no bounds written without set_counter's call."""
    fa, index, name, mine = amount.fn, counter.index, counter.name, counter.per_player
    gain, lose = kind == "gain", kind == "lose"
    bounded = counter.low is not None or counter.high is not None
    # a fixed whole number (set: {actions: rules.actions_per_turn}, each turn) taken as it is: no call, no check
    fixed = amount.fn(None, {}) if amount.constant else None
    if type(fixed) is not int:
        fixed = None

    def change_one(s: PlayState, e: dict[str, Any]) -> None:
        if fixed is not None:
            n = fixed
        else:
            n = fa(s, e)
            if type(n) is not int and (isinstance(n, bool) or not isinstance(n, int | float)):
                raise RuleError(f"{kind} {name}: expected a number, found {n!r}")
        seat = e["me"] if mine else 0
        values = s.values[index]
        n = values[seat] + n if gain else values[seat] - n if lose else n
        if bounded:
            s.g.setters[index](s, seat, n)
        else:
            values[seat] = n

    return change_one


def _plain(counter: Counter, amount: Compiled) -> bool:
    """A game's counter of no bounds given a fixed whole number: set without a check."""
    if counter.per_player or counter.low is not None or counter.high is not None or not amount.constant:
        return False
    return type(amount.fn(None, {})) is int


def _move(reader: Reader, raw: Any, path: Path, bound: dict[str, str], depth: int) -> Op | None:
    """{to: zone} moves the card (or card: another); {from:, count:, to:} moves cards off a pile's top."""
    if not isinstance(raw, dict) or not reader.keys(
        raw, path, ("card", "from", "count", "where", "to", "slot", "cell", "on_top"), ("to",)
    ):
        if not isinstance(raw, dict):
            reader.fail(path, "expected {to: a zone}, with card: or from: and count:")
        return None
    to = reader.zone(raw["to"], (*path, "to"), bound)
    slot = raw.get("slot")
    if slot is not None and slot != "open":
        reader.fail((*path, "slot"), f"slot: expected open (the first open slot), found {slot!r}")
        return None
    on_top = raw.get("on_top", False)
    if not isinstance(on_top, bool):
        reader.fail((*path, "on_top"), f"on_top: expected true or false, found {on_top!r}")
        return None
    if on_top and (slot is not None or "cell" in raw or (to is not None and to.kind != "zone")):
        reader.fail((*path, "on_top"), "on_top: a card goes on top of a pile, not into a slot or onto a grid")
        return None
    if on_top and to is not None and isinstance(to.meta, Zone) and to.meta.order != "pile":
        reader.fail((*path, "on_top"), f"on_top: {to.meta.name} is sorted: it has no top (expected a pile)")
        return None
    if to is None:
        return None
    if (to.kind == "grid") != ("cell" in raw):
        said = "cell: a card goes onto a grid at a cell" if to.kind == "grid" else "cell: only a grid has cells"
        reader.fail((*path, "cell") if "cell" in raw else (*path, "to"), said)
        return None
    if "cell" in raw:
        return _move_to_cell(reader, raw, path, bound, to)
    if "from" in raw:
        if "card" in raw:
            reader.fail(path, "give card: or from:, not both")
            return None
        source = reader.zone(raw["from"], (*path, "from"), bound)
        count = reader.expr(raw.get("count", 1), (*path, "count"), bound, "number")
        where = reader.expr(raw["where"], (*path, "where"), {**bound, "it": "card"}, "bool") if "where" in raw else None
        if source is None or count is None or ("where" in raw and where is None):
            return None
        fs, fc, ft = source.fn, count.fn, to.fn
        test = where.fn if where is not None else None

        def take(s: PlayState, e: dict[str, Any]) -> None:
            n = fc(s, e)
            if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAX_COUNT:
                raise RuleError(f"move count: expected a whole number from 0 to {MAX_COUNT:,}, found {n!r}")
            zone = fs(s, e)
            pile = s.zones[zone]
            chosen: list[int] = []
            inner = dict(e)
            for card in reversed(pile):  # from the top down
                if len(chosen) == n:
                    break
                if card < 0:
                    continue
                inner["it"] = card
                if test is None or truthy(test(s, inner)):
                    chosen.append(card)
            target = ft(s, e)
            for card in chosen:
                s.take(card, zone)
                if on_top:
                    s.put_on_top(card, target, e["me"])
                else:
                    s.put(card, target, slot == "open")

        return _noted(plain(take), _zone_names(reader, to, source))
    who = str(raw.get("card", "card"))
    if who not in bound or bound[who] != "card":
        cards = [n for n, k in bound.items() if k == "card"] or ["none here"]
        reader.fail((*path, "card"), f"card: expected a card bound here ({', '.join(cards)}), found {who!r}")
        return None
    ft = to.fn
    # the card's own zone: known for the move's card or target (the move's sources), not for one a let or each bound
    names = _zone_names(reader, to)
    if names is not None and who in ("card", "target"):
        names.add(CARD)
    else:
        names = None
    at = who + "@"  # where the bound card lies now: kept as it moves, so it can be moved again
    on = who + "#"  # and its cell, while it lies on a grid

    if on_top:  # face down on a pile's top, known to the player: the pile's next draw takes it

        def onto_top(s: PlayState, e: dict[str, Any]) -> None:
            card = e.get(who)
            if card is None or card < 0:
                raise RuleError(f"move: {who} is no card here")
            s.take_from(card, e.get(at), e.pop(on, None))
            target = ft(s, e)
            s.put_on_top(card, target, e["me"])
            e[at] = target

        return _noted(plain(onto_top), names)

    def move(s: PlayState, e: dict[str, Any]) -> None:
        card = e.get(who)
        if card is None or card < 0:
            raise RuleError(f"move: {who} is no card here")
        s.take_from(card, e.get(at), e.pop(on, None))
        target = ft(s, e)
        e[at] = s.put(card, target, slot == "open")

    return _noted(plain(move), names)


def _move_to_cell(reader: Reader, raw: dict[str, Any], path: Path, bound: dict[str, str], to: Compiled) -> Op | None:
    """{to: field, cell: to}: the card onto a grid's empty cell, owned by the player (from a cell: its marks too)."""
    if "from" in raw or "slot" in raw:
        reader.fail(path, "a move to a cell takes a card (card:), not from: or slot:")
        return None
    who = str(raw.get("card", "card"))
    if who not in bound or bound[who] != "card":
        cards = [n for n, k in bound.items() if k == "card"] or ["none here"]
        reader.fail((*path, "card"), f"card: expected a card bound here ({', '.join(cards)}), found {who!r}")
        return None
    cell = reader.expr(raw["cell"], (*path, "cell"), bound, "number")
    if cell is None:
        return None
    ft, fc = to.fn, cell.fn
    at, on = who + "@", who + "#"  # the zone the card lies in, and its cell there if a grid

    def onto(s: PlayState, e: dict[str, Any]) -> None:
        card = e.get(who)
        if card is None or card < 0:
            raise RuleError(f"move: {who} is no card here")
        target = ft(s, e)
        e[on] = s.to_cell(card, e.get(at), e.get(on), target, fc(s, e), e["me"])
        e[at] = target

    return plain(onto)


def _grid_zone(reader: Reader, raw: Any, path: Path) -> Zone | None:
    zone = reader.zones.get(str(raw))
    if zone is None or zone.grid is None:
        grids = ", ".join(n for n, z in reader.zones.items() if z.grid is not None) or "none"
        reader.fail(path, f"grid: expected a grid zone ({grids}), found {raw!r}")
        return None
    return zone


def _mark(reader: Reader, raw: Any, path: Path, bound: dict[str, str], depth: int) -> Op | None:
    """mark: {grid: field, cell: from, acted: turn}: marks of the card on that cell set (an empty cell: none)."""
    if not isinstance(raw, dict) or "grid" not in raw or "cell" not in raw or len(raw) < 3:
        reader.fail(
            path, "expected {grid: a grid, cell: a cell, and marks: values}, such as {grid: field, cell: to, hp: 0}"
        )
        return None
    zone = _grid_zone(reader, raw["grid"], (*path, "grid"))
    cell = reader.expr(raw["cell"], (*path, "cell"), bound, "number")
    if zone is None or cell is None:
        return None
    marks: list[tuple[int, Compiled]] = []
    for key, value in raw.items():
        if key in ("grid", "cell"):
            continue
        if key not in zone.marks:
            said = ", ".join(zone.marks) or "none"
            reader.fail((*path, str(key)), f"no mark {key!r} on {zone.name} (its marks: {said})", True)
            continue
        amount = reader.expr(value, (*path, str(key)), bound, "number")
        if amount is not None:
            marks.append((zone.mark_index(str(key)), amount))
    base, fc = zone.base, cell.fn

    def mark(s: PlayState, e: dict[str, Any]) -> None:
        i = fc(s, e)
        rows = s.marks[base]
        if type(i) is not int or not 0 <= i < len(rows[0]):
            raise RuleError(f"mark: {zone.name} has no cell {i!r}")
        if rows[0][i] >= 0:
            for k, amount in marks:
                rows[k][i] = amount.fn(s, e)

    return plain(mark)


def _damage(reader: Reader, raw: Any, path: Path, bound: dict[str, str], depth: int) -> Op | None:
    """damage: {grid: field, cell: to, amount: 20}: hit points off the card there; at 0 or below it is destroyed."""
    if not isinstance(raw, dict) or not reader.keys(raw, path, ("grid", "cell", "amount"), ("grid", "cell", "amount")):
        if not isinstance(raw, dict):
            reader.fail(path, "expected {grid: a grid, cell: a cell, amount: damage}")
        return None
    zone = _grid_zone(reader, raw["grid"], (*path, "grid"))
    if zone is not None and zone.hit_points == -1 and zone.cells:  # (-2, or no cells: said at the grid already)
        reader.fail((*path, "grid"), f"damage: {zone.name} keeps no hit points: give it hit_points: <one of its marks>")
        return None
    cell = reader.expr(raw["cell"], (*path, "cell"), bound, "number")
    amount = reader.expr(raw["amount"], (*path, "amount"), bound, "number")
    if zone is None or cell is None or amount is None:
        return None
    base, hp, fc, fa = zone.base, zone.hit_points, cell.fn, amount.fn

    def damage(s: PlayState, e: dict[str, Any]) -> None:
        i, dealt = fc(s, e), fa(s, e)
        rows = s.marks[base]
        if type(i) is not int or not 0 <= i < len(rows[0]) or rows[0][i] < 0:
            raise RuleError(f"damage: no card on {zone.name}'s cell {i!r}")
        rows[hp][i] -= dealt
        if rows[hp][i] <= 0:  # destroyed: the card leaves play
            s.clear_cell(base, i)

    return plain(damage)


def _draw(reader: Reader, raw: Any, path: Path, bound: dict[str, str], depth: int) -> Op | None:
    """draw: 2, or {count: 2, who: each, to: hand, from: tactics}: cards off the draw pile (or the pile from: names),
    each one a chance node but a known top card."""
    spec = raw if isinstance(raw, dict) else {"count": raw}
    if reader.drawing is None and "from" not in spec:
        reader.fail(path, "draw: the rules name no pile to draw from: add drawing: {from: deck}, or from: here")
        return None
    if not reader.keys(spec, path, ("count", "who", "to", "from")):
        return None
    pile = _pile(reader, spec["from"], (*path, "from"), bound) if "from" in spec else None
    if "from" in spec and pile is None:
        return None
    count = reader.expr(spec.get("count", 1), (*path, "count") if isinstance(raw, dict) else path, bound, "number")
    who = _who(reader, spec.get("who"), (*path, "who"))
    to = _player_zone(reader, spec.get("to", "hand"), (*path, "to"))
    if count is None or who is None or to is None:
        return None
    seats, fc, mine = _seats(who), count.fn, who == "me"
    fp = pile.fn if pile is not None else None

    def draw(s: PlayState, e: dict[str, Any]) -> None:
        n = fc(s, e)
        # (a whole number, the commonest, passes on its type alone: no union of types made at every draw)
        if (type(n) is not int and (isinstance(n, bool) or not isinstance(n, int | float))) or n > MAX_COUNT:
            raise RuleError(f"draw: expected a number of cards up to {MAX_COUNT:,}, found {n!r}")
        # a card to each seat in order, n rounds: the seats repeated (a comprehension was a call of its own)
        drawers = [e["me"]] if mine else list(seats(s, e))
        s.draw_cards(drawers * max(0, int(n)), to, fp(s, e) if fp is not None else -1)

    # its pile (the drawing pile and the refill that an emptied one takes up, or from:'s) and the zone it draws to
    piles = [pile] if pile is not None else [z for z in reader.drawing or () if z is not None]
    return _noted(drawing(draw), _zone_names(reader, to, *piles))


def _pile(reader: Reader, raw: Any, path: Path, bound: dict[str, str]) -> Compiled | None:
    """A zone cards are drawn from (from:): a pile, not a row of slots or a grid."""
    zone = reader.zone(raw, path, bound)
    if zone is not None and zone.kind != "zone":
        reader.fail(path, f"from: expected a pile to draw from, such as tactics or my.deck, found a {zone.kind}")
        return None
    return zone


def _deal(reader: Reader, raw: Any, path: Path, bound: dict[str, str], depth: int) -> Op | None:
    """deal: {count: 5, to: hand}: a card at a time to each player in seat order, count each."""
    if reader.drawing is None:
        reader.fail(path, "deal: the rules name no pile to deal from: add drawing: {from: deck}")
        return None
    if not isinstance(raw, dict) or not reader.keys(raw, path, ("count", "to"), ("count",)):
        if not isinstance(raw, dict):
            reader.fail(path, "expected {count: cards each, to: a zone each player has}")
        return None
    count = reader.expr(raw["count"], (*path, "count"), bound, "number")
    to = _player_zone(reader, raw.get("to", "hand"), (*path, "to"))
    if count is None or to is None:
        return None
    fc, players = count.fn, reader.players

    def deal(s: PlayState, e: dict[str, Any]) -> None:
        n = fc(s, e)
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n * players <= MAX_COUNT:
            raise RuleError(f"deal: expected a whole number of cards each, found {n!r}")
        s.draw_cards([seat for _ in range(n) for seat in range(players)], to)

    return deal


def _player_zone(reader: Reader, raw: Any, path: Path) -> Zone | None:
    zone = reader.zones.get(str(raw))
    if zone is None or not zone.per_player or zone.piles:  # (a row's piles take cards one by one, to: a pile)
        mine = ", ".join(n for n, z in reader.zones.items() if z.per_player and not z.piles) or "none"
        reader.fail(path, f"to: expected a zone each player has ({mine}), found {raw!r}")
        return None
    return zone


def _first_player(reader: Reader, raw: Any, path: Path, bound: dict[str, str], depth: int) -> Op | None:
    if raw == "random":
        return lambda s, e: s.ask_first()
    seat = reader.expr(raw, path, bound, "number")
    if seat is None:
        return None
    f = seat.fn

    def first(s: PlayState, e: dict[str, Any]) -> None:
        n = f(s, e)
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n < s.g.book.players:
            raise RuleError(f"first_player: expected a seat from 0 to {s.g.book.players - 1}, found {n!r}")
        s.player = n

    return first


def _reveal(reader: Reader, raw: Any, path: Path, bound: dict[str, str], depth: int) -> Op | None:
    """reveal: {zone: their.study, to: me}: the player learns the cards lying there (a face-down card looked at)."""
    spec = raw if isinstance(raw, dict) else {"zone": raw}
    if not reader.keys(spec, path, ("zone", "to"), ("zone",)):
        return None
    zone = reader.zone(spec["zone"], (*path, "zone") if isinstance(raw, dict) else path, bound)
    who = _who(reader, spec.get("to"), (*path, "to"))
    if zone is None or who is None:
        return None
    fz, seats = zone.fn, _seats(who)

    def reveal(s: PlayState, e: dict[str, Any]) -> None:
        for seat in seats(s, e):
            s.known[seat].update(c for c in s.zones[fz(s, e)] if c >= 0)

    return plain(reveal)


def _later(reader: Reader, raw: Any, path: Path, bound: dict[str, str], depth: int) -> Op | None:
    """later: {who: opponent, turns: 2, do: [...]}: effects run at the start of that player's next turns."""
    if not isinstance(raw, dict) or not reader.keys(raw, path, ("who", "turns", "do"), ("do",)):
        if not isinstance(raw, dict):
            reader.fail(path, "expected {who:, turns:, do: [effects]}")
        return None
    who = _who(reader, raw.get("who"), (*path, "who"))
    turns = reader.expr(raw.get("turns", 1), (*path, "turns"), bound, "number")
    ops = block(reader, raw["do"], (*path, "do"), dict(bound), depth + 1)
    if who is None or turns is None:
        return None
    seats, ft = _seats(who), turns.fn

    def later(s: PlayState, e: dict[str, Any]) -> None:
        n = ft(s, e)
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 1000:
            raise RuleError(f"later turns: expected a whole number from 0 to 1,000, found {n!r}")
        for seat in seats(s, e):
            s.schedule(seat, n, ops, {**e, "me": seat})

    return later


def _let(reader: Reader, raw: Any, path: Path, bound: dict[str, str], depth: int) -> Op | None:
    if not isinstance(raw, dict) or not raw:
        reader.fail(path, "expected names and values, such as {let: {taken: min(3, their.tokens)}}")
        return None
    values: list[tuple[str, Compiled]] = []
    for key, value in raw.items():
        name = str(key)
        if not name.isidentifier() or name in ("my", "their", "rules", "game", "me", "opponent", "card", "target"):
            reader.fail((*path, name), f"let: {name!r} cannot be a name here", True)
            continue
        compiled = reader.expr(value, (*path, name), bound)
        if compiled is not None:
            values.append((name, compiled))
            bound[name] = compiled.kind if compiled.kind in ("card", "number", "bool", "text") else "any"

    def let(s: PlayState, e: dict[str, Any]) -> None:
        for name, compiled in values:
            e[name] = compiled.fn(s, e)

    return writing(plain(let), set())


def _apply(reader: Reader, raw: Any, path: Path, bound: dict[str, str], depth: int) -> Op | None:
    """apply: {effect: tanach, with: card.effect}: a named effect, given its value."""
    spec = raw if isinstance(raw, dict) else {"effect": raw}
    if not reader.keys(spec, path, ("effect", "with"), ("effect",)):
        return None
    name = str(spec["effect"])
    reader.note_apply(name, (*path, "effect") if isinstance(raw, dict) else path)
    given = reader.expr(spec["with"], (*path, "with"), bound) if "with" in spec else None
    if "with" in spec and given is None:
        return None
    fg = given.fn if given is not None else None
    effects = reader.effects
    settles: dict[int, bool] = {}  # by a case's block (its id: the rule book holds it): whether it is plain

    def apply(s: PlayState, e: dict[str, Any]) -> None:
        named = effects[name]
        value = fg(s, e) if fg is not None else None
        ops: Block = named.pick(value)
        inner = dict(e)
        inner[named.given] = value
        plain_case = settles.get(id(ops))
        if plain_case is None:
            plain_case = settles[id(ops)] = is_plain(ops)
        if plain_case:  # a case that only changes the position: run here, as its frame would run it next
            for op in ops:
                op(s, inner)
        else:
            s.push(ops, inner)

    return apply


def _roll(reader: Reader, raw: Any, path: Path, bound: dict[str, str], depth: int) -> Op | None:
    """roll: {dice: 2, sides: 6, as: total}: each die a chance node; the total is bound by its name."""
    if not isinstance(raw, dict) or not reader.keys(raw, path, ("dice", "sides", "as"), ("as",)):
        if not isinstance(raw, dict):
            reader.fail(path, "expected {dice: 1, sides: 6, as: a name}")
        return None
    dice, sides = raw.get("dice", 1), raw.get("sides", 6)
    if not isinstance(dice, int) or isinstance(dice, bool) or not 1 <= dice <= 20:
        reader.fail((*path, "dice"), f"dice: expected a whole number from 1 to 20, found {dice!r}")
        return None
    if not isinstance(sides, int) or isinstance(sides, bool) or not 2 <= sides <= 100:
        reader.fail((*path, "sides"), f"sides: expected a whole number from 2 to 100, found {sides!r}")
        return None
    name = str(raw["as"])
    bound[name] = "number"
    return lambda s, e: s.ask_roll(dice, sides, name)


def _win(reader: Reader, raw: Any, path: Path, bound: dict[str, str], depth: int) -> Op | None:
    if raw not in ("me", "opponent"):
        reader.fail(path, f"win: expected me or opponent, found {raw!r}")
        return None
    if raw == "me":
        return lambda s, e: s.finish(e["me"], "normal")
    return lambda s, e: s.finish((e["me"] + 1) % s.g.book.players, "normal")


def _choice(reader: Reader, raw: dict[str, Any], path: Path, bound: dict[str, str], depth: int) -> Op | None:
    """{if: test, then: [...], else: [...]}."""
    if not reader.keys(raw, path, ("if", "then", "else"), ("if", "then")):
        return None
    test = reader.expr(raw["if"], (*path, "if"), bound, "bool")
    yes = block(reader, raw["then"], (*path, "then"), dict(bound), depth + 1)
    no = block(reader, raw.get("else"), (*path, "else"), dict(bound), depth + 1)
    if test is None:
        return None
    ft = test.fn
    yes_writes, no_writes = writes(yes), writes(no)
    names = set(yes_writes | no_writes) if yes_writes is not None and no_writes is not None else None
    if is_plain(yes) and is_plain(no):  # branches that only change the position: run here, as their frame would

        def settle(s: PlayState, e: dict[str, Any]) -> None:
            for op in yes if truthy(ft(s, e)) else no:
                op(s, e)

        return _noted(plain(settle), names)

    def choose(s: PlayState, e: dict[str, Any]) -> None:
        ops = yes if truthy(ft(s, e)) else no
        if ops:
            s.run_inline(ops, e)

    return _noted(choose, names)


def _each(reader: Reader, raw: dict[str, Any], path: Path, bound: dict[str, str], depth: int) -> Op | None:
    """{each: piles(my.flags), do: [...]}: the effects once for each place, in order, the place bound as pile."""
    if not reader.keys(raw, path, ("each", "as", "do"), ("each", "do")):
        return None
    name = str(raw.get("as", "pile"))
    if not name.isidentifier() or name in bound or name in ("my", "their", "rules", "game", "me", "opponent"):
        reader.fail((*path, "as"), f"as: {name!r} cannot be a name here (it is taken, or no name)")
        return None
    places = reader.expr(raw["each"], (*path, "each"), bound)
    if places is not None and places.kind != "places":
        reader.fail((*path, "each"), "each: expected places to take in turn, such as piles(my.flags)")
        return None
    ops = block(reader, raw["do"], (*path, "do"), {**bound, name: "number"}, depth + 1)
    if places is None:
        return None
    fp = places.fn
    if is_plain(ops):  # effects that only change the position: each place's run here, in turn

        def settle(s: PlayState, e: dict[str, Any]) -> None:
            for place in fp(s, e):
                e[name] = place
                for op in ops:
                    op(s, e)

        return _noted(plain(settle), set(inner) if (inner := writes(ops)) is not None else None)

    def each(s: PlayState, e: dict[str, Any]) -> None:
        for place in reversed(list(fp(s, e))):  # pushed last first: they run in order
            s.push(ops, {**e, name: place})

    return each


_BUILDERS: dict[str, Callable[[Reader, Any, Path, dict[str, str], int], Op | None]] = {
    "gain": _counters("gain"),
    "lose": _counters("lose"),
    "set": _counters("set"),
    "move": _move,
    "draw": _draw,
    "deal": _deal,
    "first_player": _first_player,
    "reveal": _reveal,
    "later": _later,
    "let": _let,
    "apply": _apply,
    "roll": _roll,
    "win": _win,
    "mark": _mark,
    "damage": _damage,
}
