"""Benchmark: how long the commands that need little take to start, against Python doing nothing.

Run: python tests/benchmarks/bench_startup.py [--rounds N]
Goal (#33): `printkit --version` and `printkit --help` within 10x of `python -c pass`. Each round runs every
command once, interleaved, so a busy machine slows them alike; the best round of each is compared, and
what each command imports is counted from `python -X importtime`.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time

GOAL = 10.0
COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "printkit --version": [sys.executable, "-m", "printkit", "--version"],
    "printkit --help": [sys.executable, "-m", "printkit", "--help"],
    "printkit build --help": [sys.executable, "-m", "printkit", "build", "--help"],
    "printkit completion bash": [sys.executable, "-m", "printkit", "completion", "bash"],
    "printkit list": [sys.executable, "-m", "printkit", "list"],
}


def _once(command: list[str], where: str) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=where, check=True, capture_output=True)
    return time.perf_counter() - start


def _modules(command: list[str], where: str) -> int:
    """How many modules the command imports."""
    done = subprocess.run(
        [command[0], "-X", "importtime", *command[1:]], cwd=where, check=True, capture_output=True, text=True
    )
    return sum(1 for line in done.stderr.splitlines() if line.startswith("import time:")) - 1


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--rounds", type=int, default=15)
    args = options.parse_args()
    with tempfile.TemporaryDirectory() as where:  # an empty folder: list shows the bundled games
        best = {name: min(_once(c, where) for _ in range(2)) for name, c in COMMANDS.items()}  # warm the disk cache
        for _ in range(args.rounds):
            for name, command in COMMANDS.items():
                best[name] = min(best[name], _once(command, where))
        base = best["python -c pass"]
        print(f"best of {args.rounds} interleaved rounds:")
        for name, command in COMMANDS.items():
            ratio, modules = best[name] / base, _modules(command, where)
            print(f"  {name:<26} {best[name] * 1000:7.1f} ms  {ratio:5.1f}x  {modules:4} modules")
    worst = max(best["printkit --version"], best["printkit --help"]) / base
    verdict = "met" if worst <= GOAL else "MISSED"
    print(f"--version and --help: {worst:.1f}x python -c pass (goal: within {GOAL:.0f}x): {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
