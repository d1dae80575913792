"""The command line teaches: an overview by job, help for every command and option with defaults and examples,
a did-you-mean for every kind of typo, completion for bash, zsh and fish, and quiet or verbose output."""

from __future__ import annotations

import argparse
import io
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from printkit.cli import main
from printkit.cli import parser as commands
from printkit.cli.completion import script

ROOT = Path(__file__).resolve().parent.parent
NAMES = [c.name for c in commands.COMMANDS]


def _subparsers() -> dict[str, argparse.ArgumentParser]:
    top = commands.parser()
    action = next(a for a in top._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_printkit_alone_and_its_help_list_the_commands_by_job(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    alone = capsys.readouterr().out
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code in (0, None)
    assert capsys.readouterr().out == alone
    for group in ("make:", "export:", "play:"):
        assert f"\n{group}\n" in alone
    for name in NAMES:
        assert f"\n  {name} " in alone


@pytest.mark.parametrize("name", NAMES)
def test_every_command_says_what_it_does_every_option_and_default_and_gives_examples(name: str) -> None:
    sub = _subparsers()[name]
    assert sub.description and sub.description[0].isupper()
    examples = [line.strip() for line in (sub.epilog or "").splitlines() if line.startswith("  printkit ")]
    assert len(examples) >= 2, name
    for action in sub._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        assert action.help and action.help.strip(), f"{name}: {action.dest} has no help"
        default = action.default
        if default not in (None, False, argparse.SUPPRESS, []) and action.option_strings:
            assert "default" in action.help, f"{name} {action.option_strings}: its default {default!r} is not shown"
    top = commands.parser()
    for example in examples:
        args, extra = top.parse_known_args(shlex.split(example)[1:])
        assert args.command == name and extra == [], example


@pytest.mark.parametrize("name", NAMES)
def test_every_commands_help_runs(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main([name, "--help"])
    assert done.value.code in (0, None)
    out = capsys.readouterr().out
    assert out.startswith(f"usage: printkit {name}") and "examples:" in out


# what the pipeline loads; a command that only talks (its help, the version, a shell's completion) loads none of it
_PIPELINE = ("pydantic", "reportlab", "PIL", "yaml", "jinja2", "weasyprint", "printkit.build", "printkit.data.loader")


@pytest.mark.parametrize(
    "words",
    [
        ["--version"],
        ["--help"],
        ["build", "--help"],
        ["completion", "bash"],
        ["bulid"],
        ["help"],
        ["help", "game-yaml"],
    ],
)
def test_commands_that_only_talk_start_without_loading_the_pipeline(words: list[str]) -> None:
    probe = (
        "import sys\nfrom printkit.cli import main\ntry:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {_PIPELINE!r} or m in {_PIPELINE!r}), "
        "file=sys.stderr)"
    )
    done = subprocess.run([sys.executable, "-c", probe, *words], capture_output=True, text=True, check=True)
    assert done.stderr.splitlines()[-1] == "[]", done.stderr


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        (["bulid"], "printkit: no command 'bulid'; did you mean 'build'?"),
        (["build", "--papr", "a4"], "printkit: printkit build does not take --papr; did you mean --paper?"),
        (["build", "--duplex", "lnog"], "printkit: --duplex: expected long, short or none, found 'lnog'; did you mean"),
        (["export", "pgn", "battle-line"], "printkit: format: expected png, tts, printshop, csv or xlsx, found 'pgn'"),
        (["validate", "batle-line"], "printkit: batle-line: no such game or folder; did you mean 'battle-line'?"),
        (["build", "battle-line", "--only", "cads"], "did you mean 'cards'?"),
        (["validate", "--card-size", "pokr"], "printkit: --card-size: expected a card size"),
        (["validate", "--card-size", "brige"], "found 'brige' (did you mean 'bridge'?)"),
        (["replay", "time-line", "--agents", "randon,greedy"], "unknown agent 'randon': expected random"),
        (["replay", "time-line", "--agents", "greedy,mtcs"], "(did you mean 'mcts'?)"),
        (["build", "battle-line", "--cards", "r1", "--only", "cards"], "no card r1; did you mean 'R1'?"),
    ],
)
def test_a_typo_gets_one_line_and_the_closest_word(
    words: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        code = main(words)
    except SystemExit as stop:
        code = int(stop.code or 0)
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and expected in err, err


def test_a_game_path_with_a_trailing_slash_or_its_game_yaml(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "cards/battle-line/", str(ROOT / "cards" / "soldier-battler" / "game.yaml")]) == 0
    assert capsys.readouterr().out.count("ok  ") == 2


def test_quiet_says_nothing_and_verbose_names_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["-q", "init"]) == 0
    assert main(["new", "Quiet Game", "--quiet"]) == 0
    assert main(["build", "--only", "cards", "--no-check", "-q", "--out", "quiet"]) == 0
    assert capsys.readouterr() == ("", "")
    assert main(["build", "--only", "cards", "--no-check", "--verbose"]) == 0
    out = capsys.readouterr().out
    assert "wrote output/quiet-game/cards-a4.pdf" in out and "building quiet-game" in out and "done:" in out
    assert out.endswith("\nwhat each file is for, and how to print it: printkit help outputs\n")  # its page, last


def _bash_complete(line: str) -> list[str]:
    """What bash offers for the word being typed at the end of line."""
    words = shlex.split(line) + ([""] if line.endswith(" ") else [])
    source = script("bash", commands.parser())
    program = (
        f"{source}\nCOMP_WORDS=({' '.join(shlex.quote(w) for w in words)}); COMP_CWORD={len(words) - 1}\n"
        '_printkit; printf "%s\\n" "${COMPREPLY[@]}"'
    )
    path = Path(sys.executable).parent  # `printkit list --names` inside the script runs this printkit
    run = subprocess.run(
        ["bash", "-c", program],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env={"PATH": f"{path}:/usr/bin:/bin"},
    )
    return run.stdout.split()


def test_bash_completes_commands_options_values_and_games() -> None:
    assert _bash_complete("printkit bu") == ["build"]
    assert _bash_complete("printkit build --du") == ["--duplex"]
    assert _bash_complete("printkit build --duplex ") == ["long", "short", "none"]
    assert "battle-line" in _bash_complete("printkit build bat")
    assert "battle-line" in _bash_complete("printkit -q build --paper a4 bat")  # past an option's value
    assert _bash_complete("printkit export p") == ["png", "printshop"]


def test_bash_completes_each_positional_by_its_place() -> None:
    assert _bash_complete("printkit import ") == ["csv", "xlsx"]
    assert "README.md" in _bash_complete("printkit import csv ")  # then the spreadsheet: a file
    assert _bash_complete("printkit import csv sheet.csv ") == []  # nothing more to name
    assert "battle-line" in _bash_complete("printkit import csv sheet.csv --into bat")
    assert "battle-line" in _bash_complete("printkit export png ")  # then the game, not the format again
    assert "png" not in _bash_complete("printkit export png ")


def test_bash_completes_the_values_printkit_checks_itself() -> None:
    assert _bash_complete("printkit build --paper a4,l") == ["a4,letter"]
    assert _bash_complete("printkit build --only cards,r") == ["cards,rules", "cards,reference"]
    assert _bash_complete("printkit build --card-size po") == ["poker"]
    assert _bash_complete("printkit simulate time-line --agents random,g") == ["random,greedy"]
    assert _bash_complete("printkit export printshop battle-line --service d") == ["drivethrucards"]
    assert _bash_complete("printkit simulate time-line --games ") == []  # a number: no file names


def _zsh_complete(tmp_path: Path, words: list[str]) -> list[str]:
    """What the zsh script's function offers, run as zsh's bashcompinit runs it (sh emulation); zsh itself
    then narrows the offer to what was typed, so the whole offer is returned."""
    path = tmp_path / "printkit.zsh"
    path.write_text(script("zsh", commands.parser()))
    program = (
        f"source {shlex.quote(str(path))}\n"
        "[[ $_comps[printkit] == *_printkit* ]] || { print -u2 'printkit not registered'; exit 3; }\n"
        "emulate sh; setopt kshglob noshglob braceexpand\n"
        f"COMP_WORDS=({' '.join(shlex.quote(w) for w in words)}); COMP_CWORD={len(words) - 1}\n"
        '_printkit; printf "%s\\n" "${COMPREPLY[@]}"'
    )
    bin_path = Path(sys.executable).parent
    run = subprocess.run(
        ["zsh", "-f", "-c", program],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env={"PATH": f"{bin_path}:/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    return run.stdout.split()


def test_zsh_runs_the_completion_like_bash(tmp_path: Path) -> None:
    assert shutil.which("zsh"), "the completion test needs zsh (apt-get install zsh)"
    assert "build" in _zsh_complete(tmp_path, ["printkit", ""])
    assert _zsh_complete(tmp_path, ["printkit", "build", "--duplex", ""]) == ["long", "short", "none"]
    assert _zsh_complete(tmp_path, ["printkit", "import", ""]) == ["csv", "xlsx"]
    assert "README.md" in _zsh_complete(tmp_path, ["printkit", "import", "csv", ""])
    assert "battle-line" in _zsh_complete(tmp_path, ["printkit", "-q", "export", "png", ""])
    assert _zsh_complete(tmp_path, ["printkit", "build", "--paper", "a4,"]) == ["a4,a4", "a4,letter"]


def _fish_complete(tmp_path: Path, line: str) -> list[str]:
    path = tmp_path / "printkit.fish"
    path.write_text(script("fish", commands.parser()))
    bin_path = Path(sys.executable).parent
    run = subprocess.run(
        ["fish", "-c", f"source {path}; complete -C {shlex.quote(line)}"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env={"PATH": f"{bin_path}:/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    return [row.split("\t")[0] for row in run.stdout.splitlines()]


def test_fish_completes_options_values_and_positionals_by_place(tmp_path: Path) -> None:
    assert shutil.which("fish"), "the completion test needs fish (apt-get install fish)"
    assert _fish_complete(tmp_path, "printkit build --dup") == ["--duplex"]
    assert _fish_complete(tmp_path, "printkit build --paper ") == ["a4", "letter"]
    assert _fish_complete(tmp_path, "printkit import ") == ["csv", "xlsx"]
    assert "battle-line" in _fish_complete(tmp_path, "printkit export png ")
    assert "png" not in _fish_complete(tmp_path, "printkit export png ")
    assert "battle-line" in _fish_complete(tmp_path, "printkit build --paper a4 ")


def test_the_zsh_and_fish_scripts_parse(tmp_path: Path) -> None:
    for shell in ("zsh", "fish"):
        path = tmp_path / f"printkit.{shell}"
        path.write_text(script(shell, commands.parser()))
        subprocess.run([shell, "-n", str(path)], check=True)


def test_the_docs_show_the_commands_as_they_are(capsys: pytest.CaptureFixture[str]) -> None:
    """The commands page is written from the parser at each docs build: it holds what `printkit` and each
    command's --help print, and the README points there rather than copying them."""
    import sys

    sys.path.insert(0, str(ROOT / "docs"))
    try:
        import hooks
    finally:
        sys.path.remove(str(ROOT / "docs"))
    page = hooks.commands_markdown()
    capsys.readouterr()
    assert main([]) == 0
    listed = capsys.readouterr().out
    assert "```text\n" + listed.rstrip("\n") + "\n```" in page
    for command in ("build", "simulate", "export", "new"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        assert "## printkit " + command + "\n\n```text\n" + capsys.readouterr().out.rstrip("\n") + "\n```" in page
    assert "<!-- printkit:commands -->" in (ROOT / "docs" / "reference" / "commands.md").read_text(encoding="utf-8")


def test_json_for_editors_and_ci(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    monkeypatch.chdir(tmp_path)
    assert main(["init", "-q"]) == 0
    assert main(["new", "Json Game", "-q"]) == 0
    assert main(["validate", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is True and report["games"][0]["game"] == "json-game"
    assert main(["build", "--only", "cards", "--no-check", "--json"]) == 0
    out, err = capsys.readouterr()
    report = json.loads(out)
    assert "output/json-game/cards-a4.pdf" in report["written"] and err == ""
    # one shape for both commands: an exit code always, each game as an object
    assert report["exit_code"] == 0 and report["games"] == [
        {"game": "json-game", "title": "Json Game", "folder": "cards/json-game", "ok": True}
    ]
    cards = tmp_path / "cards" / "json-game" / "cards.yaml"
    cards.write_text(cards.read_text().replace("power: 1", "power: one"))
    assert main(["validate", "--json"]) == 2
    report = json.loads(capsys.readouterr().out)
    (problem,) = report["problems"]
    assert report["ok"] is False and report["exit_code"] == 2
    # placed at the value: the block-style starter writes power: 1 on line 8
    assert problem["file"] == "cards/json-game/cards.yaml" and problem["line"] == 8 and "power" in problem["message"]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_bar_is_drawn_on_a_terminal_only_and_never_when_quiet(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["build", "battle-line", "--only", "rules", "--no-check", "--out", str(tmp_path)]) == 0
    drawn = terminal.getvalue()
    # the parts of one game, counted as each is made (each paper's sheets, then its booklets), redrawn at most
    # a few times a second: the first and the last are always drawn
    assert "] 0/3 parts made" in drawn
    assert drawn.endswith("[##############################] 3/3 parts made: battle-line: rules booklets\n")
    assert "made battle-line" not in capsys.readouterr().out  # the bar says it in place of the line
    terminal.seek(0)
    terminal.truncate()
    assert main(["build", "battle-line", "--only", "rules", "--no-check", "--out", str(tmp_path), "-q"]) == 0
    assert terminal.getvalue() == ""
    monkeypatch.undo()
    assert main(["build", "battle-line", "--only", "rules", "--no-check", "--out", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert "  made battle-line" in out and "parts made" not in err  # a log gets lines, no bar


def test_a_problem_at_a_spreadsheet_cell_is_placed_in_json() -> None:
    from printkit.cli.common import placed
    from printkit.core.errors import PLACED

    line = "cards/g/cards.xlsx:My Deck!AB12: cards[0].art: art/a.png: not a PNG picture"
    assert PLACED.match(line)  # a placed problem, not one printed after "printkit: "
    assert placed(line) == {
        "file": "cards/g/cards.xlsx",
        "line": 12,
        "column": 28,
        "cell": "My Deck!AB12",
        "message": "cards[0].art: art/a.png: not a PNG picture",
        "help": "printkit help spreadsheets",
    }


def test_a_flood_of_warnings_shows_fifty_and_counts_the_rest(capsys: pytest.CaptureFixture[str]) -> None:
    from printkit.cli import common

    for json_too in (False, True):
        common.Output.set(argparse.Namespace(command="validate", json=json_too))
        for i in range(130):
            common.warn(f"cards/g/cards.yaml:{i + 1}:3: card c{i}: field cost is set, but its layout never shows it")
        err = capsys.readouterr().err.splitlines()
        if json_too:  # every one, for an editor to place
            assert err == [] and len(common.Output.report["warnings"]) == 130
            assert common.Output.unshown() is None
        else:
            assert len(err) == common.MAX_WARNINGS == 50 and err[-1].startswith("warning: cards/g/cards.yaml:50:3:")
            assert common.Output.unshown() == "warning: and 80 more like these; `--json` lists every one"
