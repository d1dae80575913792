"""`printkit doctor`: what the outputs depend on, checked on this machine, one line each with the fix."""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from printkit import __version__
from printkit.cli.common import out_folder
from printkit.core import assets, project
from printkit.core.errors import CheckFailed, PrintkitError, display_path
from printkit.draw import fonts

OK, WARN, FAIL = "ok", "warn", "fail"


@dataclass(frozen=True)
class Finding:
    level: str  # ok, warn (something optional or degraded), fail (printkit cannot do part of its work)
    what: str
    detail: str
    fix: str = ""

    def __str__(self) -> str:
        fix = f"; fix: {self.fix}" if self.fix and self.level != OK else ""
        return f"{self.level:<5}{self.what}: {self.detail}{fix}"


def _installation() -> Iterator[Finding]:
    cards = assets.folder("cards")
    where = "a source checkout" if (cards.parent / "pyproject.toml").is_file() else "the installed package"
    yield Finding(
        OK, "printkit", f"{__version__}, its layouts, templates and bundled games from {where} ({cards.parent})"
    )
    # printkit needs 3.11 to install at all: this names the version rather than judges it
    yield Finding(OK, "python", ".".join(str(v) for v in sys.version_info[:3]))


def _fonts() -> Iterator[Finding]:
    found, missing = [], []
    for name in fonts.FAMILIES:
        try:
            found.append(fonts.font_file(name))
        except PrintkitError:
            missing.append(name)
    if missing:
        yield Finding(
            FAIL, "fonts", f"no file for {', '.join(missing)}", "apt-get install fonts-dejavu-core (Debian, Ubuntu)"
        )
    else:
        folders = sorted({str(p.parent) for p in found})
        yield Finding(OK, "fonts", f"all {len(found)} DejaVu faces the layouts use, in {', '.join(folders)}")


def _weasyprint() -> Iterator[Finding]:
    try:
        import weasyprint  # the rules booklets and the balance report need it and its Pango

        yield Finding(OK, "weasyprint", f"{weasyprint.__version__}, with Pango: booklets and reports can be made")
    except (ImportError, OSError) as exc:
        yield Finding(
            FAIL,
            "weasyprint",
            f"does not load ({str(exc).splitlines()[0]})",
            "apt-get install libpango-1.0-0 libpangoft2-1.0-0",
        )


def _program(name: str, what: str, fix: str) -> Callable[[], Iterator[Finding]]:
    def check() -> Iterator[Finding]:
        found = shutil.which(name)
        yield Finding(OK, name, f"found ({found})") if found else Finding(WARN, name, f"not found: {what}", fix)

    return check


def _cmyk_profile() -> Iterator[Finding]:
    from printkit.draw import ink

    found = ink.found_profile()
    if found is None:
        yield Finding(
            WARN,
            "cmyk profile",
            "not found: --colour cmyk (print-shop PDF/X-1a, TIFF and JPEG) needs a CMYK ICC profile",
            f"apt-get install {ink.PROFILE_PACKAGE}",
        )
        return
    description = ink.Press(found, 2.4).description
    yield Finding(OK, "cmyk profile", f"{description}, {found} (Debian {ink.PROFILE_PACKAGE}, GNU AGPL)")


def _output(args: argparse.Namespace) -> Iterator[Finding]:
    here = project.find()
    settings_file = display_path(here.config) if here.config else "no printkit.toml: the current folder"
    yield Finding(OK, "project", f"{display_path(here.root) or '.'} ({settings_file})")
    out = out_folder(args, here)
    existing = next((p for p in [out, *out.parents] if p.exists()), Path("/"))
    try:
        with tempfile.NamedTemporaryFile(dir=existing, prefix=".printkit-doctor-"):
            pass
    except OSError as exc:
        yield Finding(
            FAIL,
            "output",
            f"cannot write in {display_path(existing)} ({exc.strerror})",
            "choose another folder with --out, or change the folder's permissions",
        )
    else:
        state = "writable" if existing == out else f"to be made in {display_path(existing) or '.'}, writable"
        yield Finding(OK, "output", f"{display_path(out)}/: {state}")


CHECKS: tuple[Callable[[], Iterator[Finding]], ...] = (
    _installation,
    _fonts,
    _weasyprint,
    _program("chromium", "only the rules reference's browser test needs it", "apt-get install chromium"),
    _cmyk_profile,
    _program(
        "gs",
        "Ghostscript, which the tests measure CMYK files' ink with; printkit itself does not run it",
        "apt-get install ghostscript",
    ),
)


def cmd_doctor(args: argparse.Namespace) -> int:
    findings = [f for check in CHECKS for f in check()] + list(_output(args))
    for finding in findings:
        print(finding)
    failed = [f.what for f in findings if f.level == FAIL]
    if failed:
        verb = "needs" if len(failed) == 1 else "need"
        raise CheckFailed(
            f"doctor: {', '.join(failed)} {verb} fixing before printkit can make everything", topic="install"
        )
    return 0
