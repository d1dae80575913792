"""Battle Line in the rules language (cards/battle-line/play.yaml), its Tactics cards and all: it plays the
hand-written engine's very games, the records the same but for the action numbers, under either claim timing."""

from __future__ import annotations

import random
import shutil
from collections import Counter
from pathlib import Path

import pytest

from engine import conformance, play, registry, runner
from engine.agents import GreedyAgent, RandomAgent
from engine.api import CHANCE, GameDef
from printkit.data.loader import load_game

ROOT = Path(__file__).resolve().parents[2]
BATTLE_LINE = ROOT / "cards" / "battle-line"


@pytest.fixture(scope="module")
def both() -> tuple[GameDef, GameDef]:
    """The engine and play.yaml, each playing Battle Line."""
    game = load_game(BATTLE_LINE)
    return registry.build(game), play.build(game)


def same_but_the_numbers(hand: GameDef, written: GameDef, seeds: range, greedy: bool = False) -> None:
    # the deal, the first player, every card played and where, each claim (a game ends when a seat holds flags
    # enough: its length and who won say when and who claimed), the passes, each position's number of legal moves,
    # the ending and the results: the same. The numbers differ: the engine numbers a play card x flags + flag and
    # its draws from 1,500, the language its moves in the order written and its draws from 20,000
    agent = GreedyAgent if greedy else RandomAgent
    for seed in seeds:
        a = runner.play(hand, [agent(), agent()], seed).to_json()
        b = runner.play(written, [agent(), agent()], seed).to_json()
        assert len(a.pop("actions")) == len(b.pop("actions")), f"seed {seed}"
        assert a == b, f"seed {seed}: {[k for k in a if a[k] != b[k]]} differ"


def test_it_plays_the_engine_s_games_but_for_the_action_numbers(both: tuple[GameDef, GameDef]) -> None:
    same_but_the_numbers(*both, range(300))


def test_every_tactics_card_comes_into_play(both: tuple[GameDef, GameDef]) -> None:
    """The games compared are not Troops alone: each Tactics card is played in them, again and again."""
    played: Counter[str] = Counter()
    for seed in range(100):
        record = runner.play(both[1], [RandomAgent(), RandomAgent()], seed).to_json()
        played.update(name for _, name in record["plays"])
    tactics = [c.id for c in load_game(BATTLE_LINE).cards if c.kind == "tactics"]
    assert len(tactics) == 10 and all(played[t] >= 10 for t in tactics), played


def test_under_the_basic_claim_rule_too(tmp_path: Path) -> None:
    folder = tmp_path / "battle-line"
    shutil.copytree(BATTLE_LINE, folder)
    text = (folder / "game.yaml").read_text()
    old = "{id: claim_timing, value: start_of_turn,"
    assert old in text
    (folder / "game.yaml").write_text(text.replace(old, "{id: claim_timing, value: after_play,"))
    game = load_game(folder)
    same_but_the_numbers(registry.build(game), play.build(game), range(100))


def test_some_games_end_by_a_claim_before_the_deck_runs_out(both: tuple[GameDef, GameDef]) -> None:
    written = both[1]
    short = 0
    for seed in range(40):
        record = runner.play(written, [RandomAgent(), RandomAgent()], seed).to_json()
        short += record["end"] == "normal" and record["returns"][0] != 0
    assert short > 0


def test_the_written_game_keeps_the_game_api(both: tuple[GameDef, GameDef]) -> None:
    # engine-test's own kit (the bundled folder's game.yaml declares the battle-line engine's effect field, which a
    # game of engine: play does not take, so the kit is run here on the book directly)
    assert conformance.check(both[1], 30) == []


def test_its_heuristic_weighs_every_position_as_the_engine_does(both: tuple[GameDef, GameDef]) -> None:
    # the two played side by side, the same choice by its place among the legal moves and the same chance: each
    # position weighed alike for both seats (flags held, each unclaimed side's formation by how full it is, under
    # its flag's Fog and Mud), but for the order its terms are added in
    hand, written = both
    weighed = 0
    for seed in range(12):
        a, b = hand.new_initial_state(), written.new_initial_state()
        chance_a, chance_b, pick = random.Random(seed), random.Random(seed), random.Random(seed + 1)
        while not a.is_terminal():
            if a.current_player() == CHANCE:
                a.apply_action(a.sample_chance(chance_a))
                b.apply_action(b.sample_chance(chance_b))
                continue
            for seat in (0, 1):
                assert abs(a.heuristic(seat) - b.heuristic(seat)) < 1e-12, f"seed {seed}"
                weighed += a.heuristic(seat) != 0
            legal_a, legal_b = a.legal_actions(), b.legal_actions()
            assert len(legal_a) == len(legal_b)
            i = pick.randrange(len(legal_a))
            a.apply_action(legal_a[i])
            b.apply_action(legal_b[i])
        assert b.is_terminal() and a.returns() == b.returns()
    assert weighed > 100


def test_greedy_players_play_the_engine_s_games(both: tuple[GameDef, GameDef]) -> None:
    same_but_the_numbers(*both, range(30), greedy=True)


def test_mud_is_offered_at_a_flag_in_fog_while_fog_is_in_the_same_hand(both: tuple[GameDef, GameDef]) -> None:
    # free(to) reads the card (Fog goes where no Fog is, Mud where no Mud is): asked of each card, not once a flag
    _, written = both
    state = written.new_initial_state()
    rng = random.Random(0)
    while state.current_player() == CHANCE:
        state.apply_action(rng.choice(state.legal_actions()))
    book = written.book  # type: ignore[attr-defined]  # the written game's rule book
    fog, mud = book.cards.index("fog"), book.cards.index("mud")
    for zone in state.zones:
        for card in (fog, mud):
            if card in zone:
                zone.remove(card)
    hand = state.zones[book.zones["hand"].index(state.player)]
    hand[-2:] = [fog, mud]
    hand.sort()
    state.values[book.counters["fog"].index][0] = 1 - state.player  # the other player's Fog at the first flag
    state._legal = None
    said = {state.action_to_string(a) for a in state.legal_actions()}
    assert "plays Mud at flag 1" in said and "plays Fog at flag 1" not in said
