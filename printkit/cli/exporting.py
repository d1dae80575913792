"""The commands that hand cards to other tools: export, import, preview."""

from __future__ import annotations

import argparse
import os
import re
import urllib.parse
from collections import Counter
from pathlib import Path

from printkit.cli.common import one_game, out_folder, print_settings, say, warn
from printkit.cli.progress import Bar
from printkit.core import project
from printkit.core.errors import UsageError, display_path
from printkit.data import loader, settings
from printkit.data.game import Game
from printkit.data.summary import plural
from printkit.draw import drawcache, ink


def _game_out(args: argparse.Namespace, game: Game, what: str) -> Path:
    return out_folder(args, project.find()) / game.slug / what


def cmd_export(args: argparse.Namespace) -> int:
    here = project.find()
    game = one_game(args.game)
    given = print_settings(args, ("card_size", "bleed", "dpi", "colour", "ink_limit", "pdfx"))
    if args.no_bleed:
        given["bleed"] = "0mm"
    only_tts = [o for o, v in (("--copy-to", args.copy_to), ("--base-url", args.base_url)) if v]
    if only_tts and args.format != "tts":
        raise UsageError(f"{only_tts[0]}: only export tts takes it")
    only_shop = [o for o, v in (("--colour", args.colour), ("--ink-limit", args.ink_limit), ("--pdfx", args.pdfx)) if v]
    if only_shop and args.format != "printshop":
        raise UsageError(f"{only_shop[0]}: only export printshop takes it (and build)")
    if args.format != "printshop":  # a game's print: colour is for its print files, not its PNG or TTS images
        given["colour"] = "rgb"
    chosen = settings.resolve(game, here, given)
    ink.press(chosen)  # no profile for cmyk: one line now, before anything is drawn
    with drawcache.kept():  # card pictures kept from earlier exports and builds
        written = _export(args, game, chosen)
    for folder, n in Counter(p.parent for p in written).items():
        say(f"wrote {display_path(folder)}: {n} {plural('file', n)}")
    return 0


def _web_address(given: str | None) -> str | None:
    """--base-url as Tabletop Simulator can fetch from it: an http or https address with a host, nothing in it
    a URL may not hold as it is (a space is %20), so every card image's address made from it works."""
    if given is None:
        return None
    parts = urllib.parse.urlsplit(given)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise UsageError(
            f"--base-url: expected an http or https address such as https://example.org/decks, found {given!r}"
        )
    if re.search(r"[^A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]", given) or parts.query or parts.fragment:
        raise UsageError(
            f"--base-url: {given!r} holds a character an address may not hold as it is, or a ? or #: "
            "write a space as %20 and give the folder's address alone"
        )
    return given


def _export(args: argparse.Namespace, game: Game, chosen: settings.PrintSettings) -> list[Path]:
    """The files of one export of game, written."""
    from printkit.exports import images, printshop, spreadsheet, tts

    if args.format == "png":
        bar = Bar(1, "pictures")
        try:
            workers = min(2, os.cpu_count() or 1)
            written = images.export(game, _game_out(args, game, "png"), chosen, workers, lambda n, total: bar(n, total))
        finally:
            bar.close()
    elif args.format == "tts":
        copy_to = Path(args.copy_to) if args.copy_to else None
        if copy_to is not None and not copy_to.is_dir():
            raise UsageError(f"--copy-to: {args.copy_to}: no such folder (Tabletop Simulator makes its Saved Objects)")
        out = _game_out(args, game, "tts")
        written = tts.export(game, out, chosen, _web_address(args.base_url), args.hidden_in_last_slot, copy_to)
    elif args.format == "printshop":
        written, warnings = printshop.export(game, _game_out(args, game, "printshop"), chosen, args.service)
        for warning in warnings:
            warn(f"{game.slug}: {warning} ({args.service})")
    elif args.format == "xlsx":
        target = _game_out(args, game, f"{game.slug}.xlsx")
        written = [spreadsheet.export_xlsx(game, target)]
    else:
        target = _game_out(args, game, f"{game.slug}.csv")
        written = [spreadsheet.export_csv(game, target, bom=not args.no_bom)]
    return written


def cmd_import(args: argparse.Namespace) -> int:
    from printkit.exports import spreadsheet

    here = project.find()
    game = one_game(args.into)
    if loader.is_bundled(game.folder, here):
        raise UsageError(
            f"{game.slug} is a bundled game, part of printkit's installation: copy its folder into your "
            "project's cards/ and import into the copy"
        )
    source = Path(args.file)
    if not source.exists() and not source.is_symlink():
        raise UsageError(f"{args.file}: no such file")
    if source.suffix.lower() != f".{args.format}":
        raise UsageError(f"{args.file}: expected a .{args.format} file")
    if args.sheet is not None and args.format != "xlsx":
        raise UsageError("--sheet: only an xlsx file has sheets")
    written = spreadsheet.import_rows(source, game.folder, here, args.allow_orphans, args.sheet)
    for path in written:
        say(f"wrote {display_path(path)}")
    if not written:
        say(f"nothing to write: {game.slug}'s card files already hold these cards as they are")
    return 0


def cmd_preview(args: argparse.Namespace) -> int:
    from printkit.exports import preview

    game = one_game(args.game)
    here = project.find()
    chosen = settings.resolve(game, here, print_settings(args, ("card_size",)))
    with drawcache.kept():
        written = preview.export(game, _game_out(args, game, "preview"), chosen)
    for path in written:
        say(f"wrote {display_path(path)}")
    return 0
