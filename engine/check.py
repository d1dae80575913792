"""`printkit check`: validate a game's data by playing it, and report findings with the card or rule named."""

from __future__ import annotations

import time
import traceback
from dataclasses import dataclass
from pathlib import Path

from engine import agents, registry, simulate, stats
from engine.api import GameDef
from engine.runner import Record, play
from printkit.data.game import Game

PAIRINGS = (("random", "random"), ("greedy", "random"), ("greedy", "greedy"))
SEAT_BAND = (0.40, 0.60)  # a fair game's seat win rate, the band
MIN_GAMES_FOR_SEATS = 100
CAPPED_WARN = 0.10  # games ended by a cap or stalemate: a warning, since agents' play decides it as much as data
OUTLIER = 0.20  # a card whose win rate when played is this far from the mean, its interval clear of the mean, is named
FIRST_MOVE_EDGE = 0.05  # a first mover winning this much more (or less) than a fair share, its interval clear of it
MIN_PLAYS_FOR_OUTLIER = 20


@dataclass(frozen=True)
class Finding:
    level: str  # "error" or "warning" or "note"
    game: str
    message: str

    def __str__(self) -> str:
        return f"{self.level}: {self.game}: {self.message}"


@dataclass(frozen=True)
class Crash:
    """A game the engine failed in: its seed and agents, to replay it, and where it failed."""

    seed: int
    agents: tuple[str, ...]
    failure: str


def pairing(index: int, seats: int = 2) -> tuple[str, ...]:
    """The agents of the check's game `index`: the pairings in turn, each from every seat, so seats stay fair."""
    return simulate.seated(PAIRINGS[(index // seats) % len(PAIRINGS)], seats, index)


def check_one(engine_game: GameDef, seed: int, index: int) -> Record | Crash:
    """One of the check's games played: its record, or the crash that stopped it."""
    names = pairing(index, engine_game.num_players)
    game_seed = simulate.game_seed(seed, index)
    try:
        return play(engine_game, [agents.make(n) for n in names], game_seed, lead=True)
    except Exception as exc:  # a crash is the most important finding: say how to replay it
        where = traceback.extract_tb(exc.__traceback__)[-1]
        return Crash(game_seed, names, f"{type(exc).__name__}: {exc} at {Path(where.filename).name}:{where.lineno}")


def check_span(job: tuple[Path, int, int, int]) -> tuple[int, list[Record | Crash]]:
    """Games start to stop of a check: the unit of work a worker does."""
    folder, start, stop, seed = job
    engine_game = simulate.game_of(folder)
    return start, [check_one(engine_game, seed, i) for i in range(start, stop)]


def run(
    game: Game, games: int, seed: int, seconds: float | None = None, workers: int = 1
) -> tuple[list[Finding], list[Record]]:
    """Play the seeded games in rotation over the pairings and turn what happened into findings.

    seconds, when given, stops starting new games once that much time has gone (the build's quick look,
    played here); without it the games are played in chunks on the workers or the cluster simulate uses.
    """
    try:
        engine_game = registry.build(game)
    except KeyError:
        return [Finding("note", game.slug, "no engine plays this game yet: nothing checked by play")], []
    except registry.EngineMismatch as exc:
        return [Finding("error", game.slug, str(exc).removeprefix(f"{game.slug}: "))], []
    played: list[Record | Crash] = []
    if seconds is not None:
        started = time.perf_counter()
        for i in range(games):
            if i and time.perf_counter() - started > seconds:
                break
            played.append(check_one(engine_game, seed, i))  # the game given: build --watch changes it in place
    else:
        jobs = [(game.folder, start, stop, seed) for start, stop in simulate.spans(games)]
        played = [outcome for _, chunk in simulate.spread(check_span, jobs, workers) for outcome in chunk]
    records = [r for r in played if isinstance(r, Record)]
    findings = [
        Finding(
            "error",
            game.slug,
            f"{crash.failure}; replay: printkit replay {game.slug} --seed {crash.seed} --agents "
            + ",".join(crash.agents),
        )
        for crash in played
        if isinstance(crash, Crash)
    ]
    return findings + judge(game.slug, records, engine_game.card_names()), records


def judge(slug: str, records: list[Record], card_names: dict[str, str]) -> list[Finding]:
    """What played games say of the data: endings by a cap or stalemate, an unfair seat or first move, a card
    never played or far from the rest. A report's findings come from the very games its tables show."""
    findings: list[Finding] = []
    if not records:
        return findings
    summary = stats.summarise(records, card_names)
    n = summary["games"]
    for ending, figures in summary["endings"].items():
        if ending == "normal":
            continue
        rate = figures["rate"]
        if rate > CAPPED_WARN:
            findings.append(
                Finding(
                    "warning",
                    slug,
                    f"{100 * rate:.0f}% of {n} games ended by {ending} "
                    f"(above {100 * CAPPED_WARN:.0f}%; {_by_pairing(records, ending)}): "
                    "see the rule options for the cap and stalemate",
                )
            )
    decisive = n - summary["draws"]["games"]  # fairness is about the games someone won
    fair = 1 / len(summary["seats"])  # each seat's share of a fair game: a half with two players
    lowest, highest = fair - (0.5 - SEAT_BAND[0]), fair + (SEAT_BAND[1] - 0.5)  # the band, about that share
    band = f"{100 * lowest:.0f}-{100 * highest:.0f}%"
    if decisive >= MIN_GAMES_FOR_SEATS:
        for seat, figures in enumerate(summary["seats"], start=1):
            rate = figures["wins"] / decisive
            if not lowest <= rate <= highest:
                low, high = stats.wilson(figures["wins"], decisive)
                findings.append(
                    Finding(
                        "warning",
                        slug,
                        (
                            f"seat {seat} wins {100 * rate:.0f}% of the {decisive} games with a winner "
                            f"(95% interval {100 * low:.0f}-{100 * high:.0f}%), outside {band}"
                        ),
                    )
                )
        first = summary["first_mover"]["wins"]  # seats alternate, so a seat can be fair where the first move is not
        low, high = stats.wilson(first, decisive)
        rate = first / decisive
        if (low > fair or high < fair) and abs(rate - fair) >= FIRST_MOVE_EDGE:
            findings.append(
                Finding(
                    "warning",
                    slug,
                    f"the player who moves first wins {100 * rate:.0f}% of the {decisive} games with a winner "
                    f"(95% interval {100 * low:.0f}-{100 * high:.0f}%): a first-move "
                    f"{'edge' if rate > fair else 'handicap'} of {100 * abs(rate - fair):.0f} points",
                )
            )
    cards = summary["cards"]
    for card in cards:
        if card["plays"] == 0:
            findings.append(
                Finding("warning", slug, f"card {card['id']} ({card['name']}) was never played in {n} games")
            )
    rated = [
        c for c in cards if c["win_rate_when_played"] is not None and c["games_played_in"] >= MIN_PLAYS_FOR_OUTLIER
    ]
    if rated:
        mean = sum(c["win_rate_when_played"] for c in rated) / len(rated)
        for card in rated:
            gap = card["win_rate_when_played"] - mean
            low, high = card["ci95"]
            if abs(gap) > OUTLIER and (low > mean or high < mean):  # far, and surely so: not the luck of few games
                findings.append(
                    Finding(
                        "warning",
                        slug,
                        (
                            f"card {card['id']} ({card['name']}) wins {100 * card['win_rate_when_played']:.0f}% "
                            f"of the {card['games_played_in']} games it is played in (95% interval "
                            f"{100 * low:.0f}-{100 * high:.0f}%), against {100 * mean:.0f}% for cards on average"
                        ),
                    )
                )
    return findings


def _by_pairing(records: list[Record], ending: str) -> str:
    """How often each pairing of agents ended this way: random play may never finish where purposeful play does."""
    played: dict[str, list[int]] = {}
    for record in records:
        counts = played.setdefault(" v ".join(sorted(record.agents)), [0, 0])
        counts[0] += record.end == ending
        counts[1] += 1
    return ", ".join(f"{pairing} {100 * hit / total:.0f}%" for pairing, (hit, total) in sorted(played.items()))
