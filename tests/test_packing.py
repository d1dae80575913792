"""Counters and tokens of every size share pages: read back from the PDFs, no two overlap, all lie within
the printer margin, crop marks stay off the art, and every reverse lands behind its front."""

from __future__ import annotations

import io
import itertools
import random
import shutil
from dataclasses import replace
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from printkit.core.units import MM
from printkit.data.game import Game
from printkit.data.loader import load_game
from printkit.data.settings import PAPERS, PrintSettings
from printkit.sheets import counters, pieces

ROOT = Path(__file__).resolve().parent.parent
Box = tuple[float, float, float, float]


def _forms(pdf: bytes) -> dict[int, list[Box]]:
    """Per page (1-based), the box each placed piece's drawing covers: its trim and its bleed."""
    doc = pdfium.PdfDocument(pdf)
    return {
        number: [tuple(o.get_bounds()) for o in page.get_objects(max_depth=1) if o.type == raw.FPDF_PAGEOBJ_FORM]
        for number, page in enumerate(doc, 1)
    }


def _hairlines(pdf: bytes, page: int) -> list[Box]:
    doc = pdfium.PdfDocument(pdf)
    bounds = [tuple(o.get_bounds()) for o in doc[page - 1].get_objects(max_depth=1) if o.type == raw.FPDF_PAGEOBJ_PATH]
    return [b for b in bounds if (b[2] - b[0]) < 1 or (b[3] - b[1]) < 1]


def _trim(box: Box, bleed: float) -> Box:
    return box[0] + bleed, box[1] + bleed, box[2] - bleed, box[3] - bleed


def _overlap(a: Box, b: Box) -> float:
    return min(min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1]))


@pytest.fixture(scope="module")
def two_sided_mix(tmp_path_factory: pytest.TempPathFactory) -> Game:
    """Time Line Battle with a reverse on some of its counters of each size: fronts and backs of three sizes."""
    folder = tmp_path_factory.mktemp("mix") / "time-line-battle"
    shutil.copytree(ROOT / "cards" / "time-line-battle", folder)
    game_yaml = folder / "game.yaml"
    text = game_yaml.read_text()
    for ident in ("damage-2", "damage-5", "start-player-marker"):
        line = next(line for line in text.splitlines() if line.lstrip().startswith(f"- {{id: {ident},"))
        text = text.replace(line, line.rstrip().rstrip("}") + ", reverse: Spent}")
    game_yaml.write_text(text)
    return load_game(folder)


@pytest.mark.parametrize("paper", list(PAPERS))
@pytest.mark.parametrize("duplex", ["long", "short", "none"])
def test_packed_counters_never_overlap_and_keep_the_margin(
    games: dict[str, Game], two_sided_mix: Game, paper: str, duplex: str
) -> None:
    pw, ph = PAPERS[paper]
    for game in [*games.values(), two_sided_mix]:
        settings = replace(PrintSettings(), duplex=duplex)
        built = counters.build(game, settings, paper)
        if built is None:
            continue
        pdf, manifest = built
        bleed, margin = manifest.bleed, settings.ink_margin
        expected = sum(game.printed_count(c) for c in game.info.components if c.kind in counters.KINDS)
        faces = [s for s in manifest.slots if s["side"] == "face"]
        assert len(faces) == expected, game.slug
        forms = _forms(pdf)
        assert sum(len(forms[s_page]) for s_page in {s["page"] for s in faces}) == expected  # drawn, each once
        for number, boxes in forms.items():
            for box in boxes:  # the art, bleed included, inside the printer margin
                assert box[0] >= margin - 0.01 and box[1] >= margin - 0.01, (game.slug, number)
                assert box[2] <= pw - margin + 0.01 and box[3] <= ph - margin + 0.01, (game.slug, number)
            for a, b in itertools.combinations(boxes, 2):  # trims apart: one piece's cut never crosses another
                assert _overlap(_trim(a, bleed), _trim(b, bleed)) <= 0.01, (game.slug, number, a, b)
            trims = [_trim(box, bleed) for box in boxes]
            for mark in _hairlines(pdf, number):  # crop marks beside the pieces, never on one's trim
                assert all(_overlap(mark, trim) < -0.01 or _overlap(mark, trim) <= 0 for trim in trims)
                assert mark[0] >= margin - 0.5 and mark[1] >= margin - 0.5, (game.slug, number, mark)
                assert mark[2] <= pw - margin + 0.5 and mark[3] <= ph - margin + 0.5, (game.slug, number, mark)


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_every_reverse_lands_behind_its_front_on_a_packed_page(two_sided_mix: Game, duplex: str) -> None:
    pw, ph = PAPERS["a4"]
    pdf, manifest = counters.build(two_sided_mix, replace(PrintSettings(), duplex=duplex), "a4") or (b"", None)
    assert manifest is not None
    forms = _forms(pdf)
    sizes = {s["page"]: set() for s in manifest.slots}
    for s in manifest.slots:
        sizes[s["page"]].add(round(s["w"], 1))
    assert len(sizes[1]) == 3  # three sizes of piece on one face page
    backs = [s for s in manifest.slots if s["side"] == "back"]
    assert {s["id"] for s in backs} == {"damage-2", "damage-5", "start-player-marker"}
    face_boxes, back_boxes = forms[1], forms[2]
    assert len(back_boxes) == len(backs)
    centres = [((f[0] + f[2]) / 2, (f[1] + f[3]) / 2) for f in face_boxes]
    for box in back_boxes:  # each back's centre, turned over the edge, on a front's centre
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        landed = (pw - cx, cy) if duplex == "long" else (cx, ph - cy)
        assert any(abs(landed[0] - fx) < 0.05 and abs(landed[1] - fy) < 0.05 for fx, fy in centres), box


def test_time_line_battles_counters_share_one_page(games: dict[str, Game]) -> None:
    # 57 counters and tokens of three sizes: before packing, a page for each size, each nearly empty
    for paper in PAPERS:
        pdf, manifest = counters.build(games["time-line-battle"], PrintSettings(), paper) or (b"", None)
        assert manifest is not None and len(pdfium.PdfDocument(pdf)) == 1
        assert len({round(s["w"], 1) for s in manifest.slots}) == 3


def test_the_packer_on_seeded_random_pieces(games: dict[str, Game]) -> None:
    """Pieces of random sizes and sides: every one placed once, inside the area, no two trims overlapping, and
    no page holding fewer pieces than the next needs (pages filled before a new one starts)."""
    base = counters.counter_pieces(games["time-line"])
    single = next(p for p in base if p.back is None)
    double = next(p for p in base if p.back is not None)
    rng = random.Random(18)
    for trial in range(40):
        items = []
        for size in sorted({rng.choice((10, 12.7, 15.9, 19.1, 25.4, 38.1)) for _ in range(rng.randint(1, 4))})[::-1]:
            for n in range(rng.randint(1, 90)):
                model = double if rng.random() < 0.4 else single
                items.append(replace(model, size=(size * MM, size * MM), copy=n))
        settings = replace(PrintSettings(), cuts=rng.choice(("auto", "shared", "separate")))
        page = PAPERS[rng.choice(list(PAPERS))]
        area = pieces.printable(page, settings)
        laid = pieces.plan(page, settings, items, area, pack=True)
        assert sum(len(chunk) for bands in laid for _, chunk in bands) == len(items), trial
        for bands in laid:
            boxes = []
            for grid, chunk in bands:
                assert len(chunk) <= grid.per_page
                x0, y0, x1, y1 = grid.block()
                assert x0 >= area[0] - 1e-6 and y0 >= area[1] - 1e-6 and x1 <= area[2] + 1e-6 and y1 <= area[3] + 1e-6
                for index in range(len(chunk)):
                    x, y = grid.slot(index)
                    boxes.append((x, y, x + grid.slot_w, y + grid.slot_h))
                for mark in pieces.geometry.crop_marks(grid):  # a band's marks stay in its own strip
                    assert grid.area[1] - 1e-6 <= min(mark[1], mark[3]) and max(mark[1], mark[3]) <= grid.area[3] + 1e-6
            for a, b in itertools.combinations(boxes, 2):
                assert _overlap(a, b) <= 1e-6, trial
            strips = sorted((grid.area for grid, _ in bands), key=lambda a: -a[3])
            for upper, lower in itertools.pairwise(strips):  # bands stacked, never over one another
                assert lower[3] <= upper[1] + 1e-6


def test_a_piece_too_tall_for_a_bands_room_gets_a_page_of_its_own(games: dict[str, Game]) -> None:
    # 277 mm high: the page's grid holds it with a crop mark's room on one side, a band (room both sides) not
    model = next(p for p in counters.counter_pieces(games["time-line"]) if p.back is None)
    items = [replace(model, size=(60 * MM, 277 * MM), copy=n) for n in range(2)]  # fewer than a page holds
    page = PAPERS["a4"]
    settings = replace(PrintSettings(), cuts="shared")
    laid = pieces.plan(page, settings, items, pieces.printable(page, settings), pack=True)
    assert [sum(len(chunk) for _, chunk in bands) for bands in laid] == [2]


def _back_pixels(pdf: bytes, manifest: pieces.Manifest, scale: float = 1.0) -> dict[tuple[str, int], tuple[int, ...]]:
    """Per card (id, copy), the colour its back shows just inside the middle of its left edge, read from the PDF
    (a back's frame is one colour all round, so a back lying on its side shows the same there)."""
    doc = pdfium.PdfDocument(pdf)
    images: dict[int, object] = {}
    out = {}
    for s in manifest.slots:
        if s["side"] != "back":
            continue
        if s["page"] not in images:
            images[s["page"]] = doc[s["page"] - 1].render(scale=scale).to_pil().convert("RGB")
        image = images[s["page"]]
        height = doc[s["page"] - 1].get_size()[1]
        x, y = s["x"] + 1.5 * MM, s["y"] + s["h"] / 2  # PDF points, from the bottom
        out[s["id"], s["copy"]] = image.getpixel((int(x * scale), int((height - y) * scale)))  # type: ignore[attr-defined]
    return out


@pytest.mark.parametrize("paper", ["letter"])
@pytest.mark.parametrize("duplex", ["long", "short"])
def test_a_deck_goes_on_where_the_one_before_left_room(games: dict[str, Game], paper: str, duplex: str) -> None:
    """Battle Line's Tactics go on in the last Troops page's empty slots on Letter, a row's width after the last
    Troop (their backs differ): fewer pages than each deck starting its own, and every back, read from the PDF,
    behind its own face and of its own deck. (On A4 that row's width leaves no room: each deck takes its own.)"""
    from printkit.sheets import cardsheets

    game = games["battle-line"]
    settings = replace(PrintSettings(), duplex=duplex)
    pdf, manifest = cardsheets.build(game, settings, paper)
    alone = {
        deck.deck.id: cardsheets.build(game, settings, paper, cardsheets.Selection(decks=(deck.deck.id,)))
        for deck in game.decks
    }
    assert len(pdfium.PdfDocument(pdf)) < sum(len(pdfium.PdfDocument(p)) for p, _ in alone.values())
    faces = {(s["id"], s["copy"]): s for s in manifest.slots if s["side"] == "face"}
    decks_on = {
        page: {s["group"] for s in faces.values() if s["page"] == page} for page in {s["page"] for s in faces.values()}
    }
    assert any(len(groups) > 1 for groups in decks_on.values())
    pw, ph = PAPERS[paper]
    for back in (s for s in manifest.slots if s["side"] == "back"):
        face = faces[back["id"], back["copy"]]
        assert back["page"] == face["page"] + 1
        landed = (
            (pw - back["x"] - back["w"], back["y"]) if duplex == "long" else (back["x"], ph - back["y"] - back["h"])
        )
        assert abs(landed[0] - face["x"]) < 0.01 and abs(landed[1] - face["y"]) < 0.01, back
    # each back shows its own deck's back: the colour a page of that deck alone shows at the same place
    shown = _back_pixels(pdf, manifest)
    for deck, (alone_pdf, alone_manifest) in alone.items():
        own = set(_back_pixels(alone_pdf, alone_manifest).values())
        assert len(own) == 1, deck  # one back design a deck
        mine = [key for key, s in faces.items() if s["group"] == deck]
        assert {shown[key] for key in mine} == own, deck


def test_decks_keep_pages_of_their_own_where_sharing_saves_none(games: dict[str, Game]) -> None:
    """Time Line's 39 and 35 cards take as many pages each starting its own as going on: no page mixes them."""
    from printkit.sheets import cardsheets

    for paper in PAPERS:
        _, manifest = cardsheets.build(games["time-line"], PrintSettings(), paper)
        faces = [s for s in manifest.slots if s["side"] == "face"]
        for page in {s["page"] for s in faces}:
            assert len({s["group"] for s in faces if s["page"] == page}) == 1, (paper, page)


@pytest.fixture(scope="module")
def torah_two_sided(tmp_path_factory: pytest.TempPathFactory) -> Game:
    """Torah Timeline with a reverse on both its markers: counters with backs on the cards' last page."""
    folder = tmp_path_factory.mktemp("torah") / "torah-timeline"
    shutil.copytree(ROOT / "cards" / "torah-timeline", folder)
    game_yaml = folder / "game.yaml"
    text = game_yaml.read_text()
    for ident in ("token-marker", "action-marker"):
        line = next(line for line in text.splitlines() if line.lstrip().startswith(f"- {{id: {ident},"))
        text = text.replace(line, line.rstrip().rstrip("}") + ", reverse: Spent}")
    game_yaml.write_text(text)
    return load_game(folder)


def _clips(pdf: bytes, page: int) -> list[Box]:
    """The art box each piece on a page is clipped to, in drawing order: the rectangle clipped to before it is
    placed, read from the content stream (a drawing's own bounds may run past it, as a back's pattern does)."""
    reader = PdfReader(io.BytesIO(pdf))
    clips: list[Box] = []
    last: Box | None = None
    for operands, operator in ContentStream(reader.pages[page - 1].get_contents(), reader).operations:
        if operator == b"re":
            x, y, w, h = (float(v) for v in operands)
            last = (x, y, x + w, y + h)
        elif operator in (b"W", b"W*") and last is not None:
            clips.append(last)
        elif operator != b"n":
            last = None
    return clips


def _apart(mark: Box, boxes: list[Box]) -> bool:
    """A crop mark (a hairline, its width included) touches none of the boxes."""
    return all(_overlap(mark, box) <= 0.2 for box in boxes)


@pytest.mark.parametrize("paper", list(PAPERS))
@pytest.mark.parametrize("duplex", ["long", "short"])
@pytest.mark.parametrize("cuts", ["shared", "separate"])
def test_counters_that_fit_print_below_the_cards_on_their_last_page(
    games: dict[str, Game], torah_two_sided: Game, paper: str, duplex: str, cuts: str
) -> None:
    """Torah Timeline's four markers, read back from the card sheet: on the page of the last cards, apart from
    every card's art, within the printer margin, with crop marks on their cut lines crossing no trim, and a
    reverse behind its face for either duplex edge. Before, they printed alone on a page of a counter sheet."""
    from printkit.sheets import cardsheets

    pw, ph = PAPERS[paper]
    settings = replace(PrintSettings(), duplex=duplex, cuts=cuts)
    margin = settings.ink_margin
    for game in (games["torah-timeline"], torah_two_sided):
        pdf, manifest = cardsheets.build(game, settings, paper)
        bleed, cards = manifest.bleed, {card.id for card in game.cards}
        faces = [s for s in manifest.slots if s["side"] == "face"]
        markers = [s for s in faces if s["id"] not in cards]
        assert sorted(s["id"] for s in markers) == ["action-marker"] * 2 + ["token-marker"] * 2, game.folder
        last = max(s["page"] for s in faces if s["id"] in cards)
        assert {s["page"] for s in markers} == {last}  # no page of their own
        assert len(pdfium.PdfDocument(pdf)) == len({s["page"] for s in manifest.slots})
        assert cardsheets.counters_aboard(game, settings, paper) == 4
        for number in (last, last + 1):
            slots = [s for s in manifest.slots if s["page"] == number and s["id"] not in cards]
            if number == last + 1 and game is games["torah-timeline"]:
                assert not slots  # no reverse: the back page holds the cards' backs only
                continue
            assert len(slots) == 4, (game.folder, number)
            trims = [(s["x"], s["y"], s["x"] + s["w"], s["y"] + s["h"]) for s in slots]
            arts = [(x0 - bleed, y0 - bleed, x1 + bleed, y1 + bleed) for x0, y0, x1, y1 in trims]
            boxes = _clips(pdf, number)  # where each piece may draw: cards and markers
            others = [box for box in boxes if all(_overlap(box, trim) <= 0 for trim in trims)]
            assert len(others) == len(boxes) - 4  # the cards: none reaches into a marker's trim
            for box in boxes:  # every piece's art inside the printer margin
                assert box[0] >= margin - 0.01 and box[1] >= margin - 0.01, (number, box)
                assert box[2] <= pw - margin + 0.01 and box[3] <= ph - margin + 0.01, (number, box)
            for art in arts:  # apart from every card's art: a cut round a marker misses the cards
                assert all(_overlap(art, card) < 0 for card in others), (number, art)
            for a, b in itertools.combinations(trims, 2):
                assert _overlap(a, b) <= 0.01
            marks = _hairlines(pdf, number)
            card_trims = [
                (s["x"], s["y"], s["x"] + s["w"], s["y"] + s["h"])
                for s in manifest.slots
                if s["page"] == number and s["id"] in cards
            ]
            for mark in marks:  # off every piece's trim, card or marker (over a sheet's outer bleed at most)
                assert _apart(mark, card_trims + trims), (number, mark)
                assert mark[0] >= margin - 0.5 and mark[1] >= margin - 0.5 and mark[2] <= pw - margin + 0.5
                assert mark[3] <= ph - margin + 0.5
            top, bottom = max(t[3] for t in trims), min(t[1] for t in trims)
            left, right = min(t[0] for t in trims), max(t[2] for t in trims)
            for x0, y0, x1, y1 in trims:  # a mark on each cut line, beyond the markers' trims
                for x in (x0, x1):
                    assert any(abs(m[0] - x) < 0.3 and (m[1] >= top or m[3] <= bottom) for m in marks), (number, x)
                for y in (y0, y1):
                    assert any(abs(m[1] - y) < 0.3 and (m[0] >= right or m[2] <= left) for m in marks), (number, y)
        if game is torah_two_sided:  # each reverse, turned over the edge, lands on its own face
            backs = [s for s in manifest.slots if s["side"] == "back" and s["id"] not in cards]
            assert len(backs) == 4 and {s["page"] for s in backs} == {last + 1}
            for back in backs:
                landed = (
                    (pw - back["x"] - back["w"], back["y"])
                    if duplex == "long"
                    else (back["x"], ph - back["y"] - back["h"])
                )
                face = [s for s in markers if (s["id"], s["copy"]) == (back["id"], back["copy"])]
                assert landed == pytest.approx((face[0]["x"], face[0]["y"]), abs=0.05)
            small = 25 * MM  # a marker's art, bleed included, is narrower; a card's wider
            centres = [((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b in _forms(pdf)[last] if b[2] - b[0] < small]
            for b in (b for b in _forms(pdf)[last + 1] if b[2] - b[0] < small):  # and so it is drawn
                cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
                turned = (pw - cx, cy) if duplex == "long" else (cx, ph - cy)
                assert any(abs(turned[0] - fx) < 0.05 and abs(turned[1] - fy) < 0.05 for fx, fy in centres), b


def test_counters_keep_a_sheet_of_their_own_where_they_do_not_fit(games: dict[str, Game]) -> None:
    """Soldier Battler's 40 tokens and Time Line's 250 counters do not fit the room its cards leave; a fold-over
    card sheet and a run of chosen cards never take the counters."""
    from printkit.sheets import cardsheets

    for slug in ("soldier-battler", "time-line"):
        for paper in PAPERS:
            _, manifest = cardsheets.build(games[slug], PrintSettings(), paper)
            cards = {card.id for card in games[slug].cards}
            assert all(s["id"] in cards for s in manifest.slots), (slug, paper)
            assert cardsheets.counters_aboard(games[slug], PrintSettings(), paper) == 0
    torah = games["torah-timeline"]
    folded = replace(PrintSettings(), foldover=True)
    assert cardsheets.counters_aboard(torah, folded, "a4") == 0
    assert cardsheets.counters_aboard(torah, PrintSettings(), "a4", cardsheets.Selection(copies=2)) == 0
    _, manifest = cardsheets.build(torah, folded, "a4")
    assert all(s["id"] in {card.id for card in torah.cards} for s in manifest.slots)
