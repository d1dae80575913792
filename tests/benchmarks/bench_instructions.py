"""Benchmark: machine instructions per random-vs-random game, counted by valgrind's callgrind.

Run: python tests/benchmarks/bench_instructions.py [SLUG ...] [--games N]
Prints, for each game (all registered ones by default), the instructions one seeded random game
costs: the count over N games less the count of the same process playing none, divided by N.
Unlike games/s, the count does not move when other work loads the machine, so a change's effect
on the engine can be read on a busy machine; the games played are those of bench_engine.py's
games_per_second, seeds from 0. Needs valgrind on the PATH.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

PLAY = """
import sys
from engine import registry
from engine.agents import RandomAgent
from engine.runner import play
from printkit.data.loader import load_games
game = registry.build(next(g for g in load_games([sys.argv[1]])))
for seed in range(int(sys.argv[2])):
    play(game, [RandomAgent(), RandomAgent()], seed)
"""


def instructions(slug: str, games: int, folder: Path) -> int:
    """The instructions a process playing games random games of slug executes in all."""
    script = folder / "play.py"
    script.write_text(PLAY)
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={folder / 'out'}", sys.executable, str(script)]
        + [slug, str(games)],
        capture_output=True,
        text=True,
        check=True,
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise RuntimeError(f"valgrind printed no count for {slug}: {done.stderr[-300:]}")
    return int(found.group(1))


def main() -> None:
    from engine import registry

    args = sys.argv[1:]
    games = 100
    if "--games" in args:
        at = args.index("--games")
        games = int(args[at + 1])
        del args[at : at + 2]
    if shutil.which("valgrind") is None:
        print("bench_instructions: valgrind is not installed", file=sys.stderr)
        raise SystemExit(2)
    with tempfile.TemporaryDirectory() as tmp:
        for slug in args or registry.registered():
            per_game = (instructions(slug, games, Path(tmp)) - instructions(slug, 0, Path(tmp))) / games
            print(f"{slug}: {per_game:,.0f} instructions a random-vs-random game (callgrind, {games} games)")


if __name__ == "__main__":
    main()
