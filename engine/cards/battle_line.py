"""Battle Line's Troops and Tactics cards as its engine reads them, and the words of a Tactics card's effect."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import Field

from engine.cards import Record, capitalised, fill
from printkit.data.basics import Frozen, Id, Positive
from printkit.data.cards import Card
from printkit.data.enginecards import EngineCards
from printkit.data.game import Game


class TacticsEffect(Frozen):
    kind: Literal["wild", "fixed_value", "value_choice", "fog", "mud", "scout", "redeploy", "deserter", "traitor"]
    values: Annotated[list[Positive], Field(min_length=1)] | None = None
    formation_size: Positive | None = None
    draw: Positive | None = None
    give_back: Positive | None = None


class Troop(Record):
    """A Troop of one colour and value."""

    colour: Id
    value: Positive


class Tactics(Record):
    """A Tactics card of a group (Leader, Morale, Environment, Guile)."""

    group: Literal["leader", "morale", "environment", "guile"]
    effect: TacticsEffect


def template_keys(card: Card) -> list[str]:
    return [f"tactics.{card.parsed.effect.kind}"] if isinstance(card.parsed, Tactics) else []


def words(texts: Mapping[str, str], card: Card) -> dict[str, list[str]]:
    if not isinstance(card.parsed, Tactics):
        return {}
    effect = card.parsed.effect
    return {"effect": [capitalised(fill(texts[f"tactics.{effect.kind}"], effect))]}


def icon_keys(card: Card) -> list[str]:
    return [card.parsed.effect.kind] if isinstance(card.parsed, Tactics) else []


def value_name(game: Game, card: Card) -> str:
    """The name the game gives a Troop's value (10: Elephants), or nothing."""
    if not isinstance(card.parsed, Troop):
        return ""
    return next((v.name for v in game.info.value_names if v.value == card.parsed.value), "")


def printed(game: Game, card: Card) -> dict[str, Any]:
    return {"value_name": value_name(game, card)} if isinstance(card.parsed, Troop) else {}


def facts(game: Game, card: Card) -> list[tuple[str, Any]]:
    name = value_name(game, card)
    return [("Troop", name)] if name else []


VIEW = EngineCards(
    "battle-line",
    forms={"troop": Troop, "tactics": Tactics},
    words=words,
    template_keys=template_keys,
    icon_keys=icon_keys,
    printed=printed,
    facts=facts,
)
