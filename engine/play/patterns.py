"""Sets of cards ranked by declared kinds, wild cards read at their best, and provable claims: the rules language's
built-ins for what a designer should not write by hand.

A pattern (play.yaml's patterns:) names the card field that is a card's suit and the one that is its rank (a whole
number), the kinds of set strongest first, each needing some of: run (distinct consecutive ranks), suited (one suit)
and same (one rank), and which cards are wild (any suit, one of some ranks). A set's strength is its kind (the first
it makes, wild cards read to suit) and then its ranks' sum. A claim holds when a complete set cannot be beaten by any
completion of the other side's set from the cards not yet seen: no completion stronger, a tie going to the complete
set. Where the kinds are the usual ladder (run and suited, same, suited, run, any) the search is
engine/games/formations.py's, kind by kind from the strongest; otherwise every completion is tried, up to a bound.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from engine.games import formations as fm

NEEDS = ("run", "suited", "same")  # what a kind may need of its cards
# the usual ladder, strongest first: formations.py ranks it 4 (wedge) down to 0 (host) and searches it fast
LADDER: tuple[frozenset[str], ...] = (
    frozenset({"run", "suited"}), frozenset({"same"}), frozenset({"suited"}), frozenset({"run"}), frozenset(),
)  # fmt: skip
READINGS_LIMIT = 50_000  # readings of a set's wild cards tried at most: more is a rule error, said with its place
CLAIM_SEARCH_LIMIT = 200_000  # completions a claim on an unusual ladder tries; past it the claim is not proven

Concrete = tuple[int, int]  # (suit index, rank)
Strength = tuple[int, int]  # (kind, from 0 the weakest; sum)


class PatternError(Exception):
    """A set the pattern cannot read within its bounds."""


@dataclass(frozen=True)
class Pattern:
    """A declared way of ranking sets: the kinds strongest first, what each needs, the cards' suits, ranks, wilds."""

    name: str
    size: int
    kinds: tuple[str, ...]  # strongest first
    needs: tuple[frozenset[str], ...]  # by kind
    suits: int  # how many suits the cards have
    ranks: tuple[int, ...]  # every rank a card has, low to high
    card: tuple[Concrete | None, ...]  # by card number: its suit and rank, None for a wild card or one it ignores
    wild: tuple[tuple[int, ...] | None, ...]  # by card number: a wild card's ranks (any suit), else None

    @property
    def ladder(self) -> bool:
        """The usual ladder, whose completions formations.py searches kind by kind."""
        return self.needs == LADDER

    def unique(self) -> bool:
        """Each suit and rank on one card at most: the fast search keeps the unseen cards as a bit set."""
        seen = [c for c in self.card if c is not None]
        return len(seen) == len(set(seen))

    # -- strength ------------------------------------------------------------------------------
    def concrete(self, cards: Sequence[Concrete]) -> Strength:
        """The kind and sum of cards with no wild card among them."""
        total = sum([r for _, r in cards])
        if self.ladder:
            return fm.strength(cards)[0], total  # formations.py's ranks are the ladder's, weakest 0
        top = len(self.kinds) - 1
        for k, needs in enumerate(self.needs):
            if _makes(cards, needs):
                return top - k, total
        return -1, total  # no kind made: weaker than all (a designer's ladder with no catch-all)

    def strength(self, numbers: Sequence[int]) -> Strength:
        """The strongest reading of a set of cards, by their numbers, wild cards chosen to suit."""
        fixed: list[Concrete] = []
        wild: list[tuple[int, ...]] = []
        for n in numbers:
            c = self.card[n]
            if c is not None:
                fixed.append(c)
            elif self.wild[n] is not None:
                wild.append(self.wild[n])  # type: ignore[arg-type]  # checked just above
        if not wild:
            return self.concrete(fixed)
        choices = _suit_choices(fixed, self.suits)
        options = [[(s, r) for s in choices for r in ranks] for ranks in wild]
        readings = 1
        for o in options:
            readings *= len(o)
        if readings > READINGS_LIMIT:
            raise PatternError(f"{self.name}: {readings:,} readings of {len(wild)} wild cards, over {READINGS_LIMIT:,}")
        return max(self.concrete([*fixed, *combo]) for combo in itertools.product(*options))

    # -- claims --------------------------------------------------------------------------------
    def holds(self, mine: Sequence[int], theirs: Sequence[int], unseen: Sequence[int]) -> bool:
        """Whether mine, complete, cannot be beaten by theirs completed from the unseen cards (a tie is mine's)."""
        if len(mine) < self.size:
            return False
        beat = self.strength(mine)
        if len(theirs) >= self.size:
            return self.strength(theirs) < beat  # complete both: the stronger; a tie is for who completed first
        pool = [self.card[n] for n in unseen if self.card[n] is not None]
        fixed = [self.card[n] for n in theirs if self.card[n] is not None]
        wild = [self.wild[n] for n in theirs if self.card[n] is None and self.wild[n] is not None]
        if self.ladder and self.unique():
            found = fm.counter_example(
                [],
                [fm.Card("", c) for c in fixed] + [fm.Card("", None, w) for w in wild if w is not None],
                [c for c in pool if c is not None],
                self.size,
                False,
                self.ranks,
                self.suits,
                beat=beat,
            )
            return found is None
        return not self._beaten([c for c in fixed if c is not None], [w for w in wild if w is not None], pool, beat)

    def _beaten(
        self, fixed: list[Concrete], wild: list[tuple[int, ...]], pool: list[Concrete | None], beat: Strength
    ) -> bool:
        """Any completion of fixed and wild from pool stronger than beat, tried one by one up to the bound."""
        need = self.size - len(fixed) - len(wild)
        cards = [c for c in pool if c is not None]
        for tried, extra in enumerate(itertools.combinations(cards, need), 1):
            numbers_fixed = [*fixed, *extra]
            if wild:
                choices = _suit_choices(numbers_fixed, self.suits)
                options = [[(s, r) for s in choices for r in ranks] for ranks in wild]
                best = max(self.concrete([*numbers_fixed, *combo]) for combo in itertools.product(*options))
            else:
                best = self.concrete(numbers_fixed)
            if best > beat:
                return True
            if tried >= CLAIM_SEARCH_LIMIT:
                return True  # not searched through: not proven, so nobody claims on a search cut short
        return False


def _makes(cards: Sequence[Concrete], needs: frozenset[str]) -> bool:
    if not cards:
        return True
    ranks = sorted([r for _, r in cards])
    if "suited" in needs and len({s for s, _ in cards}) > 1:
        return False
    if "same" in needs and ranks[0] != ranks[-1]:
        return False
    return "run" not in needs or (len(set(ranks)) == len(ranks) and ranks[-1] - ranks[0] == len(ranks) - 1)


def _suit_choices(fixed: Sequence[Concrete], suits: int) -> list[int]:
    """The suits worth trying for a wild card: those present, and one more (the rest are alike)."""
    present = sorted({s for s, _ in fixed})
    if len(present) < suits:
        present.append(next(s for s in range(suits) if s not in present))
    return present


def make(
    name: str,
    size: int,
    kinds: Sequence[tuple[str, Sequence[str]]],
    suit_of: Sequence[object],
    rank_of: Sequence[object],
    wild: Sequence[Sequence[int] | None],
) -> Pattern:
    """A pattern from each card's suit and rank (None: not read) and wild ranks (None: not wild), by card number.

    A wild card with no ranks given may be any rank a card has. ValueError says what does not fit.
    """
    for kind, needs in kinds:
        unknown = [n for n in needs if n not in NEEDS]
        if unknown:
            raise ValueError(f"kind {kind}: needs {unknown[0]!r}? (expected some of: {', '.join(NEEDS)})")
    suits: dict[object, int] = {}
    cards: list[Concrete | None] = []
    for n, (s, r) in enumerate(zip(suit_of, rank_of, strict=True)):
        if wild[n] is not None or s is None or r is None:
            cards.append(None)
            continue
        if isinstance(r, bool) or not isinstance(r, int):
            raise ValueError(f"card {n}: its rank {r!r} is no whole number")
        cards.append((suits.setdefault(s, len(suits)), r))
    ranks = tuple(sorted({c[1] for c in cards if c is not None}))
    wilds: list[tuple[int, ...] | None] = []
    for w in wild:
        if w is None:
            wilds.append(None)
            continue
        if any(isinstance(r, bool) or not isinstance(r, int) for r in w):
            raise ValueError(f"a wild card's ranks {list(w)!r} are not all whole numbers")
        wilds.append(tuple(sorted(set(w))) or ranks)
    return Pattern(
        name, size, tuple(k for k, _ in kinds), tuple(frozenset(n) for _, n in kinds), max(len(suits), 1),
        ranks, tuple(cards), tuple(wilds),
    )  # fmt: skip
