"""Card pictures kept between runs: a warm run draws only what changed, and writes what a cold run writes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image

from printkit.cli import main
from printkit.data.settings import PrintSettings
from printkit.docs import refsite
from printkit.draw import drawcache

GAME = "cache-game"
CARDS = 12
SIZES = len(refsite.resolutions(PrintSettings()))  # the reference site draws each picture at every one
# each card at every size, and the deck's back once, at the card gallery's size, for the front page's fan
PICTURES = CARDS * SIZES + 1
FOUND = PICTURES + 1  # the pictures a site build looks for: the fan's card is the gallery's, found again


@pytest.fixture
def studio(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project whose game has a dozen cards, each with a picture of its own; a cache of its own, outside it."""
    monkeypatch.setenv("PRINTKIT_CACHE", str(tmp_path / "cache"))
    (tmp_path / "project").mkdir()
    tmp_path = tmp_path / "project"
    monkeypatch.chdir(tmp_path)
    assert main(["init", "-q"]) == 0
    assert main(["new", "Cache Game", "-q"]) == 0
    game = tmp_path / "cards" / GAME
    (game / "art").mkdir()
    lines = ["cards:"]
    for i in range(CARDS):
        Image.new("RGB", (300, 170), (20 * i % 255, 90, 160)).save(game / "art" / f"c{i}.png")
        lines.append(f"  - {{id: c{i}, kind: plain, name: Card {i}, text: 'Card {i} text.', art: art/c{i}.png}}")
    (game / "cards.yaml").write_text("\n".join(lines) + "\n")
    return tmp_path


def _run(*argv: str) -> drawcache.Counts:
    """One command in this process (one game: no worker processes), and how its pictures were found."""
    drawcache.counts = drawcache.Counts()
    assert main([*argv, "-q"]) == 0
    return drawcache.counts


def _outputs(out: Path) -> dict[str, bytes]:
    return {
        p.relative_to(out).as_posix(): p.read_bytes()
        for p in sorted(out.rglob("*"))
        if p.is_file() and ".cache" not in p.parts
    }


REFERENCE = ("build", GAME, "--only", "reference", "--no-check")


def test_a_warm_build_draws_only_the_changed_card_and_writes_what_a_cold_one_does(
    studio: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _run(*REFERENCE) == drawcache.Counts(kept=FOUND - PICTURES, drawn=PICTURES)
    # another output folder: the build itself is made again (an unchanged one into output would be left as it
    # stands), and its pictures come from the cache
    assert _run(*REFERENCE, "--out", "again") == drawcache.Counts(kept=FOUND, drawn=0)
    cards = studio / "cards" / GAME / "cards.yaml"
    cards.write_text(cards.read_text().replace("Card 3 text.", "Card 3 says more."))
    assert _run(*REFERENCE) == drawcache.Counts(kept=FOUND - SIZES, drawn=SIZES)
    warm = _outputs(studio / "output")
    monkeypatch.setenv("PRINTKIT_CACHE", str(studio.parent / "empty"))  # a cold run: nothing kept
    assert _run(*REFERENCE, "--out", "cold") == drawcache.Counts(kept=FOUND - PICTURES, drawn=PICTURES)
    assert _outputs(studio / "cold") == warm
    assert any("-c3-" in name for name in warm)


def test_a_picture_edited_in_place_redraws_its_card(studio: Path) -> None:
    _run(*REFERENCE)
    before = _outputs(studio / "output")
    picture = studio / "cards" / GAME / "art" / "c5.png"
    Image.new("RGB", (300, 170), (250, 250, 0)).save(picture)  # the same name and size of file
    os.utime(picture, ns=(1, 1))  # and an old time: its content alone tells
    assert _run(*REFERENCE) == drawcache.Counts(kept=FOUND - SIZES, drawn=SIZES)
    after = _outputs(studio / "output")
    changed = [name for name in after if after[name] != before.get(name)]
    assert [n for n in changed if n.endswith(".png")] == [
        f"reference/{GAME}/cards/main-c5-{w}.png" for w in (240, 480, 750)
    ]


def test_exports_share_the_kept_pictures_and_their_bytes(studio: Path) -> None:
    first = _run("export", "tts", GAME)
    assert first.drawn == CARDS + 1  # the cards and the deck's back
    tts = _outputs(studio / "output" / GAME / "tts")
    assert _run("export", "tts", GAME) == drawcache.Counts(kept=CARDS + 1, drawn=0)
    assert _outputs(studio / "output" / GAME / "tts") == tts


def test_a_damaged_kept_picture_is_drawn_again(studio: Path) -> None:
    import weasyprint  # noqa: F401  # as in a whole build: it tells Pillow to accept pictures cut short

    _run(*REFERENCE)
    before = _outputs(studio / "output")
    kept = sorted((studio.parent / "cache" / "drawings").glob("*/*.png"))
    assert len(kept) == PICTURES
    whole = kept[0].read_bytes()
    kept[0].write_bytes(whole[: len(whole) // 2])  # cut short, as by a full disk (a small picture has no 200 bytes)
    kept[1].write_bytes(b"")
    assert _run(*REFERENCE, "--out", "again") == drawcache.Counts(kept=FOUND - 2, drawn=2)
    assert _outputs(studio / "again") == before


def test_the_pictures_are_kept_outside_the_project(studio: Path) -> None:
    _run(*REFERENCE)
    assert not [p for p in studio.rglob("*") if ".cache" in p.name or p.suffix == ".part"]
    assert len(list((studio.parent / "cache" / "drawings").glob("*/*.png"))) == PICTURES


def test_pruning_drops_the_least_recently_used_first(studio: Path) -> None:
    _run(*REFERENCE)
    folder = studio.parent / "cache" / "drawings"
    kept = sorted(folder.glob("*/*.png"))
    for age, path in enumerate(kept):
        os.utime(path, ns=(10**9 * (age + 1), 10**9 * (age + 1)))  # the first is the oldest
    sizes = sum(p.stat().st_size for p in kept)
    drawcache.use(folder)
    try:
        assert drawcache.prune(sizes - 1) == 1
    finally:
        drawcache.use(None)
    assert not kept[0].exists() and all(p.exists() for p in kept[1:])


def test_a_run_walks_the_folder_only_when_its_ledger_says_the_limit_is_passed(
    studio: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A warm run stores nothing and prunes nothing; a run that stores adds its bytes to the ledger, and prunes only
    past the limit or with the ledger gone, so the folder stays bounded without a walk of it at every save."""
    walks: list[int] = []
    walked = drawcache.prune
    monkeypatch.setattr(drawcache, "prune", lambda limit=drawcache.MAX_BYTES: walks.append(limit) or walked(limit))
    folder = studio.parent / "cache" / "drawings"
    _run(*REFERENCE)  # cold: no ledger yet, so the folder is walked and its size written down
    assert len(walks) == 1
    size = sum(p.stat().st_size for p in folder.glob("*/*.png"))
    assert int((folder / drawcache.LEDGER).read_text()) == size
    _run(*REFERENCE, "--out", "warm")  # every picture kept: nothing stored, nothing to account
    assert len(walks) == 1
    cards = studio / "cards" / GAME / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("Card 3 text.", "Card 3, changed."), encoding="utf-8")
    _run(*REFERENCE, "--out", "edited")  # one picture stored: the ledger grows by its bytes, no walk
    assert len(walks) == 1
    grown = int((folder / drawcache.LEDGER).read_text())
    assert grown == sum(p.stat().st_size for p in folder.glob("*/*.png")) > size
    drawcache.use(folder)
    try:
        assert drawcache.account(1, limit=grown) is True  # one byte past the limit: walked, and pruned to it
        assert len(walks) == 2 and int((folder / drawcache.LEDGER).read_text()) <= grown
        (folder / drawcache.LEDGER).write_text("not a number")
        assert drawcache.account(1) is True  # a ledger that does not read is no reason to trust it
        assert len(walks) == 3
        assert drawcache.account(None) is True  # a run that could not count what it stored
        assert len(walks) == 4
    finally:
        drawcache.use(None)


def test_pictures_stored_by_worker_processes_are_in_the_ledger(studio: Path) -> None:
    """Two games are made by two forked workers: what they store reaches the parent's ledger all the same."""
    folder = studio.parent / "cache" / "drawings"
    _run(*REFERENCE)  # the ledger written from a walk of the folder
    assert main(["new", "Other Game", "-q"]) == 0
    assert main(["build", "--only", "reference", "--no-check", "-q", "--out", "both"]) == 0
    assert int((folder / drawcache.LEDGER).read_text()) == sum(p.stat().st_size for p in folder.glob("*/*.png"))


def test_a_kept_picture_is_written_as_the_png_it_was_kept_as(studio: Path) -> None:
    """The site writes a kept picture's stored bytes, encoding none twice: the very bytes an encoding would give."""
    import io

    from printkit.draw import raster

    drawcache.use(studio.parent / "cache" / "drawings")
    try:
        image = Image.new("RGB", (40, 30), (200, 40, 10))
        drawcache._store("ab" + "0" * 62, image, set())
        kept = drawcache._load("ab" + "0" * 62)
    finally:
        drawcache.use(None)
    assert kept is not None and drawcache.png(kept) is not None
    plain = io.BytesIO()
    kept.copy().save(plain, format="PNG", compress_level=1)
    assert raster.png(kept, compress_level=1) == plain.getvalue() == drawcache.png(image)
    assert drawcache.png(kept.crop((0, 0, 20, 20))) is None  # a picture made from it is its own
    assert drawcache.png(kept.convert("L")) is None


def test_a_picture_made_from_a_kept_one_never_takes_its_bytes_once_it_is_gone() -> None:
    """A resized kept picture, copied after the kept one is freed: the copy often lands where it was (its id),
    and used to be written as the kept picture's PNG (a Tabletop Simulator thumbnail came out full size)."""
    for _ in range(100):
        kept = Image.new("RGB", (40, 30), (200, 40, 10))
        drawcache._remember(kept, b"the kept picture's PNG")
        resized = kept.resize((20, 15))
        del kept
        small = resized.copy()
        assert drawcache.png(small) is None and drawcache.png(resized) is None
