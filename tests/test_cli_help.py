"""The command line teaches: an overview by job, help for every command and option with defaults and examples,
a did-you-mean for every kind of typo, completion for bash, zsh and fish, and quiet or verbose output."""

from __future__ import annotations

import argparse
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


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        (["bulid"], "printkit: no command 'bulid'; did you mean 'build'?"),
        (["build", "--papr", "a4"], "printkit: printkit build does not take --papr; did you mean --paper?"),
        (["build", "--duplex", "lnog"], "printkit: --duplex: expected long, short or none, found 'lnog'; did you mean"),
        (["export", "pgn", "battle-line"], "printkit: format: expected png, tts, printshop or csv, found 'pgn'"),
        (["validate", "batle-line"], "printkit: batle-line: no such game or folder; did you mean 'battle-line'?"),
        (["build", "battle-line", "--only", "cads"], "did you mean 'cards'?"),
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
    assert main(["build", "--only", "cards", "--no-check", "-q"]) == 0
    assert capsys.readouterr() == ("", "")
    assert main(["build", "--only", "cards", "--no-check", "--verbose"]) == 0
    out = capsys.readouterr().out
    assert "wrote output/quiet-game/cards-a4.pdf" in out and "building quiet-game" in out and "done:" in out


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
    assert _bash_complete("printkit export p") == ["png", "printshop"]


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_zsh_and_fish_scripts_parse_and_complete(shell: str, tmp_path: Path) -> None:
    program = shutil.which(shell)
    assert program, f"the completion test needs {shell} (apt-get install {shell})"
    path = tmp_path / f"printkit.{shell}"
    path.write_text(script(shell, commands.parser()))
    subprocess.run([program, "-n", str(path)], check=True)
    if shell == "fish":
        bin_path = Path(sys.executable).parent
        run = subprocess.run(
            [program, "-c", f"source {path}; complete -C 'printkit build --dup'"],
            capture_output=True,
            text=True,
            check=True,
            env={"PATH": f"{bin_path}:/usr/bin:/bin", "HOME": str(tmp_path)},
        )
        assert run.stdout.startswith("--duplex")


def _readme_block_after(marker: str) -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return text.split(marker, 1)[1].split("```text\n", 1)[1].split("```", 1)[0]


def test_the_readme_shows_the_commands_as_they_are(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    assert _readme_block_after("`printkit` alone lists them:") == capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["build", "--help"])
    assert _readme_block_after("`printkit build --help`:") == capsys.readouterr().out


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
    cards = tmp_path / "cards" / "json-game" / "cards.yaml"
    cards.write_text(cards.read_text().replace("power: 1", "power: one"))
    assert main(["validate", "--json"]) == 2
    report = json.loads(capsys.readouterr().out)
    (problem,) = report["problems"]
    assert report["ok"] is False and report["exit_code"] == 2
    assert problem["file"] == "cards/json-game/cards.yaml" and problem["line"] == 3 and "power" in problem["message"]
