"""Skill depth: a ladder of ever stronger agents, each rung played against the one below it.

A game where the stronger rung wins clearly at every step rewards skill all the way up; one where
the rungs win about half the time against the rung below is decided by luck, or by play no agent
here finds. Each rung plays the same number of seeded games against the rung below, seats
swapped every other game, so the figures do not depend on the number of workers.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine import metrics, simulate, stats

RUNGS = ("random", "greedy", "mcts25", "mcts100")  # MCTS at 25 and 100 iterations a move
ENDINGS = ("completion", "timeouts", "stalemates", "drawishness")


def climb(
    folder: Path,
    games: int,
    seed: int,
    workers: int = 1,
    rungs: tuple[str, ...] = RUNGS,
    progress: Callable[[str], None] | None = None,
) -> list[dict[str, Any]]:
    """Each rung against the one below: its score (a win 1, a draw half) over `games` games, with a 95% interval."""
    steps = []
    for lower, upper in itertools.pairwise(rungs):
        if progress:
            progress(f"{upper} against {lower}")
        records = simulate.run(simulate.Plan(folder, (upper, lower), games, seed), workers)
        wins = draws = 0
        for record in records:
            winner = record.winner()
            if winner is None:
                draws += 1
            elif record.agents[winner] == upper:
                wins += 1
        score = wins + draws / 2
        low, high = stats.wilson(score, len(records))
        steps.append(
            {
                "stronger": upper,
                "weaker": lower,
                "games": len(records),
                "wins": wins,
                "draws": draws,
                "score": score / len(records) if records else 0.0,
                "ci95": [low, high],
                # how these games end: stalemates and caps that stay as the agents grow stronger come from the rules
                "endings": {k: v for k, v in metrics.measure(records).items() if k in ENDINGS},
            }
        )
    return steps
