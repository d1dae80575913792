"""Agents beat random play, and simulations give the same results whatever the number of workers."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import agents, simulate, stats
from engine.api import GameDef
from engine.runner import play
from printkit.cli import main
from printkit.data.game import Game
from printkit.data.loader import bundled_games


def _wins(game: GameDef, name: str, games: int) -> int:
    won = 0
    for i in range(games):
        seat = i % 2
        players: list[agents.RandomAgent | agents.GreedyAgent | agents.MCTSAgent] = [agents.RandomAgent()] * 2
        players[seat] = agents.make(name)
        won += play(game, list(players), seed=1000 + i).winner() == seat
    return won


# Time Line's games last hundreds of turns: its agents are measured by tests/benchmarks/bench_engine.py
QUICK = [folder.name for folder in bundled_games() if folder.name != "time-line"]


@pytest.mark.parametrize("slug", QUICK)
def test_greedy_beats_random_clearly(engines: dict[str, GameDef], slug: str) -> None:
    assert _wins(engines[slug], "greedy", 40) >= 26  # chance alone would give 26 of 40 about 4% of the time


@pytest.mark.parametrize("slug", QUICK)
def test_mcts_beats_random(engines: dict[str, GameDef], slug: str) -> None:
    assert _wins(engines[slug], "mcts50", 6) >= 5  # the full 200-game figure: tests/benchmarks/bench_engine.py


def test_results_do_not_depend_on_workers(games: dict[str, Game]) -> None:
    plan = simulate.Plan(games["soldier-battler"].folder, ("random", "greedy"), 24, seed=9)
    one = simulate.run(plan, workers=1)
    two = simulate.run(plan, workers=2)
    assert [r.to_json() for r in one] == [r.to_json() for r in two]
    assert [r.agents for r in one[:2]] == [["random", "greedy"], ["greedy", "random"]]


def test_wilson_interval() -> None:
    low, high = stats.wilson(50, 100)
    assert (round(low, 3), round(high, 3)) == (0.404, 0.596)
    assert stats.wilson(0, 10)[0] == 0.0


def test_simulate_writes_results_and_reports(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "soldier-battler", "--games", "12", "--agents", "random,greedy", "--out", str(tmp_path)]
    assert main(args) == 0
    folder = tmp_path / "soldier-battler" / "balance"
    assert (folder / "report.pdf").read_bytes().startswith(b"%PDF")
    html = (folder / "report.html").read_text()
    assert "Win rate when played" in html and "Crossbowman" in html
    import json

    data = json.loads((folder / "results.json").read_text())
    assert data["summary"]["games"] == 12 and len(data["games"]) == 12
    assert set(data["summary"]["seats"][0]) == {"wins", "games", "rate", "ci95"}
    assert main(["replay", "soldier-battler", "--results", str(folder / "results.json"), "--index", "3"]) == 0
    assert "result:" in capsys.readouterr().out


def test_bad_agent_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "battle-line", "--agents", "random,clever"]) == 2
    assert "unknown agent" in capsys.readouterr().err
