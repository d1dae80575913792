"""An engine's fields are worded from the game's texts: change a number in the data and the words follow."""

from __future__ import annotations

from printkit.data import enginecards, variant
from printkit.data.game import Game


def _words(game: Game, card_id: str, texts: dict[str, str] | None = None) -> list[str]:
    view = enginecards.of(game)
    assert view is not None
    worded = view.words(texts if texts is not None else dict(game.info.texts), game.card(card_id))
    return [line for lines in worded.values() for line in lines]


def test_text_follows_the_numbers(games: dict[str, Game]) -> None:
    game = games["time-line-battle"]
    assert _words(game, "lancer") == ["Attack the Front 2 enemies for 3 each."]
    changed = variant.vary(game, [("cards.lancer.ability.0.amount", 7), ("cards.lancer.ability.0.count", 3)])
    assert _words(changed, "lancer") == ["Attack the Front 3 enemies for 7 each."]


def test_wording_lives_in_the_data(games: dict[str, Game]) -> None:
    game = games["time-line-battle"]
    texts = dict(game.info.texts) | {"ability.attack.front": "hit the front one for {amount}"}
    assert _words(game, "guard", texts) == ["Hit the front one for 3."]


def test_templates_get_no_attribute_access(games: dict[str, Game]) -> None:
    game = games["time-line-battle"]
    texts = dict(game.info.texts) | {"ability.attack.front": "{amount.__class__} {amount}"}
    assert _words(game, "guard", texts) == ["{amount.__class__} 3."]


def test_conditions_and_alternatives(games: dict[str, Game]) -> None:
    tlb = games["time-line-battle"]
    assert _words(tlb, "blitzer") == ["Attack the Front enemy for 10, only on the Day it was deployed into."]
    assert "dead Character" in " ".join(_words(tlb, "necromancer"))
    assert _words(games["time-line"], "invisibility") == ["Hide roll +2 or Force +50"]
    assert _words(games["battle-line"], "shield-bearers")[0].startswith("A Troop of value 1, 2 or 3")


def test_a_tanach_card_words_its_effect_and_each_requirement(games: dict[str, Game]) -> None:
    game = games["torah-timeline"]
    view = enginecards.of(game)
    assert view is not None
    worded = view.words(game.info.texts, game.card("yaakov-avinu"))
    assert worded["effect"] == ["Gain 1 token for every Sage in both players' Beit Midrash."]
    assert worded["requires"] == ["Only when a Beit Midrash holds at least 1 Sage."]
