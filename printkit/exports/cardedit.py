"""Rewrite a YAML card file with some cards changed, added or removed, touching nothing else: every untouched
card keeps its text to the byte, and the comments, blank lines and styles around it stay.

An import hands over the cards a file should hold, in order. A card equal to the one already written keeps its
text; in a changed card only the changed fields are written again, in the card's style (one flow line
`- {id: ..., ...}` or a block of lines), each in its place, the comments between them kept; a field gone from
the card goes, a new one joins its end. A removed card's lines go; a new card joins the end, in the style of the
cards before it. When the cards were put in a new order, or the file's list is not one this can edit in place,
the whole file is written afresh.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import yaml

FLOW_WIDTH = 10_000  # a flow card stays on its one line, however long


@dataclass(frozen=True)
class Written:
    """Where one card stands in the file's text."""

    id: str
    start: int  # the index of the line's start where the card's item ("- ") begins
    body: int  # the index where the card's mapping begins
    end: int  # the index just past the card's text (its closing brace, or its last line's end)
    flow: bool
    column: int  # the mapping's column: a block card's keys line up there
    fields: tuple[Field, ...]  # the card's keys, in the order written


@dataclass(frozen=True)
class Field:
    """Where one key and its value stand in the file's text."""

    key: str
    start: int  # the key's first character
    end: int  # just past the value


def _items(text: str) -> tuple[list[Written], int] | None:
    """The cards of a card file's block list, in order, and the index just past the list; None when the file
    is not a mapping with a block list of mappings under cards: (then it is written afresh)."""
    try:
        root = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError:
        return None
    if not isinstance(root, yaml.MappingNode):
        return None
    seq = next((v for k, v in root.value if isinstance(k, yaml.ScalarNode) and k.value == "cards"), None)
    if not isinstance(seq, yaml.SequenceNode) or seq.flow_style or not seq.value:
        return None
    out = []
    for node in seq.value:
        if not isinstance(node, yaml.MappingNode):
            return None
        ident = next((v.value for k, v in node.value if k.value == "id" and isinstance(v, yaml.ScalarNode)), None)
        if ident is None:
            return None
        start = text.rfind("\n", 0, node.start_mark.index) + 1
        flow = bool(node.flow_style)
        fields = tuple(Field(str(k.value), k.start_mark.index, _end(v)) for k, v in node.value)
        out.append(Written(str(ident), start, node.start_mark.index, _end(node), flow, node.start_mark.column, fields))
    return out, out[-1].end


def _end(node: yaml.Node) -> int:
    """The index just past a node's own text. A block collection's end mark is where the next token starts,
    past any comment lines after it, so its end is its last value's."""
    if isinstance(node, yaml.MappingNode) and not node.flow_style and node.value:
        return _end(node.value[-1][1])
    if isinstance(node, yaml.SequenceNode) and not node.flow_style and node.value:
        return _end(node.value[-1])
    return int(node.end_mark.index)


def _flow(card: dict[str, Any]) -> str:
    return yaml.safe_dump(card, default_flow_style=True, sort_keys=False, allow_unicode=True, width=FLOW_WIDTH).strip()


def _pair(key: str, value: Any) -> str:
    """key: value on one line, the value in flow style: {key: value} without its braces."""
    return _flow({key: value})[1:-1]


def _block(card: dict[str, Any], column: int) -> str:
    """One key a line, lined up at column, each value on its key's line as the hand-written files have it."""
    return ("\n" + " " * column).join(_pair(key, value) for key, value in card.items())


def _changed(text: str, item: Written, card: dict[str, Any], old: dict[str, Any]) -> str:
    """A written card's text with only the fields that differ from old written again, in their places."""
    out, at = [], item.body
    written = {f.key for f in item.fields}
    for number, f in enumerate(item.fields):
        if f.key not in card and f.key not in old:  # a default or a key the model reads past: as it was
            continue
        if card.get(f.key) == old.get(f.key):
            continue
        if f.key in card:
            out += [text[at : f.start], _pair(f.key, card[f.key])]
            at = f.end
            continue
        # gone from the card: its pair goes, with the separator before it (or, first of all, after it)
        if item.flow:
            before = item.fields[number - 1].end if number else None
            after = item.fields[number + 1].start if number + 1 < len(item.fields) else None
            cut = (before, f.end) if before is not None else (f.start, after if after is not None else f.end)
        else:
            line_start = text.rfind("\n", 0, f.start)
            cut = (line_start if number else f.start, f.end)
        out.append(text[at : cut[0]])
        at = cut[1]
    added = [key for key in card if key not in written]
    if item.fields and added:
        last = item.fields[-1].end
        out.append(text[at:last])
        joint = ", " if item.flow else "\n" + " " * item.column
        out += [joint + _pair(key, card[key]) for key in added]
        at = last
    out.append(text[at : item.end])
    return "".join(out)


def edited(text: str, cards: list[dict[str, Any]], now: Callable[[str], dict[str, Any] | None]) -> str | None:
    """text with its cards replaced by cards (each a mapping with an id), touching only what differs;
    now(id) gives the card of that id as it is written now, as the import would write it (None: not known).
    None when it cannot be done in place."""
    found = _items(text)
    if found is None:
        return None
    written, _ = found
    wanted = [str(c["id"]) for c in cards]
    kept = [w for w in written if w.id in set(wanted)]
    if [w.id for w in kept] != wanted[: len(kept)] or len(set(wanted)) != len(wanted):
        return None  # a new order: written afresh
    by_id = {str(c["id"]): c for c in cards}
    out, at = [], 0
    for item in written:
        out.append(text[at : item.start])
        if item.id not in by_id:  # removed: its lines go, to the end of its last line
            line_end = text.find("\n", item.end)
            at = len(text) if line_end < 0 else line_end + 1
            continue
        card, old = by_id[item.id], now(item.id)
        if old == card:
            out.append(text[item.start : item.end])
        elif old is not None:
            out += [text[item.start : item.body], _changed(text, item, card, old)]
        else:  # what is written is not known to the model: the card written again whole
            out.append(text[item.start : item.body])  # the "  - " before it
            out.append(_flow(card) if item.flow else _block(card, item.column))
        at = item.end
    last = written[-1]
    for card in cards[len(kept) :]:  # new cards, in the style of the list's last card
        dash = " " * (last.column - 2) + "- "
        out.append("\n" + dash + (_flow(card) if last.flow else _block(card, last.column)))
    out.append(text[at:])
    return "".join(out)
