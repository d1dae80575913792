"""Benchmark: engine speed and strength.

Run: python tests/benchmarks/bench_engine.py [--quick]
Prints random-vs-random full games per second on one core, whole process, each against its floor
and whether it is met; the proof claim's time against an empty opposing side; and the win rates
of greedy and MCTS against random over 200 games each. Each rate is read in WINDOWS windows, the
seeds running on from one to the next, and printed as the best window and the median: as with
timeit's minimum of repeats, the best is the engine's speed on the machine undisturbed, and a floor
is judged on it; the median shows what the machine's other load took (on a shared virtual machine
the same code was seen to move by 30% from one second to the next). A first line times a fixed
loop of plain Python, best of five, so a reader can tell a slow machine from a slow engine.
Floors (issue #15; random against random, one core): Battle Line 1,500 games/s, Soldier Battler
5,000, Torah Timeline 4,000, Time Line Battle 1,500, Time Line 100,000 actions/s (its
greedy-vs-greedy games/s reported too); the proof under 5 ms; MCTS at least 80% against random.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable

from engine import registry, simulate
from engine.agents import GreedyAgent, RandomAgent
from engine.games.battle_line import prove_claim
from engine.runner import play
from printkit.data.loader import load_games

ALL = [f"{c}{v}" for c in "ROYGBP" for v in range(1, 11)]
# random-vs-random games/s each game's engine must reach on one core (Time Line's floor is in actions/s)
FLOORS = {"battle-line": 1_500, "soldier-battler": 5_000, "torah-timeline": 4_000, "time-line-battle": 1_500}
TIME_LINE_ACTIONS = 100_000  # Time Line runs to a long cap: its floor is in actions, not games


WINDOWS = 5  # windows each random-vs-random rate is read in


def games_per_second(slug: str, seconds: float = 5.0) -> list[float]:
    """Random-vs-random games per second in each of WINDOWS windows over about `seconds` in all."""
    game = registry.build(next(g for g in load_games([slug])))

    def one_game(seed: int) -> int:
        play(game, [RandomAgent(), RandomAgent()], seed)
        return 1

    return _windows(one_game, seconds)


def time_line_rates(seconds: float = 5.0) -> tuple[list[float], float]:
    """Time Line's random-vs-random actions per second in each window (its games run to the turn cap, so
    actions say more than games), and its greedy-vs-greedy games per second, each over about `seconds`."""
    game = registry.build(next(g for g in load_games(["time-line"])))
    actions = _windows(lambda seed: len(play(game, [RandomAgent(), RandomAgent()], seed).actions), seconds)
    start, count = time.perf_counter(), 0
    while time.perf_counter() - start < seconds:  # a greedy game takes a second or two: one window
        play(game, [GreedyAgent(), GreedyAgent()], count)
        count += 1
    return actions, count / (time.perf_counter() - start)


def _windows(one: Callable[[int], int], seconds: float) -> list[float]:
    """What one(seed) counts, per second, in each of WINDOWS windows of seconds / WINDOWS, the seeds going on."""
    rates, seed = [], 0
    for _ in range(WINDOWS):
        start, counted = time.perf_counter(), 0
        while time.perf_counter() - start < seconds / WINDOWS:
            counted += one(seed)
            seed += 1
        rates.append(counted / (time.perf_counter() - start))
    return rates


def machine_ms() -> float:
    """The best of five timings, in ms, of a fixed loop of plain Python: the machine's speed, engine aside."""
    times = []
    for _ in range(5):
        start, total = time.perf_counter(), 0
        for i in range(3_000_000):
            total += i & 7
        times.append((time.perf_counter() - start) * 1000)
    return min(times)


def _verdict(rates: list[float], floor: int | None) -> str:
    best, median = max(rates), statistics.median(rates)
    figures = f"best {best:,.{1 if best < 10 else 0}f}, median {median:,.{1 if median < 10 else 0}f}"
    if floor is None:
        return figures
    if best < floor:
        return f"{figures} (floor {floor:,}: NOT met)"
    return f"{figures} (floor {floor:,}: met{', the median too' if median >= floor else '; the median under it'})"


def proof_ms() -> tuple[float, float]:
    """Mean and worst time of prove_claim with nothing on the other side, over varied formations."""
    prove_claim(["R8", "R9", "R10"], [], ALL[:10])  # loads the game's data once, outside the timing
    times = []
    for mine in (["R8", "R9", "R10"], ["R1", "B1", "G5"], ["Y7", "B7", "G7"], ["P2", "P5", "P9"], ["R4", "B5", "G6"]):
        unplayed = [c for c in ALL if c not in mine]
        for _ in range(50):
            start = time.perf_counter()
            prove_claim(mine, [], unplayed)
            times.append((time.perf_counter() - start) * 1000)
    return sum(times) / len(times), max(times)


def strength(slug: str, agent: str, games: int) -> float:
    folder = next(g for g in load_games([slug])).folder
    records = simulate.run(simulate.Plan(folder, (agent, "random"), games, seed=2024), workers=2)
    won = sum(1 for r in records if r.winner() is not None and r.agents[r.winner() or 0] == agent)
    return won / games


def main() -> None:
    quick = "--quick" in sys.argv
    print(f"machine check: 3M steps of a plain Python loop in {machine_ms():.0f} ms (best of 5)")
    for slug in registry.registered():
        rates = games_per_second(slug, 2.0 if quick else 5.0)
        print(f"{slug}: random-vs-random games/s on one core, {_verdict(rates, FLOORS.get(slug))}")
    actions, greedy = time_line_rates(2.0 if quick else 5.0)
    print(f"time-line: random-vs-random actions/s on one core, {_verdict(actions, TIME_LINE_ACTIONS)}")
    print(f"time-line: {greedy:.2f} greedy-vs-greedy games/s on one core")
    mean, worst = proof_ms()
    print(f"battle-line prove_claim, empty opposing side: mean {mean:.3f} ms, worst {worst:.3f} ms")
    for slug in registry.registered():
        games = 40 if quick else 200
        plan = {"greedy": games, "mcts50": games}
        if slug == "time-line":
            # its games run to hundreds of turns and thousands of moves: fewer of them, and MCTS
            # (50 iterations at every one of those moves, about two minutes a game) on a handful
            plan = {"greedy": 12 if quick else 40, "mcts50": 2 if quick else 6}
        for agent, count in plan.items():
            start = time.perf_counter()
            rate = strength(slug, agent, count)
            print(
                f"{slug}: {agent} beats random in {100 * rate:.1f}% of {count} games "
                f"({time.perf_counter() - start:.0f} s on 2 workers)"
            )


if __name__ == "__main__":
    main()
