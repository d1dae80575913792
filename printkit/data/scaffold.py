"""`printkit init` and `printkit new`: a project folder of the user's, and the smallest valid game inside it."""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from anyascii import anyascii

from printkit.core import atomic, project
from printkit.core.choices import STARTERS
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

# Cards are written a field a line: a comma in a card's text is then just a comma.
_CARDS = """\
cards:
  - id: first-card
    kind: plain
    name: First Card
    text: Write what this card does.
    stats:
      power: 1
    copies: 2
  - id: second-card
    kind: plain
    name: Second Card
    text: Every card needs an id of its own.
    stats:
      power: 2

# A card may show art of its own, art: art/first-card.png (PNG, JPEG, WebP or SVG, inside this
# game's folder). Text may hold icons by name, as {star}: printkit's own, or an SVG of yours in an
# icons/ folder here (icons/rune.svg is {rune}). Fonts of your own are named in game.yaml, fonts:.
"""

# The starter with kinds of card of its own: units from cards.yaml, spells from a spreadsheet.
_TYPED_GAME = """\
title: {title}{short}
credit: {credit}
players: 2
print: {{card_size: poker, bleed: 3mm, duplex: long}}

# The kinds of card the game has, and each one's fields: a card of a kind may set these (and id, name,
# copies, flavour, art). Layouts print a field by its name in braces, {{cost}}; the booklet and the
# rules reference list each field under its name:.
card_types:
  unit:
    name: Unit
    summary: "{{rarity}} · cost {{cost}} · power {{power}}"
    fields:
      cost: {{type: integer, min: 0, max: 10, required: true, name: Cost}}
      power: {{type: integer, min: 0, max: 20, required: true, name: Power}}
      rarity: {{type: choice, values: [common, uncommon, rare], default: common, name: Rarity}}
      keywords: {{type: list, values: [flying, guard, swift], name: Keywords}}
      text:
        {{type: rich, name: Text, description: "What the card does: **bold**, *italic* and icons such as {{star}}."}}
  spell:
    name: Spell
    summary: "{{rarity}} · cost {{cost}}"
    fields:
      cost: {{type: integer, min: 0, max: 10, required: true, name: Cost}}
      rarity: {{type: choice, values: [common, uncommon, rare], default: common, name: Rarity}}
      text: {{type: rich, required: true, name: Text}}

# Spells live in a spreadsheet: one row a card, one column a field. Edit it in any spreadsheet program.
card_sheets:
  - file: spells.csv

rules:
  - {{id: hand_size, value: 5, origin: seed, description: Cards each player holds.}}

components:
  - {{id: score-marker, name: Score marker, kind: marker, count: 1, per: player, shape: round, size: 5/8in}}

decks:
  - id: units
    name: Unit deck
    back: {{title: Units, colour: "#2e5e4e", icon: helmet}}
    include: {{kind: unit}}
  - id: spells
    name: Spell deck
    back: {{title: Spells, colour: "#5b3a7a", icon: wand}}
    include: {{kind: spell}}
    icon: wand
"""

_TYPED_CARDS = """\
cards:
  - id: scout
    kind: unit
    name: Scout
    cost: 1
    power: 1
    keywords: [swift]
    text: When this arrives, look at the top card of your deck.
  - id: shield-bearer
    kind: unit
    name: Shield Bearer
    cost: 2
    power: 2
    keywords: [guard]
    text: "**Guard.** Enemies must attack this first, if they can."
  - id: gryphon
    kind: unit
    name: Gryphon
    cost: 4
    power: 3
    rarity: rare
    keywords: [flying, swift]
    text: Strikes first against a unit without *flying*.
"""

_TYPED_SHEET = """\
id,kind,name,cost,rarity,text
spark,spell,Spark,1,common,Deal 1 damage to a unit.
shield,spell,Shield,2,uncommon,"Until your next turn, a unit of yours takes no damage."
storm,spell,Storm,5,rare,"Deal 2 damage to every unit, yours too."
"""

# The layouts of the starter's kinds: every region kind shown once, each field bound by name.
_UNIT_LAYOUT = """\
# A unit: its cost top left, its power in a shield, a gem when it is rare, its keywords over its text.
extends: base
regions:
  name: {x: 15mm, w: 33.5mm}
  cost: {type: badge, shape: circle, x: 3.8mm, y: 3.8mm, w: 9.4mm, h: 9.4mm, fill: paper, stroke: accent-dark,
         stroke_width: 1pt, text: "{cost}", font: sans-bold, size: 13, colour: ink, order: 20}
  art: {type: box, x: 6mm, y: 16mm, w: 51.5mm, h: 30mm, fill: accent-light, radius: 2mm, order: 5}
  art-icon: {type: icon, icon: "{art_icon}", x: 24.75mm, y: 23mm, w: 14mm, h: 14mm, colour: accent-dark, order: 6}
  art-image: {type: image, image: "{art}", when: art, x: 6mm, y: 16mm, w: 51.5mm, h: 30mm, fit: cover,
              radius: 2mm, order: 7}
  gem: {type: badge, shape: diamond, when: "rarity is rare", x: 51mm, y: 40.5mm, w: 5mm, h: 5mm,
        fill: "#c9a227", stroke: paper, order: 8}
  keywords: {type: text, when: keywords, x: 6mm, y: 47.5mm, w: 51.5mm, h: 5mm, text: "{keywords}",
             font: sans-bold, size: 8, align: center, valign: middle, colour: accent-dark, order: 10}
  text: {type: text, x: 6mm, y: 53mm, w: 42mm, h: 26mm, text: "{text}", font: sans, size: 9.5, align: left,
         valign: middle, order: 10}
  power: {type: badge, shape: shield, x: 49.5mm, y: 67mm, w: 10mm, h: 11mm, fill: accent-dark, stroke: paper,
          stroke_width: 1pt, text: "{power}", font: sans-bold, size: 13, colour: paper, order: 20}
"""

_SPELL_LAYOUT = """\
# A spell: its cost top left, a rare one's name in gold, its text in the middle of the card.
extends: base
regions:
  name: {x: 15mm, w: 33.5mm}
  rare-name: {type: box, when: "rarity is rare", x: 3mm, y: 3mm, w: 57.5mm, h: 10mm, fill: "#8a6d1d",
              radius: 2.5mm, order: 3}
  cost: {type: badge, shape: hexagon, x: 3.8mm, y: 3.8mm, w: 9.4mm, h: 9.4mm, fill: paper, stroke: accent-dark,
         stroke_width: 1pt, text: "{cost}", font: sans-bold, size: 13, colour: ink, order: 20}
  motif: {type: pattern, motif: rings, x: 6mm, y: 16mm, w: 51.5mm, h: 24mm, stroke: accent-light, step: 3mm,
          radius: 2mm, order: 5}
  art-icon: {type: icon, icon: "{art_icon}", x: 25.25mm, y: 21mm, w: 13mm, h: 13mm, colour: accent-dark, order: 6}
  art-image: {type: image, image: "{art}", when: art, x: 6mm, y: 16mm, w: 51.5mm, h: 24mm, fit: cover,
              radius: 2mm, order: 7}
  rule: {type: line, x: 10mm, y: 43mm, w: 43.5mm, h: 0mm, stroke: accent, stroke_width: 0.8pt, order: 6}
  text: {type: text, x: 6mm, y: 46mm, w: 51.5mm, h: 33mm, text: "{text}", font: sans, size: 10, align: center,
         valign: middle, order: 10}
"""

_TYPED_RULES = """\
# Overview

Say what the players are trying to do, in a few sentences.

# Components

{{ components() }}

# Setup

Each player draws {{ rule("hand_size") }} cards.

# The units

{{ cards("units") }}

# The spells

{{ cards("spells") }}

# Assumptions

{{ assumptions() }}

# Credits

{{ credit }}
"""

# The starter with an engine of its own: Duel, its rules in engine.py (engine/starters/duel.py), played and balanced
# by printkit's simulate, check and balance like the bundled games.
_ENGINE_GAME = """\
title: {title}{short}
credit: {credit}
players: 2
print: {{card_size: poker, bleed: 3mm, duplex: long}}
# the engine that plays it, and the module in this folder it comes from: printkit runs that file only where
# the project trusts this folder ([engines] trusted in printkit.toml, or --trust on the command)
engine: duel
engine_file: engine.py

card_types:
  fighter:
    name: Fighter
    summary: "power {{power}}"
    fields:
      power: {{type: integer, min: 0, max: 20, required: true, name: Power}}
      text: {{type: rich, name: Text}}

rules:
  - {{id: hand_size, value: 3, origin: seed, description: Cards each player draws.}}
  - {{id: rounds, value: 3, origin: seed, description: Rounds a game lasts.}}

decks:
  - id: fighters
    name: Fighter deck
    back: {{title: Fighters, colour: "#6b3a2e", icon: sword}}
    include: {{kind: fighter}}
"""

_ENGINE_CARDS = """\
cards:
  - id: squire
    kind: fighter
    name: Squire
    power: 2
    copies: 4
    text: Cheap, and there are many.
  - id: knight
    kind: fighter
    name: Knight
    power: 5
    copies: 3
    text: Takes most rounds it leads.
  - id: champion
    kind: fighter
    name: Champion
    power: 8
    text: Saved for the round that decides the game.
"""

_ENGINE_LAYOUT = """\
# A fighter: its power in a shield, its text below the art.
extends: base
regions:
  name: {x: 5mm, w: 40mm, align: left}
  power: {type: badge, shape: shield, x: 49mm, y: 3.5mm, w: 10.5mm, h: 11.5mm, fill: paper, stroke: accent-dark,
          stroke_width: 1pt, text: "{power}", font: sans-bold, size: 13, colour: ink, order: 20}
  art: {type: box, x: 6mm, y: 17mm, w: 51.5mm, h: 34mm, fill: accent-light, radius: 2mm, order: 5}
  art-icon: {type: icon, icon: "{art_icon}", x: 22.75mm, y: 24mm, w: 18mm, h: 18mm, colour: accent-dark, order: 6}
  art-image: {type: image, image: "{art}", when: art, x: 6mm, y: 17mm, w: 51.5mm, h: 34mm, fit: cover,
              radius: 2mm, order: 7}
  text: {type: text, when: text, x: 6mm, y: 55mm, w: 51.5mm, h: 24mm, text: "{text}", font: sans, size: 10,
         align: center, valign: middle, order: 10}
"""

_ENGINE_RULES = """\
# Overview

Two players fight a few rounds with the fighters in their hands: the one who takes more rounds wins.

# Setup

Shuffle the deck. Each player draws {{ rule("hand_size") }} cards.

# A round

The leader plays a card face up; the other player answers with one. The higher power takes the round, and
equal powers take it for nobody. The lead then passes to the other player. After {{ rule("rounds") }} rounds,
whoever took more of them wins; as many is a draw.

# The fighters

{{ cards("fighters") }}

# Assumptions

{{ assumptions() }}

# Credits

{{ credit }}
"""

# The starter whose rules are data: Lanterns, its rules in play.yaml (engine/starters/lanterns.yaml), played by
# printkit's interpreter, so simulate, check and balance need no code and no trust.
_PLAY_GAME = """\
title: {title}{short}
credit: {credit}
players: 2
print: {{card_size: poker, bleed: 3mm, duplex: long}}
# its rules for the simulation are in play.yaml, in printkit's rules language: no code, so nothing to trust
engine: play

card_types:
  lantern:
    name: Lantern
    summary: "light {{light}}"
    fields:
      light: {{type: integer, min: 1, max: 9, required: true, name: Light}}
      text: {{type: rich, name: Text}}
  charm:
    name: Charm
    summary: "{{effect}} {{amount}}"
    fields:
      effect: {{type: choice, values: {{gust: Gust, draw: Draw, flare: Flare}}, required: true, name: Effect}}
      amount: {{type: integer, min: 0, max: 9, default: 0, name: Amount}}
      text: {{type: rich, name: Text}}

rules:
  - {{id: hand_start, value: 4, origin: seed, description: Cards each player is dealt.}}
  - {{id: hand_limit, value: 6, origin: seed, description: "Largest hand; a card drawn past it is discarded."}}
  - {{id: plays_per_turn, value: 2, origin: seed, description: Cards a player may play each turn.}}
  - {{id: light_to_win, value: 15, origin: seed, description: Light that wins the game.}}
  - {{id: move_cap, value: 300, min: 10, origin: seed, description: "Moves after which the game is a draw.",
     player_text: "After {{value}} cards played and turns ended without a winner, the game is a draw."}}

decks:
  - id: lanterns
    name: Lantern deck
    back: {{title: Lanterns, colour: "#2f3e5c", icon: lamp}}
    include: {{}}

icons:  # the picture on each card, by its kind or its effect
  lantern: lamp
  gust: hourglass
  draw: cards
  flare: fire
"""

_PLAY_CARDS = """\
cards:
  - {id: candle, kind: lantern, name: Candle, light: 1, copies: 6, text: A small light that adds up.}
  - {id: lamp, kind: lantern, name: Oil Lamp, light: 2, copies: 5}
  - {id: lantern, kind: lantern, name: Lantern, light: 3, copies: 4}
  - {id: beacon, kind: lantern, name: Beacon, light: 4, copies: 2, text: Worth guarding.}
  - {id: gust, kind: charm, name: Gust, effect: gust, copies: 3, text: "Your opponent's last lit lantern goes out."}
  - {id: spark, kind: charm, name: Spark, effect: draw, amount: 2, copies: 3, text: Draw two cards.}
  - {id: flare, kind: charm, name: Flare, effect: flare, amount: 2, copies: 2, text: Gain 2 light.}
"""

_PLAY_LAYOUT = """\
# A lantern: its light in a badge, its text below the art.
extends: base
regions:
  name: {x: 5mm, w: 40mm, align: left}
  light: {type: badge, shape: circle, x: 49mm, y: 3.5mm, w: 10.5mm, h: 10.5mm, fill: paper, stroke: accent-dark,
          stroke_width: 1pt, text: "{light}", font: sans-bold, size: 13, colour: ink, order: 20}
  art: {type: box, x: 6mm, y: 17mm, w: 51.5mm, h: 34mm, fill: accent-light, radius: 2mm, order: 5}
  art-icon: {type: icon, icon: "{art_icon}", x: 22.75mm, y: 24mm, w: 18mm, h: 18mm, colour: accent-dark, order: 6}
  text: {type: text, when: text, x: 6mm, y: 55mm, w: 51.5mm, h: 24mm, text: "{text}", font: sans, size: 10,
         align: center, valign: middle, order: 10}
"""

_CHARM_LAYOUT = """\
# A charm: its name, its amount (when it has one) in a badge, its effect's art, what it does.
extends: base
regions:
  name: {x: 5mm, w: 40mm, align: left}
  amount: {type: badge, shape: circle, when: amount, x: 49mm, y: 3.5mm, w: 10.5mm, h: 10.5mm, fill: paper,
           stroke: accent-dark, stroke_width: 1pt, text: "{amount}", font: sans-bold, size: 13, colour: ink, order: 20}
  art: {type: box, x: 6mm, y: 17mm, w: 51.5mm, h: 34mm, fill: accent-light, radius: 2mm, order: 5}
  art-icon: {type: icon, icon: "{art_icon}", x: 22.75mm, y: 24mm, w: 18mm, h: 18mm, colour: accent-dark, order: 6}
  text: {type: text, when: text, x: 6mm, y: 55mm, w: 51.5mm, h: 24mm, text: "{text}", font: sans, size: 10,
         align: center, valign: middle, order: 10}
"""

_PLAY_RULES = """\
# Overview

Two players light lanterns from a shared deck; the first whose lanterns give {{ rule("light_to_win") }} light wins.

# Setup

Shuffle the deck and deal {{ rule("hand_start") }} cards to each player. Choose the first player at random.

# A turn

Draw a card (past {{ rule("hand_limit") }} cards in hand, it is discarded). Then play up to
{{ rule("plays_per_turn") }} cards: a lantern is lit in front of you and adds its light to yours; a charm is
discarded for its effect. You may stop early. An empty deck is made again from the shuffled discard pile.

# The cards

{{ cards("lanterns") }}

# Assumptions

{{ assumptions() }}

# Credits

{{ credit }}
"""

TRUST_NOTE = "# game folders whose own engine (engine_file: in game.yaml) printkit may run: code from the folder"

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
# margin_tolerance = "0.5mm" # 0mm to 5mm more, for a blank strip that is wider on some sheets: ink begins past both
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
    starter: str = "deck",
) -> NewGame:
    """Create where/<slug of name> (the project's cards/ by default) with a game, its cards and rules; never overwrite.

    printable(text): the characters of text the card fonts can draw, for the name the cards print.
    bundled: the names of printkit's bundled games, so a new game that hides one says so.
    starter: deck, one kind of plain card; types, two kinds of the game's own, one kept in a spreadsheet.
    """
    if starter not in STARTERS:
        raise UsageError(f"--starter: expected {' or '.join(STARTERS)}, found {starter!r}")
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
    folder.mkdir(parents=True)
    game_file, cards_file = folder / GAME_FILE, folder / "cards.yaml"
    printed = printed_name(title, printable)
    if printed != title:
        notes.append(f"the cards print the name as {printed!r} (short_title in game.yaml: change it there)")
    game_text = {"types": _TYPED_GAME, "engine": _ENGINE_GAME, "play": _PLAY_GAME}.get(starter, _GAME).format(
        title=_quoted(title),
        short="" if printed == title else f"\nshort_title: {_quoted(printed)}",
        credit=_quoted(f"{printed} (c) its designer. Print-and-play for personal use."),
    )
    atomic.write_text(game_file, schema.modeline("game.schema.json", game_file, project) + game_text)
    cards_text = {"types": _TYPED_CARDS, "engine": _ENGINE_CARDS, "play": _PLAY_CARDS}.get(starter, _CARDS)
    atomic.write_text(cards_file, schema.card_modeline(cards_file, project) + cards_text)
    rules = {"types": _TYPED_RULES, "engine": _ENGINE_RULES, "play": _PLAY_RULES}.get(starter, _RULES)
    atomic.write_text(folder / "rules.md", rules)
    if starter == "engine":
        (folder / "layouts").mkdir()
        path = folder / "layouts" / "fighter.yaml"
        atomic.write_text(path, schema.modeline("layout.schema.json", path, project) + _ENGINE_LAYOUT)
        atomic.write_text(folder / "engine.py", (resources.files("engine") / "starters" / "duel.py").read_text())
        notes.append(_trust(folder, project))
    if starter == "play":
        (folder / "layouts").mkdir()
        for name, text in (("lantern", _PLAY_LAYOUT), ("charm", _CHARM_LAYOUT)):
            path = folder / "layouts" / f"{name}.yaml"
            atomic.write_text(path, schema.modeline("layout.schema.json", path, project) + text)
        rules_file = folder / "play.yaml"
        rules = (resources.files("engine") / "starters" / "lanterns.yaml").read_text()
        atomic.write_text(rules_file, schema.modeline(schema.PLAY, rules_file, project) + rules)
    if starter == "types":
        atomic.write_text(folder / "spells.csv", _TYPED_SHEET)
        (folder / "layouts").mkdir()
        for name, text in (("unit", _UNIT_LAYOUT), ("spell", _SPELL_LAYOUT)):
            path = folder / "layouts" / f"{name}.yaml"
            atomic.write_text(path, schema.modeline("layout.schema.json", path, project) + text)
    if schema.write(project):  # the game's own card schema among them: editors complete its kinds' fields
        notes.append(f"wrote the JSON Schemas editors check the YAML with to {display_path(schema.folder(project))}")
    return NewGame(folder, tuple(notes))


def _trust(folder: Path, project: Project) -> str:
    """Trust a new game's own engine in the project's printkit.toml, where that file has no [engines] table yet:
    the designer wrote the game, so its engine is theirs. The note says what was done, or what to do."""
    config = project.root / CONFIG
    entry = folder.name if folder.parent.resolve() == project.cards.resolve() else folder.resolve().as_posix()
    line = f'trusted = ["{entry}"]'
    if project.config is None or project.config.name != CONFIG or "engines" in project.table:
        where = display_path(config) if project.config is None else display_path(project.config)
        return f"its engine.py runs where the project trusts it: add {line} under [engines] in {where}, or --trust"
    text = config.read_text(encoding="utf-8")
    gap = "" if text.endswith("\n") else "\n"
    atomic.write_text(config, f"{text}{gap}\n[engines]\n{TRUST_NOTE}\n{line}\n")
    return f"its engine.py is trusted: {display_path(config)} now says {line} under [engines]"


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
