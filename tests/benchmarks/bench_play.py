"""Benchmark: the rules language's interpreter against the hand-written engine of the same game, side by side.

Run: python tests/benchmarks/bench_play.py [--seconds S]
For each game written in both (Torah Timeline and Soldier Battler: cards/<game>/play.yaml), prints random-vs-random
games per second on one core (CPU time) for the hand-written engine as the runner plays it (its own random
play where it has one), the same engine a step at a time (as every other agent plays it), and the
interpreter; then the interpreter's share of each. The windows alternate between the engines, so a busy
machine slows all of them alike; the best window of each is its speed undisturbed, as timeit's minimum is.
Issue #32's goal: the interpreter at a fifth of the hand-written engine's speed or better. Before the timing,
every seed timed is played by both and their records compared: a rate of different games would be no rate.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from engine import play, registry, runner
from engine.agents import RandomAgent
from engine.api import GameDef
from printkit.data.loader import load_game

ROOT = Path(__file__).resolve().parents[2]
WRITTEN = ("torah-timeline", "soldier-battler")  # bundled games with a play.yaml beside their engine
WINDOWS = 5
GOAL = 0.2


class Stepping(RandomAgent):
    """A random player the runner cannot hand to the game's own random play: the game goes a step at a time."""


def rate(game: GameDef, agent: type[RandomAgent], first: int, seconds: float) -> tuple[float, int]:
    """Games per second of CPU time over about `seconds`, from seed first; and the next seed."""
    played, seed, start = 0, first, time.process_time()
    while time.process_time() - start < seconds:
        runner.play(game, [agent(), agent()], seed)
        played, seed = played + 1, seed + 1
    return played / (time.process_time() - start), seed


def main() -> None:
    seconds = float(sys.argv[sys.argv.index("--seconds") + 1]) if "--seconds" in sys.argv else 2.0
    for slug in WRITTEN:
        game = load_game(ROOT / "cards" / slug)
        hand, written = registry.build(game), play.build(game)
        checked = 200
        for seed in range(checked):
            a = runner.play(hand, [RandomAgent(), RandomAgent()], seed).to_json()
            b = runner.play(written, [RandomAgent(), RandomAgent()], seed).to_json()
            if a != b:
                print(f"{slug}: seed {seed} plays differently in play.yaml: no rate is worth printing")
                return
        print(f"{slug}: the same records from both for seeds 0 to {checked - 1}")
        best = {"engine": 0.0, "engine, a step at a time": 0.0, "play.yaml": 0.0}
        seed = 0
        for window in range(WINDOWS):
            for name, g, agent in (
                ("engine", hand, RandomAgent),
                ("engine, a step at a time", hand, Stepping),
                ("play.yaml", written, RandomAgent),
            ):
                speed, _ = rate(g, agent, seed, seconds)
                best[name] = max(best[name], speed)
            seed += 1000
            print(f"  window {window + 1}: " + ", ".join(f"{n} {v:,.0f}" for n, v in best.items()))
        for name in ("engine", "engine, a step at a time"):
            share = best["play.yaml"] / best[name]
            verdict = "meets" if share >= GOAL else "misses"
            print(
                f"  play.yaml at {share:.2f} of the {name} ({best['play.yaml']:,.0f} against {best[name]:,.0f} "
                f"games/s): {verdict} the goal of {GOAL:.2f}"
            )


if __name__ == "__main__":
    main()
