"""A game with some of its values changed, in memory, and checked as its data is: what a sweep plays.

A change names a value by its path in the game's data: `rules.hand_size` (a rule option by id),
`cards.swordsman.hp` (a card by id, then its fields), or any field of game.yaml, a list item
named by its id or its index (`components.damage-token.value`, `factions.0.recruit.2.draw`). The
new value must be of the old one's kind (a whole number for a number, one of the choices for a
rule option of choices), and the changed game must pass the model's checks: a change that breaks
them is one line naming the change, as a data error names its place.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError

from printkit.core.errors import UsageError
from printkit.data import cards
from printkit.data.game import Game
from printkit.data.loader import resolve_decks
from printkit.data.model import GameFile
from printkit.data.yamlsource import SourceMap

Change = tuple[str, Any]  # ("rules.hand_size", 5)


class BadChange(UsageError):
    """A change that names no value of the game, or a value the game's checks refuse."""


def vary(game: Game, changes: Sequence[Change]) -> Game:
    """game with each change made, in order; a BadChange naming the change when one cannot be made."""
    for path, value in changes:
        game = _one(game, path, value)
    return game


def _one(game: Game, path: str, value: Any) -> Game:
    parts = path.split(".")
    said = f"{path}={value}"
    if parts[0] == "cards" and len(parts) > 2:
        card = next((c for c in game.cards if c.id == parts[1]), None)
        if card is None:
            raise BadChange(f"{said}: no card {parts[1]!r} in {game.slug}")
        data = copy.deepcopy(card.written() | dict(card.values))  # its defaults too: a sweep may vary one
        _set(data, parts[2:], value, said)
        new, problems = cards.read(data, game.kinds, SourceMap(game.folder), ())
        if new is None:
            raise BadChange(f"{said}: {problems[0].message}")
        cards_now = tuple(new if c.id == card.id else c for c in game.cards)
        return dataclasses.replace(game, cards=cards_now, decks=resolve_decks(game.info, list(cards_now)))
    info = game.info.model_dump(exclude_unset=True)
    if parts[0] == "rules" and len(parts) == 2:
        option = next((o for o in game.info.rules if o.id == parts[1]), None)
        if option is None:
            known = ", ".join(o.id for o in game.info.rules)
            raise BadChange(f"{said}: no rule option {parts[1]!r} (rule options: {known})")
        _rule_fits(option.choices, option.min, option.max, option.value, value, said)
        parts = [*parts, "value"]
    _set(info, parts, value, said)
    try:
        changed = GameFile.model_validate(info)
    except ValidationError as exc:
        raise BadChange(f"{said}: {_reason(exc)}") from None
    return dataclasses.replace(game, info=changed, decks=resolve_decks(changed, list(game.cards)))


def _rule_fits(choices: list[Any] | None, low: int | None, high: int | None, old: Any, new: Any, said: str) -> None:
    if choices is not None and new not in choices:
        raise BadChange(f"{said}: expected one of {', '.join(str(c) for c in choices)}")
    counts = all(isinstance(v, int) and not isinstance(v, bool) for v in (old, new))
    if counts and ((low is not None and new < low) or (high is not None and new > high)):
        raise BadChange(f"{said}: expected a value from {low} to {high}")


def _set(data: Any, parts: Sequence[str], value: Any, said: str) -> None:
    """Put value at parts in the dumped data, where a value of its kind already is."""
    here = data
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        if isinstance(here, dict):
            if part not in here:
                known = ", ".join(str(k) for k in here)
                raise BadChange(f"{said}: no {part!r} at {'.'.join(parts[:i]) or 'the top'} (there: {known})")
            key: Any = part
        elif isinstance(here, list):
            key = _index(here, part, said)
        else:
            raise BadChange(f"{said}: {'.'.join(parts[:i])} is a single value, with no {part!r} in it")
        if last:
            old = here[key]
            if type(old) is not type(value):  # bool is no int here: a flag is not a count
                raise BadChange(f"{said}: expected {_kind(old)}, like the {old!r} it replaces")
            here[key] = value
            return
        here = here[key]


def _index(items: list[Any], part: str, said: str) -> int:
    """A list item by its id, else by its position."""
    for i, item in enumerate(items):
        if isinstance(item, dict) and item.get("id") == part:
            return i
    if part.isdigit() and int(part) < len(items):
        return int(part)
    raise BadChange(f"{said}: no item {part!r} (an id or a position below {len(items)})")


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return "a whole number"
    return "text" if isinstance(value, str) else type(value).__name__


def _reason(exc: ValidationError, skip: int = 0) -> str:
    """The model's first objection, with the path of the field it objects to (its first `skip` steps left out)."""
    error = exc.errors()[0]
    where = ".".join(str(p) for p in error["loc"][skip:])
    return f"{where}: {error['msg'].lower()}" if where else error["msg"].lower()


def parse(text: str) -> tuple[str, list[Any]]:
    """PATH=RANGE from the command line: the path and its values. RANGE is a list (`a,b,c`) or `lo..hi[:step]`
    of whole numbers; a value is read as a whole number, true or false, or else text."""
    path, sep, spec = text.partition("=")
    if not sep or not path or not spec:
        raise UsageError(f"--vary {text!r}: expected PATH=RANGE, such as rules.hand_size=3..7 or cards.x.hp=40,60,80")
    if ".." in spec:
        span, _, step_text = spec.partition(":")
        low_text, _, high_text = span.partition("..")
        try:
            low, high, step = int(low_text), int(high_text), int(step_text or "1")
        except ValueError:
            raise UsageError(f"--vary {text!r}: expected lo..hi[:step] of whole numbers") from None
        if step <= 0 or high < low:
            raise UsageError(f"--vary {text!r}: expected lo <= hi and a step above 0")
        values: list[Any] = list(range(low, high + 1, step))
    else:
        values = [_value(v.strip()) for v in spec.split(",") if v.strip()]
    if not values:
        raise UsageError(f"--vary {text!r}: expected at least one value")
    return path, values


def parse_all(texts: Sequence[str]) -> list[tuple[str, list[Any]]]:
    """Every PATH=RANGE of a sweep read, each path once."""
    varied = [parse(text) for text in texts]
    paths = [path for path, _ in varied]
    if len(set(paths)) < len(paths):
        raise UsageError(f"--vary: {next(p for p in paths if paths.count(p) > 1)} is varied twice: vary it once")
    return varied


def _value(text: str) -> Any:
    if text in ("true", "false"):
        return text == "true"
    try:
        return int(text)
    except ValueError:
        return text


def spelled(value: Any) -> str:
    """A value as the command line writes it: true and false in lower case."""
    return str(value).lower() if isinstance(value, bool) else str(value)
