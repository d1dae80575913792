"""A loaded game: its settings, cards and decks resolved into the order they print in."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from printkit.data.model import Card, Component, Deck, GameFile

GAME_FILE = "game.yaml"
_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


@dataclass(frozen=True)
class DeckCards:
    """A deck with every card it holds and how many copies of each, in deck order."""

    deck: Deck
    entries: tuple[tuple[Any, int], ...]  # (card model, copies)

    @property
    def size(self) -> int:
        return sum(copies for _, copies in self.entries)


@dataclass(frozen=True)
class Game:
    """One game as every stage reads it, and where its layouts are looked up."""

    slug: str
    folder: Path
    info: GameFile
    cards: tuple[Card, ...]
    decks: tuple[DeckCards, ...]
    # the game's own layouts/, then its project's, then printkit's: the first that has a name wins
    layout_folders: tuple[Path, ...] = ()

    @property
    def title(self) -> str:
        return self.info.title

    @property
    def printed_title(self) -> str:
        """The name the cards and sheets print: the short title when the game gives one."""
        return self.info.short_title or self.info.title

    def card(self, card_id: str) -> Card:
        for card in self.cards:
            if card.id == card_id:
                return card
        raise KeyError(card_id)

    def deck(self, deck_id: str) -> DeckCards:
        for deck in self.decks:
            if deck.deck.id == deck_id:
                return deck
        raise KeyError(deck_id)

    def rule(self, rule_id: str) -> Any:
        """The value of a rule option (a number or choice the rules use)."""
        for option in self.info.rules:
            if option.id == rule_id:
                return option.value
        raise KeyError(f"{self.slug}: no rule option {rule_id!r}")

    def phrase(self, text: str) -> str:
        """Text from the data with {rule_id} placeholders filled from the rule options."""
        return _PLACEHOLDER.sub(lambda m: str(self.rule(m.group(1))), text)

    def components(self, kind: str | None = None) -> list[Component]:
        return [c for c in self.info.components if kind is None or c.kind == kind]

    def printed_count(self, component: Component) -> int:
        """How many of a component are printed: per-player parts once per player."""
        return component.count * (self.info.players if component.per == "player" else 1)

    def counts(self) -> dict[str, int]:
        """Cards and printed parts by kind: what `printkit list` shows."""
        out: dict[str, int] = {"card": sum(d.size for d in self.decks)}
        for comp in self.info.components:
            out[comp.kind] = out.get(comp.kind, 0) + self.printed_count(comp)
        return out
