"""Cut modes read back from the PDFs: separate cuts give every piece its own bleed and cut lines, auto keeps
the page count, and shared cuts between pieces of different colours are a warning naming them."""

from __future__ import annotations

import itertools
import re
import shutil
from dataclasses import replace
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest

from printkit.cli import main
from printkit.core.units import MM
from printkit.data.game import Game
from printkit.data.loader import load_game
from printkit.data.settings import PrintSettings
from printkit.sheets import cardsheets, counters

ROOT = Path(__file__).resolve().parent.parent
SCALE = 150 / 72  # pixels per point


def _pixel(image: object, x: float, y: float) -> tuple[int, int, int]:
    found = image.getpixel((round(x * SCALE), round(image.height - y * SCALE)))  # type: ignore[attr-defined]
    assert isinstance(found, tuple)
    return found[:3]


def _near(a: tuple[int, int, int], b: tuple[int, int, int]) -> bool:
    return max(abs(p - q) for p, q in zip(a, b, strict=True)) <= 12


def _edges(slot: dict[str, float], bleed: float) -> list[tuple[str, tuple[float, float], tuple[float, float]]]:
    """Each trim edge's midpoint, as a point half the bleed outside it and one just inside the trim."""
    x0, y0, x1, y1 = slot["x"], slot["y"], slot["x"] + slot["w"], slot["y"] + slot["h"]
    mx, my, out, into = (x0 + x1) / 2, (y0 + y1) / 2, bleed / 2, 0.6 * MM
    return [
        ("right", (x1 + out, my), (x1 - into, my)),
        ("left", (x0 - out, my), (x0 + into, my)),
        ("top", (mx, y1 + out), (mx, y1 - into)),
        ("bottom", (mx, y0 - out), (mx, y0 + into)),
    ]


def _marks(pdf: bytes, page: int) -> list[tuple[float, float, float, float]]:
    """The hairlines on a page (crop marks): each path object thinner than a point one way."""
    doc = pdfium.PdfDocument(pdf)
    bounds = [tuple(o.get_bounds()) for o in doc[page - 1].get_objects(max_depth=1) if o.type == raw.FPDF_PAGEOBJ_PATH]
    return [b for b in bounds if (b[2] - b[0]) < 1 or (b[3] - b[1]) < 1]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_separate_cuts_give_every_piece_its_own_bleed_and_its_own_cut_lines(games: dict[str, Game], paper: str) -> None:
    game = games["battle-line"]  # six troop colours, ten of each, side by side on a page
    settings = replace(PrintSettings(), cuts="separate")
    pdf, manifest = cardsheets.build(game, settings, paper)
    doc = pdfium.PdfDocument(pdf)
    bleed = manifest.bleed
    pages = sorted({s["page"] for s in manifest.slots if s["side"] == "face"})[:3]
    for page in pages:
        image = doc[page - 1].render(scale=SCALE).to_pil().convert("RGB")
        slots = [s for s in manifest.slots if s["page"] == page]
        for slot in slots:  # the bleed past every edge is the piece's own edge colour, a neighbour's never
            for edge, outside, inside in _edges(slot, bleed):
                assert _near(_pixel(image, *outside), _pixel(image, *inside)), (paper, page, slot["id"], edge)
        lefts = sorted({round(s["x"], 2) for s in slots})
        assert all(b - a >= slots[0]["w"] + 2 * bleed - 0.01 for a, b in itertools.pairwise(lefts))
        marks = _marks(pdf, page)
        art_top = max(s["y"] + s["h"] for s in slots) + bleed
        art_bottom = min(s["y"] for s in slots) - bleed
        for slot in slots:  # both side cuts of every piece have a guide above or below the art
            for x in (slot["x"], slot["x"] + slot["w"]):
                guides = [m for m in marks if abs(m[0] - x) < 0.3 and (m[1] >= art_top or m[3] <= art_bottom)]
                assert guides, (paper, page, slot["id"], x)


def test_shared_cuts_show_the_neighbours_colour_where_the_warning_says(games: dict[str, Game]) -> None:
    # Battle Line on A4 with shared cuts, as its print settings ask, keeps 9 cards a page:
    # R10 beside O1 has O1's orange past its right edge, which is what the warning is about
    pdf, manifest = cardsheets.build(games["battle-line"], replace(PrintSettings(), cuts="shared"), "a4")
    faces = [s for s in manifest.slots if s["side"] == "face"]
    r10 = next(s for s in faces if s["id"] == "R10")
    o1 = next(s for s in faces if s["id"] == "O1")
    assert o1["page"] == r10["page"] and abs(o1["x"] - (r10["x"] + r10["w"])) < 0.01  # neighbours on one cut
    image = pdfium.PdfDocument(pdf)[r10["page"] - 1].render(scale=SCALE).to_pil().convert("RGB")
    _, outside, inside = _edges(r10, manifest.bleed)[0]
    assert not _near(_pixel(image, *outside), _pixel(image, *inside))


def test_validate_warns_where_shared_cuts_join_colours_naming_the_pieces(capsys: pytest.CaptureFixture[str]) -> None:
    # the three games say cuts: shared in their print settings, a choice made: auto warns of it
    assert main(["validate", "battle-line", "torah-timeline", "time-line"]) == 0
    assert "shared cut lines join" not in capsys.readouterr().err
    assert main(["validate", "battle-line", "torah-timeline", "time-line", "--cuts", "auto"]) == 0
    err = capsys.readouterr().err
    joined = [line for line in err.splitlines() if "shared cut lines join" in line]
    found = {
        (m[1], m[2], int(m[3]))
        for line in joined
        if (m := re.search(r"/(\S+?)/\S+: (\w+) on (?:A4|Letter).*?join (\d+)", line))
    }
    # Battle Line on Letter, where separate cuts would take three more pages: 8 pairs of Troops of two colours
    # (no Troop meets a Tactics card: their backs differ, so the Tactics start a row's width of slots later)
    assert ("battle-line", "cards", 8) in found
    assert any(
        "torah-timeline" in line and "cards and counters on A4: shared cut lines join 12 pairs" in line
        for line in joined
    )
    assert ("time-line", "counters", 39) in found  # faces only: no two reverses of different colours meet
    battle_line = next(line for line in joined if "battle-line" in line)
    assert re.match(r"warning: cards/battle-line/troops\.yaml:\d+:\d+: cards on Letter: ", battle_line)
    assert (
        "R9|O1" in battle_line and "cuts: separate" in battle_line and "12 pages of faces instead of 9" in battle_line
    )
    assert main(["validate", "battle-line", "time-line", "--cuts", "separate"]) == 0
    assert "shared cut lines join" not in capsys.readouterr().err


def test_counters_riding_on_the_card_sheet_are_judged_where_they_print(games: dict[str, Game]) -> None:
    """Torah Timeline's cards with 52 of Time Line's one-sided counters (both sides' control markers, two period
    troops): on A4 the counters fit below the last cards only on shared cut lines, which join counters of
    different colours there; on a sheet of their own they would all get their own cut lines. The warning follows
    the card sheet (before, it judged the counters on a sheet they no longer print on, and said nothing)."""
    from printkit.sheets import joins, pieces

    settings = replace(PrintSettings(), papers=("a4",), cuts="auto")
    cards = cardsheets.card_pieces(games["torah-timeline"], settings.card_size)
    extra = [piece for piece in counters.counter_pieces(games["time-line"]) if piece.back is None][:52]
    riding = pieces.tuck((210 * MM, 297 * MM), settings, cards, extra)
    assert riding is not None
    ids = {piece.id for piece in extra}
    among_counters = [(a, b) for a, b in joins.joined(riding) if a.id in ids and b.id in ids]
    assert among_counters  # counters of different colours on shared cut lines below the cards
    lines = joins.warnings(games["torah-timeline"], settings, cards, extra)
    assert len(lines) == 1 and "cards and counters on A4" in lines[0]  # no warning for a sheet never printed
    count = int(re.search(r"join (\d+) pairs", lines[0]).group(1))  # type: ignore[union-attr]
    assert count == len(joins.joined(riding)) > len(joins.joined(riding)) - len(among_counters)


def test_build_warns_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    command = ["build", "battle-line", "--only", "cards", "--paper", "letter", "--cuts", "auto", "--no-check"]
    assert main([*command, "--out", str(out)]) == 0
    assert "cards on Letter: shared cut lines join 8 pairs" in capsys.readouterr().err


def test_auto_cuts_go_separate_wherever_no_page_is_lost(games: dict[str, Game]) -> None:
    # Torah Timeline's four markers fit one page either way: auto gives each its own cut lines
    pdf, manifest = counters.build(games["torah-timeline"], PrintSettings(), "a4") or (b"", None)
    assert manifest is not None
    slots = manifest.slots
    lefts = sorted(s["x"] for s in slots)
    assert len(slots) == 4 and all(
        b - a >= slots[0]["w"] + 2 * manifest.bleed - 0.01 for a, b in itertools.pairwise(lefts)
    )
    image = pdfium.PdfDocument(pdf)[0].render(scale=SCALE).to_pil().convert("RGB")
    square = {c.id for c in games["torah-timeline"].info.components if c.shape != "round"}
    for slot in (s for s in slots if s["id"] in square):  # a round token is cut round, inside its square
        around = [_pixel(image, *outside) for _, outside, _ in _edges(slot, manifest.bleed)]
        assert all(_near(ink, around[0]) and min(ink) < 230 for ink in around), (slot["id"], around)
    # and where separate cuts would cost a page, auto keeps the count: Battle Line's troops share theirs
    _, shared = cardsheets.build(games["battle-line"], PrintSettings(), "letter")
    _, apart = cardsheets.build(games["battle-line"], replace(PrintSettings(), cuts="separate"), "letter")
    pages = {name: len({s["page"] for s in m.slots}) for name, m in (("auto", shared), ("separate", apart))}
    assert pages["auto"] < pages["separate"]
    _, forced = cardsheets.build(games["torah-timeline"], replace(PrintSettings(), cuts="shared"), "a4")
    first = [s for s in forced.slots if s["page"] == 1]
    assert first[1]["x"] - first[0]["x"] == pytest.approx(first[0]["w"], abs=0.01)  # shared when asked


def test_cuts_are_a_print_setting_layered_like_the_others(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from printkit.core import project
    from printkit.data import settings

    folder = tmp_path / "battle-line"
    shutil.copytree(ROOT / "cards" / "battle-line", folder)
    game_yaml = folder / "game.yaml"
    text = game_yaml.read_text().replace("cuts: shared}", "cuts: separate}")
    game_yaml.write_text(text)
    game = load_game(folder)
    here = project.find(tmp_path)
    assert settings.resolve(game, here).cuts == "separate"
    assert settings.resolve(game, here, {"cuts": "shared"}).cuts == "shared"  # the command line wins
    assert settings.resolve(game, here).to_json()["cuts"] == "separate"
    game_yaml.write_text(text.replace("cuts: separate", "cuts: sideways"))
    assert main(["validate", str(folder)]) == 2
    err = [line for line in capsys.readouterr().err.strip().splitlines() if not line.startswith("note: ")]
    assert len(err) == 1 and re.search(r"game\.yaml:\d+:\d+: .*cuts", err[0]), err
    with pytest.raises(SystemExit):
        main(["build", "battle-line", "--cuts", "sideways"])


def test_pieces_of_one_colour_are_not_laid_out_to_look_for_joins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Cards of one face colour and one back: no cut can show a neighbour's colour, so no sheet is laid out to
    look (10,000 such cards took a second a paper); give one card a face of another colour and it is."""
    from printkit.sheets import joins, pieces

    monkeypatch.chdir(tmp_path)
    assert main(["init", "-q"]) == 0
    assert main(["new", "Plain", "-q"]) == 0
    game = load_game(tmp_path / "cards" / "plain")
    settings = PrintSettings(cuts="shared")
    cards = cardsheets.card_pieces(game, settings.card_size)
    laid: list[int] = []
    plan = pieces.plan
    monkeypatch.setattr(pieces, "plan", lambda *a, **k: laid.append(1) or plan(*a, **k))
    assert joins.warnings(game, settings, cards, []) == [] and laid == []  # its cards alone: one deck, one look
    other = replace(cards[0].face, key="face-other", fields={**cards[0].face.fields, "accent": "#123456"})
    mixed = [replace(cards[0], face=other), *cards[1:]]
    assert joins.edge_colour(other) != joins.edge_colour(cards[1].face)  # the starter's ground is its accent
    joins.warnings(game, settings, mixed, [])
    assert laid  # laid out to look, as the faces may now differ at a cut
