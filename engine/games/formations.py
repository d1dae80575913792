"""Battle Line's formations and the proof claim, for any line of troops: the colours, values and wild cards
are arguments, so a variant's data (or a position typed in a test) is read as it stands.

Troops are written as a colour letter and a value ("R10", "B1"); Tactics cards that stand in a formation by
their card id ("alexander", "companion-cavalry"). A formation's strength is (rank, sum), rank 0 (host) to
4 (wedge), higher stronger; a full tie goes to the side that completed first.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

Concrete = tuple[int, int]  # (colour index, value)
Strength = tuple[int, int]  # (formation rank, sum); higher is stronger


@dataclass(frozen=True, slots=True)
class Line:
    """What formations are made of: the colours' letters in data order, the troop values low to high, and the
    values each wild card (a Leader or Morale Tactics card, by id) may stand for, in any colour."""

    letters: tuple[str, ...]
    values: tuple[int, ...]
    wild: tuple[tuple[str, tuple[int, ...]], ...] = ()

    def troop_name(self, colour: int, value: int) -> str:
        return f"{self.letters[colour]}{value}"


def strength(cards: Sequence[Concrete], fog: bool = False) -> Strength:
    """The formation rank and sum of concrete cards."""
    values = sorted([v for _, v in cards])
    total = sum(values)
    if fog:
        return 0, total
    if not values:
        return 1, 0  # nothing at all reads as a run of nothing: only ever asked of a formation to come
    colours = [c for c, _ in cards]
    one_colour = colours.count(colours[0]) == len(colours)
    distinct = len(set(values)) == len(values)
    run = distinct and values[-1] - values[0] == len(values) - 1  # sorted and distinct: consecutive
    if one_colour and run:
        return 4, total
    if values[0] == values[-1]:
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


def wild_strength(troops: Sequence[Concrete], wild: Sequence[tuple[int, ...]], fog: bool = False) -> Strength:
    """best_strength's strength for troops and wild cards (each given by the values it may take, in any
    colour), found kind by kind from the strongest instead of by trying every reading: a game asks it of
    every new formation holding a Leader or a Morale card, where the readings run to hundreds."""
    size = len(troops) + len(wild)
    fixed = [v for _, v in troops]
    most = sum(fixed) + sum([max(values) for values in wild])  # every wild card at its highest
    if fog:
        return 0, most
    one_colour = len({c for c, _ in troops}) <= 1  # the wild cards can take that colour too
    run = _best_run(fixed, wild, size)
    if run is not None and one_colour:
        return 4, run
    kinds = set(fixed)
    if len(kinds) <= 1:  # a phalanx, when one value is open to every wild card (and is the troops' own)
        common = set(kinds or wild[0]).intersection(*wild)
        if common:
            return 3, size * max(common)
    if one_colour:
        return 2, most
    if run is not None:  # troops of two colours or more: the run cannot be a wedge
        return 1, run
    return 0, most


def _best_run(fixed: list[int], wild: Sequence[tuple[int, ...]], size: int) -> int | None:
    """The highest sum of a run of size values holding the fixed values, the wild cards taking the rest."""
    if len(set(fixed)) != len(fixed):
        return None
    if fixed:  # a run holding every fixed value starts at the lowest of them or below, within size of the highest
        top, bottom = min(fixed), max(fixed) - size + 1
    else:
        seen = set().union(*wild)
        top, bottom = max(seen) - size + 1, min(seen)
    spread = size * (size - 1) // 2  # a run's sum is size x its start + spread
    if len(wild) == 1:  # the usual case: the one wild card takes the value the run misses, its sum less theirs
        values, fixed_sum = wild[0], sum(fixed)
        for start in range(top, bottom - 1, -1):
            if size * start + spread - fixed_sum in values:
                return size * start + spread
        return None
    for start in range(top, bottom - 1, -1):
        missing = set(range(start, start + size)).difference(fixed)  # one value for each wild card
        for order in itertools.permutations(missing):  # the wild cards in turn take these values
            for v, values in zip(order, wild, strict=True):
                if v not in values:
                    break
            else:
                return size * start + spread
    return None


class Troops:
    """Every troop of a line as one bit of an int, colour by colour, values low to high: a set of troops (the
    unplayed ones) is then one int, which the proof looks up and a game keeps up to date at little cost."""

    __slots__ = ("_wedges", "colour_bits", "colours", "index", "nv", "troop", "value_bits", "values")

    def __init__(self, values: tuple[int, ...], colours: int) -> None:
        self.values, self.colours, self.nv = values, colours, len(values)
        self.index = {(c, v): c * self.nv + i for c in range(colours) for i, v in enumerate(values)}
        self.troop = [(c, v) for c in range(colours) for v in values]  # bit -> troop
        self.value_bits = {v: sum(1 << self.index[c, v] for c in range(colours)) for v in values}
        self.colour_bits = [sum(1 << self.index[c, v] for v in values) for c in range(colours)]
        # by formation size: (first value, colour) -> the bits of that run of one colour, for the runs the
        # line holds every value of; made on the first proof of each size, a few dozen ints
        self._wedges: dict[int, dict[tuple[int, int], int]] = {}

    def wedges(self, size: int) -> dict[tuple[int, int], int]:
        """(first value, colour) -> the bits of the one-colour run of size from that value, where the line has it."""
        found = self._wedges.get(size)
        if found is None:
            found = self._wedges[size] = {}
            for start in self.values:
                for colour in range(self.colours):
                    at = [self.index.get((colour, v)) for v in range(start, start + size)]
                    if None not in at:
                        found[start, colour] = sum(1 << i for i in at if i is not None)
        return found

    def run(self, colour: int, start: int, size: int) -> int | None:
        return self.wedges(size).get((start, colour))

    def bits(self, troops: Iterable[Concrete]) -> int:
        out = 0
        for t in troops:
            out |= 1 << self.index[t]
        return out

    def of_value(self, unplayed: int, value: int, skip: set[int] | frozenset[int] = frozenset()) -> list[Concrete]:
        """The unplayed troops of a value, lowest colour first, leaving out the colours in skip."""
        m = unplayed & self.value_bits.get(value, 0)
        out = []
        while m:
            low = m & -m
            troop = self.troop[low.bit_length() - 1]
            if troop[0] not in skip:
                out.append(troop)
            m ^= low
        return out

    def strongest(self, unplayed: int, k: int, colour: int | None = None) -> list[Concrete]:
        """Up to k unplayed troops (of one colour, when given), highest value first, then lowest colour."""
        out: list[Concrete] = []
        if colour is not None:
            m = unplayed & self.colour_bits[colour]
            while m and len(out) < k:
                high = m.bit_length() - 1
                out.append(self.troop[high])
                m ^= 1 << high
            return out
        for v in reversed(self.values):  # each value's troops by their bits, lowest colour first, in one loop
            m = unplayed & self.value_bits[v]
            while m:
                if len(out) >= k:
                    return out
                low = m & -m
                out.append(self.troop[low.bit_length() - 1])
                m ^= low
        return out


@functools.cache
def troops_of(values: tuple[int, ...], colours: int) -> Troops:
    return Troops(values, colours)


def best_completion(
    fixed: list[Concrete],
    need: int,
    unplayed: int,
    beat: Strength,
    fog: bool,
    troops: Troops,
) -> list[Concrete] | None:
    """Troops from unplayed (a Troops bit set) that complete fixed into a formation stronger than beat, or None.

    Each formation kind is checked from the strongest down, each at its highest sum, so the
    first completion found that beats `beat` is returned and no weaker kind needs a look.
    """
    if fog:
        extra = troops.strongest(unplayed, need)
        if len(extra) == need and (0, sum([v for _, v in fixed]) + sum([v for _, v in extra])) > beat:
            return extra
        return None
    size = len(fixed) + need
    fixed_values = [v for _, v in fixed]
    kinds = set(fixed_values)  # the fixed values, each once
    fixed_colours = {c for c, _ in fixed}
    distinct = len(kinds) == len(fixed_values)
    values = troops.values
    beat_rank = beat[0]

    # the runs of values that hold every fixed value start from top down to bottom; a run's sum is
    # size x its start + spread
    if fixed_values:
        top = min(values[-1] - size + 1, min(fixed_values))
        bottom = max(values[0], max(fixed_values) - size + 1)
    else:
        top, bottom = values[-1] - size + 1, values[0]
    spread = size * (size - 1) // 2

    if len(fixed_colours) <= 1 and distinct:  # wedge: the strongest kind, always worth a look
        fixed_bits = 0
        for t in fixed:
            at = troops.index.get(t)
            fixed_bits |= 0 if at is None else 1 << at
        wedges = troops.wedges(size)
        colours = fixed_colours or range(troops.colours)
        for start in range(top, bottom - 1, -1):
            if (4, size * start + spread) <= beat:
                break
            for colour in colours:
                bits = wedges.get((start, colour))
                if bits is not None and not bits & ~fixed_bits & ~unplayed:  # the run's other troops unplayed
                    return [(colour, v) for v in range(start, start + size) if v not in kinds]
    if beat_rank > 3:
        return None
    if len(kinds) <= 1:  # phalanx
        for value in sorted(kinds or values, reverse=True):
            if (3, value * size) <= beat:
                break
            spare = troops.of_value(unplayed, value, fixed_colours)
            if len(spare) >= need:
                return spare[:need]
    if beat_rank > 2:
        return None
    if len(fixed_colours) <= 1:  # battalion
        best: list[Concrete] | None = None
        best_sum = 0
        for colour in fixed_colours or range(troops.colours):
            extra = troops.strongest(unplayed, need, colour)
            if len(extra) == need:
                total = sum([v for _, v in extra])
                if best is None or total > best_sum:
                    best, best_sum = extra, total
        if best is not None and (2, sum(fixed_values) + best_sum) > beat:
            return best
    if beat_rank > 1:
        return None
    if distinct:  # skirmish line
        value_bits, troop = troops.value_bits, troops.troop
        for start in range(top, bottom - 1, -1):
            if (1, size * start + spread) <= beat:
                break
            picks = []
            for v in range(start, start + size):
                if v not in kinds:
                    m = unplayed & value_bits.get(v, 0)
                    if not m:
                        break
                    picks.append(troop[(m & -m).bit_length() - 1])
            else:
                return picks
    if beat_rank > 0:
        return None
    extra = troops.strongest(unplayed, need)  # host
    if len(extra) == need and (0, sum(fixed_values) + sum([v for _, v in extra])) > beat:
        return extra
    return None


def counter_example(
    mine: Sequence[Card],
    theirs: Sequence[Card],
    unplayed: Sequence[Concrete] | int,
    size: int,
    fog: bool,
    values: tuple[int, ...],
    colours: int,
    beat: Strength | None = None,
) -> list[Concrete | Card] | None:
    """A completion of theirs (their cards first, then troops from unplayed) that beats mine, or None.

    unplayed: the troops, or their Troops bit set; beat: mine's strength, when the caller knows it already.
    """
    if beat is None:
        beat, _ = best_strength(mine, fog, colours)
    troops = troops_of(values, colours)
    pool = unplayed if isinstance(unplayed, int) else troops.bits(unplayed)
    need = size - len(theirs)
    wild = [c for c in theirs if c.troop is None]
    fixed = [c.troop for c in theirs if c.troop is not None]
    if not wild:  # the usual case: one completion search
        extra = best_completion(fixed, need, pool, beat, fog, troops)
        return None if extra is None else [*theirs, *extra]
    # a wild card may take any colour. The unplayed troops differ from colour to colour, so each
    # colour with a troop in theirs or in the pool is tried; the colours with none are all alike,
    # and one of them stands for the rest (a colour of their own never makes a formation stronger)
    seen = {c for c, _ in fixed} | {c for c in range(colours) if pool & troops.colour_bits[c]}
    choices = sorted(seen) + [c for c in range(colours) if c not in seen][:1]
    for combo in itertools.product(*(c.options(choices) for c in wild)):
        extra = best_completion(fixed + list(combo), need, pool, beat, fog, troops)
        if extra is not None:
            return [*theirs, *extra]
    return None


def parse(names: Iterable[str], line: Line) -> list[Card]:
    """Cards from their names: "R10" for a troop, a wild card's id for a Leader or Morale card."""
    wild = dict(line.wild)
    out = []
    for name in names:
        if name in wild:
            out.append(Card(name, None, wild[name]))
            continue
        letter, number = name[:1], name[1:]
        if letter not in line.letters or not number.isdigit() or int(number) not in line.values:
            raise ValueError(f"expected a troop such as R10 or a wild card's id, found {name!r}")
        out.append(Card(name, (line.letters.index(letter), int(number))))
    return out


def compare_formations(
    a: list[str], b: list[str], line: Line, *, size: int, fog: bool = False, a_first: bool = True
) -> int:
    """1 if formation a beats formation b, -1 if b wins; a_first says which was completed first (it wins ties)."""
    if len(a) != size or len(b) != size:
        raise ValueError(f"formations need {size} cards each, found {len(a)} and {len(b)}")
    colours = len(line.letters)
    sa, _ = best_strength(parse(a, line), fog, colours)
    sb, _ = best_strength(parse(b, line), fog, colours)
    if sa != sb:
        return 1 if sa > sb else -1
    return 1 if a_first else -1


def prove_claim(
    mine: list[str], theirs: list[str], unplayed: list[str], line: Line, *, size: int, fog: bool = False
) -> list[str] | None:
    """Whether a complete formation holds its flag against an incomplete one.

    None when no completion of theirs from the unplayed troops beats mine (a tie goes to mine,
    completed first); otherwise one completion that beats it: the full list of their cards.
    """
    if len(mine) != size:
        raise ValueError(f"mine must be complete ({size} cards), found {len(mine)}")
    if len(theirs) >= size:
        raise ValueError(f"theirs must be incomplete (under {size} cards), found {len(theirs)}")
    pool = [c.troop for c in parse(unplayed, line) if c.troop is not None]
    found = counter_example(parse(mine, line), parse(theirs, line), pool, size, fog, line.values, len(line.letters))
    if found is None:
        return None
    return [x.name if isinstance(x, Card) else line.troop_name(*x) for x in found]
