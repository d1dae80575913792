"""Random games played a step at a time, the runner's general loop, to hold a game's own play_random against."""

from __future__ import annotations

from engine.agents import RandomAgent
from engine.api import GameDef
from engine.runner import EndlessGame, play


class StepRandom(RandomAgent):
    """RandomAgent's moves, asked for a step at a time: the runner's general loop, not the game's play_random."""


def outcome(game: GameDef, agent: type[RandomAgent], seed: int) -> object:
    """A seeded game's record as JSON, or the actions of one stopped at the game's action limit."""
    try:
        return play(game, [agent(), agent()], seed).to_json()
    except EndlessGame as stopped:
        return stopped.actions
