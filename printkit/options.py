"""Print settings for one game: built-in defaults, then the game's own, then the project's, then the command line."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from . import units
from .errors import UsageError, display_path
from .game import Game

PAPERS = ("a4", "letter")
DUPLEX = ("long", "short", "none")


@dataclass(frozen=True)
class PrintOptions:
    """What every print stage is told: paper, card trim size, bleed and duplex edge."""

    paper: str = "a4"
    card_size: str = "poker"
    bleed: str = "3mm"
    duplex: str = "long"

    @property
    def card_size_pt(self) -> tuple[float, float]:
        return units.card_size(self.card_size)

    @property
    def bleed_pt(self) -> float:
        return units.length(self.bleed)


def _checked(where: str, settings: dict[str, Any]) -> dict[str, str]:
    known = {f.name for f in fields(PrintOptions)}
    out: dict[str, str] = {}
    for key, value in settings.items():
        if value is None:
            continue
        if key not in known:
            raise UsageError(f"{where}: unknown print setting {key!r} (expected one of: {', '.join(sorted(known))})")
        text = str(value).strip().lower() if key in ("paper", "duplex") else str(value).strip()
        try:
            if key == "paper" and text not in PAPERS:
                raise ValueError(f"expected one of {', '.join(PAPERS)}, found {value!r}")
            if key == "duplex" and text not in DUPLEX:
                raise ValueError(f"expected one of {', '.join(DUPLEX)}, found {value!r}")
            if key == "card_size":
                units.card_size(text)
            if key == "bleed" and not 0 <= units.length(text) <= 5 * units.MM + 1e-9:
                raise ValueError(f"expected a bleed from 0mm to 5mm, found {value!r}")
        except ValueError as exc:
            raise UsageError(f"{where}: {key}: {exc}") from None
        out[key] = text
    return out


def project_settings(root: Path) -> dict[str, Any]:
    """The [tool.printkit] table of the project's pyproject.toml, if any."""
    path = root / "pyproject.toml"
    if not path.is_file():
        return {}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise UsageError(f"{display_path(path)}: {exc}") from None
    table = data.get("tool", {}).get("printkit", {})
    return dict(table) if isinstance(table, dict) else {}


def resolve(game: Game, project: dict[str, Any], command_line: dict[str, Any]) -> PrintOptions:
    """The settings in force for a game: later layers override earlier ones."""
    options = PrintOptions()
    layers = (
        (f"{display_path(game.folder / 'game.yaml')}: print", game.info.print.model_dump()),
        ("pyproject.toml [tool.printkit]", project),
        ("command line", command_line),
    )
    for where, settings in layers:
        options = replace(options, **_checked(where, settings))
    return options
