"""What each card is worth, by restricted play: how much an agent loses when it may never play that card.

After Jaffe, Miller, Andersen, Liu, Karlin, Popović and Popović, "Evaluating Competitive Game
Balance with Restricted Play" (AIIDE 2012): an agent that may not play a card meets the same
agent unrestricted, seats turned each game. Unrestricted, each would score a fair share (a half
with two players); the card's value is how far under that share the restricted agent scores. Every card is measured on
the same seeds, so the differences between cards are not the luck of different deals.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine import simulate, stats
from engine.agents import BANS
from engine.runner import Record

DOMINANT = 0.10  # a card whose loss costs at least this much of a game, surely: players can hardly do without it
DEAD = 0.05  # a card whose loss surely changes less than this either way: it hardly matters to play it


def verdict(low: float, high: float) -> str:
    """dominant, harmful (better never played), dead, "" when the interval says surely none of these (worth
    between DEAD and DOMINANT), or undecided when it still straddles a line between them."""
    if low >= DOMINANT:
        return "dominant"
    if high < 0:
        return "harmful"
    if low > -DEAD and high < DEAD:
        return "dead"
    if low >= DEAD and high < DOMINANT:
        return ""
    return "undecided"


def values(
    folder: Path,
    cards: dict[str, str],
    agent: str,
    games: int,
    seed: int,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> list[dict[str, Any]]:
    """Each card's value (a half less the restricted agent's score: a win one, a draw a half) with its
    95% interval and verdict, most valuable first; from `games` games a card, and more of them (the same seeds
    for every card) until the verdict is decided or simulate.SETTLE_CAP times as many are played."""
    out = []
    for done, (card, name) in enumerate(sorted(cards.items(), key=lambda kv: kv[1])):
        plan = simulate.Plan(folder, (f"{agent}{BANS}{card}", agent), games, seed)
        banned = plan.agents[0]  # as the records name it: expert as the agent it stands for
        records = simulate.until_settled(plan, functools.partial(_decided, banned), workers)
        score, low, high = _score(records, banned)
        fair = stats.fair_share(records)
        value = fair - score / len(records)
        out.append(
            {
                "id": card,
                "name": name,
                "games": len(records),
                "value": value,
                "ci95": [fair - high, fair - low],
                "verdict": verdict(fair - high, fair - low),
            }
        )
        if progress:
            progress(done + 1, len(cards))
    return sorted(out, key=lambda c: -c["value"])


def _score(records: list[Record], banned: str) -> tuple[float, float, float]:
    """The restricted agent's score (a win 1, a draw its fair share) and the 95% interval of its share."""
    score, fair = 0.0, stats.fair_share(records)
    for record in records:
        winner = record.winner()
        score += fair if winner is None else float(record.agents[winner] == banned)
    low, high = stats.wilson(score, len(records))
    return score, low, high


def _decided(banned: str, records: list[Record]) -> bool:
    _, low, high = _score(records, banned)
    fair = stats.fair_share(records)
    return verdict(fair - high, fair - low) != "undecided"
