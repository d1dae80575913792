"""The rules reference in a real headless browser (Debian's chromium): search, filters and the card view by mouse
and by keyboard, the address that keeps them, axe-core's accessibility rules, a page budget, no layout shift,
print and dark styles, and screenshots of the finished site written to output/screenshots/."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, sync_playwright

from printkit import build
from printkit.data.game import Game
from printkit.data.settings import PrintSettings
from printkit.docs import refsite

SLUGS = ("torah-timeline", "battle-line", "soldier-battler")
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
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
SCREENSHOTS = Path(__file__).resolve().parent.parent / "output" / "screenshots"
BUDGET = 300_000  # bytes of HTML, CSS and JS a page may load, pictures left out
# every layout shift the page makes by itself, summed as Lighthouse's CLS does (one session, no input)
CLS_SCRIPT = """
window.__cls = 0;
new PerformanceObserver(list => {
  for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__cls += entry.value;
}).observe({type: "layout-shift", buffered: true});
"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert Path(CHROMIUM).exists(), "the browser test needs Debian's chromium (apt-get install chromium)"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield b
        b.close()


def _balance_report(out: Path, game: Game) -> None:
    """A real, small balance report in the game's output folder, as `printkit balance` writes it."""
    from engine import cardvalue, findings, registry, simulate, stats
    from printkit.docs import balance

    names = registry.build(game).card_names()
    records = simulate.run(simulate.Plan(game.folder, ("random", "random"), 40, 1))
    figures = stats.summarise(records, names)
    figures["card_values"] = {"agent": "random", "cards": cardvalue.values(game.folder, names, "random", 20, 1)}
    figures["explained"] = findings.endings(figures)
    run = {"game": game.slug, "agents": ["random", "random"], "games": 40, "seed": 1}
    balance.write(out / game.slug / "balance", game.title, figures, run, records, pdf=False)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, games: dict[str, Game]) -> Path:
    out = tmp_path_factory.mktemp("build")
    _balance_report(out, games["soldier-battler"])
    only_site = frozenset({"reference"})
    build.build_all([build.Plan(games[slug], PrintSettings(), parts=only_site) for slug in SLUGS], out, workers=1)
    return out / "reference"


def _page(browser: Browser, size: dict[str, int] = DESKTOP, **options: Any) -> tuple[Page, list[str]]:
    """A fresh page that records script errors and every request that is not for a file of the site."""
    page = browser.new_page(viewport=size, **options)  # type: ignore[arg-type]
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(f"script error: {e}"))
    # a picture still loading when a link is followed is dropped (ERR_ABORTED): no fault of the site
    page.on("requestfailed", lambda r: None if "ABORTED" in str(r.failure) else problems.append(f"failed: {r.url}"))
    page.on("request", lambda r: None if r.url.startswith(("file:", "data:")) else problems.append(f"network: {r.url}"))
    return page, problems


def _uri(site: Path, address: str) -> str:
    """The file: address of a page of the site, with its ?query and #fragment kept as they are."""
    path, mark, rest = address.partition("?") if "?" in address else address.partition("#")
    return (site / path).as_uri() + mark + rest


def _count(page: Page) -> str:
    return str(page.locator("#count").text_content())


def _names(page: Page) -> list[str]:
    return page.locator("#results li.tile:not([hidden]) .tile-name").all_text_contents()


def test_search_and_filters_narrow_the_gallery_and_live_in_the_address(browser: Browser, site: Path) -> None:
    page, problems = _page(browser, PHONE)
    page.goto((site / "torah-timeline" / "cards.html").as_uri())
    assert _count(page) == "41 of 41 cards"
    page.locator("#q").press_sequentially("rashi")
    assert _names(page) == ["Rashi"]
    assert "q=rashi" in page.url
    page.fill("#q", "")
    assert page.locator("#panel").is_hidden()  # on a phone the filters fold away behind one button
    page.click("#more")
    page.click("text=Sage")
    page.click("label.chip:has-text('Gaon')")
    names = _names(page)
    assert len(names) == 6 and "Rav Saadia" in names
    assert "era=Gaon" in page.url and "kind=Sage" in page.url
    page.fill("#min-power", "4")
    page.locator("fieldset[data-facet=era] label.chip").first.click()  # every era again
    assert _count(page) == "12 of 41 cards"  # Tannaim (5) and Amoraim (4)
    shared = page.url
    page.go_back()  # the era chosen before comes back, with the Power typed after it: no Gaon has 4
    assert "era=Gaon" in page.url and _count(page) == "0 of 41 cards" and page.locator("#none").is_visible()
    assert page.locator("fieldset[data-facet=era] input:checked").get_attribute("value") == "Gaon"
    page.go_back()
    assert "power" not in page.url and len(_names(page)) == 6
    page.goto(shared)  # a bookmark or a shared link opens on the same cards
    assert _count(page) == "12 of 41 cards"
    assert page.locator("#active").text_content() == "2"  # the folded filters say how many are set
    page.click("#more")
    assert page.locator("#min-power").input_value() == "4"
    page.select_option("#sort", "power")
    briefs = page.locator("#results li.tile:not([hidden]) .tile-brief").all_text_contents()
    eras = [b.split(" · ")[0] for b in briefs]
    assert set(eras) == {"Tanna", "Amora"} and eras == sorted(eras, key=["Tanna", "Amora"].index)  # Power 5, then 4
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # nothing runs off the screen
    assert problems == []


def test_every_interaction_works_by_keyboard(browser: Browser, site: Path) -> None:
    page, problems = _page(browser)
    page.goto((site / "battle-line" / "cards.html").as_uri())

    def tab_to(test: str, limit: int = 80, key: str = "Tab") -> None:
        for _ in range(limit):
            page.keyboard.press(key)
            if page.evaluate(test):
                return
        raise AssertionError(f"Tab never reached {test}")

    tab_to("document.activeElement.id === 'q'")
    page.keyboard.type("Elephants")
    assert _count(page) == "6 of 70 cards"
    tab_to("document.activeElement.name === 'colour'")  # the colour chips, one stop for the group
    page.keyboard.press("ArrowRight")  # the first colour after "All"
    assert _count(page) == "1 of 70 cards" and _names(page) == ["Red 10"]
    assert "colour=Red" in page.url
    tab_to("document.activeElement.classList.contains('tile-link')")
    opened = page.evaluate("document.activeElement.id")
    page.keyboard.press("Enter")
    assert page.locator("#detail").evaluate("d => d.open")
    assert page.locator("#detail-name").text_content() == "Red 10"
    assert page.url.endswith("#card-R10") and "colour=Red" in page.url
    page.keyboard.press("Escape")
    assert not page.locator("#detail").evaluate("d => d.open")
    assert page.evaluate("document.activeElement.id") == opened  # focus returns to the card it left from
    # the address is put back when the dialog's close event runs, a moment after the key: a loaded machine lags
    page.wait_for_function("!location.hash.startsWith('#card-')", timeout=5000)
    assert "#card-" not in page.url and "colour=Red" in page.url
    tab_to("document.activeElement.id === 'clear'", key="Shift+Tab")
    page.keyboard.press("Enter")
    assert _count(page) == "70 of 70 cards"
    assert problems == []


def test_a_card_view_has_a_permalink_every_fact_and_the_balance_figures(browser: Browser, site: Path) -> None:
    page, problems = _page(browser)
    page.goto((site / "soldier-battler" / "cards.html").as_uri() + "#card-swordsman")  # a permalink, opened cold
    dialog = page.locator("#detail")
    assert dialog.evaluate("d => d.open")
    assert page.locator("#detail-name").text_content() == "Swordsman"
    # the card at print resolution: the print settings' dpi across the card's width
    settings = PrintSettings()
    width = round(settings.card.width / 72 * settings.dpi)
    page.wait_for_function("document.getElementById('detail-img').complete")
    assert page.locator("#detail-img").evaluate("i => i.naturalWidth") == width
    fields = dict(
        zip(
            page.locator("#detail-fields dt").all_text_contents(),
            page.locator("#detail-fields dd").all_text_contents(),
            strict=True,
        )
    )
    # the seed gives no HP: the figure is marked as reconstructed
    assert fields["Weapon"] == "Sword" and fields["HP"] == "80 † reconstructed" and fields["Beats"] == "Axe"
    assert fields["Decks"] == "Red Army deck, Blue Army deck"
    assert any(line.startswith("Melee:") for line in page.locator("#detail-lines li").all_text_contents())
    links = page.locator("#detail-links a")
    assert "Attacking" in links.all_text_contents()
    figures = page.locator("#detail-figures dt").all_text_contents()
    assert figures == ["Played in a player's game", "Wins when played", "Worth (restricted play)"]
    assert all("95% interval" in w for w in page.locator("#detail-figures .words").all_text_contents())
    page.click("#next")
    assert page.url.endswith("#card-") is False and "#card-" in page.url
    step = page.locator("#detail-name").text_content()
    assert step != "Swordsman"
    links = page.locator("#detail-links a")
    href = links.first.get_attribute("href")
    assert href and href.startswith("index.html#")
    links.first.click()
    assert page.locator(f"[id='{href.split('#')[1]}']").is_visible()  # the rules section it named
    page.go_back()
    assert dialog.evaluate("d => d.open")  # back to the card the rules were opened from
    assert page.locator("#detail-name").text_content() == step
    assert problems == []


def test_gallery_pictures_are_drawn_at_their_real_size_in_two_columns_on_a_phone(browser: Browser, site: Path) -> None:
    for scale in (1, 2, 3):
        page, problems = _page(browser, PHONE, device_scale_factor=scale)
        page.goto((site / "battle-line" / "cards.html").as_uri())
        page.wait_for_load_state("load")
        tiles = page.locator("#results li.tile img")
        first = tiles.nth(0).bounding_box()
        second = tiles.nth(1).bounding_box()
        assert first and second and second["x"] > first["x"] + first["width"]  # side by side: two columns
        for i in range(4):  # the first row and the next: loaded eagerly, so their choice of picture is made
            img = tiles.nth(i)
            img.evaluate("i => i.decode()")
            # the pixels of the file the browser chose from the srcset, against the room it fills on screen
            natural, shown = img.evaluate(
                "i => [Number(i.srcset.split(', ').find(s => i.currentSrc.endsWith(s.split(' ')[0])).split(' ')[1]"
                ".slice(0, -1)), i.getBoundingClientRect().width]"
            )
            assert natural >= shown * scale - 1, (scale, natural, shown)  # never stretched past its pixels
            assert natural <= max(shown * scale * 2.2, 240)  # nor far bigger than the screen needs
        assert tiles.nth(0).get_attribute("width") and tiles.nth(0).get_attribute("height")  # its room reserved
        assert problems == []
        page.close()


def test_battle_line_pages_keep_to_the_budget_and_do_not_shift(browser: Browser, site: Path) -> None:
    shared = sum((site / name).stat().st_size for name in refsite.ASSETS)
    for page_name in (refsite.CARDS_PAGE, refsite.RULES_PAGE):
        size = (site / "battle-line" / page_name).stat().st_size + shared
        assert size < BUDGET, f"{page_name}: {size:,} bytes of HTML, CSS and JS"
    for html in site.rglob("*.html"):  # every picture a file of its own, loaded lazily, never inline data
        assert "data:image" not in html.read_text(encoding="utf-8"), html
    page, problems = _page(browser)
    page.add_init_script(CLS_SCRIPT)
    page.goto((site / "battle-line" / "cards.html").as_uri())
    page.wait_for_load_state("load")
    page.wait_for_timeout(300)
    first = page.locator("#results li.tile img").first
    box = first.bounding_box()
    assert box and box["y"] + box["height"] <= DESKTOP["height"] and first.evaluate("i => i.complete")
    assert page.evaluate("window.__cls") < 0.01
    assert problems == []


def _serious(page: Page) -> list[str]:
    # preload off: axe would fetch the style sheets again itself, which a file: page may not; its rules read
    # the styles the page has applied all the same
    results = Axe().run(page, options={"resultTypes": ["violations"], "preload": False})
    return [
        f"{v['id']} ({v['impact']}): {v['help']} - {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_serious_problem(browser: Browser, site: Path, scheme: str) -> None:
    found: dict[str, list[str]] = {}
    for size in (DESKTOP, PHONE):
        page, problems = _page(browser, size, color_scheme=scheme)
        for name, url in (
            ("landing", "index.html"),
            ("rules", "battle-line/index.html"),
            ("gallery", "torah-timeline/cards.html"),
            ("card view", "soldier-battler/cards.html#card-axeman"),
        ):
            page.goto(_uri(site, url))
            page.wait_for_load_state("load")
            found[f"{name} at {size['width']} px"] = _serious(page)
        assert problems == [], problems
        page.close()
    assert found == {name: [] for name in found}


def test_rules_have_a_contents_that_stays_and_anchors_that_work_offline(browser: Browser, site: Path) -> None:
    page, problems = _page(browser)
    page.goto((site / "index.html").as_uri())
    page.click("h2 >> text=Battle Line")
    page.click(".toc-side a[href='#tactics-cards']")
    assert page.evaluate("location.hash") == "#tactics-cards"
    assert page.locator("#tactics-cards").is_visible()
    contents = page.locator(".toc-side")
    box = contents.bounding_box()
    assert box and 0 <= box["y"] < DESKTOP["height"]  # still on screen, far down the rules
    page.wait_for_function("document.querySelector('.toc-side a[aria-current]') !== null")
    assert page.locator(".toc-side a[aria-current]").get_attribute("href") == "#tactics-cards"
    diagrams = page.locator("img.diagram")
    assert diagrams.count() >= 1
    for index in range(diagrams.count()):  # the setup picture, the formations and the worked example
        diagram = diagrams.nth(index)
        diagram.scroll_into_view_if_needed()
        page.wait_for_function("img => img.complete", arg=diagram.element_handle())
        assert diagram.evaluate("img => img.naturalWidth") > 0
    page.set_viewport_size(PHONE)  # on a phone the contents fold into a bar that stays at the top
    assert contents.is_hidden() and page.locator(".toc-drop").is_visible()
    assert problems == []


def test_print_and_dark_styles(browser: Browser, site: Path) -> None:
    page, problems = _page(browser, color_scheme="dark")
    page.goto((site / "battle-line" / "cards.html").as_uri())
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background != "rgb(244, 242, 237)" and sum(int(v) for v in background[4:-1].split(",")) < 150
    page.emulate_media(media="print")
    assert page.locator("#filters").is_hidden() and page.locator(".tabs").is_hidden()
    assert page.locator("#results li.tile").first.is_visible()
    assert page.locator(".tile-rules").nth(60).is_visible()  # a Tactics card's text prints with its picture
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(255, 255, 255)"
    page.goto((site / "battle-line" / "index.html").as_uri())
    assert page.locator(".toc-side").is_hidden() and page.locator("#formations").is_visible()
    assert len(page.pdf()) > 10_000  # the rules print, whole
    assert problems == []


def test_screenshots_of_the_finished_site(browser: Browser, site: Path) -> None:
    """The landing page, a gallery and a card view at a desktop's and a phone's width, as artefacts."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shots = {
        "landing": "index.html",
        "rules": "battle-line/index.html",
        "gallery": "battle-line/cards.html",
        "card-view": "soldier-battler/cards.html#card-axeman",
    }
    for size in (DESKTOP, PHONE):
        page, problems = _page(browser, size)
        for name, url in shots.items():
            page.goto(_uri(site, url))
            page.wait_for_load_state("load")
            target = SCREENSHOTS / f"{name}-{size['width']}.png"
            page.screenshot(path=str(target))
            assert target.stat().st_size > 10_000
        assert problems == []
        page.close()
