"""A game's play.yaml, the rules language's vocabulary: its parts, a zone's and a move's keys, the effects and the
words they take. engine/play reads rules by these names; the JSON Schema an editor checks play.yaml with is made from
them, so the two never name different keys.

The schema describes the file's shape. What only the reader can judge (an expression's names, a zone a move names,
bounds that hang on the game) stays with engine/play/book.py, which says it at its place; the schema lets any
expression through as text or a number.
"""

from __future__ import annotations

from typing import Any

TOP = (
    "players",
    "counters",
    "zones",
    "drawing",
    "setup",
    "turn",
    "moves",
    "checks",
    "effects",
    "end",
    "cap",
    "heuristic",
    "patterns",
)  # the parts of play.yaml
ZONE_KEYS = (
    "per", "cards", "visible", "order", "limit", "overflow", "holds", "slots", "slot",
    "grid", "home", "reach", "enter_enemy_home", "marks", "hit_points", "reserve", "piles",
)  # fmt: skip
MOVE_KEYS = ("id", "number", "card", "target", "to", "if", "spend", "do", "plays", "ends_turn", "says")
REACHES = ("nearest_in_column", "opposite_row_only", "anywhere")  # the reaches a grid's card may have
WHO = ("me", "opponent", "each")  # whom an effect is for
EFFECTS = (
    "gain", "lose", "set", "move", "draw", "deal", "first_player", "reveal", "later", "let", "apply", "roll", "win",
    "mark", "damage",
)  # fmt: skip
WORDS = ("end_turn", "extra_turn", "draw_game")  # effects that are a word alone
PATTERN_KEYS = ("size", "kinds", "needs", "suit", "rank", "wild", "wild_ranks", "like")  # a pattern's (patterns:)
NEEDS = ("run", "suited", "same")  # what a kind of set may need of its cards (engine/play/patterns.py reads them)

_EXPR: dict[str, Any] = {"type": ["string", "number", "boolean"], "description": "An expression of the rules language."}
_NAME = {"type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*$"}
_EFFECT_LIST = {"$ref": "#/$defs/effects"}


def _mapping(properties: dict[str, Any], required: tuple[str, ...] = (), **more: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "object", "properties": properties, "additionalProperties": False, **more}
    if required:
        out["required"] = list(required)
    return out


def _who(description: str) -> dict[str, Any]:
    return {"enum": list(WHO), "description": description}


def _effects() -> dict[str, Any]:
    """Each effect's form: the keys book.py's effect builders read."""
    counters = {
        "type": "object",
        "properties": {"who": _who("Whose counters: me (the default), opponent or each.")},
        "additionalProperties": _EXPR,
        "minProperties": 1,
    }
    forms: dict[str, Any] = {
        "gain": counters,
        "lose": counters,
        "set": counters,
        "move": _mapping(
            {
                "card": _NAME,
                "from": _EXPR,
                "count": _EXPR,
                "where": _EXPR,
                "to": _EXPR,
                "slot": {"const": "open"},
                "cell": _EXPR,
                "on_top": {
                    "type": "boolean",
                    "description": "Face down on top of a pile, known to the player: drawn next, with no chance.",
                },
            },
            ("to",),
        ),
        "draw": {
            "anyOf": [
                _EXPR,
                _mapping(
                    {
                        "count": _EXPR,
                        "who": _who("Who draws."),
                        "to": _NAME,
                        "from": {**_EXPR, "description": "The pile to draw from (default: drawing:'s)."},
                    }
                ),
            ],
        },
        "deal": _mapping({"count": _EXPR, "to": _NAME}, ("count",)),
        "first_player": {"anyOf": [{"const": "random"}, _EXPR]},
        "reveal": {"anyOf": [_EXPR, _mapping({"zone": _EXPR, "to": _who("Who learns the cards.")}, ("zone",))]},
        "later": _mapping({"who": _who("Whose next turns."), "turns": _EXPR, "do": _EFFECT_LIST}, ("do",)),
        "let": {"type": "object", "propertyNames": _NAME, "additionalProperties": _EXPR, "minProperties": 1},
        "apply": {"anyOf": [_NAME, _mapping({"effect": _NAME, "with": _EXPR}, ("effect",))]},
        "roll": _mapping(
            {
                "dice": {"type": "integer", "minimum": 1, "maximum": 20},
                "sides": {"type": "integer", "minimum": 2, "maximum": 100},
                "as": _NAME,
            },
            ("as",),
        ),
        "win": {"enum": ["me", "opponent"]},
        "mark": {
            "type": "object",
            "properties": {"grid": _NAME, "cell": _EXPR},
            "required": ["grid", "cell"],
            "additionalProperties": _EXPR,
            "description": "Marks of the card on a grid's cell set: {grid: field, cell: from, acted: turn}.",
        },
        "damage": _mapping({"grid": _NAME, "cell": _EXPR, "amount": _EXPR}, ("grid", "cell", "amount")),
    }
    assert set(forms) == set(EFFECTS), "each effect has its form here"
    one = [_mapping({name: form}, (name,), title=name) for name, form in forms.items()]
    choice = _mapping({"if": _EXPR, "then": _EFFECT_LIST, "else": _EFFECT_LIST}, ("if", "then"), title="if")
    each = _mapping(
        {
            "each": {**_EXPR, "description": "Places to take in turn, such as piles(my.flags)."},
            "as": {**_NAME, "description": "The name each place goes by inside (pile, by default)."},
            "do": _EFFECT_LIST,
        },
        ("each", "do"),
        title="each",
    )
    return {"type": "array", "maxItems": 200, "items": {"anyOf": [{"enum": list(WORDS)}, *one, choice, each]}}


def _named(body: str, body_form: dict[str, Any]) -> dict[str, Any]:
    """checks: or effects:, each named and given a value, with one body or cases by the value's kind."""
    entry = _mapping(
        {
            "given": {**_NAME, "description": "The name the value goes by inside (it, by default)."},
            body: body_form,
            "cases": {"type": "object", "additionalProperties": body_form},
        }
    )
    entry["oneOf"] = [{"required": [body]}, {"required": ["cases"]}]
    return {"type": "object", "propertyNames": _NAME, "additionalProperties": entry}


def document(name: str) -> dict[str, Any]:
    """The schema of a play.yaml file, its $id naming the file it is kept in."""
    zone = _mapping(
        {
            "per": {"enum": ["game", "player"]},
            "cards": {
                "anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}],
                "description": "all, or the id of the deck whose cards start here; for a zone each player has, a "
                "list of deck ids, one a seat.",
            },
            "visible": {"enum": ["all", "owner", "none"]},
            "order": {"enum": ["pile", "sorted"]},
            "limit": _EXPR,
            "overflow": _NAME,
            "holds": _EXPR,
            "slots": {"anyOf": [{"type": "integer", "minimum": 1, "maximum": 1000}, _NAME]},
            "slot": _EXPR,
            "grid": _mapping(
                {"rows": _EXPR, "columns": _EXPR},
                ("rows", "columns"),
                description="A grid of rows x columns, one card a cell with its owner and marks.",
            ),
            "home": {**_EXPR, "description": "A grid's row where a seat (me) deploys."},
            "reach": {**_EXPR, "description": "A grid card's reach: " + ", ".join(REACHES) + "."},
            "enter_enemy_home": {**_EXPR, "description": "Whether a card may step onto another seat's home row."},
            "marks": {
                "type": "object",
                "propertyNames": _NAME,
                "additionalProperties": _EXPR,
                "description": "Numbers a grid's card carries while it lies there, each from its start (of card).",
            },
            "hit_points": {**_NAME, "description": "The mark that is a card's hit points: damage takes it off."},
            "reserve": {**_EXPR, "description": "Cards a seat (me) may still bring onto the grid."},
            "piles": {
                **_EXPR,
                "description": "A row of that many piles (a number fixed for the game), each a zone of its own: "
                "my.flags[pile], numbered from 0; limit: is each pile's.",
            },
        }
    )
    assert set(zone["properties"]) == set(ZONE_KEYS)
    counter = {
        "anyOf": [
            {"type": "number"},
            _mapping(
                {
                    "per": {"enum": ["player", "game"]},
                    "start": _EXPR,
                    "min": _EXPR,
                    "max": _EXPR,
                    "piles": {**_EXPR, "description": "A value for each pile of a row: claimed[pile], from 0."},
                }
            ),
        ]
    }
    move = _mapping(
        {
            "id": {"type": "string"},
            "number": {"type": "integer", "minimum": 0, "maximum": 999_999},
            "card": {"anyOf": [_EXPR, {"type": "array", "items": _EXPR}]},
            "target": _EXPR,
            "to": {
                **_EXPR,
                "description": "The places it goes to: steps(), targets() or open_columns() of a grid, or piles() of a "
                "row.",
            },
            "if": _EXPR,
            "spend": _EXPR,
            "do": _EFFECT_LIST,
            "plays": {"enum": ["card", "target", None]},
            "ends_turn": {"type": "boolean"},
            "says": {"type": "string"},
        },
        ("id",),
    )
    assert set(move["properties"]) == set(MOVE_KEYS)
    group = _mapping(
        {
            "each": {
                "anyOf": [_EXPR, {"type": "array", "items": _EXPR, "minItems": 1}],
                "description": "A zone whose cards offer the moves; or a row of piles, or a list of rows, whose cards "
                "offer them pile by pile (from: the pile).",
            },
            "if": _EXPR,
            "order": {"enum": ["zone", "cards"], "description": "Its cards as the zone lies, or in the game's order."},
            "moves": {"type": "array", "minItems": 1, "items": move},
        },
        ("each", "moves"),
    )
    end = _mapping(
        {
            "wins": _EXPR,
            "loses": _EXPR,
            "draw": _EXPR,
            "when": _EXPR,
            "most": _EXPR,
            "as": {"enum": ["normal", "stalemate", "cap"]},
            "after": {"enum": ["move", "turn"], "description": "Asked after every move (move), or as a turn ends."},
        },
        oneOf=[{"required": [k]} for k in ("wins", "loses", "draw", "when")],
    )
    parts: dict[str, Any] = {
        "players": {
            "type": "integer",
            "minimum": 2,
            "maximum": 6,
            "description": "How many play, 2 to 6 (default: game.yaml's players:). With more than two, opponent and "
            "their mean the next player in turn, and loses: is refused.",
        },
        "counters": {"type": "object", "propertyNames": _NAME, "additionalProperties": counter},
        "zones": {"type": "object", "propertyNames": _NAME, "additionalProperties": zone},
        "drawing": _mapping({"from": _NAME, "refill": _NAME}, ("from",)),
        "setup": _EFFECT_LIST,
        "turn": _mapping({"start": _EFFECT_LIST, "budget": _NAME, "end": _EFFECT_LIST}),
        "moves": {"type": "array", "minItems": 1, "items": {"anyOf": [group, move]}},
        "checks": _named("is", _EXPR),
        "effects": _named("do", _EFFECT_LIST),
        "end": {"type": "array", "minItems": 1, "items": end},
        "cap": _mapping({"moves": _EXPR, "turns": _EXPR}),
        "heuristic": _mapping(
            {
                "value": _EXPR,
                "scale": {"type": "number", "exclusiveMinimum": 0},
                "curve": {
                    "enum": ["clamp", "tanh"],
                    "description": "How (value - other's) / scale becomes -1 to 1: clamped (the default), or by tanh.",
                },
            },
            ("value",),
        ),
        "patterns": {
            "type": "object",
            "propertyNames": _NAME,
            "description": "Ways of ranking a set of cards, by name, for strength() and claimable().",
            "additionalProperties": _mapping(
                {
                    "size": _EXPR,
                    "kinds": {
                        "anyOf": [_NAME, {"type": "array", "items": {"type": "string"}, "minItems": 1}],
                        "description": "The kinds of set strongest first: a table of game.yaml (formations) or ids.",
                    },
                    "needs": {
                        "type": "object",
                        "additionalProperties": {"type": "array", "items": {"enum": list(NEEDS)}},
                        "description": "What each kind needs of its cards; a kind not named needs nothing.",
                    },
                    "suit": {**_NAME, "description": "The card field that is a card's suit."},
                    "rank": {**_NAME, "description": "The card field that is a card's rank, a whole number."},
                    "wild": {**_EXPR, "description": "Which cards are wild: a test of card."},
                    "wild_ranks": {**_EXPR, "description": "A wild card's ranks, a list (none: any rank)."},
                    "like": {
                        **_NAME,
                        "description": "Another pattern whose keys this one takes, changing those given.",
                    },
                },
                anyOf=[{"required": ["like"]}, {"required": ["size", "kinds", "suit", "rank"]}],
            ),
        },
    }
    assert tuple(parts) == TOP, "each part book.py reads has its form here"
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://printkit.invalid/schema/{name}",
        "title": "Rules (play.yaml)",
        "type": "object",
        "properties": parts,
        "required": ["zones", "moves", "end"],
        "additionalProperties": False,
        "$defs": {"effects": _effects()},
    }
