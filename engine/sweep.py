"""Sweeps: the same seeded games played at every point of a grid of changed values, with every metric at each.

Each point is the game with its values changed in memory (printkit.data.variant); every point plays
the same seeds, so what differs between points is the change and not the deal. Every point is
checked before any is played: a change the data or the engine refuses stops the sweep at once.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

from engine import registry, simulate, stats
from printkit.core.errors import UsageError
from printkit.data import variant
from printkit.data.game import Game
from printkit.data.variant import Change

MAX_POINTS = 1_000  # a grid past this is a typo in a range, not a study


def grid(varied: Sequence[tuple[str, list[Any]]]) -> list[tuple[Change, ...]]:
    """Every combination of the varied values, the first path changing slowest."""
    paths = [path for path, _ in varied]
    combos = list(itertools.islice(itertools.product(*(values for _, values in varied)), MAX_POINTS + 1))
    if len(combos) > MAX_POINTS:
        raise UsageError(f"--vary: more than {MAX_POINTS:,} points to play; narrow a range or take a larger step")
    return [tuple(zip(paths, combo, strict=True)) for combo in combos]


def check(game: Game, points: Sequence[tuple[Change, ...]]) -> None:
    """Every point's game made and built by its engine, before any is played; the first that cannot be, one line."""
    for changes in points:
        changed = variant.vary(game, changes)
        problems = registry.data_problems(changed)
        if problems:
            said = ", ".join(f"{path}={value}" for path, value in changes)
            raise variant.BadChange(f"{said}: {problems[0]}")


def run(
    game: Game,
    varied: Sequence[tuple[str, list[Any]]],
    agents: tuple[str, ...],
    games: int,
    seed: int,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """The sweep's figures: what was varied and, at each point, its values, metrics and seat results."""
    points = grid(varied)
    check(game, points)
    names = registry.build(game).card_names()
    out = []
    for done, changes in enumerate(points):
        plan = simulate.Plan(game.folder, agents, games, seed, changes)
        summary = stats.summarise(simulate.run(plan, workers), names)
        out.append(
            {
                "values": dict(changes),
                "seats": summary["seats"],
                "first_mover": summary["first_mover"],
                "metrics": summary["metrics"],
                "card_spread": card_spread(summary["cards"]),
            }
        )
        if progress:
            progress(done + 1, len(points))
    return {"varied": [{"path": path, "values": values} for path, values in varied], "points": out}


def card_spread(cards: list[dict[str, Any]]) -> float | None:
    """How far apart the cards' win rates when played lie: the standard deviation over cards played 20 times or more."""
    rates = [c["win_rate_when_played"] for c in cards if c["games_played_in"] >= 20]
    if len(rates) < 2:
        return None
    mean = sum(rates) / len(rates)
    return float((sum((r - mean) ** 2 for r in rates) / (len(rates) - 1)) ** 0.5)
