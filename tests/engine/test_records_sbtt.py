"""Soldier Battler's and Torah Timeline's games, pinned: the same seeds play the same records while the engine changes.

The digests were computed on the engine before its state was typed and its hot paths tuned; a
change that alters what is legal, what chance draws or how a game ends changes them. Rule changes
that mean to alter games update the digests, and say so in their commit.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from engine.agents import GreedyAgent, MCTSAgent, RandomAgent
from engine.api import GameDef
from engine.runner import Record, play, replay

PINNED = {
    # slug: (random-vs-random records, greedy-vs-random records, replays' words)
    "soldier-battler": (
        "9d58ebba2e24c20d5d53ad324936fbce62859fcbb386c8471244ddf64436072c",
        "e05a053ce90d39e9eecc90b1ab2bff8af8638e0881f55b8b0c2556e051caff6e",
        "2527cca6e618f2b3766b68299eb40e5e8afc02d0fb26600241d3cdd4a0f29db9",
    ),
    "torah-timeline": (
        "baf94e581ca6130a9b39342a7a1ce391077c0085b788847591108b7b7a44c45c",
        "94f21ce50e6e4e2fa1a072b3622019392ed0d1f1ee399f53881f730a4b450b0b",
        "6ea27a6ddc5e9c3578496900030daa23401029856b49c356f6347fac14cee4b4",
    ),
}


def _digest(records: list[Record]) -> str:
    text = json.dumps([r.to_json() for r in records], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


@pytest.mark.parametrize("slug", sorted(PINNED))
def test_random_games_play_as_pinned(engines: dict[str, GameDef], slug: str) -> None:
    game = engines[slug]
    records = [play(game, [RandomAgent(), RandomAgent()], seed) for seed in range(300)]
    assert _digest(records) == PINNED[slug][0]


@pytest.mark.parametrize("slug", sorted(PINNED))
def test_searching_games_play_as_pinned(engines: dict[str, GameDef], slug: str) -> None:
    """Greedy tries each move on a clone and reads the heuristic, MCTS deals hidden cards anew: pinned too."""
    game = engines[slug]
    records = [play(game, [GreedyAgent(), RandomAgent()], seed, lead=True) for seed in range(6)]
    records += [play(game, [RandomAgent(), MCTSAgent(12)], seed) for seed in range(2)]
    assert _digest(records) == PINNED[slug][1]


@pytest.mark.parametrize("slug", sorted(PINNED))
def test_replays_read_as_pinned(engines: dict[str, GameDef], slug: str) -> None:
    """The action words and the rules' events a replay prints, for a few whole games."""
    game = engines[slug]
    lines: list[str] = []
    for seed in range(4):
        lines += replay(game, play(game, [RandomAgent(), RandomAgent()], seed).actions)
    assert hashlib.sha256("\n".join(lines).encode()).hexdigest() == PINNED[slug][2]
