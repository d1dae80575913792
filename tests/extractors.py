"""Test helper: a PDF's text as four common tools read it, pypdf, pdfminer.six, Poppler's pdftotext and pdfium."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from pathlib import Path

import pypdfium2 as pdfium
from pypdf import PdfReader


def read_by_every_tool(pdf: bytes, folder: Path) -> dict[str, str]:
    """Each tool's reading of the whole PDF, its runs of white space made single spaces."""
    from pdfminer.high_level import extract_text

    assert shutil.which("pdftotext"), "the test needs Poppler's pdftotext (apt-get install poppler-utils)"
    path = folder / "read.pdf"
    path.write_bytes(pdf)
    doc = pdfium.PdfDocument(pdf)
    read = {
        "pypdf": "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages),
        "pdfminer": extract_text(path),
        "pdftotext": subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout,
        "pdfium": "\n".join(doc[i].get_textpage().get_text_range() for i in range(len(doc))),
    }
    # pdftotext marks a right-to-left run with embedding characters
    return {tool: " ".join(re.sub("[\u202a-\u202e]", "", text).split()) for tool, text in read.items()}
