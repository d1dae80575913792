"""A game folder from a stranger harms nothing: links out, pipes, devices and folders are refused in one line."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from printkit.cli import main

ROOT = Path(__file__).resolve().parent.parent
SECRET = "SECRET-LINE-of-a-file-outside"


@pytest.fixture
def studio(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Path:
    """A project with one game, the current folder, and a private file beside it."""
    (tmp_path / "private.yaml").write_text(f"cards:\n  - {{id: x, kind: plain, name: {SECRET}}}\n")
    (tmp_path / "private").mkdir()
    (tmp_path / "private" / "plain.yaml").write_text(f"regions: {{name: {{type: text, text: {SECRET}}}}}\n")
    folder = tmp_path / "studio"
    folder.mkdir()
    monkeypatch.chdir(folder)
    assert main(["init", "."]) == 0
    assert main(["new", "Shared Game"]) == 0
    capsys.readouterr()
    return folder


def _refused(capsys: pytest.CaptureFixture[str], command: list[str], *expected: str) -> str:
    assert main(command) == 2
    out, err = capsys.readouterr()
    assert SECRET not in out + err
    assert "Traceback" not in err
    for text in expected:
        assert text in err, err
    return err


def _game(studio: Path) -> Path:
    return studio / "cards" / "shared-game"


def test_a_card_file_linking_out_is_refused_unread(studio: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (_game(studio) / "extra.yaml").symlink_to(studio.parent / "private.yaml")
    err = _refused(capsys, ["validate"], "cards/shared-game/extra.yaml:1:1: a link to a file outside")
    assert err.count("\n") == 1
    _refused(capsys, ["build", "--no-check"], "extra.yaml")
    assert not (studio / "output").exists()


def test_rules_linking_out_are_refused(studio: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules = _game(studio) / "rules.md"
    rules.unlink()
    rules.symlink_to(studio.parent / "private.yaml")
    _refused(capsys, ["build", "--no-check"], "rules.md:1:1: a link to a file outside")
    assert not (studio / "output").exists()


def test_a_game_folder_dropped_into_a_project_reads_none_of_the_project_s_files(
    studio: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A folder inside the project is still outside the game: its private notes, its .git, its other games."""
    (studio / "notes.md").write_text(f"# Notes\n\n{SECRET}\n")
    rules = _game(studio) / "rules.md"
    rules.unlink()
    rules.symlink_to(studio / "notes.md")
    expected = "cards/shared-game/rules.md:1:1: a link to a file outside the game's folder: refused"
    err = _refused(capsys, ["build", "--no-check"], expected)
    assert err.count("\n") == 1
    assert not (studio / "output").exists()
    rules.unlink()
    rules.write_text("# Rules\n")
    (studio / "art").mkdir()
    Image.new("RGB", (8, 8), "white").save(studio / "art" / "logo.png")  # the project's, beside its games
    (_game(studio) / "logo.png").symlink_to(studio / "art" / "logo.png")
    cards = _game(studio) / "cards.yaml"
    cards.write_text(cards.read_text().replace("    kind: plain\n", "    kind: plain\n    art: logo.png\n", 1))
    _refused(capsys, ["validate"], "cards/shared-game/cards.yaml:", "a link to a file outside the game's folder")


def test_a_layouts_folder_linking_out_is_refused(studio: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (_game(studio) / "layouts").symlink_to(studio.parent / "private", target_is_directory=True)
    _refused(capsys, ["build", "--no-check"], "layouts:1:1: a link to a file outside")
    assert not (studio / "output").exists()


def test_a_layout_file_linking_out_is_refused(studio: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (studio / "layouts" / "plain.yaml").symlink_to(studio.parent / "private" / "plain.yaml")
    _refused(capsys, ["build", "--no-check"], "layouts/plain.yaml:1:1: a link to a file outside")


def test_links_inside_the_game_are_followed(studio: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = _game(studio)
    (game / "cards.yaml").rename(game / "deck.txt")
    (game / "cards.yaml").symlink_to("deck.txt")
    assert main(["validate"]) == 0


def test_a_loop_of_links_and_a_folder_named_yaml(studio: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = _game(studio)
    (game / "a.yaml").symlink_to("b.yaml")
    (game / "b.yaml").symlink_to("a.yaml")
    (game / "c.yaml").mkdir()
    err = _refused(capsys, ["validate"], "a link that loops back on itself", "c.yaml:1:1: a folder, not a regular file")
    assert err.count("\n") == 3  # a, b and c, one line each


def _cli(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """printkit in its own process, with a deadline: a hang fails the test instead of stalling it."""
    return subprocess.run(
        [sys.executable, "-m", "printkit", *args], cwd=cwd, capture_output=True, text=True, timeout=60, check=False
    )


def test_a_named_pipe_never_blocks(studio: Path) -> None:
    os.mkfifo(_game(studio) / "extra.yaml")
    run = _cli(["validate"], studio)
    assert run.returncode == 2 and run.stderr.startswith("cards/shared-game/extra.yaml:1:1: a named pipe (FIFO)")
    os.mkfifo(studio / "sheet.csv")
    run = _cli(["import", "csv", "sheet.csv", "--into", "shared-game"], studio)
    assert run.returncode == 2 and "a named pipe (FIFO), not a regular file" in run.stderr


def test_devices_are_never_read(studio: Path) -> None:
    run = _cli(["replay", "battle-line", "--results", "/dev/zero"], studio)
    assert run.returncode == 2 and "a device, not a regular file" in run.stderr
    (studio / "printkit.toml").unlink()
    (studio / "printkit.toml").symlink_to("/dev/zero")
    run = _cli(["list"], studio)
    assert run.returncode == 2 and "a device, not a regular file" in run.stderr


def test_a_bundled_game_copied_with_its_links_still_reads(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Links within a game's own folder are the game's own; one to a file elsewhere in the project is not."""
    project = tmp_path / "p"
    game = project / "cards" / "battle-line"
    shutil.copytree(ROOT / "cards" / "battle-line", game)
    (project / "printkit.toml").write_text("")
    (game / "kept").mkdir()
    (game / "tactics.yaml").rename(game / "kept" / "tactics.yaml")
    (game / "tactics.yaml").symlink_to(game / "kept" / "tactics.yaml")
    assert main(["validate", str(game)]) == 0
    (game / "kept" / "tactics.yaml").rename(project / "shared-tactics.yaml")
    (game / "tactics.yaml").unlink()
    (game / "tactics.yaml").symlink_to(project / "shared-tactics.yaml")
    assert main(["validate", str(game)]) == 2
    assert "tactics.yaml:1:1: a link to a file outside the game's folder: refused" in capsys.readouterr().err


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_errors_found_while_making_leave_the_last_build_as_it_was(
    studio: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["build", "--no-check", "--paper", "a4"]) == 0
    before = _snapshot(studio / "output")
    cards = _game(studio) / "cards.yaml"
    cards.write_text(cards.read_text().replace("Write what this card does.", "far too many words " * 60))
    err = _refused(capsys, ["build", "--paper", "a4"], "cards/shared-game/cards.yaml:6:11: card first-card: field text")
    assert err.count("\n") == 1
    assert _snapshot(studio / "output") == before


def test_a_rules_template_error_is_placed_on_its_line(studio: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules = _game(studio) / "rules.md"
    rules.write_text("# Rules\n\nSome words.\n\n{{ rule('hand_size') }} and\n{{ no_such_helper() }}\n")
    _refused(capsys, ["build", "--no-check"], "cards/shared-game/rules.md:6:1: UndefinedError")
    rules.write_text("# Rules\n\n{{ rule('reach') }}\n")
    _refused(capsys, ["build", "--no-check"], "rules.md:3:1: the rules text asks for rule option 'reach'")
    assert not (studio / "output").exists()


def test_a_rule_option_the_cards_print_is_placed_in_game_yaml(studio: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = studio / "cards" / "soldier-battler"
    shutil.copytree(ROOT / "cards" / "soldier-battler", game)
    text = (game / "game.yaml").read_text()
    # the glossary's {damage} would be placed at the glossary: this case is about the cards' need
    lines = [line for line in text.splitlines(keepends=True) if "{id: damage," not in line and "{damage}" not in line]
    (game / "game.yaml").write_text("".join(lines))
    rules_line = next(i for i, line in enumerate(lines, start=1) if line.startswith("rules:"))
    err = _refused(capsys, ["build", "soldier-battler", "--no-check"], f"game.yaml:{rules_line}:")
    # the note that it hides the bundled game, the cards' need once (not once a card), and the rules text's
    assert err.count("no rule option 'damage'") == 1 and err.count("\n") == 3
    rules_md = (game / "rules.md").read_text().splitlines()
    first_use = next(i for i, line in enumerate(rules_md, start=1) if 'rule("damage")' in line)
    assert f"rules.md:{first_use}:1: the rules text asks for rule option 'damage'" in err
    assert not (studio / "output").exists()


def test_a_game_its_engine_cannot_play_writes_nothing_unless_told(
    studio: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game_yaml = _game(studio) / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("players: 2", "players: 2\nengine: time-line"))
    assert main(["build"]) == 2  # refused before anything is made, at the line naming the engine, as validate does
    err = capsys.readouterr().err
    assert "game.yaml:5:9: the time-line engine plays with timeline cards: the game has none" in err
    assert not (studio / "output").exists()
    assert main(["build", "--no-check"]) == 0
    assert (studio / "output" / "shared-game" / "cards-a4.pdf").is_file()


def test_error_lines_cannot_be_forged_flooded_or_stretched(studio: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = _game(studio)
    forged = '"x\\ncards/other.yaml:1:1: all is well\\u202e"'  # a key with a line break and a direction mark
    (game / "forged.yaml").write_text(f"cards:\n  - {{id: f, kind: plain, name: F, {forged}: 1}}\n")
    (game / "long.yaml").write_text("cards:\n  - {id: l, kind: plain, name: L, copies: '" + "9" * 1_500_000 + "'}\n")
    keys = "".join(f"    k{i}: 1\n" for i in range(40_000))  # 0.6 MB, 40,000 values: under both limits
    (game / "keys.yaml").write_text(f"cards:\n  - id: k\n    kind: plain\n    name: K\n{keys}")
    assert main(["validate"]) == 2
    err = capsys.readouterr().err
    lines = err.splitlines()
    assert len(lines) <= 101 and lines[-1].startswith("printkit: and ") and "more problems" in lines[-1]
    assert all(len(line) < 450 for line in lines)
    assert not any(line.startswith("cards/other.yaml") for line in lines)
    assert "\u202e" not in err and "\\u202e" in err


def test_rules_keep_links_within_the_document_and_to_the_web_only(
    studio: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from pypdf import PdfReader

    rules = _game(studio) / "rules.md"
    rules.write_text(
        "# Setup\n\nSee [the secret](../../../etc/passwd), [a file](file:///etc/hosts), [a note](notes.md), "
        "[the web](https://example.org/rules), [the old site](http://example.org/old), "
        "[a script](javascript:alert(1)) and [the top](#setup).\n"
    )
    assert main(["build", "--no-check", "--only", "rules,reference"]) == 0
    uris = []
    for page in PdfReader(studio / "output" / "shared-game" / "rules-a4.pdf").pages:
        for annot in page.get("/Annots") or []:
            action = annot.get_object().get("/A") or {}
            uris.append(str(action.get("/URI", "")))
    assert "https://example.org/rules" in uris and "http://example.org/old" in uris
    assert not [u for u in uris if u.startswith("file:") or "passwd" in u or "notes.md" in u]
    html = (studio / "output" / "reference" / "shared-game" / "index.html").read_text()
    assert 'href="https://example.org/rules"' in html and 'href="#setup"' in html
    assert 'href="http://example.org/old"' in html
    assert "passwd" not in html.split("the secret")[0][-40:] and 'href="notes.md"' not in html
    assert "the secret" in html and "a note" in html and "a script" in html  # the words stay
    assert "javascript" not in html and "file:///etc/hosts" not in html  # the targets do not


def test_the_docs_name_every_kind_of_rules_link_kept_and_only_those() -> None:
    from printkit.docs.rulesbook import LINKS_KEPT

    page = ROOT / "docs" / "guides" / "someone-elses-folder.md"
    readme = " ".join(page.read_text(encoding="utf-8").split())
    sentence = r"links in `rules.md` are kept when they point inside the document or to the web \((.*?)\);"
    listed = re.search(sentence, readme)
    assert listed, "the docs' sentence on the links rules.md keeps"
    assert set(re.findall(r"`([^`]+)`", listed[1])) == {"#..." if kept == "#" else kept for kept in LINKS_KEPT}


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["simulate", "battle-line", "--games", "1000000000"], "--games: expected 1 to 100,000"),
        (["simulate", "battle-line", "--workers", "0"], "--workers: expected 1 to 64"),
        (["simulate", "battle-line", "--agents", "mcts0,random"], "expected mctsN with N from 1 to 100000"),
        (["simulate", "battle-line", "--agents", "mcts999999999,random"], "expected mctsN with N from 1 to 100000"),
        (["check", "battle-line", "--games", "0"], "--games: expected 1 to 100,000"),
    ],
)
def test_engine_arguments_are_bounded(
    studio: Path, capsys: pytest.CaptureFixture[str], args: list[str], expected: str
) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and expected in err


@pytest.mark.parametrize(
    "content",
    ['{"games": [{"actions": [1, 2, "x"]}]}', '{"games": 3}', "[" * 100_000, "not json", '{"games": []}'],
    ids=["bad-action", "no-list", "deep", "not-json", "empty"],
)
def test_a_malformed_results_file_is_one_line(studio: Path, capsys: pytest.CaptureFixture[str], content: str) -> None:
    (studio / "results.json").write_text(content)
    assert main(["replay", "battle-line", "--results", "results.json"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_a_folder_with_every_hostile_entry_at_once(studio: Path) -> None:
    game = _game(studio)
    (game / "passwd.yaml").symlink_to(studio.parent / "private.yaml")
    (game / "zero.yaml").symlink_to("/dev/zero")
    os.mkfifo(game / "pipe.yaml")
    (game / "forged.yaml").write_text('cards:\n  - {id: f, kind: plain, name: F, "a\\nb.yaml:1:1: fine": 1}\n')
    keys = ", ".join(f"k{i:x}: 1" for i in range(200_000))
    (game / "keys.yaml").write_text(f"cards:\n  - {{id: k, kind: plain, name: K, {keys}}}\n")
    for command in (["validate"], ["build"]):
        run = _cli(command, studio)
        assert run.returncode == 2 and "Traceback" not in run.stderr and SECRET not in run.stderr + run.stdout
        lines = run.stderr.splitlines()
        assert 5 <= len(lines) <= 101 and all(line.startswith("cards/shared-game/") for line in lines), lines
    assert not (studio / "output").exists()


def test_an_import_checks_the_game_without_copying_what_it_cannot_read(studio: Path) -> None:
    """The import validates its drafts in place: a pipe or a link in the game folder is refused, never read."""
    game = _game(studio)
    assert _cli(["export", "csv", "shared-game"], studio).returncode == 0
    sheet = next((studio / "output").rglob("*.csv"))
    os.mkfifo(game / "pipe.yaml")
    run = _cli(["import", "csv", str(sheet), "--into", "shared-game"], studio)
    assert run.returncode == 2 and "pipe.yaml:1:1: a named pipe (FIFO)" in run.stderr
    (game / "pipe.yaml").unlink()
    (game / "passwd.yaml").symlink_to(studio.parent / "private.yaml")
    run = _cli(["import", "csv", str(sheet), "--into", "shared-game"], studio)
    assert run.returncode == 2 and "passwd.yaml:1:1: a link to a file outside" in run.stderr
    assert SECRET not in run.stderr


def test_yaml_nested_past_any_game_is_one_line(studio: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = _game(studio)
    (game / "deep.yaml").write_text("cards: " + "[" * 60 + "]" * 60 + "\n")
    err = _refused(capsys, ["validate"], "deep.yaml:1:", "nested more than 50 levels deep")
    assert err.count("\n") == 1
    (game / "deep.yaml").write_text("cards: " + "[" * 5000 + "]" * 5000 + "\n")  # deeper than Python recurses
    err = _refused(capsys, ["validate"], "deep.yaml:1:1: nested more than 50 levels deep")
    assert err.count("\n") == 1


@pytest.mark.parametrize("name", ["reference", "balance-summary.html", "duplex-calibration-a4"])
def test_a_game_may_not_take_a_name_the_output_folder_uses(
    studio: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    _game(studio).rename(studio / "cards" / name)
    _refused(capsys, ["build"], f"a game's folder may not be named {name!r}")
    assert not (studio / "output").exists()


def test_a_game_outside_the_project_uses_its_own_layouts(studio: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Each layouts folder is checked against its own root: the project's layouts/ serve a game kept elsewhere."""
    loose = studio.parent / "loose"
    shutil.copytree(_game(studio), loose)
    (loose / "layouts").mkdir()
    shutil.copy(ROOT / "layouts" / "plain.yaml", loose / "layouts" / "plain.yaml")
    assert main(["validate", str(loose)]) == 0
    assert main(["build", str(loose), "--only", "cards"]) == 0


def test_a_title_cannot_drive_the_terminal(studio: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game_yaml = _game(studio) / "game.yaml"
    text = game_yaml.read_text()
    title_line = next(line for line in text.splitlines() if line.startswith("title:"))
    game_yaml.write_text(text.replace(title_line, 'title: "Shared\\e[2J\\e]0;owned\\aGame"'))
    for command, code in ((["list"], 0), (["build", "--only", "cards"], 2)):  # no font prints a control code
        assert main(command) == code
        out, err = capsys.readouterr()
        assert "\x1b" not in out + err and "\a" not in out + err
    assert main(["list"]) == 0
    assert "Shared\\x1b[2J" in capsys.readouterr().out


def test_a_socket_a_piped_layout_and_a_folder_for_art_are_each_refused_by_name(
    studio: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import socket

    game = _game(studio)
    with socket.socket(socket.AF_UNIX) as listening:
        listening.bind(str(game / "sock.yaml"))
        _refused(capsys, ["validate"], "cards/shared-game/sock.yaml:1:1: a socket, not a regular file: refused")
    (game / "sock.yaml").unlink()
    (game / "layouts").mkdir()
    os.mkfifo(game / "layouts" / "plain.yaml")  # hides the built-in plain: refused, not passed over
    _refused(capsys, ["validate"], "layouts/plain.yaml:1:1: a named pipe (FIFO), not a regular file")
    (game / "layouts" / "plain.yaml").unlink()
    (game / "art.png").mkdir()
    cards = game / "cards.yaml"
    cards.write_text(cards.read_text().replace("    kind: plain\n", "    kind: plain\n    art: art.png\n", 1))
    _refused(capsys, ["validate"], "cards/shared-game/cards.yaml:5:10:", "art.png: a folder, not a regular file")


def test_a_path_that_climbs_out_is_not_called_a_link(studio: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from printkit.core import files
    from printkit.core.errors import DataError

    game = _game(studio)
    with pytest.raises(DataError, match="1:1: a file outside the game's folder"):
        files.read(game / ".." / ".." / ".." / "private.yaml", 1000, (game,))
    (game / "linked.yaml").symlink_to(studio.parent / "private.yaml")
    with pytest.raises(DataError, match="1:1: a link to a file outside the game's folder"):
        files.read(game / "linked.yaml", 1000, (game,))


def test_a_rules_template_that_would_run_for_hours_stops_on_its_line(
    studio: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from printkit.docs import rulesbook

    monkeypatch.setattr(rulesbook, "RENDER_SECONDS", 0.5)  # the budget itself, shortened for the test
    rules = _game(studio) / "rules.md"
    rules.write_text(
        "# Rules\n\nWords.\n\n{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}\n"
    )
    _refused(capsys, ["validate"], "cards/shared-game/rules.md:5:1: the rules text took over 0.5 s to fill in")
    rules.write_text("# Rules\n\n{{ 'x' * 10 ** 9 }}\n")
    _refused(capsys, ["validate"], "rules.md:3:1:", "more than 1,000,000 characters")


@pytest.mark.parametrize(
    ("template", "expected"),
    [
        ('{{ "x".ljust(999999999) }}', "ljust() of 999,999,999 characters; at most 10,000"),
        ('{{ "x".center(width=10**8) }}', "center() of 100,000,000 characters"),
        ('{{ "{:>999999999}".format(1) }}', "a width of 999,999,999 characters"),
        ('{{ "{:>{w}}".format(1, w=999999999) }}', "takes a format width from a field"),
        ('{{ "%0999999999d" % 1 }}', "a width of 999,999,999 characters"),
        ('{{ "%*d" % (999999999, 1) }}', "a width of 999,999,999 characters"),
        ('{{ "%.999999999f"|format(1.0) }}', "a width of 999,999,999 characters"),
        ('{{ "x"|center(999999999) }}', "a centred line of 999,999,999 characters"),
        ('{{ "a"|indent(999999999, first=true) }}', "an indent of 999,999,999 characters"),
        ("{{ ((((2**64)**64)**64)**64)**64 }}", "to the power 64: too big to print"),
        ("{{ 2 ** 1000 }}", "raises 2 to the power 1000"),
        ('{{ ("x" * 999999).replace("x", "yy" * 999) }}', "replaces into 1,997,998,002 characters"),
        # what no check foresees meets the memory ceiling: the replace filter, 500 MB
        ('{{ ("x" * 999999)|replace("x", "y" * 500) }}', "needs more memory to fill in than a rulebook"),
    ],
)
def test_a_rules_template_cannot_ask_for_a_billion_characters(
    studio: Path, capsys: pytest.CaptureFixture[str], template: str, expected: str
) -> None:
    (_game(studio) / "rules.md").write_text(f"# Rules\n\n{template}\n")
    _refused(capsys, ["validate"], "cards/shared-game/rules.md:3:1: ", expected)


def test_what_a_rules_template_may_ask_for_still_works(studio: Path) -> None:
    text = '{{ "x".ljust(3, "-") }}|{{ "%05.1f" % 2.5 }}|{{ "{:0>4}".format(7) }}|{{ "a"|center(5)|length }}|'
    text += "{{ 2**10 }}"
    (_game(studio) / "rules.md").write_text(f"# Rules\n\n{text}\n")
    from printkit.data.loader import load_game
    from printkit.docs.rulesbook import render_markdown

    assert "x\\-\\-|002\\.5|0007|5|1024" in render_markdown(load_game(_game(studio)))


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("cols: 10, rows: 6, numbers: [0, 59]", "cols: 10, rows: 100000, numbers: [0, 59]", "expected a value <= 100"),
        ("{id: guard, kind: character,", "{id: guard, copies: 5000, kind: character,", "expected a value <= 1000"),
    ],
    ids=["board-of-a-million-spaces", "five-thousand-copies"],
)
def test_sizes_past_any_game_are_refused_before_drawing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], old: str, new: str, expected: str
) -> None:
    game = tmp_path / "time-line-battle"
    shutil.copytree(ROOT / "cards" / "time-line-battle", game)
    for path in (game / "game.yaml", game / "characters.yaml"):
        path.write_text(path.read_text().replace(old, new))
    assert main(["validate", str(game)]) == 2
    err = "".join(line + "\n" for line in capsys.readouterr().err.splitlines() if not line.startswith("note: "))
    assert err.count("\n") == 1 and expected in err, err


def test_ten_thousand_headings_alike_get_anchors_of_their_own() -> None:
    from printkit.docs import rulesbook

    _, headings = rulesbook.to_html("# Setup\n\n" * 10_000 + "# Setup-2\n", lambda name: None)
    anchors = [h.anchor for h in headings]
    assert len(set(anchors)) == 10_001 and anchors[:3] == ["setup", "setup-2", "setup-3"]
    assert anchors[-1] == "setup-2-2"  # the heading that reads like a number it was given


def test_a_game_s_files_share_one_budget_of_values(studio: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # each file under the 50,000 values a game may hold, together over them: the second stops at once
    many = "cards: []\nspare: [" + ", ".join(["1"] * 30_000) + "]\n"
    for name in ("extra-a.yaml", "extra-b.yaml"):
        (_game(studio) / name).write_text(many)
    _refused(
        capsys,
        ["validate"],
        "cards/shared-game/extra-b.yaml:2:",
        "more than 50,000 values in the game's files together",
    )


def test_a_game_yaml_that_is_a_folder_and_examples_that_are_a_pipe_are_said_as_such(
    studio: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = _game(studio)
    os.mkfifo(game / "examples.yaml")  # once passed over as absent: the booklet printed no examples, silently
    _refused(capsys, ["validate"], "cards/shared-game/examples.yaml:1:1: a named pipe (FIFO), not a regular file")
    (game / "examples.yaml").unlink()
    (game / "game.yaml").unlink()
    (game / "game.yaml").mkdir()
    said = "printkit: cards/shared-game/game.yaml: a folder, not a regular file"
    for named in ("shared-game", "cards/shared-game"):  # once "no such game; did you mean 'shared-game'?"
        err = _refused(capsys, ["validate", named], said)
        assert err.count("\n") == 1
