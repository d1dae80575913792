"""What a build may leave as it is: each part of a game's outputs (one paper's sheets, its bundle, the booklets,
the reference pages, the quick check) is remembered with a digest of its inputs and of the files it made, and a
part whose inputs digest the same while its files still hold what it made is not made again.

The record is kept in the user's cache (printkit.core.cache), one file per output folder, written only after the
files it describes have landed. It never vouches for a file by itself: a part is skipped only when every file it
made is on disk with the very bytes recorded, so a record a killed run left behind, an output edited or deleted
by hand, or another build into the same folder makes the part again rather than trusting the record.

A digest over-counts rather than misses: a part's inputs are every file it may read (the game's folder, its
layout folders, the project's icons and fonts and settings files), the print settings and the code that draws,
less only what the part is known to read through something digested already (the booklet's text and tables
reach it through its HTML, digested whole).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import Path

from printkit.core import atomic, cache, fingerprint
from printkit.core.project import CONFIG, PYPROJECT
from printkit.data.game import Game
from printkit.draw import drawcache

# what the booklet reads only as the data the game was loaded from, which its HTML shows: a change to one shows
# in the HTML or does not touch the booklet
DATA_SUFFIXES = frozenset({".yaml", ".yml", ".csv", ".tsv", ".xlsx", ".ods", ".json", ".md"})
Record = dict[str, dict[str, object]]  # part -> {"inputs": digest, "files": {path: content digest}}


def digest(*parts: object) -> str:
    """One hash of everything given, by its JSON (or repr where JSON has no form)."""
    text = json.dumps(parts, sort_keys=True, default=repr, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def code() -> str:
    """printkit's and the engines' sources, the drawing libraries and the system fonts drawn with."""
    return digest(drawcache.code_digest(), fingerprint.code(("printkit", "engine")))


def game_files(game: Game, out: Path | None, data: bool = True) -> dict[str, str | None]:
    """Each file the game's outputs may read, by path, with its content digest (None: unreadable).

    data: the files the game's data is loaded from too (YAML, tables, rules.md). The output folder (out, when
    given) is left out wherever it lies, or a build would change its own inputs.
    """
    root = game.project_folder
    folders = [game.folder, *game.layout_folders, root / "icons", root / "fonts"]
    found: dict[str, str | None] = {}
    skip = out.resolve() if out is not None else None
    for folder in dict.fromkeys(f.resolve() for f in folders if f.is_dir()):
        if skip is not None and folder.is_relative_to(skip):
            continue
        for where, subfolders, names in os.walk(folder):
            if skip is not None and Path(where).resolve() == skip:
                subfolders.clear()
                continue
            subfolders[:] = sorted(s for s in subfolders if (Path(where) / s).resolve() != skip)
            for name in sorted(names):
                path = Path(where) / name
                if data or path.suffix.lower() not in DATA_SUFFIXES:
                    found[str(path)] = drawcache.content(path)
    loose = [p for _, p in game.icons] + [root / CONFIG, root / PYPROJECT]
    loose += [root / str(spec.file) for _, spec in game.project_fonts if spec.file is not None]
    for path in loose:
        if path.is_file():
            found[str(path.resolve())] = drawcache.content(path)
    return found


def _home(out: Path) -> Path:
    """The record of builds into out: in the cache, named by the folder's resolved path."""
    name = hashlib.sha256(str(out.resolve()).encode()).hexdigest()[:32]
    return cache.folder("builds") / f"{name}.json"


def load(out: Path, slug: str) -> Record:
    """What the last builds into out recorded of the game's parts; empty when nothing (readable) was."""
    try:
        kept = json.loads(_home(out).read_text(encoding="utf-8"))
        record = kept.get(slug, {})
        return record if isinstance(record, dict) else {}
    except (OSError, ValueError, AttributeError):
        return {}


def fresh(record: Record, part: str, inputs: str) -> bool:
    """Whether part was made from these inputs and every file it made still holds what it was made as."""
    entry = record.get(part)
    if not isinstance(entry, dict) or entry.get("inputs") != inputs or not isinstance(entry.get("files"), dict):
        return False
    made = entry["files"]
    assert isinstance(made, dict)
    return all(_bytes_digest(Path(path)) == value for path, value in made.items())


def _bytes_digest(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() and not path.is_symlink() else None
    except OSError:
        return None


def entry(inputs: str, files: Mapping[Path, bytes | str | None]) -> dict[str, object]:
    """A part's record: its inputs' digest and the digest of each file it made (files it removed have none)."""
    made = {
        str(path): hashlib.sha256(data if isinstance(data, bytes) else data.encode("utf-8")).hexdigest()
        for path, data in files.items()
        if data is not None
    }
    return {"inputs": inputs, "files": made}


def remember(out: Path, records: Mapping[str, Record]) -> None:
    """Add what these games' parts were made from to the record of out, once their files have landed.

    A failure to write costs the next build time, never its outputs: a part not recorded is made again.
    """
    home = _home(out)
    try:
        kept = json.loads(home.read_text(encoding="utf-8"))
        kept = kept if isinstance(kept, dict) else {}
    except (OSError, ValueError):
        kept = {}
    for slug, record in records.items():
        mine = kept.get(slug)
        kept[slug] = {**(mine if isinstance(mine, dict) else {}), **record}
    with contextlib.suppress(OSError):
        atomic.write_text(home, json.dumps(kept, sort_keys=True))
