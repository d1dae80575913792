"""Board tiles read back from the PDFs: an even split with no thin strips, tiles and maps sharing pages without
overlapping, all inside the printable area, and fewer pages than a page a tile."""

from __future__ import annotations

import io
import itertools
import re
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from printkit.cli import main
from printkit.core.units import MM
from printkit.data.game import Game
from printkit.data.settings import PAPERS
from printkit.sheets import boards

Box = tuple[float, float, float, float]
ROOT = Path(__file__).resolve().parent.parent


def _clips(pdf: bytes) -> list[tuple[tuple[float, float], list[Box]]]:
    """Each page's size and the rectangles its content clips to: one per placed tile, read from the stream."""
    reader = PdfReader(io.BytesIO(pdf))
    out = []
    for page in reader.pages:
        rects: list[Box] = []
        last: Box | None = None
        for operands, operator in ContentStream(page.get_contents(), reader).operations:
            if operator == b"re":
                x, y, w, h = (float(v) for v in operands)
                last = (x, y, x + w, y + h)
            elif operator in (b"W", b"W*") and last is not None:
                rects.append(last)
            elif operator != b"n":
                last = None
        out.append(((float(page.mediabox.width), float(page.mediabox.height)), rects))
    return out


@pytest.mark.parametrize("paper", list(PAPERS))
def test_tiles_split_evenly_with_no_strip_under_a_quarter_page(games: dict[str, Game], paper: str) -> None:
    pw, ph = PAPERS[paper]
    checked = 0
    for game in games.values():
        built = boards.build(game, paper)
        if built is None:
            continue
        for part in built[1].parts:
            tiles = [p for p in part["pages"] if not p.get("map")]
            assert len({(t["w"], t["h"]) for t in tiles}) == 1, part["id"]  # one size: an even split
            w, h = tiles[0]["w"], tiles[0]["h"]
            # along a direction a part is split, no tile is a strip under a quarter of the page that way
            if part["tiles_across"] > 1:
                assert w >= 0.25 * min(pw, ph), (game.slug, part["id"], w / MM)
                checked += 1
            if part["tiles_down"] > 1:
                assert h >= 0.25 * min(pw, ph), (game.slug, part["id"], h / MM)
                checked += 1
    assert checked >= 5


@pytest.mark.parametrize("paper", list(PAPERS))
def test_tiles_and_maps_share_pages_without_overlapping_inside_the_margin(games: dict[str, Game], paper: str) -> None:
    for game in games.values():
        built = boards.build(game, paper)
        if built is None:
            continue
        pdf, manifest = built
        pages = _clips(pdf)
        tiles = [t for part in manifest.parts for t in part["pages"] if not t.get("map")]
        assert sum(len(rects) for _, rects in pages) == len(tiles), game.slug  # each tile drawn, each once
        for (pw, ph), rects in pages:
            for x0, y0, x1, y1 in rects:  # every tile inside the printable area
                assert x0 >= boards.MARGIN - 0.01 and y0 >= boards.MARGIN - 0.01, game.slug
                assert x1 <= pw - boards.MARGIN + 0.01 and y1 <= ph - boards.MARGIN + 0.01, game.slug
            for a, b in itertools.combinations(rects, 2):  # with a gap to cut along, label included
                apart_x = max(a[0], b[0]) - min(a[2], b[2])
                apart_y = max(a[1], b[1]) - min(a[3], b[3])
                assert apart_x >= boards.GAP - 0.01 or apart_y >= boards.GAP + boards.LABEL - 0.01, game.slug


@pytest.mark.parametrize("paper", list(PAPERS))
def test_battle_lines_flag_strip_is_one_page(games: dict[str, Game], paper: str) -> None:
    # 606 x 54 mm in three tiles: once a page each, filled 24, 24 and 6 %; now the three and their map on one
    pdf, manifest = boards.build(games["battle-line"], paper) or (b"", None)
    assert manifest is not None
    assert len(PdfReader(io.BytesIO(pdf)).pages) == 1
    assert sum(1 for p in manifest.parts[0]["pages"] if not p.get("map")) == 3


def test_fewer_pages_than_tiles_where_tiles_are_small(games: dict[str, Game]) -> None:
    for paper in PAPERS:
        pdf, manifest = boards.build(games["time-line-battle"], paper) or (b"", None)
        assert manifest is not None
        tiles = sum(1 for part in manifest.parts for p in part["pages"] if not p.get("map"))
        maps = sum(1 for part in manifest.parts for p in part["pages"] if p.get("map"))
        assert maps == sum(1 for part in manifest.parts if part["tiles_across"] * part["tiles_down"] > 1)
        assert len(PdfReader(io.BytesIO(pdf)).pages) < tiles + maps  # small parts share pages


def test_the_shelf_packer_keeps_order_and_room(games: dict[str, Game]) -> None:
    def item(w: float, h: float) -> boards.Item:
        return boards.Item(w * MM, h * MM, lambda c, x, y: {}, 0, "portrait")

    window = (190 * MM, 270 * MM)
    placed, rest = boards.shelves([item(100, 50), item(80, 40), item(100, 60), item(200, 10)], window)
    assert [(round(x / MM), round(y / MM)) for _, x, y in placed] == [(0, 0), (105, 0), (0, 55)]
    assert len(rest) == 1  # wider than the window: left for a page it fits
    pages = boards.pack([item(150, 100)] * 5, {"portrait": window, "landscape": window[::-1]})
    assert [len(p) for _, p in pages] == [2, 2, 1]


def test_a_board_whose_map_no_page_can_hold_is_one_placed_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "soldier-battler"
    shutil.copytree(ROOT / "cards" / "soldier-battler", folder)
    game_yaml = folder / "game.yaml"
    text = game_yaml.read_text()
    game_yaml.write_text(text.replace("cell: 70x95mm, cols: 3, rows: 3,", "cell: 70x95mm, cols: 3, rows: 60,"))
    assert main(["validate", str(folder)]) == 2
    err = [line for line in capsys.readouterr().err.splitlines() if not line.startswith(("note:", "warning:"))]
    assert err and all(re.match(r"^\S+game\.yaml:\d+:\d+: board battlefield: its assembly map: ", line) for line in err)
