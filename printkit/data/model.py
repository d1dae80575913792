"""The typed, immutable model of a game: what every stage of printkit reads."""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, model_validator

from printkit.data.basics import (
    Colour,
    Count,
    FontPath,
    Frozen,
    Id,
    ModulePath,
    Positive,
    Printed,
    RelativePath,
    Scalar,
    SheetPath,
    Spaces,
    Text,
)
from printkit.data.cardtypes import MAX_TYPES, CardType

Paper = Literal["a4", "letter"]

PICTURE_KINDS = (".png", ".jpg", ".jpeg", ".webp", ".svg")
FONT_KINDS = (".ttf", ".otf")  # what card art may be; draw/art.py reads each
BOARD_KINDS = ("board", "mat", "track", "strip")  # components printed full size, tiled over pages
# The icons every game may name, in its data and inline in card text as {name}; draw/iconshapes.py draws each.
_ICONS = """
atom axe beacon bomb book books boot bow burst cards chest chip claw clock cloud coin coins column
crest crossbow crown cycle dagger deflect die drops eye fire fist flag force gear grave heart helmet
horns horseshoe hourglass key lamp lance magnifier mask meteor move orb padlock portal quill rewind
rocket scroll scythe shield skull snowflake spear spyglass star stone swap sword tablets target
tornado tower vortex wall wand
"""
ICON_NAMES = frozenset(_ICONS.split())


# --- game-wide tables -------------------------------------------------------


class Seed(Frozen):
    file: Text
    note: Text | None = None


class Recruit(Frozen):
    """One line of a faction's recruit table: the die roll, the unit it brings, the cards it draws."""

    roll: Positive
    unit: Id | None = None
    draw: Count = 0


class Faction(Frozen):
    """A side, army or player colour."""

    id: Id
    name: Text
    colour: Colour
    home_era: Id | None = None
    recruit: list[Recruit] = []  # the faction's recruit roll, one line per result


class TroopColour(Frozen):
    """A suit of Troop cards (Battle Line)."""

    id: Id
    letter: Annotated[str, Field(pattern=r"^[A-Z]$")]
    name: Text
    colour: Colour


class ValueName(Frozen):
    """The name printed for a Troop value (10 = Elephants)."""

    value: Positive
    name: Text


class Formation(Frozen):
    """A formation kind, listed strongest first."""

    id: Id
    name: Text
    description: Text


class Era(Frozen):
    """A period: Torah Timeline's eras of sages or Time Line's board spaces."""

    id: Id
    name: Text
    number: Positive | None = None
    power: Count | None = None
    force: Count | None = None
    home_of: Id | None = None
    colour: Colour | None = None


class Weapon(Frozen):
    """A Soldier Battler weapon: what it beats, and whether it fights at range."""

    id: Id
    name: Text
    beats: Id | None = None
    ranged: bool = False


class Phase(Frozen):
    """A step of a turn or Day, in order."""

    id: Id
    name: Text
    summary: Text
    # the booklet's fuller account, a line each under the step ({rule_id} filled in); the summary alone is the
    # player aid's and the quick reference's
    details: list[Text] = []


class GlossaryEntry(Frozen):
    """A word the rules use in a sense of their own, and what it means; {rule_id} stands for a rule option's value."""

    term: Text
    means: Text


# the figures a study may aim at, as the balance lab's metrics name them: shares of games, 0 to 1
StudyFigure = Literal["completion", "timeouts", "stalemates", "drawishness", "balance", "advantage_first"]
MAX_STUDIES = 10
MAX_STUDY_GAMES = 200_000  # games a study plays over all its points: past this, balance runs for hours


class StudyAim(Frozen):
    """What a study looks for: the values at which a figure falls below (or rises above) a share of games."""

    figure: StudyFigure
    below: Annotated[float, Field(ge=0, le=1)] | None = None
    above: Annotated[float, Field(ge=0, le=1)] | None = None

    @model_validator(mode="after")
    def _one_bound(self) -> StudyAim:
        if (self.below is None) == (self.above is None):
            raise ValueError("expected either below or above (a share of games, such as 0.1), not both or neither")
        return self


class Study(Frozen):
    """A question `printkit balance` answers by a sweep: which values of some of the game's data meet an aim."""

    # PATH=RANGE as `printkit sweep --vary` reads it: rules.idle_turns_to_stalemate=2..14:3
    vary: list[Annotated[str, Field(pattern=r"^[^=\s]+=\S+$", max_length=500)]] = Field(min_length=1, max_length=3)
    agents: Annotated[str, Field(pattern=r"^[^,\s]+,[^,\s]+$", max_length=100)] = "random,random"
    games: Annotated[int, Field(ge=1, le=10_000)] = 200  # games a point
    aim: StudyAim
    why: Text | None = None  # what the designer wants to know, shown above the answer


class RuleOption(Frozen):
    """A number or choice the rules use, with its origin: seed, source or reconstructed."""

    id: Id
    value: Scalar
    description: Text
    origin: Literal["seed", "source", "reconstructed"]
    choices: list[Scalar] | None = None
    min: int | None = None
    max: int | None = None
    # the rule as the booklet states it to players, {value} standing for the value; an option of choices
    # (or true/false) gives a sentence for each, keyed by choice, so the booklet follows whichever is set
    player_text: Text | dict[str, Text] | None = None


class UnitStats(Frozen):
    """The figures printed on a Time Line unit counter."""

    force: Count
    move: Count
    start: Count = 0
    code: Annotated[str, Field(pattern=r"^[A-Z][A-Z0-9]{0,2}$")]  # one to three capitals, one unit type's own


class Section(Frozen):
    """A block of a board: a grid of spaces, optionally numbered (a track) or one per era."""

    title: Text | None = None
    cell: Text  # a space's size, "70x95mm"
    cols: Spaces
    rows: Spaces = 1
    labels: list[Text] = []  # one per space, row by row
    row_labels: list[Text] = []  # one per row, printed in its spaces
    col_labels: list[Text] = []  # one per column, printed in its spaces
    numbers: Annotated[list[int], Field(min_length=2, max_length=2)] | None = None  # a track: first, last
    eras: bool = False  # one space per era, in era order
    icon: Id | None = None


class BoardSpec(Frozen):
    """What a board, mat, track or strip shows."""

    sections: list[Section] = Field(min_length=1, max_length=50)  # fifty blocks is past any board


class Component(Frozen):
    """A printed part other than a card: board, mat, track, counter, token, marker, reference card."""

    id: Id
    name: Text
    kind: Literal["board", "mat", "track", "counter", "token", "marker", "reference", "die", "strip"]
    count: Printed
    per: Literal["game", "player"] = "game"
    faction: Id | None = None
    era: Id | None = None
    colour: Colour | None = None  # a piece's own colour, over its faction's or era's
    value: int | None = None
    unit: UnitStats | None = None
    shape: Literal["square", "round", "rect"] | None = None
    size: Text | None = None
    reverse: Text | None = None
    note: Text | None = None
    origin: Literal["seed", "source", "reconstructed"] = "seed"
    board: BoardSpec | None = None


class Back(Frozen):
    """The design of a deck's back."""

    title: Text
    colour: Colour
    subtitle: Text | None = None
    art: RelativePath | None = None  # a picture on the back
    icon: Id | None = None  # the deck's emblem, one of the game's icons


class DeckEntry(Frozen):
    card: Id
    copies: Printed | None = None


FilterValue = bool | int | float | Annotated[str, Field(min_length=1, max_length=200)]
# a deck's filter over the cards: a field and the value (or any of the values) it must have, kind among them;
# `where:` a condition over any fields ("cost >= 3 and rarity is rare", data/conditions.py)
DeckFilter = Annotated[
    dict[Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=40)], FilterValue | list[FilterValue]],
    Field(max_length=20),
]


class Deck(Frozen):
    """A deck: its back, and its cards as a filter over all cards and/or a list."""

    id: Id
    name: Text
    back: Back
    faction: Id | None = None
    include: DeckFilter | None = None  # {} takes every card
    art: RelativePath | None = None  # the picture of every card of the deck that names none
    cards: list[Id | DeckEntry] = []
    layout: Id | None = None  # the layout its card faces print with, over their kind's
    accent: Colour | None = None  # the colour its faces print in, where a card's kind gives none of its own
    icon: Id | None = None  # the icon its faces picture, where the game's icons: table names none for a card


class PrintDefaults(Frozen):
    """The game's print settings: the project's settings and the command line override them."""

    paper: Paper | list[Paper] | None = None  # none: both A4 and Letter
    card_size: Text | None = None
    bleed: Text | None = None
    printer_margin: Text | None = None
    margin_tolerance: Text | None = None  # past the printer margin, such as 0.5mm
    duplex: Literal["long", "short", "none"] | None = None
    cuts: Literal["auto", "shared", "separate"] | None = None
    colour: Literal["rgb", "cmyk"] | None = None  # cmyk: for a print shop
    ink_limit: Text | Positive | None = None  # cmyk: the most ink at any point, such as 240%
    pdfx: Text | Positive | None = None  # cmyk: the PDF/X-1a version, PDF/X-1a:2001 or PDF/X-1a:2003, or its year


# --- cards -------------------------------------------------------------------

# how tables of cards (booklet, reference) mark a reconstructed value, and what they say the mark means
RECONSTRUCTED_MARK = "\u2020"
RECONSTRUCTED_NOTE = "reconstructed: the source gives no figure here; this edition chose it."


# --- files -------------------------------------------------------------------


MAX_CARD_SHEETS = 50


class CardSheet(Frozen):
    """A spreadsheet the game keeps cards in, read on every build: one row a card, one column a field."""

    file: SheetPath  # a .csv or .xlsx in the game's folder
    sheet: Text | None = None  # the XLSX sheet; the first when not given


class FontSpec(Frozen):
    """A font of the game's (or the project's) own: a file in its folder, or a family the system's fontconfig knows."""

    file: FontPath | None = None
    family: Text | None = None
    # the fonts (by their names here, or printkit's) that rich text's bold, italic and bold italic words use
    bold: Id | None = None
    italic: Id | None = None
    bold_italic: Id | None = None

    @model_validator(mode="after")
    def _one_source(self) -> FontSpec:
        if (self.file is None) == (self.family is None):
            raise ValueError("expected either file (a TTF or OTF in the game's folder) or family, not both or neither")
        return self


Minutes = Annotated[int, Field(ge=1, le=24 * 60)]  # a day's play is past any game of cards


class PlayTime(Frozen):
    """How long one game takes: minutes, or the least and most of them, and where the figure comes from."""

    minutes: Minutes | Annotated[list[Minutes], Field(min_length=2, max_length=2)]
    origin: Literal["seed", "source", "reconstructed"]
    note: Text | None = None  # what a reconstructed figure rests on

    @model_validator(mode="after")
    def _in_order(self) -> PlayTime:
        if isinstance(self.minutes, list) and self.minutes[0] > self.minutes[1]:
            raise ValueError(f"expected the shorter time first, such as [20, 40], found {self.minutes}")
        return self


AGENT = re.compile(r"^(random|greedy|mcts[1-9][0-9]{0,4}(/[0-9]{1,2})?)$")


def _agent(name: str) -> str:
    """An agent's name as simulate's --agents takes it (engine/agents.py makes it), refused in the designer's words."""
    if not AGENT.match(name):
        raise ValueError(
            f"expected random, greedy, mctsN (N searches a move, 1 to 99999) or mctsN/D (each judging a position "
            f"after D random moves, 0 to 99), such as mcts400 or mcts100/0, found {name!r}"
        )
    return name


# the schema carries the pattern for editors; the check says it in words
AgentName = Annotated[str, Field(json_schema_extra={"pattern": AGENT.pattern}), AfterValidator(_agent)]


class GameFile(Frozen):
    """The contents of cards/<slug>/game.yaml."""

    title: Text
    # the name printed where room is short or the card fonts lack a letter: card footers, the bundle's cover
    short_title: Annotated[str, Field(min_length=1, max_length=60)] | None = None
    credit: Text
    # who made the game, in a few words printed on every card back ("a game by ..."); the credit goes elsewhere
    byline: Annotated[str, Field(min_length=1, max_length=80)] | None = None
    seed: Seed | None = None
    players: Annotated[int, Field(ge=1, le=8)] = 2
    play_time: PlayTime | None = None  # what the reference site's front page says a game takes
    # each kind of card the game has: its fields and what the rules call it (cards of a game that declares
    # none are of the kind plain: a text and named numbers)
    card_types: Annotated[dict[Id, CardType], Field(max_length=MAX_TYPES)] = {}
    engine: Id | None = None  # the reference engine that plays it (battle-line, ...); none: not played
    # a module in the game's folder that offers the engine engine: names (ENGINE = Engine(...)): run only where
    # the project trusts the folder ([engines] trusted in printkit.toml, or --trust)
    engine_file: ModulePath | None = None
    # the agent that plays the game best, as measured on balance's skill ladder: `expert` names it to simulate,
    # and balance's top rung plays it against MCTS 100 (the default expert when none is named)
    expert: AgentName | None = None
    print: PrintDefaults = PrintDefaults()
    factions: list[Faction] = []
    colours: list[TroopColour] = []
    value_names: list[ValueName] = []
    formations: list[Formation] = []
    eras: list[Era] = []
    weapons: list[Weapon] = []
    phases: list[Phase] = []
    user_groups: dict[Id, Text] = {}
    rules: list[RuleOption] = []
    glossary: list[GlossaryEntry] = []  # the booklet's glossary, in alphabetical order there
    studies: list[Study] = Field(default=[], max_length=MAX_STUDIES)  # sweeps `printkit balance` plays and answers
    components: list[Component] = []
    decks: list[Deck] = Field(min_length=1)
    texts: dict[Annotated[str, Field(pattern=r"^[a-z_.]+$")], Text] = {}
    layouts: dict[Id, Id] = {}  # card kind (or "back") -> layout name, when neither the kind nor the deck names one
    fonts: dict[Id, FontSpec] = {}  # fonts layouts may name beside printkit's own
    # spreadsheets of cards, beside the YAML card files; each is read on every build, so a few dozen at most
    card_sheets: list[CardSheet] = Field(default=[], max_length=MAX_CARD_SHEETS)
    icons: dict[Id, Id] = {}  # effect kind (or card kind) -> the icon pictured on the card


class CardFile(Frozen):
    """The contents of any other cards/<slug>/*.yaml: a list of cards, each checked against its kind (data/cards.py)."""

    cards: list[dict[str, Any]] = Field(min_length=1)
