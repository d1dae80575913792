"""Replays a player can follow: under each action, what the rules made of it, for every game."""

from __future__ import annotations

import re

import pytest

from engine import agents, runner
from engine.api import GameDef

# for each game, the rule events a seeded greedy game's replay must hold, as patterns
EVENTS = {
    "battle-line": [
        r"seat \d claims flag \d: (Wedge|Phalanx|Battalion Order|Skirmish Line|Host|a sum) of \d+ \(",
        r"no unplayed Troops complete the other side to beat it",
        r"seat \d holds \d flags, .*(breakthrough|envelopment)",
        r"\b(Alexander|Darius|Companion Cavalry|Shield Bearers) as [ROYGBP]\d+",
    ],
    "soldier-battler": [
        r"(Swordsman|Axeman|Spearman|Crossbowman) deals \d+ damage: seat \d's \w+ has \d+ HP left",
        r"deals \d+ damage: seat \d's \w+ is destroyed",
    ],
    "time-line-battle": [
        r"Timeline 1, Day 1: seat \d is the Start Player",
        r"seat \d's [\w ]+ takes \d+ damage \(Health \d+\)",
        r"seat \d's [\w ]+ takes \d+ damage and dies",
        r"Timeline \d ends on Day \d+ \(.+\): seat 0 \d+ alive, \d+ VP in all, seat 1 \d+ alive, \d+ VP in all",
    ],
    "torah-timeline": [
        r"tokens: seat \d \d+ -> \d+",
        r"seat \d's turn: \d actions?, \d+ tokens?",
    ],
    "time-line": [
        r"Change History roll in [A-Z][\w ]+: \d( [+-]\d [\w ]+)*$",
        r"\+1 Agents and Heroes",
        r"seat \d takes control of [A-Z]",
        r"period recruit roll in [A-Z][\w ]+: \d",
        r"seat \d recruits an? [A-Z]",
        r"faction recruit roll: \d",
    ],
}


@pytest.mark.parametrize("slug", sorted(EVENTS))
def test_a_replay_tells_what_the_rules_made_of_each_action(engines: dict[str, GameDef], slug: str) -> None:
    game = engines[slug]
    record = runner.play(game, [agents.make("greedy"), agents.make("greedy")], 5)
    lines = runner.replay(game, record.actions)
    numbered = [line for line in lines if re.match(r"\s*\d+  ", line)]
    events = [line.strip() for line in lines if line.startswith(" " * 14) and line.strip()]
    assert len(numbered) == len(record.actions)  # one line per action, the events beside them
    for pattern in EVENTS[slug]:
        assert any(re.search(pattern, event) for event in events), (slug, pattern, events[:20])


def test_the_words_cost_nothing_when_games_are_played_for_numbers(engines: dict[str, GameDef]) -> None:
    game = engines["soldier-battler"]
    state = game.new_initial_state()
    assert getattr(state, "narration", None) is None  # simulate, check and balance play without it
    record = runner.play(game, [agents.make("random"), agents.make("random")], 11)
    again = runner.play(game, [agents.make("random"), agents.make("random")], 11)
    runner.replay(game, record.actions)
    assert record.actions == again.actions and record.returns == again.returns


def test_a_deserter_discards(engines: dict[str, GameDef]) -> None:
    from engine.games.battle_line import BattleLineGame

    game = engines["battle-line"]
    assert isinstance(game, BattleLineGame)
    state = game.position("hands: deserter | B1; flag 1: | B9")
    index = game.names.index
    state.apply_action(game.act.guile + index("deserter") - game.n_troops)
    assert state.action_to_string(game.act.pick_at(0, index("B9"))) == "discards B9 from flag 1"
