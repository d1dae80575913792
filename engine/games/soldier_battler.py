"""Soldier Battler: two armies of Soldiers on a 3x3 battlefield, with the reconstructed values read from data."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from engine.api import CHANCE, TERMINAL, Event, GameDef, TwoPlayerState
from printkit.data.game import Game
from printkit.data.model import Soldier

# Action numbers: a deployment is type x columns + column; the rest start at these bases,
# with a move or attack numbered base + from-space x spaces + to-space.
NO_PLAY, MOVE, ATTACK, END_TURN, DRAW = 9_999, 10_000, 20_000, 30_000, 40_000
MAX_SPACES = 100  # from space x spaces + to space stays within a block of 10,000 action numbers


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
    turn_cap: int


def rules_from(game: Game) -> Rules:
    soldiers = [c for c in game.cards if isinstance(c, Soldier)]
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
        turn_cap=int(game.rule("turn_cap")),
    )


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
        # per seat and space: (space, action) for each orthogonal step, worked out once
        self.steps_from: list[list[list[tuple[int, int]]]] = [[[] for _ in range(spaces)] for _ in (0, 1)]
        for seat in (0, 1):
            enemy_row = 0 if 1 - seat == r.first else r.rows - 1
            for i in range(spaces):
                row, col = divmod(i, r.cols)
                for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    nr, nc = row + dr, col + dc
                    if not (0 <= nr < r.rows and 0 <= nc < r.cols):
                        continue
                    if not r.enter_enemy_row and nr == enemy_row:
                        continue
                    j = nr * r.cols + nc
                    self.steps_from[seat][i].append((j, MOVE + i * spaces + j))

    def new_initial_state(self) -> SoldierBattlerState:
        return SoldierBattlerState(self)

    def card_names(self) -> dict[str, str]:
        return dict(zip(self.rules.types, self.rules.names, strict=True))


class SoldierBattlerState(TwoPlayerState):
    """Seat 0 is the first army (Red), deploying on row 0; seat 1 deploys on the last row."""

    def __init__(self, game: SoldierBattlerGame) -> None:
        r = game.rules
        self.g = game
        self.decks = [list(r.copies), list(r.copies)]  # cards left of each type
        self.hands: list[list[int]] = [[], []]
        self.cells: list[list[int] | None] = [None] * (r.rows * r.cols)  # [owner, type, hp, acted]
        self.player = r.first
        self.phase = "deal"
        self.turns = 0
        self.idle = 0
        self.busy = False  # whether this turn did anything
        self._start_record()

    def clone(self) -> SoldierBattlerState:
        other = SoldierBattlerState.__new__(SoldierBattlerState)
        other.g = self.g
        other.decks = [d[:] for d in self.decks]
        other.hands = [h[:] for h in self.hands]
        other.cells = [c[:] if c else None for c in self.cells]
        other.player, other.phase, other.turns, other.idle, other.busy = (
            self.player,
            self.phase,
            self.turns,
            self.idle,
            self.busy,
        )
        self._copy_record(other)
        return other

    def home_row(self, seat: int) -> int:
        return 0 if seat == self.g.rules.first else self.g.rules.rows - 1

    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        return CHANCE if self.phase in ("deal", "draw") else self.player

    def _drawer(self) -> int:
        if self.phase == "deal":
            return 0 if len(self.hands[0]) <= len(self.hands[1]) else 1
        return self.player

    def chance_outcomes(self) -> list[tuple[int, float]]:
        deck = self.decks[self._drawer()]
        total = sum(deck)
        return [(DRAW + t, n / total) for t, n in enumerate(deck) if n]

    def sample_chance(self, rng: random.Random) -> int:
        """A card off the drawer's deck, each copy alike: the deck keeps counts per Soldier type."""
        deck = self.decks[self._drawer()]
        pick = int(rng.random() * sum(deck))
        for t, n in enumerate(deck):
            if pick < n:
                return DRAW + t
            pick -= n
        raise AssertionError("a chance node with an empty deck")

    def _work_out_legal(self) -> list[int]:
        if self.over:
            return []
        if self.phase in ("deal", "draw"):
            return [a for a, _ in self.chance_outcomes()]
        r, p = self.g.rules, self.player
        if self.phase == "play":
            row = self.home_row(p)
            empty = [c for c in range(r.cols) if self.cells[row * r.cols + c] is None]
            return sorted({t * r.cols + c for t in set(self.hands[p]) for c in empty}) + [NO_PLAY]
        cells, spaces = self.cells, len(self.cells)
        steps = self.g.steps_from[p]
        enemies = [j for j, u in enumerate(cells) if u is not None and u[0] != p]
        out = []
        for i, unit in enumerate(cells):
            if unit is None or unit[0] != p or unit[3]:
                continue
            out += [action for j, action in steps[i] if cells[j] is None]
            attack = ATTACK + i * spaces
            out += [attack + j for j in self._targets(i, unit, enemies)]
        return [*out, END_TURN]

    def _targets(self, i: int, unit: list[int], enemies: list[int]) -> list[int]:
        """The enemy spaces the unit in space i can attack: any, for a ranged weapon."""
        r = self.g.rules
        if r.ranged[unit[1]]:
            return enemies
        row, col = divmod(i, r.cols)
        in_column = [j for j in enemies if j % r.cols == col]
        if not r.column_reach:  # only the space across the board
            return [j for j in in_column if j // r.cols == self.home_row(1 - unit[0])]
        if not in_column:
            return []
        nearest = min(abs(j // r.cols - row) for j in in_column)
        return [j for j in in_column if abs(j // r.cols - row) == nearest]

    def damage(self, attacker: int, target: int) -> int:
        r = self.g.rules
        if r.ranged[attacker] or r.ranged[target]:
            return r.damage
        return r.advantage if r.beats[r.weapon[attacker]] == r.weapon[target] else r.damage

    def apply_action(self, action: int) -> None:
        self._apply(action)
        self._legal = None  # the position changed: work the legal actions out again when asked

    def _apply(self, action: int) -> None:
        r, p = self.g.rules, self.player
        if self.phase in ("deal", "draw") and not self.over:
            seat = self._drawer()
            types = len(self.decks[seat])
            self._take_chance(action, DRAW <= action < DRAW + types and self.decks[seat][action - DRAW] > 0, self.phase)
            self.decks[seat][action - DRAW] -= 1
            self.hands[seat].append(action - DRAW)
            if self.phase == "deal":
                if len(self.hands[1]) == r.hand_start:
                    self._begin_turn()
            else:
                self.phase = "play"
            return
        self._take_move(action, self.phase)
        if self.phase == "play":
            if action != NO_PLAY:
                kind, col = divmod(action, r.cols)
                self.hands[p].remove(kind)
                self.cells[self.home_row(p) * r.cols + col] = [p, kind, r.hp[kind], 0]
                self.tally.events.append(Event("play", p, r.types[kind]))
                self.busy = True
            self.phase = "act"
            return
        if action == END_TURN:
            self._end_turn()
            return
        kind, rest = (MOVE, action - MOVE) if action < ATTACK else (ATTACK, action - ATTACK)
        i, j = divmod(rest, len(self.cells))
        unit = self.cells[i]
        assert unit is not None
        unit[3] = 1
        if kind == MOVE:  # moving alone keeps a turn idle: armies that only manoeuvre are in stalemate
            self.cells[j], self.cells[i] = unit, None
            return
        self.busy = True
        target = self.cells[j]
        assert target is not None
        dealt = self.damage(unit[1], target[1])
        target[2] -= dealt
        if self.narration is not None:  # words only for a replay
            left = "is destroyed" if target[2] <= 0 else f"has {target[2]} HP left"
            self._say(f"{r.names[unit[1]]} deals {dealt} damage: seat {target[0]}'s {r.names[target[1]]} {left}")
        if target[2] <= 0:
            self.cells[j] = None
            if self._beaten(1 - p):
                self._say(f"seat {1 - p} has no Soldier left on the battlefield, in hand or in deck")
                self._finish(p, "normal")

    def _beaten(self, seat: int) -> bool:
        on_board = any(u is not None and u[0] == seat for u in self.cells)
        return not on_board and not self.hands[seat] and not any(self.decks[seat])

    def _begin_turn(self) -> None:
        for unit in self.cells:
            if unit is not None:
                unit[3] = 0
        self.busy = False
        if self._beaten(self.player):
            self._finish(1 - self.player, "normal")
            return
        self.phase = "draw" if any(self.decks[self.player]) else "play"

    def _end_turn(self) -> None:
        r = self.g.rules
        self.turns += 1
        self.idle = 0 if self.busy else self.idle + 1
        if self.idle >= r.idle_turns:
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

    def _finish_on_hp(self, how: str) -> None:
        hp = [sum(u[2] for u in self.cells if u is not None and u[0] == s) for s in (0, 1)]
        if self.narration is not None:  # words only for a replay
            self._say(f"HP on the battlefield: seat 0 {hp[0]}, seat 1 {hp[1]}")
        self._finish(None if hp[0] == hp[1] else (0 if hp[0] > hp[1] else 1), how)

    def observation(self, player: int) -> dict[str, Any]:
        r = self.g.rules
        return {
            "hand": sorted(r.types[t] for t in self.hands[player]),
            "opponent_hand": len(self.hands[1 - player]),
            "decks": [sum(d) for d in self.decks],
            "board": [None if u is None else {"seat": u[0], "soldier": r.types[u[1]], "hp": u[2]} for u in self.cells],
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
        other.decks[opp] = [0] * len(other.decks[opp])
        for t in pool[size:]:
            other.decks[opp][t] += 1
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
        i, j = divmod(rest, len(self.cells))
        return f"{verb} from {self._space(i)} to {self._space(j)}"

    def _space(self, i: int) -> str:
        """A battlefield space as players count them: rows and columns from 1."""
        cols = self.g.rules.cols
        return f"row {i // cols + 1}, column {i % cols + 1}"

    def played_card(self, action: int) -> str | None:
        if self.phase != "play" or self.is_chance_node() or action >= NO_PLAY:
            return None
        return str(self.g.rules.types[action // self.g.rules.cols])

    def heuristic(self, player: int) -> float:
        """Hit points on the board and in reserve, mine against theirs."""
        if self.over:
            return self.returns()[player]
        r = self.g.rules
        score = [0.0, 0.0]
        for unit in self.cells:
            if unit is not None:
                score[unit[0]] += unit[2]
        for seat in (0, 1):
            reserve = sum(r.hp[t] for t in self.hands[seat]) + sum(r.hp[t] * n for t, n in enumerate(self.decks[seat]))
            score[seat] += 0.8 * reserve
        return math.tanh((score[player] - score[1 - player]) / 200)
