"""Card faces read back as drawn: text in even lines, room a short text leaves given to the emblem, no footer."""

from __future__ import annotations

import io
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from printkit.cli import main
from printkit.data.game import Game
from printkit.data.layoutfile import Region
from printkit.data.settings import POKER
from printkit.draw import flow, fonts, raster, textfit
from printkit.draw.layout import Box


def _face(game: Game, card_id: str) -> bytes:
    deck = next(d for d in game.decks if any(c.id == card_id for c, _ in d.entries))
    card = next(c for c, _ in deck.entries if c.id == card_id)
    return raster.card_pdf(game, deck, card, (POKER.width, POKER.height), 0.0)


def _top_of_text(pdf: bytes, word: str) -> float:
    """How far below the card's top edge, in points, the first character of word's first line is drawn."""
    page = pdfium.PdfDocument(pdf)[0]
    text = page.get_textpage()
    found = text.get_text_range().find(word)
    assert found >= 0, word
    _, _, _, top = text.get_charbox(found)
    return page.get_height() - top


def test_balanced_lines_are_even_and_as_many_as_greedy_ones() -> None:
    text = "Attack the Front enemy for 2. Enemy damage aimed at your other Characters goes to your Front instead."
    width = 170.0  # greedy: three full lines over a short fourth
    greedy = textfit.fit(text, "sans", width, 1e6, 10, 10, 1.2)
    even = textfit.fit(text, "sans", width, 1e6, 10, 10, 1.2, balance=True)
    assert greedy is not None and even is not None
    assert len(even.lines) == len(greedy.lines) >= 3
    assert min(greedy.widths) / max(greedy.widths) < 0.6  # greedy: full lines over a short last one
    assert min(even.widths) / max(even.widths) > 0.8
    assert max(even.widths) <= width
    space = fonts.width(" ", "sans", 10)
    # and as narrow as it can be: one point less and the words take another line
    narrower = textfit.fit(text, "sans", max(even.widths) - space, 1e6, 10, 10, 1.2)
    assert narrower is not None and len(narrower.lines) > len(even.lines)


def _box(name: str, y: float, h: float, x: float = 10.0, w: float = 100.0, **spec: object) -> Box:
    return Box(name, Region.model_validate(spec), x, y, w, h)


def test_a_short_text_gives_its_room_to_the_emblem_above_and_its_box_shrinks() -> None:
    rule = _box("rule", 50, 0, type="line", room_from="effect")
    medal = _box("medal", 30, 40, x=40, w=40, type="badge", room_from="effect")
    panel = _box("panel", 95, 100, x=5, w=110, type="box", room_from="effect")
    effect = _box("effect", 100, 90, type="text")
    still = _box("title", 0, 20, type="text")
    boxes = (still, rule, medal, panel, effect)
    moved = {b.name: b for b in flow.flowed(boxes, {}, lambda b: 30.0)}
    assert moved["title"] == still
    room = moved["effect"].y - effect.y
    assert room > 0 and moved["effect"].h == pytest.approx(effect.h - room)
    assert moved["effect"].h >= 30.0  # the text keeps what it needs
    assert moved["panel"].y == pytest.approx(panel.y + room) and moved["panel"].h == pytest.approx(panel.h - room)
    grown = moved["medal"]
    assert grown.w / medal.w == pytest.approx(grown.h / medal.h) and grown.w / medal.w == pytest.approx(
        flow.MOST_GROWTH
    )  # grown in shape, up to the cap
    assert grown.x + grown.w / 2 == pytest.approx(medal.x + medal.w / 2)  # about its own centre
    assert grown.y + grown.h <= moved["effect"].y  # still above the text
    assert moved["rule"].w == rule.w and moved["rule"].y > rule.y  # a rule moves down, keeps its length
    # a text that fills its box, or a card with nothing drawn above it, moves nothing
    assert flow.flowed(boxes, {}, lambda b: 90.0) == boxes
    assert flow.flowed((still, panel, effect), {}, lambda b: 30.0) == (still, panel, effect)


def test_a_short_ability_sits_lower_under_a_larger_emblem_than_a_long_one(games: dict[str, Game]) -> None:
    """Read back from the PDFs: Rogue's one-line ability starts lower on its card than Deflector's long one, and
    Rogue's emblem icon is drawn larger."""
    game = games["time-line-battle"]
    rogue, deflector = _face(game, "rogue"), _face(game, "deflector")
    assert _top_of_text(rogue, "Attack") > _top_of_text(deflector, "Attack") + 30

    def icon_height(pdf: bytes) -> int:  # the emblem's icon: the dark ink down the card's middle, above the text
        image = raster.render_pdf(pdf, 72)  # a pixel a point
        below_title, above_text = 20 * 72 // 25, int(_top_of_text(pdf, "Attack")) - 4
        column = [image.getpixel((image.width // 2, y)) for y in range(below_title, above_text)]
        dark = [y for y, pixel in enumerate(column) if sum(pixel) < 400]
        return max(dark) - min(dark) if dark else 0

    assert icon_height(deflector) > 10
    assert icon_height(rogue) > icon_height(deflector) * 1.2


def test_no_face_prints_the_games_name_and_every_back_does(games: dict[str, Game]) -> None:
    """The game's name belongs on the back: a face repeated it in a 6 pt footer on every card."""
    for slug in ("time-line-battle", "torah-timeline", "battle-line"):
        game = games[slug]
        for deck in game.decks:
            for card, _ in deck.entries[:3]:
                face = " ".join(PdfReader(io.BytesIO(_face(game, card.id))).pages[0].extract_text().split())
                assert game.title not in face, (slug, card.id, face)


def test_room_from_naming_no_text_region_is_refused_at_its_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["new", "My Game"]) == 0
    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / "plain.yaml").write_text("extends: plain\nregions:\n  art: {room_from: panel}\n")
    capsys.readouterr()
    assert main(["validate", "my-game"]) == 2
    err = capsys.readouterr().err.strip()
    expected = "layouts/plain.yaml:3:20: regions.art.room_from: expected a text region of this layout ("
    assert err.startswith(expected), err
    assert "found 'panel'" in err and "Traceback" not in err and len(err.splitlines()) == 1
