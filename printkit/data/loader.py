"""Find game folders and load each into a Game, reporting every problem of the run together."""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from printkit.core import assets, files
from printkit.core.errors import DataError, Problem, UsageError, display_path
from printkit.core.project import Project, ProjectError
from printkit.core.project import find as find_project
from printkit.data import crossref, table
from printkit.data.game import GAME_FILE, DeckCards, Game
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
from printkit.data.yamlsource import Budget, Mark, PathT, SourceMap, format_path, load, parse

M = TypeVar("M", bound=BaseModel)
RESERVED = ("reference", "balance-summary.html", "balance-summary.pdf")  # what the output folder holds besides games
EXAMPLES_FILE = "examples.yaml"  # the booklet's worked examples (printkit/docs/examples.py): not a card file
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
    if path.name == text and text not in (".", ".."):  # a plain name: the project's game, else a bundled one
        bundled = assets.folder("cards") / text
        own = project.cards / text
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
    candidates = [(game_folder / "layouts", reads_from(game_folder, project))]
    if not is_bundled(game_folder, project):
        candidates.append((project.layouts, (project.root,)))
    candidates.append((builtin, (builtin,)))
    unique = {files.resolved(f, within): f for f, within in candidates if f.is_dir() or f.is_symlink()}
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


def resolve_decks(info: GameFile, cards: list[Any]) -> tuple[DeckCards, ...]:
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


def load_game(folder: Path, project: Project | None = None, drafts: Mapping[str, str] | None = None) -> Game:
    """Load and check one game folder; raise DataError listing all of its problems.

    project: whose layouts the game may use; by default the project around the game folder.
    drafts: card files' new texts by file name, read in place of what the folder holds (an import
    checks the game it would leave before writing a word).
    """
    project = project or find_project(folder.parent)
    within = reads_from(folder, project)
    shared_fonts = project_fonts(folder, project)
    drafts = drafts or {}
    problems: list[Problem] = []
    budget = Budget(shared=True)  # the game's files together, so many files near the limit stay quick
    main = _validate(GameFile, folder / GAME_FILE, within, problems, budget=budget)
    located: list[crossref.Located] = []
    all_cards = True
    names = {p.name for p in folder.glob("*.yaml")} | set(drafts)
    for path in (folder / name for name in sorted(names)):
        if path.name in (GAME_FILE, EXAMPLES_FILE):  # the booklet's worked examples: not cards
            continue
        draft = drafts.get(path.name)
        loaded = _validate(CardFile, path, within, problems, None if draft is None else draft.encode(), budget)
        if loaded:
            located += [crossref.Located(c, loaded[1], i) for i, c in enumerate(loaded[0].cards)]
        else:
            all_cards = False
    if main is None:
        raise DataError(problems)
    info, smap = main
    read: set[tuple[str, str | None]] = set()
    from_sheets = 0
    for i, sheet in enumerate(info.card_sheets):
        if (sheet.file, sheet.sheet) in read:  # its cards would print twice, and a stranger's list could hang us
            named = sheet.file + (f", sheet {sheet.sheet}" if sheet.sheet else "")
            problems.append(smap.problem(("card_sheets", i), f"{named} is named twice in card_sheets: name it once"))
            continue
        read.add((sheet.file, sheet.sheet))
        rows = _sheet_cards(folder, sheet, within, problems, smap.within("card_sheets").within(i))
        if rows is None:
            all_cards = False
            continue
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
    own_icons, icon_problems = _icons(folder, project)
    problems += icon_problems
    icon_names = ICON_NAMES | set(own_icons)
    problems += crossref.check(info, smap, located, all_cards=all_cards, icons=icon_names)
    problems += _art_problems(info, smap, located, folder, within)
    if problems:
        raise DataError(problems)
    cards = [loc.card for loc in located]
    rules_at = smap.keys.get(("rules",), Mark(1, 1))  # the rules: key itself
    places = {("card", loc.card.id): _place(loc.smap, loc.at()) for loc in located}
    places |= {("deck", deck.id): _place(smap, ("decks", i)) for i, deck in enumerate(info.decks)}
    places |= {("component", comp.id): _place(smap, ("components", i)) for i, comp in enumerate(info.components)}
    places |= {("print", key): _place(smap, ("print", key)) for key in info.print.model_fields_set}
    places |= {("game", key): _place(smap, (key,)) for key in ("title", "credit") if key in info.model_fields_set}
    places |= {("rule", option.id): _place(smap, ("rules", i)) for i, option in enumerate(info.rules)}
    places |= {("study", str(i)): _place(smap, ("studies", i)) for i in range(len(info.studies))}
    if info.formations:  # for an engine that ranks formations of its own kinds
        places[("game", "formations")] = _place(smap, ("formations",))
        places |= {("formation", f.id): _place(smap, ("formations", i)) for i, f in enumerate(info.formations)}
    if info.engine is not None:
        places[("engine", "engine")] = _place(smap, ("engine",))
    decks = resolve_decks(info, cards)
    return Game(
        folder.name,
        folder,
        info,
        tuple(cards),
        decks,
        layout_folders(folder, project),
        within,
        (rules_at.line, rules_at.column),
        places,
        tuple(sorted(own_icons.items())),
        _fields_at(info, smap, located, decks, places),
        shared_fonts,
        project.root,
    )


def _fields_at(
    info: GameFile,
    smap: SourceMap,
    located: list[crossref.Located],
    decks: tuple[DeckCards, ...],
    places: dict[tuple[str, str], str],
) -> dict[str, dict[str, tuple[str, str]]]:
    """Where each card's and each deck back's fields are written, by the card's (or deck's) place: field ->
    (its line and column or sheet cell, its path in the data). A drawing's problem with a value it binds
    (a long text, a missing glyph, art that does not decode) names that value's place, not the card's."""
    out = _card_fields(located)
    for i, deck in enumerate(info.decks):  # a back's drawing is placed at its deck
        back: PathT = ("decks", i, "back")
        written = _keys_placed(smap, back)
        out.setdefault(places[("deck", deck.id)], {}).update(
            {key: (where, format_path((*back, key))) for key, where in written.items()}
        )
    for i, dealt in enumerate(decks):  # a card with no art of its own shows its deck's
        if dealt.deck.art:
            for card, _ in dealt.entries:
                if not card.art:
                    at = out.setdefault(places[("card", card.id)], {})
                    at.setdefault("art", (_place(smap, ("decks", i, "art")), format_path(("decks", i, "art"))))
    return out


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


def _card_fields(located: list[crossref.Located]) -> dict[str, dict[str, tuple[str, str]]]:
    """Each card's fields, by the card's place, as _fields_at gives them: a value of nested parts (a sheet's
    stats.power column) is named at its first part. One pass over each file's places, not one a card."""
    by_file: dict[int, list[crossref.Located]] = {}
    for loc in located:
        by_file.setdefault(id(loc.smap), []).append(loc)
    out: dict[str, dict[str, tuple[str, str]]] = {}
    for locs in by_file.values():
        smap = locs[0].smap
        exact: dict[tuple[int, str], Mark] = {}
        first: dict[tuple[int, str], Mark] = {}
        for at, mark in smap.values.items():
            if len(at) >= 3 and at[0] == "cards" and isinstance(at[1], int) and isinstance(at[2], str):
                card_key = (at[1], at[2])
                if len(at) == 3:
                    exact[card_key] = mark
                elif card_key not in first or mark < first[card_key]:
                    first[card_key] = mark
        fields: dict[int, dict[str, Mark]] = {}
        for (index, key), mark in (first | exact).items():  # a value's own place where it has one
            fields.setdefault(index, {})[key] = mark
        for loc in locs:
            written = fields.get(loc.index, {})
            out[_place(smap, loc.at())] = {
                key: (smap.named(mark), format_path(loc.at(key))) for key, mark in written.items()
            }
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
            # the model speaks of a game's folder and art; here the file is a font, named from the project's
            reason = first["msg"].removeprefix("Value error, ").replace("the game's folder", "the project's folder")
            reason = reason.replace("art/dragon.png", "fonts/title.ttf")
            raise ProjectError(f"{where}{at}: {reason}") from None
        if spec.file:
            file = project.root / spec.file
            if file.suffix.lower() not in FONT_KINDS:
                kinds = ", ".join(k[1:] for k in FONT_KINDS)
                raise ProjectError(f"{where}.file: expected a font ({kinds}), found {spec.file!r}")
            try:
                real = files.resolved(file, (project.root,))  # the project's own folder, links followed
                files.check_regular(file, real.stat().st_mode)
            except DataError as exc:
                raise ProjectError(f"{where}.file: {spec.file}: {exc.problems[0].message}") from None
        found.append((name, spec))
    return tuple(found)


def _place(smap: SourceMap, path: PathT) -> str:
    return smap.place(path)


def _sheet_cards(
    folder: Path, sheet: CardSheet, within: tuple[Path, ...], problems: list[Problem], entry: SourceMap
) -> list[crossref.Located] | None:
    """The cards of a spreadsheet the game names, each placed at its row; None (and problems) when it fails.
    entry: where game.yaml names the sheet, the place of a sheet the workbook lacks."""
    try:
        rows = table.read(folder / sheet.file, within, sheet.sheet)
    except table.NoSheet as exc:
        problems.extend(entry.problem(("sheet",), f"{p.file}: {p.message}") for p in exc.problems)
        return None
    except DataError as exc:
        problems.extend(exc.problems)
        return None
    data = {"cards": rows.records()}
    smap = rows.source_map()
    try:
        # lax: a cell is text, and the model reads a number where it wants one ("7" for 7) and text where text
        cards = CardFile.model_validate(data, strict=False).cards
    except ValidationError as exc:
        problems.extend(problems_from(exc, CardFile, data, smap))
        return None
    return [crossref.Located(card, smap, i) for i, card in enumerate(cards)]


def _icons(folder: Path, project: Project) -> tuple[dict[str, Path], list[Problem]]:
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
    info: GameFile, smap: SourceMap, located: list[crossref.Located], folder: Path, within: tuple[Path, ...]
) -> list[Problem]:
    """Every picture and font file the data names: a kind printkit reads, there, inside the game or project."""
    named: list[tuple[str, SourceMap, PathT, tuple[str, ...]]]
    named = [(loc.card.art, loc.smap, loc.at("art"), PICTURE_KINDS) for loc in located if loc.card.art]
    for i, deck in enumerate(info.decks):
        named += [(deck.art, smap, ("decks", i, "art"), PICTURE_KINDS)] if deck.art else []
        named += [(deck.back.art, smap, ("decks", i, "back", "art"), PICTURE_KINDS)] if deck.back.art else []
    named += [(f.file, smap, ("fonts", name, "file"), FONT_KINDS) for name, f in info.fonts.items() if f.file]
    problems = []
    for name, where, path, kinds in named:
        file = folder / name
        if file.suffix.lower() not in kinds:
            what = "a font" if kinds == FONT_KINDS else "a picture"
            problems.append(where.problem(path, f"expected {what} ({', '.join(k[1:] for k in kinds)}), found {name!r}"))
            continue
        try:
            real = files.resolved(file, within)
            files.check_regular(file, real.stat().st_mode)  # a folder or a pipe is found here, at the card
        except DataError as exc:
            problems.append(where.problem(path, f"{name}: {exc.problems[0].message}"))
    return problems


def reads_from(folder: Path, project: Project) -> tuple[Path, ...]:
    """The folders a game's files may be read from, links followed: its own, and the project it sits in.

    That project is the current one, or the one around the game folder when that has a settings
    file. A folder from elsewhere (a download, a stranger's zip) reads only itself.
    """
    here = folder.resolve()
    homes = [project] if here.is_relative_to(project.root.resolve()) else []
    around = find_project(folder)
    if around.config is not None and here.is_relative_to(around.root.resolve()):
        homes.append(around)
    return (folder, *(home.root for home in homes if home.root.resolve() != here))


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
