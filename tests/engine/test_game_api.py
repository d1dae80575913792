"""The API contract, checked by random play on every registered game."""

from __future__ import annotations

import random
import re

import pytest

from engine.agents import RandomAgent
from engine.api import CHANCE, TERMINAL, GameDef, IllegalAction
from engine.runner import play, replay
from printkit.data.loader import bundled_games

SLUGS = [folder.name for folder in bundled_games()]  # each plays by the built-in engine of its name
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
                assert state.sample_chance(rng) in legal
            else:
                assert 0 <= player < game.num_players
                assert state.observation(player)["to_move"] == player
            for illegal in (max(legal) + 1, min(legal) - 1):
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
def test_sampled_chance_follows_the_stated_probabilities(engines: dict[str, GameDef], slug: str) -> None:
    """The runner's fast draw and the listed outcomes agree: each outcome within 5 sigma of its share."""
    rng = random.Random(3)
    state, nodes, checked = engines[slug].new_initial_state(), 0, 0
    while checked < 8 and not state.is_terminal():
        if state.is_chance_node():
            nodes += 1
        if state.is_chance_node() and nodes % 7 == 1:  # spread over the game: deals, draws and dice
            outcomes = dict(state.chance_outcomes())
            draws = 4000
            counts = dict.fromkeys(outcomes, 0)
            for _ in range(draws):
                counts[state.sample_chance(rng)] += 1  # a KeyError here is an outcome never listed
            for action, p in outcomes.items():
                sigma = (draws * p * (1 - p)) ** 0.5
                assert abs(counts[action] - draws * p) <= 5 * sigma + 1, (action, counts[action], draws * p)
            checked += 1
        state.apply_action(rng.choice(list(state.legal_actions())))
    assert checked == 8 or state.is_terminal()


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
    numbered = [line for line in log if re.match(r"\s*\d+  ", line)]  # the rules' events stand between them
    assert len(numbered) == len(one.actions) and log[-1].startswith("result:")


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
