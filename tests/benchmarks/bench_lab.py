"""Benchmark: the balance lab's scale. 10,000 Battle Line games between random agents on one worker and on two
(the goal: a speed-up of 1.8 or more on a 2-core machine), the same through a 2-worker Dask LocalCluster (the
goal: at most 15% slower than local workers), and a 6-point sweep of a Soldier's HP at 2,000 games a point.

Run: python tests/benchmarks/bench_lab.py [--games 10000]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from engine import simulate, sweep
from printkit.data.loader import load_game

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--sweep-games", type=int, default=2_000)
    args = parser.parse_args()
    plan = simulate.Plan(ROOT / "cards" / "battle-line", ("random", "random"), args.games, 1)
    took = {}
    for workers in (1, 2):
        start = time.perf_counter()
        records = simulate.run(plan, workers)
        took[workers] = time.perf_counter() - start
        print(
            f"battle-line, {len(records):,} random games on {workers} worker(s): {took[workers]:.1f} s, "
            f"{len(records) / took[workers]:,.0f} games/s"
        )
    print(f"speed-up on 2 workers: {took[1] / took[2]:.2f} (goal: 1.8 or more)")
    with simulate.backend("local"):  # a 2-worker Dask LocalCluster, started before the clock
        start = time.perf_counter()
        on_dask = simulate.run(plan, 2)
        seconds = time.perf_counter() - start
    same = [r.to_json() for r in on_dask] == [r.to_json() for r in records]
    print(
        f"the same on a 2-worker Dask LocalCluster: {seconds:.1f} s, overhead {100 * (seconds / took[2] - 1):+.0f}% "
        f"against local workers (goal: 15% or less); records {'identical' if same else 'DIFFERENT'}"
    )

    game = load_game(ROOT / "cards" / "soldier-battler")
    varied = [("cards.swordsman.hp", [40, 60, 80, 100, 120, 140])]
    start = time.perf_counter()
    figures = sweep.run(game, varied, ("random", "random"), args.sweep_games, 1, workers=2)
    seconds = time.perf_counter() - start
    games = args.sweep_games * len(varied[0][1])
    print(
        f"sweep of soldier-battler cards.swordsman.hp over 6 points, {args.sweep_games:,} games a point: "
        f"{seconds:.1f} s ({games / seconds:,.0f} games/s on 2 workers)"
    )
    for point in figures["points"]:
        print(
            f"  hp {point['values']['cards.swordsman.hp']:>3}: seat 1 wins {100 * point['seats'][0]['rate']:.1f}%, "
            f"stalemate {100 * point['metrics']['stalemates']:.1f}%, card spread "
            f"{point['card_spread'] if point['card_spread'] is None else round(point['card_spread'], 3)}"
        )


if __name__ == "__main__":
    main()
