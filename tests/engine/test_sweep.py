"""Sweeps: games with values changed in memory, checked like the data, each point played on the same seeds."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from engine import simulate, stats, sweep
from printkit.cli import main
from printkit.core.errors import UsageError
from printkit.data.game import Game
from printkit.data.variant import BadChange, parse, vary
from printkit.docs import balance

ROOT = Path(__file__).resolve().parents[2]
SB = ROOT / "cards" / "soldier-battler"


def test_a_change_reaches_the_card_its_decks_and_the_rules(games: dict[str, Game]) -> None:
    game = games["soldier-battler"]
    changed = vary(game, [("cards.swordsman.hp", 120), ("rules.turn_cap", 30), ("rules.enter_enemy_row", False)])
    assert [c.values["hp"] for c in changed.cards if c.id == "swordsman"] == [120]
    in_decks = [c.values["hp"] for d in changed.decks for c, _ in d.entries if c.id == "swordsman"]
    assert in_decks and set(in_decks) == {120}
    assert (changed.rule("turn_cap"), changed.rule("enter_enemy_row")) == (30, False)
    assert game.rule("turn_cap") != 30  # the game itself is untouched


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (("cards.swordsman.hp", 0), "cards.swordsman.hp=0: hp: expected a value >= 1, found 0 (an integer)"),
        (("cards.swordsman.hp", "x"), "cards.swordsman.hp=x: expected a whole number, like the"),
        (("cards.swordsman.hp", True), "expected a whole number"),
        (("rules.melee_reach", "sideways"), "expected one of nearest_in_column, opposite_row_only"),
        (("rules.nope", 1), "no rule option 'nope'"),
        (("cards.nobody.hp", 3), "no card 'nobody'"),
        (("components.damage-token.nothing", 1), "no 'nothing' at components.damage-token"),
        (("decks.9.name", "x"), "no item '9'"),
    ],
)
def test_a_change_the_data_refuses_is_one_line_naming_it(games: dict[str, Game], change: tuple, said: str) -> None:
    with pytest.raises(BadChange) as caught:
        vary(games["soldier-battler"], [change])
    assert said in str(caught.value) and "\n" not in str(caught.value)


def test_ranges_from_the_command_line() -> None:
    assert parse("rules.turn_cap=20..80:20") == ("rules.turn_cap", [20, 40, 60, 80])
    assert parse("cards.x.hp=3..5") == ("cards.x.hp", [3, 4, 5])
    assert parse("rules.r=a,b, true,7") == ("rules.r", ["a", "b", True, 7])
    for bad in ("rules.turn_cap", "=3", "rules.turn_cap=5..2", "rules.turn_cap=1..x", "rules.turn_cap=1..4:0"):
        with pytest.raises(UsageError):
            parse(bad)


def test_each_point_plays_what_simulate_plays_with_that_change_and_the_engine_sees_it(
    games: dict[str, Game],
) -> None:
    varied = [("rules.turn_cap", [10, 60])]
    figures = sweep.run(games["soldier-battler"], varied, ("random", "random"), 30, 4, workers=1)
    assert [p["values"] for p in figures["points"]] == [{"rules.turn_cap": 10}, {"rules.turn_cap": 60}]
    plan = simulate.Plan(SB, ("random", "random"), 30, 4, (("rules.turn_cap", 60),))
    alone = stats.summarise(simulate.run(plan), {})["metrics"]
    assert figures["points"][1]["metrics"] == alone
    capped = [p["metrics"]["timeouts"] for p in figures["points"]]
    assert capped[0] > capped[1]  # a cap of 10 turns ends more games than one of 60: the change was played
    assert figures == sweep.run(games["soldier-battler"], varied, ("random", "random"), 30, 4, workers=2)


def test_a_point_the_engine_cannot_play_stops_the_sweep_before_any_game(games: dict[str, Game]) -> None:
    with pytest.raises(BadChange) as caught:
        sweep.run(games["soldier-battler"], [("rules.board_rows", [3, 1])], ("random", "random"), 5, 1)
    assert str(caught.value).startswith("rules.board_rows=1: ")


def test_the_sweep_command_writes_its_report_and_leaves_the_data_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = (SB / "game.yaml").read_bytes()
    argv = ["sweep", "soldier-battler", "--vary", "rules.turn_cap=20,60", "--vary", "rules.enter_enemy_row=true,false"]
    assert main([*argv, "--games", "10", "--workers", "1", "--out", str(tmp_path), "--no-pdf", "-q"]) == 0
    folder = tmp_path / "soldier-battler" / "sweeps" / "rules.turn_cap+rules.enter_enemy_row"
    results = json.loads((folder / "results.json").read_text())
    assert len(results["sweep"]["points"]) == 4
    html = (folder / "report.html").read_text()
    assert "Ended by stalemate" in html and "rules.enter_enemy_row=false" in html
    assert (SB / "game.yaml").read_bytes() == before
    assert capsys.readouterr().out == ""  # -q: not even the table
    assert main([*argv[:4], "--games", "10", "--workers", "1", "--out", str(tmp_path), "--no-pdf"]) == 0
    head, *rows = capsys.readouterr().out.splitlines()[-3:]  # after the files: a head, and a line a point
    assert head.split()[:3] == ["turn", "cap", "completed"]
    found = json.loads((tmp_path / "soldier-battler/sweeps/rules.turn_cap/results.json").read_text())
    for row, point in zip(rows, found["sweep"]["points"], strict=True):
        value, *_, bar = row.split()
        assert int(value) == point["values"]["rules.turn_cap"]
        assert len(bar) == balance.PLOT_WIDTH
        assert bar.count("#") == round(balance.PLOT_WIDTH * point["metrics"]["completion"])
    assert main(["sweep", "soldier-battler", "--vary", "cards.swordsman.hp=0,40", "--games", "5"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["printkit: cards.swordsman.hp=0: hp: expected a value >= 1, found 0 (an integer)"]


def test_a_tune_finds_the_best_point_it_played_and_finds_it_again(games: dict[str, Game]) -> None:
    from engine import tune

    varied = [("rules.idle_turns_to_stalemate", [2, 4, 6, 8]), ("rules.enter_enemy_row", [True, False])]
    found = tune.run(games["soldier-battler"], varied, "completion", ("random", "random"), 20, 3, trials=6)
    assert len(found["trials"]) == 6 and 1 <= len(found["points"]) <= 6
    assert found["best"]["target"] == max(p["target"] for p in found["points"])
    assert found == tune.run(games["soldier-battler"], varied, "completion", ("random", "random"), 20, 3, trials=6)
    patch = tune.patch(found, "printkit tune ...")
    best = found["best"]["values"]
    assert f"rules.idle_turns_to_stalemate: {best['rules.idle_turns_to_stalemate']}\n" in patch
    assert f"rules.enter_enemy_row: {str(best['rules.enter_enemy_row']).lower()}\n" in patch


def test_the_tune_command_writes_the_patch_and_says_what_it_needs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["tune", "soldier-battler", "--vary", "rules.turn_cap=20,40,60", "--target", "seat-balance"]
    assert main([*argv, "--trials", "3", "--games", "10", "--workers", "1", "--out", str(tmp_path), "--no-pdf"]) == 0
    folder = tmp_path / "soldier-battler" / "tune" / "seat-balance"
    assert (folder / "patch.yaml").read_text().splitlines()[-1].startswith("rules.turn_cap: ")
    assert "best for seat-balance: rules.turn_cap=" in capsys.readouterr().out
    monkeypatch.setitem(sys.modules, "optuna", None)  # a machine without the tune extra
    assert main([*argv, "--trials", "3", "--out", str(tmp_path)]) == 2
    assert capsys.readouterr().err.strip() == (
        "printkit: printkit tune needs Optuna: pipx inject printkit-studio optuna, "
        "or pip install -e '.[tune]' in printkit's clone (see docs/guides/simulate-balance.md)"
    )


@pytest.mark.parametrize(
    ("slug", "vary"),
    [
        ("battle-line", "rules.hand_size=6,7"),
        ("soldier-battler", "cards.axeman.hp=80,100"),
        ("time-line-battle", "rules.hand_size=4,5"),
        ("torah-timeline", "rules.action_cap=300,400"),
        ("time-line", "rules.success_roll=4,5"),
    ],
)
def test_sweep_and_tune_play_every_bundled_game(tmp_path: Path, slug: str, vary: str) -> None:
    common = [slug, "--vary", vary, "--games", "2", "--workers", "1", "--out", str(tmp_path), "--no-pdf", "-q"]
    assert main(["sweep", *common]) == 0
    path = vary.partition("=")[0]
    points = json.loads((tmp_path / slug / "sweeps" / path / "results.json").read_text())["sweep"]["points"]
    assert [p["metrics"]["games"] for p in points] == [2, 2]
    assert main(["tune", *common, "--trials", "2", "--target", "completion"]) == 0
    assert (tmp_path / slug / "tune" / "completion" / "patch.yaml").read_text().splitlines()[-1].startswith(path)
