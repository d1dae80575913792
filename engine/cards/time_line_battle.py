"""Time Line Battle's Characters as its engine reads them: Order, Health and abilities, and the abilities' words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Literal

from pydantic import Field

from engine.cards import Record, capitalised, fill
from printkit.data.basics import Count, Frozen, Positive
from printkit.data.cards import Card
from printkit.data.enginecards import EngineCards


class Attack(Frozen):
    kind: Literal["attack"]
    target: Literal["front", "rear", "front_n", "rear_n", "all", "chosen"]
    count: Positive = 1
    amount: Count | None = None
    amount_from: Literal["dead_both_sides"] | None = None
    survived_days: Positive | None = None
    deployed_today: bool = False


class ReduceChosen(Frozen):
    kind: Literal["reduce_chosen"]
    pool: Positive


class ReduceEachAlly(Frozen):
    kind: Literal["reduce_each_ally"]
    amount: Positive


class RedirectToFront(Frozen):
    kind: Literal["redirect_to_front"]


class DoubleFriendly(Frozen):
    kind: Literal["double_friendly"]
    factor: Positive = 2


class Revive(Frozen):
    kind: Literal["revive"]
    count: Positive = 1
    survived_days: Positive | None = None


class SacrificeFor(Frozen):
    kind: Literal["sacrifice_for"]
    attack: Attack


class LockEnemyFront(Frozen):
    kind: Literal["lock_enemy_front"]


class VpMultiplier(Frozen):
    kind: Literal["vp_multiplier"]
    factor: Positive


Ability = Annotated[
    Attack
    | ReduceChosen
    | ReduceEachAlly
    | RedirectToFront
    | DoubleFriendly
    | Revive
    | SacrificeFor
    | LockEnemyFront
    | VpMultiplier,
    Field(discriminator="kind"),
]


class Character(Record):
    """A Character with its Order (Front 1 to Rear 22), Health and abilities."""

    order: Positive
    health: Positive
    ability: list[Ability] = Field(min_length=1)


def _attack_keys(attack: Attack) -> list[str]:
    keys = [f"ability.attack.{attack.target}"]
    if attack.amount_from:
        keys.append(f"ability.amount_from.{attack.amount_from}")
    if attack.survived_days:
        keys.append("ability.condition.survived_days")
    if attack.deployed_today:
        keys.append("ability.condition.deployed_today")
    return keys


def template_keys(card: Card) -> list[str]:
    """The texts: keys a Character's abilities are worded from."""
    if not isinstance(card.parsed, Character):
        return []
    keys: list[str] = []
    for ability in card.parsed.ability:
        keys.append(f"ability.{ability.kind}")
        if isinstance(ability, Attack):
            keys[-1:] = _attack_keys(ability)
        elif isinstance(ability, SacrificeFor):
            keys.extend(_attack_keys(ability.attack))
    return keys


def _attack_text(attack: Attack, texts: Mapping[str, str]) -> str:
    extra = {"amount": texts[f"ability.amount_from.{attack.amount_from}"]} if attack.amount_from else {}
    text = fill(texts[f"ability.attack.{attack.target}"], attack, **extra)
    if attack.survived_days:
        text += fill(texts["ability.condition.survived_days"], attack)
    if attack.deployed_today:
        text += fill(texts["ability.condition.deployed_today"], attack)
    return text


def words(texts: Mapping[str, str], card: Card) -> dict[str, list[str]]:
    """A Character's abilities as printed sentences, one an ability."""
    if not isinstance(card.parsed, Character):
        return {}
    out = []
    for ability in card.parsed.ability:
        if isinstance(ability, Attack):
            out.append(_attack_text(ability, texts))
        elif isinstance(ability, SacrificeFor):
            out.append(fill(texts["ability.sacrifice_for"], ability, attack=_attack_text(ability.attack, texts)))
        else:
            out.append(fill(texts[f"ability.{ability.kind}"], ability))
    return {"ability": [capitalised(line) + "." for line in out]}


def icon_keys(card: Card) -> list[str]:
    """Its later abilities say more about a Character than its attack, so they come first; an attack is asked as
    kind-target ("attack-rear") before kind alone."""
    if not isinstance(card.parsed, Character):
        return []
    keys: list[str] = []
    for ability in reversed(card.parsed.ability):
        keys += [f"attack-{ability.target}", "attack"] if isinstance(ability, Attack) else [ability.kind]
    return keys


VIEW = EngineCards(
    "time-line-battle",
    forms={"character": Character},
    words=words,
    template_keys=template_keys,
    icon_keys=icon_keys,
)
