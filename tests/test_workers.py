"""Worker processes end with the printkit that started them: a kill -9 of the parent leaves none running."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from printkit.core import workers

ROOT = Path(__file__).resolve().parent.parent


def _children(pid: int) -> set[int]:
    """The processes whose parent is pid, read from /proc."""
    out = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.add(int(stat.parent.name))
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.parametrize(
    "command",
    [
        ["build", "--no-check", "--out", "{out}"],
        ["simulate", "time-line", "--games", "400", "--workers", "2", "--no-pdf", "--out", "{out}"],
    ],
    ids=["build", "simulate"],
)
def test_workers_die_with_a_killed_parent(tmp_path: Path, command: list[str]) -> None:
    out = tmp_path / "out"
    args = [a.replace("{out}", str(out)) for a in command]
    parent = subprocess.Popen(
        [sys.executable, "-m", "printkit", *args], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 60
    workers: set[int] = set()
    while time.monotonic() < deadline and len(workers) < 2 and parent.poll() is None:
        workers |= _children(parent.pid)
        time.sleep(0.05)
    assert len(workers) >= 2, "the workers never started"
    time.sleep(0.5)  # let them get to work
    before = sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) if out.exists() else []
    os.kill(parent.pid, signal.SIGKILL)
    parent.wait()
    time.sleep(1.0)
    assert not [w for w in workers if _alive(w)], "workers outlived their parent"
    after = sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) if out.exists() else []
    assert after == before  # nothing written after the kill
    assert not [name for name in after if name.endswith(".part")]


def test_ctrl_c_is_one_line_however_many_workers_hear_it(tmp_path: Path) -> None:
    """Ctrl-C signals the terminal's whole process group: the workers leave the answer to printkit."""
    run = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "printkit",
            "simulate",
            "time-line",
            "--games",
            "2000",
            "--workers",
            "2",
            "--no-pdf",
            "--out",
            str(tmp_path),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own group, as a shell gives a command
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(_children(run.pid)) < 2:
        time.sleep(0.05)
    time.sleep(0.5)
    os.killpg(run.pid, signal.SIGINT)
    _, err = run.communicate(timeout=60)
    assert run.returncode == 130, err
    assert err.count("\n") == 1 and "interrupted" in err and "Traceback" not in err, err


def _nap(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def test_a_stopped_pool_leaves_no_thread_for_the_exit_hook_to_race() -> None:
    """Python's exit hook wakes each pool's manager thread; one still closing its pipe then prints a traceback
    under the one line of a Ctrl-C. stop() returns only after the thread has ended."""
    pool = workers.executor(2)
    futures = [pool.submit(_nap, 30.0) for _ in range(4)]
    manager = pool._executor_manager_thread
    assert manager is not None and manager.is_alive()
    workers.stop(pool)
    assert not manager.is_alive()
    assert all(f.done() for f in futures)
