"""The rules language's expressions: parsed by a grammar of their own and compiled to closures, never eval'd.

An expression reads a position through names the rule book resolves (my.tokens, their.study, card.era,
rules.hand_limit, game.eras[card.era].power) and combines them with arithmetic (+ - * / // %), comparisons
(== != < <= > >=, `is` and `is not` against a word or a value, `in`), and, or, not, the conditional
`a if test else b`, brackets, and a few functions (count, open, empty, full, top, min, max, abs, all, any).
It compiles once, when the rules are read, into nested Python closures of (state, bindings).
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from printkit.core.errors import PrintkitError, safe

MAX_LENGTH = 500  # characters of one expression: a line a designer reads
MAX_DEPTH = 30  # brackets, calls and operators inside one another

Fn = Callable[[Any, dict[str, Any]], Any]  # (state, bindings) -> value

_TOKEN = re.compile(
    r"""\s*(?:
    (?P<number>\d+(?:\.\d+)?(?![\w.]))
    |(?P<quoted>'[^']*'|"[^"]*")
    |(?P<op>//|==|!=|<=|>=|[-+*/%<>()\[\],.])
    |(?P<word>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)
    )""",
    re.X,
)
KEYWORDS = {"and", "or", "not", "is", "in", "if", "else", "true", "false", "none"}


class ExprError(ValueError):
    """An expression that does not parse or names what the rules lack: the message, and the character (from 1)."""

    def __init__(self, message: str, column: int) -> None:
        super().__init__(message)
        self.column = column


@dataclass(frozen=True)
class Token:
    kind: str  # number, quoted, op, word, end
    text: str
    column: int


def tokens(text: str) -> list[Token]:
    out: list[Token] = []
    pos = 0
    while pos < len(text):
        if not text[pos:].strip():
            break
        match = _TOKEN.match(text, pos)
        if match is None or match.end() == pos:
            start = len(text) - len(text[pos:].lstrip())
            raise ExprError(f"unexpected {text[start : start + 10]!r}", start + 1)
        kind = match.lastgroup or "word"
        out.append(Token(kind, match.group(kind), match.start(kind) + 1))
        pos = match.end()
    out.append(Token("end", "", len(text) + 1))
    return out


# A parsed expression: a tuple whose first item says what it is and whose second is its column.
#   ("num", col, value) ("text", col, str) ("bool", col, b) ("none", col) ("word", col, str)  -- a bare word
#   ("name", col, [parts])  ("index", col, base, key, [fields after])  ("call", col, fname, [args])
#   ("neg", col, x) ("not", col, x) ("and"/"or", col, a, b) ("op", col, sym, a, b) ("cmp", col, sym, a, b)
#   ("if", col, test, yes, no)
Node = tuple[Any, ...]


class Parser:
    def __init__(self, text: str) -> None:
        self.toks = tokens(text)
        self.at = 0

    def peek(self) -> Token:
        return self.toks[min(self.at, len(self.toks) - 1)]

    def take(self) -> Token:
        token = self.peek()
        self.at += 1
        return token

    def word(self, text: str) -> bool:
        token = self.peek()
        if token.kind == "word" and token.text == text:
            self.at += 1
            return True
        return False

    def op(self, *symbols: str) -> str | None:
        token = self.peek()
        if token.kind == "op" and token.text in symbols:
            self.at += 1
            return token.text
        return None

    def expect(self, symbol: str) -> None:
        token = self.take()
        if token.kind != "op" or token.text != symbol:
            raise ExprError(f"expected {symbol!r}, found {token.text or 'the end'!r}", token.column)

    def parse(self) -> Node:
        node = self.conditional(0)
        token = self.peek()
        if token.kind != "end":
            raise ExprError(f"expected an operator or the end, found {token.text!r}", token.column)
        return node

    def _deeper(self, depth: int) -> int:
        if depth > MAX_DEPTH:
            raise ExprError(f"nested more than {MAX_DEPTH} deep", self.peek().column)
        return depth + 1

    def conditional(self, depth: int) -> Node:
        depth = self._deeper(depth)
        column = self.peek().column
        node = self.either(depth)
        if self.word("if"):
            test = self.either(depth)
            if not self.word("else"):
                token = self.peek()
                raise ExprError(f"expected 'else', found {token.text or 'the end'!r}", token.column)
            return ("if", column, test, node, self.conditional(depth))
        return node

    def either(self, depth: int) -> Node:
        node = self.both(depth)
        while (token := self.peek()) and self.word("or"):
            node = ("or", token.column, node, self.both(depth))
        return node

    def both(self, depth: int) -> Node:
        node = self.negated(depth)
        while (token := self.peek()) and self.word("and"):
            node = ("and", token.column, node, self.negated(depth))
        return node

    def negated(self, depth: int) -> Node:
        token = self.peek()
        if self.word("not"):
            return ("not", token.column, self.negated(self._deeper(depth)))
        return self.comparison(depth)

    def comparison(self, depth: int) -> Node:
        left = self.sum(depth)
        token = self.peek()
        symbol = self.op("==", "!=", "<", "<=", ">", ">=")
        if symbol is not None:
            return ("cmp", token.column, symbol, left, self.sum(depth))
        if self.word("is"):
            symbol = "is not" if self.word("not") else "is"
            right = self.peek()
            if right.kind == "word" and right.text not in KEYWORDS and "." not in right.text:
                self.take()  # a bare word after is: the value itself (card.kind is sage)
                return ("cmp", token.column, symbol, left, ("text", right.column, right.text))
            return ("cmp", token.column, symbol, left, self.sum(depth))
        if self.word("not"):
            if not self.word("in"):
                raise ExprError("expected 'in' after 'not'", token.column)
            return ("not", token.column, ("cmp", token.column, "in", left, self.sum(depth)))
        if self.word("in"):
            return ("cmp", token.column, "in", left, self.sum(depth))
        return left

    def sum(self, depth: int) -> Node:
        node = self.product(depth)
        while True:
            token = self.peek()
            symbol = self.op("+", "-")
            if symbol is None:
                return node
            node = ("op", token.column, symbol, node, self.product(depth))

    def product(self, depth: int) -> Node:
        node = self.unary(depth)
        while True:
            token = self.peek()
            symbol = self.op("*", "/", "//", "%")
            if symbol is None:
                return node
            node = ("op", token.column, symbol, node, self.unary(depth))

    def unary(self, depth: int) -> Node:
        token = self.peek()
        if self.op("-"):
            return ("neg", token.column, self.unary(self._deeper(depth)))
        return self.postfix(depth)

    def postfix(self, depth: int) -> Node:
        node = self.primary(depth)
        while True:
            token = self.peek()
            if not self.op("["):
                return node
            key = self.conditional(self._deeper(depth))
            self.expect("]")
            after: list[str] = []
            while self.op("."):  # game.eras[card.era].power: fields of what the bracket gives
                field = self.take()
                if field.kind != "word" or field.text in KEYWORDS:
                    raise ExprError(
                        f"expected a field's name after '.', found {field.text or 'the end'!r}", field.column
                    )
                after += field.text.split(".")
            node = ("index", token.column, node, key, after)

    def primary(self, depth: int) -> Node:
        token = self.take()
        if token.kind == "number":
            return ("num", token.column, float(token.text) if "." in token.text else int(token.text))
        if token.kind == "quoted":
            return ("text", token.column, token.text[1:-1])
        if token.kind == "op" and token.text == "(":
            node = self.conditional(self._deeper(depth))
            self.expect(")")
            return node
        if token.kind == "word":
            if token.text in ("true", "false"):
                return ("bool", token.column, token.text == "true")
            if token.text == "none":
                return ("none", token.column)
            if token.text in KEYWORDS:
                raise ExprError(f"expected a value, found {token.text!r}", token.column)
            if self.op("("):
                args: list[Node] = []
                if not self.op(")"):
                    while True:
                        args.append(self.conditional(self._deeper(depth)))
                        if self.op(")"):
                            break
                        self.expect(",")
                return ("call", token.column, token.text, args)
            return ("name", token.column, token.text.split("."))
        raise ExprError(f"expected a value, found {token.text or 'the end'!r}", token.column)


def parse(text: str) -> Node:
    """An expression's tree; an ExprError saying what was expected, and where, when it does not parse."""
    if len(text) > MAX_LENGTH:
        raise ExprError(f"{len(text)} characters: expected at most {MAX_LENGTH}", 1)
    return Parser(text).parse()


def names(node: Node) -> set[str]:
    """The root names an expression reads (card, target, my, rules, ...): what it depends on."""
    out: set[str] = set()

    def walk(n: Any) -> None:
        if isinstance(n, tuple) and n:
            if n[0] == "name":
                out.add(n[2][0])
            for item in n[2:]:
                if isinstance(item, tuple):
                    walk(item)
                elif isinstance(item, list):
                    for x in item:
                        walk(x)

    walk(node)
    return out


@dataclass(frozen=True)
class Compiled:
    """A compiled expression: fn(state, bindings) gives its value; kind says what it is, for the checks."""

    fn: Fn
    kind: str  # number, bool, text, card, zone, slots, data, none, table, row, any
    constant: bool = False  # its value is the same in every position (rule options, literals)
    meta: Any = None  # what a zone's compiled reference points at: its declaration
    card: str | None = None  # the one card binding its value depends on alone (card.kind is sage): tabled by card
    # a plain read of the position: (COUNTER, index, seat) a counter's value, (COUNT, base, seat) a zone's number of
    # cards, (ZONE, base, seat) which zone a reference names; seat being GAME (the whole game's), MINE (the seat the
    # rule is about) or THEIRS (the next); a comparison with a fixed number reads it itself (_read_against); and
    # (TURN, 0, GAME) the turn's number, which x < turn reads itself
    reads: tuple[str, int, int] | None = None


COUNTER, COUNT, ZONE = "counter", "count", "zone"  # ZONE: a zone reference's index, which no comparison reads
TURN = "turn"
GAME, MINE, THEIRS = -1, 0, 1


def const(value: Any, kind: str) -> Compiled:
    return Compiled(lambda s, e: value, kind, True)


def kind_of(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "text"
    return "data"


def truthy(value: Any) -> bool:
    return value is not None and value is not False and value != 0 and value != ""


def as_test(compiled: Compiled) -> Compiled:
    """compiled as a yes or no: a card is there or not (card 0 is a card), anything else by its truth."""
    f = compiled.fn
    if compiled.kind == "bool":
        return compiled
    if compiled.kind == "card":
        return Compiled(lambda s, e: f(s, e) is not None, "bool", compiled.constant, card=compiled.card)
    return Compiled(lambda s, e: truthy(f(s, e)), "bool", compiled.constant, card=compiled.card)


def depends(*parts: Compiled) -> tuple[bool, str | None]:
    """What a value made of parts depends on: nothing (constant), one card binding alone, or the position."""
    if all(p.constant for p in parts):
        return True, None
    cards = {p.card for p in parts if not p.constant}
    if len(cards) == 1 and None not in cards:
        return False, cards.pop()
    return False, None


class RuleError(PrintkitError):
    """The rules met a position they do not say how to play (a number that is not one, a card with no case):
    raised while a game is played, and said in one line with the place in the rules (a data error, exit 2)."""

    topic = "rules-language"
    placed = False  # its message begins with its place in play.yaml (file:line:column, or the file alone)

    def lines(self) -> list[str]:
        return [safe(str(self))]


def _number(value: Any, column: int) -> Any:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise RuleError(f"column {column}: expected a number, found {value!r}")
    return value


def _divide(a: Any, b: Any, column: int) -> Any:
    if b == 0:
        raise RuleError(f"column {column}: division by zero")
    return a / b


def _whole_divide(a: Any, b: Any, column: int) -> Any:
    if b == 0:
        raise RuleError(f"column {column}: division by zero")
    return a // b


def _modulo(a: Any, b: Any, column: int) -> Any:
    if b == 0:
        raise RuleError(f"column {column}: division by zero")
    return a % b


_ARITHMETIC: dict[str, Callable[[Any, Any, int], Any]] = {
    "+": lambda a, b, c: a + b,
    "-": lambda a, b, c: a - b,
    "*": lambda a, b, c: a * b,
    "/": _divide,
    "//": _whole_divide,
    "%": _modulo,
}
_ORDER: dict[str, Callable[[Any, Any], bool]] = {
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}
_QUICK: dict[str, Callable[[Any, Any], Any]] = {"+": operator.add, "-": operator.sub, "*": operator.mul}


def _against(symbol: str, fa: Fn, bound: Any, column: int) -> Fn:
    """a < bound (or <=, >, >=) for a bound worked out once: the operator written in, not a call a test."""

    def wrong(x: Any) -> RuleError:
        return RuleError(f"column {column}: expected a number, found {x!r} {symbol} {bound!r}")

    if symbol == "<":

        def less(s: Any, e: dict[str, Any]) -> bool:
            x = fa(s, e)
            try:
                return x < bound
            except TypeError:
                raise wrong(x) from None

        return less
    if symbol == "<=":

        def at_most(s: Any, e: dict[str, Any]) -> bool:
            x = fa(s, e)
            try:
                return x <= bound
            except TypeError:
                raise wrong(x) from None

        return at_most
    if symbol == ">":

        def more(s: Any, e: dict[str, Any]) -> bool:
            x = fa(s, e)
            try:
                return x > bound
            except TypeError:
                raise wrong(x) from None

        return more

    def at_least(s: Any, e: dict[str, Any]) -> bool:
        x = fa(s, e)
        try:
            return x >= bound
        except TypeError:
            raise wrong(x) from None

    return at_least


def _read_against(reads: tuple[str, int, int], order: Callable[[Any, Any], bool], bound: Any, players: int) -> Fn:
    """A plain read of the position (Compiled.reads) against a fixed number, in one closure: the commonest tests
    (my.free > 0, count(deck) > 0) were three calls each, the comparison, the read and the zone's or seat's. A
    counter and a count are always numbers: nothing to catch. order is the operator's C function, cheaper than a call
    of one more closure."""
    what, at, seat = reads
    if what == COUNTER:
        if seat == GAME:
            return lambda s, e: order(s.values[at][0], bound)
        if seat == MINE:
            return lambda s, e: order(s.values[at][e["me"]], bound)
        return lambda s, e: order(s.values[at][(e["me"] + 1) % players], bound)
    if seat == GAME:
        return lambda s, e: order(len(s.zones[at]), bound)
    if seat == MINE:
        return lambda s, e: order(len(s.zones[at + e["me"]]), bound)
    return lambda s, e: order(len(s.zones[at + (e["me"] + 1) % players]), bound)


AGAINST = "against"  # a Compiled's meta: (AGAINST, reads, order, bound), a plain read against a fixed number
# the comparison that holds where another does not (counters and counts are numbers: no NaN to make both fail)
_NEGATED: dict[Callable[[Any, Any], bool], Callable[[Any, Any], bool]] = {
    operator.lt: operator.ge,
    operator.ge: operator.lt,
    operator.le: operator.gt,
    operator.gt: operator.le,
    operator.eq: operator.ne,
    operator.ne: operator.eq,
}


def read_against(reads: tuple[str, int, int], order: Callable[[Any, Any], bool], bound: Any, players: int) -> Compiled:
    """_read_against's test, noted as one (meta) so that not, and, or over such tests can read them themselves."""
    return Compiled(_read_against(reads, order, bound, players), "bool", meta=(AGAINST, reads, order, bound))


def _against_meta(compiled: Compiled) -> tuple[Any, ...] | None:
    meta = compiled.meta
    return meta if type(meta) is tuple and meta[0] == AGAINST else None


def _reads_joined(a: tuple[Any, ...], b: tuple[Any, ...], either: bool) -> Fn | None:
    """Two plain reads against fixed numbers, of one seat (the game's or the rule's), joined by or (either) or and in
    one closure: count(deck) > 0 or count(discard) > 0 was three calls, each read's and the join's."""
    (_, (what_a, at_a, seat_a), order_a, bound_a), (_, (what_b, at_b, seat_b), order_b, bound_b) = a, b
    if seat_a != seat_b or seat_a == THEIRS:
        return None
    mine, counter_a, counter_b = seat_a == MINE, what_a == COUNTER, what_b == COUNTER

    def joined(s: Any, e: dict[str, Any]) -> bool:
        k = e["me"] if mine else 0  # the seat: a game's counter is its seat 0's, a game's zone its own index
        if order_a(s.values[at_a][k] if counter_a else len(s.zones[at_a + k]), bound_a) is either:
            return either  # (or: the first holds; and: it fails) settled by the first, as or and and stop
        return order_b(s.values[at_b][k] if counter_b else len(s.zones[at_b + k]), bound_b)

    return joined


def same(a: Any, b: Any) -> bool:
    """Equality as a designer means it: true is not 1, and words compare without regard to case."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, str) and isinstance(b, str):
        return a.casefold() == b.casefold()
    return bool(a == b)


class Compiler:
    """Compiles a parsed expression; a rule book says what its names and functions mean (name, call)."""

    cards = 0  # how many kinds of card there are: a value of a card's fields alone is tabled over them
    players = 2  # seats at the table: whose a rule's their.<name> is

    def made(self, fn: Fn, kind: str, *parts: Compiled) -> Compiled:
        """A value made of parts, worked out now if it is constant, or tabled by card if it reads one card alone."""
        constant, card = depends(*parts)
        return self.fold(Compiled(fn, kind, constant, card=card))

    def compile(self, node: Node, bound: dict[str, str]) -> Compiled:
        """node compiled where bound names these bindings and their kinds (card, target, it, a case's value)."""
        what, column = node[0], node[1]
        if what == "num":
            return const(node[2], "number")
        if what == "text":
            return const(node[2], "text")
        if what == "bool":
            return const(node[2], "bool")
        if what == "none":
            return const(None, "none")
        if what == "name":
            return self.name(node[2], column, bound)
        if what == "index":
            return self.index(self.compile(node[2], bound), self.compile(node[3], bound), node[4], column)
        if what == "call":
            return self.call(node[2], node[3], column, bound)
        if what == "neg":
            inner = self.compile(node[2], bound)
            self.need_number(inner, column)
            f = inner.fn
            return self.made(lambda s, e: -_number(f(s, e), column), "number", inner)
        if what == "not":
            inner = as_test(self.compile(node[2], bound))
            against = _against_meta(inner)
            if against is not None:  # not my.tokens > 0: my.tokens <= 0, one call
                return read_against(against[1], _NEGATED[against[2]], against[3], self.players)
            f = inner.fn
            return self.made(lambda s, e: not f(s, e), "bool", inner)
        if what in ("and", "or"):
            a, b = as_test(self.compile(node[2], bound)), as_test(self.compile(node[3], bound))
            first, second = _against_meta(a), _against_meta(b)
            joined = _reads_joined(first, second, what == "or") if first is not None and second is not None else None
            if joined is not None:
                return Compiled(joined, "bool")
            fa, fb = a.fn, b.fn
            if what == "and":
                return self.made(lambda s, e: fa(s, e) and fb(s, e), "bool", a, b)
            return self.made(lambda s, e: fa(s, e) or fb(s, e), "bool", a, b)
        if what == "if":
            test, yes, no = (self.compile(n, bound) for n in node[2:5])
            test = as_test(test)
            ft, fy, fn = test.fn, yes.fn, no.fn
            kind = yes.kind if yes.kind == no.kind else "any"
            if test.constant and not (yes.constant and no.constant):  # a rule option's choice: its branch alone
                chosen = yes if ft(None, {}) else no
                return Compiled(chosen.fn, kind, False, chosen.meta, chosen.card, chosen.reads)
            return self.made(lambda s, e: fy(s, e) if ft(s, e) else fn(s, e), kind, test, yes, no)
        if what == "op":
            return self.arithmetic(node[2], self.compile(node[3], bound), self.compile(node[4], bound), column)
        if what == "cmp":
            return self.compare(node[2], self.compile(node[3], bound), self.compile(node[4], bound), column)
        raise ExprError(f"cannot read {what}", column)  # never: the parser makes no other node

    def fold(self, compiled: Compiled) -> Compiled:
        """A constant expression worked out now, once: rules.timeline_cost * 2 costs nothing in play; one that reads
        a card's fields alone, worked out now for every card (card.kind is sage is then a look-up)."""
        if compiled.constant:
            try:
                value = compiled.fn(None, {})
            except RuleError as exc:  # none >= rules.turn_cap: wrong in every position, so said as the rules are read
                column, _, said = str(exc).partition(": ")
                raise ExprError(said or str(exc), int(column[7:]) if column[7:].isdigit() else 1) from None
            return Compiled(lambda s, e: value, compiled.kind if compiled.kind != "any" else kind_of(value), True)
        name = compiled.card
        if name is None or not self.cards:
            return compiled
        f = compiled.fn
        try:
            table = tuple(f(None, {name: c}) for c in range(self.cards))
        except (RuleError, TypeError, ArithmeticError):  # some card cannot give it: say so as it is asked
            return compiled

        def looked_up(s: Any, e: dict[str, Any]) -> Any:
            card = e.get(name)
            return table[card] if card is not None and card >= 0 else f(s, e)

        return Compiled(looked_up, compiled.kind, False, compiled.meta, name)

    def need_number(self, compiled: Compiled, column: int) -> None:
        if compiled.kind in ("zone", "slots", "text", "bool", "table", "row", "card", "piles", "counts"):
            raise ExprError(f"expected a number, found a {_spoken(compiled.kind)}", column)

    def arithmetic(self, symbol: str, a: Compiled, b: Compiled, column: int) -> Compiled:
        self.need_number(a, column)
        self.need_number(b, column)
        fa, fb, op = a.fn, b.fn, _ARITHMETIC[symbol]
        if symbol in _QUICK:  # Python's own operator, and its TypeError said in the rules' words
            fast = _QUICK[symbol]
            if a.constant and not b.constant:  # rules.income_per_sage * count(my.study): the fixed side not called
                x = fa(None, {})

                def fixed_left(s: Any, e: dict[str, Any]) -> Any:
                    y = fb(s, e)
                    try:
                        return fast(x, y)
                    except TypeError:
                        raise RuleError(f"column {column}: expected numbers, found {x!r} {symbol} {y!r}") from None

                return self.made(fixed_left, "number", a, b)
            if b.constant and not a.constant:  # count(my.hand) - 1
                y = fb(None, {})

                def fixed_right(s: Any, e: dict[str, Any]) -> Any:
                    x = fa(s, e)
                    try:
                        return fast(x, y)
                    except TypeError:
                        raise RuleError(f"column {column}: expected numbers, found {x!r} {symbol} {y!r}") from None

                return self.made(fixed_right, "number", a, b)

            def quick(s: Any, e: dict[str, Any]) -> Any:
                x, y = fa(s, e), fb(s, e)
                try:
                    return fast(x, y)
                except TypeError:
                    raise RuleError(f"column {column}: expected numbers, found {x!r} {symbol} {y!r}") from None

            return self.made(quick, "number", a, b)
        number = _number
        return self.made(lambda s, e: op(number(fa(s, e), column), number(fb(s, e), column), column), "number", a, b)

    def compare(self, symbol: str, a: Compiled, b: Compiled, column: int) -> Compiled:
        fa, fb = a.fn, b.fn
        if symbol in ("==", "is", "!=", "is not"):
            equal = symbol in ("==", "is")
            if b.constant and isinstance(value := fb(None, {}), str):  # card.kind is sage: the word's case once
                word = value.casefold()

                def matches(s: Any, e: dict[str, Any]) -> bool:
                    x = fa(s, e)
                    return (x == value or (isinstance(x, str) and x.casefold() == word)) is equal

                return self.made(matches, "bool", a, b)
            if b.constant and type(value := fb(None, {})) in (int, float) and _counter(a) is not None:
                index = _counter(a)  # a game's counter against a number (phase == 0): a counter is never a bool
                if equal:
                    return Compiled(lambda s, e: s.values[index][0] == value, "bool")
                return Compiled(lambda s, e: s.values[index][0] != value, "bool")
            if b.constant and type(value := fb(None, {})) in (int, float):  # phase == 0: the number once
                # same()'s answer without its call: a number equals it, true and false are no numbers
                def equals(s: Any, e: dict[str, Any]) -> bool:
                    x = fa(s, e)
                    return (x == value and x is not True and x is not False) is equal

                return self.made(equals, "bool", a, b)

            def equals_value(s: Any, e: dict[str, Any]) -> bool:
                x, y = fa(s, e), fb(s, e)
                if type(x) is int and type(y) is int:  # same()'s answer for two whole numbers, without its call
                    return (x == y) is equal
                return same(x, y) is equal

            return self.made(equals_value, "bool", a, b)
        if symbol == "in":
            return self.contains(a, b, column)
        self.need_number(a, column)
        self.need_number(b, column)
        order = _ORDER[symbol]
        if b.constant and isinstance(bound := fb(None, {}), int | float) and not isinstance(bound, bool):
            # my.tokens >= rules.timeline_cost, count(deck) > 0: one call, no try
            if a.reads is not None and a.reads[0] in (COUNTER, COUNT):
                return read_against(a.reads, order, bound, self.players)
            # the number once, not a call each time
            return self.made(_against(symbol, fa, bound, column), "bool", a, b)

        def compared(s: Any, e: dict[str, Any]) -> bool:
            x, y = fa(s, e), fb(s, e)
            try:
                return order(x, y)
            except TypeError:
                raise RuleError(f"column {column}: expected numbers, found {x!r} {symbol} {y!r}") from None

        if symbol == "<" and b.reads is not None and b.reads[0] == TURN:  # field.acted[from] < turn: turn read here

            def before(s: Any, e: dict[str, Any]) -> bool:
                x = fa(s, e)
                try:
                    return x < s.turn
                except TypeError:
                    raise RuleError(f"column {column}: expected numbers, found {x!r} < {s.turn!r}") from None

            return self.made(before, "bool", a, b)
        if symbol == "<":  # the commonest, the operator written in rather than called

            def less(s: Any, e: dict[str, Any]) -> bool:
                x, y = fa(s, e), fb(s, e)
                try:
                    return x < y
                except TypeError:
                    raise RuleError(f"column {column}: expected numbers, found {x!r} < {y!r}") from None

            return self.made(less, "bool", a, b)
        return self.made(compared, "bool", a, b)

    # what a rule book defines: its names, brackets, membership and functions
    def name(self, parts: list[str], column: int, bound: dict[str, str]) -> Compiled:
        raise NotImplementedError

    def index(self, base: Compiled, key: Compiled, after: list[str], column: int) -> Compiled:
        raise NotImplementedError

    def contains(self, item: Compiled, group: Compiled, column: int) -> Compiled:
        raise NotImplementedError

    def call(self, fname: str, nodes: list[Node], column: int, bound: dict[str, str]) -> Compiled:
        """A function's value; it compiles its own arguments (all() takes a check by its name, not a value)."""
        raise NotImplementedError


def _counter(compiled: Compiled) -> int | None:
    """The index of the game's counter an expression reads and nothing else, if it is one."""
    meta = compiled.meta
    return meta[1] if type(meta) is tuple and len(meta) == 2 and meta[0] == "counter" else None


def _spoken(kind: str) -> str:
    spoken = {"zone": "zone", "slots": "row of slots", "table": "table", "row": "row of a table"}
    return spoken.get(kind, {"piles": "row of piles", "counts": "counter of piles"}.get(kind, kind))
