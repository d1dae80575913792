"""A designer's own project: init, new games with any name, project settings, layout overrides, bundled games."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest
import yaml
from pypdf import PdfReader

from printkit.cli import main
from printkit.core import project
from printkit.data import loader, scaffold
from printkit.data.loader import load_game
from printkit.draw.layout import layouts_for


@pytest.fixture
def studio(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty folder made a project, as the current folder."""
    folder = tmp_path / "studio"
    monkeypatch.chdir(tmp_path)
    assert main(["init", "studio"]) == 0
    monkeypatch.chdir(folder)
    return folder


NAMES = [
    "Chess: Reloaded",
    "Über Spiel: Édition 2!",
    "תורה טיימליין",
    "🎲 Dice & 🐉 Dragons",
    "O'Brien's \"Quest\"",
    "A" * 200,
    "東京ゲーム",
    "key: value # not a comment",
    "- [list, {map}]",
    "null",
    "yes",
    "123",
    "C:\\Windows\\path",
    "../../etc/passwd",
    "tab\tand\nnewline",
    "&anchor *alias",
    "%TAG !yaml",
    "Москва: Битва",
    "Donaudampfschifffahrtsgesellschaft",
    "  spaced   out  ",
]


def test_any_name_gives_a_game_that_validates_and_builds(studio: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name in NAMES:
        assert main(["new", name]) == 0, name
    capsys.readouterr()
    folders = sorted(p for p in (studio / "cards").iterdir())
    assert len(folders) == len(NAMES)
    for folder in folders:
        assert folder.name.isascii() and 0 < len(folder.name) <= scaffold.MAX_SLUG
        assert set(folder.name) <= set("abcdefghijklmnopqrstuvwxyz0123456789-")
        title = yaml.safe_load((folder / "game.yaml").read_text(encoding="utf-8"))["title"]
        assert isinstance(title, str) and " ".join(title.split()) == title
    titles = {load_game(f).title for f in folders}
    assert {" ".join(n.split()) for n in NAMES} == titles  # every name kept as typed, on one line
    assert (studio / "cards" / "uber-spiel-edition-2").is_dir()
    assert (studio / "cards" / "obriens-quest").is_dir()
    assert (studio / "cards" / "game-die-dice-dragon-dragons").is_dir()  # emoji have names
    assert main(["validate"]) == 0
    assert capsys.readouterr().out.count("ok  ") == len(NAMES)
    assert main(["build", "--only", "cards", "--paper", "a4", "--no-check"]) == 0
    assert len(list((studio / "output").glob("*/cards-a4.pdf"))) == len(NAMES)


@pytest.mark.parametrize("name", ["!!!", "→ ‼ •••", "   ", ""])
def test_a_name_with_no_letter_or_digit_is_one_line_exit_2(
    studio: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    assert main(["new", name]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "expected" in err
    assert not any((studio / "cards").iterdir())


def test_a_clashing_name_is_refused_and_nothing_overwritten(studio: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", "Chess: Reloaded"]) == 0
    game_yaml = studio / "cards" / "chess-reloaded" / "game.yaml"
    game_yaml.write_text(game_yaml.read_text() + "# mine\n")
    assert main(["new", "Chess Reloaded!"]) == 2
    assert "already exists" in capsys.readouterr().err
    assert game_yaml.read_text().endswith("# mine\n")


def test_the_schema_line_is_relative_and_survives_a_move(studio: Path, tmp_path: Path) -> None:
    assert main(["new", "Moving Game"]) == 0
    moved = tmp_path / "elsewhere" / "studio"
    shutil.copytree(studio, moved)
    for path in (moved / "cards" / "moving-game").glob("*.yaml"):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        ref = first.split("$schema=", 1)[1]
        assert not ref.startswith(("/", "file:")), first
        assert (path.parent / ref).resolve().is_file()
        assert (path.parent / ref).resolve().is_relative_to(moved.resolve())


def test_the_project_is_found_from_a_subfolder_and_gets_the_outputs(
    studio: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new", "Deep Game"]) == 0
    capsys.readouterr()
    monkeypatch.chdir(studio / "cards" / "deep-game")
    assert main(["list"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("deep-game") and "(bundled)" in out[-1]  # the project's games first
    assert main(["build", "--only", "cards,reference", "--no-check"]) == 0
    assert (studio / "output" / "deep-game" / "cards-a4.pdf").is_file()
    index = (studio / "output" / "reference" / "index.html").read_text()
    assert 'href="deep-game/index.html"' in index


def test_project_settings_win_over_the_game_and_lose_to_the_command_line(studio: Path) -> None:
    assert main(["new", "Tall Cards"]) == 0
    (studio / "printkit.toml").write_text('[print]\ncard_size = "tarot"\nbleed = "2mm"\npaper = "letter"\n')
    assert main(["build", "--only", "cards", "--no-check", "--bleed", "1mm"]) == 0
    settings = json.loads((studio / "output" / "tall-cards" / "components.json").read_text())["print"]
    assert settings["card_size"] == "tarot" and settings["bleed_mm"] == 1.0 and settings["paper"] == ["letter"]
    assert not (studio / "output" / "tall-cards" / "cards-a4.pdf").exists()


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        (
            '[print]\ncard_size = "poker"\ncolor = "red"\n',
            "printkit.toml:3:1: print.color: not a print setting (expected one of: paper,",
        ),
        ('[print]\nbleed = "9mm"\n', "printkit.toml:2:1: print.bleed: expected a bleed from 0mm to 5mm, found '9mm'"),
        ('[print]\npaper = "a3"\n', "printkit.toml:2:1: print.paper: expected a4, letter or both"),
        ("[print\n", "printkit.toml:1:7: expected TOML"),
        ("[printing]\n", "printkit.toml:1:1: unknown project setting 'printing'"),
    ],
)
def test_a_bad_project_setting_is_one_placed_line(
    studio: Path, capsys: pytest.CaptureFixture[str], config: str, expected: str
) -> None:
    assert main(["new", "Some Game"]) == 0
    capsys.readouterr()
    (studio / "printkit.toml").write_text(config)
    assert main(["build", "--no-check"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(expected), err
    assert not (studio / "output").exists()


def test_project_and_game_layouts_override_the_built_in_ones(studio: Path) -> None:
    assert main(["new", "Stamped"]) == 0
    game = studio / "cards" / "stamped"
    # the project changes one region of the built-in `plain` layout and adds one
    (studio / "layouts" / "plain.yaml").write_text(
        "extends: plain\nregions:\n"
        "  text: {colour: '#aa0000'}\n"
        "  stamp: {type: text, x: 6mm, y: 40mm, w: 51.5mm, h: 6mm, text: PROJECT STAMP, size: 8, order: 20}\n"
    )
    # the game's own layouts/ win over both: its back says so
    (game / "layouts").mkdir()
    (game / "layouts" / "back.yaml").write_text("extends: back\nregions:\n  title: {text: GAME OWN BACK}\n")
    loaded = load_game(game, project.find())
    layouts = layouts_for(loaded, {"plain", "back"})
    plain = dict(layouts["plain"].regions)
    assert plain["text"].colour == "#aa0000" and plain["text"].font == "sans"  # the rest of the region kept
    assert "art" in plain and "stamp" in plain  # the built-in regions and the new one
    assert layouts["plain"].files[0] == studio / "layouts" / "plain.yaml"
    assert layouts["back"].files[0] == game / "layouts" / "back.yaml"
    assert main(["build", "--only", "cards", "--paper", "a4", "--no-check"]) == 0
    reader = PdfReader(io.BytesIO((studio / "output" / "stamped" / "cards-a4.pdf").read_bytes()))
    text = " ".join(" ".join(page.extract_text() for page in reader.pages).split())
    assert "PROJECT STAMP" in text and "GAME OWN BACK" in text


def test_a_project_game_hides_the_bundled_one_of_its_name_with_a_note(
    studio: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new", "Battle Line"]) == 0
    assert "bundled game" in capsys.readouterr().err
    assert main(["validate", "battle-line"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("ok  cards/battle-line: Battle Line, 3 cards")
    assert "note: battle-line is this project's cards/battle-line" in err
    assert main(["validate", "soldier-battler"]) == 0  # a bundled game, reached by its name
    assert "soldier-battler (bundled)" in capsys.readouterr().out


def test_two_games_of_one_name_would_share_an_output_folder(studio: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", "Twin", "--dir", "a"]) == 0
    assert main(["new", "Twin", "--dir", "b"]) == 0
    capsys.readouterr()
    assert main(["build", "a/twin", "b/twin", "--no-check"]) == 2
    assert "two games named twin" in capsys.readouterr().err
    assert not (studio / "output").exists()


def test_an_empty_project_says_how_to_start(studio: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["build"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "printkit new" in err


def test_init_refuses_an_existing_project(studio: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["init", "."]) == 2
    assert "printkit.toml: this folder is a printkit project already" in capsys.readouterr().err


def test_a_pyproject_with_a_printkit_table_is_a_project(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "my-games"\n\n[tool.printkit.print]\ncard_size = "mini"\nbleed = "7mm"\n'
    )
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    found = project.find()
    assert found.root == tmp_path.resolve() and found.section("print")["card_size"] == "mini"
    assert main(["new", "Small Cards"]) == 0
    assert (tmp_path / "cards" / "small-cards" / "game.yaml").is_file()
    capsys.readouterr()
    assert main(["build", "--no-check"]) == 2
    err = capsys.readouterr().err
    bleed = "print.bleed: expected a bleed from 0mm to 5mm, found '7mm'"
    assert err == f"{tmp_path / 'pyproject.toml'}:6:1: {bleed} [printkit help project]\n"


def test_another_tools_broken_pyproject_is_not_printkits_business(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "pyproject.toml").write_text("[project\nname = 'broken'\n")
    monkeypatch.chdir(tmp_path)
    assert project.find().config is None


def test_a_projects_print_shop_list_replaces_printkits_and_its_mistakes_are_placed(
    studio: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new", "Shop Game"]) == 0
    spec = "local:\n  name: Corner Shop\n  dpi: 300\n  cut: 30\n  safe: 60\n  templates: {poker: [810, 1110]}\n"
    (studio / "layouts" / "printshops.yaml").write_text(spec + '  files: "{index:03d}.png"\n')
    assert main(["export", "printshop", "shop-game", "--service", "local"]) == 0
    assert (studio / "output" / "shop-game" / "printshop" / "local.zip").is_file()
    assert main(["export", "printshop", "shop-game", "--service", "mpc"]) == 2  # the project's list is the list
    capsys.readouterr()
    (studio / "layouts" / "printshops.yaml").write_text(spec.replace("poker", "pokr") + '  files: "{index}.png"\n')
    assert main(["export", "printshop", "shop-game", "--service", "local"]) == 2
    assert capsys.readouterr().err.startswith("layouts/printshops.yaml:6:14: templates: expected a card size")


def test_the_engine_is_the_one_game_yaml_names_not_the_folder_name(
    studio: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new", "Battle Line"]) == 0  # the project's own battle-line: plain cards, no engine
    assert main(["build", "battle-line", "--only", "cards"]) == 0
    assert main(["check", "battle-line", "--games", "2"]) == 0
    assert "no engine plays this game yet" in capsys.readouterr().out
    game_yaml = studio / "cards" / "battle-line" / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("players: 2", "players: 2\nengine: battle-line"))
    assert main(["check", "battle-line", "--games", "2"]) == 1
    out = capsys.readouterr().out
    assert "error: battle-line: the battle-line engine cannot play this game's data" in out and "Traceback" not in out
    assert main(["simulate", "battle-line", "--games", "2"]) == 2
    note, error = capsys.readouterr().err.splitlines()
    assert note.startswith("note: battle-line is this project's") and "cannot play this game's data" in error
    game_yaml.write_text(game_yaml.read_text().replace("engine: battle-line", "engine: chess"))
    assert main(["simulate", "battle-line", "--games", "2"]) == 2
    assert "no engine 'chess'" in capsys.readouterr().err


def test_init_refuses_a_pyproject_project_and_keeps_a_gitignore(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "pyproject.toml").write_text('[tool.printkit.print]\ncard_size = "tarot"\n')
    assert main(["init", str(tmp_path / "a")]) == 2
    assert "a printkit project already" in capsys.readouterr().err
    assert not (tmp_path / "a" / "printkit.toml").exists()
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / ".gitignore").write_text("*.pyc")
    assert main(["init", str(tmp_path / "b")]) == 0
    assert (tmp_path / "b" / ".gitignore").read_text().splitlines()[:2] == [
        "*.pyc",
        "# what printkit makes: build it again with `printkit build`",
    ]
    assert "output/" in (tmp_path / "b" / ".gitignore").read_text()


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--card-size", "5000x5000"], "--card-size: expected a card's sides from 10 to 280 mm"),
        (["--card-size", "200x270"], "printkit: big: a 200.0 x 270.0 mm piece with 3.0 mm bleed"),
        (["--offset", "nan,0"], "--offset: expected X,Y in millimetres"),
    ],
)
def test_impossible_sizes_and_offsets_are_one_line(
    studio: Path, capsys: pytest.CaptureFixture[str], args: list[str], expected: str
) -> None:
    assert main(["new", "Big"]) == 0
    capsys.readouterr()
    assert main(["build", "--no-check", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and expected in err, err
    assert not (studio / "output").exists()


def test_a_png_of_too_many_pixels_is_refused(studio: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", "Big"]) == 0
    capsys.readouterr()
    assert main(["export", "png", "big", "--card-size", "250x250", "--dpi", "1200"]) == 2
    assert "choose a lower --dpi" in capsys.readouterr().err
    assert not (studio / "output").exists()


def test_a_setting_in_an_inline_table_is_placed_on_its_line(studio: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", "Inline"]) == 0
    capsys.readouterr()
    (studio / "printkit.toml").write_text('# settings\n\nprint = {bleed = "3mm", paper = ["a4", "b5"]}\n')
    assert main(["build", "--no-check"]) == 2
    assert capsys.readouterr().err.startswith("printkit.toml:3:25: print.paper:")


def test_bundled_games_look_as_shipped_in_a_project_with_its_own_layouts(studio: Path) -> None:
    (studio / "layouts" / "troop.yaml").write_text("extends: troop\nregions:\n  name: {colour: '#ff00ff'}\n")
    (studio / "layouts" / "plain.yaml").write_text("extends: plain\nregions:\n  text: {colour: '#ff00ff'}\n")
    assert main(["new", "Mine"]) == 0
    here = project.find()
    bundled = load_game(loader.find("battle-line", here).folder, here)
    mine = load_game(studio / "cards" / "mine", here)
    assert studio / "layouts" not in bundled.layout_folders
    assert mine.layout_folders[0] == studio / "layouts"


def test_a_name_windows_keeps_for_a_device_gets_a_suffix(studio: Path) -> None:
    assert main(["new", "CON"]) == 0
    assert (studio / "cards" / "con-game").is_dir()
