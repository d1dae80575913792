"""A game's balance report read back for the reference site: each card's play rate, win rate and value, with
their 95% intervals, in words a player reads."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from printkit.core import files
from printkit.core.errors import DataError

RESULTS = Path("balance") / "results.json"  # inside the game's output folder, as simulate and balance write it
MAX_BYTES = 500_000_000  # a results.json holds every game's record; past this it is not one printkit wrote


# what the lab's verdicts on a card's worth (engine/cardvalue.py) tell a player
VERDICTS = {
    "dominant": "dominant, players can hardly do without it",
    "harmful": "harmful, better never played",
    "dead": "it hardly matters whether it is played",
    "undecided": "its games cannot yet tell what it is worth",
}


@dataclass(frozen=True)
class Run:
    """What the figures come from: how many games, between which players, from which seed."""

    games: int
    agents: str
    seed: str
    values_by: str  # the agent the restricted-play values were measured with, or "" when they were not


def _share(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"expected a number, found {value!r}")
    return float(value)


def _interval(value: Any) -> tuple[float, float]:
    if not isinstance(value, list) or len(value) != 2:
        raise ValueError(f"expected an interval [low, high], found {value!r}")
    low, high = (_share(v) for v in value)
    return low, high


def _percent(value: float) -> str:
    return f"{100 * value:.0f}%"


def _figure(label: str, value: float, interval: tuple[float, float], signed: bool = False) -> dict[str, Any]:
    """One figure as the site draws it: the words, and where its dot and interval sit on a 0..1 (or -½..½) bar."""
    if signed:  # a restricted-play value: how much of a game the card is worth, -0.5 to 0.5
        words = f"{value:+.2f} of a game (95% interval {interval[0]:+.2f} to {interval[1]:+.2f})"

        def place(v: float) -> float:
            return min(1.0, max(0.0, v + 0.5))
    else:
        words = f"{_percent(value)} (95% interval {_percent(interval[0])} to {_percent(interval[1])})"

        def place(v: float) -> float:
            return min(1.0, max(0.0, v))

    return {
        "label": label,
        "words": words,
        "at": round(100 * place(value), 1),
        "low": round(100 * place(interval[0]), 1),
        "high": round(100 * place(interval[1]), 1),
        "signed": signed,
    }


def card_figures(results: dict[str, Any]) -> tuple[Run, dict[str, list[dict[str, Any]]]]:
    """Each card's figures from a results.json's contents, by card id; a ValueError when it is not one."""
    from engine.stats import wilson

    summary, settings = results["summary"], results.get("settings", {})
    games = int(summary["games"])
    if games < 1:
        raise ValueError("no games played")
    values = summary.get("card_values") or {}
    run = Run(
        games,
        " against ".join(str(a) for a in settings.get("agents", [])) or "?",
        str(settings.get("seed", "?")),
        str(values.get("agent", "")),
    )
    out: dict[str, list[dict[str, Any]]] = {}
    for card in summary["cards"]:
        played_in = int(card["games_played_in"])
        rows = [_figure("Played in a player's game", _share(card["play_rate"]), wilson(played_in, 2 * games))]
        if card.get("win_rate_when_played") is not None:
            rows.append(_figure("Wins when played", _share(card["win_rate_when_played"]), _interval(card["ci95"])))
        out[str(card["id"])] = rows
    for card in values.get("cards", []):
        value = _figure("Worth (restricted play)", _share(card["value"]), _interval(card["ci95"]), signed=True)
        verdict = VERDICTS.get(str(card.get("verdict", "")))
        if verdict:
            value["words"] += f": {verdict}"
        out.setdefault(str(card["id"]), []).append(value)
    return run, out


def read(folder: Path) -> tuple[Run, dict[str, list[dict[str, Any]]]] | None:
    """The figures of the report in a game's output folder, or None when there is none (or it is not one)."""
    path = folder / RESULTS
    if not path.is_file():
        return None
    try:
        return card_figures(json.loads(files.read(path, MAX_BYTES, (folder,))))
    except (DataError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return None  # a results.json of a sweep or tune, or damaged: the site goes without figures
