"""The rules language: Torah Timeline written in it plays the hand-written engine's very games, the Lanterns starter
plays like a bundled game, and a rule book's every problem is one line at its place in play.yaml."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest
import yaml
from books import same_games
from stepwise import StepRandom, outcome

from engine import conformance, play, registry, runner
from engine.agents import RandomAgent
from engine.api import GameDef
from engine.play.expr import RuleError
from printkit.cli import main
from printkit.core.errors import DataError
from printkit.data.loader import load_game

ROOT = Path(__file__).resolve().parents[2]
TORAH = ROOT / "cards" / "torah-timeline"


@pytest.fixture(scope="module")
def torah() -> tuple[GameDef, GameDef]:
    """Torah Timeline's hand-written engine, and the same game from its play.yaml."""
    game = load_game(TORAH)
    return registry.build(game), play.build(game)


def test_torah_timeline_in_the_rules_language_plays_the_hand_written_engine_s_games(
    torah: tuple[GameDef, GameDef],
) -> None:
    # every action (deal, draws, first player, moves), its number, the order of the legal moves a random
    # player picks from, the cards played, the ending and each seat's result: the same, game after game
    same_games(*torah, ["random", "random"], range(300))


def test_its_heuristic_is_the_engine_s_so_greedy_play_agrees_too(torah: tuple[GameDef, GameDef]) -> None:
    same_games(*torah, ["greedy", "random"], range(40), lead=True)


def test_search_draws_the_same_hidden_cards_as_the_engine_so_mcts_agrees(torah: tuple[GameDef, GameDef]) -> None:
    # resample deals the cards a player cannot see from the same pool, in the same order, as the engine does
    same_games(*torah, ["mcts25", "random"], range(4))


def test_the_interpreter_s_own_random_play_is_the_runner_s_a_step_at_a_time(
    torah: tuple[GameDef, GameDef], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the same games from PlayState.play_random as from the runner's loop, and stopped alike at the action
    # limit wherever it falls: in the deal, on the first player, among a turn's draws
    lanterns = play.build(load_game(_lanterns(tmp_path, monkeypatch)))
    for game in (torah[1], lanterns):
        for limit in (1, 10, 11, 12, 13, 40, 41, 99, 150, 200_000):
            monkeypatch.setattr(game, "max_actions", limit)
            for seed in range(12):
                assert outcome(game, RandomAgent, seed) == outcome(game, StepRandom, seed), (game.slug, limit, seed)


def test_a_written_game_keeps_the_game_api(torah: tuple[GameDef, GameDef]) -> None:
    assert conformance.check(torah[1], 25) == []


def test_the_interpreter_bounds_rules_that_never_stop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _lanterns(tmp_path, monkeypatch)
    rules = folder / "play.yaml"
    text = rules.read_text()
    # a charm whose effect applies itself: effects inside effects without end
    rules.write_text(
        text.replace(
            "      flare: [gain: {light: card.amount}]", "      flare: [apply: {effect: charm, with: card.effect}]"
        )
    )
    game = play.build(load_game(folder))
    failures = conformance.check(game, 30)
    assert failures and "effects inside effects more than 200 deep" in str(failures[0])
    assert str(failures[0]).startswith("seed ")
    with pytest.raises(RuleError):
        for seed in range(30):
            runner.play(game, [RandomAgent(), RandomAgent()], seed)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_rules_that_fail_in_play_are_one_line_at_the_effect_s_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], workers: str
) -> None:
    # a charm that draws more cards than any draw may: the book reads, and the game stops at that draw, said as a
    # data error (exit 2, one line, the draw's file:line:column), with no traceback, from a worker process too
    rules = _lanterns(tmp_path, monkeypatch) / "play.yaml"
    old = "      draw: [draw: card.amount]"
    assert old in rules.read_text()
    rules.write_text(rules.read_text().replace(old, "      draw: [draw: card.amount * 100000]", 1))
    capsys.readouterr()
    assert main(["validate"]) == 0
    assert main(["simulate", "lanterns", "--games", "20", "--workers", workers, "-q"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "Traceback" not in err[0], err
    place, words = err[0].split(": ", 1)
    assert words.startswith("draw: expected a number of cards up to 10,000, found ")
    file, line, column = place.rsplit(":", 2)
    assert file == "cards/lanterns/play.yaml"
    assert rules.read_text().splitlines()[int(line) - 1][int(column) - 1 :].startswith("draw: card.amount * 100000")


def test_a_move_s_test_that_fails_in_play_is_one_line_at_its_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = _lanterns(tmp_path, monkeypatch) / "play.yaml"
    old = "        if: card.kind is lantern\n"
    assert old in rules.read_text()
    rules.write_text(
        rules.read_text().replace(old, "        if: card.light / (count(my.row) - count(my.row)) > 0\n", 1)
    )
    capsys.readouterr()
    assert main(["simulate", "lanterns", "--games", "5", "-q"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("cards/lanterns/play.yaml: column ") and "division by zero" in err[0]


def _lanterns(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    assert main(["init", "-q"]) == 0
    assert main(["new", "Lanterns", "--starter", "play", "-q"]) == 0
    return tmp_path / "cards" / "lanterns"


def test_the_play_starter_simulates_like_a_bundled_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = _lanterns(tmp_path, monkeypatch) / "play.yaml"
    assert "[engines]" not in (tmp_path / "printkit.toml").read_text()  # rules as data: nothing to trust
    first = rules.read_text(encoding="utf-8").splitlines()[0]  # the editor's schema of the rules language
    assert first == "# yaml-language-server: $schema=../../schema/play.schema.json"
    document = json.loads((tmp_path / "schema" / "play.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(yaml.safe_load(rules.read_text(encoding="utf-8")), document)
    capsys.readouterr()
    assert main(["validate"]) == 0
    assert main(["engine-test", "lanterns", "--seeds", "20"]) == 0
    assert "ok  lanterns: the play engine keeps the game API in 20 random games" in capsys.readouterr().out
    assert main(["simulate", "lanterns", "--games", "60", "--workers", "2", "-q"]) == 0
    assert main(["replay", "lanterns", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "first player: seat" in out and "lights " in out
    assert main(["balance", "lanterns", "--games", "30", "--ladder", "2", "--card-value", "10", "-q"]) == 0
    assert main(["sweep", "lanterns", "--vary", "rules.light_to_win=10..20:5", "--games", "20", "-q"]) == 0
    assert main(["check", "lanterns", "--games", "10"]) == 0


# each: (the text in the starter's play.yaml, what it becomes, the words of the one problem, its line's text)
BROKEN = [
    (
        "if: card.kind is lantern",
        "if: card.kind is lantern and my.lite > 2",
        "my.lite: no counter or zone 'lite'",
        "card.kind is lantern and my.lite",
    ),
    ("      - id: light\n", "      - id: light\n        iff: true\n", "unknown key 'iff' (did you mean 'if'?)", "iff"),
    ("- gain: {light: card.light}", "- gane: {light: card.light}", "unknown effect 'gane'", "gane"),
    ("- gain: {light: card.light}", "- gain: {lihgt: card.light}", "no counter 'lihgt'", "lihgt"),
    ("value: my.light + count(my.hand) * 0.3", "value: my.light + (count(my.hand) * 0.3", "expected ')'", "value"),
    (
        "  - wins: my.light >= rules.light_to_win",
        "  - wins: my.light >= rules.light_to_wins",
        "game.yaml has no rule option 'light_to_wins'",
        "rules.light_to_wins",
    ),
    (
        "  row: {per: player, visible: all}",
        "  row: {per: player, visible: everyone}",
        "visible: expected all or owner or none, found 'everyone'",
        "everyone",
    ),
    (
        "apply: {effect: charm, with: card.effect}",
        "apply: {effect: charms, with: card.effect}",
        "no effect 'charms'",
        "charms",
    ),
    ("- move: {to: my.row}", "- move: {to: my.light}", "expected a zone, such as my.hand or discard", "my.light"),
    ("  row: {per: player, visible: all}", "  row: {per: player, visibel: all}", "unknown key 'visibel'", "visibel"),
    ("  - wins: my.light >= rules.light_to_win", "  - wins: my.light >=", "expected a value, found 'the end'", "wins"),
    ("cap: {moves: rules.move_cap}", "cap: {moves: my.light}", "expected a number fixed for the game", "cap"),
]


@pytest.mark.parametrize(("old", "new", "words", "at"), BROKEN, ids=[b[2][:30] for b in BROKEN])
def test_a_broken_rule_book_is_one_line_at_its_place(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    old: str,
    new: str,
    words: str,
    at: str,
) -> None:
    folder = _lanterns(tmp_path, monkeypatch)
    rules = folder / "play.yaml"
    text = rules.read_text()
    assert old in text
    rules.write_text(text.replace(old, new, 1))
    capsys.readouterr()
    assert main(["validate"]) == 2
    err = [line for line in capsys.readouterr().err.splitlines() if not line.startswith(("note: ", "warning: "))]
    assert len(err) == 1, err
    assert words in err[0]
    place, _ = err[0].split(": ", 1)
    file, line, column = place.rsplit(":", 2)
    assert file == "cards/lanterns/play.yaml"
    written = rules.read_text().splitlines()[int(line) - 1]
    assert written[int(column) - 1 :].startswith(at.split(" ")[0].split("(")[0]) or at in written, (err[0], written)
    with pytest.raises(DataError):
        play.build(load_game(folder))


def test_the_rules_file_is_not_a_card_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _lanterns(tmp_path, monkeypatch)
    game = load_game(folder)
    assert len(game.cards) == 7  # the cards of cards.yaml alone
    shutil.copy(folder / "play.yaml", folder / "more.yaml")
    with pytest.raises(DataError):  # the same text under another name is read as cards, and refused
        load_game(folder)
