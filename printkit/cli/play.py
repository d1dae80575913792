"""The commands that play a game with the reference engine: simulate, sweep, tune, replay, check, balance."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from printkit.cli import manual
from printkit.cli.common import Output, count, games, note, one_game, out_folder, say
from printkit.cli.progress import Bar
from printkit.core import cache, files, project
from printkit.core.choices import (
    CARD_VALUE_GAMES,
    LADDER_GAMES,
    LADDER_LONGEST,
    MAX_GAMES,
    MAX_LADDER,
    MAX_SEEDS,
    MAX_TRIALS,
    MAX_WORKERS,
)
from printkit.core.errors import CheckFailed, UsageError, display_path, safe
from printkit.data.game import Game

if TYPE_CHECKING:  # the engine loads only when a command plays
    from engine.api import GameDef
    from engine.runner import Record
    from engine.simulate import Plan

MAX_RESULTS = 500_000_000  # bytes of a results.json to replay from
MAX_SEATS = 6  # players a game may seat (engine/play/book.py's MAX_PLAYERS): --agents names one a seat at most
ENDLESS_TAIL = 200  # lines of a looping game's log that replay shows: enough to see the loop


def engine_game(target: str) -> tuple[Game, Any]:
    """The loaded game and the engine that plays it."""
    from engine import registry

    game = one_game(target)
    try:
        return game, registry.build(game)
    except KeyError as exc:  # no engine: the rules language is how a designer's game gets one
        raise UsageError(str(exc.args[0]), topic="rules-language") from None


def agent_names(text: str, seats: int | None = None) -> tuple[str, ...]:
    """--agents as names: two at least, one a seat at most (seats: the game's, where one game is played)."""
    from engine import agents

    picked = tuple(n.strip() for n in text.split(","))
    most = seats if seats is not None else MAX_SEATS
    if not 2 <= len(picked) <= max(most, 2):
        raise UsageError(
            f"--agents: expected two agents such as random,greedy, or one a seat up to {most}, found {text!r}"
        )
    for name in picked:
        try:
            agents.check(name)
        except ValueError as exc:
            raise UsageError(f"--agents: {exc}") from None
    return picked


def cmd_simulate(args: argparse.Namespace) -> int:
    from engine import findings, simulate, stats
    from printkit.docs import balance

    game, engine = engine_game(args.game)
    count("--games", args.games, MAX_GAMES)
    count("--workers", args.workers, MAX_WORKERS)
    plan = simulate.Plan(game.folder, agent_names(args.agents, engine.num_players), args.games, args.seed)
    folder = out_folder(args, project.find()) / game.slug / "balance"
    run = {"game": game.slug, "agents": list(plan.agents), "games": plan.games, "seed": plan.seed}
    with _playing(args):  # written while the games' stored chunks are kept: results.json copies their JSON
        records = _simulate(game.slug, plan, args.workers)
        figures = stats.summarise(records, engine.card_names())
        figures["explained"] = findings.endings(figures)
        stored = simulate.stored_games(plan)
        written = balance.write(folder, game.title, figures, run, records, pdf=not args.no_pdf, encoded=stored)
    for path in written:
        say(f"wrote {display_path(path)}")
    seats = ", ".join(f"seat {i} {100 * seat['rate']:.1f}%" for i, seat in enumerate(figures["seats"][1:], 2))
    say(
        f"seat 1 wins {100 * figures['seats'][0]['rate']:.1f}%, {seats}, "
        f"draws {100 * figures['draws']['rate']:.1f}%; "
        + ", ".join(f"{k} {100 * v['rate']:.1f}%" for k, v in figures["agents"].items())
    )
    return 0


def cmd_sweep(args: argparse.Namespace) -> int:
    from engine import sweep
    from printkit.data import variant
    from printkit.docs import balance

    game, engine = engine_game(args.game)
    count("--games", args.games, MAX_GAMES)
    count("--workers", args.workers, MAX_WORKERS)
    varied = variant.parse_all(args.vary)
    paths = [path for path, _ in varied]
    agents = agent_names(args.agents, engine.num_players)
    points = len(sweep.grid(varied))
    say(f"{game.slug}: {points} points of {args.games} games, {' vs '.join(agents)}")
    bar = Bar(points, "points")
    folder = out_folder(args, project.find()) / game.slug / "sweeps" / "+".join(paths)
    try:
        with _playing(args):
            figures = sweep.run(game, varied, agents, args.games, args.seed, args.workers, bar)
    finally:
        bar.close()
    run = {"game": game.slug, "agents": list(agents), "games": args.games, "seed": args.seed}
    for path in balance.write_sweep(folder, game.title, figures, run, pdf=not args.no_pdf):
        say(f"wrote {display_path(path)}")
    for line in balance.sweep_table(figures):
        say(line)
    return 0


def cmd_tune(args: argparse.Namespace) -> int:
    from engine import tune
    from printkit.data import variant
    from printkit.docs import balance

    game, engine = engine_game(args.game)
    count("--games", args.games, MAX_GAMES)
    count("--workers", args.workers, MAX_WORKERS)
    count("--trials", args.trials, MAX_TRIALS)
    varied = variant.parse_all(args.vary)
    agents = agent_names(args.agents, engine.num_players)
    bar = Bar(args.trials, "trials")
    folder = out_folder(args, project.find()) / game.slug / "tune" / args.target
    try:
        with _playing(args):
            found = tune.run(game, varied, args.target, agents, args.games, args.seed, args.trials, args.workers, bar)
    finally:
        bar.close()
    run = {"game": game.slug, "agents": list(agents), "games": args.games, "seed": args.seed, "trials": args.trials}
    command = "printkit tune " + " ".join([game.slug, *(f"--vary {v}" for v in args.vary), f"--target {args.target}"])
    written = balance.write_tune(folder, game.title, found, run, tune.patch(found, command), pdf=not args.no_pdf)
    for path in written:
        say(f"wrote {display_path(path)}")
    best = ", ".join(f"{path}={variant.spelled(value)}" for path, value in found["best"]["values"].items())
    say(f"best for {args.target}: {best} ({found['best']['target']:.3f})")
    return 0


def _simulate(slug: str, plan: Plan, workers: int) -> list[Record]:
    """The plan's games played, with a bar; a game that never ends stops it with one line saying how to see it."""
    from engine import runner, simulate

    bar = Bar(plan.games, f"games of {slug}")
    try:
        return simulate.run(plan, workers, bar)
    except runner.EndlessGame as endless:
        index = next(i for i in range(plan.games) if plan.game_seed(i) == endless.seed)
        raise CheckFailed(
            f"{slug}: game {index + 1} of {plan.games}: {endless}; see it with: printkit replay {slug} "
            f"--seed {endless.seed} --agents {','.join(plan.seats(index))}",
            topic="simulate-balance",
        ) from None
    finally:
        bar.close()


def cmd_balance(args: argparse.Namespace) -> int:
    """Balance reports for every named game (the project's when none is named), and one summary page."""
    from engine import registry
    from printkit.docs import balance

    count("--games", args.count, MAX_GAMES)
    for option, asked in (("--ladder", args.ladder), ("--card-value", args.card_value)):
        if asked is not None and not 0 <= asked <= MAX_LADDER:
            raise UsageError(f"{option}: expected 0 to {MAX_LADDER:,}, found {asked:,}")
    count("--workers", args.workers, MAX_WORKERS)
    agents = agent_names(args.agents)
    out = out_folder(args, project.find())
    rows, missing = [], []
    run = {"agents": list(agents), "games": args.count, "seed": args.seed}
    for game in games(args):
        try:
            engine = registry.build(game)
        except KeyError as exc:  # said in one line, and its summary row claims no games
            missing.append(game.slug)
            unplayed = str(exc.args[0]).removeprefix(game.slug + ": ")
            say(f"{game.slug}: not played: {manual.pointed(unplayed, 'rules-language')}")
            continue
        with _playing(args):
            rows.append(_balance_one(args, game, engine, agents, run, out))
        say(f"{game.slug}: report in {display_path(out / game.slug / 'balance')}")
    for path in balance.write_summary(out, rows, missing, run):
        say(f"wrote {display_path(path)}")
    return 0


def _balance_one(
    args: argparse.Namespace, game: Game, engine: GameDef, agents: tuple[str, ...], run: dict[str, Any], out: Path
) -> dict[str, Any]:
    """One game's balance report, written; its row of the summary page."""
    from engine import check, findings, ladder, simulate, stats
    from printkit.docs import balance

    plan = simulate.Plan(game.folder, agents, args.count, args.seed)
    records = _simulate(game.slug, plan, args.workers)
    figures = stats.summarise(records, engine.card_names())
    actions = figures["metrics"]["duration"]["actions"]["mean"]
    climb = _asked(args.ladder, LADDER_GAMES, actions, f"{game.slug}: no skill ladder", "--ladder")
    if climb:
        figures["ladder"] = ladder.climb(game.folder, climb, args.seed, args.workers)
    valued = _asked(args.card_value, CARD_VALUE_GAMES, actions, f"{game.slug}: no card values", "--card-value")
    if valued:
        figures["card_values"] = _card_values(game.slug, game.folder, engine.card_names(), plan.agents, valued, args)
    if game.info.studies and not args.no_studies:
        figures["studies"] = [_study(game, i, args) for i in range(len(game.info.studies))]
    named = game.info.expert is not None
    figures["explained"] = [findings.resting(figures, plan.agents, engine.expert, named)]
    figures["explained"] += findings.endings(figures) + [s["answer"] for s in figures.get("studies", [])]
    stored = simulate.stored_games(plan)  # cmd_balance calls this while the store keeps the plan's chunks
    balance.write(out / game.slug / "balance", game.title, figures, run | {"game": game.slug}, records, encoded=stored)
    checked = check.judge(game.slug, records, engine.card_names())  # from the games the tables show
    return {"title": game.title, "summary": figures, "findings": [f.message for f in checked]}


def _study(game: Game, index: int, args: argparse.Namespace) -> dict[str, Any]:
    """One of the game's studies played, with a bar over its points."""
    from engine import findings, sweep

    study = game.info.studies[index]
    bar = Bar(len(sweep.grid(findings.plan(study)[0])), f"points of {game.slug}'s study {index + 1}")
    try:
        return findings.run(game, study, args.seed, args.workers, bar)
    finally:
        bar.close()


def _playing(args: argparse.Namespace) -> contextlib.AbstractContextManager[object]:
    """The command's games played where --scheduler says, finished chunks kept in the user's cache until the
    command is done (--resume reads them)."""
    from engine import simulate

    return simulate.backend(args.scheduler, cache.folder("chunks"), args.resume)


def _asked(games: int | None, default: int, actions: float, skipped: str, option: str) -> int:
    """Games of a long study (ladder, card values): as asked, else the default unless the game's games are long."""
    if games is not None:
        return games
    if actions > LADDER_LONGEST:  # MCTS, or a run per card, through games this long takes hours
        note(f"{skipped}: its games run {actions:,.0f} actions; {option} N asks for it")
        return 0
    return default


def _card_values(
    slug: str, folder: Path, cards: dict[str, str], agents: tuple[str, ...], games: int, args: argparse.Namespace
) -> dict[str, Any]:
    """Each card's value by restricted play, by the first agent named, with a bar."""
    from engine import cardvalue

    agent = agents[0]
    bar = Bar(len(cards), f"cards of {slug} held back")
    try:
        return {"agent": agent, "cards": cardvalue.values(folder, cards, agent, games, args.seed, args.workers, bar)}
    finally:
        bar.close()


def cmd_check(args: argparse.Namespace) -> int:
    from engine import check, metrics, simulate

    count("--games", args.count, MAX_GAMES)
    count("--workers", args.workers, MAX_WORKERS)
    errors = 0
    explained = False  # a game was played, so its metrics line wants its page named once
    for game in games(args):
        with simulate.backend(args.scheduler):
            findings, records = check.run(game, args.count, args.seed, workers=args.workers)
        errors += sum(1 for f in findings if f.level == "error")
        if not records and [f.level for f in findings] == ["note"]:  # no engine: one line says so, nothing more
            unplayed = findings[0].message.removeprefix(game.slug + ": ")
            say(f"{game.slug}: not played: {manual.pointed(unplayed, 'rules-language')}")
            continue
        played = f"{len(records)} games played" if records else "not played"
        say(f"{game.slug}: {played}, {len(findings)} finding{'s' if len(findings) != 1 else ''}")
        if records:
            say(f"  metrics: {metrics.line(metrics.measure(records))}")
        for finding in findings:  # the findings are the answer: shown even with --quiet
            print(safe(f"{game.slug}: {finding}" if Output.quiet else f"  {finding}"))
        explained = explained or bool(records)
    if explained:
        say("what the metrics and findings mean: printkit help balance-metrics")
    if errors:
        raise CheckFailed(f"check found {errors} error{'s' if errors != 1 else ''}", topic="simulate-balance")
    return 0


TWO_WORKER_GAMES = 12  # the games engine-test plays on one worker and on two, to compare their records


def cmd_engine_test(args: argparse.Namespace) -> int:
    """The conformance kit on one game's engine: one line per failure, with its seed and its action's number."""
    from engine import conformance

    count("--seeds", args.seeds, MAX_SEEDS)
    game, engine = engine_game(args.game)
    bar = Bar(args.seeds, "games checked")
    try:
        failures = conformance.check(engine, args.seeds, args.seed, bar)
    finally:
        bar.close()
    failures += conformance.same_with_two_workers(game.folder, TWO_WORKER_GAMES, args.seed)
    for failure in failures:  # the failures are the answer: shown even with --quiet
        print(safe(f"{game.slug}: {failure}"))
    name = game.info.engine
    if failures:
        raise CheckFailed(
            f"the {name} engine broke the game API {len(failures)} time{'s' if len(failures) != 1 else ''}",
            topic="own-engine",
        )
    say(
        f"ok  {game.slug}: the {name} engine keeps the game API in {args.seeds} random games (seeds {args.seed} to "
        f"{args.seed + args.seeds - 1}), and one worker and two give the same records"
    )
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from engine import agents, runner, simulate

    game, engine = engine_game(args.game)
    if args.results:
        actions = _recorded_actions(Path(args.results), args.index)
    else:
        picked = simulate.seated(agent_names(args.agents, engine.num_players), engine.num_players, 0)
        try:
            players: list[runner.Agent] = [agents.make(agents.resolve(name, engine.expert)) for name in picked]
            actions = list(runner.play(engine, players, args.seed).actions)
        except runner.EndlessGame as endless:
            # the loop is what the designer needs to see: the last moves before the runner gave up
            lines = runner.replay(engine, endless.actions)[:-1]
            print("\n".join(safe(line) for line in lines[-ENDLESS_TAIL:]))
            print(safe(f"{game.slug}: {endless}"), file=sys.stderr)
            return 1
    try:
        lines = runner.replay(engine, actions)
    except ValueError as exc:
        raise UsageError(f"the recorded actions do not replay on {game.slug}: {exc}") from None
    print("\n".join(safe(line) for line in lines))
    return 0


def _recorded_actions(path: Path, index: int) -> list[int]:
    """The actions of game index in a results.json; anything else there is one line, exit 2."""
    try:
        data = json.loads(files.read(path, MAX_RESULTS, None, "results"))
    except (ValueError, RecursionError) as exc:
        raise UsageError(f"{display_path(path)}: expected the results.json simulate writes ({exc})") from None
    recorded = data.get("games") if isinstance(data, dict) else None
    if not isinstance(recorded, list) or not recorded:
        raise UsageError(f"{display_path(path)}: expected a results.json with recorded games")
    if not 0 <= index < len(recorded):
        raise UsageError(f"--index: expected 0 to {len(recorded) - 1}, found {index}")
    actions = recorded[index].get("actions") if isinstance(recorded[index], dict) else None
    if not isinstance(actions, list) or not all(isinstance(a, int) and not isinstance(a, bool) for a in actions):
        raise UsageError(f"{display_path(path)}: game {index} holds no list of actions to replay")
    return actions
