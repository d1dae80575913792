"""Run many seeded games in chunks, on local worker processes or a Dask cluster, with the same results however.

Each game's seed comes from its index, so a chunk of games gives the same records wherever it is
played; chunks stream to a store as they finish, so an interrupted run can resume, and the
chunks of a worker that dies are played again.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import math
import os
import shutil
import stat
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from engine import agents, registry
from engine.api import DEFAULT_EXPERT, GameDef
from engine.runner import BETWEEN, Record, encoded, play
from printkit.core import atomic, fingerprint
from printkit.core import workers as processes
from printkit.core.errors import UsageError
from printkit.data import variant
from printkit.data.loader import load_game
from printkit.data.variant import Change


def game_seed(seed: int, index: int) -> int:
    """The seed of a run's game `index`: spread, so neighbouring games share no generator state."""
    return (seed * 1_000_003 + index * 7_919 + 1) % 2**32


Job = TypeVar("Job", bound=tuple[Any, ...])
Done = TypeVar("Done")


def seated(names: Sequence[str], seats: int, index: int) -> tuple[str, ...]:
    """The agents of game `index` at a table of `seats`: the names in order, the last filling the seats left, the
    table turned a seat each game so every agent sits in every seat equally often (two: swapped every other game)."""
    if len(names) > seats:
        raise UsageError(f"--agents: {len(names)} agents for a game of {seats} players: name one a seat at most")
    table = (*names, *[names[-1]] * (seats - len(names)))
    turn = index % seats
    return (*table[-turn:], *table[:-turn]) if turn else table


@dataclass(frozen=True)
class Plan:
    """What to simulate; picklable, so each worker builds its own game from the same folder."""

    folder: Path
    agents: tuple[str, ...]  # one a seat, or fewer: the last fills the seats left (greedy,random at four: 1 greedy)
    games: int
    seed: int
    changes: tuple[Change, ...] = ()  # values changed from the game's data (printkit.data.variant), for a sweep

    def __post_init__(self) -> None:
        # each agent by the name its records carry: mcts as mcts200, expert as the agent the game's data names
        named = any(name.partition(agents.BANS)[0] == agents.EXPERT for name in self.agents)
        expert = game_of(self.folder, self.changes).expert if named else DEFAULT_EXPERT
        object.__setattr__(self, "agents", tuple(agents.make(agents.resolve(n, expert)).name for n in self.agents))

    def game_seed(self, index: int) -> int:
        return game_seed(self.seed, index)

    def seats(self, index: int) -> tuple[str, ...]:
        """The agents of game `index`, seat by seat: turned a seat each game, so each plays every seat equally."""
        return seated(self.agents, game_of(self.folder, self.changes).num_players, index)


_GAMES: dict[tuple[Path, tuple[Change, ...]], GameDef] = {}


def game_of(folder: Path, changes: tuple[Change, ...] = ()) -> GameDef:
    """The game in folder (with the changes made) as its engine plays it, built once a process."""
    if (folder, changes) not in _GAMES:
        _GAMES[folder, changes] = registry.build(variant.vary(load_game(folder), changes))
    return _GAMES[folder, changes]


# the lead (for lead changes, drama, decisiveness) is costly to read: it is read in every tenth game of a run's
# first LEAD_DENSE, which gives its means from a hundred games, and in every hundredth after, so a long run's
# games cost what the engine's own play does
LEAD_SAMPLE = 10
LEAD_DENSE = 1_000


def reads_lead(index: int) -> bool:
    """Whether a run's game `index` reads the lead."""
    return index % (LEAD_SAMPLE if index < LEAD_DENSE else 10 * LEAD_SAMPLE) == 0


def play_one(job: tuple[Plan, int]) -> Record:
    plan, index = job
    names = plan.seats(index)
    game = game_of(plan.folder, plan.changes)
    return play(game, [agents.make(n) for n in names], plan.game_seed(index), lead=reads_lead(index))


def play_span(job: tuple[Plan, int, int]) -> tuple[int, list[Record]]:
    """Games start to stop of the plan: a chunk, the unit of work a worker does, stores and may redo."""
    plan, start, stop = job
    return start, [play_one((plan, i)) for i in range(start, stop)]


def spans(games: int) -> list[tuple[int, int]]:
    """The plan's chunks: about 16 for a short run, 100 games each for a long one; set by the games alone, so a
    resumed run finds the chunks it stored whatever the workers or the scheduler."""
    size = max(1, min(CHUNK, math.ceil(games / 16)))
    return [(start, min(start + size, games)) for start in range(0, games, size)]


CHUNK = 100  # games a chunk holds at most
RETRIES = 3  # times the chunks of a dead worker are tried again


@dataclass
class Backend:
    """Where the chunks are played and kept: local workers or a Dask cluster; a folder they stream to."""

    client: Any = None  # a dask.distributed Client, when a cluster plays
    store: Path | None = None  # finished chunks, as JSON, so an interrupted run can resume
    resume: bool = False  # read the chunks a run before stored
    used: set[Path] = field(default_factory=set)  # the plans' folders in the store, to clear once all is done
    folders: dict[Plan, Path] = field(default_factory=dict)  # each plan run in the block: its folder in the store


_backend = Backend()


@contextlib.contextmanager
def backend(scheduler: str | None = None, store: Path | None = None, resume: bool = False) -> Iterator[Backend]:
    """Play on a Dask cluster for the block (scheduler: "local" starts one here, else its tcp:// address), and
    stream finished chunks to store. Dask is needed only when a scheduler is named. When the block ends without
    an error, the chunks it stored are cleared: a finished command keeps its games in its results."""
    global _backend
    before = _backend
    client = cluster = None
    try:
        if scheduler is not None:
            client, cluster = _dask(scheduler)
        if store is not None:
            _forget_old(store)
        _backend = Backend(client, store, resume)
        yield _backend
        for folder in _backend.used:
            shutil.rmtree(folder, ignore_errors=True)
    finally:
        _backend = before
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()


STALE_DAYS = 14  # an interrupted run's chunks not resumed by then are cleared


def _forget_old(store: Path) -> None:
    """Clear the chunks of runs interrupted long ago and never resumed."""
    limit = time.time() - STALE_DAYS * 86_400
    for folder in store.iterdir() if store.is_dir() else ():
        with contextlib.suppress(OSError):
            if folder.stat().st_mtime < limit:
                shutil.rmtree(folder, ignore_errors=True)


def _dask(scheduler: str) -> tuple[Any, Any]:
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise UsageError(
            "--scheduler needs Dask: pipx inject printkit-studio 'dask[distributed]', "
            "or pip install -e '.[dask]' in printkit's clone (see docs/explanation/engine.md)"
        ) from None
    if scheduler == "local":
        # its workers' logs (a heartbeat missed while the cluster closes) would be noise in printkit's own output;
        # its status pages on a free port: Dask's default 8787 may be another cluster's (two runs at once)
        cluster = LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=logging.CRITICAL
        )
        return Client(cluster), cluster
    try:
        return Client(scheduler, timeout=10), None
    except (OSError, TimeoutError) as exc:
        raise UsageError(f"--scheduler {scheduler}: no Dask scheduler answers there ({exc})") from None


def run(plan: Plan, workers: int = 1, progress: Callable[[int, int], None] | None = None) -> list[Record]:
    """Every game of the plan, in game order: the same records whatever the workers, the scheduler or a resume."""
    chunks = spans(plan.games)
    store = _store(plan)
    done: dict[int, list[Record]] = {}
    if store is not None and _backend.resume:
        done = _stored(store, chunks)
    played = sum(len(records) for records in done.values())
    if progress:
        progress(played, plan.games)
    todo = [(plan, start, stop) for start, stop in chunks if start not in done]
    if store is not None:
        _backend.folders[plan] = store
    for start, records in _play(todo, workers):
        done[start] = records
        if store is not None:  # laid out as results.json lays its games, which stored_games reads back
            atomic.write_text(store / f"{start}.json", OPEN + BETWEEN.join(map(encoded, records)) + CLOSE)
        played += len(records)
        if progress:
            progress(played, plan.games)
    return [record for start, _ in chunks for record in done[start]]


# a stored chunk: its records' JSON, one a line, between these; it is read as JSON when a run resumes
OPEN, CLOSE = "[\n  ", "\n]"


def stored_games(plan: Plan) -> Iterator[str] | None:
    """The games run(plan) played in this backend block, as its chunks were stored, for results.json to copy
    rather than encode each game again: for each chunk in game order, its records' JSON joined by BETWEEN. None
    when they are not all stored (no store, a file gone): the caller encodes the records itself."""
    store = _backend.folders.get(plan)
    if store is None:
        return None
    paths = [store / f"{start}.json" for start, _ in spans(plan.games)]
    if not all(path.is_file() for path in paths):
        return None
    return (_block(path) for path in paths)


def _block(path: Path) -> str:
    """A stored chunk's records' JSON joined by BETWEEN."""
    text = path.read_text(encoding="utf-8")
    if text.startswith(OPEN) and text.endswith(CLOSE):
        return text[len(OPEN) : -len(CLOSE)]
    # not as run stores a chunk (edited in the cache since): its records encoded again, as they would be
    return BETWEEN.join(json.dumps(r, separators=(",", ":")) for r in json.loads(text))


SETTLE_CAP = 4  # a verdict's games grow, doubling, to at most this many times those asked for


def until_settled(plan: Plan, settled: Callable[[list[Record]], bool], workers: int = 1) -> list[Record]:
    """The plan's games, then more of the same run (the next game numbers, so the first games stay as they were),
    doubling, until settled says the figures hold or SETTLE_CAP times the games asked are played: a verdict is
    read from as many games as it takes, within a stated cap, rather than from a count fixed beforehand."""
    records = run(plan, workers)
    cap = plan.games * SETTLE_CAP
    while records and len(records) < cap and not settled(records):
        start, stop = len(records), min(cap, 2 * len(records))
        size = max(1, min(CHUNK, math.ceil((stop - start) / 16)))
        jobs = [(plan, a, min(a + size, stop)) for a in range(start, stop, size)]
        records += [record for _, chunk in _play(jobs, workers) for record in chunk]
    return records


def _play(jobs: list[tuple[Plan, int, int]], workers: int) -> Iterator[tuple[int, list[Record]]]:
    """Each chunk's records as it finishes: in this process, on local workers, or on the Dask cluster."""
    return spread(play_span, jobs, workers)


def spread(work: Callable[[Job], tuple[int, Done]], jobs: list[Job], workers: int) -> Iterator[tuple[int, Done]]:
    """work done on each job, in the jobs' order, here, on local workers or on the Dask cluster of the backend.
    A job is a tuple whose second item is its first game; work returns that game with what it made of the job."""
    if _backend.client is not None:
        for future in _backend.client.map(work, jobs, retries=RETRIES, pure=False):
            yield future.result()
        return
    if workers <= 1 or len(jobs) <= 1:
        yield from map(work, jobs)
        return
    left = {job[1]: job for job in jobs}
    for attempt in range(RETRIES + 1):
        pool = processes.executor(workers)
        try:
            futures = [pool.submit(work, job) for job in left.values()]
            for future in futures:  # in the games' order: a failure reported is the first game's, every time
                start, done = future.result()
                del left[start]
                yield start, done
            pool.shutdown()
            return
        except BrokenProcessPool:  # a worker died (killed, out of memory): only its chunks are played again
            processes.stop(pool)
            if attempt == RETRIES:
                raise
        except BaseException:  # Ctrl-C, a game that never ends: the other chunks in flight are not waited for
            processes.stop(pool)
            raise


def _store(plan: Plan) -> Path | None:
    """The plan's folder in the chunk store, named by the plan, the game's files and the code that plays them."""
    if _backend.store is None:
        return None
    digest = hashlib.sha256(repr((plan.agents, plan.games, plan.seed, plan.changes)).encode())
    digest.update(fingerprint.code(("engine", "printkit")).encode())
    _hash_folder(digest, plan.folder)
    folder = _backend.store / digest.hexdigest()[:24]
    _backend.used.add(folder)
    return folder


HASH_CHUNK = 1 << 20  # bytes of a file read at a time: a file of any size costs this much memory


def _hash_folder(digest: Any, folder: Path) -> None:
    """Every file in folder and its subfolders into digest, each by its path and its bytes read a chunk at a time.

    A link is never followed: its own words go in, and for one that leads to something (inside or out) that
    thing's size and time, so a changed target still changes the hash without its bytes being read. A file that
    cannot be read (a FIFO, a device, no permission) goes in as its path and kind alone.
    """
    for where, subfolders, names in os.walk(folder):  # links to folders are listed, not walked into
        subfolders.sort()
        for name in sorted(names + [s for s in subfolders if os.path.islink(os.path.join(where, s))]):
            path = os.path.join(where, name)
            digest.update(Path(path).relative_to(folder).as_posix().encode() + b"\0")
            try:
                mode = os.lstat(path).st_mode
                if stat.S_ISLNK(mode):
                    digest.update(b"link\0" + os.fsencode(os.readlink(path)) + b"\0")
                    with contextlib.suppress(OSError):  # a link to nothing, or a loop: its words alone
                        seen = os.stat(path)
                        digest.update(f"{seen.st_size} {seen.st_mtime_ns}".encode())
                elif stat.S_ISREG(mode):
                    _hash_file(digest, path)
                else:
                    digest.update(f"kind {stat.S_IFMT(mode)}".encode())
            except OSError as exc:
                digest.update(f"unreadable {exc.errno}".encode())
            digest.update(b"\0")


def _hash_file(digest: Any, path: str) -> None:
    """The regular file's bytes into digest, a chunk at a time."""
    # a file swapped for a link or a FIFO since it was listed is neither followed nor waited on
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            digest.update(b"not a file")
            return
        while chunk := os.read(fd, HASH_CHUNK):
            digest.update(chunk)
    finally:
        os.close(fd)


def _stored(store: Path, chunks: list[tuple[int, int]]) -> dict[int, list[Record]]:
    """The chunks a run before finished and stored, each whole; a damaged one is played again."""
    found = {}
    for start, stop in chunks:
        try:
            records = [Record.from_json(r) for r in json.loads((store / f"{start}.json").read_text())]
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if len(records) == stop - start:
            found[start] = records
    return found
