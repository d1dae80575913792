"""Check what one file cannot check alone: ids that must exist, ids that must be unique, texts that must render."""

from __future__ import annotations

import dataclasses
import difflib
import re
from collections.abc import Callable, Iterable, Set
from dataclasses import dataclass
from typing import Any

from printkit.core import units
from printkit.core.errors import Problem
from printkit.data import cards as card_data
from printkit.data import conditions, iconkeys, settings
from printkit.data.cards import Card, Kinds
from printkit.data.enginecards import EngineCards
from printkit.data.model import BOARD_KINDS, ICON_NAMES, Component, Deck, DeckEntry, GameFile, RuleOption
from printkit.data.yamlsource import PathT, SourceMap

# the designs besides card faces that a game's layouts: may give a layout of its own
OTHER_DESIGNS = ("back", "counter", "counter-back", "token", "reference")
_ACCENT_TABLES = ("factions", "colours", "eras")  # the tables whose rows have a colour


@dataclass(frozen=True)
class Located:
    """A card with the file it was defined in and its index there."""

    card: Card
    smap: SourceMap
    index: int
    lax: bool = False  # read from a sheet's cells, as text

    def without_pictures(self, kinds: Kinds) -> Located:
        """The same card with no art and no art fields: checked on when its pictures do not read."""
        arts = {k for k, spec in kinds.types[self.card.kind].fields.items() if spec.type == "art"}
        values = {k: v for k, v in self.card.values.items() if k not in arts}
        return dataclasses.replace(self, card=dataclasses.replace(self.card, art=None, values=values))

    def at(self, *rest: str | int) -> PathT:
        return ("cards", self.index) + rest


def _missing(what: str, name: str, known: Iterable[str]) -> str:
    known = sorted(known)
    hint = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    tail = (
        f" (did you mean {hint[0]!r}?)"
        if hint
        else (f" (expected one of: {', '.join(known)})" if 0 < len(known) <= 12 else "")
    )
    return f"no {what} {name!r}{tail}"


def _unique(items: Iterable[tuple[str, SourceMap, PathT]], what: str) -> tuple[set[str], list[Problem]]:
    seen: dict[str, tuple[SourceMap, PathT]] = {}
    problems = []
    for ident, smap, path in items:
        if ident in seen:
            first_map, first_path = seen[ident]
            first = first_map.values.get(first_path)
            where = f"{first_map.file.name}:{first.line}" if first else first_map.file.name
            problems.append(smap.problem(path, f"duplicate {what} id {ident!r} (first defined at {where})"))
        else:
            seen[ident] = (smap, path)
    return set(seen), problems


def check(
    info: GameFile,
    smap: SourceMap,
    cards: list[Located],
    *,
    all_cards: bool = True,
    icons: Set[str] = ICON_NAMES,
    kinds: Kinds | None = None,
    engine: EngineCards | None = None,
) -> list[Problem]:
    """Every cross-reference problem of one game, in no particular order.

    all_cards is false when a card file failed to load: references to cards are then
    not checked, since a missing card would only echo that file's own error.
    icons: the icon names the game may use, printkit's own and those of its icons/ folders.
    kinds: the kinds of card the game declares; engine: what its engine says of them.
    """
    kinds = kinds or Kinds.of(info.card_types, {})
    problems: list[Problem] = []

    def table(name: str, rows: Iterable[Any], what: str) -> set[str]:
        ids, found = _unique(((r.id, smap, (name, i, "id")) for i, r in enumerate(rows)), what)
        problems.extend(found)
        return ids

    factions = table("factions", info.factions, "faction")
    eras = table("eras", info.eras, "era")
    table("colours", info.colours, "colour")
    weapons = table("weapons", info.weapons, "weapon")
    table("rules", info.rules, "rule")
    table("phases", info.phases, "phase")
    table("formations", info.formations, "formation")
    table("components", info.components, "component")
    table("decks", info.decks, "deck")
    card_ids, found = _unique(((c.card.id, c.smap, c.at("id")) for c in cards), "card")
    problems.extend(found)

    def ref(ident: str | None, known: Set[str], what: str, where: SourceMap, path: PathT) -> None:
        if ident is not None and ident not in known:
            problems.append(where.problem(path, _missing(what, ident, known)))

    unit_ids = {c.id for c in info.components if c.unit}
    for i, faction in enumerate(info.factions):
        ref(faction.home_era, eras, "era", smap, ("factions", i, "home_era"))
        for j, line in enumerate(faction.recruit):
            ref(line.unit, unit_ids, "unit type", smap, ("factions", i, "recruit", j, "unit"))
    for i, era in enumerate(info.eras):
        ref(era.home_of, factions, "faction", smap, ("eras", i, "home_of"))
    for i, weapon in enumerate(info.weapons):
        ref(weapon.beats, weapons, "weapon", smap, ("weapons", i, "beats"))
    for key, parse in (("card_size", settings.card_size), ("bleed", settings.bleed)):
        text = getattr(info.print, key)
        if text is not None:
            problems.extend(_size_problem(text, smap, ("print", key), parse))
    coded: dict[str, str] = {}  # a unit code and the unit type that has it
    for i, comp in enumerate(info.components):
        if comp.unit is not None:  # players tell counters apart by their code: one unit type each
            holder = coded.setdefault(comp.unit.code, comp.name)
            if holder != comp.name:
                message = f"unit code {comp.unit.code!r} is {holder}'s already: each unit type needs a code of its own"
                problems.append(smap.problem(("components", i, "unit", "code"), message))
        problems.extend(_check_board(info, comp, smap, ("components", i), icons))
        if comp.size is not None:
            # a reference card is a card (poker, 70x110); a counter, token or marker is square (5/8in)
            parse = settings.card_size if comp.kind == "reference" else units.length
            problems.extend(_size_problem(comp.size, smap, ("components", i, "size"), parse))
        ref(comp.faction, factions, "faction", smap, ("components", i, "faction"))
        ref(comp.era, eras, "era", smap, ("components", i, "era"))
    for name, icon in info.icons.items():
        ref(icon, icons, "icon", smap, ("icons", name))
    for i, deck in enumerate(info.decks):
        ref(deck.back.icon, icons, "icon", smap, ("decks", i, "back", "icon"))
        ref(deck.icon, icons, "icon", smap, ("decks", i, "icon"))
    problems += _type_problems(info, smap, kinds, engine)
    problems += _unique_values(cards, kinds)
    # a name that no card or piece asks for is a typo: its picture would never print (unless the game names an
    # engine printkit lacks, which would ask for names only it knows: that engine's name is the problem then)
    if all_cards and (info.engine is None or engine is not None):
        asked = {k for c in cards for k in iconkeys.card_keys(c.card, kinds, engine)}
        asked |= {k for comp in info.components for k in iconkeys.component_keys(comp)}
        if any(s.eras for comp in info.components if comp.board for s in comp.board.sections):
            asked |= {era.id for era in info.eras}  # a board's era spaces show their era's icon
        for name in info.icons:
            if name not in asked:
                problems.append(
                    smap.problem(
                        ("icons", name),
                        f"icons: {_missing('card, effect or piece', name, asked)}: a name is a card's or piece's "
                        "id, an effect's kind (alone or with a unit or faction, force-hero), an era, a group or a kind",
                    )
                )
    rule_ids = {r.id for r in info.rules}
    for i, phase in enumerate(info.phases):
        for name in re.findall(r"\{([a-z_]+)\}", phase.summary):
            ref(name, rule_ids, "rule option", smap, ("phases", i, "summary"))
        for j, detail in enumerate(phase.details):
            for name in re.findall(r"\{([a-z_]+)\}", detail):
                ref(name, rule_ids, "rule option", smap, ("phases", i, "details", j))
    for i, entry in enumerate(info.glossary):
        for name in re.findall(r"\{([a-z_]+)\}", entry.means):
            ref(name, rule_ids, "rule option", smap, ("glossary", i, "means"))
    for i, option in enumerate(info.rules):
        problems += _player_text_problems(option, smap, ("rules", i, "player_text"))
        if option.choices is not None and option.value not in option.choices:
            choices = ", ".join(str(c) for c in option.choices)
            problems.append(smap.problem(("rules", i, "value"), f"expected one of {choices}, found {option.value!r}"))
        if isinstance(option.value, int) and not isinstance(option.value, bool):
            low, high = option.min, option.max
            if (low is not None and option.value < low) or (high is not None and option.value > high):
                problems.append(
                    smap.problem(("rules", i, "value"), f"expected a value from {low} to {high}, found {option.value}")
                )
    for i, deck in enumerate(info.decks):
        problems.extend(_check_deck(deck, i, smap, factions, card_ids if all_cards else None, cards, kinds, icons))
    return problems


def icon_problems(loc: Located, kinds: Kinds, icons: Set[str]) -> list[Problem]:
    """One card's icons, inline in its words and named by its icon fields, that the game does not have.
    (check() finds what lies between cards: ids, decks.)"""
    card, where = loc.card, loc.smap
    problems = []
    declared = kinds.types[card.kind]
    worded = [("name", card.name), ("flavour", card.flavour)]
    worded += [(k, card.values.get(k)) for k, spec in declared.fields.items() if spec.type in ("text", "rich")]
    for key, words in worded:  # the card's own words may show icons inline: {sword}
        for icon in re.findall(r"\{([a-z_]+)\}", words or ""):
            if icon not in icons:
                problems.append(where.problem(loc.at(key), _missing("icon", icon, icons)))
    for key, spec in declared.fields.items():
        value = card.values.get(key)
        kind = spec.item_type if spec.type == "list" else spec.type
        if kind != "icon" or value is None:
            continue
        named = value if isinstance(value, list) else [value]
        for j, icon in enumerate(named):
            if icon not in icons:
                path = loc.at(key, j) if isinstance(value, list) else loc.at(key)
                problems.append(where.problem(path, _missing("icon", icon, icons)))
    return problems


def wording_problems(loc: Located, info: GameFile, engine: EngineCards | None) -> list[Problem]:
    """The texts: templates a card's engine words its fields from, that the game lacks or that ask for a value
    the card does not have: such a card's words cannot be written."""
    card, where = loc.card, loc.smap
    problems: list[Problem] = []
    if engine is None or card.parsed is None:
        return problems
    keys = engine.template_keys(card)
    for key in keys:
        if key not in info.texts:
            problems.append(where.problem(loc.at("id"), f"card text needs the template {key!r} in game.yaml texts"))
    if all(key in info.texts for key in keys):
        try:
            engine.words(info.texts, card)
        except KeyError as exc:
            problems.append(
                where.problem(loc.at("id"), f"a text template uses {{{exc.args[0]}}}, which this card does not have")
            )
    return problems


def _unique_values(cards: list[Located], kinds: Kinds) -> list[Problem]:
    """A value two cards of a kind share in a field that says unique: true: the later card's is the error."""
    problems = []
    holders: dict[tuple[str, str, Any], str] = {}
    for loc in cards:
        declared = kinds.types[loc.card.kind]
        for key, spec in declared.fields.items():
            value = loc.card.values.get(key)
            if not spec.unique or value is None or isinstance(value, list | dict):
                continue
            first = holders.setdefault((loc.card.kind, key, value), loc.card.name)
            if first != loc.card.name:
                problems.append(
                    loc.smap.problem(
                        loc.at(key),
                        f"{key} {value} is already {first}'s: expected each {declared.one(loc.card.kind)} to have "
                        "its own",
                    )
                )
    return problems


def _type_problems(info: GameFile, smap: SourceMap, kinds: Kinds, engine: EngineCards | None) -> list[Problem]:
    """What the declared kinds of card ask that the rest of the game cannot give: a field only an engine reads when
    no engine plays the game, or one its engine does not read; a default that is no value of its field; an accent
    drawn from rows without colours; a layouts: key that names no kind."""
    problems = []
    for kind, declared in info.card_types.items():
        form = engine.forms.get(kind) if engine is not None else None
        for key, spec in declared.fields.items():
            at: PathT = ("card_types", kind, "fields", key)
            if spec.type == "engine" and info.engine is None:
                problems.append(
                    smap.problem((*at, "type"), "an engine field is read by the game's engine: game.yaml names none")
                )
            elif spec.type == "engine" and engine is not None and (form is None or key not in form.model_fields):
                problems.append(
                    smap.problem((*at, "type"), f"the {engine.engine} engine reads no field {key!r} of a {kind} card")
                )
            if spec.default is not None:
                found = card_data.value_problems(key, spec, spec.default, kinds, smap, (*at, "default"))
                problems += [
                    smap.problem((*at, "default"), f"the default is no value of this field: {p.message}")
                    for p in found[:1]
                ]
        if declared.accent is not None:
            spec = declared.fields[declared.accent]
            if spec.tables[0] not in _ACCENT_TABLES:
                problems.append(
                    smap.problem(
                        ("card_types", kind, "accent"),
                        f"accent: {declared.accent} names {spec.table} rows, which have no colour "
                        f"(expected a choice from {', '.join(_ACCENT_TABLES)})",
                    )
                )
    known = [*kinds.types, *OTHER_DESIGNS]
    for name in info.layouts:
        if name not in known:
            problems.append(
                smap.problem(("layouts", name), _missing("kind of card or design", name, known), at_key=True)
            )
    return problems


def _size_problem(text: str, smap: SourceMap, path: PathT, parse: Callable[[str], object]) -> list[Problem]:
    """A bleed, card size or length that does not parse or lies out of range."""
    try:
        parse(text)
    except ValueError as exc:
        return [smap.problem(path, str(exc))]
    return []


# spaces of one board, its sections together: a hundred by a hundred is past any board, and each is drawn on
# every build (fifty sections of that many took a minute to draw before their tiles were found too many)
MAX_BOARD_SPACES = 10_000


def _check_board(info: GameFile, comp: Component, smap: SourceMap, path: PathT, icons: Set[str]) -> list[Problem]:
    """A printed board needs its spaces described, and they must agree with the data."""
    if comp.kind in BOARD_KINDS and comp.board is None:
        return [smap.problem(path, f"a {comp.kind} needs a `board:` with its sections, to be printed")]
    if comp.board is None:
        return []
    problems = []
    total = 0
    for j, section in enumerate(comp.board.sections):
        where = (*path, "board", "sections", j)
        problems.extend(_size_problem(section.cell, smap, (*where, "cell"), settings.card_size))
        spaces = section.cols * section.rows
        total += spaces
        if total > MAX_BOARD_SPACES and total - spaces <= MAX_BOARD_SPACES:  # said once, where the count passes it
            whole = sum(s.cols * s.rows for s in comp.board.sections)
            message = f"the board's sections have {whole:,} spaces together: expected at most {MAX_BOARD_SPACES:,}"
            problems.append(smap.problem((*where, "rows"), message))
        if section.numbers and section.numbers[1] - section.numbers[0] + 1 > spaces:
            first, last = section.numbers
            problems.append(
                smap.problem(
                    (*where, "numbers"),
                    f"{last - first + 1} numbers need {last - first + 1} spaces, found {spaces} (cols x rows)",
                )
            )
        elif section.numbers and section.numbers[1] - section.numbers[0] + 1 < spaces:
            first, last = section.numbers  # a track's spaces past its last number would print blank
            problems.append(
                smap.problem(
                    (*where, "numbers"),
                    f"numbers {first}-{last} leave {spaces - (last - first + 1)} of the {spaces} spaces blank: "
                    f"number them all ({first}-{first + spaces - 1}) or give the section {last - first + 1} spaces",
                )
            )
        if len(section.labels) > spaces:
            problems.append(smap.problem((*where, "labels"), f"{len(section.labels)} labels for {spaces} spaces"))
        if len(section.row_labels) > section.rows:
            problems.append(
                smap.problem((*where, "row_labels"), f"{len(section.row_labels)} row labels for {section.rows} rows")
            )
        if len(section.col_labels) > section.cols:
            problems.append(
                smap.problem(
                    (*where, "col_labels"), f"{len(section.col_labels)} column labels for {section.cols} columns"
                )
            )
        if section.eras and len(info.eras) != spaces:
            problems.append(
                smap.problem((*where, "eras"), f"one space per era needs {len(info.eras)} spaces, found {spaces}")
            )
        if section.icon and section.icon not in icons:
            problems.append(smap.problem((*where, "icon"), _missing("icon", section.icon, icons)))
    return problems


def _check_deck(
    deck: Deck,
    i: int,
    smap: SourceMap,
    factions: set[str],
    card_ids: set[str] | None,
    cards: list[Located],
    kinds: Kinds,
    icons: Set[str],
) -> list[Problem]:
    problems = []
    if deck.faction is not None and deck.faction not in factions:
        problems.append(smap.problem(("decks", i, "faction"), _missing("faction", deck.faction, factions)))
    if deck.include is not None:
        problems += _filter_problems(deck.include, smap, ("decks", i, "include"), kinds)
    if card_ids is None:
        return problems
    for j, entry in enumerate(deck.cards):
        card_id = entry.card if isinstance(entry, DeckEntry) else entry
        path: PathT = ("decks", i, "cards", j) + (("card",) if isinstance(entry, DeckEntry) else ())
        if card_id not in card_ids:
            problems.append(smap.problem(path, _missing("card", card_id, card_ids)))
    if deck.include is None and not deck.cards:
        problems.append(smap.problem(("decks", i), "a deck needs `include:` or `cards:`, or both"))
    return problems


def _filter_problems(include: dict[str, Any], smap: SourceMap, path: PathT, kinds: Kinds) -> list[Problem]:
    """A deck's filter: each key a field some kind has (or kind, or where:), a kind one the game declares, a
    condition that parses and names known fields."""
    problems = []
    known = sorted({"kind", "where", *card_data.BUILT_IN, *kinds.fields()})
    for key, value in include.items():
        if key not in known:
            problems.append(smap.problem((*path, key), _missing("field", key, known), at_key=True))
        elif key == "kind":
            for j, kind in enumerate(value if isinstance(value, list) else [value]):
                if kind not in kinds.types:
                    place = (*path, key, j) if isinstance(value, list) else (*path, key)
                    problems.append(smap.problem(place, _missing("card kind", str(kind), set(kinds.types))))
        elif key == "where":
            problems += condition_problems(value, smap, (*path, key), set(known) - {"where"})
    return problems


def condition_problems(text: Any, smap: SourceMap, path: PathT, fields: Set[str]) -> list[Problem]:
    """A condition (layout when:, deck where:) that does not parse, or names a field no card has."""
    if not isinstance(text, str):
        return [smap.problem(path, 'expected a condition, such as "cost >= 3" or "rarity is rare"')]
    try:
        condition = conditions.parse(text)
    except conditions.ConditionError as exc:
        return [smap.problem(path, f"condition {text!r}, at character {exc.column}: {exc}")]
    out = []
    for name in condition.fields():
        if name.split(".")[0] not in fields:
            out.append(smap.problem(path, f"condition {text!r}: {_missing('field', name, fields)}"))
    return out


def choice_key(value: object) -> str:
    """How a rule option's value is spelled as a key of its player_text: true and false in lower case."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def _player_text_problems(option: RuleOption, smap: SourceMap, path: PathT) -> list[Problem]:
    """A player_text that names no {value} but {value}, or whose sentences by choice miss a choice or add one."""
    text = option.player_text
    if text is None:
        return []
    if isinstance(text, str):
        unknown = sorted(set(re.findall(r"\{([^{}]*)\}", text)) - {"value"})
        return [smap.problem(path, f"expected only {{value}} in braces, found {{{unknown[0]}}}")] if unknown else []
    if option.choices is not None:
        wanted = [choice_key(c) for c in option.choices]
    elif isinstance(option.value, bool):
        wanted = ["true", "false"]
    else:
        return [smap.problem(path, "expected one sentence: sentences by choice are for an option with choices")]
    missing = [w for w in wanted if w not in text]
    extra = [k for k in text if k not in wanted]
    if missing:
        return [smap.problem(path, f"expected a sentence for each choice; none for {missing[0]!r}")]
    if extra:
        return [smap.problem(path, f"{extra[0]!r} is not a choice of this option (choices: {', '.join(wanted)})")]
    return []
