"""What tune can make best: each target's words, and the figure of a sweep point it reads (kept apart from the
search, so the command line's help names the targets without loading the engines)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Target:
    """What a tune looks for: a figure of a point, and whether more of it is better."""

    words: str
    figure: Callable[[dict[str, Any]], float]
    larger_is_better: bool


TARGETS: dict[str, Target] = {
    "seat-balance": Target(
        "balance between the seats (1 - the gap between the best and worst seat's win rates)",
        lambda p: p["metrics"]["balance"],
        True,
    ),
    "completion": Target(
        "games completed by the rules, not a cap or stalemate", lambda p: p["metrics"]["completion"], True
    ),
    "first-player": Target(
        "how far the first player's score is from a fair share (a half with two players)",
        lambda p: abs(p["metrics"]["advantage_first"] - p["metrics"].get("fair_share", 0.5)),
        False,
    ),
    "card-spread": Target("the spread of the cards' win rates when played", lambda p: p["card_spread"] or 0.0, False),
}
