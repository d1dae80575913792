"""Soldier Battler's Soldiers as its engine reads them, and what its rules of weapons say on each card."""

from __future__ import annotations

from typing import Any

from engine.cards import Record
from printkit.data.basics import Id, Positive
from printkit.data.cards import Card
from printkit.data.enginecards import EngineCards
from printkit.data.game import Game


class Soldier(Record):
    """A Soldier with its weapon and hit points."""

    weapon: Id
    hp: Positive


def printed(game: Game, card: Card) -> dict[str, Any]:
    """The weapon's icon, what it beats and what beats it, how it fights, and the damage the rules deal."""
    if not isinstance(card.parsed, Soldier):
        return {}
    weapons = {w.id: w for w in game.info.weapons}
    weapon = weapons[card.parsed.weapon]
    beaten_by = next((w for w in game.info.weapons if w.beats == weapon.id), None)
    return {
        "weapon_icon": "{" + weapon.id + "}",
        "beats": weapons[weapon.beats].name if weapon.beats else "",
        "beaten_by": beaten_by.name if beaten_by else "",
        "ranged": "ranged" if weapon.ranged else "",
        "melee": "" if weapon.ranged else "melee",
        "damage": game.rule("damage"),
        "advantage_damage": game.rule("advantage_damage"),
    }


def facts(game: Game, card: Card) -> list[tuple[str, Any]]:
    """The same, as the booklet and the reference list them."""
    shown = printed(game, card)
    if not shown:
        return []
    rows: list[tuple[str, Any]] = []
    rows += [("Beats", shown["beats"])] if shown["beats"] else []
    rows += [("Beaten by", shown["beaten_by"])] if shown["beaten_by"] else []
    rows += [("Fights", "at range" if shown["ranged"] else "in melee")]
    rows += [("Damage", shown["damage"]), ("With advantage", shown["advantage_damage"])]
    return rows


VIEW = EngineCards("soldier-battler", forms={"soldier": Soldier}, printed=printed, facts=facts)
