"""Soldier Battler's rules from ../shared/games/soldier-battler.md: deployment, reach, advantage, the end."""

from __future__ import annotations

import pytest

from engine import registry
from engine.agents import GreedyAgent, RandomAgent
from engine.games import soldier_battler as sb
from engine.games.soldier_battler import SoldierBattlerGame, SoldierBattlerState
from engine.runner import play
from printkit.data import variant
from printkit.data.game import Game


@pytest.fixture
def game(engines: dict[str, object]) -> SoldierBattlerGame:
    g = engines["soldier-battler"]
    assert isinstance(g, SoldierBattlerGame)
    return g


@pytest.fixture(scope="module")
def idle_game(games: dict[str, Game]) -> SoldierBattlerGame:
    """The game under the earlier stalemate rule, kept as an option: two idle turns end it."""
    g = registry.build(variant.vary(games["soldier-battler"], [("rules.stalemate", "idle_turns")]))
    assert isinstance(g, SoldierBattlerGame)
    return g


def _type(game: SoldierBattlerGame, card: str) -> int:
    return game.rules.types.index(card)


def test_values_come_from_the_data(game: SoldierBattlerGame, games: dict[str, Game]) -> None:
    r = game.rules
    assert dict(zip(r.types, r.hp, strict=True)) == {"swordsman": 80, "axeman": 100, "spearman": 80, "crossbowman": 40}
    assert (r.damage, r.advantage, r.rows, r.cols, r.turn_cap) == (20, 40, 3, 3, 60)
    assert r.copies == (2, 2, 2, 2)


@pytest.mark.parametrize(
    ("attacker", "target", "damage"),
    [
        ("swordsman", "axeman", 40),
        ("axeman", "spearman", 40),
        ("spearman", "swordsman", 40),
        ("axeman", "swordsman", 20),
        ("swordsman", "swordsman", 20),
        ("crossbowman", "axeman", 20),
        ("swordsman", "crossbowman", 20),
        ("crossbowman", "crossbowman", 20),
    ],
)
def test_advantage_cycle_and_crossbows(game: SoldierBattlerGame, attacker: str, target: str, damage: int) -> None:
    state = game.new_initial_state()
    assert state.damage(_type(game, attacker), _type(game, target)) == damage


def test_deploy_only_on_your_own_row_and_act_at_once(game: SoldierBattlerGame) -> None:
    alone = SoldierBattlerState.position(game, [["axeman"], ["swordsman"]])
    legal = alone.legal_actions()
    assert sorted(a for a in legal if a != sb.NO_PLAY) == [_type(game, "axeman") * 3 + c for c in range(3)]
    state = SoldierBattlerState.position(game, [["axeman"], ["swordsman"]], [(1, "spearman", 2, 1)])
    state.apply_action(_type(game, "axeman") * 3 + 1)  # deployed in row 0, column 2
    attack = sb.ATTACK + 1 * 9 + (2 * 3 + 1)
    assert attack in state.legal_actions()  # it may act this very turn
    state.apply_action(attack)
    assert state.owner(7) == 1 and state.hp[7] == 80 - 40  # axe beats spear


def test_melee_reaches_the_nearest_enemy_in_its_column_only(game: SoldierBattlerGame) -> None:
    units = [(0, "swordsman", 0, 0), (1, "axeman", 1, 0), (1, "axeman", 2, 0), (1, "spearman", 2, 1)]
    state = SoldierBattlerState.position(game, units=units, phase="act")
    me, near = 0, 3
    targets = [a - sb.ATTACK - me * 9 for a in state.legal_actions() if sb.ATTACK <= a < sb.END_TURN]
    assert targets == [near]


def test_crossbow_reaches_any_enemy(game: SoldierBattlerGame) -> None:
    foes = [(2, 0), (1, 1), (2, 2)]
    units = [(0, "crossbowman", 0, 2)] + [(1, "axeman", r, c) for r, c in foes]
    state = SoldierBattlerState.position(game, units=units, phase="act")
    me, foes_at = 2, sorted(r * 3 + c for r, c in foes)
    targets = sorted(a - sb.ATTACK - me * 9 for a in state.legal_actions() if sb.ATTACK <= a < sb.END_TURN)
    assert targets == foes_at


def test_moves_go_to_adjacent_empty_spaces(game: SoldierBattlerGame) -> None:
    state = SoldierBattlerState.position(game, units=[(0, "axeman", 1, 1), (1, "spearman", 2, 1)], phase="act")
    me = 4
    moves = sorted(a - sb.MOVE - me * 9 for a in state.legal_actions() if sb.MOVE <= a < sb.ATTACK)
    assert moves == [1, 3, 5]  # up, left, right; the space below is taken, no diagonals


def test_a_side_with_nothing_left_loses(game: SoldierBattlerGame) -> None:
    units = [(0, "axeman", 0, 0), (1, "spearman", 1, 0, 40)]
    state = SoldierBattlerState.position(game, units=units, decks=((), ()), phase="act")
    foe = 3
    state.apply_action(sb.ATTACK + 0 * 9 + foe)
    assert state.is_terminal() and state.returns() == [1.0, -1.0]


def test_two_idle_turns_end_the_game_on_hit_points(idle_game: SoldierBattlerGame) -> None:
    game = idle_game
    units = [(0, "axeman", 0, 0), (1, "crossbowman", 2, 2)]
    state = SoldierBattlerState.position(game, [["axeman"], ["spearman"]], units, decks=((), ()), phase="act")
    state.apply_action(sb.END_TURN)
    state.apply_action(sb.NO_PLAY)
    state.apply_action(sb.END_TURN)
    assert state.is_terminal() and state.tally.end == "stalemate" and state.returns() == [1.0, -1.0]


def test_turns_of_moving_without_attacking_are_idle_too(idle_game: SoldierBattlerGame) -> None:
    game = idle_game
    # both armies out of cards, each only stepping about: the data's stalemate, no attack in two turns
    units = [(0, "axeman", 0, 0), (1, "spearman", 2, 2)]
    state = SoldierBattlerState.position(game, units=units, decks=((), ()), phase="act")
    mine, theirs = 0, 8
    state.apply_action(sb.MOVE + mine * 9 + mine + 1)
    state.apply_action(sb.END_TURN)
    assert not state.is_terminal()
    state.apply_action(sb.NO_PLAY)
    state.apply_action(sb.MOVE + theirs * 9 + theirs - 1)
    state.apply_action(sb.END_TURN)
    assert state.is_terminal() and state.tally.end == "stalemate"
    assert state.returns() == [1.0, -1.0]  # axeman 100 HP against spearman 80


def test_a_deployed_soldier_or_an_attack_keeps_the_game_going(idle_game: SoldierBattlerGame) -> None:
    game = idle_game
    units = [(0, "axeman", 0, 0), (1, "crossbowman", 2, 2)]
    state = SoldierBattlerState.position(game, [["swordsman"], ["spearman"]], units, decks=((), ()), phase="act")
    state.apply_action(sb.END_TURN)  # idle
    state.apply_action(_type(game, "spearman") * 3 + 1)  # seat 1 deploys in column 1
    state.apply_action(sb.END_TURN)
    assert not state.is_terminal()


def test_the_turn_cap_ends_the_game(game: SoldierBattlerGame) -> None:
    units = [(0, "axeman", 0, 0), (1, "axeman", 2, 2)]
    state = SoldierBattlerState.position(game, units=units, phase="act", turns=game.rules.turn_cap - 1, busy=True)
    state.apply_action(sb.END_TURN)
    assert state.is_terminal() and state.tally.end == "cap" and state.returns() == [0.0, 0.0]


def test_a_position_is_described_in_card_ids(game: SoldierBattlerGame) -> None:
    state = SoldierBattlerState.position(game, [["axeman", "axeman"], []], [(1, "crossbowman", 2, 0, 20)])
    assert state.decks[0][_type(game, "axeman")] == 0 and state.decks[1] == list(game.rules.copies)
    assert state.observation(1)["board"][6] == {"seat": 1, "soldier": "crossbowman", "hp": 20}
    with pytest.raises(ValueError, match="more of a Soldier"):
        SoldierBattlerState.position(game, [["axeman"] * 3, []])
    with pytest.raises(ValueError, match="not an empty space"):
        SoldierBattlerState.position(game, units=[(0, "axeman", 0, 0), (1, "axeman", 0, 0)])


def test_a_ranged_soldier_reaches_past_the_nearest_and_melee_does_not(game: SoldierBattlerGame) -> None:
    """The same position read twice agrees: a table read, not one being filled, answers the second time."""
    units = [(0, "crossbowman", 0, 0), (0, "spearman", 0, 1), (1, "axeman", 1, 1), (1, "axeman", 2, 1)]
    for _ in range(2):
        state = SoldierBattlerState.position(game, units=units, phase="act")
        attacks = [divmod(a - sb.ATTACK, 9) for a in state.legal_actions() if sb.ATTACK <= a < sb.END_TURN]
        assert attacks == [(0, 4), (0, 7), (1, 4)]


def test_tables_filled_at_build_hold_what_each_pattern_works_out_to(game: SoldierBattlerGame) -> None:
    """Filling pairs each pattern's steps with its attacks: every pairing agrees with a pattern worked out whole."""
    tables = {id(table): table for seat in game.options for kind in seat for table in kind}.values()
    for table in tables:
        assert len(table) == 1 << table.mask.bit_count()  # every pattern, none left for the games to fill
        unfilled = sb.Options(table.spaces, table.steps, table.targets)
        assert all(unfilled[pattern] == options for pattern, options in table.items())


def test_tables_past_their_limit_play_the_same_games(games: dict[str, Game], monkeypatch: pytest.MonkeyPatch) -> None:
    """A table that stops keeping patterns works each one out afresh: the same moves, the same games."""
    from engine import registry
    from engine.agents import RandomAgent
    from engine.runner import play

    kept = registry.build(games["soldier-battler"])
    monkeypatch.setattr(sb, "TABLE_LIMIT", 0)
    unkept = registry.build(games["soldier-battler"])
    for seed in range(20):
        agents = [RandomAgent(), RandomAgent()]
        assert play(kept, agents, seed).actions == play(unkept, agents, seed).actions
    assert isinstance(unkept, SoldierBattlerGame) and not unkept.spaces_of and not unkept.deploys


def test_the_types_in_hand_and_the_cards_follow_hands_and_decks_through_play_clones_and_resamples(
    game: SoldierBattlerGame,
) -> None:
    """kinds and cards, kept beside the hands and decks for speed, say what those hold at every step."""
    import random

    rng = random.Random(7)
    for _ in range(5):
        state = game.new_initial_state()
        while not state.is_terminal():
            for seen in (state, state.clone(), state.resample(state.player, rng)):
                assert seen.kinds == [seen.kinds_of(hand) for hand in seen.hands]
                assert seen.cards == [sb.cards_of(deck) for deck in seen.decks]
            state.apply_action(rng.choice(state.legal_actions()))


def _attacks_at_the_end(game: SoldierBattlerGame, actions: list[int]) -> list[str]:
    """Where an attack was legal in a stalemate's last turn, or for either army on the final battlefield."""
    state = game.new_initial_state()
    last_turn = max(n for n, a in enumerate(actions[:-1]) if a == sb.END_TURN) if sb.END_TURN in actions[:-1] else 0
    found = []
    for n, action in enumerate(actions):
        if (
            n > last_turn
            and not state.is_chance_node()
            and any(a >= sb.ATTACK and a < sb.END_TURN for a in state.legal_actions())
        ):
            found.append(f"move {n}: seat {state.current_player()} could attack")
        state.apply_action(action)
    assert state.is_terminal()
    r = game.rules
    units = [
        (s, r.types[state.soldier[i]], i // r.cols, i % r.cols, state.hp[i]) for s in (0, 1) for i in state._on_board(s)
    ]
    for seat in (0, 1):  # each army as if it were to act, every Soldier ready
        final = SoldierBattlerState.position(game, units=units, decks=((), ()), player=seat, phase="act")
        if any(sb.ATTACK <= a < sb.END_TURN for a in final.legal_actions()):
            found.append(f"the end: seat {seat} could attack")
    return found


def test_no_stalemate_ends_a_game_in_which_an_army_could_still_attack(game: SoldierBattlerGame) -> None:
    """#36: the default stalemate rule ends only dead games: replaying every stalemate of random and greedy
    games, no attack was legal in its last turn nor is for either army on the battlefield it left."""
    records = [play(game, [RandomAgent(), RandomAgent()], seed) for seed in range(150)]
    records += [play(game, [GreedyAgent(), RandomAgent()], seed) for seed in range(20)]
    stalemates = [rec for rec in records if rec.end == "stalemate"]
    live = {rec.seed: found for rec in stalemates if (found := _attacks_at_the_end(game, rec.actions))}
    assert not live


def test_idle_turns_with_an_attack_in_reach_do_not_end_the_game(game: SoldierBattlerGame) -> None:
    """The default rule: Red's axeman could attack the crossbowman anywhere; idle turns alone end nothing."""
    units = [(0, "axeman", 0, 0), (1, "crossbowman", 2, 2)]
    state = SoldierBattlerState.position(game, units=units, decks=((), ()), phase="act")
    for _ in range(4):
        state.apply_action(sb.END_TURN)
        state.apply_action(sb.NO_PLAY)
    assert not state.is_terminal() and state.idle == 4


def test_a_battlefield_no_steps_can_bring_to_a_fight_ends_in_stalemate(game: SoldierBattlerGame) -> None:
    """Full columns of one army each, no crossbow, no cards: nothing can ever change, so the game ends on HP."""
    red = [(0, kind, row, col) for col, kind in ((0, "axeman"), (1, "swordsman")) for row in range(3)]
    blue = [(1, "spearman", row, 2) for row in range(3)]
    state = SoldierBattlerState.position(game, units=red + blue, decks=((), ()), phase="act")
    assert not state.progress_possible()
    state.apply_action(sb.END_TURN)
    assert state.is_terminal() and state.tally.end == "stalemate" and state.returns() == [1.0, -1.0]


def test_a_fight_a_few_steps_away_keeps_the_game_going(game: SoldierBattlerGame) -> None:
    """Red's column is full but Blue's spearmen may step across: progress is a few steps away."""
    red = [(0, "axeman", row, 0) for row in range(3)]
    blue = [(1, "spearman", 0, 2), (1, "spearman", 2, 2)]
    state = SoldierBattlerState.position(game, units=red + blue, decks=((), ()), phase="act")
    assert state.progress_possible()
    state.apply_action(sb.END_TURN)
    assert not state.is_terminal()
