"""Soldier Battler in the rules language: its grid, reaches and hit points play the hand-written engine's very games,
under every option of its rules, and a grid's every misuse is one line at its place in play.yaml."""

from __future__ import annotations

import random
import shutil
from itertools import pairwise
from pathlib import Path

import pytest
from books import engine_test_of_the_book, guide_example, mangled, same_games

from engine import agents, conformance, play, registry, runner
from engine.api import GameDef
from engine.play import grid
from engine.play.expr import RuleError
from engine.play.state import PlayState
from printkit.core.errors import DataError
from printkit.data import variant
from printkit.data.game import Game
from printkit.data.loader import load_game

ROOT = Path(__file__).resolve().parents[2]
SOLDIERS = ROOT / "cards" / "soldier-battler"
ATTACK, END_TURN = 20_000, 30_000  # the engine's action numbers the book keeps


@pytest.fixture(scope="module")
def soldiers() -> Game:
    return load_game(SOLDIERS)


@pytest.fixture(scope="module")
def both(soldiers: Game) -> tuple[GameDef, GameDef]:
    """Soldier Battler's hand-written engine, and the same game from its play.yaml."""
    return registry.build(soldiers), play.build(soldiers)


def test_soldier_battler_in_the_rules_language_plays_the_hand_written_engine_s_games(
    both: tuple[GameDef, GameDef],
) -> None:
    # every action (the alternate deal from each army's own deck, the draws, deployments by type and column,
    # steps and attacks by cell, turns' ends), the order of the legal moves a random player picks from, the
    # Soldiers deployed, how the game ended (a wipe-out, the no_progress stalemate, the cap) and the result
    same_games(*both, ("random", "random"), range(300))


def test_its_heuristic_is_the_engine_s_so_greedy_play_and_its_tension_agree_too(both: tuple[GameDef, GameDef]) -> None:
    # HP on the battlefield and 0.8 of the HP in reserve (sum() over hand and deck), through tanh (curve: tanh)
    same_games(*both, ("greedy", "random"), range(30), lead=True)


def test_search_deals_the_unseen_cards_as_the_engine_does_so_mcts_agrees(both: tuple[GameDef, GameDef]) -> None:
    # resample pools the other army's deck and its hand as drawn (order: cards offers that hand in type order)
    same_games(*both, ("mcts25", "random"), range(4))


# each option the engine reads from game.yaml, played by both: the grid's reach, steps, home rows, stalemate and cap
# are data, so a book that hard-wired any of them would part from the engine here
OPTIONS = [
    [("rules.stalemate", "idle_turns")],
    [("rules.melee_reach", "opposite_row_only")],
    [("rules.enter_enemy_row", False)],
    [("rules.first_player", "blue")],
    [("rules.turn_cap", 16)],
    [("rules.advantage_damage", 80), ("rules.damage", 30)],
    [("rules.board_rows", 4), ("rules.board_columns", 2)],
]


@pytest.mark.parametrize("changes", OPTIONS, ids=[",".join(f"{p}={v}" for p, v in c) for c in OPTIONS])
def test_each_option_of_the_rules_plays_the_engine_s_games_too(
    soldiers: Game, changes: list[tuple[str, object]]
) -> None:
    varied = variant.vary(soldiers, changes)
    same_games(registry.build(varied), play.build(varied), ("random", "random"), range(40))


def test_the_written_game_keeps_the_game_api(both: tuple[GameDef, GameDef]) -> None:
    assert conformance.check(both[1], 25) == []


def test_an_attack_takes_the_hit_points_its_weapons_say_and_a_soldier_at_none_leaves(
    both: tuple[GameDef, GameDef], soldiers: Game
) -> None:
    """Every attack of many random games, read off the position: the target's HP before less the damage (double for
    a weapon that beats the target's), the Soldier gone from its cell at 0 or below."""
    written = both[1]
    weapons = {w.id: w for w in soldiers.info.weapons}
    damage, advantage = int(soldiers.rule("damage")), int(soldiers.rule("advantage_damage"))
    fields = written.book.fields  # type: ignore[attr-defined]  # a PlayGame's rule book
    field = written.book.zones["field"]  # type: ignore[attr-defined]
    at, hp, cells = field.base, field.hit_points, field.cells
    attacks = destroyed = 0
    for seed in range(40):
        state = written.new_initial_state()
        assert isinstance(state, PlayState)
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
                continue
            action = rng.choice(state.legal_actions())
            if ATTACK <= action < END_TURN:
                i, j = divmod(action - ATTACK, cells)
                attacker, target = fields[state.zones[at][i]], fields[state.zones[at][j]]
                before = state.marks[at][hp][j]
                beats = weapons[attacker["weapon"]].beats == target["weapon"]
                dealt = advantage if beats else damage
                state.apply_action(action)
                attacks += 1
                if before - dealt <= 0:
                    destroyed += 1
                    assert state.zones[at][j] == -1 and state.marks[at][0][j] == -1
                else:
                    assert state.marks[at][hp][j] == before - dealt
                continue
            state.apply_action(action)
    assert attacks > 100 and destroyed > 10


def _lay(rows: int, cols: int, reach: list[str], enter: bool = True) -> grid.Layout:
    return grid.layout(rows, cols, [0, rows - 1], enter, reach)


def _board(cells: int, placed: dict[int, tuple[int, int]]) -> tuple[list[int], list[int]]:
    """cards and owners by cell from {cell: (seat, card)}."""
    cards, owner = [-1] * cells, [-1] * cells
    for i, (seat, card) in placed.items():
        cards[i], owner[i] = card, seat
    return cards, owner


MELEE, RANGED, ACROSS = 0, 1, 2  # card numbers whose reach _lay gives


def test_melee_reaches_the_nearest_enemy_in_its_column_whatever_the_row() -> None:
    lay = _lay(4, 3, ["nearest_in_column", "anywhere", "opposite_row_only"])
    # a Soldier on row 0, column 1: a friend on row 1 does not shield the enemy on row 2; the one on row 3 is further
    cards, owner = _board(12, {1: (0, MELEE), 4: (0, MELEE), 7: (1, MELEE), 10: (1, MELEE), 6: (1, MELEE)})
    assert grid.targets(lay, cards, owner, 1) == [7]
    # equally near on both sides: both, in cell order; nothing in the column: nothing, whatever stands beside it
    cards, owner = _board(12, {4: (0, MELEE), 1: (1, MELEE), 7: (1, MELEE), 5: (1, MELEE)})
    assert grid.targets(lay, cards, owner, 4) == [1, 7]
    cards, owner = _board(12, {3: (0, MELEE), 4: (1, MELEE), 5: (1, MELEE)})
    assert grid.targets(lay, cards, owner, 3) == []


def test_a_ranged_soldier_reaches_any_enemy_and_opposite_row_only_the_enemy_home_row() -> None:
    lay = _lay(3, 3, ["nearest_in_column", "anywhere", "opposite_row_only"])
    cards, owner = _board(9, {0: (0, RANGED), 5: (1, MELEE), 8: (1, MELEE), 3: (0, MELEE)})
    assert grid.targets(lay, cards, owner, 0) == [5, 8]
    cards, owner = _board(9, {1: (0, ACROSS), 4: (1, MELEE)})
    assert grid.targets(lay, cards, owner, 1) == []  # the enemy in the middle row is not across
    cards, owner = _board(9, {1: (0, ACROSS), 7: (1, MELEE)})
    assert grid.targets(lay, cards, owner, 1) == [7]


def test_steps_go_to_neighbours_and_stay_off_the_enemy_home_row_when_the_rules_say() -> None:
    free, barred = _lay(3, 3, ["nearest_in_column"]), _lay(3, 3, ["nearest_in_column"], enter=False)
    assert free.steps[0][4] == (7, 1, 5, 3)  # down, up, right, left: the engine's order
    assert barred.steps[0][4] == (1, 5, 3) and barred.steps[1][4] == (7, 5, 3)
    assert free.steps[0][0] == (3, 1)


def test_progress_finds_an_attack_steps_can_bring_and_none_where_none_can() -> None:
    lay = _lay(2, 3, ["nearest_in_column", "anywhere"])
    # no attack now (different columns), but a step or two brings the Soldiers into one column
    cards, owner = _board(6, {0: (0, MELEE), 5: (1, MELEE)})
    assert grid.targets(lay, cards, owner, 0) == [] and grid.progress(lay, cards, owner, [])
    # one row: melee can never reach along it, however they step; a seat with cards and a free home cell can deploy
    row = _lay(1, 3, ["nearest_in_column", "anywhere"])
    cards, owner = _board(3, {0: (0, MELEE), 2: (1, MELEE)})
    assert not grid.progress(row, cards, owner, [])
    assert grid.progress(row, cards, owner, [0])
    cards, owner = _board(3, {0: (0, RANGED), 2: (1, MELEE)})
    assert grid.progress(row, cards, owner, [])


def test_the_stalemate_search_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    # past the bound the answer is yes: a game is never ended on a search cut short
    lay = _lay(1, 6, ["nearest_in_column"])
    cards, owner = _board(6, {0: (0, MELEE), 5: (1, MELEE)})
    assert not grid.progress(lay, cards, owner, [])
    monkeypatch.setattr(grid, "PROGRESS_SEARCH_LIMIT", 3)
    assert grid.progress(lay, cards, owner, [])


# each: (the text in play.yaml, what it becomes, the words of the one problem)
BROKEN = [
    ("'anywhere' if game.weapons", "'everywhere' if game.weapons", "reach: expected one of nearest_in_column"),
    ("hit_points: hp", "hit_points: hq", "hit_points: expected one of its marks (hp, acted)"),
    ("              grid: field", "              grid: hand", "grid: expected a grid zone (field), found 'hand'"),
    ("to: steps(field, from)", "to: steps(my.hand, from)", "steps(): expected a grid zone first"),
    ("{grid: field, cell: from, acted: turn}", "{grid: field, cell: from, actd: turn}", "no mark 'actd' on field"),
    ("columns: rules.board_columns}", "columns: 200}", "expected a whole number from 1 to 100"),
    ("to: targets(field, from)", "to: units(field, me)", "to: expected places on a grid"),
    ("and field.acted[from] < turn", "and field.actd[from] < turn", "field is a grid"),
    ("move: {to: field, cell: to}", "move: {to: field}", "cell: a card goes onto a grid at a cell"),
    ("    as: cap\n    after: turn", "    as: cap\n    after: turns", "after: expected move (every move) or turn"),
    ("    visible: all\n    home:", "    visible: none\n    home:", "visible: a grid's cards are seen by all"),
    ("    grid: {rows:", "    order: sorted\n    grid: {rows:", "order: a grid holds one card a cell"),
]


@pytest.mark.parametrize(("old", "new", "words"), BROKEN, ids=[b[2][:30] for b in BROKEN])
def test_a_misused_grid_is_one_line_at_its_place(tmp_path: Path, old: str, new: str, words: str) -> None:
    folder = tmp_path / "soldier-battler"
    shutil.copytree(SOLDIERS, folder)
    rules = folder / "play.yaml"
    text = rules.read_text()
    assert old in text
    rules.write_text(text.replace(old, new, 1))
    with pytest.raises(DataError) as caught:
        play.build(load_game(folder))
    lines = str(caught.value).splitlines()
    assert len(lines) == 1, lines
    assert words in lines[0]
    place = lines[0].split(": ", 1)[0]
    file, line, column = place.rsplit(":", 2)
    assert file.endswith("play.yaml")
    written = rules.read_text().splitlines()[int(line) - 1]
    changed = next(line for line in new.splitlines() if line not in old.splitlines())  # the line the problem is on
    word = changed.strip().split(":")[0].split("(")[0].strip("'{")
    assert 0 < int(column) <= len(written) + 1 and word in written


def test_played_from_its_rules_it_passes_engine_test(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "soldier-battler"
    shutil.copytree(SOLDIERS, folder)
    engine_test_of_the_book(folder, "soldier-battler", monkeypatch, capsys)


def test_the_guide_s_grid_example_reads_and_plays(tmp_path: Path) -> None:
    """The rules-language guide's skirmish, over Soldier Battler's cards: it reads, and keeps the game API."""
    example = guide_example("A battlefield: the grid")
    folder = tmp_path / "soldier-battler"
    shutil.copytree(SOLDIERS, folder)
    (folder / "play.yaml").write_text(example)
    written = play.build(load_game(folder))
    assert conformance.check(written, 10) == []


def test_a_card_taken_off_the_grid_is_the_copy_on_its_cell(both: tuple[GameDef, GameDef]) -> None:
    written = both[1]
    state = written.new_initial_state()
    assert isinstance(state, PlayState)
    field = written.book.zones["field"]  # type: ignore[attr-defined]  # a PlayGame's rule book
    at, hp = field.base, field.hit_points
    for cell, points in ((1, 10), (4, 20)):  # two copies of one Soldier type, each with its own hit points
        state.zones[at][cell], state.marks[at][0][cell], state.marks[at][hp][cell] = 0, 0, points
    assert state.take_from(0, at, 4) == at
    assert state.zones[at][4] == -1 and state.marks[at][0][4] == -1
    assert state.zones[at][1] == 0 and state.marks[at][hp][1] == 10


WORDS = ["field", "from", "to", "card", "hp", "acted", "me", "turn", "0", "-1", "99", "none", "my.hand", "(", "{"]


def test_a_mangled_grid_book_is_a_data_error_or_plays_within_its_bounds(tmp_path: Path) -> None:
    """Soldier Battler's book with one line mangled, many times over: it is refused as data (each problem placed), or
    it plays, stopped only by the interpreter's own bounds (a rule error, a game past its action limit)."""
    folder = tmp_path / "soldier-battler"
    shutil.copytree(SOLDIERS, folder)
    lines = (SOLDIERS / "play.yaml").read_text().splitlines()
    rng = random.Random(32)
    played = 0
    for _ in range(150):
        (folder / "play.yaml").write_text("\n".join(mangled(lines, rng, range(len(lines)), WORDS)) + "\n")
        try:
            game = play.build(load_game(folder))
        except DataError:
            continue
        game.max_actions = 3_000  # a book that never ends is found at this bound, not the runner's 200,000
        played += 1
        for seed in range(2):
            try:
                runner.play(game, [agents.make("random"), agents.make("random")], seed)
            except (RuleError, runner.EndlessGame):
                break
    assert played > 10  # many changes leave a book that still reads


def test_the_book_reads_the_draws_and_deployments_a_turn_allows_from_the_data(soldiers: Game) -> None:
    # the engine draws one card and deploys at most one Soldier a turn whatever game.yaml says; the book reads
    # draw_per_turn and plays_per_turn, so two of each show as two in a row
    varied = play.build(variant.vary(soldiers, [("rules.draw_per_turn", 2), ("rules.plays_per_turn", 2)]))
    base = varied.book.chance_base  # type: ignore[attr-defined]  # a PlayGame's rule book
    draws = deploys = 0
    for seed in range(20):
        actions = runner.play(varied, [agents.make("random"), agents.make("random")], seed).actions
        for a, b in pairwise(list(actions)[6:]):  # after the deal
            draws += a >= base and b >= base
            deploys += a < 9_999 and b < 9_999
    assert draws > 20 and deploys > 5
