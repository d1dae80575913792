"""Time Line Battle v2: three Timelines of Days; Characters deployed into Days fight Front to Rear.

Every Character's ability is read from the ability vocabulary in cards/time-line-battle/
(attack, reduce_chosen, reduce_each_ally, redirect_to_front, double_friendly, revive,
sacrifice_for, lock_enemy_front, vp_multiplier), so a Character composed in YAML plays
without new code. The Day's seven phases run in the digest's order; decisions alternate
from the Start Player.
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

from engine.api import CHANCE, TERMINAL, Event, GameDef, TwoPlayerState, pick
from engine.cards.time_line_battle import (
    Attack,
    Character,
    DoubleFriendly,
    LockEnemyFront,
    RedirectToFront,
    ReduceChosen,
    ReduceEachAlly,
    Revive,
    SacrificeFor,
    VpMultiplier,
)
from printkit.data.game import Game

DEPLOY, CYCLE, NO_CYCLE, REVIVE, NO_REVIVE = 0, 1000, 1100, 1200, 1300
SACRIFICE, NO_SACRIFICE, ENCHANT, NO_ENCHANT, TARGET = 1400, 1500, 1600, 1700, 1800
REDUCE, STOP, OVERKILL, DRAW, FIRST = 2000, 2100, 2200, 3000, 4000
SACRIFICED = 10**6  # the damage a sacrifice counts as: it always kills


_NOBODY: frozenset[tuple[int, int]] = frozenset()  # no Character locked


class Phase(IntEnum):
    """What the state waits for: chance first (a deal, the Start Player, a refill), then a player's decision."""

    DEAL = 0
    FIRST = 1
    REFILL = 2
    DEPLOY = 3
    CYCLE = 4
    REFILLING = 5  # between decisions: drawing back up after a deploy, or the Day running on
    REVIVE = 6
    SACRIFICE = 7
    ENCHANT = 8
    TARGET = 9
    REDUCE = 10
    OVERKILL = 11


class Step(IntEnum):
    """The Day's automatic steps a queue of decisions goes on with once it is answered."""

    ARRIVE = 0
    TOTAL = 1
    APPLY = 2


# the members under module names too: the hot paths read a global faster than an enum's attribute
(
    P_DEAL,
    P_FIRST,
    P_REFILL,
    P_DEPLOY,
    P_CYCLE,
    P_REFILLING,
    P_REVIVE,
    P_SACRIFICE,
    P_ENCHANT,
    P_TARGET,
    P_REDUCE,
    P_OVERKILL,
) = Phase
S_ARRIVE, S_TOTAL, S_APPLY = Step


@dataclass(frozen=True)
class Rules:
    chars: tuple[Character, ...]  # by Order, Front first
    timelines: int
    hand: int
    cycle: int
    deploy_first: int
    deploy_later: int
    deploy_days: int
    min_days: int
    vp: int
    quiet_days: int
    wipeout_ends: bool
    day_cap: int
    reviver_must_survive: bool  # the Reviver's "if survived a Day" is its own, not its target's


def rules_from(game: Game) -> Rules:
    dealt = (c.parsed for c, _ in game.decks[0].entries)
    chars = tuple(sorted((c for c in dealt if isinstance(c, Character)), key=lambda c: c.order))
    return Rules(
        chars=chars,
        timelines=int(game.rule("timelines")),
        hand=int(game.rule("hand_size")),
        cycle=int(game.rule("cycle_to_bottom")),
        deploy_first=int(game.rule("deploy_first_timeline")),
        deploy_later=int(game.rule("deploy_later_timeline")),
        deploy_days=int(game.rule("deploy_days")),
        min_days=int(game.rule("min_days")),
        vp=int(game.rule("vp_per_survivor")),
        quiet_days=int(game.rule("quiet_days_to_end")),
        wipeout_ends=bool(game.rule("wipeout_ends_timeline")),
        day_cap=int(game.rule("day_cap")),
        reviver_must_survive=game.rule("revive_condition") == "reviver_survived",
    )


def _has(char: Character, kind: type) -> Any:
    return next((a for a in char.ability if isinstance(a, kind)), None)


@dataclass(frozen=True, slots=True)
class Powers:
    """One Character's abilities as the Day reads them, worked out once when the game is built.

    Where a Character lists an ability kind twice, its first one counts, as the card reads top down.
    """

    health: int
    attacks: tuple[Strike, ...]
    sacrifice_attacks: tuple[Strike, ...]  # the attacks a sacrifice lets it make
    revives: bool
    revive_days: int  # Days of this Timeline the Reviver (or its target: the rule option) must have survived
    sacrifices: bool
    doubles: int  # the Enchanter's factor; 0 for none
    locks: bool
    chooses: bool  # one of its attacks is aimed at an enemy of its player's choice
    chosen_hit: int  # that attack's amount, for the heuristic
    cut_each: int  # the Protector's cut off each ally; 0 for none
    reduce_pool: int  # damage it may take off chosen allies; 0 for none
    deflects: bool
    vp_factor: int
    strength: float  # Health and damage together, for the heuristic


# an attack as the Day reads it: (the one enemy it hits, by its place in their line Front first, or None;
# else the several it reaches, as a slice of that line, or None for the enemy its player chose; amount;
# from the dead; Days it must have survived; only on the Day it was deployed into)
Strike = tuple[int | None, slice | None, int, bool, int, bool]

_REACH: dict[str, Callable[[int], int | slice]] = {  # the enemies each target reaches, by place in their line
    "front": lambda n: 0,
    "rear": lambda n: -1,
    "front_n": lambda n: slice(0, n),
    "rear_n": lambda n: slice(-n, None),
    "all": lambda n: slice(None),
}


def strike(a: Attack) -> Strike:
    reach = None if a.target == "chosen" else _REACH[a.target](a.count)
    return (
        reach if isinstance(reach, int) else None,
        reach if isinstance(reach, slice) else None,
        a.amount or 0,
        a.amount_from == "dead_both_sides",
        a.survived_days or 0,
        a.deployed_today,
    )


def powers_of(char: Character) -> Powers:
    attacks = tuple(a for a in char.ability if isinstance(a, Attack))
    revive, double = _has(char, Revive), _has(char, DoubleFriendly)
    each, chosen, vp = _has(char, ReduceEachAlly), _has(char, ReduceChosen), _has(char, VpMultiplier)
    hits = sum((a.amount or 3) * (a.count if a.target in ("front_n", "rear_n") else 1) for a in attacks)
    return Powers(
        health=char.health,
        attacks=tuple(strike(a) for a in attacks),
        sacrifice_attacks=tuple(strike(a.attack) for a in char.ability if isinstance(a, SacrificeFor)),
        revives=revive is not None,
        revive_days=int(getattr(revive, "survived_days", 0) or 0),
        sacrifices=_has(char, SacrificeFor) is not None,
        doubles=double.factor if double is not None else 0,
        locks=_has(char, LockEnemyFront) is not None,
        chooses=any(a.target == "chosen" for a in attacks),
        chosen_hit=next((a.amount or 0 for a in attacks if a.target == "chosen"), 0),
        cut_each=each.amount if each is not None else 0,
        reduce_pool=chosen.pool if chosen is not None else 0,
        deflects=_has(char, RedirectToFront) is not None,
        vp_factor=vp.factor if vp is not None else 1,
        strength=char.health + 2 * hits + (4 if len(char.ability) > 1 or not hits else 0),
    )


class TimeLineBattleGame(GameDef):
    slug = "time-line-battle"

    def __init__(self, game: Game) -> None:
        self.title = game.title
        self.rules = rules_from(game)

    @property
    def rules(self) -> Rules:
        return self._rules

    @rules.setter
    def rules(self, rules: Rules) -> None:
        """The rules, and each Character's powers read from them (a variant's rules bring their own)."""
        self._rules = rules
        self.powers = powers = tuple(powers_of(c) for c in rules.chars)

        def holding(has: Callable[[Powers], bool]) -> tuple[int, ...]:
            """The Characters with a power, by Order: the few the Day looks for among those in play."""
            return tuple(c for c, w in enumerate(powers) if has(w))

        self.revivers, self.lockers, self.sacrificers = holding(_revives), holding(_locks), holding(_sacrifices)
        self.enchanters, self.choosers, self.shielders = holding(_doubles), holding(_chooses), holding(_shields)
        self.deflectors = holding(_deflects)
        # the Day's decisions in the order they are asked, each with the Characters that take it
        self.deciders = ((P_SACRIFICE, self.sacrificers), (P_ENCHANT, self.enchanters), (P_TARGET, self.choosers))
        self.health = tuple(w.health for w in powers)
        self.day_numbers = range(1, rules.deploy_days + 1)
        self._deploy_rows: dict[tuple[bool, ...], tuple[tuple[int, ...], ...]] = {}

    def deploy_rows(self, open_days: tuple[bool, ...]) -> tuple[tuple[int, ...], ...]:
        """Each Character's deploy actions into the Days open to it (a flag a Day), made once per set of Days."""
        rows = self._deploy_rows.get(open_days)
        if rows is None:
            days, into = self.rules.deploy_days, [d for d, open_ in enumerate(open_days) if open_]
            rows = tuple(tuple(DEPLOY + c * days + d for d in into) for c in range(len(self.rules.chars)))
            self._deploy_rows[open_days] = rows
        return rows

    def new_initial_state(self) -> TimeLineBattleState:
        return TimeLineBattleState(self)

    def card_names(self) -> dict[str, str]:
        return {c.id: c.name for c in self.rules.chars}


@dataclass(slots=True)
class Side:
    """One player's cards and Characters."""

    pool: list[int] = field(default_factory=list)  # the deck's unknown part: drawn by chance
    bottom: list[int] = field(default_factory=list)  # cards put under the deck, drawn last, in order
    hand: list[int] = field(default_factory=list)
    deployed: dict[int, int] = field(default_factory=dict)  # character -> Day deployed into
    in_play: list[int] = field(default_factory=list)  # alive and arrived this Timeline, by Order: Front first
    dead: list[int] = field(default_factory=list)  # flipped this Timeline
    survived: dict[int, int] = field(default_factory=dict)  # Days survived this Timeline
    vp: int = 0

    def copy(self) -> Side:
        return Side(
            self.pool[:],
            self.bottom[:],
            self.hand[:],
            dict(self.deployed),
            self.in_play[:],
            self.dead[:],
            dict(self.survived),
            self.vp,
        )

    def alive(self) -> list[int]:
        """The Characters in play, Front first (Order is the index); the list itself, not to be changed."""
        return self.in_play


@dataclass(slots=True)
class Day:
    """What one Day has decided and dealt so far."""

    deaths: int = 0
    revived: int = 0
    then: Step = S_ARRIVE  # the step the queued decisions go on with
    locked: frozenset[tuple[int, int]] = frozenset()  # (player, character) the Shocker stops
    sacrificed: list[tuple[int, int, int]] = field(default_factory=list)  # (player, sacrificer, victim)
    enchanted: list[tuple[int, int, int]] = field(default_factory=list)  # (player, ally, factor)
    targets: dict[tuple[int, int], int] = field(default_factory=dict)  # (player, attacker) -> chosen enemy
    incoming: list[dict[int, int]] | None = None  # per player: damage added up on each Character; None until then
    targeted: list[dict[int, int]] = field(default_factory=lambda: [{}, {}])  # the part of it from chosen attacks
    pool: list[int] = field(default_factory=lambda: [0, 0])  # chosen reductions still to share out
    damage: list[dict[int, int]] = field(default_factory=lambda: [{}, {}])  # dealt, overkill included
    doomed: list[list[int]] = field(default_factory=lambda: [[], []])  # killed this Day, in the order they fell
    extra: list[tuple[int, int, int, int]] = field(default_factory=list)  # overkill sent: (side, to, amount, by)
    applied: bool = False  # the added-up damage has been dealt
    overkill: int = 0  # the overkill a player is choosing a new target for

    def copy(self) -> Day:
        return Day(
            self.deaths,
            self.revived,
            self.then,
            self.locked,
            self.sacrificed[:],
            self.enchanted[:],
            dict(self.targets),
            None if self.incoming is None else [dict(d) for d in self.incoming],
            [dict(d) for d in self.targeted],
            self.pool[:],
            [dict(d) for d in self.damage],
            [d[:] for d in self.doomed],
            self.extra[:],
            self.applied,
            self.overkill,
        )


Decision = tuple[Phase, int, int]  # (what is decided, by which player, for which character or -1)


def _parse_side(text: str, index: dict[str, int], where: str) -> list[tuple[int, int, int, bool]]:
    """ "reviver@1+1 guard+1!" -> (character, Day deployed into, Days survived, dead) each."""
    out = []
    for token in text.split():
        dead = token.endswith("!")
        token = token.rstrip("!")
        token, _, survived = token.partition("+")
        name, _, day = token.partition("@")
        if name not in index:
            raise ValueError(f"{where}: no Character {name!r} (expected one of {', '.join(index)})")
        out.append((index[name], int(day or 1), int(survived or 0), dead))
    return out


class TimeLineBattleState(TwoPlayerState):
    def __init__(self, game: TimeLineBattleGame) -> None:
        self.g = game
        self.rules, self.powers = game.rules, game.powers  # read at every step: kept here, not looked up on the game
        n = len(game.rules.chars)
        self.sides = [Side(pool=list(range(n))), Side(pool=list(range(n)))]
        self.phase = P_DEAL
        self.player = 0
        self.start = 0
        self.timeline = 1
        self.day = 0
        self.quiet = 0
        self.to_deploy = [0, 0]
        self.today = Day()
        self.queue: list[Decision] = []  # decisions still to take
        self.capped = False
        self._start_record()

    @classmethod
    def at_day(
        cls, game: TimeLineBattleGame, position: str, *, day: int = 1, timeline: int = 1, start: int = 0
    ) -> TimeLineBattleState:
        """A state at the start of a Day, the Characters set out as a short description says.

        position: seat 0's Characters, "|", seat 1's, each "id[@D][+S][!]": deployed into Day D
        (1 if not given: in play if D is before this Day, arriving on it if D is this Day), having
        survived S Days of this Timeline, and "!" for one already dead. Hands and decks are empty.
        Example: "reviver@1+1 guard+1! | rear-guard", day=2.
        """
        index = {c.id: i for i, c in enumerate(game.rules.chars)}
        halves = position.split("|")
        if len(halves) != 2:
            raise ValueError(f"{position!r}: expected seat 0's Characters, '|', seat 1's")
        state = cls(game)
        for seat, (side, text) in enumerate(zip(state.sides, halves, strict=True)):
            side.pool, side.hand = [], []
            for c, deployed, survived, dead in _parse_side(text, index, f"{position!r} seat {seat}"):
                side.deployed[c] = deployed
                side.survived[c] = survived
                if dead:
                    side.dead.append(c)
                elif deployed < day:
                    bisect.insort(side.in_play, c)
        state.start, state.player, state.timeline, state.day = start, start, timeline, day - 1
        state.phase = P_REFILLING  # between decisions, until the Day asks one
        state._next_day()
        return state

    def clone(self) -> TimeLineBattleState:
        o = TimeLineBattleState.__new__(TimeLineBattleState)
        o.g, o.rules, o.powers = self.g, self.rules, self.powers
        o.sides = [s.copy() for s in self.sides]
        o.phase, o.player, o.start, o.timeline, o.day, o.quiet = (
            self.phase,
            self.player,
            self.start,
            self.timeline,
            self.day,
            self.quiet,
        )
        o.to_deploy = self.to_deploy[:]
        o.today = self.today.copy()
        o.queue = self.queue[:]
        o.capped = self.capped
        self._copy_record(o)
        return o

    # -- the API ----------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        return CHANCE if self.phase <= P_REFILL else self.player

    def _drawer(self) -> int:
        if self.phase == P_DEAL:
            return 0 if len(self.sides[0].hand) <= len(self.sides[1].hand) else 1
        return self.player

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.phase == P_FIRST:
            return [(FIRST, 0.5), (FIRST + 1, 0.5)]
        pool = self.sides[self._drawer()].pool
        return [(DRAW + c, 1.0 / len(pool)) for c in pool]

    def sample_chance(self, rng: random.Random) -> int:
        phase = self.phase
        if phase == P_FIRST:
            return pick(rng, (FIRST, FIRST + 1))
        pool = self.sides[self.player if phase == P_REFILL else self._drawer()].pool
        return DRAW + pick(rng, pool)

    def _work_out_legal(self) -> list[int]:
        if self.over:
            return []
        if self.phase <= P_REFILL:
            return [a for a, _ in self.chance_outcomes()]
        return _LEGAL[self.phase](self)

    def _legal_deploy(self) -> list[int]:
        side = self.sides[self.player]
        placed = list(side.deployed.values())
        counts = list(map(placed.count, self.g.day_numbers))  # the player's Characters in each Day
        fewest = min(counts)
        rows = self.g.deploy_rows(tuple(map(fewest.__eq__, counts)))
        # a hand holds a card once (a deck has one of each Character): sorted, it lists each card once
        return list(itertools.chain.from_iterable(map(rows.__getitem__, sorted(side.hand))))

    def _legal_cycle(self) -> list[int]:
        return [*map(CYCLE.__add__, sorted(self.sides[self.player].hand)), NO_CYCLE]

    def _legal_revive(self) -> list[int]:
        side = self.sides[self.player]
        if self.rules.reviver_must_survive:  # the Reviver was let act by _next_day: any dead ally will do
            return [REVIVE + c for c in side.dead] + [NO_REVIVE]
        needed = self.powers[self.queue[0][2]].revive_days
        return [REVIVE + c for c in side.dead if side.survived.get(c, 0) >= needed] + [NO_REVIVE]

    def _legal_sacrifice(self) -> list[int]:
        me = self.queue[0][2]
        return [SACRIFICE + c for c in self.sides[self.player].in_play if c != me] + [NO_SACRIFICE]

    def _legal_enchant(self) -> list[int]:
        me = self.queue[0][2]
        return [ENCHANT + c for c in self.sides[self.player].in_play if c != me] + [NO_ENCHANT]

    def _legal_target(self) -> list[int]:
        return [TARGET + c for c in self.sides[1 - self.player].in_play]

    def _legal_reduce(self) -> list[int]:
        assert self.today.incoming is not None
        incoming = self.today.incoming[self.player]
        return [REDUCE + c for c in self.sides[self.player].in_play if incoming.get(c, 0) > 0] + [STOP]

    def _legal_overkill(self) -> list[int]:
        doomed = self.today.doomed[1 - self.player]
        return [OVERKILL + c for c in self.sides[1 - self.player].in_play if c not in doomed]

    def apply_action(self, action: int) -> None:
        phase = self.phase
        # a step that stops at a decision leaves its legal actions worked out, for the next move to use
        if phase <= P_REFILL:  # checked directly, without listing every card of the pool
            if phase == P_FIRST:
                self._take_chance(action, action in (FIRST, FIRST + 1), _NAMES[phase])
                self.start = self.player = action - FIRST
                self._begin_timeline()
                return
            side = self.sides[self.player if phase == P_REFILL else self._drawer()]
            card = action - DRAW
            self._take_chance(action, DRAW <= action < FIRST and card in side.pool, _NAMES[phase])
            self._receive(side, card)
            return
        self._take_move(action, _NAMES[phase])
        if phase == P_DEPLOY:
            self._deploy(action)
        elif phase == P_CYCLE:
            self._cycle(action)
        else:
            self._decide(action)

    # -- cards and deployment -----------------------------------------------------------------
    def _receive(self, side: Side, card: int) -> None:
        side.pool.remove(card)
        side.hand.append(card)
        if self.phase == P_DEAL:
            if len(self.sides[1].hand) == self.rules.hand:
                self.phase = P_FIRST
            return
        self._refill()

    def _refill(self) -> None:
        """Draw back to a full hand: unknown cards by chance, then the ones put under the deck, in order."""
        side, full = self.sides[self.player], self.rules.hand
        hand = side.hand
        if len(hand) < full:
            if side.pool:
                self.phase = P_REFILL
                return
            while len(hand) < full and side.bottom:  # the deck's unknown part is gone
                hand.append(side.bottom.pop(0))
        self._next_deployment()

    def _begin_timeline(self) -> None:
        r = self.rules
        for side in self.sides:
            side.in_play, side.dead, side.survived = [], [], {}
        count = r.deploy_first if self.timeline == 1 else r.deploy_later
        self.to_deploy = [count, count]
        self.player = self.start
        self.phase = P_DEPLOY
        if not self.sides[self.player].hand:
            self._next_deployment()

    def _deploy(self, action: int) -> None:
        r = self.rules
        card, day = divmod(action - DEPLOY, r.deploy_days)
        side = self.sides[self.player]
        side.hand.remove(card)
        side.deployed[card] = day + 1
        self.to_deploy[self.player] -= 1
        self.tally.events.append(Event("play", self.player, r.chars[card].id))
        if r.cycle and side.hand:
            self.phase = P_CYCLE
            return
        self.phase = P_REFILLING
        self._refill()

    def _cycle(self, action: int) -> None:
        side = self.sides[self.player]
        if action != NO_CYCLE:
            side.hand.remove(action - CYCLE)
            side.bottom.append(action - CYCLE)
        self._refill()

    def _next_deployment(self) -> None:
        """Alternate from the Start Player until both have deployed this Timeline's Characters."""
        other = 1 - self.player
        if self.to_deploy[other] > 0 and self.sides[other].hand:
            self.player = other
        elif not (self.to_deploy[self.player] > 0 and self.sides[self.player].hand):
            self.day = 0
            self._next_day()
            return
        self.phase = P_DEPLOY

    # -- the Day ----------------------------------------------------------------------------------
    def _actors(self, holders: tuple[int, ...], locked: frozenset[tuple[int, int]]) -> list[tuple[int, int]]:
        """(player, character) for every Character in play among the holders of a power and not locked,
        alternating players from the Start Player.

        The holders are few and in Order, as in_play is: looking them up in in_play lists them in its order,
        without a pass over every Character in play.
        """
        first = self.start
        here, there = self.sides[first].in_play, self.sides[1 - first].in_play
        mine, theirs = [], []
        for c in holders:
            if c in here:
                mine.append(c)
            if c in there:
                theirs.append(c)
        if not theirs:
            return [(first, c) for c in mine if (first, c) not in locked] if mine else []
        if locked:
            mine = [c for c in mine if (first, c) not in locked]
            theirs = [c for c in theirs if (1 - first, c) not in locked]
        pairs = []
        for one, other in itertools.zip_longest(mine, theirs):
            if one is not None:
                pairs.append((first, one))
            if other is not None:
                pairs.append((1 - first, other))
        return pairs

    def _next_day(self) -> None:
        self.day += 1
        # every field given, so no default is made afresh: a Day begins for each of some fifteen a game
        self.today = Day(0, 0, S_ARRIVE, _NOBODY, [], [], {}, None, [{}, {}], [0, 0], [{}, {}], [[], []], [], False, 0)
        if self.narration is not None:  # words only for a replay
            self._say(f"Timeline {self.timeline}, Day {self.day}: seat {self.start} is the Start Player")
        # 1 start of Day: revivers; the one that must have survived a Day of this Timeline is the
        # Reviver itself or the ally it brings back, as the rule option reads the seed
        revivers = self._actors(self.g.revivers, _NOBODY)
        if revivers and self.rules.reviver_must_survive:
            powers = self.powers
            revivers = [(p, c) for p, c in revivers if self.sides[p].survived.get(c, 0) >= powers[c].revive_days]
        if revivers:
            self.queue = [(P_REVIVE, p, c) for p, c in revivers]
            self._run_queue_or(S_ARRIVE)
        else:
            self.queue = []
            self._arrive()

    def _run_queue_or(self, then: Step) -> None:
        """Ask the queued decisions that have a real choice; then go on with the step `then`."""
        queue = self.queue
        while queue:
            kind, p, _ = queue[0]
            self.player, self.phase = p, kind
            legal = _LEGAL[kind](self)
            if len(legal) > 1 or (legal and kind in (P_TARGET, P_OVERKILL)):
                self.today.then = then
                self._legal = legal
                return
            queue.pop(0)  # nothing to choose: only "none", or no one to aim at
        _STEPS[then](self)

    def _decide(self, action: int) -> None:
        kind, p, me = self.queue.pop(0)
        _DECIDE[kind](self, p, me, action)
        self._run_queue_or(self.today.then)

    def _revive(self, p: int, me: int, action: int) -> None:
        if action == NO_REVIVE:
            return
        card = action - REVIVE
        side = self.sides[p]
        side.dead.remove(card)
        bisect.insort(side.in_play, card)
        self.today.revived += 1
        if self.narration is not None:  # words only for a replay
            self._say(f"seat {p}'s {self.rules.chars[me].name} revives {self.rules.chars[card].name}")

    def _sacrifice(self, p: int, me: int, action: int) -> None:
        if action != NO_SACRIFICE:
            self.today.sacrificed.append((p, me, action - SACRIFICE))

    def _enchant(self, p: int, me: int, action: int) -> None:
        if action != NO_ENCHANT:
            self.today.enchanted.append((p, action - ENCHANT, self.powers[me].doubles))

    def _target(self, p: int, me: int, action: int) -> None:
        self.today.targets[(p, me)] = action - TARGET

    def _reduce(self, p: int, me: int, action: int) -> None:
        today = self.today
        if action == STOP:
            self.queue = [q for q in self.queue if not (q[0] == P_REDUCE and q[1] == p)]
            return
        assert today.incoming is not None
        today.incoming[p][action - REDUCE] -= 1
        today.pool[p] -= 1
        if today.pool[p] > 0:
            self.queue.insert(0, (P_REDUCE, p, me))

    def _overkill(self, p: int, me: int, action: int) -> None:
        self.today.extra.append((1 - p, action - OVERKILL, self.today.overkill, p))
        self.today.overkill = 0

    def _arrive(self) -> None:
        g = self.g
        # 2 arrive: Characters deployed into this Day come into play
        today = self.day
        for side in self.sides:
            deployed = side.deployed
            if today not in deployed.values():  # after the deploy Days nobody arrives
                continue
            in_play, dead = side.in_play, side.dead
            for card, day in deployed.items():
                if day == today and card not in in_play and card not in dead:
                    bisect.insort(in_play, card)
        # 3 decide: Shocker locks first (no choice), then sacrifices, Enchanter picks, targets
        locked = _NOBODY
        lockers = self._actors(g.lockers, _NOBODY)
        if lockers:
            # in turn from the Start Player, as the seed resolves Phase 3: a Shocker the enemy's Shocker has
            # already locked may do nothing, so of two Front Shockers only the Start Player's acts
            shocked: set[tuple[int, int]] = set()
            for p, c in lockers:
                if (p, c) not in shocked and self.sides[1 - p].in_play:
                    shocked.add((1 - p, self.sides[1 - p].in_play[0]))
            locked = frozenset(shocked)
        self.today.locked = locked
        queue: list[Decision] = []
        for kind, has in g.deciders:
            actors = self._actors(has, locked)
            if actors:
                queue += [(kind, p, c) for p, c in actors]
        self.queue = queue
        if queue:
            self._run_queue_or(S_TOTAL)
        else:
            self._total()

    def _total(self) -> None:
        """4: add up the damage on every target; a Deflector sends damage aimed past the Front to the Front."""
        today, powers, g = self.today, self.powers, self.g
        locked, targets, day = today.locked, today.targets, self.day
        dead_both = len(self.sides[0].dead) + len(self.sides[1].dead)
        incoming: list[dict[int, int]] = [{}, {}]
        targeted = today.targeted  # the Day's own, empty until now: filled here, not made anew
        factor: dict[tuple[int, int], int] = {}
        for p, target, times in today.enchanted:  # all its damage this Day, before reductions
            factor[(p, target)] = factor.get((p, target), 1) * times
        sacrificers = frozenset((p, me) for p, me, _ in today.sacrificed) if today.sacrificed else _NOBODY
        for p in (0, 1):
            side, foe = self.sides[p], self.sides[1 - p]
            line = foe.in_play  # the enemies, Front first
            if not line:  # nobody to hit
                continue
            front = line[0]
            deflect = False
            for c in g.deflectors:
                if c in line and (1 - p, c) not in locked:
                    deflect = True
                    break
            hit, aimed_hit = incoming[1 - p], targeted[1 - p]
            survived, deployed = side.survived, side.deployed
            for c in side.in_play:
                if locked and (p, c) in locked:
                    continue
                attacks = powers[c].attacks
                if sacrificers and (p, c) in sacrificers:
                    attacks += powers[c].sacrifice_attacks
                for one, reach, amount, from_dead, days, today_only in attacks:
                    if days and survived.get(c, 0) < days:
                        continue
                    if today_only and deployed.get(c) != day:
                        continue
                    if from_dead:
                        amount = dead_both
                    if factor:
                        amount *= factor.get((p, c), 1)
                    if one is not None:  # the Front or the Rear: no list of one made for it
                        t = front if deflect else line[one]
                        hit[t] = hit.get(t, 0) + amount
                    elif reach is not None:
                        for t in line[reach]:
                            if deflect:
                                t = front
                            hit[t] = hit.get(t, 0) + amount
                    else:  # the enemy its player chose, if still in the line
                        t = targets.get((p, c), -1)
                        if t not in line:
                            continue
                        if deflect:
                            t = front
                        hit[t] = hit.get(t, 0) + amount
                        aimed_hit[t] = aimed_hit.get(t, 0) + amount
        today.incoming = incoming
        # 5 reduce: the Protector's cut comes off every ally's total; then chosen reductions, Start Player first
        pool = today.pool  # [0, 0] until now
        for p, c in self._actors(self.g.shielders, locked):
            cut = powers[c].cut_each
            if cut:
                mine = incoming[p]
                for ally in mine:
                    if ally != c:
                        mine[ally] = max(0, mine[ally] - cut)
            pool[p] += powers[c].reduce_pool
        first = self.start
        if pool[first] > 0 or pool[1 - first] > 0:
            self.queue = [(P_REDUCE, p, -1) for p in (first, 1 - first) if pool[p] > 0]
            self._run_queue_or(S_APPLY)
        else:
            self.queue = []
            self._apply()

    def _apply(self) -> None:
        """6: apply the damage. The killed still dealt theirs; overkill trickles rearward, then forward from the Rear;
        a chosen target's overkill goes to new targets the attacker picks."""
        today = self.today
        damage, doomed, targeted = today.damage, today.doomed, today.targeted
        if not today.applied:
            today.applied = True
            assert today.incoming is not None
            # the damage is what was added up: no total is below 0 (amounts are counts, cuts stop at 0,
            # a reduction is offered only on damage left)
            damage[0].update(today.incoming[0])  # the Day's damage is empty until now
            damage[1].update(today.incoming[1])
            for p, _, victim in today.sacrificed:
                if victim not in doomed[p]:
                    damage[p][victim] = damage[p].get(victim, 0) + SACRIFICED
                    targeted[p][victim] = 0
        if today.extra:
            for p, c, amount, _ in today.extra:
                damage[p][c] = damage[p].get(c, 0) + amount
            today.extra = []
        # the first Character of a side, Front first, whose damage reaches its Health dies, then the next such,
        # a death on each side in turn; a side where nobody dies stays so (only its own deaths add to its damage)
        health, sides = self.g.health, self.sides
        dying = [bool(damage[0]), bool(damage[1])]  # no damage, no death: every Health is at least 1
        while dying[0] or dying[1]:
            for p in (0, 1):
                if not dying[p]:
                    continue
                fallen, dealt, in_play = doomed[p], damage[p], sides[p].in_play
                for c in in_play:
                    if dealt.get(c, 0) >= health[c] and c not in fallen:
                        break
                else:
                    dying[p] = False
                    continue
                fallen.append(c)
                dmg = dealt[c]
                over = 0 if dmg >= SACRIFICED else dmg - health[c]
                aimed = min(over, targeted[p].get(c, 0))
                trickle = over - aimed
                if trickle or aimed:
                    rest = [x for x in in_play if x not in fallen]
                    if trickle and rest:
                        behind = [x for x in rest if x > c]
                        nxt = behind[0] if behind else rest[-1]
                        dealt[nxt] = dealt.get(nxt, 0) + trickle
                    if aimed and rest:
                        today.overkill = aimed
                        self.queue = [(P_OVERKILL, 1 - p, c)]
                        self._run_queue_or(S_APPLY)
                        return
        if self.narration is not None:
            self._say_damage(today)
        for p in (0, 1):
            side = self.sides[p]
            for c in doomed[p]:
                side.in_play.remove(c)
                side.dead.append(c)
                today.deaths += 1
        self._end_day()

    def _say_damage(self, today: Day) -> None:
        """The Day's damage, Character by Character, and who dies of it."""
        chars = self.rules.chars
        for p in (0, 1):
            for c, dmg in sorted(today.damage[p].items()):
                if c not in self.sides[p].in_play:
                    continue
                if c in today.doomed[p]:
                    how = "sacrificed" if dmg >= SACRIFICED else f"takes {dmg} damage and dies"
                    self._say(f"seat {p}'s {chars[c].name} {how}")
                elif dmg > 0:
                    self._say(f"seat {p}'s {chars[c].name} takes {dmg} damage (Health {chars[c].health})")

    def _end_day(self) -> None:
        """7: survivors heal (damage is only per Day), count a Day survived; the Start Player changes."""
        r = self.rules
        for side in self.sides:
            survived = side.survived
            for c in side.in_play:
                survived[c] = survived.get(c, 0) + 1
        self.quiet = self.quiet + 1 if self.today.deaths == 0 and self.today.revived == 0 else 0
        self.start = 1 - self.start
        if self.day >= r.min_days:
            wiped = any(not side.in_play for side in self.sides)
            why = (
                "wipe-out"
                if r.wipeout_ends and wiped
                else "quiet"
                if self.quiet >= r.quiet_days
                else "cap"
                if self.day >= r.day_cap
                else None
            )
            if why:
                self._end_timeline(why)
                return
        self._next_day()

    def _end_timeline(self, why: str) -> None:
        r = self.rules
        if why == "cap":
            self.capped = True
        self.tally.events.append(Event("timeline", -1, why))
        for side in self.sides:
            for c in side.in_play:
                side.vp += r.vp * self.powers[c].vp_factor
        self.quiet = 0
        if self.narration is not None:
            reason = {"wipe-out": "a side is wiped out", "quiet": "quiet Days", "cap": "the Day cap"}[why]
            standing = ", ".join(f"seat {p} {len(s.in_play)} alive, {s.vp} VP in all" for p, s in enumerate(self.sides))
            self._say(f"Timeline {self.timeline} ends on Day {self.day} ({reason}): {standing}")
        if self.timeline == r.timelines:
            alive = [len(s.in_play) for s in self.sides]
            vp = [s.vp for s in self.sides]
            key = [(vp[p], alive[p]) for p in (0, 1)]
            self._finish(
                None if key[0] == key[1] else (0 if key[0] > key[1] else 1), "cap" if self.capped else "normal"
            )
            return
        self.timeline += 1
        self._begin_timeline()

    # -- views ---------------------------------------------------------------------------------------
    def observation(self, player: int) -> dict[str, Any]:
        r = self.rules
        names = [c.id for c in r.chars]
        return {
            "hand": sorted(names[c] for c in self.sides[player].hand),
            "opponent_hand": len(self.sides[1 - player].hand),
            "deployed": [{names[c]: d for c, d in sorted(s.deployed.items())} for s in self.sides],
            "in_play": [[names[c] for c in s.alive()] for s in self.sides],
            "dead": [[names[c] for c in sorted(s.dead)] for s in self.sides],
            "vp": [s.vp for s in self.sides],
            "timeline": self.timeline,
            "day": self.day,
            "start_player": self.start,
            "to_move": self.current_player(),
        }

    def resample(self, player: int, rng: random.Random) -> TimeLineBattleState:
        other = self.clone()
        opp = other.sides[1 - player]
        pool = opp.pool + opp.hand + opp.bottom
        rng.shuffle(pool)
        opp.hand, opp.pool, opp.bottom = pool[: len(opp.hand)], pool[len(opp.hand) :], []
        other._legal = None
        return other

    def action_to_string(self, action: int) -> str:
        r = self.rules
        name = [c.name for c in r.chars]
        if action >= FIRST:
            return f"Start Player: seat {action - FIRST}"
        if action >= DRAW:
            return f"draws {name[action - DRAW]}"
        for base, words in _LABELS:
            if action >= base:
                return words if base in _ALONE else f"{words} {name[action - base]}"
        card, day = divmod(action - DEPLOY, r.deploy_days)
        return f"deploys {name[card]} into Day {day + 1}"

    def played_card(self, action: int) -> str | None:
        r = self.rules
        if self.phase != P_DEPLOY or self.is_chance_node() or not DEPLOY <= action < CYCLE:
            return None
        return str(r.chars[(action - DEPLOY) // r.deploy_days].id)

    def heuristic(self, player: int) -> float:
        """VP first; then the strength (Health and damage) of Characters alive or still to arrive."""
        if self.over:
            return self.returns()[player]
        powers = self.powers

        def worth(p: int) -> float:
            side = self.sides[p]
            coming = [c for c, day in side.deployed.items() if day > self.day and c not in side.dead]
            gone = doomed(p)
            return side.vp * 15 + sum(powers[c].strength for c in set(side.in_play) | set(coming) if c not in gone) / 4

        def doomed(p: int) -> set[int]:
            """Characters the damage added up so far would kill, in the middle of a Day."""
            today = self.today
            incoming = dict(today.incoming[p]) if today.incoming is not None else {}
            if today.incoming is None:  # targets picked, their damage not yet added up
                for (q, attacker), target in today.targets.items():
                    if q != p:
                        incoming[target] = incoming.get(target, 0) + powers[attacker].chosen_hit
            return {c for c, dmg in incoming.items() if dmg >= powers[c].health} | {
                victim for q, _, victim in today.sacrificed if q == p
            }

        return math.tanh((worth(player) - worth(1 - player)) / 40)


# the steps and decisions of a Day, by what the state waits for: dispatched through tables, not names
_LEGAL: dict[Phase, Callable[[TimeLineBattleState], list[int]]] = {
    P_DEPLOY: TimeLineBattleState._legal_deploy,
    P_CYCLE: TimeLineBattleState._legal_cycle,
    P_REVIVE: TimeLineBattleState._legal_revive,
    P_SACRIFICE: TimeLineBattleState._legal_sacrifice,
    P_ENCHANT: TimeLineBattleState._legal_enchant,
    P_TARGET: TimeLineBattleState._legal_target,
    P_REDUCE: TimeLineBattleState._legal_reduce,
    P_OVERKILL: TimeLineBattleState._legal_overkill,
}
_DECIDE: dict[Phase, Callable[[TimeLineBattleState, int, int, int], None]] = {
    P_REVIVE: TimeLineBattleState._revive,
    P_SACRIFICE: TimeLineBattleState._sacrifice,
    P_ENCHANT: TimeLineBattleState._enchant,
    P_TARGET: TimeLineBattleState._target,
    P_REDUCE: TimeLineBattleState._reduce,
    P_OVERKILL: TimeLineBattleState._overkill,
}
_STEPS: dict[Step, Callable[[TimeLineBattleState], None]] = {
    S_ARRIVE: TimeLineBattleState._arrive,
    S_TOTAL: TimeLineBattleState._total,
    S_APPLY: TimeLineBattleState._apply,
}
_NAMES = {phase: phase.name.lower() for phase in Phase}  # for an illegal action's message


def _revives(w: Powers) -> bool:
    return w.revives


def _locks(w: Powers) -> bool:
    return w.locks


def _sacrifices(w: Powers) -> bool:
    return w.sacrifices


def _doubles(w: Powers) -> bool:
    return w.doubles > 0


def _chooses(w: Powers) -> bool:
    return w.chooses


def _deflects(w: Powers) -> bool:
    return w.deflects


def _shields(w: Powers) -> bool:
    return w.cut_each > 0 or w.reduce_pool > 0


_LABELS = (  # the decisions' words, highest action number first
    (OVERKILL, "sends overkill to"),
    (STOP, "stops reducing"),
    (REDUCE, "reduces damage to"),
    (TARGET, "targets"),
    (NO_ENCHANT, "enchants nobody"),
    (ENCHANT, "enchants"),
    (NO_SACRIFICE, "sacrifices nobody"),
    (SACRIFICE, "sacrifices"),
    (NO_REVIVE, "revives nobody"),
    (REVIVE, "revives"),
    (NO_CYCLE, "keeps the hand"),
    (CYCLE, "puts under the deck"),
)
_ALONE = frozenset({STOP, NO_ENCHANT, NO_SACRIFICE, NO_REVIVE, NO_CYCLE})  # words that name no Character
