"""Torah Timeline: Sages studied for tokens, challenges, the eleven Tanach cards, a Timeline to fill.

Follows the prototype's behaviour as the game's digest records it; every number comes from
cards/torah-timeline/ (rule options, era Powers, Tanach effects and their requirements).
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from math import floor
from typing import Any

from engine.api import CHANCE, TERMINAL, Event, GameDef, IllegalAction, TwoPlayerState, pick
from engine.cards.torah_timeline import Sage, Tanach, TanachEffect
from printkit.data.game import Game

# Actions: PLACE + card, STUDY + card, TANACH + card, CHALLENGE + (source slot x cards + target card)
PLACE, STUDY, TANACH, DRAW, END, CHALLENGE, CHANCE_CARD, FIRST = 0, 100, 200, 300, 301, 1000, 20_000, 30_000
FROM_HAND = 0  # challenge source offset: hand cards first, then Beit Midrash cards
OPEN = -1  # a Timeline slot no Sage fills yet
DRAW_OR_END, END_ONLY = (DRAW, END), (END,)  # the last legal actions: a draw while any card is left, then the end


class Phase(IntEnum):
    """Where the game stands; DEAL, FIRST and DRAW are chance nodes."""

    DEAL = 0  # the opening hands, a card at a time
    FIRST = 1  # who begins, drawn
    DRAW = 2  # the cards a draw action or Yosef HaTzadik brings
    ACT = 3  # the player to move spends an action
    OVER = 4  # the game is won or capped: TwoPlayerState.over is set too


# the phases by module names: reading an Enum's member through its class costs a lookup each time.
# The hot paths compare them with `is` (each member is a single object): `==` on an IntEnum takes
# Python's slow generic comparison, `is` a pointer test.
IN_DEAL, IN_FIRST, IN_DRAW, IN_ACT, IN_OVER = Phase
_WHERE = ("deal", "first", "draw", "act", "over")  # each Phase in an illegal action's message


@dataclass(frozen=True)
class Rules:
    names: tuple[str, ...]
    ids: tuple[str, ...]
    era: tuple[int, ...]  # era index per card, -1 for a Tanach card
    power: tuple[int, ...]  # era Power per era index
    effect: tuple[Any, ...]  # TanachEffect or None
    requires: tuple[tuple[tuple[str, int], ...], ...]  # (kind, amount) per Tanach requirement
    eras: int
    hand_start: int
    actions: int
    slots: int
    income: int
    cost: int
    cap: int
    hand_limit: int
    action_cap: int


def rules_from(game: Game) -> Rules:
    cards = [c.parsed for c, _ in game.decks[0].entries]
    eras = [e.id for e in game.info.eras]
    return Rules(
        names=tuple(c.name for c in cards),
        ids=tuple(c.id for c in cards),
        era=tuple(eras.index(c.era) if isinstance(c, Sage) else -1 for c in cards),
        power=tuple(int(e.power or 0) for e in game.info.eras),
        effect=tuple(c.effect if isinstance(c, Tanach) else None for c in cards),
        requires=tuple(
            tuple((need.kind, int(need.amount or 0)) for need in c.requires) if isinstance(c, Tanach) else ()
            for c in cards
        ),
        eras=len(eras),
        hand_start=int(game.rule("hand_start")),
        actions=int(game.rule("actions_per_turn")),
        slots=int(game.rule("beit_midrash_slots")),
        income=int(game.rule("income_per_sage")),
        cost=int(game.rule("timeline_cost")),
        cap=int(game.rule("token_cap")),
        hand_limit=int(game.rule("hand_limit")),
        action_cap=int(game.rule("action_cap")),
    )


# -- what a Tanach card needs, by requirement kind: a code each, tested in legal_actions by a chain
# -- of ifs, commonest first. A table of functions read better, but a call per check cost more than
# -- the rest of a legal list, and a Tanach card the rules hold back (Shlomo HaMelech waits for the
# -- last open slot) is checked at most of its holder's moves.
(
    OPEN_TIMELINE_SLOTS,  # exactly amount of the player's Timeline slots open
    OPPONENT_BEIT_MIDRASH_SAGE,  # the opponent studies at least amount Sages
    ANY_BEIT_MIDRASH_SAGE,  # both players study at least amount Sages between them
    NOT_BOTH_ZERO_TOKENS,  # either purse holds a token
    OPPONENT_HAS_TOKENS,  # the opponent holds at least amount tokens
    TOKENS_AT_LEAST,  # the player holds at least amount tokens
    HAND_ROOM,  # the hand, once the card leaves it, is below the hand limit
    DECK_NOT_EMPTY,  # the deck holds a card
    DISCARD_AT_LEAST,  # the discard pile holds at least amount cards
    HAND_AT_MOST,  # the hand, once the card leaves it, holds at most amount cards
) = range(10)
NEEDS: dict[str, int] = {
    "open_timeline_slots": OPEN_TIMELINE_SLOTS,
    "opponent_beit_midrash_sage": OPPONENT_BEIT_MIDRASH_SAGE,
    "any_beit_midrash_sage": ANY_BEIT_MIDRASH_SAGE,
    "not_both_zero_tokens": NOT_BOTH_ZERO_TOKENS,
    "opponent_has_tokens": OPPONENT_HAS_TOKENS,
    "tokens_at_least": TOKENS_AT_LEAST,
    "hand_room": HAND_ROOM,
    "deck_not_empty": DECK_NOT_EMPTY,
    "discard_at_least": DISCARD_AT_LEAST,
    "hand_at_most": HAND_AT_MOST,
}


# -- what a Tanach card does, by effect kind: True when the action is over, False when the effect
# -- has seen to what follows (a draw to come, a game won)
Effect = Callable[["TorahTimelineState", int, int, TanachEffect], bool]


def _gain_actions(s: TorahTimelineState, p: int, card: int, effect: TanachEffect) -> bool:
    s.left += effect.amount or 0
    return True


def _raise_token_cap(s: TorahTimelineState, p: int, card: int, effect: TanachEffect) -> bool:
    s.cap[p] += effect.amount or 0
    return True


def _tokens_per_beit_midrash_sage(s: TorahTimelineState, p: int, card: int, effect: TanachEffect) -> bool:
    s._gain(p, (effect.amount or 0) * (len(s.study[0]) + len(s.study[1])))
    return True


def _draw_cards(s: TorahTimelineState, p: int, card: int, effect: TanachEffect) -> bool:
    room = s.g.rules.hand_limit - len(s.hands[p])
    s._draw(max(0, min(effect.amount or 0, room, len(s.deck))))
    return False


def _free_timeline_placement(s: TorahTimelineState, p: int, card: int, effect: TanachEffect) -> bool:
    s.free[p] = True
    return True


def _opponent_loses_actions(s: TorahTimelineState, p: int, card: int, effect: TanachEffect) -> bool:
    turns, lost = effect.turns or 1, s.penalty[1 - p]
    lost.extend([0] * (turns - len(lost)))
    for i in range(turns):
        lost[i] += effect.amount or 0
    return True


def _view_opponent_beit_midrash(s: TorahTimelineState, p: int, card: int, effect: TanachEffect) -> bool:
    s.seen[p] |= set(s.study[1 - p])
    return True


def _zero_all_tokens(s: TorahTimelineState, p: int, card: int, effect: TanachEffect) -> bool:
    s.tokens = [0, 0]
    return True


def _steal_tokens(s: TorahTimelineState, p: int, card: int, effect: TanachEffect) -> bool:
    taken = min(effect.amount or 0, s.tokens[1 - p])
    s.tokens[1 - p] -= taken
    s._gain(p, taken)
    return True


def _fill_last_timeline_slot(s: TorahTimelineState, p: int, card: int, effect: TanachEffect) -> bool:
    s.discard.remove(card)
    s.tokens[p] -= effect.cost or 0
    line = s.timeline[p]
    line[line.index(OPEN)] = card
    s._finish(p, "normal")
    return False


def _take_from_discard(s: TorahTimelineState, p: int, card: int, effect: TanachEffect) -> bool:
    s.discard.remove(card)
    for _ in range(effect.amount or 0):
        insort(s.hands[p], s.discard.pop())
    s.discard.append(card)
    return True


EFFECTS: dict[str, Effect] = {
    "gain_actions": _gain_actions,
    "raise_token_cap": _raise_token_cap,
    "tokens_per_beit_midrash_sage": _tokens_per_beit_midrash_sage,
    "draw": _draw_cards,
    "free_timeline_placement": _free_timeline_placement,
    "opponent_loses_actions": _opponent_loses_actions,
    "view_opponent_beit_midrash": _view_opponent_beit_midrash,
    "zero_all_tokens": _zero_all_tokens,
    "steal_tokens": _steal_tokens,
    "fill_last_timeline_slot": _fill_last_timeline_slot,
    "take_from_discard": _take_from_discard,
}


class TorahTimelineGame(GameDef):
    slug = "torah-timeline"
    rules: Rules

    def __init__(self, game: Game) -> None:
        self.title = game.title
        self.rules = rules_from(game)
        r = self.rules
        cards = range(len(r.ids))
        # worked out once from the data: each Tanach card's checks (need code, amount) and effect
        self.needs = tuple(tuple((NEEDS[kind], amount) for kind, amount in r.requires[c]) for c in cards)
        self.effects = tuple(EFFECTS[e.kind] if e is not None else None for e in r.effect)
        # a card's challenges by how many Sages the opponent studies; none for a Tanach card, which
        # cannot challenge, so the legal moves add a card's row without asking what it is
        self.challenges = tuple(
            tuple(
                tuple(range(CHALLENGE + c * r.slots, CHALLENGE + c * r.slots + n)) if r.era[c] >= 0 else ()
                for c in cards
            )
            for n in range(r.slots + 1)
        )
        # each seat's "play" event for each card, made once: events are read, never changed
        self.plays = tuple(tuple(Event("play", seat, r.ids[c]) for c in cards) for seat in (0, 1))

    def new_initial_state(self) -> TorahTimelineState:
        r = self.rules
        return TorahTimelineState(
            self, list(range(len(r.ids))), [], [[], []], [[], []], [[OPEN] * r.eras, [OPEN] * r.eras], [0, 0],
            [r.cap, r.cap], [[], []], [False, False], [set(), set()],
        )  # fmt: skip

    def card_names(self) -> dict[str, str]:
        return dict(zip(self.rules.ids, self.rules.names, strict=True))


@dataclass(slots=True, eq=False)
class TorahTimelineState(TwoPlayerState):
    """Cards are numbered by their place in the deck's data; each list of them is per seat where it says so."""

    g: TorahTimelineGame
    deck: list[int]
    discard: list[int]
    hands: list[list[int]]  # per seat, each kept sorted
    study: list[list[int]]  # per seat: its Beit Midrash, face down, in the order studied
    timeline: list[list[int]]  # per seat and era: the Sage placed there, or OPEN
    tokens: list[int]
    cap: list[int]
    penalty: list[list[int]]  # per seat: actions lost on each coming turn
    free: list[bool]  # per seat: Moshe Rabbeinu made the next placement free
    seen: list[set[int]]  # per seat: the opponent's Beit Midrash cards it has looked at
    player: int = 0
    left: int = 0  # actions left this turn
    pending_draws: int = 0
    actions_taken: int = 0
    phase: Phase = IN_DEAL

    def __post_init__(self) -> None:
        self._start_record()
        # narration in the instance, not read through to TwoPlayerState's class default: Python 3.11
        # reads an instance's own attribute by a quick path, a class's only by the slow general one
        self.narration = None

    @classmethod
    def position(
        cls,
        game: TorahTimelineGame,
        hands: Sequence[Sequence[str]] = ((), ()),
        *,
        study: Sequence[Sequence[str]] = ((), ()),
        timelines: Sequence[Sequence[str]] = ((), ()),
        discard: Sequence[str] = (),
        tokens: tuple[int, int] = (0, 0),
        player: int = 0,
        left: int | None = None,
    ) -> TorahTimelineState:
        """A position with the player to act, from a short description in card ids, for tests and tools.

        hands, study: each seat's hand and Beit Midrash; timelines: the Sages each seat has placed,
        each in its era's slot; discard: the pile, bottom first; the deck holds every other card.
        left: the actions left this turn, the rules' actions a turn by default.
        """
        r = game.rules
        state = game.new_initial_state()
        index = r.ids.index
        state.hands = [sorted(index(c) for c in hand) for hand in hands]
        state.study = [[index(c) for c in cards] for cards in study]
        for seat, placed in enumerate(timelines):
            for card in placed:
                era = r.era[index(card)]
                if era < 0:
                    raise ValueError(f"{card}: only a Sage has a place in a Timeline")
                state.timeline[seat][era] = index(card)
        state.discard = [index(c) for c in discard]
        held = [*state.hands[0], *state.hands[1], *state.study[0], *state.study[1], *state.discard]
        held += [c for line in state.timeline for c in line if c != OPEN]
        if len(set(held)) != len(held):
            raise ValueError("a card in two places: the deck holds one of each")
        state.deck = [c for c in state.deck if c not in set(held)]
        state.tokens, state.player, state.phase = list(tokens), player, IN_ACT
        state.left = r.actions if left is None else left
        return state

    def clone(self) -> TorahTimelineState:
        o = TorahTimelineState(
            self.g, self.deck[:], self.discard[:], [h[:] for h in self.hands], [s[:] for s in self.study],
            [t[:] for t in self.timeline], self.tokens[:], self.cap[:], [p[:] for p in self.penalty], self.free[:],
            [set(s) for s in self.seen], self.player, self.left, self.pending_draws, self.actions_taken, self.phase,
        )  # fmt: skip
        self._copy_record(o)
        return o

    # -- the API ---------------------------------------------------------------------------
    def current_player(self) -> int:
        phase = self.phase
        if phase is IN_ACT:
            return self.player
        return TERMINAL if phase is IN_OVER else CHANCE  # dealing, the first player and draws are chance

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.phase is IN_FIRST:
            return [(FIRST, 0.5), (FIRST + 1, 0.5)]
        p = 1.0 / len(self.deck)
        return [(CHANCE_CARD + c, p) for c in self.deck]

    def sample_chance(self, rng: random.Random) -> int:
        if self.phase is IN_FIRST:
            return pick(rng, (FIRST, FIRST + 1))
        deck = self.deck
        return CHANCE_CARD + deck[floor(rng.random() * len(deck))]  # engine.api.pick, without its call

    def _work_out_legal(self) -> list[int]:
        self._legal = None
        return self.legal_actions()

    def legal_actions(self) -> list[int]:
        """The legal actions, worked out here rather than in _work_out_legal: a call a move saved."""
        out = self._legal
        if out is not None:
            return out
        if self.phase is not IN_ACT:
            return [] if self.over else [a for a, _ in self.chance_outcomes()]
        g, p = self.g, self.player
        out = []
        hand = self.hands[p]  # kept in order as cards arrive, so the moves come out in order too
        if hand:
            r = g.rules
            era, line = r.era, self.timeline[p]
            # the flags as ifs, not stored comparisons: Python 3.11 speeds a comparison only when
            # an if reads it at once
            if self.free[p] or self.tokens[p] >= r.cost:
                can_place = True
            else:
                can_place = False
            if len(self.study[p]) < r.slots:
                can_study = True
            else:
                can_study = False
            for card in hand:
                e = era[card]
                if e >= 0:
                    if can_place and line[e] < 0:
                        out.append(PLACE + card)
                    if can_study:
                        out.append(STUDY + card)
                else:
                    for need, n in g.needs[card]:  # the card is played only when all hold
                        if need == OPEN_TIMELINE_SLOTS:
                            if line.count(OPEN) != n:
                                break
                        elif need == OPPONENT_BEIT_MIDRASH_SAGE:
                            if len(self.study[1 - p]) < n:
                                break
                        elif need == ANY_BEIT_MIDRASH_SAGE:
                            if len(self.study[0]) + len(self.study[1]) < n:
                                break
                        elif need == NOT_BOTH_ZERO_TOKENS:
                            if self.tokens[0] == self.tokens[1] == 0:
                                break
                        elif need == OPPONENT_HAS_TOKENS:
                            if self.tokens[1 - p] < n:
                                break
                        elif need == TOKENS_AT_LEAST:
                            if self.tokens[p] < n:
                                break
                        elif need == HAND_ROOM:  # the hand's size once the card itself has left it
                            if len(hand) - 1 >= r.hand_limit:
                                break
                        elif need == DECK_NOT_EMPTY:
                            if not self.deck:
                                break
                        elif need == DISCARD_AT_LEAST:
                            if len(self.discard) < n:
                                break
                        elif len(hand) - 1 > n:  # HAND_AT_MOST
                            break
                    else:
                        out.append(TANACH + card)
        # the target is named by its place in the opponent's Beit Midrash: the card is face down
        targets = len(self.study[1 - p])
        if targets:
            challenges = g.challenges[targets]  # a Tanach card's row is empty
            for card in hand:
                out += challenges[card]
            for card in self.study[p]:
                out += challenges[card]
        out += DRAW_OR_END if self.deck or self.discard else END_ONLY
        self._legal = out
        return out

    def apply_action(self, action: int) -> None:
        if self.narration is not None:  # a replay: the action played unnarrated, then its tokens told
            tokens, player, words = self.tokens[:], self.player, self.narration
            self.narration = None
            try:
                self.apply_action(action)
            finally:
                self.narration = words
            self._say_tokens(tokens, player)
            return
        # one method for a move and a drawn card, the steps that follow them written out in it: at
        # ~220 actions a game, a Python call saved on each step is a good part of the game's cost
        r, phase = self.g.rules, self.phase
        if phase is IN_ACT:
            # the checks and the record of TwoPlayerState._take_move, made here
            legal = self._legal
            if legal is None:
                legal = self.legal_actions()
            if action not in legal:
                raise IllegalAction(f"{action} is not legal now (act)")
            if len(legal) > 1:
                self.tally.decisions += 1
            self.history.append(action)
            self._legal = None
            p = self.player
            self.actions_taken += 1
            # the kinds of action, commonest first; each that goes on to the turn's end check falls through
            if action == END:  # ending a turn is an action too: the cap counts it
                pass
            elif action == DRAW:
                self.left -= 1
                deck = self.deck
                if not deck and self.discard:  # the discard pile becomes the new deck
                    deck, self.deck, self.discard = self.discard, self.discard, []
                if deck:
                    self.pending_draws, self.phase = 1, IN_DRAW
                    return
            elif action >= CHALLENGE:
                self.left -= 1
                self._challenge(p, *divmod(action - CHALLENGE, r.slots))
            else:
                card = action % 100
                self.hands[p].remove(card)
                self.tally.events.append(self.g.plays[p][card])
                if action < STUDY:  # placed in the Timeline
                    if self.free[p]:
                        self.free[p] = False  # Moshe Rabbeinu: no tokens, no action
                    else:
                        self.tokens[p] -= r.cost
                        self.left -= 1
                    line = self.timeline[p]
                    line[r.era[card]] = card
                    if OPEN not in line:
                        self._finish(p, "normal")
                        return
                elif action < TANACH:
                    self.left -= 1
                    self.study[p].append(card)
                else:
                    self.left -= 1
                    self.discard.append(card)
                    effect = self.g.effects[card]
                    assert effect is not None  # only Tanach cards are played
                    if not effect(self, p, card, r.effect[card]) or self.phase is IN_OVER:
                        return  # the effect saw to what follows: a draw to come, a game won
        elif phase is IN_DRAW:
            card = action - CHANCE_CARD
            try:
                self.deck.remove(card)  # a card the deck does not hold (any other number) is not legal
            except ValueError:
                raise IllegalAction(f"{action} is not legal now (draw)") from None
            self.history.append(action)  # TwoPlayerState._take_chance, without its call
            self._legal = None
            hand = self.hands[self.player]
            if len(hand) >= r.hand_limit:
                self.discard.append(card)  # drawn into a full hand: discarded
            else:
                insort(hand, card)
            self.pending_draws -= 1
            if not self.deck and self.discard:  # the discard pile becomes the new deck
                self.deck, self.discard = self.discard, []
            if self.pending_draws > 0 and self.deck:
                return
            self.phase = IN_ACT
        else:
            self._set_up(action)
            return
        # the action is done (_after_action): the cap may end the game, else the turn may pass
        if self.actions_taken >= r.action_cap:
            self._finish(None, "cap")
        elif action == END or self.left <= 0:
            p = 1 - self.player
            self.player = p
            if self.penalty[p]:
                self._start_turn()  # actions lost to Aharon, perhaps the whole turn: the long way
                return
            study = self.study[p]
            if study:  # _start_turn's income, without its calls
                purse, cap = self.tokens[p] + r.income * len(study), self.cap[p]
                self.tokens[p] = cap if purse > cap else 0 if purse < 0 else purse
            self.left = r.actions

    def play_random(
        self, chance: random.Random, draws: Sequence[Callable[[], float]], limit: int, sizes: list[int]
    ) -> int:
        """The runner's random play in one method: the moves RandomAgent would pick (seat s's from
        draws[s], legal[floor(draw * len(legal))]), chance from chance, the same draws in the same
        order, so the same game as a step at a time; each move's number of legal moves appended to sizes.

        Plays until the game is over, or until it is two actions short of limit (the runner goes
        on from there a step at a time). Returns the seat that made the first move, -1 for none.
        At ~220 actions a game, mostly turns ended and cards drawn, the calls a step (whose turn,
        the legal moves, the move, the drawn card) were most of a random game's cost: here a drawn
        card is dealt as part of its draw action, and the common moves are played on locals; the
        Tanach effects and a turn short of actions go the general way. It repeats apply_action's
        rules and legal_actions' order: a rule changed there is changed here too (the tests play
        both ways from many positions and compare every field).
        """
        history, deck, hands = self.history, self.deck, self.hands
        record, random_draw, hand_start = history.append, chance.random, self.g.rules.hand_start
        while self.phase is IN_DEAL and len(history) < limit:  # the deal, as _set_up deals it
            card = deck.pop(floor(random_draw() * len(deck)))
            record(CHANCE_CARD + card)
            insort(hands[0] if len(hands[0]) <= len(hands[1]) else hands[1], card)
            if len(hands[1]) == hand_start:
                self.phase = IN_FIRST
        while self.phase is not IN_ACT:  # the first player, or a game set up some other way: the general way
            if self.phase is IN_OVER or len(history) >= limit:
                self._legal = None
                return -1
            self.apply_action(self.sample_chance(chance))
        g, r = self.g, self.g.rules
        era, effects, needs = r.era, g.effects, g.needs
        cost, slots, hand_limit, per_turn, income, action_cap = (
            r.cost, r.slots, r.hand_limit, r.actions, r.income, r.action_cap
        )  # fmt: skip
        study, cap, penalty, free = self.study, self.cap, self.penalty, self.free
        # each seat's own lists (never replaced, only changed), its draw and its "play" events, taken
        # up once a turn rather than looked up at every move: a turn is under two moves, a game ~160
        # (written out, not a generator: a comprehension would make self and these names closure cells,
        # each read slower all through the method)
        timeline, plays = self.timeline, g.plays
        seats = (
            (hands[0], timeline[0], study[0], study[1], draws[0], plays[0]),
            (hands[1], timeline[1], study[1], study[0], draws[1], plays[1]),
        )
        # each seat's open Timeline slots, counted once: here a placement takes one, and they are counted
        # again after a Tanach effect (today's only Timeline effect fills the last slot, and wins)
        opens = [line.count(OPEN) for line in timeline]
        # the deck and discard are swapped when the deck runs out, and tokens replaced by an effect:
        # each written back at once, and read again after an effect
        tokens, deck, discard = self.tokens, self.deck, self.discard
        tell = self.tally.events.append
        p, left, start = self.player, self.left, self.actions_taken
        hand, line, mine, theirs, draw, played = seats[p]
        first, taken, stop = p, start, limit - 2
        note, noted, forced = sizes.append, len(sizes), sizes.count(1)
        # Python 3.11 specializes a comparison of two ints only when the jump after it is short (no
        # EXTENDED_ARG): the slow generic compare costs some 80 machine instructions more. So the
        # limit is an if that breaks, not the while's test, and the pick's tests come shortest block first
        while True:
            if len(history) > stop:  # two actions short of limit: the runner goes on a step at a time
                self.left, self.actions_taken = left, taken
                break
            # the hand's moves, as legal_actions lists them, on locals (test_torah_timeline checks the two agree)
            legal = []
            tanachs = 0
            if hand:
                if free[p] or tokens[p] >= cost:
                    can_place = True
                else:
                    can_place = False
                if len(mine) < slots:
                    can_study = True
                else:
                    can_study = False
                for card in hand:
                    e = era[card]
                    if e >= 0:
                        if can_place and line[e] < 0:
                            legal.append(card)  # PLACE + card
                        if can_study:
                            legal.append(STUDY + card)
                    else:
                        tanachs += 1
                        for need, amount in needs[card]:
                            if need == OPEN_TIMELINE_SLOTS:
                                if opens[p] != amount:
                                    break
                            elif need == OPPONENT_BEIT_MIDRASH_SAGE:
                                if len(theirs) < amount:
                                    break
                            elif need == ANY_BEIT_MIDRASH_SAGE:
                                if len(mine) + len(theirs) < amount:
                                    break
                            elif need == NOT_BOTH_ZERO_TOKENS:
                                if tokens[0] == tokens[1] == 0:
                                    break
                            elif need == OPPONENT_HAS_TOKENS:
                                if tokens[1 - p] < amount:
                                    break
                            elif need == TOKENS_AT_LEAST:
                                if tokens[p] < amount:
                                    break
                            elif need == HAND_ROOM:
                                if len(hand) - 1 >= hand_limit:
                                    break
                            elif need == DECK_NOT_EMPTY:
                                if not deck:
                                    break
                            elif need == DISCARD_AT_LEAST:
                                if len(discard) < amount:
                                    break
                            elif len(hand) - 1 > amount:  # HAND_AT_MOST
                                break
                        else:
                            legal.append(TANACH + card)
            # then legal_actions lists each Sage's challenges (the hand's, then the Beit Midrash's) and
            # the draw and the end: counted here, and only the move picked worked out
            here, targets = len(legal), len(theirs)
            tail = here + targets * (len(hand) - tanachs + len(mine)) if targets else here
            n = tail + 2 if deck or discard else tail + 1
            note(n)  # a decision when n > 1: counted from the sizes at the end
            i = floor(draw() * n)
            taken += 1
            if i == n - 1:  # the last move listed: the turn's end
                action = END
                record(action)
            elif i >= tail:  # the draw, when a card is left
                action = DRAW
                record(action)
                left -= 1
                if not deck:  # the discard pile becomes the new deck (the move is legal: it holds a card)
                    self.deck, self.discard = deck, discard = discard, []
                card = deck.pop(floor(random_draw() * len(deck)))  # sample_chance's draw, and its card dealt
                record(CHANCE_CARD + card)
                self.pending_draws = 0  # as the draw the general way leaves it
                if len(hand) >= hand_limit:
                    discard.append(card)  # drawn into a full hand: discarded
                else:
                    insort(hand, card)
                if not deck and discard:
                    self.deck, self.discard = deck, discard = discard, []
            elif i >= here:  # a challenge: by the source's place among the Sages, then the target's slot
                which, slot = divmod(i - here, targets)
                sages = len(hand) - tanachs
                if which < sages:  # the which-th Sage in the hand (a loop: a comprehension would make era a cell)
                    for source in hand:
                        if era[source] >= 0:
                            if not which:
                                break
                            which -= 1
                else:
                    source = mine[which - sages]
                action = CHALLENGE + source * slots + slot
                record(action)
                left -= 1
                self._challenge(p, source, slot)
            else:  # a card from the hand, as legal_actions listed it
                action = legal[i]
                record(action)
                if action < STUDY:  # placed in the Timeline
                    hand.remove(action)
                    tell(played[action])
                    if free[p]:
                        free[p] = False  # Moshe Rabbeinu: no tokens, no action
                    else:
                        tokens[p] -= cost
                        left -= 1
                    line[era[action]] = action
                    opens[p] -= 1
                    if OPEN not in line:
                        self.left, self.actions_taken = left, taken
                        self._finish(p, "normal")
                        break
                elif action < TANACH:
                    card = action - STUDY
                    hand.remove(card)
                    tell(played[card])
                    left -= 1
                    mine.append(card)
                else:  # a Tanach card: its effect reads and changes the state's own fields
                    card = action - TANACH
                    hand.remove(card)
                    tell(played[card])
                    discard.append(card)
                    self.left, self.actions_taken = left - 1, taken
                    effect = effects[card]
                    assert effect is not None  # only Tanach cards are played
                    done = effect(self, p, card, r.effect[card])
                    while self.phase is IN_DRAW and len(history) < limit:  # Yosef HaTzadik's cards
                        self.apply_action(self.sample_chance(chance))
                    p, left, tokens, deck, discard = self.player, self.left, self.tokens, self.deck, self.discard
                    if self.phase is not IN_ACT:
                        break  # a game won, or limit reached mid-draw
                    hand, line, mine, theirs, draw, played = seats[p]
                    opens = [timeline[0].count(OPEN), timeline[1].count(OPEN)]  # whatever an effect did to them
                    if not done:
                        continue  # the draws saw to the turn's end
            # the action is done: the cap may end the game, else the turn may pass
            if taken >= action_cap:
                self.left, self.actions_taken = left, taken
                self._finish(None, "cap")
                break
            if action == END or left <= 0:
                self.player = p = 1 - p
                hand, line, mine, theirs, draw, played = seats[p]
                if penalty[p]:  # actions lost to Aharon, perhaps the whole turn: the long way
                    self._start_turn()
                    p, left = self.player, self.left
                    hand, line, mine, theirs, draw, played = seats[p]
                else:
                    if mine:  # the turn's income
                        purse, most = tokens[p] + income * len(mine), cap[p]
                        tokens[p] = most if purse > most else 0 if purse < 0 else purse
                    left = per_turn
        self._legal = None
        self.tally.decisions += len(sizes) - noted - (sizes.count(1) - forced)
        return first if taken > start else -1

    def _set_up(self, action: int) -> None:
        """A card dealt or the first player drawn (or anything after the game's end, refused)."""
        phase = self.phase
        if phase is IN_FIRST:
            if action != FIRST and action != FIRST + 1:
                raise IllegalAction(f"{action} is not legal now (first)")
            self.history.append(action)
            self._legal = None
            self.player = action - FIRST
            self._start_turn()
            return
        card = action - CHANCE_CARD
        if phase is not IN_DEAL or card not in self.deck:
            raise IllegalAction(f"{action} is not legal now ({_WHERE[phase]})")
        self.history.append(action)
        self._legal = None
        self.deck.remove(card)
        hands = self.hands
        insort(hands[0] if len(hands[0]) <= len(hands[1]) else hands[1], card)
        if len(hands[1]) == self.g.rules.hand_start:
            self.phase = IN_FIRST

    def _say_tokens(self, tokens: list[int], player: int) -> None:
        """What an action did to the purses, and the actions the next player starts a turn with."""
        changed = [f"seat {s} {tokens[s]} -> {self.tokens[s]}" for s in (0, 1) if tokens[s] != self.tokens[s]]
        if changed:
            self._say("tokens: " + ", ".join(changed))
        if self.player != player and not self.over:
            left, purse = self.left, self.tokens[self.player]
            self._say(f"seat {self.player}'s turn: {left} action{'s' * (left != 1)}, {purse} token{'s' * (purse != 1)}")

    # -- moves -----------------------------------------------------------------------------
    def _challenge(self, p: int, source: int, slot: int) -> None:
        """Seat p's Sage source (from its hand or its Beit Midrash) challenges the opponent's Sage in slot."""
        targets = self.study[1 - p]
        target = targets.pop(slot)
        hand = self.hands[p]
        (hand if source in hand else self.study[p]).remove(source)
        self.seen[p].discard(target)
        self.discard += (source, target)
        power, era = self.g.rules.power, self.g.rules.era
        diff = power[era[source]] - power[era[target]]
        if diff:  # the higher Power's owner gains the difference, to its cap
            self._gain(p if diff > 0 else 1 - p, abs(diff))
        self.tally.events.append(self.g.plays[p][source])

    def _finish(self, winner: int | None, how: str) -> None:
        TwoPlayerState._finish(self, winner, how)  # not super(): a slots dataclass breaks its zero-argument form
        self.phase = IN_OVER

    def _gain(self, p: int, n: int) -> None:
        tokens = self.tokens[p] + n
        cap = self.cap[p]
        self.tokens[p] = cap if tokens > cap else 0 if tokens < 0 else tokens  # max/min, without their calls

    def _draw(self, count: int) -> None:
        if not self.deck and self.discard:  # the discard pile becomes the new deck
            self.deck, self.discard = self.discard, []
        if not self.deck or count <= 0:
            self._after_action()
            return
        self.pending_draws = count
        self.phase = IN_DRAW

    def _after_action(self) -> None:
        if self.phase is IN_OVER:
            return
        if self.actions_taken >= self.g.rules.action_cap:
            self._finish(None, "cap")
        elif self.left <= 0:
            self._end_turn()
        else:
            self.phase = IN_ACT

    def _start_turn(self) -> None:
        r, p = self.g.rules, self.player
        study = self.study[p]
        if study:  # _gain, without its call
            self._gain(p, r.income * len(study))
        lost = self.penalty[p].pop(0) if self.penalty[p] else 0
        self.left = r.actions - lost if lost < r.actions else 0
        self.phase = IN_ACT
        if self.left == 0:
            self._end_turn()

    def _end_turn(self) -> None:
        self.player = 1 - self.player
        self._start_turn()

    # -- views -----------------------------------------------------------------------------
    def observation(self, player: int) -> dict[str, Any]:
        r = self.g.rules
        opp = 1 - player
        return {
            "hand": sorted(r.ids[c] for c in self.hands[player]),
            "opponent_hand": len(self.hands[opp]),
            "beit_midrash": sorted(r.ids[c] for c in self.study[player]),
            "opponent_beit_midrash": sorted(r.ids[c] if c in self.seen[player] else "?" for c in self.study[opp]),
            "timelines": [[r.ids[c] if c >= 0 else None for c in t] for t in self.timeline],
            "tokens": self.tokens[:],
            "caps": self.cap[:],
            "deck": len(self.deck),
            "discard": [r.ids[c] for c in self.discard],
            "to_move": self.current_player(),
        }

    def resample(self, player: int, rng: random.Random) -> TorahTimelineState:
        """Deal the opponent's hand and unseen studied Sages anew from every card the player has not seen."""
        other = self.clone()
        opp = 1 - player
        hidden_study = [c for c in other.study[opp] if c not in other.seen[player]]
        sages_pool = [c for c in other.deck + other.hands[opp] + hidden_study]
        rng.shuffle(sages_pool)
        r = self.g.rules
        # studied cards are Sages: deal those first from the Sages in the pool, never one the player has seen (it
        # would show by name where the player saw only a face-down card)
        sages = [c for c in sages_pool if r.era[c] >= 0 and c not in other.seen[player]]
        new_study = sages[: len(hidden_study)]
        rest = [c for c in sages_pool if c not in new_study]
        other.study[opp] = [c for c in other.study[opp] if c in other.seen[player]] + new_study
        other.hands[opp] = sorted(rest[: len(other.hands[opp])])
        other.deck = rest[len(other.hands[opp]) :]
        other._legal = None
        return other

    def action_to_string(self, action: int) -> str:
        r = self.g.rules
        if action >= FIRST:
            return f"first player: seat {action - FIRST}"
        if action >= CHANCE_CARD:
            return f"draws {r.names[action - CHANCE_CARD]}"
        if action == DRAW:
            return "draws a card"
        if action == END:
            return "ends the turn"
        if action >= CHALLENGE:
            source, slot = divmod(action - CHALLENGE, r.slots)
            target = self.study[1 - self.player][slot]
            return f"challenges {r.names[target]} (Beit Midrash slot {slot + 1}) with {r.names[source]}"
        kind, card = divmod(action, 100)
        verb = {PLACE: "places in the Timeline", STUDY: "studies", TANACH: "plays"}[kind * 100]
        return f"{verb} {r.names[card]}"

    def played_card(self, action: int) -> str | None:
        r = self.g.rules
        if self.phase is not IN_ACT:
            return None
        if action < DRAW:  # placed, studied or played from the hand
            return str(r.ids[action % 100])
        if CHALLENGE <= action < CHANCE_CARD:
            return str(r.ids[(action - CHALLENGE) // r.slots])
        return None

    def heuristic(self, player: int) -> float:
        """Timeline slots filled count most; tokens, studying Sages and cards in hand help."""
        if self.over:
            return self.returns()[player]

        def worth(p: int) -> float:
            filled = sum(1 for c in self.timeline[p] if c >= 0)
            return filled * 10 + self.tokens[p] * 1.2 + len(self.study[p]) * 3 + len(self.hands[p]) * 0.5

        return max(-1.0, min(1.0, (worth(player) - worth(1 - player)) / 50))
