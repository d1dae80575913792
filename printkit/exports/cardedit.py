"""Rewrite a YAML card file with some cards changed, added or removed, touching nothing else: every untouched
card keeps its text to the byte, and the comments, blank lines and styles around it stay.

An import hands over the cards a file should hold, in order. A card equal to the one already written keeps its
text; a changed card is written again in the style it had (one flow line `- {id: ..., ...}` or a block of lines);
a removed card's lines go; a new card joins the end, in the style of the cards before it. When the cards were
put in a new order, or the file's list is not one this can edit in place, the whole file is written afresh.
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
        out.append(Written(str(ident), start, node.start_mark.index, _end(node), flow, node.start_mark.column))
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


def _block(card: dict[str, Any], column: int) -> str:
    """One key a line, lined up at column, each value on its key's line as the hand-written files have it."""
    lines = [_flow({key: value})[1:-1] for key, value in card.items()]  # {key: value} without its braces
    return ("\n" + " " * column).join(lines)


def edited(text: str, cards: list[dict[str, Any]], same: Callable[[str], bool]) -> str | None:
    """text with its cards replaced by cards (each a mapping with an id), touching only the ones that differ;
    same(id) says a card of that id is already written as it should be. None when it cannot be done in place."""
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
        card = by_id[item.id]
        if same(item.id):
            out.append(text[item.start : item.end])
        else:
            out.append(text[item.start : item.body])  # the "  - " before it
            out.append(_flow(card) if item.flow else _block(card, item.column))
        at = item.end
    last = written[-1]
    for card in cards[len(kept) :]:  # new cards, in the style of the list's last card
        dash = " " * (last.column - 2) + "- "
        out.append("\n" + dash + (_flow(card) if last.flow else _block(card, last.column)))
    out.append(text[at:])
    return "".join(out)
