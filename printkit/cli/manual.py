"""printkit help: the guide's pages read in the terminal, and the page each problem line points to.

The pages are the docs site's own Markdown (docs/ in a checkout, printkit/assets/docs/ in an installed printkit),
so the help a designer reads offline is the site's, word for word. A problem line ends in `[printkit help TOPIC]`
when a page explains its file or its kind of problem, as a compiler names the flag behind a warning.
"""

from __future__ import annotations

import argparse
import difflib
import functools
import pydoc
import re
from pathlib import Path, PurePosixPath

from printkit.core.assets import folder
from printkit.core.errors import PLACED, UsageError, safe

# the order the sections are listed in, as the site's navigation has them
SECTIONS = ("tutorial", "guides", "reference", "explanation")
SPREADSHEETS = (".csv", ".tsv", ".xlsx", ".xlsm")
PICTURES_AND_FONTS = (".png", ".jpg", ".jpeg", ".webp", ".svg", ".ttf", ".otf", ".ttc", ".woff", ".woff2")
# where a page takes its generated reference: every command's help, or the fields of printkit/schema/NAME.schema.json
MARK = re.compile(r"<!-- printkit:(commands|schema (\w+)) -->")
_PICTURE = re.compile(r"!\[([^\]]*)\]\([^)]*\)(?:\{[^}]*\})?")
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")
_ATTRIBUTES = re.compile(r"\{:?\s*[.#][^}]*\}")


@functools.cache
def pages() -> dict[str, Path]:
    """Every page of the guide by its topic: the file's name alone, or section/name where two sections share it."""
    root = folder("docs")
    found = sorted(root.rglob("*.md"), key=lambda p: (_rank(p.relative_to(root)), p.as_posix()))
    stems = [path.stem for path in found]
    topics: dict[str, Path] = {}
    for path in found:
        relative = PurePosixPath(path.relative_to(root).as_posix()).with_suffix("")
        name = relative.stem if stems.count(relative.stem) == 1 else str(relative)
        topics["home" if name == "index" else name] = path
    return topics


def _rank(relative: Path) -> int:
    top = relative.parts[0] if len(relative.parts) > 1 else ""
    return SECTIONS.index(top) if top in SECTIONS else len(SECTIONS)  # the home page and the about page last


def topic_of(line: str) -> str:
    """The topic of the page that explains a placed problem line, from the kind of file it is in; "" if none."""
    place = PLACED.match(line)
    if place is None:
        return ""
    file = PurePosixPath(line[: line.index(":")].replace("\\", "/"))
    message = line[place.end() :]
    name, suffix = file.name.lower(), file.suffix.lower()
    if name in ("printkit.toml", "pyproject.toml"):
        return "project"
    if name == "play.yaml":
        return "play-yaml"
    if name == "game.yaml":
        if message.startswith("card_sheets"):
            return "spreadsheets"
        return "cards" if message.startswith(("card_types", "decks")) else "game-yaml"
    if suffix in SPREADSHEETS:
        return "spreadsheets"
    if "layouts" in file.parts[:-1]:
        return "reference/layouts"
    if suffix in (".yaml", ".yml"):
        return "cards"
    if suffix == ".md":
        return "rules-booklets"
    if suffix == ".py":
        return "own-engine"
    if suffix in PICTURES_AND_FONTS:
        return "art-fonts-icons"
    return ""


def pointed(line: str, topic: str = "") -> str:
    """A problem line with the guide page that explains it named at its end: the raiser's topic, else its file's."""
    chosen = topic or topic_of(line)
    return f"{line} [printkit help {chosen}]" if chosen else line


def cmd_help(args: argparse.Namespace) -> int:
    """`printkit help`: the topics; `printkit help TOPIC`: that page, or a command's options."""
    from printkit.cli.parser import COMMANDS, parser

    commands = [command.name for command in COMMANDS]
    if args.topic is None:
        print(listing(), end="")
        return 0
    if args.topic in commands:
        parser().parse_args([args.topic, "--help"])  # prints the command's help and exits 0
    topics = pages()
    root = folder("docs")
    by_path = {path.relative_to(root).with_suffix("").as_posix(): topic for topic, path in topics.items()}
    args.topic = by_path.get(args.topic, args.topic)  # reference/cards as well as cards
    shared = [topic for topic in topics if topic.endswith(f"/{args.topic}")]
    if args.topic not in topics and shared:
        which = " and ".join(f"{topic} ({_title(topics[topic])})" for topic in shared)
        raise UsageError(f"{safe(args.topic)!r} is {len(shared)} pages: {which}")
    if args.topic not in topics:
        close = difflib.get_close_matches(args.topic, [*topics, *commands], n=1, cutoff=0.6)
        hint = f"did you mean {close[0]!r}? " if close else ""
        raise UsageError(f"no help topic {safe(args.topic)!r}; {hint}`printkit help` lists the topics")
    pydoc.pager(page_text(args.topic))  # pages on a terminal, prints as is into a pipe
    return 0


def listing() -> str:
    """The topics a section at a time, each with its page's title."""
    lines = ["The guide's pages, read here with `printkit help TOPIC` (a command's name shows its options):"]
    section = None
    root = folder("docs")
    for topic, path in pages().items():
        parts = path.relative_to(root).parts
        here = parts[0] if len(parts) > 1 else ""
        if here != section:
            section = here
            lines += ["", f"{here or 'about printkit'}:"]
        lines.append(f"  {topic:<22} {_title(path)}")
    return "\n".join(lines) + "\n"


def _title(path: Path) -> str:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return path.stem


def page_text(topic: str) -> str:
    """A page as plain text: the generated reference filled in, pictures named, a link to another page written as
    the `printkit help` that shows it."""
    from printkit.cli.parser import overview
    from printkit.core.schemadoc import schema_text

    path = pages()[topic]
    by_file = {file.resolve(): name for name, file in pages().items()}

    def linked(match: re.Match[str]) -> str:
        text, target = match[1], match[2]
        if target.startswith(("http://", "https://", "mailto:")):
            return f"{text} <{target}>"
        if target.startswith("#"):
            return text
        other = by_file.get((path.parent / target.split("#")[0]).resolve())
        return f"{text} (printkit help {other})" if other else text

    def made(match: re.Match[str]) -> str:
        if match[1] == "commands":
            return overview().rstrip("\n")
        return schema_text(match[2])

    text = path.read_text(encoding="utf-8")
    text = MARK.sub(made, text)
    text = _PICTURE.sub(lambda m: f"[picture: {m[1]}]" if m[1] else "[picture]", text)
    text = _LINK.sub(linked, text)
    return _ATTRIBUTES.sub("", text).rstrip("\n") + "\n"
