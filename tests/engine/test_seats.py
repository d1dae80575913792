"""Games of three to six players: rules that seat them, agents turned through the seats, and every metric over them."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from engine import agents, conformance, ladder, metrics, play, runner, simulate, stats
from engine.metrics import tension, tension_of
from printkit.cli import main
from printkit.data.loader import load_game


def test_agents_turn_through_the_seats_so_each_sits_in_each_equally() -> None:
    assert [simulate.seated(("a", "b"), 2, i) for i in range(3)] == [("a", "b"), ("b", "a"), ("a", "b")]
    tables = [simulate.seated(("greedy", "random"), 4, i) for i in range(8)]
    assert all(len(t) == 4 and t.count("greedy") == 1 for t in tables)
    assert Counter(t.index("greedy") for t in tables) == {0: 2, 1: 2, 2: 2, 3: 2}
    assert simulate.seated(("a", "b", "c"), 3, 1) == ("c", "a", "b")
    with pytest.raises(Exception, match="3 agents for a game of 2 players"):
        simulate.seated(("a", "b", "c"), 2, 0)


def test_the_lead_of_many_seats_is_each_seat_s_margin_over_the_best_other() -> None:
    # two seats read as they always have: the first's heuristic minus the second's
    pairs = [(0.2, 0.1), (0.0, 0.3), (0.5, 0.1), (0.6, 0.0)]
    assert tension_of(pairs, 0) == tension([a - b for a, b in pairs], 0)
    assert tension_of(pairs, 1) == tension([a - b for a, b in pairs], 1)
    # three: seat 2 leads, then seat 0, then seat 2 again, and wins; behind at one reading in three
    told = tension_of([(0.1, 0.0, 0.4), (0.5, 0.0, 0.2), (0.1, 0.2, 0.6)], 2)
    assert told.lead_changes == 2
    assert told.trailing == pytest.approx(1 / 3)
    assert told.decided_at == pytest.approx(2 / 3)
    assert tension_of([(0.1, 0.1, 0.1)], None).lead_changes == 0


@pytest.fixture(scope="module")
def three(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Lanterns starter, its game.yaml seating three."""
    root = tmp_path_factory.mktemp("three")
    assert main(["new", "Lanterns", "--starter", "play", "--dir", str(root), "-q"]) == 0
    folder = root / "lanterns"
    info = folder / "game.yaml"
    info.write_text(info.read_text().replace("players: 2", "players: 3"))
    return folder


def test_a_three_player_rule_book_keeps_the_game_api_and_plays_three_seats(three: Path) -> None:
    game = play.build(load_game(three))
    assert game.num_players == 3
    assert conformance.check(game, 12) == []
    seen: set[int] = set()
    for seed in range(6):  # search at a table of three: paranoid, every other seat against it
        record = runner.play(game, [agents.make(n) for n in ("mcts8", "random", "greedy")], seed)
        assert len(record.returns) == 3 and sorted(record.returns) in ([-1.0, -1.0, 1.0], [0.0, 0.0, 0.0])
        seen.update(seat for seat, _ in record.plays)
    assert seen == {0, 1, 2}


def test_the_figures_of_a_three_player_run_count_every_seat_against_a_third(three: Path) -> None:
    plan = simulate.Plan(three, ("greedy", "random"), 90, 5)
    records = simulate.run(plan)
    assert [r.agents.index("greedy") for r in records[:3]] == [0, 1, 2]  # one greedy, turned through the seats
    figures = stats.summarise(records, {})
    assert len(figures["seats"]) == 3
    assert sum(s["wins"] for s in figures["seats"]) + figures["draws"]["games"] == 90
    measured = figures["metrics"]
    assert measured["fair_share"] == pytest.approx(1 / 3)
    wins = [s["wins"] for s in figures["seats"]]
    assert measured["balance"] == pytest.approx(1 - (max(wins) - min(wins)) / 90)
    assert metrics.measure(records)["lead_read_in"] >= 9  # the lead read in every tenth game, at three seats too
    # the ladder's score counts a draw as a third, and its verdict is about a third, not a half
    score, games, (low, high) = ladder._score(records, "greedy")
    assert games == 90 and low <= score / 90 <= high
    assert ladder._verdict(0.34, 0.60, 1 / 3) == "stronger" and ladder._verdict(0.34, 0.60) == "undecided"


def test_a_table_of_three_simulates_replays_and_refuses_too_many_agents(
    three: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(three.parent)
    assert main(["simulate", str(three), "--games", "30", "--agents", "greedy,random", "--no-pdf"]) == 0
    out = capsys.readouterr().out
    assert "seat 1 wins" in out and "seat 3 " in out
    assert main(["replay", str(three), "--seed", "2", "--agents", "random,greedy,random"]) == 0
    assert "seat 2" in capsys.readouterr().out
    assert main(["simulate", str(three), "--games", "4", "--agents", "random,random,random,greedy"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("printkit: --agents: expected two agents") and "up to 3" in err, err


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        ("players: 3", "players: 7", "players: expected a whole number of players from 2 to 6, found 7"),
        ("  - wins: my.light >= rules.light_to_win", "  - loses: my.light < 0", "loses: ends a two-player game"),
    ],
)
def test_a_table_the_rules_cannot_seat_is_refused_at_its_place(
    three: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], old: str, new: str, words: str
) -> None:
    import shutil

    folder = tmp_path / "lanterns"
    shutil.copytree(three, folder)
    for name in ("game.yaml", "play.yaml"):
        path = folder / name
        path.write_text(path.read_text().replace(old, new))
    if old.startswith("players"):  # the rule book's own players: key
        rules = folder / "play.yaml"
        rules.write_text("players: 7\n" + rules.read_text())
        (folder / "game.yaml").write_text((folder / "game.yaml").read_text().replace("players: 7", "players: 3"))
    capsys.readouterr()
    assert main(["validate", str(folder)]) == 2
    err = [line for line in capsys.readouterr().err.splitlines() if not line.startswith(("note: ", "warning: "))]
    assert len(err) == 1 and words in err[0] and "play.yaml:" in err[0], err
