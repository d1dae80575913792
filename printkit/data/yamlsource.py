"""Read one YAML file safely into plain data, remembering the line and column of every value."""

from __future__ import annotations

import os
from collections.abc import Iterator, MutableMapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import yaml

from printkit.core import files
from printkit.core.errors import DataError, Problem, display_path, place_of, safe, shown

# A game file is a few hundred lines; these limits only stop hostile or accidental giants.
MAX_BYTES = 2_000_000
# values after aliases are expanded, in a game's files together (stops "billion laughs", and keeps a
# folder of huge files quick to refuse); the largest bundled game has 1,471
MAX_NODES = 50_000
MAX_DEPTH = 50  # a game's data nests a few levels; far more is a trap for the recursion below

Key = str | int
PathT = tuple[Key, ...]

_CORE = "tag:yaml.org,2002:"
# libyaml's parser when PyYAML has it (ten times faster); the pure-Python one otherwise.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_SCALAR_TAGS = {_CORE + t for t in ("str", "int", "float", "bool", "null", "timestamp")}
_STR, _INT, _TIMESTAMP = _CORE + "str", _CORE + "int", _CORE + "timestamp"
_TAG_WORDS = {_INT: "a whole number", _CORE + "float": "a number", _CORE + "bool": "true or false"}
MAX_DIGITS = 100  # no count a game keeps is longer; Python refuses to read past 4,300 digits anyway
LARGEST = 10**MAX_DIGITS  # the first number of more digits: compared, never printed, so of any size


class Mark(NamedTuple):
    """A place in a file, counted from 1."""

    line: int
    column: int


def packed(mark: Mark) -> int:
    """A mark as one int, ordered as marks are: what a source map keeps, since a large file has a few hundred
    thousand places and a Mark and its line cost 84 bytes against the int's 32."""
    return mark[0] << 32 | mark[1]


def unpacked(place: int) -> Mark:
    """The mark that packed() made place of."""
    return _tuple(Mark, (place >> 32, place & 0xFFFFFFFF))


class Marks(MutableMapping[PathT, Mark]):
    """Marks by their path in the data, each kept packed into one int (see packed())."""

    __slots__ = ("packed",)

    def __init__(self, packed: dict[PathT, int] | None = None) -> None:
        self.packed: dict[PathT, int] = packed if packed is not None else {}

    def __getitem__(self, path: PathT) -> Mark:
        return unpacked(self.packed[path])

    def get(self, path: PathT, default: Mark | None = None) -> Mark | None:  # type: ignore[override]
        place = self.packed.get(path)
        return default if place is None else unpacked(place)

    def __contains__(self, path: object) -> bool:
        return path in self.packed

    def __setitem__(self, path: PathT, mark: Mark) -> None:
        self.packed[path] = packed(mark)

    def __delitem__(self, path: PathT) -> None:
        del self.packed[path]

    def __iter__(self) -> Iterator[PathT]:
        return iter(self.packed)

    def __len__(self) -> int:
        return len(self.packed)

    def __eq__(self, other: object) -> bool:
        return self.packed == other.packed if isinstance(other, Marks) else super().__eq__(other)

    def __repr__(self) -> str:
        return f"Marks({dict(self.items())!r})"


@dataclass
class SourceMap:
    """Where each value (and each mapping key) of a file stands, by its path in the data."""

    file: Path
    values: Marks = field(default_factory=Marks)
    keys: Marks = field(default_factory=Marks)
    sheet: str | None = None  # a spreadsheet's sheet: places are named as its cells, Sheet1!C14
    # the working folder, and the file and sheet as named from it: see named()
    _shown: tuple[str, str, str | None] | None = field(default=None, init=False, repr=False, compare=False)

    def problem(self, path: PathT, message: str, *, at_key: bool = False) -> Problem:
        """A problem at the deepest known place along path, with the field path in the message."""
        probe = path
        table = self.keys if at_key else self.values
        while probe not in table and probe:
            probe = probe[:-1]
            table = self.values
        mark = table.get(probe) or Mark(1, 1)
        where = format_path(path)
        text = f"{where}: {message}" if where else message
        return Problem(display_path(self.file), mark.line, mark.column, text, self._cell(mark))

    def place(self, path: PathT) -> str:
        """Where the value at path stands, as a problem names it: "file:line:column" or "file:Sheet1!C14"."""
        return self.named(self.values.get(path) or Mark(1, 1))

    def named(self, mark: Mark) -> str:
        """A place in this file as a problem names it: "file:line:column" or "file:Sheet1!C14"."""
        # as Problem.place says it, with the file's part made once: a 10,000-row sheet names 70,000 places
        shown = self._shown
        if shown is None or shown[0] != os.getcwd():
            sheet = safe(self.sheet) if self.sheet is not None else None
            shown = self._shown = (os.getcwd(), safe(display_path(self.file)), sheet)
        _, file, sheet = shown
        cell = f"{sheet}!{column_letters(mark.column)}{mark.line}" if sheet is not None else ""
        return place_of(file, mark.line, mark.column, cell)

    def _cell(self, mark: Mark) -> str:
        return f"{self.sheet}!{column_letters(mark.column)}{mark.line}" if self.sheet is not None else ""

    def shifted(self, prefix: PathT) -> SourceMap:
        """The same places, for data that starts at prefix: problem(path) names prefix + path (nothing copied)."""
        return _Shifted(self.file, self.values, self.keys, self.sheet, prefix)

    def within(self, key: str | int) -> SourceMap:
        """The places of the value at key, by their paths inside it: for data validated a piece at a time."""
        return SourceMap(
            self.file,
            Marks({p[1:]: m for p, m in self.values.packed.items() if p[:1] == (key,)}),
            Marks({p[1:]: m for p, m in self.keys.packed.items() if p[:1] == (key,)}),
            self.sheet,
        )


@dataclass
class _Shifted(SourceMap):
    """A source map read from a point inside its file: what validates one card of a file names its places."""

    prefix: PathT = ()

    def problem(self, path: PathT, message: str, *, at_key: bool = False) -> Problem:
        return super().problem(self.prefix + path, message, at_key=at_key)


def column_letters(column: int) -> str:
    """A spreadsheet's name for column 1, 2, ..., 27: A, B, ..., AA."""
    letters = ""
    while column:
        column, rest = divmod(column - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def format_path(path: PathT) -> str:
    """cards[3].stats.power: a place in the data in plain words."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{_key(part)}" if out else _key(part)
    return out


def _key(key: str) -> str:
    """A mapping key as a place shows it: as written, unless it is long, blank or edged with spaces (which would
    vanish from the line), or holds characters that could forge a line."""
    plain = len(key) <= 40 and key.strip() == key and key != "" and safe(key) == key
    return key if plain else shown(key, 40)


class _Limits(Exception):
    def __init__(self, message: str, mark: Mark) -> None:
        super().__init__(message)
        self.mark = mark


def _tag_refused(node: yaml.Node) -> _Limits:
    tag = node.tag.replace(_CORE, "!!")
    return _Limits(f"tag {tag!r} is not allowed: printkit reads plain YAML data only", _mark(node))


_tuple = tuple.__new__  # a Mark made without NamedTuple's own __new__: a large file makes a few hundred thousand


def _mark(node: yaml.Node) -> Mark:
    start = node.start_mark
    return _tuple(Mark, (start.line + 1, start.column + 1))


@dataclass
class Budget:
    """The values a game's files may hold together, counted down as each is read.

    Each file is held to MAX_NODES; a game's files share one budget of as many, so ten files near
    the limit cost no more time than one (a game has a few thousand values).
    """

    left: int = MAX_NODES
    shared: bool = False


class _Builder:
    """Turns a composed node graph into dicts, lists and scalars, counting every value."""

    def __init__(self, smap: SourceMap, budget: Budget | None = None) -> None:
        self.smap = smap
        self.values, self.keys = smap.values.packed, smap.keys.packed  # written packed: the common case, quicker
        self.budget = budget or Budget()
        self.constructor = yaml.constructor.SafeConstructor()

    def build(self, node: yaml.Node, path: PathT) -> Any:
        self.budget.left -= 1
        if self.budget.left < 0:
            where = " in the game's files together" if self.budget.shared else ""
            raise _Limits(f"more than {MAX_NODES:,} values{where} after expanding aliases", _mark(node))
        if len(path) > MAX_DEPTH:
            raise _Limits(f"nested more than {MAX_DEPTH} levels deep", _mark(node))
        start = node.start_mark
        self.values.setdefault(path, (start.line + 1) << 32 | (start.column + 1))  # as packed() packs it
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node, path)
        if isinstance(node, yaml.SequenceNode):
            if node.tag != _CORE + "seq":
                raise _tag_refused(node)
            return [self.build(item, path + (i,)) for i, item in enumerate(node.value)]
        assert isinstance(node, yaml.ScalarNode)
        return self._scalar(node)

    def _scalar(self, node: yaml.ScalarNode) -> Any:
        tag = node.tag
        if tag in (_STR, _TIMESTAMP):  # dates and years are text to printkit
            return node.value
        if tag not in _SCALAR_TAGS:
            raise _tag_refused(node)
        if tag == _INT:
            digits = node.value.lstrip("+-").replace("_", "")
            # the common case, read without PyYAML's generic path (which reads a leading 0 as octal: left to it)
            if digits.isascii() and digits.isdigit() and (digits[0] != "0" or digits == "0"):
                if len(digits) > MAX_DIGITS:
                    raise _Limits(f"a number of {len(digits):,} digits: expected at most {MAX_DIGITS}", _mark(node))
                return int(digits) if node.value[:1] != "-" else -int(digits)
        try:
            value = self.constructor.construct_object(node)
        except (ValueError, KeyError):  # an explicit tag on a value it does not fit, such as !!int shield
            wanted = f"expected {_TAG_WORDS.get(tag, tag)} for {tag.replace(_CORE, '!!')}"
            raise _Limits(f"{wanted}, found {shown(node.value)}", _mark(node)) from None
        # hexadecimal, octal and binary counts come this way: one too long for Python to print breaks every message
        if isinstance(value, int) and abs(value) >= LARGEST:
            raise _Limits(f"a number of more than {MAX_DIGITS} digits: expected at most {MAX_DIGITS}", _mark(node))
        return value

    def _pairs(self, node: yaml.MappingNode) -> list[tuple[yaml.Node, yaml.Node]]:
        """The mapping's own pairs after YAML merge keys (<<), own keys winning."""
        own: list[tuple[yaml.Node, yaml.Node]] = []
        merged: list[tuple[yaml.Node, yaml.Node]] = []
        for key, value in node.value:
            if key.tag == _CORE + "merge":
                sources = value.value if isinstance(value, yaml.SequenceNode) else [value]
                for src in sources:
                    if not isinstance(src, yaml.MappingNode):
                        raise _Limits("a merge key (<<) needs a mapping", _mark(src))
                    merged.extend(self._pairs(src))
            else:
                own.append((key, value))
        return own + merged

    def _mapping(self, node: yaml.MappingNode, path: PathT) -> dict[str, Any]:
        if node.tag != _CORE + "map":
            raise _tag_refused(node)
        out: dict[str, Any] = {}
        first_seen: dict[str, Mark] = {}
        own_count = sum(1 for k, _ in node.value if k.tag != _CORE + "merge")
        for index, (key_node, value_node) in enumerate(self._pairs(node)):
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag not in _SCALAR_TAGS:
                raise _Limits("a mapping key must be plain text", _mark(key_node))
            key = str(self._scalar(key_node))
            mark = _mark(key_node)
            if key in out:
                if index < own_count:
                    first = first_seen[key]
                    raise _Limits(f"duplicate key {shown(key)} (first at line {first.line})", mark)
                continue  # a merged key the mapping already sets itself
            first_seen[key] = mark
            at = path + (key,)  # one tuple for both maps: a large file has a few hundred thousand
            self.keys[at] = packed(mark)
            out[key] = self.build(value_node, at)
        return out


REWORD_BYTES = 200_000  # below this a syntax error is worded again by the pure-Python parser (a second at most)


def _compose(text: str) -> yaml.Node | None:
    try:
        return yaml.compose(text, Loader=_LOADER)
    except yaml.YAMLError:
        if len(text) > REWORD_BYTES:  # the pure-Python parser takes seconds over a large file: libyaml's words
            raise
        # the pure-Python parser words its errors better (it names the bad character)
        return yaml.compose(text, Loader=yaml.SafeLoader)


def load(path: Path, within: Sequence[Path] | None = None, budget: Budget | None = None) -> tuple[Any, SourceMap]:
    """Load a YAML file into plain data and its source map; raise DataError on any problem.

    within: the folders the file must lie inside, its links followed (see core/files.py).
    budget: the values left to the game the file belongs to; by default, the file's own MAX_NODES.
    """
    return parse(files.read(path, MAX_BYTES, within, "YAML"), path, budget)


def parse(raw: bytes, path: Path, budget: Budget | None = None) -> tuple[Any, SourceMap]:
    """YAML text, as if read from path, into plain data and its source map; raise DataError on any problem."""
    smap = SourceMap(path)
    shown = display_path(path)
    if len(raw) > MAX_BYTES:
        raise DataError([Problem(shown, 1, 1, f"file is over {MAX_BYTES // 1_000_000} MB: expected at most that")])
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        bad = raw[exc.start : exc.start + 1].hex()
        raise DataError([Problem(shown, line, column, f"expected UTF-8 text, found byte 0x{bad}")]) from None
    if not text.strip() or all(ln.strip().startswith("#") or not ln.strip() for ln in text.splitlines()):
        raise DataError([Problem(shown, 1, 1, "file is empty: expected a mapping of fields")])
    if budget is not None and budget.left <= 0:  # the game's other files used it all: not worth composing
        raise DataError([Problem(shown, 1, 1, f"more than {MAX_NODES:,} values in the game's files together")])
    try:
        node = _compose(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        what = exc.problem or "not valid YAML"
        context = f" ({exc.context})" if exc.context else ""
        raise DataError([Problem(shown, line, column, f"YAML syntax: {what}{context}")]) from None
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow, placed by its index in the text
        at = min(max(exc.position, 0), len(text))
        line = text.count("\n", 0, at) + 1
        column = at - (text.rfind("\n", 0, at) + 1) + 1
        code = exc.character if isinstance(exc.character, int) else ord(str(exc.character)[:1] or " ")
        found = f"U+{code:04X}"
        message = f"expected printable text, found control character {found}"
        raise DataError([Problem(shown, line, column, message)]) from None
    except yaml.YAMLError as exc:
        raise DataError([Problem(shown, 1, 1, f"YAML syntax: {exc}")]) from None
    except RecursionError:
        raise DataError([Problem(shown, 1, 1, f"nested more than {MAX_DEPTH} levels deep")]) from None
    if node is None:
        raise DataError([Problem(shown, 1, 1, "file is empty: expected a mapping of fields")])
    try:
        data = _Builder(smap, budget).build(node, ())
    except _Limits as exc:
        raise DataError([Problem(shown, exc.mark.line, exc.mark.column, str(exc))]) from None
    except RecursionError:  # past Python's own depth: the nesting check below could not be reached
        raise DataError([Problem(shown, 1, 1, f"nested more than {MAX_DEPTH} levels deep")]) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        raise DataError([Problem(shown, line, column, f"YAML value: {getattr(exc, 'problem', exc)}")]) from None
    if not isinstance(data, dict):
        kind = type(data).__name__
        raise DataError([Problem(shown, 1, 1, f"expected a mapping of fields at the top, found a {kind}")])
    return data, smap
