"""The game API every engine game implements, after OpenSpiel: a static GameDef and a State moved by actions.

Chance (shuffles, draws, dice) is a node of its own: the state lists the outcomes and their
probabilities, and whoever runs the game picks one from a seeded generator. So a game replays
exactly from its action list, and from its seed.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from math import floor
from typing import Any

CHANCE = -1
TERMINAL = -4


def pick(rng: random.Random, items: Sequence[int]) -> int:
    """One of items, all alike: random() scaled, as Python 2's choice did, the fastest uniform draw
    there is (its bias is below 1e-14), for the runner's millions of draws.

    floor rather than int: the same whole number for a product that is never negative, but int()
    goes through the type's generic call (an argument tuple made and freed), some 650 machine
    instructions more a draw on Python 3.11.
    """
    return items[floor(rng.random() * len(items))]


DEFAULT_EXPERT = "mcts100"  # the expert of a game whose data names none: the top of the ladder without one


class IllegalAction(ValueError):
    """An action that is not among the current state's legal actions."""


@dataclass
class Event:
    """Something worth counting in a balance report: a card played, a cap reached."""

    kind: str  # "play" (a card or unit put into play), "end" (how the game ended)
    player: int
    what: str


@dataclass
class Tally:
    """What a state keeps for the reports while it plays."""

    events: list[Event] = field(default_factory=list)
    decisions: int = 0  # player moves that had more than one legal choice
    end: str = "normal"  # "normal", "stalemate" or "cap"


class State(ABC):
    """One position of a game."""

    tally: Tally
    history: list[int]  # every action applied, chance included: the game's replayable record

    @abstractmethod
    def current_player(self) -> int:
        """The seat to act, 0-based; CHANCE at a chance node; TERMINAL once the game is over."""

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    @abstractmethod
    def chance_outcomes(self) -> Sequence[tuple[int, float]]:
        """At a chance node: each outcome (an action) and its probability."""

    def sample_chance(self, rng: random.Random) -> int:
        """At a chance node: one outcome, drawn from rng with its probability.

        Games whose draws are uniform answer without building the outcome list: the runner asks
        this at every shuffle, draw and die roll.
        """
        outcomes = self.chance_outcomes()
        return rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]

    def play_random(
        self, chance: random.Random, draws: Sequence[Callable[[], float]], limit: int, sizes: list[int]
    ) -> int:
        """Play random moves on from here as the runner would a step at a time, for a game that can do it faster.

        The moves are RandomAgent's (seat s's legal[floor(draws[s]() * len(legal))]), chance drawn
        from chance, each move's number of legal moves appended to sizes; it stops at the game's end or
        before limit actions are in the history, and returns the seat of the first move it made
        (-1 for none). The runner goes on a step at a time from wherever it stops: by default, here.
        """
        return -1

    @abstractmethod
    def legal_actions(self) -> Sequence[int]:
        """The actions the current player (or chance) may take."""

    @abstractmethod
    def apply_action(self, action: int) -> None:
        """Play an action; raise IllegalAction if it is not legal."""

    @abstractmethod
    def is_terminal(self) -> bool:
        """Whether the game has ended."""

    @abstractmethod
    def returns(self) -> list[float]:
        """Each seat's result: 1 a win, -1 a loss, 0 a draw (or a game not yet over)."""

    @abstractmethod
    def clone(self) -> State:
        """An independent copy."""

    @abstractmethod
    def observation(self, player: int) -> dict[str, Any]:
        """What player can see: their own hidden cards, never the opponent's or the decks' order."""

    @abstractmethod
    def resample(self, player: int, rng: random.Random) -> State:
        """A state the player cannot tell from this one: hidden cards dealt anew, for search."""

    @abstractmethod
    def action_to_string(self, action: int) -> str:
        """The action in words, for logs and replays."""

    def heuristic(self, player: int) -> float:
        """How good the position looks for player, roughly in [-1, 1]; greedy and MCTS agents use it."""
        return 0.0

    def played_card(self, action: int) -> str | None:
        """The id of the card the current player's action plays, or None: what restricted play bans.

        This answer tries the action on a copy and looks for the play it records: right for every
        game, but a copy per action; a game answers from its action numbers instead where it can.
        """
        tally = getattr(self, "tally", None)
        if tally is None:
            return None
        before = len(tally.events)
        after = self.clone()
        after.apply_action(action)
        plays = [e.what for e in after.tally.events[before:] if e.kind == "play"]
        return plays[0] if plays else None


class TwoPlayerState(State):
    """The bookkeeping every two-player game shares: its result, its record, its legal actions worked out once."""

    over: bool
    winner: int | None
    _legal: list[int] | None
    # what the rules made of the last action, in words, for a replay; None (the default) while
    # games are played for numbers, so the words cost nothing then
    narration: list[str] | None = None

    def _say(self, text: str) -> None:
        if self.narration is not None:
            self.narration.append(text)

    def _start_record(self) -> None:
        self.over, self.winner = False, None
        self.tally = Tally()
        self.history = []
        self._legal = None

    def _copy_record(self, other: TwoPlayerState) -> None:
        """Give a clone its own copy of the result and the record."""
        other.over, other.winner = self.over, self.winner
        other.tally = Tally(self.tally.events[:], self.tally.decisions, self.tally.end)
        other.history = self.history[:]
        other._legal = self._legal

    def is_terminal(self) -> bool:
        return self.over

    def returns(self) -> list[float]:
        if not self.over or self.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]

    def legal_actions(self) -> list[int]:
        if self._legal is None:
            self._legal = self._work_out_legal()
        return self._legal

    def edited(self) -> None:
        """Forget the legal actions worked out so far: for tests and tools that change a position's fields by hand."""
        self._legal = None

    @abstractmethod
    def _work_out_legal(self) -> list[int]:
        """The legal actions of the position, worked out afresh."""

    def _take_move(self, action: int, where: str) -> None:
        """A player's action: checked against the legal ones, counted when there was a choice, recorded."""
        legal = self._legal if self._legal is not None else self.legal_actions()
        if action not in legal:
            raise IllegalAction(f"{action} is not legal now ({where})")
        if len(legal) > 1:
            self.tally.decisions += 1
        self.history.append(action)
        self._legal = None

    def _take_chance(self, action: int, possible: bool, where: str) -> None:
        """A chance outcome the game has checked itself (possible), without listing every outcome: recorded."""
        if not possible:
            raise IllegalAction(f"{action} is not legal now ({where})")
        self.history.append(action)
        self._legal = None

    def _finish(self, winner: int | None, how: str) -> None:
        """End the game: winner (None for a draw) and how it ended, for the reports."""
        self.over, self.winner = True, winner
        self.tally.end = how
        self.tally.events.append(Event("end", -1 if winner is None else winner, how))


class GameDef(ABC):
    """A game built from its data and rule options: everything static about it."""

    slug: str
    title: str
    num_players: int = 2
    # a game still going after this many actions, chance included, is taken to loop: the runner
    # stops it rather than hang a check (the longest bundled games, Time Line's to its turn cap, run ~13,000)
    max_actions: int = 200_000
    # the agent game.yaml's expert: names (registry.build sets it), the one `expert` stands for
    expert: str = DEFAULT_EXPERT

    @abstractmethod
    def new_initial_state(self) -> State:
        """The state before the first deal."""

    def card_names(self) -> dict[str, str]:
        """Card or unit ids the reports count, with their printed names."""
        return {}
