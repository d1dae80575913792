"""Time Line: Atlanteans and Teraxians travel the twelve Eras, change history, recruit and fight.

Every figure comes from cards/time-line/: the Eras and their Force, the units (Force, Move,
start, counters), the recruit tables, the dice thresholds, and the 74 cards with their users
and effects. Rolls are chance nodes of a six-sided die.
"""

from __future__ import annotations

import bisect
import copy
import math
import operator
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from itertools import compress
from typing import Any, get_args

from engine.api import CHANCE, TERMINAL, Event, GameDef, IllegalAction, TwoPlayerState, pick
from engine.cards import records
from engine.cards.time_line import TimeCard, TimeLineEffectKind
from engine.games.time_line_steps import (
    AfterRoll,
    AutoAfterRound,
    AutoMeet,
    AutoMeeting,
    AutoNextRound,
    AutoRound,
    Avoid,
    BeginChange,
    BeginRecruit,
    BeginSeek,
    Carried,
    Choice,
    Discard,
    Draw,
    EscapeTo,
    ForceCard,
    FromDeck,
    Kind,
    Order,
    Peek,
    PickEra,
    PickStack,
    Relocate,
    Roll,
    RollCard,
    Shift,
    Stance,
    Step,
    Summon,
    Travel,
    Tutor,
)
from printkit.data.game import Game

END, FIGHT, AVOID, HIDE, ESCAPE, CONTINUE, STOP, NO_CARD = 1, 2, 3, 4, 5, 6, 7, 9
MOVE, PLAY, PICK_STACK, PICK_ERA, PICK_CARD, DIE, DRAW = 100_000, 200_000, 300_000, 310_000, 320_000, 400_000, 410_000
LOWER = 500_000  # + card x stride + effect: an any-roll card played to take its amount off a roll
FACES = 6


ROLL_EFFECTS = frozenset({"change_roll", "any_roll", "hide_roll", "escape_roll", "enemy_hide_roll"})
# every other effect kind is played in Time Travel (the rule option general_cards_in_travel),
# so a kind added to the model is playable there without being listed twice
TRAVEL_EFFECTS = frozenset(get_args(TimeLineEffectKind)) - ROLL_EFFECTS - {"force"}


def _a(name: str) -> str:
    """A unit's name with its article, for the replay: "an Agent", "a Wizard"."""
    return ("an " if name[:1].lower() in "aeiou" else "a ") + name


@dataclass(frozen=True)
class UnitType:
    id: str
    name: str
    faction: int  # seat, or -1 for period troops (whoever recruits them)
    force: int
    move: int
    supply: int
    start: int
    era: int  # a period troop's Era, else -1


@dataclass(frozen=True)
class CardDef:
    id: str
    name: str
    seat: int
    users: tuple[str, ...]
    effects: tuple[tuple[str, int], ...]
    fits: tuple[int, ...]  # the unit types that may use the card, worked out once from its users
    anyone: bool  # user "none": the card needs no unit at all
    travel: tuple[tuple[int, str], ...]  # (index, kind) of the effects played in Time Travel


@dataclass(frozen=True)
class Rules:
    eras: tuple[str, ...]
    homes: tuple[int, int]  # each seat's home Era
    types: tuple[UnitType, ...]
    cards: tuple[CardDef, ...]
    recruit: tuple[tuple[tuple[str | None, int], ...], tuple[tuple[str | None, int], ...]]  # per seat: by roll 1..6
    draw: int
    success: int
    bonus_types: frozenset[str]
    bonus: int
    extra_rolls: tuple[int, int, int]  # seat, Era, rolls
    lose_max: int
    tie_split: int
    escape_penalty: int
    turn_cap: int
    home_controlled: bool
    combat_cap: int
    roll_cards: int  # cards one player may add to one roll
    takes_over: bool  # control_enemy_unit this_turn: the enemy unit is the player's until the turn ends


def rules_from(game: Game) -> Rules:
    info = game.info
    seats = [f.id for f in info.factions]
    eras = [e.id for e in info.eras]
    types: list[UnitType] = []
    for c in info.components:
        if c.unit and c.faction:
            types.append(
                UnitType(c.id, c.name, seats.index(c.faction), c.unit.force, c.unit.move, c.count, c.unit.start, -1)
            )
    for c in info.components:
        if c.kind == "counter" and c.era:
            era = next(e for e in info.eras if e.id == c.era)
            types.append(UnitType(c.id, c.name, -1, int(era.force or 0), 0, c.count, 0, eras.index(era.id)))

    def fits(users: list[str]) -> tuple[int, ...]:
        return tuple(
            i
            for i, t in enumerate(types)
            if any(u == "all" or (u == "period" and t.faction < 0) or u == t.id for u in users)
        )

    cards = tuple(
        CardDef(
            c.id,
            c.name,
            seats.index(c.faction),
            tuple(c.users),
            tuple((e.kind, e.amount or 0) for e in c.effects),
            fits(c.users),
            "none" in c.users,
            tuple((k, e.kind) for k, e in enumerate(c.effects) if e.kind in TRAVEL_EFFECTS),
        )
        for c in records(game, TimeCard)
    )
    recruit = tuple(
        tuple((line.unit, line.draw) for line in sorted(f.recruit, key=lambda x: x.roll)) for f in info.factions
    )
    extra_seat = seats.index(str(game.rule("extra_rolls_faction")))
    return Rules(
        eras=tuple(eras),
        homes=(eras.index(info.factions[0].home_era or ""), eras.index(info.factions[1].home_era or "")),
        types=tuple(types),
        cards=cards,
        recruit=(recruit[0], recruit[1]),
        draw=int(game.rule("cards_per_turn")),
        success=int(game.rule("success_roll")),
        bonus_types=frozenset(str(game.rule("control_bonus_units")).split(",")),
        bonus=int(game.rule("control_bonus")),
        extra_rolls=(
            extra_seat,
            eras.index(str(game.rule("extra_rolls_era"))),
            int(game.rule("prehistory_rolls_atlantean")),
        ),
        lose_max=int(game.rule("combat_disadvantaged_loses_max")),
        tie_split=int(game.rule("combat_tie_split")),
        escape_penalty=int(game.rule("escape_penalty_in_combat")),
        turn_cap=int(game.rule("turn_cap")),
        home_controlled=bool(game.rule("home_controlled_at_start")),
        combat_cap=int(game.rule("combat_round_cap")),
        roll_cards=int(game.rule("one_roll_card")),
        takes_over=game.rule("control_enemy_unit") == "this_turn",
    )


@dataclass(slots=True)
class Effects:
    """What cards and choices have set up for later in the turn, or until their player's next turn."""

    roll_plus: dict[int, int] = field(default_factory=dict)  # Era -> added to its next roll by cards
    move_plus: dict[tuple[int, int, int], int] = field(default_factory=dict)  # (seat, Era, unit type) -> Move added
    beacon: list[tuple[int, int]] = field(default_factory=list)  # (seat, Era) of a Time Beacon, until the seat's turn
    barrier: list[tuple[int, int]] = field(default_factory=list)  # (seat, Era): no unit moves past it
    stasis: list[tuple[int, int]] = field(default_factory=list)  # (seat, Era): no unit leaves it
    force: dict[tuple[int, int], dict[int, int]] = field(default_factory=dict)  # (seat, Era) -> unit type -> Force
    stance: dict[tuple[int, int], int] = field(default_factory=dict)  # (seat, Era) -> FIGHT or AVOID, for a meeting
    wish: dict[int, int] = field(default_factory=dict)  # seat -> CONTINUE, STOP or ESCAPE, after a combat roll

    def copy(self) -> Effects:
        return Effects(
            dict(self.roll_plus),
            dict(self.move_plus),
            self.beacon[:],
            self.barrier[:],
            self.stasis[:],
            {key: dict(value) for key, value in self.force.items()},
            dict(self.stance),
            dict(self.wish),
        )


class TimeLineGame(GameDef):
    slug = "time-line"

    def __init__(self, game: Game) -> None:
        self.title = game.title
        self.rules = rules_from(game)
        r = self.rules
        printed = {e.id: e.name for e in game.info.eras}
        self.era_names = tuple(printed.get(e, e) for e in r.eras)  # as the board prints them, for replays
        # a card's effect k is played as PLAY + card x stride + k: the stride is the most effects a card has
        self.stride = max((len(c.effects) for c in r.cards), default=1) or 1
        n_eras, n_types, n_cards = len(r.eras), len(r.types), len(r.cards)
        for what, used, room in (
            (f"{n_eras} Eras and {n_types} unit types make moves", n_eras * n_types * n_eras, PLAY - MOVE),
            (f"{n_cards} cards of up to {self.stride} effects make plays", n_cards * self.stride, PICK_STACK - PLAY),
            (f"{n_eras} Eras and {n_types} unit types make stacks", n_eras * n_types, PICK_ERA - PICK_STACK),
            (f"{n_cards} cards make picks", n_cards, DIE - PICK_CARD),
            (f"{n_cards} cards make draws", n_cards, LOWER - DRAW),
        ):
            if used > room:
                raise ValueError(f"{what}: {used:,}, more than the engine numbers ({room:,})")
        # cards either player may play on any roll, to raise or lower it (Probability Shift)
        self.shift_cards = frozenset(i for i, c in enumerate(r.cards) if any(k == "any_roll" for k, _ in c.effects))
        # read at every travel decision and every judgement of a position
        self.moves = tuple(t.move for t in self.rules.types)
        self.forces = tuple(t.force for t in self.rules.types)
        self.travellers = tuple(i for i, t in enumerate(self.rules.types) if t.move > 0)
        self.period_types = tuple(i for i, t in enumerate(self.rules.types) if t.faction < 0)
        self.period_of = tuple(next((i for i, t in enumerate(r.types) if t.era == era), None) for era in range(n_eras))
        self.bonus_units = tuple(i for i, t in enumerate(r.types) if t.id in r.bonus_types)

        def plays_of(*kinds: str) -> tuple[tuple[int, ...], ...]:
            """Each card's plays of effects of these kinds, by action number."""
            return tuple(
                tuple(PLAY + card * self.stride + k for k, (kind, _) in enumerate(c.effects) if kind in kinds)
                for card, c in enumerate(r.cards)
            )

        self.force_plays = plays_of("force")
        self.force_cards = frozenset(card for card, plays in enumerate(self.force_plays) if plays)
        self.faction_units = tuple(i for i, t in enumerate(r.types) if t.faction >= 0)
        rolls = ("change", "hide", "escape", "enemy_hide")
        self.roll_plays = {roll: plays_of(f"{roll}_roll") for roll in rolls}
        self.roll_cards = {
            roll: frozenset(c for c, plays in enumerate(self.roll_plays[roll]) if plays) for roll in rolls
        }
        self.faction_types = tuple(tuple(i for i, t in enumerate(self.rules.types) if t.faction == s) for s in (0, 1))
        # each card's travel plays: (action, the card it asks about, its effect kind); cards of one kind and
        # one set of users have one answer, so the first such card (by number) answers for the rest
        first: dict[tuple[str, tuple[str, ...]], int] = {}
        self.travel_plays = tuple(
            tuple(
                (PLAY + card * self.stride + k, first.setdefault((kind, c.users), card * self.stride + k), kind)
                for k, kind in c.travel
            )
            for card, c in enumerate(r.cards)
        )
        # each of those first cards, its effect kind, and whether its use hangs on where the units stand
        self.travel_asks: dict[int, tuple[CardDef, str, bool]] = {}
        for key in first.values():
            c, kind = r.cards[key // self.stride], r.cards[key // self.stride].effects[key % self.stride][0]
            self.travel_asks[key] = (c, kind, kind in _PLACED and not c.anyone)
        self.n_eras, self.n_types = n_eras, n_types
        # each stack's moves on a board without barriers, beacons or bonuses, the usual case
        self.plain_moves = tuple(
            tuple(
                tuple(
                    MOVE + (era * n_types + t) * n_eras + dest
                    for dest in range(max(0, era - move), min(n_eras, era + move + 1))
                    if dest != era
                )
                for t, move in enumerate(self.moves)
            )
            for era in range(n_eras)
        )

    def new_initial_state(self) -> TimeLineState:
        return TimeLineState(self)

    def card_names(self) -> dict[str, str]:
        return {c.id: c.name for c in self.rules.cards}


class _Board:
    """One look at where a player's units are, to say quickly whether a travel card has a use.

    Says what TimeLineState._card_target_eras would find at least one of, without walking the Eras
    one generator at a time: the question is asked for every card in hand at every move. Each view
    of the board is worked out the first time a card asks for it.
    """

    __slots__ = ("_foes", "_free", "_period", "_totals", "p", "state", "units")

    def __init__(self, state: TimeLineState, p: int) -> None:
        self.state, self.p = state, p
        self.units = state.units[p]
        self._totals: list[int] | None = None  # per unit type: how many p has in all
        self._free: set[int] | None = None  # the unit types with a unit somewhere that has not travelled
        self._period: list[list[int]] | None = None  # p's units in each Era holding p's period troops
        self._foes: list[list[int]] | None = None  # p's units in each Era holding an enemy

    def anywhere(self, c: CardDef) -> bool:
        """Whether some Era has a unit of p's that may use the card."""
        if c.anyone:
            return True
        if self._totals is None:
            self._totals = [sum(column) for column in zip(*self.units, strict=True)]
        totals = self._totals
        return any([totals[t] for t in c.fits])

    @staticmethod
    def _rows_fit(c: CardDef, rows: list[list[int]]) -> bool:
        """Whether one of these Eras' rows of p's units holds a unit that may use the card."""
        if c.anyone:
            return bool(rows)
        fits = c.fits
        if len(fits) == 1:
            t = fits[0]
            return any([row[t] for row in rows])
        return any(row[t] for row in rows for t in fits)

    def usable(self, c: CardDef, kind: str) -> bool:
        state, p = self.state, self.p
        if kind == "move":  # a unit the card fits that has not travelled yet
            if self._free is None:
                free: set[int] = set()
                kinds = range(len(self.units[0]))
                for here, gone in zip(self.units, state.moved[p], strict=True):
                    if here != gone:  # else no unit here, or every one has travelled (a quick look, in C)
                        free.update(compress(kinds, map(operator.gt, here, gone)))
                self._free = free
            return not self._free.isdisjoint(c.fits)
        if kind == "stack_move":  # period troops of p's where a unit may use the card
            if self._period is None:
                period = state.g.period_types
                self._period = [row for row in self.units if any([row[t] for t in period])]
            return self._rows_fit(c, self._period)
        if kind in ("banish", "destroy", "control_enemy_unit", "time_vortex"):  # an enemy where it may be used
            if self._foes is None:
                self._foes = [mine for mine, theirs in zip(self.units, state.units[1 - p], strict=True) if any(theirs)]
            return self._rows_fit(c, self._foes)
        if kind == "summon":
            return any(state.supply[i] for i in state.g.faction_types[p]) and self.anywhere(c)
        if kind == "tutor_deck":
            return bool(state.pools[p])
        if kind == "tutor_discard":
            return bool(state.discards[p])
        if kind == "opponent_discard":
            return bool(state.hands[1 - p])
        return self.anywhere(c)  # barrier, stasis, era_move_bonus and the rest: a user anywhere


class TimeLineState(TwoPlayerState):
    """Seat 0 is the first faction in the data (the Atlanteans), seat 1 the second."""

    def __init__(self, game: TimeLineGame) -> None:
        r = game.rules
        self.g = game
        n_eras, n_types = len(r.eras), len(r.types)
        self.units = [[[0] * n_types for _ in range(n_eras)] for _ in (0, 1)]
        self.moved = [[[0] * n_types for _ in range(n_eras)] for _ in (0, 1)]
        self.supply = [t.supply for t in r.types]
        for i, t in enumerate(r.types):
            if t.faction >= 0 and t.start:
                self.units[t.faction][r.homes[t.faction]][i] = t.start
                self.supply[i] -= t.start
        self.control = [-1] * n_eras
        if r.home_controlled:
            self.control[r.homes[0]], self.control[r.homes[1]] = 0, 1
        self.pools = [[i for i, c in enumerate(r.cards) if c.seat == s] for s in (0, 1)]
        self.tops: list[list[int]] = [[], []]  # cards a player ordered on top of their deck (See the Future)
        self.discards: list[list[int]] = [[], []]
        self.hands: list[list[int]] = [[], []]
        self.player = 0
        self.turns = 0
        self.phase = "first"
        self.steps: list[Step] = []  # what is still to happen this turn, first first
        self.effects = Effects()
        self.extra_turn = False
        self.snapshot: TimeLineState | None = None  # the turn's start, for Reverse Time
        # (Era, unit type) of each enemy unit the player has taken over this turn (control_enemy_unit
        # this_turn): it stands among the player's units until the turn ends; replaced, never changed in place
        self.taken: tuple[tuple[int, int], ...] = ()
        # the travel step last asked, and what it offered: what the next move carries on from
        self._offered: tuple[Travel | None, Carried] = (None, ([], {}, []))
        self._start_record()

    @classmethod
    def at(
        cls,
        game: TimeLineGame,
        units: str = "",
        *,
        player: int = 0,
        hands: tuple[str, str] = ("", ""),
        control: dict[str, int] | None = None,
        steps: Sequence[Step] = (),
    ) -> TimeLineState:
        """A position set out from a short description, for tests and tools.

        units: seat 0's units, "|", seat 1's, each "[N*]type@era" in the data's ids ("2*warriors@wwi");
        only these are on the board, the rest in the supply. hands: each seat's cards by id, taken from
        its deck. Control is as at the start, then as control says (Era id -> seat, -1 for nobody).
        steps: what the turn does next; given, the state runs on to the first decision or chance among
        them, else it waits with nothing to do.
        """
        r = game.rules
        types = {t.id: i for i, t in enumerate(r.types)}
        state = cls(game)
        state.player, state.phase = player, "play"
        state.units = [[[0] * len(r.types) for _ in r.eras] for _ in (0, 1)]
        state.supply = [t.supply for t in r.types]
        halves = units.split("|") if units else ["", ""]
        if len(halves) != 2:
            raise ValueError(f"{units!r}: expected seat 0's units, '|', seat 1's")
        for seat, half in enumerate(halves):
            for token in half.split():
                count, _, stack = token.rpartition("*")
                kind, _, era = stack.partition("@")
                if kind not in types or era not in r.eras:
                    raise ValueError(
                        f"{token!r}: expected [N*]type@era (types: {', '.join(types)}; Eras: {', '.join(r.eras)})"
                    )
                n = int(count or 1)
                state.units[seat][r.eras.index(era)][types[kind]] += n
                state.supply[types[kind]] -= n
        cards = {c.id: i for i, c in enumerate(r.cards)}
        for seat, held in enumerate(hands):
            for name in held.split():
                if name not in cards or cards[name] not in state.pools[seat]:
                    raise ValueError(f"{name!r}: not a card in seat {seat}'s deck")
                state.pools[seat].remove(cards[name])
                state.hands[seat].append(cards[name])
        for era, seat in (control or {}).items():
            if era not in r.eras:
                raise ValueError(f"{era!r}: no such Era (Eras: {', '.join(r.eras)})")
            state.control[r.eras.index(era)] = seat
        if steps:
            state.run_steps(steps)
        return state

    def run_steps(self, steps: Sequence[Step]) -> None:
        """The turn goes on with these steps, run to the first decision or chance among them: for tests and tools."""
        self.steps = list(steps)
        self._legal = None
        self._advance()

    def clone(self) -> TimeLineState:
        other = self._copy_position()
        self._copy_record(other)
        return other

    def _copy_position(self) -> TimeLineState:
        """A copy of the position alone, its record (history, tally) shared: for the turn's snapshot."""
        other = copy.copy(self)
        other.units = [[e[:] for e in side] for side in self.units]
        other.moved = [[e[:] for e in side] for side in self.moved]
        other.supply, other.control = self.supply[:], self.control[:]
        other.pools = [p[:] for p in self.pools]
        other.tops = [t[:] for t in self.tops]
        other.discards = [d[:] for d in self.discards]
        other.hands = [h[:] for h in self.hands]
        other.steps = self.steps[:]  # a step is never changed in place, only replaced: sharing them is safe
        other.effects = self.effects.copy()
        return other

    # -- small questions ---------------------------------------------------------------------
    def present(self, p: int, era: int, card: CardDef) -> bool:
        """Whether p has, in era, a unit that may use the card (always, for a card that needs none)."""
        counts = self.units[p][era]
        return card.anyone or any(counts[t] for t in card.fits)

    def usable_anywhere(self, p: int, card: CardDef) -> Iterator[int]:
        """The Eras where p may use the card, found one at a time: often the first is all one needs."""
        if card.anyone:
            yield from range(len(self.g.rules.eras))
            return
        fits = card.fits
        for era, counts in enumerate(self.units[p]):
            for t in fits:
                if counts[t]:
                    yield era
                    break

    def force(self, p: int, era: int) -> int:
        total = sum(map(operator.mul, self.units[p][era], self.g.forces))
        cards = self.effects.force.get((p, era))
        return total + sum(cards.values()) if cards else total

    def roll_bonus(self, p: int, era: int) -> int:
        row = self.units[p][era]
        return self.g.rules.bonus if any([row[t] for t in self.g.bonus_units]) else 0

    # -- the API -------------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        if self.phase == "first" or (self.steps and self.steps[0].kind in _CHANCE_KINDS):
            return CHANCE
        if not self.steps:
            return self.player
        step = self.steps[0]
        return step.who if isinstance(step, Choice) else self.player  # a travel step is the player's

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.phase == "first":
            return [(DIE + 0, 0.5), (DIE + 1, 0.5)]
        step = self.steps[0]
        if isinstance(step, Roll):
            return [(DIE + f, 1 / FACES) for f in range(1, FACES + 1)]
        assert isinstance(step, FromDeck)
        pool = self.pools[step.seat]
        return [(DRAW + c, 1 / len(pool)) for c in pool]

    def sample_chance(self, rng: random.Random) -> int:
        if self.phase == "first":
            return pick(rng, (DIE + 0, DIE + 1))
        step = self.steps[0]
        if isinstance(step, Roll):
            return DIE + pick(rng, range(1, FACES + 1))
        assert isinstance(step, FromDeck)
        return DRAW + pick(rng, self.pools[step.seat])

    def _work_out_legal(self) -> list[int]:
        if self.over:
            return []
        if self.current_player() == CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        step = self.steps[0]
        return _LEGAL[step.kind](self, step)

    def _possible(self, action: int) -> bool:
        """Whether a chance outcome can happen now, checked without listing every outcome."""
        if self.phase == "first":
            return action in (DIE + 0, DIE + 1)
        step = self.steps[0]
        if isinstance(step, Roll):
            return DIE + 1 <= action <= DIE + FACES
        assert isinstance(step, FromDeck)
        return DRAW <= action < LOWER and action - DRAW in self.pools[step.seat]

    def apply_action(self, action: int) -> None:
        # _advance leaves the legal actions of the decision it stops at worked out, for the move that follows
        if self.phase == "first":
            self._take_chance(action, self._possible(action), self.phase)
            self.player = action - DIE
            self.phase = "play"
            self._begin_turn()
            return
        steps = self.steps
        if self.over or not steps:
            raise IllegalAction(f"{action} is not legal now (the game is over, or nothing is to be done)")
        step = steps[0]
        kind = step.kind
        if kind in _CHANCE_KINDS:
            self._take_chance(action, self._possible(action), kind)
        else:
            self._take_move(action, kind)
        steps.pop(0)
        _DO[kind](self, step, action)
        self._advance()

    def play_random(
        self, chance: random.Random, draws: Sequence[Callable[[], float]], limit: int, sizes: list[int]
    ) -> int:
        """The runner's random play in one method: the moves RandomAgent would pick (seat s's from
        draws[s], legal[floor(draw * len(legal))]), chance from chance, the same draws in the same
        order, so the same game as a step at a time; each move's number of legal moves appended to sizes.

        A random game is some 12,000 actions; per action, the runner's calls (whose turn, the legal
        moves, the move) and the move's check against the legal ones it was picked from cost about a
        tenth of the game. Here each step runs as apply_action runs it, without them. Plays until the
        game is over or limit actions are in the history; returns the seat of the first move, -1 for none.
        """
        history, tally = self.history, self.tally
        record, note = history.append, sizes.append
        first = -1
        while self.phase == "first":  # who goes first: the general way
            if len(history) >= limit:
                return first
            self.apply_action(self.sample_chance(chance))
        while not self.over and len(history) < limit:
            steps = self.steps  # a new list each turn
            step = steps[0]
            kind = step.kind
            if kind in _CHANCE_KINDS:
                action = self.sample_chance(chance)  # drawn from what can happen: nothing to check
            else:
                legal = self._legal  # _advance left the decision's moves worked out
                if legal is None:
                    legal = self._work_out_legal()
                seat = step.who if isinstance(step, Choice) else self.player
                choices = len(legal)
                note(choices)
                if first < 0:
                    first = seat
                action = legal[math.floor(draws[seat]() * choices)]
                if choices > 1:
                    tally.decisions += 1
            record(action)
            self._legal = None
            steps.pop(0)
            _DO[kind](self, step, action)
            self._advance()
        return first

    # -- the turn --------------------------------------------------------------------------------
    def _begin_turn(self) -> None:
        r, p = self.g.rules, self.player
        effects = self.effects  # a round's effects end when their player's turn comes back
        effects.beacon = [e for e in effects.beacon if e[0] != p]
        effects.barrier = [e for e in effects.barrier if e[0] != p]
        effects.stasis = [e for e in effects.stasis if e[0] != p]
        effects.roll_plus, effects.move_plus, effects.force = {}, {}, {}
        self.moved = [[[0] * len(r.types) for _ in r.eras] for _ in (0, 1)]
        # only these draws may turn the discard pile into a new deck (reshuffle_in_random_factors)
        self.steps = [Draw(p, reshuffle=True) for _ in range(r.draw)]
        self.steps.append(Travel())
        self.steps.append(BeginChange())
        self.snapshot = None
        self.snapshot = self._copy_position()  # Reverse Time starts the turn over from here
        self._advance()

    def _advance(self) -> None:
        """Run the automatic steps until a decision or a chance node is due."""
        steps = self.steps  # changed in place by every step the loop runs (a new turn's list comes after it)
        while steps and not self.over:
            step = steps[0]
            kind = step.kind
            if kind in _CHANCE_KINDS:
                if isinstance(step, Roll):
                    if self.g.shift_cards and not step.offered and self._offer_shift(step):
                        continue
                    return
                assert isinstance(step, FromDeck)
                seat = step.seat
                if isinstance(step, Draw):
                    if not self.pools[seat]:
                        if self.tops[seat]:
                            self.hands[seat].append(self.tops[seat].pop(0))
                            steps.pop(0)
                            continue
                        if self.discards[seat] and step.reshuffle:  # the discard pile becomes the new deck
                            self.pools[seat], self.discards[seat] = self.discards[seat], []
                        else:
                            steps.pop(0)
                            continue
                    elif self.tops[seat]:  # ordered cards come first
                        self.hands[seat].append(self.tops[seat].pop(0))
                        steps.pop(0)
                        continue
                elif not self.pools[seat]:  # nothing left to peek at
                    steps.pop(0)
                    continue
                return
            auto = _AUTO.get(kind)
            if auto is not None:  # steps that need nobody: run them
                auto(self, steps.pop(0))
                continue
            legal = _LEGAL[kind](self, step)
            if not legal:  # a decision with no choice to make
                steps.pop(0)
                continue
            self._legal = legal
            return
        if not self.over and not steps:
            self._end_turn()

    def _end_turn(self) -> None:
        r = self.g.rules
        if self.taken:
            self._give_back()
        self.turns += 1
        for p in (0, 1):
            if all(c == p for c in self.control):
                self._finish(p, "normal")
                return
        if self.turns >= r.turn_cap:
            held = [self.control.count(0), self.control.count(1)]
            self._finish(None if held[0] == held[1] else (0 if held[0] > held[1] else 1), "cap")
            return
        if not self.extra_turn:
            self.player = 1 - self.player
        self.extra_turn = False
        self._begin_turn()

    def _give_back(self) -> None:
        """The enemy units the player took over this turn go back to their owner, each where it stands."""
        p, units = self.player, self.units
        for era, t in self.taken:
            units[p][era][t] -= 1
            units[1 - p][era][t] += 1
            if self.narration is not None:  # words only for a replay
                name, where = self.g.rules.types[t].name, self.g.era_names[era]
                self._say(f"seat {p}'s turn ends: seat {1 - p}'s {name} in {where} goes back to seat {1 - p}")
        self.taken = ()

    # -- chance -----------------------------------------------------------------------------------
    def _do_draw(self, step: Draw, action: int) -> None:
        card = action - DRAW
        self.pools[step.seat].remove(card)
        self.hands[step.seat].append(card)

    def _do_peek(self, step: Peek, action: int) -> None:
        card = action - DRAW
        self.pools[step.seat].remove(card)
        self.tops[step.seat].append(card)

    def _do_roll(self, step: Roll, action: int) -> None:
        if self.narration is not None:
            self._say(self._roll_words(step, action - DIE))
        face = action - DIE + step.shift  # may leave 1-6: a table read by face clamps it
        _AFTER[step.then](self, step, face)

    def _roll_words(self, step: Roll, face: int) -> str:
        """A roll as a player reads it: what it is for, the die, and what is added or taken off."""
        p, then = self.player, step.then
        era = self.g.era_names[step.era] if step.era >= 0 else ""
        what = {
            "change": f"Change History roll in {era}",
            "period": f"period recruit roll in {era}",
            "faction": "faction recruit roll",
            "avoid": f"{step.way} roll in {era} (seat {p if step.side < 0 else step.side})",
            "combat": f"combat roll in {era}",
            "vortex": f"Time Vortex roll in {era}",
        }.get(then, f"{then} roll")
        parts = [f"{what}: {face}"]
        if step.shift:
            parts.append(f"{step.shift:+d} Probability Shift")
        cards = self.effects.roll_plus.get(step.era, 0) if step.era >= 0 else 0
        if cards and then in ("change", "avoid"):
            parts.append(f"{cards:+d} cards")
        units = 0
        if then == "change":
            units = self.roll_bonus(p, step.era)
        elif then == "period":
            units = self._recruit_bonus(p, step.era)
        if units:
            parts.append(f"{units:+d} Agents and Heroes")
        if then == "avoid" and step.penalty:
            parts.append(f"-{step.penalty} escaping mid-fight")
        return " ".join(parts)

    # -- any roll, either player: Probability Shift ------------------------------------------------
    def _offer_shift(self, roll: Roll) -> bool:
        """Before the roll (the first step, not yet offered, in a game with any-roll cards: _advance asks),
        each player holding an any-roll card may play it; True when offers were queued."""
        p, shifts = self.player, self.g.shift_cards
        offers: list[Step] = [Shift(s) for s in (p, 1 - p) if not shifts.isdisjoint(self.hands[s])]
        if not offers:
            return False
        self.steps[0] = replace(roll, offered=True)  # steps are shared with clones: replaced, never changed
        self.steps[0:0] = offers
        return True

    def _legal_shift(self, step: Shift) -> list[int]:
        out = []
        for card in sorted(self.g.shift_cards.intersection(self.hands[step.who])):
            for k, (kind, _) in enumerate(self.g.rules.cards[card].effects):
                if kind == "any_roll":
                    out += [PLAY + card * self.g.stride + k, LOWER + card * self.g.stride + k]
        return [*out, NO_CARD] if out else []

    def _do_shift(self, step: Shift, action: int) -> None:
        if action == NO_CARD:
            return
        p, lower = step.who, action >= LOWER
        card, k = divmod(action - (LOWER if lower else PLAY), self.g.stride)
        amount = self.g.rules.cards[card].effects[k][1]
        self.hands[p].remove(card)
        self.discards[p].append(card)
        self.tally.events.append(Event("play", p, self.g.rules.cards[card].id))
        at, roll = next((i, later) for i, later in enumerate(self.steps) if isinstance(later, Roll))
        self.steps[at] = replace(roll, shift=roll.shift + (-amount if lower else amount))

    # -- Time Travel -------------------------------------------------------------------------------
    def _legal_travel(self, step: Travel) -> list[int]:
        carried = step.carried
        if carried is None:
            uses: dict[int, bool] = {}
            carried = (self._stack_moves(), uses, self._travel_plays(self.player, uses))
        self._offered = (step, carried)  # for _do_travel, to carry on to the next move
        return [END, *carried[0], *carried[2]]

    def _stack_moves(self) -> list[int]:
        """The moves of the player's stacks that may travel, in order."""
        g, p = self.g, self.player
        n_eras, n_types = len(g.rules.eras), len(g.rules.types)
        effects = self.effects
        stuck = {e for _, e in effects.stasis} if effects.stasis else ()
        units, moved = self.units[p], self.moved[p]
        out: list[int] = []
        if not (effects.beacon or effects.move_plus or effects.barrier):
            # the usual board: each stack's moves worked out when the game was built, found in order
            for era, (here, gone, reach) in enumerate(zip(units, moved, g.plain_moves, strict=True)):
                if here == gone or era in stuck:  # no unit here, or every one has travelled (a quick look, in C)
                    continue
                # the stacks with a unit that has not travelled this turn (a type that cannot travel has no moves)
                for moves_of_stack in compress(reach, map(operator.gt, here, gone)):
                    out.extend(moves_of_stack)
            return out
        walls = {e for _, e in effects.barrier}
        beacons = {e for _, e in effects.beacon}
        bonus = effects.move_plus
        speeds, kinds = g.moves, range(n_types)
        for era, (here, gone) in enumerate(zip(units, moved, strict=True)):
            if here == gone or era in stuck:  # no unit here, or every one has travelled (a quick look, in C)
                continue
            for t in compress(kinds, map(operator.gt, here, gone)):  # types with a unit yet to travel
                base = speeds[t] + (bonus.get((p, era, t), 0) if bonus else 0)
                if base <= 0 and not beacons:  # Move 0 (period troops) travels only with a card's help
                    continue
                stack = MOVE + (era * n_types + t) * n_eras
                if not (walls or beacons):  # a card's added Move alone: every Era within reach
                    out.extend(range(stack + max(0, era - base), stack + era))
                    out.extend(range(stack + era + 1, stack + min(n_eras, era + base + 1)))
                    continue
                furthest = base + 2 if beacons else base  # a Time Beacon adds 2 to reach its Era
                for direction in (1, -1):
                    for distance in range(1, furthest + 1):
                        dest = era + direction * distance
                        if not 0 <= dest < n_eras:
                            break
                        if distance <= base or dest in beacons:
                            out.append(stack + dest)
                        if dest in walls:  # no unit moves past a barrier
                            break
        return sorted(out)

    def _travel_plays(self, p: int, usable: dict[int, bool] | None = None) -> list[int]:
        """The plays of p's cards usable in Time Travel now, in order.

        usable: each card's use, by the first card of its kind and set of users, as far as known; what
        is not is asked and added.
        """
        hand = self.hands[p]
        if not hand:
            return []
        g = self.g
        cards, plays = g.rules.cards, g.travel_plays
        out = []
        usable = {} if usable is None else usable
        board: _Board | None = None
        for card in sorted(set(hand)):
            for action, key, kind in plays[card]:
                ok = usable.get(key)
                if ok is None:
                    board = board or _Board(self, p)
                    ok = usable[key] = board.usable(cards[card], kind)
                if ok:
                    out.append(action)
        return out

    def _do_travel(self, step: Travel, action: int) -> None:
        p = self.player
        if action == END:
            return
        if action >= PLAY:
            self.steps.insert(0, Travel())  # more moves may follow
            card, k = divmod(action - PLAY, self.g.stride)
            self._play(p, card, k)
            return
        stack, dest = divmod(action - MOVE, self.g.n_eras)
        era, t = divmod(stack, self.g.n_types)
        units = self.units[p]
        units[era][t] -= 1
        units[dest][t] += 1
        self.moved[p][dest][t] += 1
        if self.taken:  # a unit taken over travels as the player's own; of a stack of its type, it goes first
            self.taken = _moved(self.taken, era, dest, t)
        # more moves may follow; what the next is offered follows from this one's offer, when that was asked
        asked, carried = self._offered
        self.steps.insert(0, Travel(self._carry_on(p, era, dest, t, carried)) if asked is step else Travel())

    def _carry_on(self, p: int, era: int, dest: int, t: int, carried: Carried) -> Carried:
        """After a unit of type t went from era to dest: its stack may have no unit left to move, and the
        cards whose use hangs on where such units stand are asked again. The rest is as it was: the hand,
        the decks, the enemy, the board's cards (only a card played changes those, and a play asks
        afresh), and the stack the unit joined, whose units and units moved both grew by one."""
        moves, uses, plays = carried
        if self.units[p][era][t] <= self.moved[p][era][t]:
            n_eras = len(self.g.rules.eras)
            first = MOVE + (era * len(self.g.rules.types) + t) * n_eras
            start, end = bisect.bisect_left(moves, first), bisect.bisect_left(moves, first + n_eras)
            moves = moves[:start] + moves[end:]
        board: _Board | None = None
        asks = self.g.travel_asks
        units, foes = self.units[p], self.units[1 - p]
        fresh = uses
        for key, was in uses.items():
            c, kind, placed = asks[key]
            if placed and t in c.fits:
                if kind == "move" and (not was or units[era][t] > self.moved[p][era][t]):
                    continue  # a move frees no unit; a use found stays while the unit's stack can still move
                if kind != "move" and kind != "stack_move" and not (any(foes[era]) or any(foes[dest])):
                    continue  # an enemy to aim at is where it was, and the unit neither left nor joined one
                board = board or _Board(self, p)
                now = board.usable(c, kind)
                if now != was:
                    fresh = dict(uses) if fresh is uses else fresh
                    fresh[key] = now
        if fresh is not uses:
            plays = self._travel_plays(p, fresh)
        return moves, fresh, plays

    def _card_targets(self, p: int, c: CardDef, kind: str) -> list[int]:
        """The Eras (or [-1], for a card that names none) where a travel card can be used now."""
        return list(self._card_target_eras(p, c, kind))

    def _card_target_eras(self, p: int, c: CardDef, kind: str) -> Iterator[int]:
        r = self.g.rules
        eras = self.usable_anywhere(p, c)
        units, moved = self.units[p], self.moved[p]
        if kind == "move":
            yield from (e for e in eras if any(units[e][t] > moved[e][t] for t in c.fits))
        elif kind == "stack_move":
            period = self.g.period_types
            yield from (e for e in eras if any(units[e][t] for t in period))
        elif kind in ("banish", "destroy", "control_enemy_unit", "time_vortex"):
            whole = range(len(r.eras)) if c.anyone else eras
            yield from (e for e in whole if any(self.units[1 - p][e]))
        elif kind == "summon":
            if any(self.supply[i] for i, t in enumerate(r.types) if t.faction == p):
                yield from eras
        elif kind == "tutor_deck":
            if self.pools[p]:
                yield -1
        elif kind == "tutor_discard":
            if self.discards[p]:
                yield -1
        elif kind == "opponent_discard":
            if self.hands[1 - p]:
                yield -1
        elif kind in ("barrier", "stasis", "era_move_bonus"):
            if next(eras, None) is not None:  # any Era at all, once the card has a user somewhere
                yield from range(len(r.eras))
        elif next(eras, None) is not None:
            yield -1

    def _play(self, p: int, card: int, k: int) -> None:
        r = self.g.rules
        c = r.cards[card]
        kind, amount = c.effects[k]
        self.hands[p].remove(card)
        self.discards[p].append(card)
        self.tally.events.append(Event("play", p, c.id))
        targets = self._card_targets(p, c, kind)
        if kind == "reverse_time" and self.snapshot is not None:
            self._reverse(p, card)
            return
        if targets == [-1]:
            self._effect(p, card, kind, amount, -1)
        else:
            self.steps.insert(0, PickEra(p, card, k, tuple(targets)))

    def _legal_era(self, step: PickEra) -> list[int]:
        return [PICK_ERA + e for e in step.eras]

    def _do_era(self, step: PickEra, action: int) -> None:
        c = self.g.rules.cards[step.card]
        kind, amount = c.effects[step.k]
        self._effect(step.who, step.card, kind, amount, action - PICK_ERA)

    def _effect(self, p: int, card: int, kind: str, amount: int, era: int) -> None:
        """One effect of a card played in Time Travel, aimed at era (-1 for none), by its kind's entry in _EFFECTS."""
        effect = _EFFECTS.get(kind)
        if effect is not None:  # a kind with nothing to do here (reverse_time once spent) does nothing
            effect(self, p, card, kind, amount, era)

    def _pick_own_stack(self, p: int, card: int, kind: str, amount: int, era: int) -> None:
        """move: one of p's stacks the card fits gets amount more Move."""
        self.steps.insert(
            0,
            PickStack(p, p, era, "move_bonus", card, amount),
        )

    def _march_period_troops(self, p: int, card: int, kind: str, amount: int, era: int) -> None:
        """stack_move: p's period troops in era get amount Move."""
        plus = self.effects.move_plus
        for t in self.g.period_types:
            if self.units[p][era][t]:
                plus[(p, era, t)] = plus.get((p, era, t), 0) + amount

    def _mark_era(self, p: int, card: int, kind: str, amount: int, era: int) -> None:
        """era_move_bonus, barrier, stasis: the Era is marked until p's next turn."""
        marks = {"era_move_bonus": self.effects.beacon, "barrier": self.effects.barrier, "stasis": self.effects.stasis}
        marks[kind].append((p, era))

    def _take_extra_turn(self, p: int, card: int, kind: str, amount: int, era: int) -> None:
        self.extra_turn = True

    def _draw_cards(self, p: int, card: int, kind: str, amount: int, era: int) -> None:
        self.steps[0:0] = [Draw(p) for _ in range(amount)]

    def _opponent_discards(self, p: int, card: int, kind: str, amount: int, era: int) -> None:
        self.steps[0:0] = [Discard(1 - p) for _ in range(min(amount, len(self.hands[1 - p])))]

    def _tutor(self, p: int, card: int, kind: str, amount: int, era: int) -> None:
        """tutor_deck, tutor_discard: p picks a card from its deck or its discard pile."""
        source = "pool" if kind == "tutor_deck" else "discard"
        self.steps.insert(0, Tutor(p, source, card))

    def _see_the_future(self, p: int, card: int, kind: str, amount: int, era: int) -> None:
        self._look_ahead(p, amount)

    def _summon(self, p: int, card: int, kind: str, amount: int, era: int) -> None:
        self.steps.insert(0, Summon(p, era))

    def _pick_enemy_stack(self, p: int, card: int, kind: str, amount: int, era: int) -> None:
        """banish, destroy, control_enemy_unit: p picks an enemy stack in era for the card to act on."""
        self.steps.insert(0, PickStack(p, 1 - p, era, kind, card, amount))

    def _time_vortex(self, p: int, card: int, kind: str, amount: int, era: int) -> None:
        """A roll for every unit in era, either side's: amount or more destroys it."""
        for side in (0, 1):
            for t, n in enumerate(self.units[side][era]):
                for _ in range(n):
                    self.steps.insert(0, Roll("vortex", era, t=t, side=side, need=amount))

    def _look_ahead(self, p: int, amount: int) -> None:
        """See the Future: the top cards come out of the unknown deck, and the player puts them in order."""
        self.steps.insert(0, Order(p, 0))
        for _ in range(min(amount, len(self.pools[p]))):
            self.steps.insert(0, Peek(p))

    def _reverse(self, p: int, card: int) -> None:
        """Reverse Time: the turn starts over from its beginning, without this card."""
        assert self.snapshot is not None
        back = self.snapshot._copy_position()
        for place in (back.hands[p], back.pools[p], back.tops[p], back.discards[p]):  # where it was when the turn began
            if card in place:
                place.remove(card)
        back.discards[p].append(card)
        back.tally = self.tally
        back.history = self.history
        back.snapshot = None
        for name in (
            "units",
            "moved",
            "supply",
            "control",
            "pools",
            "tops",
            "discards",
            "hands",
            "effects",
            "extra_turn",
            "turns",
            "player",
            "taken",
        ):
            setattr(self, name, getattr(back, name))
        self.steps = back.steps
        self.snapshot = None  # one reversal per turn: the snapshot is spent

    # stacks: a unit type in an Era, picked for a card or a loss
    def _legal_stack(self, step: PickStack) -> list[int]:
        r = self.g.rules
        side, era = step.side, step.era
        c = r.cards[step.card] if step.card >= 0 else None
        out = []
        for t, n in enumerate(self.units[side][era]):
            if n <= 0:
                continue
            if step.then == "move_bonus" and (c is None or t not in c.fits):
                continue
            if step.then == "banish" and r.types[t].faction < 0:  # period troops cannot escape
                continue
            out.append(PICK_STACK + era * len(r.types) + t)
        return out

    def _do_stack(self, step: PickStack, action: int) -> None:
        r = self.g.rules
        era, t = divmod(action - PICK_STACK, len(r.types))
        side, then, p = step.side, step.then, step.who
        if then == "move_bonus":
            plus = self.effects.move_plus
            plus[(p, era, t)] = plus.get((p, era, t), 0) + step.amount
        elif then == "destroy" or then == "lose":
            self._destroy(side, era, t)
        elif then == "control_enemy_unit" and r.takes_over:  # the unit is p's until the turn ends
            self.units[side][era][t] -= 1
            self.units[p][era][t] += 1
            self.taken += ((era, t),)
            if self.narration is not None:  # words only for a replay
                self._say(f"seat {p} takes over seat {side}'s {r.types[t].name} in {self.g.era_names[era]} this turn")
        elif then in ("banish", "control_enemy_unit"):
            self.steps.insert(
                0,
                Relocate(p, side, era, t, 1 if then == "banish" else max(1, r.types[t].move)),
            )

    def _legal_relocate(self, step: Relocate) -> list[int]:
        era, reach = step.era, step.reach
        return [PICK_ERA + e for e in range(len(self.g.rules.eras)) if 0 < abs(e - era) <= reach]

    def _do_relocate(self, step: Relocate, action: int) -> None:
        side, era, t = step.side, step.era, step.t
        if self.units[side][era][t]:
            self.units[side][era][t] -= 1
            self.units[side][action - PICK_ERA][t] += 1

    def _destroy(self, side: int, era: int, t: int) -> None:
        if self.units[side][era][t] <= 0:
            return
        self.units[side][era][t] -= 1
        self.supply[t] += 1  # a destroyed unit's counter goes back to the supply
        # of a stack of its type, a unit taken over is lost first: its taker would rather spend it than its own
        taken = bool(self.taken) and side == self.player and (era, t) in self.taken
        if taken:
            self.taken = _moved(self.taken, era, None, t)
        if self.narration is not None:  # words only for a replay
            whose = f" (seat {1 - side}'s, taken over this turn)" if taken else ""
            self._say(f"seat {side} loses {_a(self.g.rules.types[t].name)}{whose} in {self.g.era_names[era]}")
        if self.units[side][era][t] == 0:  # cards attached to the stack go with it
            attached = self.effects.force.get((side, era))
            if attached:
                attached.pop(t, None)

    def _after_vortex(self, step: Roll, face: int) -> None:
        if face >= step.need:
            self._destroy(step.side, step.era, step.t)

    def _legal_discard(self, step: Discard) -> list[int]:
        return [PICK_CARD + c for c in sorted(set(self.hands[step.who]))]

    def _do_discard(self, step: Discard, action: int) -> None:
        self.hands[step.who].remove(action - PICK_CARD)
        self.discards[step.who].append(action - PICK_CARD)

    def _legal_tutor(self, step: Tutor) -> list[int]:
        source = self.pools[step.who] if step.source == "pool" else self.discards[step.who]
        return [PICK_CARD + c for c in sorted(set(source)) if c != step.card]  # never the card being played

    def _do_tutor(self, step: Tutor, action: int) -> None:
        p, card = step.who, action - PICK_CARD
        (self.pools[p] if step.source == "pool" else self.discards[p]).remove(card)
        self.hands[p].append(card)

    def _legal_summon(self, step: Summon) -> list[int]:
        r, p = self.g.rules, step.who
        return [
            PICK_STACK + step.era * len(r.types) + i for i, t in enumerate(r.types) if t.faction == p and self.supply[i]
        ]

    def _do_summon(self, step: Summon, action: int) -> None:
        r = self.g.rules
        era, t = divmod(action - PICK_STACK, len(r.types))
        self.supply[t] -= 1
        self.units[step.who][era][t] += 1

    def _legal_order(self, step: Order) -> list[int]:
        return [PICK_CARD + c for c in sorted(set(self.tops[step.who][step.left :]))]

    def _do_order(self, step: Order, action: int) -> None:
        tops, left = self.tops[step.who], step.left
        card = action - PICK_CARD
        rest = tops[left:]
        rest.remove(card)
        self.tops[step.who] = tops[:left] + [card] + rest
        if left + 2 < len(self.tops[step.who]):
            self.steps.insert(0, Order(step.who, left + 1))

    # -- Change History and recruits -------------------------------------------------------------
    def _begin_change(self, step: BeginChange) -> None:
        p = self.player
        for era in range(len(self.g.rules.eras)):
            if any(self.units[p][era]) and self.control[era] != p:
                self.steps.append(RollCard(p, era, "change"))
                self.steps.append(Roll("change", era))
        self.steps.append(BeginRecruit())

    def _roll_cards(self, p: int, era: int, roll: str) -> list[int]:
        """Cards p may add to a roll of this sort in this Era."""
        plays = self.g.roll_plays[roll]  # an any-roll card is offered to both players at every roll instead
        if self.g.roll_cards[roll].isdisjoint(self.hands[p]):
            return []
        cards = self.g.rules.cards
        out = []
        for card in sorted(set(self.hands[p])):
            for action in plays[card]:
                if roll == "enemy_hide" or self.present(p, era, cards[card]):
                    out.append(action)
        return out

    def _legal_card(self, step: RollCard) -> list[int]:
        if step.played >= self.g.rules.roll_cards:
            return []
        cards = self._roll_cards(step.who, step.era, step.roll)
        return [*cards, NO_CARD] if cards else []

    def _do_card(self, step: RollCard, action: int) -> None:
        if action == NO_CARD:
            return
        self.steps.insert(0, replace(step, played=step.played + 1))  # room for another, up to the limit
        p = step.who
        card, k = divmod(action - PLAY, self.g.stride)
        kind, amount = self.g.rules.cards[card].effects[k]
        self.hands[p].remove(card)
        self.discards[p].append(card)
        self.tally.events.append(Event("play", p, self.g.rules.cards[card].id))
        plus, era = self.effects.roll_plus, step.era
        plus[era] = plus.get(era, 0) + (-amount if kind == "enemy_hide_roll" else amount)

    def _roll_plus(self, era: int) -> int:
        return self.effects.roll_plus.pop(era, 0)

    def _after_change(self, step: Roll, face: int) -> None:
        p, era = self.player, step.era
        if face + self.roll_bonus(p, era) + self._roll_plus(era) >= self.g.rules.success:
            if self.control[era] != p and self.narration is not None:  # words only for a replay
                self._say(f"seat {p} takes control of {self.g.era_names[era]}")
            self.control[era] = p

    def _begin_recruit(self, step: BeginRecruit) -> None:
        r, p = self.g.rules, self.player
        for era in range(len(r.eras)):
            period = self.g.period_of[era]
            if self.control[era] != p or period is None:
                continue
            rolls = r.extra_rolls[2] if (p, era) == r.extra_rolls[:2] else 1
            for _ in range(rolls):
                self.steps.append(Roll("period", era, t=period))
        self.steps.append(Roll("faction"))
        self.steps.append(BeginSeek())

    def _after_period(self, step: Roll, face: int) -> None:
        p, era, t = self.player, step.era, step.t
        bonus = self._recruit_bonus(p, era) if self.taken else self.roll_bonus(p, era)
        if face + bonus >= self.g.rules.success and self.supply[t] > 0:
            self.supply[t] -= 1  # an exhausted supply gains nothing
            self.units[p][era][t] += 1
            if self.narration is not None:  # words only for a replay
                self._say(f"seat {p} recruits {_a(self.g.rules.types[t].name)} in {self.g.era_names[era]}")

    def _recruit_bonus(self, p: int, era: int) -> int:
        """roll_bonus for a recruit roll: a unit taken over this turn does not help its taker recruit."""
        row = self.units[p][era][:]
        for e, t in self.taken:
            if e == era:
                row[t] -= 1
        return self.g.rules.bonus if any([row[t] for t in self.g.bonus_units]) else 0

    def _after_faction(self, step: Roll, face: int) -> None:
        r, p = self.g.rules, self.player
        unit, draws = r.recruit[p][min(max(face, 1), FACES) - 1]  # a shifted roll reads the table's end
        if unit is not None:
            t = next(i for i, ut in enumerate(r.types) if ut.id == unit)
            if self.supply[t] > 0:
                self.supply[t] -= 1
                self.units[p][r.homes[p]][t] += 1
        self.steps[0:0] = [Draw(p) for _ in range(draws)]

    # -- Seek & Destroy ---------------------------------------------------------------------------
    def _begin_seek(self, step: BeginSeek) -> None:
        self.steps.append(AutoMeeting(0))

    def _auto_meeting(self, step: AutoMeeting) -> None:
        """The first Era from step.era on where both sides stand meets, and the search goes on after it.

        One step walks the Eras rather than one step each, as most Eras hold no meeting. The order is the
        same: a meeting moves units only by an escape into a neighbouring Era, and an earlier Era is not
        looked at again either way, while a later one is looked at once the meeting is over.
        """
        p, mine, theirs = self.player, self.units[0], self.units[1]
        for era in range(step.era, len(mine)):
            if any(mine[era]) and any(theirs[era]):
                self.steps[0:0] = [Stance(p, era), Stance(1 - p, era), AutoMeet(era), AutoMeeting(era + 1)]
                return

    def _legal_stance(self, step: Stance) -> list[int]:
        return [FIGHT, AVOID]

    def _do_stance(self, step: Stance, action: int) -> None:
        self.effects.stance[(step.who, step.era)] = action

    def _auto_meet(self, step: AutoMeet) -> None:
        era = step.era
        stance, self.effects.stance = self.effects.stance, {}
        avoid = [s for s in (0, 1) if stance.get((s, era)) == AVOID]
        if len(avoid) == 2:
            return
        if len(avoid) == 1:
            s = avoid[0]
            self.steps[0:0] = [Avoid(s, era)]
            return
        self._start_fight(era)

    def _legal_avoid(self, step: Avoid) -> list[int]:
        return [HIDE, ESCAPE]

    def _do_avoid(self, step: Avoid, action: int) -> None:
        s, era = step.who, step.era
        way = "hide" if action == HIDE else "escape"
        steps: list[Step] = [RollCard(s, era, way)]
        if way == "hide":  # the other side may make hiding harder
            steps.append(RollCard(1 - s, era, "enemy_hide"))
        steps.append(Roll("avoid", era, side=s, way=way))
        self.steps[0:0] = steps

    def _after_avoid(self, step: Roll, face: int) -> None:
        s, era = step.side, step.era
        ok = face + self._roll_plus(era) - step.penalty >= self.g.rules.success
        if ok and step.way == "hide":
            return
        rounds = step.rounds  # an escape between combat rolls keeps the fight's count of rolls
        if ok:
            after = step.after
            self.steps.insert(0, EscapeTo(s, era, after, rounds))
            return
        if step.after == "round":  # the other side's escape waiting, if it wished one, else the next round
            self.steps.insert(0, AutoNextRound(era, rounds))
        else:
            self._start_fight(era)

    def _legal_escape_to(self, step: EscapeTo) -> list[int]:
        era = step.era
        return [PICK_ERA + e for e in (era - 1, era + 1) if 0 <= e < len(self.g.rules.eras)]

    def _do_escape_to(self, step: EscapeTo, action: int) -> None:
        r, s, era = self.g.rules, step.who, step.era
        dest = action - PICK_ERA
        for t, ut in enumerate(r.types):
            if ut.faction >= 0 and self.units[s][era][t]:  # period troops stay behind
                self.units[s][dest][t] += self.units[s][era][t]
                self.units[s][era][t] = 0
        if self.taken and s == self.player:  # units taken over escape with the player's own
            self.taken = tuple((dest, t) if e == era and r.types[t].faction >= 0 else (e, t) for e, t in self.taken)
        if any(self.units[0][era]) and any(self.units[1][era]):
            if step.after == "round":  # period troops left to fight: the other side's escape, if waiting, comes first
                self.steps.insert(0, AutoNextRound(era, step.rounds))
            else:
                self._start_fight(era)
        else:
            self.effects.wish = {}  # the fight is over: a waiting escape has nothing left to flee

    def _start_fight(self, era: int) -> None:
        p = self.player
        self.steps[0:0] = [
            ForceCard(p, era, 0),
            AutoRound(era, 0),
        ]

    def _legal_force_card(self, step: ForceCard) -> list[int]:
        p, era = step.who, step.era
        if self.g.force_cards.isdisjoint(self.hands[p]):
            return [NO_CARD]
        plays, cards = self.g.force_plays, self.g.rules.cards
        out = []
        for card in sorted(set(self.hands[p])):
            for action in plays[card]:
                if self.present(p, era, cards[card]):
                    out.append(action)
        return [*out, NO_CARD]

    def _do_force_card(self, step: ForceCard, action: int) -> None:
        p, era = step.who, step.era
        if action == NO_CARD:
            if step.passes + 1 < 2:  # both must pass in a row before the dice roll
                self.steps.insert(0, ForceCard(1 - p, era, step.passes + 1))
            return
        card, k = divmod(action - PLAY, self.g.stride)
        c = self.g.rules.cards[card]
        self.hands[p].remove(card)
        self.discards[p].append(card)
        self.tally.events.append(Event("play", p, c.id))
        holder = next(t for t, n in enumerate(self.units[p][era]) if n and t in c.fits)
        forces = self.effects.force.setdefault((p, era), {})
        forces[holder] = forces.get(holder, 0) + c.effects[k][1]
        self.steps.insert(0, ForceCard(1 - p, era, 0))

    def _auto_round(self, step: AutoRound) -> None:
        era = step.era
        if not (any(self.units[0][era]) and any(self.units[1][era])):
            return
        rounds = step.rounds
        if rounds >= self.g.rules.combat_cap:
            return
        self.steps.insert(0, Roll("combat", era, rounds))

    def _after_combat(self, step: Roll, face: int) -> None:
        r, p, era = self.g.rules, self.player, step.era
        mine, theirs = self.force(p, era), self.force(1 - p, era)
        if mine == theirs:
            loser = 1 - p if face <= r.tie_split else p
        else:
            strong, weak = (p, 1 - p) if mine > theirs else (1 - p, p)
            loser = weak if face <= r.lose_max else strong
        kinds = [t for t, n in enumerate(self.units[loser][era]) if n]
        if len(kinds) == 1:
            self._destroy(loser, era, kinds[0])
        else:
            self.steps.insert(0, PickStack(loser, loser, era, "lose"))
        self.steps.insert(1 if len(kinds) > 1 else 0, AutoAfterRound(era, step.rounds + 1))

    def _auto_after_round(self, step: AutoAfterRound) -> None:
        era = step.era
        if not (any(self.units[0][era]) and any(self.units[1][era])):
            return
        p = self.player
        self.steps[0:0] = [
            AfterRoll(p, era),
            AfterRoll(1 - p, era),
            AutoNextRound(era, step.rounds),
        ]

    def _legal_after_roll(self, step: AfterRoll) -> list[int]:
        era = step.era
        row = self.units[step.who][era]
        can_escape = any([row[t] for t in self.g.faction_units])  # period troops stay behind
        return [CONTINUE, STOP] + ([ESCAPE] if can_escape else [])

    def _do_after_roll(self, step: AfterRoll, action: int) -> None:
        self.effects.wish[step.who] = action

    def _auto_next_round(self, step: AutoNextRound) -> None:
        era = step.era
        wish, self.effects.wish = self.effects.wish, {}
        p = self.player
        escaping = [s for s in (p, 1 - p) if wish.get(s) == ESCAPE]  # in turn, the active player first
        if escaping:
            s = escaping[0]
            if len(escaping) == 2:  # both try: the other's attempt waits, read again once this one is rolled
                self.effects.wish = {1 - s: ESCAPE}
            self.steps[0:0] = [
                RollCard(s, era, "escape"),
                Roll(
                    "avoid", era, step.rounds, side=s, way="escape", penalty=self.g.rules.escape_penalty, after="round"
                ),
            ]
            return
        if all(wish.get(s) == STOP for s in (0, 1)):
            return
        self.steps.insert(0, AutoRound(era, step.rounds))

    # -- views ----------------------------------------------------------------------------------------
    def observation(self, player: int) -> dict[str, Any]:
        r = self.g.rules
        return {
            "hand": sorted(r.cards[c].id for c in self.hands[player]),
            "opponent_hand": len(self.hands[1 - player]),
            "units": [[{r.types[t].id: n for t, n in enumerate(era) if n} for era in side] for side in self.units],
            # [Era, unit type] of each enemy unit the active player took over this turn, counted among its units
            "taken_over": [[era, r.types[t].id] for era, t in self.taken],
            "control": self.control[:],
            "supply": {t.id: self.supply[i] for i, t in enumerate(r.types)},
            "decks": [len(self.pools[s]) + len(self.tops[s]) for s in (0, 1)],
            "discards": [[r.cards[c].id for c in d] for d in self.discards],
            "turn": self.turns,
            "to_move": self.current_player(),
        }

    def resample(self, player: int, rng: random.Random) -> TimeLineState:
        other = self.clone()
        opp = 1 - player
        pool = other.pools[opp] + other.hands[opp] + other.tops[opp]
        rng.shuffle(pool)
        size = len(other.hands[opp])
        other.hands[opp], other.pools[opp], other.tops[opp] = pool[:size], pool[size:], []
        other._legal = None
        return other

    def action_to_string(self, action: int) -> str:
        r = self.g.rules
        words = {
            END: "ends the phase",
            FIGHT: "will fight",
            AVOID: "would rather not fight",
            HIDE: "tries to hide",
            ESCAPE: "tries to escape",
            CONTINUE: "fights on",
            STOP: "would stop",
            NO_CARD: "plays no card",
        }
        if action in words:
            return words[action]
        if action >= LOWER:
            card, k = divmod(action - LOWER, self.g.stride)
            return f"plays {r.cards[card].name} (the roll -{r.cards[card].effects[k][1]})"
        if action >= DRAW:
            return f"draws {r.cards[action - DRAW].name}"
        if action >= DIE:
            return f"rolls {action - DIE}" if self.phase != "first" else f"first player: seat {action - DIE}"
        if action >= PICK_CARD:
            return f"picks {r.cards[action - PICK_CARD].name}"
        if action >= PICK_ERA:
            return f"picks {self.g.era_names[action - PICK_ERA]}"
        if action >= PICK_STACK:
            era, t = divmod(action - PICK_STACK, len(r.types))
            return f"picks {_a(r.types[t].name)} in {self.g.era_names[era]}"
        if action >= PLAY:
            card, k = divmod(action - PLAY, self.g.stride)
            kind, amount = r.cards[card].effects[k]
            if kind == "any_roll":
                return f"plays {r.cards[card].name} (the roll +{amount})"
            return f"plays {r.cards[card].name} ({kind.replace('_', ' ')})"
        stack, dest = divmod(action - MOVE, len(r.eras))
        era, t = divmod(stack, len(r.types))
        return f"moves {_a(r.types[t].name)} from {self.g.era_names[era]} to {self.g.era_names[dest]}"

    def heuristic(self, player: int) -> float:
        """Eras held count most, a unit standing where history can still change almost as much, and
        every step a travelling unit still has to go to reach such an Era counts against.

        A Change History roll turns a reached Era into a held one; valuing the two nearly alike keeps
        the roll itself from looking like a windfall, so a one-step player spreads its units over
        every Era it can reach before it ends the phase. The distance term gives it a reason to march
        through Eras it already holds toward the ones it does not.
        """
        if self.over:
            return self.returns()[player]
        control, forces, travellers, attached = self.control, self.g.forces, self.g.travellers, self.effects.force

        def worth(p: int) -> float:
            occupied = [(e, row) for e, row in enumerate(self.units[p]) if any(row)]
            reaching = sum(1 for e, _ in occupied if control[e] != p)
            holding = len(occupied) - reaching
            # every Era's Force: its units' (an empty Era's is 0) and the cards attached to them
            board = sum(sum(map(operator.mul, row, forces)) for _, row in occupied)
            board += sum(sum(cards.values()) for (q, _), cards in attached.items() if q == p)
            open_eras = [e for e, holder in enumerate(control) if holder != p]
            march = 0
            if open_eras:
                for e, row in occupied:
                    walking = sum(map(row.__getitem__, travellers))
                    if walking:
                        march += walking * min(abs(e - o) for o in open_eras)
            return (
                control.count(p) * 100 + reaching * 95 + holding * 10 + board / 20 + len(self.hands[p]) * 2 - march * 4
            )

        return math.tanh((worth(player) - worth(1 - player)) / 400)


def _moved(taken: tuple[tuple[int, int], ...], era: int, dest: int | None, t: int) -> tuple[tuple[int, int], ...]:
    """The units taken over, the first of type t in era now in dest (gone, when dest is None)."""
    if (era, t) not in taken:
        return taken
    at = taken.index((era, t))
    return taken[:at] + (() if dest is None else ((dest, t),)) + taken[at + 1 :]


# travel cards whose use hangs on where the player's units stand, not only on which units it has
_PLACED = frozenset({"move", "stack_move", "banish", "destroy", "control_enemy_unit", "time_vortex"})
# each kind of step, and each kind of roll, dispatched through a table
_CHANCE_KINDS = frozenset({Kind.ROLL, Kind.DRAW, Kind.PEEK})
# each entry takes the step record of its kind (Any: a table's entries cannot each name their own)
_Legal = Callable[[TimeLineState, Any], list[int]]
_Do = Callable[[TimeLineState, Any, int], None]
_LEGAL: dict[str, _Legal] = {
    Kind.AFTER_ROLL: TimeLineState._legal_after_roll,
    Kind.AVOID: TimeLineState._legal_avoid,
    Kind.CARD: TimeLineState._legal_card,
    Kind.DISCARD: TimeLineState._legal_discard,
    Kind.ERA: TimeLineState._legal_era,
    Kind.ESCAPE_TO: TimeLineState._legal_escape_to,
    Kind.FORCE_CARD: TimeLineState._legal_force_card,
    Kind.ORDER: TimeLineState._legal_order,
    Kind.RELOCATE: TimeLineState._legal_relocate,
    Kind.SHIFT: TimeLineState._legal_shift,
    Kind.STACK: TimeLineState._legal_stack,
    Kind.STANCE: TimeLineState._legal_stance,
    Kind.SUMMON: TimeLineState._legal_summon,
    Kind.TRAVEL: TimeLineState._legal_travel,
    Kind.TUTOR: TimeLineState._legal_tutor,
}
_DO: dict[str, _Do] = {
    Kind.AFTER_ROLL: TimeLineState._do_after_roll,
    Kind.AVOID: TimeLineState._do_avoid,
    Kind.CARD: TimeLineState._do_card,
    Kind.DISCARD: TimeLineState._do_discard,
    Kind.ERA: TimeLineState._do_era,
    Kind.ESCAPE_TO: TimeLineState._do_escape_to,
    Kind.FORCE_CARD: TimeLineState._do_force_card,
    Kind.ORDER: TimeLineState._do_order,
    Kind.RELOCATE: TimeLineState._do_relocate,
    Kind.SHIFT: TimeLineState._do_shift,
    Kind.STACK: TimeLineState._do_stack,
    Kind.STANCE: TimeLineState._do_stance,
    Kind.SUMMON: TimeLineState._do_summon,
    Kind.TRAVEL: TimeLineState._do_travel,
    Kind.TUTOR: TimeLineState._do_tutor,
    Kind.DRAW: TimeLineState._do_draw,
    Kind.PEEK: TimeLineState._do_peek,
    Kind.ROLL: TimeLineState._do_roll,
}
_AUTO: dict[str, Callable[[TimeLineState, Any], None]] = {
    Kind.BEGIN_CHANGE: TimeLineState._begin_change,
    Kind.BEGIN_RECRUIT: TimeLineState._begin_recruit,
    Kind.BEGIN_SEEK: TimeLineState._begin_seek,
    Kind.AUTO_MEETING: TimeLineState._auto_meeting,
    Kind.AUTO_MEET: TimeLineState._auto_meet,
    Kind.AUTO_ROUND: TimeLineState._auto_round,
    Kind.AUTO_AFTER_ROUND: TimeLineState._auto_after_round,
    Kind.AUTO_NEXT_ROUND: TimeLineState._auto_next_round,
}
_Effect = Callable[[TimeLineState, int, int, str, int, int], None]
_EFFECTS: dict[str, _Effect] = {  # what each kind of card effect played in Time Travel does
    "move": TimeLineState._pick_own_stack,
    "stack_move": TimeLineState._march_period_troops,
    "era_move_bonus": TimeLineState._mark_era,
    "barrier": TimeLineState._mark_era,
    "stasis": TimeLineState._mark_era,
    "extra_turn": TimeLineState._take_extra_turn,
    "draw": TimeLineState._draw_cards,
    "opponent_discard": TimeLineState._opponent_discards,
    "tutor_deck": TimeLineState._tutor,
    "tutor_discard": TimeLineState._tutor,
    "look_ahead": TimeLineState._see_the_future,
    "summon": TimeLineState._summon,
    "banish": TimeLineState._pick_enemy_stack,
    "destroy": TimeLineState._pick_enemy_stack,
    "control_enemy_unit": TimeLineState._pick_enemy_stack,
    "time_vortex": TimeLineState._time_vortex,
}
_AFTER: dict[str, Callable[[TimeLineState, Roll, int], None]] = {  # what a roll's face does, by what the roll is for
    "change": TimeLineState._after_change,
    "period": TimeLineState._after_period,
    "faction": TimeLineState._after_faction,
    "avoid": TimeLineState._after_avoid,
    "combat": TimeLineState._after_combat,
    "vortex": TimeLineState._after_vortex,
}
