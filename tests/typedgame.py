"""Spirit Court, a game made for the tests as a stranger would write one: three kinds of card of its own.

Spirits (a cost, a rarity, a type line, keywords, rules text with bold, italic and its own icon, a
portrait) live in YAML; relics (charges in a number format) in a CSV sheet; rituals (a speed) in an
XLSX sheet. Each kind has a layout of its own that prints every field, and no bundled game's data
is used: a test of card types on this game cannot pass by the bundled games' grace.
"""

from __future__ import annotations

from pathlib import Path

from demogame import workbook
from PIL import Image

SLUG = "spirit-court"
LANTERN = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" viewBox="0 0 10 10">'
    '<circle cx="5" cy="5" r="4" fill="#e0a020"/></svg>'
)

GAME = """\
title: Spirit Court
credit: Spirit Court, a game made for printkit's tests.
players: 2
print: {card_size: poker, bleed: 3mm, duplex: long, paper: a4}

card_types:
  spirit:
    name: Spirit
    plural: Spirits
    summary: "{type_line} · cost {cost}"
    fields:
      cost: {type: integer, min: 0, max: 10, required: true, name: Cost}
      rarity:
        type: choice
        values: {common: Common, rare: Rare, legendary: Legendary}
        default: common
        name: Rarity
      type_line: {type: text, required: true, name: Type line, max_length: 40}
      keywords: {type: list, values: [flying, ward, haste], name: Keywords}
      text: {type: rich, name: Rules text}
      power: {type: integer, min: 0, max: 20, required: true, name: Might}
      portrait: {type: art, name: Portrait}
  relic:
    name: Relic
    fields:
      cost: {type: integer, min: 0, max: 10, required: true, name: Cost}
      rarity:
        type: choice
        values: {common: Common, rare: Rare, legendary: Legendary}
        default: common
        name: Rarity
      charges: {type: integer, min: 0, max: 9, format: "02d", name: Charges}
      text: {type: rich, required: true, name: Rules text}
  ritual:
    name: Ritual
    fields:
      cost: {type: integer, min: 0, max: 10, required: true, name: Cost}
      speed: {type: choice, values: [fast, slow], required: true, name: Speed}
      text: {type: rich, required: true, name: Rules text}

card_sheets:
  - file: relics.csv
  - file: rituals.xlsx
    sheet: Deck

rules:
  - {id: hand_size, value: 5, origin: seed, description: Cards each player holds.}

decks:
  - id: spirits
    name: Spirit deck
    back: {title: Spirits, colour: "#2e4a6b", icon: lantern}
    include: {kind: spirit}
  - id: arcana
    name: Arcana deck
    back: {title: Arcana, colour: "#6b2e4a", icon: wand}
    include: {kind: [relic, ritual]}
    icon: wand
    accent: "#6b2e4a"
"""

SPIRITS = """\
cards:
  - id: will-o-wisp
    kind: spirit
    name: Will-o'-Wisp
    cost: 1
    rarity: common
    type_line: Marsh Light
    keywords: [flying]
    text: "**Lure.** Move an enemy spirit, then {lantern} glows."
    power: 1
  - id: old-oak
    kind: spirit
    name: Old Oak
    cost: 4
    rarity: legendary
    type_line: Forest Elder
    keywords: [ward, haste]
    text: Roots hold fast; *nothing* moves it.
    power: 6
    portrait: art/oak.png
"""

RELICS = "id,kind,name,cost,rarity,charges,text\nbell,relic,Silver Bell,2,rare,3,Ring to wake a spirit.\n"

LAYOUTS = {
    "spirit": """\
extends: base
regions:
  cost: {type: badge, shape: circle, x: 4mm, y: 4mm, w: 9mm, h: 9mm, fill: paper, text: "{cost}",
         font: sans-bold, size: 12, colour: ink, order: 20}
  name: {x: 15mm, w: 33.5mm}
  portrait: {type: image, image: "{portrait}", when: portrait, x: 6mm, y: 16mm, w: 51.5mm, h: 22mm, order: 7}
  type-line: {type: text, x: 6mm, y: 39mm, w: 51.5mm, h: 5mm, text: "{type_line} · {rarity}", font: sans-bold,
              size: 8, align: center, order: 10}
  legend: {type: text, when: "rarity is legendary and cost >= 3", x: 6mm, y: 44mm, w: 51.5mm, h: 4mm,
           text: "LEGEND", font: sans-bold, size: 7, align: center, order: 10}
  keywords: {type: text, when: "keywords has flying or keywords has ward", x: 6mm, y: 48mm, w: 51.5mm, h: 5mm,
             text: "{keywords}", font: sans-oblique, size: 8, align: center, order: 10}
  text: {type: text, x: 6mm, y: 54mm, w: 51.5mm, h: 18mm, text: "{text}", font: sans, size: 9, order: 10}
  power: {type: text, x: 6mm, y: 73mm, w: 51.5mm, h: 5mm, text: "MIGHT {power:+d}", font: sans-bold, size: 9,
          align: right, order: 10}
""",
    "relic": """\
extends: base
regions:
  cost: {type: text, x: 6mm, y: 16mm, w: 51.5mm, h: 6mm, text: "COST {cost} · {rarity}", font: sans-bold,
         size: 9, align: center, order: 10}
  charges: {type: text, when: charges, x: 6mm, y: 24mm, w: 51.5mm, h: 6mm, text: "CHARGES {charges}",
            font: sans-bold, size: 9, align: center, order: 10}
  text: {type: text, x: 6mm, y: 32mm, w: 51.5mm, h: 40mm, text: "{text}", font: sans, size: 10, order: 10}
""",
    "ritual": """\
extends: base
regions:
  cost: {type: text, x: 6mm, y: 16mm, w: 51.5mm, h: 6mm, text: "COST {cost}", font: sans-bold, size: 9,
         align: center, order: 10}
  speed: {type: text, x: 6mm, y: 24mm, w: 51.5mm, h: 6mm, text: "{speed} ritual", font: sans-bold, size: 9,
          align: center, order: 10}
  fast-mark: {type: badge, shape: diamond, when: "speed is fast", x: 50mm, y: 24mm, w: 6mm, h: 6mm,
              fill: "#c9a227", order: 11}
  text: {type: text, x: 6mm, y: 32mm, w: 51.5mm, h: 40mm, text: "{text}", font: sans, size: 10, order: 10}
""",
}

RITUAL_ROWS = [
    ["id", "kind", "name", "cost", "speed", "text"],
    ["dawn-chant", "ritual", "Dawn Chant", 3, "fast", "Every spirit of yours wakes."],
    ["long-night", "ritual", "Long Night", 5, "slow", "Skip the next day, and *rest*."],
]

RULES = """\
# Overview

Spirit Court is a game for the tests.

# The spirits

{{ cards("spirits") }}

# The arcana

{{ cards("arcana") }}

# Assumptions

{{ assumptions() }}
"""


def write(folder: Path) -> Path:
    """Spirit Court in folder/spirit-court (folder: a project's cards/); its folder."""
    game = folder / SLUG
    for sub in ("art", "icons", "layouts"):
        (game / sub).mkdir(parents=True, exist_ok=True)
    (game / "game.yaml").write_text(GAME, encoding="utf-8")
    (game / "spirits.yaml").write_text(SPIRITS, encoding="utf-8")
    (game / "relics.csv").write_text(RELICS, encoding="utf-8")
    (game / "rituals.xlsx").write_bytes(workbook(RITUAL_ROWS))
    (game / "rules.md").write_text(RULES, encoding="utf-8")
    (game / "icons" / "lantern.svg").write_text(LANTERN, encoding="utf-8")
    for name, text in LAYOUTS.items():
        (game / "layouts" / f"{name}.yaml").write_text(text, encoding="utf-8")
    Image.new("RGB", (1200, 520), (40, 110, 60)).save(game / "art" / "oak.png")
    return game
