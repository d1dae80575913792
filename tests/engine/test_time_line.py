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


def _card(game: TimeLineGame, card_id: str) -> int:
    return next(i for i, c in enumerate(game.rules.cards) if c.id == card_id)


def _travel(game: TimeLineGame, hand: list[str], player: int = 0) -> TimeLineState:
    state = _empty(game, player)
    state.hands[player] = [_card(game, c) for c in hand]
    for c in state.hands[player]:
        state.pools[player].remove(c)
    state.steps = [{"kind": "travel"}]
    return state


def test_summon_puts_a_new_unit_with_the_wizard(game: TimeLineGame) -> None:
    state = _travel(game, ["summon"])
    era = _e(game, "roman-empire")
    state.units[0][era][_t(game, "wizard")] = 1
    before = state.supply[_t(game, "monster")]
    state.apply_action(tl.PLAY + _card(game, "summon") * 4)
    state.apply_action(tl.PICK_ERA + era)
    state.apply_action(tl.PICK_STACK + era * len(game.rules.types) + _t(game, "monster"))
    assert state.units[0][era][_t(game, "monster")] == 1 and state.supply[_t(game, "monster")] == before - 1


def test_banish_moves_an_enemy_to_a_neighbouring_era(game: TimeLineGame) -> None:
    state = _travel(game, ["banish"])
    era = _e(game, "renaissance")
    state.units[0][era][_t(game, "wizard")] = 1
    state.units[1][era][_t(game, "agent")] = 1
    state.apply_action(tl.PLAY + _card(game, "banish") * 4)
    state.apply_action(tl.PICK_ERA + era)
    state.apply_action(tl.PICK_STACK + era * len(game.rules.types) + _t(game, "agent"))
    assert sorted(state.legal_actions()) == [tl.PICK_ERA + era - 1, tl.PICK_ERA + era + 1]
    state.apply_action(tl.PICK_ERA + era + 1)
    assert state.units[1][era + 1][_t(game, "agent")] == 1 and not any(state.units[1][era])


def test_time_vortex_rolls_for_every_unit_in_the_era(game: TimeLineGame) -> None:
    state = _travel(game, ["time-vortex"])
    era = _e(game, "wwii")
    state.units[0][era][_t(game, "wizard")] = 1
    state.units[1][era][_t(game, "warship")] = 2
    state.apply_action(tl.PLAY + _card(game, "time-vortex") * 4)
    state.apply_action(tl.PICK_ERA + era)
    rolls = 0
    for face in (6, 1, 4):  # one roll per unit: 6 and 4 destroy, 1 spares
        assert state.is_chance_node()
        state.apply_action(tl.DIE + face)
        rolls += 1
    assert rolls == 3 and sum(state.units[0][era]) + sum(state.units[1][era]) == 1


def test_end_of_time_makes_the_opponent_discard(game: TimeLineGame) -> None:
    state = _travel(game, ["end-of-time"])
    state.units[0][0][_t(game, "wizard")] = 1
    state.hands[1] = [c for c in state.pools[1][:4]]
    for c in state.hands[1]:
        state.pools[1].remove(c)
    state.apply_action(tl.PLAY + _card(game, "end-of-time") * 4)
    for _ in range(3):
        assert state.current_player() == 1
        state.apply_action(state.legal_actions()[0])
    assert len(state.hands[1]) == 1 and len(state.discards[1]) == 3 and state.current_player() == 0


def test_see_the_future_orders_the_next_draws(game: TimeLineGame) -> None:
    state = _travel(game, ["see-the-future"])
    state.units[0][0][_t(game, "wizard")] = 1
    state.apply_action(tl.PLAY + _card(game, "see-the-future") * 4)
    while state.is_chance_node():  # seven cards come off the deck, face up to their owner
        state.apply_action(state.legal_actions()[-1])
    assert len(state.tops[0]) == 7
    choice = state.legal_actions()[-1]
    state.apply_action(choice)
    assert state.tops[0][0] == choice - tl.PICK_CARD


def test_reverse_time_starts_the_turn_again(game: TimeLineGame) -> None:
    state = game.new_initial_state()
    state.apply_action(tl.DIE + 0)  # seat 0 first
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    reverse = _card(game, "reverse-time")
    state.hands[0].append(reverse)
    if reverse in state.pools[0]:
        state.pools[0].remove(reverse)
    state._legal = None
    move = next(a for a in state.legal_actions() if tl.MOVE <= a < tl.PLAY)
    state.apply_action(move)
    state.apply_action(tl.PLAY + reverse * 4)
    home = _e(game, "distant-past")
    starting = sum(t.start for t in game.rules.types if t.faction == 0)
    assert sum(state.units[0][home]) == starting  # the moved unit is home again
    assert state.is_chance_node()  # the turn's draws come again
    assert reverse in state.discards[0] and reverse not in state.hands[0]
