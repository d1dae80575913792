"""The `printkit` command: make a project and its games, check and build them, export, play."""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from printkit import __version__, build
from printkit.core import files, project
from printkit.core.errors import CheckFailed, DataError, PrintkitError, UsageError, display_path
from printkit.core.project import Project
from printkit.data import loader, scaffold, schema, settings, summary
from printkit.data.game import Game
from printkit.draw import fonts
from printkit.sheets.cardsheets import Selection

if TYPE_CHECKING:  # the engine loads only for the commands that play
    from engine.runner import Record
    from engine.simulate import Plan as SimulationPlan


def _note(text: str) -> None:
    print(f"note: {text}", file=sys.stderr)


def _load(targets: list[str], where: Project) -> list[Game]:
    """The named games (the project's own when none is named), every problem of all of them together."""
    games, problems = [], []
    for found in loader.find_all(targets, where):
        if found.note:
            _note(found.note)
        try:
            games.append(loader.load_game(found.folder, where))
        except DataError as exc:
            problems.extend(exc.problems)
    if problems:
        raise DataError(problems)
    return games


def _games(args: argparse.Namespace) -> list[Game]:
    return _load(args.games, project.find())


def _one_game(target: str) -> Game:
    return _load([target], project.find())[0]


def cmd_list(args: argparse.Namespace) -> int:
    here = project.find()
    if args.games:
        rows = [(g, "") for g in _load(args.games, here)]
    else:
        own = [loader.load_game(f, here) for f in loader.own_games(here)]
        names = {g.slug for g in own}  # a project's game hides the bundled game of its name
        bundled = [f for f in loader.bundled_games() if f.name not in names]
        rows = [(g, "") for g in own] + [(loader.load_game(f, here), "bundled") for f in bundled]
    width = max(len(g.slug) for g, _ in rows)
    for game, mark in rows:
        shown = f"{game.title}{' (bundled)' if mark else ''}"
        print(f"{game.slug:<{width}}  {shown}: {summary.count_line(game)}")
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    here = project.find()
    for game in _load(args.games, here):
        shown = f"{game.slug} (bundled)" if loader.is_bundled(game.folder, here) else display_path(game.folder)
        print(f"ok  {shown}: {game.title}, {summary.count_line(game)}")
    return 0


def _names(text: str | None) -> tuple[str, ...]:
    return tuple(n.strip() for n in text.split(",") if n.strip()) if text else ()


def _out(args: argparse.Namespace, where: Project) -> Path:
    return Path(args.out) if getattr(args, "out", None) else where.output


def _print_settings(args: argparse.Namespace, names: Sequence[str]) -> dict[str, Any]:
    """The print settings given on the command line, as the settings layer reads them."""
    given = {name: getattr(args, name, None) for name in names}
    if given.get("foldover") is False:
        given["foldover"] = None  # the flag's absence leaves the setting to the game and project
    return given


def cmd_build(args: argparse.Namespace) -> int:
    here = project.find()
    games = _load(args.games, here)  # every game loads and checks before anything is written
    if args.copies < 1:
        raise UsageError(f"--copies: expected 1 or more, found {args.copies}")
    parts = _parts(args.only)
    given = _print_settings(args, ("paper", "card_size", "bleed", "duplex", "offset", "foldover"))
    selection = Selection(_names(args.decks), _names(args.cards), args.copies)
    plans = [
        build.Plan(game, settings.resolve(game, here, given), selection, parts, args.imposition == "saddle")
        for game in games
    ]
    out = _out(args, here)
    made = build.make_all(plans, out, workers=min(2, os.cpu_count() or 1))
    if not args.no_check:  # before writing: a game its engine cannot play leaves the old outputs as they were
        _fast_check(games)
    written = build.write(made)
    for folder, count in Counter(_top_folder(p, out) for p in written).items():
        print(f"wrote {display_path(folder)}: {count} {'file' if count == 1 else 'files'}")
    return 0


def _parts(text: str | None) -> frozenset[str]:
    """The parts `--only` names, every part when it is not given."""
    if text is None:
        return frozenset(build.PARTS)
    chosen = _names(text)
    unknown = [p for p in chosen if p not in build.PARTS]
    if unknown or not chosen:
        raise UsageError(f"--only: expected some of {', '.join(build.PARTS)}, found {text!r}")
    return frozenset(chosen)


FAST_CHECK_GAMES = 12
BALANCE_CHECK_SECONDS = 30.0  # the findings on the summary page: long games (Time Line) play fewer
FAST_CHECK_SECONDS = 1.0  # per game: long games (Time Line) play fewer
MAX_GAMES = 100_000  # a run's games: its records are held together, about a kilobyte each
MAX_WORKERS = 64
MAX_RESULTS = 500_000_000  # bytes of a results.json to replay from: a million recorded games
ENDLESS_TAIL = 200  # lines of a looping game's log that replay shows: enough to see the loop


def _fast_check(games: list[Any]) -> None:
    """The build's quick look by play: a few seeded games each; errors fail the build (exit 1)."""
    from engine import check

    errors = 0
    for game in games:
        findings, records = check.run(game, FAST_CHECK_GAMES, seed=1, seconds=FAST_CHECK_SECONDS)
        if not records:  # a game no engine plays is no news here; an engine that cannot play it is
            findings = [f for f in findings if f.level == "error"]
        errors += sum(1 for f in findings if f.level == "error")
        for finding in findings:
            print(f"check: {finding}", file=sys.stderr if finding.level == "error" else sys.stdout)
    if errors:
        raise CheckFailed(
            f"the quick check by play found {errors} error{'s' if errors != 1 else ''}, so nothing was written; "
            "`printkit check` runs the full check, `--no-check` builds without it"
        )


def _top_folder(path: Path, out: Path) -> Path:
    """The game (or reference site) folder a written file belongs to, for a short report."""
    parts = path.relative_to(out).parts
    if parts[0] == "reference" and len(parts) > 2:
        return out / parts[0] / parts[1]
    return out / parts[0] if len(parts) > 1 else path


def _engine_game(target: str) -> tuple[Any, Any]:
    """The loaded game and the engine that plays it."""
    from engine import registry

    game = _one_game(target)
    try:
        return game, registry.build(game)
    except KeyError as exc:
        raise UsageError(str(exc.args[0])) from None


def _count(option: str, value: int, most: int) -> None:
    if not 1 <= value <= most:
        raise UsageError(f"{option}: expected 1 to {most:,}, found {value:,}")


def _agent_names(text: str) -> tuple[str, str]:
    from engine import agents

    names = tuple(n.strip() for n in text.split(","))
    if len(names) != 2:
        raise UsageError(f"--agents: expected two agents such as random,greedy, found {text!r}")
    for name in names:
        try:
            agents.make(name)
        except ValueError as exc:
            raise UsageError(f"--agents: {exc}") from None
    return names[0], names[1]


def cmd_simulate(args: argparse.Namespace) -> int:
    from engine import simulate, stats
    from printkit.docs import balance

    game, engine_game = _engine_game(args.game)
    _count("--games", args.games, MAX_GAMES)
    _count("--workers", args.workers, MAX_WORKERS)
    plan = simulate.Plan(game.folder, _agent_names(args.agents), args.games, args.seed)
    records = _simulate(game.slug, plan, args.workers)
    figures = stats.summarise(records, engine_game.card_names())
    run = {"game": game.slug, "agents": list(plan.agents), "games": plan.games, "seed": plan.seed}
    folder = _out(args, project.find()) / game.slug / "balance"
    for path in balance.write(folder, game.title, figures, run, records, pdf=not args.no_pdf):
        print(f"wrote {display_path(path)}")
    seats = figures["seats"]
    print(
        f"seat 1 wins {100 * seats[0]['rate']:.1f}%, seat 2 {100 * seats[1]['rate']:.1f}%, "
        f"draws {100 * figures['draws']['rate']:.1f}%; "
        + ", ".join(f"{k} {100 * v['rate']:.1f}%" for k, v in figures["agents"].items())
    )
    return 0


def _simulate(slug: str, plan: SimulationPlan, workers: int) -> list[Record]:
    """The plan's games played, with a bar; a game that never ends stops it with one line saying how to see it."""
    from engine import runner, simulate

    try:
        return simulate.run(plan, workers, simulate.progress_bar)
    except runner.EndlessGame as endless:
        sys.stderr.write("\n")  # off the progress bar's line
        index = next(i for i in range(plan.games) if plan.game_seed(i) == endless.seed)
        raise CheckFailed(
            f"{slug}: game {index + 1} of {plan.games}: {endless}; see it with: printkit replay {slug} "
            f"--seed {endless.seed} --agents {','.join(plan.seats(index))}"
        ) from None


def cmd_balance(args: argparse.Namespace) -> int:
    """Balance reports for every named game (the project's when none is named), and one summary page."""
    from engine import check, registry, simulate, stats
    from printkit.docs import balance

    _count("--games", args.count, MAX_GAMES)
    _count("--workers", args.workers, MAX_WORKERS)
    agents = _agent_names(args.agents)
    out = _out(args, project.find())
    rows, missing = [], []
    run = {"agents": list(agents), "games": args.count, "seed": args.seed}
    for game in _games(args):
        try:
            engine_game = registry.build(game)
        except KeyError:
            missing.append(game.slug)
            continue
        plan = simulate.Plan(game.folder, agents, args.count, args.seed)
        records = _simulate(game.slug, plan, args.workers)
        figures = stats.summarise(records, engine_game.card_names())
        balance.write(out / game.slug / "balance", game.title, figures, run | {"game": game.slug}, records)
        findings, _ = check.run(game, max(1, args.count // 4), args.seed, seconds=BALANCE_CHECK_SECONDS)
        rows.append({"title": game.title, "summary": figures, "findings": [f.message for f in findings]})
        print(f"{game.slug}: report in {display_path(out / game.slug / 'balance')}")
    for path in balance.write_summary(out, rows, missing, run):
        print(f"wrote {display_path(path)}")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    from engine import check

    _count("--games", args.count, MAX_GAMES)
    errors = 0
    for game in _games(args):
        findings, records = check.run(game, args.count, args.seed)
        errors += sum(1 for f in findings if f.level == "error")
        played = f"{len(records)} games played" if records else "not played"
        print(f"{game.slug}: {played}, {len(findings)} finding{'s' if len(findings) != 1 else ''}")
        for finding in findings:
            print(f"  {finding}")
    if errors:
        raise CheckFailed(f"check found {errors} error{'s' if errors != 1 else ''}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from engine import agents, runner

    game, engine_game = _engine_game(args.game)
    if args.results:
        actions = _recorded_actions(Path(args.results), args.index)
    else:
        names = _agent_names(args.agents)
        try:
            actions = runner.play(engine_game, [agents.make(n) for n in names], args.seed).actions
        except runner.EndlessGame as endless:
            # the loop is what the designer needs to see: the last moves before the runner gave up
            lines = runner.replay(engine_game, endless.actions)[:-1]
            print("\n".join(lines[-ENDLESS_TAIL:]))
            print(f"{game.slug}: {endless}", file=sys.stderr)
            return 1
    try:
        lines = runner.replay(engine_game, actions)
    except ValueError as exc:
        raise UsageError(f"the recorded actions do not replay on {game.slug}: {exc}") from None
    print("\n".join(lines))
    return 0


def _recorded_actions(path: Path, index: int) -> list[int]:
    """The actions of game index in a results.json; anything else there is one line, exit 2."""
    import json

    try:
        data = json.loads(files.read(path, MAX_RESULTS, None, "results"))
    except (ValueError, RecursionError) as exc:
        raise UsageError(f"{display_path(path)}: expected the results.json simulate writes ({exc})") from None
    games = data.get("games") if isinstance(data, dict) else None
    if not isinstance(games, list) or not games:
        raise UsageError(f"{display_path(path)}: expected a results.json with recorded games")
    if not 0 <= index < len(games):
        raise UsageError(f"--index: expected 0 to {len(games) - 1}, found {index}")
    actions = games[index].get("actions") if isinstance(games[index], dict) else None
    if not isinstance(actions, list) or not all(isinstance(a, int) and not isinstance(a, bool) for a in actions):
        raise UsageError(f"{display_path(path)}: game {index} holds no list of actions to replay")
    return actions


def _game_out(args: argparse.Namespace, game: Game, what: str) -> Path:
    return _out(args, project.find()) / game.slug / what


def cmd_export(args: argparse.Namespace) -> int:
    from printkit.exports import images, printshop, spreadsheet, tts

    here = project.find()
    game = _one_game(args.game)
    given = _print_settings(args, ("card_size", "bleed", "dpi"))
    if args.no_bleed:
        given["bleed"] = "0mm"
    chosen = settings.resolve(game, here, given)
    if args.format == "png":
        written = images.export(game, _game_out(args, game, "png"), chosen, workers=min(2, os.cpu_count() or 1))
    elif args.format == "tts":
        written = tts.export(game, _game_out(args, game, "tts"), chosen, args.base_url, args.hidden_in_last_slot)
    elif args.format == "printshop":
        written, warnings = printshop.export(game, _game_out(args, game, "printshop"), chosen, args.service)
        for warning in warnings:
            print(f"warning: {game.slug}: {warning} ({args.service})", file=sys.stderr)
    else:
        target = _game_out(args, game, f"{game.slug}.csv").with_name(f"{game.slug}.csv")
        written = [spreadsheet.export_csv(game, target)]
    for folder, count in Counter(p.parent for p in written).items():
        print(f"wrote {display_path(folder)}: {count} {'file' if count == 1 else 'files'}")
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from printkit.exports import spreadsheet

    here = project.find()
    game = _one_game(args.into)
    if loader.is_bundled(game.folder, here):
        raise UsageError(
            f"{game.slug} is a bundled game, part of printkit's installation: copy its folder into your "
            "project's cards/ and import into the copy"
        )
    source = Path(args.file)
    if not source.is_file():
        raise UsageError(f"{args.file}: no such file")
    if source.suffix.lower() != f".{args.format}":
        raise UsageError(f"{args.file}: expected a .{args.format} file")
    for path in spreadsheet.import_rows(source, game.folder, here):
        print(f"wrote {display_path(path)}")
    return 0


def cmd_preview(args: argparse.Namespace) -> int:
    from printkit.exports import preview

    game = _one_game(args.game)
    chosen = settings.resolve(game, project.find(), _print_settings(args, ("card_size",)))
    for path in preview.export(game, _game_out(args, game, "preview"), chosen):
        print(f"wrote {display_path(path)}")
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    here = project.find()
    stale = schema.stale(here)
    if args.check:
        if stale:
            names = ", ".join(display_path(p) for p in stale)
            raise CheckFailed(f"schema out of date, run `printkit schema`: {names}")
        print(f"up to date {display_path(schema.folder(here))}")
        return 0
    for path in schema.write(here):
        print(f"wrote {display_path(path)}")
    if not stale:
        print(f"up to date {display_path(schema.folder(here))}")
    return 0


def cmd_new(args: argparse.Namespace) -> int:
    here = project.find()
    bundled = frozenset(p.name for p in loader.bundled_games())
    made = scaffold.new_game(args.name, here, fonts.printable, Path(args.dir) if args.dir else None, bundled)
    for note in made.notes:
        _note(note)
    shown = display_path(made.folder)
    print(f"created {shown}: edit game.yaml and cards.yaml, then `printkit validate {shown}`")
    return 0


def cmd_init(args: argparse.Namespace) -> int:
    folder = Path(args.folder)
    for path in scaffold.init(folder):
        print(f"wrote {display_path(path)}{'/' if path.is_dir() else ''}")
    where = "" if folder.resolve() == Path.cwd().resolve() else f"cd {display_path(folder)}, then "
    print(f'next: {where}`printkit new "My Game"`, then `printkit build`')
    return 0


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="printkit", description="Print-and-play studio: YAML game data to print-ready files."
    )
    top.add_argument("--version", action="version", version=f"printkit {__version__}")
    top.add_argument("--debug", action="store_true", help="show a traceback for every error")
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def games_arg(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "games",
            nargs="*",
            metavar="GAME|PATH",
            help="a game of the project or a bundled game by name, or a game folder (default: the project's games)",
        )

    def card_size_arg(p: argparse.ArgumentParser) -> None:
        p.add_argument("--card-size", metavar="SIZE", help="poker, bridge, mini, tarot, square or WxH in mm")

    def bleed_arg(p: argparse.ArgumentParser) -> None:
        p.add_argument("--bleed", metavar="LENGTH", help="0mm to 5mm, such as 3mm or 0.125in")

    p = sub.add_parser("list", help="the games and their component counts")
    games_arg(p)
    p.set_defaults(run=cmd_list)
    p = sub.add_parser("validate", help="load and check game data; every problem as file:line:column")
    games_arg(p)
    p.set_defaults(run=cmd_validate)
    p = sub.add_parser("build", help="write every output of the games under output/")
    games_arg(p)
    p.add_argument("--paper", metavar="PAPER", help="a4, letter or a4,letter (default: both)")
    card_size_arg(p)
    bleed_arg(p)
    p.add_argument("--duplex", metavar="EDGE", help="long, short or none (default: long)")
    p.add_argument(
        "--offset", metavar="X,Y", help="shift every back by X,Y mm to correct a printer (see the calibration page)"
    )
    p.add_argument(
        "--foldover",
        action="store_true",
        help="faces and backs side by side with a fold line, for single-sided printers",
    )
    p.add_argument("--decks", metavar="ID,...", help="only these decks")
    p.add_argument("--cards", metavar="ID,...", help="only these cards")
    p.add_argument("--copies", type=int, default=1, help="print every selected card this many times over")
    p.add_argument("--imposition", choices=["saddle"], help="also write the booklets 2-up for folding and stapling")
    p.add_argument(
        "--only",
        metavar="PART,...",
        help=f"only these parts: {', '.join(build.PARTS)} (the bundle is built from the first four)",
    )
    p.add_argument("--no-check", action="store_true", help="skip the quick check by play at the end of the build")
    p.add_argument("--out", help="output folder (default: output/ in the project)")
    p.set_defaults(run=cmd_build)
    p = sub.add_parser("export", help="card images and data for other tools: png, tts, printshop, csv")
    p.add_argument("format", choices=["png", "tts", "printshop", "csv"])
    p.add_argument("game", metavar="GAME|PATH")
    card_size_arg(p)
    bleed_arg(p)
    p.add_argument("--dpi", help="png: dots per inch, 36 to 1200 (default 300)")
    p.add_argument("--no-bleed", action="store_true", help="png: trim size only, without the bleed")
    p.add_argument("--base-url", help="tts: where the sheets will be hosted (default: local file URLs)")
    p.add_argument(
        "--hidden-in-last-slot",
        action="store_true",
        help="tts: put the back in each sheet's last slot instead of setting BackIsHidden",
    )
    p.add_argument("--service", default="mpc", help="printshop: mpc, drivethrucards or gamecrafter")
    p.add_argument("--out", help="output folder (default: output/ in the project)")
    p.set_defaults(run=cmd_export)
    p = sub.add_parser("import", help="cards from a spreadsheet back into a game's YAML")
    p.add_argument("format", choices=["csv", "xlsx"])
    p.add_argument("file")
    p.add_argument("--into", required=True, metavar="GAME|PATH")
    p.set_defaults(run=cmd_import)
    p = sub.add_parser("preview", help="a contact sheet PNG per deck")
    p.add_argument("game", metavar="GAME|PATH")
    card_size_arg(p)
    p.add_argument("--out", help="output folder (default: output/ in the project)")
    p.set_defaults(run=cmd_preview)
    p = sub.add_parser("simulate", help="play many seeded games and write a balance report")
    p.add_argument("game", metavar="GAME|PATH")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--agents", default="random,random", help="two of random, greedy, mcts, mctsN")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--no-pdf", action="store_true", help="write results.json and the HTML report only")
    p.add_argument("--out", help="output folder (default: output/ in the project)")
    p.set_defaults(run=cmd_simulate)
    p = sub.add_parser("balance", help="balance reports for all games and a one-page summary across them")
    games_arg(p)
    p.add_argument("--games", dest="count", type=int, default=200, help="games per game (default 200)")
    p.add_argument("--agents", default="random,random")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--out", help="output folder (default: output/ in the project)")
    p.set_defaults(run=cmd_balance)
    p = sub.add_parser("check", help="validate games by playing them: crashes, caps, fairness, dead or dominant cards")
    games_arg(p)
    p.add_argument("--games", dest="count", type=int, default=200, help="seeded games per game (default 200)")
    p.add_argument("--seed", type=int, default=1)
    p.set_defaults(run=cmd_check)
    p = sub.add_parser("replay", help="print a readable log of a game, played from a seed or from results.json")
    p.add_argument("game", metavar="GAME|PATH")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--agents", default="random,random")
    p.add_argument("--results", help="a results.json written by simulate")
    p.add_argument("--index", type=int, default=0, help="which game of the results to replay")
    p.set_defaults(run=cmd_replay)
    p = sub.add_parser("schema", help="write the JSON Schemas editors use to check the YAML")
    p.add_argument(
        "--check", action="store_true", help="only check that the project's schemas are current (exit 1 if not)"
    )
    p.set_defaults(run=cmd_schema)
    p = sub.add_parser("new", help="start a new game in the project's cards/ folder")
    p.add_argument("name", help="the game's name, as it should read on its cards and booklet")
    p.add_argument("--dir", help="where to create the game's folder (default: the project's cards/)")
    p.set_defaults(run=cmd_new)
    p = sub.add_parser("init", help="make a folder a printkit project: printkit.toml, cards/, layouts/")
    p.add_argument("folder", nargs="?", default=".", help="the project folder (default: here)")
    p.set_defaults(run=cmd_init)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        code = int(args.run(args))
        sys.stdout.flush()  # here, where a reader that went away is handled, not at exit
        return code
    except PrintkitError as exc:
        if args.debug:
            traceback.print_exc()
        for line in exc.lines():
            print(line, file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("printkit: interrupted; outputs already written are whole, the rest untouched", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader stopped listening (`printkit list | head -1`): stop quietly, as a shell tool would
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
