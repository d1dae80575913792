"""A card as every stage reads it, and the check of one card's data against the fields its kind declares.

A card file or a spreadsheet row gives a mapping; read() turns it into a Card or into problems, each
placed at its value (file:line:column, or a sheet's cell). YAML is read strictly (7 is a number, "7"
text); a sheet's cells are text, read as the field's type asks ("7" is 7 for an integer field).
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ValidationError

from printkit.core.errors import Problem, shown
from printkit.data.cardtypes import BUILT_IN, DEFAULT_TYPES, MAX_ITEMS, PLAIN, CardType, FieldSpec
from printkit.data.validation import found, problems_from
from printkit.data.yamlsource import PathT, SourceMap

_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")
_WHOLE = re.compile(r"^[+-]?\d{1,18}$")
_DECIMAL = re.compile(r"^[+-]?\d{0,18}\.\d{1,18}$")
MAX_TEXT = 2000
MAX_COPIES = 1_000  # copies of one card: a thousand is past any game, and drawing more keeps a build busy for minutes
# cards a game's decks print, copies counted: a build draws ten thousand in seconds, and no game prints as many
MAX_PRINTED = 10_000
_TABLE_WORDS = {
    "factions": "faction",
    "colours": "colour",
    "eras": "era",
    "weapons": "weapon",
    "formations": "formation",
    "phases": "phase",
    "components": "component",
    "decks": "deck",
    "user_groups": "user group",
}


@dataclass(frozen=True, slots=True)
class Card:
    """One card: who it is, how many print, and the values of the fields its kind declares."""

    id: str
    kind: str
    name: str
    values: Mapping[str, Any] = field(default_factory=dict)  # declared fields: as written, or their defaults
    copies: int = 1
    flavour: str | None = None
    art: str | None = None  # a picture in the game's folder
    art_credit: str | None = None
    shared: bool = False  # in more than one deck on purpose: printed in each, without a warning
    reconstructed: tuple[str, ...] = ()  # fields whose values the edition chose where its source gives none
    defaulted: frozenset[str] = frozenset()  # the fields the card leaves to their defaults
    parsed: Any = None  # its engine's typed record of it (data/enginecards.py), for a kind the engine plays

    def get(self, key: str, default: Any = None) -> Any:
        """A declared field's value, or a built-in's (name, copies, ...); default when the card has none."""
        if key in self.values:
            return self.values[key]
        if key in BUILT_IN:
            value = getattr(self, key)
            return default if value is None else value
        return default

    def __hash__(self) -> int:
        return hash((self.id, self.kind))

    def written(self) -> dict[str, Any]:
        """The card as its data writes it, defaults left out: what an export writes and an import reads back."""
        out: dict[str, Any] = {"id": self.id, "kind": self.kind, "name": self.name}
        if self.copies != 1:
            out["copies"] = self.copies
        out |= {k: v for k, v in self.values.items() if k not in self.defaulted}
        for key in ("flavour", "art", "art_credit"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.shared:
            out["shared"] = True
        if self.reconstructed:
            out["reconstructed"] = list(self.reconstructed)
        return out


@dataclass(frozen=True)
class Kinds:
    """The kinds of card a game declares, and the ids of the game.yaml rows a choice may name."""

    types: Mapping[str, CardType]
    tables: Mapping[str, Mapping[str, str]] = field(default_factory=dict)  # table -> {row id: its name}
    declared: bool = True  # False: the game declares none, and has the plain kind printkit gives
    # kind -> the typed record the game's engine reads each card of that kind as (data/enginecards.py)
    forms: Mapping[str, type[BaseModel]] = field(default_factory=dict)
    # each set of defaulted fields the cards have left, one object for every card that leaves it: most cards of a
    # kind leave the same ones, and a set a card was 1.2 MB of a 5,400-card game
    defaulted: dict[frozenset[str], frozenset[str]] = field(default_factory=dict, compare=False, hash=False)

    @classmethod
    def of(
        cls,
        types: Mapping[str, CardType],
        tables: Mapping[str, Mapping[str, str]],
        forms: Mapping[str, type[BaseModel]] | None = None,
    ) -> Kinds:
        if not types:
            return cls(DEFAULT_TYPES, tables, declared=False, forms=forms or {})
        return cls(types, tables, forms=forms or {})

    def fields(self) -> set[str]:
        """Every field any kind declares."""
        return {name for t in self.types.values() for name in t.fields}


def _close(name: str, known: Iterable[str]) -> str | None:
    hint = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return hint[0] if hint else None


def _listed(values: list[str]) -> str:
    return values[0] if len(values) == 1 else ", ".join(values[:-1]) + " or " + values[-1]


class _Reader:
    """Reads one card's values, collecting a problem for each bad one."""

    def __init__(self, smap: SourceMap, at: PathT, lax: bool) -> None:
        self.smap, self.at, self.lax = smap, at, lax
        self.problems: list[Problem] = []

    def fail(self, key: PathT, message: str, *, at_key: bool = False) -> None:
        self.problems.append(self.smap.problem(self.at + key, message, at_key=at_key))

    def text(self, key: PathT, value: Any, limit: int = MAX_TEXT) -> str | None:
        if self.lax and isinstance(value, int | float) and not isinstance(value, bool):
            value = str(value)
        if not isinstance(value, str):
            self.fail(key, f"expected text, found {found(value)}")
            return None
        if not value:
            self.fail(key, "expected at least 1 characters, found 0")
            return None
        if len(value) > limit:
            self.fail(key, f"expected at most {limit} characters, found {len(value)}")
            return None
        return value

    def whole(self, key: PathT, value: Any) -> int | None:
        if self.lax and isinstance(value, str) and _WHOLE.match(value.strip()):
            value = int(value.strip())
        if not isinstance(value, int) or isinstance(value, bool):
            self.fail(key, f"expected an integer, found {found(value)}")
            return None
        return value

    def number(self, key: PathT, value: Any) -> int | float | None:
        if self.lax and isinstance(value, str):
            text = value.strip()
            if _WHOLE.match(text):
                value = int(text)
            elif _DECIMAL.match(text):
                value = float(text)
        if not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value):
            self.fail(key, f"expected a number, found {found(value)}")
            return None
        return value

    def yesno(self, key: PathT, value: Any) -> bool | None:
        if self.lax and isinstance(value, str):
            value = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}.get(
                value.strip().lower(), value
            )
        if not isinstance(value, bool):
            self.fail(key, f"expected true or false, found {found(value)}")
            return None
        return value

    def bounded(self, key: PathT, value: int | float, spec: FieldSpec) -> bool:
        for bound, side in ((spec.min, ">="), (spec.max, "<=")):
            if bound is not None and (value < bound if side == ">=" else value > bound):
                self.fail(key, f"expected a value {side} {bound:g}, found {found(value)}")
                return False
        return True

    def ident(self, key: PathT, value: Any) -> str | None:
        if not isinstance(value, str) or not _ID.match(value) or len(value) > 64:
            what = found(value)
            self.fail(key, f"expected an id (letters, digits, '-' and '_'), found {what}")
            return None
        return value


def _one(reader: _Reader, key: PathT, value: Any, kind: str, spec: FieldSpec, kinds: Kinds) -> tuple[bool, Any]:
    """One value of a field (or of a list's item, kind being the item's type): whether it holds, and as read."""
    if kind in ("text", "rich"):
        text = reader.text(key, value, spec.max_length or MAX_TEXT)
        return text is not None, text
    if kind == "integer":
        whole = reader.whole(key, value)
        return whole is not None and reader.bounded(key, whole, spec), whole
    if kind == "number":
        number = reader.number(key, value)
        return number is not None and reader.bounded(key, number, spec), number
    if kind == "yesno":
        flag = reader.yesno(key, value)
        return flag is not None, flag
    if kind == "choice":
        return _choice(reader, key, value, spec, kinds)
    if kind == "icon":
        if not isinstance(value, str) or not re.fullmatch(r"[a-z_]{1,64}", value):
            reader.fail(key, f"expected an icon's name (a-z and _), found {found(value)}")
            return False, None
        return True, value  # the loader checks the name against the game's icons, with its other icons
    if kind == "art":
        path = reader.text(key, value, 500)
        if path is None:
            return False, None
        parts = path.replace("\\", "/").split("/")
        if path.startswith(("/", "\\")) or ":" in parts[0] or ".." in parts or "\x00" in path:
            reader.fail(key, f"expected a path inside the game's folder, such as art/dragon.png, found {path!r}")
            return False, None
        return True, path
    if kind == "stats":
        return _stats(reader, key, value)
    return True, value  # engine: its engine checks its form


def _choice(reader: _Reader, key: PathT, value: Any, spec: FieldSpec, kinds: Kinds) -> tuple[bool, Any]:
    if reader.lax and isinstance(value, int | float) and not isinstance(value, bool):
        value = str(value)
    if spec.table is not None:
        rows = {k: v for t in reversed(spec.tables) for k, v in kinds.tables.get(t, {}).items()}
        if not isinstance(value, str) or value not in rows:
            what = " or ".join(_TABLE_WORDS[t] for t in spec.tables)
            if not isinstance(value, str):
                reader.fail(key, f"expected the id of a {what}, found {found(value)}")
            else:
                hint = _close(value, rows)
                tail = (
                    f" (did you mean {hint!r}?)"
                    if hint
                    else (f" (expected one of: {', '.join(rows)})" if 0 < len(rows) <= 12 else "")
                )
                reader.fail(key, f"no {what} {value!r}{tail}")
            return False, None
        return True, value
    choices = list(spec.choices())
    if not isinstance(value, str) or value not in choices:
        hint = _close(value, choices) if isinstance(value, str) else None
        expected = _listed(choices) if len(choices) <= 12 else f"one of the {len(choices)} values the field lists"
        tail = f" (did you mean {hint!r}?)" if hint else ""
        reader.fail(key, f"expected {expected}, found {found(value)}{tail}")
        return False, None
    return True, value


def _stats(reader: _Reader, key: PathT, value: Any) -> tuple[bool, Any]:
    if not isinstance(value, dict):
        reader.fail(key, f"expected a mapping of names to whole numbers, such as {{power: 2}}, found {found(value)}")
        return False, None
    out: dict[str, int] = {}
    ok = True
    for name, number in value.items():
        if not _ID.match(name) or len(name) > 64:
            reader.fail((*key, name), "expected an id (letters, digits, '-' and '_')", at_key=True)
            ok = False
            continue
        whole = reader.whole((*key, name), number)
        if whole is None:
            ok = False
        else:
            out[name] = whole
    return ok, out


def _list(reader: _Reader, key: PathT, value: Any, spec: FieldSpec, kinds: Kinds) -> tuple[bool, Any]:
    if reader.lax and isinstance(value, str):  # a sheet's cell: "flying, haste"
        value = [item.strip() for item in value.split(",") if item.strip()]
    if not isinstance(value, list):
        reader.fail(key, f"expected a list, found {found(value)}")
        return False, None
    least, most = int(spec.min or 0), int(spec.max if spec.max is not None else MAX_ITEMS)
    if not least <= len(value) <= most:
        side, bound = ("at least", least) if len(value) < least else ("at most", most)
        reader.fail(key, f"expected {side} {bound} items, found {len(value)}")
        return False, None
    out, ok = [], True
    for i, item in enumerate(value):
        good, read = _one(reader, (*key, i), item, spec.item_type, spec, kinds)
        ok = ok and good
        out.append(read)
    return ok, out


def _field(reader: _Reader, key: str, value: Any, spec: FieldSpec, kinds: Kinds) -> tuple[bool, Any]:
    if spec.type == "list":
        return _list(reader, (key,), value, spec, kinds)
    return _one(reader, (key,), value, spec.type, spec, kinds)


def value_problems(key: str, spec: FieldSpec, value: Any, kinds: Kinds, smap: SourceMap, at: PathT) -> list[Problem]:
    """What is wrong with one value of a field (a declared default), placed at at."""
    reader = _Reader(smap, at, lax=False)
    _field(reader, key, value, spec, kinds)
    return [smap.problem(at, p.message.split(": ", 1)[-1]) for p in reader.problems]


def kind_of(raw: Mapping[str, Any], kinds: Kinds) -> str | None:
    """The kind a card's data names, or the game's only kind when it names none."""
    kind = raw.get("kind")
    if kind is None and len(kinds.types) == 1:
        return next(iter(kinds.types))
    return kind if isinstance(kind, str) else None


def unknown_kind(kind: Any, kinds: Kinds) -> str:
    """Why a card's kind is refused, in words that name the game's own kinds."""
    names = list(kinds.types)
    if not isinstance(kind, str):
        return f"expected the name of a kind of card ({', '.join(names)}), found {found(kind)}"
    if not kinds.declared:
        return (
            f"unknown kind {kind!r}: this game declares no card_types, so its one kind is {PLAIN}; "
            f"declare {kind} under card_types: in game.yaml"
        )
    hint = _close(kind, names)
    tail = f" (did you mean {hint!r}?)" if hint else ""
    return f"unknown kind {kind!r}{tail}: game.yaml's card_types declares {', '.join(names)}"


def read(raw: Any, kinds: Kinds, smap: SourceMap, at: PathT, lax: bool = False) -> tuple[Card | None, list[Problem]]:
    """One card from its data at path at in smap's file: a Card, or None and every problem with it."""
    reader = _Reader(smap, at, lax)
    if not isinstance(raw, dict):
        reader.fail((), f"expected a mapping of a card's fields, found {found(raw)}")
        return None, reader.problems
    kind = kind_of(raw, kinds)
    if "kind" not in raw and kind is None:
        reader.fail(("kind",), f"missing required field 'kind' (the game's kinds: {', '.join(kinds.types)})")
        return None, reader.problems
    if kind is None or kind not in kinds.types:
        reader.fail(("kind",), unknown_kind(raw.get("kind"), kinds))
        return None, reader.problems
    declared = kinds.types[kind]
    base: dict[str, Any] = {}
    card_id = reader.ident(("id",), raw["id"]) if "id" in raw else None
    for key in ("id", "name"):
        if key not in raw:
            reader.fail((key,), f"missing required field {key!r}")
    name = reader.text(("name",), raw["name"]) if "name" in raw else None
    copies = 1
    if "copies" in raw:
        read_copies = reader.whole(("copies",), raw["copies"])
        if read_copies is not None and not 0 <= read_copies <= MAX_COPIES:
            bound, side = (0, ">=") if read_copies < 0 else (MAX_COPIES, "<=")
            reader.fail(("copies",), f"expected a value {side} {bound}, found {found(read_copies)}")
        elif read_copies is not None:
            copies = read_copies
    for key in ("flavour", "art_credit"):
        if key in raw:
            base[key] = reader.text((key,), raw[key])
    if "art" in raw:
        _, base["art"] = _one(reader, ("art",), raw["art"], "art", FieldSpec(type="art"), kinds)
    shared = bool(reader.yesno(("shared",), raw["shared"])) if "shared" in raw else False
    reconstructed = _reconstructed(reader, raw.get("reconstructed"), kind, declared) if "reconstructed" in raw else ()
    allowed = [*BUILT_IN, *declared.fields]
    unknown = [key for key in raw if key not in allowed]
    # a misspelt key is said once, as unknown with its suggestion, not also as a missing field
    meant = {_close(key, allowed) for key in unknown}
    values: dict[str, Any] = {}
    defaulted = set()
    for key, spec in declared.fields.items():
        if key in raw and raw[key] is not None:
            ok, value = _field(reader, key, raw[key], spec, kinds)
            if ok:
                values[key] = value
        elif spec.required:
            if key not in meant:  # else the unknown key's problem refuses the card, and says what was meant
                reader.fail((key,), f"missing required field {key!r}")
        elif spec.default is not None:
            values[key] = spec.default
            defaulted.add(key)
    for key in unknown:
        reader.fail((key,), _unknown_key(key, kind, allowed, kinds), at_key=True)
    if reader.problems or card_id is None or name is None:
        return None, reader.problems
    parsed = None
    form = kinds.forms.get(kind)
    if form is not None:  # the engine's record of the card: its engine fields, and the declared ones it reads
        data = {"id": card_id, "name": name, "copies": copies, **values}
        try:
            parsed = form.model_validate(data, strict=not lax)
        except ValidationError as exc:
            return None, problems_from(exc, form, data, smap.shifted(at))
        if lax:  # a sheet's cells are text: its engine fields keep the engine's reading of them, 8 for "8"
            engine = {k for k, spec in declared.fields.items() if spec.type == "engine" and k in values}
            values |= parsed.model_dump(mode="json", exclude_unset=True, include=engine)
    left = frozenset(defaulted)
    card = Card(
        card_id,
        kind,
        name,
        values,
        copies,
        base.get("flavour"),
        base.get("art"),
        base.get("art_credit"),
        shared,
        tuple(reconstructed),
        kinds.defaulted.setdefault(left, left),
        parsed,
    )
    return card, []


def _unknown_key(key: str, kind: str, allowed: list[str], kinds: Kinds) -> str:
    elsewhere = [k for k, t in kinds.types.items() if key in t.fields]
    if elsewhere:
        return f"unknown key {key!r}: a {kind} card has no {key} (the {', '.join(elsewhere)} kind has it)"
    hint = _close(key, allowed)
    if hint:
        return f"unknown key {key!r} (did you mean {hint!r}?)"
    return f"unknown key {key!r} (expected one of: {', '.join(allowed)})"


def _reconstructed(reader: _Reader, value: Any, kind: str, declared: CardType) -> list[str]:
    """The fields a card marks as the edition's choice: each a value field of its kind, named once."""
    if reader.lax and isinstance(value, str):
        value = [v.strip() for v in value.split(",") if v.strip()]
    if not isinstance(value, list):
        reader.fail(("reconstructed",), f"expected a list, found {found(value)}")
        return []
    known = ["name", "copies", *declared.fields]
    out: list[str] = []
    for j, name in enumerate(value):
        if not isinstance(name, str):
            reader.fail(("reconstructed", j), f"expected a field's name, found {found(name)}")
        elif name in out:
            reader.fail(("reconstructed", j), f"{name!r} named twice: expected once")
        elif name not in known:
            hint = _close(name, known)
            tail = (
                f" (did you mean {hint!r}?)"
                if hint
                else (f" (expected one of: {', '.join(sorted(known))})" if len(known) <= 12 else "")
            )
            reader.fail(("reconstructed", j), f"no {kind} field {shown(name, 40)}{tail}")
        else:
            out.append(name)
    return out
