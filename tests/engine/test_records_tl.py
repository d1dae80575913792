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
                "actions": r.actions,
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
        ("time-line", "random", range(2), 1, "187122d8aa83f783d1e4c6261d91463ab550d2d76f76efa6f77f7335a3eb4c8e"),
        ("time-line", "greedy", range(1), 1, "722d4998749f7d46d24b954c3b562a039ad5c7ee50f6a33ff653f5f73c7412f0"),
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
        ("random", range(2), "54d8fbaa6c251faa0f807f4eca0b2e943d119c970204a71140bd687ffac41aa5"),
        ("greedy", range(1), "af10e94481728ffc04e893954375a0c11ee36e456cba143ea755d5463ef0827d"),
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
