"""Time Line's faction cards as its engine reads them: who may use each and its effects, and the effects' words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from pydantic import Field

from engine.cards import Record, capitalised, fill
from printkit.data.basics import Frozen, Id
from printkit.data.cards import Card
from printkit.data.enginecards import EngineCards

TimeLineEffectKind = Literal[
    "move",
    "escape_roll",
    "hide_roll",
    "change_roll",
    "any_roll",
    "force",
    "enemy_hide_roll",
    "stack_move",
    "era_move_bonus",
    "control_enemy_unit",
    "barrier",
    "stasis",
    "extra_turn",
    "draw",
    "opponent_discard",
    "tutor_deck",
    "tutor_discard",
    "look_ahead",
    "summon",
    "reverse_time",
    "banish",
    "destroy",
    "time_vortex",
]


class TimeLineEffect(Frozen):
    kind: TimeLineEffectKind
    amount: int | None = None


class TimeCard(Record):
    """A faction card, the unit types that may use it, and its effects (one of them, as its player chooses)."""

    faction: Id
    users: list[Id] = Field(min_length=1)
    effects: list[TimeLineEffect] = Field(min_length=1)


def template_keys(card: Card) -> list[str]:
    if not isinstance(card.parsed, TimeCard):
        return []
    effects = card.parsed.effects
    return [f"timeline.{e.kind}" for e in effects] + ["timeline.or"] * (len(effects) > 1)


def words(texts: Mapping[str, str], card: Card) -> dict[str, list[str]]:
    """A card's effects as one sentence, joined by the game's word for "or"."""
    if not isinstance(card.parsed, TimeCard):
        return {}
    joiner = texts.get("timeline.or", " or ")
    line = joiner.join(fill(texts[f"timeline.{e.kind}"], e) for e in card.parsed.effects)
    return {"effects": [capitalised(line)]}


def icon_keys(card: Card) -> list[str]:
    """Each effect asked with each unit type that may play it and its faction ("force-hero"), then alone."""
    if not isinstance(card.parsed, TimeCard):
        return []
    timecard = card.parsed
    keys: list[str] = []
    for effect in timecard.effects:
        keys += [f"{effect.kind}-{who}" for who in [*timecard.users, timecard.faction]] + [effect.kind]
    return keys


VIEW = EngineCards(
    "time-line",
    forms={"timeline": TimeCard},
    words=words,
    template_keys=template_keys,
    icon_keys=icon_keys,
)
