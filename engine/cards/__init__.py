"""What each built-in engine says of the cards it plays: their typed records, the words of the fields only it reads,
the icons those fields suggest and the figures its rules give each card."""

from __future__ import annotations

import re
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict

from printkit.data.basics import Id, Printed, Text
from printkit.data.game import Game

R = TypeVar("R", bound=BaseModel)
_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


class Record(BaseModel):
    """A card as an engine reads it: who it is, and the fields of its kind the engine plays by (others ignored)."""

    model_config = ConfigDict(extra="ignore", frozen=True, strict=True)

    id: Id
    name: Text
    copies: Printed = 1


def records(game: Game, model: type[R]) -> list[R]:
    """Every card of the game the engine reads as model, in the order the game lists them."""
    return [card.parsed for card in game.cards if isinstance(card.parsed, model)]


def spoken_list(values: list[Any], last: str) -> str:
    """Values as a sentence says them: a, b or c."""
    words = [str(v) for v in values]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" {last} " + words[-1]


def fill(template: str, model: BaseModel, **extra: Any) -> str:
    """A texts: template with its {name} placeholders filled from an effect's values (lists said with "or").

    Only bare {name} placeholders: templates are data and get no attribute access. A KeyError names a
    placeholder the effect lacks."""
    fields = {k: v for k, v in model.model_dump().items() if v is not None}
    for key, value in fields.items():
        if isinstance(value, list):
            fields[key] = spoken_list(value, "or")
    fields.update(extra)
    return _PLACEHOLDER.sub(lambda m: str(fields[m.group(1)]), template)


def capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]
