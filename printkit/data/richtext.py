"""Rich card text: **bold** and *italic* as a designer writes them, read once into marks every stage can print.

The markup is Markdown's emphasis and nothing more: two asterisks either side make bold, one makes
italic, and \\* is an asterisk. An asterisk that opens must be followed by a letter (not a space) and
one that closes must follow one, so "5 * 3" stays as typed. Icons are written {name} as in any
card text. Read text carries its emphasis as control characters no data can hold (the loader
refuses them in YAML and spreadsheets alike), so a mark can never be forged from a card's words.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable

BOLD = "\x02"  # turns bold on, and off again
ITALIC = "\x03"  # turns italic on, and off again
MARKS = BOLD + ITALIC
_ESCAPED = "\x04"  # an asterisk written \*, while the emphasis is read

_STRONG = re.compile(r"\*\*(?=[^\s*])(.+?)(?<=[^\s*\\])\*\*", re.S)
_EMPHASIS = re.compile(r"(?<![*\w])\*(?=[^\s*])(.+?)(?<=[^\s*\\])\*(?![*\w])", re.S)


def marked(text: str) -> str:
    """Rich text with its emphasis read into marks: "**Guard.** Then" -> "\\x02Guard.\\x02 Then"."""
    text = text.replace("\\*", _ESCAPED)
    text = _STRONG.sub(lambda m: f"{BOLD}{m.group(1)}{BOLD}", text)
    text = _EMPHASIS.sub(lambda m: f"{ITALIC}{m.group(1)}{ITALIC}", text)
    return text.replace(_ESCAPED, "*")


def plain(text: str) -> str:
    """Marked text without its marks: for a search, a sentence, a description."""
    return text.translate({ord(m): None for m in MARKS})


def styles(text: str) -> list[tuple[str, bool, bool]]:
    """Marked text as runs of (text, bold, italic), in order; empty runs left out."""
    out: list[tuple[str, bool, bool]] = []
    bold = italic = False
    for part in re.split(f"([{MARKS}])", text):
        if part == BOLD:
            bold = not bold
        elif part == ITALIC:
            italic = not italic
        elif part:
            out.append((part, bold, italic))
    return out


def rendered(text: str, escape: Callable[[str], str], strong: tuple[str, str], em: tuple[str, str]) -> str:
    """Marked text with each run escaped and its emphasis written as a format writes it (Markdown, HTML)."""
    out = []
    for part, bold, italic in styles(text):
        inner = part.strip()
        piece = escape(inner) if inner else ""
        if inner and italic:
            piece = em[0] + piece + em[1]
        if inner and bold:
            piece = strong[0] + piece + strong[1]
        # the spaces at a run's edges stay outside its emphasis, where Markdown needs them
        lead, tail = part[: len(part) - len(part.lstrip())], part[len(part.rstrip()) :]
        out.append((" " if lead else "") + piece + (" " if tail and inner else ""))
    return "".join(out)


def as_html(text: str) -> str:
    """Marked text as HTML, every run escaped: <strong> and <em> its only tags."""
    return rendered(text, lambda t: html.escape(t, quote=False), ("<strong>", "</strong>"), ("<em>", "</em>"))
