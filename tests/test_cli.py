"""The printkit command: listing, validation, build outputs, new games, settings and exit codes."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import diskfaults
import pytest

from printkit import build
from printkit.cli import main
from printkit.core import atomic
from printkit.data.loader import load_game

ROOT = Path(__file__).resolve().parent.parent


def test_list_shows_every_game_with_counts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "battle-line" in out and "70 cards (troops 60, tactics 10)" in out
    assert "250 counters" in out


def test_validate_reports_all_five_valid(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 5 and all(line.startswith("ok  ") for line in lines)


def test_validate_by_slug_and_by_path(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "torah-timeline", str(ROOT / "cards" / "battle-line" / "game.yaml")]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 2


def test_unknown_game_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "chess"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no such game" in err and "battle-line" in err


def test_build_writes_a_summary_per_game(tmp_path: Path) -> None:
    # two games of the five: test_build_writes_every_part_and_a_bundle (marked slow) builds them all
    assert main(["build", "soldier-battler", "torah-timeline", "--out", str(tmp_path)]) == 0
    assert sorted(p.parent.name for p in tmp_path.glob("*/components.json")) == ["soldier-battler", "torah-timeline"]
    data = json.loads((tmp_path / "soldier-battler" / "components.json").read_text())
    assert data["totals"]["token"] == 40
    assert [d["cards"] for d in data["decks"]] == [8, 8]
    assert "stalemate" in data["assumptions"]


def test_command_line_overrides_game_settings(tmp_path: Path) -> None:
    assert main(["build", "battle-line", "--out", str(tmp_path), "--paper", "letter", "--bleed", "0.125in"]) == 0
    settings = json.loads((tmp_path / "battle-line" / "components.json").read_text())["print"]
    assert settings["paper"] == ["letter"] and settings["card_size"] == "poker" and settings["duplex"] == "long"
    assert settings["bleed_mm"] == 3.175 and settings["card_mm"] == [63.5, 88.9]
    assert sorted(p.name for p in (tmp_path / "battle-line").glob("*.pdf"))[0] == "boards-letter.pdf"


def test_bad_setting_is_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["build", "battle-line", "--out", str(tmp_path), "--bleed", "9mm"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bleed from 0mm to 5mm" in err
    assert not any(tmp_path.iterdir())


def test_an_unknown_part_is_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["build", "battle-line", "--out", str(tmp_path), "--only", "cards,posters"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "printkit: --only: expected some of cards, counters, boards, rules, bundle, reference, found 'cards,posters'\n"
    )
    assert not any(tmp_path.iterdir())


def test_new_game_is_valid_and_never_overwrites(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", "My Test Game", "--dir", str(tmp_path)]) == 0
    game = load_game(tmp_path / "my-test-game")
    assert game.title == "My Test Game" and game.deck("main").size == 3
    assert main(["new", "My Test Game", "--dir", str(tmp_path)]) == 2
    assert "already exists" in capsys.readouterr().err


def test_schema_check_passes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "--check"]) == 0


def test_debug_shows_the_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--debug", "validate", "chess"]) == 2
    assert "Traceback" in capsys.readouterr().err


def test_console_script_exit_codes(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "printkit", "validate", str(tmp_path)], capture_output=True, text=True, check=False
    )
    assert run.returncode == 2 and "Traceback" not in run.stderr and "not a game folder" in run.stderr


def test_failed_write_keeps_the_previous_file(tmp_path: Path) -> None:
    target = tmp_path / "sheet.pdf"
    atomic.write_text(target, "old")
    with pytest.raises(RuntimeError), atomic.replacing(target, "w") as handle:
        handle.write("half")
        raise RuntimeError("interrupted")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["sheet.pdf"]


def test_a_set_of_files_is_written_whole_or_not_at_all(tmp_path: Path) -> None:
    first, second = tmp_path / "a" / "cards.pdf", tmp_path / "b" / "rules.pdf"
    atomic.write_all({first: b"old", second: b"old"})
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "board.pdf").mkdir()  # a folder where the third file goes
    with pytest.raises(atomic.WriteFailed, match=r"cannot write .*board.pdf: a folder stands where the file should"):
        atomic.write_all({first: b"new", second: b"new", tmp_path / "c" / "board.pdf": b"new"})
    assert first.read_bytes() == second.read_bytes() == b"old"
    assert not [p for p in tmp_path.rglob("*.part")]


def test_what_a_killed_run_left_is_swept_but_a_running_ones_is_not(tmp_path: Path) -> None:
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    left = tmp_path / f".cards.pdf.{dead.stdout.strip()}.k3j2x.part"
    running = tmp_path / f".cards.pdf.{os.getpid()}.q9z1w.part"
    mine_by_name = tmp_path / ".notes.part"  # not a name printkit writes: left alone
    for path in (left, running, mine_by_name):
        path.write_bytes(b"half")
    atomic._swept.discard(tmp_path)
    atomic.write_all({tmp_path / "cards.pdf": b"whole"})
    assert not left.exists() and running.exists() and mine_by_name.exists()


def _dead_pid() -> str:
    """The id of a process that has ended: what a killed run's temporary files are named with."""
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    return done.stdout.strip()


def _two_builds(out: Path) -> tuple[build.Files, build.Files]:
    """The same game's outputs from an old and a new build: card sheets, a booklet and the reference site."""
    names = ["game/cards-a4.pdf", "game/rules-a4.pdf", "reference/game/index.html", "reference/game/cards.json"]
    old: build.Files = {out / name: f"old {name}".encode() for name in names}
    return old, {path: data.replace(b"old", b"new") for path, data in old.items() if data is not None}


def _contents(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def _to_exit(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_an_interrupt_while_a_build_lands_waits_until_all_its_files_are_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, signum: int
) -> None:
    """Ctrl-C, kill or a closed terminal just after the first file lands: the rest land, then the run ends."""
    old, new = _two_builds(tmp_path)
    build.write(old, tmp_path)
    real = os.replace

    def replace_then_interrupted(src: str, dst: str) -> None:
        real(src, dst)
        if not Path(dst).name.startswith(".printkit-landing"):
            signal.raise_signal(signum)

    before = signal.signal(signum, _to_exit) if signum != signal.SIGINT else None
    try:
        monkeypatch.setattr(atomic.os, "replace", replace_then_interrupted)
        with pytest.raises((KeyboardInterrupt, SystemExit)):
            build.write(new, tmp_path)
    finally:
        if before is not None:
            signal.signal(signum, before)
    assert _contents(tmp_path) == {str(p.relative_to(tmp_path)): data for p, data in new.items()}


KILLED_MID_LANDING = """
import os, signal, sys
from pathlib import Path
from printkit import build

out = Path(sys.argv[1])
real, landed = os.replace, []

def replace_then_killed(src, dst):
    real(src, dst)
    if not Path(dst).name.startswith(".printkit-landing"):
        landed.append(dst)
        if len(landed) == 2:
            os.kill(os.getpid(), signal.SIGKILL)

os.replace = replace_then_killed
build.write({out / name: f"new {name}".encode() for name in sys.argv[2:]}, out)
"""


def test_a_build_killed_while_its_files_land_is_finished_by_the_next_run(tmp_path: Path) -> None:
    """kill -9 cannot be held back: the journal written before the renames lets the next build into the same
    folder put the rest of that build in place as it starts, even one that stops, so no set stays half old."""
    old, new = _two_builds(tmp_path)
    build.write(old, tmp_path)
    names = [str(p.relative_to(tmp_path)) for p in old]
    killed = subprocess.run([sys.executable, "-c", KILLED_MID_LANDING, str(tmp_path), *names], check=False)
    assert killed.returncode == -signal.SIGKILL
    halfway = _contents(tmp_path)
    assert sum(data.startswith(b"new") for name, data in halfway.items() if name in names) == 2  # two of four landed
    landed = {str(path.relative_to(tmp_path)): data for path, data in new.items()}
    assert main(["build", "no-such-game", "--out", str(tmp_path)]) == 2  # a build that stops at once settles it
    assert _contents(tmp_path) == landed
    build.write({tmp_path / "other" / "cards-a4.pdf": b"another game"}, tmp_path)
    assert _contents(tmp_path) == landed | {"other/cards-a4.pdf": b"another game"}


def test_what_a_killed_run_left_anywhere_in_the_output_is_swept_by_the_next(tmp_path: Path) -> None:
    dead = _dead_pid()
    deep = [
        tmp_path / "reference" / "game" / "cards" / f".saga.png.{dead}.k3j2x.part",
        tmp_path / "game" / "png" / "main" / f".001-saga.png.{dead}.q9z1w.part",
        tmp_path / f".duplex-calibration-a4.pdf.{dead}.a8b7c.part",
    ]
    for path in deep:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"half")
    build.write({tmp_path / "other" / "cards-a4.pdf": b"whole"}, tmp_path)  # a run that writes none of those folders
    assert list(tmp_path.rglob("*.part")) == []


def test_a_build_into_a_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "out").write_text("not a folder")
    assert main(["build", "battle-line", "--only", "cards", "--out", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "a file stands where a folder should" in err, err
    assert (tmp_path / "out").read_text() == "not a folder"


def test_a_reader_that_stops_early_gets_no_traceback(tmp_path: Path) -> None:
    for printed in ("list", "replay time-line --seed 1"):  # a short answer, and one longer than a pipe holds
        command = f"'{sys.executable}' -m printkit {printed} | head -1"
        run = subprocess.run(["sh", "-c", command], capture_output=True, text=True, check=False, cwd=ROOT)
        assert run.stdout.count("\n") == 1 and run.stderr == "", run.stderr


def test_a_link_in_the_output_folder_that_leads_out_is_not_written_through(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    elsewhere.mkdir()
    out.mkdir()
    (out / "battle-line").symlink_to(elsewhere, target_is_directory=True)
    assert main(["build", "battle-line", "--only", "cards", "--no-check", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "a link there leads out of" in err and "remove the link" in err
    assert list(elsewhere.iterdir()) == [] and [p.name for p in out.iterdir()] == ["battle-line"]


@pytest.mark.parametrize(
    ("fault", "where", "reason"),
    [
        (errno.ENOSPC, "write", "the disk is full"),
        (errno.EROFS, "open", "it is on a read-only disk"),
        (errno.EACCES, "open", "permission denied"),
    ],
)
def test_a_disk_that_refuses_ends_the_build_in_one_line_with_the_last_build_kept(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    fault: int,
    where: str,
    reason: str,
) -> None:
    """Faults a root test user cannot cause by permissions (root writes anywhere) are made by the system calls."""
    command = ["build", "battle-line", "--only", "cards", "--no-check", "--paper", "a4", "--out", str(tmp_path)]
    assert main(command) == 0
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    diskfaults.refuse(monkeypatch, fault, where, 3)  # the third file: two are already staged
    # other settings, so the build has files to write: one that holds their bytes already is left as it is
    assert main([*command, "--bleed", "2mm"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f": {reason}; nothing of this run was written" in err, err
    monkeypatch.undo()
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before  # no .part, nothing changed
