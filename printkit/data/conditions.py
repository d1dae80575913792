"""Conditions on a card's fields, as layouts and decks write them: `rarity is rare`, `cost >= 3`, `keywords has flying`.

A small language of its own, parsed here and never handed to Python's eval: a field's name alone
(true when the card sets it), comparisons with is, is not, ==, !=, <, <=, > and >=, `has` for a
list's item (or a word of a text), joined by and, or and not, in brackets where needed. A value is
a number, true or false, a word, or text in quotes ('Heavy Cavalry').
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

MAX_LENGTH = 300  # characters of one condition: a line a designer reads
# where a card face's fields keep its values as the data has them (a choice's value, not its display name, a
# number as a number): what a layout's conditions test (rarity is rare, cost >= 3). No {name} can bind it.
VALUES = "@values"
MAX_DEPTH = 20  # brackets and nots inside one another

_TOKEN = re.compile(
    r"""\s*(?:
    (?P<number>-?\d+(?:\.\d+)?(?![\w.-]))
    |(?P<quoted>'[^']*'|"[^"]*")
    |(?P<op><=|>=|==|!=|<|>|\(|\))
    |(?P<word>[A-Za-z_][A-Za-z0-9_.-]*)
    )""",
    re.X,
)
_KEYWORDS = {"and", "or", "not", "is", "has", "true", "false"}
_COMPARE = ("is", "is not", "==", "!=", "<", "<=", ">", ">=", "has", "has no")


class ConditionError(ValueError):
    """A condition that does not parse: what was expected, and at which character (from 1)."""

    def __init__(self, message: str, column: int) -> None:
        super().__init__(message)
        self.column = column


@dataclass(frozen=True)
class _Token:
    kind: str  # number, quoted, op, word, end
    text: str
    column: int


def _tokens(text: str) -> list[_Token]:
    out = []
    pos = 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        match = _TOKEN.match(text, pos)
        if match is None or match.end() == pos:
            start = len(text) - len(text[pos:].lstrip())
            raise ConditionError(f"unexpected {text[start : start + 10]!r}", start + 1)
        kind = match.lastgroup or "word"
        out.append(_Token(kind, match.group(kind), match.start(kind) + 1))
        pos = match.end()
    out.append(_Token("end", "", len(text) + 1))
    return out


# A parsed condition: ("field", name) | ("not", c) | ("and", a, b) | ("or", a, b) | ("cmp", op, name, value)
Node = tuple[Any, ...]


class _Parser:
    def __init__(self, text: str) -> None:
        self.tokens = _tokens(text)
        self.at = 0
        self.fields: list[tuple[str, int]] = []  # each field named, with its column

    def peek(self, ahead: int = 0) -> _Token:
        return self.tokens[min(self.at + ahead, len(self.tokens) - 1)]

    def take(self) -> _Token:
        token = self.peek()
        self.at += 1
        return token

    def word(self, text: str) -> bool:
        token = self.peek()
        if token.kind == "word" and token.text.lower() == text:
            self.at += 1
            return True
        return False

    def parse(self) -> Node:
        node = self.either(0)
        token = self.peek()
        if token.kind != "end":
            raise ConditionError(f"expected and, or or the end, found {token.text!r}", token.column)
        return node

    def either(self, depth: int) -> Node:
        node = self.both(depth)
        while self.word("or"):
            node = ("or", node, self.both(depth))
        return node

    def both(self, depth: int) -> Node:
        node = self.negated(depth)
        while self.word("and"):
            node = ("and", node, self.negated(depth))
        return node

    def negated(self, depth: int) -> Node:
        if depth > MAX_DEPTH:
            raise ConditionError(f"nested more than {MAX_DEPTH} deep", self.peek().column)
        if self.word("not"):
            return ("not", self.negated(depth + 1))
        token = self.peek()
        if token.kind == "op" and token.text == "(":
            self.take()
            node = self.either(depth + 1)
            close = self.take()
            if close.text != ")":
                raise ConditionError(f"expected ')', found {close.text or 'the end'!r}", close.column)
            return node
        return self.comparison()

    def comparison(self) -> Node:
        token = self.take()
        if token.kind != "word" or token.text.lower() in _KEYWORDS:
            raise ConditionError(f"expected a field's name, found {token.text or 'the end'!r}", token.column)
        self.fields.append((token.text, token.column))
        op = self.operator()
        if op is None:
            return ("field", token.text)
        value = self.take()
        if value.kind == "number":
            literal: Any = float(value.text) if "." in value.text else int(value.text)
        elif value.kind == "quoted":
            literal = value.text[1:-1]
        elif value.kind == "word" and value.text.lower() in ("true", "false"):
            literal = value.text.lower() == "true"
        elif value.kind == "word" and value.text.lower() not in _KEYWORDS:
            literal = value.text
        else:
            raise ConditionError(f"expected a value after {op}, found {value.text or 'the end'!r}", value.column)
        if op in ("<", "<=", ">", ">=") and not isinstance(literal, int | float):
            raise ConditionError(f"expected a number after {op}, found {value.text!r}", value.column)
        return ("cmp", op, token.text, literal)

    def operator(self) -> str | None:
        token = self.peek()
        if token.kind == "op" and token.text in _COMPARE:
            self.take()
            return token.text
        if self.word("is"):
            return "is not" if self.word("not") else "is"
        if self.word("has"):
            return "has no" if self.word("no") else "has"
        return None


@dataclass(frozen=True)
class Condition:
    """A parsed condition: test() it on a card's values; fields() names what it reads."""

    text: str
    tree: Node
    named: tuple[tuple[str, int], ...]  # each field it names and its column

    def fields(self) -> list[str]:
        return [name for name, _ in self.named]

    def test(self, value: Callable[[str], Any]) -> bool:
        """Whether the condition holds, value(name) giving each field's value (None when the card has none)."""
        return _holds(self.tree, value)


def parse(text: str) -> Condition:
    """A condition from its text; a ConditionError saying what was expected, and where, when it does not parse."""
    if len(text) > MAX_LENGTH:
        raise ConditionError(f"{len(text)} characters: expected at most {MAX_LENGTH}", 1)
    parser = _Parser(text)
    tree = parser.parse()
    return Condition(text, tree, tuple(parser.fields))


def _set(value: Any) -> bool:
    return value is not None and value is not False and value != "" and value != [] and value != {} and value != 0


def _same(value: Any, literal: Any) -> bool:
    if isinstance(literal, bool) or isinstance(value, bool):
        return value is literal or (isinstance(value, bool) and value == literal)
    number = _number(value)
    if isinstance(literal, int | float) and number is not None:
        return number == literal
    return isinstance(value, str) and value.casefold() == str(literal).casefold()


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return None
    return None


def _has(value: Any, literal: Any) -> bool:
    if isinstance(value, list | tuple):
        return any(_same(item, literal) for item in value)
    if isinstance(value, str):
        return str(literal).casefold() in (w.casefold() for w in re.findall(r"[\w'-]+", value))
    return False


def _holds(node: Node, value: Callable[[str], Any]) -> bool:
    kind = node[0]
    if kind == "field":
        return _set(value(node[1]))
    if kind == "not":
        return not _holds(node[1], value)
    if kind == "and":
        return _holds(node[1], value) and _holds(node[2], value)
    if kind == "or":
        return _holds(node[1], value) or _holds(node[2], value)
    _, op, name, literal = node
    seen = value(name)
    if op in ("is", "=="):
        return _same(seen, literal)
    if op in ("is not", "!="):
        return not _same(seen, literal)
    if op == "has":
        return _has(seen, literal)
    if op == "has no":
        return not _has(seen, literal)
    number = _number(seen)
    if number is None:
        return False
    return {"<": number < literal, "<=": number <= literal, ">": number > literal, ">=": number >= literal}[op]


def card_value(card: Any, name: str) -> Any:
    """A field of a card by name, kind and the built-in fields among them."""
    return card.kind if name == "kind" else card.get(name)


def deck_filter(include: Mapping[str, Any]) -> Callable[[Any], bool]:
    """Whether a card belongs to a deck by its include: filter: each field has the value (or one of the values)
    given, and the where: condition holds. A filter the loader has not checked may raise ConditionError."""
    where = parse(include["where"]) if isinstance(include.get("where"), str) else None
    wanted = {k: (v if isinstance(v, list) else [v]) for k, v in include.items() if k != "where"}

    def takes(card: Any) -> bool:
        for key, values in wanted.items():
            seen = card_value(card, key)
            if not any(_same(seen, v) or (isinstance(seen, list) and _has(seen, v)) for v in values):
                return False
        return where is None or where.test(lambda name: card_value(card, name))

    return takes
