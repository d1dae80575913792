"""The rules language's piles: zones each starting with a deck of their own, a draw from the pile a player chooses,
and cards put back on a pile's top, known to the player who put them there and drawn next with no chance."""

from __future__ import annotations

import contextlib
import random
import shutil
from pathlib import Path
from typing import Any

import pytest
from books import mangled

from engine import conformance, play, runner
from engine.agents import RandomAgent
from engine.api import CHANCE
from engine.play.expr import RuleError
from printkit.core.errors import DataError
from printkit.data.loader import load_game

ROOT = Path(__file__).resolve().parents[2]
BATTLE_LINE = ROOT / "cards" / "battle-line"

# Battle Line's two decks, each its own pile: a player plays a card to their line, or puts a Tactics card back on its
# pile's top, then draws from the pile they choose
BOOK = """
counters:
  drawing: {per: game, start: 0}
zones:
  troops: {cards: troops, visible: none}
  tactics: {cards: tactics, visible: none}
  hand: {per: player, visible: owner, order: sorted}
  line: {per: player, visible: all}
drawing: {from: troops}
setup:
  - deal: {count: 3, to: hand}
  - first_player: random
moves:
  - each: my.hand
    if: drawing == 0
    moves:
      - id: play
        says: "plays {card}"
        do: [move: {to: my.line}, set: {drawing: 1}]
      - id: back
        says: "puts {card} back"
        if: card.kind is tactics
        do: [move: {to: tactics, on_top: true}, set: {drawing: 1}]
  - id: troop
    says: draws a Troop
    if: drawing == 1 and not empty(troops)
    ends_turn: true
    do: [set: {drawing: 0}, draw: {from: troops}]
  - id: tactic
    says: draws a Tactics card
    if: drawing == 1 and not empty(tactics)
    ends_turn: true
    do: [set: {drawing: 0}, draw: {from: tactics}]
  - id: pass
    if: (drawing == 1 and empty(troops) and empty(tactics)) or (drawing == 0 and empty(my.hand))
    ends_turn: true
    do: [set: {drawing: 0}]
end:
  - when: empty(troops) and empty(tactics) and empty(my.hand) and empty(their.hand)
    most: count(my.line)
cap: {turns: 200}
"""


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    out = tmp_path / "battle-line"
    shutil.copytree(BATTLE_LINE, out)
    (out / "play.yaml").write_text(BOOK)
    return out


def built(folder: Path, text: str | None = None) -> Any:
    if text is not None:
        (folder / "play.yaml").write_text(text)
    return play.build(load_game(folder))


def by_words(state: Any, words: str) -> int:
    """The legal action whose words start so."""
    return next(a for a in state.legal_actions() if state.action_to_string(a).startswith(words))


def by_move(state: Any, name: str) -> int:
    """The legal action of the move of that id (-1: none)."""
    legal = state.legal_actions()
    return next((a for a, pick in zip(legal, state.picks, strict=True) if pick[1].name == name), -1)


def dealt(game: Any, seed: int = 0) -> Any:
    """The game after its deal and first player, at the first player's first move."""
    state = game.new_initial_state()
    while state.current_player() == CHANCE:
        outcomes = sorted(state.chance_outcomes())
        state.apply_action(outcomes[seed % len(outcomes)][0])
    return state


def test_each_pile_starts_with_its_own_deck_and_a_game_keeps_the_api(folder: Path) -> None:
    game = built(folder)
    book = game.book
    state = game.new_initial_state()
    names = book.cards
    troops, tactics = state.zones[book.zones["troops"].base], state.zones[book.zones["tactics"].base]
    assert len(troops) == 60 and all(names[c][0] in "ROYGBP" for c in troops)
    assert [names[c] for c in tactics] == [c.id for c in load_game(folder).cards if c.kind == "tactics"]
    assert conformance.check(game, 25) == []
    record = runner.play(game, [RandomAgent(), RandomAgent()], 1).to_json()
    assert record["end"] in ("normal", "cap")


def test_a_draw_comes_from_the_pile_chosen_each_card_alike(folder: Path) -> None:
    game = built(folder)
    state = dealt(game)
    book = game.book
    for pile, words in (("tactics", "draws a Tactics"), ("troops", "draws a Troop")):
        s = state.clone()
        s.apply_action(by_words(s, "plays"))
        s.apply_action(by_words(s, words))
        assert s.current_player() == CHANCE
        cards = s.zones[book.zones[pile].base]
        outcomes = s.chance_outcomes()
        assert sorted(a - book.chance_base for a, _ in outcomes) == sorted(cards)
        assert all(p == pytest.approx(1 / len(cards)) for _, p in outcomes)
        drawn = outcomes[-1][0] - book.chance_base
        s.apply_action(outcomes[-1][0])
        assert drawn in s.zones[book.zones["hand"].index(1 - s.player)] and drawn not in cards


def test_a_card_put_on_top_is_known_to_its_player_alone_and_drawn_next_without_chance(folder: Path) -> None:
    game = built(folder)
    book = game.book
    state = dealt(game)
    me = state.player
    for words in ("draws a Tactics", "draws a Troop"):  # a Tactics card drawn, then the other player's turn
        state.apply_action(by_words(state, "plays"))
        state.apply_action(by_words(state, words))
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.player == me
    hand = state.zones[book.zones["hand"].index(me)]
    back = by_words(state, "puts")
    card = next(c for c in hand if book.fields[c]["kind"] == "tactics")
    state.apply_action(back)
    tactics = book.zones["tactics"].base
    assert state.zones[tactics][-1] == card and state.tops == {tactics: 1}
    assert book.cards[card] in state.observation(me)["zones"]["tactics"]
    assert book.cards[card] not in state.observation(1 - me)["zones"]["tactics"]
    assert conformance.check(game, 10) == []
    state.apply_action(by_words(state, "draws a Tactics"))
    assert state.current_player() == 1 - me  # no chance node: the known card was taken, the turn passed
    assert card in state.zones[book.zones["hand"].index(me)] and not state.tops


def test_known_tops_come_off_last_put_first_and_other_cards_go_beneath_them(folder: Path) -> None:
    game = built(folder)
    book = game.book
    state = dealt(game)
    tactics, hand = book.zones["tactics"].base, book.zones["hand"].index(state.player)
    pile = state.zones[tactics]
    first, second, under = pile[0], pile[1], pile[2]
    for card in (first, second):
        state.take(card, tactics)
        state.put_on_top(card, tactics, state.player)
    state.take(under, tactics)
    state.put(under, tactics)  # an ordinary move to the pile: beneath the cards known on top
    assert state.zones[tactics][-3:] == [under, first, second] and state.tops == {tactics: 2}
    state.take(first, tactics)  # one of the known ones taken away: one fewer known
    assert state.tops == {tactics: 1}
    state.draw_cards([state.player], book.zones["hand"], tactics)
    assert state.chance is None and second in state.zones[hand] and not state.tops


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        ("draw: {from: tactics}", "draw: {from: rules.hand_size}", "expected a zone"),
        ("draw: {from: tactics}", "draw: {from: tactcs}", "tactcs"),
        ("on_top: true", "on_top: 1", "on_top: expected true or false"),
        ("move: {to: tactics, on_top: true}", "move: {to: my.hand, on_top: true}", "is sorted: it has no top"),
        ("tactics: {cards: tactics", "tactics: {cards: all", "cards: all's cards already start in troops"),
        ("drawing: {from: troops}\n", "", "the rules name no pile to deal from"),
    ],
)
def test_a_bad_pile_is_one_placed_line(folder: Path, old: str, new: str, said: str) -> None:
    assert old in BOOK
    with pytest.raises(DataError) as caught:
        built(folder, BOOK.replace(old, new, 1))
    problems = caught.value.problems
    assert any(said in p.message for p in problems), problems
    assert all(p.file.endswith("play.yaml") and p.line > 0 and p.column > 0 for p in problems)


def test_a_draw_of_its_own_pile_needs_no_drawing_pile(folder: Path) -> None:
    text = BOOK.replace("drawing: {from: troops}\n", "").replace(
        "deal: {count: 3, to: hand}", "draw: {count: 3, who: each, from: troops}"
    )
    game = built(folder, text)
    assert conformance.check(game, 10) == []


def test_on_top_of_a_zone_that_is_no_pile_is_a_rule_error_at_play(folder: Path) -> None:
    # the zone is chosen as the game goes: a sorted one is refused when the card would go there
    text = BOOK.replace(
        "move: {to: tactics, on_top: true}", "move: {to: 'tactics' if false else my.hand, on_top: true}"
    )
    text = text.replace("'tactics' if false else my.hand", "tactics if drawing > 5 else my.hand")
    game = built(folder, text)
    with pytest.raises(RuleError, match="no pile"):
        for seed in range(40):
            runner.play(game, [RandomAgent(), RandomAgent()], seed)


# two rows of three piles each player has: a player plays a card to a pile of lines, or a Tactics card to the same
# pile of marks; or takes back, pile by pile, one of their cards from either row
ROWS = """
counters:
  taking: {per: game, start: 0}
  last: {per: game, start: -1}
zones:
  deck: {cards: all, visible: none}
  hand: {per: player, visible: owner, order: sorted}
  lines: {per: player, piles: 3, visible: all}
  marks: {per: player, piles: 3, visible: all}
  discard: {visible: all}
drawing: {from: deck}
setup:
  - deal: {count: 4, to: hand}
  - first_player: random
moves:
  - each: my.hand
    if: taking == 0
    moves:
      - id: put
        says: "puts {card} at pile {to}"
        to: piles(my.lines)
        do:
          - if: card.kind is troop
            then: [move: {to: "my.lines[to]"}]
            else: [move: {to: "my.marks[to]"}]
          - draw: 1
          - end_turn
  - id: start_taking
    if: taking == 0 and any(my.hand, troop)
    do: [set: {taking: 1}]
  - each: [my.lines, my.marks]
    if: taking == 1
    order: cards
    moves:
      - id: take
        says: "takes {card}"
        plays: null
        do: [move: {to: discard}, set: {taking: 0, last: card}, end_turn]
  - id: pass
    if: taking == 1 or empty(my.hand)
    ends_turn: true
    do: [set: {taking: 0}]
checks:
  troop: {given: c, is: c.kind is troop}
end:
  - when: empty(deck)
    most: count(discard)
cap: {turns: 100}
"""


def test_a_group_over_rows_offers_their_cards_pile_by_pile_in_card_order_from_their_pile(folder: Path) -> None:
    game = built(folder, ROWS)
    book = game.book
    state = dealt(game)
    me = state.player
    lines, marks = book.zones["lines"], book.zones["marks"]
    n = book.cards.index
    # cards laid straight onto the piles: pile 0 holds G5 then R2 in lines and fog in marks, pile 2 holds B1
    placed = [(lines, 0, "G5"), (lines, 0, "R2"), (marks, 0, "fog"), (lines, 2, "B1")]
    for zone, pile, name in placed:
        state.take_from(n(name), None)
        state.zones[zone.base + pile * 2 + me].append(n(name))
    state.apply_action(by_move(state, "start_taking"))
    state.legal_actions()
    picks = state.picks[:-1]  # (the last: the pass)
    assert state.picks[-1][1].name == "pass"
    assert [book.cards[pick[2]] for pick in picks] == ["R2", "G5", "fog", "B1"]  # pile 0 in card order, then 2
    froms = [pick[6] for pick in picks]
    assert froms == [0, 0, 0, 2]  # from: the pile each lies at
    state.apply_action(state.legal_actions()[2])
    assert n("fog") in state.zones[book.zones["discard"].base]
    assert state.values[book.counters["last"].index][0] == n("fog")  # set: keeps a card, as its number
    assert conformance.check(game, 10) == []


def test_all_and_any_ask_their_check_of_each_card_of_a_zone(folder: Path) -> None:
    game = built(folder, ROWS)
    book = game.book
    state = dealt(game)
    hand = book.zones["hand"].index(state.player)
    assert by_move(state, "start_taking") >= 0  # a dealt hand of Troops: any(my.hand, troop)
    state.zones[hand] = [book.cards.index("fog"), book.cards.index("mud")]
    state._legal = None
    assert by_move(state, "start_taking") < 0  # no Troop in hand


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        ("each: [my.lines, my.marks]", "each: [my.lines, deck]", "expected a zone, a row of piles, or a list of rows"),
        ("marks: {per: player, piles: 3", "marks: {per: player, piles: 4", "need as many piles"),
        ("each: [my.lines, my.marks]", "each: [my.lines, my.markz]", "markz"),
        ("any(my.hand, troop)", "any(my.hand, troops)", "expected a list and a check's name"),
        ("last: card}", "last: my.hand}", "expected a number or a card, found a zone"),
    ],
)
def test_a_bad_group_over_rows_is_one_placed_line(folder: Path, old: str, new: str, said: str) -> None:
    assert old in ROWS
    with pytest.raises(DataError) as caught:
        built(folder, ROWS.replace(old, new, 1))
    problems = caught.value.problems
    assert any(said in p.message for p in problems), problems
    assert all(p.file.endswith("play.yaml") and p.line > 0 and p.column > 0 for p in problems)


WORDS = ["from", "on_top", "true", "tactics", "troops", "my.lines", "my.marks", "each", "card", "piles", "[", "]"]


def test_mangled_piles_and_rows_are_a_data_error_or_play_within_their_bounds(folder: Path) -> None:
    """The two small books, mangled many times over: refused as data, each problem placed, or played, stopped only
    by the interpreter's own bounds."""
    played = 0
    rng = random.Random(32)
    for text in (BOOK, ROWS):
        lines = text.splitlines()
        at = [i for i, line in enumerate(lines) if line.strip()]
        for _ in range(60):
            try:
                game = built(folder, "\n".join(mangled(lines, rng, at, WORDS)) + "\n")
            except DataError as exc:
                assert all(p.file.endswith("play.yaml") for p in exc.problems)
                continue
            played += 1
            with contextlib.suppress(RuleError, runner.EndlessGame):  # the interpreter's own bounds, said as errors
                runner.play(game, [RandomAgent(), RandomAgent()], 0)
    assert played > 5


def test_on_top_of_a_full_pile_keeps_its_limit(folder: Path) -> None:
    # a pile of one card: a second put on top of it finds no room, as any card would (or goes to its overflow)
    text = BOOK.replace("move: {to: tactics, on_top: true}", "move: {to: spot, on_top: true}")
    text = text.replace("        if: card.kind is tactics\n", "")
    spot = "  line: {per: player, visible: all}\n  spot: {limit: 1}\n"
    game = built(folder, text.replace("  line: {per: player, visible: all}\n", spot))
    with pytest.raises(RuleError, match="spot is full"):
        for seed in range(40):
            runner.play(game, [RandomAgent(), RandomAgent()], seed)
    spot = "  line: {per: player, visible: all}\n  spot: {limit: 1, overflow: aside}\n  aside: {}\n"
    game = built(folder, text.replace("  line: {per: player, visible: all}\n", spot))
    book, moved = game.book, 0
    for seed in range(10):
        state = game.new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            assert len(state.zones[book.zones["spot"].base]) <= 1
        moved += len(state.zones[book.zones["aside"].base])
    assert moved
