"""The interpreter: a game written in the rules language played through the engine's game API.

One generic position holds every game's zones (lists of card numbers, -1 for an open slot), counters
and the effects still to run (a stack of frames: a compiled block, where it stands, its bindings). A move
pushes its effects; they run until the stack is empty (the next decision) or an effect asks chance for a
card, a die or a first player (a chance node). After every move the ends are checked, then the cap, then
whether the turn is over.
"""

from __future__ import annotations

import math
import random
from bisect import insort
from collections.abc import Callable, Sequence
from math import floor
from typing import Any

from engine.api import CHANCE, TERMINAL, Event, GameDef, IllegalAction, TwoPlayerState
from engine.play import effects as fx
from engine.play.book import Book, End, Group, Move
from engine.play.effects import Block
from engine.play.expr import ZONE, Compiled, RuleError, truthy
from engine.play.scope import Counter, Zone

# an action, its move, its card and the zone it came from, its target's place and zone (or the place `to` names and
# None), and the grid cell its card stands on (None where it has none)
Choice = tuple[int, Move, int | None, int | None, int | None, int | None, int | None]
MAX_STEPS = 100_000  # effects one action may run: past it the rules loop
MAX_FRAMES = 200  # effects inside effects (apply within apply): past it the rules recurse without end
FIRST_OFFSET, ROLL_OFFSET = 10_000, 20_000  # after the chance base: a first player's seat, a die's face
# how a group's move is offered: alone, at each place `to` gives (EVERY: with no test to ask of them), at targets
PLAIN, EVERY, PLACES, AIMED = "plain", "every", "places", "aimed"
Offer = tuple[Move, str, Any]  # a move a card of a group offers, how (PLAIN...), its test left to ask (EVERY: its to:)
Made = tuple[str, Any, Any]  # an offer as _choices lists it: how, its test left (or to:), its choice (PLAIN) or move
# how _choices takes an entry up: a group, a move of no card nor target, a card's move at targets with no test left
# (_aimed) whose zones name no card, any other move
GROUP, BARE, AIMED_AT, OTHER = "group", "bare", "aimed at", "other"
FIXED, MINE, READ = "fixed", "mine", "read"  # how a counter's bound is read: a number, a counter of the seat, a call
Limit = tuple[str, Any] | None
Asked = tuple[End, Callable[..., Any] | None, int]  # an end after_move asks: its wins or loses test, whose win it is
Setter = Callable[["PlayState", int, Any], None]  # a counter's value for a seat set within its bounds (set_counter's)


class PlayGame(GameDef):
    """A game whose rules are its play.yaml: the rule book, read and compiled once."""

    def __init__(self, slug: str, title: str, book: Book) -> None:
        self.slug, self.title, self.book = slug, title, book
        self.num_players = book.players
        self.pile = book.drawing[0].base if book.drawing else -1
        self.refill = book.drawing[1].base if book.drawing and book.drawing[1] else -1
        # each player's own pile lies at pile + seat: the drawer's seat times this (0: one shared pile)
        self.pile_step = 1 if book.drawing and book.drawing[0].per_player else 0
        self.piles = {self.pile + seat * self.pile_step for seat in range(book.players)} if book.drawing else set()
        self.grids = [z for z in book.zones.values() if z.grid is not None]
        # after a move nothing is asked unless an end, a cap, a budget or an end_turn effect may call for it: a
        # move that does not end the turn then needs no after_move frame
        self.quiet = not (book.move_ends or book.cap_moves is not None or book.budget is not None or book.ends_turns)
        self.slot_index = {z.name: {k: i for i, k in enumerate(z.slots)} for z in book.zones.values() if z.slots}
        self.after_move: Block = (_after_move,)
        self.next_turn: Block = (_next_turn,)
        self.check_budget: Block = (_check_budget,)
        self.first_turn: Block = (_first_turn,)
        self.plays = [[Event("play", seat, card) for card in book.cards] for seat in range(book.players)]
        # each group of moves (by id): the bits of its moves with no test of the position alone, the others' bits
        # with those tests, and by which bits hold, each card's offers (offers_of), worked out as first met
        self.asked: dict[int, tuple[int, list[tuple[int, Any]], dict[int, list[tuple[Offer, ...]]]]] = {}
        # a zone group's offers as _choices lists them (made_of), by which bits hold and the zone: mask x zones + zone
        self.made: dict[int, dict[int, list[tuple[Made, ...]]]] = {}
        self.zone_count = len(book.zone_at)
        # each entry as _choices takes it up (GROUP...), with what it needs worked out once: a move of no card and no
        # target, its test and its choice (a draw, a pass: most lists hold them, and most moves are one); a card's
        # move at targets, by seat its targets' zone and its cards' zones, which read no card (my.hand, their.study)
        self.listing: list[tuple[str, Any, Any, Any]] = []
        for entry in book.entries:
            if isinstance(entry, Group):
                bits = [(1 << k, m.general) for k, m in enumerate(entry.moves)]
                always = sum(bit for bit, general in bits if general is None)
                tested = [(bit, general.fn) for bit, general in bits if general is not None]
                self.asked[id(entry)] = (always, tested, {})
                self.made[id(entry)] = {}
                each = entry.each  # its zone by seat when it reads nothing else (my.hand)
                fixed = each.reads is not None and each.reads[0] == ZONE and not entry.grid
                zones = [each.fn(None, {"me": seat}) for seat in range(book.players)] if fixed else None
                tests = (entry.general.fn if entry.general else None, entry.test.fn if entry.test else None)
                self.listing.append((GROUP, entry, zones, (self.asked[id(entry)], self.made[id(entry)], *tests)))
            elif entry.sources is None and entry.target is None:
                test = entry.test.fn if entry.test is not None else None
                self.listing.append((BARE, entry, test, (entry.number, entry, None, None, None, None, None)))
            elif entry.test is None and entry.target is not None and entry.to is None and entry.sources is not None:
                refs = [entry.target, *entry.sources]
                if all(ref.reads is not None and ref.reads[0] == ZONE for ref in refs):
                    at = [[ref.fn(None, {"me": seat}) for ref in refs] for seat in range(book.players)]
                    self.listing.append((AIMED_AT, entry, [z[0] for z in at], [tuple(z[1:]) for z in at]))
                else:
                    self.listing.append((OTHER, entry, None, None))
            else:
                self.listing.append((OTHER, entry, None, None))
        # the ends after_move asks, after a move that does not end the turn (False) and one that does (True): each with
        # its test when it is a wins or loses end, asked there seat by seat, and how far round the table from the seat
        # it holds for the winner is (0: that seat wins, 1: the next, when it loses); each seat's order round the table
        players = book.players
        self.ends_after: dict[bool, list[Asked]] = {
            ending: [
                (end, end.test.fn if end.kind in ("wins", "loses") else None, 0 if end.kind == "wins" else 1)
                for end in (book.ends if ending else book.move_ends)
            ]
            for ending in (False, True)
        }
        self.rounds = [tuple((p + i) % players for i in range(players)) for p in range(players)]
        # on each move (the same for every game of its book), the ends after_move asks, [fresh][ending]: with fresh 0
        # all of them; when the last move's were asked and none held (1; 2: a turn passed since), not an end every move
        # asks whose test reads nothing the move (and the turn's passing) can write: it held false and still does
        turn_writes = _known(fx.writes(book.turn_end), fx.writes(book.turn_start))
        if turn_writes is not None and fx.CARD in turn_writes:
            turn_writes = None
        for entry in book.entries:
            for move in entry.moves if isinstance(entry, Group) else [entry]:
                writes = _move_writes(move, entry.each if isinstance(entry, Group) else None, book.budget)
                move.asks = tuple(
                    (
                        [asked for asked in self.ends_after[False] if not _unread(asked[0], book, after)],
                        [asked for asked in self.ends_after[True] if not _unread(asked[0], book, after)],
                    )
                    for after in (None, writes, _known(writes, turn_writes))  # (None: all asked)
                )
        # the bindings an end's test is asked with, seat by seat: made once, not at every move (a test reads me alone
        # unless a check in it binds its value; nothing else runs while one is asked)
        self.seats: dict[str, Any] = {"me": 0}
        # a turn's end and start run in place when their effects only change the position (pass_turn)
        self.plain_end, self.plain_start = fx.is_plain(book.turn_end), fx.is_plain(book.turn_start)
        # each counter's (max, min), shaped once: set_counter runs a few times a move, its bounds each time
        counters = sorted(book.counters.values(), key=lambda c: c.index)
        self.limits = [(_limit(c.high), _limit(c.low)) for c in counters]
        self.setters = [_setter(c, *limits) for c, limits in zip(counters, self.limits, strict=True)]

    def offers_of(self, group: Group, mask: int) -> list[tuple[Offer, ...]]:
        """By card: the moves of group it offers while the moves of mask's bits are open (their tests of the position
        alone hold), each with how it is offered and its test left to ask; none for a card its tests of the card alone
        (allowed:) rule out. Made once for each mask met: the per-card tests then cost nothing in play."""
        tables = self.asked[id(group)][2]
        found = tables.get(mask)
        if found is None:
            found = []
            for card in range(len(self.book.cards)):
                made: list[Offer] = []
                if group.allowed is None or group.allowed[card]:
                    for k, move in enumerate(group.moves):
                        if mask >> k & 1 and (move.allowed is None or move.allowed[card]):
                            test = move.test.fn if move.test is not None else None
                            if move.to is not None and test is None and move.where is None:  # its places' function
                                made.append((move, EVERY, move.to.fn))
                                continue
                            how = PLACES if move.to is not None else PLAIN if move.target is None else AIMED
                            made.append((move, how, test))
                found.append(tuple(made))
            tables[mask] = found
        return found

    def made_of(self, group: Group, mask: int, zone: int) -> list[tuple[Made, ...]]:
        """offers_of's offers for the cards of group lying in zone: a move offered alone (PLAIN) with its choice made
        once, (PLAIN, its test left, the choice), rather than built at every list; any other as (how, its test or
        places, the move). Made once for each mask and zone met."""
        key = mask * self.zone_count + zone
        tables = self.made[id(group)]
        found = tables.get(key)
        if found is None:
            found = []
            for card, offers in enumerate(self.offers_of(group, mask)):
                found.append(
                    tuple(
                        (how, check, (move.number + card, move, card, zone, None, None, None) if how is PLAIN else move)
                        for move, how, check in offers
                    )
                )
            tables[key] = found
        return found

    def new_initial_state(self) -> PlayState:
        return PlayState.start(self)

    def card_names(self) -> dict[str, str]:
        return dict(zip(self.book.cards, self.book.names, strict=True))


class PlayState(TwoPlayerState):
    """A position of a game written in the rules language."""

    g: PlayGame
    zones: list[list[int]]
    values: list[list[Any]]
    frames: list[list[Any]]  # [block, next op, bindings]
    chance: tuple[Any, ...] | None
    known: list[set[int]]  # per seat: cards it has seen where others cannot
    later: list[list[tuple[int, Block, dict[str, Any]]]]  # per seat: (turns left, effects, bindings)
    player: int
    moves: int
    turn: int
    extra: int  # turns the player to move takes again
    ending: bool  # an effect ended the turn
    # after_move last asked the ends and none held, since when only the move being made has run (1), or a turn's
    # passing and then it (2); 0: anything may have changed (the game's start, effects waiting for a turn, a resample)
    fresh: int
    picks: list[Choice]  # the legal actions' moves, in their order
    tops: dict[int, int]  # by pile zone: how many of its top cards are known (put there by on_top), when any
    marks: dict[int, list[list[int]]]  # by grid zone: by cell, its card's owner (-1: empty), then each of its marks

    @classmethod
    def start(cls, g: PlayGame) -> PlayState:
        book = g.book
        s = cls.__new__(cls)
        s.g, s.narration = g, None
        s._start_record()
        s.zones = []
        for zone, _owner in book.zone_at:
            s.zones.append([-1] * len(zone.slots) if zone.slots is not None else [-1] * zone.cells)
        for name, start in book.starts.items():  # each zone holding a deck as the game begins
            holder = book.zones[name]
            for seat in range(book.players if holder.per_player else 1):
                s.zones[holder.index(seat)] = list(start[seat % len(start)])
        s.marks = {z.base: [[-1] * z.cells for _ in range(1 + len(z.marks))] for z in g.grids}
        # a counter's value for each seat; one of piles (claimed[pile]) has them for each pile, one pile after another
        s.values = [[0] * book.players * max(1, c.piles) for c in book.counters.values()]
        s.frames, s.chance = [], None
        s.tops = {}
        s.known = [set() for _ in range(book.players)]
        s.later = [[] for _ in range(book.players)]
        s.player = s.moves = s.turn = s.extra = 0
        s.ending = False
        s.fresh = 0
        s.picks = []
        for counter in book.counters.values():
            for seat in range(book.players if counter.per_player else 1):
                start = counter.start.fn(s, {"me": seat})
                for pile in range(max(1, counter.piles)):
                    s.set_counter(counter, pile * book.players + seat, start)
        s.frames.append([g.first_turn, 0, {"me": 0}])
        s.frames.append([book.setup, 0, {"me": 0}])
        try:
            s._run()
        except RuleError as error:  # a setup's test, not an effect's: said at the file
            raise fx.placed(s, error, None) from None
        return s

    def clone(self) -> PlayState:
        o = PlayState.__new__(PlayState)
        o.g, o.narration = self.g, None
        self._copy_record(o)
        o.zones = [z[:] for z in self.zones]
        o.values = [v[:] for v in self.values]
        copies: dict[int, dict[str, Any]] = {}  # frames sharing bindings (an if's branch) share the copy too
        o.frames = [[f[0], f[1], copies.setdefault(id(f[2]), dict(f[2]))] for f in self.frames]
        o.chance = self.chance
        o.tops = dict(self.tops) if self.tops else {}
        o.known = [set(k) for k in self.known]
        o.later = [entries[:] for entries in self.later]
        o.player, o.moves, o.turn, o.extra, o.ending = self.player, self.moves, self.turn, self.extra, self.ending
        o.fresh = self.fresh
        o.picks = self.picks
        o.marks = {at: [row[:] for row in rows] for at, rows in self.marks.items()} if self.marks else self.marks
        return o

    # -- the API -------------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        return CHANCE if self.chance is not None else self.player

    def returns(self) -> list[float]:
        n = self.g.book.players
        if not self.over or self.winner is None:
            return [0.0] * n
        return [1.0 if seat == self.winner else -1.0 for seat in range(n)]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        chance, base = self.chance, self.g.book.chance_base
        if chance is None:
            return []
        if chance[0] == "draw":
            pile = self.zones[self._pile_of(chance)]
            counts: dict[int, int] = {}
            for card in pile:
                counts[card] = counts.get(card, 0) + 1
            return [(base + card, n / len(pile)) for card, n in counts.items()]
        if chance[0] == "first":
            players = self.g.book.players
            return [(base + FIRST_OFFSET + seat, 1 / players) for seat in range(players)]
        sides = chance[2]
        return [(base + ROLL_OFFSET + face, 1 / sides) for face in range(1, sides + 1)]

    def sample_chance(self, rng: random.Random) -> int:
        chance, base = self.chance, self.g.book.chance_base
        assert chance is not None
        if chance[0] == "draw":
            pile = self.zones[self._pile_of(chance)]
            return base + pile[floor(rng.random() * len(pile))]
        if chance[0] == "first":
            return base + FIRST_OFFSET + floor(rng.random() * self.g.book.players)
        return base + ROLL_OFFSET + 1 + floor(rng.random() * chance[2])

    def _work_out_legal(self) -> list[int]:
        if self.over:
            return []
        if self.chance is not None:
            return [a for a, _ in self.chance_outcomes()]
        try:
            picks = self._choices()
            if not picks:
                _no_move(self.player)
        except RuleError as error:  # a move's test: said at the file
            raise fx.placed(self, error, None) from None
        self.picks = picks
        return [pick[0] for pick in picks]

    def _choices(self) -> list[Choice]:
        """Each legal move with what apply_action needs of it, in the order of the legal actions."""
        picks: list[Choice] = []
        add = picks.append
        p, zones = self.player, self.zones
        env: dict[str, Any] = {"me": p}  # one set of bindings for the whole list: each offer sets its card
        for kind, entry, first, second in self.g.listing:  # (first and second: what the kind of entry needs)
            if kind is BARE:  # a move of no card and no target (draw, pass): its test alone, its choice made once
                if first is None or first(self, env):
                    add(second)
                continue
            if kind is GROUP:  # its asked and made tables, its test of the position alone and its test of a card
                (mask, asked, tables), made_by, general, test = second
                if general is not None and not general(self, env):
                    continue
                # which moves' tests of the position alone hold, asked once for all the cards (or cells): a bit each
                for bit, holds in asked:
                    if holds(self, env):
                        mask |= bit
                if not mask:
                    continue
                if entry.grid:
                    self._from_cells(entry, tables.get(mask) or self.g.offers_of(entry, mask), env, add)
                    continue
                if entry.rows is not None:
                    self._from_piles(entry, tables.get(mask) or self.g.offers_of(entry, mask), env, add)
                    continue
                zone = first[p] if first is not None else entry.each.fn(self, env)  # its zone by seat, if fixed
                made = made_by.get(mask * self.g.zone_count + zone) or self.g.made_of(entry, mask, zone)
                # each card once (copies of a card offer the same moves): dict.fromkeys keeps the first, in C. A test
                # reads the card alone of the bindings an offer makes (where it lies is for the move's effects)
                for card in sorted(dict.fromkeys(zones[zone])) if entry.by_card else dict.fromkeys(zones[zone]):
                    if card < 0:
                        continue
                    offers = made[card]
                    if not offers:  # the card allows none of the moves open now: nothing bound, nothing asked
                        continue
                    env["card"] = card
                    if test is not None and not test(self, env):
                        continue
                    for how, check, what in offers:  # what: a PLAIN offer's choice, any other's move
                        if how is PLAIN:  # the commonest offer, its choice made once
                            if check is None or check(self, env):
                                add(what)
                        elif how is EVERY:  # every place `to` gives: _offer_places's, written out
                            base = what.number + card * what.places
                            for place in check(self, env):
                                add((base + place, what, card, zone, place, None, None))
                        elif how is PLACES:
                            self._offer_places(what, card, card, zone, None, env, add)
                        else:
                            self._offer(what, card, zone, env, add)
            elif kind is AIMED_AT:  # by seat, its targets' zone and its cards' zones
                at = first[p]
                if zones[at] and (entry.general is None or entry.general.fn(self, env)):  # no target, no offer
                    self._aimed(entry, at, second[p], add)
            elif entry.sources is None:  # a move of no card aimed at a target
                self._offer(entry, None, None, env, add)
            elif entry.general is None or entry.general.fn(self, env):
                if entry.test is None and entry.target is not None and entry.to is None:
                    target: Compiled = entry.target
                    self._aimed(entry, target.fn(self, env), [z.fn(self, env) for z in entry.sources], add)
                    continue
                seen = set()
                allowed = entry.allowed
                for source in entry.sources:
                    zone = source.fn(self, env)
                    for card in zones[zone]:
                        if card < 0 or card in seen:
                            continue
                        seen.add(card)
                        if allowed is None or allowed[card]:
                            env["card"] = card
                            if entry.to is not None:
                                self._offer_places(entry, card, card, zone, None, env, add)
                            else:
                                self._offer(entry, card, zone, env, add)
        return picks

    def _aimed(self, move: Move, at: int, sources: Sequence[int], add: Callable[[Choice], None]) -> None:
        """A move of a card at a target with no test left to ask (its if: read the card alone, or nothing): each card
        it allows, from the zones sources, against each target in zone at. The target's zone names no card (target: is
        read with no card bound), so it is found once, and an empty one (no Sage to challenge yet) offers nothing
        without a card looked at."""
        zones = self.zones
        places = []  # (a loop, not a comprehension: in Python 3.11 that is a call of its own)
        for place, target in enumerate(zones[at]):
            if target >= 0:
                places.append(place)
        if not places:
            return
        seen: set[int] = set()
        allowed, number, stride = move.allowed, move.number, move.stride
        for zone in sources:
            for card in zones[zone]:
                if card < 0 or card in seen:
                    continue
                seen.add(card)
                if allowed is None or allowed[card]:
                    base = number + card * stride
                    for place in places:
                        add((base + place, move, card, zone, place, at, None))

    def _from_cells(
        self, group: Group, offers: list[tuple[Offer, ...]], env: dict[str, Any], add: Callable[[Choice], None]
    ) -> None:
        """A grid's group of moves: for each cell holding a card of the player to move, in cell order, each move
        open now (offers: by card, as _choices finds them for a zone's group)."""
        at = group.each.fn(self, env)
        owner, p = self.marks[at][0], self.player
        which = group.test.fn if group.test is not None else None
        for cell, card in enumerate(self.zones[at]):
            if owner[cell] != p:  # (a cell of the player's holds a card: owner and card leave a cell together)
                continue
            made = offers[card]
            if not made:
                continue
            # what its tests may read: the card and its cell (where it lies, for a move's effects, _take binds)
            env["card"], env["from"] = card, cell
            if which is not None and not which(self, env):
                continue
            for move, how, check in made:
                if how is EVERY:  # the commonest: every place it goes to, numbered
                    base = move.number + cell * move.places
                    for place in check(self, env):
                        add((base + place, move, card, at, place, None, cell))
                elif how is PLACES:
                    self._offer_places(move, cell, card, at, cell, env, add)
                elif check is None or check(self, env):  # a move of no places (a target is not asked on a grid)
                    add((move.number + cell, move, card, at, None, None, cell))

    def _from_piles(
        self, group: Group, offers: list[tuple[Offer, ...]], env: dict[str, Any], add: Callable[[Choice], None]
    ) -> None:
        """A group over rows of piles: pile by pile, the cards lying there in every row (in the game's order of cards
        with order: cards), each card once, with each move open now; from is bound to the card's pile."""
        zones, step = self.zones, group.step
        firsts = [row.fn(self, env) for row in group.rows]  # type: ignore[union-attr]  # a rows group has rows
        which = group.test.fn if group.test is not None else None
        seen: set[int] = set()
        for pile in range(group.piles):
            found = [(card, at) for at in [first + pile * step for first in firsts] for card in zones[at] if card >= 0]
            if group.by_card:
                found.sort()
            for card, at in found:
                if card in seen:
                    continue
                seen.add(card)
                made = offers[card]
                if not made:
                    continue
                env["card"], env["card@"], env["from"] = card, at, pile
                if which is not None and not which(self, env):
                    continue
                for move, how, check in made:
                    if how is EVERY:
                        base = move.number + card * move.places
                        for place in check(self, env):
                            add((base + place, move, card, at, place, None, pile))
                    elif how is PLACES:
                        self._offer_places(move, card, card, at, pile, env, add)
                    elif how is AIMED:  # at a target, from its pile
                        self._offer(move, card, at, env, add, pile)
                    elif check is None or check(self, env):
                        add((move.number + card, move, card, at, None, None, pile))

    def _offer_places(
        self,
        move: Move,
        key: int,
        card: int,
        zone: int,
        cell: int | None,
        env: dict[str, Any],
        add: Callable[[Choice], None],
    ) -> None:
        """A move to places: an offer for each place `to` gives that its test allows, numbered by key and place."""
        test = move.test
        if test is not None and not move.reads_target and not test.fn(self, env):
            return
        reads = move.reads_target and test is not None
        base = move.number + key * move.places
        places = move.to.fn(self, env)  # type: ignore[union-attr]  # only a move with to: comes here
        if move.where is not None:  # the places its test of the place alone allows: found once a list of moves
            found = env.get(move.where_key)
            if found is None:
                found = []
                for place in places:
                    env["to"] = place
                    if move.where.fn(self, env):
                        found.append(place)
                env[move.where_key] = found
            places = found
        for place in places:
            if reads:
                env["to"] = place
                if not test.fn(self, env):  # type: ignore[union-attr]  # reads is set only with a test
                    continue
            add((base + place, move, card, zone, place, None, cell))

    def _offer(
        self,
        move: Move,
        card: int | None,
        zone: int | None,
        env: dict[str, Any],
        add: Callable[[Choice], None],
        pile: int | None = None,
    ) -> None:
        test = move.test
        if move.target is None:
            if test is None or test.fn(self, env):
                add((move.number + (card if card is not None else 0), move, card, zone, None, None, pile))
            return
        if test is not None and not move.reads_target and not test.fn(self, env):
            return
        at = move.target.fn(self, env)
        base = move.number + (card * move.stride if card is not None else 0)
        reads = move.reads_target and test is not None
        for place, target in enumerate(self.zones[at]):
            if target < 0:
                continue
            if reads:
                env["target"] = target
                if not test.fn(self, env):  # type: ignore[union-attr]  # reads is set only with a test
                    continue
            add((base + place, move, card, zone, place, at, pile))

    def apply_action(self, action: int) -> None:
        if self.over:
            raise IllegalAction(f"{action} is not legal now (the game is over)")
        try:
            if self.chance is not None:
                self._resolve(action)
                return
            legal = self.legal_actions()
            try:
                i = legal.index(action)
            except ValueError:
                raise IllegalAction(f"{action} is not legal now") from None
            self._take(self.picks[i], len(legal) > 1)
        except RuleError as error:  # a move's test or an end's, not an effect's: said at the file
            raise fx.placed(self, error, None) from None

    def _take(self, choice: Choice, decided: bool) -> None:
        """A legal move played: recorded (decided: it was one of several), its cost spent, its effects run."""
        action, move, card, zone, place, at, cell = choice
        if decided:
            self.tally.decisions += 1
        self.history.append(action)
        self._legal = None
        p = self.player
        self.moves += 1
        # the move's bindings, its card's in the one literal when it plays one (cheaper than two more entries)
        env: dict[str, Any] = (
            {"me": p, "\0move": move, "card": card, "card@": zone} if card is not None else {"me": p, "\0move": move}
        )
        if place is not None:
            if at is not None:
                env["target"], env["target@"] = self.zones[at][place], at
            else:
                env["to"] = place
        if cell is not None:
            env["card#"] = env["from"] = cell
        if move.plays is not None:
            self.tally.events.append(self.g.plays[p][env[move.plays]])
        budget = self.g.book.budget
        if budget is not None:
            spent = move.cost
            if spent is None:
                spent = move.spend.fn(self, env)  # type: ignore[union-attr]  # a cost of None: a spend to ask
                if type(spent) is not int and (isinstance(spent, bool) or not isinstance(spent, int | float)):
                    raise RuleError(f"{move.name} spend: expected a number, found {spent!r}")
            self.g.setters[budget.index](self, p, self.values[budget.index][p] - spent)
        if move.plain or move.draws:  # effects that only change the position (then perhaps draw): in place, no frames
            for op in move.ops:
                try:
                    op(self, env)
                except RuleError as error:
                    raise fx.placed(self, error, op) from None
            if self.chance is not None:  # a card to draw: what follows the move waits for it in a frame (_drew runs it)
                if move.ends_turn or not self.g.quiet:
                    self.frames.append([self.g.after_move, 0, env])
                return
            if move.ends_turn or not self.g.quiet:
                self.after_move(env)
            if self.frames:  # a turn passed: the next one's effects
                self._run()
            elif self.over:
                self.chance = None
            return
        if move.ends_turn or not self.g.quiet:
            self.frames.append([self.g.after_move, 0, env])
        if move.ops:  # a move of no effects (the commonest: a turn ended) runs none: no frame to pop
            self.frames.append([move.ops, 0, env])
        self._run()

    def play_random(
        self, chance: random.Random, draws: Sequence[Callable[[], float]], limit: int, sizes: list[int]
    ) -> int:
        """The runner's random play in one method: the same draws in the same order (RandomAgent's
        legal[floor(draws[seat]() * len(legal))], chance from chance), so the same game as a step at a time,
        without the calls of a step (whose turn, the legal actions and their table, the check of the move)."""
        try:
            return self._play_random(chance, draws, limit, sizes)
        except RuleError as error:  # a move's test or an end's, not an effect's: said at the file
            raise fx.placed(self, error, None) from None

    def _play_random(
        self, chance: random.Random, draws: Sequence[Callable[[], float]], limit: int, sizes: list[int]
    ) -> int:
        history, note, zones, pile_at, step = self.history, sizes.append, self.zones, self.g.pile, self.g.pile_step
        rand = chance.random
        first = -1
        while not self.over and len(history) < limit:
            if self.chance is not None:
                if self.chance[0] == "draw":  # sample_chance's card, dealt without looking it up again
                    src = self.chance[3]  # a pile draw: from named, else the drawing pile (-1)
                    pile = zones[src if src >= 0 else pile_at + self.chance[1][0] * step]
                    self._drew(pile[floor(rand() * len(pile))])
                else:
                    self._resolve(self.sample_chance(chance))
                continue
            picks = self._choices()
            n = len(picks)
            if not n:
                _no_move(self.player)
            note(n)
            p = self.player
            if first < 0:
                first = p
            self._take(picks[floor(draws[p]() * n)], n > 1)
        self._legal = None
        return first

    def _resolve(self, action: int) -> None:
        chance, base = self.chance, self.g.book.chance_base
        assert chance is not None
        kind = chance[0]
        if kind == "draw":
            card = action - base
            pile = self.zones[self._pile_of(chance)]
            if card < 0 or card >= len(self.g.book.cards) or card not in pile:
                raise IllegalAction(f"{action} is not legal now (a draw)")
            self._drew(card)
            return
        elif kind == "first":
            seat = action - base - FIRST_OFFSET
            if not 0 <= seat < self.g.book.players:
                raise IllegalAction(f"{action} is not legal now (the first player)")
            self.history.append(action)
            self._legal = None
            self.player = seat
            self.chance = None
        else:
            _, dice, sides, name = chance
            face = action - base - ROLL_OFFSET
            if not 1 <= face <= sides:
                raise IllegalAction(f"{action} is not legal now (a die of {sides})")
            self.history.append(action)
            self._legal = None
            bindings = self.frames[-1][2]
            bindings[name] = bindings.get(name, 0) + face
            self.chance = ("roll", dice - 1, sides, name) if dice > 1 else None
        if self.chance is None:
            self._run()

    def _drew(self, card: int) -> None:
        """A card the draw pile holds, drawn: to the seat whose draw it is; the effects go on after the last."""
        chance = self.chance
        assert chance is not None
        self.history.append(self.g.book.chance_base + card)
        self._legal = None
        steps, to = chance[1], chance[2]
        seat, src = steps[0], chance[3]
        pile = self.zones[self._pile_of(chance)]
        pile.remove(card)
        self.put(card, to.base + seat if to.per_player else to.base)  # (to.index(seat), without its call)
        if not pile and src < 0:
            self._refill(seat)
        if len(steps) > 1:  # the next drawer's pile: the same one when the game shares it
            self.draw_cards(list(steps[1:]), to, src)
        else:
            self.chance = None
        if self.chance is None:
            self._run()

    # -- running effects ------------------------------------------------------------------------
    def _run(self) -> None:
        frames = self.frames
        steps = 0
        while frames and self.chance is None and not self.over:
            frame = frames[-1]
            ops, at, env = frame
            n, depth = len(ops), len(frames)
            # the top frame's effects in turn, its locals held, until one pushes a frame (an if's branch, an
            # apply), asks chance or ends the game: then the outer loop takes the stack up as it stands
            while at < n:
                frame[1] = at + 1
                try:  # (no cost in 3.11 until an error comes: then said at the effect's place in play.yaml)
                    ops[at](self, env)
                except RuleError as error:
                    raise fx.placed(self, error, ops[at]) from None
                steps += 1
                if steps > MAX_STEPS:
                    raise RuleError(f"more than {MAX_STEPS:,} effects in one action: the rules loop")
                if len(frames) != depth or self.chance is not None or self.over:
                    break
                at += 1
            else:
                frames.pop()
        if self.over:
            frames.clear()
            self.chance = None
        self._legal = None

    def push(self, ops: Block, env: dict[str, Any]) -> None:
        if len(self.frames) >= MAX_FRAMES:
            _too_deep()
        if ops:
            self.frames.append([ops, 0, env])

    def run_inline(self, ops: Block, env: dict[str, Any]) -> None:
        """An if's branch: its effects next, with the same bindings (a let there is seen after it)."""
        self.push(ops, env)

    def finish(self, winner: int | None, how: str) -> None:
        if not self.over:
            self._finish(winner, how)

    def set_counter(self, counter: Counter, seat: int, value: Any) -> None:
        """The counter's value for the seat set within its bounds (for a counter of piles, seat is the pile's place
        among its values, pile x players + seat: a bound is read for the seat it is)."""
        high, low = self.g.limits[counter.index]
        # a bound read as _limit shaped it: a number (min: 0), the seat's own counter (max: my.cap) or a call
        if (high is not None or low is not None) and counter.piles:
            self._set_pile(counter, seat, value)
            return
        if high is not None:
            kind, how = high
            top = how if kind is FIXED else self.values[how][seat] if kind is MINE else how(self, {"me": seat})
            if value > top:
                value = top
        if low is not None:
            kind, how = low
            bottom = how if kind is FIXED else self.values[how][seat] if kind is MINE else how(self, {"me": seat})
            if value < bottom:
                value = bottom
        self.values[counter.index][seat] = value

    def _set_pile(self, counter: Counter, at: int, value: Any) -> None:
        """A counter of piles' value set within its bounds, each read for the seat whose side of the pile it is."""
        seat = at % self.g.book.players
        for bound, above in zip(self.g.limits[counter.index], (True, False), strict=True):
            if bound is not None:
                kind, how = bound
                edge = how if kind is FIXED else self.values[how][seat] if kind is MINE else how(self, {"me": seat})
                value = min(value, edge) if above else max(value, edge)
        self.values[counter.index][at] = value

    # -- cards ----------------------------------------------------------------------------------
    def put(self, card: int, at: int, open_slot: bool = False) -> int:
        """The card into zone at, as its rules place it; where it ended (a full zone's overflow takes it)."""
        zone, owner = self.g.book.zone_at[at]
        cards = self.zones[at]
        if zone.slots is not None:
            if open_slot:
                try:
                    i = cards.index(-1)
                except ValueError:
                    raise RuleError(f"{zone.name} has no open slot") from None
            else:
                if zone.slot_of is None:
                    raise RuleError(f"{zone.name}: a card goes to a slot by slot: (or move it with slot: open)")
                key = zone.slot_of.fn(self, {"me": max(owner, 0), "card": card})
                i = self.g.slot_index[zone.name].get(key, -1)
                if i < 0:
                    raise RuleError(f"{zone.name} has no slot {key!r}")
            if cards[i] >= 0:
                raise RuleError(f"{zone.name}'s slot {zone.slots[i]} is taken")
            cards[i] = card
            return at
        if zone.limit is not None and len(cards) >= zone.limit:
            if zone.overflow is None:
                raise RuleError(f"{zone.name} is full ({zone.limit} cards): the rules let a card in past its limit")
            spill = self.g.book.zones[zone.overflow]
            return self.put(card, spill.index(max(owner, 0)))
        if zone.order == "sorted":
            insort(cards, card)
        elif self.tops and at in self.tops:  # beneath the known tops: a pile is drawn from its top
            cards.insert(len(cards) - self.tops[at], card)
        else:
            cards.append(card)
        return at

    def to_cell(self, card: int, source: int | None, cell: int | None, at: int, to: int, seat: int) -> int:
        """The card onto an empty cell of the grid at, owned by seat: from a cell of it with its marks, or from the
        zone it lies in with its marks afresh; the cell."""
        zone = self.g.book.zone_at[at][0]
        cards, rows = self.zones[at], self.marks[at]
        if type(to) is not int or not 0 <= to < len(cards):
            raise RuleError(f"move: {zone.name} has no cell {to!r}")
        if cards[to] >= 0:
            raise RuleError(f"move: {zone.name}'s cell {to} is taken")
        if source == at and cell is not None and cards[cell] == card:
            for row in rows:  # a step: the card's owner and marks go with it
                row[to], row[cell] = row[cell], -1
            cards[to], cards[cell] = card, -1
            return to
        self.take_from(card, source, cell)
        cards[to] = card
        rows[0][to] = seat
        env = {"me": seat, "card": card}
        for k, start in enumerate(zone.marks.values(), 1):
            rows[k][to] = start.fn(self, env)
        return to

    def clear_cell(self, at: int, cell: int) -> None:
        """The card on a grid's cell leaves play, its owner and marks with it."""
        self.zones[at][cell] = -1
        for row in self.marks[at]:
            row[cell] = -1

    def take(self, card: int, at: int) -> bool:
        cards = self.zones[at]
        if self.g.book.zone_at[at][0].grid is not None:
            if card not in cards:
                return False
            self.clear_cell(at, cards.index(card))
            return True
        if self.g.book.zone_at[at][0].slots is not None:
            if card not in cards:
                return False
            cards[cards.index(card)] = -1
        elif self.tops and at in self.tops:  # a pile with known tops: one of them taken leaves one fewer
            try:
                i = cards.index(card)
            except ValueError:
                return False
            if i >= len(cards) - self.tops[at]:
                self._untop(at)
            del cards[i]
        else:
            try:
                cards.remove(card)
            except ValueError:
                return False
        for known in self.known:
            known.discard(card)
        return True

    def take_from(self, card: int, hint: int | None, cell: int | None = None) -> int:
        """The card off the zone it lies in (hint first: where the rules last put it, on a grid at cell); that zone."""
        if hint is not None and cell is not None:
            on_grid = self.g.book.zone_at[hint][0].grid is not None
            if on_grid and self.zones[hint][cell] == card:  # this very card, not another copy elsewhere on the grid
                self.clear_cell(hint, cell)
                return hint
        if hint is not None and self.take(card, hint):
            return hint
        for at in range(len(self.zones)):
            if self.take(card, at):
                return at
        raise RuleError(f"{self.g.book.cards[card]} lies in no zone")

    def _refill(self, seat: int) -> None:
        g = self.g
        pile, refill = g.pile + seat * g.pile_step, g.refill + seat * g.pile_step
        if g.refill >= 0 and not self.zones[pile] and self.zones[refill]:
            self.zones[pile], self.zones[refill] = self.zones[refill], []
            if self.tops:  # the refill's known tops are shuffled in: none stays known on top
                self.tops.pop(pile, None)
                self.tops.pop(refill, None)
            for known in self.known:
                known.difference_update(self.zones[pile])

    def draw_cards(self, steps: list[int], to: Zone, src: int = -1) -> None:
        """Cards off a pile one at a time, to the seats in steps: src's (a zone index), or with -1 the drawing pile
        (an emptied one refilled first). A known top card (put there by on_top) is taken at once, with no chance."""
        g = self.g
        while steps:  # a drawer whose pile is empty (and cannot be refilled) draws nothing
            seat = steps[0]
            at = src if src >= 0 else g.pile + seat * g.pile_step
            if src < 0 and not self.zones[at]:
                self._refill(seat)
            if self.zones[at]:
                if self.tops and self.tops.get(at):  # its top is known: no chance node, the card is taken
                    self._draw_top(at, to.index(seat))
                    steps = steps[1:]
                    continue
                self.chance = ("draw", tuple(steps), to, src)
                return
            if src >= 0 or not g.pile_step:  # one shared pile, empty: nobody draws
                break
            steps = steps[1:]
        self.chance = None

    def _pile_of(self, chance: tuple[Any, ...]) -> int:
        """The zone a chance draw takes its card from: the one its draw named, else the drawer's drawing pile."""
        src = chance[3]
        return int(src) if src >= 0 else self.g.pile + chance[1][0] * self.g.pile_step

    def _draw_top(self, at: int, to: int) -> None:
        """The known top card of pile at drawn into zone to."""
        pile = self.zones[at]
        card = pile.pop()
        self._untop(at)
        for known in self.known:
            known.discard(card)
        self.put(card, to)

    def _untop(self, at: int) -> None:
        left = self.tops[at] - 1
        if left:
            self.tops[at] = left
        else:
            del self.tops[at]

    def put_on_top(self, card: int, at: int, seat: int) -> None:
        """The card face down on top of the pile at, known to seat: the next draw from that pile takes it, no chance."""
        zone, _ = self.g.book.zone_at[at]
        if zone.order != "pile" or zone.slots is not None or zone.grid is not None:
            raise RuleError(f"move on_top: {zone.name} is no pile (it is sorted, slots or a grid): it has no top")
        if zone.limit is not None and len(self.zones[at]) >= zone.limit:  # full: as put() would, or its overflow's
            self.put(card, at)
            return
        self.zones[at].append(card)
        self.tops[at] = self.tops.get(at, 0) + 1
        self.known[seat].add(card)

    def ask_first(self) -> None:
        self.chance = ("first",)

    def ask_roll(self, dice: int, sides: int, name: str) -> None:
        self.frames[-1][2][name] = 0
        self.chance = ("roll", dice, sides, name)

    def schedule(self, seat: int, turns: int, ops: Block, env: dict[str, Any]) -> None:
        if turns > 0 and ops:
            if len(self.later[seat]) >= 1000:
                raise RuleError("more than 1,000 effects waiting for later turns: the rules pile them up")
            self.later[seat].append((turns, ops, env))

    def end_turn_now(self) -> None:
        self.ending = True

    def extra_turn(self, seat: int) -> None:
        if seat == self.player:
            self.extra += 1

    # -- turns ----------------------------------------------------------------------------------
    def after_move(self, env: dict[str, Any]) -> None:
        book = self.g.book
        move: Move = env["\0move"]
        budget = book.budget
        p = self.player
        ending = move.ends_turn or self.ending or (budget is not None and self.values[budget.index][p] <= 0)
        asks = move.asks[self.fresh][ending]
        # as the next move is made, the ends held false here: through a turn's passing (2) or not (1)
        self.fresh = 2 if ending else 1
        for end, test, by in asks:  # an after: turn end is asked only as a turn ends
            if test is not None:  # a wins or loses end, _ended's commonest, written in: it is asked every move
                seats = self.g.seats
                if len(seats) > 1:  # a check asked before bound its value here: emptied, as a new one would be
                    seats.clear()
                for seat in self.g.rounds[p]:  # from the player to move on, round the table
                    seats["me"] = seat
                    if test(self, seats):
                        self._finish((seat + by) % book.players, end.how)
                        return
            elif self._ended(end):
                return
        if book.cap_moves is not None and self.moves >= book.cap_moves:
            self._finish(None, "cap")
            return
        if ending:
            self.pass_turn()

    def _ended(self, end: End) -> bool:
        players = self.g.book.players
        if end.kind in ("wins", "loses"):
            test, p = end.test.fn, self.player
            env = {"me": p}  # one set of bindings for the seats in turn (a check's value in it is set before read)
            for i in range(players):  # from the player to move on, round the table
                seat = (p + i) % players
                env["me"] = seat
                if test(self, env):  # a test compiled as one (as_test): its answer is true or false already
                    self._finish(seat if end.kind == "wins" else (seat + 1) % players, end.how)
                    return True
            return False
        if not end.test.fn(self, {"me": self.player}):
            return False
        if end.kind == "draw":
            self._finish(None, end.how)
            return True
        assert end.score is not None
        scores = [end.score.fn(self, {"me": seat}) for seat in range(players)]
        best = max(scores)
        self._finish(scores.index(best) if scores.count(best) == 1 else None, end.how)
        return True

    def pass_turn(self) -> None:
        self.ending = False
        g = self.g
        if not g.plain_end:
            self._pass_by_frames()
            return
        # a turn's end (and start) of effects that only change the position: run here, in the order their frames would
        # run them (a turn ends every other move or so: its frames cost more than its effects)
        book = g.book
        turn_end = book.turn_end
        if turn_end:
            env = {"me": self.player}
            for op in turn_end:
                try:
                    op(self, env)
                except RuleError as error:
                    raise fx.placed(self, error, op) from None
        p = self.player if self.extra > 0 else (self.player + 1) % book.players
        if self.later[p]:  # effects waiting for the turn: begin_turn's frames run them in their order
            self.push(g.next_turn, {"me": self.player})
            return
        if self.extra > 0:
            self.extra -= 1
        self.player = p
        self.turn += 1
        if book.cap_turns is not None and self.turn > book.cap_turns:
            self._finish(None, "cap")
            return
        env = {"me": p}
        if not g.plain_start:  # begin_turn's frames, less the one that would have come to it
            self.push(g.check_budget, env)
            self.push(book.turn_start, {"me": p})
            return
        for op in book.turn_start:
            try:
                op(self, env)
            except RuleError as error:
                raise fx.placed(self, error, op) from None
        budget = book.budget
        if self.ending or (budget is not None and self.values[budget.index][p] <= 0):  # _check_budget's test
            self._pass_by_frames()  # by frames, not in place: rules that pass every turn at once loop as frames do

    def _pass_by_frames(self) -> None:
        """The turn passed by the effect stack: its end's effects, then the next turn's (_next_turn)."""
        self.ending = False
        self.push(self.g.next_turn, {"me": self.player})
        turn_end = self.g.book.turn_end
        if turn_end:
            self.push(turn_end, {"me": self.player})
        elif len(self.frames) >= MAX_FRAMES:  # push's bound, kept for a turn of no end effects too
            _too_deep()

    def begin_turn(self) -> None:
        book = self.g.book
        self.turn += 1
        if book.cap_turns is not None and self.turn > book.cap_turns:
            self._finish(None, "cap")
            return
        p = self.player
        self.push(self.g.check_budget, {"me": p})
        waiting = self.later[p]
        if waiting:  # most turns have nothing waiting: no lists made for them
            self.fresh = 0  # effects of any kind run: the next move's ends are all asked
            self.later[p] = []
            for _turns, ops, env in reversed(waiting):  # pushed last first: they run in the order they were made
                self.push(ops, dict(env))
            self.later[p] = [(turns - 1, ops, env) for turns, ops, env in waiting if turns > 1]
        self.push(book.turn_start, {"me": p})

    # -- views ----------------------------------------------------------------------------------
    def observation(self, player: int) -> dict[str, Any]:
        book = self.g.book
        names = book.cards
        zones: dict[str, Any] = {}
        for at, (zone, owner) in enumerate(book.zone_at):
            key = zone.name if owner < 0 else f"{zone.name}[{owner}]"
            if zone.piles:  # a row's pile by its number (from 0), then its side
                pile = (at - zone.base) // zone.step
                key = f"{zone.name}.{pile}" if owner < 0 else f"{zone.name}.{pile}[{owner}]"
            cards = self.zones[at]
            if not zone.hidden_from(player, owner):
                zones[key] = [names[c] if c >= 0 else None for c in cards]
            elif zone.order == "sorted" or at in self.g.piles:
                zones[key] = {"count": len(cards), "known": sorted(names[c] for c in cards if c in self.known[player])}
            else:
                zones[key] = [None if c < 0 else names[c] if c in self.known[player] else "?" for c in cards]
        counters: dict[str, Any] = {c.name: self.values[c.index][:] for c in book.counters.values()}
        players = book.players
        for c in book.counters.values():
            if c.piles:  # a counter of piles: its seats' values pile by pile
                row = self.values[c.index]
                counters[c.name] = [row[i * players : (i + 1) * players] for i in range(c.piles)]
        seen = {"zones": zones, "counters": counters, "to_move": self.current_player(), "turn": self.turn}
        if self.marks:  # each grid's owners and marks by cell, as all see them (a grid is visible to all)
            seen["marks"] = {
                z.name: {name: self.marks[z.base][k][:] for k, name in enumerate(["owner", *z.marks])}
                for z in self.g.grids
            }
        return seen

    def resample(self, player: int, rng: random.Random) -> PlayState:
        """The cards player cannot see dealt anew among the places they lie, each place taking only a card it may."""
        other = self.clone()
        book = self.g.book
        places: list[tuple[int, int, int]] = []  # (how soon to fill, zone, place)
        pool: list[int] = []
        for at, (zone, owner) in enumerate(book.zone_at):
            if not zone.hidden_from(player, owner):
                continue
            rank = 0 if zone.holds is not None or zone.slots is not None else 2 if at in self.g.piles else 1
            for i, card in enumerate(other.zones[at]):
                if card >= 0 and card not in other.known[player]:
                    places.append((rank, at, i))
                    pool.append(card)
        rng.shuffle(pool)
        places.sort()
        for _, at, i in places:
            zone, owner = book.zone_at[at]
            found = next((k for k, card in enumerate(pool) if self._fits(zone, owner, i, card)), -1)
            if found < 0:
                return self.clone()  # no deal fits what the player knows: keep the cards where they are
            other.zones[at][i] = pool.pop(found)
        for at, (zone, _) in enumerate(book.zone_at):
            if zone.order == "sorted" and zone.slots is None:
                other.zones[at].sort()
        other._legal = None
        other.fresh = 0  # cards dealt anew: the ends are all asked after the next move
        return other

    def _fits(self, zone: Zone, owner: int, place: int, card: int) -> bool:
        env = {"me": max(owner, 0), "card": card}
        if zone.holds is not None and not truthy(zone.holds.fn(self, env)):
            return False
        if zone.slots is not None and zone.slot_of is not None:
            return bool(self.g.slot_index[zone.name].get(zone.slot_of.fn(self, env), -1) == place)
        return True

    def heuristic(self, player: int) -> float:
        if self.over:
            return self.returns()[player]
        book = self.g.book
        if book.value is None:
            return 0.0
        value = book.value.fn
        # against the best placed of the others: with two, the other one
        best = max(value(self, {"me": seat}) for seat in range(book.players) if seat != player)
        score = (value(self, {"me": player}) - best) / book.scale
        if book.curve == "tanh":
            return math.tanh(score)
        return max(-1.0, min(1.0, score))

    def _choice(self, action: int) -> Choice | None:
        legal = self.legal_actions()
        return self.picks[legal.index(action)] if action in legal else None

    def played_card(self, action: int) -> str | None:
        if self.chance is not None or self.over:
            return None
        choice = self._choice(action)
        if choice is None or choice[1].plays is None:
            return None
        _, move, card, _, place, at, _ = choice
        if move.plays == "card":
            return self.g.book.cards[card] if card is not None else None
        return self.g.book.cards[self.zones[at][place]] if at is not None and place is not None else None

    def action_to_string(self, action: int) -> str:
        book, base = self.g.book, self.g.book.chance_base
        if self.chance is not None:
            if self.chance[0] == "draw":
                return f"draws {book.names[action - base]}" if 0 <= action - base < len(book.names) else str(action)
            if self.chance[0] == "first":
                return f"first player: seat {action - base - FIRST_OFFSET}"
            return f"rolls {action - base - ROLL_OFFSET}"
        choice = self._choice(action)
        if choice is None:
            return str(action)
        _, move, card, _, place, at, cell = choice
        card_name = book.names[card] if card is not None else ""
        target_name = ""
        if at is not None and place is not None:
            zone, owner = book.zone_at[at]
            target_name = (
                f"{zone.name} {place + 1}"
                if zone.hidden_from(self.player, owner)
                else book.names[self.zones[at][place]]
            )
        if move.says:
            said = move.says.replace("{card}", card_name).replace("{target}", target_name)
            if move.to is not None:  # a place as players count them, from 1
                said = said.replace("{to}", str((place or 0) + 1)).replace("{from}", str((cell or 0) + 1))
            return said
        return " ".join(w for w in (move.name, card_name, target_name and f"-> {target_name}") if w)


def _limit(bound: Compiled | None) -> Limit:
    """A counter's bound as set_counter reads it: its number if constant, the seat's counter if it names one (my.cap),
    else its compiled call; None: no bound."""
    if bound is None:
        return None
    if bound.constant:
        return FIXED, bound.fn(None, {})
    if type(bound.meta) is tuple and bound.meta[0] == "mine":
        return MINE, bound.meta[1]
    return READ, bound.fn


def _setter(counter: Counter, high: Limit, low: Limit) -> Setter:
    """set_counter for one counter, the shapes of its bounds settled once: a counter is set a few times a move (an
    action spent, tokens gained), and looking its bounds up and asking their kinds cost more than the setting. A bound
    that is a number or the seat's own counter (min: 0, max: my.cap) is read here; one of any other shape, through
    set_counter."""
    index = counter.index
    bounded = high is not None or low is not None
    # a bound read any other way, or any bound of a counter of piles (read for the seat whose side of the pile it is,
    # not at the value's place): set_counter's
    if (high is not None and high[0] is READ) or (low is not None and low[0] is READ) or (bounded and counter.piles):
        return lambda s, seat, value: s.set_counter(counter, seat, value)
    if high is None and low is None:

        def store(s: PlayState, seat: int, value: Any) -> None:
            s.values[index][seat] = value

        return store
    # no bound: one no number passes (set_counter asks none: the comparison with infinity changes nothing)
    top = high[1] if high is not None and high[0] is FIXED else math.inf
    bottom = low[1] if low is not None and low[0] is FIXED else -math.inf
    if (high is None or high[0] is FIXED) and (low is None or low[0] is FIXED):

        def clamp(s: PlayState, seat: int, value: Any) -> None:
            if value > top:
                value = top
            if value < bottom:
                value = bottom
            s.values[index][seat] = value

        return clamp
    top_at = high[1] if high is not None and high[0] is MINE else -1
    bottom_at = low[1] if low is not None and low[0] is MINE else -1

    def clamp_mine(s: PlayState, seat: int, value: Any) -> None:
        values = s.values
        if value > (values[top_at][seat] if top_at >= 0 else top):
            value = values[top_at][seat] if top_at >= 0 else top
        if value < (values[bottom_at][seat] if bottom_at >= 0 else bottom):
            value = values[bottom_at][seat] if bottom_at >= 0 else bottom
        values[index][seat] = value

    return clamp_mine


def _known(*writes: frozenset[str] | None) -> frozenset[str] | None:
    """The names all of writes can write, or None when one of them may write anything."""
    out: frozenset[str] = frozenset()
    for names in writes:
        if names is None:
            return None
        out |= names
    return out


def _move_writes(move: Move, each: Compiled | None, budget: Counter | None) -> frozenset[str] | None:
    """The zones and counters a move can write, by name: its effects' (its card's or target's own zone among them,
    fx.CARD, as the zones it comes from) and the budget it spends; None when it may write anything."""
    writes = fx.writes(move.ops)
    if writes is None:
        return None
    out = set(writes)
    if fx.CARD in out:
        out.discard(fx.CARD)
        for ref in [*(move.sources or ()), move.target, each]:
            if ref is None:
                continue
            if not isinstance(ref.meta, Zone):
                return None
            out.add(ref.meta.name)
        if each is None and move.sources is None:
            return None  # a card of no zone known to come from
    if budget is not None:
        out.add(budget.name)
    return frozenset(out)


def _unread(end: End, book: Book, writes: frozenset[str] | None) -> bool:
    """Whether an end asked after every move reads none of writes: held false before them, it still does."""
    return (
        writes is not None
        and end.reads is not None
        and any(end is e for e in book.move_ends)
        and end.reads.isdisjoint(writes)
    )


def _no_move(seat: int) -> None:
    raise RuleError(f"seat {seat} is to move and the rules offer it no move: give it one that is always there (a pass)")


def _too_deep() -> None:
    raise RuleError(f"effects inside effects more than {MAX_FRAMES} deep: the rules recurse without end")


def _after_move(s: PlayState, env: dict[str, Any]) -> None:
    s.after_move(env)


def _next_turn(s: PlayState, env: dict[str, Any]) -> None:
    if s.extra > 0:
        s.extra -= 1
    else:
        s.player = (s.player + 1) % s.g.book.players
    s.begin_turn()


def _check_budget(s: PlayState, env: dict[str, Any]) -> None:
    budget = s.g.book.budget
    if s.ending or (budget is not None and s.values[budget.index][s.player] <= 0):
        s.pass_turn()


def _first_turn(s: PlayState, env: dict[str, Any]) -> None:
    s.begin_turn()
