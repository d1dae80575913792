"""A game's card size reaches everything made from it: sheets, PNG, Tabletop Simulator, print shops, the reference."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from printkit.cli import main
from printkit.core.units import MM
from printkit.data.loader import load_game

DPI = 300


def _px(mm: float) -> int:
    return round(mm / 25.4 * DPI)


def _size(data: bytes | Path) -> tuple[int, int]:
    with Image.open(io.BytesIO(data) if isinstance(data, bytes) else data) as image:
        return image.size


@pytest.mark.parametrize(
    ("size", "mm", "where"),
    [("tarot", (70.0, 120.0), "game"), ("70x110", (70.0, 110.0), "project")],
)
def test_the_card_size_reaches_every_output(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    size: str,
    mm: tuple[float, float],
    where: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["init", "."]) == 0
    assert main(["new", "Big Cards"]) == 0
    game_yaml = tmp_path / "cards" / "big-cards" / "game.yaml"
    if where == "game":
        game_yaml.write_text(game_yaml.read_text().replace("card_size: poker", f"card_size: {size}"))
    else:  # the project's setting wins over the game's poker
        (tmp_path / "printkit.toml").write_text(f'[print]\ncard_size = "{size}"\n')
    w, h = mm
    out = tmp_path / "output" / "big-cards"

    assert main(["build", "--only", "cards,reference", "--paper", "a4", "--no-check"]) == 0
    slots = json.loads((out / "cards-a4.json").read_text())["slots"]
    # the new game's counter may ride on the card sheet's last page, at its own size: the cards are the rest
    pieces = {c.id for c in load_game(game_yaml.parent).info.components}
    cards = [s for s in slots if s["id"] not in pieces]
    assert cards and {(round(s["w"] / MM, 2), round(s["h"] / MM, 2)) for s in cards} == {(w, h)}

    thumbs = sorted((tmp_path / "output" / "reference" / "big-cards" / "cards").glob("*.png"))
    tw, th = _size(thumbs[0])
    assert tw / th == pytest.approx(w / h, rel=0.02)

    assert main(["export", "png", "big-cards"]) == 0
    assert _size(out / "png" / "main" / "001-first-card.png") == (_px(w + 6), _px(h + 6))  # 3 mm bleed each side
    assert main(["export", "png", "big-cards", "--no-bleed", "--dpi", "150"]) == 0
    assert _size(out / "png" / "main" / "back.png") == (round(w / 25.4 * 150), round(h / 25.4 * 150))

    assert main(["export", "tts", "big-cards"]) == 0
    deck = json.loads((out / "tts" / "main.json").read_text())["ObjectStates"][0]
    custom = next(iter(deck["CustomDeck"].values()))
    sw, sh = _size(out / "tts" / "main-sheet-1.png")
    cell = (sw / custom["NumWidth"], sh / custom["NumHeight"])
    assert cell[0] / cell[1] == pytest.approx(w / h, rel=0.01)

    capsys.readouterr()
    assert main(["export", "printshop", "big-cards", "--service", "mpc"]) == 0
    assert "compare them with the shop's own template" in capsys.readouterr().err
    with zipfile.ZipFile(out / "printshop" / "mpc.zip") as archive:
        images = [n for n in archive.namelist() if n.endswith(".png")]
        bleed_in = 36 / DPI
        expected = (round((w / 25.4 + 2 * bleed_in) * DPI), round((h / 25.4 + 2 * bleed_in) * DPI))
        assert {_size(archive.read(n)) for n in images} == {expected}
    trim = [float(v) for v in PdfReader(out / "printshop" / "mpc.pdf").pages[0].trimbox]
    assert ((trim[2] - trim[0]) / MM, (trim[3] - trim[1]) / MM) == pytest.approx((w, h), abs=0.05)
