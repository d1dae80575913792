"""Time Line: combat with fixed dice, control, recruiting, supply limits and a few cards, from the digest."""

from __future__ import annotations

import pytest

from engine.games import time_line as tl
from engine.games.time_line import TimeLineGame, TimeLineState


@pytest.fixture
def game(engines: dict[str, object]) -> TimeLineGame:
    g = engines["time-line"]
    assert isinstance(g, TimeLineGame)
    return g


def _t(game: TimeLineGame, unit: str) -> int:
    return next(i for i, t in enumerate(game.rules.types) if t.id == unit)


def _e(game: TimeLineGame, era: str) -> int:
    return game.rules.eras.index(era)


def _empty(game: TimeLineGame, player: int = 0) -> TimeLineState:
    state = game.new_initial_state()
    state.units = [[[0] * len(game.rules.types) for _ in game.rules.eras] for _ in (0, 1)]
    state.player, state.phase, state.steps = player, "play", []
    return state


def test_start_matches_the_data(game: TimeLineGame) -> None:
    state = game.new_initial_state()
    home = _e(game, "distant-past")
    assert state.units[0][home][_t(game, "warriors")] == 4 and state.units[0][home][_t(game, "wizard")] == 2
    assert state.supply[_t(game, "warriors")] == 20 - 4
    assert state.control[home] == 0 and state.control[_e(game, "far-future")] == 1


@pytest.mark.parametrize(("face", "loser"), [(1, 1), (4, 1), (5, 0), (6, 0)])
def test_combat_roll_with_the_advantage(game: TimeLineGame, face: int, loser: int) -> None:
    state = _empty(game)
    era = _e(game, "middle-ages")
    state.units[0][era][_t(game, "monster")] = 1  # Force 200 against 100: seat 0 has the advantage
    state.units[1][era][_t(game, "agent")] = 1
    state._after_combat({"era": era, "rounds": 0}, face)
    assert sum(state.units[loser][era]) == 0 and sum(state.units[1 - loser][era]) == 1


@pytest.mark.parametrize(("face", "loser"), [(1, 1), (3, 1), (4, 0), (6, 0)])
def test_combat_roll_with_equal_force(game: TimeLineGame, face: int, loser: int) -> None:
    state = _empty(game)  # seat 0 is active: on the low half the non-active side loses
    era = _e(game, "roman-empire")
    state.units[0][era][_t(game, "hero")] = 1
    state.units[1][era][_t(game, "agent")] = 1
    state._after_combat({"era": era, "rounds": 0}, face)
    assert sum(state.units[loser][era]) == 0


def test_force_cards_tip_the_advantage(game: TimeLineGame) -> None:
    state = _empty(game)
    era = _e(game, "wwi")
    state.units[0][era][_t(game, "hero")] = 1  # 100
    state.units[1][era][_t(game, "combat-team")] = 1  # 150
    state.effects["force"]["0:" + str(era)] = {str(_t(game, "hero")): 100}  # e.g. Vorpal Sword: now 200 to 150
    state._after_combat({"era": era, "rounds": 0}, 2)
    assert sum(state.units[1][era]) == 0


def test_control_roll_and_its_bonus(game: TimeLineGame) -> None:
    state = _empty(game)
    era = _e(game, "renaissance")
    state.units[0][era][_t(game, "wizard")] = 1
    state._after_change({"era": era}, game.rules.success - 1)
    assert state.control[era] == -1
    state.units[0][era][_t(game, "hero")] = 1  # Heroes add one to the roll
    state._after_change({"era": era}, game.rules.success - 1)
    assert state.control[era] == 0


def test_recruiting_period_troops_stops_when_the_supply_runs_out(game: TimeLineGame) -> None:
    state = _empty(game)
    era = _e(game, "wwii")
    period = next(i for i, t in enumerate(game.rules.types) if t.era == era)
    state._after_period({"era": era, "t": period}, 6)
    assert state.units[0][era][period] == 1 and state.supply[period] == 9
    state.supply[period] = 0
    state._after_period({"era": era, "t": period}, 6)
    assert state.units[0][era][period] == 1  # nothing left to recruit: nothing gained


def test_faction_recruit_table(game: TimeLineGame) -> None:
    state = _empty(game, player=1)
    state._after_faction({}, 3)
    assert state.units[1][_e(game, "far-future")][_t(game, "combat-team")] == 1
    state._after_faction({}, 6)
    assert [s["kind"] for s in state.steps] == ["draw", "draw"]


def test_prehistory_gives_the_atlanteans_two_rolls(game: TimeLineGame) -> None:
    state = _empty(game)
    state.control[_e(game, "prehistory")] = 0
    state._begin_recruit({})
    rolls = [s for s in state.steps if s.get("then") == "period"]
    assert len(rolls) == 2 and all(s["era"] == _e(game, "prehistory") for s in rolls)


def test_moves_respect_reach_barriers_and_stasis(game: TimeLineGame) -> None:
    state = _empty(game)
    home = _e(game, "distant-past")
    state.units[0][home][_t(game, "wizard")] = 1  # Move 4
    state.steps = [{"kind": "travel"}]
    n_types, n_eras = len(game.rules.types), len(game.rules.eras)

    def dests() -> list[int]:
        state._legal = None
        return [(a - tl.MOVE) % n_eras for a in state.legal_actions() if tl.MOVE <= a < tl.PLAY]

    assert dests() == [1, 2, 3, 4]
    state.effects["barrier"] = [(1, 2)]
    assert dests() == [1, 2]  # into the barrier's Era, not past it
    state.effects["stasis"] = [(1, home)]
    assert dests() == []
    assert n_types > 0


def test_destroy_card_removes_an_enemy_unit(game: TimeLineGame) -> None:
    state = _empty(game)
    era = _e(game, "middle-ages")
    paradox = next(i for i, c in enumerate(game.rules.cards) if c.id == "paradox")
    state.hands[0] = [paradox]
    state.units[0][_e(game, "distant-past")][_t(game, "wizard")] = 1
    state.units[1][era][_t(game, "warship")] = 1
    state.steps = [{"kind": "travel"}]
    state.apply_action(tl.PLAY + paradox * 4)
    state.apply_action(tl.PICK_ERA + era)
    state.apply_action(tl.PICK_STACK + era * len(game.rules.types) + _t(game, "warship"))
    assert sum(state.units[1][era]) == 0 and paradox in state.discards[0]


def test_all_twelve_eras_win(game: TimeLineGame) -> None:
    state = _empty(game)
    state.control = [0] * len(game.rules.eras)
    state._end_turn()
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
