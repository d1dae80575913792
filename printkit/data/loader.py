"""Find game folders and load each into a Game, reporting every problem of the run together."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

from printkit.core import assets, files
from printkit.core.errors import DataError, Problem, UsageError, display_path
from printkit.core.project import Project, ProjectError
from printkit.core.project import find as find_project
from printkit.data import cards, conditions, crossref, enginecards, table
from printkit.data.basics import Id
from printkit.data.cards import Card, Kinds
from printkit.data.cardtypes import TABLES, CardType
from printkit.data.game import GAME_FILE, CardSource, DeckCards, Game
from printkit.data.model import (
    FONT_KINDS,
    ICON_NAMES,
    PICTURE_KINDS,
    CardFile,
    CardSheet,
    DeckEntry,
    FontSpec,
    GameFile,
)
from printkit.data.validation import problems_from
from printkit.data.yamlsource import Budget, Mark, PathT, SourceMap, format_path, load, parse, unpacked

M = TypeVar("M", bound=BaseModel)
RESERVED = ("reference", "balance-summary.html", "balance-summary.pdf")  # what the output folder holds besides games
EXAMPLES_FILE = "examples.yaml"  # the booklet's worked examples (printkit/docs/examples.py): not a card file
PLAY_FILE = "play.yaml"  # the game's rules in the rules language (engine/play/), for the simulation: not a card file
ICONS_FOLDER = "icons"  # a game's or project's own icons: name.svg, shown as {name}


def bundled_games() -> list[Path]:
    """The games that come with printkit, as examples and for play."""
    return _games_in(assets.folder("cards"))


def own_games(project: Project) -> list[Path]:
    """The project's games: every folder of its cards/ holding a game.yaml."""
    return _games_in(project.cards)


def _games_in(folder: Path) -> list[Path]:
    return sorted(p.parent for p in folder.glob(f"*/{GAME_FILE}")) if folder.is_dir() else []


@dataclass(frozen=True)
class Found:
    """A game folder a name or path led to, and a note for the user when it hides a bundled game."""

    folder: Path
    note: str | None = None


def find(target: str, project: Project) -> Found:
    """A game folder from a path (a folder or its game.yaml), a game of the project, or a bundled game's name."""
    text = target.rstrip("/\\") or target
    path = Path(text)
    if path.is_file() and path.name == GAME_FILE:
        return Found(path.parent)
    if path.is_dir() and (path / GAME_FILE).is_file():
        return Found(path)
    _not_a_file(path / GAME_FILE)
    if path.name == text and text not in (".", ".."):  # a plain name: the project's game, else a bundled one
        bundled = assets.folder("cards") / text
        own = project.cards / text
        _not_a_file(own / GAME_FILE)
        if (own / GAME_FILE).is_file():
            if (bundled / GAME_FILE).is_file() and bundled.resolve() != own.resolve():
                return Found(own, f"{text} is this project's {display_path(own)}, not the bundled game of that name")
            return Found(own)
        if (bundled / GAME_FILE).is_file():
            return Found(bundled)
    if path.exists():
        raise UsageError(f"{display_path(path)}: not a game folder (expected a {GAME_FILE} in it)")
    names = [p.name for p in own_games(project)]
    bundled_names = [p.name for p in bundled_games()]
    hint = difflib.get_close_matches(text, names + bundled_names, n=1)
    if hint:
        raise UsageError(f"{target}: no such game or folder; did you mean {hint[0]!r}?")
    known = f"this project's games: {', '.join(names)}; " if names else ""
    raise UsageError(f"{target}: no such game or folder ({known}bundled games: {', '.join(bundled_names)})")


def _not_a_file(game_file: Path) -> None:
    """A game.yaml that is there but is no file (a folder, a pipe) is said as such, not as a game not found."""
    try:
        mode = game_file.stat().st_mode
    except OSError:  # not there (or a link to nothing): the game is looked for elsewhere
        return
    try:
        files.check_regular(game_file, mode)
    except DataError as exc:
        raise UsageError(f"{display_path(game_file)}: {exc.problems[0].message}") from None


def find_all(targets: list[str], project: Project) -> list[Found]:
    """Every named game, or the project's own games when none is named; no two may share a name."""
    if targets:
        found = [find(t, project) for t in targets]
    else:
        found = [Found(folder) for folder in own_games(project)]
        if not found:
            raise UsageError(
                f"no games in {display_path(project.cards)}: make one with `printkit new NAME`, "
                "or name a bundled game (`printkit list` shows them)"
            )
    seen: dict[str, Path] = {}
    for item in found:
        if item.folder.name in RESERVED or item.folder.name.startswith("duplex-calibration-"):
            raise UsageError(
                f"{display_path(item.folder)}: a game's folder may not be named {item.folder.name!r}: "
                "printkit writes that name beside the games in the output folder"
            )
        other = seen.setdefault(item.folder.name, item.folder)
        if other.resolve() != item.folder.resolve():
            raise UsageError(
                f"two games named {item.folder.name} ({display_path(other)}, {display_path(item.folder)}): "
                "their outputs would share one folder; build them one at a time with --out"
            )
    unique = {item.folder.resolve(): item for item in found}
    return list(unique.values())


def is_bundled(folder: Path, project: Project) -> bool:
    """Whether a game folder is one of printkit's bundled games, part of its installation, not the project's."""
    here = folder.resolve()
    return here.is_relative_to(assets.folder("cards").resolve()) and not here.is_relative_to(project.root.resolve())


def layout_folders(game_folder: Path, project: Project) -> tuple[Path, ...]:
    """Where a game's layouts are looked up, first match winning: its own, its project's, printkit's.

    A bundled game looks as it ships: a project's layouts are for the project's own games.
    """
    builtin = assets.folder("layouts")
    # each folder with what it may lie in: a layouts/ linking out of its game or project is refused, not followed
    candidates = [(game_folder / "layouts", (game_folder,), "the game's folder")]
    if not is_bundled(game_folder, project):
        candidates.append((project.layouts, (project.root,), "the project's folder"))
    candidates.append((builtin, (builtin,), "printkit's layouts"))
    unique = {files.resolved(f, within, home): f for f, within, home in candidates if f.is_dir() or f.is_symlink()}
    return tuple(unique.values())


def _validate(
    model: type[M],
    path: Path,
    within: tuple[Path, ...],
    problems: list[Problem],
    draft: bytes | None = None,
    budget: Budget | None = None,
) -> tuple[M, SourceMap] | None:
    try:
        data, smap = load(path, within, budget) if draft is None else parse(draft, path, budget)
    except DataError as exc:
        problems.extend(exc.problems)
        return None
    try:
        return model.model_validate(data), smap
    except ValidationError as exc:
        problems.extend(problems_from(exc, model, data, smap))
        return None


def resolve_decks(info: GameFile, cards: list[Card], whole: bool = True) -> tuple[DeckCards, ...]:
    """Each deck's cards and copies, in deck order: those its include: filter takes, then those it lists.

    whole: the game loaded without a problem; otherwise a deck leaves out the cards it names that did not load,
    and a filter whose condition does not parse takes none (their problems are reported already)."""
    by_id = {c.id: c for c in cards}
    out = []
    for deck in info.decks:
        entries: dict[str, tuple[Card, int]] = {}
        if deck.include is not None:
            try:
                taking = conditions.deck_filter(deck.include)
            except conditions.ConditionError:
                if whole:
                    raise
                taking = _none
            for card in cards:
                if taking(card):
                    entries[card.id] = (card, card.copies)
        for entry in deck.cards:
            card_id, copies = (entry.card, entry.copies) if isinstance(entry, DeckEntry) else (entry, None)
            if card_id not in by_id and not whole:
                continue
            card = by_id[card_id]
            entries[card_id] = (card, card.copies if copies is None else copies)
        out.append(DeckCards(deck, tuple(v for v in entries.values() if v[1] > 0)))
    return tuple(out)


def printed(decks: tuple[DeckCards, ...]) -> int:
    """The cards a game's decks print, copies counted: a card in two decks prints in each."""
    return sum(deck.size for deck in decks)


def _printed_within(
    decks: tuple[DeckCards, ...], info: GameFile, smap: SourceMap, located: Mapping[str, crossref.Located]
) -> tuple[tuple[DeckCards, ...], list[Problem]]:
    """The decks, and a problem when they print more than MAX_PRINTED cards: placed at the copies that pass it.

    Drawing twenty thousand copies keeps a build busy for a minute, and planning millions (a few cards at 1,000
    copies in many decks) runs out of memory, so the count is taken before a piece is made. Past it, the decks
    are given back with one copy of each card, and at most MAX_PRINTED of those: validate's proof still
    checks each card's design, at a bounded cost, while the problem stops every build."""
    total = printed(decks)
    if total <= cards.MAX_PRINTED:
        return decks, []
    index, card = _passing(decks)
    message = (
        f"the game's decks print {total:,} cards, copies counted: expected at most {cards.MAX_PRINTED:,} "
        f"(the copies here pass it)"
    )
    loc = located.get(card.id)
    listing = info.decks[index].cards
    listed = next((i for i, e in enumerate(listing) if _listed(e) == card.id), None)
    if listed is not None and _listed_copies(listing[listed]):  # the deck's own count of the card
        problem = smap.problem(("decks", index, "cards", listed, "copies"), message)
    elif loc is not None:
        problem = loc.smap.problem(loc.at("copies") if card.copies != 1 else loc.at(), message)
    else:
        problem = smap.problem(("decks", index), message)
    budget = cards.MAX_PRINTED
    kept = []
    for deck in decks:
        entries = tuple((card, 1) for card, _ in deck.entries[:budget])
        budget -= len(entries)
        kept.append(DeckCards(deck.deck, entries))
    return tuple(kept), [problem]


def _passing(decks: tuple[DeckCards, ...]) -> tuple[int, Card]:
    """The deck (by index) and card whose copies take the count past MAX_PRINTED: there is one."""
    running = 0
    for index, deck in enumerate(decks):
        for card, copies in deck.entries:
            running += copies
            if running > cards.MAX_PRINTED:
                return index, card
    raise AssertionError("the count was passed")


def _listed(entry: DeckEntry | str) -> str:
    return entry.card if isinstance(entry, DeckEntry) else entry


def _listed_copies(entry: DeckEntry | str) -> bool:
    return isinstance(entry, DeckEntry) and entry.copies is not None


def _none(card: Card) -> bool:
    return False


def _types_alone(data: Any) -> dict[str, CardType] | None:
    """The card_types of a game.yaml the rest of which is refused: its cards can still be checked against them.
    None when they too are refused (game.yaml's own problems say why)."""
    if not isinstance(data, dict):
        return None
    try:
        return _TYPES.validate_python(data.get("card_types") or {})
    except ValidationError:
        return None


_TYPES: TypeAdapter[dict[str, CardType]] = TypeAdapter(dict[Id, CardType], config=ConfigDict(strict=True))


def _tables(data: Any) -> dict[str, dict[str, str]]:
    """The ids (and names) of game.yaml's rows that a choice may name, read from its data as written."""
    out: dict[str, dict[str, str]] = {}
    if not isinstance(data, dict):
        return out
    for name in TABLES:
        rows = data.get(name)
        if isinstance(rows, dict):  # user_groups: {id: name}
            out[name] = {str(k): str(v) for k, v in rows.items()}
        elif isinstance(rows, list):
            found = {}
            for row in rows:
                if isinstance(row, dict) and isinstance(row.get("id"), str):
                    called = row.get("name")
                    found[row["id"]] = called if isinstance(called, str) else row["id"]
            out[name] = found
    return out


def load_game(folder: Path, project: Project | None = None, drafts: Mapping[str, str] | None = None) -> Game:
    """Load and check one game folder; raise DataError listing all of its problems.

    project: whose layouts the game may use; by default the project around the game folder.
    drafts: card files' new texts by file name, read in place of what the folder holds (an import
    checks the game it would leave before writing a word).
    """
    game, problems = check_game(folder, project, drafts)
    if problems or game is None:
        raise DataError(problems)
    return game


def check_game(
    folder: Path, project: Project | None = None, drafts: Mapping[str, str] | None = None
) -> tuple[Game | None, list[Problem]]:
    """Every problem of one game folder, and the game as far as it loads: without the cards that have problems
    of their own, so that what does load can be drawn and checked in the same run (validate reports all at
    once). No game when its game.yaml itself is refused: there is nothing to draw the cards by."""
    project = project or find_project(folder.parent)
    within = reads_from(folder, project)
    shared_fonts = project_fonts(folder, project)
    drafts = drafts or {}
    problems: list[Problem] = []
    budget = Budget(shared=True)  # the game's files together, so many files near the limit stay quick
    raw, main = _game_file(folder / GAME_FILE, within, problems, budget)
    declared = main[0].card_types if main else _types_alone(raw)
    offered, engine_problems = _engine(folder, raw, main[1] if main else None, project, within)
    problems += engine_problems
    engine = offered.cards if offered is not None else None
    kinds = Kinds.of(declared or {}, _tables(raw), engine.forms if engine else None)
    located: list[crossref.Located] = []
    all_cards = declared is not None
    names = {p.name for p in folder.glob("*.yaml")} | set(drafts)
    for path in (folder / name for name in sorted(names)):
        if path.name in (GAME_FILE, EXAMPLES_FILE, PLAY_FILE):  # worked examples, rules for play: not cards
            continue
        draft = drafts.get(path.name)
        loaded = _validate(CardFile, path, within, problems, None if draft is None else draft.encode(), budget)
        if loaded is None:
            all_cards = False
            continue
        if declared is None:  # no kinds to read the cards by: game.yaml's own problems say why
            continue
        file, smap = loaded
        read, whole = _read_cards(file.cards, kinds, smap, False, problems)
        all_cards = all_cards and whole
        located += read
    if main is None:
        return None, problems
    info, smap = main
    read_sheets: set[tuple[str, str | None]] = set()
    from_sheets = 0
    for i, sheet in enumerate(info.card_sheets):
        if (sheet.file, sheet.sheet) in read_sheets:  # its cards would print twice, and a stranger's list could hang us
            named = sheet.file + (f", sheet {sheet.sheet}" if sheet.sheet else "")
            problems.append(smap.problem(("card_sheets", i), f"{named} is named twice in card_sheets: name it once"))
            continue
        read_sheets.add((sheet.file, sheet.sheet))
        rows, whole = _sheet_cards(folder, sheet, within, problems, smap.within("card_sheets").within(i), kinds)
        all_cards = all_cards and whole
        located += rows
        from_sheets += len(rows)
        if from_sheets > table.MAX_ROWS:  # each sheet is held to it, and so are they all together
            problems.append(
                smap.problem(
                    ("card_sheets", i),
                    f"more than {table.MAX_ROWS:,} cards in the game's sheets together: expected that many at most",
                )
            )
            break
    icons_here, icon_problems = own_icons(folder, project)
    problems += icon_problems
    icon_names = ICON_NAMES | set(icons_here)
    problems += crossref.check(info, smap, located, all_cards=all_cards, icons=icon_names, kinds=kinds, engine=engine)
    # the cards whose words their engine cannot write: left out of the game the rest is checked in
    faulty: set[int] = set()
    for index, loc in enumerate(located):
        problems += crossref.icon_problems(loc, kinds, icon_names)  # an unknown icon prints as its name: go on
        unworded = crossref.wording_problems(loc, info, engine)
        problems += unworded
        if unworded:
            faulty.add(index)
    pictureless: set[int] = set()  # and those whose pictures do not read: checked on, without them
    for problem, holder in _art_problems(info, smap, located, folder, within, kinds):
        problems.append(problem)
        if holder is not None:
            pictureless.add(holder)
    for index in pictureless:
        located[index] = located[index].without_pictures(kinds)
    seen: set[str] = set()
    for index, loc in enumerate(located):  # a second card of an id was named a duplicate: the first stands
        if loc.card.id in seen:
            faulty.add(index)
        seen.add(loc.card.id)
    located = [loc for index, loc in enumerate(located) if index not in faulty]
    cards = [loc.card for loc in located]
    rules_at = smap.keys.get(("rules",)) or Mark(1, 1)  # the rules: key itself
    places = {("card", loc.card.id): _place(loc.smap, loc.at()) for loc in located}
    places |= {("deck", deck.id): _place(smap, ("decks", i)) for i, deck in enumerate(info.decks)}
    places |= {("component", comp.id): _place(smap, ("components", i)) for i, comp in enumerate(info.components)}
    places |= {("print", key): _place(smap, ("print", key)) for key in info.print.model_fields_set}
    places |= {("game", key): _place(smap, (key,)) for key in ("title", "credit") if key in info.model_fields_set}
    places |= {("rule", option.id): _place(smap, ("rules", i)) for i, option in enumerate(info.rules)}
    places |= {("study", str(i)): _place(smap, ("studies", i)) for i in range(len(info.studies))}
    places |= {("type", kind): _place(smap, ("card_types", kind)) for kind in info.card_types}
    if info.formations:  # for an engine that ranks formations of its own kinds
        places[("game", "formations")] = _place(smap, ("formations",))
        places |= {("formation", f.id): _place(smap, ("formations", i)) for i, f in enumerate(info.formations)}
    if info.engine is not None:
        places[("engine", "engine")] = _place(smap, ("engine",))
    decks = resolve_decks(info, cards, whole=not problems)
    decks, over = _printed_within(decks, info, smap, {loc.card.id: loc for loc in located})
    problems += over
    game = Game(
        folder.name,
        folder,
        info,
        tuple(cards),
        decks,
        layout_folders(folder, project),
        within,
        (rules_at.line, rules_at.column),
        places,
        tuple(sorted(icons_here.items())),
        _fields_at(info, smap, located, decks, places),
        shared_fonts,
        project.root,
        kinds,
        {loc.card.id: CardSource(loc.smap, loc.at(), loc.lax) for loc in located},
        offered,
    )
    return game, problems


def _engine(
    folder: Path, raw: Any, smap: SourceMap | None, project: Project, within: tuple[Path, ...]
) -> tuple[enginecards.Offered | None, list[Problem]]:
    """The engine game.yaml names: its own module (engine_file:, where the project trusts the folder), else the
    one an installed package offers by that name; None when it names none or none is found (validate says so)."""
    named = raw.get("engine") if isinstance(raw, dict) else None
    own = raw.get("engine_file") if isinstance(raw, dict) else None
    if not isinstance(named, str):
        return None, []
    if not isinstance(own, str):
        return enginecards.installed_engine(named), []
    place = smap if smap is not None else SourceMap(folder / GAME_FILE)
    if not enginecards.trusted(folder, project):
        message = (
            f"{own} is code from the game's folder, and printkit runs such code only where the project trusts it: "
            f"add {folder.name!r} to trusted under [engines] in printkit.toml, or give --trust"
        )
        return None, [place.problem(("engine_file",), message)]
    try:
        found = enginecards.own_engine(folder, own, within, lambda message: place.problem(("engine_file",), message))
    except DataError as exc:
        return None, list(exc.problems)
    if found.name != named:
        said = f"{own}'s ENGINE is named {found.name!r}, not {named!r} as engine: says"
        return None, [place.problem(("engine",), said)]
    return found, []


def declarations(folder: Path, project: Project) -> tuple[GameFile, Kinds, enginecards.EngineCards | None]:
    """A game's game.yaml alone, the kinds of card it declares, and what its engine says of them: what rows of cards
    are read by before the game is whole (an import), and its card schema is made from. A DataError when game.yaml
    itself is refused, or its own engine cannot be run."""
    problems: list[Problem] = []
    within = reads_from(folder, project)
    raw, main = _game_file(folder / GAME_FILE, within, problems, Budget())
    if main is None:
        raise DataError(problems)
    offered, problems = _engine(folder, raw, main[1], project, within)
    if problems:
        raise DataError(problems)
    engine = offered.cards if offered is not None else None
    return main[0], Kinds.of(main[0].card_types, _tables(raw), engine.forms if engine else None), engine


def _game_file(
    path: Path, within: tuple[Path, ...], problems: list[Problem], budget: Budget
) -> tuple[Any, tuple[GameFile, SourceMap] | None]:
    """game.yaml as data (None when it does not read) and as the model (None, and problems, when refused)."""
    try:
        data, smap = load(path, within, budget)
    except DataError as exc:
        problems.extend(exc.problems)
        return None, None
    try:
        return data, (GameFile.model_validate(data), smap)
    except ValidationError as exc:
        problems.extend(problems_from(exc, GameFile, data, smap))
        return data, None


def _read_cards(
    items: list[Any], kinds: Kinds, smap: SourceMap, lax: bool, problems: list[Problem]
) -> tuple[list[crossref.Located], bool]:
    """The cards of one file (or sheet) that its kinds accept, and whether it has no other."""
    out = []
    for i, item in enumerate(items):
        card, found = cards.read(item, kinds, smap, ("cards", i), lax)
        problems.extend(found)
        if card is not None:
            out.append(crossref.Located(card, smap, i, lax))
    return out, len(out) == len(items)


def _fields_at(
    info: GameFile,
    smap: SourceMap,
    located: list[crossref.Located],
    decks: tuple[DeckCards, ...],
    places: dict[tuple[str, str], str],
) -> dict[str, Mapping[str, tuple[str, str]]]:
    """Where each card's and each deck back's fields are written, by the card's (or deck's) place: field ->
    (its line and column or sheet cell, its path in the data). A drawing's problem with a value it binds
    (a long text, a missing glyph, art that does not decode) names that value's place, not the card's."""
    out = _card_fields(located)
    for i, deck in enumerate(info.decks):  # a back's drawing is placed at its deck
        back: PathT = ("decks", i, "back")
        written = _keys_placed(smap, back)
        deck_place = places[("deck", deck.id)]
        out[deck_place] = {
            **out.get(deck_place, {}),
            **{key: (where, format_path((*back, key))) for key, where in written.items()},
        }
    for i, dealt in enumerate(decks):  # a card with no art of its own shows its deck's
        if dealt.deck.art:
            for card, _ in dealt.entries:
                card_place = places[("card", card.id)]
                at = out.get(card_place, {})
                if "art" not in at:
                    deck_art = (_place(smap, ("decks", i, "art")), format_path(("decks", i, "art")))
                    out[card_place] = _FieldPlaces.extended(at, "art", deck_art)
    return out


class _FieldPlaces(Mapping[str, tuple[str, str]]):
    """A card's fields' places, as _fields_at gives them, each worded only when a drawing's problem asks for it.

    Worded at once, a 5,400-card game's 27,000 places ("file:line:column" and "cards[3].text") were 6 MB
    held all run for the few an error names. This keeps the source map's own marks, packed (yamlsource.packed())
    and shared with it.
    """

    __slots__ = ("_extra", "_marks", "_path", "_shape", "_smap")

    def __init__(
        self,
        smap: SourceMap,
        path: PathT,
        shape: Mapping[str, int],
        marks: tuple[int, ...],
        extra: dict[str, tuple[str, str]] | None = None,
    ) -> None:
        # shape: each field's position in marks, one mapping for every card of the file with the same fields (a dict
        # of marks a card was a MB of a 5,400-card game)
        self._smap, self._path, self._shape, self._marks, self._extra = smap, path, shape, marks, extra or {}

    @classmethod
    def extended(cls, at: Mapping[str, tuple[str, str]], key: str, value: tuple[str, str]) -> _FieldPlaces:
        """at with key placed at value too."""
        if isinstance(at, _FieldPlaces):
            return cls(at._smap, at._path, at._shape, at._marks, {**at._extra, key: value})
        return cls(SourceMap(Path()), (), {}, (), {**at, key: value})

    def __getitem__(self, key: str) -> tuple[str, str]:
        i = self._shape.get(key)
        if i is None:
            return self._extra[key]
        return self._smap.named(unpacked(self._marks[i])), format_path((*self._path, key))

    def __iter__(self) -> Iterator[str]:
        yield from self._shape
        yield from (key for key in self._extra if key not in self._shape)

    def __len__(self) -> int:
        return len(self._shape) + sum(1 for key in self._extra if key not in self._shape)


def _keys_placed(smap: SourceMap, path: PathT) -> dict[str, str]:
    """Where the value of each key under path is written (a value of nested parts at its first part)."""
    depth = len(path)
    exact: dict[str, Mark] = {}
    first: dict[str, Mark] = {}
    for at, mark in smap.values.items():
        if len(at) > depth and at[:depth] == path and isinstance(name := at[depth], str):
            if len(at) == depth + 1:
                exact[name] = mark
            elif name not in first or mark < first[name]:
                first[name] = mark
    return {key: smap.named(mark) for key, mark in (first | exact).items()}


def _card_fields(located: list[crossref.Located]) -> dict[str, Mapping[str, tuple[str, str]]]:
    """Each card's fields, by the card's place, as _fields_at gives them: a value of nested parts (a sheet's
    stats.power column) is named at its first part. One pass over each file's places, not one a card."""
    by_file: dict[int, list[crossref.Located]] = {}
    for loc in located:
        by_file.setdefault(id(loc.smap), []).append(loc)
    out: dict[str, Mapping[str, tuple[str, str]]] = {}
    for locs in by_file.values():
        smap = locs[0].smap
        exact: dict[tuple[int, str], int] = {}
        first: dict[tuple[int, str], int] = {}
        for at, mark in smap.values.packed.items():  # packed marks, ordered as marks are
            if len(at) >= 3 and at[0] == "cards" and isinstance(at[1], int) and isinstance(at[2], str):
                card_key = (at[1], at[2])
                if len(at) == 3:
                    exact[card_key] = mark
                elif card_key not in first or mark < first[card_key]:
                    first[card_key] = mark
        fields: dict[int, dict[str, int]] = {}
        for (index, key), mark in (first | exact).items():  # a value's own place where it has one
            fields.setdefault(index, {})[key] = mark
        shapes: dict[tuple[str, ...], dict[str, int]] = {}
        for loc in locs:
            marks = fields.get(loc.index, {})
            keys = tuple(marks)
            if keys not in shapes:
                shapes[keys] = {key: i for i, key in enumerate(keys)}
            out[_place(smap, loc.at())] = _FieldPlaces(smap, loc.at(), shapes[keys], tuple(marks.values()))
    return out


_FONT_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")  # the model's Id: what a layout's font: may name


def project_fonts(folder: Path, project: Project) -> tuple[tuple[str, FontSpec], ...]:
    """The fonts the project's [fonts] names for every game, each checked; a bundled game sees none.

    Each entry has the form of a game's fonts: entry in game.yaml (a file, here named from the project's
    folder and inside it, or a family), so a font moves between the two unchanged. A bundled game looks
    as it ships, as with the project's layouts and icons.
    """
    if is_bundled(folder, project):
        return ()
    found = []
    for name, value in project.section("fonts").items():
        where = f"{project.where('fonts', name)}: fonts.{name}"
        if not _FONT_NAME.fullmatch(name) or len(name) > 64:
            raise ProjectError(f"{where}: a font's name is what layouts name it by: letters, digits, - and _ only")
        if not isinstance(value, dict):
            raise ProjectError(f'{where}: expected a table, such as {{file = "fonts/title.ttf"}} or {{family = "..."}}')
        try:
            spec = FontSpec.model_validate(value)
        except ValidationError as exc:
            first = exc.errors()[0]
            at = "".join(f".{part}" for part in first["loc"])
            # the model speaks of a game's folder; here the font is named from the project's
            reason = first["msg"].removeprefix("Value error, ").replace("the game's folder", "the project's folder")
            raise ProjectError(f"{where}{at}: {reason}") from None
        if spec.file:
            file = project.root / spec.file
            if file.suffix.lower() not in FONT_KINDS:
                kinds = ", ".join(k[1:] for k in FONT_KINDS)
                raise ProjectError(f"{where}.file: expected a font ({kinds}), found {spec.file!r}")
            try:
                real = files.resolved(file, (project.root,), "the project's folder")  # links followed
                files.check_regular(file, real.stat().st_mode)
            except DataError as exc:
                raise ProjectError(f"{where}.file: {spec.file}: {exc.problems[0].message}") from None
        found.append((name, spec))
    return tuple(found)


def _place(smap: SourceMap, path: PathT) -> str:
    return smap.place(path)


def _sheet_cards(
    folder: Path, sheet: CardSheet, within: tuple[Path, ...], problems: list[Problem], entry: SourceMap, kinds: Kinds
) -> tuple[list[crossref.Located], bool]:
    """The cards of a spreadsheet the game names, each placed at its row, and whether all its rows are cards.
    entry: where game.yaml names the sheet, the place of a sheet the workbook lacks."""
    try:
        rows = table.read(folder / sheet.file, within, sheet.sheet)
    except table.NoSheet as exc:
        problems.extend(entry.problem(("sheet",), f"{p.file}: {p.message}") for p in exc.problems)
        return [], False
    except DataError as exc:
        problems.extend(exc.problems)
        return [], False
    unknown = unknown_columns(rows, kinds)
    problems.extend(unknown.values())
    if unknown:  # named once at its header cell; the rows are read without it, so each says only its own faults
        rows = rows.without(set(unknown))
    return _read_cards(rows.records(), kinds, rows.source_map(), True, problems)


def unknown_columns(rows: table.Table, kinds: Kinds, also: tuple[str, ...] = ()) -> dict[int, Problem]:
    """Each column whose name no kind of card declares (nor any card has, nor is in also), by its number: placed
    at its header cell, once, not at every row."""
    known = [*cards.BUILT_IN, *sorted(kinds.fields()), *also]
    out = {}
    for column, name in enumerate(rows.header, start=1):
        head = name.split(".")[0]
        if not name or head in known:
            continue
        hint = difflib.get_close_matches(head, known, n=1, cutoff=0.6)
        said = f"did you mean {hint[0]!r}?" if hint else f"the fields: {', '.join(known)}"
        kinds_said = "no kind of card declares it" if kinds.declared else "declare it under card_types: in game.yaml"
        out[column] = table.header_problem(
            rows, column, f"column {name!r}: no card has a field {head!r} ({said}); {kinds_said}"
        )
    return out


def own_icons(folder: Path, project: Project) -> tuple[dict[str, Path], list[Problem]]:
    """The SVG icons of the project's icons/ folder and then the game's (which win), by file name."""
    found: dict[str, Path] = {}
    problems = []
    homes = [folder] if is_bundled(folder, project) else [project.root, folder]
    for home in homes:
        icons = home / ICONS_FOLDER
        for path in sorted(icons.glob("*.svg")) if icons.is_dir() else []:
            if not re.fullmatch(r"[a-z_]+", path.stem):
                problems.append(
                    Problem(display_path(path), 1, 1, "an icon's file name is its name in card text: a-z and _ only")
                )
                continue
            found[path.stem] = path
    return found, problems


def _art_problems(
    info: GameFile,
    smap: SourceMap,
    located: list[crossref.Located],
    folder: Path,
    within: tuple[Path, ...],
    kinds: Kinds,
) -> list[tuple[Problem, int | None]]:
    """Every picture and font file the data names: a kind printkit reads, there, inside the game or project.
    Each problem with the index of its card in located, when a card names the file."""
    named: list[tuple[str, SourceMap, PathT, tuple[str, ...], int | None]] = []
    for index, loc in enumerate(located):  # its own art, and the pictures of art fields its kind declares
        if loc.card.art:
            named.append((loc.card.art, loc.smap, loc.at("art"), PICTURE_KINDS, index))
        for key, spec in kinds.types[loc.card.kind].fields.items():
            value = loc.card.values.get(key)
            if spec.type == "art" and isinstance(value, str):
                named.append((value, loc.smap, loc.at(key), PICTURE_KINDS, index))
    for i, deck in enumerate(info.decks):
        named += [(deck.art, smap, ("decks", i, "art"), PICTURE_KINDS, None)] if deck.art else []
        named += [(deck.back.art, smap, ("decks", i, "back", "art"), PICTURE_KINDS, None)] if deck.back.art else []
    named += [(f.file, smap, ("fonts", name, "file"), FONT_KINDS, None) for name, f in info.fonts.items() if f.file]
    problems: list[tuple[Problem, int | None]] = []
    for name, where, path, suffixes, holder in named:
        file = folder / name
        if file.suffix.lower() not in suffixes:
            what = "a font" if suffixes == FONT_KINDS else "a picture"
            listed = ", ".join(k[1:] for k in suffixes)
            problems.append((where.problem(path, f"expected {what} ({listed}), found {name!r}"), holder))
            continue
        try:
            real = files.resolved(file, within)
            files.check_regular(file, real.stat().st_mode)  # a folder or a pipe is found here, at the card
        except DataError as exc:
            problems.append((where.problem(path, f"{name}: {exc.problems[0].message}"), holder))
    return problems


def reads_from(folder: Path, project: Project) -> tuple[Path, ...]:
    """The folders a game's files may be read from, links followed: its own, and the icons/ folder of the project
    it sits in, which the project shares with its games.

    A game folder dropped into a project (a download, a stranger's zip) so reads none of the project's other
    files: a rules.md linked to the project's notes cannot print them. The project is the current one, or
    the one around the game folder when that has a settings file.
    """
    here = folder.resolve()
    homes = [project] if here.is_relative_to(project.root.resolve()) else []
    around = find_project(folder)
    if around.config is not None and here.is_relative_to(around.root.resolve()):
        homes.append(around)
    return (folder, *(home.root / ICONS_FOLDER for home in homes if home.root.resolve() != here))


def load_games(targets: list[str], project: Project | None = None) -> list[Game]:
    """Load every named game (the project's own when none is named), all problems together."""
    project = project or find_project()
    games, problems = [], []
    for found in find_all(targets, project):
        try:
            games.append(load_game(found.folder, project))
        except DataError as exc:
            problems.extend(exc.problems)
    if problems:
        raise DataError(problems)
    return games
