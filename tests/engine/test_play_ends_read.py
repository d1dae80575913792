"""After a move, an end whose test reads nothing the move can write is not asked again when it held false before the
move: the names a test reads, those a move writes, and games played so against games that ask every end every move."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from engine import play, runner
from engine.agents import RandomAgent
from engine.play.book import Group, _end_reads
from printkit.data.loader import load_game

ROOT = Path(__file__).resolve().parents[2]
TORAH = ROOT / "cards" / "torah-timeline"


@pytest.mark.parametrize(
    ("text", "reads"),
    [
        ("full(my.timeline)", {"timeline"}),
        ("my.tokens >= rules.token_cap and count(their.hand) == 0", {"tokens", "hand"}),
        ("count(my.hand) == 0 or turn > 5", None),  # the turn changes at every move
        ("all(my.hand, requirement)", None),  # a check may read anything
        ("game.eras[my.cap].power > 0", None),
    ],
)
def test_a_test_reads_the_zones_and_counters_it_names_or_anything(text: str, reads: set[str] | None) -> None:
    known = {"timeline", "tokens", "hand", "cap"}
    assert _end_reads(text, known) == (frozenset(reads) if reads is not None else None)


def moves(game: Any) -> dict[str, Any]:
    entries = game.book.entries
    return {m.name: m for entry in entries for m in (entry.moves if isinstance(entry, Group) else [entry])}


def test_torah_timelines_win_is_asked_after_a_move_that_can_fill_the_timeline_alone() -> None:
    game = play.build(load_game(TORAH))
    asked = {name: [bool(move.asks[fresh][False]) for fresh in (0, 1, 2)] for name, move in moves(game).items()}
    assert asked == {
        "place": [True, True, True],
        "play": [True, True, True],  # its effect is applied: it may write anything
        "study": [True, False, False],
        "challenge": [True, False, False],
        "draw": [True, False, False],
        "pass": [True, False, False],
    }


@pytest.mark.parametrize("end", ["full(my.timeline)", "my.tokens >= 4", "count(my.study) >= 2"])
def test_games_end_as_they_do_when_every_end_is_asked_every_move(tmp_path: Path, end: str) -> None:
    folder = tmp_path / "torah-timeline"
    shutil.copytree(TORAH, folder)
    text = (folder / "play.yaml").read_text()
    assert "wins: full(my.timeline)" in text
    (folder / "play.yaml").write_text(text.replace("wins: full(my.timeline)", f"wins: {end}"))
    skipping, asking = play.build(load_game(folder)), play.build(load_game(folder))
    for move in moves(asking).values():  # every end asked every move, as with nothing known of what it read
        move.asks = (move.asks[0], move.asks[0], move.asks[0])
    for seed in range(40):
        records = [runner.play(g, [RandomAgent(), RandomAgent()], seed).to_json() for g in (skipping, asking)]
        assert records[0] == records[1]
