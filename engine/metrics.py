"""Game-design metrics from played games: how games end, how long they last, how much choice and tension they hold.

The names follow the research systems a designer may compare with. From Ludii's metrics (Piette,
Browne et al., the Ludii game system): completion, drawishness, timeouts, duration, decision moves,
branching factor, first-player advantage and balance. From Browne's aesthetic measures (Browne,
"Automatic Generation and Evaluation of Recombination Games", PhD thesis, 2008): lead changes,
drama and decisiveness, read here from the game's heuristic, the same judgement the greedy and
MCTS agents play by. The documentation (Explanation: Balance metrics) defines each in a sentence.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

LEVEL = 1e-9  # a heuristic difference this small is a level position: nobody leads


@dataclass(frozen=True)
class Tension:
    """What one game's lead did, read from the seats' heuristics at its decisions."""

    lead_changes: int = 0  # times the leading side changed
    trailing: float | None = None  # share of positions the eventual winner was behind; None for a draw
    drama: float | None = None  # how far behind, on average, when behind (0-1 of the game's widest gap)
    decided_at: float | None = None  # share of the game played before the winner led for good


def tension(leads: Sequence[float], winner: int | None) -> Tension:
    """The lead's story of one two-player game: leads[i] is the first seat's heuristic minus the second's at
    decision i."""
    leaders = [0 if abs(d) <= LEVEL else (1 if d > 0 else -1) for d in leads]
    if winner is None or not leads:
        return Tension(_changes(leaders), None, None, None)
    sign = 1 if winner == 0 else -1
    return _told(_changes(leaders), [sign * d for d in leads])


def tension_of(readings: Sequence[Sequence[float]], winner: int | None) -> Tension:
    """The lead's story of a game of any number of seats: readings[i] is each seat's heuristic at decision i. A
    seat leads where it stands clear of the best of the others; the winner's lead is its margin over them."""
    if not readings or len(readings[0]) == 2:
        return tension([h[0] - h[1] for h in readings], winner)  # as two-player games have always been read
    leaders = []
    for h in readings:
        second, top = sorted(h)[-2:]
        leaders.append(list(h).index(top) + 1 if top - second > LEVEL else 0)
    if winner is None:
        return Tension(_changes(leaders), None, None, None)
    margins = [h[winner] - max(v for seat, v in enumerate(h) if seat != winner) for h in readings]
    return _told(_changes(leaders), margins)


def _changes(leaders: Sequence[int]) -> int:
    """How many times the leading side changed (0: nobody leads there)."""
    changes, last = 0, 0
    for leader in leaders:
        if leader and last and leader != last:
            changes += 1
        last = leader or last
    return changes


def _told(changes: int, leads: Sequence[float]) -> Tension:
    """A won game's tension from the winner's lead at each decision (negative where it was behind)."""
    widest = max(abs(d) for d in leads) or 1.0
    behind = [-d / widest for d in leads if d < -LEVEL]
    ahead_from = len(leads)  # the first position from which the winner leads at every later one
    while ahead_from > 0 and leads[ahead_from - 1] > LEVEL:
        ahead_from -= 1
    return Tension(
        changes,
        len(behind) / len(leads),
        sum(behind) / len(behind) if behind else 0.0,
        ahead_from / len(leads),
    )


class Played(Protocol):
    """What the metrics read of a played game (engine.runner.Record)."""

    agents: list[str]
    actions: Sequence[int]
    length: int
    decisions: int
    end: str
    first: int
    branching: Mapping[int, int]
    tension: Tension | None

    def winner(self) -> int | None: ...


def _spread(values: Sequence[float]) -> dict[str, float]:
    n = len(values)
    mean = sum(values) / n if n else 0.0
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    return {"mean": mean, "sd": sd, "min": min(values, default=0), "max": max(values, default=0)}


def histogram(values: Sequence[int] | Counter[int], bins: int = 12, unit: str = "games") -> list[dict[str, int]]:
    """How many values (or, given a Counter, how many counted) fall in each of at most `bins` equal bins."""
    counted = values if isinstance(values, Counter) else Counter(values)
    if not counted:
        return []
    low, high = min(counted), max(counted)
    width = max(1, math.ceil((high - low + 1) / bins))
    binned: Counter[int] = Counter()
    for value, times in counted.items():
        binned[(value - low) // width] += times
    return [
        {"from": low + b * width, "to": low + (b + 1) * width - 1, unit: binned.get(b, 0)}
        for b in range((high - low) // width + 1)
    ]


def _mean(values: Iterable[float | None]) -> float | None:
    kept = [v for v in values if v is not None]
    return sum(kept) / len(kept) if kept else None


def measure(records: Sequence[Played]) -> dict[str, Any]:
    """Every metric over the games given (all of one pairing of agents, or all together)."""
    n = len(records)
    if n == 0:
        return {"games": 0}
    winners = [r.winner() for r in records]
    ends = Counter(r.end for r in records)
    seats = len(records[0].agents)
    seat_wins = [sum(1 for w in winners if w == seat) for seat in range(seats)]
    draws = sum(1 for w in winners if w is None)
    first_wins = sum(1 for r, w in zip(records, winners, strict=True) if w is not None and w == r.first)
    moves = sum(r.length for r in records)
    choices: Counter[int] = Counter()
    forced = 0
    for r in records:  # a move with no other legal is no decision: it would pull the mean toward 1
        choices.update({k: v for k, v in r.branching.items() if k > 1})
        forced += r.branching.get(1, 0)
    positions = sum(choices.values())
    branching_mean = sum(k * v for k, v in choices.items()) / positions if positions else 0.0
    branching_sd = (
        math.sqrt(sum(v * (k - branching_mean) ** 2 for k, v in choices.items()) / positions) if positions else 0.0
    )
    read = [r.tension for r in records if r.tension is not None]  # the games whose lead was read
    changes = [t.lead_changes for t in read]
    return {
        "games": n,
        "completion": ends.get("normal", 0) / n,
        "timeouts": ends.get("cap", 0) / n,
        "stalemates": ends.get("stalemate", 0) / n,
        "drawishness": draws / n,
        "duration": {
            "moves": _spread([r.length for r in records]) | {"histogram": histogram([r.length for r in records])},
            "actions": _spread([len(r.actions) for r in records]),
        },
        "decision_moves": sum(r.decisions for r in records) / moves if moves else 0.0,
        "branching": {
            "mean": branching_mean,
            "sd": branching_sd,
            "max": max(choices, default=0),
            "distribution": histogram(choices, 10, "decisions"),
            "forced": forced / (forced + positions) if forced + positions else 0.0,  # moves that had no other
        },
        # a draw scores each seat an equal share; a fair game gives the first mover fair_share
        "advantage_first": (first_wins + draws / seats) / n,
        "fair_share": 1 / seats,
        "balance": 1.0 - (max(seat_wins) - min(seat_wins)) / n,
        "lead_read_in": len(read),
        "lead_changes": sum(changes) / len(read) if read else None,
        "trailing": _mean(t.trailing for t in read),
        "drama": _mean(t.drama for t in read),
        "decisiveness": _mean(t.decided_at for t in read),
    }


def by_pairing(records: Sequence[Played]) -> dict[str, dict[str, Any]]:
    """The metrics of each pairing of agents (seats either way round), named "greedy vs random"."""
    groups: dict[str, list[Played]] = {}
    for r in records:
        groups.setdefault(" vs ".join(sorted(r.agents, reverse=True)), []).append(r)
    return {name: measure(group) for name, group in sorted(groups.items())}


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.0f}%"


def line(m: dict[str, Any]) -> str:
    """The metrics of a run in one line, for `printkit check`."""
    moves = m["duration"]["moves"]
    lead = "-" if m["lead_changes"] is None else f"{m['lead_changes']:.1f}"
    return (
        f"completed {_percent(m['completion'])}, draws {_percent(m['drawishness'])}, "
        f"capped {_percent(m['timeouts'])}, stalemate {_percent(m['stalemates'])}; "
        f"{moves['mean']:.0f} moves (sd {moves['sd']:.0f}), decision moves {_percent(m['decision_moves'])}, "
        f"branching {m['branching']['mean']:.1f}; first-player advantage {_percent(m['advantage_first'])}, "
        f"balance {_percent(m['balance'])}; lead changes {lead}, decided at {_percent(m['decisiveness'])}"
    )
