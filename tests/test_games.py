"""The five bundled games load, and their counts match the digests in ../shared/games/."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

from engine.cards import records
from engine.cards.battle_line import Tactics, Troop
from engine.cards.soldier_battler import Soldier
from engine.cards.time_line import TimeCard
from engine.cards.time_line_battle import Character
from engine.cards.torah_timeline import Sage, Tanach
from printkit.data import enginecards
from printkit.data.cards import Card
from printkit.data.game import Game


def test_all_five_games_are_bundled(games: dict[str, Game]) -> None:
    assert sorted(games) == ["battle-line", "soldier-battler", "time-line", "time-line-battle", "torah-timeline"]


def test_battle_line(games: dict[str, Game]) -> None:
    game = games["battle-line"]
    troops = records(game, Troop)
    assert len(troops) == 60
    assert {(t.colour, t.value) for t in troops} == {(c.id, v) for c in game.info.colours for v in range(1, 11)}
    assert len(records(game, Tactics)) == 10
    assert game.deck("troops").size == 60 and game.deck("tactics").size == 10
    assert game.counts()["token"] == 9
    assert {v.value: v.name for v in game.info.value_names}[10] == "Elephants"
    groups = Counter(c.group for c in records(game, Tactics))
    assert groups == {"leader": 2, "morale": 2, "environment": 2, "guile": 4}


def test_time_line(games: dict[str, Game]) -> None:
    game = games["time-line"]
    assert game.deck("atlantean").size == 39 and game.deck("teraxian").size == 35
    assert game.counts()["counter"] == 250
    forces = {e.number: e.force for e in game.info.eras}
    assert forces == {1: None, 2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6, 8: 9, 9: 12, 10: 24, 11: 48, 12: None}
    units = {c.id: c.unit for c in game.components("counter") if c.unit}
    assert (units["warriors"].force, units["warriors"].move, units["warriors"].start) == (150, 2, 4)
    assert len(records(game, TimeCard)) == 74 and all(c.copies == 1 for c in game.cards)
    periods = [c for c in game.components("counter") if c.era]
    assert len(periods) == 10 and all(p.count == 10 for p in periods)


def test_torah_timeline(games: dict[str, Game]) -> None:
    game = games["torah-timeline"]
    sages = records(game, Sage)
    assert len(game.cards) == 41 and len(sages) == 30
    assert len(records(game, Tanach)) == 11
    power = {e.id: e.power for e in game.info.eras}
    assert power == {"tanna": 5, "amora": 4, "gaon": 3, "rishon": 2, "acharon": 1}
    assert Counter(s.era for s in sages) == {era: 6 for era in power}
    assert all(any("\u0590" <= ch <= "\u05ff" for ch in s.hebrew) for s in sages)
    assert all(s.years for s in sages)


def test_time_line_battle(games: dict[str, Game]) -> None:
    game = games["time-line-battle"]
    for deck in ("gold", "silver"):
        assert game.deck(deck).size == 22
    characters = sorted(records(game, Character), key=lambda c: c.order)
    assert [c.order for c in characters] == list(range(1, 23))
    assert (characters[0].name, characters[0].health) == ("Guard", 10)
    assert (characters[-1].name, characters[-1].health) == ("Rear Guard", 11)
    # the digest's table, Order 1 to 22
    assert [c.health for c in characters] == [10, 8, 6, 9, 8, 3, 8, 7, 8, 6, 6, 7, 7, 4, 7, 4, 8, 9, 5, 5, 5, 11]
    assert game.deck("gold").deck.back.colour != game.deck("silver").deck.back.colour


def test_soldier_battler(games: dict[str, Game]) -> None:
    game = games["soldier-battler"]
    assert game.deck("red-army").size == 8 and game.deck("blue-army").size == 8
    hp = {c.weapon: c.hp for c in records(game, Soldier)}
    assert hp == {"sword": 80, "axe": 100, "spear": 80, "crossbow": 40}
    beats = {w.id: w.beats for w in game.info.weapons}
    assert beats == {"sword": "axe", "axe": "spear", "spear": "sword", "crossbow": None}


def test_every_game_has_credit_seed_and_assumptions(games: dict[str, Game]) -> None:
    for game in games.values():
        assert game.info.credit and game.info.seed
        assert any(r.origin == "reconstructed" for r in game.info.rules), game.slug


def test_every_card_with_effects_has_printed_text(games: dict[str, Game]) -> None:
    worded = 0
    for game in games.values():
        for card in game.cards:
            if any(spec.type == "engine" for spec in game.kinds.types[card.kind].fields.values()):
                lines = enginecards.words(game, card)
                assert any(line.strip() for found in lines.values() for line in found), card.id
                worded += 1
    assert worded == 22 + 11 + 10 + 74  # every Character, Tanach, Tactics and Time Line card


def test_a_card_pictures_the_most_particular_name_its_icons_table_has(games: dict[str, Game]) -> None:
    from printkit.data.iconkeys import card_keys as keys_of
    from printkit.data.iconkeys import choose

    def card_keys(card: Card) -> list[str]:
        game = next(g for g in games.values() if card in g.cards)
        return keys_of(card, game.kinds, enginecards.of(game))

    sword = games["time-line"].card("vorpal-sword")  # a Force card a Hero plays
    assert choose({"force": "force", "force-hero": "sword"}, card_keys(sword)) == "sword"
    assert choose({"force-hero": "sword", "vorpal-sword": "dagger"}, card_keys(sword)) == "dagger"
    assert choose({"force-teraxian": "atom", "force-atlantean": "wand"}, card_keys(sword)) == "wand"
    assert choose({"timeline": "scroll"}, card_keys(sword)) == "scroll"
    assert choose({}, card_keys(sword)) == "star"
    paladin = games["time-line-battle"].card("paladin")  # attacks, then reduces: the later ability tells more
    assert choose({"attack-front": "sword", "reduce_chosen": "shield"}, card_keys(paladin)) == "shield"
    akiva = games["torah-timeline"].card("rebbi-akiva")
    assert choose({"sage": "scroll", "tanna": "tablets"}, card_keys(akiva)) == "tablets"


def test_the_bundled_cards_picture_what_each_does(games: dict[str, Game]) -> None:
    """In every deck whose cards show a picture, no one picture is on more than a quarter of the cards."""
    from collections import Counter

    from printkit.draw.cardview import art_icon
    from printkit.draw.layout import face_layouts

    checked = 0
    for game in games.values():
        for deck in game.decks:
            cards = [card for card, _ in deck.entries]
            layouts = face_layouts(game)
            shown = [
                c for c in cards if any(r.icon == "{art_icon}" for _, r in layouts[(deck.deck.id, c.kind)].regions)
            ]
            if len(shown) < 9:
                continue
            pictured = Counter(art_icon(game, card) for card in shown)
            icon, most = pictured.most_common(1)[0]
            assert most <= len(shown) / 4, f"{game.slug} {deck.deck.id}: {icon} on {most} of {len(shown)} cards"
            checked += 1
    assert checked == 6  # Time Line Battle's two decks, Time Line's two, Torah Timeline's, Battle Line's Tactics


def test_an_icons_name_no_card_asks_for_is_an_error_at_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from printkit.cli import main

    game = tmp_path / "time-line"
    shutil.copytree(Path(__file__).resolve().parent.parent / "cards" / "time-line", game)
    yaml = game / "game.yaml"
    yaml.write_text(yaml.read_text().replace("  force-hero: sword\n", "  forse-hero: sword\n"))
    assert main(["validate", str(game)]) == 2
    line = next(i for i, text in enumerate(yaml.read_text().splitlines(), 1) if "forse-hero" in text)
    err = capsys.readouterr().err
    assert f"game.yaml:{line}:" in err and "'forse-hero'" in err and "did you mean 'force-hero'" in err
