"""Fuzzing the loading of game folders: bundled games and the demo game, mutated, must validate or fail cleanly.

Every case is one of the five bundled games, or the studio's demo game (tests/demogame.py: cards from
an XLSX sheet, a picture each, its own font, icon and layout), copied into a project and changed a few
times, in its structure (a key deleted, an item duplicated, a value of another type, keys reordered),
its text (unicode of every category, direction and zero-width marks, NUL, huge numbers and strings),
its YAML (tags, anchors, aliases, merge keys, a BOM, CRLF, tabs, more documents), its files (empty,
binary, a folder, a link, a loop of links, a pipe; pictures, fonts and icons too) or its sheet's cells
(formulas with no computed value, dates, clashing dotted columns, rows deleted or copied thousands of
times, a renamed sheet). `printkit validate` on it must then:

- exit 0 or 2, never with a traceback;
- put on standard error only lines of the form `path:line:column: message` (or printkit's "and N
  more problems" line, or `warning:` / `note:` lines), each an honest single line: exit 2 says why;
- finish within 5 s and 300 MB.

Each case runs in a process of its own, forked from a server that has imported printkit once, so a
case costs what its validation costs and not an interpreter's start (half a second), while a hang is
still killed and the peak memory is the case's own. `pytest -m slow` (CI's second run) tries a few hundred
cases; `pytest -m fuzz` tries 10,000. tests/benchmarks/bench_reliability.py runs the long fuzz on both
cores and prints what it found.
"""

from __future__ import annotations

import copy
import functools
import io
import itertools
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import demogame
import pytest
import yaml
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("battle-line", "soldier-battler", "time-line", "time-line-battle", "torah-timeline")
DEMO = demogame.SLUG  # the studio's demo game: cards from an XLSX sheet, pictures, its own font, icon and layout
PLAYED = "lanterns"  # the rules-language starter: its play.yaml is read, checked and compiled by validate
FUZZED = (*GAMES, DEMO, PLAYED)

# time is the case's own CPU time (user and system), so a busy machine slows no case past a bound
MAX_SECONDS = 5.0  # CPU seconds per case: more is a hang
MAX_RSS = 300 * 10**6  # bytes of peak resident memory per case
KILL_SECONDS = 10.0  # a case that has used this much CPU is killed
KILL_WALL_SECONDS = 300.0  # and one still running then, CPU or not (blocked on something it never gets)
KILL_RSS = 10**9  # and one using this much memory
QUICK_CASES = 200
LONG_CASES = 10_000

# --------------------------------------------------------------------------------------------------
# The cases: a game folder as files, changed step by step


@dataclass(frozen=True)
class Entry:
    """One name in a game folder: a file with its bytes, a folder, a link (to target) or a named pipe."""

    kind: str  # "file", "dir", "link", "fifo"
    data: bytes = b""
    target: str = ""

    def write(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)  # art/c00.png: the demo game has folders
        if self.kind == "file":
            path.write_bytes(self.data)
        elif self.kind == "dir":
            path.mkdir()
            (path / "inside.yaml").write_text("cards: []\n")
        elif self.kind == "link":
            os.symlink(self.target, path)
        elif self.kind == "fifo":
            os.mkfifo(path)
        else:
            raise ValueError(self.kind)

    def describe(self) -> str:
        if self.kind == "file":
            return f"file of {len(self.data)} bytes"
        return f"link to {self.target}" if self.kind == "link" else self.kind


@dataclass
class Case:
    """A bundled game's folder after some changes, and those changes in words."""

    game: str
    files: dict[str, Entry]
    steps: list[str] = field(default_factory=list)

    def write(self, folder: Path) -> None:
        if folder.is_symlink() or folder.is_file():
            folder.unlink()
        elif folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        for name, entry in sorted(self.files.items()):
            entry.write(folder / name)

    def describe(self) -> str:
        return f"{self.game}: " + "; ".join(self.steps)

    def __repr__(self) -> str:  # what hypothesis prints for a failing case
        return f"Case({self.describe()!r})"


def _starter_files(name: str, starter: str) -> dict[str, bytes]:
    """A game `printkit new --starter` makes, as relative path -> bytes."""
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, "-m", "printkit", "init", "-q", tmp], check=True)
        subprocess.run([sys.executable, "-m", "printkit", "new", name, "--starter", starter, "-q"], cwd=tmp, check=True)
        game = Path(tmp) / "cards" / PLAYED
        return {p.relative_to(game).as_posix(): p.read_bytes() for p in sorted(game.rglob("*")) if p.is_file()}


@functools.cache
def pristine(game: str) -> dict[str, bytes]:
    """A game's folder as its files' relative paths and bytes."""
    if game == DEMO:
        return demogame.files()
    if game == PLAYED:
        return _starter_files("Lanterns", "play")
    folder = ROOT / "cards" / game
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def _shown(data: bytes | str, limit: int = 70) -> str:
    text = repr(data)
    return text if len(text) <= limit else f"{text[: limit - 20]}…{text[-15:]} ({len(data)} long)"


# --------------------------------------------------------------------------------------------------
# Values: text of every kind, numbers at their edges, YAML that means more than it says

SPECIAL_TEXT = (
    "\u200f",  # right-to-left mark
    "\u200e",
    "\u202e",  # right-to-left override
    "\u2066\u2069",
    "\u061c",
    "\u200b",  # zero width space
    "\u200d",
    "\ufeff",
    "\x00",
    "\x1b[31mred\x1b[0m",
    "\x85",
    "\u2028",
    "\u2029",
    "\r",
    "\t",
    "\x7f",
    "\x9b",
    "\ud800",  # a lone surrogate: as an escape in YAML, invalid bytes in a raw file
    "\udfff",
    "\U0010ffff",
    "\ufffe",
    "\uffff",
    "e\u0301\u0301\u0301",
    "👩\u200d👩\u200d👧",
    "ﷺ",
    "İß",
    "שלום עולם",
    "مرحبا",
    "{icon}",
    "{",
    "}",
    "%s%n",
    "<script>",
    "&amp;",
    "../../etc/passwd",
    "a: b",
    "- x",
    "#",
    "'",
    '"',
    "\\",
)

# every unicode category, surrogates included (hypothesis leaves those out unless asked)
_ANY_CHAR = st.characters(codec=None, exclude_categories=())
texts = st.one_of(
    st.sampled_from(SPECIAL_TEXT),
    st.text(_ANY_CHAR, max_size=12),
    st.lists(st.sampled_from(SPECIAL_TEXT) | st.text(_ANY_CHAR, max_size=4), min_size=2, max_size=5).map("".join),
)
huge_texts = st.builds(
    lambda piece, count: piece * count,
    st.sampled_from(["x", "é", "\u202e", "𝔸", "word ", "{x}"]),
    st.sampled_from([301, 2000, 2001, 10_000, 600_000]),
)
# large but plausible: a count, a size or a grid a typo could make, at and past the model's bounds
BIG_INTS = (99, 100, 1000, 10_000, 100_000, 100_001, 10**6, 10**9, 2**31, -1, -100_000)
MEASURES = (
    "1000x1000mm",
    "100000x100000mm",
    "0x0mm",
    "1x100000mm",
    "1e9mm",
    "-5mm",
    "99999in",
    "0.0001mm",
    "nanmm",
    "infmm",
    "1/0in",
    "100000/3in",
    "3 mm",
    "70x95",
    "x",
)
big_ints = st.sampled_from(BIG_INTS)
numbers = st.one_of(
    big_ints,
    st.integers(),
    st.sampled_from([0, -1, 1, 2**31, 2**63, -(2**63) - 1, 10**300, -(10**300), 10**4299]),
    st.floats(),
    st.sampled_from([math.nan, math.inf, -math.inf, -0.0, 1e308, 5e-324]),
)
scalars = st.one_of(st.none(), st.booleans(), numbers, texts, huge_texts, st.sampled_from(MEASURES))
keys = st.one_of(st.sampled_from(["id", "cards", "name", "copies", "kind", "<<", "", "0"]), texts)
values: st.SearchStrategy[Any] = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(keys, inner, max_size=3), max_leaves=6
)


def _nested(opening: str, closing: str, depth: int) -> str:
    return opening * depth + closing * depth


SNIPPETS = (
    "!!int shield",
    "!!float x",
    "!!bool {a: 1}",
    "!!str 3",
    "!!int 3",
    "!!float 1e3",
    "!!null",
    "!!null x",
    "!!binary aGVsbG8=",
    "!!set {a, b}",
    "!!omap [{a: 1}]",
    "!!pairs [{a: 1}]",
    "!!timestamp 2001-12-14",
    "!!timestamp never",
    "!!python/object:os.system {}",
    "!!python/object/apply:os.system ['true']",
    "!!python/name:os.system",
    "!!merge x",
    "!!seq x",
    "!!map x",
    "!custom x",
    "!<tag:yaml.org,2002:int> 7",
    "! x",
    "&a x",
    "*a",
    "*nowhere",
    "&r [*r]",
    "&m {k: *m}",
    "&n {<<: *n}",
    "{<<: {id: merged, copies: 2}}",
    "{<<: [1]}",
    "{<<: *nowhere}",
    "{<<: [{a: 1}, {b: 2}], a: 3}",
    "[&b x, *b, *b]",
    _nested("[", "]", 49),
    _nested("[", "]", 51),
    _nested("[", "]", 2000),
    "{a: " * 60 + "x" + "}" * 60,
    "1" + "0" * 5000,
    "-" + "9" * 5000,
    "1." + "5" * 5000,
    "1e400",
    "-1e400",
    "1e-400",
    "0x" + "f" * 5000,
    ".nan",
    ".inf",
    "-.inf",
    ".NaN",
    "nan",
    "~",
    "null",
    "yes",
    "no",
    "on",
    "Off",
    "0o17",
    "0b101",
    "1_000",
    "1:20:30",
    "2001-12-14t21:59:43.10-05:00",
    "2001-13-45",
    "-0",
    "+1",
    "''",
    '""',
    "|\n  block\n  text",
    ">-\n  folded",
    "? complex",
    "[a, b]",
    "{a: b}",
    "{[1, 2]: x}",
    "{{a: 1}: x}",
    "{null: x, ~: y}",
    "{1: a, 1.0: b}",
    "- a\n- b",
    "@x",
    "`x",
    '"unterminated',
    "'it''s'",
    "a: b: c",
    "[unclosed",
    "{unclosed: 1",
    '"\\ud800"',
    '"\\udfff\\ud800"',
    '"\\x00"',
    '"\\0"',
    '"\\e[2J"',
    '"\\u202e"',
    '"\\N\\_\\L\\P"',
    '"\\U0010FFFF"',
    '"\\q"',
)


# rules.md is a Jinja template in a sandbox: what a stranger's rules could ask of it
JINJA = (
    '{{ "x".ljust(999999999) }}',
    '{{ "%0999999999d" % 1 }}',
    '{{ "{:>999999999}".format(1) }}',
    "{{ ((((2**64)**64)**64)**64)**64 }}",
    "{{ 9**65 }}",
    "{{ 'x' * 999999 }}",
    "{{ [1] * 10**7 }}",
    "{% set x = 'x' * 999999 %}{{ x ~ x ~ x }}",
    "{{ range(100000) | list | join(',') }}",
    "{% for i in range(99999) %}{% for j in range(99999) %}{% endfor %}{% endfor %}",
    "{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}",
    "{{ lipsum(100000) }}",
    "{{ ''.__class__.__mro__ }}",
    "{{ cycler.__init__.__globals__ }}",
    "{{ self }}",
    "{% include 'game.yaml' %}",
    "{% extends '/etc/passwd' %}",
    "{% import 'x' as y %}",
    "{{ 1 / 0 }}",
    "{{ x.y.z }}",
    '{{ rule("nope") }}',
    '{{ deck("nope").size }}',
    '{{ cards("nope") }}',
    '{{ diagram("nope") }}',
    '{{ diagram("../../etc/passwd") }}',
    "{{",
    "{%",
    "{# unclosed",
    "{% raw %}",
    "{% endfor %}",
    "![x](file:///etc/passwd)",
    "[x](javascript:alert(1))",
    "<script>alert(1)</script>",
    "# Setup\n" * 3000,
    "| a |\n|---|\n" + "| x |\n" * 3000,
    "> " * 5000 + "deep",
    "- " * 5000 + "deep",
    "[" * 5000 + "x" + "]" * 5000,
    "*" * 20000,
)
jinja = st.sampled_from(JINJA)


def _quoted(text: str) -> str:
    """text as a double-quoted YAML scalar: JSON's escapes are YAML's, lone surrogates as \\udXXX."""
    return json.dumps(text)


snippets = st.one_of(
    st.sampled_from(SNIPPETS),
    texts.map(_quoted),
    texts,
    huge_texts.map(_quoted),
    big_ints.map(str),
    st.sampled_from(MEASURES),
    st.integers().map(str),
    st.floats().map(repr),
)


def _raw(text: str) -> bytes:
    """Text as a file's bytes; a lone surrogate becomes bytes that are not UTF-8, as a broken editor would write."""
    return text.encode("utf-8", "surrogatepass")


# --------------------------------------------------------------------------------------------------
# The changes


def _paths(data: Any, limit: int = 3000) -> list[tuple[Any, ...]]:
    """Every place in parsed data, shallow first; a recursive structure stops at a depth."""
    out: list[tuple[Any, ...]] = [()]
    queue: list[tuple[tuple[Any, ...], Any]] = [((), data)]
    while queue and len(out) < limit:
        path, node = queue.pop(0)
        if len(path) >= 12:
            continue
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, child in items:
            out.append((*path, key))
            queue.append(((*path, key), child))
    return out[:limit]


def _get(data: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        data = data[key]
    return data


def _spelled(path: tuple[Any, ...]) -> str:
    return "".join(f"[{k}]" if isinstance(k, int) else f".{k!s}" for k in path) or "(top)"


def _structure_step(draw: st.DrawFn, name: str, text: bytes) -> tuple[bytes, str] | None:
    """Parse, change the data, dump again with yaml.safe_dump; None when the file does not parse."""
    try:
        data = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except Exception:  # it may no longer be YAML at all after an earlier step
        return None
    paths = _paths(data)
    path = draw(st.sampled_from(paths))
    what = draw(
        st.sampled_from(["delete", "retype", "grow", "duplicate", "multiply", "reorder", "rename", "swap", "add"])
    )
    if what == "grow":  # a number made large, or a size: the data most likely to cost time or memory
        grown = [p for p in paths if p and _growable(_get(data, p))]
        if not grown:
            return None
        path = draw(st.sampled_from(grown))
        old = _get(data, path)
        new = draw(big_ints if isinstance(old, int) else st.sampled_from(MEASURES))
        _get(data, path[:-1])[path[-1]] = new
        dumped = _dumped(draw, data)
        return None if dumped is None else (dumped, f"{name}: grow {_spelled(path)} from {old!r} to {new!r}")
    if what == "multiply":  # an item repeated: a long list of labels, cards or sections
        lists = [p for p in paths if p and isinstance(_get(data, p[:-1]), list)]
        if not lists:
            return None
        path = draw(st.sampled_from(lists))
        times = draw(st.sampled_from([2, 100, 1000]))  # more is slow to dump: see repeat line
        parent = _get(data, path[:-1])
        parent[path[-1] : path[-1] + 1] = [copy.deepcopy(parent[path[-1]]) for _ in range(times)]
        dumped = _dumped(draw, data)
        return None if dumped is None else (dumped, f"{name}: repeat {_spelled(path)} {times} times")
    node = _get(data, path)
    if what in ("delete", "duplicate", "rename") and not path:
        what = "reorder"
    if what == "reorder" and not isinstance(node, dict | list):
        what = "retype"
    while what == "add" and not isinstance(node, dict | list):  # a key or an item for the nearest container
        if not path:  # the whole file is one scalar
            return None
        path = path[:-1]
        node = _get(data, path)
    words = f"{name}: {what} {_spelled(path)}"
    if what == "delete":
        del _get(data, path[:-1])[path[-1]]
    elif what == "retype":
        value = draw(values)
        words += f" = {_shown(repr(value))}"
        if path:
            _get(data, path[:-1])[path[-1]] = value
        else:
            data = value
    elif what == "duplicate":
        parent = _get(data, path[:-1])
        if isinstance(parent, list):
            parent.insert(path[-1], node)
        else:
            new = draw(keys)
            parent[new] = node
            words += f" as {new!r}"
    elif what == "reorder":
        order = draw(st.permutations(range(len(node))))
        if isinstance(node, dict):
            items = list(node.items())
            node.clear()
            node.update(items[i] for i in order)
        else:
            node[:] = [node[i] for i in order]
        words += f" as {list(order)[:12]}"
    elif what == "rename":
        parent = _get(data, path[:-1])
        if isinstance(parent, list):
            parent[path[-1]] = {draw(keys): node}
        else:
            new = draw(keys)
            value = parent.pop(path[-1])
            parent[new] = value
            words += f" to {_shown(new)}"
    elif what == "swap":
        other = draw(st.sampled_from(paths))
        value = _get(data, other)
        words += f" = the value at {_spelled(other)}"
        if path:
            _get(data, path[:-1])[path[-1]] = value
        else:
            data = value
    else:  # add a key or an item
        value = draw(values)
        if isinstance(node, dict):
            new = draw(keys)
            node[new] = value
            words += f" key {_shown(new)} = {_shown(repr(value))}"
        else:
            node.append(value)
            words += f" item {_shown(repr(value))}"
    dumped = _dumped(draw, data)
    return None if dumped is None else (dumped, words)


def _growable(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (
        isinstance(value, str) and re.fullmatch(r"[\d./x]+(mm|cm|in|pt)", value) is not None
    )


def _dumped(draw: st.DrawFn, data: Any) -> bytes | None:
    """The data as yaml.safe_dump writes it, in block, flow or mixed style; None when it cannot be written."""
    unicode, flow = draw(st.booleans()), draw(st.sampled_from([False, None, True]))
    try:
        dumped = yaml.safe_dump(
            data,
            allow_unicode=unicode,
            sort_keys=False,
            default_flow_style=flow,
            width=10**6,
        )
    except Exception:  # safe_dump cannot write everything (an integer over 4,300 digits): not a case
        return None
    return _raw(dumped)


@dataclass(frozen=True)
class Spans:
    """Where a YAML text's nodes stand, as byte offsets: scalar values, mapping keys, and mappings."""

    values: tuple[tuple[int, int], ...]  # a scalar that is a mapping's value or a sequence's item
    keys: tuple[tuple[int, int], ...]
    mappings: tuple[tuple[int, int, bool], ...]  # where it starts, its first key's start, whether it is {flow}


@functools.lru_cache(maxsize=512)
def spans(text: bytes) -> Spans | None:
    """The nodes of text, found by PyYAML's own composer; None when it does not compose, or is too big to."""
    if len(text) > 100_000:  # the pure-Python composer (whose marks are exact) takes seconds on such a file
        return None
    try:
        decoded = text.decode("utf-8")
        root = yaml.compose(decoded, Loader=yaml.SafeLoader)
    except Exception:  # not YAML (any more), or nested past Python's recursion limit
        return None
    if decoded.isascii():
        offset: Callable[[int], int] = int
    else:
        starts = [0, *itertools.accumulate(len(c.encode("utf-8", "surrogatepass")) for c in decoded)]
        offset = starts.__getitem__
    values, key_spans, mappings = [], [], []
    seen: set[int] = set()
    todo = [root] if root is not None else []
    while todo and len(values) < 5000:
        node = todo.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            if node.value:
                first = node.value[0][0].start_mark.index
                mappings.append((offset(node.start_mark.index), offset(first), bool(node.flow_style)))
            for key, value in node.value:
                if isinstance(key, yaml.ScalarNode):
                    key_spans.append((offset(key.start_mark.index), offset(key.end_mark.index)))
                todo.append(value)
        elif isinstance(node, yaml.SequenceNode):
            todo.extend(node.value)
        elif isinstance(node, yaml.ScalarNode) and node is not root:
            values.append((offset(node.start_mark.index), offset(node.end_mark.index)))
    return Spans(tuple(sorted(values)), tuple(sorted(key_spans)), tuple(sorted(mappings)))


def _growable_text(value: bytes) -> bool:
    return re.fullmatch(rb"-?\d+|[\d./x]+(mm|cm|in|pt)", value) is not None


def _line_of(text: bytes, at: int) -> int:
    return text.count(b"\n", 0, at) + 1


def _text_step(draw: st.DrawFn, name: str, text: bytes) -> tuple[bytes, str] | None:
    what = draw(
        st.sampled_from(
            [
                "insert",
                "value",
                "grow",
                "key",
                "delete line",
                "duplicate line",
                "repeat line",
                "swap lines",
                "indent",
                "anchor",
                "merge",
                "whole",
            ]
        )
    )
    lines = text.split(b"\n")
    if what == "insert":
        at = draw(st.integers(0, len(text)))
        piece = draw(st.one_of(texts, snippets, jinja))
        return text[:at] + _raw(piece) + text[at:], f"{name}: insert {_shown(piece)} at byte {at}"
    where = spans(text)
    if what == "value":
        if where is None or not where.values:
            return None
        begin, end = draw(st.sampled_from(where.values))
        piece = draw(snippets)
        words = f"{name}: line {_line_of(text, begin)} value {_shown(text[begin:end])} -> {_shown(piece)}"
        return text[:begin] + _raw(piece) + text[end:], words
    if what == "grow":  # a number or a size made large
        grown = [v for v in where.values if _growable_text(text[v[0] : v[1]])] if where else []
        if not grown:
            return None
        begin, end = draw(st.sampled_from(grown))
        old = text[begin:end]
        new = str(draw(big_ints)) if old.lstrip(b"-").isdigit() else draw(st.sampled_from(MEASURES))
        words = f"{name}: line {_line_of(text, begin)} grow {old.decode()} -> {new}"
        return text[:begin] + new.encode() + text[end:], words
    if what == "anchor":  # an anchor on one value, its alias for another: before it, after it, or inside it
        if where is None or not where.values:
            return None
        anchored = draw(st.sampled_from(where.values + tuple(m[:2] for m in where.mappings)))
        alias = draw(st.sampled_from(where.values))
        one, two = _line_of(text, anchored[0]), _line_of(text, alias[0])
        if alias == anchored:
            return text[: alias[0]] + b"&a [*a]" + text[alias[1] :], f"{name}: line {one} value -> &a [*a]"
        edits = sorted([(anchored[0], anchored[0], b"&a "), (alias[0], alias[1], b"*a")])
        if edits[0][1] > edits[1][0]:
            return None
        for begin, end, new in reversed(edits):
            text = text[:begin] + new + text[end:]
        return text, f"{name}: anchor &a on the node of line {one}, value of line {two} -> *a"
    if what == "key":
        if where is None or not where.keys:
            return None
        begin, end = draw(st.sampled_from(where.keys))
        new = draw(keys.map(_quoted) | keys | st.sampled_from(["<<", "? x", "!!int k", "&k k", "*k", "[k]"]))
        words = f"{name}: line {_line_of(text, begin)} key {_shown(text[begin:end])} -> {_shown(new)}"
        return text[:begin] + _raw(new) + text[end:], words
    if what == "merge":  # a merge key (<<) into a mapping: of another mapping of the file, or of anything
        if where is None or not where.mappings:
            return None
        into = draw(st.sampled_from(where.mappings))
        source = draw(
            st.sampled_from(["anchored", "*m", "{copies: 9}", "[*m]", "*nowhere", "x", "[{a: 1}, {b: 2}]", "[]"])
        )
        line = _line_of(text, into[0])
        edits = []
        if source == "anchored":
            anchored = draw(st.sampled_from(where.mappings))
            edits.append((anchored[0], b"&m "))
            source = "*m"
        column = into[1] - (text.rfind(b"\n", 0, into[1]) + 1)
        merge = f"<<: {source}, " if into[2] else f"<<: {source}\n" + " " * column
        edits.append((into[1], _raw(merge)))
        for at, new in sorted(edits, reverse=True):
            text = text[:at] + new + text[at:]
        return text, f"{name}: `<<: {source}` into the mapping of line {line}" + (
            f", &m on the mapping of line {_line_of(text, edits[0][0])}" if len(edits) > 1 else ""
        )
    if what == "whole":
        how = draw(
            st.sampled_from(
                [
                    "BOM",
                    "CRLF",
                    "CR",
                    "tabs",
                    "second document",
                    "documents",
                    "directive",
                    "tag directive",
                    "end marker",
                    "truncate",
                    "no final newline",
                    "NUL at end",
                    "two BOMs",
                    "UTF-16",
                    "Latin-1",
                ]
            )
        )
        if how == "BOM":
            return b"\xef\xbb\xbf" + text, f"{name}: a BOM first"
        if how == "two BOMs":
            return b"\xef\xbb\xbf\xef\xbb\xbf" + text, f"{name}: two BOMs first"
        if how == "CRLF":
            return text.replace(b"\n", b"\r\n"), f"{name}: CRLF line ends"
        if how == "CR":
            return text.replace(b"\n", b"\r"), f"{name}: CR line ends"
        if how == "tabs":
            return re.sub(rb"(?m)^( +)", lambda m: b"\t" * len(m[1]), text), f"{name}: tabs for indentation"
        if how == "second document":
            return text + b"\n---\n" + text, f"{name}: itself again as a second document"
        if how == "documents":
            return b"---\n" + text + b"\n---\nx: 1\n---\n", f"{name}: three documents"
        if how == "directive":
            return b"%YAML 1.1\n---\n" + text, f"{name}: %YAML directive"
        if how == "tag directive":
            return b"%TAG ! tag:evil.example,2000:\n---\n" + text, f"{name}: %TAG directive"
        if how == "end marker":
            at = draw(st.integers(0, len(lines)))
            return b"\n".join([*lines[:at], b"...", *lines[at:]]), f"{name}: `...` before line {at + 1}"
        if how == "truncate":
            at = draw(st.integers(0, len(text)))
            return text[:at], f"{name}: cut after byte {at}"
        if how == "no final newline":
            return text.rstrip(b"\n"), f"{name}: no final newline"
        if how == "NUL at end":
            return text + b"\x00", f"{name}: NUL at the end"
        if how == "UTF-16":
            return text.decode("utf-8", "replace").encode("utf-16"), f"{name}: as UTF-16"
        return text.decode("utf-8", "replace").encode("latin-1", "replace"), f"{name}: as Latin-1"
    # line changes
    at = draw(st.integers(0, max(0, len(lines) - 1)))
    if what == "delete line":
        return b"\n".join(lines[:at] + lines[at + 1 :]), f"{name}: delete line {at + 1} {_shown(lines[at])}"
    if what == "duplicate line":
        return b"\n".join(lines[: at + 1] + lines[at:]), f"{name}: duplicate line {at + 1} {_shown(lines[at])}"
    if what == "repeat line":
        times = draw(st.sampled_from([100, 10_000]))
        words = f"{name}: repeat line {at + 1} {times} times {_shown(lines[at])}"
        return b"\n".join(lines[:at] + [lines[at]] * times + lines[at + 1 :]), words
    if what == "swap lines":
        other = draw(st.integers(0, max(0, len(lines) - 1)))
        lines[at], lines[other] = lines[other], lines[at]
        return b"\n".join(lines), f"{name}: swap lines {at + 1} and {other + 1}"
    indent = draw(st.sampled_from([b"\t", b" ", b"  ", b"\t  ", b"", b"          "]))
    lines[at] = indent + lines[at].lstrip(b" ")
    return b"\n".join(lines), f"{name}: line {at + 1} indented with {indent!r}"


CONTENTS = (
    b"",
    b"   \n\t\n",
    b"# only a comment\n",
    b"~\n",
    b"---\n",
    b"...\n",
    b"[]\n",
    b"x\n",
    b"cards:\n",
    b"cards: []\n",
    b"cards: {}\n",
    b"cards: [~]\n",
    b"\xef\xbb\xbf",
    b"\xff\xfe\x00\x00",
    b"\x00" * 64,
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
)


def _file_step(draw: st.DrawFn, case: Case) -> str:
    others = sorted(n for n in case.files if n != "game.yaml")  # card files, rules, pictures, fonts, icons, sheets
    name = draw(st.sampled_from(sorted({*others, "x.yaml", "rules.md", "game.yaml"})))
    contents = st.one_of(st.sampled_from(CONTENTS), st.binary(max_size=200))
    if name == "game.yaml":  # the game file itself keeps being a file: the folder stays a game folder
        data = draw(contents)
        case.files[name] = Entry("file", data)
        return f"{name} := {_shown(data)}"
    what = draw(
        st.sampled_from(
            ["content", "delete", "folder", "link", "dangling link", "loop", "self loop", "outside", "fifo"]
        )
    )
    if what == "content":
        data = draw(contents)
        case.files[name] = Entry("file", data)
        return f"{name} := {_shown(data)}"
    if what == "delete":
        if name not in case.files:
            return f"{name}: nothing to delete"
        del case.files[name]
        return f"delete {name}"
    if what == "folder":
        case.files[name] = Entry("dir")
        return f"{name} made a folder"
    if what == "fifo":
        case.files[name] = Entry("fifo")
        return f"{name} made a named pipe"
    if what == "link":
        to = draw(st.sampled_from(sorted(set(case.files) - {name}) or ["game.yaml"]))
        case.files[name] = Entry("link", target=to)
        return f"{name} made a link to {to}"
    if what == "dangling link":
        case.files[name] = Entry("link", target="nowhere.yaml")
        return f"{name} made a link to nothing"
    if what == "self loop":
        case.files[name] = Entry("link", target=name)
        return f"{name} made a link to itself"
    if what == "loop":
        other = "loop.yaml" if name != "loop.yaml" else "pool.yaml"
        case.files[name] = Entry("link", target=other)
        case.files[other] = Entry("link", target=name)
        return f"{name} and {other} made links to each other"
    to = draw(st.sampled_from(["/etc/passwd", "/dev/zero", "/dev/null", "/", "..", ".", "../../printkit.toml"]))
    case.files[name] = Entry("link", target=to)
    return f"{name} made a link to {to}"


# what a spreadsheet cell can hold that a YAML card would not: formulas (saved with no computed value),
# text Excel reads as a formula, dates, and the dotted column names that build a card's nested fields
FORMULAS = ("=1/0", "=SUM(F2:F9)", '=HYPERLINK("http://x","y")', "=A1", "=NOW()", "@SUM(1)", "+1", "-2", "=")
HEADERS = ("id", "kind", "name", "text", "art", "copies", "stats", "stats.power", "stats.power.x", "stats.0", "0", "")
sheet_values = st.one_of(
    scalars,
    st.sampled_from(FORMULAS),
    st.datetimes(allow_imaginary=False),
    st.sampled_from(["art/../../x.png", "/etc/passwd", "art/missing.png", "plain", "{nowhere}", "stats.power"]),
)


def _sheet_step(draw: st.DrawFn, name: str, data: bytes) -> tuple[bytes, str]:
    """One change to an XLSX card file, made through openpyxl so the file stays a workbook (mostly)."""
    import openpyxl

    try:
        book = openpyxl.load_workbook(io.BytesIO(data))
    except Exception:  # an earlier step broke the file: it stays broken
        return data, f"{name}: not a workbook any more"
    sheet = book.worksheets[0]
    rows, columns = max(sheet.max_row, 1), max(sheet.max_column, 1)
    what = draw(
        st.sampled_from(
            [
                "cell",
                "cell",
                "formula",
                "header",
                "delete row",
                "delete column",
                "copy row",
                "more rows",
                "empty",
                "rename sheet",
                "second sheet",
            ]
        )
    )
    if what in ("cell", "formula", "header"):
        row = 1 if what == "header" else draw(st.integers(1, rows + 1))
        column = draw(st.integers(1, columns + 1))
        value = draw(
            st.sampled_from(HEADERS) | texts
            if what == "header"
            else st.sampled_from(FORMULAS)
            if what == "formula"
            else sheet_values
        )
        try:
            sheet.cell(row, column).value = value
        except Exception as exc:  # openpyxl refuses control characters (IllegalCharacterError) and odd types
            return data, f"{name}: {_shown(value)} refused by openpyxl ({type(exc).__name__})"
        words = f"{name}: {sheet.cell(row, column).coordinate} := {_shown(str(value))}"
    elif what == "delete row":
        row = draw(st.integers(1, rows))
        sheet.delete_rows(row)
        words = f"{name}: row {row} deleted"
    elif what == "delete column":
        column = draw(st.integers(1, columns))
        sheet.delete_cols(column)
        words = f"{name}: column {column} deleted"
    elif what in ("copy row", "more rows"):
        row = draw(st.integers(1, rows))
        times = 1 if what == "copy row" else draw(st.sampled_from([100, 2000]))
        copied = [cell.value for cell in sheet[row]]
        for _ in range(times):
            sheet.append(copied)
        words = f"{name}: row {row} appended {times} times"
    elif what == "empty":
        sheet.delete_rows(1, rows)
        words = f"{name}: every row deleted"
    elif what == "rename sheet":
        sheet.title = draw(st.sampled_from(["Other", "deck", "Deck ", "Sheet1"]))
        words = f"{name}: its sheet renamed {sheet.title!r}"
    else:
        book.create_sheet("Before", 0)
        words = f"{name}: an empty sheet put first"
    out = io.BytesIO()
    try:
        book.save(out)
    except Exception as exc:  # text openpyxl cannot write (surrogates): not a file a designer could have
        return data, f"{name}: {words} not writable ({type(exc).__name__})"
    return out.getvalue(), words


@st.composite
def cases(draw: st.DrawFn, max_steps: int = 3) -> Case:
    """A bundled game, or the demo game, changed one to max_steps times."""
    game = draw(st.sampled_from(FUZZED))
    case = Case(game, {name: Entry("file", data) for name, data in pristine(game).items()})
    for _ in range(draw(st.integers(1, max_steps))):
        sheets = sorted(n for n, e in case.files.items() if e.kind == "file" and n.endswith(".xlsx"))
        kind = draw(
            st.sampled_from(["text", "structure", "file", "sheet"] if sheets else ["text", "structure", "file"])
        )
        if kind == "file":
            case.steps.append(_file_step(draw, case))
            continue
        if kind == "sheet":
            name = draw(st.sampled_from(sheets))
            data, words = _sheet_step(draw, name, case.files[name].data)
            case.files[name] = Entry("file", data)
            case.steps.append(words)
            continue
        names = sorted(n for n, e in case.files.items() if e.kind == "file")
        if kind == "structure":
            names = [n for n in names if n.endswith(".yaml")]
        if not names:
            continue
        name = draw(st.sampled_from(names))
        step = (_structure_step if kind == "structure" else _text_step)(draw, name, case.files[name].data)
        if step is None:
            case.steps.append(f"{name}: {kind} change not possible")
            continue
        data, words = step
        case.files[name] = Entry("file", data)
        case.steps.append(words)
    return case


# --------------------------------------------------------------------------------------------------
# Running a case: `python -m printkit validate` in a process forked from one that imported printkit

SERVER = r"""
import faulthandler, json, os, runpy, select, signal, sys, time, traceback
import printkit.cli, printkit.cli.parser, printkit.cli.make, printkit.build  # imported once, before every fork

protocol = os.fdopen(os.dup(1), "w")
os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # nothing but replies on the protocol
page = os.sysconf("SC_PAGE_SIZE")
ticks = os.sysconf("SC_CLK_TCK")  # /proc/<pid>/stat counts CPU time in these

def child(req):
    os.chdir(req["cwd"])
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    os.dup2(os.open(req["out"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), 1)
    os.dup2(os.open(req["err"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), 2)
    global stack  # where a slow case's stack is written when the server asks (SIGUSR1)
    stack = open(req["stack"], "w")
    faulthandler.register(signal.SIGUSR1, file=stack, all_threads=False)
    sys.argv = ["printkit", *req["argv"]]
    code = 0
    try:  # what `python -m printkit ...` does, exit codes and uncaught exceptions alike
        runpy.run_module("printkit", run_name="__main__", alter_sys=True)
    except SystemExit as exc:
        if exc.code is None:
            code = 0
        elif isinstance(exc.code, int):
            code = exc.code
        else:
            print(exc.code, file=sys.stderr)
            code = 1
    except BaseException:
        traceback.print_exc()
        code = 1
    try:
        sys.stdout.flush()
    except BaseException:
        traceback.print_exc()
        code = 120
    sys.stderr.flush()
    os._exit(code & 0xFF)

for line in sys.stdin:
    req = json.loads(line)
    pid = os.fork()
    if pid == 0:
        try:
            child(req)
        finally:
            os._exit(99)
    start = time.perf_counter()
    pidfd = os.pidfd_open(pid)
    killed, rss, dumped, cpu = "", 0, False, 0.0
    open(req["stack"], "w").close()
    while not select.select([pidfd], [], [], 0.02)[0]:
        try:
            with open(f"/proc/{pid}/statm") as f:
                rss = max(rss, int(f.read().split()[1]) * page)
            with open(f"/proc/{pid}/stat") as f:  # utime and stime, the 14th and 15th fields, after the name's ")"
                fields = f.read().rsplit(")", 1)[1].split()
                cpu = (int(fields[11]) + int(fields[12])) / ticks
        except (OSError, ValueError, IndexError):
            pass
        if cpu > req["kill_seconds"] or time.perf_counter() - start > req["kill_wall_seconds"]:
            killed = "time"
        elif rss > req["kill_rss"]:
            killed = "memory"
        if not dumped and (killed or cpu > req["dump_seconds"]):
            os.kill(pid, signal.SIGUSR1)  # what it is doing, from faulthandler
            dumped = True
            time.sleep(0.2)
        if killed:
            os.kill(pid, signal.SIGKILL)
            break
    _, status, usage = os.wait4(pid, 0)
    seconds = usage.ru_utime + usage.ru_stime
    os.close(pidfd)
    reply = {"code": os.waitstatus_to_exitcode(status), "seconds": seconds, "killed": killed,
             "rss": max(rss, usage.ru_maxrss * 1024)}
    for part in ("out", "err", "stack"):
        with open(req[part], "rb") as f:
            reply[part] = f.read(1_000_000).decode("utf-8", "backslashreplace")
    protocol.write(json.dumps(reply) + "\n")
    protocol.flush()
"""


@dataclass
class Result:
    code: int
    out: str
    err: str
    seconds: float  # CPU time, user and system
    rss: int  # peak resident bytes
    killed: str = ""  # "time" or "memory" when the case was stopped
    stack: str = ""  # where a case over MAX_SECONDS, or stopped, was: faulthandler's dump


class Runner:
    """A printkit project in a temporary folder, and a server forking a `printkit validate` per case."""

    def __init__(self, where: Path | None = None) -> None:
        self.home = Path(tempfile.mkdtemp(prefix="printkit-fuzz-", dir=where))
        self.project = self.home / "project"
        subprocess.run([sys.executable, "-m", "printkit", "init", "-q", str(self.project)], check=True, cwd=self.home)
        self.server = subprocess.Popen(
            [sys.executable, "-c", SERVER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=self.project,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )

    def run(self, case: Case) -> Result:
        folder = self.project / "cards" / case.game
        for game in FUZZED:  # the last case's game goes: one game in the project at a time
            shutil.rmtree(self.project / "cards" / game, ignore_errors=True)
        case.write(folder)
        return self.command(["validate", f"cards/{case.game}"])

    def command(self, argv: list[str]) -> Result:
        assert self.server.stdin and self.server.stdout
        request = {
            "argv": argv,
            "cwd": str(self.project),
            "out": str(self.home / "stdout"),
            "err": str(self.home / "stderr"),
            "stack": str(self.home / "stack"),
            "dump_seconds": MAX_SECONDS,
            "kill_seconds": KILL_SECONDS,
            "kill_wall_seconds": KILL_WALL_SECONDS,
            "kill_rss": KILL_RSS,
        }
        self.server.stdin.write(json.dumps(request) + "\n")
        self.server.stdin.flush()
        line = self.server.stdout.readline()
        if not line:
            raise RuntimeError("the fuzzing server stopped")
        reply = json.loads(line)
        return Result(
            reply["code"], reply["out"], reply["err"], reply["seconds"], reply["rss"], reply["killed"], reply["stack"]
        )

    def close(self) -> None:
        if self.server.stdin:
            self.server.stdin.close()
        self.server.wait(timeout=30)
        if self.server.stdout:
            self.server.stdout.close()
        shutil.rmtree(self.home, ignore_errors=True)


# --------------------------------------------------------------------------------------------------
# The property

_PROBLEM = re.compile(r"[^:\s][^:]*:(?:[1-9]\d*:[1-9]\d*|[^:\s]+![A-Z]+[1-9]\d*): \S.*")
_MORE = re.compile(r"printkit: and (?:1 more problem|[1-9]\d* more problems) like these; fix the ones above first")
_ASIDE = re.compile(r"(?:warning|note): \S.*")
# what printkit's safe() escapes: a character that breaks a line, moves the cursor or turns text around
_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]")


def bad_lines(err: str) -> list[str]:
    """The lines of standard error that are not one problem, the "and N more" line, a warning or a note."""
    bad = []
    for line in err.removesuffix("\n").split("\n") if err else []:
        if _UNSAFE.search(line) or not (_PROBLEM.fullmatch(line) or _MORE.fullmatch(line) or _ASIDE.fullmatch(line)):
            bad.append(line)
    return bad


def failures(result: Result) -> dict[str, str]:
    """What is wrong with one run, by kind: traceback, exit, hang, memory, lines; empty when it behaved."""
    found = {}
    if "Traceback" in result.err:
        found["traceback"] = result.err[-3000:]
    elif result.code not in (0, 2):
        found["exit"] = f"exit code {result.code}" + (f" (killed: {result.killed})" if result.killed else "")
    where = f"\n{result.stack.strip()}" if result.stack.strip() else ""
    if result.seconds > MAX_SECONDS or result.killed == "time":
        found["hang"] = f"{result.seconds:.2f} s of CPU{where}"
    if result.rss > MAX_RSS or result.killed == "memory":
        found["memory"] = f"{result.rss / 1e6:.0f} MB{where}"
    if "traceback" not in found:
        bad = bad_lines(result.err)
        if bad:
            found["lines"] = "\n".join(_shown(line, 300) for line in bad[:5])
        elif result.code == 2 and not result.err.strip():
            found["lines"] = "exit 2 without a word on standard error"
    return found


def report(case: Case, result: Result, found: dict[str, str]) -> str:
    return (
        f"{case.describe()}\nexit {result.code}, {result.seconds:.2f} s, {result.rss / 1e6:.0f} MB\n"
        + "\n".join(f"[{kind}] {text}" for kind, text in found.items())
        + f"\n--- stderr (end) ---\n{result.err[-1500:]}"
    )


# --------------------------------------------------------------------------------------------------
# Named cases: each kind of input the issue lists once, on the smallest game, and what the fuzz found

SMALL = "soldier-battler"
SHEETS = "card_sheets: [{file: cards.xlsx, sheet: Deck}]"  # the demo game's


def _files(game: str = SMALL) -> dict[str, Entry]:
    return {name: Entry("file", data) for name, data in pristine(game).items()}


def edited(name: str, old: str, new: str | bytes, game: str = SMALL) -> Case:
    """The game with the first `old` of one file replaced."""
    files, text = _files(game), pristine(game)[name]
    assert old.encode() in text, f"{game}/{name} no longer holds {old!r}: update the named case"
    new_bytes = new if isinstance(new, bytes) else _raw(new)
    files[name] = Entry("file", text.replace(old.encode(), new_bytes, 1))
    return Case(game, files, [f"{name}: {_shown(old)} -> {_shown(new)}"])


def whole(name: str, change: Callable[[bytes], bytes], words: str, game: str = SMALL) -> Case:
    files = _files(game)
    files[name] = Entry("file", change(pristine(game)[name]))
    return Case(game, files, [f"{name}: {words}"])


def entries(words: str, game: str = SMALL, **changed: Entry | None) -> Case:
    """The game with some of its names made other things (None deletes one); x_yaml stands for x.yaml."""
    files = _files(game)
    for key, entry in changed.items():
        name = key.replace("_yaml", ".yaml").replace("_md", ".md")
        if entry is None:
            files.pop(name, None)
        else:
            files[name] = entry
    return Case(game, files, [words])


TITLE = "title: Soldier Battler"
PLAYERS = "players: 2"
CARD = "  - {id: swordsman,"
LAUGHS = "".join(f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]\n" for i in range(1, 10))


def _rules_first(snippet: str) -> Case:
    return edited("rules.md", "# Overview", snippet + "\n\n# Overview")


NAMED: dict[str, Callable[[], Case]] = {
    # YAML tags, anchors, aliases, merge keys
    "tag-int": lambda: edited("game.yaml", PLAYERS, "players: !!int shield"),
    "tag-float": lambda: edited("game.yaml", PLAYERS, "players: !!float x"),
    "tag-bool-mapping": lambda: edited("game.yaml", TITLE, "title: !!bool {a: 1}"),
    "tag-python-object": lambda: edited("game.yaml", TITLE, "title: !!python/object:os.system {}"),
    "tag-python-apply": lambda: edited("game.yaml", TITLE, "title: !!python/object/apply:os.system ['true']"),
    "tag-custom": lambda: edited("game.yaml", TITLE, "title: !custom x"),
    "tag-binary": lambda: edited("game.yaml", TITLE, "title: !!binary aGVsbG8="),
    "tag-set": lambda: edited("game.yaml", TITLE, "title: !!set {a, b}"),
    "merge-key": lambda: edited("game.yaml", TITLE, "<<: {title: Merged}"),
    "merge-of-a-scalar": lambda: edited("game.yaml", TITLE, "<<: x\n" + TITLE),
    "merge-undefined-alias": lambda: edited("game.yaml", TITLE, "<<: *nowhere\n" + TITLE),
    "anchor-and-alias": lambda: whole(
        "soldiers.yaml",
        lambda t: t.replace(CARD.encode(), b"  - &first {id: swordsman,", 1) + b"  - *first\n",
        "the first card anchored (&first), and *first as a fifth card",
    ),
    "recursive-alias": lambda: edited("game.yaml", TITLE, "title: &r [*r]"),
    "recursive-merge": lambda: edited("game.yaml", TITLE, "title: &m {<<: *m}"),
    "undefined-alias": lambda: edited("game.yaml", TITLE, "title: *nowhere"),
    "billion-laughs": lambda: whole(
        "game.yaml", lambda t: t + b"l0: &l0 [x]\n" + LAUGHS.encode(), "nine levels of aliases"
    ),
    # numbers
    "int-of-5001-digits": lambda: edited("game.yaml", PLAYERS, "players: 1" + "0" * 5000),
    "float-overflow": lambda: edited("game.yaml", PLAYERS, "players: 1e400"),
    "nan": lambda: edited("game.yaml", PLAYERS, "players: .nan"),
    "inf": lambda: edited("soldiers.yaml", "hp: 80,", "hp: .inf,"),
    "copies-huge": lambda: edited("soldiers.yaml", "copies: 2,", "copies: 10000000000,"),
    # text
    "bom": lambda: whole("game.yaml", lambda t: b"\xef\xbb\xbf" + t, "a BOM first"),
    "crlf": lambda: whole("soldiers.yaml", lambda t: t.replace(b"\n", b"\r\n"), "CRLF line ends"),
    "tabs": lambda: whole("game.yaml", lambda t: re.sub(rb"(?m)^( +)", b"\t", t), "tabs for indentation"),
    "several-documents": lambda: whole(
        "soldiers.yaml", lambda t: t + b"---\n" + t, "itself again, as a second document"
    ),
    "rtl-override": lambda: edited("game.yaml", TITLE, "title: Soldier \u202eBattler\u200f"),
    "zero-width-id": lambda: edited("soldiers.yaml", "{id: swordsman,", "{id: sword\u200bsman,"),
    "nul": lambda: edited("game.yaml", TITLE, "title: Soldier\x00Battler"),
    "lone-surrogate-escape": lambda: edited("game.yaml", TITLE, 'title: "\\ud800"'),
    "lone-surrogate-bytes": lambda: edited("game.yaml", TITLE, "title: Soldier\ud800"),
    "every-category": lambda: edited(
        "game.yaml", TITLE, "title: " + _quoted("".join(chr(c) for c in range(0x20, 0x3000, 7)))
    ),
    "huge-string": lambda: edited("game.yaml", TITLE, "title: " + "x" * 1_900_000),
    "file-over-2-mb": lambda: whole("soldiers.yaml", lambda t: t + b"#" * 2_100_000, "over 2 MB"),
    "nested-60": lambda: edited("game.yaml", TITLE, "title: " + _nested("[", "]", 60)),
    "nested-2000": lambda: edited("game.yaml", TITLE, "title: " + _nested("[", "]", 2000)),
    # files
    "empty-card-file": lambda: entries("soldiers.yaml empty", soldiers_yaml=Entry("file")),
    "empty-game-file": lambda: entries("game.yaml empty", game_yaml=Entry("file")),
    "binary-card-file": lambda: entries("soldiers.yaml binary", soldiers_yaml=Entry("file", bytes(range(256)))),
    "folder-named-yaml": lambda: entries("x.yaml a folder", x_yaml=Entry("dir")),
    "link-to-game-file": lambda: entries("x.yaml a link to game.yaml", x_yaml=Entry("link", target="game.yaml")),
    "dangling-link": lambda: entries("x.yaml a link to nothing", x_yaml=Entry("link", target="nowhere.yaml")),
    "link-loop": lambda: entries(
        "x.yaml and y.yaml links to each other",
        x_yaml=Entry("link", target="y.yaml"),
        y_yaml=Entry("link", target="x.yaml"),
    ),
    "self-link": lambda: entries("x.yaml a link to itself", x_yaml=Entry("link", target="x.yaml")),
    "link-outside": lambda: entries("x.yaml a link to /etc/passwd", x_yaml=Entry("link", target="/etc/passwd")),
    "link-to-device": lambda: entries("x.yaml a link to /dev/zero", x_yaml=Entry("link", target="/dev/zero")),
    "named-pipe": lambda: entries("x.yaml a named pipe", x_yaml=Entry("fifo")),
    "rules-folder": lambda: entries("rules.md a folder", rules_md=Entry("dir")),
    "rules-missing": lambda: entries("rules.md deleted", rules_md=None),
    "rules-binary": lambda: entries("rules.md binary", rules_md=Entry("file", bytes(range(256)))),
    "rules-link-loop": lambda: entries("rules.md a link to itself", rules_md=Entry("link", target="rules.md")),
    # found by the fuzz: a board's grid, repeated headings, and what a rules template can ask
    "board-1000-by-1000": lambda: edited("game.yaml", "cols: 3, rows: 3,", "cols: 1000, rows: 1000,"),
    "board-100000-by-100000": lambda: edited("game.yaml", "cols: 3, rows: 3,", "cols: 100000, rows: 100000,"),
    "rules-10000-same-headings": lambda: _rules_first("# Setup\n" * 10_000),
    "engine-board-100001-rows": lambda: edited(
        "game.yaml", "{id: board_rows, value: 3,", "{id: board_rows, value: 100001,"
    ),
    "engine-board-columns-1e9": lambda: edited(
        "game.yaml", "{id: board_columns, value: 3,", "{id: board_columns, value: 1000000000,"
    ),
    "engine-flags-1e9": lambda: edited(
        "game.yaml", "{id: flags, value: 9,", "{id: flags, value: 1000000000,", game="battle-line"
    ),
    "rules-ljust": lambda: _rules_first('{{ "x".ljust(999999999) }}'),
    "rules-format-width": lambda: _rules_first('{{ "{:>999999999}".format(1) }}'),
    "rules-percent-width": lambda: _rules_first('{{ "%0999999999d" % 1 }}'),
    "rules-power-tower": lambda: _rules_first("{{ ((((2**64)**64)**64)**64)**64 }}"),
    "rules-loop-of-loops": lambda: _rules_first(
        "{% for i in range(99999) %}{% for j in range(99999) %}{% endfor %}{% endfor %}"
    ),
    # the demo game: its sheet named a thousand times over, its layout's font no longer defined, a formula
    # saved with no computed value
    "sheet-named-1000-times": lambda: edited(
        "game.yaml", SHEETS, "card_sheets: [" + ", ".join(["{file: cards.xlsx, sheet: Deck}"] * 1000) + "]", game=DEMO
    ),
    "tactics-values-empty": lambda: edited("tactics.yaml", "values: [8]", "values: []", game="battle-line"),
    "token-too-big-for-the-paper": lambda: edited("game.yaml", "size: 5/8in", "size: 99999in"),
    "key-a-space": lambda: edited("game.yaml", PLAYERS, "' ': 1\n" + PLAYERS),
    "layout-font-undefined": lambda: edited("game.yaml", "fonts:\n  title: {file: fonts/title.ttf}\n", "", game=DEMO),
    # the final long run (seed 71): a hexadecimal count too long for Python to print, a font damaged where
    # reportlab's reader fails with no TTFError, and a board label no space can hold
    "hex-count-of-5000-digits": lambda: edited(
        "troops.yaml", "kind: troop", "kind: 0x" + "f" * 5000, game="battle-line"
    ),
    "font-damaged-mid-table": lambda: whole(
        "fonts/title.ttf", lambda data: data[:506] + b"2001-13-45" + data[506:], "bytes put in at 506", game=DEMO
    ),
    # seed 81: an SVG icon whose only line is gone, which svglib logged line after line before saying nothing
    "icon-svg-emptied": lambda: whole("icons/rune.svg", lambda _: b"", "emptied", game=DEMO),
    "board-label-unbreakable": lambda: edited("game.yaml", "name: Teraxians", "name: Te" + "x" * 80, game="time-line"),
    "sheet-formula-uncomputed": lambda: whole(
        "cards.xlsx",
        lambda _: demogame.workbook([*demogame.sheet_rows()[:3], ["c99", "plain", "X", "=1/0", "", "=SUM(F2:F3)"]]),
        "a row with formulas saved with no computed values",
        game=DEMO,
    ),
}


# --------------------------------------------------------------------------------------------------
# The tests


@pytest.fixture(scope="module")
def runner() -> Iterator[Runner]:
    made = Runner()
    yield made
    made.close()


def _fuzz(runner: Runner) -> Callable[[Case], None]:
    def check(case: Case) -> None:
        result = runner.run(case)
        found = failures(result)
        assert not found, report(case, result, found)

    return check


_SETTINGS = {
    "derandomize": True,
    "deadline": None,
    "database": None,
    "print_blob": True,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
}


def test_the_runner_sees_a_valid_game_and_a_broken_one(runner: Runner) -> None:
    good = runner.run(Case("soldier-battler", {n: Entry("file", d) for n, d in pristine("soldier-battler").items()}))
    assert good.code == 0, good.err
    assert not failures(good)
    assert "ok  cards/soldier-battler" in good.out
    broken = dict(pristine("soldier-battler"), **{"game.yaml": b"title: [\n"})
    bad = runner.run(Case("soldier-battler", {n: Entry("file", d) for n, d in broken.items()}))
    assert bad.code == 2
    assert bad.err.startswith("cards/soldier-battler/game.yaml:2:1: ")
    assert not failures(bad)
    assert 0 < bad.rss < MAX_RSS and bad.seconds < MAX_SECONDS


def test_the_demo_game_as_made_validates(runner: Runner) -> None:
    result = runner.run(Case(DEMO, {n: Entry("file", d) for n, d in pristine(DEMO).items()}))
    assert result.code == 0, result.err
    assert not failures(result)
    assert f"ok  cards/{DEMO}" in result.out


def test_the_rules_language_starter_as_made_validates_and_its_broken_rules_fail_cleanly(runner: Runner) -> None:
    files = {n: Entry("file", d) for n, d in pristine(PLAYED).items()}
    result = runner.run(Case(PLAYED, files))
    assert result.code == 0, result.err
    assert f"ok  cards/{PLAYED}" in result.out
    rules = files["play.yaml"].data.decode()
    broken = rules.replace("my.light >= rules.light_to_win", "my.light >= (((rules.light_to_win")
    result = runner.run(Case(PLAYED, {**files, "play.yaml": Entry("file", broken.encode())}, ["a bracket left open"]))
    assert result.code == 2 and not failures(result), result.err
    assert "cards/lanterns/play.yaml:" in result.err


def test_the_property_catches_what_it_is_meant_to() -> None:
    ok = Result(2, "", "cards/g/game.yaml:3:7: title: expected text\nwarning: fine\n", 0.1, 10**8)
    assert not failures(ok)
    assert set(failures(Result(1, "", "Traceback (most recent call last):\n", 0.1, 10**8))) == {"traceback"}
    assert set(failures(Result(2, "", "printkit: cards/g: not a game folder\n", 0.1, 10**8))) == {"lines"}
    assert set(failures(Result(2, "", "cards/g/x.yaml:1:1: a\u202eb\n", 0.1, 10**8))) == {"lines"}
    assert set(failures(Result(0, "", "", 6.0, 10**8))) == {"hang"}
    assert set(failures(Result(-9, "", "", 30.0, 10**8, "time"))) == {"exit", "hang"}
    assert set(failures(Result(0, "", "", 0.1, 4 * 10**8))) == {"memory"}


@pytest.mark.parametrize("name", NAMED)
def test_named_input_validates_or_fails_cleanly(runner: Runner, name: str) -> None:
    case = NAMED[name]()
    result = runner.run(case)
    found = failures(result)
    assert not found, report(case, result, found)


@pytest.mark.slow
def test_mutated_games_validate_or_fail_cleanly(runner: Runner) -> None:
    given(cases())(settings(max_examples=QUICK_CASES, **_SETTINGS)(_fuzz(runner)))()


@pytest.mark.fuzz
def test_mutated_games_validate_or_fail_cleanly_long(runner: Runner) -> None:
    settings_long = {**_SETTINGS, "derandomize": False}
    check = _fuzz(runner)
    seed(20_240_601)(given(cases())(settings(max_examples=LONG_CASES, **settings_long)(check)))()
