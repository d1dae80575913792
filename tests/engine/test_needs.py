"""Each engine's declared needs: the booklet's assumptions are the options the engine plays by, and data that
validates plays while data outside the needs is refused with a line."""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import pytest

from engine import needs, registry
from engine.agents import RandomAgent
from engine.runner import play
from printkit.cli import main
from printkit.data.game import Game, reading_rules
from printkit.data.loader import bundled_games, load_game
from printkit.docs import rulesbook

ROOT = Path(__file__).resolve().parents[2]


def _printed_assumptions(game: Game) -> set[str]:
    """The rule options the booklet's Assumptions section states: each a bullet of its words for players (the
    booklet prints no option ids), every bullet one option's."""
    markdown = rulesbook.render_markdown(game)
    section = re.search(r"^# Assumptions\n(.*?)(?=^# |\Z)", markdown, flags=re.M | re.S)
    assert section is not None, f"{game.slug}: the booklet has no Assumptions section"
    bullets = [line[2:] for line in section.group(1).splitlines() if line.startswith("- ")]
    worded = {rulesbook.escape(rulesbook.player_text(r)): r.id for r in game.info.rules}
    assert all(bullet in worded for bullet in bullets), f"{game.slug}: a bullet that states no rule option"
    return {worded[bullet] for bullet in bullets}


@pytest.mark.parametrize("slug", [folder.name for folder in bundled_games()])
def test_the_booklets_assumptions_are_the_options_the_engine_plays_by(games: dict[str, Game], slug: str) -> None:
    """An assumption printed for players that the engine does not play by (or the reverse) misleads one of them."""
    game = games[slug]
    declared = needs.DECLARED[slug].assumptions()
    reconstructed = {r.id for r in game.info.rules if r.origin == "reconstructed"}
    assert _printed_assumptions(game) == declared & reconstructed


@pytest.mark.parametrize("slug", [folder.name for folder in bundled_games()])
def test_every_option_the_engine_reads_is_declared(games: dict[str, Game], slug: str) -> None:
    with reading_rules() as read:
        registry.build(games[slug])
    assert set(read) <= needs.DECLARED[slug].assumptions()


def _copy(tmp_path: Path, old: str, new: str) -> Path:
    folder = tmp_path / "line"
    shutil.copytree(ROOT / "cards" / "battle-line", folder)
    game_yaml = folder / "game.yaml"
    assert old in game_yaml.read_text()
    game_yaml.write_text(game_yaml.read_text().replace(old, new, 1))
    return folder


def test_a_battle_line_of_ten_flags_validates_and_plays(tmp_path: Path) -> None:
    """The action numbers are sized from the data's flags: every play at every flag is its own number.

    The printed flags follow (validate refuses a line whose tokens or strip say otherwise)."""
    folder = _copy(tmp_path, "{id: flags, value: 9,", "{id: flags, value: 10,")
    game_yaml = folder / "game.yaml"
    text = game_yaml.read_text().replace("kind: token, count: 9,", "kind: token, count: 10,")
    game_yaml.write_text(
        text.replace("{cell: 66x30mm, cols: 9, numbers: [1, 9]", "{cell: 66x30mm, cols: 10, numbers: [1, 10]")
    )
    assert main(["validate", str(folder)]) == 0
    game = registry.build(load_game(folder))
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.sample_chance(random.Random(1)))
    plays = [a for a in state.legal_actions() if state.action_to_string(a).endswith("at flag 10")]
    assert plays and len({state.action_to_string(a) for a in state.legal_actions()}) == len(state.legal_actions())
    for seed in range(5):
        assert play(game, [RandomAgent(), RandomAgent()], seed).end in ("normal", "stalemate")


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("{id: breakthrough, value: 3,", "{id: breakthrough, value: 12,", "needs at most flags (9), found 12"),
        ("{id: formation_size, value: 3,", "{id: formation_size, value: 11,", "needs at most 10, found 11"),
        ("{id: hand_size, value: 7,", "{id: hand_size, value: 31,", "needs at least 62 troop cards, found 60"),
        ("{id: turn_cap, value: 300,", "{id: turn_cap, value: many,", "expected a whole number"),
        (
            "{id: claims_automatic, value: true,",
            "{id: claims_automatic, value: false,",
            "claims_automatic: the battle-line engine plays true only, found false",
        ),
    ],
)
def test_data_outside_the_engines_needs_is_refused_at_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], old: str, new: str, expected: str
) -> None:
    folder = _copy(tmp_path, old, new)
    line = next(i for i, text in enumerate((folder / "game.yaml").read_text().splitlines(), 1) if new in text)
    assert main(["validate", str(folder)]) == 2
    err = [e for e in capsys.readouterr().err.splitlines() if not e.startswith(("note:", "warning:"))]
    assert len(err) == 1 and expected in err[0] and f"game.yaml:{line}:5: rules: " in err[0], err
    with pytest.raises(registry.EngineMismatch, match=re.escape(expected)):
        registry.build(load_game(folder))


def test_a_battle_line_missing_a_troop_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The engine deals every colour at every value: a troop taken out of the data must not be played."""
    folder = tmp_path / "line"
    shutil.copytree(ROOT / "cards" / "battle-line", folder)
    troops = folder / "troops.yaml"
    troops.write_text("".join(line for line in troops.read_text().splitlines(True) if "{id: G7," not in line))
    assert main(["validate", str(folder)]) == 2
    err = [e for e in capsys.readouterr().err.splitlines() if not e.startswith(("note:", "warning:"))]
    assert len(err) == 1 and "game.yaml:" in err[0] and "missing green 7" in err[0], err
