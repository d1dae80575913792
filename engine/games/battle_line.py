"""Battle Line: formations, the proof claim, all ten Tactics cards, and the game state for the engine.

Troops are written as a colour letter and a value ("R10", "B1"); Tactics by their card id
("alexander", "companion-cavalry", "shield-bearers", ...). The colours, values, formation
order, formation sizes and every other number come from cards/battle-line/.

Public functions:
    compare_formations(a, b, *, fog=False, mud=False, a_first=True) -> 1 | -1
    prove_claim(mine, theirs, unplayed, *, fog=False, mud=False) -> list[str] | None
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.api import CHANCE, TERMINAL, Event, GameDef, IllegalAction, TwoPlayerState, pick
from engine.needs import BATTLE_LINE
from printkit.data.game import Game
from printkit.data.model import Tactics, Troop

# --- the data, read once -------------------------------------------------------

RANKS = BATTLE_LINE.formations[::-1]  # the five kinds the mechanism knows, weakest first: a rank is its index


@dataclass(frozen=True)
class Rules:
    """Everything Battle Line's rules read from the data."""

    letters: tuple[str, ...]  # colour letters in data order
    values: tuple[int, ...]  # troop values, low to high
    value_names: dict[int, str]
    formation_names: dict[str, str]  # kind id -> printed name
    tactics: tuple[tuple[str, str, str, tuple[int, ...]], ...]  # (id, name, effect kind, values)
    hand: int
    flags: int
    size: int
    mud_size: int
    breakthrough: int
    envelopment: int
    leaders: int
    tactics_lead: int
    scout_draw: int
    scout_return: int
    stalemate_passes: int
    turn_cap: int
    claim_timing: str = "start_of_turn"  # or "after_play": the basic rule, claims made in one's own turn

    @property
    def troops(self) -> int:
        return len(self.letters) * len(self.values)

    def troop_name(self, card: int) -> str:
        colour, value = divmod(card, len(self.values))
        return f"{self.letters[colour]}{self.values[value]}"


def rules_from(game: Game) -> Rules:
    info = game.info
    letters = tuple(c.letter for c in info.colours)
    values = tuple(sorted({c.value for c in game.cards if isinstance(c, Troop)}))
    tactics = []
    for card in game.cards:
        if isinstance(card, Tactics):
            vals = tuple(card.effect.values or ())
            tactics.append((card.id, card.name, card.effect.kind, vals))
    scout = next((c.effect for c in game.cards if isinstance(c, Tactics) and c.effect.kind == "scout"), None)
    mud = next((c.effect for c in game.cards if isinstance(c, Tactics) and c.effect.kind == "mud"), None)
    mud_size = game.rule("mud_formation_size")  # the Mud card's own size, when it gives one, comes first
    return Rules(
        letters=letters,
        values=values,
        value_names={v.value: v.name for v in info.value_names},
        formation_names={f.id: f.name for f in info.formations},
        tactics=tuple(tactics),
        hand=int(game.rule("hand_size")),
        flags=int(game.rule("flags")),
        size=int(game.rule("formation_size")),
        mud_size=int(mud.formation_size if mud and mud.formation_size else mud_size),
        breakthrough=int(game.rule("breakthrough")),
        envelopment=int(game.rule("envelopment")),
        leaders=int(game.rule("leaders_per_player")),
        tactics_lead=int(game.rule("tactics_lead")),
        scout_draw=int(scout.draw or 3) if scout else 3,
        scout_return=int(scout.give_back or 2) if scout else 2,
        stalemate_passes=int(game.rule("stalemate_passes")),
        turn_cap=int(game.rule("turn_cap")),
        claim_timing=str(game.rule("claim_timing")),
    )


@functools.cache
def default_rules() -> Rules:
    """The bundled game's rules, for the public functions that take no game."""
    from printkit.data.loader import bundled_games, load_game

    folder = next(p for p in bundled_games() if p.name == "battle-line")
    return rules_from(load_game(folder))


# --- formations ------------------------------------------------------------------

Concrete = tuple[int, int]  # (colour index, value)
Strength = tuple[int, int]  # (formation rank, sum); higher is stronger


def strength(cards: Sequence[Concrete], fog: bool = False) -> Strength:
    """The formation rank and sum of concrete cards."""
    total = sum(v for _, v in cards)
    if fog:
        return 0, total
    values = sorted(v for _, v in cards)
    one_colour = len({c for c, _ in cards}) == 1
    run = all(b - a == 1 for a, b in itertools.pairwise(values))
    if one_colour and run:
        return 4, total
    if len(set(values)) == 1:
        return 3, total
    if one_colour:
        return 2, total
    if run:
        return 1, total
    return 0, total


class Card:
    """What a card can stand for in a formation: one concrete troop, or a wild set of them."""

    __slots__ = ("colours", "name", "troop", "values")

    def __init__(self, name: str, troop: Concrete | None, values: tuple[int, ...] = ()) -> None:
        self.name = name
        self.troop = troop
        self.values = values  # a wild card's possible values; any colour

    def options(self, colours: Iterable[int]) -> list[Concrete]:
        if self.troop is not None:
            return [self.troop]
        return [(c, v) for c in colours for v in self.values]


def parse(names: Iterable[str], rules: Rules) -> list[Card]:
    """Cards from their names: "R10" for a troop, a tactics id for a morale or leader card."""
    tactics = {t[0]: t for t in rules.tactics}
    out = []
    for name in names:
        if name in tactics:
            _, _, kind, vals = tactics[name]
            if kind == "wild":
                out.append(Card(name, None, rules.values))
            elif kind in ("fixed_value", "value_choice"):
                out.append(Card(name, None, vals))
            else:
                raise ValueError(f"{name} is not a card that stands in a formation")
            continue
        letter, number = name[:1], name[1:]
        if letter not in rules.letters or not number.isdigit() or int(number) not in rules.values:
            raise ValueError(f"expected a troop such as R10 or a tactics id, found {name!r}")
        out.append(Card(name, (rules.letters.index(letter), int(number))))
    return out


def _colour_choices(fixed: Iterable[Concrete], colours: int) -> list[int]:
    """The colours worth trying for a wild card: those already present, and one more."""
    present = sorted({c for c, _ in fixed})
    if len(present) < colours:
        present.append(next(c for c in range(colours) if c not in present))
    return present


def best_strength(cards: Sequence[Card], fog: bool, colours: int) -> tuple[Strength, list[Concrete]]:
    """The strongest reading of a formation, wild cards chosen to suit."""
    troops = [c.troop for c in cards if c.troop is not None]
    if len(troops) == len(cards):  # no wild card: one reading only, the usual case
        return strength(troops, fog), troops
    choices = _colour_choices((c.troop for c in cards if c.troop is not None), colours)
    best: tuple[Strength, list[Concrete]] | None = None
    for combo in itertools.product(*(c.options(choices) for c in cards)):
        s = strength(combo, fog)
        if best is None or s > best[0]:
            best = (s, list(combo))
    assert best is not None
    return best


def compare_formations(
    a: list[str], b: list[str], *, fog: bool = False, mud: bool = False, a_first: bool = True
) -> int:
    """1 if formation a beats formation b, -1 if b wins; a_first says which was completed first (it wins ties)."""
    rules = default_rules()
    need = rules.mud_size if mud else rules.size
    if len(a) != need or len(b) != need:
        raise ValueError(f"formations need {need} cards each, found {len(a)} and {len(b)}")
    colours = len(rules.letters)
    sa, _ = best_strength(parse(a, rules), fog, colours)
    sb, _ = best_strength(parse(b, rules), fog, colours)
    if sa != sb:
        return 1 if sa > sb else -1
    return 1 if a_first else -1


def _best_completion(
    fixed: list[Concrete],
    need: int,
    pool: list[Concrete],
    beat: Strength,
    fog: bool,
    values: tuple[int, ...],
    colours: int,
) -> list[Concrete] | None:
    """Cards from pool that complete fixed into a formation stronger than beat, or None.

    Each formation kind is checked from the strongest down, each at its highest sum, so the
    first completion found that beats `beat` is returned and no weaker kind needs a look.
    """
    size = len(fixed) + need
    have = set(pool)
    base = sum(v for _, v in fixed)

    def top(cards: Iterable[Concrete], k: int) -> list[Concrete] | None:
        chosen = sorted(cards, key=lambda t: -t[1])[:k]
        return chosen if len(chosen) == k else None

    if fog:
        extra = top(pool, need)
        if extra is not None and (0, base + sum(v for _, v in extra)) > beat:
            return extra
        return None
    fixed_colours = {c for c, _ in fixed}
    fixed_values = [v for _, v in fixed]
    distinct = len(set(fixed_values)) == len(fixed_values)
    low, high = values[0], values[-1]

    def runs(rank: int) -> Iterator[range]:
        """Runs of values that hold every fixed value, strongest first, while one could still beat."""
        for start in range(high - size + 1, low - 1, -1):
            run = range(start, start + size)
            if any(v not in run for v in fixed_values):
                continue
            if (rank, sum(run)) <= beat:
                return
            yield run

    for rank in (4, 3, 2, 1, 0):
        if rank < beat[0]:
            return None
        if rank == 4 and len(fixed_colours) <= 1 and distinct:  # wedge
            for run in runs(rank):
                for colour in fixed_colours or range(colours):
                    missing = [(colour, v) for v in run if v not in fixed_values]
                    if all(m in have for m in missing):
                        return missing
        elif rank == 3 and len(set(fixed_values)) <= 1:  # phalanx
            for value in sorted(set(fixed_values) or values, reverse=True):
                if (rank, value * size) <= beat:
                    break
                spare = [t for t in pool if t[1] == value and t[0] not in fixed_colours]
                if len(spare) >= need:
                    return spare[:need]
        elif rank == 2 and len(fixed_colours) <= 1:  # battalion
            best: list[Concrete] | None = None
            for colour in fixed_colours or range(colours):
                extra = top((t for t in pool if t[0] == colour), need)
                if extra is not None and (best is None or sum(v for _, v in extra) > sum(v for _, v in best)):
                    best = extra
            if best is not None and (rank, base + sum(v for _, v in best)) > beat:
                return best
        elif rank == 1 and distinct:  # skirmish line
            for run in runs(rank):
                missing_values = [v for v in run if v not in fixed_values]
                picks = [next((t for t in pool if t[1] == v), None) for v in missing_values]
                if all(p is not None for p in picks):
                    return [p for p in picks if p is not None]
        elif rank == 0:  # host
            extra = top(pool, need)
            if extra is not None and (rank, base + sum(v for _, v in extra)) > beat:
                return extra
    return None


def counter_example(
    mine: Sequence[Card],
    theirs: Sequence[Card],
    unplayed: Sequence[Concrete],
    size: int,
    fog: bool,
    values: tuple[int, ...],
    colours: int,
) -> list[Concrete | Card] | None:
    """A completion of theirs (their cards first, then troops from unplayed) that beats mine, or None."""
    beat, _ = best_strength(mine, fog, colours)
    need = size - len(theirs)
    pool = list(unplayed)
    wild = [c for c in theirs if c.troop is None]
    fixed = [c.troop for c in theirs if c.troop is not None]
    # a wild card may take any colour. The unplayed troops differ from colour to colour, so each
    # colour with a troop in theirs or in the pool is tried; the colours with none are all alike,
    # and one of them stands for the rest (a colour of their own never makes a formation stronger)
    seen = {c for c, _ in fixed} | {c for c, _ in pool}
    choices = sorted(seen) + [c for c in range(colours) if c not in seen][:1]
    for combo in itertools.product(*(c.options(choices) for c in wild)):
        extra = _best_completion(fixed + list(combo), need, pool, beat, fog, values, colours)
        if extra is not None:
            return [*theirs, *extra]
    return None


def prove_claim(
    mine: list[str], theirs: list[str], unplayed: list[str], *, fog: bool = False, mud: bool = False
) -> list[str] | None:
    """Whether a complete formation holds its flag against an incomplete one.

    None when no completion of theirs from the unplayed troops beats mine (a tie goes to mine,
    completed first); otherwise one completion that beats it: the full list of their cards.
    """
    rules = default_rules()
    size = rules.mud_size if mud else rules.size
    if len(mine) != size:
        raise ValueError(f"mine must be complete ({size} cards), found {len(mine)}")
    if len(theirs) >= size:
        raise ValueError(f"theirs must be incomplete (under {size} cards), found {len(theirs)}")
    pool = [c.troop for c in parse(unplayed, rules) if c.troop is not None]
    found = counter_example(parse(mine, rules), parse(theirs, rules), pool, size, fog, rules.values, len(rules.letters))
    if found is None:
        return None
    n_values = len(rules.values)
    return [
        x.name if isinstance(x, Card) else rules.troop_name(x[0] * n_values + rules.values.index(x[1])) for x in found
    ]


# --- the game state ------------------------------------------------------------------


def _hundreds(n: int) -> int:
    return -(-n // 100) * 100


@dataclass(frozen=True)
class Actions:
    """Where each kind of move sits among the action numbers, sized by the data's flags and cards.

    Each block starts at a round hundred where it can, so the numbers read well in a log: for the
    bundled game (9 flags, 70 cards) a card played is 0-629, a Guile card 630-699, a pass 700.
    """

    flags: int
    cards: int
    play: int  # + card x flags + flag
    guile: int  # + card - troops
    pass_: int
    draw_troop: int
    draw_tactics: int
    pick: int  # + flag x cards + card: what a Guile card takes
    to_flag: int  # + flag: where it goes
    discard_it: int
    ret: int  # + card: a card Scout puts back
    deal: int  # + card: chance
    first: int  # + seat: chance

    @classmethod
    def sized(cls, flags: int, cards: int) -> Actions:
        guile = flags * cards
        pass_ = guile + cards
        pick = _hundreds(pass_ + 3)
        to_flag = _hundreds(pick + flags * cards)
        ret = _hundreds(to_flag + flags + 1)
        deal = _hundreds(ret + cards)
        return cls(
            flags,
            cards,
            0,
            guile,
            pass_,
            pass_ + 1,
            pass_ + 2,
            pick,
            to_flag,
            to_flag + flags,
            ret,
            deal,
            _hundreds(deal + cards),
        )

    def play_at(self, card: int, flag: int) -> int:
        return self.play + card * self.flags + flag

    def played(self, action: int) -> tuple[int, int]:
        """(card, flag) of a card played."""
        card, flag = divmod(action - self.play, self.flags)
        return card, flag

    def pick_at(self, flag: int, card: int) -> int:
        return self.pick + flag * self.cards + card

    def picked(self, action: int) -> tuple[int, int]:
        """(flag, card) a Guile card takes."""
        flag, card = divmod(action - self.pick, self.cards)
        return flag, card


NO_FLAG = -1


@dataclass
class Side:
    cards: list[int] = field(default_factory=list)
    # reached[k]: the clock when this side came to hold k + 1 cards, and has held as many since; so
    # when Mud leaves a flag, the side that really held a full formation first is known
    reached: list[int] = field(default_factory=list)
    complete_at: int | None = None


class BattleLineGame(GameDef):
    slug = "battle-line"

    def __init__(self, game: Game) -> None:
        self.title = game.title
        self.rules = rules_from(game)
        r = self.rules  # within the bounds engine.needs declares: the registry checks the data before building
        self.n_troops = r.troops
        self.n_cards = r.troops + len(r.tactics)
        self.names = [r.troop_name(i) for i in range(r.troops)] + [t[0] for t in r.tactics]
        self.kind = ["troop"] * r.troops + [t[2] for t in r.tactics]
        self.act = Actions.sized(r.flags, self.n_cards)
        self.printed = {tid: name for tid, name, _, _ in r.tactics}  # a Tactics card's name as it prints
        n_values = len(r.values)
        self.formation_card: list[Card] = [
            Card(self.names[i], (i // n_values, r.values[i % n_values])) for i in range(r.troops)
        ]
        for tid, _, kind, vals in r.tactics:
            allowed = r.values if kind == "wild" else vals
            self.formation_card.append(Card(tid, None, allowed))

    def new_initial_state(self) -> BattleLineState:
        return BattleLineState(self)

    def card_names(self) -> dict[str, str]:
        return {t[0]: t[1] for t in self.rules.tactics} | {n: n for n in self.names[: self.n_troops]}


class BattleLineState(TwoPlayerState):
    """A Battle Line position. Flags are claimed automatically at the start of each turn, since a
    claim can never hurt its claimer; the proof uses every troop not yet on the table."""

    def __init__(self, game: BattleLineGame) -> None:
        r = game.rules
        self.g = game
        self.hands: list[list[int]] = [[], []]
        self.troop_deck: list[int] = list(range(game.n_troops))
        self.tactics_deck: list[int] = list(range(game.n_troops, game.n_cards))
        self.tops: list[list[tuple[int, int]]] = [[], []]  # known top cards per deck: (card, who put it there)
        self.sides: list[list[Side]] = [[Side(), Side()] for _ in range(r.flags)]
        self.fog: list[int] = [NO_FLAG] * r.flags  # owner of the Fog card at each flag, or NO_FLAG
        self.mud: list[int] = [NO_FLAG] * r.flags
        self.claimed: list[int] = [NO_FLAG] * r.flags
        self.tactics_played = [0, 0]
        self.leaders_played = [0, 0]
        self.discard: list[int] = []
        self.player = 0
        self.phase = "deal"
        self.pending: dict[str, Any] = {}
        self.clock = 0
        self.turns = 0
        self.passes = 0
        # per (flag, seat): a completion that beat the seat's formation, kept while it stays
        # possible, so the same flag is not proved again at every turn
        self.refuted: dict[tuple[int, int], tuple[Any, list[Concrete]]] = {}
        self._start_record()

    # -- small helpers ---------------------------------------------------------------
    def clone(self) -> BattleLineState:
        other = BattleLineState.__new__(BattleLineState)
        other.g = self.g
        other.hands = [h[:] for h in self.hands]
        other.troop_deck = self.troop_deck[:]
        other.tactics_deck = self.tactics_deck[:]
        other.tops = [t[:] for t in self.tops]
        other.sides = [[Side(s.cards[:], s.reached[:], s.complete_at) for s in flag] for flag in self.sides]
        other.fog, other.mud, other.claimed = self.fog[:], self.mud[:], self.claimed[:]
        other.tactics_played, other.leaders_played = self.tactics_played[:], self.leaders_played[:]
        other.discard = self.discard[:]
        other.player, other.phase, other.pending = self.player, self.phase, dict(self.pending)
        other.clock, other.turns, other.passes = self.clock, self.turns, self.passes
        other.refuted = dict(self.refuted)
        self._copy_record(other)
        return other

    def size(self, flag: int) -> int:
        return self.g.rules.mud_size if self.mud[flag] != NO_FLAG else self.g.rules.size

    def _deck(self, which: int) -> list[int]:
        return self.troop_deck if which == 0 else self.tactics_deck

    def deck_count(self, which: int) -> int:
        return len(self._deck(which)) + len(self.tops[which])

    def is_troop(self, card: int) -> bool:
        return card < self.g.n_troops

    def _mark(self, flag: int, side: int) -> None:
        """Bring a side's times up to its cards after they changed, and whether (since when) it is complete."""
        s = self.sides[flag][side]
        del s.reached[len(s.cards) :]  # cards taken away: the counts they made are no longer held
        while len(s.reached) < len(s.cards):
            self.clock += 1
            s.reached.append(self.clock)
        size = self.size(flag)
        s.complete_at = s.reached[size - 1] if len(s.cards) >= size else None

    # -- the API ------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        if self.phase in ("deal", "first", "drawing"):
            return CHANCE
        return self.player

    def chance_outcomes(self) -> list[tuple[int, float]]:
        a = self.g.act
        if self.phase == "first":
            return [(a.first, 0.5), (a.first + 1, 0.5)]
        deck = self._chance_deck()
        p = 1.0 / len(deck)
        return [(a.deal + c, p) for c in deck]

    def _chance_deck(self) -> list[int]:
        return self._deck(0 if self.phase == "deal" else self.pending["deck"])

    def sample_chance(self, rng: random.Random) -> int:
        a = self.g.act
        if self.phase == "first":
            return pick(rng, (a.first, a.first + 1))
        deck = self._chance_deck()
        return a.deal + pick(rng, deck)

    def _work_out_legal(self) -> list[int]:
        if self.over:
            return []
        if self.current_player() == CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        return getattr(self, f"_legal_{self.phase}")()

    def _legal_play(self) -> list[int]:
        a = self.g.act
        r, p = self.g.rules, self.player
        hand = self.hands[p]
        open_flags = [f for f in range(r.flags) if self.claimed[f] == NO_FLAG]
        room = [f for f in open_flags if len(self.sides[f][p].cards) < self.size(f)]
        may_tactic = self.tactics_played[p] <= self.tactics_played[1 - p] + r.tactics_lead
        out: list[int] = []
        has_troop_move = False
        for card in sorted(set(hand)):
            kind = self.g.kind[card]
            if kind == "troop":
                out += [a.play_at(card, f) for f in room]
                has_troop_move = has_troop_move or bool(room)
            elif not may_tactic:
                continue
            elif kind in ("wild", "fixed_value", "value_choice"):
                if kind == "wild" and self.leaders_played[p] >= r.leaders:
                    continue
                out += [a.play_at(card, f) for f in room]
            elif kind == "fog":
                out += [a.play_at(card, f) for f in open_flags if self.fog[f] == NO_FLAG]
            elif kind == "mud":
                out += [a.play_at(card, f) for f in open_flags if self.mud[f] == NO_FLAG]
            elif self._guile_possible(kind, open_flags, room):
                out.append(a.guile + card - self.g.n_troops)
        if not has_troop_move:
            out.append(a.pass_)
        return out

    def _guile_possible(self, kind: str, open_flags: list[int], room: list[int]) -> bool:
        p = self.player
        if kind == "scout":
            return self.deck_count(0) + self.deck_count(1) > 0
        if kind == "redeploy":
            return bool(self._pickable(p, troops_only=False))
        if kind == "deserter":
            return bool(self._pickable(1 - p, troops_only=False))
        if kind == "traitor":
            return bool(self._pickable(1 - p, troops_only=True)) and bool(room)
        return False

    def _pickable(self, owner: int, troops_only: bool) -> list[tuple[int, int]]:
        """(flag, card) pairs of owner's cards at unclaimed flags, environment cards included."""
        out = []
        for f in range(self.g.rules.flags):
            if self.claimed[f] != NO_FLAG:
                continue
            out += [(f, c) for c in self.sides[f][owner].cards if not troops_only or self.is_troop(c)]
            if not troops_only:
                out += [(f, c) for c, env in self._environment(f) if env == owner]
        return out

    def _environment(self, flag: int) -> list[tuple[int, int]]:
        """(card, owner) of the environment cards at a flag."""
        out = []
        for kind, owners in (("fog", self.fog), ("mud", self.mud)):
            if owners[flag] != NO_FLAG:
                out.append((self._card_of_kind(kind), owners[flag]))
        return out

    def _card_of_kind(self, kind: str) -> int:
        return self.g.kind.index(kind)

    def _legal_pick(self) -> list[int]:
        a = self.g.act
        action = self.pending["guile"]
        owner = self.player if action == "redeploy" else 1 - self.player
        pairs = self._pickable(owner, troops_only=action == "traitor")
        return sorted({a.pick_at(f, c) for f, c in pairs})

    def _legal_place(self) -> list[int]:
        a = self.g.act
        p, (src, card) = self.player, self.pending["picked"]
        out = []
        kind = self.g.kind[card]
        for f in range(self.g.rules.flags):
            if self.claimed[f] != NO_FLAG or (f == src and self.pending["guile"] == "redeploy"):
                continue
            if kind == "fog":
                ok = self.fog[f] == NO_FLAG
            elif kind == "mud":
                ok = self.mud[f] == NO_FLAG
            else:
                ok = len(self.sides[f][p].cards) < self.size(f)
            if ok:
                out.append(a.to_flag + f)
        if self.pending["guile"] == "redeploy":
            out.append(a.discard_it)
        return out

    def _legal_scout_draw(self) -> list[int]:
        a = self.g.act
        return [action for action, which in ((a.draw_troop, 0), (a.draw_tactics, 1)) if self.deck_count(which)]

    _legal_draw = _legal_scout_draw

    def _legal_scout_return(self) -> list[int]:
        a = self.g.act
        return sorted({a.ret + c for c in self.hands[self.player]})

    def apply_action(self, action: int) -> None:
        a = self.g.act
        if self.over:
            raise IllegalAction("the game is over")
        player = self.current_player()
        if player == CHANCE:  # checked directly, without listing every card of the deck
            possible = (
                a.first <= action <= a.first + 1 if self.phase == "first" else action - a.deal in self._chance_deck()
            )
            self._take_chance(action, possible, self.phase)
        else:
            self._take_move(action, self.phase)
        if player == CHANCE:
            self._chance(action)
        else:
            getattr(self, f"_do_{self.phase}")(action)
        self._legal = None

    # -- chance ------------------------------------------------------------------------------
    def _chance(self, action: int) -> None:
        a = self.g.act
        if self.phase == "first":
            self.player = action - a.first
            self._start_turn()
            return
        card = action - a.deal
        if self.phase == "deal":
            self.troop_deck.remove(card)
            seat = 0 if len(self.hands[0]) <= len(self.hands[1]) else 1
            self.hands[seat].append(card)
            if len(self.hands[1]) == self.g.rules.hand:
                self.phase = "first"
            return
        self._deck(self.pending["deck"]).remove(card)
        self.hands[self.player].append(card)
        self._after_draw()

    def _draw(self, which: int) -> None:
        """Draw from a deck: a known top card at once, otherwise a chance node."""
        if self.tops[which]:
            card, _ = self.tops[which].pop()
            self.hands[self.player].append(card)
            self._after_draw()
        else:
            self.pending["deck"] = which
            self.pending["return_phase"] = self.phase
            self.phase = "drawing"

    def _after_draw(self) -> None:
        back = self.pending.pop("return_phase", self.phase)
        self.pending.pop("deck", None)
        if back == "scout_draw":
            self.pending["scout_draws"] -= 1
            left = self.pending["scout_draws"]
            self.phase = "scout_draw" if left and self.deck_count(0) + self.deck_count(1) else "scout_return"
            if self.phase == "scout_return" and not self._legal_scout_return():
                self._end_turn()
        else:
            self._end_turn()

    # -- moves -------------------------------------------------------------------------------
    def _do_play(self, action: int) -> None:
        a = self.g.act
        p = self.player
        if action == a.pass_:
            self.passes += 1
            self._end_turn()
            return
        self.passes = 0
        if a.guile <= action < a.pass_:
            card = self.g.n_troops + action - a.guile
            self._use_tactic(card)
            kind = self.g.kind[card]
            self.tally.events.append(Event("play", p, self.g.names[card]))
            self.discard.append(card)
            self.pending = {"guile": kind}
            if kind == "scout":
                self.pending["scout_draws"] = self.g.rules.scout_draw
                self.pending["scout_returns"] = self.g.rules.scout_return
                self.phase = "scout_draw"
            else:
                self.phase = "pick"
            return
        card, flag = a.played(action)
        self.hands[p].remove(card)
        kind = self.g.kind[card]
        self.tally.events.append(Event("play", p, self.g.names[card]))
        if kind != "troop":
            self._use_tactic(card)
        if kind == "fog":
            self.fog[flag] = p
        elif kind == "mud":
            self.mud[flag] = p
            for side in (0, 1):
                self._mark(flag, side)
        else:
            self.sides[flag][p].cards.append(card)
            self._mark(flag, p)
        self._to_draw()

    def _use_tactic(self, card: int) -> None:
        p = self.player
        if card in self.hands[p]:
            self.hands[p].remove(card)
        self.tactics_played[p] += 1
        if self.g.kind[card] == "wild":
            self.leaders_played[p] += 1

    def _to_draw(self) -> None:
        if len(self.hands[self.player]) < self.g.rules.hand and self.deck_count(0) + self.deck_count(1):
            self.phase = "draw"
        else:
            self._end_turn()

    def _do_draw(self, action: int) -> None:
        self._draw(0 if action == self.g.act.draw_troop else 1)

    def _do_scout_draw(self, action: int) -> None:
        self._draw(0 if action == self.g.act.draw_troop else 1)

    def _do_scout_return(self, action: int) -> None:
        card = action - self.g.act.ret
        self.hands[self.player].remove(card)
        self.tops[0 if self.is_troop(card) else 1].append((card, self.player))
        self.pending["scout_returns"] -= 1
        if not self.pending["scout_returns"] or not self.hands[self.player]:
            self._end_turn()

    def _do_pick(self, action: int) -> None:
        flag, card = self.g.act.picked(action)
        guile = self.pending["guile"]
        if guile == "deserter":
            self._remove(flag, card)
            self.discard.append(card)
            self._to_draw()
            return
        self.pending["picked"] = (flag, card)
        self.phase = "place"

    def _do_place(self, action: int) -> None:
        src, card = self.pending["picked"]
        self._remove(src, card)
        if action == self.g.act.discard_it:
            self.discard.append(card)
        else:
            flag = action - self.g.act.to_flag
            kind = self.g.kind[card]
            if kind == "fog":
                self.fog[flag] = self.player
            elif kind == "mud":
                self.mud[flag] = self.player
                for side in (0, 1):
                    self._mark(flag, side)
            else:
                self.sides[flag][self.player].cards.append(card)
                self._mark(flag, self.player)
        self._to_draw()

    def _remove(self, flag: int, card: int) -> None:
        """Take a card off a flag; when Mud goes, a side left with too many cards sheds its weakest."""
        kind = self.g.kind[card]
        if kind == "fog":
            self.fog[flag] = NO_FLAG
            return
        if kind == "mud":
            self.mud[flag] = NO_FLAG
            for side in (0, 1):
                cards = self.sides[flag][side].cards
                while len(cards) > self.g.rules.size:
                    self._shed(flag, side)
                self._mark(flag, side)
            return
        for side in (0, 1):
            if card in self.sides[flag][side].cards:
                self.sides[flag][side].cards.remove(card)
                self._mark(flag, side)
                return

    def _shed(self, flag: int, side: int) -> None:
        """Discard the card whose loss leaves the strongest formation (the reconstructed Mud rule)."""
        cards = self.sides[flag][side].cards
        fog = self.fog[flag] != NO_FLAG
        colours = len(self.g.rules.letters)
        best = max(
            cards, key=lambda c: best_strength([self.g.formation_card[x] for x in cards if x != c], fog, colours)[0]
        )
        cards.remove(best)
        self.discard.append(best)
        if self.narration is not None:  # words only for a replay
            self._say(
                f"Mud leaves flag {flag + 1}: seat {side} discards {self.g.names[best]}, keeping its strongest "
                f"{self.g.rules.size}"
            )

    # -- turns and claims -----------------------------------------------------------------
    def _end_turn(self) -> None:
        self.pending = {}
        if self.g.rules.claim_timing == "after_play":  # the basic rule: claim in your own turn, having played
            self._claim(self.player)
            if self.over:
                return
        self.turns += 1
        if self.passes >= self.g.rules.stalemate_passes:
            if self.narration is not None:  # words only for a replay
                self._say(f"{self.passes} passes in a row: the game stops, more flags held wins")
            self._finish_by_count("stalemate")
            return
        if self.turns >= self.g.rules.turn_cap:
            self._finish_by_count("cap")
            return
        self.player = 1 - self.player
        self._start_turn()

    def _start_turn(self) -> None:
        self.phase = "play"
        if self.g.rules.claim_timing == "start_of_turn":
            self._claim(self.player)

    def _claim(self, p: int) -> None:
        """p claims every flag its formation is proved to win; a new flag may win the game."""
        unplayed: set[Concrete] | None = None  # worked out once a turn, and only if a proof needs it
        claimed = False
        for flag in range(self.g.rules.flags):
            if self.claimed[flag] != NO_FLAG or len(self.sides[flag][p].cards) < self.size(flag):
                continue
            if unplayed is None:
                cards = self.g.formation_card
                unplayed = {t for c in self.unplayed_troops() if (t := cards[c].troop) is not None}
            if self.can_claim(flag, p, unplayed):
                self.claimed[flag] = p
                claimed = True
                if self.narration is not None:
                    self._say(f"seat {p} claims flag {flag + 1}: {self._claim_words(flag, p)}")
        if claimed and self._won(p):  # only a new flag can win the game
            if self.narration is not None:  # words only for a replay
                self._say(f"seat {p} holds {self.claimed.count(p)} flags, {self._win_words(p)}")
            self._finish(p, "normal")

    def _formation_words(self, cards: list[int], fog: bool) -> str:
        formation = [self.g.formation_card[c] for c in cards]
        (rank, total), read = best_strength(formation, fog, len(self.g.rules.letters))
        r = self.g.rules
        shown = " ".join(
            (f"{self.g.printed[card.name]} as " if card.troop is None else "") + f"{r.letters[colour]}{value}"
            for card, (colour, value) in sorted(zip(formation, read, strict=True), key=lambda pair: pair[1][1])
        )
        kind = "a sum" if fog else r.formation_names[RANKS[rank]]
        return f"{kind} of {total} ({shown})"

    def _claim_words(self, flag: int, p: int) -> str:
        """Why a claim holds: the two formations, or that no completion of the other side beats it."""
        fog = self.fog[flag] != NO_FLAG
        mine, theirs = self.sides[flag][p].cards, self.sides[flag][1 - p].cards
        said = self._formation_words(mine, fog)
        if len(theirs) >= self.size(flag):
            return f"{said} beats {self._formation_words(theirs, fog)}"
        return f"{said}; no unplayed Troops complete the other side to beat it"

    def _win_words(self, p: int) -> str:
        r = self.g.rules
        mine = [c == p for c in self.claimed]
        if any(all(mine[f : f + r.breakthrough]) for f in range(r.flags - r.breakthrough + 1)):
            return f"{r.breakthrough} of them side by side: a breakthrough"
        return f"{r.envelopment} or more anywhere: an envelopment"

    def unplayed_troops(self) -> list[int]:
        """Troops in the deck and both hands: what the proof claim must hold against."""
        tops = [c for c, _ in self.tops[0]]
        return self.troop_deck + tops + [c for h in self.hands for c in h if self.is_troop(c)]

    def can_claim(self, flag: int, p: int, unplayed: set[Concrete] | None = None) -> bool:
        """Whether p's formation at flag is proved to win it; unplayed: the troops not yet on the table."""
        mine, theirs = self.sides[flag][p], self.sides[flag][1 - p]
        size = self.size(flag)
        if len(mine.cards) < size:
            return False
        fog = self.fog[flag] != NO_FLAG
        cards = self.g.formation_card
        colours = len(self.g.rules.letters)
        if len(theirs.cards) >= size:
            a, _ = best_strength([cards[c] for c in mine.cards], fog, colours)
            b, _ = best_strength([cards[c] for c in theirs.cards], fog, colours)
            first = mine.complete_at is not None and (
                theirs.complete_at is None or mine.complete_at < theirs.complete_at
            )
            return a > b or (a == b and first)
        if unplayed is None:
            unplayed = {t for c in self.unplayed_troops() if (t := cards[c].troop) is not None}
        # the completion that beat this formation last time still beats it while its troops are unplayed
        position = (tuple(mine.cards), tuple(theirs.cards), fog, size)
        known = self.refuted.get((flag, p))
        if known is not None and known[0] == position and all(t in unplayed for t in known[1]):
            return False
        found = counter_example(
            [cards[c] for c in mine.cards],
            [cards[c] for c in theirs.cards],
            sorted(unplayed),
            size,
            fog,
            self.g.rules.values,
            len(self.g.rules.letters),
        )
        if found is None:
            return True
        self.refuted[(flag, p)] = (position, [x for x in found if not isinstance(x, Card)])
        return False

    def _won(self, p: int) -> bool:
        r = self.g.rules
        mine = [c == p for c in self.claimed]
        if sum(mine) >= r.envelopment:
            return True
        return any(all(mine[f : f + r.breakthrough]) for f in range(r.flags - r.breakthrough + 1))

    def _finish_by_count(self, how: str) -> None:
        counts = [self.claimed.count(0), self.claimed.count(1)]
        self._finish(None if counts[0] == counts[1] else (0 if counts[0] > counts[1] else 1), how)

    # -- views -----------------------------------------------------------------------------------
    def observation(self, player: int) -> dict[str, Any]:
        names = self.g.names
        return {
            "hand": sorted(names[c] for c in self.hands[player]),
            "opponent_hand": {
                "troops": sum(1 for c in self.hands[1 - player] if self.is_troop(c)),
                "tactics": sum(1 for c in self.hands[1 - player] if not self.is_troop(c)),
            },
            "flags": [
                {
                    "mine": [names[c] for c in s[player].cards],
                    "theirs": [names[c] for c in s[1 - player].cards],
                    "fog": self.fog[f] != NO_FLAG,
                    "mud": self.mud[f] != NO_FLAG,
                    "claimed": self.claimed[f],
                }
                for f, s in enumerate(self.sides)
            ],
            "decks": [self.deck_count(0), self.deck_count(1)],
            "known_tops": [[names[c] for c, who in t if who == player] for t in self.tops],
            "discard": [names[c] for c in self.discard],
            "to_move": self.current_player(),
        }

    def resample(self, player: int, rng: random.Random) -> BattleLineState:
        """Deal the opponent's hand anew from every card the player has not seen."""
        other = self.clone()
        opp = 1 - player
        for which, deck in ((0, other.troop_deck), (1, other.tactics_deck)):
            hidden_tops = [c for c, who in other.tops[which] if who != player]
            other.tops[which] = [(c, who) for c, who in other.tops[which] if who == player]
            in_hand = [c for c in other.hands[opp] if other.is_troop(c) == (which == 0)]
            pool = deck + hidden_tops + in_hand
            rng.shuffle(pool)
            other.hands[opp] = [c for c in other.hands[opp] if other.is_troop(c) != (which == 0)] + pool[: len(in_hand)]
            deck[:] = pool[len(in_hand) :]
        return other

    def action_to_string(self, action: int) -> str:
        a = self.g.act
        names = self.g.names
        if self.current_player() == CHANCE or action >= a.deal:
            return (
                "first player: seat " + str(action - a.first)
                if action >= a.first
                else f"draws {names[action - a.deal]}"
            )
        if action == a.pass_:
            return "passes"
        if action in (a.draw_troop, a.draw_tactics):
            return "draws from the " + ("Troop" if action == a.draw_troop else "Tactics") + " deck"
        if a.guile <= action < a.pass_:
            return f"plays {names[self.g.n_troops + action - a.guile]}"
        if a.pick <= action < a.to_flag:
            flag, card = a.picked(action)
            verb = "discards" if self.pending.get("guile") == "deserter" else "takes"  # a Deserter's card goes
            return f"{verb} {names[card]} from flag {flag + 1}"
        if action == a.discard_it:
            return "discards it"
        if a.to_flag <= action < a.ret:
            return f"puts it at flag {action - a.to_flag + 1}"
        if action >= a.ret:
            return f"puts {names[action - a.ret]} back on its deck"
        card, flag = a.played(action)
        return f"plays {names[card]} at flag {flag + 1}"

    def played_card(self, action: int) -> str | None:
        a = self.g.act
        if self.phase != "play" or self.is_chance_node() or action == a.pass_:
            return None
        card = self.g.n_troops + action - a.guile if a.guile <= action < a.pass_ else a.played(action)[0]
        return str(self.g.names[card])

    def heuristic(self, player: int) -> float:
        """Flags held, plus how strong each unclaimed formation is against the other side."""
        if self.over:
            return self.returns()[player]
        score = 0.0
        cards = self.g.formation_card
        for f in range(self.g.rules.flags):
            owner = self.claimed[f]
            if owner != NO_FLAG:
                score += 1.0 if owner == player else -1.0
                continue
            fog = self.fog[f] != NO_FLAG
            for side, sign in ((player, 1.0), (1 - player, -1.0)):
                placed = self.sides[f][side].cards
                if placed:
                    (rank, total), _ = best_strength([cards[c] for c in placed], fog, len(self.g.rules.letters))
                    fill = len(placed) / self.size(f)
                    score += sign * 0.3 * fill * (rank / 4 + total / 30) / 2
        return math.tanh(score / 3)
