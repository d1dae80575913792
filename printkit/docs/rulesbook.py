"""A game's rules: Markdown in cards/<slug>/rules.md whose numbers and tables come from the game's data.

The rules text is a template: `{{ rule("hand_size") }}` prints a rule option's value,
`{{ cards("tactics") }}` a table of cards with their effects written from the card data, and
so on. Every value inserted is escaped for Markdown, and Markdown's raw HTML is off, so text
from the data can never become markup.
"""

from __future__ import annotations

import html
import math
import re
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

from printkit.core import files
from printkit.core.errors import DataError, PlacedError, PrintkitError, Problem, display_path
from printkit.data import enginecards, richtext
from printkit.data.cards import Card
from printkit.data.cardtypes import words
from printkit.data.crossref import choice_key
from printkit.data.game import Game
from printkit.data.model import RECONSTRUCTED_MARK, RECONSTRUCTED_NOTE, RuleOption
from printkit.docs import examples, templating
from printkit.docs.bounded import Bounded, TooBig, TooLong, limits
from printkit.docs.examples import Replay
from printkit.draw import cardview

RULES_FILE = "rules.md"
RENDER_SECONDS = 2.0  # a bundled rulebook fills in within 10 ms; a stranger's loop of loops does not
MAX_RULES = 1_000_000  # bytes: a rulebook is tens of kilobytes
# links a booklet and the site keep: within the document, and to the web. A link to a file would become
# a path on the machine that built it; its words stay, as plain text.
LINKS_KEPT = ("#", "https://", "http://", "mailto:")
_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!<>|~])")


class Md(str):
    """Markdown built by a helper: inserted as it is, not escaped."""


def escape(value: Any) -> str:
    """Any value as literal Markdown text: punctuation backslashed, line breaks folded."""
    return _SPECIAL.sub(r"\\\1", " ".join(str(value).split()))


def _table(header: list[str], rows: list[list[Any]]) -> Md:
    lines = ["| " + " | ".join(escape(h) for h in header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(c if isinstance(c, Md) else escape(c) for c in row) + " |" for row in rows]
    return Md("\n".join(lines))


def _bullets(items: list[str]) -> Md:
    return Md("\n".join(f"- {item}" for item in items))


class RulesError(PlacedError):
    """The rules text of a game does not render: file:line:column first."""


class _Asked(Exception):
    """A helper asked for something the data lacks; placed at the template's line by render_markdown."""


@dataclass
class Helpers:
    """What a rules template may call: each reads the game's data, none writes anything."""

    game: Game
    replays: dict[str, Replay | None] = field(
        default_factory=dict
    )  # the worked examples, played before the text fills in

    def context(self) -> dict[str, Any]:
        names = [n for n in dir(self) if not n.startswith("_") and n not in ("game", "context", "replays")]
        out: dict[str, Any] = {n: getattr(self, n) for n in names}
        out |= {"title": self.game.title, "credit": self.game.info.credit, "players": self.game.info.players}
        return out

    def rule(self, rule_id: str) -> Any:
        try:
            return self.game.rule(rule_id)
        except KeyError:
            raise _Asked(f"the rules text asks for rule option {rule_id!r}, which game.yaml lacks") from None

    def deck(self, deck_id: str) -> Any:
        return self.game.deck(deck_id)

    def count_kind(self, kind: str) -> int:
        return sum(copies for d in self.game.decks for c, copies in d.entries if c.kind == kind) // max(
            1, sum(1 for d in self.game.decks if any(c.kind == kind for c, _ in d.entries))
        )

    def values(self) -> list[int]:
        return sorted({c.values["value"] for c in self.game.cards if isinstance(c.values.get("value"), int)})

    def colours(self) -> list[str]:
        return [c.name for c in self.game.info.colours]

    def value_names(self) -> Md:
        return _table(["Value", "Troop"], [[v.value, v.name] for v in self.game.info.value_names])

    def formations(self) -> Md:
        return _bullets([f"**{escape(f.name)}**: {escape(f.description)}" for f in self.game.info.formations])

    def formation_names(self) -> str:
        return ", ".join(f.name for f in self.game.info.formations)

    def faction_names(self) -> str:
        return " and ".join(f.name for f in self.game.info.factions)

    def faction_name(self, faction_id: str) -> str:
        return next(f.name for f in self.game.info.factions if f.id == faction_id)

    def era_name(self, era_id: str) -> str:
        return next(e.name for e in self.game.info.eras if e.id == era_id)

    def first_army(self) -> str:
        first = str(self.rule("first_player"))
        return next((f.name for f in self.game.info.factions if f.id == first), first)

    def advantage_cycle(self) -> str:
        weapons = {w.id: w.name for w in self.game.info.weapons}
        return ", ".join(f"{w.name} beats {weapons[w.beats]}" for w in self.game.info.weapons if w.beats)

    def eras(self) -> list[str]:
        return [e.name for e in self.game.info.eras]

    def era_table(self) -> Md:
        eras = self.game.info.eras
        if any(e.force is not None or e.home_of for e in eras):
            homes = {f.id: f.name for f in self.game.info.factions}
            return _table(
                ["Era", "Name", "Force of its period troops"],
                [
                    [
                        e.number,
                        e.name,
                        e.force if e.force is not None else f"home of the {homes.get(e.home_of or '', '')}",
                    ]
                    for e in eras
                ],
            )
        return _table(["Era", "Power"], [[e.name, e.power] for e in eras])

    def challenge_table(self) -> Md:
        eras = self.game.info.eras
        rows = []
        for a in eras:
            row: list[Any] = [a.name]
            for b in eras:
                diff = (a.power or 0) - (b.power or 0)
                row.append("tie" if diff == 0 else f"{a.name if diff > 0 else b.name} +{abs(diff)}")
            rows.append(row)
        return _table(["Challenger", *[e.name for e in eras]], rows)

    def order_table(self) -> Md:
        chars = sorted(
            (c for c in self.game.cards if {"order", "health"} <= set(c.values)), key=lambda c: c.values["order"]
        )
        if not chars:
            raise _Asked("the rules text asks for order_table(): no card has an order and a health")
        head = self.game.kind_name(chars[0].kind)
        return _table(["Order", head, "Health"], [[c.values["order"], c.name, c.values["health"]] for c in chars])

    def phases(self, detailed: bool = False) -> Md:
        """The phases numbered, each with its summary; detailed, with the lines of its details under it."""
        lines = []
        for i, p in enumerate(self.game.info.phases, start=1):
            lines.append(f"{i}. **{escape(p.name)}**: {escape(self.game.phrase(p.summary))}")
            if detailed:
                lines += [f"    - {escape(self.game.phrase(d))}" for d in p.details]
        return Md("\n".join(lines))

    def unit_table(self) -> Md:
        factions = {f.id: f.name for f in self.game.info.factions}
        units = [c for c in self.game.info.components if c.unit]
        return _table(
            ["Unit", "Side", "Force", "Move", "Start", "Counters"],
            [
                [
                    c.name,
                    factions.get(c.faction or "", ""),
                    c.unit.force,
                    c.unit.move,
                    c.unit.start,
                    self.game.printed_count(c),
                ]
                for c in units
                if c.unit
            ],
        )

    def recruit_tables(self) -> Md:
        units = {c.id: c.name for c in self.game.info.components if c.unit}
        parts = []
        for faction in self.game.info.factions:
            rows = []
            for line in faction.recruit:
                gains = [units[line.unit]] if line.unit else []
                gains += [f"draw {line.draw} card" + ("s" if line.draw > 1 else "")] if line.draw else []
                rows.append([line.roll, " and ".join(gains)])
            parts.append(f"**{escape(faction.name)}**\n\n" + _table(["Roll", "Recruit"], rows))
        return Md("\n\n".join(parts))

    def components(self) -> Md:
        rows: list[list[Any]] = [[d.deck.name, "cards", d.size, f"back: {d.deck.back.title}"] for d in self.game.decks]
        rows += [[c.name, c.kind, self.game.printed_count(c), c.note or ""] for c in self.game.info.components]
        return _table(["Part", "Kind", "Count", "Notes"], rows)

    def assumptions(self) -> Md:
        """The rules chosen where the source is silent, in the words players read: the options' ids, which a
        designer changes them by in game.yaml, are for the designer, not the table."""
        items = [escape(player_text(r)) for r in self.game.info.rules if r.origin == "reconstructed"]
        if not items:
            return Md("The rules follow their source with no gaps to fill.")
        lead = (
            "Where the source of these rules leaves a point open, this edition settles it as below; a group "
            "may agree on another way before play."
        )
        return Md(f"{lead}\n\n{_bullets(items)}")

    def glossary(self) -> Md:
        """The game's own words and what they mean, alphabetically; its rule options' values filled in."""
        entries = sorted(self.game.info.glossary, key=lambda e: e.term.casefold())
        if not entries:
            return Md("")
        return _bullets([f"**{escape(e.term)}**: {escape(self.game.phrase(e.means))}" for e in entries])

    def cards(self, selector: str) -> Md:
        """A table of the cards of a deck (by deck id) or of a kind, with their effects written from the data."""
        decks = [d for d in self.game.decks if d.deck.id == selector]
        cards = [c for c, _ in decks[0].entries] if decks else [c for c in self.game.cards if c.kind == selector]
        copies = {c.id: n for d in (decks or self.game.decks) for c, n in d.entries}
        if not cards and (decks or selector in self.game.kinds.types):
            return Md("")  # a deck or kind with no cards (yet, or while its cards' problems are fixed)
        if not cards:
            raise _Asked(f"the rules text asks for cards({selector!r}): no such deck or card kind")

        kinds = list(dict.fromkeys(c.kind for c in cards))  # a table for each kind, in the order they come
        table = Md("\n\n".join(_card_table(self.game, [c for c in cards if c.kind == k], copies) for k in kinds))
        if any(c.reconstructed for c in cards):
            table = Md(f"{table}\n\n{escape(RECONSTRUCTED_MARK)} {escape(RECONSTRUCTED_NOTE)}")
        return table

    def _replay(self, example_id: str) -> Replay | None:
        """The example played; None when the engine cannot play this data (reported as the engine's problem)."""
        if example_id not in self.replays:
            known = ", ".join(self.replays) or f"none: the game has no {examples.EXAMPLES_FILE}"
            raise _Asked(f"the rules text asks for example {example_id!r}; the examples: {known}")
        return self.replays[example_id]

    def example(self, example_id: str) -> Md:
        """A worked example: its picture, its steps numbered with what the rules made of each, and its result."""
        replay = self._replay(example_id)
        if replay is None:
            return Md("")
        parts = [escape(self.game.phrase(replay.example.intro))] if replay.example.intro else []
        if replay.example.picture:
            parts.append(f"![{escape(replay.example.title)}](diagram:example-{example_id})")
        # each printed step: its sentence, the draws told with it, its note, then what followed from it
        items: list[_Told] = []
        for step in replay.shown:
            note = escape(step.note) if step.note else None
            if step.player < 0 and not step.actor and items:  # chance no one is named for
                if step.window:  # what the draw or roll set off (a roll's result, a new turn, a Day): its own step
                    first, *rest = step.window
                    items.append(_Told(escape(_capital(first)), note=note, events=[escape(e) for e in rest]))
                    continue
                told = items[-1]  # told with the move before, ahead of that move's note: the note reads on both
                told.with_it.append(escape(re.sub(r"^draws ", "", step.action)))
                if note:
                    told.note = f"{told.note} {note}" if told.note else note
                continue
            line = escape(_capital(f"{step.actor} {step.action}".strip()))
            items.append(_Told(line, note=note, events=[escape(_capital(e)) for e in step.window]))
        lines = []
        for n, told in enumerate(items, start=1):
            lines.append(f"{n}. {told.sentence()}")
            lines += [f"    - {e}" for e in told.events]
        parts.append("\n".join(lines))
        parts.append("**Result:** " + "; ".join(escape(_capital(r)) for r in dict.fromkeys(replay.results)) + ".")
        return Md("\n\n".join(parts))

    def day_example(self, example_id: str) -> Md:
        """A worked Day of Time Line Battle: the Day's phases numbered, each with what happens in the example."""
        replay = self._replay(example_id)
        if replay is None:
            return Md("")
        told = [e for s in replay.shown for e in s.window]
        chars = {c.id: c for c in self.game.cards if {"order", "ability"} <= set(c.values)}
        found = re.search(r"Day (\d+)", told[0]) if told else None
        day = int(found.group(1)) if found else 0
        seen = replay.end.observation(0)
        dead_before = {
            (m.group(1), m.group(2))
            for s in replay.shown
            for e in s.events
            if e not in s.window
            for m in [re.match(r"(.+?)'s (.+?) takes \d+ damage and dies", e)]
            if m
        }
        in_play = {
            seat: sorted(
                (
                    chars[i]
                    for i, d in seen["deployed"][seat].items()
                    if d <= day and (replay.seats[seat], chars[i].name) not in dead_before
                ),
                key=lambda c: c.values["order"],
            )
            for seat in (0, 1)
        }
        arriving = {seat: [chars[i].name for i, d in seen["deployed"][seat].items() if d == day] for seat in (0, 1)}
        damage = [e for e in told if " damage" in e]
        deaths = [e for e in damage if e.endswith("dies")]
        dead = {(m.group(1), m.group(2)) for e in deaths for m in [re.match(r"(.+?)'s (.+?) takes", e)] if m}

        def having(kinds: tuple[str, ...]) -> list[str]:  # the Characters in play with an ability of these kinds
            return [
                f"{replay.seats[s]}'s {c.name} (Order {c.values['order']}): {' '.join(_worded(self.game, c))}"
                for s in (0, 1)
                for c in in_play[s]
                if any(a.get("kind") in kinds for a in c.values["ability"] if isinstance(a, dict))
            ]

        reducers = having(("reduce_chosen", "reduce_each_ally"))
        survivors = [
            f"{replay.seats[s]}'s " + ", ".join(c.name for c in in_play[s] if (replay.seats[s], c.name) not in dead)
            for s in (0, 1)
            if any((replay.seats[s], c.name) not in dead for c in in_play[s])
        ]
        what: dict[str, list[str]] = {
            "start-of-day": [e for e in told if " revives " in e] or ["No Character acts at the start of this Day."],
            "arrive": [f"{replay.seats[s]}: {', '.join(names)}" for s, names in arriving.items() if names]
            or ["Nobody arrives."],
            "decide": having(("attack",)) or ["No Character attacks."],
            "total": (having(("redirect_to_front",)) + damage) if not reducers else having(("redirect_to_front",)),
            "reduce": reducers or ["No Character in play reduces damage."],
            "apply": (damage if reducers else []) + (deaths or ["Nobody dies."]),
            "heal": ["Survivors heal fully: " + "; ".join(survivors)] if survivors else [],
        }
        lines = []
        if replay.example.intro:
            lines += [escape(self.game.phrase(replay.example.intro)), ""]
        if replay.example.picture:
            lines += [f"![{escape(replay.example.title)}](diagram:example-{example_id})", ""]
        for i, p in enumerate(self.game.info.phases, start=1):
            lines.append(f"{i}. **{escape(p.name)}**")
            lines += [f"    - {escape(_capital(w))}" for w in what.get(p.id, [])]
        lines += ["", "**Result:** " + "; ".join(escape(_capital(r)) for r in dict.fromkeys(replay.results)) + "."]
        return Md("\n".join(lines))

    def diagram(self, name: str) -> Md:
        return Md(f"![{escape(name.replace('-', ' '))}](diagram:{name})")


@dataclass
class _Told:
    """One numbered step of a worked example as printed: what was done, the draws that came with it, a note."""

    line: str
    with_it: list[str] = field(default_factory=list)
    note: str | None = None
    events: list[str] = field(default_factory=list)

    def sentence(self) -> str:
        text = self.line + (f" ({', '.join(self.with_it)})" if self.with_it else "")
        text += "" if text.endswith(".") else "."
        return text + (f" *{self.note}*" if self.note else "")


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def source(game: Game) -> str:
    path = game.folder / RULES_FILE
    if not path.exists() and not path.is_symlink():
        raise RulesError(f"{display_path(path)}:1:1: missing; a game's rules are written there in Markdown")
    raw = files.read(path, MAX_RULES, game.reads_from, "rules text")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise DataError([Problem(display_path(path), line, 1, "expected UTF-8 text")]) from None


def player_text(option: RuleOption) -> str:
    """A rule option as players read it: its player_text for the value set, {value} filled in; else its description."""
    text = option.player_text
    if isinstance(text, dict):
        text = text.get(choice_key(option.value))
    if text is None:
        return option.description
    return text.replace("{value}", str(option.value))


def render_markdown(game: Game) -> str:
    """The rules as plain Markdown, every include filled in from the data, in at most RENDER_SECONDS."""
    env = Bounded(finalize=lambda v: v if isinstance(v, Md) else escape(v), autoescape=False)
    text = source(game)
    played = examples.replays(game)  # the engine plays each example before, not inside, the text's limits
    try:
        with limits(RENDER_SECONDS):
            rendered = env.from_string(text).render(Helpers(game, played).context())
        if len(rendered) > MAX_RULES:
            raise _Asked(f"the rules text fills in to more than {MAX_RULES:,} characters")
        return rendered
    except TooLong as exc:
        where = f"{display_path(game.folder / RULES_FILE)}:{_template_line(exc)}:1"
        raise RulesError(
            f"{where}: the rules text took over {RENDER_SECONDS:g} s to fill in: a loop too long?"
        ) from None
    except PrintkitError:
        raise
    except MemoryError as exc:
        where = f"{display_path(game.folder / RULES_FILE)}:{_template_line(exc)}:1"
        raise RulesError(f"{where}: the rules text needs more memory to fill in than a rulebook") from None
    except (_Asked, TooBig) as exc:
        raise RulesError(f"{display_path(game.folder / RULES_FILE)}:{_template_line(exc)}:1: {exc}") from None
    except Exception as exc:  # a template error the rules' author made: name the file and line
        where = f"{display_path(game.folder / RULES_FILE)}:{_template_line(exc)}:1"
        raise RulesError(f"{where}: {type(exc).__name__}: {exc}") from None


def _template_line(exc: BaseException) -> int:
    """The rules.md line an error was raised on: a syntax error knows it; a runtime error's traceback holds it."""
    line = getattr(exc, "lineno", None)
    if line:
        return int(line)
    # Jinja gives the template's own frames the file name "<template>" and the template's line numbers
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == "<template>" and f.lineno]
    return int(frames[-1].lineno or 1) if frames else 1


@dataclass(frozen=True)
class Heading:
    level: int
    text: str
    anchor: str


def _slug(text: str, taken: dict[str, int]) -> str:
    """An anchor for a heading, unique in the document: setup, setup-2, ... taken maps each anchor handed out
    (and each base) to the next number to try, so ten thousand headings alike cost no more than ten."""
    base = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"
    anchor, n = base, taken.get(base, 2)
    while anchor in taken:
        anchor, n = f"{base}-{n}", n + 1
    taken[base] = n
    taken.setdefault(anchor, 2)
    return anchor


# A booklet shows a diagram at most this tall (and as wide as the text): booklet.DIAGRAM_HEIGHT is this
DIAGRAM_TALLEST_MM = 120.0


def _printed_width(png: bytes, tallest_mm: float = DIAGRAM_TALLEST_MM) -> str:
    """A style giving a picture the width its resolution says (a 300 ppi picture prints sharp), or nothing.

    A picture that would print taller than tallest_mm (DIAGRAM_TALLEST_MM, or less on a small page) gets the
    width that keeps it that tall, so the style sheet's limits only ever narrow it with its height following:
    never a squashed picture.
    """
    if png[12:16] != b"IHDR":
        return ""
    width = int.from_bytes(png[16:20], "big")
    height = int.from_bytes(png[20:24], "big")
    at = png.find(b"pHYs")
    if at < 0 or png[at + 12] != 1:  # no resolution, or not in pixels per metre
        return ""
    per_metre = int.from_bytes(png[at + 4 : at + 8], "big")
    if not per_metre or not height:
        return ""
    width_mm, height_mm = width / per_metre * 1000, height / per_metre * 1000
    if height_mm > tallest_mm:
        width_mm *= tallest_mm / height_mm
    # a tenth of a millimetre down, never up: a picture drawn at 300 ppi still prints at 300 or more
    return f' style="width: {math.floor(width_mm * 10) / 10:.1f}mm"'


def to_html(
    markdown: str,
    diagrams: Callable[[str], bytes | None],
    tallest_mm: float = DIAGRAM_TALLEST_MM,
    captions: Mapping[str, str] | None = None,
) -> tuple[str, list[Heading]]:
    """HTML for the rules, with an anchor on every heading; images only from the game's own diagrams, each
    at most tallest_mm tall, with its caption under it when captions has one (read once the diagram is made)."""
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    # every link is parsed as a link, so link_open below decides: a link not kept shows its words alone,
    # where markdown-it would print a javascript: or file: link as its raw [words](target) text
    md.validateLink = lambda url: True  # type: ignore[method-assign]
    tokens = md.parse(markdown)
    headings: list[Heading] = []
    taken: dict[str, int] = {}
    for i, token in enumerate(tokens):
        if token.type == "heading_open":
            text = tokens[i + 1].content
            anchor = _slug(text, taken)
            token.attrSet("id", anchor)
            headings.append(Heading(int(token.tag[1]), text, anchor))

    def image(self: Any, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
        token = tokens[idx]
        src = str(token.attrGet("src") or "")
        alt = md.utils.escapeHtml(token.content) if hasattr(md, "utils") else token.content
        if src.startswith("diagram:"):
            name = src[len("diagram:") :]
            data = diagrams(name)
            if data is not None:
                uri = templating.png_uri(data)
                img = f'<img class="diagram" src="{uri}" alt="{alt}"{_printed_width(data, tallest_mm)}>'
                caption = (captions or {}).get(name)  # a board shown in part says so
                if caption:
                    return f'<figure class="diagram">{img}<figcaption>{html.escape(caption)}</figcaption></figure>'
                return img
        return f'<span class="missing-image">[{alt}]</span>'  # no other image is ever fetched

    def link_open(self: Any, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
        href = str(tokens[idx].attrGet("href") or "")
        keep = href.startswith(LINKS_KEPT)
        env.setdefault("links", []).append(keep)
        return str(self.renderToken(tokens, idx, options, env)) if keep else ""

    def link_close(self: Any, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
        keep = env["links"].pop()
        return str(self.renderToken(tokens, idx, options, env)) if keep else ""

    md.add_render_rule("image", image)
    md.add_render_rule("link_open", link_open)
    md.add_render_rule("link_close", link_close)
    return md.renderer.render(tokens, md.options, {}), headings


def _worded(game: Game, card: Card) -> list[str]:
    """Every sentence the game's engine words a card's fields into, in the order its kind declares them."""
    return [line for lines in enginecards.words(game, card).values() for line in lines]


def _column(game: Game, card: Card, column: str, copies: dict[str, int]) -> str | Md:
    """One cell of the cards() table: a field as the card prints it, marked when reconstructed."""
    declared = game.kinds.types[card.kind]
    head, _, attr = column.partition(".")
    if column == "name":
        value: Any = card.name
    elif column == "copies":
        value = copies[card.id]
    elif column == "id":
        value = card.id
    elif attr:  # a figure of the row the card names: its era's power
        row = game.row(declared.fields[head].tables[0], card.values.get(head))
        value = getattr(row, attr, "") if row is not None else ""
        value = "" if value is None else value
    else:
        spec = declared.fields[head]
        if spec.type == "engine":
            value = " ".join(enginecards.words(game, card).get(head, []))
        elif spec.type == "rich" and card.values.get(head):  # its emphasis as Markdown's, its words escaped
            value = Md(richtext.rendered(richtext.marked(card.values[head]), escape, ("**", "**"), ("*", "*")))
        else:
            value = cardview.printed_value(game, spec, card.values.get(head))
        if value in ("", None):
            value = spec.empty or ""
    if head in card.reconstructed and not attr:
        return Md(f"{value} {escape(RECONSTRUCTED_MARK)}") if isinstance(value, Md) else f"{value} {RECONSTRUCTED_MARK}"
    return value if isinstance(value, Md) else str(value)


def _card_table(game: Game, cards: list[Card], copies: dict[str, int]) -> Md:
    """The table cards() prints: the columns the kind of its first card names (columns:), else its name, each
    field it declares but pictures, and its copies; sorted as the kind says (sort:), else in deck order."""
    kind = cards[0].kind
    declared = game.kinds.types[kind]
    shown = [c for c in cards if c.kind == kind]
    columns = declared.columns or [
        "name",
        *(k for k, spec in declared.fields.items() if spec.type not in ("art", "icon")),
        "copies",
    ]
    if declared.sort is not None:
        key = declared.sort
        shown.sort(key=lambda c: (c.get(key) is None, c.get(key) if c.get(key) is not None else 0))
    heads = []
    for column in columns:
        head, _, attr = column.partition(".")
        if column == "name":
            heads.append(game.kind_name(kind))
        elif column in ("copies", "id"):
            heads.append({"copies": "Copies", "id": "Card id"}[column])
        else:
            heads.append(words(attr) if attr else declared.fields[head].label(head))
    return _table(heads, [[_column(game, c, column, copies) for column in columns] for c in shown])
