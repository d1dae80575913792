"""Torah Timeline: Sages studied for tokens, challenges, the eleven Tanach cards, a Timeline to fill.

Follows the prototype's behaviour as the game's digest records it; every number comes from
cards/torah-timeline/ (rule options, era Powers, Tanach effects and their requirements).
"""

from __future__ import annotations

import random
from bisect import insort
from dataclasses import dataclass
from typing import Any

from engine.api import CHANCE, TERMINAL, Event, GameDef, TwoPlayerState, pick
from printkit.data.game import Game
from printkit.data.model import Sage, Tanach

# Actions: PLACE + card, STUDY + card, TANACH + card, CHALLENGE + (source slot x cards + target card)
PLACE, STUDY, TANACH, DRAW, END, CHALLENGE, CHANCE_CARD, FIRST = 0, 100, 200, 300, 301, 1000, 20_000, 30_000
FROM_HAND = 0  # challenge source offset: hand cards first, then Beit Midrash cards


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
    cards = [c for c, _ in game.decks[0].entries]
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


class TorahTimelineGame(GameDef):
    slug = "torah-timeline"

    def __init__(self, game: Game) -> None:
        self.title = game.title
        self.rules = rules_from(game)

    def new_initial_state(self) -> TorahTimelineState:
        return TorahTimelineState(self)

    def card_names(self) -> dict[str, str]:
        return dict(zip(self.rules.ids, self.rules.names, strict=True))


class TorahTimelineState(TwoPlayerState):
    def __init__(self, game: TorahTimelineGame) -> None:
        r = game.rules
        self.g = game
        self.deck = list(range(len(r.ids)))
        self.discard: list[int] = []
        self.hands: list[list[int]] = [[], []]  # each kept sorted
        self.study: list[list[int]] = [[], []]  # each player's Beit Midrash, face down
        self.timeline: list[list[int]] = [[-1] * r.eras, [-1] * r.eras]
        self.tokens = [0, 0]
        self.cap = [r.cap, r.cap]
        self.penalty: list[list[int]] = [[], []]  # actions lost on each coming turn
        self.free = [False, False]  # Moshe Rabbeinu: the next placement is free
        self.seen: list[set[int]] = [set(), set()]  # opponent's Beit Midrash cards a player has looked at
        self.player = 0
        self.left = 0
        self.pending_draws = 0
        self.actions_taken = 0
        self.phase = "deal"
        self._start_record()

    def clone(self) -> TorahTimelineState:
        o = TorahTimelineState.__new__(TorahTimelineState)
        o.g = self.g
        o.deck, o.discard = self.deck[:], self.discard[:]
        o.hands = [h[:] for h in self.hands]
        o.study = [s[:] for s in self.study]
        o.timeline = [t[:] for t in self.timeline]
        o.tokens, o.cap, o.free = self.tokens[:], self.cap[:], self.free[:]
        o.penalty = [p[:] for p in self.penalty]
        o.seen = [set(s) for s in self.seen]
        o.player, o.left, o.actions_taken, o.phase = self.player, self.left, self.actions_taken, self.phase
        o.pending_draws = self.pending_draws
        self._copy_record(o)
        return o

    # -- the API ---------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        return self.player if self.phase == "act" else CHANCE  # "deal", "first" and "draw" are chance

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.phase == "first":
            return [(FIRST, 0.5), (FIRST + 1, 0.5)]
        p = 1.0 / len(self.deck)
        return [(CHANCE_CARD + c, p) for c in self.deck]

    def sample_chance(self, rng: random.Random) -> int:
        if self.phase == "first":
            return pick(rng, (FIRST, FIRST + 1))
        return CHANCE_CARD + pick(rng, self.deck)

    def _work_out_legal(self) -> list[int]:
        if self.over:
            return []
        if self.phase != "act":
            return [a for a, _ in self.chance_outcomes()]
        r, p = self.g.rules, self.player
        era, line, out = r.era, self.timeline[p], []
        hand = self.hands[p]  # kept in order as cards arrive, so the moves come out in order too
        can_place = self.free[p] or self.tokens[p] >= r.cost
        can_study = len(self.study[p]) < r.slots
        for card in hand:
            if era[card] >= 0:
                if can_place and line[era[card]] < 0:
                    out.append(PLACE + card)
                if can_study:
                    out.append(STUDY + card)
            elif self._tanach_allowed(card):
                out.append(TANACH + card)
        # the target is named by its place in the opponent's Beit Midrash: the card is face down
        targets = len(self.study[1 - p])
        if targets:
            for source in [c for c in hand if era[c] >= 0] + self.study[p]:
                first = CHALLENGE + source * r.slots
                out.extend(range(first, first + targets))
        if self.deck or self.discard:
            out.append(DRAW)
        out.append(END)
        return out

    def _tanach_allowed(self, card: int) -> bool:
        r, p = self.g.rules, self.player
        hand_after = len(self.hands[p]) - 1  # the card itself leaves the hand when played
        for kind, amount in r.requires[card]:
            if kind == "any_beit_midrash_sage" and len(self.study[0]) + len(self.study[1]) < amount:
                return False
            if kind == "hand_room" and hand_after >= r.hand_limit:
                return False
            if kind == "deck_not_empty" and not self.deck:
                return False
            if kind == "opponent_beit_midrash_sage" and len(self.study[1 - p]) < amount:
                return False
            if kind == "not_both_zero_tokens" and self.tokens[0] == self.tokens[1] == 0:
                return False
            if kind == "opponent_has_tokens" and self.tokens[1 - p] < amount:
                return False
            if kind == "open_timeline_slots" and self.timeline[p].count(-1) != amount:
                return False
            if kind == "tokens_at_least" and self.tokens[p] < amount:
                return False
            if kind == "discard_at_least" and len(self.discard) < amount:
                return False
            if kind == "hand_at_most" and hand_after > amount:
                return False
        return True

    def apply_action(self, action: int) -> None:
        before = (self.tokens[:], self.player) if self.narration is not None else None
        self._apply(action)
        if before is not None:
            self._say_tokens(*before)

    def _say_tokens(self, tokens: list[int], player: int) -> None:
        """What an action did to the purses, and the actions the next player starts a turn with."""
        changed = [f"seat {s} {tokens[s]} -> {self.tokens[s]}" for s in (0, 1) if tokens[s] != self.tokens[s]]
        if changed:
            self._say("tokens: " + ", ".join(changed))
        if self.player != player and not self.over:
            left, purse = self.left, self.tokens[self.player]
            self._say(f"seat {self.player}'s turn: {left} action{'s' * (left != 1)}, {purse} token{'s' * (purse != 1)}")

    def _apply(self, action: int) -> None:
        phase = self.phase
        if phase == "act" and not self.over:
            self._take_move(action, phase)
            self._act(action)
            return
        possible = not self.over and (
            (phase == "first" and action in (FIRST, FIRST + 1))
            or (phase != "first" and CHANCE_CARD <= action < FIRST and action - CHANCE_CARD in self.deck)
        )
        self._take_chance(action, possible, phase)
        if phase == "first":
            self.player = action - FIRST
            self._start_turn()
        else:
            self._receive(action - CHANCE_CARD)

    # -- moves -----------------------------------------------------------------------------
    def _gain(self, p: int, n: int) -> None:
        self.tokens[p] = max(0, min(self.cap[p], self.tokens[p] + n))

    def _receive(self, card: int) -> None:
        self.deck.remove(card)
        r = self.g.rules
        if self.phase == "deal":
            seat = 0 if len(self.hands[0]) <= len(self.hands[1]) else 1
            insort(self.hands[seat], card)
            if len(self.hands[1]) == r.hand_start:
                self.phase = "first"
            return
        p = self.player
        if len(self.hands[p]) >= r.hand_limit:
            self.discard.append(card)  # drawn into a full hand: discarded
        else:
            insort(self.hands[p], card)
        self.pending_draws -= 1
        self._refill_deck()
        if self.pending_draws > 0 and self.deck:
            return
        self.phase = "act"
        self._after_action()

    def _refill_deck(self) -> None:
        if not self.deck and self.discard:  # the discard pile becomes the new deck
            self.deck, self.discard = self.discard, []

    def _draw(self, count: int) -> None:
        self._refill_deck()
        if not self.deck or count <= 0:
            self._after_action()
            return
        self.pending_draws = count
        self.phase = "draw"

    def _act(self, action: int) -> None:
        r, p = self.g.rules, self.player
        self.actions_taken += 1
        if action == END:  # ending a turn is an action too: the cap counts it
            if self.actions_taken >= r.action_cap:
                self._finish(None, "cap")
            else:
                self._end_turn()
            return
        if action == DRAW:
            self.left -= 1
            self._draw(1)
            return
        if action >= CHALLENGE:
            source, slot = divmod(action - CHALLENGE, r.slots)
            target = self.study[1 - p][slot]
            self.left -= 1
            (self.hands[p] if source in self.hands[p] else self.study[p]).remove(source)
            self.study[1 - p].remove(target)
            self.seen[p].discard(target)
            self.discard += [source, target]
            diff = r.power[r.era[source]] - r.power[r.era[target]]
            if diff:
                self._gain(p if diff > 0 else 1 - p, abs(diff))
            self.tally.events.append(Event("play", p, r.ids[source]))
            self._after_action()
            return
        kind, card = divmod(action, 100)
        self.hands[p].remove(card)
        self.tally.events.append(Event("play", p, r.ids[card]))
        if kind * 100 == PLACE:
            if self.free[p]:
                self.free[p] = False  # Moshe Rabbeinu: no tokens, no action
            else:
                self.tokens[p] -= r.cost
                self.left -= 1
            self.timeline[p][r.era[card]] = card
            if -1 not in self.timeline[p]:
                self._finish(p, "normal")
                return
            self._after_action()
        elif kind * 100 == STUDY:
            self.left -= 1
            self.study[p].append(card)
            self._after_action()
        else:
            self.left -= 1
            self._tanach(card)

    def _tanach(self, card: int) -> None:
        r, p = self.g.rules, self.player
        effect = r.effect[card]
        kind, amount = effect.kind, effect.amount or 0
        self.discard.append(card)
        if kind == "gain_actions":
            self.left += amount
        elif kind == "raise_token_cap":
            self.cap[p] += amount
        elif kind == "tokens_per_beit_midrash_sage":
            self._gain(p, amount * (len(self.study[0]) + len(self.study[1])))
        elif kind == "draw":
            room = r.hand_limit - len(self.hands[p])
            self._draw(max(0, min(amount, room, len(self.deck))))
            return
        elif kind == "free_timeline_placement":
            self.free[p] = True
        elif kind == "opponent_loses_actions":
            turns = effect.turns or 1
            pen = self.penalty[1 - p]
            pen.extend([0] * (turns - len(pen)))
            for i in range(turns):
                pen[i] += amount
        elif kind == "view_opponent_beit_midrash":
            self.seen[p] |= set(self.study[1 - p])
        elif kind == "zero_all_tokens":
            self.tokens = [0, 0]
        elif kind == "steal_tokens":
            taken = min(amount, self.tokens[1 - p])
            self.tokens[1 - p] -= taken
            self._gain(p, taken)
        elif kind == "fill_last_timeline_slot":
            self.discard.remove(card)
            self.tokens[p] -= effect.cost or 0
            slot = self.timeline[p].index(-1)
            self.timeline[p][slot] = card
            self._finish(p, "normal")
            return
        elif kind == "take_from_discard":
            self.discard.remove(card)
            for _ in range(amount):
                insort(self.hands[p], self.discard.pop())
            self.discard.append(card)
        self._after_action()

    def _after_action(self) -> None:
        if self.over:
            return
        if self.actions_taken >= self.g.rules.action_cap:
            self._finish(None, "cap")
        elif self.left <= 0:
            self._end_turn()
        else:
            self.phase = "act"

    def _start_turn(self) -> None:
        r, p = self.g.rules, self.player
        if self.study[p]:
            self._gain(p, r.income * len(self.study[p]))
        lost = self.penalty[p].pop(0) if self.penalty[p] else 0
        self.left = max(0, r.actions - lost)
        self.phase = "act"
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
        # studied cards are Sages: deal those first from the Sages in the pool
        sages = [c for c in sages_pool if r.era[c] >= 0]
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
        if self.phase != "act" or self.is_chance_node():
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
