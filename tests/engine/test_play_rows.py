"""Rows of piles in the rules language: the guide's duel of three posts read, played and misused."""

from __future__ import annotations

import contextlib
import random
import shutil
from pathlib import Path

import pytest
from books import guide_example, mangled

from engine import conformance, play, runner
from engine.agents import RandomAgent
from engine.api import CHANCE
from engine.play import effects as fx
from engine.play.expr import RuleError
from engine.play.state import PlayGame, PlayState
from printkit.core.errors import DataError
from printkit.data.loader import load_game

ROOT = Path(__file__).resolve().parents[2]
BATTLE_LINE = ROOT / "cards" / "battle-line"


@pytest.fixture
def duel(tmp_path: Path) -> Path:
    folder = tmp_path / "battle-line"
    shutil.copytree(BATTLE_LINE, folder)
    (folder / "play.yaml").write_text(guide_example("A row of piles"))
    return folder


def built(folder: Path) -> PlayGame:
    game = play.build(load_game(folder))
    assert isinstance(game, PlayGame)
    return game


def random_game(game: PlayGame, seed: int) -> PlayState:
    state = game.new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def dealt(game: PlayGame, seed: int) -> PlayState:
    """The game after its deal and first player: the first decision."""
    state = game.new_initial_state()
    rng = random.Random(seed)
    while state.current_player() == CHANCE:
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_the_guide_s_posts_read_and_keep_the_game_api(duel: Path) -> None:
    assert conformance.check(built(duel), 10) == []


def test_a_card_is_offered_once_for_each_post_open_to_it(duel: Path) -> None:
    game = built(duel)
    state = dealt(game, 1)
    said = [state.action_to_string(a) for a in state.legal_actions()]
    assert len(said) == 5 * 3  # five cards in hand, three posts, no pass while one is open
    assert {s.rsplit(" ", 1)[1] for s in said} == {"1", "2", "3"}  # {to} counts from 1
    # my side of the first post filled (its limit: 2), the other player playing at its third post between: the first
    # is offered to me no more
    me, rng = state.current_player(), random.Random(0)
    for _ in range(2):
        state.apply_action(next(a for a in state.legal_actions() if state.action_to_string(a).endswith("post 1")))
        while state.current_player() != me:
            if state.current_player() == CHANCE:
                state.apply_action(rng.choice(state.legal_actions()))
            else:
                state.apply_action(
                    next(a for a in state.legal_actions() if state.action_to_string(a).endswith("post 3"))
                )
    posts = game.book.zones["posts"]
    assert len(state.zones[posts.base + me]) == 2  # pile 0, my side: the row's first zones are pile 0's sides
    said = [state.action_to_string(a) for a in state.legal_actions()]
    assert said and not any(s.endswith("post 1") for s in said)
    seen = state.observation(0)["zones"]
    assert len(seen[f"posts.0[{me}]"]) == 2 and len(seen[f"posts.2[{1 - me}]"]) == 2


def test_posts_go_to_the_higher_total_and_the_game_to_two_side_by_side(duel: Path) -> None:
    game = built(duel)
    book = game.book
    posts, taken, held = book.zones["posts"], book.counters["taken"], book.counters["held"]
    values = {card: fields.get("value", 0) for card, fields in enumerate(book.fields)}
    ways = {"two": 0, "most": 0}
    for seed in range(80):
        state = random_game(game, seed)
        owners = [state.values[taken.index][pile * 2] for pile in range(3)]  # a game counter: seat 0's place
        for pile in range(3):
            sides = [state.zones[posts.base + pile * posts.step + seat] for seat in (0, 1)]
            totals = [sum(values[c] for c in side) for side in sides]
            if all(len(side) == 2 for side in sides) and totals[0] != totals[1]:
                assert owners[pile] == totals.index(max(totals)), f"seed {seed}, post {pile}"
            elif owners[pile] >= 0:
                pytest.fail(f"seed {seed}: post {pile} taken before both sides were full")
        assert [owners.count(seat) for seat in (0, 1)] == state.values[held.index]
        side_by_side = [seat for seat in (0, 1) if owners[0] == owners[1] == seat or owners[1] == owners[2] == seat]
        if side_by_side:
            assert state.winner == side_by_side[0], f"seed {seed}"
            ways["two"] += 1
        else:
            ways["most"] += 1
    assert ways["two"] > 0 and ways["most"] > 0


@pytest.mark.parametrize(
    ("old", "new", "said", "at"),
    [
        ("piles: 3, visible", "piles: 0, visible", "piles: expected a whole number from 1 to 100, found 0", ""),
        ("piles: 3, visible", "piles: count(deck), visible", "piles: expected a number fixed for the game", ""),
        ("limit: 2}", "limit: 2, cards: troops}", "cards: a row of piles (piles:) takes no cards:", ""),
        ("to: my.posts[to]", "to: my.posts", "expected a zone: my.posts is a row of piles", ""),
        ("not full(my.posts[to])", "not full(my.posts)", "full(): my.posts is a row of piles: ask of one of them", ""),
        ("if: taken[to] < 0", "if: taken < 0", "expected a number, found a counter of piles", ""),
        ('taken[pile]: "me if', 'taken: "me if', "set.taken: taken has a value for each pile: write taken[pile]", ""),
        (
            "held: {start: 0}",
            "held: {start: 0, piles: 3}",
            "held has a value for each pile: write held[pile]",
            "gain: {held: 1}",
        ),
        ("- each: piles(my.posts)", "- each: my.posts", "each: expected places to take in turn", ""),
        ("to: piles(my.posts)", "to: piles(my.hand)", "piles(): expected a row of piles or a counter of one", ""),
        ("longest(taken, me)", "longest(my.posts, me)", "longest(): expected a counter of piles first", ""),
        (
            "        do:\n          - let:",
            "        as: me\n        do:\n          - let:",
            "as: 'me' cannot be a name here",
            "as: me",
        ),
        ("piles: 3, start: -1}", "piles: rules.posts, start: -1}", "game.yaml has no rule option 'posts'", ""),
        ("count: 5, to: hand", "count: 5, to: posts", "to: expected a zone each player has (hand)", ""),
        ("taken[pile] >= 0 or full", "taken[card] >= 0 or full", "taken[...]: expected a pile's number", ""),
    ],
)
def test_a_misused_row_is_one_placed_line(duel: Path, old: str, new: str, said: str, at: str) -> None:
    # at: the text the problem is placed at, where that is not the changed text (a counter declared, misused later)
    text = (duel / "play.yaml").read_text()
    assert old in text
    changed = text.replace(old, new, 1)
    (duel / "play.yaml").write_text(changed)
    line = changed[: changed.index(at or new)].count("\n") + 1
    with pytest.raises(DataError) as caught:
        play.build(load_game(duel))
    problems = caught.value.problems
    found = [p for p in problems if said in p.message]
    assert found, problems
    assert all(p.file.endswith("play.yaml") and p.column > 0 for p in problems)
    assert line <= found[0].line <= line + 1, (found[0], line)  # the line changed, or a key's value just below it


def test_a_pile_outside_the_row_stops_the_game_at_its_column(duel: Path) -> None:
    text = (duel / "play.yaml").read_text()
    (duel / "play.yaml").write_text(text.replace("to: my.posts[to]", "to: my.posts[to + 1]", 1))
    game = built(duel)
    with pytest.raises(RuleError, match=r"posts has no pile 3 \(its piles: 0 to 2\)"):
        for seed in range(20):  # a card played at the last post: its pile 3 is past the row
            random_game(game, seed)


WORDS = ("my.posts", "my.posts[pile]", "taken", "taken[to]", "piles(taken)", "pile", "to", "held", "-1", "each:")


def test_a_mangled_row_is_a_data_error_or_plays_within_its_bounds(duel: Path) -> None:
    """The lines that declare, offer and read the row, mangled many times over: refused as data, each problem
    placed, or played, stopped only by the interpreter's own bounds."""
    lines = (duel / "play.yaml").read_text().splitlines()
    at = [i for i, line in enumerate(lines) if any(w in line for w in ("posts", "taken", "pile", "to"))]
    rng = random.Random(32)
    played = 0
    for _ in range(150):
        (duel / "play.yaml").write_text("\n".join(mangled(lines, rng, at, WORDS)) + "\n")
        try:
            game = play.build(load_game(duel))
        except DataError as exc:
            assert all(p.file.endswith("play.yaml") and p.line > 0 for p in exc.problems)
            continue
        played += 1
        with contextlib.suppress(RuleError, runner.EndlessGame):  # the interpreter's own bounds, said as errors
            runner.play(game, [RandomAgent(), RandomAgent()], 0)
    assert played > 5


def test_a_counter_of_piles_keeps_its_bounds_pile_by_pile(duel: Path) -> None:
    text = (duel / "play.yaml").read_text()
    old = "taken: {per: game, piles: 3, start: -1}"
    assert old in text
    (duel / "play.yaml").write_text(text.replace(old, "taken: {per: game, piles: 3, start: -1, max: 0}", 1))
    game = built(duel)
    taken = game.book.counters["taken"]
    owners: set[int] = set()
    for seed in range(40):  # a post the second seat wins is set to 1 and held at the bound, 0
        state = random_game(game, seed)
        owners.update(state.values[taken.index][pile * 2] for pile in range(3))
    assert owners == {-1, 0}


def test_a_counter_of_piles_bounded_by_the_seat_s_own_counter_reads_that_seat_s(duel: Path) -> None:
    # max: my.cap is read for the seat whose side of the pile a value is, not at the value's place among the piles
    text = (duel / "play.yaml").read_text()
    old, step = "  held: {start: 0}", "          - let: {mine:"
    assert old in text and step in text
    text = text.replace(old, old + "\n  cap: {start: 1}\n  mark: {piles: 3, start: 0, max: my.cap}", 1)
    text = text.replace(step, "          - set:\n              mark[pile]: 9\n" + step, 1)
    (duel / "play.yaml").write_text(text)
    game = built(duel)
    mark = game.book.counters["mark"]
    seen: set[int] = set()
    for seed in range(20):
        seen.update(random_game(game, seed).values[mark.index])
    assert seen == {1}


def test_each_runs_its_effects_in_order_in_place_or_by_frames(duel: Path) -> None:
    # an effect of no change to the position alone (draw_game, never reached) makes each: push a frame a post
    # rather than run in place: the games are the same
    plain = built(duel)
    text = (duel / "play.yaml").read_text()
    old = "          - let: {mine:"
    assert old in text
    (duel / "play.yaml").write_text(
        text.replace(old, "          - if: my.held < 0\n            then: [draw_game]\n" + old, 1)
    )
    framed = built(duel)
    assert not fx.is_plain(framed.book.effects["settle"].body)
    for seed in range(30):
        a = runner.play(plain, [RandomAgent(), RandomAgent()], seed).to_json()
        b = runner.play(framed, [RandomAgent(), RandomAgent()], seed).to_json()
        assert a == b, f"seed {seed}"


def test_a_move_at_a_target_from_a_pile_is_offered_at_each_target_its_test_allows(duel: Path) -> None:
    book = (duel / "play.yaml").read_text()
    book = book.replace("hand: {per: player, visible: owner, order: sorted}", "hand: {per: player, limit: 30}")
    hit = """  - each: [my.posts]
    moves:
      - id: hit
        says: "{card} at post {from} takes {target}"
        target: their.hand
        if: card.value > target.value
        do:
          - move: {card: target, to: my.hand}
          - end_turn
  - id: pass
"""
    (duel / "play.yaml").write_text(book.replace("  - id: pass\n", hit, 1))
    game = built(duel)
    rng, hits = random.Random(3), 0
    for seed in range(20):
        state = dealt(game, seed)
        while not state.is_terminal() and hits < 40:
            legal = state.legal_actions()
            if state.current_player() != CHANCE:
                for action, pick in zip(legal, state.picks, strict=True):
                    if pick[1].name == "hit":  # the card at its post, the target a card of the other's hand it beats
                        _, _, card, at, place, target_at, pile = pick
                        assert at == game.book.zones["posts"].base + pile * 2 + state.player
                        target = state.zones[target_at][place]
                        fields = game.book.fields
                        assert fields[card]["value"] > fields[target]["value"]
                        s = state.clone()
                        s.apply_action(action)
                        assert target in s.zones[game.book.zones["hand"].index(state.player)]
                        hits += 1
            state.apply_action(rng.choice(legal))
    assert hits


def test_a_check_of_the_place_that_reads_the_card_is_asked_of_each_card(duel: Path) -> None:
    # fits(to) names the place alone, but its check reads the card: it is not asked once a place for every card
    book = (duel / "play.yaml").read_text()
    fits = "  fits:\n    given: pile\n    is: card.value > count(my.posts[pile]) * 4\n"
    book = book.replace("checks:\n", "checks:\n" + fits)
    book = book.replace("if: taken[to] < 0 and not full(my.posts[to])", "if: not full(my.posts[to]) and fits(to)")
    book = book.replace("if: empty(my.hand) or all(piles(my.posts), shut)", "if: true")
    (duel / "play.yaml").write_text(book + "cap: {turns: 60}\n")
    game = built(duel)
    hand, posts, value = game.book.zones["hand"], game.book.zones["posts"], game.book.fields
    asked = 0
    for seed in range(10):
        state, rng = dealt(game, seed), random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            if state.current_player() != CHANCE:
                p = state.player
                offered = {(pick[2], pick[4]) for pick in state.picks if pick[1].name == "post"}
                sides = [state.zones[posts.base + pile * posts.step + p] for pile in range(3)]
                meant = {
                    (card, pile)
                    for card in state.zones[hand.index(p)]
                    for pile in range(3)
                    if len(sides[pile]) < 2 and value[card]["value"] > len(sides[pile]) * 4
                }
                assert offered == meant
                asked += 1
            state.apply_action(rng.choice(legal))
    assert asked > 50


def test_a_counter_of_piles_is_no_budget(duel: Path) -> None:
    text = (duel / "play.yaml").read_text()
    text = text.replace("held: {start: 0}", "held: {start: 0}\n  plays: {piles: 3, start: 2}", 1)
    (duel / "play.yaml").write_text(text.replace("\nmoves:\n", "\nturn: {budget: plays}\nmoves:\n", 1))
    with pytest.raises(DataError) as caught:
        play.build(load_game(duel))
    [problem] = caught.value.problems
    assert problem.file.endswith("play.yaml") and "budget: expected a counter each player has" in problem.message
