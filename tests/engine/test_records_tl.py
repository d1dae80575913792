"""Time Line and Time Line Battle play the same seeded games, move for move, as when these digests were taken.

The digests cover each game's actions, result, ending, decision count, cards played and the
replay's words, so a rewrite of how a position is kept (typed state, speed work) that changes
any rule's outcome, or any line a player reads in a replay, fails here.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from engine import registry
from engine.agents import GreedyAgent, RandomAgent
from engine.api import GameDef
from engine.runner import Agent, Record, play, replay
from printkit.data import variant
from printkit.data.game import Game


def _digest(game: GameDef, records: list[Record], replayed: int) -> str:
    """sha256 of the records' moves and results, and of the first `replayed` games' replays."""
    text = json.dumps(
        [
            {
                "actions": list(r.actions),
                "returns": r.returns,
                "end": r.end,
                "length": r.length,
                "decisions": r.decisions,
                "first": r.first,
                "plays": r.plays,
                "branching": sorted(r.branching.items()),
            }
            for r in records
        ]
        + [replay(game, r.actions) for r in records[:replayed]]
    )
    return hashlib.sha256(text.encode()).hexdigest()


def _games(game: GameDef, agents: list[Agent], seeds: range) -> list[Record]:
    return [play(game, agents, seed) for seed in seeds]


@pytest.mark.parametrize(
    ("slug", "agent", "seeds", "replayed", "expected"),
    [
        (
            "time-line-battle",
            "random",
            range(200),
            4,
            "6716050558bdc7d4e0bd472e23f352eb4da24c39472700229cf4152930dc6644",
        ),
        (
            "time-line-battle",
            "greedy",
            range(10),
            2,
            "726bcab40c0f937bc95349b17162ec3e7c753f81c46dd8ed76b8add735d7cc01",
        ),
        ("time-line", "random", range(2), 1, "ed20717f49e45debf476cf440a69987c8a397338c9ab2bef0b083441641a9e7a"),
        ("time-line", "greedy", range(1), 1, "6f8916673553cdfad1a506afd1b0954e902099b26b7661e51c4ceb464d2dd7d8"),
    ],
)
def test_seeded_games_are_played_as_before(
    engines: dict[str, GameDef], slug: str, agent: str, seeds: range, replayed: int, expected: str
) -> None:
    game = engines[slug]
    players: list[Agent] = [RandomAgent(), RandomAgent()] if agent == "random" else [GreedyAgent(), GreedyAgent()]
    assert _digest(game, _games(game, players, seeds), replayed) == expected


@pytest.mark.parametrize(
    ("agent", "seeds", "expected"),
    [
        ("random", range(2), "ce12122827f4b31f96289a2d373430b9a3a413fb5070a227c1d5bfc8794dfe1b"),
        ("greedy", range(1), "6f8916673553cdfad1a506afd1b0954e902099b26b7661e51c4ceb464d2dd7d8"),
    ],
)
def test_time_line_plays_as_before_by_its_former_reading(
    games: dict[str, Game], agent: str, seeds: range, expected: str
) -> None:
    """The digests Time Line had when Possession and the Mind Control Device only moved an enemy unit
    (control_enemy_unit move_it): by that reading the games and replays are unchanged, so the new
    default's digests above differ by that rule alone."""
    game = registry.build(variant.vary(games["time-line"], [("rules.control_enemy_unit", "move_it")]))
    players: list[Agent] = [RandomAgent(), RandomAgent()] if agent == "random" else [GreedyAgent(), GreedyAgent()]
    assert _digest(game, _games(game, players, seeds), 1) == expected
