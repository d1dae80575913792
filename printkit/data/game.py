"""A loaded game: its settings, cards and decks resolved into the order they print in."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from printkit.core.errors import DataError, Problem, display_path
from printkit.core.noting import Noted
from printkit.data.cards import Card, Kinds
from printkit.data.cardtypes import CardType
from printkit.data.enginecards import Offered
from printkit.data.model import Component, Deck, FontSpec, GameFile
from printkit.data.yamlsource import PathT, SourceMap

GAME_FILE = "game.yaml"


class MissingRule(DataError, KeyError):
    """A rule option something prints or plays by, which the game's rules: lack."""

    def __init__(self, problems: list[Problem], rule_id: str) -> None:
        DataError.__init__(self, problems)
        self.rule_id = rule_id

    def __str__(self) -> str:
        return DataError.__str__(self)


_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


@dataclass(frozen=True, slots=True)  # one a card, held all run: a dict of attributes each was half a MB at 5,400
class CardSource:
    """Where a card's data is written: its file's source map and its path there, and whether it is a sheet's row
    (read as text) or YAML (read strictly). An engine checks the fields only it reads against these places."""

    smap: SourceMap
    at: PathT
    lax: bool = False


@dataclass(frozen=True)
class DeckCards:
    """A deck with every card it holds and how many copies of each, in deck order."""

    deck: Deck
    entries: tuple[tuple[Card, int], ...]  # (card, copies)

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
    # the folders its files may be read from, links followed: the game's own and its project's
    reads_from: tuple[Path, ...] = ()
    rules_at: tuple[int, int] = (1, 1)  # line and column of game.yaml's rules:, for a missing rule option
    # where each card, deck and component is written, "file:line:column", for errors found while drawing
    places: dict[tuple[str, str], str] = field(default_factory=dict, hash=False, compare=False)
    icons: tuple[tuple[str, Path], ...] = ()  # its own icons: name and SVG file, beside printkit's
    # where each field a drawing binds is written, by the place of its card (or deck, for a back): field ->
    # ("file:line:column", "cards[3].art"), so a picture a field names is faulted there, not at the picture
    fields_at: dict[str, Mapping[str, tuple[str, str]]] = field(default_factory=dict, hash=False, compare=False)
    # the fonts its project's [fonts] names for every game, files named from project_folder; the game's own win
    project_fonts: tuple[tuple[str, FontSpec], ...] = ()
    project_folder: Path = Path()
    # the kinds of card it declares (or printkit's plain kind) and the rows their choices name
    kinds: Kinds = field(default_factory=lambda: Kinds.of({}, {}), hash=False, compare=False)
    sources: dict[str, CardSource] = field(default_factory=dict, hash=False, compare=False)  # by card id
    # the engine its engine: names, as found (an installed one, or its own module where trusted); None: none found
    engine: Offered | None = field(default=None, hash=False, compare=False)

    @property
    def types(self) -> dict[str, CardType]:
        """Each kind of card the game has, by name."""
        return dict(self.kinds.types)

    def card_type(self, kind: str) -> CardType:
        return self.kinds.types[kind]

    def kind_name(self, kind: str, many: bool = False) -> str:
        """A kind of card as the game's data names it: Sage, Sages."""
        declared = self.kinds.types.get(kind)
        if declared is None:
            return kind.replace("_", " ").capitalize()
        return declared.many(kind) if many else declared.one(kind)

    @property
    def title(self) -> str:
        return self.info.title

    @property
    def printed_title(self) -> str:
        """The name the cards and sheets print: the short title when the game gives one."""
        return self.info.short_title or self.info.title

    def place(self, kind: str, ident: str) -> str:
        """Where a card, deck or component (kind) is written, as file:line:column; game.yaml when unknown."""
        return self.places.get((kind, ident)) or f"{display_path(self.folder / GAME_FILE)}:1:1"

    def row(self, table: str, ident: Any) -> Any:
        """A row of a game.yaml table by its id (a faction, an era, a weapon), or None; user_groups give their name."""
        if ident is None:
            return None
        if table == "user_groups":
            return self.info.user_groups.get(ident)
        if table == "decks":
            return next((d.deck for d in self.decks if d.deck.id == ident), None)
        return next((r for r in getattr(self.info, table, ()) if r.id == ident), None)

    def row_name(self, tables: list[str], ident: Any) -> str:
        """The name of the row a choice names, from the first of its tables that has it; the id when none does."""
        for table in tables:
            row = self.row(table, ident)
            if row is not None:
                return row if isinstance(row, str) else str(row.name)
        return str(ident)

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
        """The value of a rule option (a number or choice the rules use); a MissingRule when the game lacks it."""
        _rules_read.note(rule_id)
        for option in self.info.rules:
            if option.id == rule_id:
                return option.value
        line, column = self.rules_at
        where = Problem(display_path(self.folder / GAME_FILE), line, column, f"rules: no rule option {rule_id!r}")
        raise MissingRule([where], rule_id)

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


_rules_read: Noted[str] = Noted("rules_read")
reading_rules = _rules_read.recording  # the ids of the rule options Game.rule is asked for: what an engine reads
