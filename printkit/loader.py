"""Find game folders and load each into a Game, reporting every problem of the run together."""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from . import crossref
from .errors import DataError, Problem, UsageError, display_path
from .game import DeckCards, Game
from .model import CardFile, DeckEntry, GameFile
from .validation import problems_from
from .yamlsource import SourceMap, load

GAME_FILE = "game.yaml"
M = TypeVar("M", bound=BaseModel)


def project_root() -> Path:
    """The project folder: the nearest folder up from here holding cards/ and pyproject.toml,
    else the checkout this package was installed from."""
    for folder in [Path.cwd(), *Path.cwd().parents]:
        if (folder / "cards").is_dir() and (folder / "pyproject.toml").is_file():
            return folder
    return Path(__file__).resolve().parent.parent


def bundled_games(root: Path | None = None) -> list[Path]:
    cards = (root or project_root()) / "cards"
    return sorted(p.parent for p in cards.glob(f"*/{GAME_FILE}"))


def resolve(target: str, root: Path | None = None) -> Path:
    """A game folder from a slug of a bundled game, a folder, or a game.yaml path."""
    path = Path(target)
    if path.is_file() and path.name == GAME_FILE:
        return path.parent
    if path.is_dir() and (path / GAME_FILE).is_file():
        return path
    bundled = (root or project_root()) / "cards" / target
    if "/" not in target and (bundled / GAME_FILE).is_file():
        return bundled
    if path.exists():
        raise UsageError(f"{display_path(path)}: not a game folder (expected a {GAME_FILE} in it)")
    names = ", ".join(p.name for p in bundled_games(root))
    raise UsageError(f"{target}: no such game or folder (bundled games: {names})")


def _validate(model: type[M], path: Path, problems: list[Problem]) -> tuple[M, SourceMap] | None:
    try:
        data, smap = load(path)
    except DataError as exc:
        problems.extend(exc.problems)
        return None
    try:
        return model.model_validate(data), smap
    except ValidationError as exc:
        problems.extend(problems_from(exc, model, data, smap))
        return None


def _resolve_decks(info: GameFile, cards: list[Any]) -> tuple[DeckCards, ...]:
    by_id = {c.id: c for c in cards}
    out = []
    for deck in info.decks:
        entries: dict[str, tuple[Any, int]] = {}
        if deck.include:
            for card in cards:
                if deck.include.kind not in (None, card.kind):
                    continue
                if deck.include.faction not in (None, getattr(card, "faction", None)):
                    continue
                entries[card.id] = (card, card.copies)
        for entry in deck.cards:
            card_id, copies = (entry.card, entry.copies) if isinstance(entry, DeckEntry) else (entry, None)
            card = by_id[card_id]
            entries[card_id] = (card, card.copies if copies is None else copies)
        out.append(DeckCards(deck, tuple(v for v in entries.values() if v[1] > 0)))
    return tuple(out)


def load_game(folder: Path) -> Game:
    """Load and check one game folder; raise DataError listing all of its problems."""
    problems: list[Problem] = []
    main = _validate(GameFile, folder / GAME_FILE, problems)
    located: list[crossref.Located] = []
    all_cards = True
    for path in sorted(folder.glob("*.yaml")):
        if path.name == GAME_FILE:
            continue
        loaded = _validate(CardFile, path, problems)
        if loaded:
            located += [crossref.Located(c, loaded[1], i) for i, c in enumerate(loaded[0].cards)]
        else:
            all_cards = False
    if main is None:
        raise DataError(problems)
    info, smap = main
    problems += crossref.check(info, smap, located, all_cards=all_cards)
    if problems:
        raise DataError(problems)
    cards = [loc.card for loc in located]
    return Game(folder.name, folder, info, tuple(cards), _resolve_decks(info, cards))


def load_games(targets: list[str], root: Path | None = None) -> list[Game]:
    """Load every named game (all bundled games when none is named), all problems together."""
    folders = [resolve(t, root) for t in targets] if targets else bundled_games(root)
    if not folders:
        raise UsageError("no games found: expected cards/<game>/game.yaml")
    games, problems = [], []
    for folder in folders:
        try:
            games.append(load_game(folder))
        except DataError as exc:
            problems.extend(exc.problems)
    if problems:
        raise DataError(problems)
    return games
