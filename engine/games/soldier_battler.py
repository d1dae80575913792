"""Soldier Battler: two armies of Soldiers on a 3x3 battlefield, with the reconstructed values read from data."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from engine.api import CHANCE, TERMINAL, Event, GameDef, IllegalAction, TwoPlayerState
from engine.cards import records
from engine.cards.soldier_battler import Soldier
from printkit.data.game import Game

# Action numbers: a deployment is type x columns + column; the rest start at these bases,
# with a move or attack numbered base + from-space x spaces + to-space.
NO_PLAY, MOVE, ATTACK, END_TURN, DRAW = 9_999, 10_000, 20_000, 30_000, 40_000
MAX_SPACES = 100  # from space x spaces + to space stays within a block of 10,000 action numbers
EMPTY = -1  # the owner of a space nobody stands on
# patterns a table of moves keeps: a 3x3 battlefield meets a few thousand, a far larger one in the
# data could meet new ones every game, and past this they are worked out each time instead
TABLE_LIMIT = 1 << 16
# patterns a table may hold to be filled whole as the game is built, rather than by its first games
FILL_LIMIT = 1 << 14
# arrangements of the battlefield the no-progress stalemate looks through before it calls a game live:
# a dead 3x3 battlefield has at most a few hundred (a full one none), a live one shows an attack in a step
# or two, and past this the game goes on to the turn cap rather than end on a guess
PROGRESS_SEARCH_LIMIT = 20_000


class Phase(IntEnum):
    """Where a turn stands; the first two are chance nodes."""

    DEAL = 0  # the opening hands, a card at a time
    DRAW = 1  # the turn's draw
    PLAY = 2  # deploy at most one Soldier on the home row
    ACT = 3  # each Soldier on the battlefield moves or attacks once
    OVER = 4  # the game has ended: a phase of its own, so the moves' path need not ask whether it is over


# the phases by module names: reading an Enum's member through its class costs a lookup each time
IN_DEAL, IN_DRAW, IN_PLAY, IN_ACT, OVER = Phase


@dataclass(frozen=True)
class Rules:
    types: tuple[str, ...]  # soldier card ids
    names: tuple[str, ...]
    hp: tuple[int, ...]
    weapon: tuple[str, ...]
    ranged: tuple[bool, ...]
    beats: dict[str, str | None]
    copies: tuple[int, ...]
    rows: int
    cols: int
    hand_start: int
    draw: int
    first: int
    damage: int
    advantage: int
    column_reach: bool  # melee reaches the nearest enemy in the column, whatever the row
    enter_enemy_row: bool
    idle_turns: int
    # the stalemate rule: True ends a game only when no attack or deployment can ever come again
    # (no_progress), False after idle_turns turns in a row with neither (idle_turns)
    no_progress: bool
    turn_cap: int


def rules_from(game: Game) -> Rules:
    soldiers = records(game, Soldier)
    weapons = {w.id: w for w in game.info.weapons}
    factions = [f.id for f in game.info.factions]
    deck = game.decks[0]
    copies = {card.id: n for card, n in deck.entries}
    return Rules(
        types=tuple(s.id for s in soldiers),
        names=tuple(s.name for s in soldiers),
        hp=tuple(s.hp for s in soldiers),
        weapon=tuple(s.weapon for s in soldiers),
        ranged=tuple(weapons[s.weapon].ranged for s in soldiers),
        beats={w.id: w.beats for w in weapons.values()},
        copies=tuple(copies.get(s.id, 0) for s in soldiers),
        rows=int(game.rule("board_rows")),
        cols=int(game.rule("board_columns")),
        hand_start=int(game.rule("hand_start")),
        draw=int(game.rule("draw_per_turn")),
        first=factions.index(str(game.rule("first_player"))),
        damage=int(game.rule("damage")),
        advantage=int(game.rule("advantage_damage")),
        column_reach=game.rule("melee_reach") == "nearest_in_column",
        enter_enemy_row=bool(game.rule("enter_enemy_row")),
        idle_turns=int(game.rule("idle_turns_to_stalemate")),
        no_progress=game.rule("stalemate") == "no_progress",
        turn_cap=int(game.rule("turn_cap")),
    )


def subsets(mask: int) -> Iterator[int]:
    """Every set of a bitmask's bits, the empty set first."""
    subset = 0
    while True:
        yield subset
        subset = (subset - mask) & mask
        if not subset:
            return


def cards_of(deck: Sequence[int]) -> list[int]:
    """A deck's cards one by one, in type order, from its count of each Soldier type."""
    return [kind for kind, n in enumerate(deck) for _ in range(n)]


class Options(dict[int, tuple[int, ...]]):
    """What a Soldier of one type in one space may do, by what stands around it: a table of patterns.

    A pattern has a bit per space that is taken (bit j) and per space an enemy holds (bit spaces +
    j), masked to the spaces that matter here (mask), so the table stays small. Its actions are the
    steps to empty spaces, then the attacks on the first group of targets (nearest first) that
    holds an enemy. A table of few patterns is filled whole as the game is built (fill); a larger
    one, which a board far larger than the data's could need, is filled as games meet it.
    """

    __slots__ = ("mask", "spaces", "step_mask", "steps", "targets")  # read at every legal list: a slot is quick

    def __init__(
        self, spaces: int, steps: tuple[tuple[int, int], ...], targets: tuple[tuple[tuple[int, int], ...], ...]
    ) -> None:
        super().__init__()
        self.spaces, self.steps, self.targets = spaces, steps, targets
        self.step_mask = sum({1 << j for j, _ in steps})
        self.mask = self.step_mask | sum({1 << (spaces + j) for group in targets for j, _ in group})

    def _moves(self, pattern: int) -> tuple[int, ...]:
        return tuple(action for j, action in self.steps if not pattern >> j & 1)

    def _attacks(self, pattern: int) -> tuple[int, ...]:
        for group in self.targets:
            hits = tuple(action for j, action in group if pattern >> (self.spaces + j) & 1)
            if hits:
                return hits
        return ()

    def __missing__(self, pattern: int) -> tuple[int, ...]:
        options = self._moves(pattern) + self._attacks(pattern)
        if len(self) < TABLE_LIMIT:
            self[pattern] = options
        return options

    def fill(self) -> None:
        """Every pattern, if there are at most FILL_LIMIT: each the steps its taken spaces leave
        joined to the attacks its enemies allow, worked out apart and paired."""
        if 1 << self.mask.bit_count() > min(FILL_LIMIT, TABLE_LIMIT):
            return
        moves = [(taken, self._moves(taken)) for taken in subsets(self.step_mask)]
        attacks = [(enemy, self._attacks(enemy)) for enemy in subsets(self.mask ^ self.step_mask)]
        for taken, steps in moves:
            for enemy, hits in attacks:
                self[taken | enemy] = steps + hits


Moves = tuple[int, dict[int, tuple[int, ...]]]  # a table's mask and its patterns


def _readable(table: Options) -> Moves:
    """A table as legal lists read it: its mask, and its patterns in a plain dict if it holds them all."""
    whole = len(table) == 1 << table.mask.bit_count()
    return table.mask, dict(table) if whole else table


class Spaces(dict[int, tuple[int, ...]]):
    """The spaces of a bitmask, in order: filled as games meet each mask, on a board too large to list them all."""

    def __missing__(self, mask: int) -> tuple[int, ...]:
        spaces = self.of(mask)
        if len(self) < TABLE_LIMIT:
            self[mask] = spaces
        return spaces

    @staticmethod
    def of(mask: int) -> tuple[int, ...]:
        return tuple(i for i in range(mask.bit_length()) if mask >> i & 1)


class SoldierBattlerGame(GameDef):
    slug = "soldier-battler"

    def __init__(self, game: Game) -> None:
        self.title = game.title
        self.rules = rules_from(game)
        r = self.rules
        spaces = r.rows * r.cols
        if r.rows < 2 or r.cols < 1 or spaces > MAX_SPACES:  # a move is numbered by its two spaces
            raise ValueError(
                f"board_rows x board_columns: expected 2 or more rows and at most {MAX_SPACES} spaces in all, "
                f"found {r.rows} x {r.cols}"
            )
        # the tables the moves are read from, worked out once from the data rather than at every move
        self.spaces = spaces
        # a bit per space (or Soldier type): Python adds and subtracts small ints on a quicker path
        # than it shifts and masks them, so the hot path sets and clears bits known clear or set
        self.bit = tuple(1 << i for i in range(max(spaces, len(r.types))))
        self.taken_and_enemy = 1 + (1 << spaces)
        self.full_deck = cards_of(r.copies)  # a deck's cards one by one at the start (a copy for each game)
        self.columns_weight = 1 << r.cols  # the types in hand, a bit each, times this, plus the free columns
        self.home = tuple(self.home_row(seat) * r.cols for seat in (0, 1))  # each seat's first home space
        # the two spaces of a move or an attack, by its number less MOVE or ATTACK; the type and
        # column of a deployment, by its number: read from a table rather than divided at each move
        self.pairs = tuple(divmod(n, spaces) for n in range(spaces * spaces))
        self.placing = tuple(divmod(n, r.cols) for n in range(len(r.types) * r.cols))
        # each seat's record of deploying each Soldier type: the same event every time, made once
        self.plays = tuple(tuple(Event("play", seat, card) for card in r.types) for seat in (0, 1))
        # damage[attacker][target], by Soldier type. A weapon decides it, so the types of one weapon share one row:
        # a row a type was a table of types x types, 29 million entries (and calls) for 5,400 Soldier cards
        first_of = {weapon: r.weapon.index(weapon) for weapon in dict.fromkeys(r.weapon)}  # a type of each weapon
        rows = {w: tuple(self._damage(a, t) for t in range(len(r.types))) for w, a in first_of.items()}
        self.damage = tuple(rows[weapon] for weapon in r.weapon)
        # per seat, Soldier type and space: its steps and attacks, by what stands around it; one
        # table serves every seat and type that step and reach alike (both seats' crossbows, say)
        made: dict[tuple[object, ...], Options] = {}
        # a type's table turns on its seat, its space and whether it shoots alone: worked out once for each of
        # those, not for each of a game's types (2,700 Soldiers made 216,000 tables' worth of reaches)
        placed: dict[tuple[int, bool, int], Options] = {}
        for seat in (0, 1):
            for t in range(len(r.types)):
                for i in range(spaces):
                    if (seat, r.ranged[t], i) in placed:
                        continue
                    steps, reach = self._steps(seat, i), self._reach(seat, t, i)
                    if (steps, reach) not in made:
                        made[steps, reach] = Options(spaces, steps, reach)
                        made[steps, reach].fill()
                    placed[seat, r.ranged[t], i] = made[steps, reach]
        self.options = tuple(
            tuple(tuple(placed[seat, r.ranged[t], i] for i in range(spaces)) for t in range(len(r.types)))
            for seat in (0, 1)
        )
        # the same tables as the hot path reads them: (mask, patterns), the patterns a plain dict (the
        # quicker to read) when the table holds every pattern, else the table that fills as games go
        readable = {id(table): _readable(table) for table in made.values()}  # one copy of each shared table
        self.moves = tuple(tuple(tuple(readable[id(t)] for t in kind) for kind in seat) for seat in self.options)
        self.nobody: Moves = (0, {0: ()})  # a space nobody stands on: nothing to do
        # the spaces of a bitmask: a plain dict (the quicker to read) of every mask on a small board
        self.spaces_of: dict[int, tuple[int, ...]] = Spaces()
        if 1 << spaces <= min(FILL_LIMIT, TABLE_LIMIT):
            self.spaces_of = {mask: Spaces.of(mask) for mask in range(1 << spaces)}
        self.all_columns = (1 << r.cols) - 1
        # the deployments by the Soldier types in hand (a bit each) shifted past the free home columns (a bit each)
        self.deploys: dict[int, list[int]] = {}
        if 1 << (len(r.types) + r.cols) <= min(FILL_LIMIT, TABLE_LIMIT):
            for hand in subsets((1 << len(r.types)) - 1):
                for free in range(1 << r.cols):
                    self.deploys[hand * self.columns_weight + free] = self.deployments(hand, free)

    def deployments(self, hand: int, free: int) -> list[int]:
        """A player's deployments with these Soldier types in hand and these home columns free (a bit each)."""
        cols = self.rules.cols
        kinds = [kind for kind in range(len(self.rules.types)) if hand >> kind & 1]
        return [kind * cols + c for kind in kinds for c in range(cols) if free >> c & 1] + [NO_PLAY]

    def home_row(self, seat: int) -> int:
        """The row a seat deploys on: the first army's is row 0."""
        return 0 if seat == self.rules.first else self.rules.rows - 1

    def _damage(self, attacker: int, target: int) -> int:
        r = self.rules
        if r.ranged[attacker] or r.ranged[target]:
            return r.damage
        return r.advantage if r.beats[r.weapon[attacker]] == r.weapon[target] else r.damage

    def _steps(self, seat: int, i: int) -> tuple[tuple[int, int], ...]:
        r = self.rules
        enemy_row = self.home_row(1 - seat)
        row, col = divmod(i, r.cols)
        out = []
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nr, nc = row + dr, col + dc
            if not (0 <= nr < r.rows and 0 <= nc < r.cols):
                continue
            if not r.enter_enemy_row and nr == enemy_row:
                continue
            j = nr * r.cols + nc
            out.append((j, MOVE + i * self.spaces + j))
        return tuple(out)

    def _reach(self, seat: int, kind: int, i: int) -> tuple[tuple[tuple[int, int], ...], ...]:
        """Any space for a ranged weapon; a melee weapon the nearest in its column, or only the space
        across the board on the enemy's home row."""
        r = self.rules
        attack = ATTACK + i * self.spaces
        if r.ranged[kind]:
            return (tuple((j, attack + j) for j in range(self.spaces) if j != i),)
        row, col = divmod(i, r.cols)
        if not r.column_reach:
            j = self.home_row(1 - seat) * r.cols + col
            return (((j, attack + j),),) if j != i else ()
        groups = []
        for distance in range(1, r.rows):
            rows = sorted({row - distance, row + distance} & set(range(r.rows)))
            if rows:
                groups.append(tuple((k * r.cols + col, attack + k * r.cols + col) for k in rows))
        return tuple(groups)

    def new_initial_state(self) -> SoldierBattlerState:
        r = self.rules
        spaces = self.spaces
        full = self.full_deck
        return SoldierBattlerState(
            self, [list(r.copies), list(r.copies)], [full[:], full[:]], [[], []], [0, 0], [0, 0], 0,
            [0] * spaces, [0] * spaces, [self.nobody] * spaces, r.first, IN_DEAL, CHANCE,
        )  # fmt: skip

    def card_names(self) -> dict[str, str]:
        return dict(zip(self.rules.types, self.rules.names, strict=True))


_WHERE = ("deal", "draw", "play", "act", "the game is over")  # each Phase in an illegal action's message


@dataclass(slots=True, eq=False)
class SoldierBattlerState(TwoPlayerState):
    """Seat 0 is the first army (Red), deploying on row 0; seat 1 deploys on the last row.

    Spaces are numbered row x columns + column. Who stands where is a bitmask of spaces per seat
    (held), the Soldiers yet to act this turn another (ready); soldier and hp, lists by space, say
    who stands there and with how many hit points, and units what it may do; they mean nothing where
    nobody stands.
    """

    g: SoldierBattlerGame
    decks: list[list[int]]  # per seat: the cards left of each Soldier type
    # per seat: the same cards one by one, in type order, kept with decks: a draw picks one by index,
    # which the runner's draw at every chance node reads at once rather than counting through decks
    cards: list[list[int]]
    hands: list[list[int]]  # per seat: Soldier types, in the order drawn
    kinds: list[int]  # per seat: the Soldier types in its hand, a bit each, kept with the hand for its deployments
    held: list[int]  # per seat: the spaces its Soldiers stand on, a bit each
    ready: int  # the spaces of the Soldiers to move that may still act this turn
    soldier: list[int]  # per space: the Soldier type standing there
    hp: list[int]  # per space: its hit points
    # per space: the table of what its Soldier may do (g.moves for its seat, type and space), set
    # as it deploys or moves, so a legal list reads one table per Soldier rather than three
    units: list[Moves]
    player: int
    phase: Phase
    # who acts: CHANCE while dealing and drawing, the player in play and act, TERMINAL once over;
    # set wherever the phase or the player changes, so current_player (asked every action) just reads it
    acting: int
    turns: int = 0
    idle: int = 0  # turns in a row with no attack and no Soldier deployed
    busy: bool = False  # whether this turn attacked or deployed

    def __post_init__(self) -> None:
        self._start_record()

    @classmethod
    def position(
        cls,
        game: SoldierBattlerGame,
        hands: Sequence[Sequence[str]] = ((), ()),
        units: Sequence[tuple[int, str, int, int] | tuple[int, str, int, int, int]] = (),
        *,
        decks: Sequence[Sequence[str]] | None = None,
        player: int = 0,
        phase: Phase | str = IN_PLAY,
        turns: int = 0,
        idle: int = 0,
        busy: bool = False,
    ) -> SoldierBattlerState:
        """A position from a short description, for tests and tools: Soldiers named by their card ids.

        hands: each seat's hand. units: (seat, soldier, row, column) or (seat, soldier, row,
        column, hp), rows and columns from 0, at full HP unless given; the player's may all still
        act. decks: the cards left in each deck; by default each full deck less its seat's hand.
        phase: a Phase or its name.
        """
        r = game.rules
        state = game.new_initial_state()
        state.hands = [[r.types.index(card) for card in hand] for hand in hands]
        state.kinds = [state.kinds_of(hand) for hand in state.hands]
        if decks is None:
            for seat, hand in enumerate(state.hands):
                for kind in hand:
                    state.decks[seat][kind] -= 1
        else:
            state.decks = [[list(deck).count(card) for card in r.types] for deck in decks]
        if any(n < 0 for deck in state.decks for n in deck):
            raise ValueError("more of a Soldier in a hand than its deck holds")
        state.cards = [cards_of(deck) for deck in state.decks]
        for seat, card, row, col, *hp in units:
            i, kind = row * r.cols + col, r.types.index(card)
            if not (0 <= row < r.rows and 0 <= col < r.cols) or state.owner(i) != EMPTY:
                raise ValueError(f"row {row}, column {col}: not an empty space of the battlefield")
            state.held[seat] |= 1 << i
            state.soldier[i], state.hp[i] = kind, hp[0] if hp else r.hp[kind]
            state.units[i] = game.moves[seat][kind][i]
        state.player, state.ready, state.turns, state.idle, state.busy = player, state.held[player], turns, idle, busy
        state.phase = phase if isinstance(phase, Phase) else Phase[phase.upper()]
        if state.phase is OVER:
            raise ValueError("a position is of a game still going: phase 'over' is where a game ends")
        state.acting = CHANCE if state.phase <= IN_DRAW else player
        return state

    def clone(self) -> SoldierBattlerState:
        other = SoldierBattlerState(
            self.g, [d[:] for d in self.decks], [c[:] for c in self.cards], [h[:] for h in self.hands], self.kinds[:],
            self.held[:], self.ready, self.soldier[:], self.hp[:], self.units[:], self.player, self.phase, self.acting,
            self.turns, self.idle, self.busy,
        )  # fmt: skip
        self._copy_record(other)
        return other

    def kinds_of(self, hand: list[int]) -> int:
        """The Soldier types in a hand, a bit each."""
        return sum(self.g.bit[kind] for kind in set(hand))

    def owner(self, space: int) -> int:
        """The seat whose Soldier stands on a space, or EMPTY."""
        return 0 if self.held[0] >> space & 1 else 1 if self.held[1] >> space & 1 else EMPTY

    def home_row(self, seat: int) -> int:
        return self.g.home_row(seat)

    def current_player(self) -> int:
        return self.acting

    def _drawer(self) -> int:
        if self.phase == IN_DEAL:
            return 0 if len(self.hands[0]) <= len(self.hands[1]) else 1
        return self.player

    def chance_outcomes(self) -> list[tuple[int, float]]:
        deck = self.decks[self._drawer()]
        total = sum(deck)
        return [(DRAW + t, n / total) for t, n in enumerate(deck) if n]

    def sample_chance(self, rng: random.Random) -> int:
        """A card off the drawer's deck, each copy alike: the card at a uniform index of its cards,
        which in type order is the draw a walk through the counts of decks would make."""
        hands = self.hands  # the drawer as _drawer says, without its call
        cards = self.cards[self.player if self.phase is IN_DRAW else 0 if len(hands[0]) <= len(hands[1]) else 1]
        return DRAW + cards[int(rng.random() * len(cards))]

    def _work_out_legal(self) -> list[int]:
        self._legal = None
        return self.legal_actions()

    def legal_actions(self) -> list[int]:
        """The legal actions, worked out here rather than in _work_out_legal: a call a move saved."""
        legal = self._legal
        if legal is not None:
            return legal
        phase = self.phase
        if phase is IN_ACT:
            ready = self.ready
            if not ready:
                legal = self._legal = [END_TURN]
                return legal
            # each ready Soldier in space order: its steps to empty spaces, then its attacks
            g, p = self.g, self.player
            enemy = self.held[1 - p]
            # taken spaces, then the enemy's: an enemy's bit counted at j and at spaces + j, in one
            # product (the held bitmasks share no bit, so the sum is their union)
            around = self.held[p] + enemy * g.taken_and_enemy
            units = self.units
            legal = []
            for i in g.spaces_of[ready]:
                mask, table = units[i]
                legal += table[around & mask]
            legal.append(END_TURN)
            self._legal = legal
            return legal
        if phase is IN_PLAY:
            g, p, held = self.g, self.player, self.held
            hand = self.kinds[p]
            free = ~(held[0] + held[1]) >> g.home[p] & g.all_columns
            deploys = g.deploys.get(hand * g.columns_weight + free)
            if deploys is None:
                deploys = g.deployments(hand, free)
                if len(g.deploys) < TABLE_LIMIT:
                    g.deploys[hand * g.columns_weight + free] = deploys
            legal = self._legal = deploys[:]  # a copy: whoever is handed the legal moves may keep them
            return legal
        if phase is OVER:
            return []
        return [a for a, _ in self.chance_outcomes()]

    def damage(self, attacker: int, target: int) -> int:
        """What a Soldier type's attack takes off another's hit points."""
        return self.g.damage[attacker][target]

    def apply_action(self, action: int) -> None:
        if self.acting >= 0:  # a player's move, in play or act
            # the checks and the record of TwoPlayerState._take_move, made here: a call a move saved
            legal = self._legal
            if legal is None:
                legal = self.legal_actions()
            if action not in legal:
                raise IllegalAction(f"{action} is not legal now ({_WHERE[self.phase]})")
            if len(legal) > 1:
                self.tally.decisions += 1
            self.history.append(action)
            self._legal = None
            # a legal action's number says what it is: END_TURN, moves and attacks are only legal
            # when acting, deployments and NO_PLAY only in play
            if action == END_TURN:
                self._end_turn()
                return
            if action == NO_PLAY:
                self.phase = IN_ACT
                return
            g, p = self.g, self.player
            hp, soldier = self.hp, self.soldier
            if action >= ATTACK:
                i, j = g.pairs[action - ATTACK]
                self.ready -= g.bit[i]  # its bit is set: taking it away clears it
                self.busy = True
                dealt = g.damage[soldier[i]][soldier[j]]
                hp[j] -= dealt
                if self.narration is not None:  # words only for a replay
                    self._tell_attack(i, j, dealt)
                if hp[j] <= 0:
                    self._destroy(j)
            elif action >= MOVE:  # moving alone keeps a turn idle: armies that only manoeuvre are in stalemate
                i, j = g.pairs[action - MOVE]
                # bit i is set in both, bit j in neither (the step is to an empty space)
                self.held[p] += g.bit[j] - g.bit[i]
                self.ready -= g.bit[i]
                soldier[j], hp[j] = soldier[i], hp[i]
                self.units[j] = g.moves[p][soldier[i]][j]
            else:  # a Soldier from the hand onto the home row, where it may act at once
                kind, col = g.placing[action]
                hand = self.hands[p]
                hand.remove(kind)
                if kind not in hand:  # its last copy in hand
                    self.kinds[p] -= g.bit[kind]
                i = g.home[p] + col
                self.held[p] += g.bit[i]  # an empty space's bit, set in neither
                self.ready += g.bit[i]
                soldier[i], hp[i] = kind, g.rules.hp[kind]
                self.units[i] = g.moves[p][kind][i]
                self.tally.events.append(g.plays[p][kind])
                self.busy = True
                self.phase = IN_ACT
            return
        phase = self.phase
        if phase is OVER:
            raise IllegalAction(f"{action} is not legal now ({_WHERE[phase]})")
        hands = self.hands  # the drawer as _drawer says, without its call
        seat = self.player if phase is IN_DRAW else 0 if len(hands[0]) <= len(hands[1]) else 1
        deck, kind = self.decks[seat], action - DRAW
        if not (0 <= kind < len(deck) and deck[kind] > 0):
            raise IllegalAction(f"{action} is not legal now ({_WHERE[phase]})")
        self.history.append(action)  # TwoPlayerState._take_chance, without its call
        self._legal = None
        deck[kind] -= 1
        self.cards[seat].remove(kind)
        hands[seat].append(kind)
        self.kinds[seat] |= self.g.bit[kind]
        if phase is IN_DRAW:
            self.phase, self.acting = IN_PLAY, self.player
        elif len(hands[1]) == self.g.rules.hand_start:
            self._begin_turn()

    def _tell_attack(self, i: int, j: int, dealt: int) -> None:
        """An attack in words, for a replay."""
        names, target = self.g.rules.names, self.soldier[j]
        left = "is destroyed" if self.hp[j] <= 0 else f"has {self.hp[j]} HP left"
        self._say(f"{names[self.soldier[i]]} deals {dealt} damage: seat {1 - self.player}'s {names[target]} {left}")

    def _destroy(self, j: int) -> None:
        """The Soldier on space j is off the battlefield; its army may have nothing left."""
        p = self.player
        self.held[1 - p] -= self.g.bit[j]
        if self._beaten(1 - p):
            self._say(f"seat {1 - p} has no Soldier left on the battlefield, in hand or in deck")
            self._finish(p, "normal")

    def _beaten(self, seat: int) -> bool:
        return not self.held[seat] and not self.hands[seat] and not self.cards[seat]

    def _begin_turn(self) -> None:
        p = self.player
        ready = self.ready = self.held[p]
        self.busy = False
        if self.cards[p]:
            self.phase, self.acting = IN_DRAW, CHANCE
        elif ready or self.hands[p]:
            self.phase, self.acting = IN_PLAY, p
        else:  # _beaten, without its call: nothing on the battlefield, in hand or in deck
            self._finish(1 - p, "normal")

    def _end_turn(self) -> None:
        r = self.g.rules
        self.turns += 1
        self.idle = 0 if self.busy else self.idle + 1
        if r.no_progress:
            # a turn that attacked or deployed may leave a dead battlefield; the next, idle of need, says so
            if not self.busy and not self.progress_possible():
                if self.narration is not None:  # words only for a replay
                    self._say("neither army can attack or deploy again, however its Soldiers move: stalemate")
                self._finish_on_hp("stalemate")
                return
        elif self.idle >= r.idle_turns:
            if self.narration is not None:  # words only for a replay
                self._say(f"{self.idle} turns in a row with no attack and no Soldier deployed: stalemate")
            self._finish_on_hp("stalemate")
            return
        if self.turns >= r.turn_cap:
            if self.narration is not None:  # words only for a replay
                self._say(f"turn {self.turns}: the turn cap")
            self._finish_on_hp("cap")
            return
        self.player = 1 - self.player
        self._begin_turn()

    def progress_possible(self) -> bool:
        """Whether either army can still attack or deploy, now or after any moves of either army's Soldiers.

        Only an attack or a deployment changes who stands on the battlefield and with what; between them
        Soldiers only step to empty spaces. So the search walks every arrangement that steps reach, a
        step by any Soldier of either seat at any time (more than turns in order allow: a superset, so
        "none reaches" is sound), and asks of each whether a Soldier has an attack (its seat's reach) or
        a seat with a card in hand or deck has an empty home space. Past PROGRESS_SEARCH_LIMIT
        arrangements it answers yes: a game is never ended on a search cut short.
        """
        g = self.g
        cols, spaces = g.rules.cols, g.spaces
        reserves = [seat for seat in (0, 1) if self.hands[seat] or self.cards[seat]]
        homes = [sum(g.bit[g.home[seat] + c] for c in range(cols)) for seat in reserves]  # their home rows
        # an arrangement: per space, EMPTY or seat x types + Soldier type
        types = len(g.rules.types)
        start = tuple(EMPTY if (o := self.owner(i)) == EMPTY else o * types + self.soldier[i] for i in range(spaces))
        seen = {start}
        todo = [start]
        while todo:
            board = todo.pop()
            held = [0, 0]
            for i, code in enumerate(board):
                if code != EMPTY:
                    held[code // types] += g.bit[i]
            taken = held[0] | held[1]
            if any(home & ~taken for home in homes):  # a seat with cards left has room to deploy
                return True
            steps = []
            for i, code in enumerate(board):
                if code == EMPTY:
                    continue
                seat, kind = divmod(code, types)
                mask, table = g.moves[seat][kind][i]
                for action in table[(held[seat] + held[1 - seat] * g.taken_and_enemy) & mask]:
                    if action >= ATTACK:
                        return True
                    steps.append((i, g.pairs[action - MOVE][1]))
            for i, j in steps:
                after = list(board)
                after[i], after[j] = EMPTY, board[i]
                arrangement = tuple(after)
                if arrangement not in seen:
                    if len(seen) >= PROGRESS_SEARCH_LIMIT:
                        return True
                    seen.add(arrangement)
                    todo.append(arrangement)
        return False

    def _finish(self, winner: int | None, how: str) -> None:
        TwoPlayerState._finish(self, winner, how)  # (a slots dataclass has no bare super())
        self.phase, self.acting = OVER, TERMINAL

    def _on_board(self, seat: int) -> list[int]:
        """The spaces a seat's Soldiers stand on, in order."""
        return [i for i in range(self.g.spaces) if self.held[seat] >> i & 1]

    def _finish_on_hp(self, how: str) -> None:
        hp = [sum(self.hp[i] for i in self._on_board(s)) for s in (0, 1)]
        if self.narration is not None:  # words only for a replay
            self._say(f"HP on the battlefield: seat 0 {hp[0]}, seat 1 {hp[1]}")
        self._finish(None if hp[0] == hp[1] else (0 if hp[0] > hp[1] else 1), how)

    def observation(self, player: int) -> dict[str, Any]:
        r = self.g.rules
        board: list[dict[str, Any] | None] = [None] * self.g.spaces
        for seat in (0, 1):
            for i in self._on_board(seat):
                board[i] = {"seat": seat, "soldier": r.types[self.soldier[i]], "hp": self.hp[i]}
        return {
            "hand": sorted(r.types[t] for t in self.hands[player]),
            "opponent_hand": len(self.hands[1 - player]),
            "decks": [sum(d) for d in self.decks],
            "board": board,
            "to_move": self.current_player(),
        }

    def resample(self, player: int, rng: random.Random) -> SoldierBattlerState:
        """The opponent's hand dealt anew from the soldiers it has not shown."""
        other = self.clone()
        opp = 1 - player
        pool = [t for t, n in enumerate(other.decks[opp]) for _ in range(n)] + other.hands[opp]
        rng.shuffle(pool)
        size = len(other.hands[opp])
        other.hands[opp] = pool[:size]
        other.kinds[opp] = other.kinds_of(other.hands[opp])
        other.decks[opp] = [0] * len(other.decks[opp])
        for t in pool[size:]:
            other.decks[opp][t] += 1
        other.cards[opp] = cards_of(other.decks[opp])
        return other

    def action_to_string(self, action: int) -> str:
        r = self.g.rules
        if action >= DRAW:
            return f"draws {r.names[action - DRAW]}"
        if action == NO_PLAY:
            return "deploys nobody"
        if action == END_TURN:
            return "ends the turn"
        if action < NO_PLAY:
            kind, col = divmod(action, r.cols)
            return f"deploys {r.names[kind]} in column {col + 1}"
        verb, rest = ("moves", action - MOVE) if action < ATTACK else ("attacks", action - ATTACK)
        i, j = divmod(rest, self.g.spaces)
        return f"{verb} from {self._space(i)} to {self._space(j)}"

    def _space(self, i: int) -> str:
        """A battlefield space as players count them: rows and columns from 1."""
        cols = self.g.rules.cols
        return f"row {i // cols + 1}, column {i % cols + 1}"

    def played_card(self, action: int) -> str | None:
        if self.phase != IN_PLAY or self.is_chance_node() or action >= NO_PLAY:
            return None
        return str(self.g.rules.types[action // self.g.rules.cols])

    def heuristic(self, player: int) -> float:
        """Hit points on the board and in reserve, mine against theirs."""
        if self.over:
            return self.returns()[player]
        r = self.g.rules
        score = [0.0, 0.0]
        for seat in (0, 1):
            for i in self._on_board(seat):
                score[seat] += self.hp[i]
        for seat in (0, 1):
            reserve = sum(r.hp[t] for t in self.hands[seat]) + sum(r.hp[t] * n for t, n in enumerate(self.decks[seat]))
            score[seat] += 0.8 * reserve
        return math.tanh((score[player] - score[1 - player]) / 200)
