"""The commands that make things: init, new, validate, build, schema."""

from __future__ import annotations

import argparse
import functools
import os
import sys
import time
from collections import Counter
from pathlib import Path

from printkit import build, incremental
from printkit.cli.common import (
    Output,
    chosen,
    detail,
    game_entry,
    load,
    names,
    note,
    out_folder,
    print_settings,
    record,
    say,
    warn,
)
from printkit.cli.progress import Bar
from printkit.core import atomic, project
from printkit.core.choices import MAX_COPIES, PARTS
from printkit.core.errors import CheckFailed, Failures, UsageError, display_path
from printkit.core.units import MM
from printkit.data import loader, scaffold, schema, settings, summary
from printkit.data.game import Game
from printkit.data.summary import plural
from printkit.draw import drawcache, fonts, ink
from printkit.sheets import cardsheets
from printkit.sheets.cardsheets import Selection

FAST_CHECK_GAMES = 12
FAST_CHECK_SECONDS = 1.0  # per game: long games (Time Line) play fewer


def cmd_init(args: argparse.Namespace) -> int:
    folder = Path(args.folder)
    for path in scaffold.init(folder):
        say(f"wrote {display_path(path)}{'/' if path.is_dir() else ''}")
    where = "" if folder.resolve() == Path.cwd().resolve() else f"cd {display_path(folder)}, then "
    say(f'next: {where}`printkit new "My Game"`, then `printkit build`')
    return 0


def cmd_new(args: argparse.Namespace) -> int:
    here = project.find()
    bundled = frozenset(p.name for p in loader.bundled_games())
    made = scaffold.new_game(
        args.name, here, fonts.printable, Path(args.dir) if args.dir else None, bundled, args.starter
    )
    for text in made.notes:
        note(text)
    shown = display_path(made.folder)
    say(f"created {shown}: edit game.yaml and cards.yaml, then `printkit validate {shown}`")
    return 0


def _engine_problems(game: Game) -> list[str]:
    """What the game's reference engine needs from the data and lacks: validate says so before simulate does."""
    from engine import findings, registry  # the engine is loaded only for a game that names one

    if game.info.engine is None:
        return []
    return registry.data_problems(game) or findings.problems(game)


def _engine_needs(game: Game) -> list[str]:
    """What the engine the game names needs from its data and lacks: build refuses such data as validate does."""
    from engine import registry

    return registry.data_problems(game) if game.info.engine is not None else []


def _unread_options(game: Game) -> str | None:
    """A note naming the rule options the game's engine plays one way only, whatever the data says."""
    from engine import registry

    return registry.unread_options(game) if game.info.engine is not None else None


def cmd_validate(args: argparse.Namespace) -> int:
    """Every problem of every game named, in one run: its data's, then its drawings' (of the cards that load), then
    its engine's (once the data loads whole)."""
    here = project.find()
    problems: list[str] = []
    stopped: list[str] = []  # where a game's check stopped short, and why: said after its problems
    checked = []
    for item in loader.find_all(list(args.games), here):
        if item.note:
            note(item.note)
        game, unloaded = loader.check_game(item.folder, here)
        problems += [str(p) for p in sorted(set(unloaded))]  # by place, each once, as a DataError says them
        if game is None:  # said once: the cards were read, but there is nothing to draw them by
            stopped.append(f"note: {item.folder.name}: its cards are drawn and checked once its game.yaml loads")
            continue
        if game.info.engine is not None and game.engine is None:
            # an engine not found (or a module of its own not trusted, which the loader said): its cards' faces may
            # print what that engine would say of them
            if game.info.engine_file is None:
                problems += _engine_problems(game)
            stopped.append(f"note: {game.slug}: its cards are drawn and checked once printkit has its engine")
            checked.append(game_entry(game, False))
            continue
        given = print_settings(args, ("card_size", "bleed", "printer_margin", "margin_tolerance", "cuts", "paper"))
        in_game_yaml = any(p.file == display_path(item.folder / loader.GAME_FILE) for p in unloaded)
        found = build.proof(game, settings.resolve(game, here, given), not unloaded, cards_only=in_game_yaml)
        if unloaded:  # the engine plays a whole game only: its checks wait for the data's problems to go
            if game.info.engine is not None:
                stopped.append(f"note: {game.slug}: its {game.info.engine} engine's checks wait for these to be fixed")
            problems += found.problems
            for notice in found.notices:
                warn(notice)
            checked.append(game_entry(game, False))
            continue
        # its options read before its studies' variants are built: the engine game built for the one is kept for
        # the other and for its data's check, where a study's points would push it out of registry's few
        unread = _unread_options(game)
        found.problems.extend(_engine_problems(game))
        for notice in found.notices:
            warn(notice)
        if unread:
            note(unread)
        checked.append(game_entry(game, not found.problems))
        if found.problems:
            problems += found.problems
            continue
        shown = f"{game.slug} (bundled)" if loader.is_bundled(game.folder, here) else display_path(game.folder)
        say(f"ok  {shown}: {game.title}, {summary.count_line(game)}")
    record("games", checked)
    if problems:
        raise Failures(problems + stopped)
    return 0


def cmd_build(args: argparse.Namespace) -> int:
    if not 1 <= args.copies <= MAX_COPIES:
        raise UsageError(f"--copies: expected 1 to {MAX_COPIES}, found {args.copies}")
    chosen("--only", args.only, PARTS)  # a bad --only stops here, before any work
    if args.watch:
        from printkit import watch

        here = project.find()
        first = functools.partial(_build, args, watching=True)
        again = functools.partial(_rebuild, args)
        return watch.run(args.games, here, out_folder(args, here), args.port, first, again, not args.no_check, say)
    _build(args, args.games, not args.no_check)
    return 0


def _rebuild(args: argparse.Namespace, targets: list[str], check: bool) -> list[Path]:
    """A rebuild while watching: the same build, saying only its one line and its problems."""
    said = Output.quiet
    Output.quiet = True
    try:
        return _build(args, targets, check, watching=True)
    finally:
        Output.quiet = said


def _build(args: argparse.Namespace, targets: list[str], check: bool, watching: bool = False) -> list[Path]:
    """One build of the games named: drawn once to find every problem, made in memory, checked, then written.

    Each part an earlier build into the same folder made from the same inputs is left as it is (printkit.incremental).
    watching: the sheets land as soon as they are made, the booklets, bundles and pages after them, and the quick
    check runs once all is written, when the game's data changed since it last passed: a designer sees the cards
    first, and a finding is said without holding the outputs back.
    """
    here = project.find()
    # first, whatever this build finds: a build killed while its files landed is put whole (the new one's files
    # land only at the end, and this one may stop before then)
    atomic.settle(out_folder(args, here))
    chosen_games = load(targets, here)  # every game loads and checks before anything is made
    parts = chosen("--only", args.only, PARTS)
    keys = (
        "paper",
        "card_size",
        "bleed",
        "printer_margin",
        "margin_tolerance",
        "cuts",
        "duplex",
        "offset",
        "foldover",
        "colour",
        "ink_limit",
        "pdfx",
    )
    given = print_settings(args, keys)
    selection = Selection(names(args.decks), names(args.cards), args.copies)
    plans = [
        build.Plan(game, settings.resolve(game, here, given), selection, parts, args.imposition == "saddle")
        for game in chosen_games
    ]
    for plan in plans:  # cmyk on a machine without a profile: one line before any work
        ink.press(plan.settings)
    if not selection.everything:  # a --decks or --cards naming nothing is one line, before any warning
        for plan in plans:
            cardsheets.card_pieces(plan.game, plan.settings.card_size, selection)
    problems: list[str] = []
    for plan in plans:  # drawn once first: every problem of every game at once, before any work is made
        found = build.proof(plan.game, plan.settings)
        problems += found.problems + (_engine_needs(plan.game) if check else [])
        for notice in found.notices:
            warn(notice)
    if problems:
        raise Failures(problems)
    out = out_folder(args, here)
    papers = sorted({paper for plan in plans for paper in plan.settings.papers})
    started = time.perf_counter()
    on = " and ".join(settings.PAPER_NAMES[p] for p in papers)
    what = ", ".join(p for p in PARTS if p in parts)
    say(f"building {', '.join(g.slug for g in chosen_games)} on {on}: {what}")
    # the margin a build keeps, said where the designer reads it: ink that begins further in than they expected
    # is no mystery, and a printer that clips names the setting to change
    keeping: dict[tuple[float, float], list[str]] = {}
    for plan in plans:
        keeping.setdefault((plan.settings.printer_margin, plan.settings.margin_tolerance), []).append(plan.game.slug)
    for (margin, tolerance), slugs in keeping.items():
        whose = f"{', '.join(slugs)}: " if len(keeping) > 1 else ""  # the games apart only when they differ
        say(
            f"  {whose}ink begins {(margin + tolerance) / MM:g} mm from each paper edge: printer margin"
            f" {margin / MM:g} mm + margin tolerance {tolerance / MM:g} mm"
        )
    bar = Bar(sum(build.steps(plan) for plan in plans), "parts made")

    def made_one(game: Game, seconds: float) -> None:
        if not bar.shown:  # on a terminal the bar says it in place; a log gets a line a game
            say(f"  made {game.slug} ({seconds:.1f} s)")

    bar(0)
    written: list[Path] = []

    def land_early(slug: str, files: build.Files, record: incremental.Record) -> None:
        written.extend(build.write(files, out))
        incremental.remember(out, {slug: record})

    try:
        with drawcache.kept():  # the reference site's card pictures: unchanged cards are not drawn again
            workers = min(2, os.cpu_count() or 1)
            made = build.make_all(
                plans,
                out,
                workers,
                made_one,
                lambda n, total, what: bar(n, total, what),
                land_early if watching else None,
            )
    finally:
        bar.close()
    checking = [game for game in chosen_games if check and not _checked(game, out)]
    if checking and not watching:  # before writing: a game its engine cannot play leaves the old outputs as they were
        _quick_check(checking, here, out)
    written += build.write(made.files, out)
    incremental.remember(out, made.records)
    if checking and watching:
        _quick_check(checking, here, out, written=True)
    for path in written:
        detail(f"wrote {display_path(path)}")
    for folder, n in Counter(_top_folder(p, out) for p in written).items():
        say(f"wrote {display_path(folder)}: {n} {plural('file', n)}")
    kept = {slug: left for slug, left in made.kept.items() if left}
    for slug, left in kept.items():
        detail(f"{slug}: as the last build left them: {', '.join(left)}")
    seconds = time.perf_counter() - started
    site = out / build.REFERENCE / "index.html"
    tail = f"; the rules reference is {display_path(site)}" if "reference" in parts else ""
    say(f"done: {len(written)} files in {display_path(out)} in {seconds:.1f} s{tail}")
    if not watching:  # once a build, not at every save of a watch
        say("what each file is for, and how to print it: printkit help outputs")
    record("games", [game_entry(game, True) for game in chosen_games])
    record("written", [display_path(path) for path in written])
    record("kept", kept)
    return written


CHECK = "check"  # the quick check's entry in a game's record: its inputs when it last passed


def _check_inputs(game: Game, out: Path) -> str:
    """What the quick check plays from: the code, the game's files (but its rules text, which no engine reads)."""
    from printkit.docs.rulesbook import RULES_FILE

    rules = str(game.folder.resolve() / RULES_FILE)
    read = {path: value for path, value in incremental.game_files(game, out).items() if path != rules}
    return incremental.digest(CHECK, incremental.code(), read, FAST_CHECK_GAMES, FAST_CHECK_SECONDS)


def _checked(game: Game, out: Path) -> bool:
    """Whether the quick check passed on these very inputs before: it would only say so again."""
    return incremental.fresh(incremental.load(out, game.slug), CHECK, _check_inputs(game, out))


def _quick_check(chosen_games: list[Game], here: project.Project, out: Path, written: bool = False) -> None:
    """The build's quick look by play: a few seeded games each. An error stops the build before it writes, or, the
    outputs written already (written), is said with them in place."""
    from engine import check

    errors = 0
    for game in chosen_games:
        findings, records = check.run(game, FAST_CHECK_GAMES, seed=1, seconds=FAST_CHECK_SECONDS)
        if not records:  # a game no engine plays is no news here; an engine that cannot play it is
            findings = [f for f in findings if f.level == "error"]
        errors += sum(1 for f in findings if f.level == "error")
        bundled = loader.is_bundled(game.folder, here)
        for finding in findings:
            if finding.level == "error":
                Output.report.setdefault("findings", []).append(str(finding))
                if not Output.json:
                    print(f"check: {finding}", file=sys.stderr)
            elif bundled:  # a few quick games' figures about printkit's own examples, not the user's data
                note(f"the bundled {game.slug} in {len(records)} quick games: {finding.message}")
            else:
                say(f"check: {finding}")
        if not any(f.level == "error" for f in findings):
            incremental.remember(out, {game.slug: {CHECK: incremental.entry(_check_inputs(game, out), {})}})
    if errors and written:
        print(
            f"check: the quick check by play found {errors} error{'s' if errors != 1 else ''}; the outputs are "
            "written, `printkit check` runs the full check",
            file=sys.stderr,
        )
    elif errors:
        raise CheckFailed(
            f"the quick check by play found {errors} error{'s' if errors != 1 else ''}, so nothing was written; "
            "`printkit check` runs the full check, `--no-check` builds without it",
            topic="simulate-balance",
        )


def _top_folder(path: Path, out: Path) -> Path:
    """The game (or reference site) folder a written file belongs to, for a short report."""
    parts = path.relative_to(out).parts
    if parts[0] == build.REFERENCE and len(parts) > 2:
        return out / parts[0] / parts[1]
    return out / parts[0] if len(parts) > 1 else path


def cmd_schema(args: argparse.Namespace) -> int:
    here = project.find()
    stale = schema.stale(here)
    if args.check:
        if stale:
            listed = ", ".join(display_path(p) for p in stale)
            raise CheckFailed(f"schema out of date, run `printkit schema`: {listed}", topic="schema")
        say(f"up to date {display_path(schema.folder(here))}")
        return 0
    for path in schema.write(here):
        say(f"wrote {display_path(path)}")
    if not stale:
        say(f"up to date {display_path(schema.folder(here))}")
    return 0
