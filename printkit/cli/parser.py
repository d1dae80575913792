"""The commands and their options: what each does, every option's default and values, examples, and a did-you-mean."""

from __future__ import annotations

import argparse
import difflib
import importlib
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn

from engine.targets import TARGETS
from printkit import __version__
from printkit.cli import completion
from printkit.core import choices
from printkit.data import settings

GROUPS = ("make", "export", "play", "help")


@dataclass(frozen=True)
class Command:
    """One command: its job group, a line for the overview, what its help opens with, and examples."""

    name: str
    group: str
    summary: str
    description: str
    examples: tuple[str, ...]
    run: str  # module:function under printkit.cli, imported only when the command runs


class Parser(argparse.ArgumentParser):
    """argparse that reports a usage error in one line, with the closest command, option or choice."""

    def error(self, message: str) -> NoReturn:
        bad = re.search(r"argument ([^:]*): invalid choice: '([^']*)' \(choose from (.*)\)", message)
        if bad:
            what, word = bad.group(1), bad.group(2)
            options = [c.strip(" '") for c in bad.group(3).split(",")]
            hint = difflib.get_close_matches(word, options, n=1)
            if what == "COMMAND":
                message = f"no command {word!r}"
            else:
                message = f"{what.split('/')[-1]}: expected {', '.join(options[:-1])} or {options[-1]}, found {word!r}"
            message += f"; did you mean {hint[0]!r}?" if hint else ""
        command = self.prog.removeprefix("printkit").strip()
        help_line = f"printkit {command} --help" if command else "printkit --help"
        print(f"printkit: {message} (see `{help_line}`)", file=sys.stderr)
        raise SystemExit(2)


def _formatter(prog: str) -> argparse.HelpFormatter:
    return argparse.RawDescriptionHelpFormatter(prog, max_help_position=30, width=100)


def _common(parser: argparse.ArgumentParser, top: bool = False) -> None:
    """The options every command takes, before or after its name."""
    default = False if top else argparse.SUPPRESS  # after a command, an absent flag keeps what came before
    parser.add_argument("-q", "--quiet", action="store_true", default=default, help="say nothing but errors")
    parser.add_argument("-v", "--verbose", action="store_true", default=default, help="name every file written")
    parser.add_argument("--debug", action="store_true", default=default, help="show a traceback with every error")


def _games(p: argparse.ArgumentParser, default: str = "the project's games") -> None:
    p.add_argument(
        "games",
        nargs="*",
        metavar="GAME|PATH",
        help=f"a game by name (the project's, else a bundled one) or a game folder (default: {default})",
    )
    _trust(p)


def _trust(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--trust",
        action="store_true",
        help="run the games' own engines (an engine_file: in game.yaml) for this run: code from their folders; "
        "trust a folder for good with trusted = [...] under [engines] in printkit.toml",
    )


def _game(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", metavar="GAME|PATH", help="a game by name (the project's, else a bundled one) or its folder")
    _trust(p)


def _out(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", metavar="FOLDER", help="where to write (default: the project's output/)")


def _card_size(p: argparse.ArgumentParser) -> None:
    presets = ", ".join(settings.CARD_SIZES_MM)
    size = p.add_argument(
        "--card-size",
        metavar="SIZE",
        help=f"{presets}, or WxH in mm such as 70x110 (default: the game's and project's print settings, else poker)",
    )
    completion.offers(size, "words:" + " ".join(settings.CARD_SIZES_MM))


def _paper(p: argparse.ArgumentParser, help_text: str) -> None:
    paper = p.add_argument("--paper", metavar="PAPER", help=help_text)
    completion.offers(paper, "words:" + " ".join(settings.PAPER_NAMES))


def _bleed(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--bleed", metavar="LENGTH", help="art past each cut line, 0mm to 5mm such as 3mm or 0.125in (default: 3mm)"
    )


def _colour(p: argparse.ArgumentParser, which: str = "", default: str = "rgb") -> None:
    colour = p.add_argument(
        "--colour",
        metavar="MODE",
        help=f"{which}rgb, or cmyk for a print shop: PDF/X-1a in CMYK through the ICC profile `printkit doctor` "
        f"names, total ink limited (default: {default})",
    )
    completion.offers(colour, "words:" + " ".join(settings.COLOUR_MODES))
    limit = f"{settings.INK_LIMIT * 100:g}%%"
    most = f", at most the shop's own (default: the shop's, else {limit})" if which else f" (default: {limit})"
    p.add_argument(
        "--ink-limit",
        metavar="PERCENT",
        help=f"{which}under cmyk, the most ink at any point, the four inks added, 100%% to 400%%{most}",
    )
    first = settings.PDFX_VERSIONS[0]
    default = f"the shop's, the only one it takes, else {first}" if which else first
    version = p.add_argument(
        "--pdfx",
        metavar="VERSION",
        help=f"{which}under cmyk, the PDFs' standard: {' or '.join(settings.PDFX_VERSIONS)}, or the year alone "
        f"(default: {default})",
    )
    # the years, which it takes too: bash's completion splits a word at a colon
    completion.offers(version, "words:" + " ".join(settings.pdfx_year(v) for v in settings.PDFX_VERSIONS))


def _workers(p: argparse.ArgumentParser, default: int) -> None:
    p.add_argument(
        "--workers",
        type=int,
        default=default,
        help=f"processes that play at once, 1 to {choices.MAX_WORKERS} (default: {default})",
    )


def _no_pdf(p: argparse.ArgumentParser) -> None:
    p.add_argument("--no-pdf", action="store_true", help="results.json and the HTML report only, no PDF")


def _vary(p: argparse.ArgumentParser, words: str) -> None:
    p.add_argument("--vary", action="append", required=True, metavar="PATH=RANGE", help=words)


def _cluster(p: argparse.ArgumentParser, resume: bool = True) -> None:
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="play on a Dask cluster: its scheduler's tcp://HOST:PORT, or local to start one here "
        "(needs Dask: pipx inject printkit-studio 'dask[distributed]', or pip install -e '.[dask]' "
        "in printkit's clone; default: local worker processes)",
    )
    if resume:
        p.add_argument(
            "--resume", action="store_true", help="keep the games an interrupted run of the same command finished"
        )


def _seed(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=int, default=1, help="the seed the games' shuffles and dice come from (default: 1)")


def _agents(p: argparse.ArgumentParser) -> None:
    agents = p.add_argument(
        "--agents",
        default="random,random",
        metavar="A,B",
        help="the players: random, greedy, mcts, mctsN (N searches a move), mctsN/D (judging a position after D "
        "random moves), expert (the agent game.yaml names), AGENT!CARD (never playing CARD); at a table of more than "
        "two, one a seat or the last fills the seats left (default: random,random)",
    )
    completion.offers(agents, "words:random greedy mcts expert")


def _options_init(p: argparse.ArgumentParser) -> None:
    p.add_argument("folder", nargs="?", default=".", help="the folder to make a project; made if missing (default: .)")


def _options_new(p: argparse.ArgumentParser) -> None:
    p.add_argument("name", help="the game's name, as it should read on its booklet and cards")
    p.add_argument("--dir", metavar="FOLDER", help="where to make the game's folder (default: the project's cards/)")
    p.add_argument(
        "--starter",
        choices=choices.STARTERS,
        default="deck",
        help="deck: one kind of plain card with a text and numbers; types: two kinds of card of the game's own "
        "(cost, rarity, keywords), their layouts, and a spreadsheet of cards; engine: a two-player game with "
        "its own engine in Python (engine.py), trusted in printkit.toml, that simulate plays; play: a two-player "
        "game whose rules are data (play.yaml, printkit's rules language), played with no code (default: deck)",
    )


def _options_list(p: argparse.ArgumentParser) -> None:
    _games(p, "the project's games, then the bundled ones")
    p.add_argument("--names", action="store_true", help="only the games' names, one a line (for scripts)")


def _json(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="one JSON document of results and problems, on standard output")


def _options_validate(p: argparse.ArgumentParser) -> None:
    _games(p)
    _json(p)
    _paper(p, "check for a4, letter, or both as a4,letter (default: both)")
    _card_size(p)
    _bleed(p)
    _printer_margin(p)
    _margin_tolerance(p)
    _cuts(p)


def _cuts(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--cuts",
        choices=settings.CUT_MODES,
        help="shared: neighbours share a cut line; separate: each piece its own bleed and cut lines, a gutter "
        "between; auto: separate wherever it takes no more pages (default: auto)",
    )


def _printer_margin(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--printer-margin",
        metavar="LENGTH",
        help="the blank strip your printer leaves along each paper edge, 0mm to 20mm; no ink, crop marks "
        "included, goes there (default: 5mm)",
    )


def _margin_tolerance(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--margin-tolerance",
        metavar="LENGTH",
        help="how much further in than the printer margin ink begins, 0mm to 5mm, for a printer whose blank "
        "strip is a little wider on some sheets (default: 0.5mm)",
    )


def _options_build(p: argparse.ArgumentParser) -> None:
    _games(p)
    _paper(p, "a4, letter, or both as a4,letter (default: both)")
    _card_size(p)
    _bleed(p)
    _printer_margin(p)
    _margin_tolerance(p)
    _cuts(p)
    _colour(p)
    p.add_argument(
        "--duplex",
        choices=settings.DUPLEX_EDGES,
        help="the edge your printer turns a sheet over; none puts backs on pages of their own (default: long)",
    )
    p.add_argument(
        "--offset",
        metavar="X,Y",
        help="move every back by X,Y mm to meet its front, read off the calibration page (default: 0,0)",
    )
    p.add_argument(
        "--foldover",
        action="store_true",
        help="faces and backs side by side with a fold line, for printers that print one side",
    )
    p.add_argument("--decks", metavar="ID,...", help="only these decks (default: every deck)")
    p.add_argument("--cards", metavar="ID,...", help="only these cards (default: every card)")
    p.add_argument(
        "--copies", type=int, default=1, help=f"print each card this many times, 1 to {choices.MAX_COPIES} (default: 1)"
    )
    p.add_argument(
        "--imposition", choices=["saddle"], help="also the booklets 2-up, to fold and staple (default: none)"
    )
    only = p.add_argument(
        "--only",
        metavar="PART,...",
        help=f"only these parts: {', '.join(choices.PARTS)} (default: all; the bundle is made of the first four)",
    )
    completion.offers(only, "words:" + " ".join(choices.PARTS))
    p.add_argument("--no-check", action="store_true", help="skip the quick check by play before writing")
    p.add_argument(
        "--watch",
        action="store_true",
        help="build, then again each time a game's files change; serve the output with pages that reload",
    )
    p.add_argument("--port", type=int, default=8787, help="--watch: the localhost port it serves on (default: 8787)")
    _json(p)
    _out(p)


def _options_schema(p: argparse.ArgumentParser) -> None:
    p.add_argument("--check", action="store_true", help="only check that the schemas are current (exit 1 if not)")


def _options_export(p: argparse.ArgumentParser) -> None:
    p.add_argument("format", choices=choices.FORMATS, help="what to make: " + ", ".join(choices.FORMATS))
    _game(p)
    _card_size(p)
    _bleed(p)
    dpi = p.add_argument("--dpi", metavar="DPI", help="png: dots per inch, 36 to 1200 (default: 300)")
    completion.offers(dpi, "words:150 300 600")
    p.add_argument("--no-bleed", action="store_true", help="png: the trim size only, without the bleed")
    p.add_argument("--no-bom", action="store_true", help="csv: no byte-order mark (Excel needs it to read UTF-8)")
    p.add_argument("--base-url", metavar="URL", help="tts: where the sheets will be online (default: local file URLs)")
    p.add_argument(
        "--copy-to",
        metavar="FOLDER",
        help="tts: also put each deck's saved object in this folder, such as Tabletop Simulator's Saved Objects",
    )
    p.add_argument(
        "--hidden-in-last-slot",
        action="store_true",
        help="tts: the back in each sheet's last slot, instead of setting BackIsHidden",
    )
    service = p.add_argument(
        "--service",
        default="mpc",
        metavar="SHOP",
        help=f"printshop: {', '.join(choices.SERVICES)}, or one of the project's printshops.yaml (default: mpc)",
    )
    completion.offers(service, "words:" + " ".join(choices.SERVICES))
    _colour(p, "printshop: ", "the shop's form: cmyk where its printshops.yaml entry names a pdfx, else rgb")
    _out(p)


def _options_import(p: argparse.ArgumentParser) -> None:
    p.add_argument("format", choices=["csv", "xlsx"], help="the spreadsheet's kind: csv or xlsx")
    p.add_argument("file", help="the spreadsheet: one row per card, as `printkit export csv` writes it")
    p.add_argument("--into", required=True, metavar="GAME|PATH", help="the game whose card files the rows replace")
    p.add_argument("--allow-orphans", action="store_true", help="import cards that no deck takes (they never print)")
    p.add_argument("--sheet", metavar="NAME", help="xlsx: the sheet the cards are on (default: the first)")


def _options_preview(p: argparse.ArgumentParser) -> None:
    _game(p)
    _card_size(p)
    _out(p)


def _options_simulate(p: argparse.ArgumentParser) -> None:
    _game(p)
    p.add_argument("--games", type=int, default=200, help=f"how many games, 1 to {choices.MAX_GAMES:,} (default: 200)")
    _agents(p)
    _seed(p)
    _workers(p, 1)
    _no_pdf(p)
    _cluster(p)
    _out(p)


def _options_sweep(p: argparse.ArgumentParser) -> None:
    _game(p)
    _vary(
        p,
        "a value of the game's data and the values to try: rules.hand_size=3..7, cards.swordsman.hp=40..120:20, "
        "rules.melee_reach=nearest_in_column,opposite_row_only; again for another (every combination is played)",
    )
    p.add_argument("--games", type=int, default=200, help=f"games a point, 1 to {choices.MAX_GAMES:,} (default: 200)")
    _agents(p)
    _seed(p)
    _workers(p, 2)
    _no_pdf(p)
    _cluster(p)
    _out(p)


def _options_tune(p: argparse.ArgumentParser) -> None:
    _game(p)
    _vary(p, "a value of the game's data and the values the search may pick, as sweep takes them; again for another")
    p.add_argument(
        "--target",
        required=True,
        choices=sorted(TARGETS),
        help="what to make best: " + "; ".join(f"{name}, {TARGETS[name].words}" for name in sorted(TARGETS)),
    )
    p.add_argument(
        "--trials", type=int, default=30, help=f"points the search tries, 1 to {choices.MAX_TRIALS:,} (default: 30)"
    )
    p.add_argument("--games", type=int, default=200, help=f"games a point, 1 to {choices.MAX_GAMES:,} (default: 200)")
    _agents(p)
    _seed(p)
    _workers(p, 2)
    p.add_argument("--no-pdf", action="store_true", help="results.json, patch.yaml and the HTML report, no PDF")
    _cluster(p)
    _out(p)


def _options_replay(p: argparse.ArgumentParser) -> None:
    _game(p)
    _seed(p)
    _agents(p)
    p.add_argument("--results", metavar="FILE", help="a results.json simulate wrote: replay one of its games")
    p.add_argument("--index", type=int, default=0, help="which game of --results, from 0 (default: 0)")


def _options_engine_test(p: argparse.ArgumentParser) -> None:
    _game(p)
    p.add_argument(
        "--seeds", type=int, default=20, help=f"random games to check, 1 to {choices.MAX_SEEDS:,} (default: 20)"
    )
    p.add_argument("--seed", type=int, default=0, help="the first game's seed (default: 0)")


def _options_check(p: argparse.ArgumentParser) -> None:
    _games(p)
    p.add_argument(
        "--games",
        dest="count",
        type=int,
        default=200,
        help=f"games per game, 1 to {choices.MAX_GAMES:,} (default: 200)",
    )
    _seed(p)
    _workers(p, 2)
    _cluster(p, resume=False)  # a check is quick to play again: its games are not kept for --resume


def _options_balance(p: argparse.ArgumentParser) -> None:
    _games(p)
    p.add_argument(
        "--games",
        dest="count",
        type=int,
        default=200,
        help=f"games per game, 1 to {choices.MAX_GAMES:,} (default: 200)",
    )
    _agents(p)
    _seed(p)
    _workers(p, 2)
    p.add_argument(
        "--ladder",
        type=int,
        default=None,
        metavar="N",
        help=f"games each rung of the skill ladder plays the rung below, 0 to {choices.MAX_LADDER:,} "
        f"(0: no ladder; default: {choices.LADDER_GAMES}, none for games over {choices.LADDER_LONGEST:,} actions)",
    )
    p.add_argument(
        "--card-value",
        type=int,
        default=None,
        metavar="N",
        help=f"games for each card's value by restricted play, 0 to {choices.MAX_LADDER:,} "
        f"(0: none; default: {choices.CARD_VALUE_GAMES}, none for games over {choices.LADDER_LONGEST:,} actions)",
    )
    p.add_argument(
        "--no-studies",
        action="store_true",
        help="leave out the studies game.yaml asks for (the sweeps under studies:)",
    )
    _cluster(p)
    _out(p)


def _options_doctor(p: argparse.ArgumentParser) -> None:
    _out(p)


def _options_completion(p: argparse.ArgumentParser) -> None:
    p.add_argument("shell", choices=completion.SHELLS, help="the shell: " + ", ".join(completion.SHELLS))


def _options_help(p: argparse.ArgumentParser) -> None:
    from printkit.cli import manual  # the pages' names only: it reads a folder, and loads none of the pipeline

    topic = p.add_argument("topic", nargs="?", metavar="TOPIC", help="a guide page or a command; none lists them")
    completion.offers(topic, "words:" + " ".join([*manual.pages(), *(c.name for c in COMMANDS)]))


def cmd_completion(args: argparse.Namespace) -> int:
    print(completion.script(args.shell, parser()), end="")
    return 0


COMMANDS = (
    Command(
        "init",
        "make",
        "make a folder a printkit project",
        "Make a folder a printkit project: printkit.toml for its print settings, cards/ for its games,\n"
        "layouts/ for layouts of its own, schema/ for editors, and output/ in .gitignore.",
        ("printkit init", "printkit init my-games"),
        "make:cmd_init",
    ),
    Command(
        "new",
        "make",
        "start a new game in the project's cards/",
        "Start a new game: game.yaml, cards.yaml with two cards and rules.md, valid from the start.\n"
        "The name is kept as typed; the folder is named from it in plain Latin letters.",
        ('printkit new "My Game"', 'printkit new "My Game" --starter types', 'printkit new "Über Spiel" --dir drafts'),
        "make:cmd_new",
    ),
    Command(
        "list",
        "make",
        "the games, with their cards and printed parts",
        "List the project's games, then the bundled ones, with their cards and printed parts.",
        ("printkit list", "printkit list --names"),
        "listing:cmd_list",
    ),
    Command(
        "validate",
        "make",
        "check games' data: every problem as file:line:column",
        "Check games as a build would, writing nothing: load their data, then draw every card, back,\n"
        "counter and board and fill in the rules text. Every problem is one line, file:line:column\n"
        "first, all of them at once. Exit 0 when every game would build, 2 when one would not.",
        ("printkit validate", "printkit validate my-game", "printkit validate cards/my-game/game.yaml"),
        "make:cmd_validate",
    ),
    Command(
        "build",
        "make",
        "card sheets, counters, boards, bundles, booklets and the rules reference",
        "Build games: card sheets with bleed, crop marks and duplex backs; counters; boards tiled over\n"
        "pages; a print-and-play bundle per paper; the rules booklets; the rules reference site. Every\n"
        "file is made first and written only when all of them are, after a quick check by play.\n"
        "Print settings come from printkit's defaults, the game's print:, the project's [print] and\n"
        "these options, later ones winning.",
        (
            "printkit build",
            "printkit build battle-line --paper letter --duplex short",
            "printkit build my-game --only cards --no-check",
            "printkit build my-game --watch --only cards,reference",
        ),
        "make:cmd_build",
    ),
    Command(
        "schema",
        "make",
        "write the JSON Schemas editors check the YAML with",
        "Write or refresh the JSON Schemas of the YAML files in the project's schema/ folder, where\n"
        "each YAML file's first line points editors at them.",
        ("printkit schema", "printkit schema --check"),
        "make:cmd_schema",
    ),
    Command(
        "export",
        "export",
        "card images and data for other tools: png, tts, printshop, csv, xlsx",
        "Export a game for other tools: png (an image per card, back, player aid, counter and board), tts\n"
        "(Tabletop Simulator deck sheets and saved objects), printshop (a print shop's images and PDFs, in\n"
        "the form its printshops.yaml entry names, CMYK with --colour cmyk), csv and xlsx (one row per card,\n"
        "safe to open in a spreadsheet). Images are drawn from the print drawing, at the game's print\n"
        "settings.",
        (
            "printkit export png battle-line --dpi 150",
            "printkit export tts my-game --base-url https://example.org/decks",
            "printkit export printshop my-game --service gamecrafter",
            "printkit export printshop my-game --service drivethrucards --colour cmyk",
            "printkit export xlsx my-game",
        ),
        "exporting:cmd_export",
    ),
    Command(
        "import",
        "export",
        "cards from a spreadsheet back into a game's YAML",
        "Import cards from a spreadsheet into a game's card files. Every row is checked first; a bad\n"
        "row is reported by row and column and nothing is written.",
        ("printkit import csv my-game.csv --into my-game", "printkit import xlsx cards.xlsx --into cards/my-game"),
        "exporting:cmd_import",
    ),
    Command(
        "preview",
        "export",
        "a contact sheet image per deck",
        "Make a contact sheet per deck: every card small on one PNG, to look over without printing.",
        ("printkit preview battle-line", "printkit preview my-game --card-size tarot"),
        "exporting:cmd_preview",
    ),
    Command(
        "simulate",
        "play",
        "play many seeded games and write a balance report",
        "Play many seeded games with the reference engine and write results.json and a report (HTML\n"
        "and PDF): win rates per seat and agent, endings, lengths, and how each card fares.",
        (
            "printkit simulate battle-line --games 500",
            "printkit simulate battle-line --agents greedy,random --workers 2",
        ),
        "play:cmd_simulate",
    ),
    Command(
        "sweep",
        "play",
        "play the game at each of a range of values and chart every metric",
        "Play the same seeded games at every point of a grid of changed values (rule options, card\n"
        "stats, any number of the game's data), and write results.json and a report charting each\n"
        "metric against the values. The data on disk is not changed.",
        (
            "printkit sweep soldier-battler --vary cards.swordsman.hp=40..120:20",
            "printkit sweep soldier-battler --vary rules.turn_cap=20..80:20 --vary rules.enter_enemy_row=true,false",
        ),
        "play:cmd_sweep",
    ),
    Command(
        "tune",
        "play",
        "search a range of values for the best by a target metric",
        "Search the values given with --vary for the ones a target metric likes best (Optuna's TPE\n"
        "sampler, seeded: the same tune gives the same result), each point played like a sweep's.\n"
        "Writes the best values as patch.yaml, with results.json and a report of every point tried.\n"
        "Needs Optuna: pipx inject printkit-studio optuna, or pip install -e '.[tune]' in printkit's clone.",
        (
            "printkit tune soldier-battler --vary rules.idle_turns_to_stalemate=2..12 --target completion",
            "printkit tune soldier-battler --vary cards.swordsman.hp=40..160:20 --target card-spread --trials 20",
        ),
        "play:cmd_tune",
    ),
    Command(
        "replay",
        "play",
        "a readable log of one game, from a seed or a results.json",
        "Print a readable log of one game: played again from its seed and agents, or from a\n"
        "results.json that simulate wrote.",
        ("printkit replay soldier-battler --seed 3", "printkit replay battle-line --results results.json --index 12"),
        "play:cmd_replay",
    ),
    Command(
        "engine-test",
        "play",
        "check that a game's engine keeps the game API",
        "Check a game's engine by random play over many seeds: a player to move has a legal move, chance's\n"
        "odds add up to one, a clone moves alone, a player's view survives resampling the cards it cannot\n"
        "see, every game ends within its cap and replays to its result, and one worker and two give the same\n"
        "records. One line per failure, with its seed and its action's number; exit 1 when any fails.",
        ("printkit engine-test my-game", "printkit engine-test battle-line --seeds 200"),
        "play:cmd_engine_test",
    ),
    Command(
        "check",
        "play",
        "play games to check their data: crashes, endings, fairness, dead cards",
        "Check games by play: seeded games between random and greedy agents, and what they show: a\n"
        "crash, games ending at a cap, a seat winning too often, a card never played or too strong.\n"
        "Exit 1 when a finding is an error.",
        ("printkit check", "printkit check battle-line --games 50"),
        "play:cmd_check",
    ),
    Command(
        "balance",
        "play",
        "a balance report for each game and a summary across them",
        "Write a balance report for each game and one summary page across them.",
        ("printkit balance battle-line --games 100", "printkit balance --games 50 --workers 2"),
        "play:cmd_balance",
    ),
    Command(
        "doctor",
        "help",
        "check what printkit needs on this machine",
        "Check what printkit's outputs depend on: Python, the fonts, WeasyPrint, Chromium,\n"
        "Ghostscript, the project and the output folder. One line each, with the fix.",
        ("printkit doctor", "printkit doctor --out /tmp/prints"),
        "doctor:cmd_doctor",
    ),
    Command(
        "help",
        "help",
        "read a page of the guide here, offline",
        "Read a page of printkit's guide in the terminal, the same words as the docs site: a tutorial,\n"
        "how-to guides, the reference and explanations. A problem line ends in [printkit help TOPIC]\n"
        "when a page explains it. A command's name as the topic shows that command's options.",
        ("printkit help", "printkit help spreadsheets", "printkit help reference/layouts", "printkit help build"),
        "manual:cmd_help",
    ),
    Command(
        "completion",
        "help",
        "a completion script for bash, zsh or fish",
        "Print a script that completes printkit's commands, options, values and game names.\n"
        "bash: printkit completion bash > ~/.local/share/bash-completion/completions/printkit\n"
        "zsh:  printkit completion zsh > ~/.zfunc/_printkit  (with fpath+=~/.zfunc before compinit)\n"
        "fish: printkit completion fish > ~/.config/fish/completions/printkit.fish",
        ("printkit completion bash", "printkit completion fish"),
        "parser:cmd_completion",
    ),
)
OPTIONS: dict[str, Callable[[argparse.ArgumentParser], None]] = {
    "init": _options_init,
    "new": _options_new,
    "list": _options_list,
    "validate": _options_validate,
    "build": _options_build,
    "schema": _options_schema,
    "export": _options_export,
    "import": _options_import,
    "preview": _options_preview,
    "simulate": _options_simulate,
    "sweep": _options_sweep,
    "tune": _options_tune,
    "replay": _options_replay,
    "engine-test": _options_engine_test,
    "check": _options_check,
    "balance": _options_balance,
    "doctor": _options_doctor,
    "help": _options_help,
    "completion": _options_completion,
}


def overview() -> str:
    """What `printkit` alone prints: the commands grouped by job, one line each."""
    lines = [
        f"printkit {__version__}: one YAML description of a tabletop game, made into print-ready card sheets,",
        "boards and counters, rules booklets and a rules reference, images for other tools, and games played",
        "to check it.",
        "",
        "usage: printkit [-q] [-v] [--debug] COMMAND [options]",
    ]
    width = max(len(c.name) for c in COMMANDS)
    for group in GROUPS:
        lines += ["", f"{group}:"]
        lines += [f"  {c.name:<{width}}  {c.summary}" for c in COMMANDS if c.group == group]
    lines += [
        "",
        "`printkit COMMAND --help` shows a command's options, their defaults and examples; `printkit help` lists",
        "the guide's pages, to read here offline.",
        "Every command takes -q/--quiet, -v/--verbose and --debug; `printkit --version` names the version.",
        "Exit codes: 0 done, 1 a check found an error, 2 bad usage or bad data, 130 interrupted.",
    ]
    return "\n".join(lines) + "\n"


class _Overview(argparse.Action):
    """-h/--help on printkit itself: the grouped overview rather than argparse's list."""

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        print(overview(), end="")
        parser.exit()


def parser() -> Parser:
    top = Parser(prog="printkit", add_help=False, formatter_class=_formatter)
    top.add_argument("-h", "--help", action=_Overview, nargs=0, help="the commands, grouped by job")
    top.add_argument("--version", action="version", version=f"printkit {__version__}")
    _common(top, top=True)
    sub = top.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for command in COMMANDS:
        examples = "\n".join(f"  {e}" for e in command.examples)
        p = sub.add_parser(
            command.name,
            help=command.summary,
            description=command.description,
            epilog=f"examples:\n{examples}",
            formatter_class=_formatter,
        )
        OPTIONS[command.name](p)
        _common(p)
        p.set_defaults(run=_later(command.run))
    return top


def _later(where: str) -> Callable[[argparse.Namespace], int]:
    """A command's function, imported as it runs: --help, --version and a usage error load none of the pipeline."""
    module, name = where.split(":")

    def run(args: argparse.Namespace) -> int:
        found: Callable[[argparse.Namespace], int] = getattr(importlib.import_module(f"printkit.cli.{module}"), name)
        return found(args)

    return run
