"""Torah Timeline: each Tanach card, challenges, income and the hand limit, as the digest gives them."""

from __future__ import annotations

import dataclasses
import math
import random

import pytest
from stepwise import StepRandom, outcome

from engine.agents import RandomAgent
from engine.games import torah_timeline as tt
from engine.games.torah_timeline import TorahTimelineGame, TorahTimelineState


@pytest.fixture
def game(engines: dict[str, object]) -> TorahTimelineGame:
    g = engines["torah-timeline"]
    assert isinstance(g, TorahTimelineGame)
    return g


def _state(
    game: TorahTimelineGame,
    hand: list[str],
    *,
    tokens: tuple[int, int] = (0, 0),
    study: tuple[list[str], list[str]] = ([], []),
    left: int = 2,
    timeline: tuple[str, ...] = (),
    discard: tuple[str, ...] = (),
) -> TorahTimelineState:
    return TorahTimelineState.position(
        game, [hand, []], study=study, tokens=tokens, left=left, timelines=[timeline, ()], discard=discard
    )


def _play(state: TorahTimelineState, card: str) -> None:
    state.apply_action(tt.TANACH + state.g.rules.ids.index(card))


def _can(state: TorahTimelineState, card: str) -> bool:
    return tt.TANACH + state.g.rules.ids.index(card) in state.legal_actions()


def test_avraham_gives_actions(game: TorahTimelineGame) -> None:
    state = _state(game, ["avraham-avinu"])
    _play(state, "avraham-avinu")
    assert state.left == 2 - 1 + 3 and state.player == 0


def test_yitzchak_raises_the_cap(game: TorahTimelineGame) -> None:
    state = _state(game, ["yitzchak-avinu"])
    _play(state, "yitzchak-avinu")
    assert state.cap[0] == game.rules.cap + 5


def test_yaakov_pays_for_sages_in_both_beit_midrash(game: TorahTimelineGame) -> None:
    assert not _can(_state(game, ["yaakov-avinu"]), "yaakov-avinu")
    state = _state(game, ["yaakov-avinu"], study=(["rashi"], ["rav", "shmuel"]))
    _play(state, "yaakov-avinu")
    assert state.tokens[0] == 3


def test_yosef_draws_up_to_three_within_the_hand_limit(game: TorahTimelineGame) -> None:
    state = _state(game, ["yosef-hatzadik", "rashi", "rav", "shmuel", "rava", "abaye"])
    _play(state, "yosef-hatzadik")
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    assert len(state.hands[0]) == game.rules.hand_limit  # five left, room for two only
    full = _state(game, ["yosef-hatzadik", "rashi", "rav", "shmuel", "rava", "abaye", "rambam", "ramban"])
    assert not _can(full, "yosef-hatzadik")


def test_moshe_makes_the_next_placement_free(game: TorahTimelineGame) -> None:
    state = _state(game, ["moshe-rabbeinu", "rashi"], left=2)
    _play(state, "moshe-rabbeinu")
    state.apply_action(tt.PLACE + game.rules.ids.index("rashi"))
    assert state.tokens[0] == 0 and state.left == 1 and state.timeline[0][3] >= 0


def test_aharon_takes_an_action_from_the_next_two_turns(game: TorahTimelineGame) -> None:
    state = _state(game, ["aharon"], left=1)
    _play(state, "aharon")  # the last action: the opponent's turn starts
    assert state.player == 1 and state.left == game.rules.actions - 1
    assert state.penalty[1] == [1]


def test_yehoshua_looks_at_the_opponents_beit_midrash(game: TorahTimelineGame) -> None:
    assert not _can(_state(game, ["yehoshua"]), "yehoshua")
    state = _state(game, ["yehoshua"], study=([], ["rav"]))
    assert state.observation(0)["opponent_beit_midrash"] == ["?"]
    _play(state, "yehoshua")
    assert state.observation(0)["opponent_beit_midrash"] == ["rav"]


def test_shimshon_empties_both_purses(game: TorahTimelineGame) -> None:
    assert not _can(_state(game, ["shimshon"]), "shimshon")
    state = _state(game, ["shimshon"], tokens=(4, 7))
    _play(state, "shimshon")
    assert state.tokens == [0, 0]


def test_shlomo_takes_up_to_three(game: TorahTimelineGame) -> None:
    assert not _can(_state(game, ["shlomo-hamelech"]), "shlomo-hamelech")
    state = _state(game, ["shlomo-hamelech"], tokens=(1, 2))
    _play(state, "shlomo-hamelech")
    assert state.tokens == [3, 0]


def test_eliyahu_fills_the_last_slot_and_wins(game: TorahTimelineGame) -> None:
    assert not _can(_state(game, ["eliyahu-hanavi"], tokens=(6, 0)), "eliyahu-hanavi")
    four = ("rebbi-akiva", "rav", "rav-saadia", "rashi")  # a Tanna, an Amora, a Gaon, a Rishon
    state = _state(game, ["eliyahu-hanavi"], tokens=(6, 0), timeline=four)
    assert state.timeline[0].count(tt.OPEN) == 1
    _play(state, "eliyahu-hanavi")
    assert state.is_terminal() and state.returns() == [1.0, -1.0] and state.tokens[0] == 0


def test_elisha_takes_the_top_two_of_the_discard(game: TorahTimelineGame) -> None:
    assert not _can(_state(game, ["elisha-hanavi", "rashi"]), "elisha-hanavi")
    state = _state(game, ["elisha-hanavi", "rashi"], discard=("rav", "shmuel"))
    _play(state, "elisha-hanavi")
    assert sorted(game.rules.ids[c] for c in state.hands[0]) == ["rashi", "rav", "shmuel"]


def test_challenge_pays_the_difference_in_power(game: TorahTimelineGame) -> None:
    state = _state(game, ["rebbi-akiva"], study=([], ["rashi"]))
    source = game.rules.ids.index("rebbi-akiva")
    state.apply_action(tt.CHALLENGE + source * game.rules.slots + 0)
    assert state.tokens[0] == 5 - 2 and not state.study[1] and len(state.discard) == 2


def test_income_and_a_drawn_card_into_a_full_hand(game: TorahTimelineGame) -> None:
    state = _state(game, ["rashi", "rav", "shmuel", "rava", "abaye", "rambam", "ramban"], study=(["maharal"], []))
    state.apply_action(tt.DRAW)
    drawn = state.legal_actions()[0]
    state.apply_action(drawn)
    assert len(state.hands[0]) == game.rules.hand_limit and state.discard[-1] == drawn - tt.CHANCE_CARD
    state.player = 1
    state._end_turn()  # seat 0's turn starts: one token for its one studying Sage
    assert state.tokens[0] == game.rules.income


def test_the_action_cap_counts_turns_ended_at_once(game: TorahTimelineGame) -> None:
    state = _state(game, ["rashi"])
    ended = 0
    while not state.is_terminal():
        assert ended < game.rules.action_cap, "ending turns never reached the action cap"
        state.apply_action(tt.END)
        ended += 1
    assert ended == game.rules.action_cap and state.tally.end == "cap" and state.returns() == [0.0, 0.0]


def test_a_position_is_described_in_card_ids(game: TorahTimelineGame) -> None:
    state = TorahTimelineState.position(game, [["rashi"], ["rav"]], study=([], ["shmuel"]), timelines=[["maharal"], []])
    index = game.rules.ids.index
    assert state.timeline[0][game.rules.era[index("maharal")]] == index("maharal")
    assert len(state.deck) == len(game.rules.ids) - 4 and state.current_player() == 0
    with pytest.raises(ValueError, match="two places"):
        TorahTimelineState.position(game, [["rashi"], ["rashi"]])
    with pytest.raises(ValueError, match="only a Sage"):
        TorahTimelineState.position(game, timelines=[["aharon"], []])


def test_each_tanach_card_does_what_the_effect_table_names(game: TorahTimelineGame) -> None:
    for card, effect in enumerate(game.rules.effect):
        assert game.effects[card] is (tt.EFFECTS[effect.kind] if effect is not None else None)


# each requirement kind as the rules word it, written plainly: (state, seat, amount, hand size once played)
_PLAIN_NEEDS = {
    "any_beit_midrash_sage": lambda s, p, n, hand: len(s.study[0]) + len(s.study[1]) >= n,
    "hand_room": lambda s, p, n, hand: hand < s.g.rules.hand_limit,
    "deck_not_empty": lambda s, p, n, hand: bool(s.deck),
    "opponent_beit_midrash_sage": lambda s, p, n, hand: len(s.study[1 - p]) >= n,
    "not_both_zero_tokens": lambda s, p, n, hand: not s.tokens[0] == s.tokens[1] == 0,
    "opponent_has_tokens": lambda s, p, n, hand: s.tokens[1 - p] >= n,
    "open_timeline_slots": lambda s, p, n, hand: s.timeline[p].count(tt.OPEN) == n,
    "tokens_at_least": lambda s, p, n, hand: s.tokens[p] >= n,
    "discard_at_least": lambda s, p, n, hand: len(s.discard) >= n,
    "hand_at_most": lambda s, p, n, hand: hand <= n,
}


def _plain_legal(state: TorahTimelineState) -> list[int]:
    """The legal moves of a position to act in, worked out the plain way, card by card."""
    r, p = state.g.rules, state.player
    hand, line = state.hands[p], state.timeline[p]
    out = []
    for card in hand:
        if r.era[card] >= 0:
            if (state.free[p] or state.tokens[p] >= r.cost) and line[r.era[card]] == tt.OPEN:
                out.append(tt.PLACE + card)
            if len(state.study[p]) < r.slots:
                out.append(tt.STUDY + card)
        elif all(_PLAIN_NEEDS[kind](state, p, n, len(hand) - 1) for kind, n in r.requires[card]):
            out.append(tt.TANACH + card)
    targets = len(state.study[1 - p])
    for card in [*hand, *state.study[p]]:
        if r.era[card] >= 0:
            out += [tt.CHALLENGE + card * r.slots + slot for slot in range(targets)]
    return out + ([tt.DRAW, tt.END] if state.deck or state.discard else [tt.END])


def test_the_legal_moves_follow_each_requirement_as_the_rules_word_it(game: TorahTimelineGame) -> None:
    assert set(_PLAIN_NEEDS) == set(tt.NEEDS)
    checked = 0
    for seed in range(40):
        state = game.new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
                continue
            assert state.legal_actions() == _plain_legal(state)
            checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 4000
    # what random games never meet: an empty deck, a hand past the limit (Elisha's take ignores it)
    sages = ["rashi", "rav", "shmuel", "rava", "abaye", "rambam", "ramban"]
    empty = _state(game, ["yosef-hatzadik"], discard=("rashi",))
    empty.deck = []
    for state, card, legal in (
        (empty, "yosef-hatzadik", False),
        (_state(game, ["yosef-hatzadik", *sages]), "yosef-hatzadik", False),
        (_state(game, ["yosef-hatzadik", *sages[:6]]), "yosef-hatzadik", True),
        (_state(game, ["elisha-hanavi", *sages[:6]], discard=("maharal", "rema")), "elisha-hanavi", False),
        (_state(game, ["elisha-hanavi", *sages[:5]], discard=("maharal", "rema")), "elisha-hanavi", True),
    ):
        assert state.legal_actions() == _plain_legal(state) and _can(state, card) is legal


def test_random_play_in_one_method_plays_the_games_a_step_at_a_time_plays(
    game: TorahTimelineGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    for seed in range(300):
        assert outcome(game, RandomAgent, seed) == outcome(game, StepRandom, seed)
    # stopped as a loop at every kind of place: in the deal, after a draw, among Yosef HaTzadik's cards
    for limit in (1, 14, 16, 17, 18, 40, 41, 99, 100, 101, 150):
        monkeypatch.setattr(game, "max_actions", limit)
        for seed in range(30):
            assert outcome(game, RandomAgent, seed) == outcome(game, StepRandom, seed)


def _state_fields(state: TorahTimelineState) -> dict[str, object]:
    fields = {f.name: getattr(state, f.name) for f in dataclasses.fields(state) if f.name != "g"}
    return fields | {"tally": state.tally, "history": state.history, "over": state.over, "winner": state.winner}


def _random_steps(state: TorahTimelineState, seed: int, limit: int, method: bool) -> tuple[object, ...]:
    """Random moves as the runner plays them, to the end or limit actions: a step at a time, or by
    play_random first (method) and a step at a time from wherever it stops; what each move had to
    choose from, and the generators' states, as they end."""
    chance, rngs = random.Random(seed), [random.Random(seed + 1), random.Random(seed + 2)]
    sizes: list[int] = []
    if method:
        state.play_random(chance, [rng.random for rng in rngs], limit, sizes)
    while not state.is_terminal() and len(state.history) < limit:
        if state.is_chance_node():
            state.apply_action(state.sample_chance(chance))
        else:
            legal = state.legal_actions()
            sizes.append(len(legal))
            state.apply_action(legal[math.floor(rngs[state.player].random() * len(legal))])
    return sizes, chance.getstate(), *(rng.getstate() for rng in rngs)


def test_random_play_in_one_method_leaves_the_state_a_step_at_a_time_leaves(game: TorahTimelineGame) -> None:
    # from positions met along random games (a draw pending, a turn half done), one with no cards left
    # to draw and one a short draw left, to the end or a limit, which may fall among a draw's cards
    starts = [game.new_initial_state()]
    for seed in range(30):
        state, rng = game.new_initial_state(), random.Random(seed)
        while not state.is_terminal():
            if len(state.history) % 7 == seed % 7:
                starts.append(state.clone())
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    dry = _state(game, ["rashi", "yosef-hatzadik"], study=(["rav"], ["shmuel"]), tokens=(6, 3))
    dry.deck = []
    short = _state(game, ["rashi", "rav"], tokens=(2, 0))
    short.pending_draws = 1  # as Yosef HaTzadik leaves it when the cards ran out before his three
    starts += [dry, short]
    for number, start in enumerate(starts):
        limit = len(start.history) + (number % 40 if number % 3 else 1_000)
        stepped, played = start.clone(), start.clone()
        assert _random_steps(stepped, number, limit, False) == _random_steps(played, number, limit, True)
        assert _state_fields(stepped) == _state_fields(played)
    for limit in range(1, 12):  # the short draw's remainder stays until a draw action clears it
        stepped, played = short.clone(), short.clone()
        assert _random_steps(stepped, limit, limit, False) == _random_steps(played, limit, limit, True)
        assert _state_fields(stepped) == _state_fields(played)
