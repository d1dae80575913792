"""The balance report's explanations: where caps and stalemates come from, and the answers to a game's studies."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from engine import findings
from printkit.cli import main
from printkit.data.game import Game
from printkit.data.model import Study

ROOT = Path(__file__).resolve().parents[2]


def _figures(random_rate: float, top_rate: float | None, games: int = 40) -> dict[str, Any]:
    """A report's figures with stalemates at the given rates: the report's own games, and the ladder's top rung."""
    ended = {"timeouts": 0.0, "stalemates": random_rate, "completion": 1 - random_rate, "drawishness": 0.0}
    figures: dict[str, Any] = {"pairings": {"random vs random": ended | {"games": 200}}}
    if top_rate is not None:
        figures["ladder"] = [
            {"stronger": "greedy", "weaker": "random", "games": games, "endings": ended},
            {
                "stronger": "mcts100",
                "weaker": "mcts25",
                "games": games,
                "endings": ended | {"stalemates": top_rate, "completion": 1 - top_rate},
            },
        ]
    return figures


def test_an_ending_the_strongest_agents_keep_is_the_rules_doing() -> None:
    (said,) = findings.endings(_figures(0.6, 0.5))
    assert said.startswith("Games ended by stalemate: 60% of random vs random (200 games)")
    assert "50% of mcts100 vs mcts25 (40 games)" in said and said.endswith("the rules cause them.")


def test_an_ending_the_strongest_agents_avoid_is_weak_plays_doing() -> None:
    (said,) = findings.endings(_figures(0.6, 0.0))
    assert said.endswith("weak play causes them.")


def test_too_few_ladder_games_to_tell_is_said_not_guessed() -> None:
    (said,) = findings.endings(_figures(0.6, 0.0, games=10))  # 0 of 10: the interval reaches past 10%
    assert "across the 10% line: play more ladder games (--ladder N)" in said
    (said,) = findings.endings(_figures(0.6, None))
    assert said.endswith("the lab cannot tell whether the rules or weak play cause them.")


def test_rare_endings_need_no_explaining() -> None:
    assert findings.endings(_figures(0.05, 0.02)) == []


def _point(value: int, stalemates: float) -> dict[str, Any]:
    return {"values": {"rules.idle_turns_to_stalemate": value}, "metrics": {"stalemates": stalemates}}


def _study(**aim: float) -> Study:
    return Study.model_validate(
        {"vary": ["rules.idle_turns_to_stalemate=2..8:3"], "agents": "greedy,greedy", "games": 50, "aim": aim}
    )


def test_a_study_answers_with_the_values_that_meet_its_aim_and_the_games_own(games: dict[str, Game]) -> None:
    game = games["soldier-battler"]
    own = game.rule("idle_turns_to_stalemate")
    figures = {
        "varied": [{"path": "rules.idle_turns_to_stalemate", "values": [own, own + 3, own + 6]}],
        "points": [_point(own, 0.3), _point(own + 3, 0.08), _point(own + 6, 0.04)],
    }
    said = findings.answer(game, _study(figure="stalemates", below=0.1), figures)  # type: ignore[arg-type]
    assert said == (
        f"Games ended by stalemate fall under 10% at rules.idle_turns_to_stalemate {own + 3} (8%) and {own + 6} (4%), "
        f"against 30% at the game's own {own} (greedy against greedy, 50 games a point)."
    )
    said = findings.answer(game, _study(figure="stalemates", below=0.01), figures)  # type: ignore[arg-type]
    assert said.startswith("No value tried makes games ended by stalemate fall under 1%: the nearest is 4% at ")
    assert f"idle_turns_to_stalemate {own + 6}, against 30%" in said


def _game_with(tmp_path: Path, study: str) -> Path:
    folder = tmp_path / "soldier-battler"
    shutil.copytree(ROOT / "cards" / "soldier-battler", folder)
    text = (folder / "game.yaml").read_text()
    head = text[: text.index("\nstudies:")]
    (folder / "game.yaml").write_text(f"{head}\nstudies:\n{study}")
    return folder


@pytest.mark.parametrize(
    ("study", "said"),
    [
        ("  - {vary: [rules.idle_turns=2..4], aim: {figure: stalemates, below: 0.1}}", "no rule option 'idle_turns'"),
        (
            "  - {vary: [rules.idle_turns_to_stalemate=2..4], agents: 'random,genius', "
            "aim: {figure: stalemates, below: 0.1}}",
            "studies[0]: agents: unknown agent 'genius'",
        ),
        (
            "  - {vary: [rules.idle_turns_to_stalemate=1..100], games: 10000, aim: {figure: stalemates, below: 0.1}}",
            "100 points of 10,000 games: expected at most 200,000 games a study",
        ),
        ("  - {vary: [cards.swordsman.hp=0..40:40], aim: {figure: stalemates, below: 0.1}}", "expected a value >= 1"),
    ],
)
def test_validate_places_a_study_the_engine_cannot_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], study: str, said: str
) -> None:
    folder = _game_with(tmp_path, study)
    line = (folder / "game.yaml").read_text().splitlines().index(study) + 1
    assert main(["validate", str(folder)]) == 2
    (err,) = [text for text in capsys.readouterr().err.splitlines() if not text.startswith("note:")]
    assert f"game.yaml:{line}:5: studies[0]: " in err and said in err, err


def test_a_study_aiming_at_no_metric_is_a_data_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _game_with(tmp_path, "  - {vary: [rules.turn_cap=20..40:20], aim: {figure: fun, below: 0.1}}")
    assert main(["validate", str(folder)]) == 2
    (err,) = [text for text in capsys.readouterr().err.splitlines() if not text.startswith("note:")]
    assert "game.yaml:" in err and "studies[0].aim.figure" in err and "'stalemates'" in err, err


@pytest.mark.slow
def test_balance_plays_the_studies_and_explains_them_in_every_report(tmp_path: Path) -> None:
    study = (
        "  - {why: Fewer stalemates?, vary: [rules.idle_turns_to_stalemate=2..5:3], games: 12, "
        "aim: {figure: stalemates, below: 0.5}}\n"
    )
    folder = _game_with(tmp_path, study)
    out = tmp_path / "out"
    argv = ["balance", str(folder), "--games", "12", "--ladder", "2", "--card-value", "0", "--workers", "1"]
    assert main([*argv, "--out", str(out)]) == 0
    summary = json.loads((out / "soldier-battler" / "balance" / "results.json").read_text())["summary"]
    (played,) = summary["studies"]
    assert [p["values"]["rules.idle_turns_to_stalemate"] for p in played["sweep"]["points"]] == [2, 5]
    assert played["answer"] in summary["explained"]
    report = (out / "soldier-battler" / "balance" / "report.html").read_text()
    assert "Fewer stalemates?" in report and "What the figures say" in report
    assert "What the figures say" in (out / "balance-summary.html").read_text()
    assert main([*argv, "--no-studies", "--out", str(out)]) == 0
    assert "studies" not in json.loads((out / "soldier-battler" / "balance" / "results.json").read_text())["summary"]
