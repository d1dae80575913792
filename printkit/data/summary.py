"""The components summary of a game: every deck, card count and printed part, as JSON and as a table."""

from __future__ import annotations

import json
from typing import Any

from printkit.data.game import Game
from printkit.data.settings import PrintSettings


def summary(game: Game, settings: PrintSettings) -> dict[str, Any]:
    return {
        "game": game.slug,
        "title": game.title,
        "credit": game.info.credit,
        "print": settings.to_json(),
        "decks": [
            {
                "id": d.deck.id,
                "name": d.deck.name,
                "cards": d.size,
                "back": d.deck.back.title,
                "contents": [{"card": card.id, "copies": copies} for card, copies in d.entries],
            }
            for d in game.decks
        ],
        "components": [
            {"id": c.id, "name": c.name, "kind": c.kind, "count": game.printed_count(c)} for c in game.info.components
        ],
        "totals": game.counts(),
        "assumptions": [r.id for r in game.info.rules if r.origin == "reconstructed"],
    }


def summary_json(game: Game, settings: PrintSettings) -> str:
    return json.dumps(summary(game, settings), indent=2, ensure_ascii=False) + "\n"


def plural(word: str, n: int) -> str:
    if n == 1:
        return word
    return {"die": "dice"}.get(word, word + "s")


def count_line(game: Game) -> str:
    """'70 cards (troops 60, tactics 10); 9 tokens, 1 strip' for listings."""
    decks = ", ".join(f"{d.deck.id} {d.size}" for d in game.decks)
    totals = game.counts()
    cards = totals.pop("card")
    parts = ", ".join(f"{n} {plural(kind, n)}" for kind, n in sorted(totals.items()))
    return f"{cards} cards ({decks})" + (f"; {parts}" if parts else "")
