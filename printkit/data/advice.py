"""Warnings about data that loads and prints, but likely not as the designer meant: a card that two decks
take without saying so, a field the card sets that no layout shows."""

from __future__ import annotations

from collections.abc import Set
from typing import Any

from printkit.data.game import Game

NOT_PRINTED = frozenset({"id", "kind", "copies", "shared"})  # fields that say how to print, not what
SAMPLES = 4  # card ids named in a warning about many


def deck_overlaps(game: Game) -> list[str]:
    """One warning for each pair of decks that take the same cards, unless the decks are mirrors (the same
    cards, as two players' armies are) or each card in both says shared: true."""
    warnings = []
    decks = [(d.deck.id, [card for card, _ in d.entries]) for d in game.decks]
    for i, (first, first_cards) in enumerate(decks):
        for second, second_cards in decks[i + 1 :]:
            if [c.id for c in first_cards] == [c.id for c in second_cards]:
                continue  # a mirror: each player's own copy of one deck
            in_second = {c.id for c in second_cards}
            both = [c.id for c in first_cards if c.id in in_second and not c.shared]
            if not both:
                continue
            named = ", ".join(both[:SAMPLES]) + (f" and {len(both) - SAMPLES} more" if len(both) > SAMPLES else "")
            warnings.append(
                f"{game.place('deck', second)}: decks {first} and {second} both take {named}: each such card "
                "prints once for each deck; if that is meant, say shared: true on the card"
            )
    return warnings


def unprinted(card: Any, shown: Set[str]) -> list[str]:
    """The fields this card sets, beyond its required ones, that a face layout showing these fields leaves out."""
    out = []
    for name, spec in type(card).model_fields.items():
        value = getattr(card, name)
        if name in NOT_PRINTED or spec.is_required() or value in (None, "", [], {}):
            continue
        seen = name in shown or (name == "stats" and any(f.startswith("stat_") for f in shown))
        if not seen:
            out.append(name)
    return out
