"""Right-to-left text in WeasyPrint's PDFs rewritten in logical order, each glyph left where it was drawn.

WeasyPrint writes a line's glyphs as Pango lays them out, left to right on the page, so a Hebrew
word is written last letter first. Poppler, pdfium and pypdf read such a line right, but
pdfminer.six (and the tools built on it) keeps the order glyphs are written in and reads every
Hebrew name backwards. Each line that holds right-to-left text is therefore written again the way
draw/rtl.py writes the cards' Hebrew: each glyph at its drawn place, in the order it was typed,
after its own font setting (where pypdf starts a new run, so it does not reverse them again). The
page looks the same to the dot; only the order in the file changes. A line this module cannot read
with certainty (operators it does not follow, a glyph whose text is not one character, an order the
bidirectional algorithm would not draw back the same) is left as WeasyPrint wrote it.
"""

from __future__ import annotations

import io
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from pypdf import PdfReader, PdfWriter
from pypdf.generic import ArrayObject, ByteStringObject, ContentStream, FloatObject, NameObject

from printkit.draw import rtl

Operation = tuple[list[Any], bytes]
RIGHT_TO_LEFT = {"R", "AL"}  # bidirectional classes of the letters of Hebrew, Arabic and their kin
NUMBERS = {"EN", "AN"}  # digits: left to right even inside right-to-left text
SEPARATORS = {"ES", "CS", "ET"}  # what joins digits into one number: 1,000  3.5  +2  50%
# text operators other than Tm, Tf and TJ, which move or space the glyphs: a text object using any
# of them is left as it was (WeasyPrint sets each line's place with Tm and spaces glyphs inside TJ)
UNFOLLOWED = {b"Td", b"TD", b"T*", b"'", b'"', b"Tc", b"Tw", b"Tz", b"TL", b"Ts", b"Tj"}


def logical(pdf: bytes) -> bytes:
    """pdf with each line holding right-to-left text written in logical order; pdf itself when none does."""
    reader = PdfReader(io.BytesIO(pdf))
    writer: PdfWriter | None = None
    for number, page in enumerate(reader.pages):
        fonts = {str(name): _Font(font.get_object()) for name, font in _fonts_of(page).items()}
        codes = {code.hex() for font in fonts.values() for code in font.right_to_left}
        contents = page.get_contents()  # a ContentStream, which is falsy: compared with None
        if not codes or contents is None or not codes & _shown_codes(contents.get_data()):
            continue  # the cheap test first: most pages show no right-to-left glyph at all
        if writer is None:
            writer = PdfWriter(clone_from=reader)
            writer.pdf_header = reader.pdf_header  # pypdf would write its own, older version
        target = writer.pages[number]
        content = ContentStream(target.get_contents(), writer)
        operations = _rewritten(content.operations, fonts)
        if operations is not None:
            content.operations = operations
            target.replace_contents(content)
            target.compress_content_streams()
    if writer is None:
        return pdf
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _fonts_of(page: Any) -> dict[Any, Any]:
    """A page's font resources by name, each entry perhaps an indirect reference."""
    resources = page.get("/Resources")
    fonts = resources.get_object().get("/Font") if resources is not None else None
    return dict(fonts.get_object()) if fonts is not None else {}


def _shown_codes(content: bytes) -> set[str]:
    """The four-digit glyph codes a page's content shows in hex strings (a superset: any hex string counts)."""
    found: set[str] = set()
    for hexes in re.findall(rb"<([0-9a-fA-F]+)>", content):
        text = hexes.decode().lower()
        found.update(text[i : i + 4] for i in range(0, len(text) - 3, 4))
    return found


@dataclass
class _Font:
    """What a Type0 font with Identity-H codes (as WeasyPrint writes every outline font) tells of its glyphs."""

    two_byte: bool
    text: dict[bytes, str]  # each glyph code's text, from the ToUnicode map
    widths: dict[int, float]  # advance by code, in thousandths of the font size
    default_width: float
    right_to_left: frozenset[bytes]

    def __init__(self, font: Any) -> None:
        self.two_byte = font.get("/Subtype") == "/Type0" and font.get("/Encoding") == "/Identity-H"
        self.text = _to_unicode(font["/ToUnicode"].get_data()) if self.two_byte and "/ToUnicode" in font else {}
        descendant = font["/DescendantFonts"][0].get_object() if self.two_byte else {}
        self.widths = _widths(list(descendant.get("/W", [])))
        self.default_width = float(descendant.get("/DW", 1000))
        self.right_to_left = frozenset(
            code
            for code, text in self.text.items()
            if any(unicodedata.bidirectional(ch) in RIGHT_TO_LEFT for ch in text)
        )

    def glyphs(self, shown: bytes) -> Iterator[tuple[bytes, float]]:
        """Each glyph code of a shown string and its advance in thousandths of the font size."""
        for i in range(0, len(shown) - 1, 2):
            code = shown[i : i + 2]
            yield code, self.widths.get(int.from_bytes(code, "big"), self.default_width)


def _to_unicode(cmap: bytes) -> dict[bytes, str]:
    """A ToUnicode CMap's glyph codes and their text, from its bfchar and bfrange entries."""
    out: dict[bytes, str] = {}
    text = cmap.decode("latin-1")
    for block in re.findall(r"beginbfchar(.*?)endbfchar", text, re.S):
        for code, value in re.findall(r"<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]*)>", block):
            out[bytes.fromhex(code)] = bytes.fromhex(value).decode("utf-16-be", errors="replace")
    for block in re.findall(r"beginbfrange(.*?)endbfrange", text, re.S):
        for first, last, value in re.findall(r"<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>", block):
            start, size = int(value, 16), len(first) // 2
            for n, code in enumerate(range(int(first, 16), int(last, 16) + 1)):
                out[code.to_bytes(size, "big")] = chr(start + n)
    return out


def _widths(w: list[Any]) -> dict[int, float]:
    """A CID font's /W array read out: `c [w1 w2 ...]` gives codes from c on, `c1 c2 w` one width to a range."""
    widths: dict[int, float] = {}
    i = 0
    while i + 1 < len(w):
        first = int(w[i])
        if isinstance(w[i + 1], list):
            widths.update((first + n, float(width)) for n, width in enumerate(w[i + 1]))
            i += 2
        else:
            widths.update((code, float(w[i + 2])) for code in range(first, int(w[i + 1]) + 1))
            i += 3
    return widths


def _rewritten(operations: list[Operation], fonts: dict[str, _Font]) -> list[Operation] | None:
    """A page's operations with each right-to-left line in logical order; None when no line changed."""
    out: list[Operation] = []
    changed = False
    start = None
    for index, operation in enumerate(operations):
        if operation[1] == b"BT":
            start = index
        elif operation[1] == b"ET" and start is not None:
            block = operations[start : index + 1]
            new = _text_object(block, fonts)
            out.extend(block if new is None else new)
            changed = changed or new is not None
            start = None
        elif start is None:
            out.append(operation)
    return out if changed else None


def _text_object(block: list[Operation], fonts: dict[str, _Font]) -> list[Operation] | None:
    """One BT ... ET text object, its lines (each begun by Tm) rewritten where they hold right-to-left text."""
    if any(op in UNFOLLOWED for _, op in block):
        return None
    out: list[Operation] = []
    changed = False
    font, size = "", 0.0  # the font in force, carried from line to line as the PDF carries it
    line: list[Operation] = []
    line_font = (font, size)

    def close() -> None:
        nonlocal changed
        new = _line(line, *line_font, fonts) if line else None
        if new is None:
            out.extend(line)
            return
        out.extend(new)
        out.append(([NameObject(font), FloatObject(size)], b"Tf"))  # the font the next line may rely on
        changed = True

    for operation in block:
        operands, op = operation
        if op == b"Tm" or op == b"ET":
            close()
            line, line_font = [], (font, size)
        if op == b"Tf":
            font, size = str(operands[0]), float(operands[1])
        (line if op == b"Tm" or line else out).append(operation)
    return out if changed else None


def _line(line: list[Operation], font: str, size: float, fonts: dict[str, _Font]) -> list[Operation] | None:
    """A line (its Tm, then Tf and TJ only) in logical order, each glyph at its drawn place; None to keep it."""
    matrix = [float(v) for v in line[0][0]]
    glyphs: list[tuple[bytes, str, float, str, float]] = []  # code, text, x along the line, font, size
    x = 0.0
    for operands, op in line[1:]:
        if op == b"Tf":
            font, size = str(operands[0]), float(operands[1])
            continue
        shown = fonts.get(font)
        if op != b"TJ" or shown is None or not shown.two_byte:
            return None
        for item in operands[0]:
            if isinstance(item, int | float):  # pypdf's numbers are int and float subclasses
                x -= float(item) / 1000 * size  # a TJ number moves the next glyph back by thousandths
                continue
            for code, width in shown.glyphs(item.original_bytes):
                text = shown.text.get(code)
                if text is None or len(text) != 1:
                    return None  # a ligature or an unknown glyph: its place in the typed text is not certain
                glyphs.append((code, text, x, font, size))
                x += width / 1000 * size
    order = _typed_order("".join(glyph[1] for glyph in glyphs))
    if order is None:
        return None
    a, b, c, d, e, f = matrix
    out: list[Operation] = []
    for index in order:
        code, _, along, glyph_font, glyph_size = glyphs[index]
        out.append(([FloatObject(v) for v in (a, b, c, d, e + along * a, f + along * b)], b"Tm"))
        out.append(([NameObject(glyph_font), FloatObject(glyph_size)], b"Tf"))  # a run of its own for pypdf
        out.append(([ArrayObject([ByteStringObject(code)])], b"TJ"))
    return out


def _typed_order(seen: str) -> list[int] | None:
    """The order a line drawn as seen was typed in, as indices into seen; None if it holds no right-to-left
    text or is not the plain case of a left-to-right line with right-to-left stretches.

    Each stretch from a right-to-left letter to the last letter or digit before the next
    left-to-right letter (the spaces and marks between its words with it) is reversed, and the
    numbers inside it turned back, as they read left to right; the guess is kept only when the
    bidirectional algorithm draws the typed text back exactly as it was seen.
    """
    classes = [unicodedata.bidirectional(ch) for ch in seen]
    if not RIGHT_TO_LEFT & set(classes):
        return None
    order: list[int] = []
    i = 0
    while i < len(seen):
        if classes[i] not in RIGHT_TO_LEFT:
            order.append(i)
            i += 1
            continue
        last = i
        for j in range(i, len(seen)):
            if classes[j] == "L":
                break
            if classes[j] in RIGHT_TO_LEFT or classes[j] in NUMBERS:
                last = j
        stretch = list(range(last, i - 1, -1))
        order.extend(_numbers_turned_back(stretch, classes))
        i = last + 1
    typed = "".join(seen[k] for k in order)
    return order if rtl.visual(typed) == seen else None


def _numbers_turned_back(stretch: list[int], classes: list[str]) -> list[int]:
    """A reversed stretch with each number in it (digits and the separators between them) in its own order again."""
    out: list[int] = []
    k = 0
    while k < len(stretch):
        if classes[stretch[k]] not in NUMBERS:
            out.append(stretch[k])
            k += 1
            continue
        end = k
        for m in range(k, len(stretch)):
            if classes[stretch[m]] in NUMBERS:
                end = m
            elif classes[stretch[m]] not in SEPARATORS:
                break
        out.extend(reversed(stretch[k : end + 1]))
        k = end + 1
    return out
