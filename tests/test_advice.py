"""Warnings for data that prints, but likely not as meant: a card two decks take, a field no layout shows."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from pypdf import PdfReader

from printkit.cli import main


@pytest.fixture
def studio(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Path:
    monkeypatch.chdir(tmp_path)
    assert main(["init", "-q"]) == 0
    assert main(["new", "Advice Game", "-q"]) == 0
    capsys.readouterr()
    return tmp_path / "cards" / "advice-game"


def _warnings(capsys: pytest.CaptureFixture[str]) -> list[str]:
    assert main(["validate"]) == 0
    return [line for line in capsys.readouterr().err.splitlines() if line.startswith("warning: ")]


def test_a_card_two_decks_take_is_a_warning_unless_it_says_so(studio: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game_yaml = studio / "game.yaml"
    game_yaml.write_text(
        game_yaml.read_text()
        + "  - {id: promo, name: Promo, back: {title: Promo, colour: '#445566'}, cards: [first-card]}\n"
    )
    (warning,) = _warnings(capsys)
    line = game_yaml.read_text().splitlines().index(next(x for x in game_yaml.read_text().splitlines() if "promo" in x))
    assert warning.startswith(f"warning: cards/advice-game/game.yaml:{line + 1}:5: decks main and promo both take")
    assert "first-card" in warning and "second-card" not in warning and "shared: true" in warning
    cards = studio / "cards.yaml"
    cards.write_text(cards.read_text().replace("    copies: 2\n", "    copies: 2\n    shared: true\n"))
    assert _warnings(capsys) == []


def test_mirrored_decks_and_the_bundled_games_give_no_warning(capsys: pytest.CaptureFixture[str]) -> None:
    # Soldier Battler's and Time Line Battle's armies take the same cards, one deck a player
    assert main(["validate", "soldier-battler", "time-line-battle", "battle-line", "time-line", "torah-timeline"]) == 0
    assert "warning" not in capsys.readouterr().err


def test_a_field_no_layout_shows_is_a_warning_naming_it(studio: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cards = studio / "cards.yaml"
    cards.write_text(cards.read_text().replace("    copies: 2\n", "    copies: 2\n    flavour: Dust and old songs.\n"))
    assert _warnings(capsys) == []  # the plain layout prints a flavour line
    assert main(["build", "--only", "cards", "--paper", "a4", "--no-check", "-q"]) == 0
    reader = PdfReader(io.BytesIO(Path("output/advice-game/cards-a4.pdf").read_bytes()))
    assert "Dust and old songs." in " ".join(reader.pages[0].extract_text().split())

    (Path("layouts") / "plain.yaml").write_text(  # a layout of the designer's own, without flavour or stats
        "regions:\n  name: {type: text, x: 5mm, y: 5mm, w: 50mm, h: 8mm, text: '{name}'}\n"
        "  text: {type: text, x: 5mm, y: 20mm, w: 50mm, h: 40mm, text: '{text}'}\n"
    )
    warnings = _warnings(capsys)
    assert (
        "warning: cards/advice-game/cards.yaml:3:5: card first-card: field flavour is set, but its layout plain"
        in (warnings[0])
    )
    assert sorted(w.split(": field ")[1].split()[0] for w in warnings) == ["flavour", "stats", "stats"]


def test_a_card_no_deck_takes_is_a_warning_and_an_import_refuses_it(
    studio: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game_yaml = studio / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("include: {kind: plain}", "cards: [first-card]"))
    (warning,) = _warnings(capsys)
    assert "cards/advice-game/cards.yaml:10:5: no deck takes second-card, so it never prints" in warning
    sheet = studio.parent.parent / "sheet.csv"
    sheet.write_text("id,kind,name\nfirst-card,plain,First\nlost,plain,Lost\n")
    before = (studio / "cards.yaml").read_text()
    assert main(["import", "csv", str(sheet), "--into", "advice-game"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--allow-orphans" in err
    assert err.startswith("sheet.csv:3:2: cards[1].kind: no deck of advice-game takes card 'lost' (plain)")  # its row
    assert (studio / "cards.yaml").read_text() == before
    assert main(["import", "csv", str(sheet), "--into", "advice-game", "--allow-orphans"]) == 0
    assert "lost" in (studio / "cards.yaml").read_text()


def test_the_warning_names_the_layout_the_card_is_drawn_by_and_stands_beside_errors(
    studio: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cards = studio / "cards.yaml"
    long_text = " ".join(["far too many words for one small box"] * 20)
    cards.write_text(
        cards.read_text()
        .replace("    copies: 2\n", "    copies: 2\n    flavour: Dust and old songs.\n")
        .replace("Every card needs an id of its own.", long_text)
    )
    (Path("layouts") / "noflav.yaml").write_text(
        "regions:\n  name: {type: text, x: 5mm, y: 5mm, w: 50mm, h: 8mm, text: '{name}'}\n"
        "  text: {type: text, x: 5mm, y: 20mm, w: 50mm, h: 10mm, text: '{text}', min_size: 6}\n"
        "  power: {type: text, x: 5mm, y: 40mm, w: 50mm, h: 8mm, text: '{stats.power}'}\n"
    )
    game_yaml = studio / "game.yaml"
    game_yaml.write_text(game_yaml.read_text() + "layouts: {plain: noflav}\n")
    assert main(["validate"]) == 2  # the second card's text cannot fit its box
    err = capsys.readouterr().err
    assert "second-card" in err and "fit" in err
    # the first card drew whole: its unshown field is still said, by the layout's own name
    assert "card first-card: field flavour is set, but its layout noflav never shows it" in err
    assert not [line for line in err.splitlines() if "second-card" in line and "is set, but" in line]  # not judged
