"""Time Line Battle v2: hand-built Days checked against the digest's rules, one ability at a time."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

from engine.games import time_line_battle as tlb
from engine.games.time_line_battle import TimeLineBattleGame, TimeLineBattleState

Chooser = Callable[[TimeLineBattleState, list[int]], int]


@pytest.fixture
def game(engines: dict[str, object]) -> TimeLineBattleGame:
    g = engines["time-line-battle"]
    assert isinstance(g, TimeLineBattleGame)
    return g


def _first(state: TimeLineBattleState, legal: list[int]) -> int:
    return legal[-1] if legal[-1] in (tlb.NO_REVIVE, tlb.NO_SACRIFICE, tlb.NO_ENCHANT, tlb.STOP) else legal[0]


def _token(name: str, deployed: dict[str, int], survived: dict[str, int], dead: bool) -> str:
    return f"{name}@{deployed.get(name, 1)}+{survived.get(name, 0)}{'!' if dead else ''}"


def run_day(
    game: TimeLineBattleGame,
    mine: list[str],
    theirs: list[str],
    *,
    day: int = 1,
    deployed: dict[str, int] | None = None,
    survived: dict[str, int] | None = None,
    dead: tuple[list[str], list[str]] = ([], []),
    choose: Chooser = _first,
) -> dict[str, Any]:
    """Play one Day with these Characters in play (seat 0: mine, Start Player) and report what happened.

    The game is cut to this one Day (its last Timeline, ending on this Day), so what the Day did stays in view.
    """
    one_day = copy.copy(game)
    one_day.rules = dataclasses.replace(game.rules, min_days=day, day_cap=day)
    deployed, survived = deployed or {}, survived or {}
    position = " | ".join(
        " ".join(
            [_token(n, deployed, survived, False) for n in names] + [_token(n, deployed, survived, True) for n in gone]
        )
        for names, gone in ((mine, dead[0]), (theirs, dead[1]))
    )
    state = TimeLineBattleState.at_day(one_day, position, day=day, timeline=game.rules.timelines)
    while not state.is_terminal():
        state.apply_action(choose(state, state.legal_actions()))
    names = [c.id for c in game.rules.chars]
    return {
        "dead": [sorted(names[c] for c in s.dead) for s in state.sides],
        "damage": [{names[c]: d for c, d in state.today.damage[p].items()} for p in (0, 1)],
        "in_play": [sorted(names[c] for c in s.in_play) for s in state.sides],
    }


def test_overkill_trickles_rearward(game: TimeLineBattleGame) -> None:
    out = run_day(game, ["warrior"], ["reaper", "rogue"])
    assert out["dead"] == [["warrior"], ["reaper"]]  # the Reaper, killed, still struck the Warrior for 8
    assert out["damage"][1]["rogue"] == 5 - 3  # 2 past the Reaper's 3 Health


def test_overkill_from_the_rear_trickles_forward(game: TimeLineBattleGame) -> None:
    out = run_day(game, ["rogue"], ["guard", "reaper"])
    assert out["dead"][1] == ["reaper"] and out["damage"][1]["guard"] == 7 - 3  # the 4 past the Reaper's Health


def test_deflector_sends_damage_to_the_front(game: TimeLineBattleGame) -> None:
    out = run_day(game, ["rogue"], ["guard", "deflector"])
    assert out["damage"][1].get("deflector", 0) == 0 and out["damage"][1]["guard"] == 7


def test_paladin_and_shielder_share_their_reductions(game: TimeLineBattleGame) -> None:
    def reduce_paladin(state: TimeLineBattleState, legal: list[int]) -> int:
        paladin = tlb.REDUCE + 1
        return paladin if paladin in legal else _first(state, legal)

    out = run_day(game, ["paladin", "shielder"], ["reaper"], choose=reduce_paladin)
    assert out["in_play"][0] == ["paladin", "shielder"]
    assert out["damage"][0]["paladin"] == 8 - 2 - 5 and out["dead"][1] == ["reaper"]


def test_protector_cuts_every_ally_but_itself(game: TimeLineBattleGame) -> None:
    out = run_day(game, ["guard", "protector"], ["warrior", "blaster"])
    assert out["damage"][0]["guard"] == 5 + 2 - 2 and out["damage"][0]["protector"] == 2


def test_enchanter_doubles_its_ally(game: TimeLineBattleGame) -> None:
    def enchant_warrior(state: TimeLineBattleState, legal: list[int]) -> int:
        return tlb.ENCHANT + 4 if tlb.ENCHANT + 4 in legal else _first(state, legal)

    assert (
        run_day(game, ["warrior", "enchanter"], ["rear-guard"], choose=enchant_warrior)["damage"][1]["rear-guard"] == 10
    )
    plain = run_day(game, ["warrior", "enchanter"], ["rear-guard"], choose=lambda s, legal: legal[-1])
    assert plain["damage"][1]["rear-guard"] == 5


def test_shocker_locks_the_enemy_front(game: TimeLineBattleGame) -> None:
    out = run_day(game, ["shocker"], ["reaper"])
    assert out["damage"][0] == {} and out["dead"] == [[], ["reaper"]]


def test_of_two_front_shockers_only_the_start_players_acts(game: TimeLineBattleGame) -> None:
    """#36: Phase 3 resolves in turn from the Start Player (seat 0 here): its Shocker locks the enemy's Front
    Shocker first, so that one may do nothing, neither lock nor strike; they did not lock each other."""
    out = run_day(game, ["shocker"], ["shocker"])
    assert out["damage"][1] == {"shocker": 3} and out["damage"][0] == {}


def test_necromancer_counts_the_dead_of_both_sides(game: TimeLineBattleGame) -> None:
    out = run_day(game, ["necromancer"], ["rear-guard"], dead=(["guard"], ["reaper", "rogue"]))
    assert out["damage"][1]["rear-guard"] == 3


def test_reviver_brings_back_an_ally_that_survived_a_day(game: TimeLineBattleGame) -> None:
    out = run_day(
        game,
        ["reviver"],
        ["rear-guard"],
        day=2,
        deployed={"reviver": 1},
        dead=(["guard", "warrior"], []),
        survived={"guard": 1, "warrior": 0, "reviver": 1},
        choose=lambda s, legal: legal[0],
    )
    assert "guard" in out["in_play"][0] and out["dead"][0] == ["warrior"]


def test_a_reviver_acts_once_it_has_survived_a_day_itself(game: TimeLineBattleGame) -> None:
    assert game.rules.reviver_must_survive  # the data's reading of the seed
    setting = {"deployed": {"reviver": 1}, "dead": (["guard"], []), "choose": lambda s, legal: legal[0]}
    fresh = run_day(game, ["reviver"], ["rear-guard"], day=2, survived={"guard": 1, "reviver": 0}, **setting)
    assert "guard" not in fresh["in_play"][0]  # the Reviver has not survived a Day: nobody comes back
    # a Reviver that has may bring back an ally that never survived one
    seasoned = run_day(game, ["reviver"], ["rear-guard"], day=2, survived={"guard": 0, "reviver": 1}, **setting)
    assert "guard" in seasoned["in_play"][0]


def test_the_other_reading_of_the_reviver_is_a_rule_option(game: TimeLineBattleGame) -> None:
    other = copy.copy(game)
    other.rules = dataclasses.replace(game.rules, reviver_must_survive=False)
    setting = {"deployed": {"reviver": 1}, "dead": (["guard"], []), "choose": lambda s, legal: legal[0]}
    fresh = run_day(other, ["reviver"], ["rear-guard"], day=2, survived={"guard": 1, "reviver": 0}, **setting)
    assert "guard" in fresh["in_play"][0]  # the ally had survived a Day: the Reviver's own Days do not matter
    never = run_day(other, ["reviver"], ["rear-guard"], day=2, survived={"guard": 0, "reviver": 1}, **setting)
    assert "guard" not in never["in_play"][0]


def test_deathmonger_sacrifice_still_lets_the_victim_act(game: TimeLineBattleGame) -> None:
    def sacrifice_reaper(state: TimeLineBattleState, legal: list[int]) -> int:
        return tlb.SACRIFICE + 5 if tlb.SACRIFICE + 5 in legal else _first(state, legal)

    out = run_day(game, ["reaper", "deathmonger"], ["rear-guard"], choose=sacrifice_reaper)
    assert out["dead"] == [["reaper"], ["rear-guard"]]  # 11 + the sacrificed Reaper's 8 on its last Day


def test_blitzer_strikes_only_on_its_own_day(game: TimeLineBattleGame) -> None:
    on = run_day(game, ["blitzer"], ["rear-guard"], day=2, deployed={"blitzer": 2, "rear-guard": 1})
    off = run_day(
        game, ["blitzer"], ["rear-guard"], day=2, deployed={"blitzer": 1, "rear-guard": 1}, survived={"blitzer": 1}
    )
    assert on["damage"][1]["rear-guard"] == 10 and off["damage"][1].get("rear-guard", 0) == 0


def test_surger_waits_out_its_first_day(game: TimeLineBattleGame) -> None:
    first = run_day(game, ["surger"], ["guard", "rear-guard"])
    later = run_day(game, ["surger"], ["guard", "rear-guard"], day=2, survived={"surger": 1})
    assert first["damage"][1] == {}
    assert later["damage"][1] == {"guard": 3, "rear-guard": 3}


def test_prince_scores_double_and_ties_break_on_survivors(game: TimeLineBattleGame) -> None:
    one_day = copy.copy(game)
    one_day.rules = dataclasses.replace(game.rules, min_days=1, day_cap=1)
    # the Prince alone against a Shielder and a Protector, who deal no damage; its 3 kill neither
    state = TimeLineBattleState.at_day(one_day, "prince | shielder protector", timeline=game.rules.timelines)
    while not state.is_terminal():  # the Shielder may take some of the Prince's 3 off: the Day, then the game, ends
        state.apply_action(_first(state, state.legal_actions()))
    assert [s.vp for s in state.sides] == [2, 2] and state.winner == 1  # equal VP: more survivors wins


def test_a_position_is_set_up_from_its_description(game: TimeLineBattleGame) -> None:
    state = TimeLineBattleState.at_day(game, "reviver@1+1 guard+1! | rear-guard@2 archer", day=2)
    names = [c.id for c in game.rules.chars]
    # the Rear Guard, deployed into this Day, arrives once the start of the Day's revivals are done
    assert [[names[c] for c in s.in_play] for s in state.sides] == [["reviver"], ["archer"]]
    assert [names[c] for c in state.sides[0].dead] == ["guard"]
    assert state.day == 2 and state.current_player() == 0  # the Reviver's choice comes first
    assert state.legal_actions() == [tlb.REVIVE + names.index("guard"), tlb.NO_REVIVE]
    state.apply_action(tlb.NO_REVIVE)
    assert [names[c] for c in state.sides[1].in_play] == ["archer", "rear-guard"]
    with pytest.raises(ValueError, match="no Character 'nobody'"):
        TimeLineBattleState.at_day(game, "nobody | guard")
