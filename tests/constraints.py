"""Write constraints.txt: the installed version of every package printkit needs, with all its extras, and of every
package those need in turn, one `name==version` a line, for pip's -c (CI installs so, and users who want the
tested versions can).

Run: .venv/bin/python tests/constraints.py [--check] [--out FILE]

Offline: it reads the metadata of the packages installed beside it, nothing else, so run it from the virtual
environment whose tests just passed. --check writes nothing and exits 1 when the file is not what it would write.
"""

from __future__ import annotations

import argparse
import sys
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
PROJECT = "printkit-studio"  # the distribution's name; "printkit" on the package index is another project
HEADER = (
    "# The versions printkit's tests passed with, for pip's -c: pip install -e . -c constraints.txt\n"
    "# Written by `python tests/constraints.py` from the installed packages (Python {python}); do not edit.\n"
)


def tree(project: str = PROJECT) -> dict[str, metadata.Distribution]:
    """The installed distributions project needs, with every extra it offers, and those they need, by name."""
    own = metadata.distribution(project)
    wanted = [(Requirement(text), set(own.metadata.get_all("Provides-Extra") or [])) for text in own.requires or []]
    found: dict[str, metadata.Distribution] = {}
    extras_seen: dict[str, set[str]] = {}
    while wanted:
        requirement, extras = wanted.pop()
        marker = requirement.marker
        if marker is not None and not any(marker.evaluate({"extra": extra}) for extra in extras | {""}):
            continue  # for another platform or Python, or an extra nobody asked for
        name = canonicalize_name(requirement.name)
        if name == canonicalize_name(project):
            continue  # an extra that pulls in another of the project's own
        new_extras = set(requirement.extras) - extras_seen.get(name, set())
        if name in found and not new_extras:
            continue
        try:
            dist = found.get(name) or metadata.distribution(requirement.name)
        except metadata.PackageNotFoundError:
            sys.exit(f"constraints: {requirement} is needed but not installed: install printkit with every extra first")
        found[name] = dist
        extras_seen[name] = extras_seen.get(name, set()) | set(requirement.extras)
        wanted += [(Requirement(text), extras_seen[name]) for text in dist.requires or []]
    return found


def pins(found: dict[str, metadata.Distribution]) -> str:
    """The constraints file's text: a header, then name==version a line, by name."""
    python = ".".join(str(part) for part in sys.version_info[:2])
    lines = [f"{found[name].metadata['Name']}=={found[name].version}" for name in sorted(found)]
    return HEADER.format(python=python) + "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when the file differs from what would be written")
    parser.add_argument("--out", default=str(ROOT / "constraints.txt"), help="the file (default: constraints.txt)")
    args = parser.parse_args()
    text = pins(tree())
    target = Path(args.out)
    if args.check:
        current = target.read_text(encoding="utf-8") if target.is_file() else ""
        if current != text:
            print(f"{target} is not the installed versions: run `python tests/constraints.py`", file=sys.stderr)
            return 1
        return 0
    target.write_text(text, encoding="utf-8")
    print(f"wrote {target}: {text.count('==')} versions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
