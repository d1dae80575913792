"""Benchmark: what `printkit simulate` spends beyond the games themselves, and its memory as the games grow.

Run: python tests/benchmarks/bench_simulate.py [--game battle-line] [--games 1000] [--rounds 3]
Goals (#33 item 5): the whole command's marginal cost per game, over games n to 4n, within 1.25x of the engine's
own play of the same games (simulate.run in one process, nothing written); its peak memory at 20,000 games within
1.5x of that at 2,000. Each figure is the best of the rounds, the runs interleaved so a busy machine slows them
alike; one worker, no PDF (the report's PDF is made once whatever the games).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE_ONLY = """
import sys, time
from pathlib import Path
from engine import simulate
plan = simulate.Plan(Path(sys.argv[1]), ("random", "random"), int(sys.argv[2]), 1)
start = time.perf_counter()
simulate.run(plan, 1)
print(time.perf_counter() - start)
"""


def _command(game: str, games: int, out: str) -> float:
    """The whole `printkit simulate` process, in seconds."""
    argv = [sys.executable, "-m", "printkit", "simulate", game, "--games", str(games), "--workers", "1"]
    start = time.perf_counter()
    subprocess.run([*argv, "--no-pdf", "-q", "--out", out], check=True, cwd=ROOT)
    return time.perf_counter() - start


def _engine(game: str, games: int) -> float:
    done = subprocess.run(
        [sys.executable, "-c", ENGINE_ONLY, str(ROOT / "cards" / game), str(games)],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    return float(done.stdout)


def _peak(game: str, games: int, out: str) -> int:
    """Peak resident kilobytes of one simulate process, measured in a process of its own (ru_maxrss of the
    children is the largest any child reached, so each size is measured from a fresh parent)."""
    probe = (
        "import resource, subprocess, sys\n"
        "subprocess.run(sys.argv[1:], check=True)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    argv = [sys.executable, "-m", "printkit", "simulate", game, "--games", str(games), "--workers", "1", "--no-pdf"]
    done = subprocess.run(
        [sys.executable, "-c", probe, *argv, "-q", "--out", out], check=True, capture_output=True, text=True, cwd=ROOT
    )
    return int(done.stdout)


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--game", default="battle-line")
    options.add_argument("--games", type=int, default=1000, help="n: the runs are of n and 4n games")
    options.add_argument("--rounds", type=int, default=3)
    options.add_argument("--memory", type=int, nargs=2, default=(2000, 20000), metavar=("SMALL", "LARGE"))
    args = options.parse_args()
    n, large = args.games, 4 * args.games
    whole: dict[int, float] = {}
    engine: dict[int, float] = {}
    with tempfile.TemporaryDirectory() as out:
        for _ in range(args.rounds):
            for games in (n, large):
                whole[games] = min(whole.get(games, float("inf")), _command(args.game, games, out))
                engine[games] = min(engine.get(games, float("inf")), _engine(args.game, games))
        marginal_whole = (whole[large] - whole[n]) / (large - n)
        marginal_engine = (engine[large] - engine[n]) / (large - n)
        ratio = marginal_whole / marginal_engine
        print(f"{args.game}, random against random, one worker, best of {args.rounds}:")
        print(f"  printkit simulate: {whole[n]:.2f} s for {n:,} games, {whole[large]:.2f} s for {large:,}")
        print(f"  the engine's own play: {engine[n]:.2f} s for {n:,} games, {engine[large]:.2f} s for {large:,}")
        print(f"  marginal cost a game: {marginal_whole * 1000:.3f} ms against {marginal_engine * 1000:.3f} ms")
        print(f"  ratio {ratio:.2f} (goal: within 1.25): {'met' if ratio <= 1.25 else 'MISSED'}")
        small, big = args.memory
        peaks = {games: _peak(args.game, games, out) for games in (small, big)}
    grown = peaks[big] / peaks[small]
    print(f"  peak memory: {peaks[small] / 1024:.0f} MB at {small:,} games, {peaks[big] / 1024:.0f} MB at {big:,}")
    print(f"  grown {grown:.2f}x (goal: within 1.5x): {'met' if grown <= 1.5 else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
