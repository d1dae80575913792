"""`printkit new`: write the smallest valid game folder, a start for a designer's own game."""

from __future__ import annotations

import re
from pathlib import Path

from . import atomic
from .errors import UsageError, display_path
from .schema import modeline

_GAME = """\
title: {title}
credit: "{title} (c) its designer. Print-and-play for personal use."
players: 2
print: {{paper: a4, card_size: poker, bleed: 3mm, duplex: long}}

rules:
  - {{id: hand_size, value: 5, origin: seed, description: Cards each player holds.}}

components:
  - {{id: score-marker, name: Score marker, kind: marker, count: 1, per: player, shape: round, size: 5/8in}}

decks:
  - id: main
    name: Main deck
    back: {{title: {title}, colour: "#34495e"}}
    include: {{kind: plain}}
"""

_CARDS = """\
cards:
  - {id: first-card, kind: plain, name: First Card, text: Write what this card does., stats: {power: 1}, copies: 2}
  - {id: second-card, kind: plain, name: Second Card, text: Every card needs an id of its own., stats: {power: 2}}
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


def create(name: str, where: Path) -> Path:
    """Create the folder where/<slug of name> with game.yaml and cards.yaml; never overwrite."""
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    if not slug:
        raise UsageError(f"{name!r}: expected a game name with at least one letter or digit")
    folder = where / slug
    if folder.exists():
        raise UsageError(f"{display_path(folder)}: already exists; choose another name or remove it")
    title = name.strip().replace('"', "'")
    folder.mkdir(parents=True)
    atomic.write_text(
        folder / "game.yaml", modeline("game.schema.json", folder / "game.yaml") + _GAME.format(title=title)
    )
    atomic.write_text(folder / "cards.yaml", modeline("cards.schema.json", folder / "cards.yaml") + _CARDS)
    atomic.write_text(folder / "rules.md", _RULES)
    return folder
