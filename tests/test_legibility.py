"""No printed text under 6 pt: every glyph of every card and counter sheet, read back from the PDFs."""

from __future__ import annotations

import ctypes
import os
from collections.abc import Iterator
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest

from printkit import build
from printkit.cli import main
from printkit.core.units import MM
from printkit.data.game import Game
from printkit.data.settings import CARD_SIZES_MM, PrintSettings, card_size
from printkit.draw.layout import SMALLEST_TEXT
from printkit.sheets import boards, calibration, cardsheets, counters
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


def _validated_with_stats(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, stats: str
) -> str:
    """A new game whose project's plain layout changes its stats region; what validate says of it."""
    monkeypatch.chdir(tmp_path)
    if not (tmp_path / "cards" / "my-game").is_dir():
        assert main(["new", "My Game"]) == 0
    (tmp_path / "layouts").mkdir(exist_ok=True)
    (tmp_path / "layouts" / "plain.yaml").write_text(f"extends: plain\nregions:\n  stats: {stats}\n")
    capsys.readouterr()
    assert main(["validate", "my-game"]) == 0
    return capsys.readouterr().err


def test_boards_and_the_calibration_page_print_no_glyph_under_6_pt(games: dict[str, Game]) -> None:
    for game in games.values():
        made = boards.build(game, "a4")
        if made is not None:
            assert _smallest_text(made[0]) >= SMALLEST_TEXT - 0.01, game.slug
    assert _smallest_text(calibration.build("a4", "long")) >= SMALLEST_TEXT - 0.01


def test_a_layout_asking_for_smaller_text_is_warned_and_drawn_at_6_pt(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    err = _validated_with_stats(tmp_path, capsys, monkeypatch, "{size: 4, min_size: 3.5}")
    assert "warning: layouts/plain.yaml:3:17: region stats: size 4 pt is under the 6 pt" in err, err
    assert "warning: layouts/plain.yaml:3:30: region stats: min_size 3.5 pt is under the 6 pt" in err, err
    from printkit.data.loader import load_game

    pdf, _ = cardsheets.build(load_game(tmp_path / "cards" / "my-game"), PrintSettings(), "a4", Selection())
    assert _smallest_text(pdf) >= SMALLEST_TEXT - 0.01


def test_contrast_is_wcag_s_ratio() -> None:
    from reportlab.lib.colors import HexColor

    from printkit.draw import legibility

    assert legibility.contrast(HexColor("#000000"), HexColor("#ffffff")) == pytest.approx(21.0)
    assert legibility.contrast(HexColor("#777777"), HexColor("#ffffff")) == pytest.approx(4.48, abs=0.01)
    assert legibility.contrast(HexColor("#d4ac0d"), HexColor(legibility.PAPER)) == pytest.approx(2.04, abs=0.01)
    assert legibility.needed(13, "sans-bold") == 4.5 and legibility.needed(14, "sans-bold") == 3.0
    assert legibility.needed(17, "sans") == 4.5 and legibility.needed(18, "sans") == 3.0
    # auto: ink on a light colour, paper on a dark one
    assert legibility.readable(HexColor("#d4ac0d")) == HexColor(legibility.INK)
    assert legibility.readable(HexColor("#2471a3")) == HexColor(legibility.PAPER)


def test_low_contrast_text_is_a_warning_naming_region_colours_and_cards(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    err = _validated_with_stats(tmp_path, capsys, monkeypatch, "{colour: '#c8c8c8'}")
    expected = "warning: layouts/plain.yaml:3:19: layout plain, region stats: text #c8c8c8 on #fbf8f1 has a contrast"
    assert f"{expected} of 1.58:1" in err, err  # placed at the colour it names
    assert "under the 4.5:1 text of its size needs (cards first-card, second-card)" in err
    assert err.count("contrast") == 1
    err = _validated_with_stats(tmp_path, capsys, monkeypatch, "{colour: auto}")  # ink or paper, as reads best
    assert "contrast" not in err


def test_a_cards_frame_panel_and_emblem_stand_apart(games: dict[str, Game]) -> None:
    """Drawn and read back as pixels: on the first card of every deck, the coloured frame and the paper panel
    differ by at least 60/255 in some channel, and so do the panel and the darkest ink of the card's emblem or
    picture area, so none reads as a smudge of another (Battle Line's Tactics once had a picture area 10/255 off
    its panel)."""
    from printkit.core.units import MM
    from printkit.draw import raster
    from printkit.draw.layout import layouts_for

    dpi = 100
    size = PrintSettings().card_size

    def at(image: object, x_mm: float, y_mm: float) -> tuple[int, int, int]:
        return image.getpixel((round(x_mm * dpi / 25.4), round(y_mm * dpi / 25.4)))  # type: ignore[attr-defined]

    def apart(a: tuple[int, int, int], b: tuple[int, int, int]) -> int:
        return max(abs(p - q) for p, q in zip(a, b, strict=True))

    checked = 0
    for game in games.values():
        for deck in game.decks:
            card = deck.entries[0][0]
            layout = layouts_for(game, {card.kind})[card.kind]
            emblem = next((b for b in layout.boxes(size) if b.name in ("art", "art-icon", "weapon-icon")), None)
            if emblem is None or "panel" not in dict(layout.regions):
                continue
            image = raster.render_pdf(raster.card_pdf(game, deck, card, size, 0.0), dpi)
            frame, panel = at(image, 1.5, 44), at(image, 4.2, 60)
            inside = [
                at(image, (emblem.x + emblem.w * i / 8) / MM, (emblem.y + emblem.h * j / 8) / MM)
                for i in range(1, 8)
                for j in range(1, 8)
            ]
            assert apart(frame, panel) >= 60, (game.slug, deck.deck.id, frame, panel)
            assert max(apart(p, panel) for p in inside) >= 60, (game.slug, deck.deck.id, panel)
            checked += 1
    assert checked >= 6


def _board_names(pdf: bytes) -> list[tuple[str, tuple[float, ...], float, tuple[float, ...]]]:
    """Each board name's text as printed, read back from the PDF: (text, its colour, its size, the colour of the
    board's ground under it, the page's largest filled shape)."""
    import io

    from pdfminer.high_level import extract_pages
    from pdfminer.layout import LTChar, LTComponent, LTCurve

    def every(item: LTComponent) -> Iterator[LTComponent]:
        yield item
        for inner in item if hasattr(item, "__iter__") else ():
            yield from every(inner)

    found = []
    for page in extract_pages(io.BytesIO(pdf)):
        items = list(every(page))
        shapes = [(i.width * i.height, tuple(i.non_stroking_color)) for i in items if isinstance(i, LTCurve) and i.fill]
        ground = max(shapes)[1] if shapes else (1.0, 1.0, 1.0)
        names: dict[tuple[float, tuple[float, ...]], str] = {}
        for char in items:
            if isinstance(char, LTChar) and "Serif-Bold" in char.fontname:  # boards set their names so
                key = (round(char.size, 1), tuple(char.graphicstate.ncolor))
                names[key] = names.get(key, "") + char.get_text()
        found += [(text, colour, size, ground) for (size, colour), text in names.items()]
    return found


def test_each_boards_name_stands_out_from_its_ground(games: dict[str, Game]) -> None:
    """Time Line Battle's gold board names on their cream ground read 2.56:1 at 16 pt bold, under large text's 3:1."""
    from reportlab.lib.colors import Color

    from printkit.draw import legibility

    seen = 0
    for game in games.values():
        made = boards.build(game, "a4")
        if made is None:
            continue
        for text, colour, size, ground in _board_names(made[0]):
            ratio = legibility.contrast(Color(*colour), Color(*ground))
            assert ratio >= legibility.needed(size, "serif-bold"), (game.slug, text, size, round(ratio, 2))
            seen += 1
    assert seen >= 10


def test_a_kept_proof_says_its_warnings_again_and_a_changed_file_is_proofed_anew(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, own_cache: Path
) -> None:
    """A proof that found no problem is kept by its inputs: the second validate draws nothing and says the same."""
    first = _validated_with_stats(tmp_path, capsys, monkeypatch, "{colour: '#c8c8c8'}")
    assert "contrast of 1.58:1" in first
    kept = set((own_cache / "proofs").glob("*.json"))
    assert kept
    assert main(["validate", "my-game"]) == 0
    assert capsys.readouterr().err == first  # the kept notices, said again
    assert set((own_cache / "proofs").glob("*.json")) == kept  # nothing proofed anew
    cards = tmp_path / "cards" / "my-game" / "cards.yaml"
    cards.write_text(cards.read_text().replace("First Card", "First Card, Renamed"))
    assert main(["validate", "my-game"]) == 0
    assert "cards first-card, second-card" in capsys.readouterr().err
    assert len(set((own_cache / "proofs").glob("*.json")) - kept) == 1  # the changed game's own proof


def test_the_kept_proofs_are_bounded_the_least_recently_used_let_go_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A watch keeps a proof for each save: the cache keeps the newest KEPT_PROOFS, and one read again is new."""
    own_cache = tmp_path / "cache"  # this test's alone: the session's holds other tests' proofs
    monkeypatch.setenv("PRINTKIT_CACHE", str(own_cache))
    monkeypatch.setattr(build, "KEPT_PROOFS", 2)
    _validated_with_stats(tmp_path, capsys, monkeypatch, "{colour: '#c8c8c8'}")
    (first,) = (own_cache / "proofs").glob("*.json")
    os.utime(first, ns=(1, 1))  # long ago
    cards = tmp_path / "cards" / "my-game" / "cards.yaml"
    original = cards.read_text()
    cards.write_text(original.replace("First Card", "First Card, Renamed"))
    assert main(["validate", "my-game"]) == 0
    (second,) = set((own_cache / "proofs").glob("*.json")) - {first}
    cards.write_text(original)  # back as it was: its kept proof is read, and so used most recently
    assert main(["validate", "my-game"]) == 0
    os.utime(second, ns=(2, 2))  # older than the first, read just now
    cards.write_text(original.replace("First Card", "First Card, Third"))
    assert main(["validate", "my-game"]) == 0
    kept = set((own_cache / "proofs").glob("*.json"))
    assert len(kept) == 2 and first in kept and second not in kept


def test_cards_that_read_alike_have_the_same_contrast_findings(games: dict[str, Game]) -> None:
    """The proof works findings out once per reading (accent, regions drawn, texts printed, pictures set): every
    design of the bundled games, grouped so, has in each group the findings each of its designs has alone."""
    from printkit.draw import legibility

    size = card_size("poker").size
    groups: dict[tuple[object, ...], list[list[legibility.Finding]]] = {}
    designs = 0
    for game in games.values():
        for piece in cardsheets.card_pieces(game, size) + counters.counter_pieces(game):
            for design in (piece.face, piece.back):
                if design is None:
                    continue
                # as drawn, and in a pale accent under which many of the games' texts fall short
                for fields in (design.fields, {**design.fields, "accent": "#e8e4dc"}):
                    designs += 1
                    key = (id(design.layout), piece.size, legibility.reading(design.layout, fields, piece.size))
                    groups.setdefault(key, []).append(legibility.findings(design.layout, fields, piece.size))
    assert designs > 2 * len(groups)  # the grouping saves work: many designs to a reading
    assert any(found for group in groups.values() for found in group)  # some designs fall short: compared too
    for group in groups.values():
        assert all(found == group[0] for found in group)


def test_a_kind_of_card_stands_apart_from_the_paper_its_text_is_on(games: dict[str, Game]) -> None:
    """Battle Line's Tactics cards were beige on beige (#b09c6e around #fbf8f1, 2.5:1): read from a face as printed,
    the colour around each kind's panel stands 3:1 or more from the panel, as a large element should."""
    from reportlab.lib.colors import Color

    from printkit.draw import legibility, raster

    game = games["battle-line"]
    found = {}
    for deck in game.decks:
        card = deck.entries[0][0]
        size = PrintSettings().card_size
        face = raster.render_pdf(raster.card_pdf(game, deck, card, size, 3 * MM), 100)
        ground = face.crop((0, 0, face.width, 2))  # the bleed along the top
        dot = face.width / ((size[0] + 6 * MM) / MM)  # pixels a millimetre
        # the panel's edge, 4-5 mm in from the trim (the panel begins 3 mm in): paper, beside any art or number
        edge = face.crop((int(7 * dot), face.height * 3 // 10, int(8 * dot), face.height * 7 // 10))
        # each by its commonest colour
        pixels = [max(part.getcolors(1 << 16) or [], key=lambda counted: counted[0])[1] for part in (ground, edge)]
        as_colour = [Color(*(v / 255 for v in pixel)) for pixel in pixels]
        found[deck.deck.id] = legibility.contrast(*as_colour)
    assert set(found) == {"troops", "tactics"}
    assert all(ratio >= 3.0 for ratio in found.values()), found


def test_a_counters_figures_end_well_inside_its_trim(games: dict[str, Game]) -> None:
    """Time Line's unit counters printed their figures 1.33 mm from the trim, where a cut drifting a millimetre
    clips them: read from each unit counter's face as the PNG export draws it, the lowest ink of the figures lies
    1.8 mm or more inside the trim."""
    from printkit.draw import raster
    from printkit.sheets.designs import counter_faces

    game = games["time-line"]
    units = [face for face in counter_faces(game) if face.side == "front" and face.fields.get("stats")]
    assert len(units) >= 6
    dpi, bleed = 300, 3 * MM
    dot = dpi / 25.4  # pixels a millimetre
    for face, image in zip(units, raster.pictures(game, units, bleed, dpi), strict=True):
        rgb = image.convert("RGB")
        trim = face.size[1] / MM
        # the figures: the lowest paper-light pixel, 2 mm in from the sides, below the counter's middle
        left, right = int((3 + 2) * dot), int((3 + face.size[0] / MM - 2) * dot)
        rows = range(int((3 + trim / 2) * dot), int((3 + trim - 0.95) * dot))  # above the frame at 0.8 mm
        inked = [y for y in rows if any(sum(rgb.getpixel((x, y))) > 600 for x in range(left, right))]
        assert inked, face.name
        assert 3 + trim - (inked[-1] + 1) / dot >= 1.8, (face.name, 3 + trim - (inked[-1] + 1) / dot)
