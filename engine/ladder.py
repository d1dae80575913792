"""Skill depth: a ladder of ever stronger agents, each rung played against the one below it.

A game where the stronger rung wins clearly at every step rewards skill all the way up; one where
the rungs win about half the time against the rung below is decided by luck, or by play no agent
here finds. Each rung plays the same number of seeded games against the rung below, seats
swapped every other game, so the figures do not depend on the number of workers.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine import metrics, simulate, stats
from engine.agents import EXPERT
from engine.runner import Record

# MCTS at 25 and 100 iterations a move, then the agent the game's data names as its expert, when that is another
RUNGS = ("random", "greedy", "mcts25", "mcts100", EXPERT)
ENDINGS = ("completion", "timeouts", "stalemates", "drawishness")


def climb(
    folder: Path,
    games: int,
    seed: int,
    workers: int = 1,
    rungs: tuple[str, ...] = RUNGS,
    progress: Callable[[str], None] | None = None,
) -> list[dict[str, Any]]:
    """Each rung against the one below: its score (a win 1, a draw half) with a 95% interval, and its verdict,
    stronger, weaker or undecided; from `games` games, and more of them until the interval clears a half or
    simulate.SETTLE_CAP times as many are played (ten games once read a rung at 0.30 that forty read at 0.65)."""
    steps = []
    for lower, upper in itertools.pairwise(rungs):
        if progress:
            progress(f"{upper} against {lower}")
        plan = simulate.Plan(folder, (upper, lower), games, seed)
        stronger, weaker = plan.agents  # as the records name them: expert as the agent it stands for
        if stronger == weaker:  # the game's expert is the rung below it
            continue
        records = simulate.until_settled(plan, functools.partial(_decided, stronger), workers)
        wins = draws = 0
        for record in records:
            winner = record.winner()
            if winner is None:
                draws += 1
            elif record.agents[winner] == stronger:
                wins += 1
        score, _, (low, high) = _score(records, stronger)
        steps.append(
            {
                "stronger": stronger,
                "weaker": weaker,
                "expert": upper == EXPERT,
                "games": len(records),
                "wins": wins,
                "draws": draws,
                "score": score / len(records) if records else 0.0,
                "ci95": [low, high],
                "verdict": _verdict(low, high, stats.fair_share(records)),
                # how these games end: stalemates and caps that stay as the agents grow stronger come from the rules
                "endings": {k: v for k, v in metrics.measure(records).items() if k in ENDINGS},
            }
        )
    return steps


def _score(records: list[Record], upper: str) -> tuple[float, int, tuple[float, float]]:
    """The upper rung's score (a win 1, a draw its fair share), its games, and the score's 95% interval as a
    share."""
    score, fair = 0.0, stats.fair_share(records)
    for record in records:
        winner = record.winner()
        score += fair if winner is None else float(record.agents[winner] == upper)
    return score, len(records), stats.wilson(score, len(records))


def _decided(upper: str, records: list[Record]) -> bool:
    return _verdict(*_score(records, upper)[2], stats.fair_share(records)) != "undecided"


def _verdict(low: float, high: float, fair: float = 0.5) -> str:
    """stronger or weaker when the interval lies clear of a fair share (a half with two players), else undecided:
    the rung's games cannot tell."""
    return "stronger" if low > fair else "weaker" if high < fair else "undecided"
