"""Same seeds, same games: each engine's seeded random-vs-random records pinned by digest, so a refactor or a
speed-up that changes what is played (rather than how fast) fails here."""

from __future__ import annotations

import hashlib
import json

import pytest

from engine import registry
from engine.agents import RandomAgent
from engine.api import GameDef
from engine.runner import play
from printkit.data import variant
from printkit.data.game import Game

# seeds played per game and the sha256 of their records (actions, results, how each ended), taken from the
# engines as they were before their states were typed and sped up; Time Line's random games run to the
# turn cap (thousands of actions each), so it plays two
PINNED = {
    "battle-line": (50, "20936a58894f4e2de8b0916264974920b7018f264d8c44941ec4e6b085db6473"),
    "soldier-battler": (100, "a299fdb340d51edbbb6d3f35d1b7b4ac1114c1486bac9e54e91ad48378d9bab9"),
    "torah-timeline": (100, "2d1b029dd1a6b5fc075dd1302c540f73f3290dfdecf5f17274eac583d2e80b06"),
    "time-line-battle": (100, "f9755f24c073d3f473582cee34cfc3cd5f07b5108ea8b753810a4a2d31d6ca4c"),
    "time-line": (2, "98badc79a37661bf39ef9a69aef15f94edad104ef1d46e6d541ca200a9eff235"),
}
# Time Line's digest when Possession and the Mind Control Device only moved an enemy unit (control_enemy_unit
# move_it, the default until the seed's "this turn" reading was built): played by that reading, the games are
# still those, so the new default's digest above differs by that rule alone
TIME_LINE_MOVE_IT = "ab585691d7b7d9bfb572dfd7112db05864c419bd365b46f507906072abb2d51d"


def digest(game: GameDef, seeds: int) -> str:
    records = []
    for seed in range(seeds):
        record = play(game, [RandomAgent(), RandomAgent()], seed)
        records.append([list(record.actions), record.returns, record.end, record.first, record.decisions])
    return hashlib.sha256(json.dumps(records).encode()).hexdigest()


@pytest.mark.parametrize("slug", sorted(PINNED))
def test_seeded_records_are_unchanged(engines: dict[str, GameDef], slug: str) -> None:
    seeds, pinned = PINNED[slug]
    assert digest(engines[slug], seeds) == pinned


def test_time_line_plays_as_before_by_its_former_reading(games: dict[str, Game]) -> None:
    game = registry.build(variant.vary(games["time-line"], [("rules.control_enemy_unit", "move_it")]))
    assert digest(game, PINNED["time-line"][0]) == TIME_LINE_MOVE_IT
