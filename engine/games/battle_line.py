"""Battle Line: all ten Tactics cards, the claims, and the game state for the engine, in typed fields.

Cards are numbered troops first (colour by colour, each colour's values low to high), then the Tactics
cards in data order; a card's name is a colour letter and a value ("R10") or its Tactics id ("alexander").
The colours, values, formations, sizes and every other number come from cards/battle-line/; the formation
and proof library is engine.games.formations. A position can be set up from a short description:
BattleLineGame.position("hands: R1 R2 | B1; flag 3: R7 R8 R9 | B8 B9").

Public functions, for the bundled game's own cards:
    compare_formations(a, b, *, fog=False, mud=False, a_first=True) -> 1 | -1
    prove_claim(mine, theirs, unplayed, *, fog=False, mud=False) -> list[str] | None
"""

from __future__ import annotations

import bisect
import functools
import math
import operator
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

from engine.api import CHANCE, TERMINAL, Event, GameDef, IllegalAction, TwoPlayerState, pick
from engine.cards import records
from engine.cards.battle_line import Tactics, Troop
from engine.games import formations
from engine.games.formations import (
    Card,
    Concrete,
    Line,
    Strength,
    best_completion,
    best_strength,
    counter_example,
    troops_of,
    wild_strength,
)
from engine.needs import BATTLE_LINE
from printkit.data.game import Game

# --- the data, read once -------------------------------------------------------

RANKS = BATTLE_LINE.formations[::-1]  # the five kinds the mechanism knows, weakest first: a rank is its index


class Effect(IntEnum):
    """What a card does when played: a troop, or one of the Tactics effects the data names."""

    TROOP = 0
    WILD = 1
    FIXED_VALUE = 2
    VALUE_CHOICE = 3
    FOG = 4
    MUD = 5
    SCOUT = 6
    REDEPLOY = 7
    DESERTER = 8
    TRAITOR = 9


# played into a formation as a troop; numbered next after TROOP, so a Tactics card stands in when its
# effect is VALUE_CHOICE or lower
STANDS_IN = (Effect.WILD, Effect.FIXED_VALUE, Effect.VALUE_CHOICE)
GUILE = (Effect.SCOUT, Effect.REDEPLOY, Effect.DESERTER, Effect.TRAITOR)  # played to the discard, then done


class Phase(IntEnum):
    """Where a turn stands; the first three are chance nodes."""

    DEAL = 0
    FIRST = 1  # who plays first, by lot
    DRAWING = 2  # a card drawn from a deck whose top is unknown
    PLAY = 3
    DRAW = 4
    PICK = 5  # a Guile card's card to take
    PLACE = 6  # where the taken card goes
    SCOUT_DRAW = 7
    SCOUT_RETURN = 8


PHASE_WORDS = tuple(p.name.lower() for p in Phase)
# the phases and effects as module names: the rules test them at every action, and a name in the module is
# found at once where an Enum's class attribute is looked up through its metaclass each time
DEAL, FIRST, DRAWING, PLAY, DRAW, PICK, PLACE, SCOUT_DRAW, SCOUT_RETURN = Phase
TROOP, WILD, FIXED_VALUE, VALUE_CHOICE, FOG, MUD, SCOUT, REDEPLOY, DESERTER, TRAITOR = Effect


@dataclass(frozen=True)
class Rules:
    """Everything Battle Line's rules read from the data."""

    letters: tuple[str, ...]  # colour letters in data order
    values: tuple[int, ...]  # troop values, low to high
    value_names: dict[int, str]
    formation_names: dict[str, str]  # kind id -> printed name
    tactics: tuple[tuple[str, str, str, tuple[int, ...]], ...]  # (id, name, effect kind, values)
    hand: int
    flags: int
    size: int
    mud_size: int
    breakthrough: int
    envelopment: int
    leaders: int
    tactics_lead: int
    scout_draw: int
    scout_return: int
    stalemate_passes: int
    turn_cap: int
    claim_timing: str = "start_of_turn"  # or "after_play": the basic rule, claims made in one's own turn

    @property
    def troops(self) -> int:
        return len(self.letters) * len(self.values)

    def troop_name(self, card: int) -> str:
        colour, value = divmod(card, len(self.values))
        return f"{self.letters[colour]}{self.values[value]}"

    @functools.cached_property
    def line(self) -> Line:
        """The formations' values: colours, troop values, and what each wild Tactics card may stand for."""
        wild = tuple((t, self.values if kind == "wild" else vals) for t, _, kind, vals in self.tactics if kind in _WILD)
        return Line(self.letters, self.values, wild)


_WILD = ("wild", "fixed_value", "value_choice")


def rules_from(game: Game) -> Rules:
    info = game.info
    letters = tuple(c.letter for c in info.colours)
    values = tuple(sorted({c.value for c in records(game, Troop)}))
    tactics = [
        (card.id, card.name, card.effect.kind, tuple(card.effect.values or ())) for card in records(game, Tactics)
    ]
    scout = next((c.effect for c in records(game, Tactics) if c.effect.kind == "scout"), None)
    mud = next((c.effect for c in records(game, Tactics) if c.effect.kind == "mud"), None)
    mud_size = game.rule("mud_formation_size")  # the Mud card's own size, when it gives one, comes first
    return Rules(
        letters=letters,
        values=values,
        value_names={v.value: v.name for v in info.value_names},
        formation_names={f.id: f.name for f in info.formations},
        tactics=tuple(tactics),
        hand=int(game.rule("hand_size")),
        flags=int(game.rule("flags")),
        size=int(game.rule("formation_size")),
        mud_size=int(mud.formation_size if mud and mud.formation_size else mud_size),
        breakthrough=int(game.rule("breakthrough")),
        envelopment=int(game.rule("envelopment")),
        leaders=int(game.rule("leaders_per_player")),
        tactics_lead=int(game.rule("tactics_lead")),
        scout_draw=int(scout.draw or 3) if scout else 3,
        scout_return=int(scout.give_back or 2) if scout else 2,
        stalemate_passes=int(game.rule("stalemate_passes")),
        turn_cap=int(game.rule("turn_cap")),
        claim_timing=str(game.rule("claim_timing")),
    )


@functools.cache
def default_rules() -> Rules:
    """The bundled game's rules, for the public functions below that take no game."""
    from printkit.data.loader import bundled_games, load_game

    folder = next(p for p in bundled_games() if p.name == "battle-line")
    return rules_from(load_game(folder))


def compare_formations(
    a: list[str], b: list[str], *, fog: bool = False, mud: bool = False, a_first: bool = True
) -> int:
    """formations.compare_formations for the bundled game's cards."""
    rules = default_rules()
    size = rules.mud_size if mud else rules.size
    return formations.compare_formations(a, b, rules.line, size=size, fog=fog, a_first=a_first)


def prove_claim(
    mine: list[str], theirs: list[str], unplayed: list[str], *, fog: bool = False, mud: bool = False
) -> list[str] | None:
    """formations.prove_claim for the bundled game's cards."""
    rules = default_rules()
    size = rules.mud_size if mud else rules.size
    return formations.prove_claim(mine, theirs, unplayed, rules.line, size=size, fog=fog)


# --- the game state ------------------------------------------------------------------


def _hundreds(n: int) -> int:
    return -(-n // 100) * 100


@dataclass(frozen=True)
class Actions:
    """Where each kind of move sits among the action numbers, sized by the data's flags and cards.

    Each block starts at a round hundred where it can, so the numbers read well in a log: for the
    bundled game (9 flags, 70 cards) a card played is 0-629, a Guile card 630-699, a pass 700.
    """

    flags: int
    cards: int
    play: int  # + card x flags + flag
    guile: int  # + card - troops
    pass_: int
    draw_troop: int
    draw_tactics: int
    pick: int  # + flag x cards + card: what a Guile card takes
    to_flag: int  # + flag: where it goes
    discard_it: int
    ret: int  # + card: a card Scout puts back
    deal: int  # + card: chance
    first: int  # + seat: chance

    @classmethod
    def sized(cls, flags: int, cards: int) -> Actions:
        guile = flags * cards
        pass_ = guile + cards
        pick = _hundreds(pass_ + 3)
        to_flag = _hundreds(pick + flags * cards)
        ret = _hundreds(to_flag + flags + 1)
        deal = _hundreds(ret + cards)
        return cls(
            flags,
            cards,
            0,
            guile,
            pass_,
            pass_ + 1,
            pass_ + 2,
            pick,
            to_flag,
            to_flag + flags,
            ret,
            deal,
            _hundreds(deal + cards),
        )

    def play_at(self, card: int, flag: int) -> int:
        return self.play + card * self.flags + flag

    def played(self, action: int) -> tuple[int, int]:
        """(card, flag) of a card played."""
        card, flag = divmod(action - self.play, self.flags)
        return card, flag

    def pick_at(self, flag: int, card: int) -> int:
        return self.pick + flag * self.cards + card

    def picked(self, action: int) -> tuple[int, int]:
        """(flag, card) a Guile card takes."""
        flag, card = divmod(action - self.pick, self.cards)
        return flag, card


PIECE = 9  # flags a table of plays covers: 2 ** PIECE rows of plays a card


def _play_pieces(flags: int, cards: int) -> list[tuple[int, list[list[tuple[int, ...]]]]]:
    """The plays of each card at each set of flags, as tables looked up by the set's bits, made once a game.

    Legal moves are listed at every turn, a card's plays at every flag with room: a row of ready tuples
    joined card by card is several times quicker than working the numbers out. A long line is cut into
    pieces of at most PIECE flags, each (its first flag, rows by its flags' bits, then card), so the
    tables stay small; the bundled line of 9 flags is one piece, 512 rows.
    """
    count = -(-flags // PIECE)
    width = -(-flags // count)
    pieces = []
    for first in range(0, flags, width):
        table: list[list[tuple[int, ...]]] = [[()] * cards]  # no flags: no plays
        for f in range(first, min(first + width, flags)):
            # the sets holding flag f as their highest: those without it, each row with f's play added
            at_f = [(card * flags + f,) for card in range(cards)]
            table += [list(map(operator.add, row, at_f)) for row in table]
        pieces.append((first, table))
    return pieces


NO_FLAG = -1  # no flag, no owner: an unclaimed flag, a flag without Fog or Mud


@dataclass(slots=True)
class Side:
    """One seat's cards at one flag, in the order played."""

    cards: list[int] = field(default_factory=list)
    # reached[k]: the clock when this side came to hold k + 1 cards, and has held as many since; so
    # when Mud leaves a flag, the side that really held a full formation first is known
    reached: list[int] = field(default_factory=list)
    complete_at: int | None = None


class BattleLineGame(GameDef):
    slug = "battle-line"

    def __init__(self, game: Game) -> None:
        self.title = game.title
        self.rules = rules_from(game)  # within the bounds engine.needs declares: the registry checks the data first
        r = self.rules
        self.line = r.line
        self.n_troops = r.troops
        self.n_cards = r.troops + len(r.tactics)
        self.names = [r.troop_name(i) for i in range(r.troops)] + [t[0] for t in r.tactics]
        self.index = {name: i for i, name in enumerate(self.names)}
        self.effect: tuple[Effect, ...] = (TROOP,) * r.troops + tuple(Effect[t[2].upper()] for t in r.tactics)
        self.act = Actions.sized(r.flags, self.n_cards)
        self.printed = {tid: name for tid, name, _, _ in r.tactics}  # a Tactics card's name as it prints
        n_values = len(r.values)
        self.formation_card: list[Card] = [
            Card(self.names[i], (i // n_values, r.values[i % n_values])) for i in range(r.troops)
        ]
        for tid, _, kind, vals in r.tactics:
            self.formation_card.append(Card(tid, None, r.values if kind == "wild" else vals))
        # the card Fog (Mud) is at a flag: the first card of that effect, as Redeploy and Deserter take it back
        self.fog_card = self.effect.index(FOG) if FOG in self.effect else NO_FLAG
        self.mud_card = self.effect.index(MUD) if MUD in self.effect else NO_FLAG
        self.flag_range = range(r.flags)
        # the claim timing as two flags: read at every turn's end, where a string compare costs more
        self.claim_after_play = r.claim_timing == "after_play"
        self.claim_at_start = r.claim_timing == "start_of_turn"
        self.all_flags = (1 << r.flags) - 1
        self.pieces = _play_pieces(r.flags, self.n_cards)
        # the usual line of up to PIECE flags is one piece: its rows are read at once, without plays_in
        self.rows = self.pieces[0][1] if len(self.pieces) == 1 else None
        # what a report counts of a card played, by seat and card: made once, shared by every game's record
        self.play_events = [[Event("play", seat, name) for name in self.names] for seat in (0, 1)]
        self.colours = len(r.letters)
        self.troops = troops_of(r.values, self.colours)  # a troop's bit is its card number
        self.concrete: list[Concrete] = self.troops.troop  # a troop's (colour, value), by card number
        # each value and its troops' bits, highest value first
        self.values_high = [(v, self.troops.value_bits[v]) for v in reversed(r.values)]
        # what strength reads of each card, by card number: a troop's value, a bit for that value (bit v - the
        # lowest value, so a run's bits are side by side) and a bit for its colour. A Tactics card has the colour
        # bit wild_colour, past every troop's: one in a formation sends it to the wild reading. The value of a
        # wild card is its highest, what a claim's first look counts; other Tactics cards count none
        tactics = len(r.tactics)
        self.value = [v for _, v in self.concrete] + [
            max(card.values, default=0) for card in self.formation_card[r.troops :]
        ]
        self.value_bit = [1 << (v - r.values[0]) for _, v in self.concrete] + [0] * tactics
        self.wild_colour = 1 << self.colours
        self.colour_bit = [1 << c for c, _ in self.concrete] + [self.wild_colour] * tactics
        # a formation with wild cards' strength by its cards and Fog (_wild_strength's key): worked out once,
        # looked up after, as trying the wild cards' readings costs several times more
        self._strength: dict[int, Strength] = {}

    def new_initial_state(self) -> BattleLineState:
        return BattleLineState(self)

    def card_names(self) -> dict[str, str]:
        return {t[0]: t[1] for t in self.rules.tactics} | {n: n for n in self.names[: self.n_troops]}

    def plays_in(self, room: int, cards: Sequence[int], out: list[int]) -> None:
        """The actions that put each card (in the order given) at each flag of room, flags lowest first, onto out."""
        pieces = self.pieces
        if len(pieces) == 1:  # a line of up to PIECE flags: one row of plays a card
            row = pieces[0][1][room]
            for c in cards:
                out += row[c]
            return
        rows = [table[room >> shift & (len(table) - 1)] for shift, table in pieces]
        for c in cards:
            for row in rows:
                out += row[c]

    def highest(self, unplayed: int, k: int) -> tuple[int, int]:
        """The bits and the values' sum of the k (one or more) highest troops of unplayed (bits by card number),
        highest value first, then lowest colour; (0, 0) when fewer than k are left."""
        bits = total = 0
        for value, troops in self.values_high:
            m = unplayed & troops
            while m:
                low = m & -m
                bits |= low
                total += value
                k -= 1
                if not k:
                    return bits, total
                m ^= low
        return 0, 0

    def strength(self, cards: Sequence[int], fog: bool) -> Strength:
        """The strength of a formation of cards (by number), wild cards read at their best.

        Troops only, the usual case, are read off three numbers made in one pass over the cards: a claim
        check asks it of formations mostly new to the game, where a table of answers would seldom hold one.
        """
        total = values = colours = 0
        value, value_bit, colour_bit = self.value, self.value_bit, self.colour_bit
        for c in cards:
            total += value[c]
            values |= value_bit[c]
            colours |= colour_bit[c]
        if colours >= self.wild_colour or not cards:  # a wild card, or no card at all
            return self._wild_strength(cards, fog)
        if fog:
            return 0, total
        one_colour = not colours & (colours - 1)
        # distinct values (a bit each) make a run when their bits are side by side: adding the lowest bit then
        # carries through them all, leaving a single bit
        carry = values + (values & -values)
        if values.bit_count() == len(cards) and not carry & (carry - 1):
            return (4 if one_colour else 1), total  # two values or more are no phalanx
        if not values & (values - 1):  # one value
            return 3, total
        return (2 if one_colour else 0), total

    def _wild_strength(self, cards: Sequence[int], fog: bool) -> Strength:
        key = int(fog)  # the formation as one int, bit 0 Fog, bit c + 1 card c: quicker to make than a tuple
        for c in cards:
            key |= 2 << c
        found = self._strength.get(key)
        if found is None:
            ordered = sorted(cards)
            troops = bisect.bisect_left(ordered, self.n_troops)  # troops are numbered first
            concrete = [self.concrete[c] for c in ordered[:troops]]
            if troops == len(ordered):  # no card at all
                found = formations.strength(concrete, fog)
            else:
                found = wild_strength(concrete, [self.formation_card[c].values for c in ordered[troops:]], fog)
            self._strength[key] = found
        return found

    def position(self, description: str) -> BattleLineState:
        """A position in the play phase, from a short description: lines (or ;-separated parts) such as

            hands: R1 R2 fog | B1 B2        each seat's hand, seat 0 first
            flag 3: R7 R8 R9 | B8 mud        the cards at a flag (1-based), each seat's in the order played
            discard: B10                     cards out of play
            to move: 1                       the seat to play (0 unless given)

        A flag may be named on several lines: its cards are played line by line, seat 0's before seat 1's,
        which decides who completed a formation first. Fog and Mud go to the flag for the seat that lists
        them; Tactics cards at flags count as played. Every card not named stays in its deck, in order.
        """
        state = self.new_initial_state()
        placed: list[tuple[int, int, int]] = []  # (flag, seat, card) in the order played
        used: set[int] = set()

        def cards(words: str) -> list[int]:
            out = []
            for word in words.split():
                if word not in self.index:
                    raise ValueError(f"position: no card {word!r} (cards are such as R10 or {self.names[-1]})")
                card = self.index[word]
                if card in used:
                    raise ValueError(f"position: {word} is named twice")
                used.add(card)
                out.append(card)
            return out

        def sides(text: str, what: str) -> tuple[str, str]:
            left, bar, right = text.partition("|")
            if not bar:
                raise ValueError(f"position: {what}: expected seat 0's cards | seat 1's cards, found {text.strip()!r}")
            return left, right

        to_move = 0
        for part in description.replace(";", "\n").splitlines():
            key, colon, text = part.partition(":")
            key = key.strip()
            if not key:
                continue
            if not colon:
                raise ValueError(f"position: expected 'what: cards', found {part.strip()!r}")
            if key == "hands":
                for seat, words in enumerate(sides(text, key)):
                    state.hands[seat] = cards(words)
            elif key.startswith("flag") and key[4:].strip().isdigit():
                flag = int(key[4:]) - 1
                if flag not in self.flag_range:
                    raise ValueError(f"position: {key}: flags are 1 to {self.rules.flags}")
                for seat, words in enumerate(sides(text, key)):
                    placed += [(flag, seat, c) for c in cards(words)]
            elif key == "discard":
                state.discard += cards(text)
                for card in state.discard:
                    if card < self.n_troops:
                        state.unplayed &= ~(1 << card)
            elif key == "to move":
                to_move = int(text)
            else:
                raise ValueError(f"position: unknown part {key!r} (hands, flag N, discard, to move)")
        state.troop_deck = [c for c in state.troop_deck if c not in used]
        state.tactics_deck = [c for c in state.tactics_deck if c not in used]
        for flag, seat, card in placed:
            state.player = seat
            state._put(flag, card)
            if self.effect[card] != TROOP:
                state._use_tactic(card)
        state.player, state.phase = to_move, PLAY
        state._legal = None
        return state


class BattleLineState(TwoPlayerState):
    """A Battle Line position. Flags are claimed automatically at the start of each turn (or, under the basic
    rule, at the end of one's own), since a claim can never hurt its claimer; the proof uses every troop not
    yet on the table."""

    __slots__ = (
        "back_to",
        "claimed",
        "clock",
        "discard",
        "drawing_from",
        "drawn",
        "fog",
        "fogged",
        "full",
        "g",
        "guile",
        "hands",
        "leaders_played",
        "mud",
        "mudded",
        "passes",
        "phase",
        "pickable",
        "picked",
        "player",
        "refuted",
        "scout_draws",
        "scout_returns",
        "sides",
        "tactics_deck",
        "tactics_played",
        "taken",
        "tops",
        "troop_deck",
        "troops_at",
        "turns",
        "unplayed",
    )

    g: BattleLineGame
    hands: list[list[int]]  # each seat's cards
    troop_deck: list[int]
    tactics_deck: list[int]
    tops: list[list[tuple[int, int]]]  # known top cards per deck (troops, tactics): (card, the seat that put it)
    sides: list[list[Side]]  # by flag, then seat
    fog: list[int]  # by flag: the seat whose Fog is there, or NO_FLAG
    mud: list[int]
    claimed: list[int]  # by flag: the seat that claimed it, or NO_FLAG
    full: list[int]  # by seat: a bit for each flag where its formation is complete
    # bits of flags, kept up to date as cards come and go, so the Tactics cards' plays are listed without a
    # look at every flag: where Fog (Mud) is, and by seat, where a Guile card finds something of its to take
    fogged: int
    mudded: int
    pickable: list[int]  # by seat: a card on its side, or its Fog or Mud (what Redeploy and Deserter take)
    troops_at: list[int]  # by seat: a troop on its side (what Traitor takes)
    taken: int  # a bit for each claimed flag
    tactics_played: list[int]  # by seat
    leaders_played: list[int]
    discard: list[int]
    player: int  # the seat whose turn it is
    phase: Phase
    guile: Effect  # the Guile card being played (TROOP when none)
    picked: tuple[int, int]  # (flag, card) a Guile card took
    scout_draws: int  # cards Scout still draws
    scout_returns: int  # cards Scout still puts back
    drawing_from: int  # the deck a chance draw comes from: 0 troops, 1 tactics
    drawn: int  # where in its deck sample_chance last found a card: a hint for the draw, checked
    back_to: Phase  # the phase a chance draw returns to
    clock: int
    turns: int
    passes: int  # passes in a row
    # by flag x 2 + seat: the troops (bits) of a completion of the other side that beats the seat's complete
    # formation there, 0 when none is known. It holds while the flag stays as it was and its troops unplayed:
    # every change at a flag forgets the flag's, so a start-of-turn claim check is not proved again each turn
    refuted: list[int]
    unplayed: int  # the troops not yet on the table (in a deck or a hand), one bit each by card number

    def __init__(self, game: BattleLineGame) -> None:
        r = game.rules
        self.g = game
        self.hands = [[], []]
        self.troop_deck = list(range(game.n_troops))
        self.tactics_deck = list(range(game.n_troops, game.n_cards))
        self.tops = [[], []]
        self.sides = [[Side([], []), Side([], [])] for _ in game.flag_range]
        self.fog = [NO_FLAG] * r.flags
        self.mud = [NO_FLAG] * r.flags
        self.claimed = [NO_FLAG] * r.flags
        self.full = [0, 0]
        self.fogged = self.mudded = 0
        self.pickable = [0, 0]
        self.troops_at = [0, 0]
        self.taken = 0
        self.tactics_played = [0, 0]
        self.leaders_played = [0, 0]
        self.discard = []
        self.player = 0
        self.phase = DEAL
        self._no_pending()
        self.clock = 0
        self.drawn = 0
        self.turns = 0
        self.passes = 0
        self.refuted = [0] * (2 * r.flags)
        self.unplayed = (1 << game.n_troops) - 1
        self._start_record()

    def _no_pending(self) -> None:
        self.guile = TROOP
        self.picked = (NO_FLAG, NO_FLAG)
        self.scout_draws = self.scout_returns = 0
        self.drawing_from = 0
        self.back_to = DEAL

    # -- small helpers ---------------------------------------------------------------
    def clone(self) -> BattleLineState:
        other = BattleLineState.__new__(BattleLineState)
        other.g = self.g
        other.hands = [h[:] for h in self.hands]
        other.troop_deck = self.troop_deck[:]
        other.tactics_deck = self.tactics_deck[:]
        other.tops = [t[:] for t in self.tops]
        other.sides = [[Side(s.cards[:], s.reached[:], s.complete_at) for s in flag] for flag in self.sides]
        other.fog, other.mud, other.claimed, other.full = self.fog[:], self.mud[:], self.claimed[:], self.full[:]
        other.tactics_played, other.leaders_played = self.tactics_played[:], self.leaders_played[:]
        other.discard = self.discard[:]
        other.player, other.phase, other.guile, other.picked = self.player, self.phase, self.guile, self.picked
        other.scout_draws, other.scout_returns = self.scout_draws, self.scout_returns
        other.drawing_from, other.back_to, other.drawn = self.drawing_from, self.back_to, self.drawn
        other.clock, other.turns, other.passes = self.clock, self.turns, self.passes
        other.refuted = self.refuted[:]
        other.taken = self.taken
        other.fogged, other.mudded = self.fogged, self.mudded
        other.pickable, other.troops_at = self.pickable[:], self.troops_at[:]
        other.unplayed = self.unplayed
        self._copy_record(other)
        return other

    def size(self, flag: int) -> int:
        """Cards in a complete formation at flag: more under Mud."""
        return self.g.rules.mud_size if self.mud[flag] != NO_FLAG else self.g.rules.size

    def deck_count(self, which: int) -> int:
        """Cards left in a deck: 0 the troops, 1 the tactics."""
        return len(self.troop_deck if which == 0 else self.tactics_deck) + len(self.tops[which])

    def is_troop(self, card: int) -> bool:
        return card < self.g.n_troops

    def _mark(self, flag: int, side: int) -> None:
        """Bring a side's times up to its cards after they changed, and whether (since when) it is complete."""
        s = self.sides[flag][side]
        reached, n = s.reached, len(s.cards)
        del reached[n:]  # cards taken away: the counts they made are no longer held
        while len(reached) < n:
            self.clock += 1
            reached.append(self.clock)
        size = self.g.rules.mud_size if self.mud[flag] != NO_FLAG else self.g.rules.size
        if n >= size:
            s.complete_at = reached[size - 1]
            self.full[side] |= 1 << flag
        else:
            s.complete_at = None
            self.full[side] &= ~(1 << flag)

    # -- the API ------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        if self.phase <= DRAWING:
            return CHANCE
        return self.player

    def chance_outcomes(self) -> list[tuple[int, float]]:
        a = self.g.act
        if self.phase == FIRST:
            return [(a.first, 0.5), (a.first + 1, 0.5)]
        deck = self._chance_deck()
        p = 1.0 / len(deck)
        return [(a.deal + c, p) for c in deck]

    def _chance_deck(self) -> list[int]:
        if self.phase == DEAL or self.drawing_from == 0:
            return self.troop_deck
        return self.tactics_deck

    def sample_chance(self, rng: random.Random) -> int:
        a = self.g.act
        phase = self.phase
        if phase == FIRST:
            return pick(rng, (a.first, a.first + 1))
        deck = self.troop_deck if phase == DEAL or self.drawing_from == 0 else self.tactics_deck
        self.drawn = at = int(rng.random() * len(deck))  # api.pick, inline: a draw at every turn
        return a.deal + deck[at]

    def legal_actions(self) -> list[int]:
        legal = self._legal  # worked out once a position: the runner and the agent both ask
        if legal is None:
            phase = self.phase
            legal = self._legal = _LEGAL[phase](self) if phase > DRAWING and not self.over else self._work_out_legal()
        return legal

    def _work_out_legal(self) -> list[int]:
        if self.over:
            return []
        if self.phase <= DRAWING:
            return [a for a, _ in self.chance_outcomes()]
        return _LEGAL[self.phase](self)

    def _legal_play(self) -> list[int]:
        g = self.g
        r, p = g.rules, self.player
        bits = g.all_flags & ~(self.taken | self.full[p])  # the flags with room: unclaimed, p's side not complete
        hand = sorted(self.hands[p])
        # troops are numbered before Tactics cards: the hand's troops come first, each at every flag with room
        troops = bisect.bisect_left(hand, g.n_troops)
        out: list[int] = []
        if g.rows is not None:  # plays_in, inline for a line of one piece
            row = g.rows[bits]
            for c in hand[:troops]:
                out += row[c]
        else:
            g.plays_in(bits, hand[:troops], out)
        if troops < len(hand) and self.tactics_played[p] <= self.tactics_played[1 - p] + r.tactics_lead:
            self._legal_tactics(hand[troops:], bits, out)
        if not (troops and bits):
            out.append(g.act.pass_)
        return out

    def _legal_tactics(self, tactics: list[int], room: int, out: list[int]) -> None:
        """The plays of the Tactics cards in hand, in card order, onto out; room: the bits of the flags with room."""
        g = self.g
        p = self.player
        for card in tactics:
            kind = g.effect[card]
            if kind <= VALUE_CHOICE:  # in STANDS_IN: played as a troop is
                if kind == WILD and self.leaders_played[p] >= g.rules.leaders:
                    continue
                at = room
            elif kind == FOG:
                at = g.all_flags & ~(self.taken | self.fogged)
            elif kind == MUD:
                at = g.all_flags & ~(self.taken | self.mudded)
            else:  # a Guile card: played when it has something to act on, what _legal_pick would list
                if kind == SCOUT:
                    possible = bool(self.troop_deck or self.tactics_deck or self.tops[0] or self.tops[1])
                elif kind == TRAITOR:
                    possible = bool(room and self.troops_at[1 - p] & ~self.taken)
                else:  # Redeploy takes a card of one's own, Deserter one of the other side's
                    possible = bool(self.pickable[p if kind == REDEPLOY else 1 - p] & ~self.taken)
                if possible:
                    out.append(g.act.guile + card - g.n_troops)
                continue
            if g.rows is not None:  # plays_in, inline for a line of one piece
                out += g.rows[at][card]
            else:
                g.plays_in(at, (card,), out)

    def _pickable(self, owner: int, troops_only: bool) -> list[tuple[int, int]]:
        """(flag, card) pairs of owner's cards at unclaimed flags, environment cards included."""
        out = []
        n_troops = self.g.n_troops
        for f in self.g.flag_range:
            if self.claimed[f] != NO_FLAG:
                continue
            if troops_only:
                out += [(f, c) for c in self.sides[f][owner].cards if c < n_troops]
            else:
                out += [(f, c) for c in self.sides[f][owner].cards]
                out += [(f, c) for c, env in self._environment(f) if env == owner]
        return out

    def _environment(self, flag: int) -> list[tuple[int, int]]:
        """(card, owner) of the environment cards at a flag."""
        out = []
        if self.fog[flag] != NO_FLAG:
            out.append((self.g.fog_card, self.fog[flag]))
        if self.mud[flag] != NO_FLAG:
            out.append((self.g.mud_card, self.mud[flag]))
        return out

    def _legal_pick(self) -> list[int]:
        a = self.g.act
        owner = self.player if self.guile == REDEPLOY else 1 - self.player
        pairs = self._pickable(owner, troops_only=self.guile == TRAITOR)
        return sorted({a.pick_at(f, c) for f, c in pairs})

    def _legal_place(self) -> list[int]:
        a = self.g.act
        p, (src, card) = self.player, self.picked
        redeploy = self.guile == REDEPLOY
        out = []
        kind = self.g.effect[card]
        for f in self.g.flag_range:
            if self.claimed[f] != NO_FLAG or (f == src and redeploy):
                continue
            if kind == FOG:
                ok = self.fog[f] == NO_FLAG
            elif kind == MUD:
                ok = self.mud[f] == NO_FLAG
            else:
                ok = len(self.sides[f][p].cards) < self.size(f)
            if ok:
                out.append(a.to_flag + f)
        if redeploy:
            out.append(a.discard_it)
        return out

    def _legal_draw(self) -> list[int]:
        a = self.g.act
        out = [a.draw_troop] if self.troop_deck or self.tops[0] else []
        if self.tactics_deck or self.tops[1]:
            out.append(a.draw_tactics)
        return out

    def _legal_scout_return(self) -> list[int]:
        a = self.g.act
        return sorted({a.ret + c for c in self.hands[self.player]})

    def apply_action(self, action: int) -> None:
        if self.over:
            raise IllegalAction("the game is over")
        phase = self.phase
        if phase <= DRAWING:
            self._chance(action)
        else:  # TwoPlayerState._take_move, inline: checked, counted when there was a choice, recorded
            legal = self._legal if self._legal is not None else self.legal_actions()
            if action not in legal:
                raise IllegalAction(f"{action} is not legal now ({PHASE_WORDS[phase]})")
            if len(legal) > 1:
                self.tally.decisions += 1
            self.history.append(action)
            _MOVES[phase](self, action)  # the moves list no legal actions: _legal is forgotten after them
        self._legal = None

    # -- chance ------------------------------------------------------------------------------
    def _chance(self, action: int) -> None:
        """A chance outcome, checked without listing every card of the deck, recorded and played."""
        a = self.g.act
        if self.phase == FIRST:
            self._take_chance(action, a.first <= action <= a.first + 1, "first")
            self.player = action - a.first
            self._start_turn()
            return
        phase = self.phase
        deck = self.troop_deck if phase == DEAL or self.drawing_from == 0 else self.tactics_deck
        card = action - a.deal
        at = self.drawn  # where sample_chance found it, when the card is this one: no search of the deck
        if at >= len(deck) or deck[at] != card:
            try:
                at = deck.index(card)
            except ValueError:
                self._take_chance(action, False, PHASE_WORDS[phase])
        del deck[at]
        self.history.append(action)
        if phase == DEAL:
            hands = self.hands
            hands[0 if len(hands[0]) <= len(hands[1]) else 1].append(card)
            if len(hands[1]) == self.g.rules.hand:
                self.phase = FIRST
            return
        self.hands[self.player].append(card)
        if self.back_to == DRAW:  # the usual draw: the turn ends
            self._end_turn()
        else:
            self._after_draw()

    def _draw(self, which: int) -> None:
        """Draw from a deck: a known top card at once, otherwise a chance node."""
        if self.tops[which]:
            card, _ = self.tops[which].pop()
            self.hands[self.player].append(card)
            self.back_to = self.phase
            self._after_draw()
        else:
            self.drawing_from = which
            self.back_to = self.phase
            self.phase = DRAWING

    def _after_draw(self) -> None:
        if self.back_to == SCOUT_DRAW:
            self.scout_draws -= 1
            more = self.scout_draws and self.deck_count(0) + self.deck_count(1)
            self.phase = SCOUT_DRAW if more else SCOUT_RETURN
            if self.phase == SCOUT_RETURN and not self._legal_scout_return():
                self._end_turn()
        else:
            self._end_turn()

    # -- moves -------------------------------------------------------------------------------
    def _do_play(self, action: int) -> None:
        g = self.g
        a = g.act
        p = self.player
        if action == a.pass_:
            self.passes += 1
            self._end_turn()
            return
        self.passes = 0
        if a.guile <= action < a.pass_:
            card = g.n_troops + action - a.guile
            self._use_tactic(card)
            kind = g.effect[card]
            self.tally.events.append(g.play_events[p][card])
            self.discard.append(card)
            self.guile = kind
            if kind == SCOUT:
                self.scout_draws = g.rules.scout_draw
                self.scout_returns = g.rules.scout_return
                self.phase = SCOUT_DRAW
            else:
                self.phase = PICK
            return
        card, flag = divmod(action - a.play, a.flags)
        hand = self.hands[p]
        hand.remove(card)
        self.tally.events.append(g.play_events[p][card])
        if card < g.n_troops:  # _put and _mark, inline for the usual move: one more troop on a side with room
            side = self.sides[flag][p]
            side.cards.append(card)
            bit = 1 << card
            # the completion known to beat the other seat here is still one if this troop was one of its own
            at = 2 * flag + 1 - p
            witness = self.refuted[at]
            if witness:
                self.refuted[at] = witness & ~bit if witness & bit else 0
            self.clock = clock = self.clock + 1
            side.reached.append(clock)
            at_flag = 1 << flag
            size = g.rules.mud_size if self.mudded & at_flag else g.rules.size
            if len(side.cards) >= size:
                side.complete_at = side.reached[size - 1]
                self.full[p] |= at_flag
            self.unplayed &= ~bit
            self.pickable[p] |= at_flag
            self.troops_at[p] |= at_flag
        else:
            self._use_tactic(card)
            self._put(flag, card)
        if len(hand) < g.rules.hand and (self.troop_deck or self.tactics_deck or self.tops[0] or self.tops[1]):
            self.phase = DRAW  # _to_draw, inline
        else:
            self._end_turn()

    def _put(self, flag: int, card: int) -> None:
        """The player's card goes to a flag: to its side, or, Fog or Mud, to the flag itself."""
        self._put_card(flag, card)
        self._changed(flag)

    def _put_card(self, flag: int, card: int) -> None:
        kind = self.g.effect[card]
        if kind == FOG:
            self.fog[flag] = self.player
        elif kind == MUD:
            self.mud[flag] = self.player
            self._mark(flag, 0)
            self._mark(flag, 1)
        else:
            self.sides[flag][self.player].cards.append(card)
            self._mark(flag, self.player)
            if card < self.g.n_troops:
                self.unplayed &= ~(1 << card)

    def _changed(self, flag: int) -> None:
        """The cards at a flag changed: its bits are read again, and the completions known to beat its
        formations are forgotten, as they may not beat them any more."""
        self.refuted[2 * flag] = self.refuted[2 * flag + 1] = 0
        bit = 1 << flag
        n_troops = self.g.n_troops
        fog, mud = self.fog[flag], self.mud[flag]
        self.fogged = self.fogged | bit if fog != NO_FLAG else self.fogged & ~bit
        self.mudded = self.mudded | bit if mud != NO_FLAG else self.mudded & ~bit
        for seat in (0, 1):
            cards = self.sides[flag][seat].cards
            if cards or fog == seat or mud == seat:
                self.pickable[seat] |= bit
            else:
                self.pickable[seat] &= ~bit
            if any(c < n_troops for c in cards):
                self.troops_at[seat] |= bit
            else:
                self.troops_at[seat] &= ~bit

    def _use_tactic(self, card: int) -> None:
        p = self.player
        if card in self.hands[p]:
            self.hands[p].remove(card)
        self.tactics_played[p] += 1
        if self.g.effect[card] == WILD:
            self.leaders_played[p] += 1

    def _to_draw(self) -> None:
        if len(self.hands[self.player]) < self.g.rules.hand and (
            self.troop_deck or self.tactics_deck or self.tops[0] or self.tops[1]
        ):
            self.phase = DRAW
        else:
            self._end_turn()

    def _do_draw(self, action: int) -> None:
        which = 0 if action == self.g.act.draw_troop else 1
        if self.tops[which]:
            self._draw(which)
        else:  # _draw, inline: the usual draw, from a deck whose top is unknown
            self.drawing_from = which
            self.back_to = self.phase
            self.phase = DRAWING

    def _do_scout_return(self, action: int) -> None:
        card = action - self.g.act.ret
        self.hands[self.player].remove(card)
        self.tops[0 if self.is_troop(card) else 1].append((card, self.player))
        self.scout_returns -= 1
        if not self.scout_returns or not self.hands[self.player]:
            self._end_turn()

    def _do_pick(self, action: int) -> None:
        flag, card = self.g.act.picked(action)
        if self.guile == DESERTER:
            self._remove(flag, card)
            self.discard.append(card)
            self._to_draw()
            return
        self.picked = (flag, card)
        self.phase = PLACE

    def _do_place(self, action: int) -> None:
        src, card = self.picked
        self._remove(src, card)
        if action == self.g.act.discard_it:
            self.discard.append(card)
        else:
            self._put(action - self.g.act.to_flag, card)
        self._to_draw()

    def _remove(self, flag: int, card: int) -> None:
        """Take a card off a flag; when Mud goes, a side left with too many cards sheds its weakest."""
        self._take_off(flag, card)
        self._changed(flag)

    def _take_off(self, flag: int, card: int) -> None:
        kind = self.g.effect[card]
        if kind == FOG:
            self.fog[flag] = NO_FLAG
            return
        if kind == MUD:
            self.mud[flag] = NO_FLAG
            for side in (0, 1):
                cards = self.sides[flag][side].cards
                while len(cards) > self.g.rules.size:
                    self._shed(flag, side)
                self._mark(flag, side)
            return
        for side in (0, 1):
            if card in self.sides[flag][side].cards:
                self.sides[flag][side].cards.remove(card)
                self._mark(flag, side)
                return

    def _shed(self, flag: int, side: int) -> None:
        """Discard the card whose loss leaves the strongest formation (the reconstructed Mud rule)."""
        cards = self.sides[flag][side].cards
        fog = self.fog[flag] != NO_FLAG
        best = max(cards, key=lambda c: self.g.strength([x for x in cards if x != c], fog))
        cards.remove(best)
        self.discard.append(best)
        if self.narration is not None:  # words only for a replay
            self._say(
                f"Mud leaves flag {flag + 1}: seat {side} discards {self.g.names[best]}, keeping its strongest "
                f"{self.g.rules.size}"
            )

    # -- turns and claims -----------------------------------------------------------------
    def _end_turn(self) -> None:
        if self.guile:  # what a Guile card left pending is done with
            self._no_pending()
        g = self.g
        r = g.rules
        if g.claim_after_play:  # the basic rule: claim in your own turn, having played
            self._claim(self.player)
            if self.over:
                return
        self.turns += 1
        if self.passes >= r.stalemate_passes:
            if self.narration is not None:  # words only for a replay
                self._say(f"{self.passes} passes in a row: the game stops, more flags held wins")
            self._finish_by_count("stalemate")
            return
        if self.turns >= r.turn_cap:
            self._finish_by_count("cap")
            return
        self.player = p = 1 - self.player
        self.phase = PLAY
        if self.full[p] and g.claim_at_start:
            self._claim(p)

    def _start_turn(self) -> None:
        self.phase = PLAY
        if self.g.rules.claim_timing == "start_of_turn":
            self._claim(self.player)

    def _claim(self, p: int) -> None:
        """p claims every flag its formation is proved to win; a new flag may win the game."""
        claimed = False
        refuted = self.refuted
        todo = self.full[p] & ~self.taken  # the unclaimed flags where p's formation is complete, lowest first
        while todo:
            low = todo & -todo
            todo ^= low
            flag = low.bit_length() - 1
            witness = refuted[2 * flag + p]
            if witness and not witness & ~self.unplayed:  # can_claim's first look, inline: still beaten
                continue
            if self.can_claim(flag, p):
                self.claimed[flag] = p
                self.taken |= low
                claimed = True
                if self.narration is not None:
                    self._say(f"seat {p} claims flag {flag + 1}: {self._claim_words(flag, p)}")
        if claimed and self._won(p):  # only a new flag can win the game
            if self.narration is not None:  # words only for a replay
                self._say(f"seat {p} holds {self.claimed.count(p)} flags, {self._win_words(p)}")
            self._finish(p, "normal")

    def _formation_words(self, cards: list[int], fog: bool) -> str:
        formation = [self.g.formation_card[c] for c in cards]
        (rank, total), read = best_strength(formation, fog, self.g.colours)
        r = self.g.rules
        shown = " ".join(
            (f"{self.g.printed[card.name]} as " if card.troop is None else "") + f"{r.letters[colour]}{value}"
            for card, (colour, value) in sorted(zip(formation, read, strict=True), key=lambda pair: pair[1][1])
        )
        kind = "a sum" if fog else r.formation_names[RANKS[rank]]
        return f"{kind} of {total} ({shown})"

    def _claim_words(self, flag: int, p: int) -> str:
        """Why a claim holds: the two formations, or that no completion of the other side beats it."""
        fog = self.fog[flag] != NO_FLAG
        mine, theirs = self.sides[flag][p].cards, self.sides[flag][1 - p].cards
        said = self._formation_words(mine, fog)
        if len(theirs) >= self.size(flag):
            return f"{said} beats {self._formation_words(theirs, fog)}"
        return f"{said}; no unplayed Troops complete the other side to beat it"

    def _win_words(self, p: int) -> str:
        r = self.g.rules
        mine = [c == p for c in self.claimed]
        if any(all(mine[f : f + r.breakthrough]) for f in range(r.flags - r.breakthrough + 1)):
            return f"{r.breakthrough} of them side by side: a breakthrough"
        return f"{r.envelopment} or more anywhere: an envelopment"

    def unplayed_troops(self) -> list[int]:
        """Troops in the deck and both hands: what the proof claim must hold against."""
        tops = [c for c, _ in self.tops[0]]
        return self.troop_deck + tops + [c for h in self.hands for c in h if self.is_troop(c)]

    def can_claim(self, flag: int, p: int, unplayed: set[Concrete] | None = None) -> bool:
        """Whether p's formation at flag is proved to win it; unplayed: the troops not yet on the table, as
        (colour, value) pairs, when not the state's own."""
        mine, theirs = self.sides[flag][p], self.sides[flag][1 - p]
        g = self.g
        size = g.rules.mud_size if self.mud[flag] != NO_FLAG else g.rules.size
        if len(mine.cards) < size:
            return False
        fog = self.fog[flag] != NO_FLAG
        if len(theirs.cards) >= size:
            a = g.strength(mine.cards, fog)
            b = g.strength(theirs.cards, fog)
            first = mine.complete_at is not None and (
                theirs.complete_at is None or mine.complete_at < theirs.complete_at
            )
            return a > b or (a == b and first)
        pool = self.unplayed if unplayed is None else g.troops.bits(unplayed)
        # the completion that beat this formation last time still beats it while its troops are unplayed
        witness = self.refuted[2 * flag + p]
        if witness and not witness & ~pool:
            return False
        beat = g.strength(mine.cards, fog)
        held = theirs.cards
        # a first look: the highest troops unplayed, with the other side's cards (a wild card at its highest
        # value), are worth their sum at least whatever formation they make, which beats most formations a
        # game proves (a host, mostly) with no formation to read
        need = size - len(held)
        top, total = g.highest(pool, need)
        if top:
            value = g.value
            for c in held:
                total += value[c]
            if (0, total) > beat:
                self.refuted[2 * flag + p] = top  # the troops of a completion that beats it
                return False
        if not held or max(held) < g.n_troops:  # troops only, the usual case: one search, no wild card to read
            extra = best_completion([g.concrete[c] for c in held], need, pool, beat, fog, g.troops)
        else:
            cards = g.formation_card
            found = counter_example(
                [cards[c] for c in mine.cards],
                [cards[c] for c in held],
                pool,
                size,
                fog,
                g.rules.values,
                g.colours,
                beat,
            )
            extra = None if found is None else [x for x in found if not isinstance(x, Card)]
        if extra is None:
            return True
        self.refuted[2 * flag + p] = g.troops.bits(extra)  # a troop at least: the other side is short
        return False

    def _won(self, p: int) -> bool:
        r = self.g.rules
        mine = 0  # a bit for each flag p holds
        for f, owner in enumerate(self.claimed):
            if owner == p:
                mine |= 1 << f
        if bin(mine).count("1") >= r.envelopment:
            return True
        side_by_side = mine  # the flags that start a run of held flags as long as those shifted in so far
        for shift in range(1, r.breakthrough):
            side_by_side &= mine >> shift
        return side_by_side != 0

    def _finish_by_count(self, how: str) -> None:
        counts = [self.claimed.count(0), self.claimed.count(1)]
        self._finish(None if counts[0] == counts[1] else (0 if counts[0] > counts[1] else 1), how)

    # -- views -----------------------------------------------------------------------------------
    def observation(self, player: int) -> dict[str, Any]:
        names = self.g.names
        return {
            "hand": sorted(names[c] for c in self.hands[player]),
            "opponent_hand": {
                "troops": sum(1 for c in self.hands[1 - player] if self.is_troop(c)),
                "tactics": sum(1 for c in self.hands[1 - player] if not self.is_troop(c)),
            },
            "flags": [
                {
                    "mine": [names[c] for c in s[player].cards],
                    "theirs": [names[c] for c in s[1 - player].cards],
                    "fog": self.fog[f] != NO_FLAG,
                    "mud": self.mud[f] != NO_FLAG,
                    "claimed": self.claimed[f],
                }
                for f, s in enumerate(self.sides)
            ],
            "decks": [self.deck_count(0), self.deck_count(1)],
            "known_tops": [[names[c] for c, who in t if who == player] for t in self.tops],
            "discard": [names[c] for c in self.discard],
            "to_move": self.current_player(),
        }

    def resample(self, player: int, rng: random.Random) -> BattleLineState:
        """Deal the opponent's hand anew from every card the player has not seen."""
        other = self.clone()
        opp = 1 - player
        for which, deck in ((0, other.troop_deck), (1, other.tactics_deck)):
            hidden_tops = [c for c, who in other.tops[which] if who != player]
            other.tops[which] = [(c, who) for c, who in other.tops[which] if who == player]
            in_hand = [c for c in other.hands[opp] if other.is_troop(c) == (which == 0)]
            pool = deck + hidden_tops + in_hand
            rng.shuffle(pool)
            other.hands[opp] = [c for c in other.hands[opp] if other.is_troop(c) != (which == 0)] + pool[: len(in_hand)]
            deck[:] = pool[len(in_hand) :]
        return other

    def action_to_string(self, action: int) -> str:
        a = self.g.act
        names = self.g.names
        if self.current_player() == CHANCE or action >= a.deal:
            return (
                "first player: seat " + str(action - a.first)
                if action >= a.first
                else f"draws {names[action - a.deal]}"
            )
        if action == a.pass_:
            return "passes"
        if action in (a.draw_troop, a.draw_tactics):
            return "draws from the " + ("Troop" if action == a.draw_troop else "Tactics") + " deck"
        if a.guile <= action < a.pass_:
            return f"plays {names[self.g.n_troops + action - a.guile]}"
        if a.pick <= action < a.to_flag:
            flag, card = a.picked(action)
            verb = "discards" if self.guile == DESERTER else "takes"  # a Deserter's card goes
            return f"{verb} {names[card]} from flag {flag + 1}"
        if action == a.discard_it:
            return "discards it"
        if a.to_flag <= action < a.ret:
            return f"puts it at flag {action - a.to_flag + 1}"
        if action >= a.ret:
            return f"puts {names[action - a.ret]} back on its deck"
        card, flag = a.played(action)
        return f"plays {names[card]} at flag {flag + 1}"

    def played_card(self, action: int) -> str | None:
        a = self.g.act
        if self.phase != PLAY or self.is_chance_node() or action == a.pass_:
            return None
        card = self.g.n_troops + action - a.guile if a.guile <= action < a.pass_ else a.played(action)[0]
        return str(self.g.names[card])

    def heuristic(self, player: int) -> float:
        """Flags held, plus how strong each unclaimed formation is against the other side."""
        if self.over:
            return self.returns()[player]
        score = 0.0
        g = self.g
        for f in g.flag_range:
            owner = self.claimed[f]
            if owner != NO_FLAG:
                score += 1.0 if owner == player else -1.0
                continue
            fog = self.fog[f] != NO_FLAG
            for side, sign in ((player, 1.0), (1 - player, -1.0)):
                placed = self.sides[f][side].cards
                if placed:
                    rank, total = g.strength(placed, fog)
                    fill = len(placed) / self.size(f)
                    score += sign * 0.3 * fill * (rank / 4 + total / 30) / 2
        return math.tanh(score / 3)


# the rules of each phase a player acts in: its legal actions, and what an action does
_LEGAL: dict[Phase, Callable[[BattleLineState], list[int]]] = {
    PLAY: BattleLineState._legal_play,
    DRAW: BattleLineState._legal_draw,
    SCOUT_DRAW: BattleLineState._legal_draw,
    PICK: BattleLineState._legal_pick,
    PLACE: BattleLineState._legal_place,
    SCOUT_RETURN: BattleLineState._legal_scout_return,
}
_MOVES: dict[Phase, Callable[[BattleLineState, int], None]] = {
    PLAY: BattleLineState._do_play,
    DRAW: BattleLineState._do_draw,
    SCOUT_DRAW: BattleLineState._do_draw,
    PICK: BattleLineState._do_pick,
    PLACE: BattleLineState._do_place,
    SCOUT_RETURN: BattleLineState._do_scout_return,
}
