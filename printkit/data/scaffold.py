"""`printkit init` and `printkit new`: a project folder of the user's, and the smallest valid game inside it."""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from anyascii import anyascii

from printkit.core import atomic, project
from printkit.core.errors import UsageError, display_path
from printkit.core.project import CONFIG, Project
from printkit.data import schema
from printkit.data.game import GAME_FILE

MAX_NAME = 500  # characters: a title, not a paragraph
MAX_SLUG = 60  # characters of the folder name, cut at a word
SHORT = 24  # characters of the name the cards print: it fits a back's band and a card's footer
WORD = 16  # characters of one word of it: a name wraps between words, never inside one

_GAME = """\
title: {title}{short}
credit: {credit}
players: 2
print: {{card_size: poker, bleed: 3mm, duplex: long}}

rules:
  - {{id: hand_size, value: 5, origin: seed, description: Cards each player holds.}}

components:
  - {{id: score-marker, name: Score marker, kind: marker, count: 1, per: player, shape: round, size: 5/8in}}

decks:
  - id: main
    name: Main deck
    back: {{title: Main deck, colour: "#34495e", icon: star}}
    include: {{kind: plain}}
"""

_CARDS = """\
cards:
  - {id: first-card, kind: plain, name: First Card, text: Write what this card does., stats: {power: 1}, copies: 2}
  - {id: second-card, kind: plain, name: Second Card, text: Every card needs an id of its own., stats: {power: 2}}

# A card may show art of its own, art: art/first-card.png (PNG, JPEG, WebP or SVG, inside this
# game's folder). Text may hold icons by name, as {star}: printkit's own, or an SVG of yours in an
# icons/ folder here (icons/rune.svg is {rune}). Fonts of your own are named in game.yaml, fonts:.
"""

_RULES = """\
# Overview

Say what the players are trying to do, in a few sentences.

# Components

{{ components() }}

# Setup

Each player draws {{ rule("hand_size") }} cards.

# The cards

{{ cards("main") }}

# Assumptions

{{ assumptions() }}

# Credits

{{ credit }}
"""

_CONFIG = """\
# A printkit project: games in cards/<game>/ (`printkit new "Name"` starts one), layouts of your
# own in layouts/ (a file named like a built-in layout replaces it; `extends: <its name>` changes
# part of it), and everything printkit makes in output/.
#
# Print settings for every game of the project. They win over a game's own `print:` block in its
# game.yaml; the command line (`printkit build --bleed 2mm`) wins over both. Remove the # to set one.
[print]
# paper = ["a4", "letter"]  # a4, letter or both; a build prints on each
# card_size = "poker"       # poker, bridge, mini, tarot, square, or "WxH" in mm such as "70x110"
# bleed = "3mm"             # 0mm to 5mm of art past each cut line
# printer_margin = "5mm"    # 0mm to 20mm along each paper edge that your printer leaves blank: no ink goes there
# duplex = "long"           # the edge your printer turns a sheet over: long, short, or none
# cuts = "auto"             # shared cut lines between neighbours, separate (each piece its own bleed), or auto
# offset = "0,0"            # X,Y in mm that moves the backs onto the fronts (read it off the calibration page)
# foldover = false          # faces and backs side by side, to fold, for printers that print one side
# dpi = 300                 # card images (`printkit export png`)
#
# Fonts every game's layouts may name (`font: title` in a region) beside printkit's own: a TTF or
# OTF inside the project, or a family fontconfig finds (`fc-list` lists them). A game's own fonts:
# in its game.yaml wins over one here of the same name. Remove the # to set them.
# [fonts]
# title = {file = "fonts/title.ttf"}
# mono = {family = "DejaVu Sans Mono"}
"""

_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(1, 10)), *(f"lpt{i}" for i in range(1, 10))}
_GITIGNORE = "# what printkit makes: build it again with `printkit build`\noutput/\n"


def slug(name: str) -> str:
    """A folder name for a game: the name in plain lower-case letters and digits, words joined by hyphens.

    Letters of any script are spelt out in Latin ("Über" -> "uber", "תורה" -> "tvrh"), so the
    folder, its output files and any web address built from it work everywhere.
    """
    # an apostrophe joins ("O'Brien's" -> "obriens"); any other sign separates words
    latin = re.sub(r"['’]", "", anyascii(unicodedata.normalize("NFKC", name))).lower()
    words = re.findall(r"[a-z0-9]+", latin)
    out = ""
    for word in words:
        joined = f"{out}-{word}" if out else word
        if len(joined) > MAX_SLUG:
            out = out or word[:MAX_SLUG]
            break
        out = joined
    # Windows keeps these names for devices: a folder so named cannot be made or unzipped there
    return f"{out}-game" if out in _RESERVED else out


def _title(name: str) -> str:
    """The name as typed, on one line, without control characters."""
    printable = "".join(ch if unicodedata.category(ch)[0] != "C" else " " for ch in name)
    return " ".join(printable.split())


def printed_name(title: str, printable: Callable[[str], str]) -> str:
    """The name the starter's cards print: the letters the card fonts have, in at most SHORT characters.

    printable(text) keeps the characters every card font can draw. When nothing readable is
    left (a name in a script or signs the fonts lack), the name is spelt in Latin letters.
    """
    kept = " ".join(printable(title).split())
    if not any(ch.isalnum() for ch in kept):
        kept = " ".join(word.capitalize() for word in slug(title).split("-"))
    words = [word if len(word) <= WORD else word[: WORD - 1] + "…" for word in kept.split()]
    out = words[0]
    for word in words[1:]:
        if len(out) + 1 + len(word) > SHORT:
            break
        out = f"{out} {word}"
    return out


def _quoted(text: str) -> str:
    """text as a YAML double-quoted scalar (JSON's string syntax is YAML's)."""
    return json.dumps(text, ensure_ascii=False)


@dataclass(frozen=True)
class NewGame:
    folder: Path
    notes: tuple[str, ...] = ()


def new_game(
    name: str,
    project: Project,
    printable: Callable[[str], str],
    where: Path | None = None,
    bundled: frozenset[str] = frozenset(),
) -> NewGame:
    """Create where/<slug of name> (the project's cards/ by default) with a game, two cards and rules; never overwrite.

    printable(text): the characters of text the card fonts can draw, for the name the cards print.
    bundled: the names of printkit's bundled games, so a new game that hides one says so.
    """
    title = _title(name)
    if not title:
        raise UsageError(f"{name!r}: expected a game name with at least one letter, digit or sign")
    if len(title) > MAX_NAME:
        raise UsageError(f"expected a game name of at most {MAX_NAME} characters, found {len(title)}")
    folder_name = slug(title)
    if not folder_name:
        raise UsageError(
            f"{title!r}: expected a name with a letter or digit in it: the game's folder is named from them "
            f'(add a word, such as "{title} Game")'
        )
    folder = (where or project.cards) / folder_name
    if folder.exists():
        raise UsageError(f"{display_path(folder)}: already exists; choose another name or remove it")
    notes = []
    if folder_name in bundled:
        notes.append(f"{folder_name} is also a bundled game's name: in this project, the name now means yours")
    written_schemas = schema.write(project)
    if written_schemas:
        notes.append(f"wrote the JSON Schemas editors check the YAML with to {display_path(schema.folder(project))}")
    folder.mkdir(parents=True)
    game_file, cards_file = folder / GAME_FILE, folder / "cards.yaml"
    printed = printed_name(title, printable)
    if printed != title:
        notes.append(f"the cards print the name as {printed!r} (short_title in game.yaml: change it there)")
    game_text = _GAME.format(
        title=_quoted(title),
        short="" if printed == title else f"\nshort_title: {_quoted(printed)}",
        credit=_quoted(f"{printed} (c) its designer. Print-and-play for personal use."),
    )
    atomic.write_text(game_file, schema.modeline("game.schema.json", game_file, project) + game_text)
    atomic.write_text(cards_file, schema.modeline("cards.schema.json", cards_file, project) + _CARDS)
    atomic.write_text(folder / "rules.md", _RULES)
    return NewGame(folder, tuple(notes))


def init(folder: Path) -> list[Path]:
    """Make folder a printkit project: its settings file, cards/ and layouts/, a .gitignore for output/."""
    config = folder / CONFIG
    existing = project.at(folder) if folder.is_dir() else None
    if existing is not None and existing.config is not None:
        raise UsageError(f"{display_path(existing.config)}: this folder is a printkit project already")
    if config.exists():
        raise UsageError(f"{display_path(config)}: already exists; remove it to start the project afresh")
    folder.mkdir(parents=True, exist_ok=True)
    atomic.write_text(config, _CONFIG)
    written = [config]
    for sub in ("cards", "layouts"):
        (folder / sub).mkdir(exist_ok=True)
        written.append(folder / sub)
    ignore = folder / ".gitignore"
    kept = ignore.read_text(encoding="utf-8", errors="replace") if ignore.is_file() else ""
    if not any(line.strip().strip("/") == "output" for line in kept.splitlines()):
        atomic.write_text(ignore, kept + ("\n" if kept and not kept.endswith("\n") else "") + _GITIGNORE)
        written.append(ignore)
    written += schema.write(Project(folder.resolve()))
    return written
