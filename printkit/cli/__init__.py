"""The `printkit` command line: parse, run the command, and report what goes wrong as one line each."""

from __future__ import annotations

import argparse
import difflib
import json
import os
import sys
import traceback
from collections.abc import Sequence

from printkit.cli import manual
from printkit.cli.common import Output, placed
from printkit.core.errors import PrintkitError, display_path, safe


def main(argv: Sequence[str] | None = None) -> int:
    from printkit.cli import parser as commands

    words = list(sys.argv[1:] if argv is None else argv)
    top = commands.parser()
    if not words:
        print(commands.overview(), end="")
        return 0
    args, extra = top.parse_known_args(words)
    if extra:
        _unknown(top, args.command, extra)
    if args.command is None:
        print(commands.overview(), end="")
        return 0
    Output.set(args)
    try:
        if getattr(args, "trust", False):
            _trust(args)
        code = int(args.run(args))
        _unshown_warnings()
        if Output.json:
            Output.report["exit_code"] = code
            print(json.dumps(Output.report, ensure_ascii=False, indent=1))
        sys.stdout.flush()  # here, where a reader that went away is handled, not at exit
        return code
    except PrintkitError as exc:
        _unshown_warnings()
        if args.debug:
            traceback.print_exc()
        if Output.json:
            problems = [placed(x, exc.topic) for x in exc.lines()]
            Output.report |= {"ok": False, "exit_code": exc.exit_code, "problems": problems}
            print(json.dumps(Output.report, ensure_ascii=False, indent=1))
            return exc.exit_code
        for line in exc.lines():
            print(manual.pointed(line, exc.topic), file=sys.stderr)
        return exc.exit_code
    except BrokenPipeError:
        # the reader stopped listening (`printkit list | head -1`): stop quietly, as a shell tool would
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except OSError as exc:  # a file printkit had to read or write: the system said no
        where = f" {safe(display_path(exc.filename))}" if exc.filename else ""
        print(f"printkit: cannot use{where}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("printkit: interrupted; outputs already written are whole, the rest untouched", file=sys.stderr)
        return 130


def _unshown_warnings() -> None:
    line = Output.unshown()
    if line is not None:
        print(line, file=sys.stderr)


def _trust(args: argparse.Namespace) -> None:
    """--trust: the games this command names (the project's own, when it names none) may run their own engines."""
    from printkit.core import project
    from printkit.data import enginecards, loader

    # a command names its games in `games` (a list) or its one game in `game`; simulate's --games is a count
    game, games = getattr(args, "game", None), getattr(args, "games", None)
    named = [game] if isinstance(game, str) else list(games) if isinstance(games, list) else []
    enginecards.trust(found.folder for found in loader.find_all(named, project.find()))


def _unknown(top: object, command: str | None, extra: list[str]) -> None:
    """Words the command does not take: one line, with the closest option it does take."""
    from printkit.cli import completion, parser

    known = next((s for s in completion.specs(parser.parser()) if s.name == command), None)
    options = [*known.flags, *known.valued] if known else ["--help", "--version", "--quiet", "--verbose", "--debug"]
    word = extra[0].split("=", 1)[0]
    hint = difflib.get_close_matches(word, options, n=1) if word.startswith("-") else []
    where = f"printkit {command}" if command else "printkit"
    suggestion = f"; did you mean {hint[0]}?" if hint else ""
    print(f"printkit: {where} does not take {' '.join(extra)}{suggestion} (see `{where} --help`)", file=sys.stderr)
    raise SystemExit(2)
