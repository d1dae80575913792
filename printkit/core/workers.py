"""Worker processes that end with the printkit process that started them, however it ends: killed, interrupted
or failed. Every pool printkit starts comes from here.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import multiprocessing.pool
import os
import signal
from concurrent.futures import ProcessPoolExecutor

_PR_SET_PDEATHSIG = 1  # prctl option: the signal a process gets when its parent ends (Linux)


def _die_with_parent(parent: int) -> None:
    """Run first in every worker: the kernel kills it when its parent goes, even by kill -9."""
    # Ctrl-C reaches the whole process group: the parent alone answers it (one line, then it ends the pool);
    # workers that also raised KeyboardInterrupt would each print a traceback over that line
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # not Linux: the pools still end their workers on errors and Ctrl-C
        pass
    if os.getppid() != parent:  # the parent ended before the request above was made
        os._exit(1)


def executor(workers: int) -> ProcessPoolExecutor:
    """A pool of forked workers for map-style jobs; the workers share the parent's loaded modules and data."""
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("fork"),
        initializer=_die_with_parent,
        initargs=(os.getpid(),),
    )


def pool(workers: int) -> multiprocessing.pool.Pool:
    """A multiprocessing pool of forked workers, for ordered streams of results (imap)."""
    return multiprocessing.get_context("fork").Pool(workers, initializer=_die_with_parent, initargs=(os.getpid(),))


def stop(pool: ProcessPoolExecutor) -> None:
    """End the pool's workers now, mid-task: after Ctrl-C or an error, work in flight is not waited for."""
    # taken before shutdown, which forgets it
    manager = getattr(pool, "_executor_manager_thread", None)
    for process in list((getattr(pool, "_processes", None) or {}).values()):  # no public way before Python 3.14
        process.kill()
    pool.shutdown(wait=False, cancel_futures=True)
    # the pool's manager thread closes its wake-up pipe as it notices the killed workers; should the
    # interpreter exit meanwhile, its exit hook writes to that pipe as it closes and prints "Exception
    # ignored ... Bad file descriptor" under printkit's one line. Waiting for the thread (it ends within
    # moments of the kill) leaves the hook a closed pipe, which it skips.
    if manager is not None:
        manager.join(timeout=30)
