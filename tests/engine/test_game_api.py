"""The API contract, checked by random play on every registered game."""

from __future__ import annotations

import random

import pytest

from engine import registry
from engine.agents import RandomAgent
from engine.api import CHANCE, TERMINAL, GameDef, IllegalAction
from engine.runner import play, replay

SLUGS = registry.registered()
# Time Line's random games run to the turn cap, thousands of moves: two of them check the contract
SEEDS = {"time-line": 2}


@pytest.mark.parametrize("slug", SLUGS)
def test_random_games_keep_the_contract(engines: dict[str, GameDef], slug: str) -> None:
    game = engines[slug]
    for seed in range(SEEDS.get(slug, 12)):
        rng = random.Random(seed)
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            player = state.current_player()
            legal = list(state.legal_actions())
            assert legal, "a live state always has a legal action"
            assert len(set(legal)) == len(legal)
            if player == CHANCE:
                outcomes = state.chance_outcomes()
                assert sum(p for _, p in outcomes) == pytest.approx(1.0)
                assert sorted(a for a, _ in outcomes) == sorted(legal)
            else:
                assert 0 <= player < game.num_players
                assert state.observation(player)["to_move"] == player
                illegal = max(legal) + 1
                with pytest.raises(IllegalAction):
                    state.clone().apply_action(illegal)
            action = rng.choice(legal)
            before = state.clone()
            copy = state.clone()
            copy.apply_action(action)  # a clone moves on its own
            assert before.legal_actions() == state.legal_actions()
            state.apply_action(action)
            steps += 1
            assert steps < 20_000
        assert state.current_player() == TERMINAL
        assert state.legal_actions() == []
        assert sum(state.returns()) == 0
        assert all(r in (-1.0, 0.0, 1.0) for r in state.returns())


@pytest.mark.parametrize("slug", SLUGS)
def test_a_game_replays_exactly_from_its_seed_and_its_actions(engines: dict[str, GameDef], slug: str) -> None:
    game = engines[slug]
    one = play(game, [RandomAgent(), RandomAgent()], seed=42)
    two = play(game, [RandomAgent(), RandomAgent()], seed=42)
    assert one.actions == two.actions and one.returns == two.returns
    state = game.new_initial_state()
    for action in one.actions:
        state.apply_action(action)
    assert state.is_terminal() and state.returns() == one.returns
    log = replay(game, one.actions)
    assert len(log) == len(one.actions) + 1 and log[-1].startswith("result:")


@pytest.mark.parametrize("slug", SLUGS)
def test_observation_hides_the_opponents_hand(engines: dict[str, GameDef], slug: str) -> None:
    game = engines[slug]
    record = play(game, [RandomAgent(), RandomAgent()], seed=5)
    state = game.new_initial_state()
    for action in record.actions[: len(record.actions) // 2]:
        state.apply_action(action)
    rng = random.Random(1)
    for player in (0, 1):
        seen = state.observation(player)
        assert "hand" in seen and not isinstance(seen["opponent_hand"], list)
        other = state.resample(player, rng)
        assert other.observation(player) == seen  # the player cannot tell the resampled world apart
