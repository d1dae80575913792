"""Booklet pictures placed as a printer places figures: one that would leave a page half empty goes after the text.

WeasyPrint keeps a picture whole, so a picture that does not fit the rest of a page goes to the
next one and leaves the rest blank. CSS has no float to the top of the next page, so the booklet
is laid out, and each such picture is printed a little smaller when that is enough, else moved
past as much of the text after it as fills that blank, and laid out again. A picture never
leaves its chapter, never passes another picture, and keeps the headings just above it with the
text they head; moved after a list that then breaks across pages, it goes into the list at the
break, the list numbering on below it. A picture that ends its chapter, with no text after it to move past, goes up
instead, before the text above it, as far as it takes to fit the page where that text starts.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from html.parser import HTMLParser
from typing import Any

SHRINK_LEAST = 0.6  # a picture may print this much of its size, and no smaller, to fit the rest of a page
GAP_SHARE = 0.15  # a page left this much empty or more, for a picture that would not fit, is worth moving it
PX_PER_MM = 96 / 25.4  # WeasyPrint lays out in CSS pixels
ROUNDS = 6  # layouts tried at most: each picture moves once a layout, and the booklets need two or three
_LISTS = {"ol", "ul"}
_VOID = {"area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
_FIGURE = re.compile(r'<p>(<img class="diagram" [^>]*>)</p>')
_ALT = re.compile(r'alt="([^"]*)"')
_WIDTH = re.compile(r'style="width: ([0-9.]+)mm"')


def figures(body: str) -> str:
    """Each picture alone in its paragraph made a figure, its alt words beneath it as its caption."""

    def figure(found: re.Match[str]) -> str:
        alt = _ALT.search(found.group(1))
        words = alt.group(1) if alt else ""
        caption = f"<figcaption>{words[:1].upper()}{words[1:]}</figcaption>" if words else ""
        return f'<figure class="diagram">{found.group(1)}{caption}</figure>'

    return _FIGURE.sub(figure, body)


class _Blocks(HTMLParser):
    """Where each top-level element of a fragment of HTML starts, by character offset."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=False)
        self.starts: list[int] = []
        self.depth = 0
        self._lines = [0]
        for line in text.splitlines(keepends=True):
            self._lines.append(self._lines[-1] + len(line))
        self.feed(text)
        self.close()

    def _offset(self) -> int:
        line, column = self.getpos()
        return self._lines[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.depth == 0:
            self.starts.append(self._offset())
        if tag not in _VOID:
            self.depth += 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.depth == 0:
            self.starts.append(self._offset())

    def handle_endtag(self, tag: str) -> None:
        if tag not in _VOID:
            self.depth -= 1


@dataclass
class Block:
    """One top-level element of the rules' body: its HTML, marked with its number so a layout can be read."""

    number: int
    tag: str
    html: str
    moved: bool = False  # a picture moved past the text after it

    @property
    def figure(self) -> bool:
        return self.tag == "figure"

    @property
    def heading(self) -> bool:
        return self.tag in {"h1", "h2", "h3"}


def blocks(body: str) -> list[Block]:
    """The body's top-level elements, in order, each marked with a data-block number."""
    starts = _Blocks(body).starts
    out = []
    for number, (start, end) in enumerate(zip(starts, [*starts[1:], len(body)], strict=True)):
        piece = body[start:end]
        tag = re.match(r"<([a-zA-Z0-9]+)", piece)
        assert tag is not None  # a top-level element starts with its tag
        name = tag.group(1).lower()
        out.append(Block(number, name, f"<{tag.group(1)} data-block={number}{piece[tag.end() :]}"))
    return out


@dataclass
class _Laid:
    """A block's part on one page: the page, the top and bottom of its margin box (CSS px)."""

    page: int
    top: float
    bottom: float
    picture: float = 0.0  # a figure's picture: its height


def _laid(document: Any) -> tuple[dict[int, list[_Laid]], list[tuple[float, float]], dict[int, list[int]]]:
    """Each block's parts as the document lays them out, each page's content top and bottom, and for each
    list the page each of its items starts on."""
    parts: dict[int, list[_Laid]] = {}
    pages = []
    items: dict[int, list[int]] = {}
    seen: set[int] = set()
    for index, page in enumerate(document.pages):
        box = page._page_box
        top = box.content_box_y()
        pages.append((top, top + box.height))
        for child in _main_children(box):
            number = child.element.get("data-block") if child.element is not None else None
            if number is None:
                continue
            if child.element_tag in _LISTS:
                for item in child.children:
                    if item.element_tag == "li" and id(item.element) not in seen:
                        seen.add(id(item.element))
                        items.setdefault(int(number), []).append(index)
            parts.setdefault(int(number), []).append(
                _Laid(index, child.position_y, child.position_y + child.margin_height(), _picture(child))
            )
    return parts, pages, items


def _picture(box: Any) -> float:
    """The height of the picture a figure's box holds (0 for any other box)."""
    if getattr(box, "element_tag", None) == "img":
        return float(box.height)
    for child in getattr(box, "children", []):
        found = _picture(child)
        if found:
            return found
    return 0.0


def _main_children(box: Any) -> list[Any]:
    """The boxes of main's children on one page."""
    if getattr(box, "element_tag", None) == "main":
        return list(box.children)
    for child in getattr(box, "children", []):
        found = _main_children(child)
        if found:
            return found
    return []


def reflow(order: list[Block], document: Any) -> list[Block] | None:
    """A new order of the blocks moving the first picture that left a page gap past the text filling it;
    None when no picture does (or none can move)."""
    parts, pages, items = _laid(document)
    for at, block in enumerate(order):
        if not block.figure or block.number not in parts:
            continue
        split = _into_list(order, at, items)
        if split is not None:
            return split
        page = parts[block.number][0].page
        # the blocks laid on the picture's page above it: only headings (kept with it), or nothing
        above = [b for b in order[:at] if b.number in parts and any(p.page == page for p in parts[b.number])]
        if page == 0 or not all(b.heading for b in above):
            continue
        before = [p.bottom for b in order[:at] if b.number in parts for p in parts[b.number] if p.page == page - 1]
        if not before:
            continue  # the page before holds none of the rules (the contents): nothing to fill
        top, bottom = pages[page - 1]
        gap = bottom - max(before)
        if gap < GAP_SHARE * (bottom - top):
            continue
        moved = (
            _shrunk(order, at, gap, parts)
            or _past(order, at, gap, parts)
            or _before(order, at, parts, bottom, page - 1)
        )
        if moved is not None:
            return moved
    return None


def _shrunk(order: list[Block], at: int, gap: float, parts: dict[int, list[_Laid]]) -> list[Block] | None:
    """The order with the picture at `at` printed small enough to fit gap, when that keeps SHRINK_LEAST of its
    size; None when it would take less, or the picture has no printed width to scale."""
    figure = order[at]
    (laid,) = parts[figure.number]  # a figure is never split
    width = _WIDTH.search(figure.html)
    if width is None or not laid.picture:
        return None
    # the caption and margins keep their size; set below text, a figure keeps the top margin a page top drops,
    # and WeasyPrint breaks before a figure that ends within a few pixels of the page foot: 6 mm to spare
    scale = (gap - (laid.bottom - laid.top - laid.picture) - 6 * PX_PER_MM) / laid.picture
    now = float(width.group(1))
    smaller_mm = math.floor(now * scale * 10) / 10  # a tenth of a millimetre down, never up, as its first width was
    if scale < SHRINK_LEAST or smaller_mm >= now:
        return None
    narrower = f'style="width: {smaller_mm:.1f}mm"'
    smaller = replace(figure, html=figure.html[: width.start()] + narrower + figure.html[width.end() :])
    return [*order[:at], smaller, *order[at + 1 :]]


def _past(order: list[Block], at: int, gap: float, parts: dict[int, list[_Laid]]) -> list[Block] | None:
    """The order with the picture at `at` put after as many of the blocks that follow it as fill gap (the
    headings above it then stay with the text they head); None when the next block is a chapter or a picture."""
    figure = order[at]
    filled, end = 0.0, at + 1
    while end < len(order) and filled < gap:
        block = order[end]
        if block.figure or block.tag == "h1":
            break
        filled += sum(p.bottom - p.top for p in parts.get(block.number, []))
        end += 1
    while end > at + 1 and order[end - 1].heading:  # a heading stays with what it heads
        end -= 1
    if end == at + 1:
        return None
    return [*order[:at], *order[at + 1 : end], replace(figure, moved=True), *order[end:]]


def _before(order: list[Block], at: int, parts: dict[int, list[_Laid]], bottom: float, page: int) -> list[Block] | None:
    """The order with the picture at `at` put before the latest block of its chapter that starts on `page`
    with room below it for the picture, never above the chapter's heading; None when no block has."""
    figure = order[at]
    height = sum(p.bottom - p.top for p in parts[figure.number])
    for k in range(at - 1, 0, -1):
        block = order[k]
        if block.tag == "h1" or block.figure:
            return None
        first = parts.get(block.number, [])
        if not first or first[0].page != page:
            return None  # the text above starts on an earlier page: the picture would not gain the gap
        if order[k - 1].heading and order[k - 1].tag != "h1":
            continue  # never between a subheading and its text
        if first[0].top + height + 6 * PX_PER_MM <= bottom:  # the room _shrunk keeps too
            return [*order[:k], figure, *order[k:at], *order[at + 1 :]]
    return None


def _into_list(order: list[Block], at: int, items: dict[int, list[int]]) -> list[Block] | None:
    """The order with the picture at `at`, moved after a list that broke across pages, put at the list's last
    page break: the list's items on the pages before, then the picture at the top of the page, then the rest
    (an ordered list numbering on). None when the block before the picture is no list broken over pages."""
    if at == 0 or not order[at].moved or order[at - 1].tag not in _LISTS:
        return None  # a picture the rules put after a list stays there
    listed = order[at - 1]
    starts = items.get(listed.number, [])
    if len(set(starts)) < 2:
        return None
    cut = starts.index(starts[-1])  # the first item that starts on the list's last page
    if cut == 0:
        return None
    head, tail = _split_list(listed, cut, 1 + max(b.number for b in order))
    return [*order[: at - 1], head, order[at], tail, *order[at + 1 :]]


def _split_list(listed: Block, cut: int, number: int) -> tuple[Block, Block]:
    """A list block as two: its first cut items, and the rest under a new block number (an ordered list's
    numbers going on)."""
    opened = re.match(r"<(ol|ul)([^>]*)>", listed.html)
    assert opened is not None  # a list block starts with its tag
    inner_end = listed.html.rindex(f"</{opened.group(1)}>")
    inner = listed.html[opened.end() : inner_end]
    starts = _Blocks(inner).starts
    attrs = re.sub(r" data-block=\d+", "", opened.group(2))
    start = re.search(r' start="(\d+)"', attrs)
    first = int(start.group(1)) if start else 1
    attrs = re.sub(r' start="\d+"', "", attrs)
    close = listed.html[inner_end:]
    head = listed.html[: opened.end()] + inner[: starts[cut]] + close
    # WeasyPrint numbers by the list-item counter and reads no start attribute: the counter says it too
    on = first + cut
    numbered = f' start="{on}" style="counter-reset: list-item {on - 1}"' if opened.group(1) == "ol" else ""
    tail = f"<{opened.group(1)} data-block={number}{attrs}{numbered}>" + inner[starts[cut] :] + close
    return Block(listed.number, listed.tag, head), Block(number, listed.tag, tail)
