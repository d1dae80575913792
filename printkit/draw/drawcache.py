"""Card pictures kept between runs, found by a content hash of everything that draws them.

A picture of a design (a card face, a back, a counter) at some resolution is what the reference
site, `export png`, the TTS sheets, the print-shop packs and `preview` are made of; drawing and
rasterising one costs tens of milliseconds, so a run that changes one card of a hundred should pay
for one. Each picture is stored under a key hashing what draws it: printkit's own code and the
libraries that draw, the layout's resolved regions and files, the card's fields, the game's fonts
and icons, the size, bleed and resolution. Files read while drawing (pictures, icons, a game's own
fonts) are noted as the design is drawn and stored with it by content hash, so a picture edited in
place is seen although its path, and so the key, is the same. A stored picture is the exact pixels
once rendered, kept as lossless PNG, so a warm run writes the same bytes as a cold one.

The card sheets themselves are drawn whole every build: reportlab numbers a font subset's glyphs in
the order a document first uses them, so a card's drawing operators depend on the cards before it
and cannot be kept apart from them.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import io
import json
import multiprocessing
import os
import stat
import time
import weakref
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from PIL import Image

from printkit.core import atomic, cache, decoding, fingerprint
from printkit.core.noting import Noted

MAX_BYTES = 1_000_000_000  # the folder's size kept after a run; the least recently used go first
LEDGER = "size"  # the folder's size as the last run left it: a run adds what it stored, and walks the folder only
LEDGER_DAYS = 1  # when that passes the limit, or the ledger is this old (runs at once may each miss the other's)
VERSION = 1  # of the stored format
DRAWING_LIBRARIES = ("reportlab", "pypdfium2", "pillow", "svglib", "python-bidi", "rl_accel")

_folder: Path | None = None  # where the pictures are kept this run; None keeps none
_stored: Any = None  # bytes stored while kept() holds, a value shared with the workers it forks; None: not counted


class Drawing(Protocol):
    """What a picture is drawn from: a layout (with name, files, regions), fields and a trim size."""

    @property
    def layout(self) -> Any: ...
    @property
    def fields(self) -> dict[str, Any]: ...
    @property
    def size(self) -> tuple[float, float]: ...


def use(folder: Path | None) -> None:
    """Keep pictures in folder from now on (None: keep none); worker processes forked later inherit it."""
    global _folder
    _folder = folder


@contextlib.contextmanager
def kept() -> Iterator[None]:
    """Pictures kept in the user's cache (printkit.core.cache) for the block; after it, what the block stored goes in
    the folder's ledger, and the least recently used are pruned when that says the folder is past its limit."""
    global _stored
    before, counted = _folder, _stored
    use(cache.folder("drawings"))
    try:
        _stored = _tally()
        yield
        stored = None if _stored is None else int(_stored.value)
        if stored != 0:  # only a picture stored can take the folder past its limit; None: not known, so look
            account(stored)
    finally:
        use(before)
        _stored = counted


def _tally() -> Any:
    """A count of bytes that workers forked from here add to as well; None where no shared memory is to be had."""
    try:
        return multiprocessing.Value("q", 0)
    except OSError:
        return None


def account(stored: int | None, limit: int = MAX_BYTES) -> bool:
    """Add the bytes a run stored (None: not known) to the folder's ledger, and prune when it says the folder
    passed limit (or it is missing, unreadable or a day old): a run that stores a picture among thousands need
    not walk them all. Whether it pruned."""
    if _folder is None:
        return False
    ledger = _folder / LEDGER
    try:
        total = int(ledger.read_text(encoding="ascii")) + (stored or 0)
        fresh = stored is not None and time.time() - ledger.stat().st_mtime < LEDGER_DAYS * 86_400
    except (OSError, ValueError):
        total, fresh = limit + 1, False
    if fresh and total <= limit:
        with contextlib.suppress(OSError):
            atomic.write_bytes(ledger, str(total).encode("ascii"))
        return False
    prune(limit)
    return True


_reads: Noted[Path] = Noted("reads")
note = _reads.note  # a file the design being drawn has read: its picture is stale when the file's content changes
noting = _reads.recording  # the files read while the block draws, as note() is told of them


@functools.cache
def _code() -> str:
    """printkit's source and the drawing libraries' versions: a new printkit or library redraws everything."""
    digest = hashlib.sha256(f"{VERSION} {fingerprint.code(('printkit',), DRAWING_LIBRARIES)}".encode())
    from printkit.draw import fonts

    for name in fonts.FAMILIES:  # the system's fonts printkit draws with, by where they are and when written
        try:
            path = fonts.font_file(name)
            stamp = path.stat()
            digest.update(f"{name} {path} {stamp.st_size} {stamp.st_mtime_ns}".encode())
        except (OSError, fonts.FontMissing):
            digest.update(f"{name} missing".encode())
    return digest.hexdigest()


def code_digest() -> str:
    """What every kept picture is keyed by besides its design: printkit, the drawing libraries, the system fonts."""
    return _code()


@functools.lru_cache(maxsize=4096)
def _content(path: Path, size: int, mtime: int) -> str:
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def content(path: Path) -> str | None:
    """The file's content hash (read once per version of it); None when it cannot be read or is no regular file."""
    try:
        stamp = path.stat()
        if not stat.S_ISREG(stamp.st_mode):  # a named pipe would wait for a writer, a device never end
            return None
        return _content(path, stamp.st_size, stamp.st_mtime_ns)
    except OSError:
        return None


def key(design: Drawing, context: str, bleed: float, dpi: float, page: tuple[float, float] | None) -> str:
    """The hash naming a design's picture: what draws it, apart from the files it reads (stored with it)."""
    layout = design.layout
    what = json.dumps(
        [
            _code(),
            context,
            layout.name,
            [str(f) for f in layout.files],
            repr(layout.design_size),
            repr(layout.regions),
            design.fields,
            list(design.size),
            bleed,
            dpi,
            list(page) if page else None,
        ],
        sort_keys=True,
        default=repr,
        ensure_ascii=False,
    )
    return hashlib.sha256(what.encode()).hexdigest()


@dataclass
class Counts:
    """How a run's pictures were found: kept from before, or drawn now."""

    kept: int = 0
    drawn: int = 0


counts = Counts()


# a live kept picture's PNG bytes, by the picture's id. Not in its info, which every picture made from it copies:
# once it was gone, such a copy could be given its id, and so its bytes. An entry goes as its picture does,
# before the id can be another's.
_PNGS: dict[int, bytes] = {}


def _remember(image: Image.Image, png: bytes) -> None:
    if id(image) not in _PNGS:
        weakref.finalize(image, _PNGS.pop, id(image), None)
    _PNGS[id(image)] = png


def png(image: Image.Image) -> bytes | None:
    """The PNG (compression level 1) a kept or just-stored picture was stored as, so a run that writes it as
    such encodes it no second time; None for any other image, one cropped, resized or copied from it included."""
    return _PNGS.get(id(image))


def _path(name: str) -> Path | None:
    return _folder / name[:2] / f"{name}.png" if _folder is not None else None


def _load(name: str) -> Image.Image | None:
    """The kept picture of that key, when every file it read still has the content it had; else None."""
    path = _path(name)
    if path is None:
        return None
    try:
        data = path.read_bytes()
        header, _, png = data.partition(b"\n")
        read = json.loads(header)
        if any(content(Path(file)) != digest for file, digest in read.items()):
            return None
        image = Image.open(io.BytesIO(png), formats=["PNG"])
        decoding.load_whole(image)  # a kept file cut short is drawn again, even after WeasyPrint is imported
        _remember(image, png)
        os.utime(path)  # recently used: the pruning keeps it
    except (OSError, ValueError, SyntaxError, Image.DecompressionBombError):  # absent, damaged or unreadable
        return None
    return image


def _store(name: str, image: Image.Image, read: set[Path]) -> None:
    path = _path(name)
    if path is None:
        return
    digests = {str(file): content(file) for file in sorted(read)}
    if None in digests.values():  # a file that vanished while drawing: nothing worth keeping
        return
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)
    _remember(image, out.getvalue())
    data = json.dumps(digests).encode() + b"\n" + out.getvalue()
    with contextlib.suppress(OSError):  # a cache that cannot be written costs time, never the run
        atomic.write_bytes(path, data)
        if _stored is not None:
            with _stored.get_lock():
                _stored.value += len(data)


def pictures(
    designs: Sequence[Drawing],
    context: str,
    bleed: float,
    dpi: float,
    page: tuple[float, float] | None,
    draw: Callable[[Sequence[Drawing], list[set[Path]]], list[Image.Image]],
) -> list[Image.Image]:
    """Each design's picture, kept ones from the folder and the rest drawn (all at once) by draw.

    context: the game-wide inputs of the drawing (its fonts, icons, folders), as text.
    draw(designs, reads): their pictures, in order, appending to reads the files each design read.
    """
    names = [key(design, context, bleed, dpi, page) for design in designs]
    found: list[Image.Image | None] = [_load(name) for name in names]
    missing = [i for i, image in enumerate(found) if image is None]
    if missing:
        reads: list[set[Path]] = []
        drawn = draw([designs[i] for i in missing], reads)
        for i, image, read in zip(missing, drawn, reads, strict=True):
            found[i] = image
            _store(names[i], image, read)
    counts.kept += len(designs) - len(missing)
    counts.drawn += len(missing)
    return [image for image in found if image is not None]


def prune(limit: int = MAX_BYTES) -> int:
    """Delete the least recently used pictures until the folder holds at most limit bytes, and write its size in
    the ledger; how many went."""
    if _folder is None or not _folder.is_dir():
        return 0
    for sub in _folder.iterdir():  # what a killed run was writing
        if sub.is_dir():
            atomic.sweep(sub)
    kept = []
    for path in _folder.glob("*/*.png"):
        with contextlib.suppress(OSError):
            stamp = path.stat()
            kept.append((stamp.st_mtime_ns, stamp.st_size, path))
    total = sum(size for _, size, _ in kept)
    gone = 0
    for _, size, path in sorted(kept):
        if total <= limit:
            break
        with contextlib.suppress(OSError):
            path.unlink()
            total -= size
            gone += 1
    with contextlib.suppress(OSError):
        atomic.write_bytes(_folder / LEDGER, str(total).encode("ascii"))
    return gone
