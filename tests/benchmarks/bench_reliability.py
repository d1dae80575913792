"""Benchmark: the reliability fuzz of game-folder loading, long, on every core, and what it found.

Run: python tests/benchmarks/bench_reliability.py [--cases 10000] [--workers 2] [--seed 1] [--kills 50]
     [--aimed 20] [--parts fuzz,memory,kills,faults,costs] [--printkit CHECKOUT]

The cases and the property are tests/test_fuzz.py's: the five bundled games and the studio's demo game
(cards from an XLSX sheet, pictures, its own font, icon and layout), mutated in structure, text, YAML,
files and sheet cells, each checked with `printkit validate` in a process of its own (forked from
one that imported printkit once). Prints the cases run, tracebacks, hangs (over 5 s), standard
error lines that are not one problem each, other exit codes, the slowest case and the peak memory;
then runs one saved example of each kind of failure, and the slowest case, again as a fresh
`python -m printkit validate` to confirm it. Failing cases are saved as projects under --keep.

Then the memory of `printkit export tts` for a deck of 540 cards and of 5,400 (goal: the second within
2x the first), each a whole process with a cache of its own.

Then the faults: --kills trials each of kill -9 and of Ctrl-C (SIGINT to the build's process group) at a
seeded moment of a build that changes every card file, each followed by a look at the set of outputs
(all old or all new, never some of each, and no file that is neither) and at stray .part files, which
the next build must sweep; then --aimed trials each of kill -9, Ctrl-C and kill, the signal sent just after
a seeded one of the build's renames: Ctrl-C and kill must wait for the last rename, and what a kill -9 left
must be finished by the next run into the output folder. Last the faults a user's machine can cause (an
--out that is a file, an output that is a folder, a full disk, a read-only disk, a game output folder
that is a file, a link out of the project), each with its exit code and its line.

Then the costs of input at and past the documented limits (the audit's cases of #37 item 4): 20 cards at 1,000
copies, a board of 50 sections of 100 x 100 spaces, 1,000 copies of a 100 x 100 board, XLSX sheets of 10,000 and
400,000 rows, Soldier Battler with 2,700 and 5,400 soldiers: each a `printkit validate` in a process of its own,
its CPU seconds (user and system) and peak memory to its refusal or its end (goal: within 5 s each). --printkit
names another checkout to measure (put first on PYTHONPATH), for figures before a change.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SAVED_PER_KIND = 3  # examples kept of each distinct failure
CONFIRM_SECONDS = 120.0  # a fresh run of a saved case is stopped then


def _fuzz_module() -> Any:
    """tests/test_fuzz.py, imported by its path: the tests folder is no package (and holds the demo game it uses)."""
    sys.path.insert(0, str(HERE.parent))
    spec = importlib.util.spec_from_file_location("printkit_test_fuzz", HERE.parent / "test_fuzz.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _frames(text: str) -> list[tuple[str, str, str]]:
    """(file, line, function) of each frame of a traceback or of a faulthandler dump, innermost last."""
    frames = re.findall(r'File "([^"]*)", line (\d+),? in (\S+)', text)
    if "Stack (most recent call first)" in text:
        frames.reverse()
    return [(f.split("/site-packages/")[-1].split("/work/main/")[-1], n, fn) for f, n, fn in frames]


def _at(frame: tuple[str, str, str]) -> str:
    return f"{frame[0]}:{frame[1]} in {frame[2]}"


def signature(kind: str, text: str) -> str:
    """What tells one failure from another of the same kind: the printkit frame it came from, and the innermost."""
    frames = _frames(text)
    ours = [f for f in frames if f[0].startswith(("printkit/", "engine/"))]
    where = ""
    if ours:
        where = f" at {_at(ours[-1])}" + (f" (innermost {_at(frames[-1])})" if frames[-1] != ours[-1] else "")
    if kind == "traceback":
        last = next((ln for ln in reversed(text.strip().splitlines()) if ln and not ln.startswith(" ")), "")
        return f"{last.split(':')[0]}{where}"
    if kind == "lines":
        first = text.splitlines()[0] if text else ""
        return re.sub(r"\d+", "N", re.sub(r"'.*'|\".*\"", "…", first))[:90]
    if kind == "exit":
        return text.split("\n")[0]
    return f"{kind}{where}"


def worker(args: argparse.Namespace) -> None:
    """One share of the cases, in this process, with its own server and seed; results as JSON to --out."""
    from hypothesis import HealthCheck, Phase, given, seed, settings

    fuzz = _fuzz_module()
    runner = fuzz.Runner()
    keep = Path(args.keep)
    stats: dict[str, Any] = {
        "cases": 0,
        "codes": {},
        "kinds": {},
        "failures": {},  # signature -> {kind, count, examples: [{describe, saved, output}]}
        "slowest": {"seconds": 0.0},
        "peak": {"rss": 0},
        "seconds": [],
        "harness": [],
    }

    def save(case: Any, result: Any, label: str) -> str:
        where = keep / (f"{label}-w{args.worker}" if label == "slowest" else f"{label}-w{args.worker}-{stats['cases']}")
        shutil.rmtree(where, ignore_errors=True)
        shutil.copytree(runner.project, where, ignore=lambda d, names: ["cards"] if Path(d) == runner.project else [])
        case.write(where / "cards" / case.game)
        (where / "case.txt").write_text(
            f"{case.describe()}\n\nexit {result.code}, {result.seconds:.2f} s, {result.rss / 1e6:.0f} MB\n"
            f"--- stderr ---\n{result.err}\n--- stdout ---\n{result.out}",
            encoding="utf-8",
            errors="backslashreplace",
        )
        return str(where)

    def record(case: Any) -> None:
        try:
            result = runner.run(case)
        except Exception:  # the fuzzer's own fault, not printkit's: counted and shown, the run goes on
            stats["harness"].append(f"{case.describe()[:300]}\n{traceback.format_exc()[-1500:]}")
            return
        stats["cases"] += 1
        stats["codes"][str(result.code)] = stats["codes"].get(str(result.code), 0) + 1
        stats["seconds"].append(result.seconds)
        if result.seconds > stats["slowest"]["seconds"]:
            stats["slowest"] = {"seconds": result.seconds, "case": case.describe(), "code": result.code}
            stats["slowest"]["saved"] = save(case, result, "slowest")
        if result.rss > stats["peak"]["rss"]:
            stats["peak"] = {"rss": result.rss, "case": case.describe()}
        for kind, text in fuzz.failures(result).items():
            stats["kinds"][kind] = stats["kinds"].get(kind, 0) + 1
            key = signature(kind, text)
            entry = stats["failures"].setdefault(key, {"kind": kind, "count": 0, "examples": []})
            entry["count"] += 1
            example = {"case": case.describe(), "output": text[-2000:], "size": len(case.describe())}
            if len(entry["examples"]) < SAVED_PER_KIND:
                example["saved"] = save(case, result, kind)
                entry["examples"].append(example)
            else:  # keep the shortest cases: the easiest to read
                longest = max(entry["examples"], key=lambda e: e["size"])
                if example["size"] < longest["size"]:
                    example["saved"] = save(case, result, kind)
                    shutil.rmtree(longest["saved"], ignore_errors=True)
                    entry["examples"][entry["examples"].index(longest)] = example
        if stats["cases"] % 500 == 0:
            print(f"  worker {args.worker}: {stats['cases']} cases", file=sys.stderr, flush=True)

    run = settings(
        max_examples=args.cases,
        database=None,
        deadline=None,
        phases=(Phase.explicit, Phase.generate, Phase.target),
        suppress_health_check=list(HealthCheck),
    )(given(fuzz.cases())(record))
    try:
        seed(args.seed)(run)()
    finally:
        runner.close()
    Path(args.out).write_text(json.dumps(stats), encoding="utf-8")


CONFIRM_BYTES = 2 * 2**30


def _memory_cap() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (CONFIRM_BYTES, CONFIRM_BYTES))


def confirm(saved: str, game: str) -> str:
    """The saved case run again as a fresh `python -m printkit validate`: exit, time, peak memory, stderr's end."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as err:
        child = subprocess.Popen(
            [sys.executable, "-m", "printkit", "validate", f"cards/{game}"],
            cwd=saved,
            stdout=subprocess.DEVNULL,
            stderr=err,
            stdin=subprocess.DEVNULL,
            preexec_fn=_memory_cap,  # a case that ran out of memory must not take the machine with it
        )
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid or time.perf_counter() - start > CONFIRM_SECONDS:
                break
            time.sleep(0.02)
        if not pid:  # still running: stopped, and said so
            child.kill()
            _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.perf_counter() - start
        err.seek(0)
        tail = err.read().decode("utf-8", "backslashreplace").strip().splitlines()[-3:]
    return f"exit {child.returncode}, {seconds:.2f} s, {usage.ru_maxrss / 1e3:.0f} MB; stderr ends: " + " | ".join(
        line[:160] for line in tail
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", default=str(Path(tempfile.gettempdir()) / "printkit-fuzz-findings"))
    parser.add_argument("--kills", type=int, default=50, help="trials of each signal, at random and aimed (0: none)")
    parser.add_argument("--aimed", type=int, default=20, help="aimed trials of each signal (0: none)")
    parser.add_argument("--parts", default=",".join(PARTS), help=f"which to run, of {', '.join(PARTS)}")
    parser.add_argument("--printkit", help="costs: a checkout of printkit to measure in place of this one")
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker is not None:
        worker(args)
        return
    parts = set(args.parts.split(","))
    if parts - set(PARTS):
        parser.error(f"--parts: expected some of {', '.join(PARTS)}, found {args.parts}")
    if "fuzz" in parts:
        fuzz_run(args)
    if "memory" in parts:
        tts_memory()
    if "kills" in parts and args.kills:
        kill_trials(args.kills, args.seed)
    if "kills" in parts and args.aimed:
        aimed_trials(args.aimed, args.seed)
    if "faults" in parts:
        fault_cases()
    if "costs" in parts:
        input_costs(args.printkit)


PARTS = ("fuzz", "memory", "kills", "faults", "costs")


def fuzz_run(args: argparse.Namespace) -> None:
    """The fuzz on every core, its findings, and each kind of failure confirmed in a fresh process."""
    Path(args.keep).mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    shares = [args.cases // args.workers + (i < args.cases % args.workers) for i in range(args.workers)]
    with tempfile.TemporaryDirectory() as tmp:
        outs = [Path(tmp) / f"worker{i}.json" for i in range(args.workers)]
        children = [
            subprocess.Popen(
                [sys.executable, __file__, "--worker", str(i), "--cases", str(share), "--seed", str(args.seed + i)]
                + ["--out", str(out), "--keep", args.keep]
            )
            for i, (share, out) in enumerate(zip(shares, outs, strict=True))
        ]
        codes = [child.wait() for child in children]
        results = [json.loads(out.read_text(encoding="utf-8")) for out in outs if out.exists()]
    wall = time.perf_counter() - start
    if any(codes):
        print(f"a worker failed (exit codes {codes}): the figures below are of the others")

    cases = sum(r["cases"] for r in results)
    kinds: dict[str, int] = {}
    codes_seen: dict[str, int] = {}
    failures: dict[str, dict[str, Any]] = {}
    for r in results:
        for k, v in r["kinds"].items():
            kinds[k] = kinds.get(k, 0) + v
        for k, v in r["codes"].items():
            codes_seen[k] = codes_seen.get(k, 0) + v
        for key, entry in r["failures"].items():
            mine = failures.setdefault(key, {"kind": entry["kind"], "count": 0, "examples": []})
            mine["count"] += entry["count"]
            mine["examples"] += entry["examples"]
    slowest = max((r["slowest"] for r in results), key=lambda s: s["seconds"], default={"seconds": 0.0})
    peak = max((r["peak"] for r in results), key=lambda p: p["rss"], default={"rss": 0})
    times = sorted(t for r in results for t in r["seconds"])

    seeds = f"seed {args.seed}" if args.workers == 1 else f"seeds {args.seed} to {args.seed + args.workers - 1}"
    print(f"printkit reliability fuzz: {cases} cases on {args.workers} workers ({seeds}), {wall:.0f} s wall")
    print(f"  exit codes            {', '.join(f'{k}: {v}' for k, v in sorted(codes_seen.items()))}")
    print(f"  tracebacks            {kinds.get('traceback', 0)}")
    print(f"  hangs (over 5 s)      {kinds.get('hang', 0)}")
    print(f"  bad stderr lines      {kinds.get('lines', 0)} cases")
    print(f"  other exit codes      {kinds.get('exit', 0)}")
    print(f"  over 300 MB           {kinds.get('memory', 0)}")
    if times:
        median, p99 = times[len(times) // 2], times[min(len(times) - 1, len(times) * 99 // 100)]
        print(f"  time per case         median {median:.3f} s, 99th percentile {p99:.3f} s")
    print(f"  slowest case          {slowest['seconds']:.2f} s: {slowest.get('case', '')[:300]}")
    print(f"  peak memory           {peak['rss'] / 1e6:.0f} MB: {peak.get('case', '')[:300]}")
    print("  (times and memory are of a process forked after printkit's imports; a fresh process adds its start)")
    harness = [h for r in results for h in r["harness"]]
    if harness:
        print(f"  fuzzer errors         {len(harness)} (cases the fuzzer itself failed to run); the first:")
        print("    " + harness[0].replace("\n", "\n    "))
    if failures:
        print(f"\n{len(failures)} distinct failures:")
    for key, entry in sorted(failures.items(), key=lambda kv: -kv[1]["count"]):
        print(f"\n[{entry['kind']}] {key}: {entry['count']} cases")
        best = min(entry["examples"], key=lambda e: e["size"])
        print(f"  smallest case: {best['case'][:500]}")
        print(f"  saved in:      {best['saved']}")
        print("  output:        " + best["output"].strip().replace("\n", "\n                 ")[-1500:])
        game = best["case"].split(":", 1)[0]
        print(f"  fresh process: {confirm(best['saved'], game)}")
    if slowest.get("saved"):
        game = slowest["case"].split(":", 1)[0]
        print(f"\nslowest case again in a fresh process: {confirm(slowest['saved'], game)}")


def _run(argv: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[int, str]:
    done = subprocess.run(
        [sys.executable, "-m", "printkit", *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        env=env,
    )
    return done.returncode, done.stderr.strip()


def tts_memory(small: int = 540, big: int = 5_400) -> None:
    """Peak memory of a whole `printkit export tts` process for small and big cards, each with a cold cache."""
    sys.path.insert(0, str(HERE))
    from bench_exports import plain_deck  # the same deck its TTS sheet's figures are of

    print(f"\nexport tts, peak memory of the whole process (cold cache of card pictures), {small} and {big} cards:")
    figures = {}
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp) / "project"
        subprocess.run([sys.executable, "-m", "printkit", "init", "-q", str(project)], check=True)
        for cards in (small, big):
            plain_deck(project / "cards" / f"deck-{cards}", cards, "Big Deck")
            env = dict(os.environ, PRINTKIT_CACHE=str(Path(tmp) / f"cache-{cards}"))
            start = time.perf_counter()
            child = subprocess.Popen(
                [sys.executable, "-m", "printkit", "export", "tts", f"deck-{cards}", "-q"],
                cwd=project, env=env, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE,
            )  # fmt: skip
            _, status, usage = os.wait4(child.pid, 0)
            assert child.stderr is not None
            err = child.stderr.read().decode()
            child.stderr.close()
            assert os.waitstatus_to_exitcode(status) == 0, err
            figures[cards] = usage.ru_maxrss * 1024 if sys.platform != "darwin" else usage.ru_maxrss
            sheets = len(list((project / "output" / f"deck-{cards}" / "tts").glob("*-sheet-*.png")))
            print(
                f"  {cards:>5} cards, {sheets:>2} sheets   peak {figures[cards] / 1e6:5.0f} MB, "
                f"{time.perf_counter() - start:.1f} s"
            )
    ratio = figures[big] / figures[small]
    verdict = "within" if ratio <= 2 else "NOT within"
    print(f"  {big} cards take {ratio:.2f}x the memory of {small}: {verdict} the goal of 2x")


def _hashes(folder: Path) -> dict[str, str]:
    """Every output file's hash, by its path in folder: not temporary files, journals or the picture cache."""
    import hashlib

    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.name.endswith(".part") and not p.name.startswith(".printkit-landing")
    }


def _set_state(now: dict[str, str], old: dict[str, str], new: dict[str, str]) -> str:
    """'old' or 'new' when every file that differs between the two builds is that build's, else 'mixed'."""
    if set(now) - (set(old) | set(new)):
        return "mixed"
    differing = [k for k in set(old) | set(new) if old.get(k) != new.get(k)]
    for name, build in (("old", old), ("new", new)):
        if all(now.get(k) == build.get(k) for k in differing):
            return name
    return "mixed"


def _strays(out: Path) -> tuple[int, int]:
    """Temporary files and landing journals in out, anywhere in it."""
    return len(list(out.rglob("*.part"))), len(list(out.rglob(".printkit-landing.*.json")))


class _Trials:
    """A project holding Soldier Battler, and the hashes of its outputs from two builds: its title begins Old in one
    and New in the other, which changes every output but the layout manifests and the site's shared files."""

    def __init__(self, tmp: Path) -> None:
        self.project = tmp / "project"
        self.out = self.project / "output"
        self.build = ["build", "soldier-battler", "--paper", "a4", "--no-check", "-q"]
        subprocess.run([sys.executable, "-m", "printkit", "init", "-q", str(self.project)], check=True)
        shutil.copytree(HERE.parent.parent / "cards" / "soldier-battler", self.project / "cards" / "soldier-battler")
        self.game = self.project / "cards" / "soldier-battler" / "game.yaml"
        self.env = dict(os.environ, PRINTKIT_CACHE=str(tmp / "cache"))
        self.versions: dict[str, dict[str, str]] = {}
        self.seconds = 0.0
        for word in ("old", "new"):
            self.use(word)
            start = time.perf_counter()
            code, err = _run(self.build, self.project, self.env)
            assert code == 0, err
            self.seconds = time.perf_counter() - start
            self.versions[word] = _hashes(self.out)
        self.current = "new"

    def use(self, word: str) -> None:
        """The game's data as that build has it."""
        lines = self.game.read_text().splitlines(keepends=True)
        self.game.write_text(
            "".join(f"title: {word.title()} Soldier Battler\n" if ln.startswith("title:") else ln for ln in lines)
        )

    def state(self) -> str:
        return _set_state(_hashes(self.out), self.versions["old"], self.versions["new"])

    def settled(self) -> str:
        """The state once the next build has begun: one naming no game, which stops at once (exit 2)."""
        code, err = _run(["build", "no-such-game", "-q"], self.project, self.env)
        assert code == 2, err
        return self.state()

    def differing(self) -> int:
        old, new = self.versions["old"], self.versions["new"]
        return sum(old.get(k) != new.get(k) for k in set(old) | set(new))


def kill_trials(kills: int, seed: int) -> None:
    """kill -9 and Ctrl-C of a build at seeded moments: the outputs stay one build's, strays are swept next time."""
    import random
    import signal

    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        trials = _Trials(Path(tmp))
        for signum, name in ((signal.SIGKILL, "kill -9"), (signal.SIGINT, "Ctrl-C")):
            right_after: dict[str, int] = {}
            settled: dict[str, int] = {}
            parts_left = journals_left = parts_after = 0
            for _ in range(kills):
                target = "old" if trials.current == "new" else "new"
                trials.use(target)
                child = subprocess.Popen(
                    [sys.executable, "-m", "printkit", *trials.build], cwd=trials.project, env=trials.env,
                    start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                )  # fmt: skip
                time.sleep(rng.uniform(0.2, trials.seconds))
                os.killpg(child.pid, signum)  # as a terminal's Ctrl-C reaches every process of the job
                child.wait(timeout=120)
                _count(right_after, trials.state())
                parts, journals = _strays(trials.out)
                parts_left += parts
                journals_left += journals
                _count(settled, trials.settled())
                parts_after += _strays(trials.out)[0]
                code, err = _run(trials.build, trials.project, trials.env)  # then the same build, whole
                assert code == 0, err
                trials.current = target
            print(
                f"\n{name} of a build at a seeded moment (0.2 to {trials.seconds:.1f} s, the build's own time), "
                f"{kills} trials:"
            )
            print(f"  the outputs right after              {_shown(right_after)}")
            print(f"  .part files right after              {parts_left} in all ({journals_left} landing journals)")
            print(f"  once the next build has begun        {_shown(settled)}; .part files {parts_after} in all")


def _count(states: dict[str, int], state: str) -> None:
    states[state] = states.get(state, 0) + 1


def _shown(states: dict[str, int]) -> str:
    return ", ".join(f"{'a mixed set' if k == 'mixed' else 'all ' + k} {v}" for k, v in sorted(states.items()))


AIMED = """
import os, signal, sys
from printkit.cli import main

real, landed = os.replace, [0]
after, signum = int(sys.argv[1]), int(sys.argv[2])

def replace(src, dst):
    real(src, dst)
    if not os.path.basename(dst).startswith(".printkit-landing"):
        landed[0] += 1
        if landed[0] == after:
            os.kill(os.getpid(), signum)

os.replace = replace
sys.exit(main(sys.argv[3:]))
"""


def aimed_trials(kills: int, seed: int) -> None:
    """Each signal sent by the build itself just after a seeded one of its renames (the audit's aimed tries)."""
    import random
    import signal

    rng = random.Random(seed + 1)
    with tempfile.TemporaryDirectory() as tmp:
        trials = _Trials(Path(tmp))
        renames = len(trials.versions["new"])
        signals = ((signal.SIGKILL, "kill -9"), (signal.SIGINT, "Ctrl-C"), (signal.SIGTERM, "kill"))
        print(
            f"\naimed: the signal just after rename k of the build's {renames} (k seeded; {trials.differing()} of the "
            f"files differ between the two builds), {kills} trials each:"
        )
        for signum, name in signals:
            right_after: dict[str, int] = {}
            settled: dict[str, int] = {}
            codes: dict[str, int] = {}
            parts_after = 0
            for _ in range(kills):
                target = "old" if trials.current == "new" else "new"
                trials.use(target)
                after = rng.randint(1, renames - 1)
                done = subprocess.run(
                    [sys.executable, "-c", AIMED, str(after), str(int(signum)), *trials.build],
                    cwd=trials.project, env=trials.env, capture_output=True, stdin=subprocess.DEVNULL,
                )  # fmt: skip
                _count(codes, str(done.returncode))
                _count(right_after, trials.state())
                state = trials.settled()
                _count(settled, state)
                parts_after += _strays(trials.out)[0]
                if state != target:  # whatever was left, a whole build of the target before the next trial
                    assert _run(trials.build, trials.project, trials.env)[0] == 0
                trials.current = target
            print(f"  {name:<8} exit codes {', '.join(f'{k}: {v}' for k, v in sorted(codes.items()))}")
            print(f"           the outputs right after        {_shown(right_after)}")
            print(f"           once the next build has begun  {_shown(settled)}; .part files {parts_after} in all")


def fault_cases() -> None:
    """The faults a user's machine can cause, each with the exit code and the line printkit gives."""
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp) / "project"
        subprocess.run([sys.executable, "-m", "printkit", "init", "-q", str(project)], check=True)
        build = ["build", "soldier-battler", "--paper", "a4", "--only", "cards", "--no-check", "-q"]
        cases: list[tuple[str, list[str], Callable[[], None] | None]] = []
        a_file = Path(tmp) / "a-file"
        a_file.write_text("x")
        cases.append(("--out names a file", [*build, "--out", str(a_file)], None))

        def folder_where_a_file_goes() -> None:
            (project / "output" / "soldier-battler" / "cards-a4.pdf").mkdir(parents=True)

        cases.append(("an output file is a folder", build, folder_where_a_file_goes))

        def file_where_a_folder_goes() -> None:
            shutil.rmtree(project / "output", ignore_errors=True)
            (project / "output").mkdir()
            (project / "output" / "soldier-battler").write_text("x")

        cases.append(("the game's output folder is a file", build, file_where_a_folder_goes))

        def link_out() -> None:
            shutil.rmtree(project / "output", ignore_errors=True)
            (project / "output").mkdir()
            (project / "output" / "soldier-battler").symlink_to(Path(tmp))

        cases.append(("an output folder links out of the project", build, link_out))
        mounted: list[Path] = []
        export = ["export", "png", "soldier-battler", "-q"]
        disks = (
            ("the disk is full", "size=64k", build),
            ("the disk is read-only", "ro,size=1m", build),
            ("export png, the disk full after a few files", "size=1m", export),  # of 2 MB: the audit's 73 PNGs left
            ("export png, the disk read-only", "ro,size=1m", export),
        )
        for index, (name, options, argv) in enumerate(disks):
            where = Path(tmp) / f"disk{index}"
            where.mkdir()
            made = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(where)], capture_output=True)
            if made.returncode:
                cases.append((f"{name} (not tried: mount refused)", [], None))
                continue
            mounted.append(where)
            cases.append((name, [*argv, "--out", str(where)], None))
        try:
            print("\nfaults, each: exit code, the line printkit gives, and the files left on a disk mounted for it")
            for name, argv, prepare in cases:
                if not argv:
                    print(f"  {name}")
                    continue
                if prepare:
                    prepare()
                code, err = _run(argv, project, dict(os.environ, PRINTKIT_CACHE=str(Path(tmp) / "cache")))
                lines = err.splitlines()
                shown = lines[0] if len(lines) == 1 else f"{len(lines)} lines: " + " | ".join(lines[:3])
                out = Path(argv[argv.index("--out") + 1]) if "--out" in argv else None
                left = f", {sum(p.is_file() for p in out.rglob('*'))} files left" if out in mounted else ""
                print(f"  {name:<44} exit {code}{left}: {shown[:200]}")
        finally:
            for where in mounted:
                subprocess.run(["umount", str(where)], check=False)


COST_CPU_CAP = 600  # seconds: a case still running then is stopped (RLIMIT_CPU) and said so


def _game(project: Path, slug: str, extra: str = "", cards: str | None = None, components: str = "") -> Path:
    """A game made by `printkit new` under project, game.yaml's sheets and components added, its cards replaced."""
    subprocess.run([sys.executable, "-m", "printkit", "new", slug, "-q"], cwd=project, check=True)
    game = project / "cards" / slug
    game_yaml = game / "game.yaml"
    text = game_yaml.read_text().replace("players: 2", "players: 2" + extra)
    game_yaml.write_text(text.replace("components:\n", "components:\n" + components))
    if cards is not None:
        (game / "cards.yaml").write_text(cards)
    return game


def _board_entry(sections: int, side: int, count: int) -> str:
    board = ", ".join(f"{{cell: 10x10mm, cols: {side}, rows: {side}}}" for _ in range(sections))
    return f"  - {{id: big-board, name: Big board, kind: board, count: {count}, board: {{sections: [{board}]}}}}\n"


def _sheet_game(project: Path, slug: str, rows: int, columns: int) -> None:
    import io

    import openpyxl

    game = _game(project, slug, "\ncard_sheets: [{file: cards.xlsx}]")
    (game / "cards.yaml").unlink()
    book = openpyxl.Workbook(write_only=True)  # as a program writes one: no <dimension> of its size
    sheet = book.create_sheet("Deck")
    sheet.append(["id", "kind", "name", "text", "stats.power"][:columns])
    for i in range(rows):
        sheet.append([f"c{i}", "plain", f"Card {i}", "Some text", i % 6][:columns])
    out = io.BytesIO()
    book.save(out)
    (game / "cards.xlsx").write_bytes(out.getvalue())


def _soldiers(project: Path, slug: str, soldiers: int) -> None:
    """Soldier Battler with soldiers cards in all, its own four (its worked examples play them) and more of their
    weapons, each in both armies' decks."""
    game = project / "cards" / slug
    shutil.copytree(HERE.parent.parent / "cards" / "soldier-battler", game)
    weapons = (("sword", 80), ("axe", 100), ("spear", 80), ("crossbow", 40))
    own = (game / "soldiers.yaml").read_text()
    rows = (
        own.rstrip("\n")
        + "\n"
        + "".join(
            f"  - {{id: s{i}, kind: soldier, name: Soldier {i}, weapon: {weapons[i % 4][0]}, hp: {weapons[i % 4][1]}, "
            "shared: true}\n"
            for i in range(soldiers - 4)
        )
    )
    (game / "soldiers.yaml").write_text(rows)


def _cpu_cap() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_CPU, (COST_CPU_CAP, COST_CPU_CAP))


def input_costs(checkout: str | None = None) -> None:
    """Each case's `printkit validate`: exit code, CPU seconds and peak memory to its refusal or its end."""
    cards_20x1000 = "cards:\n" + "".join(
        f"  - {{id: c{i}, kind: plain, name: Card {i}, text: Hi, copies: 1000}}\n" for i in range(20)
    )
    cases: list[tuple[str, str, Callable[[Path], None]]] = [
        ("20 cards, copies: 1000", "copies", lambda p: _game(p, "copies", cards=cards_20x1000) and None),
        (
            "board, 50 sections of 100 x 100",
            "board",
            lambda p: _game(p, "board", components=_board_entry(50, 100, 1)) and None,
        ),
        (
            "board of 100 x 100, 1,000 copies",
            "board-copies",
            lambda p: _game(p, "board-copies", components=_board_entry(1, 100, 1000)) and None,
        ),
        ("XLSX of 10,000 rows", "sheet", lambda p: _sheet_game(p, "sheet", 10_000, 5)),
        ("XLSX of 400,000 rows", "sheet-400k", lambda p: _sheet_game(p, "sheet-400k", 400_000, 3)),
        ("Soldier Battler, 2,700 soldiers", "soldiers-2700", lambda p: _soldiers(p, "soldiers-2700", 2_700)),
        ("Soldier Battler, 5,400 soldiers", "soldiers-5400", lambda p: _soldiers(p, "soldiers-5400", 5_400)),
    ]
    measured = f" of {checkout}" if checkout else ""
    print(f"\ninput at and past the limits, printkit validate{measured}: CPU seconds and peak memory (goal 5 s):")
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp) / "project"
        subprocess.run([sys.executable, "-m", "printkit", "init", "-q", str(project)], check=True)
        env = dict(os.environ, PRINTKIT_CACHE=str(Path(tmp) / "cache"))
        if checkout:
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [checkout, env.get("PYTHONPATH")]))
        for name, slug, make in cases:
            make(project)
            child = subprocess.Popen(
                [sys.executable, "-m", "printkit", "validate", slug], cwd=project, env=env,
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=_cpu_cap,
            )  # fmt: skip
            assert child.stderr is not None
            err = child.stderr.read().decode("utf-8", "backslashreplace")
            child.stderr.close()
            _, status, usage = os.wait4(child.pid, 0)
            code = os.waitstatus_to_exitcode(status)
            cpu = usage.ru_utime + usage.ru_stime
            peak = (usage.ru_maxrss * 1024 if sys.platform != "darwin" else usage.ru_maxrss) / 1e6
            problems = [ln for ln in err.splitlines() if not ln.startswith(("warning:", "note:"))]
            said = f"{len(problems)} lines, the first: {problems[0][:150]}" if problems else "no problem"
            stopped = " (stopped at the CPU cap)" if code == -9 or cpu >= COST_CPU_CAP else ""
            verdict = "within" if cpu <= 5 else "NOT within"
            print(f"  {name:<34} exit {code}{stopped}, {cpu:6.2f} s CPU ({verdict} 5 s), peak {peak:5.0f} MB; {said}")


if __name__ == "__main__":
    main()
