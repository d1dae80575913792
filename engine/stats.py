"""Balance figures from played games: win rates with 95% intervals, lengths, endings, card use."""

from __future__ import annotations

import copy
import math
from collections import Counter
from typing import Any

from engine.metrics import by_pairing, histogram, measure
from engine.runner import Record

Z95 = 1.959964


def wilson(wins: float, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / (1 + Z95**2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def fair_share(records: list[Record]) -> float:
    """What one seat scores in a fair game of these records' table: a half with two players, a third with three."""
    return 1 / len(records[0].agents) if records else 0.5


def _rate(wins: int, n: int) -> dict[str, Any]:
    low, high = wilson(wins, n)
    return {"wins": wins, "games": n, "rate": wins / n if n else 0.0, "ci95": [low, high]}


def summarise(records: list[Record], card_names: dict[str, str]) -> dict[str, Any]:
    n = len(records)
    winners = [r.winner() for r in records]
    seats = len(records[0].agents) if records else 2
    seat_wins = [sum(1 for w in winners if w == s) for s in range(seats)]
    draws = sum(1 for w in winners if w is None)
    agents: Counter[str] = Counter()
    for record, w in zip(records, winners, strict=True):
        if w is not None:
            agents[record.agents[w]] += 1
    names = sorted({a for r in records for a in r.agents})
    pairing = {name: _rate(agents[name], n) for name in names}
    lengths = [r.length for r in records]
    # counted by (seat, card) pair, a game's plays at once: the counting runs in C, where a loop over each play
    # took most of a long run's summary
    pair_plays: Counter[tuple[int, str]] = Counter()
    pair_games: Counter[tuple[int, str]] = Counter()  # games in which the seat played the card
    pair_wins: Counter[tuple[int, str]] = Counter()  # and of them, those the seat won
    for record, w in zip(records, winners, strict=True):
        pair_plays.update(record.plays)
        seen = set(record.plays)
        pair_games.update(seen)
        if w is not None:
            pair_wins.update(pair for pair in seen if pair[0] == w)
    plays: Counter[str] = Counter()
    played_in: Counter[str] = Counter()
    won_when_played: Counter[str] = Counter()
    for counts, by_card in ((pair_plays, plays), (pair_games, played_in), (pair_wins, won_when_played)):
        for (_, card), count in counts.items():
            by_card[card] += count
    cards = []
    for card_id, name in sorted(card_names.items(), key=lambda kv: kv[1]):
        games = played_in[card_id]
        cards.append(
            {
                "id": card_id,
                "name": name,
                "plays": plays[card_id],
                "games_played_in": games,
                "play_rate": games / (seats * n) if n else 0.0,  # of the seats' games: could each have played it
                "win_rate_when_played": won_when_played[card_id] / games if games else None,
                "ci95": list(wilson(won_when_played[card_id], games)) if games else None,
            }
        )
    ends = Counter(r.end for r in records)
    pairings = by_pairing(records)
    # one pairing (the commonest run: random against random) is every game, in order: its metrics are the run's,
    # copied rather than measured a second time over every record
    metrics = copy.deepcopy(next(iter(pairings.values()))) if len(pairings) == 1 else measure(records)
    return {
        "games": n,
        "seats": [_rate(wins, n) for wins in seat_wins],
        "first_mover": _rate(sum(1 for r, w in zip(records, winners, strict=True) if w == r.first), n),
        "draws": {"games": draws, "rate": draws / n if n else 0.0},
        "agents": pairing,
        "length": {
            "mean": sum(lengths) / n if n else 0.0,
            "min": min(lengths, default=0),
            "max": max(lengths, default=0),
            "histogram": histogram(lengths),
        },
        "endings": {k: {"games": v, "rate": v / n} for k, v in sorted(ends.items())},
        "decisions_per_game": sum(r.decisions for r in records) / n if n else 0.0,
        "cards": cards,
        "metrics": metrics,
        "pairings": pairings,
    }
