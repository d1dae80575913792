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
from typing import TYPE_CHECKING, Any

from engine.games import formations as fm
from engine.play.expr import Compiled, ExprError, Node, RuleError, truthy
from printkit.data.playfile import NEEDS, PATTERN_KEYS

if TYPE_CHECKING:
    from engine.play.book import _Reader
    from engine.play.scope import Scope

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
        """The kind and sum of cards with no wild card among them; no cards at all: below every kind."""
        if not cards:
            return -1, 0
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
    def holds(self, mine: Sequence[int], theirs: Sequence[int], unseen: Sequence[int], first: bool = True) -> bool:
        """Whether mine, complete, cannot be beaten by theirs completed from the unseen cards; a tie is for the set
        completed first: mine when theirs is short, else as first says."""
        if len(mine) < self.size:
            return False
        beat = self.strength(mine)
        if len(theirs) >= self.size:
            other = self.strength(theirs)
            return other < beat or (other == beat and first)
        pool = [self.card[n] for n in unseen if self.card[n] is not None]
        fixed = [self.card[n] for n in theirs if self.card[n] is not None]
        wild = [self.wild[n] for n in theirs if self.card[n] is None and self.wild[n] is not None]
        if not self.needs[0]:  # the strongest kind needs nothing: every set is of it, ranked by its sum alone
            return not self._outsummed(
                [c for c in fixed if c is not None], [w for w in wild if w is not None], pool, beat
            )
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

    def _outsummed(
        self, fixed: list[Concrete], wild: list[tuple[int, ...]], pool: list[Concrete | None], beat: Strength
    ) -> bool:
        """Where every set is of the one kind, whether their best completion's sum beats beat: theirs with each wild
        card at its highest rank and the highest ranks of the pool (fewer left than it needs: never completed)."""
        need = self.size - len(fixed) - len(wild)
        ranks = sorted((c[1] for c in pool if c is not None), reverse=True)
        if need > len(ranks):
            return False
        total = sum(r for _, r in fixed) + sum(max(w) for w in wild) + sum(ranks[:need])
        return (len(self.kinds) - 1, total) > beat

    def spare(self, numbers: Sequence[int]) -> int:
        """The card of the set whose loss leaves the strongest set; on a tie the first, as the set lies."""
        best, found = None, -1
        for i, card in enumerate(numbers):
            left = self.strength([*numbers[:i], *numbers[i + 1 :]])
            if best is None or left > best:
                best, found = left, card
        return found

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
        if isinstance(r, bool) or not isinstance(r, int) or r < 0:
            raise ValueError(f"card {n}: its rank {r!r} is no whole number of 0 or more")
        if not isinstance(s, str | int) or isinstance(s, bool):
            raise ValueError(f"card {n}: its suit {s!r} is no word or number")
        cards.append((suits.setdefault(s, len(suits)), r))
    ranks = tuple(sorted({c[1] for c in cards if c is not None}))
    wilds: list[tuple[int, ...] | None] = []
    for w in wild:
        if w is None:
            wilds.append(None)
            continue
        if any(isinstance(r, bool) or not isinstance(r, int) or r < 0 for r in w):
            raise ValueError(f"a wild card's ranks {list(w)!r} are not all whole numbers of 0 or more")
        wilds.append(tuple(sorted(set(w))) or ranks)
    return Pattern(
        name, size, tuple(k for k, _ in kinds), tuple(frozenset(n) for _, n in kinds), max(len(suits), 1),
        ranks, tuple(cards), tuple(wilds),
    )  # fmt: skip


# -- the rules language's side: play.yaml's patterns: and the functions that read them ---------------------------
PATTERN_FUNCTIONS = ("strength", "claimable", "kind", "rank_sum", "spare")
MAX_SIZE = 8  # cards in a set: a claim's completions and a set's readings stay within their bounds


def read(r: _Reader, raw: Any) -> None:
    """play.yaml's patterns: each a name and its kinds, suits, ranks and wild cards, every problem placed."""
    assert r.scope is not None
    scope = r.scope
    if raw is None:
        return
    if not isinstance(raw, dict):
        r.fail(("patterns",), "patterns: expected names, each with size, kinds, needs, suit, rank and wild")
        return
    for name, spec in raw.items():
        path = ("patterns", str(name))
        if not str(name).isidentifier():
            r.fail(path, f"patterns: expected a name, found {name!r}", at_key=True)
            continue
        if isinstance(spec, dict) and "like" in spec:
            spec = _like(r, raw, name, spec, path)
            if spec is None:
                continue
        if not r.keys(spec, path, PATTERN_KEYS, ("size", "kinds", "suit", "rank")):
            continue
        size = r.constant(spec["size"], (*path, "size"), 1, MAX_SIZE)
        kinds = _kinds(r, spec, path)
        wild = _per_card(r, spec.get("wild", "false"), (*path, "wild"), scope)
        ranks = _per_card(r, spec.get("wild_ranks", "none"), (*path, "wild_ranks"), scope, wild)
        if size is None or kinds is None or wild is None or ranks is None:
            continue
        fields = scope.fields
        suit_of = [f.get(str(spec["suit"])) for f in fields]
        rank_of = [f.get(str(spec["rank"])) for f in fields]
        wilds: list[Sequence[int] | None] = []
        for card, (is_wild, values) in enumerate(zip(wild, ranks, strict=True)):
            if not is_wild:
                wilds.append(None)
            elif values is None:
                wilds.append(())
            elif isinstance(values, list | tuple):
                wilds.append(values)
            else:
                said = f"wild_ranks: expected a list of ranks (none: any) for {fields[card]['id']}, found {values!r}"
                r.fail((*path, "wild_ranks"), said)
                break
        else:
            if not any(s is not None and r_ is not None for s, r_ in zip(suit_of, rank_of, strict=True)):
                r.fail((*path, "rank"), f"no card has both a {spec['suit']!r} and a {spec['rank']!r} field")
                continue
            try:
                scope.patterns[str(name)] = make(str(name), size, kinds, suit_of, rank_of, wilds)
            except ValueError as exc:
                r.fail(path, str(exc))


def _like(r: _Reader, raw: dict[Any, Any], name: Any, spec: dict[str, Any], path: tuple[str, ...]) -> Any:
    """A pattern written as another's with some keys changed (like: formation, size: 4): that one's keys, then its own.
    The other may itself be like a third; None when like: names no pattern, or the likenesses go round."""
    merged = {k: v for k, v in spec.items() if k != "like"}
    seen = {str(name)}
    base = spec["like"]
    while True:
        other = raw.get(base) if isinstance(base, str) else None
        if not isinstance(other, dict) or base in seen:
            said = "goes round" if base in seen else f"names no pattern ({', '.join(map(str, raw)) or 'none'})"
            r.fail((*path, "like"), f"like: {base!r} {said}: expected another pattern's name")
            return None
        seen.add(base)
        merged = {**{k: v for k, v in other.items() if k != "like"}, **merged}
        if "like" not in other:
            return merged
        base = other["like"]


def _kinds(r: _Reader, spec: dict[str, Any], path: tuple[str, ...]) -> list[tuple[str, list[str]]] | None:
    """The kinds strongest first, from a table of game.yaml (formations) or a list of ids, with what each needs."""
    assert r.scope is not None
    raw = spec["kinds"]
    if isinstance(raw, str) and raw in r.scope.tables:
        ids = list(r.scope.tables[raw])
    elif isinstance(raw, list) and raw and all(isinstance(k, str) for k in raw):
        ids = list(raw)
    else:
        tables = ", ".join(sorted(r.scope.tables)) or "none"
        r.fail((*path, "kinds"), f"kinds: expected a table of game.yaml ({tables}) or a list of ids, strongest first")
        return None
    needs = spec.get("needs") or {}
    if not isinstance(needs, dict):
        r.fail((*path, "needs"), "needs: expected each kind's id and what it needs, such as {wedge: [run, suited]}")
        return None
    ok = True
    for kind, want in needs.items():
        if kind not in ids:
            r.fail((*path, "needs", str(kind)), f"needs: no kind {kind!r} (kinds: {', '.join(ids)})", at_key=True)
            ok = False
        elif not isinstance(want, list) or any(w not in NEEDS for w in want):
            said = f"needs: expected a list of {', '.join(NEEDS)}, found {want!r}"
            r.fail((*path, "needs", str(kind)), said)
            ok = False
    return [(k, list(needs.get(k) or [])) for k in ids] if ok else None


def _per_card(
    r: _Reader, raw: Any, path: tuple[str, ...], scope: Scope, only: list[Any] | None = None
) -> list[Any] | None:
    """An expression of card worked out for every card (those only allows) as the rules are read: it may not read
    the position."""
    compiled = r.expr(raw, path, {"card": "card"})
    if compiled is None:
        return None
    out: list[Any] = []
    for card in range(scope.cards):
        if only is not None and not only[card]:
            out.append(None)
            continue
        try:
            out.append(compiled.fn(None, {"card": card, "me": 0}))
        except Exception:  # it reads the position, not the card alone
            r.fail(
                path, f"{path[-1]}: expected an expression of the card alone (it is worked out as the rules are read)"
            )
            return None
    return out


def function(scope: Scope, fname: str, nodes: list[Node], column: int, bound: dict[str, str]) -> Compiled:
    """strength(pattern, zone): a set's kind and sum as one number, higher stronger (kind() and rank_sum(): each
    part alone, the kind from 0 the weakest, -1 for no cards); claimable(pattern, mine, theirs
    [, first]): mine complete and no completion of theirs from the cards in no zone seen by all beats it (both
    complete: a tie is mine if first says mine was completed first); spare(pattern, zone): the card whose loss leaves
    the strongest set. The pattern is a name, or `a if test else b` of names: a place's mode (Fog at a flag) picks
    it."""
    want = (3, 4) if fname == "claimable" else (2,)
    if len(nodes) not in want:
        zones = "mine, theirs[, first]" if fname == "claimable" else "zone"
        raise ExprError(f"{fname}(pattern, {zones}): expected {' or '.join(map(str, want))} arguments", column)
    pick = _pattern(scope, fname, nodes[0], column, bound)
    args = [scope.compile(n, bound) for n in nodes[1:]]
    first = args.pop() if len(args) == 3 else None  # whether mine was completed first: a tie's winner
    if first is not None and first.kind in ("zone", "slots", "grid", "table", "row", "marks", "places"):
        raise ExprError(f"claimable(): expected a test whether mine was completed first, found a {first.kind}", column)
    for a in args:
        if a.kind not in ("zone", "slots"):
            raise ExprError(f"{fname}(): expected a zone of cards, such as my.line, found a {a.kind}", column)
    fixed = pick if isinstance(pick, Pattern) else None
    choose = None if isinstance(pick, Pattern) else pick

    def scale(p: Pattern) -> int:
        return p.size * max(p.ranks or (0,)) + 1  # above any sum: a kind outweighs every sum below it

    if fname == "strength":
        f = args[0].fn

        def number(s: Any, e: dict[str, Any]) -> int:
            p = fixed if fixed is not None else choose(s, e)  # type: ignore[misc]  # one of the two is set
            try:
                kind, total = p.strength([c for c in s.zones[f(s, e)] if c >= 0])
            except PatternError as exc:
                raise RuleError(f"column {column}: {exc}") from exc
            return kind * scale(p) + total

        return Compiled(number, "number")
    if fname == "spare":
        f = args[0].fn

        def spare(s: Any, e: dict[str, Any]) -> int | None:
            p = fixed if fixed is not None else choose(s, e)  # type: ignore[misc]  # one of the two is set
            cards = [c for c in s.zones[f(s, e)] if c >= 0]
            if not cards:
                return None
            try:
                return p.spare(cards)
            except PatternError as exc:
                raise RuleError(f"column {column}: {exc}") from exc

        return Compiled(spare, "card")
    if fname in ("kind", "rank_sum"):  # strength's two parts, each alone: a weighing of them not strength's own
        f, part = args[0].fn, 0 if fname == "kind" else 1

        def either(s: Any, e: dict[str, Any]) -> int:
            p = fixed if fixed is not None else choose(s, e)  # type: ignore[misc]  # one of the two is set
            try:
                return p.strength([c for c in s.zones[f(s, e)] if c >= 0])[part]
            except PatternError as exc:
                raise RuleError(f"column {column}: {exc}") from exc

        return Compiled(either, "number")
    seen = [
        i for z in scope.zones.values() if z.visible == "all"
        for i in range(z.base, z.base + z.span(scope.players))
    ]  # fmt: skip
    # by pattern: each card's copies a completion may take (0: not read), the cards it may take, whether each once
    copies_of: dict[str, tuple[list[int], list[int], bool]] = {}
    for p in scope.patterns.values():
        copies = [int(f.get("copies", 1)) if p.card[n] is not None else 0 for n, f in enumerate(scope.fields)]
        readable = [n for n, k in enumerate(copies) if k > 0]
        copies_of[p.name] = (copies, readable, all(copies[n] == 1 for n in readable))
    fm_, ft = args[0].fn, args[1].fn
    ff = first.fn if first is not None else None

    def claimable(s: Any, e: dict[str, Any]) -> bool:
        p = fixed if fixed is not None else choose(s, e)  # type: ignore[misc]  # one of the two is set
        size = p.size
        mine = [c for c in s.zones[fm_(s, e)] if c >= 0]
        if len(mine) < size:  # asked of every flag each turn: most are short, and need no look at the unseen cards
            return False
        theirs = [c for c in s.zones[ft(s, e)] if c >= 0]
        copies, readable, single = copies_of[p.name]
        if len(theirs) >= size:  # the unseen cards matter only to a completion of theirs
            unseen: list[int] = []
        else:
            left = list(copies)
            for i in seen:
                for c in s.zones[i]:
                    if c >= 0:
                        left[c] -= 1
            if single:  # one copy of each card, the usual deck: a card is unseen or not
                unseen = [n for n in readable if left[n] > 0]
            else:
                unseen = [n for n in readable for _ in range(max(left[n], 0))]
        try:
            return p.holds(mine, theirs, unseen, True if ff is None else bool(ff(s, e)))
        except PatternError as exc:
            raise RuleError(f"column {column}: {exc}") from exc

    return Compiled(claimable, "bool")


def _pattern(scope: Scope, fname: str, node: Node, column: int, bound: dict[str, str]) -> Any:
    """The pattern a call names: a Pattern, or for `a if test else b` a function of the position choosing one."""
    if node[0] == "if":
        test = scope.compile(node[2], bound).fn
        yes = _pattern(scope, fname, node[3], column, bound)
        no = _pattern(scope, fname, node[4], column, bound)
        fy = (lambda s, e: yes) if isinstance(yes, Pattern) else yes
        fn = (lambda s, e: no) if isinstance(no, Pattern) else no
        return lambda s, e: fy(s, e) if truthy(test(s, e)) else fn(s, e)
    if node[0] == "name" and len(node[2]) == 1 and node[2][0] in scope.patterns:
        return scope.patterns[node[2][0]]
    known = ", ".join(scope.patterns) or "none yet: declare them under patterns:"
    zones = "mine, theirs[, first]" if fname == "claimable" else "zone"
    raise ExprError(
        f"{fname}(pattern, {zones}): expected a pattern's name first, or a if test else b (patterns: {known})",
        node[1] if len(node) > 1 and isinstance(node[1], int) else column,
    )
