"""Time Line Battle v2: three Timelines of Days; Characters deployed into Days fight Front to Rear.

Every Character's ability is read from the ability vocabulary in cards/time-line-battle/
(attack, reduce_chosen, reduce_each_ally, redirect_to_front, double_friendly, revive,
sacrifice_for, lock_enemy_front, vp_multiplier), so a Character composed in YAML plays
without new code. The Day's seven phases run in the digest's order; decisions alternate
from the Start Player.
"""

from __future__ import annotations

import copy
import itertools
import math
import random
from dataclasses import dataclass, field
from typing import Any

from engine.api import CHANCE, TERMINAL, Event, GameDef, TwoPlayerState, pick
from printkit.data.game import Game
from printkit.data.model import (
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

DEPLOY, CYCLE, NO_CYCLE, REVIVE, NO_REVIVE = 0, 1000, 1100, 1200, 1300
SACRIFICE, NO_SACRIFICE, ENCHANT, NO_ENCHANT, TARGET = 1400, 1500, 1600, 1700, 1800
REDUCE, STOP, OVERKILL, DRAW, FIRST = 2000, 2100, 2200, 3000, 4000


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
    chars = tuple(sorted((c for c, _ in game.decks[0].entries if isinstance(c, Character)), key=lambda c: c.order))
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


class TimeLineBattleGame(GameDef):
    slug = "time-line-battle"

    def __init__(self, game: Game) -> None:
        self.title = game.title
        self.rules = rules_from(game)

    def new_initial_state(self) -> TimeLineBattleState:
        return TimeLineBattleState(self)

    def card_names(self) -> dict[str, str]:
        return {c.id: c.name for c in self.rules.chars}


@dataclass
class Side:
    """One player's cards and Characters."""

    pool: list[int] = field(default_factory=list)  # the deck's unknown part: drawn by chance
    bottom: list[int] = field(default_factory=list)  # cards put under the deck, drawn last, in order
    hand: list[int] = field(default_factory=list)
    deployed: dict[int, int] = field(default_factory=dict)  # character -> Day deployed into
    in_play: list[int] = field(default_factory=list)  # alive and arrived this Timeline
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
        return sorted(self.in_play)  # Order is the index: Front first


class TimeLineBattleState(TwoPlayerState):
    def __init__(self, game: TimeLineBattleGame) -> None:
        self.g = game
        n = len(game.rules.chars)
        self.sides = [Side(pool=list(range(n))), Side(pool=list(range(n)))]
        self.phase = "deal"
        self.player = 0
        self.start = 0
        self.timeline = 1
        self.day = 0
        self.quiet = 0
        self.to_deploy = [0, 0]
        self.day_state: dict[str, Any] = {}
        self.queue: list[tuple[str, int, int]] = []  # decisions still to take: (kind, player, character)
        self.capped = False
        self._start_record()

    def clone(self) -> TimeLineBattleState:
        o = TimeLineBattleState.__new__(TimeLineBattleState)
        o.g = self.g
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
        o.day_state = copy.deepcopy(self.day_state)
        o.queue = self.queue[:]
        o.capped = self.capped
        self._copy_record(o)
        return o

    # -- the API ----------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        return CHANCE if self.phase in ("deal", "first", "refill") else self.player

    def _drawer(self) -> int:
        if self.phase == "deal":
            return 0 if len(self.sides[0].hand) <= len(self.sides[1].hand) else 1
        return self.player

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.phase == "first":
            return [(FIRST, 0.5), (FIRST + 1, 0.5)]
        pool = self.sides[self._drawer()].pool
        return [(DRAW + c, 1.0 / len(pool)) for c in pool]

    def sample_chance(self, rng: random.Random) -> int:
        if self.phase == "first":
            return pick(rng, (FIRST, FIRST + 1))
        pool = self.sides[self._drawer()].pool
        return DRAW + pick(rng, pool)

    def _work_out_legal(self) -> list[int]:
        if self.over:
            return []
        if self.current_player() == CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        side, foe = self.sides[self.player], self.sides[1 - self.player]
        r = self.g.rules
        if self.phase == "deploy":
            counts = [sum(1 for d in side.deployed.values() if d == day) for day in range(1, r.deploy_days + 1)]
            days = [i + 1 for i, n in enumerate(counts) if n == min(counts)]
            return sorted(DEPLOY + c * r.deploy_days + (d - 1) for c in set(side.hand) for d in days)
        if self.phase == "cycle":
            return [CYCLE + c for c in sorted(set(side.hand))] + [NO_CYCLE]
        kind, _, me = self.queue[0]
        if kind == "revive":
            if r.reviver_must_survive:  # the Reviver was let act by _next_day: any dead ally will do
                return [REVIVE + c for c in side.dead] + [NO_REVIVE]
            return [REVIVE + c for c in side.dead if side.survived.get(c, 0) >= self._needed(me, Revive)] + [NO_REVIVE]
        if kind == "sacrifice":
            return [SACRIFICE + c for c in side.alive() if c != me] + [NO_SACRIFICE]
        if kind == "enchant":
            return [ENCHANT + c for c in side.alive() if c != me] + [NO_ENCHANT]
        if kind == "target":
            return [TARGET + c for c in foe.alive()]
        if kind == "reduce":
            incoming = self.day_state["incoming"][self.player]
            return [REDUCE + c for c in side.alive() if incoming.get(c, 0) > 0] + [STOP]
        if kind == "overkill":
            doomed = self.day_state["doomed"][1 - self.player]
            return [OVERKILL + c for c in foe.alive() if c not in doomed]
        raise AssertionError(kind)

    def _needed(self, char: int, kind: type) -> int:
        effect = _has(self.g.rules.chars[char], kind)
        return int(getattr(effect, "survived_days", 0) or 0)

    def apply_action(self, action: int) -> None:
        if self.current_player() == CHANCE:  # checked directly, without listing every card of the pool
            if self.phase == "first":
                possible = action in (FIRST, FIRST + 1)
            else:
                possible = DRAW <= action < FIRST and action - DRAW in self.sides[self._drawer()].pool
            self._take_chance(action, possible, self.phase)
        else:
            self._take_move(action, self.phase)
        if self.phase == "first":
            self.start = self.player = action - FIRST
            self._begin_timeline()
        elif self.phase in ("deal", "refill"):
            self._receive(action - DRAW)
        elif self.phase == "deploy":
            self._deploy(action)
        elif self.phase == "cycle":
            self._cycle(action)
        else:
            self._decide(action)
        self._legal = None

    # -- cards and deployment -----------------------------------------------------------------
    def _receive(self, card: int) -> None:
        seat = self._drawer()
        self.sides[seat].pool.remove(card)
        self.sides[seat].hand.append(card)
        if self.phase == "deal":
            if len(self.sides[1].hand) == self.g.rules.hand:
                self.phase = "first"
            return
        self._refill()

    def _refill(self) -> None:
        """Draw back to a full hand: unknown cards by chance, then the ones put under the deck, in order."""
        side = self.sides[self.player]
        while len(side.hand) < self.g.rules.hand and not side.pool and side.bottom:
            side.hand.append(side.bottom.pop(0))
        if len(side.hand) < self.g.rules.hand and side.pool:
            self.phase = "refill"
            return
        self._next_deployment()

    def _begin_timeline(self) -> None:
        r = self.g.rules
        for side in self.sides:
            side.in_play, side.dead, side.survived = [], [], {}
        count = r.deploy_first if self.timeline == 1 else r.deploy_later
        self.to_deploy = [count, count]
        self.player = self.start
        self.phase = "deploy"
        if not self.sides[self.player].hand:
            self._next_deployment()

    def _deploy(self, action: int) -> None:
        r = self.g.rules
        card, day = divmod(action - DEPLOY, r.deploy_days)
        side = self.sides[self.player]
        side.hand.remove(card)
        side.deployed[card] = day + 1
        self.to_deploy[self.player] -= 1
        self.tally.events.append(Event("play", self.player, r.chars[card].id))
        self.phase = "cycle" if r.cycle and side.hand else "refilling"
        if self.phase == "refilling":
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
        self.phase = "deploy"

    # -- the Day ----------------------------------------------------------------------------------
    def _order_from_start(self, items: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """(player, character) pairs, alternating players from the Start Player."""
        mine = [i for i in items if i[0] == self.start]
        theirs = [i for i in items if i[0] != self.start]
        return [x for pair in itertools.zip_longest(mine, theirs) for x in pair if x is not None]

    def _abilities(self, p: int, kind: type, locked: set[tuple[int, int]] | None = None) -> list[tuple[int, int]]:
        locked = locked or set()
        return [
            (p, c)
            for c in self.sides[p].alive()
            if _has(self.g.rules.chars[c], kind) is not None and (p, c) not in locked
        ]

    def _next_day(self) -> None:
        self.day += 1
        self.day_state = {"deaths": 0, "revived": 0}
        if self.narration is not None:  # words only for a replay
            self._say(f"Timeline {self.timeline}, Day {self.day}: seat {self.start} is the Start Player")
        # 1 start of Day: revivers; the one that must have survived a Day of this Timeline is the
        # Reviver itself or the ally it brings back, as the rule option reads the seed
        revivers = self._order_from_start(self._abilities(0, Revive) + self._abilities(1, Revive))
        if self.g.rules.reviver_must_survive:
            revivers = [(p, c) for p, c in revivers if self.sides[p].survived.get(c, 0) >= self._needed(c, Revive)]
        self.queue = [("revive", p, c) for p, c in revivers]
        self._run_queue_or("_arrive")

    def _run_queue_or(self, then: str) -> None:
        """Ask the queued decisions that have a real choice; then go on with the step named `then`.

        The step is kept by name, not as a bound method, so a cloned state goes on by itself.
        """
        while self.queue:
            kind, p, _ = self.queue[0]
            self.player, self.phase = p, kind
            legal = self._work_out_legal()
            if len(legal) > 1 or (kind in ("target", "overkill") and legal):
                self.day_state["then"] = then
                return
            self.queue.pop(0)  # nothing to choose: only "none", or no one to aim at
        self.day_state.pop("then", None)
        getattr(self, then)()

    def _decide(self, action: int) -> None:
        kind, p, me = self.queue.pop(0)
        ds, side = self.day_state, self.sides[p]
        if kind == "revive" and action != NO_REVIVE:
            card = action - REVIVE
            side.dead.remove(card)
            side.in_play.append(card)
            ds["revived"] += 1
            if self.narration is not None:  # words only for a replay
                self._say(f"seat {p}'s {self.g.rules.chars[me].name} revives {self.g.rules.chars[card].name}")
        elif kind == "sacrifice" and action != NO_SACRIFICE:
            ds.setdefault("sacrificed", []).append((p, me, action - SACRIFICE))
        elif kind == "enchant" and action != NO_ENCHANT:
            factor = _has(self.g.rules.chars[me], DoubleFriendly).factor
            ds.setdefault("enchanted", []).append((p, action - ENCHANT, factor))
        elif kind == "target":
            ds.setdefault("targets", {})[(p, me)] = action - TARGET
        elif kind == "reduce":
            if action == STOP:
                self.queue = [q for q in self.queue if q[:2] != ("reduce", p)]
            else:
                incoming = ds["incoming"][p]
                incoming[action - REDUCE] -= 1
                ds["pool"][p] -= 1
                if ds["pool"][p] > 0:
                    self.queue.insert(0, ("reduce", p, me))
        elif kind == "overkill":
            ds["extra"].append((1 - p, action - OVERKILL, ds.pop("overkill_amount"), p))
        self._run_queue_or(str(ds["then"]))

    def _arrive(self) -> None:
        # 2 arrive: Characters deployed into this Day come into play
        for side in self.sides:
            for card, day in side.deployed.items():
                if day == self.day and card not in side.in_play and card not in side.dead:
                    side.in_play.append(card)
        # 3 decide: Shocker locks first (no choice), then sacrifices, Enchanter picks, targets
        locked: set[tuple[int, int]] = set()
        for p in (0, 1):
            for _ in self._abilities(p, LockEnemyFront):
                front = self.sides[1 - p].alive()
                if front:
                    locked.add((1 - p, front[0]))
        self.day_state["locked"] = locked
        queue: list[tuple[str, int, int]] = []
        for kind, ability in (("sacrifice", SacrificeFor), ("enchant", DoubleFriendly)):
            actors = self._order_from_start(self._abilities(0, ability, locked) + self._abilities(1, ability, locked))
            queue += [(kind, p, c) for p, c in actors]
        chosen = [
            (p, c)
            for p in (0, 1)
            for c in self.sides[p].alive()
            if (p, c) not in locked
            and any(isinstance(a, Attack) and a.target == "chosen" for a in self.g.rules.chars[c].ability)
        ]
        queue += [("target", p, c) for p, c in self._order_from_start(chosen)]
        self.queue = queue
        self._run_queue_or("_total")

    def _attack_targets(self, attack: Attack, attacker: tuple[int, int]) -> list[int]:
        foe = self.sides[1 - attacker[0]].alive()
        if not foe:
            return []
        if attack.target == "front":
            return foe[:1]
        if attack.target == "rear":
            return foe[-1:]
        if attack.target == "front_n":
            return foe[: attack.count]
        if attack.target == "rear_n":
            return foe[-attack.count :]
        if attack.target == "all":
            return foe
        chosen = self.day_state.get("targets", {}).get(attacker)
        return [chosen] if chosen in foe else []

    def _total(self) -> None:
        """4: add up the damage on every target; a Deflector sends damage aimed past the Front to the Front."""
        r, ds = self.g.rules, self.day_state
        locked = ds["locked"]
        dead_both = len(self.sides[0].dead) + len(self.sides[1].dead)
        incoming: list[dict[int, int]] = [{}, {}]
        targeted: list[dict[int, int]] = [{}, {}]
        factor: dict[tuple[int, int], int] = {}
        for p, target, times in ds.get("enchanted", []):  # all its damage this Day, before reductions
            factor[(p, target)] = factor.get((p, target), 1) * times
        sacrificers = {(p, me): victim for p, me, victim in ds.get("sacrificed", [])}
        for p in (0, 1):
            deflect = any(
                _has(r.chars[c], RedirectToFront) is not None and (1 - p, c) not in locked
                for c in self.sides[1 - p].alive()
            )
            front = self.sides[1 - p].alive()[:1]
            for c in self.sides[p].alive():
                if (p, c) in locked:
                    continue
                char = r.chars[c]
                attacks = [a for a in char.ability if isinstance(a, Attack)]
                if (p, c) in sacrificers:
                    attacks += [a.attack for a in char.ability if isinstance(a, SacrificeFor)]
                for attack in attacks:
                    if attack.survived_days and self.sides[p].survived.get(c, 0) < attack.survived_days:
                        continue
                    if attack.deployed_today and self.sides[p].deployed.get(c) != self.day:
                        continue
                    amount = dead_both if attack.amount_from == "dead_both_sides" else attack.amount or 0
                    amount *= factor.get((p, c), 1)
                    for t in self._attack_targets(attack, (p, c)):
                        if deflect and front and t != front[0]:
                            t = front[0]
                        incoming[1 - p][t] = incoming[1 - p].get(t, 0) + amount
                        if attack.target == "chosen":
                            targeted[1 - p][t] = targeted[1 - p].get(t, 0) + amount
        ds["incoming"], ds["targeted"] = incoming, targeted
        # 5 reduce: the Protector's cut comes off every ally's total; then chosen reductions, Start Player first
        for p in (0, 1):
            for _, c in self._abilities(p, ReduceEachAlly, locked):
                cut = _has(r.chars[c], ReduceEachAlly).amount
                for ally in incoming[p]:
                    if ally != c:
                        incoming[p][ally] = max(0, incoming[p][ally] - cut)
        ds["pool"] = [
            sum(_has(r.chars[c], ReduceChosen).pool for _, c in self._abilities(p, ReduceChosen, locked))
            for p in (0, 1)
        ]
        self.queue = [("reduce", p, -1) for p in (self.start, 1 - self.start) if ds["pool"][p] > 0]
        self._run_queue_or("_apply")

    def _apply(self) -> None:
        """6: apply the damage. The killed still dealt theirs; overkill trickles rearward, then forward from the Rear;
        a chosen target's overkill goes to new targets the attacker picks."""
        ds = self.day_state
        ds.setdefault("damage", [{}, {}])
        ds.setdefault("doomed", [[], []])
        ds.setdefault("extra", [])
        if "applied" not in ds:
            ds["applied"] = True
            for p in (0, 1):
                for c, amount in ds["incoming"][p].items():
                    ds["damage"][p][c] = ds["damage"][p].get(c, 0) + max(0, amount)
            for p, _, victim in ds.get("sacrificed", []):
                if victim not in ds["doomed"][p]:
                    ds["damage"][p][victim] = ds["damage"][p].get(victim, 0) + 10**6  # a sacrifice always kills
                    ds["targeted"][p][victim] = 0
        for p, c, amount, _ in ds.pop("extra"):
            ds["damage"][p][c] = ds["damage"][p].get(c, 0) + amount
        ds["extra"] = []
        r = self.g.rules
        changed = True
        while changed:
            changed = False
            for p in (0, 1):
                order = [c for c in self.sides[p].alive() if c not in ds["doomed"][p]]
                for c in order:
                    dmg = ds["damage"][p].get(c, 0)
                    health = r.chars[c].health
                    if dmg < health:
                        continue
                    ds["doomed"][p].append(c)
                    changed = True
                    over = 0 if dmg >= 10**6 else dmg - health
                    aimed = min(over, ds["targeted"][p].get(c, 0))
                    trickle = over - aimed
                    rest = [x for x in order if x not in ds["doomed"][p]]
                    behind = [x for x in rest if x > c]
                    ahead = [x for x in rest if x < c]
                    nxt = behind[0] if behind else (ahead[-1] if ahead else None)
                    if trickle and nxt is not None:
                        ds["damage"][p][nxt] = ds["damage"][p].get(nxt, 0) + trickle
                    if aimed and rest:
                        ds["overkill_amount"] = aimed
                        self.queue = [("overkill", 1 - p, c)]
                        self._run_queue_or("_apply")
                        return
                    break
        if self.narration is not None:
            self._say_damage(ds)
        for p in (0, 1):
            for c in ds["doomed"][p]:
                self.sides[p].in_play.remove(c)
                self.sides[p].dead.append(c)
                ds["deaths"] += 1
        self._end_day()

    def _say_damage(self, ds: dict[str, Any]) -> None:
        """The Day's damage, Character by Character, and who dies of it."""
        chars = self.g.rules.chars
        for p in (0, 1):
            for c, dmg in sorted(ds["damage"][p].items()):
                if c not in self.sides[p].in_play:
                    continue
                if c in ds["doomed"][p]:
                    how = "sacrificed" if dmg >= 10**6 else f"takes {dmg} damage and dies"
                    self._say(f"seat {p}'s {chars[c].name} {how}")
                elif dmg > 0:
                    self._say(f"seat {p}'s {chars[c].name} takes {dmg} damage (Health {chars[c].health})")

    def _end_day(self) -> None:
        """7: survivors heal (damage is only per Day), count a Day survived; the Start Player changes."""
        r = self.g.rules
        for side in self.sides:
            for c in side.in_play:
                side.survived[c] = side.survived.get(c, 0) + 1
        self.quiet = self.quiet + 1 if self.day_state["deaths"] == 0 and self.day_state["revived"] == 0 else 0
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
        r = self.g.rules
        if why == "cap":
            self.capped = True
        self.tally.events.append(Event("timeline", -1, why))
        for side in self.sides:
            for c in side.in_play:
                multiplier = _has(r.chars[c], VpMultiplier)
                side.vp += r.vp * (multiplier.factor if multiplier else 1)
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
        r = self.g.rules
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
        r = self.g.rules
        name = [c.name for c in r.chars]
        if action >= FIRST:
            return f"Start Player: seat {action - FIRST}"
        if action >= DRAW:
            return f"draws {name[action - DRAW]}"
        labels = [
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
        ]
        for base, words in labels:
            if action >= base:
                return (
                    words
                    if base in (STOP, NO_ENCHANT, NO_SACRIFICE, NO_REVIVE, NO_CYCLE)
                    else f"{words} {name[action - base]}"
                )
        card, day = divmod(action - DEPLOY, r.deploy_days)
        return f"deploys {name[card]} into Day {day + 1}"

    def played_card(self, action: int) -> str | None:
        r = self.g.rules
        if self.phase != "deploy" or self.is_chance_node() or not DEPLOY <= action < CYCLE:
            return None
        return str(r.chars[(action - DEPLOY) // r.deploy_days].id)

    def heuristic(self, player: int) -> float:
        """VP first; then the strength (Health and damage) of Characters alive or still to arrive."""
        if self.over:
            return self.returns()[player]
        r = self.g.rules

        def strength(c: int) -> float:
            char = r.chars[c]
            hits = sum(
                (a.amount or 3) * (a.count if a.target in ("front_n", "rear_n") else 1)
                for a in char.ability
                if isinstance(a, Attack)
            )
            return char.health + 2 * hits + (4 if len(char.ability) > 1 or not hits else 0)

        def worth(p: int) -> float:
            side = self.sides[p]
            coming = [c for c, day in side.deployed.items() if day > self.day and c not in side.dead]
            return side.vp * 15 + sum(strength(c) for c in set(side.in_play) | set(coming) if c not in doomed(p)) / 4

        def doomed(p: int) -> set[int]:
            """Characters the damage added up so far would kill, in the middle of a Day."""
            ds = self.day_state
            incoming = dict(ds["incoming"][p]) if "incoming" in ds else {}
            for (q, attacker), target in ds.get("targets", {}).items():
                if q != p and "incoming" not in ds:  # a target picked, its damage not yet added up
                    hit = next(
                        (
                            a.amount or 0
                            for a in r.chars[attacker].ability
                            if isinstance(a, Attack) and a.target == "chosen"
                        ),
                        0,
                    )
                    incoming[target] = incoming.get(target, 0) + hit
            return {c for c, dmg in incoming.items() if dmg >= r.chars[c].health} | {
                victim for q, _, victim in ds.get("sacrificed", []) if q == p
            }

        return math.tanh((worth(player) - worth(1 - player)) / 40)
