"""Playing at scale: chunks on local workers or a Dask cluster give the same records; a dead worker costs only its
chunks, and an interrupted run resumes from the chunks it stored."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from engine import runner, simulate
from printkit.cli import main
from printkit.docs import balance

ROOT = Path(__file__).resolve().parents[2]
SB = ROOT / "cards" / "soldier-battler"


def _json(records: list) -> list:
    return [r.to_json() for r in records]


def test_a_two_worker_dask_cluster_writes_the_same_results_as_local_workers(tmp_path: Path) -> None:
    """Also while another program holds Dask's usual status port, 8787 (a second run, a notebook's cluster)."""
    import socket

    with socket.socket() as holder:
        try:
            holder.bind(("0.0.0.0", 8787))
            holder.listen()
        except OSError:  # already held by something else: the case this covers
            pass
        common = ["simulate", "soldier-battler", "--games", "120", "--workers", "2", "--no-pdf", "-q"]
        assert main([*common, "--out", str(tmp_path / "local")]) == 0
        assert main([*common, "--out", str(tmp_path / "dask"), "--scheduler", "local"]) == 0
    results = "soldier-battler/balance/results.json"
    assert (tmp_path / "local" / results).read_bytes() == (tmp_path / "dask" / results).read_bytes()
    assert not (tmp_path / "dask" / "soldier-battler" / "balance" / ".chunks").exists()  # cleared once done


def test_check_finds_the_same_whoever_plays_its_games(capsys: pytest.CaptureFixture[str]) -> None:
    said = []
    for where in (["--workers", "1"], ["--workers", "2"], ["--scheduler", "local"]):
        assert main(["check", "soldier-battler", "--games", "40", *where]) == 0
        said.append(capsys.readouterr().out)
    assert "40 games played" in said[0] and said[0] == said[1] == said[2]


def test_chunks_are_set_by_the_games_alone() -> None:
    assert simulate.spans(10) == [(i, i + 1) for i in range(10)]
    assert simulate.spans(10_000)[:2] == [(0, 100), (100, 200)] and len(simulate.spans(10_000)) == 100
    assert [b - a for a, b in simulate.spans(250)] == [16] * 15 + [10]


_DIED = Path()  # set by the test below: the file that says the worker already died once
_REAL_SPAN = simulate.play_span


def _dying(job: tuple[simulate.Plan, int, int]) -> tuple[int, list]:
    """The worker holding games 32 onward dies the first time (a module function: the pool pickles it by name)."""
    if job[1] == 32 and not _DIED.exists():
        _DIED.touch()
        os._exit(1)
    return _REAL_SPAN(job)


def test_a_worker_that_dies_costs_only_its_chunk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    plan = simulate.Plan(SB, ("random", "random"), 64, 2)
    clean = _json(simulate.run(plan))
    monkeypatch.setattr(sys.modules[__name__], "_DIED", tmp_path / "died")
    monkeypatch.setattr(simulate, "play_span", _dying)  # forked workers see it too
    assert _json(simulate.run(plan, workers=2)) == clean
    assert (tmp_path / "died").exists()


def test_an_interrupted_run_resumes_from_its_stored_chunks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    plan = simulate.Plan(SB, ("random", "greedy"), 48, 3)
    clean = _json(simulate.run(plan))

    def stop_halfway(done: int, total: int) -> None:
        if done >= total // 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt), simulate.backend(store=tmp_path):  # interrupted: its chunks stay
        simulate.run(plan, progress=stop_halfway)
    stored = [len(json.loads(p.read_text())) for p in tmp_path.glob("*/*.json")]
    assert 0 < len(stored) < len(simulate.spans(plan.games))
    played: list[int] = []
    real = simulate.play_span

    def counted(job: tuple[simulate.Plan, int, int]) -> tuple[int, list]:
        played.append(job[2] - job[1])
        return real(job)

    monkeypatch.setattr(simulate, "play_span", counted)
    with simulate.backend(store=tmp_path, resume=True):
        resumed = _json(simulate.run(plan))
    assert resumed == clean
    assert sum(played) == plan.games - sum(stored)  # only what the first run had not finished


def _store_key(folder: Path, store: Path) -> tuple[str, int]:
    """The store folder a plan of folder's game gets, and the most memory Python held while naming it."""
    import tracemalloc

    simulate.fingerprint.code(("engine", "printkit"))  # the code's hash, read once a process, beforehand
    tracemalloc.start()
    try:
        with simulate.backend(store=store):
            key = simulate._store(simulate.Plan(folder, ("random", "random"), 4, 1))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert key is not None
    return key.name, peak


def test_the_store_names_a_game_by_its_files_read_in_chunks_and_never_through_a_link_out(tmp_path: Path) -> None:
    """A 64 MB file in the game's folder costs a chunk of memory, not 64 MB (a 6 GB one was a MemoryError); a link
    to a big file outside is not read, yet a change of its size still names a new store; a FIFO is not waited on."""
    import shutil

    game = tmp_path / "game"
    shutil.copytree(SB, game)
    with (game / "sounds.bin").open("wb") as big:
        big.truncate(64 << 20)
    assert _store_key(game, tmp_path / "store")[1] < 8 << 20
    (game / "sounds.bin").unlink()
    outside = tmp_path / "elsewhere.bin"
    with outside.open("wb") as big:
        big.truncate(64 << 20)
    (game / "notes.bin").symlink_to(outside)
    os.mkfifo(game / "pipe")
    key, peak = _store_key(game, tmp_path / "store")
    assert peak < 8 << 20
    with outside.open("ab") as big:
        big.write(b"more")
    assert _store_key(game, tmp_path / "store")[0] != key


@pytest.mark.parametrize("slug", ["battle-line", "soldier-battler", "torah-timeline", "time-line-battle"])
def test_a_record_encodes_as_json_writes_its_dict(slug: str) -> None:
    """runner.encoded writes a record's JSON without its dict, for speed: the same bytes, heuristic's lead and all."""
    for agents in (("random", "random"), ("greedy", "random")):
        for record in simulate.run(simulate.Plan(ROOT / "cards" / slug, agents, 24, 5)):
            assert runner.encoded(record) == json.dumps(record.to_json(), separators=(",", ":"))


@pytest.mark.parametrize("actions", [[], [0, 255], [256, 65_535], [65_536, 1], [-3, 7], [2**40]])
def test_every_width_of_actions_encodes_as_json_writes_it(actions: list[int]) -> None:
    for kept in (runner.packed(actions), actions):
        record = runner.Record(9, ["random", 'é"\n'], kept, [1.0, -1], 2, 1, "normal", 0, ((1, 'a"}{,'),), {3: 2})
        assert runner.encoded(record) == json.dumps(record.to_json(), separators=(",", ":"))


def test_results_copied_from_the_store_are_as_encoded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """simulate's results.json copies the stored chunks' JSON: byte for byte what encoding each record gives, with
    one worker or two, and after a resume."""
    monkeypatch.setenv("PRINTKIT_CACHE", str(tmp_path / "cache"))
    results = "battle-line/balance/results.json"
    common = ["simulate", "battle-line", "--games", "150", "--seed", "4", "--no-pdf", "-q"]
    for workers in ("1", "2"):
        assert main([*common, "--workers", workers, "--out", str(tmp_path / workers)]) == 0
    written = (tmp_path / "1" / results).read_bytes()
    assert written == (tmp_path / "2" / results).read_bytes()
    data = json.loads(written)
    records = [runner.Record.from_json(r) for r in data.pop("games")]
    balance.write_results(tmp_path / "encoded.json", data["settings"], data["summary"], records)
    assert (tmp_path / "encoded.json").read_bytes() == written

    plan = simulate.Plan(ROOT / "cards" / "battle-line", ("random", "random"), 150, 4)

    def stop_halfway(done: int, total: int) -> None:
        if done >= total // 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt), simulate.backend(store=tmp_path / "cache" / "chunks"):  # its chunks stay
        simulate.run(plan, progress=stop_halfway)
    assert main([*common, "--workers", "2", "--resume", "--out", str(tmp_path / "resumed")]) == 0
    # the games alike byte for byte; the summary may differ in a float's last digit, as it did before the games were
    # copied: a stored record's branching comes back in sorted order, and measure sums it in that order
    games = b'\n "games": ['
    assert (tmp_path / "resumed" / results).read_bytes().partition(games)[2] == written.partition(games)[2]
