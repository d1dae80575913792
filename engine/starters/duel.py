"""Duel, the starter's engine: a game's own rules in Python, found by its game.yaml (engine_file: engine.py).

Both players draw a hand from one shuffled deck. Each round the leader plays a card face up and the other
answers with one; the higher power takes the round (equal powers: nobody does) and the lead passes. After
the rounds the rules give, whoever took more rounds wins; as many is a draw.

printkit runs this file only where the project trusts the game's folder: `trusted = ["<this folder>"]` under
[engines] in printkit.toml, or --trust on the command. `printkit engine-test` checks it keeps the game API.
"""

from __future__ import annotations

import random
from typing import Any

from engine.api import CHANCE, TERMINAL, Event, GameDef, TwoPlayerState
from engine.cards import Record, records
from engine.needs import Needs, Option
from engine.plugin import Engine
from printkit.data.enginecards import EngineCards
from printkit.data.game import Game


class Fighter(Record):
    """A card as the engine reads it: its power (and, from Record, its id, name and copies)."""

    power: int


class DuelGame(GameDef):
    """The static game: every card of the deck, the hand size and the number of rounds, read from the data."""

    def __init__(self, game: Game) -> None:
        self.slug, self.title = game.slug, game.title
        fighters = records(game, Fighter)
        self.names = [f.name for f in fighters]
        self.ids = [f.id for f in fighters]
        self.power = [f.power for f in fighters]
        self.deck = [i for i, f in enumerate(fighters) for _ in range(f.copies)]
        self.hand_size = int(game.rule("hand_size"))
        self.rounds = int(game.rule("rounds"))
        if len(self.deck) < 2 * self.hand_size:
            raise ValueError(f"{len(self.deck)} cards cannot deal two hands of {self.hand_size}")
        if self.rounds > self.hand_size:
            raise ValueError(f"{self.rounds} rounds need hands of {self.rounds} cards, not {self.hand_size}")

    def new_initial_state(self) -> DuelState:
        return DuelState(self)

    def card_names(self) -> dict[str, str]:
        return dict(zip(self.ids, self.names, strict=True))


class DuelState(TwoPlayerState):
    """A position: the deck left, both hands, the card on the table, the rounds each has taken."""

    def __init__(self, game: DuelGame) -> None:
        self.g = game
        self.deck = list(game.deck)
        self.hands: list[list[int]] = [[], []]
        self.dealt = 0
        self.won = [0, 0]
        self.lead = 0
        self.table: int | None = None  # the leader's card this round, once played
        self.round = 0
        self._start_record()

    def clone(self) -> DuelState:
        other = DuelState.__new__(DuelState)
        other.g, other.deck, other.hands = self.g, self.deck[:], [self.hands[0][:], self.hands[1][:]]
        other.dealt = self.dealt
        other.won, other.lead, other.table, other.round = self.won[:], self.lead, self.table, self.round
        self._copy_record(other)
        return other

    def _dealing(self) -> bool:
        return self.dealt < 2 * self.g.hand_size

    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        if self._dealing():
            return CHANCE
        return self.lead if self.table is None else 1 - self.lead

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next card dealt: each kind of card left, as likely as its share of the deck."""
        kinds = sorted(set(self.deck))
        return [(k, self.deck.count(k) / len(self.deck)) for k in kinds]

    def _work_out_legal(self) -> list[int]:
        if self.over:
            return []
        if self._dealing():
            return sorted(set(self.deck))
        return sorted(set(self.hands[self.current_player()]))

    def apply_action(self, action: int) -> None:
        if self._dealing():
            self._take_chance(action, action in self.deck, "a deal")
            self.deck.remove(action)
            self.hands[self.dealt % 2].append(action)  # one card to each in turn
            self.dealt += 1
            return
        seat = self.current_player()
        self._take_move(action, "a play")
        self.hands[seat].remove(action)
        self.tally.events.append(Event("play", seat, self.g.ids[action]))
        if self.table is None:
            self.table = action
            return
        lead, answer = self.g.power[self.table], self.g.power[action]
        if lead != answer:
            self.won[self.lead if lead > answer else 1 - self.lead] += 1
        self.table, self.lead, self.round = None, 1 - self.lead, self.round + 1
        if self.round == self.g.rounds:
            best = max(self.won)
            self._finish(None if self.won[0] == self.won[1] else self.won.index(best), "normal")

    def observation(self, player: int) -> dict[str, Any]:
        return {
            "hand": sorted(self.g.ids[c] for c in self.hands[player]),
            "opponent_hand": len(self.hands[1 - player]),
            "table": None if self.table is None else self.g.ids[self.table],
            "won": self.won[:],
            "deck": len(self.deck),
            "to_move": self.current_player(),
        }

    def resample(self, player: int, rng: random.Random) -> DuelState:
        """The other hand dealt anew from the cards the player has not seen."""
        other = self.clone()
        unseen = other.deck + other.hands[1 - player]
        rng.shuffle(unseen)
        size = len(other.hands[1 - player])
        other.hands[1 - player], other.deck = unseen[:size], unseen[size:]
        other._legal = None
        return other

    def action_to_string(self, action: int) -> str:
        return f"{'deals' if self._dealing() else 'plays'} {self.g.names[action]}"

    def heuristic(self, player: int) -> float:
        return (self.won[player] - self.won[1 - player]) / max(1, self.g.rounds)


NEEDS = Needs(
    "duel",
    (Option("hand_size", low=1), Option("rounds", low=1, high="hand_size")),
    card_kinds=("fighter",),
)
ENGINE = Engine("duel", DuelGame, NEEDS, EngineCards("duel", forms={"fighter": Fighter}))
