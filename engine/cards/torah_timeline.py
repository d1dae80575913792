"""Torah Timeline's Sages and Tanach cards as its engine reads them, and the words of a Tanach card's effect."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from engine.cards import Record, capitalised, fill
from printkit.data.basics import Count, Frozen, Id, Positive, Text
from printkit.data.cards import Card
from printkit.data.enginecards import EngineCards


class Requirement(Frozen):
    """A condition a Tanach card needs before it may be played."""

    kind: Literal[
        "any_beit_midrash_sage",
        "hand_room",
        "deck_not_empty",
        "opponent_beit_midrash_sage",
        "not_both_zero_tokens",
        "opponent_has_tokens",
        "open_timeline_slots",
        "tokens_at_least",
        "discard_at_least",
        "hand_at_most",
    ]
    amount: Count | None = None


class TanachEffect(Frozen):
    kind: Literal[
        "gain_actions",
        "raise_token_cap",
        "tokens_per_beit_midrash_sage",
        "draw",
        "free_timeline_placement",
        "opponent_loses_actions",
        "view_opponent_beit_midrash",
        "zero_all_tokens",
        "steal_tokens",
        "fill_last_timeline_slot",
        "take_from_discard",
    ]
    amount: Count | None = None
    turns: Positive | None = None
    cost: Count | None = None


class Sage(Record):
    """A Sage of an era, with the Hebrew name and approximate years."""

    era: Id
    hebrew: Text
    years: Text


class Tanach(Record):
    """A Tanach card, its effect and what it needs to be played."""

    effect: TanachEffect
    requires: list[Requirement] = []


def template_keys(card: Card) -> list[str]:
    if not isinstance(card.parsed, Tanach):
        return []
    return [f"tanach.{card.parsed.effect.kind}"] + [f"requires.{r.kind}" for r in card.parsed.requires]


def words(texts: Mapping[str, str], card: Card) -> dict[str, list[str]]:
    """A Tanach card's effect, and each thing it needs before it may be played, as printed sentences."""
    if not isinstance(card.parsed, Tanach):
        return {}
    tanach = card.parsed
    return {
        "effect": [capitalised(fill(texts[f"tanach.{tanach.effect.kind}"], tanach.effect))],
        "requires": [capitalised(fill(texts[f"requires.{r.kind}"], r)) for r in tanach.requires],
    }


def icon_keys(card: Card) -> list[str]:
    return [card.parsed.effect.kind] if isinstance(card.parsed, Tanach) else []


VIEW = EngineCards(
    "torah-timeline",
    forms={"sage": Sage, "tanach": Tanach},
    words=words,
    template_keys=template_keys,
    icon_keys=icon_keys,
)
