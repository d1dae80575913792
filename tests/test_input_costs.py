"""Input within the documented limits costs seconds, and input past them is refused in one placed line first."""

from __future__ import annotations

from pathlib import Path

import pytest

from printkit import build
from printkit.cli import main
from printkit.data import cards as cards_module
from printkit.data.loader import load_game
from printkit.data.settings import PrintSettings
from printkit.sheets import cardsheets, edges, joins, pieces


@pytest.fixture
def studio(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Path:
    """A project with one game, Big Game, whose cards.yaml each test writes; the current folder."""
    monkeypatch.chdir(tmp_path)
    assert main(["init", "."]) == 0
    assert main(["new", "Big Game"]) == 0
    capsys.readouterr()
    return tmp_path / "cards" / "big-game"


def _cards(game: Path, count: int, copies: int, extra: str = "") -> None:
    lines = "".join(f"  - {{id: c{i}, kind: plain, name: Card {i}, copies: {copies}{extra}}}\n" for i in range(count))
    (game / "cards.yaml").write_text("cards:\n" + lines)


def _refused(capsys: pytest.CaptureFixture[str], command: list[str], expected: str) -> str:
    assert main(command) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and expected in err and "Traceback" not in err, err
    return err


def test_copies_past_the_game_s_printed_cards_are_refused_at_the_copies_that_pass_them(
    studio: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """20 cards at 1,000 copies each is within the limit of a card and twice the game's: refused before a piece of
    its 20,000 is made (the audit's case took 66 s of CPU to be accepted)."""
    _cards(studio, 20, 1000)
    made: list[int] = []
    real = cardsheets.card_pieces

    def counted(*args: object, **kwargs: object) -> list[pieces.Piece]:
        out = real(*args, **kwargs)  # type: ignore[arg-type]
        made.append(len(out))
        return out

    monkeypatch.setattr(cardsheets, "card_pieces", counted)
    expected = "cards/big-game/cards.yaml:12:51: cards[10].copies: the game's decks print 20,000 cards, copies counted"
    err = _refused(capsys, ["validate"], expected)
    assert "expected at most 10,000" in err
    assert made and max(made) <= cards_module.MAX_PRINTED  # validate's proof drew each card once, not every copy
    _refused(capsys, ["build", "--no-check"], "cards[10].copies")


def test_a_deck_s_own_copies_are_named_where_they_pass_the_count(
    studio: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Three cards, and ten more decks of one of them at 1,000 copies: the tenth passes the count."""
    _cards(studio, 3, 1, ", shared: true")  # in several decks on purpose
    decks = "".join(
        f"  - {{id: d{n}, name: D{n}, back: {{title: D, colour: '#123456'}}, cards: [{{card: c2, copies: 1000}}]}}\n"
        for n in range(10)
    )
    (studio / "game.yaml").write_text((studio / "game.yaml").read_text() + decks)
    _refused(capsys, ["validate"], "decks[10].cards[0].copies: the game's decks print 10,003 cards, copies counted")


def test_build_copies_may_not_pass_the_printed_cards_of_a_run(studio: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _cards(studio, 20, 200)  # 4,000 cards: within the game's count, but not three times over
    assert main(["validate"]) == 0
    capsys.readouterr()
    _refused(capsys, ["build", "--copies", "3", "--only", "cards", "--no-check"], "--copies 3: 12,000 cards to print")


def test_a_big_deck_is_planned_in_one_pass(studio: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The proof told cards from counters by `piece in cards`, a comparison with every card before it, and asked
    every neighbour pair of one deck's colour again: quadratic and 25 colours a card (20,000 cards: 40 s)."""
    _cards(studio, 4, 500)
    game = load_game(studio)
    settings = PrintSettings(papers=("a4",))
    compared = [0]
    real_eq = pieces.Piece.__eq__

    def eq(self: pieces.Piece, other: object) -> bool:
        compared[0] += 1
        return real_eq(self, other)

    coloured = [0]
    real_colour = edges.edge_colour

    def colour(design: pieces.Design) -> str:
        coloured[0] += 1
        return real_colour(design)

    monkeypatch.setattr(pieces.Piece, "__eq__", eq)
    monkeypatch.setattr(edges, "edge_colour", colour)
    monkeypatch.setattr(joins, "edge_colour", colour)
    found = build.proof(game, settings)
    assert not found.problems
    assert compared[0] < 2_000, compared  # 2,000 pieces: before, about 2 million comparisons
    assert coloured[0] < 100, coloured  # each design's colour where two differ: before, 50,000 and more


def _sheet(game: Path, rows: int) -> Path:
    """The game's cards as an XLSX of rows cards, written as a program writes one: no <dimension> of its size."""
    import io

    import openpyxl

    book = openpyxl.Workbook(write_only=True)
    sheet = book.create_sheet("Deck")
    sheet.append(["id", "kind", "name"])
    for i in range(rows):
        sheet.append([f"c{i}", "plain", "C"])
    out = io.BytesIO()
    book.save(out)
    (game / "cards.yaml").unlink()
    (game / "cards.xlsx").write_bytes(out.getvalue())
    game_yaml = game / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("players: 2", "players: 2\ncard_sheets: [{file: cards.xlsx}]"))
    return game / "cards.xlsx"


def test_a_sheet_past_its_rows_is_refused_having_read_no_more_of_it(
    studio: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """openpyxl read a sheet without a <dimension> whole to size it, twice, as it opened: 400,000 rows took 21 s
    to be refused at row 10,002. Its XML is now read as far as the row that passes the count."""
    import zipfile
    from xml.etree.ElementTree import iterparse

    from openpyxl.worksheet import _reader

    path = _sheet(studio, 30_000)
    with zipfile.ZipFile(path) as archive, archive.open("xl/worksheets/sheet1.xml") as xml:
        whole = sum(1 for _ in iterparse(xml))
    events = [0]
    real = _reader.iterparse

    def counted(*args: object, **kwargs: object) -> object:
        for event in real(*args, **kwargs):
            events[0] += 1
            yield event

    monkeypatch.setattr(_reader, "iterparse", counted)
    _refused(capsys, ["validate"], "cards/big-game/cards.xlsx:Deck!A10002: more than 10,000 rows")
    assert events[0] < whole * 0.4, (events[0], whole)  # a third of it: before, twice all of it and a third


def test_a_sheet_without_formulas_is_read_once_and_its_places_named_once(
    studio: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every sheet was read a second time for its formulas, and every one of its cells' places walked the path to
    the file again (a 10,000-row sheet: 70,000 walks)."""
    import os

    import openpyxl

    _sheet(studio, 2_000)
    opened = [0]
    real_open = openpyxl.load_workbook

    def load_workbook(*args: object, **kwargs: object) -> object:
        opened[0] += 1
        return real_open(*args, **kwargs)  # type: ignore[arg-type]

    walked = [0]
    real_relpath = os.path.relpath

    def relpath(*args: str) -> str:
        walked[0] += 1
        return real_relpath(*args)

    monkeypatch.setattr(openpyxl, "load_workbook", load_workbook)
    monkeypatch.setattr(os.path, "relpath", relpath)
    assert main(["validate"]) == 0, capsys.readouterr().err
    assert opened[0] == 1
    assert walked[0] < 100, walked


def _board(game: Path, sections: int, side: int, count: int = 1) -> None:
    """A board of sections of side x side spaces of 10 mm, count copies of it, in the game's components."""
    board = ", ".join(f"{{cell: 10x10mm, cols: {side}, rows: {side}}}" for _ in range(sections))
    entry = f"  - {{id: big-board, name: Big board, kind: board, count: {count}, board: {{sections: [{board}]}}}}\n"
    game_yaml = game / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("components:\n", "components:\n" + entry))


def test_a_board_of_too_many_spaces_is_refused_before_it_is_drawn(
    studio: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fifty sections of 100 x 100 spaces are each within the limits: together, 500,000 spaces took a minute and
    1.2 GB to draw before the board was refused for its assembly map."""
    from printkit.draw import board

    drawn = [0]
    monkeypatch.setattr(board, "draw_board", lambda *args: drawn.__setitem__(0, drawn[0] + 1))
    _board(studio, 50, 100)
    expected = "components[0].board.sections[1].rows: the board's sections have 500,000 spaces together: expected at"
    _refused(capsys, ["validate"], expected)
    assert drawn[0] == 0


def test_a_board_whose_map_does_not_fit_is_not_drawn(
    studio: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Within the spaces of a board, but too tall for its assembly map: said without drawing it."""
    from printkit.draw import board

    drawn = [0]
    real = board.draw_board

    def counted(*args: object) -> None:
        drawn[0] += 1
        real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(board, "draw_board", counted)
    _board(studio, 25, 20)  # 25 sections of 20 x 20 spaces of 10 mm: 5 m tall, 10,000 spaces
    assert main(["validate"]) == 2
    err = capsys.readouterr().err
    assert "its assembly map" in err and "Traceback" not in err, err
    assert drawn[0] == 0


def test_copies_of_a_board_past_its_tiles_are_refused_before_they_are_laid_out(
    studio: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """1,000 copies of a board of 24 tiles: 24,000 tiles, each a page, took 35 s to be laid out and accepted."""
    from printkit.sheets import boards

    laid = [0]
    real = boards._tile_item

    def counted(*args: object) -> object:
        laid[0] += 1
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(boards, "_tile_item", counted)
    _board(studio, 1, 100, count=1000)
    _refused(capsys, ["validate"], "board big-board: 24,000 tiles to print (1,000 copies): expected at most 1,000")
    assert laid[0] == 0
    _refused(capsys, ["build", "--no-check", "--only", "boards"], "tiles to print")


def test_soldier_battler_s_damage_table_is_by_weapon_and_validate_builds_its_engine_once(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The damage table was worked out card by card (5,400 Soldier cards: 29 million entries), and validate built
    the engine game 8 times: for its examples, its data, its rule options and each of its studies' points. Now once
    for the game and once for each point a study varies (each a game of other rules)."""
    import shutil

    from engine import findings, sweep
    from engine.games import soldier_battler

    game = tmp_path / "soldier-battler"
    shutil.copytree(Path(__file__).resolve().parent.parent / "cards" / "soldier-battler", game)
    weapons = (("sword", 80), ("axe", 100), ("spear", 80), ("crossbow", 40))
    more = "".join(
        f"  - {{id: s{i}, kind: soldier, name: S{i}, weapon: {weapons[i % 4][0]}, hp: {weapons[i % 4][1]}, "
        "shared: true}\n"
        for i in range(196)
    )
    (game / "soldiers.yaml").write_text((game / "soldiers.yaml").read_text() + more)
    damages = [0]
    real_damage = soldier_battler.SoldierBattlerGame._damage

    def damage(self: soldier_battler.SoldierBattlerGame, attacker: int, target: int) -> int:
        damages[0] += 1
        return real_damage(self, attacker, target)

    builds = [0]
    real_init = soldier_battler.SoldierBattlerGame.__init__

    def init(self: soldier_battler.SoldierBattlerGame, data: object) -> None:
        builds[0] += 1
        real_init(self, data)  # type: ignore[arg-type]

    monkeypatch.setattr(soldier_battler.SoldierBattlerGame, "_damage", damage)
    monkeypatch.setattr(soldier_battler.SoldierBattlerGame, "__init__", init)
    monkeypatch.chdir(tmp_path)
    assert main(["validate", str(game)]) == 0, capsys.readouterr().err
    loaded = load_game(game)
    points = sum(len(sweep.grid(findings.plan(study)[0])) for study in loaded.info.studies)
    assert points and builds[0] == 1 + points, (builds[0], points)
    assert damages[0] <= builds[0] * 4 * 200  # a row a weapon: before, 200 x 200 a build
