"""Battle Line in the rules language (cards/battle-line/play.yaml, the Troops alone): on a copy of the game without
its Tactics deck it plays the hand-written engine's very games, the records the same but for the action numbers."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from books import engine_test_of_the_book

from engine import conformance, play, registry, runner
from engine.agents import GreedyAgent, RandomAgent
from engine.api import CHANCE, GameDef
from printkit.data.loader import load_game

ROOT = Path(__file__).resolve().parents[2]
BATTLE_LINE = ROOT / "cards" / "battle-line"
TACTICS_DECK = """  - id: tactics
    name: Tactics deck
"""


def troops_only(folder: Path) -> Path:
    """Battle Line copied without its Tactics cards: their file, kind and deck, the icons and texts naming them."""
    shutil.copytree(BATTLE_LINE, folder)
    (folder / "tactics.yaml").unlink()
    text = (folder / "game.yaml").read_text()
    deck = text.index(TACTICS_DECK)
    end = text.index("\n\n", deck)
    text = text[:deck] + text[end:]
    kind, byline = text.index("  tactics:\n    name: Tactics card\n"), text.index("byline:")
    text = text[:kind] + text[byline:]
    icons, reference = text.index("\nicons:"), text.index("\n# what the rules reference")
    (folder / "game.yaml").write_text(text[:icons] + "\n" + text[reference:])
    return folder


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[GameDef, GameDef]:
    """The engine and play.yaml, each playing Battle Line with the Troops alone."""
    game = load_game(troops_only(tmp_path_factory.mktemp("bl") / "battle-line"))
    return registry.build(game), play.build(game)


def test_it_plays_the_engine_s_games_but_for_the_action_numbers(both: tuple[GameDef, GameDef]) -> None:
    # the deal, the first player, every card played and where, each claim (a game ends when a seat holds flags
    # enough: its length and who won say when and who claimed), the passes, the ending and the results: the same.
    # The numbers differ: the engine numbers a play card x flags + flag and its draws from 1,500, the language its
    # moves in the order written and its draws from 20,000
    hand, written = both
    for seed in range(250):
        a = runner.play(hand, [RandomAgent(), RandomAgent()], seed).to_json()
        b = runner.play(written, [RandomAgent(), RandomAgent()], seed).to_json()
        assert len(a.pop("actions")) == len(b.pop("actions")), f"seed {seed}"
        assert a == b, f"seed {seed}: {[k for k in a if a[k] != b[k]]} differ"


def test_some_games_end_by_a_claim_before_the_deck_runs_out(both: tuple[GameDef, GameDef]) -> None:
    written = both[1]
    short = 0
    for seed in range(40):
        record = runner.play(written, [RandomAgent(), RandomAgent()], seed).to_json()
        short += record["end"] == "normal" and record["returns"][0] != 0
    assert short > 0


def test_the_bundled_book_reads_and_plays_beside_the_tactics_deck() -> None:
    """With game.yaml's Tactics deck there, the book leaves it out: its cards lie in no zone and are never played."""
    written = play.build(load_game(BATTLE_LINE))
    assert conformance.check(written, 10) == []
    record = runner.play(written, [RandomAgent(), RandomAgent()], 3).to_json()
    tactics = {c.id for c in load_game(BATTLE_LINE).cards if c.kind == "tactics"}
    assert tactics and not any(name in tactics for _, name in record["plays"])


def test_played_from_its_rules_it_passes_engine_test(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = troops_only(tmp_path / "battle-line")
    engine_test_of_the_book(folder, "battle-line", monkeypatch, capsys)


def test_its_heuristic_weighs_every_position_as_the_engine_does(both: tuple[GameDef, GameDef]) -> None:
    # the two played side by side, the same choice by its place among the legal moves and the same chance: each
    # position weighed alike for both seats (flags held, each unclaimed side's formation by how full it is), but
    # for the order its terms are added in
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
    hand, written = both
    for seed in range(30):
        a = runner.play(hand, [GreedyAgent(), GreedyAgent()], seed).to_json()
        b = runner.play(written, [GreedyAgent(), GreedyAgent()], seed).to_json()
        assert len(a.pop("actions")) == len(b.pop("actions")), f"seed {seed}"
        assert a == b, f"seed {seed}: {[k for k in a if a[k] != b[k]]} differ"
