"""A card value the edition chose where its source gives none is marked so on the card, in the booklet and site."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

from printkit.cli import main
from printkit.data.game import Game
from printkit.data.model import RECONSTRUCTED_MARK, RECONSTRUCTED_NOTE
from printkit.data.settings import POKER
from printkit.docs import cardfacts, rulesbook
from printkit.draw import raster

GAMES = Path(__file__).resolve().parent.parent / "cards"


def _face_text(game: Game, card_id: str) -> str:
    deck = next(d for d in game.decks if any(c.id == card_id for c, _ in d.entries))
    card = next(c for c, _ in deck.entries if c.id == card_id)
    pdf = raster.card_pdf(game, deck, card, (POKER.width, POKER.height), 0.0)
    return " ".join(PdfReader(io.BytesIO(pdf)).pages[0].extract_text().split())


def test_soldier_battler_says_which_values_are_reconstructed(games: dict[str, Game]) -> None:
    """The credit line promises soldier values marked as reconstructed: the data says which, the cards show it."""
    game = games["soldier-battler"]
    marked = {c.id for c in game.cards if "hp" in c.reconstructed}
    assert marked and marked != {c.id for c in game.cards}  # the Crossbowman's 40 HP is the seed's
    for card in game.cards:
        printed = "HP reconstructed" in _face_text(game, card.id)
        assert printed == (card.id in marked), card.id


def test_booklet_table_and_site_mark_the_values(games: dict[str, Game]) -> None:
    game = games["soldier-battler"]
    table = rulesbook.Helpers(game).cards("soldier")
    rows = {line.split("|")[1].strip(): line for line in table.splitlines() if line.startswith("| ")}
    for card in game.cards:
        hp_cell = rows[card.name].split("|")[3].strip()
        assert hp_cell.endswith(RECONSTRUCTED_MARK) == ("hp" in card.reconstructed), card.id
    assert table.rstrip().endswith(rulesbook.escape(RECONSTRUCTED_NOTE))
    card = next(c for c in game.cards if "hp" in c.reconstructed)
    facts = cardfacts.facts(game, card, [d for d in game.decks if any(c.id == card.id for c, _ in d.entries)])
    assert any(label == "HP" and "reconstructed" in value for label, value in facts.fields)
    # a table of cards with nothing reconstructed explains no mark
    plain = rulesbook.Helpers(games["battle-line"]).cards("troop")
    assert RECONSTRUCTED_MARK not in plain


def test_layout_that_never_marks_a_reconstructed_value_is_warned(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    game = tmp_path / "sb"
    shutil.copytree(GAMES / "soldier-battler", game)
    (game / "layouts").mkdir(exist_ok=True)
    # the game's own soldier layout: the bundled one without the label that names reconstructed HP
    source = (GAMES.parent / "layouts" / "soldier.yaml").read_text(encoding="utf-8")
    kept = [line for line in source.splitlines() if not line.startswith("  hp-reconstructed:")]
    (game / "layouts" / "soldier.yaml").write_text("\n".join(kept) + "\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["validate", "sb"]) == 0
    err = capsys.readouterr().err
    assert "card swordsman: hp is reconstructed and printed, but its layout soldier never marks it so" in err
    assert "card crossbowman" not in err  # its HP is the seed's; its reconstructed copies are not printed
