"""The digital rules reference: an offline HTML site of every game's rules and a searchable card gallery."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import markupsafe
from PIL import Image
from reportlab.lib.colors import HexColor

from printkit.core import assets, files
from printkit.core.errors import DataError
from printkit.core.units import INCH
from printkit.data.game import DeckCards, Game
from printkit.data.settings import PrintSettings
from printkit.docs import booklet, cardfacts, inline, refbalance, rulesbook, templating
from printkit.draw import legibility, raster
from printkit.sheets import cover
from printkit.sheets.designs import Face, card_faces

ABOUT = "game.json"  # in each game's folder of the site: what the front page lists
RULES_PAGE = "index.html"
CARDS_PAGE = "cards.html"
ASSETS = ("site.css", "site.js")  # beside the front page, shared by every page of the site
GALLERY_PX = 240  # the widest a card shows in the gallery, in CSS pixels: drawn at this, at twice it and for print
EAGER = 12  # the gallery's first cards, loaded at once: a screenful on a desktop
LIGHT, DARK = "#ffffff", "#1f2226"  # the page's surfaces, which the accent's text colours must read on
# the site's colours for a game that gives none (site.css's :root)
PLAIN = {"accent": "#4a5d7a", "on_accent": "#ffffff", "accent_ink": "#3b4b63", "accent_ink_dark": "#a9bbd6"}


@dataclass(frozen=True)
class Picture:
    """A drawing of one design at several resolutions: file and pixel width of each, smallest first."""

    files: tuple[tuple[str, int], ...]
    height: int  # of the smallest, whose width is files[0][1]
    dpi: int  # of the largest: the print resolution

    @property
    def src(self) -> str:
        return self.files[0][0]

    @property
    def width(self) -> int:
        return self.files[0][1]

    @property
    def srcset(self) -> str:
        return ", ".join(f"{name} {w}w" for name, w in self.files)

    @property
    def full(self) -> tuple[str, int, int]:
        """The print-resolution file, its width and height."""
        name, w = self.files[-1]
        return name, w, round(self.height * w / self.width)

    def to_json(self) -> dict[str, Any]:
        return {"files": [list(f) for f in self.files], "height": self.height, "dpi": self.dpi}


def resolutions(settings: PrintSettings) -> list[float]:
    """The resolutions a card is drawn at: the gallery's width, twice it, and the print resolution."""
    gallery = GALLERY_PX / (settings.card.width / INCH)
    return sorted({d for d in (gallery, 2 * gallery) if d < settings.dpi} | {float(settings.dpi)})


def _draw(
    game: Game, faces: list[Face], settings: PrintSettings, name: Callable[[Face], str], out: dict[str, bytes | str]
) -> list[Picture]:
    """Each face drawn at every resolution by the card sheets' own drawing, its files added to out."""
    drawn: list[list[tuple[str, int]]] = [[] for _ in faces]
    heights = [0] * len(faces)
    dpis = resolutions(settings)
    for dpi in dpis:
        for i, (face, image) in enumerate(zip(faces, raster.pictures(game, faces, 0.0, dpi), strict=True)):
            path = f"{name(face)}-{image.width}.png"
            out[path] = raster.png(image, compress_level=1, dpi=dpi)  # its resolution, for whoever prints it
            drawn[i].append((path, image.width))
            heights[i] = heights[i] or image.height
    return [Picture(tuple(d), h, round(dpis[-1])) for d, h in zip(drawn, heights, strict=True)]


def _hex(colour: Any) -> str:
    return "#{:02x}{:02x}{:02x}".format(*(round(255 * v) for v in (colour.red, colour.green, colour.blue)))


def legible(colour: str, background: str, ratio: float = legibility.NORMAL) -> str:
    """colour, darkened or lightened the least that makes text in it read on background at ratio (WCAG 2)."""
    base, under = HexColor(colour), HexColor(background)
    toward = "#000000" if legibility.luminance(under) > 0.5 else "#ffffff"
    for step in range(21):
        mixed = legibility.mix(colour, toward, step / 20)
        if legibility.contrast(mixed, under) >= ratio:
            return _hex(mixed)
    return _hex(base)


def accents(game: Game) -> dict[str, str]:
    """The game's colour (its first deck's back) and the text colours that read on it and in it, light and dark."""
    accent = game.decks[0].deck.back.colour
    light, dark = "#ffffff", "#111111"
    on = max((light, dark), key=lambda ink: legibility.contrast(HexColor(accent), HexColor(ink)))
    return {
        "accent": accent,
        "on_accent": on,
        "accent_ink": legible(accent, LIGHT),
        "accent_ink_dark": legible(accent, DARK),
    }


def _shift_headings(body: str) -> str:
    """The rules' headings one level down (the page's title is its h1), each with a link to itself."""

    def one(match: re.Match[str]) -> str:
        level, anchor, text = int(match.group(1)), match.group(2), match.group(3)
        link = f'<a class="self" href="#{anchor}" aria-label="Link to this section">#</a>'
        return f'<h{level + 1} id="{anchor}">{text}{link}</h{level + 1}>'

    return re.sub(r'<h([1-5]) id="([^"]+)">(.*?)</h\1>', one, body, flags=re.S)


def _tables_wrapped(body: str) -> str:
    """Each table in a box of its own that scrolls sideways on a narrow screen, not the page."""
    return body.replace("<table>", '<div class="table-wrap"><table>').replace("</table>", "</table></div>")


def _json_for_script(value: Any) -> str:
    """JSON safe inside a <script> element: no "</" or "<!--" can close or comment it out."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _card_decks(game: Game) -> dict[str, list[DeckCards]]:
    """Each card's id, in deck order, and the decks that hold it."""
    held: dict[str, list[DeckCards]] = {}
    for deck in game.decks:
        for card, _ in deck.entries:
            held.setdefault(card.id, [])
            if deck not in held[card.id]:
                held[card.id].append(deck)
    return held


def _rules(game: Game, diagrams: booklet.Diagrams, out: dict[str, bytes | str]) -> tuple[str, list[rulesbook.Heading]]:
    """The rules as HTML and their headings, each diagram a file of its own (added to out) that it links to."""
    used: dict[str, bytes] = {}

    def diagram_file(name: str) -> bytes | None:
        data = diagrams(name)
        if data is not None:
            used[name] = data
        return data

    if not (game.folder / rulesbook.RULES_FILE).is_file():
        return f"<p>No rules yet: write them in {rulesbook.RULES_FILE}.</p>", []
    body, headings = rulesbook.to_html(rulesbook.render_markdown(game), diagram_file, captions=diagrams.captions)
    for name, data in used.items():  # the site links its pictures as files, not inline data
        width, height = Image.open(io.BytesIO(data)).size
        uri = templating.png_uri(data)
        # the booklet's own picture width (style=) stays: the site shows a diagram no wider than it prints
        for match in set(
            re.findall(rf'<img class="diagram" src="{re.escape(uri)}" alt="[^"]*"(?: style="[^"]*")?>', body)
        ):
            picture = match.replace(
                f'src="{uri}"', f'src="diagrams/{name}.png" width="{width}" height="{height}" loading="lazy"'
            )
            # a link to the picture itself: a board or a table of cards is read larger on a phone
            body = body.replace(match, f'<a class="diagram-link" href="diagrams/{name}.png">{picture}</a>')
        out[f"diagrams/{name}.png"] = data
    body, used_icons = inline.icons_in(body, game, icon_file)  # {sword} in the rules: the icon, as cards print it
    for name in used_icons:
        out[icon_file(name)] = inline.icon_png(game, name)
    return body, headings


def icon_file(name: str) -> str:
    """Where a game's part of the site keeps an icon's picture."""
    return f"icons/{name}.png"


def game_pages(
    game: Game,
    settings: PrintSettings,
    diagrams: booklet.Diagrams | None = None,
    balance: tuple[refbalance.Run, dict[str, list[dict[str, Any]]]] | None = None,
) -> dict[str, bytes | str]:
    """A game's part of the site, by path inside reference/<slug>/: the rules and cards pages, pictures, game.json.

    balance: the figures of the game's balance report, when there is one (refbalance.read).
    """
    diagrams = diagrams or booklet.Diagrams(game, settings)
    out: dict[str, bytes | str] = {}
    body, headings = _rules(game, diagrams, out)
    parts = cardfacts.sections(body)

    held = _card_decks(game)
    faces: dict[str, Face] = {}  # each card once, as its first deck prints it
    for face in card_faces(game, settings.card_size):
        if face.card is not None and face.card.id not in faces:
            faces[face.card.id] = face
    pictures = _draw(game, list(faces.values()), settings, lambda f: f"cards/{f.deck}-{f.label}", out)
    by_id = {card.id: card for card in game.cards}
    facts = [cardfacts.facts(game, by_id[card_id], held[card_id], face.layout) for card_id, face in faces.items()]
    run, figures = balance or (None, {})
    cards = []
    for fact, picture in zip(facts, pictures, strict=True):
        name, width, height = picture.full
        words = [fact.card.name, *(v for _, v in fact.fields), *fact.rules, fact.card.flavour or ""]
        printed, runs = [], []
        for line in fact.lines:  # as the card prints it: its icons pictured, its bold and italic kept
            html_line, used_icons = inline.card_html(line, game, icon_file)
            printed.append(markupsafe.Markup(html_line))  # escaped text, with printkit's own tags only
            runs.append(inline.card_runs(line, game, icon_file))  # the card view builds the same as text nodes
            out |= {icon_file(name): inline.icon_png(game, name) for name in used_icons}
        cards.append(
            {
                "id": fact.card.id,
                "name": fact.card.name,
                "kind": fact.kind,
                "brief": fact.brief,
                "facets": fact.facets,
                "numbers": fact.numbers,
                "search": " ".join(w for w in words if w),
                "fields": fact.fields,
                "rules": fact.rules,
                "rules_html": printed,
                "rules_runs": runs,
                "flavour": fact.card.flavour or "",
                "mentions": [[s.anchor, s.title] for s in cardfacts.mentions(fact, parts)],
                "balance": figures.get(fact.card.id, []),
                "full": {"src": name, "width": width, "height": height, "dpi": picture.dpi},
                "picture": picture,
            }
        )
    about_game = about(game, _fan(game, settings, out))
    page = {
        "game": game,
        "title": game.title,
        "credit": game.info.credit,
        "about": about_game,
        "colours": accents(game),
        "root": "../",
    }
    toc = [h for h in headings if h.level <= 2]
    out[RULES_PAGE] = templating.render(
        "reference/rules.html.j2",
        **page,
        body=markupsafe.Markup(_tables_wrapped(_shift_headings(body))),
        headings=toc,
        current="rules",
    )
    shown = [{k: v for k, v in c.items() if k not in ("picture", "rules_html")} for c in cards]  # the card view's
    out[CARDS_PAGE] = templating.render(
        "reference/cards.html.j2",
        **page,
        cards=cards,
        facets=cardfacts.facets(game, facts),
        numbers=cardfacts.numbers(game, facts),
        eager=EAGER,
        run=run,
        cards_json=markupsafe.Markup(_json_for_script(shown)),
        current="cards",
    )
    out[ABOUT] = json.dumps(about_game, ensure_ascii=False) + "\n"
    return out


def _fan(game: Game, settings: PrintSettings, out: dict[str, bytes | str]) -> dict[str, Any] | None:
    """The front page's picture of the game, its files added to out: the booklet cover's fan of cards
    (cover.fan_faces chooses them), drawn at the gallery's resolution, whose cards are drawn at it already."""
    faces = cover.fan_faces(game, settings.card_size)
    if not faces:
        return None
    dpi = resolutions(settings)[0]
    # at the gallery's resolution the fan is some 780 px wide, twice what a game's box on the front page shows:
    # sharp on a dense screen; half of it, brought down, for the rest
    sharp = cover.fan(game, faces, dpi, ground=None)  # clear around the cards: the page's colour shows there
    plain = sharp.resize((round(sharp.width / 2), round(sharp.height / 2)), Image.Resampling.LANCZOS)
    files = []
    for image, resolution in ((plain, dpi / 2), (sharp, dpi)):
        name = f"cover-{image.width}.png"
        out[name] = raster.png(image, dpi=resolution)
        files.append(f"{name} {image.width}w")
    return {
        "src": f"cover-{plain.width}.png",
        "srcset": ", ".join(files),
        "width": plain.width,
        "height": plain.height,
        "alt": cover.described(game, faces),
    }


def about(game: Game, fan: dict[str, Any] | None = None) -> dict[str, Any]:
    """What the front page says of a game: its name, byline, players, length, decks, colours and picture (_fan)."""
    return {
        "slug": game.slug,
        "title": game.title,
        "byline": game.info.byline or "",
        "credit": game.info.credit,
        "players": game.info.players,
        "play_time": cover.play_time(game.info.play_time),
        "decks": [[d.deck.name, d.size] for d in game.decks],
        "cards": sum(d.size for d in game.decks),  # printed
        "designs": len({c.id for d in game.decks for c, _ in d.entries}),  # told apart: what the gallery shows
        "colours": accents(game),
        "cover": fan,
    }


_FILE = re.compile(r"^cover-[0-9]+\.png$")  # the fan: beside the game's pages
_COLOUR = re.compile(r"^#[0-9a-f]{6}$")


def _about_read(data: Any, slug: str) -> dict[str, Any]:
    """A game.json an earlier build wrote, checked field by field: a ValueError when it is not one of ours."""
    if not isinstance(data, dict) or data.get("slug") != slug:
        raise ValueError("not this game's")
    entry: dict[str, Any] = {key: str(data[key]) for key in ("slug", "title", "credit")}
    entry["byline"] = str(data.get("byline", ""))
    entry["players"] = int(data.get("players", 0)) or None
    time = data.get("play_time")
    entry["play_time"] = (
        {"words": str(time["words"]), "estimate": bool(time["estimate"]), "note": str(time.get("note", ""))}
        if isinstance(time, dict)
        else None
    )
    entry["decks"] = [[str(name), int(size)] for name, size in data.get("decks", [])]
    entry["cards"] = int(data.get("cards", 0))
    entry["designs"] = int(data.get("designs", 0))
    colours = data.get("colours") or PLAIN  # an older build's game.json has none: the site's own colours
    entry["colours"] = {k: str(colours[k]) for k in ("accent", "on_accent", "accent_ink", "accent_ink_dark")}
    if not all(_COLOUR.match(v.lower()) for v in entry["colours"].values()):
        raise ValueError("not a colour")
    entry["cover"] = None  # an older build's cover (its cards, a list) is left out: the next build draws the fan
    picture = data.get("cover")
    if isinstance(picture, dict):
        srcset = str(picture["srcset"])
        names = [part.strip().rsplit(" ", 1) for part in srcset.split(",")]
        if not _FILE.match(str(picture["src"])) or not all(
            len(n) == 2 and _FILE.match(n[0]) and re.fullmatch(r"\d+w", n[1]) for n in names
        ):
            raise ValueError("a picture outside the game's folder")
        entry["cover"] = {
            "src": str(picture["src"]),
            "srcset": srcset,
            "width": int(picture["width"]),
            "height": int(picture["height"]),
            "alt": str(picture["alt"]),
        }
    return entry


def index_page(site: Path, fresh: dict[str, str]) -> str:
    """The site's front page: the games of this build (fresh: each one's game.json, by slug) and every game
    whose pages an earlier build left in site."""
    found = {path.parent.name: path for path in sorted(site.glob(f"*/{ABOUT}"))}
    listed = {}
    for slug in sorted(set(found) | set(fresh)):
        try:
            text = fresh[slug] if slug in fresh else files.read(found[slug], 100_000, (site,))
            listed[slug] = _about_read(json.loads(text), slug)
        except (DataError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
            continue  # not a page this site wrote: leave it out
    entries = sorted(listed.values(), key=lambda e: e["title"].lower())
    return templating.render("reference/index.html.j2", games=entries, root="")


def site_assets() -> dict[str, str]:
    """The style sheet and script every page of the site shares, by name."""
    folder = assets.folder("templates") / "reference"
    return {name: (folder / name).read_text(encoding="utf-8") for name in ASSETS}
