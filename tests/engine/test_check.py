"""printkit check: validation by play turns crashes, caps, unfair seats and odd cards into findings."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine import check
from engine.games import soldier_battler
from engine.runner import Record
from printkit.cli import main
from printkit.data.game import Game


def test_findings_name_the_game_and_the_card(games: dict[str, Game]) -> None:
    findings, records = check.run(games["torah-timeline"], 120, seed=1)
    assert len(records) == 120
    texts = [str(f) for f in findings]
    assert any("eliyahu-hanavi" in t for t in texts)  # playing it wins at once: a dominant card, by design
    capped = next(t for t in texts if "ended by cap" in t)  # random play runs to the action cap most
    assert "greedy v greedy" in capped and "greedy v random" in capped and "random v random" in capped
    assert all(t.startswith(("warning: torah-timeline:", "error: torah-timeline:")) for t in texts)


def test_a_game_without_an_engine_is_a_note(games: dict[str, Game], monkeypatch: pytest.MonkeyPatch) -> None:
    from engine import registry

    monkeypatch.setattr(registry, "build", lambda game: (_ for _ in ()).throw(KeyError(game.slug)))
    findings, records = check.run(games["battle-line"], 10, seed=1)
    assert records == [] and [f.level for f in findings] == ["note"]


def test_a_time_budget_stops_early(games: dict[str, Game]) -> None:
    _, records = check.run(games["time-line"], 50, seed=1, seconds=0.0)
    assert len(records) == 1


def test_a_crash_is_an_error_with_its_replay(
    games: dict[str, Game], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(self: soldier_battler.SoldierBattlerState) -> None:
        raise RuntimeError("the data made no sense")

    monkeypatch.setattr(soldier_battler.SoldierBattlerState, "_end_turn", broken)
    findings, _ = check.run(games["soldier-battler"], 3, seed=5)
    assert findings and findings[0].level == "error"
    assert "RuntimeError: the data made no sense" in findings[0].message
    assert "printkit replay soldier-battler --seed" in findings[0].message
    assert main(["check", "soldier-battler", "--games", "3"]) == 1
    assert "check found 3 errors" in capsys.readouterr().err


def test_check_passes_on_a_sound_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "time-line-battle", "--games", "30"]) == 0
    assert capsys.readouterr().out.startswith("time-line-battle: 30 games played")


def test_a_game_that_never_ends_is_an_error_not_a_hang(
    games: dict[str, Game], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A turn that can repeat for ever (as a draw card drawing itself back once did) stops at max_actions."""
    monkeypatch.setattr(soldier_battler.SoldierBattlerGame, "max_actions", 40)
    findings, records = check.run(games["soldier-battler"], 2, seed=5)
    assert not records and [f.level for f in findings] == ["error", "error"]
    assert "EndlessGame: no end after 40 actions" in findings[0].message
    assert main(["replay", "soldier-battler", "--seed", "3"]) == 1
    out, err = capsys.readouterr()
    numbered = [line for line in out.splitlines() if not line.startswith(" " * 14)]  # less the rules' events
    assert len(numbered) == 40 and numbered[-1].startswith("  40  ")
    assert err.strip() == "soldier-battler: no end after 40 actions: the rules or the data let this game loop"


def test_simulate_stops_on_a_looping_game_with_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setattr(soldier_battler.SoldierBattlerGame, "max_actions", 40)
    code = main(["simulate", "soldier-battler", "--games", "4", "--workers", "2", "--out", str(tmp_path)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1 and not any(tmp_path.iterdir())
    assert err[-1].startswith("printkit: soldier-battler: game 1 of 4: no end after 40 actions")
    assert "printkit replay soldier-battler --seed" in err[-1]
    code = main(["balance", "soldier-battler", "--games", "4", "--workers", "1", "--out", str(tmp_path)])
    assert code == 1 and not any(tmp_path.iterdir())
    assert capsys.readouterr().err.strip().splitlines()[-1].startswith("printkit: soldier-battler: game 1 of 4")


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            "  - {id: turn_cap,",
            "  - {id: turn_kap,",
            ":1: rules: no rule option 'turn_cap', which the battle-line engine needs",
        ),
        (
            "engine: battle-line",
            "engine: battle-lines",
            "8:9: engine: no engine named 'battle-lines'; did you",
        ),
        (
            "id: wedge, name: Wedge",
            "id: wedgie, name: Wedge",
            ": formations: the battle-line engine ranks wedge, phalanx, battalion, skirmish, host; found wedgie",
        ),
    ],
)
def test_validate_reports_what_the_engine_needs_from_the_data(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], old: str, new: str, expected: str
) -> None:
    folder = tmp_path / "battle-line"
    shutil.copytree(Path(__file__).resolve().parents[2] / "cards" / "battle-line", folder)
    game_yaml = folder / "game.yaml"
    assert old in game_yaml.read_text()
    game_yaml.write_text(game_yaml.read_text().replace(old, new, 1))
    assert main(["validate", str(folder)]) == 2
    said = capsys.readouterr().err.strip().splitlines()
    err = [line for line in said if not line.startswith("note: ")]  # an engine printkit lacks: one note says so
    assert len(err) == 1 and expected in err[0], said
    if "rules:" in expected:  # placed at the rules list itself, wherever game.yaml has it today
        rules_line = game_yaml.read_text().splitlines().index("rules:") + 1
        assert f"game.yaml:{rules_line}:1:" in err[0], err


def test_validate_names_the_rule_options_an_engine_never_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A designer tuning a value the engine plays one way only would see no change in any simulated game."""
    monkeypatch.chdir(tmp_path)
    assert main(["init", "-q"]) == 0
    game = tmp_path / "cards" / "knobs"
    shutil.copytree(Path(__file__).resolve().parents[2] / "cards" / "soldier-battler", game)
    game_yaml = game / "game.yaml"
    game_yaml.write_text(
        game_yaml.read_text().replace(
            "rules:\n", "rules:\n  - {id: unused_knob, value: 3, origin: seed, description: Read by no engine.}\n", 1
        )
    )
    assert main(["validate", "knobs"]) == 0
    notes = [line for line in capsys.readouterr().err.splitlines() if line.startswith("note:")]
    assert len(notes) == 1
    assert notes[0].startswith("note: cards/knobs/game.yaml:")
    unread = notes[0].rsplit(": ", 1)[1].split(", ")
    assert "unused_knob" in unread
    assert "damage" not in unread and "turn_cap" not in unread  # what the engine builds from


def _games(first_wins: int, games: int) -> list[Record]:
    """Games with a winner, seats alternating first; the first mover wins first_wins of them."""
    out = []
    for i in range(games):
        first = i % 2
        winner = first if i < first_wins else 1 - first
        returns = [1.0, -1.0] if winner == 0 else [-1.0, 1.0]
        out.append(Record(i, ["random", "random"], [], returns, 10, 10, "normal", first, [(0, "a"), (1, "a")]))
    return out


def test_a_first_move_edge_is_a_finding_when_its_interval_holds() -> None:
    """Seats alternate, so each seat wins half while the first mover wins 65%: only the first-move test sees it."""
    found = [f.message for f in check.judge("g", _games(130, 200), {"a": "A"})]
    assert found == [
        "the player who moves first wins 65% of the 200 games with a winner (95% interval 58-71%): a first-move "
        "edge of 15 points"
    ]
    assert check.judge("g", _games(108, 200), {"a": "A"}) == []  # 54%: within the luck of 200 games
    handicap = check.judge("g", _games(60, 200), {"a": "A"})
    assert [f.message.split(": ")[-1] for f in handicap] == ["a first-move handicap of 20 points"]
