"""The rules language's ranking and claim built-ins (engine/play/patterns.py) against Battle Line's formations.py."""

from __future__ import annotations

import random

import pytest

from engine.games import formations as fm
from engine.play import patterns
from engine.play.patterns import Pattern

LETTERS = "ROYGBP"
VALUES = tuple(range(1, 11))
TROOPS = [f"{c}{v}" for c in LETTERS for v in VALUES]
WILD = {"alexander": (), "darius": (), "companion-cavalry": (8,), "shield-bearers": (1, 2, 3)}
NAMES = TROOPS + list(WILD)
LINE = fm.Line(tuple(LETTERS), VALUES, tuple((k, v or VALUES) for k, v in WILD.items()))
LADDER = [("wedge", ["run", "suited"]), ("phalanx", ["same"]), ("battalion", ["suited"]), ("skirmish", ["run"])]


def pattern(size: int = 3) -> Pattern:
    suit = [n[0] if n in TROOPS else None for n in NAMES]
    rank = [int(n[1:]) if n in TROOPS else None for n in NAMES]
    wild = [WILD.get(n) for n in NAMES]
    return patterns.make("formation", size, [*LADDER, ("host", [])], suit, rank, wild)


@pytest.fixture(params=["ladder", "any ladder"])
def how(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test twice: by formations.py's search, and by the search for any ladder (the kinds read one by one)."""
    if request.param == "any ladder":
        monkeypatch.setattr(patterns, "LADDER", ())
    return str(request.param)


def hand(rng: random.Random, size: int) -> list[str]:
    wilds = rng.choice([0, 0, 1, 1, 2])
    return rng.sample(TROOPS, size - wilds) + rng.sample(list(WILD), wilds)


@pytest.mark.parametrize("size", [3, 4])
def test_ranking_with_wild_cards_is_formations_py_s(how: str, size: int) -> None:
    p = pattern(size)
    assert p.ladder is (how == "ladder")
    rng = random.Random(size)
    for _ in range(1500):
        cards = hand(rng, size)
        want, _ = fm.best_strength(fm.parse(cards, LINE), False, len(LETTERS))
        assert p.strength([NAMES.index(c) for c in cards]) == want, cards


def test_the_kinds_rank_in_their_declared_order() -> None:
    p = pattern()
    strengths = [p.strength([NAMES.index(c) for c in f]) for f in (["R3", "R4", "R5"], ["B2", "G2", "Y2"])]
    assert strengths[0] > strengths[1]
    flipped = patterns.make(
        "flipped", 3, [("phalanx", ["same"]), ("wedge", ["run", "suited"])], [n[0] for n in TROOPS],
        [int(n[1:]) for n in TROOPS], [None] * len(TROOPS),
    )  # fmt: skip
    assert flipped.strength([TROOPS.index(c) for c in ["R3", "R4", "R5"]]) < flipped.strength(
        [TROOPS.index(c) for c in ["B2", "G2", "Y2"]]
    )
    assert flipped.strength([TROOPS.index(c) for c in ["R1", "B4", "G9"]])[0] == -1  # no kind made


def test_claims_are_prove_claim_s(how: str) -> None:
    p = pattern()
    rng = random.Random(7)
    held = proven = 0
    for _ in range(400):
        on_table = rng.sample(TROOPS, rng.randrange(6, 40))
        mine = on_table[:3]
        theirs = on_table[3 : 3 + rng.randrange(0, 3)]
        if theirs and rng.random() < 0.3:
            theirs[0] = rng.choice(list(WILD))
        unseen = [c for c in TROOPS if c not in on_table]
        want = fm.prove_claim(mine, theirs, unseen, LINE, size=3) is None
        got = p.holds(
            [NAMES.index(c) for c in mine], [NAMES.index(c) for c in theirs], [NAMES.index(c) for c in unseen]
        )
        assert got is want, (mine, theirs)
        held += 1
        proven += want
    assert 0 < proven < held  # both answers were asked for


def test_a_claim_needs_a_complete_set_and_beats_a_complete_one_outright() -> None:
    p = pattern()
    n = NAMES.index
    assert not p.holds([n("R10"), n("R9")], [], [])
    assert p.holds([n("R8"), n("R9"), n("R10")], [n("B1"), n("G1"), n("Y2")], [])
    assert not p.holds([n("B1"), n("G1"), n("Y2")], [n("R8"), n("R9"), n("R10")], [])


def test_a_claim_search_past_its_bound_proves_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(patterns, "LADDER", ())
    monkeypatch.setattr(patterns, "CLAIM_SEARCH_LIMIT", 5)
    p = pattern()
    n = NAMES.index
    # a wedge of 10s no completion beats: proven when searched through, not when the search is cut short
    mine = [n("R8"), n("R9"), n("R10")]
    unseen = [n(c) for c in ("B1", "G3", "Y5", "P7", "O9", "B2")]
    assert not p.holds(mine, [], unseen)
    monkeypatch.setattr(patterns, "CLAIM_SEARCH_LIMIT", 10_000)
    assert p.holds(mine, [], unseen)
