"""The rules reference in a real headless browser (Debian's chromium): type a query, filter, and check the cards."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

from printkit import build
from printkit.data.game import Game
from printkit.data.settings import PrintSettings

SLUGS = ("torah-timeline", "battle-line")
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert Path(CHROMIUM).exists(), "the browser test needs Debian's chromium (apt-get install chromium)"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, games: dict[str, Game]) -> Path:
    out = tmp_path_factory.mktemp("build")
    only_site = frozenset({"reference"})
    build.build_all([build.Plan(games[slug], PrintSettings(), parts=only_site) for slug in SLUGS], out, workers=1)
    return out / "reference"


def test_search_and_filters_narrow_the_gallery(browser: Browser, site: Path) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844})  # a phone
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto((site / "torah-timeline" / "index.html").as_uri())
    assert page.locator("#count").text_content() == "41 of 41 cards"
    page.locator("#q").press_sequentially("rashi")
    assert page.locator("#results li h3").all_text_contents() == ["Rashi"]
    page.fill("#q", "")
    page.select_option("#kind", "sage")
    page.select_option("#group", "Gaon")
    names = page.locator("#results li h3").all_text_contents()
    assert len(names) == 6 and "Rav Saadia" in names
    page.fill("#min-power", "4")
    page.select_option("#group", "")
    assert page.locator("#count").text_content() == "12 of 41 cards"  # Tannaim (5) and Amoraim (4)
    assert errors == []
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390  # nothing runs off a phone screen


def test_keyboard_alone_reaches_the_search(browser: Browser, site: Path) -> None:
    page = browser.new_page()
    page.goto((site / "battle-line" / "index.html").as_uri())
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "q":
            break
    assert page.evaluate("document.activeElement.id") == "q"
    page.keyboard.type("Elephants")
    assert page.locator("#count").text_content() == "6 of 70 cards"
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")  # on to the type filter, then choose by keyboard
    assert page.evaluate("document.activeElement.id") in ("kind", "group")


def test_rules_anchors_and_links_work_offline(browser: Browser, site: Path) -> None:
    page = browser.new_page()
    failed: list[str] = []
    page.on("requestfailed", lambda r: failed.append(r.url))
    page.goto((site / "index.html").as_uri())
    page.click("text=Battle Line")
    page.click("a[href='#tactics-cards']")
    assert page.evaluate("location.hash") == "#tactics-cards"
    assert page.locator("#tactics-cards").is_visible()
    diagrams = page.locator("img.diagram")
    assert diagrams.count() >= 1
    assert all(size > 0 for size in diagrams.evaluate_all("imgs => imgs.map(img => img.naturalWidth)"))
    assert failed == []
