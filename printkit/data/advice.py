"""Warnings about data that loads and prints, but likely not as the designer meant: a card that two decks
take without saying so, a card no deck takes, a field the card sets that no layout shows."""

from __future__ import annotations

from collections.abc import Set

from printkit.data.cards import Card
from printkit.data.cardtypes import CardType
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
            warnings.append(
                f"{game.place('deck', second)}: decks {first} and {second} both take {listed(both)}: each such card "
                "prints once for each deck; if that is meant, say shared: true on the card"
            )
    return warnings


def listed(ids: list[str]) -> str:
    """The first few ids and how many more: a warning about a hundred cards stays one line."""
    more = f" and {len(ids) - SAMPLES} more" if len(ids) > SAMPLES else ""
    return ", ".join(ids[:SAMPLES]) + more


def untaken(game: Game) -> list[str]:
    """The ids of the cards no deck takes: they load and check, and never print."""
    taken = {card.id for deck in game.decks for card, _ in deck.entries}
    return [card.id for card in game.cards if card.id not in taken]


def orphans(game: Game) -> list[str]:
    """One warning naming the cards no deck takes."""
    lost = untaken(game)
    if not lost:
        return []
    return [
        f"{game.place('card', lost[0])}: no deck takes {listed(lost)}, so "
        + ("it never prints: add it" if len(lost) == 1 else "they never print: add them")
        + " to a deck's cards or widen its include"
    ]


def unprinted(card: Card, declared: CardType, shown: Set[str]) -> list[str]:
    """The fields this card sets, beyond its kind's required ones, that a face layout showing these fields leaves
    out (a field a layout tests in a condition counts as shown)."""
    out = []
    optional = {"flavour": card.flavour, "art": card.art, "art_credit": card.art_credit}
    optional |= {k: v for k, v in card.values.items() if not declared.fields[k].required and k not in card.defaulted}
    for name, value in optional.items():
        if value in (None, "", [], {}):
            continue
        seen = name in shown or (name == "stats" and any(f.startswith("stat_") for f in shown))
        if not seen:
            out.append(name)
    # marked where it matters: on each reconstructed value the face prints
    if not all(f"{field}_reconstructed" in shown for field in card.reconstructed if field in shown):
        out.append("reconstructed")
    return out


def unworded_rules(game: Game) -> list[str]:
    """A warning for each reconstructed rule option with no player_text: the booklet prints its description."""
    return [
        f"{game.place('rule', option.id)}: rule option {option.id} is reconstructed but has no "
        "player_text: the booklet states it to players in its description's words"
        for option in game.info.rules
        if option.origin == "reconstructed" and option.player_text is None
    ]
