"""The rules language's ranking and claim built-ins (engine/play/patterns.py) against Battle Line's formations.py."""

from __future__ import annotations

import contextlib
import random
import shutil
from pathlib import Path

import pytest
from books import guide_example, mangled

from engine import conformance, play, runner
from engine.agents import RandomAgent
from engine.games import formations as fm
from engine.play import patterns
from engine.play.expr import RuleError
from engine.play.patterns import Pattern
from printkit.core.errors import DataError
from printkit.data.loader import load_game

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
    assert p.strength([]) == flipped.strength([]) == (-1, 0)  # nothing at all: below every kind, on any ladder


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


# -- in the rules language ---------------------------------------------------------------------------------------
ROOT = Path(__file__).resolve().parents[2]
BATTLE_LINE = ROOT / "cards" / "battle-line"


@pytest.fixture
def duel(tmp_path: Path) -> Path:
    folder = tmp_path / "battle-line"
    shutil.copytree(BATTLE_LINE, folder)
    (folder / "play.yaml").write_text(guide_example("Ranking sets and proving claims"))
    return folder


def test_the_guide_s_duel_reads_plays_and_claims(duel: Path) -> None:
    written = play.build(load_game(duel))
    assert conformance.check(written, 10) == []
    claims = 0
    for seed in range(60):
        state = written.new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        line = written.book.zones["line"]  # type: ignore[attr-defined]  # a PlayGame's rule book
        short = [len(state.zones[line.index(seat)]) < 3 for seat in (0, 1)]  # type: ignore[attr-defined]
        claims += any(short)  # won by a claim before the other side completed its set
    assert claims > 0


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        ("kinds: formations", "kinds: formationz", "kinds: expected a table of game.yaml"),
        ("phalanx: [same]", "phalanx: [pairs]", "needs: expected a list of run, suited, same"),
        ("skirmish: [run]}", "skirmish: [run], fortress: [run]}", "needs: no kind 'fortress'"),
        ("strength(formation, my.line)", "strength(formaton, my.line)", "expected a pattern's name first"),
        ("strength(formation, my.line)", "kind(formaton, my.line)", "kind(pattern, zone): expected a pattern's name"),
        ("strength(formation, my.line)", "rank_sum(formation, 3)", "rank_sum(): expected a zone of cards"),
        ("claimable(formation, my.line, their.line)", "claimable(formation, my.line)", "claimable(pattern, mine"),
        ("wild_ranks: card.effect.values", "wild_ranks: count(my.hand)", "wild_ranks: expected an expression of"),
        ("rank: value", "rank: colour", "is no whole number"),
        ("size: rules.formation_size", "like: formaton", "like: 'formaton' names no pattern"),
        ("patterns:\n", "patterns:\n  a: {like: b}\n  b: {like: a}\n", "like: 'b' goes round"),
        (
            "strength(formation, my.line)",
            "strength(formation if true else formaton, my.line)",
            "a pattern's name first",
        ),
        ("strength(formation, my.line)", "spare(formation, my.line, 2)", "spare(pattern, zone): expected 2 arguments"),
    ],
)
def test_a_bad_pattern_is_one_placed_line(duel: Path, old: str, new: str, said: str) -> None:
    text = (duel / "play.yaml").read_text()
    assert old in text
    (duel / "play.yaml").write_text(text.replace(old, new, 1))
    with pytest.raises(DataError) as caught:
        play.build(load_game(duel))
    problems = caught.value.problems
    assert len(problems) >= 1 and any(said in p.message for p in problems), problems
    assert all(p.file.endswith("play.yaml") and p.line > 0 for p in problems)


def test_a_full_tie_goes_to_the_set_completed_first() -> None:
    p = pattern()
    n = NAMES.index
    mine, theirs = [n("R1"), n("B2"), n("G9")], [n("Y1"), n("P2"), n("O9")]  # two hosts of 12
    assert p.holds(mine, theirs, [], first=True)
    assert not p.holds(mine, theirs, [], first=False)


def test_the_duel_with_leaders_and_morale_cards_ranks_and_claims_as_formations_py(duel: Path) -> None:
    """The guide's duel dealt from every card, Leaders and Morale cards played into a line as Troops are: each game's
    winner is formations.py's, by comparing two full lines or by a claim prove_claim makes too."""
    text = guide_example("Ranking sets and proving claims").replace("cards: troops", "cards: all")
    stand_in = "card.kind is troop or card.group is leader or card.group is morale"
    text = text.replace("if: not full(my.line)", f"if: not full(my.line) and ({stand_in})")
    (duel / "play.yaml").write_text(text)
    written = play.build(load_game(duel))
    book = written.book  # type: ignore[attr-defined]  # a PlayGame's rule book
    names = book.cards
    line, deck, hand = book.zones["line"], book.zones["deck"], book.zones["hand"]
    wilds = claims = 0
    for seed in range(150):
        state = written.new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        zones = state.zones  # type: ignore[attr-defined]
        lines = [[names[c] for c in zones[line.index(seat)]] for seat in (0, 1)]
        winner = state.winner  # type: ignore[attr-defined]
        wilds += any(name in WILD for side in lines for name in side)
        if all(len(side) == 3 for side in lines):
            a, _ = fm.best_strength(fm.parse(lines[0], LINE), False, len(LETTERS))
            b, _ = fm.best_strength(fm.parse(lines[1], LINE), False, len(LETTERS))
            assert winner == (None if a == b else 0 if a > b else 1), (seed, lines)
            continue
        claims += 1  # won by a claim: the winner's line full, the other short, and proved against the unseen troops
        assert winner is not None and len(lines[winner]) == 3 and len(lines[1 - winner]) < 3
        unseen = [names[c] for z in (deck.index(0), hand.index(0), hand.index(1)) for c in zones[z]]
        troops = [n for n in unseen if n in TROOPS]
        assert fm.prove_claim(lines[winner], lines[1 - winner], troops, LINE, size=3) is None, (seed, lines)
    assert wilds > 0 and claims > 0


WORDS = ["formation", "kinds", "needs", "run", "suited", "same", "colour", "value", "effect", "0", "none", "my.line"]


def test_a_mangled_pattern_is_a_data_error_or_plays_within_its_bounds(duel: Path) -> None:
    """The duel's patterns: and the lines reading them, mangled many times over: refused as data, each problem
    placed, or played, stopped only by the interpreter's own bounds."""
    lines = (duel / "play.yaml").read_text().splitlines()
    at = [i for i, line in enumerate(lines) if i < 9 or "formation" in line]  # the pattern and its uses
    rng = random.Random(32)
    played = 0
    for _ in range(120):
        (duel / "play.yaml").write_text("\n".join(mangled(lines, rng, at, WORDS)) + "\n")
        try:
            game = play.build(load_game(duel))
        except DataError as exc:
            assert all(p.file.endswith("play.yaml") for p in exc.problems)
            continue
        played += 1
        with contextlib.suppress(RuleError, runner.EndlessGame):  # the interpreter's own bounds, said as errors
            runner.play(game, [RandomAgent(), RandomAgent()], 0)
    assert played > 5


def sum_only(size: int) -> Pattern:
    """Battle Line's Fog as a pattern: one kind, needing nothing, so a set ranks by its sum alone."""
    suit = [n[0] if n in TROOPS else None for n in NAMES]
    rank = [int(n[1:]) if n in TROOPS else None for n in NAMES]
    return patterns.make("fog", size, [("sum", [])], suit, rank, [WILD.get(n) for n in NAMES])


@pytest.mark.parametrize("size", [3, 4])
def test_a_pattern_of_one_kind_ranks_and_claims_by_sums_as_formations_py_under_fog(size: int) -> None:
    p = sum_only(size)
    rng = random.Random(size + 10)
    proven = 0
    for _ in range(400):
        on_table = rng.sample(TROOPS, rng.randrange(2 * size, 40))
        mine = on_table[:size]
        if rng.random() < 0.3:
            mine[0] = rng.choice(list(WILD))
        theirs = on_table[size : size + rng.randrange(0, size)]
        if theirs and rng.random() < 0.3:
            theirs[0] = rng.choice([w for w in WILD if w not in mine])
        unseen = [c for c in TROOPS if c not in on_table]
        want, _ = fm.best_strength(fm.parse(mine, LINE), True, len(LETTERS))
        assert p.strength([NAMES.index(c) for c in mine]) == want, mine
        proof = fm.prove_claim(mine, theirs, unseen, LINE, size=size, fog=True) is None
        got = p.holds(
            [NAMES.index(c) for c in mine], [NAMES.index(c) for c in theirs], [NAMES.index(c) for c in unseen]
        )
        assert got is proof, (mine, theirs)
        proven += proof
    assert 0 < proven < 400


def test_mud_s_four_card_sets_claim_as_formations_py(how: str) -> None:
    p = pattern(4)
    rng = random.Random(44)
    proven = 0
    for _ in range(150):
        on_table = rng.sample(TROOPS, rng.randrange(8, 40))
        mine, theirs = on_table[:4], on_table[4 : 4 + rng.randrange(1, 4)]
        unseen = [c for c in TROOPS if c not in on_table]
        want = fm.prove_claim(mine, theirs, unseen, LINE, size=4) is None
        assert (
            p.holds([NAMES.index(c) for c in mine], [NAMES.index(c) for c in theirs], [NAMES.index(c) for c in unseen])
            is want
        )
        proven += want
    assert proven > 0


@pytest.mark.parametrize("fog", [False, True])
def test_spare_is_the_card_whose_loss_leaves_the_strongest_set_the_first_on_a_tie(fog: bool) -> None:
    p = sum_only(3) if fog else pattern(3)
    rng = random.Random(5 + fog)
    for _ in range(600):
        cards = hand(rng, 4)
        rest = [[x for x in cards if x != c] for c in cards]
        strengths = [fm.best_strength(fm.parse(r, LINE), fog, len(LETTERS))[0] for r in rest]
        want = cards[strengths.index(max(strengths))]  # max() keeps the first of equals, as the engine's Mud does
        assert NAMES[p.spare([NAMES.index(c) for c in cards])] == want, cards


def test_patterns_like_another_and_chosen_by_a_test(duel: Path) -> None:
    """A pattern written as another with a key changed (like:), and a call choosing its pattern by a test, as a flag's
    Fog would: the same line read by sums alone while it holds two cards, and by its formation once it holds three."""
    text = guide_example("Ranking sets and proving claims").replace(
        "patterns:\n", "patterns:\n  fog: {like: formation, kinds: [sum], needs: {}}\n  mud: {like: fog, size: 4}\n"
    )
    old = "most: strength(formation, my.line)"
    assert old in text
    text = text.replace(old, "most: strength(fog if count(my.line) == 2 else formation, my.line)")
    (duel / "play.yaml").write_text(text)
    written = play.build(load_game(duel))
    book = written.book  # type: ignore[attr-defined]  # a PlayGame's rule book
    score = next(end.score for end in book.ends if end.score is not None)
    state = written.new_initial_state()
    line = book.zones["line"].index(0)
    state.zones[line] = [book.cards.index(c) for c in ("R8", "R9")]  # type: ignore[attr-defined]
    assert score.fn(state, {"me": 0}) == 17  # a sum alone: the one kind, 0
    state.zones[line] = [book.cards.index(c) for c in ("R8", "R9", "R10")]  # type: ignore[attr-defined]
    assert score.fn(state, {"me": 0}) == 4 * 31 + 27  # a wedge, over every sum of three cards
    assert conformance.check(written, 5) == []
