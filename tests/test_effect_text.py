"""Printed effect text follows the structured data: change a number and the text changes."""

from __future__ import annotations

from printkit.data.effect_text import effect_lines, effect_text
from printkit.data.game import Game
from printkit.data.model import Character


def test_text_follows_the_numbers(games: dict[str, Game]) -> None:
    game = games["time-line-battle"]
    texts = dict(game.info.texts)
    lancer = game.card("lancer")
    assert isinstance(lancer, Character)
    assert effect_text(lancer, texts) == "Attack the Front 2 enemies for 3 each."
    changed = lancer.model_copy(update={"ability": [lancer.ability[0].model_copy(update={"amount": 7, "count": 3})]})
    assert effect_text(changed, texts) == "Attack the Front 3 enemies for 7 each."


def test_wording_lives_in_the_data(games: dict[str, Game]) -> None:
    game = games["time-line-battle"]
    texts = dict(game.info.texts) | {"ability.attack.front": "hit the front one for {amount}"}
    assert effect_text(game.card("guard"), texts) == "Hit the front one for 3."


def test_templates_get_no_attribute_access(games: dict[str, Game]) -> None:
    game = games["time-line-battle"]
    texts = dict(game.info.texts) | {"ability.attack.front": "{amount.__class__} {amount}"}
    assert effect_text(game.card("guard"), texts) == "{amount.__class__} 3."


def test_conditions_and_alternatives(games: dict[str, Game]) -> None:
    tlb = games["time-line-battle"]
    assert effect_lines(tlb.card("blitzer"), dict(tlb.info.texts)) == [
        "Attack the Front enemy for 10, only on the Day it was deployed into."
    ]
    assert "dead Character" in effect_text(tlb.card("necromancer"), dict(tlb.info.texts))
    tl = games["time-line"]
    assert effect_text(tl.card("invisibility"), dict(tl.info.texts)) == "Hide roll +2 or Force +50"
    bl = games["battle-line"]
    assert effect_text(bl.card("shield-bearers"), dict(bl.info.texts)).startswith("A Troop of value 1, 2 or 3")
