"""Benchmark: under `printkit build --watch`, one card's text saved to its card PDF rewritten, against a cold full
build of the same game (a new output folder and an empty cache, the whole process).

Run: python tests/benchmarks/bench_watch.py [--rounds N] [--game starter|battle-line]
Goal (#33): the edit at most a tenth of the cold build, and at most 1 s for the starter game (`printkit new`) on an
idle machine. The edit's time runs from the save to the card PDF holding new bytes, as a designer waits for it.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GOAL_RATIO = 0.10
GOAL_SECONDS = 1.0  # the starter game's


def _printkit(args: list[str], where: Path, env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "printkit", *args], cwd=where, env=env, check=True, capture_output=True)
    return time.perf_counter() - start


def _wait(log: Path, pattern: str, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not re.search(pattern, log.read_text()):
        if time.monotonic() > deadline:
            raise SystemExit(f"no {pattern!r} in the watch's output:\n{log.read_text()}")
        time.sleep(0.01)


def _changed(pdf: Path, before: bytes, since: float, seconds: float = 120) -> float:
    """Seconds from since until pdf holds other bytes than before."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if pdf.read_bytes() != before:
                return time.perf_counter() - since
        except OSError:
            pass
        time.sleep(0.005)
    raise SystemExit(f"{pdf} was not rewritten")


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--rounds", type=int, default=5)
    options.add_argument("--game", default="starter", help="starter (printkit new) or a bundled game's name")
    args = options.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        env = {**os.environ, "PRINTKIT_CACHE": str(home / "cache")}
        project = home / "project"
        subprocess.run([sys.executable, "-m", "printkit", "init", "-q", str(project)], check=True, env=env)
        if args.game == "starter":
            _printkit(["new", "Starter", "-q"], project, env)
            slug = "starter"
        else:
            import printkit

            bundled = Path(printkit.__file__).resolve().parent.parent / "cards" / args.game
            shutil.copytree(bundled, project / "cards" / args.game)
            slug = args.game
        cards = project / "cards" / slug / "cards.yaml"
        cold = _printkit(["build", slug, "--out", str(home / "cold")], project, env)
        pdf = project / "output" / slug / "cards-a4.pdf"
        log = home / "watch.log"
        with log.open("w") as sink:
            watcher = subprocess.Popen(
                [sys.executable, "-m", "printkit", "build", slug, "--watch", "--port", "0"],
                cwd=project,
                env=env,
                stdout=sink,
                stderr=subprocess.STDOUT,
            )
        edits: list[float] = []
        try:
            _wait(log, r"watching ")
            text = cards.read_text()
            first = re.search(r"^(\s+text: )(.+)$", text, re.MULTILINE)
            assert first is not None, "a card with a text: field"
            for round_ in range(args.rounds):
                before = pdf.read_bytes()
                done = log.read_text().count("rebuilt ")
                edited = text[: first.end(2)] + f" Round {round_}." + text[first.end(2) :]
                started = time.perf_counter()
                cards.write_text(edited)
                edits.append(_changed(pdf, before, started))
                _wait(log, r"(rebuilt .*\n(.*\n)*){" + str(done + 1) + "}")  # the rest lands before the next edit
                time.sleep(0.5)
        finally:
            watcher.terminate()
            watcher.wait(timeout=30)
    edit = sorted(edits)[len(edits) // 2]
    ratio = edit / cold
    print(f"game: {slug}")
    print(f"cold full build (whole process, empty cache): {cold:.2f} s")
    print(
        f"incremental, card text saved to card PDF rewritten under --watch: median {edit:.3f} s "
        f"({', '.join(f'{e:.3f}' for e in edits)})"
    )
    print(f"ratio: {ratio:.3f} (goal at most {GOAL_RATIO})")
    met = ratio <= GOAL_RATIO and (slug != "starter" or edit <= GOAL_SECONDS)
    goal = f"at most {GOAL_RATIO} of the cold build" + (f" and {GOAL_SECONDS:g} s" if slug == "starter" else "")
    print(f"goal ({goal}): {'met' if met else 'MISSED'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
