"""Engines as plug-ins: a game's own engine runs only where the project trusts its folder, the starter with an
engine plays like a bundled game, and the conformance kit names a broken engine's failures by seed and action."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import conformance, registry
from engine.starters import duel
from printkit.cli import main
from printkit.core import project
from printkit.data import enginecards
from printkit.data.loader import load_game

NAME = "Duel Test"
SLUG = "duel-test"


@pytest.fixture
def studio(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Path:
    """A project with the starter that has an engine of its own, trusted as `printkit new` trusts it."""
    monkeypatch.chdir(tmp_path)
    assert main(["init", "-q"]) == 0
    assert main(["new", NAME, "--starter", "engine"]) == 0
    assert 'trusted = ["duel-test"]' in (tmp_path / "printkit.toml").read_text()
    capsys.readouterr()
    return tmp_path


def _untrust(studio: Path) -> None:
    config = studio / "printkit.toml"
    text = config.read_text()
    config.write_text(text[: text.index("[engines]")])


def test_the_installed_engines_are_printkit_s_five_and_its_rules_language() -> None:
    assert registry.registered() == [
        "battle-line",
        "play",
        "soldier-battler",
        "time-line",
        "time-line-battle",
        "torah-timeline",
    ]


def test_a_game_s_own_engine_plays_like_a_bundled_one(studio: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = load_game(studio / "cards" / SLUG)
    assert game.engine is not None and game.engine.name == "duel"
    assert main(["validate"]) == 0
    assert main(["engine-test", SLUG, "--seeds", "12"]) == 0
    assert "ok  duel-test: the duel engine keeps the game API in 12 random games" in capsys.readouterr().out
    assert main(["simulate", SLUG, "--games", "60", "--workers", "2", "-q"]) == 0
    results = json.loads((studio / "output" / SLUG / "balance" / "results.json").read_text())
    assert len(results["games"]) == 60
    assert main(["check", SLUG, "--games", "20"]) == 0
    assert main(["replay", SLUG, "--seed", "3"]) == 0
    assert "result:" in capsys.readouterr().out
    assert main(["balance", SLUG, "--games", "20", "--ladder", "0", "--card-value", "0", "-q"]) == 0
    assert main(["build", "--only", "cards", "--paper", "a4", "-q"]) == 0  # with the build's quick check by play


@pytest.mark.parametrize("command", [["validate"], ["build", "--only", "cards"], ["simulate", SLUG], ["check", SLUG]])
def test_an_untrusted_game_s_engine_is_refused_in_one_line(
    studio: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    _untrust(studio)
    assert main(command) == 2
    err = [line for line in capsys.readouterr().err.splitlines() if not line.startswith("note: ")]
    assert len(err) == 1, err
    line = (studio / "cards" / SLUG / "game.yaml").read_text().splitlines().index("engine_file: engine.py") + 1
    assert err[0].startswith(f"cards/{SLUG}/game.yaml:{line}:14: engine_file: engine.py is code from the game's folder")
    assert "trusted under [engines] in printkit.toml, or give --trust" in err[0]


def test_trust_for_one_run(studio: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _untrust(studio)
    assert main(["validate", SLUG, "--trust"]) == 0
    enginecards._trusted_now.clear()  # a run's trust ends with the run
    assert main(["validate", SLUG]) == 2
    # a command of one game, whose --games is a count, not names
    assert main(["simulate", SLUG, "--games", "10", "--trust", "-q"]) == 0
    enginecards._trusted_now.clear()
    assert main(["simulate", SLUG, "--games", "10", "-q"]) == 2


def test_an_engine_module_that_does_not_run_is_one_placed_line(
    studio: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    module = studio / "cards" / SLUG / "engine.py"
    module.write_text("raise RuntimeError('the rules are not written yet')\n")
    enginecards._modules.clear()
    assert main(["validate"]) == 2
    err = capsys.readouterr().err
    assert "engine_file: engine.py stopped as it ran: RuntimeError: the rules are not written yet" in err
    assert "Traceback" not in err
    module.write_text("ENGINE = 3\n")
    enginecards._modules.clear()
    assert main(["validate"]) == 2
    assert "ENGINE gives int, not an engine" in capsys.readouterr().err


def test_a_game_without_an_engine_claims_no_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["init", "-q"]) == 0
    assert main(["new", "Plain Game", "-q"]) == 0
    capsys.readouterr()
    assert main(["check"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "plain-game: not played: no engine plays this game yet: nothing checked by play [printkit help rules-language]"
    ]
    assert main(["balance", "--games", "20"]) == 0
    assert "plain-game: not played: no engine plays this game (game.yaml names none)" in capsys.readouterr().out
    summary = (tmp_path / "output" / "balance-summary.html").read_text()
    assert "Each game played" not in summary and "Not played, as no engine plays it: plain-game." in summary


def _leaky(module: Any, planted: str) -> Any:
    """The starter's game with a bug planted: a clone that shares its hands, or a late deal whose odds add up to
    less than one."""

    class Leaky(module.DuelState):  # type: ignore[misc, name-defined]
        def clone(self) -> Leaky:
            other = super().clone()
            other.__class__ = Leaky
            if planted == "clone":
                other.hands = self.hands  # the same lists: a move on the clone plays from the source's hand
            return other

        def chance_outcomes(self) -> list[tuple[int, float]]:
            found = super().chance_outcomes()
            return [(a, p * 0.9) for a, p in found] if planted == "odds" and self.dealt >= 4 else found

    class LeakyGame(module.DuelGame):  # type: ignore[misc, name-defined]
        def new_initial_state(self) -> Leaky:
            state = Leaky.__new__(Leaky)
            module.DuelState.__init__(state, self)
            return state

    return LeakyGame


@pytest.mark.parametrize(
    ("planted", "first"),
    [
        ("odds", "seed 0, action 4: chance's outcomes add up to 0.9"),
        ("clone", "seed 0, action 0: a clone's move changed its source"),
    ],
)
def test_the_kit_names_each_broken_promise_with_its_seed_and_action(studio: Path, planted: str, first: str) -> None:
    game = load_game(studio / "cards" / SLUG, project.at(studio))
    assert game.engine is not None
    module = sys.modules[game.engine.build.__module__]  # the game's own engine.py, as the loader ran it
    failures = conformance.check(_leaky(module, planted)(game), 3)
    assert str(failures[0]).startswith(first), [str(f) for f in failures]
    assert {f.seed for f in failures} == {0, 1, 2}
    assert conformance.check(module.DuelGame(game), 3) == []
    assert Path(module.__file__).read_text() == Path(duel.__file__).read_text()  # the starter's engine is printkit's
