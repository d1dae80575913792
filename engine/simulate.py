"""Run many seeded games, in worker processes, with the same results whatever the number of workers."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from engine import agents, registry
from engine.api import GameDef
from engine.runner import Record, play
from printkit.core import workers as processes
from printkit.data import variant
from printkit.data.loader import load_game
from printkit.data.variant import Change


@dataclass(frozen=True)
class Plan:
    """What to simulate; picklable, so each worker builds its own game from the same folder."""

    folder: Path
    agents: tuple[str, str]
    games: int
    seed: int
    changes: tuple[Change, ...] = ()  # values changed from the game's data (printkit.data.variant), for a sweep

    def game_seed(self, index: int) -> int:
        # spread the seeds so neighbouring games share no generator state
        return (self.seed * 1_000_003 + index * 7_919 + 1) % 2**32

    def seats(self, index: int) -> tuple[str, str]:
        """Agents swap seats every other game, so each plays both seats equally."""
        return self.agents if index % 2 == 0 else (self.agents[1], self.agents[0])


_GAMES: dict[tuple[Path, tuple[Change, ...]], GameDef] = {}


def _game(folder: Path, changes: tuple[Change, ...] = ()) -> GameDef:
    if (folder, changes) not in _GAMES:
        _GAMES[folder, changes] = registry.build(variant.vary(load_game(folder), changes))
    return _GAMES[folder, changes]


LEAD_SAMPLE = 10  # the lead (for lead changes, drama, decisiveness) is read in every tenth game: it is costly


def play_one(job: tuple[Plan, int]) -> Record:
    plan, index = job
    names = plan.seats(index)
    game = _game(plan.folder, plan.changes)
    return play(game, [agents.make(n) for n in names], plan.game_seed(index), lead=index % LEAD_SAMPLE == 0)


def run(plan: Plan, workers: int = 1, progress: Callable[[int, int], None] | None = None) -> list[Record]:
    """Every game of the plan, in game order."""
    jobs = ((plan, i) for i in range(plan.games))
    results: Iterator[Record]
    if workers <= 1:
        results = map(play_one, jobs)
        return _collect(results, plan.games, progress)
    with processes.pool(workers) as pool:
        # imap keeps the order of the jobs: the same records whatever the number of workers
        return _collect(pool.imap(play_one, jobs, chunksize=max(1, plan.games // (workers * 8))), plan.games, progress)


def _collect(results: Iterator[Record], total: int, progress: Callable[[int, int], None] | None) -> list[Record]:
    out = []
    for record in results:
        out.append(record)
        if progress:
            progress(len(out), total)
    return out
