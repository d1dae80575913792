"""The five bundled games load, and their counts match the digests in ../shared/games/."""

from __future__ import annotations

from collections import Counter

from printkit.data.effect_text import effect_text
from printkit.data.game import Game
from printkit.data.model import Character, Sage, Soldier, Tactics, Tanach, TimeCard, Troop


def test_all_five_games_are_bundled(games: dict[str, Game]) -> None:
    assert sorted(games) == ["battle-line", "soldier-battler", "time-line", "time-line-battle", "torah-timeline"]


def test_battle_line(games: dict[str, Game]) -> None:
    game = games["battle-line"]
    troops = [c for c in game.cards if isinstance(c, Troop)]
    assert len(troops) == 60
    assert {(t.colour, t.value) for t in troops} == {(c.id, v) for c in game.info.colours for v in range(1, 11)}
    assert len([c for c in game.cards if isinstance(c, Tactics)]) == 10
    assert game.deck("troops").size == 60 and game.deck("tactics").size == 10
    assert game.counts()["token"] == 9
    assert {v.value: v.name for v in game.info.value_names}[10] == "Elephants"
    groups = Counter(c.group for c in game.cards if isinstance(c, Tactics))
    assert groups == {"leader": 2, "morale": 2, "environment": 2, "guile": 4}


def test_time_line(games: dict[str, Game]) -> None:
    game = games["time-line"]
    assert game.deck("atlantean").size == 39 and game.deck("teraxian").size == 35
    assert game.counts()["counter"] == 250
    forces = {e.number: e.force for e in game.info.eras}
    assert forces == {1: None, 2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6, 8: 9, 9: 12, 10: 24, 11: 48, 12: None}
    units = {c.id: c.unit for c in game.components("counter") if c.unit}
    assert (units["warriors"].force, units["warriors"].move, units["warriors"].start) == (150, 2, 4)
    assert all(c.copies == 1 for c in game.cards if isinstance(c, TimeCard))
    periods = [c for c in game.components("counter") if c.era]
    assert len(periods) == 10 and all(p.count == 10 for p in periods)


def test_torah_timeline(games: dict[str, Game]) -> None:
    game = games["torah-timeline"]
    sages = [c for c in game.cards if isinstance(c, Sage)]
    assert len(game.cards) == 41 and len(sages) == 30
    assert len([c for c in game.cards if isinstance(c, Tanach)]) == 11
    power = {e.id: e.power for e in game.info.eras}
    assert power == {"tanna": 5, "amora": 4, "gaon": 3, "rishon": 2, "acharon": 1}
    assert Counter(s.era for s in sages) == {era: 6 for era in power}
    assert all(any("\u0590" <= ch <= "\u05ff" for ch in s.hebrew) for s in sages)
    assert all(s.years for s in sages)


def test_time_line_battle(games: dict[str, Game]) -> None:
    game = games["time-line-battle"]
    for deck in ("gold", "silver"):
        assert game.deck(deck).size == 22
    characters = sorted((c for c in game.cards if isinstance(c, Character)), key=lambda c: c.order)
    assert [c.order for c in characters] == list(range(1, 23))
    assert (characters[0].name, characters[0].health) == ("Guard", 10)
    assert (characters[-1].name, characters[-1].health) == ("Rear Guard", 11)
    # the digest's table, Order 1 to 22
    assert [c.health for c in characters] == [10, 8, 6, 9, 8, 3, 8, 7, 8, 6, 6, 7, 7, 4, 7, 4, 8, 9, 5, 5, 5, 11]
    assert game.deck("gold").deck.back.colour != game.deck("silver").deck.back.colour


def test_soldier_battler(games: dict[str, Game]) -> None:
    game = games["soldier-battler"]
    assert game.deck("red-army").size == 8 and game.deck("blue-army").size == 8
    hp = {c.weapon: c.hp for c in game.cards if isinstance(c, Soldier)}
    assert hp == {"sword": 80, "axe": 100, "spear": 80, "crossbow": 40}
    beats = {w.id: w.beats for w in game.info.weapons}
    assert beats == {"sword": "axe", "axe": "spear", "spear": "sword", "crossbow": None}


def test_every_game_has_credit_seed_and_assumptions(games: dict[str, Game]) -> None:
    for game in games.values():
        assert game.info.credit and game.info.seed
        assert any(r.origin == "reconstructed" for r in game.info.rules), game.slug


def test_every_card_with_effects_has_printed_text(games: dict[str, Game]) -> None:
    for game in games.values():
        for card in game.cards:
            if isinstance(card, (Character, Tanach, Tactics, TimeCard)):
                assert effect_text(card, dict(game.info.texts)).strip(), card.id


def test_each_card_pictures_its_telling_effect(games: dict[str, Game]) -> None:
    from printkit.draw.cardview import art_icon

    tlb = games["time-line-battle"]
    pictured = {c.id: art_icon(tlb, c) for c in tlb.cards}
    assert (pictured["archer"], pictured["reviver"], pictured["guard"], pictured["rogue"]) == (
        "crossbow",
        "heart",
        "sword",
        "spear",
    )
    assert pictured["paladin"] == "shield"  # its reduction says more than its attack
    assert art_icon(games["time-line"], games["time-line"].card("paradox")) == "skull"
