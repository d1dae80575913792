"""Time Line: combat with fixed dice, control, recruiting, supply limits and a few cards, from the digest."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from stepwise import StepRandom, outcome

from engine.agents import RandomAgent
from engine.games import time_line as tl
from engine.games import time_line_steps as ts
from engine.games.time_line import TimeLineGame, TimeLineState
from printkit.cli import main
from printkit.data import variant
from printkit.data.game import Game
from printkit.data.loader import load_game


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
    return TimeLineState.at(game, player=player)


def test_start_matches_the_data(game: TimeLineGame) -> None:
    state = game.new_initial_state()
    home = _e(game, "distant-past")
    assert state.units[0][home][_t(game, "warriors")] == 4 and state.units[0][home][_t(game, "wizard")] == 2
    assert state.supply[_t(game, "warriors")] == 20 - 4
    assert state.control[home] == 0 and state.control[_e(game, "far-future")] == 1


def _before_roll(game: TimeLineGame, units: str, then: str, player: int = 0, **step: int) -> TimeLineState:
    """A position with these units (see TimeLineState.at) about to make one roll of this kind."""
    state = TimeLineState.at(game, units, player=player, steps=[ts.Roll(then, **step)])
    assert state.is_chance_node()
    return state


@pytest.mark.parametrize(("face", "loser"), [(1, 1), (4, 1), (5, 0), (6, 0)])
def test_combat_roll_with_the_advantage(game: TimeLineGame, face: int, loser: int) -> None:
    era = _e(game, "middle-ages")  # a Monster's Force 200 against an Agent's 100: seat 0 has the advantage
    state = _before_roll(game, "monster@middle-ages | agent@middle-ages", "combat", era=era, rounds=0)
    state.apply_action(tl.DIE + face)
    assert sum(state.units[loser][era]) == 0 and sum(state.units[1 - loser][era]) == 1


@pytest.mark.parametrize(("face", "loser"), [(1, 1), (3, 1), (4, 0), (6, 0)])
def test_combat_roll_with_equal_force(game: TimeLineGame, face: int, loser: int) -> None:
    era = _e(game, "roman-empire")  # seat 0 is active: on the low half the non-active side loses
    state = _before_roll(game, "hero@roman-empire | agent@roman-empire", "combat", era=era, rounds=0)
    state.apply_action(tl.DIE + face)
    assert sum(state.units[loser][era]) == 0


def test_force_cards_tip_the_advantage(game: TimeLineGame) -> None:
    era = _e(game, "wwi")  # a Hero's 100 against a Combat Team's 150
    state = _before_roll(game, "hero@wwi | combat-team@wwi", "combat", era=era, rounds=0)
    state.effects.force[(0, era)] = {_t(game, "hero"): 100}  # e.g. Vorpal Sword: now 200 to 150
    state.apply_action(tl.DIE + 2)
    assert sum(state.units[1][era]) == 0


def test_control_roll_and_its_bonus(game: TimeLineGame) -> None:
    era = _e(game, "renaissance")
    state = _before_roll(game, "wizard@renaissance | ", "change", era=era)
    state.apply_action(tl.DIE + game.rules.success - 1)
    assert state.control[era] == -1
    state = _before_roll(game, "wizard@renaissance hero@renaissance | ", "change", era=era)
    state.apply_action(tl.DIE + game.rules.success - 1)  # Heroes add one to the roll
    assert state.control[era] == 0


def test_recruiting_period_troops_stops_when_the_supply_runs_out(game: TimeLineGame) -> None:
    era = _e(game, "wwii")
    period = next(i for i, t in enumerate(game.rules.types) if t.era == era)
    state = _before_roll(game, "", "period", era=era, t=period)
    state.apply_action(tl.DIE + 6)
    assert state.units[0][era][period] == 1 and state.supply[period] == 9
    state = _before_roll(game, "", "period", era=era, t=period)
    state.supply[period] = 0
    state.apply_action(tl.DIE + 6)
    assert state.units[0][era][period] == 0  # nothing left to recruit: nothing gained


def test_faction_recruit_table(game: TimeLineGame) -> None:
    state = _before_roll(game, "", "faction", player=1)
    state.apply_action(tl.DIE + 3)
    assert state.units[1][_e(game, "far-future")][_t(game, "combat-team")] == 1
    state = _before_roll(game, "", "faction", player=1)
    state.apply_action(tl.DIE + 6)
    assert [s.kind for s in state.steps] == ["draw", "draw"]  # a 6 draws two cards instead


def test_prehistory_gives_the_atlanteans_two_rolls(game: TimeLineGame) -> None:
    state = TimeLineState.at(game, control={"prehistory": 0}, steps=[ts.BeginRecruit()])
    rolls = [s for s in state.steps if isinstance(s, ts.Roll) and s.then == "period"]
    assert len(rolls) == 2 and all(s.era == _e(game, "prehistory") for s in rolls)


def test_moves_respect_reach_barriers_and_stasis(game: TimeLineGame) -> None:
    state = _empty(game)
    home = _e(game, "distant-past")
    state.units[0][home][_t(game, "wizard")] = 1  # Move 4
    state.steps = [ts.Travel()]
    n_types, n_eras = len(game.rules.types), len(game.rules.eras)

    def dests() -> list[int]:
        state.edited()
        return [(a - tl.MOVE) % n_eras for a in state.legal_actions() if tl.MOVE <= a < tl.PLAY]

    assert dests() == [1, 2, 3, 4]
    state.effects.barrier = [(1, 2)]
    assert dests() == [1, 2]  # into the barrier's Era, not past it
    state.effects.stasis = [(1, home)]
    assert dests() == []
    assert n_types > 0


def test_destroy_card_removes_an_enemy_unit(game: TimeLineGame) -> None:
    state = _empty(game)
    era = _e(game, "middle-ages")
    paradox = next(i for i, c in enumerate(game.rules.cards) if c.id == "paradox")
    state.hands[0] = [paradox]
    state.units[0][_e(game, "distant-past")][_t(game, "wizard")] = 1
    state.units[1][era][_t(game, "warship")] = 1
    state.steps = [ts.Travel()]
    state.apply_action(tl.PLAY + paradox * game.stride)
    state.apply_action(tl.PICK_ERA + era)
    state.apply_action(tl.PICK_STACK + era * len(game.rules.types) + _t(game, "warship"))
    assert sum(state.units[1][era]) == 0 and paradox in state.discards[0]


def test_all_twelve_eras_win(game: TimeLineGame) -> None:
    state = TimeLineState.at(game, control=dict.fromkeys(game.rules.eras, 0), steps=[ts.Travel()])
    state.apply_action(tl.END)  # the turn ends with every Era held
    assert state.is_terminal() and state.returns() == [1.0, -1.0]


def _card(game: TimeLineGame, card_id: str) -> int:
    return next(i for i, c in enumerate(game.rules.cards) if c.id == card_id)


def _travel(game: TimeLineGame, hand: list[str], player: int = 0) -> TimeLineState:
    state = _empty(game, player)
    state.hands[player] = [_card(game, c) for c in hand]
    for c in state.hands[player]:
        state.pools[player].remove(c)
    state.steps = [ts.Travel()]
    return state


def test_summon_puts_a_new_unit_with_the_wizard(game: TimeLineGame) -> None:
    state = _travel(game, ["summon"])
    era = _e(game, "roman-empire")
    state.units[0][era][_t(game, "wizard")] = 1
    before = state.supply[_t(game, "monster")]
    state.apply_action(tl.PLAY + _card(game, "summon") * game.stride)
    state.apply_action(tl.PICK_ERA + era)
    state.apply_action(tl.PICK_STACK + era * len(game.rules.types) + _t(game, "monster"))
    assert state.units[0][era][_t(game, "monster")] == 1 and state.supply[_t(game, "monster")] == before - 1


def test_banish_moves_an_enemy_to_a_neighbouring_era(game: TimeLineGame) -> None:
    state = _travel(game, ["banish"])
    era = _e(game, "renaissance")
    state.units[0][era][_t(game, "wizard")] = 1
    state.units[1][era][_t(game, "agent")] = 1
    state.apply_action(tl.PLAY + _card(game, "banish") * game.stride)
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
    state.apply_action(tl.PLAY + _card(game, "time-vortex") * game.stride)
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
    state.apply_action(tl.PLAY + _card(game, "end-of-time") * game.stride)
    for _ in range(3):
        assert state.current_player() == 1
        state.apply_action(state.legal_actions()[0])
    assert len(state.hands[1]) == 1 and len(state.discards[1]) == 3 and state.current_player() == 0


def test_see_the_future_orders_the_next_draws(game: TimeLineGame) -> None:
    state = _travel(game, ["see-the-future"])
    state.units[0][0][_t(game, "wizard")] = 1
    state.apply_action(tl.PLAY + _card(game, "see-the-future") * game.stride)
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
    state.edited()
    move = next(a for a in state.legal_actions() if tl.MOVE <= a < tl.PLAY)
    state.apply_action(move)
    state.apply_action(tl.PLAY + reverse * game.stride)
    home = _e(game, "distant-past")
    starting = sum(t.start for t in game.rules.types if t.faction == 0)
    assert sum(state.units[0][home]) == starting  # the moved unit is home again
    assert state.is_chance_node()  # the turn's draws come again
    assert reverse in state.discards[0] and reverse not in state.hands[0]


def _stack(game: TimeLineGame, era: int, unit: str) -> int:
    return tl.PICK_STACK + era * len(game.rules.types) + _t(game, unit)


def _destinations(state: TimeLineState, era: int, unit: str) -> list[int]:
    """The Eras a unit of this type in era may travel to now."""
    game = state.g
    n_types, n_eras = len(game.rules.types), len(game.rules.eras)
    state.edited()
    stack = era * n_types + _t(game, unit)
    return sorted(
        (a - tl.MOVE) % n_eras
        for a in state.legal_actions()
        if tl.MOVE <= a < tl.PLAY and (a - tl.MOVE) // n_eras == stack
    )


def test_a_move_card_adds_to_one_stacks_reach(game: TimeLineGame) -> None:
    state = _travel(game, ["astral-travel"])  # a Wizard's card: Move +3
    era = _e(game, "distant-past")
    state.units[0][era][_t(game, "wizard")] = 1
    state.units[0][era][_t(game, "monster")] = 1
    assert _destinations(state, era, "wizard") == [1, 2, 3, 4]
    state.apply_action(tl.PLAY + _card(game, "astral-travel") * game.stride)
    state.apply_action(tl.PICK_ERA + era)
    assert state.legal_actions() == [_stack(game, era, "wizard")]  # only a unit the card names
    state.apply_action(_stack(game, era, "wizard"))
    assert _destinations(state, era, "wizard") == list(range(1, 8))
    assert _destinations(state, era, "monster") == [1]


def test_armies_of_the_past_march_period_troops(game: TimeLineGame) -> None:
    state = _travel(game, ["armies-of-the-past"])
    era = _e(game, "middle-ages")
    period = next(t for t in game.rules.types if t.era == _e(game, "prehistory"))
    state.units[0][era][_t(game, period.id)] = 2
    assert _destinations(state, era, period.id) == []  # period troops have Move 0
    state.apply_action(tl.PLAY + _card(game, "armies-of-the-past") * game.stride)
    state.apply_action(tl.PICK_ERA + era)
    assert _destinations(state, era, period.id) == [1, 2, 3, 5, 6, 7]


def test_a_time_beacon_draws_units_two_eras_further(game: TimeLineGame) -> None:
    state = _travel(game, ["time-beacon"], player=1)
    home = _e(game, "far-future")
    state.units[1][home][_t(game, "warship")] = 1  # Move 1
    assert _destinations(state, home, "warship") == [home - 1]
    state.apply_action(tl.PLAY + _card(game, "time-beacon") * game.stride)
    state.apply_action(tl.PICK_ERA + home - 3)
    assert _destinations(state, home, "warship") == [home - 3, home - 1]


@pytest.fixture
def moving_game(games: dict[str, Game]) -> TimeLineGame:
    """Time Line with the other reading of "Control opponents unit this turn": the enemy unit is only moved."""
    return TimeLineGame(variant.vary(games["time-line"], [("rules.control_enemy_unit", "move_it")]))


def test_possession_moves_an_enemy_unit_by_its_own_move(moving_game: TimeLineGame) -> None:
    game = moving_game
    state = _travel(game, ["possession"])
    era = _e(game, "wwi")
    state.units[0][era][_t(game, "wizard")] = 1
    state.units[1][era][_t(game, "agent")] = 1  # Move 3
    state.apply_action(tl.PLAY + _card(game, "possession") * game.stride)
    state.apply_action(tl.PICK_ERA + era)
    state.apply_action(_stack(game, era, "agent"))
    choices = sorted(a - tl.PICK_ERA for a in state.legal_actions())
    assert choices == [e for e in range(len(game.rules.eras)) if 0 < abs(e - era) <= 3]
    state.apply_action(tl.PICK_ERA + era - 3)
    assert state.units[1][era - 3][_t(game, "agent")] == 1 and not any(state.units[1][era])
    assert state.taken == () and not state.units[0][era - 3][_t(game, "agent")]  # still its owner's unit


@pytest.mark.parametrize("value", ["this_turn", "move_it"])
def test_both_readings_of_control_enemy_unit_validate_and_build(tmp_path: Path, value: str) -> None:
    folder = tmp_path / "time-line"
    shutil.copytree(Path(__file__).resolve().parents[2] / "cards" / "time-line", folder)
    path = folder / "game.yaml"
    text = path.read_text()
    assert "{id: control_enemy_unit, value: this_turn," in text
    path.write_text(
        text.replace("{id: control_enemy_unit, value: this_turn,", f"{{id: control_enemy_unit, value: {value},")
    )
    assert main(["validate", str(folder), "-q"]) == 0
    assert TimeLineGame(load_game(folder)).rules.takes_over == (value == "this_turn")


def _take_over(game: TimeLineGame, units: str, unit: str, era: str, hand: str = "possession") -> TimeLineState:
    """Seat 0's turn at Time Travel, then the rest of the turn; seat 0 plays Possession on an enemy unit in era."""
    state = TimeLineState.at(game, units, hands=(hand, ""), steps=[ts.Travel(), ts.BeginChange()])
    state.apply_action(tl.PLAY + _card(game, "possession") * game.stride)
    state.apply_action(tl.PICK_ERA + _e(game, era))
    state.apply_action(_stack(game, _e(game, era), unit))
    return state


def _roll(state: TimeLineState, face: int) -> None:
    assert state.is_chance_node()
    state.apply_action(tl.DIE + face)


def test_possession_makes_an_enemy_unit_the_players_own_until_the_turn_ends(game: TimeLineGame) -> None:
    wwi, renaissance, agent = _e(game, "wwi"), _e(game, "renaissance"), _t(game, "agent")
    state = _take_over(game, "wizard@wwi | agent@wwi warship@far-future", "agent", "wwi")
    assert state.units[0][wwi][agent] == 1 and state.units[1][wwi][agent] == 0
    assert state.observation(1)["taken_over"] == [[wwi, "agent"]]
    # Time Travel: it travels by its own Move (3), as one of the player's units
    assert _destinations(state, wwi, "agent") == [e for e in range(len(game.rules.eras)) if 0 < abs(e - wwi) <= 3]
    state.apply_action(tl.MOVE + (wwi * game.n_types + agent) * game.n_eras + renaissance)
    assert state.taken == ((renaissance, agent),)
    state.apply_action(tl.END)
    # Change History: the player rolls in its Era, and an Agent adds its +1 for the player
    _roll(state, game.rules.success - 1)
    assert state.control[renaissance] == 0
    _roll(state, 1)  # the Wizard's roll in WWI fails
    # Recruit Troops: it does not help the player recruit in the Era it just took
    _roll(state, game.rules.success - 1)
    assert not any(state.units[0][renaissance][t] for t in game.period_types)
    _roll(state, 1)  # the faction recruit roll: a Wizard at home
    # Seek & Destroy: no enemy shares an Era; the turn ends and the Agent goes back where it stands
    assert state.player == 1 and state.taken == ()
    assert state.units[1][renaissance][agent] == 1 and state.units[0][renaissance][agent] == 0


def test_a_unit_taken_over_fights_for_the_player(game: TimeLineGame) -> None:
    wwi, team = _e(game, "wwi"), _t(game, "combat-team")
    state = _take_over(game, "wizard@wwi | agent@wwi combat-team@wwi", "combat-team", "wwi")
    state.apply_action(tl.END)
    _roll(state, 1)  # Change History in WWI: the Combat Team lets the player roll there; it fails
    _roll(state, 1)  # the faction recruit roll: a Wizard at home
    for _ in range(2):
        state.apply_action(tl.FIGHT)
    for _ in range(2):
        state.apply_action(tl.NO_CARD)
    # its Force counts for the player: Wizard 50 + Combat Team 150 against the Agent's 100
    assert state.force(0, wwi) == 200 and state.force(1, wwi) == 100
    _roll(state, game.rules.lose_max + 1)  # the advantaged side loses a unit: the player may give the Combat Team
    assert _stack(game, wwi, "combat-team") in state.legal_actions()
    supply = state.supply[team]
    state.apply_action(_stack(game, wwi, "combat-team"))
    assert state.taken == () and state.supply[team] == supply + 1
    state.apply_action(tl.STOP)
    state.apply_action(tl.STOP)
    # the turn ends: the destroyed Combat Team is its owner's loss, nothing goes back
    assert state.player == 1 and not any(row[team] for side in state.units for row in side)


def test_a_unit_taken_over_escapes_with_the_player_and_goes_back_where_it_fled(game: TimeLineGame) -> None:
    wwi, wwii, agent = _e(game, "wwi"), _e(game, "wwii"), _t(game, "agent")
    state = _take_over(game, "wizard@wwi | agent@wwi combat-team@wwi", "agent", "wwi")
    state.apply_action(tl.END)
    _roll(state, 1)  # Change History in WWI fails
    _roll(state, 1)  # the faction recruit roll: a Wizard at home
    state.apply_action(tl.AVOID)
    state.apply_action(tl.FIGHT)
    state.apply_action(tl.ESCAPE)
    _roll(state, game.rules.success)
    state.apply_action(tl.PICK_ERA + wwii)
    # it fled with the Wizard, not staying behind with its owner's Combat Team; the turn ends there
    assert state.player == 1 and state.taken == ()
    assert state.units[1][wwii][agent] == 1 and state.units[1][wwi][agent] == 0


def test_a_unit_taken_over_goes_back_when_time_is_reversed(game: TimeLineGame) -> None:
    wwi, agent = _e(game, "wwi"), _t(game, "agent")
    state = _take_over(game, "wizard@wwi | agent@wwi", "agent", "wwi", hand="possession reverse-time")
    state.snapshot = state._copy_position()  # TimeLineState.at starts mid-turn: the turn's start is taken here
    state.snapshot.units[0][wwi][agent], state.snapshot.units[1][wwi][agent], state.snapshot.taken = 0, 1, ()
    state.apply_action(tl.PLAY + _card(game, "reverse-time") * game.stride)
    assert state.taken == () and state.units[1][wwi][agent] == 1 and state.units[0][wwi][agent] == 0


def test_time_walk_gives_the_same_player_the_next_turn(game: TimeLineGame) -> None:
    state = _travel(game, ["time-walk"])
    state.units[0][0][_t(game, "wizard")] = 1
    state.apply_action(tl.PLAY + _card(game, "time-walk") * game.stride)
    assert state.extra_turn
    turns = state.turns
    state.apply_action(tl.END)
    while state.turns == turns:  # the rest of the turn: rolls and any choices
        state.apply_action(state.legal_actions()[0])
    assert state.player == 0 and not state.extra_turn


def test_speed_time_draws_five(game: TimeLineGame) -> None:
    state = _travel(game, ["speed-time"])
    state.units[0][0][_t(game, "wizard")] = 1
    state.apply_action(tl.PLAY + _card(game, "speed-time") * game.stride)
    for _ in range(5):
        assert state.is_chance_node()
        state.apply_action(state.legal_actions()[0])
    assert len(state.hands[0]) == 5 and not state.is_chance_node()


@pytest.mark.parametrize(("card", "source"), [("take-from-the-future", "pools"), ("take-from-the-past", "discards")])
def test_taking_a_chosen_card_from_the_deck_or_the_discard(game: TimeLineGame, card: str, source: str) -> None:
    state = _travel(game, [card])
    state.units[0][0][_t(game, "wizard")] = 1
    wanted = _card(game, "time-walk")
    if source == "discards":
        state.pools[0].remove(wanted)
        state.discards[0] = [wanted]
    state.apply_action(tl.PLAY + _card(game, card) * game.stride)
    assert tl.PICK_CARD + wanted in state.legal_actions()
    state.apply_action(tl.PICK_CARD + wanted)
    assert wanted in state.hands[0] and wanted not in getattr(state, source)[0]


def _meeting(game: TimeLineGame, hands: tuple[list[str], list[str]]) -> tuple[TimeLineState, int]:
    """Seat 0's Wizard meets a Teraxian Agent in the Middle Ages at the start of Seek & Destroy."""
    held = (" ".join(hands[0]), " ".join(hands[1]))
    state = TimeLineState.at(game, "wizard@middle-ages | agent@middle-ages", hands=held, steps=[ts.BeginSeek()])
    return state, _e(game, "middle-ages")


@pytest.mark.parametrize(("seeker", "hidden"), [([], True), (["temporal-locator"], False)])
def test_hiding_with_illusions_against_a_seekers_card(game: TimeLineGame, seeker: list[str], hidden: bool) -> None:
    """Illusions' +2 turns a roll of 3 into a hide; Temporal Locator's -2 takes it back and the fight follows."""
    state, era = _meeting(game, (["illusions"], seeker))
    state.apply_action(tl.AVOID)  # seat 0 would rather not fight
    state.apply_action(tl.FIGHT)
    state.apply_action(tl.HIDE)
    state.apply_action(tl.PLAY + _card(game, "illusions") * game.stride)
    if seeker:
        state.apply_action(tl.PLAY + _card(game, seeker[0]) * game.stride)
    assert state.is_chance_node()
    state.apply_action(tl.DIE + game.rules.success - 1)
    fighting = any(s.kind in ("force_card", "auto_round") for s in state.steps)
    assert fighting is not hidden
    assert any(state.units[0][era]) and any(state.units[1][era])  # hidden or not, nobody has fallen yet


def test_escape_between_combat_rolls_takes_the_penalty_and_leaves_period_troops(game: TimeLineGame) -> None:
    state, era = _meeting(game, ([], []))
    period = next(t for t in game.rules.types if t.era == _e(game, "prehistory"))
    state.units[0][era][_t(game, period.id)] = 1
    state.units[1][era][_t(game, "warship")] = 1
    state.apply_action(tl.FIGHT)
    state.apply_action(tl.FIGHT)
    state.apply_action(tl.NO_CARD)
    state.apply_action(tl.NO_CARD)
    state.apply_action(tl.DIE + 1)  # seat 1 (Force 300) has the advantage: seat 0 loses a unit
    state.apply_action(_stack(game, era, period.id))  # seat 0 gives up its period troop
    state.apply_action(tl.ESCAPE)
    state.apply_action(tl.CONTINUE)
    roll = state.steps[0]
    assert state.is_chance_node() and isinstance(roll, ts.Roll) and roll.penalty == game.rules.escape_penalty
    state.apply_action(tl.DIE + game.rules.success)  # 4 - 1 = 3: the escape fails, another combat roll
    roll = state.steps[0]
    assert isinstance(roll, ts.Roll) and roll.then == "combat"
    state.apply_action(tl.DIE + 6)  # now the advantaged side loses: one of seat 1's units
    state.apply_action(_stack(game, era, "agent"))
    state.apply_action(tl.ESCAPE)
    state.apply_action(tl.CONTINUE)
    state.apply_action(tl.DIE + game.rules.success + game.rules.escape_penalty)
    state.apply_action(tl.PICK_ERA + era + 1)
    assert state.units[0][era + 1][_t(game, "wizard")] == 1 and not any(state.units[0][era])


def test_when_both_sides_try_to_escape_after_a_combat_roll_each_rolls_in_turn(game: TimeLineGame) -> None:
    """#36: after a combat roll either side may try to escape (seed); when both do, the active player rolls
    first and, its escape failing, the other rolls too, where only seat 0 used to roll."""
    state, era = _meeting(game, ([], []))
    state.units[1][era][_t(game, "warship")] = 1
    state.apply_action(tl.FIGHT)
    state.apply_action(tl.FIGHT)
    state.apply_action(tl.NO_CARD)
    state.apply_action(tl.NO_CARD)
    state.apply_action(tl.DIE + 6)  # seat 1 (Force 300) has the advantage: on a 6 it loses a unit
    state.apply_action(_stack(game, era, "agent"))
    state.apply_action(tl.ESCAPE)  # seat 0, the active player
    state.apply_action(tl.ESCAPE)  # seat 1
    first = state.steps[0]
    assert state.is_chance_node() and isinstance(first, ts.Roll) and first.then == "avoid" and first.side == 0
    state.apply_action(tl.DIE + 1)  # seat 0's escape fails
    second = state.steps[0]
    assert state.is_chance_node() and isinstance(second, ts.Roll) and second.then == "avoid" and second.side == 1
    state.apply_action(tl.DIE + game.rules.success + game.rules.escape_penalty)  # seat 1's succeeds
    state.apply_action(state.legal_actions()[0])
    assert not any(state.units[1][era]) and any(state.units[0][era])


def test_a_draw_card_cannot_draw_itself_back(game: TimeLineGame) -> None:
    """Mid-turn draws from an empty deck find nothing: only Random Factors turns the discard into a deck."""
    state = _travel(game, ["speed-time"])
    state.units[0][0][_t(game, "wizard")] = 1
    state.discards[0], state.pools[0] = state.pools[0], []
    state.apply_action(tl.PLAY + _card(game, "speed-time") * game.stride)
    assert not state.is_chance_node() and state.hands[0] == []
    assert _card(game, "speed-time") in state.discards[0]
    state.run_steps([ts.Draw(0, reshuffle=True)])  # the next turn's Random Factors
    assert state.is_chance_node() and state.discards[0] == [] and len(state.pools[0]) == 39


def test_take_from_the_past_cannot_take_itself(game: TimeLineGame) -> None:
    state = _travel(game, ["take-from-the-past"])
    state.units[0][0][_t(game, "wizard")] = 1
    walk = _card(game, "time-walk")
    state.pools[0].remove(walk)
    state.discards[0] = [walk]
    state.apply_action(tl.PLAY + _card(game, "take-from-the-past") * game.stride)
    assert state.legal_actions() == [tl.PICK_CARD + walk]


def test_a_card_of_five_effects_plays_its_fifth(tmp_path: Path) -> None:
    # the effect a play names is sized by the data: the fifth effect of a card is not the next card's first
    folder = tmp_path / "time-line"
    shutil.copytree(Path(__file__).resolve().parents[2] / "cards" / "time-line", folder)
    cards = folder / "atlantean.yaml"
    five = "effects: [" + "{kind: banish}, " * 4 + "{kind: summon, amount: 1}]}"
    cards.write_text(cards.read_text().replace("effects: [{kind: summon, amount: 1}]}", five, 1))
    game = TimeLineGame(load_game(folder))
    assert game.stride == 5
    state = _travel(game, ["summon"])
    era = _e(game, "roman-empire")
    state.units[0][era][_t(game, "wizard")] = 1
    summon = tl.PLAY + _card(game, "summon") * game.stride + 4
    assert summon in state.legal_actions()
    assert "Summon" in state.action_to_string(summon)
    state.apply_action(summon)
    state.apply_action(tl.PICK_ERA + era)
    state.apply_action(tl.PICK_STACK + era * len(game.rules.types) + _t(game, "monster"))
    assert state.units[0][era][_t(game, "monster")] == 1 and _card(game, "summon") not in state.hands[0]


def _rolling(game: TimeLineGame, roll: ts.Roll, holder: int) -> TimeLineState:
    """Seat 0 about to make a roll, seat `holder` holding Probability Shift."""
    state = _empty(game)
    shift = _card(game, "probability-shift")
    state.hands = [[], []]
    state.hands[holder] = [shift]
    state.pools = [[c for c in pool if c != shift] for pool in state.pools]
    state.run_steps([roll])
    return state


@pytest.mark.parametrize("holder", [0, 1])
def test_probability_shift_moves_any_roll_either_way_for_either_player(game: TimeLineGame, holder: int) -> None:
    era = _e(game, "renaissance")
    shift = _card(game, "probability-shift")
    state = _rolling(game, ts.Roll("change", era), holder)
    state.units[0][era][_t(game, "wizard")] = 1
    assert state.current_player() == holder  # offered before the roll, to whoever holds it
    up, down = tl.PLAY + shift * game.stride, tl.LOWER + shift * game.stride
    assert set(state.legal_actions()) == {up, down, tl.NO_CARD}
    assert state.action_to_string(down).endswith("(the roll -2)")
    state.apply_action(down if holder == 1 else up)
    assert state.is_chance_node() and shift in state.discards[holder]
    state.apply_action(tl.DIE + game.rules.success + (1 if holder == 1 else -2))
    # the opponent's -2 turns a success into a failure; the roller's own +2 turns a failure into one
    assert state.control[era] == (-1 if holder == 1 else 0)


@pytest.mark.parametrize("then", ["combat", "period", "faction"])
def test_probability_shift_is_offered_on_combat_and_recruit_rolls(game: TimeLineGame, then: str) -> None:
    era = _e(game, "wwii")
    period = next(i for i, t in enumerate(game.rules.types) if t.era == era)
    state = _rolling(game, ts.Roll(then, era, t=period), 1)
    assert state.current_player() == 1 and tl.NO_CARD in state.legal_actions()
    state.apply_action(tl.LOWER + _card(game, "probability-shift") * game.stride)
    state.apply_action(tl.DIE + 1)  # 1 - 2: below the die, and still a roll the rules can read


def test_travel_cards_are_offered_exactly_where_they_have_a_target(game: TimeLineGame) -> None:
    """The quick look that offers travel cards agrees with the Eras a card's play then lists, and what one move
    carries on to the next agrees with the offer worked out afresh, all through real games."""
    import random

    checked = 0
    for seed in range(2):
        state, rng, agent = game.new_initial_state(), random.Random(seed), RandomAgent()
        moves = [random.Random(seed * 7919 + 17 * (seat + 1)) for seat in (0, 1)]  # as the runner seeds its agents
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
                continue
            if state.steps and isinstance(state.steps[0], ts.Travel):
                p = state.player
                assert state.legal_actions() == state.clone()._legal_travel(ts.Travel())
                for card in set(state.hands[p]) if state.turns < 60 else ():
                    c = game.rules.cards[card]
                    for _, kind in c.travel:
                        found = tl._Board(state, p).usable(c, kind)
                        assert found == bool(state._card_targets(p, c, kind)), (c.id, kind)
                        checked += 1
            state.apply_action(agent.act(state, moves[state.current_player()]))
    assert checked > 1000


def test_a_position_is_set_up_from_its_description(game: TimeLineGame) -> None:
    state = TimeLineState.at(
        game, "2*warriors@wwi wizard@wwi | agent@middle-ages", hands=("summon", ""), steps=[ts.Travel()]
    )
    wwi, warriors = _e(game, "wwi"), _t(game, "warriors")
    assert state.units[0][wwi][warriors] == 2 and state.units[1][_e(game, "middle-ages")][_t(game, "agent")] == 1
    assert sum(map(sum, state.units[0])) == 3 and state.supply[warriors] == 20 - 2
    assert state.hands[0] == [_card(game, "summon")] and _card(game, "summon") not in state.pools[0]
    assert state.current_player() == 0 and tl.PLAY + _card(game, "summon") * game.stride in state.legal_actions()
    with pytest.raises(ValueError, match="expected"):
        TimeLineState.at(game, "dragon@wwi | ")


def test_random_play_in_one_method_plays_the_games_a_step_at_a_time_plays(
    game: TimeLineGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    for seed in range(6):
        assert outcome(game, RandomAgent, seed) == outcome(game, StepRandom, seed)
    # stopped short: before the first roll, at it, and in the first turns (a draw, a travel, a fight)
    for limit in (0, 1, 2, 3, 10, 57, 200, 601):
        monkeypatch.setattr(game, "max_actions", limit)
        for seed in range(4):
            assert outcome(game, RandomAgent, seed) == outcome(game, StepRandom, seed)
