"""The guide in the terminal: `printkit help` reads the docs site's pages offline, and a problem line names the page
that explains it, `[printkit help TOPIC]`, a topic that `printkit help` really shows."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from printkit.cli import main, manual
from printkit.cli import parser as commands
from printkit.core import errors

ROOT = Path(__file__).resolve().parent.parent
NAMES = {c.name for c in commands.COMMANDS}
POINTER = re.compile(r" \[printkit help ([\w/-]+)\]$")


def _help(capsys: pytest.CaptureFixture[str], *words: str) -> tuple[int, str, str]:
    code = main(["help", *words])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_listing_names_every_page_of_the_docs_once(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _help(capsys)
    assert code == 0
    files = sorted(p for p in (ROOT / "docs").rglob("*.md"))
    listed = re.findall(r"^  (\S+) +(.+)$", out, flags=re.M)
    assert len(listed) == len(files) == len(manual.pages())
    titles = {topic: title for topic, title in listed}
    assert titles["spreadsheets"] == "Cards from a spreadsheet"
    # two sections hold a layouts page: each is listed by its section, neither by the bare name
    assert "guides/layouts" in titles and "reference/layouts" in titles and "layouts" not in titles


def test_a_page_reads_as_the_site_writes_it_with_links_as_help_commands(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _help(capsys, "home")
    assert code == 0
    assert out.startswith("# printkit\n")
    assert "(printkit help first-game)" in out and "(printkit help reference/layouts)" in out
    assert ".md)" not in out and "](" not in out  # no Markdown link is left for the reader to decode
    assert "[picture: " in out and ".png" not in out
    # every help a page points to is a page
    for page in manual.pages():
        _, text, _ = _help(capsys, page)
        for named in re.findall(r"\(printkit help ([\w/-]+)\)", text):
            assert named in manual.pages(), (page, named)


def test_a_page_by_its_section_is_the_same_page(capsys: pytest.CaptureFixture[str]) -> None:
    _, short, _ = _help(capsys, "cards")
    _, full, _ = _help(capsys, "reference/cards")
    assert short == full and short.startswith("# Cards")


def test_a_reference_page_is_filled_in_from_the_schema_and_the_parser(capsys: pytest.CaptureFixture[str]) -> None:
    _, game_yaml, _ = _help(capsys, "game-yaml")
    schema = json.loads((ROOT / "printkit" / "schema" / "game.schema.json").read_text(encoding="utf-8"))
    for field in schema["properties"]:
        assert re.search(rf"^  {re.escape(field)}( \(required\))?: ", game_yaml, flags=re.M), field
    assert "<!--" not in game_yaml and "| --- |" not in game_yaml
    _, listing, _ = _help(capsys, "commands")
    for name in NAMES:
        assert f"\n  {name} " in listing


def test_a_command_as_the_topic_shows_its_options(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["help", "build"])
    assert done.value.code == 0
    assert capsys.readouterr().out.startswith("usage: printkit build")


@pytest.mark.parametrize(
    ("asked", "said"),
    [
        ("spreadsheet", "printkit: no help topic 'spreadsheet'; did you mean 'spreadsheets'?"),
        ("layouts", "printkit: 'layouts' is 2 pages: guides/layouts (Your own layouts) and reference/layouts"),
        ("zzzz", "printkit: no help topic 'zzzz'; `printkit help` lists the topics"),
    ],
)
def test_an_unknown_topic_is_one_line_with_the_closest(
    capsys: pytest.CaptureFixture[str], asked: str, said: str
) -> None:
    code, out, err = _help(capsys, asked)
    assert code == 2 and out == ""
    assert err.startswith(said) and err.count("\n") == 1


@pytest.mark.parametrize(
    ("line", "topic"),
    [
        ("printkit.toml:3:1: [print] bleed: expected a length", "project"),
        ("cards/g/game.yaml:4:3: rules.turn_cap: expected an integer", "game-yaml"),
        ("cards/g/game.yaml:9:7: card_types.unit.fields.cost.type: expected one of", "cards"),
        ("cards/g/game.yaml:5:34: card_sheets[1]: cards.csv is named twice", "spreadsheets"),
        ("cards/g/play.yaml:2:1: zones: expected a mapping", "play-yaml"),
        ("cards/g/spells.csv:2:4: cards[0].cost: expected an integer", "spreadsheets"),
        ("cards/g/deck.xlsx:Deck!D3: cards[1].cost: expected an integer", "spreadsheets"),
        ("cards/g/layouts/unit.yaml:7:5: regions.cost.fill: unknown colour", "reference/layouts"),
        ("layouts/troop.yaml:7:5: regions.cost.fill: unknown colour", "reference/layouts"),
        ("cards/g/cards.yaml:12:9: cards[3].power: expected an integer", "cards"),
        ("cards/g/rules.md:40:1: unknown rule option {turn_limit}", "rules-booklets"),
        ("cards/g/engine.py:1:1: ENGINE: expected an engine", "own-engine"),
        ("cards/g/art/hero.png:1:1: expected a PNG", "art-fonts-icons"),
        ("printkit: no game 'x'", ""),
    ],
)
def test_a_problem_names_the_page_for_its_file(line: str, topic: str) -> None:
    assert manual.topic_of(line) == topic
    if topic:
        assert topic in manual.pages()
        assert manual.pointed(line) == f"{line} [printkit help {topic}]"
    else:
        assert manual.pointed(line) == line


def test_every_topic_the_code_names_is_a_page_or_a_command() -> None:
    """A raise site or an error class names its topic by hand; a page renamed or removed fails here, not in front
    of a designer."""
    named: set[str] = set()
    for source in (ROOT / "printkit").rglob("*.py"):
        text = source.read_text(encoding="utf-8")
        named |= set(re.findall(r'\btopic(?:\s*=\s*|=)"([\w/-]+)"', text))
        named |= set(re.findall(r'return "([\w/-]+)"', text)) if source.name == "manual.py" else set()
    assert {"someone-elses-folder", "simulate-balance", "own-engine", "install", "schema"} <= named
    for topic in named:
        assert topic in manual.pages() or topic in NAMES, topic


def test_a_bad_cell_names_its_guide_on_the_line_and_in_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["init", "-q"]) == 0
    assert main(["new", "Sky", "--starter", "types", "-q"]) == 0
    sheet = tmp_path / "cards" / "sky" / "spells.csv"
    sheet.write_text(sheet.read_text(encoding="utf-8").replace(",Spark,1,", ",Spark,1x,"), encoding="utf-8")
    capsys.readouterr()
    assert main(["validate", "sky"]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("cards/sky/spells.csv:2:4: cards[0].cost: expected an integer")
    found = POINTER.search(line)
    assert found is not None and found[1] == "spreadsheets"
    assert main(["validate", "sky", "--json"]) == 2
    (problem,) = json.loads(capsys.readouterr().out)["problems"]
    assert problem["help"] == "printkit help spreadsheets" and not problem["message"].endswith("]")


def test_an_untrusted_engine_points_to_the_page_on_strangers_folders() -> None:
    from printkit.data.enginecards import Untrusted

    problem = errors.Problem("cards/g/game.yaml", 5, 9, "engine_file: not trusted")
    raised = Untrusted([problem])
    assert manual.pointed(raised.lines()[0], raised.topic).endswith("[printkit help someone-elses-folder]")
    assert errors.CheckFailed("x", topic="own-engine").topic == "own-engine"
    assert errors.CheckFailed("x").topic == ""


def test_play_without_an_engine_and_a_checks_metrics_point_to_their_pages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["init", "-q"]) == 0
    assert main(["new", "Plain", "-q"]) == 0
    capsys.readouterr()
    assert main(["simulate", "plain"]) == 2
    assert capsys.readouterr().err.endswith("(game.yaml names none) [printkit help rules-language]\n")
    assert main(["check", "battle-line", "--games", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].startswith("  metrics: ") and out[-1].endswith("printkit help balance-metrics")
    for named in ("rules-language", "balance-metrics"):
        assert named in manual.pages()
