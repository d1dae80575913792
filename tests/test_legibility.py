"""No printed text under 6 pt: every glyph of every card and counter sheet, read back from the PDFs."""

from __future__ import annotations

import ctypes
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest

from printkit.cli import main
from printkit.data.game import Game
from printkit.data.settings import CARD_SIZES_MM, PrintSettings, card_size
from printkit.draw.layout import SMALLEST_TEXT
from printkit.sheets import cardsheets, counters
from printkit.sheets.cardsheets import Selection


def _smallest_text(pdf: bytes) -> float:
    """The smallest font size of any glyph on any page, in points as printed."""
    smallest = float("inf")
    for page in pdfium.PdfDocument(pdf):
        text = page.get_textpage()
        for i in range(text.count_chars()):
            if text.get_text_range(i, 1).strip():
                smallest = min(smallest, raw.FPDFText_GetFontSize(text, ctypes.c_int(i)))
    return smallest


@pytest.mark.parametrize("size", ["poker", "mini"])
def test_no_glyph_on_a_card_or_counter_sheet_is_under_6_pt(games: dict[str, Game], size: str) -> None:
    assert size in CARD_SIZES_MM
    settings = PrintSettings(card=card_size(size))
    for game in games.values():
        pdf, _ = cardsheets.build(game, settings, "a4", Selection())
        assert _smallest_text(pdf) >= SMALLEST_TEXT - 0.01, (game.slug, size)
        made = counters.build(game, settings, "a4")
        if made is not None:
            assert _smallest_text(made[0]) >= SMALLEST_TEXT - 0.01, game.slug


def test_a_layout_asking_for_smaller_text_is_warned_and_drawn_at_6_pt(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["new", "Tiny Print"]) == 0
    (tmp_path / "layouts").mkdir(exist_ok=True)
    (tmp_path / "layouts" / "plain.yaml").write_text("extends: plain\nregions:\n  footer: {size: 4, min_size: 3.5}\n")
    capsys.readouterr()
    assert main(["validate", "tiny-print"]) == 0
    err = capsys.readouterr().err
    assert "warning: layouts/plain.yaml:3:18: region footer: size 4 pt is under the 6 pt" in err, err
    assert "warning: layouts/plain.yaml:3:31: region footer: min_size 3.5 pt is under the 6 pt" in err, err
    from printkit.data.loader import load_game

    pdf, _ = cardsheets.build(load_game(tmp_path / "cards" / "tiny-print"), PrintSettings(), "a4", Selection())
    assert _smallest_text(pdf) >= SMALLEST_TEXT - 0.01
