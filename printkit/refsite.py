"""The digital rules reference: an offline HTML site with the rules and a searchable, filterable card gallery."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import jinja2
import markupsafe

from . import atomic, booklet, cardview, raster, rulesbook
from .effect_text import effect_lines
from .game import Game
from .loader import project_root
from .model import Character, Sage, Soldier, Tactics, Tanach, TimeCard, Troop

THUMB_DPI = 96
NUMBERS = ("value", "power", "order", "health", "hp")  # the stats a gallery can filter by range


def _env() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(project_root() / "templates"), autoescape=True, undefined=jinja2.StrictUndefined
    )


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


def write_game(game: Game, folder: Path, diagrams: booklet.Diagrams | None = None) -> list[Path]:
    """output/reference/<slug>/: index.html, card images, diagrams."""
    diagrams = diagrams or booklet.Diagrams(game)
    written: list[Path] = []
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
        path = folder / "diagrams" / f"{name}.png"
        atomic.write_bytes(path, data)
        written.append(path)
    cards = []
    seen: set[tuple[str, str]] = set()
    for deck in game.decks:
        for card, _ in deck.entries:
            if (deck.deck.id, card.id) in seen:
                continue
            seen.add((deck.deck.id, card.id))
            facts = card_facts(game, deck.deck.id, card)
            image = raster.render_pdf(
                raster.card_pdf(game, deck, card, (63.5 * 72 / 25.4, 88.9 * 72 / 25.4), 0.0), THUMB_DPI
            )
            path = folder / facts["image"]
            atomic.write_bytes(path, raster.png(image, compress_level=1))
            written.append(path)
            cards.append(facts)
    kinds = sorted({c["kind"] for c in cards})
    groups = sorted({c["group"] for c in cards if c["group"]})
    numbers = sorted({k for c in cards for k in c["numbers"]}, key=NUMBERS.index)
    html = (
        _env()
        .get_template("reference/game.html.j2")
        .render(
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
    )
    atomic.write_text(folder / "index.html", html)
    written.append(folder / "index.html")
    return written


def _data_uri(data: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(data).decode()


def _json_for_script(value: Any) -> str:
    """JSON safe inside a <script> element: no "</" or "<!--" can close or comment it out."""
    text = json.dumps(value, ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def write_index(games: list[Game], folder: Path) -> Path:
    html = _env().get_template("reference/index.html.j2").render(games=games)
    atomic.write_text(folder / "index.html", html)
    return folder / "index.html"
