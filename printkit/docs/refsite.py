"""The digital rules reference: an offline HTML site with the rules and a searchable, filterable card gallery."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import markupsafe

from printkit.core import files
from printkit.core.errors import DataError
from printkit.data.effect_text import effect_lines
from printkit.data.game import Game
from printkit.data.model import Character, Sage, Soldier, Tactics, Tanach, TimeCard, Troop
from printkit.data.settings import PrintSettings
from printkit.docs import booklet, rulesbook, templating
from printkit.draw import cardview, raster
from printkit.sheets.designs import Face, card_faces

THUMB_DPI = 96
ABOUT = "game.json"  # in each game's folder of the site: what the front page lists
NUMBERS = ("value", "power", "order", "health", "hp")  # the stats a gallery can filter by range


def card_facts(game: Game, deck_id: str, card: Any) -> dict[str, Any]:
    """What the gallery shows and filters on for one card."""
    info = game.info
    fields = cardview.face_fields(game, game.deck(deck_id), card)
    group = ""
    if isinstance(card, Troop):
        group = fields["colour_name"]
    elif isinstance(card, Sage):
        group = fields["era"]
    elif isinstance(card, TimeCard):
        group = fields["faction"]
    elif isinstance(card, Tactics):
        group = fields["group"]
    elif isinstance(card, Soldier):
        group = fields["weapon"]
    numbers = {k: fields[k] for k in NUMBERS if isinstance(fields.get(k), int)}
    text = " ".join(effect_lines(card, dict(info.texts)))
    if isinstance(card, Sage):
        text = f"{card.years} · {card.hebrew}"  # left-to-right first, so the line reads in order
    elif isinstance(card, Troop):
        text = fields["value_name"]
    extra: list[str] = []
    if isinstance(card, Character):
        extra = [f"Order {card.order}", f"Health {card.health}"]
    elif isinstance(card, Soldier):
        extra = [f"{card.hp} HP"]
    elif isinstance(card, Tanach) and card.subtitle:
        extra = [card.subtitle]
    return {
        "id": card.id,
        "deck": deck_id,
        "name": card.name,
        "kind": card.kind,
        "group": group,
        "numbers": numbers,
        "text": text,
        "image": f"cards/{deck_id}-{card.id}.png",
        "extra": extra,
    }


def game_pages(game: Game, settings: PrintSettings, diagrams: booklet.Diagrams | None = None) -> dict[str, bytes | str]:
    """A game's part of the site, by path inside reference/<slug>/: index.html, card images, diagrams, game.json."""
    diagrams = diagrams or booklet.Diagrams(game, settings)
    files: dict[str, bytes | str] = {}
    used: dict[str, bytes] = {}

    def diagram_file(name: str) -> bytes | None:
        data = diagrams(name)
        if data is not None:
            used[name] = data
        return data

    if (game.folder / rulesbook.RULES_FILE).is_file():
        body, headings = rulesbook.to_html(rulesbook.render_markdown(game), diagram_file)
    else:
        body, headings = f"<p>No rules yet: write them in {rulesbook.RULES_FILE}.</p>", []
    for name, data in used.items():  # the site links its pictures as files, not inline data
        body = body.replace(_data_uri(data), f"diagrams/{name}.png")
        files[f"diagrams/{name}.png"] = data
    faces: dict[tuple[str, str], Face] = {}  # each card of each deck once: a deck may take a card twice
    for face in card_faces(game, settings.card_size):
        if face.card is not None:
            faces.setdefault((face.deck, face.card.id), face)
    cards = []
    for face, image in zip(faces.values(), raster.pictures(game, list(faces.values()), 0.0, THUMB_DPI), strict=True):
        assert face.card is not None
        facts = card_facts(game, face.deck, face.card)
        files[facts["image"]] = raster.png(image, compress_level=1)
        cards.append(facts)
    kinds = sorted({c["kind"] for c in cards})
    groups = sorted({c["group"] for c in cards if c["group"]})
    numbers = sorted({k for c in cards for k in c["numbers"]}, key=NUMBERS.index)
    html = templating.render(
        "reference/game.html.j2",
        game=game,
        title=game.title,
        credit=game.info.credit,
        body=markupsafe.Markup(body),
        headings=[h for h in headings if h.level == 1],
        kinds=kinds,
        groups=groups,
        numbers=numbers,
        cards_json=markupsafe.Markup(_json_for_script(cards)),
    )
    files["index.html"] = html
    files[ABOUT] = json.dumps(about(game), ensure_ascii=False) + "\n"
    return files


def _data_uri(data: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(data).decode()


def _json_for_script(value: Any) -> str:
    """JSON safe inside a <script> element: no "</" or "<!--" can close or comment it out."""
    text = json.dumps(value, ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def about(game: Game) -> dict[str, str]:
    """What the front page says of a game."""
    return {"slug": game.slug, "title": game.title, "credit": game.info.credit}


def index_page(site: Path, games: list[Game]) -> str:
    """The site's front page: the games of this build and every game whose pages an earlier build left in site."""
    listed = {game.slug: about(game) for game in games}
    for path in sorted(site.glob(f"*/{ABOUT}")):
        try:
            data = json.loads(files.read(path, 100_000, (site,)))
            entry = {key: str(data[key]) for key in ("slug", "title", "credit")}
        except (DataError, ValueError, KeyError, TypeError, RecursionError):
            continue  # not a page this site wrote: leave it out
        if entry["slug"] == path.parent.name:
            listed.setdefault(entry["slug"], entry)
    entries = sorted(listed.values(), key=lambda e: e["title"].lower())
    return templating.render("reference/index.html.j2", games=entries)
