"""Kinds of card declared in a game's data: a stranger's three kinds load from YAML, CSV and XLSX, print every field
their layouts bind, and show in the booklet, the reference and the exports under their own names."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import jsonschema
import pypdfium2 as pdfium
import pytest
import typedgame
import yaml
from pdfminer.high_level import extract_pages
from pdfminer.layout import LTChar

from printkit.cli import main
from printkit.core import project
from printkit.core.errors import DataError
from printkit.data import conditions, loader, schema
from printkit.data.game import Game
from printkit.data.loader import load_game
from printkit.docs import cardfacts, rulesbook
from printkit.draw import raster
from printkit.exports import spreadsheet
from printkit.sheets.designs import card_faces


@pytest.fixture(scope="module")
def court(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Spirit Court in a project of its own, built once (its card sheet, booklet and reference) for the tests
    that only read what it made."""
    root = tmp_path_factory.mktemp("court")
    assert main(["init", str(root)]) == 0
    typedgame.write(root / "cards")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(root)
        assert main(["build", "--only", "cards,rules,reference", "--no-check", "-q"]) == 0
        yield root


@pytest.fixture
def game(court: Path) -> Game:
    return load_game(court / "cards" / typedgame.SLUG, project.at(court))


def _chars(pdf: Path) -> list[tuple[str, str]]:
    """Every character drawn in a PDF with the name of its font, in reading order."""
    out: list[tuple[str, str]] = []

    def walk(item: object) -> None:
        if isinstance(item, LTChar):
            out.append((item.get_text(), item.fontname))
        for child in item if hasattr(item, "__iter__") else ():
            walk(child)

    for page in extract_pages(pdf):
        walk(page)
    return out


def _text(pdf: Path) -> str:
    """A PDF's text as pdfium reads it back, page by page (cards turned on the sheet read as their own lines)."""
    doc = pdfium.PdfDocument(pdf)
    try:
        return "\n".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    finally:
        doc.close()


def test_each_kind_checks_its_own_fields_from_yaml_csv_and_xlsx(game: Game) -> None:
    kinds = {c.id: c.kind for c in game.cards}
    assert kinds == {
        "will-o-wisp": "spirit",
        "old-oak": "spirit",
        "bell": "relic",
        "dawn-chant": "ritual",
        "long-night": "ritual",
    }
    bell = game.card("bell")  # from the CSV: every cell text, read as its field's type asks
    assert bell.values["cost"] == 2 and bell.values["charges"] == 3 and bell.values["rarity"] == "rare"
    chant = game.card("dawn-chant")  # from the XLSX
    assert chant.values == {"cost": 3, "speed": "fast", "text": "Every spirit of yours wakes."}
    wisp = game.card("will-o-wisp")
    assert wisp.values["keywords"] == ["flying"] and wisp.values["rarity"] == "common"
    assert game.card("old-oak").values["portrait"] == "art/oak.png"
    assert game.card("long-night").get("rarity") is None  # a ritual has no rarity: no value, not another kind's


def test_every_field_prints_where_its_layout_binds_it(court: Path) -> None:
    text = _text(court / "output" / typedgame.SLUG / "cards-a4.pdf")
    for printed in (
        "Marsh Light · Common",
        "Forest Elder · Legendary",  # a choice by its display name
        "ward, haste",  # a list
        "MIGHT +1",
        "MIGHT +6",  # {power:+d}
        "CHARGES 03",  # the field's own format, 02d
        "COST 2 · Rare",
        "fast ritual",
        "slow ritual",
    ):
        assert printed in text, printed
    assert text.count("LEGEND") == 1  # the region whose condition only Old Oak meets
    assert "flying" in text


def test_rich_text_sets_bold_and_italic_in_their_faces_and_draws_its_icons(game: Game, tmp_path: Path) -> None:
    pdf = tmp_path / "faces.pdf"  # the two spirits' faces, upright, one a page
    pdf.write_bytes(raster.designs_pdf(game, [f for f in card_faces(game, (180.0, 252.0)) if f.deck == "spirits"], 0))
    chars = _chars(pdf)
    line = "".join(c for c, _ in chars)
    start = line.index("Lure.")
    assert all("Bold" in font for _, font in chars[start : start + 5]), chars[start : start + 5]
    after = line.index("Move", start)  # the words after the bold ones: in the regular face (spaces are no chars)
    assert not any("Bold" in font or "Oblique" in font for _, font in chars[after : after + 4])
    start = line.index("nothing")
    assert all("Oblique" in font for _, font in chars[start : start + 7])
    assert "**" not in line and "{lantern}" not in line  # the marks and the icon's name never print as text


def test_the_booklet_and_the_reference_show_every_field_by_its_name(court: Path, game: Game) -> None:
    markdown = rulesbook.render_markdown(game)
    for head in ("Spirit", "Type line", "Keywords", "Rules text", "Might", "Relic", "Charges", "Ritual", "Speed"):
        assert f"| {head} |" in markdown or f"| {head}" in markdown, head
    assert "Plain" not in markdown
    booklet = _text(court / "output" / typedgame.SLUG / "rules-a4.pdf")
    assert "{lantern}" not in booklet and "**" not in booklet  # the icon is a picture, the bold is bold
    page = (court / "output" / "reference" / typedgame.SLUG / "cards.html").read_text(encoding="utf-8")
    found = re.search(r'<script type="application/json" id="cards">(.*?)</script>', page, re.S)
    assert found is not None
    cards = {c["id"]: c for c in json.loads(found.group(1))}
    wisp = dict(cards["will-o-wisp"]["fields"])
    assert wisp["Type"] == "Spirit" and wisp["Type line"] == "Marsh Light" and wisp["Might"] == "1"
    assert wisp["Rarity"] == "Common" and wisp["Keywords"] == "flying"
    assert cards["bell"]["fields"][0] == ["Type", "Relic"] and dict(cards["bell"]["fields"])["Charges"] == "03"
    assert cards["will-o-wisp"]["brief"] == "Marsh Light · cost 1"  # the kind's summary
    runs = cards["will-o-wisp"]["rules_runs"][0]  # the card view builds these as text nodes and pictures
    assert runs[0] == {"text": "Lure.", "b": True} and {"icon": "lantern", "src": "icons/lantern.png"} in runs
    assert '<li><strong>Lure.</strong> Move an enemy spirit, then <img class="icon"' in page  # the gallery's tile
    assert (court / "output" / "reference" / typedgame.SLUG / "icons" / "lantern.png").is_file()
    assert 'value="Legendary"' in page and 'value="fast"' in page  # the choices are filters
    assert 'data-number="cost"' in page and 'data-number="power"' in page  # and the numbers ranges


def test_a_column_no_kind_declares_is_named_once_at_its_header(tmp_path: Path) -> None:
    root = tmp_path / "p"
    assert main(["init", str(root)]) == 0
    game = typedgame.write(root / "cards")
    (game / "relics.csv").write_text(
        "id,kind,name,cost,rarty,text\nbell,relic,Bell,2,rare,Ring.\nhorn,relic,Horn,1,common,Blow.\n",
        encoding="utf-8",
    )
    with pytest.raises(DataError) as caught:
        load_game(game, project.at(root))
    lines = [str(p) for p in caught.value.problems]
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"{game.relative_to(Path.cwd()) if game.is_relative_to(Path.cwd()) else game}")
    assert ":1:5: column 'rarty'" in lines[0] and "did you mean 'rarity'" in lines[0]


def test_one_validate_run_reports_every_planted_mistake(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A misspelt key, text far too long for its box, a missing art file, an unknown icon and a bad layout colour:
    each a line of one run, each at its place."""
    root = tmp_path / "p"
    assert main(["init", str(root)]) == 0
    game = typedgame.write(root / "cards")
    spirits = yaml.safe_load((game / "spirits.yaml").read_text(encoding="utf-8"))
    spirits["cards"][0]["powr"] = spirits["cards"][0].pop("power")  # 1: a misspelt key
    spirits["cards"][1]["text"] = "Roots. " * 120  # 2: far too long for its box
    spirits["cards"][1]["portrait"] = "art/missing.png"  # 3: no such picture
    spirits["cards"].append(
        {
            "id": "imp",
            "kind": "spirit",
            "name": "Imp",
            "cost": 1,
            "type_line": "Pest",
            "power": 1,
            "text": "A {lantren}.",
        }
    )  # 4: an unknown icon
    (game / "spirits.yaml").write_text(yaml.safe_dump(spirits, sort_keys=False), encoding="utf-8")
    layout = (game / "layouts" / "relic.yaml").read_text(encoding="utf-8")
    (game / "layouts" / "relic.yaml").write_text(layout + "  band: {type: box, fill: acent, order: 2}\n")  # 5
    monkeypatch.chdir(root)
    capsys.readouterr()
    assert main(["validate"]) == 2
    said = capsys.readouterr().err
    assert "unknown key 'powr' (did you mean 'power'?)" in said
    assert "does not fit its box" in said and "old-oak" in said
    assert "missing.png" in said
    assert "no icon 'lantren' (did you mean 'lantern'?)" in said
    assert "no colour 'acent' (did you mean 'accent'?)" in said
    assert "relic.yaml:" in said  # the colour is placed in its layout file


def test_export_then_import_gives_the_same_cards(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """CSV and XLSX, for every bundled game and for Spirit Court, whose cards come from YAML and two sheets."""
    root = tmp_path / "p"
    assert main(["init", str(root)]) == 0
    here = project.at(root)
    folders = [typedgame.write(root / "cards")]
    for bundled in loader.bundled_games():
        shutil.copytree(bundled, root / "cards" / bundled.name)
        folders.append(root / "cards" / bundled.name)
    monkeypatch.chdir(root)
    for folder in folders:
        before = load_game(folder, here)
        for form in ("csv", "xlsx"):
            sheet = tmp_path / f"{folder.name}.{form}"
            if form == "csv":
                spreadsheet.export_csv(before, sheet)
            else:
                spreadsheet.export_xlsx(before, sheet)
            spreadsheet.import_rows(sheet, folder, here)
            after = load_game(folder, here)
            assert [c.written() for c in after.cards] == [c.written() for c in before.cards], (folder.name, form)


def test_an_unknown_kind_names_the_game_s_own_kinds(tmp_path: Path) -> None:
    root = tmp_path / "p"
    assert main(["init", str(root)]) == 0
    game = typedgame.write(root / "cards")
    (game / "more.yaml").write_text("cards:\n  - {id: x, kind: spirt, name: X}\n", encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load_game(game, project.at(root))
    said = str(caught.value.problems[0])
    assert "more.yaml:2:19" in said and "unknown kind 'spirt' (did you mean 'spirit'?)" in said
    assert "spirit, relic, ritual" in said and "troop" not in said


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("values: [fast, slow]", "valus: [fast, slow]", "card_types.ritual.fields.speed.valus: unknown key"),
        ("max: 9, format", "max: 9, default: 12, format", "card_types.relic.fields.charges.default: the default is"),
        ("power: {type: integer, min: 0, max: 20, required: true", "power: {type: engine", "game.yaml names none"),
        ("accent: ", "accent: ", ""),  # unchanged: the game loads
    ],
)
def test_a_declaration_that_cannot_hold_is_refused_at_its_line(
    tmp_path: Path, old: str, new: str, expected: str
) -> None:
    root = tmp_path / "p"
    assert main(["init", str(root)]) == 0
    game = typedgame.write(root / "cards")
    text = (game / "game.yaml").read_text(encoding="utf-8")
    (game / "game.yaml").write_text(text.replace(old, new, 1), encoding="utf-8")
    if not expected:
        load_game(game, project.at(root))
        return
    with pytest.raises(DataError) as caught:
        load_game(game, project.at(root))
    said = "\n".join(str(p) for p in caught.value.problems)
    assert expected in said and "game.yaml:" in said, said


def test_a_layouts_entry_naming_no_kind_is_an_error(tmp_path: Path) -> None:
    root = tmp_path / "p"
    assert main(["init", str(root)]) == 0
    game = typedgame.write(root / "cards")
    with (game / "game.yaml").open("a", encoding="utf-8") as out:
        out.write("layouts: {sprit: spirit}\n")
    with pytest.raises(DataError) as caught:
        load_game(game, project.at(root))
    assert "no kind of card or design 'sprit' (did you mean 'spirit'?)" in str(caught.value.problems[0])


def test_decks_take_cards_by_any_field_and_a_condition(tmp_path: Path) -> None:
    root = tmp_path / "p"
    assert main(["init", str(root)]) == 0
    game = typedgame.write(root / "cards")
    text = (game / "game.yaml").read_text(encoding="utf-8")
    text = text.replace(
        "    include: {kind: [relic, ritual]}", '    include: {kind: [relic, ritual, spirit], where: "cost >= 3"}'
    )
    text = text.replace("    include: {kind: spirit}", "    include: {rarity: [common, legendary], keywords: flying}")
    (game / "game.yaml").write_text(text, encoding="utf-8")
    loaded = load_game(game, project.at(root))
    assert [c.id for c, _ in loaded.deck("spirits").entries] == ["will-o-wisp"]
    assert [c.id for c, _ in loaded.deck("arcana").entries] == ["old-oak", "dawn-chant", "long-night"]


@pytest.mark.parametrize(
    ("text", "values", "holds"),
    [
        ("rarity is rare", {"rarity": "rare"}, True),
        ("rarity is rare", {"rarity": "common"}, False),
        ("rarity is not rare", {"rarity": "common"}, True),
        ("cost >= 3", {"cost": 3}, True),
        ("cost >= 3", {"cost": 2}, False),
        ("cost > 2 and cost < 5", {"cost": 4}, True),
        ("keywords has flying", {"keywords": ["ward", "flying"]}, True),
        ("keywords has no flying", {"keywords": ["ward"]}, True),
        ("not (cost < 2 or rarity is common)", {"cost": 3, "rarity": "rare"}, True),
        ("flavour", {"flavour": ""}, False),
        ("flavour", {"flavour": "Hm."}, True),
        ('type is "Heavy Cavalry"', {"type": "heavy cavalry"}, True),
        ("cost >= 3", {}, False),  # a card without the field
    ],
)
def test_conditions(text: str, values: dict[str, object], holds: bool) -> None:
    assert conditions.parse(text).test(values.get) is holds


@pytest.mark.parametrize(
    ("text", "column"),
    [("cost >=", 8), ("rarity is", 10), ("(cost > 1", 10), ("cost >= rare", 9), ("__import__('os')", 11), ("a b", 3)],
)
def test_a_condition_that_does_not_parse_says_where(text: str, column: int) -> None:
    with pytest.raises(conditions.ConditionError) as caught:
        conditions.parse(text)
    assert caught.value.column == column, str(caught.value)


def test_a_layout_condition_that_does_not_parse_is_placed_in_its_file(tmp_path: Path) -> None:
    root = tmp_path / "p"
    assert main(["init", str(root)]) == 0
    game = typedgame.write(root / "cards")
    layout = game / "layouts" / "ritual.yaml"
    layout.write_text(layout.read_text(encoding="utf-8").replace('"speed is fast"', '"speed is"'), encoding="utf-8")
    loaded = load_game(game, project.at(root))
    from printkit.draw.layout import face_layouts

    with pytest.raises(DataError) as caught:
        face_layouts(loaded)
    said = str(caught.value.problems[0])
    assert "ritual.yaml:" in said and "condition 'speed is', at character 9" in said


def test_the_game_s_card_schema_completes_its_fields_and_flags_a_bad_choice(court: Path) -> None:
    assert main(["schema"]) == 0 or True  # the project's schemas, the game's own among them
    here = project.at(court)
    path = schema.folder(here) / schema.game_schema_name(typedgame.SLUG)
    document = json.loads(path.read_text(encoding="utf-8"))
    spirits = yaml.safe_load((court / "cards" / typedgame.SLUG / "spirits.yaml").read_text(encoding="utf-8"))
    jsonschema.validate(spirits, document)
    kinds = {k["properties"]["kind"]["const"]: k for k in document["properties"]["cards"]["items"]["oneOf"]}
    assert set(kinds) == {"spirit", "relic", "ritual"}
    assert kinds["spirit"]["properties"]["cost"] == {"type": "integer", "minimum": 0, "maximum": 10, "title": "Cost"}
    spirits["cards"][0]["rarity"] = "legendery"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(spirits, document)


def test_the_starter_with_kinds_validates_builds_and_keeps_commas(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["init", "studio"]) == 0
    monkeypatch.chdir(tmp_path / "studio")
    assert main(["new", "Spirit Wars", "--starter", "types"]) == 0
    folder = Path("cards/spirit-wars")
    cards = (folder / "cards.yaml").read_text(encoding="utf-8")
    assert "\n  - id: scout\n    kind: unit\n" in cards  # a field a line: a comma in text is a comma
    assert cards.splitlines()[0] == schema.card_modeline(folder / "cards.yaml", project.find()).rstrip("\n")
    game = load_game(folder)
    assert {c.kind for c in game.cards} == {"unit", "spell"} and len(game.deck("spells").entries) == 3
    assert game.card("shield").values["text"] == "Until your next turn, a unit of yours takes no damage."
    assert main(["validate"]) == 0
    assert main(["build", "--only", "cards", "--paper", "a4", "--no-check", "-q"]) == 0
    facts = cardfacts.facts(game, game.card("gryphon"), [game.deck("units")])
    assert ("Rarity", "rare") in facts.fields and ("Keywords", "flying, swift") in facts.fields
