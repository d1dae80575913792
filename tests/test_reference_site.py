"""The reference site's pages as built, without a browser: the printed drawings at the print settings' size, the
game's own words, legible accents, the balance report read back, and the front page's facts from the data."""

from __future__ import annotations

import io
import json
import re
import typing
from pathlib import Path

import pytest
from PIL import Image
from reportlab.lib.colors import HexColor

from printkit.core.errors import DataError
from printkit.data.game import Game
from printkit.data.loader import load_game
from printkit.data.settings import PrintSettings, card_size
from printkit.docs import cardfacts, refbalance, refsite
from printkit.draw import legibility, raster
from printkit.sheets import cover
from printkit.sheets.designs import card_faces

ROOT = Path(__file__).resolve().parent.parent
SLUGS = ["battle-line", "soldier-battler", "time-line", "time-line-battle", "torah-timeline"]


def test_the_site_pictures_are_the_card_drawings_at_the_print_settings(games: dict[str, Game]) -> None:
    """One print-settings object makes both outputs: a tarot card at 150 dpi is drawn so on the site too."""
    game = games["soldier-battler"]
    settings = PrintSettings(card=card_size("tarot"), dpi=150)
    pages = refsite.game_pages(game, settings)
    face = next(f for f in card_faces(game, settings.card_size) if f.card is not None)
    drawn = raster.pictures(game, [face], 0.0, settings.dpi)[0]  # as the card sheets' exports draw it
    width = round(settings.card.width / 72 * settings.dpi)
    site = Image.open(io.BytesIO(pages[f"cards/{face.deck}-{face.label}-{width}.png"]))  # type: ignore[arg-type]
    assert site.size == drawn.size == (width, round(settings.card.height / 72 * settings.dpi))
    assert site.convert("RGB").tobytes() == drawn.tobytes()
    # every picture says its resolution (pHYs), as a print shop or an image tool reads its printed size from it
    dpis = {round(dpi) for dpi in refsite.resolutions(settings)}
    pictures = {name: data for name, data in pages.items() if name.endswith(".png")}
    assert pictures
    for name, data in pictures.items():
        shown = Image.open(io.BytesIO(data))  # type: ignore[arg-type]
        assert "dpi" in shown.info, name
        if name.startswith("cards/"):  # the diagrams and the front page's fan have resolutions of their own
            assert round(shown.info["dpi"][0]) in dpis, name
    assert round(site.info["dpi"][0]) == 150

    def widths(settings: PrintSettings) -> list[int]:
        return [round(settings.card.width / 72 * d) for d in refsite.resolutions(settings)]

    assert widths(PrintSettings()) == [refsite.GALLERY_PX, 2 * refsite.GALLERY_PX, 750]  # poker at 300 dpi
    assert widths(settings) == [refsite.GALLERY_PX, width]  # none finer than the print resolution


@pytest.mark.parametrize("slug", SLUGS)
def test_filters_name_cards_in_the_game_s_words(games: dict[str, Game], slug: str) -> None:
    game = games[slug]
    held: dict[str, list[typing.Any]] = {}
    for deck in game.decks:
        for card, _ in deck.entries:
            held.setdefault(card.id, []).append(deck)
    facts = [cardfacts.facts(game, game.card(card_id), decks) for card_id, decks in held.items()]
    kinds = {c.kind for c in game.cards}
    named = {kind: declared.name for kind, declared in game.info.card_types.items()}
    assert kinds <= set(named) and all(named.values()), "every bundled game names its kinds of card"
    for facet in cardfacts.facets(game, facts):
        assert not set(facet.values) & kinds, (facet.label, facet.values)  # no `troop`, no `timeline`
        if facet.key == "kind":
            assert set(facet.values) <= set(named.values())
        if facet.key == "deck":
            assert set(facet.values) <= {d.deck.name for d in game.decks}
    html = str(refsite.game_pages(game, PrintSettings())[refsite.CARDS_PAGE])
    assert not [k for k in kinds if f'value="{k}"' in html or f">{k}<" in html]


def test_one_facet_is_offered_for_two_that_split_the_cards_alike(games: dict[str, Game]) -> None:
    game = games["battle-line"]  # the Troop deck holds the Troops, the Tactics deck the Tactics cards
    held = {c.id: [d] for d in game.decks for c, _ in d.entries}
    facts = [cardfacts.facts(game, game.card(i), decks) for i, decks in held.items()]
    keys = [f.key for f in cardfacts.facets(game, facts)]
    assert "deck" in keys and "kind" not in keys and "colour" in keys and "group" in keys


@pytest.mark.parametrize("slug", SLUGS)
def test_the_accent_reads_on_light_and_dark_pages(games: dict[str, Game], slug: str) -> None:
    colours = refsite.accents(games[slug])
    ratio = legibility.contrast
    assert ratio(HexColor(colours["accent_ink"]), HexColor(refsite.LIGHT)) >= legibility.NORMAL
    assert ratio(HexColor(colours["accent_ink_dark"]), HexColor(refsite.DARK)) >= legibility.NORMAL
    assert ratio(HexColor(colours["on_accent"]), HexColor(colours["accent"])) >= legibility.NORMAL


def test_the_front_page_says_players_length_and_decks_from_the_data(games: dict[str, Game]) -> None:
    fresh = {}
    for slug in ("battle-line", "time-line"):
        fresh[slug] = str(refsite.game_pages(games[slug], PrintSettings())[refsite.ABOUT])
    html = refsite.index_page(ROOT / "no-such-folder", fresh)
    battle, time_line = (json.loads(fresh[s]) for s in ("battle-line", "time-line"))
    assert battle["play_time"] == {"words": "30 min", "estimate": False, "note": ""}  # the seed's figure
    assert time_line["play_time"]["estimate"] and time_line["play_time"]["note"]  # a reconstruction, said so
    assert "30 min" in html and "about 60–90 min" in html and "(estimate)" in html
    assert "Troop deck: 60 cards" in html and "Tactics deck: 10 cards" in html and "2 players" in html
    assert "A game by Reiner Knizia" in html  # Battle Line's byline, as its booklet's cover says it


def test_the_front_page_pictures_each_game_with_its_booklet_cover_s_fan(games: dict[str, Game]) -> None:
    """Each game's box on the front page shows the fan of cards the booklet's cover shows, as files of the site
    (it works offline) in two sharpnesses, never wider than the box, named in words."""
    game = games["soldier-battler"]
    pages = refsite.game_pages(game, PrintSettings())
    html = refsite.index_page(ROOT / "no-such-folder", {game.slug: str(pages[refsite.ABOUT])})
    found = re.search(
        r'<img src="soldier-battler/([^"]+)" srcset="([^"]+)" sizes="[^"]+" width="(\d+)" height="(\d+)" alt="([^"]+)"',
        html,
    )
    assert found, html
    src, srcset, width, height, alt = found.groups()
    shown = [
        face.title or face.card.name if face.card else None for face in cover.fan_faces(game, PrintSettings().card_size)
    ]
    assert len(shown) >= 3
    drawn = {}
    for part in srcset.split(", "):
        name, w = part.removeprefix("soldier-battler/").split(" ")
        picture = Image.open(io.BytesIO(pages[name]))  # type: ignore[arg-type]
        assert picture.format == "PNG" and picture.width == int(w.removesuffix("w")), name
        drawn[name] = picture
    assert src in drawn and drawn[src].size == (int(width), int(height))
    sharp = max(drawn.values(), key=lambda p: p.width)
    assert 300 <= int(width) <= 500 and abs(sharp.width - 2 * int(width)) <= 1  # a box's width, and twice it
    assert 0.4 < int(height) / int(width) < 0.8  # a hand of cards, wider than tall
    # the cards themselves: opaque in the middle, clear in the corners for the page's own colour
    assert sharp.mode == "RGBA" and sharp.getpixel((0, 0))[3] == 0  # type: ignore[index]
    assert sharp.getpixel((sharp.width // 2, sharp.height // 2))[3] == 255  # type: ignore[index]
    assert "Soldier Battler" in alt and all(name in alt for name in shown if name)
    assert "back of the Red Army" in alt
    assert "http:" not in html and "https:" not in html


def test_a_game_json_that_points_outside_its_folder_is_left_off_the_front_page(
    games: dict[str, Game], tmp_path: Path
) -> None:
    about = json.loads(str(refsite.game_pages(games["soldier-battler"], PrintSettings())[refsite.ABOUT]))
    about["cover"]["src"] = "../../../etc/passwd"
    (tmp_path / "soldier-battler").mkdir()
    (tmp_path / "soldier-battler" / refsite.ABOUT).write_text(json.dumps(about))
    assert "Soldier Battler" not in refsite.index_page(tmp_path, {})


def test_a_play_time_the_wrong_way_round_is_an_error_at_its_line(tmp_path: Path) -> None:
    from printkit.cli import main

    assert main(["new", "Timed", "--dir", str(tmp_path), "-q"]) == 0
    path = tmp_path / "timed" / "game.yaml"
    path.write_text(path.read_text() + "play_time: {minutes: [40, 20], origin: reconstructed}\n")
    with pytest.raises(DataError) as found:
        load_game(tmp_path / "timed")
    assert "game.yaml:" in str(found.value) and "shorter time first" in str(found.value)


def _report(folder: Path, game: Game) -> None:
    """A real balance report of a few games, as `printkit simulate` writes it."""
    from engine import registry, simulate, stats
    from printkit.docs import balance

    records = simulate.run(simulate.Plan(game.folder, ("random", "random"), 24, 3))
    figures = stats.summarise(records, registry.build(game).card_names())
    run = {"game": game.slug, "agents": ["random", "random"], "games": 24, "seed": 3}
    balance.write(folder / "balance", game.title, figures, run, records, pdf=False)


def test_the_balance_report_is_read_back_for_each_card(games: dict[str, Game], tmp_path: Path) -> None:
    game = games["soldier-battler"]
    assert refbalance.read(tmp_path) is None  # no report: no figures
    _report(tmp_path, game)
    found = refbalance.read(tmp_path)
    assert found is not None
    run, figures = found
    assert run.games == 24 and run.agents == "random against random" and run.values_by == ""
    assert set(figures) == {c.id for c in game.cards}
    for rows in figures.values():
        for row in rows:
            assert 0 <= row["low"] <= row["at"] <= row["high"] <= 100 and "95% interval" in row["words"]
    html = str(refsite.game_pages(game, PrintSettings(), balance=found)[refsite.CARDS_PAGE])
    assert "From the balance report: 24 games" in html
    results = tmp_path / refbalance.RESULTS
    results.write_text(json.dumps({"settings": {}, "sweep": {"points": []}}))  # a sweep's, not a report's
    assert refbalance.read(tmp_path) is None
    results.write_text('{"summary": {"games": 3, "cards": [{"id": "x", "games_played_in": "many"')  # cut short
    assert refbalance.read(tmp_path) is None


def test_a_game_an_older_build_left_stays_on_the_front_page(tmp_path: Path) -> None:
    """A game.json of before covers and colours (slug, title, credit) still lists its game, plainly."""
    (tmp_path / "old-game").mkdir()
    old = {"slug": "old-game", "title": "Old Game", "credit": "Its designer."}
    (tmp_path / "old-game" / refsite.ABOUT).write_text(json.dumps(old))
    html = refsite.index_page(tmp_path, {})
    assert 'href="old-game/index.html"' in html and "Old Game" in html


def test_the_front_page_s_picture_words_are_escaped_and_an_older_cover_is_left_out(tmp_path: Path) -> None:
    """The fan's alt text (card names, the data's words) reaches the page as text, never markup; a game.json of
    before the fan (its cover a list of card pictures) still lists its game, without a picture."""
    fan = {"src": "cover-4.png", "srcset": "cover-4.png 4w", "width": 4, "height": 2, "alt": 'A "fan" <b>&</b>'}
    for slug, picture in (("new-game", fan), ("old-game", [{"src": "cards/a-1.png", "srcset": "cards/a-1.png 1w"}])):
        (tmp_path / slug).mkdir()
        about = {"slug": slug, "title": slug.title(), "credit": "Its designer.", "cover": picture}
        (tmp_path / slug / refsite.ABOUT).write_text(json.dumps(about))
    html = refsite.index_page(tmp_path, {})
    assert 'alt="A &#34;fan&#34; &lt;b&gt;&amp;&lt;/b&gt;"' in html and "<b>" not in html
    assert 'href="old-game/index.html"' in html and "cards/a-1.png" not in html


def test_a_rebuilt_site_keeps_only_what_its_pages_show(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A card removed from the data leaves no picture behind in the site; a failed build removes nothing; files
    of other kinds, and other games' folders, are left alone."""
    from printkit.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(["init", "."]) == 0 and main(["new", "Site Game"]) == 0
    cards = tmp_path / "cards" / "site-game" / "cards.yaml"
    cards.write_text(
        "cards:\n  - {id: keep, kind: plain, name: Keep, text: Stays.}\n"
        "  - {id: drop, kind: plain, name: Drop, text: Goes.}\n"
    )
    assert main(["build", "--only", "reference", "--no-check", "-q"]) == 0
    site = tmp_path / "output" / "reference" / "site-game"
    dropped = [p for p in (site / "cards").iterdir() if "drop" in p.name]
    assert dropped
    (site / "notes.txt").write_text("mine")
    (tmp_path / "output" / "reference" / "other-game").mkdir()
    (tmp_path / "output" / "reference" / "other-game" / "index.html").write_text("another build's")

    cards.write_text("cards:\n  - {id: keep, kind: plain, name: Keep, text: Stays.\n")  # a YAML error
    assert main(["build", "--only", "reference", "--no-check", "-q"]) == 2
    assert all(p.exists() for p in dropped)

    cards.write_text("cards:\n  - {id: keep, kind: plain, name: Keep, text: Stays.}\n")
    assert main(["build", "--only", "reference", "--no-check", "-q"]) == 0
    assert not any(p.exists() for p in dropped)
    assert any("keep" in p.name for p in (site / "cards").iterdir())
    assert (site / "notes.txt").read_text() == "mine"
    assert (tmp_path / "output" / "reference" / "other-game" / "index.html").read_text() == "another build's"
    capsys.readouterr()
