"""printkit list: the project's games and the bundled ones, each with its title and what it holds (apart from the
commands that make things, so a listing loads the games and not the pipeline that draws them)."""

from __future__ import annotations

import argparse

from printkit.cli.common import load
from printkit.core import project
from printkit.core.errors import PrintkitError, safe
from printkit.data import loader, settings, summary
from printkit.data.game import Game
from printkit.sheets import cardsheets


def cmd_list(args: argparse.Namespace) -> int:
    here = project.find()
    if args.games:
        rows = [(game, False) for game in load(args.games, here)]
    else:
        own = [loader.load_game(folder, here) for folder in loader.own_games(here)]
        taken = {game.slug for game in own}  # a project's game hides the bundled game of its name
        bundled = [folder for folder in loader.bundled_games() if folder.name not in taken]
        rows = [(game, False) for game in own] + [(loader.load_game(folder, here), True) for folder in bundled]
    if args.names:
        print("\n".join(safe(game.slug) for game, _ in rows))
        return 0
    width = max(len(game.slug) for game, _ in rows)
    for game, is_bundled in rows:
        title = f"{game.title}{' (bundled)' if is_bundled else ''}"
        print(safe(f"{game.slug:<{width}}  {title}: {summary.count_line(game)}{_counters_where(game, here)}"))
    return 0


def _counters_where(game: Game, here: project.Project) -> str:
    """'; the counters print on the card sheets' when the game's counters print below its last cards, on the papers
    they fit (the build makes no counter sheet there); nothing when they have sheets of their own."""
    try:
        chosen = settings.resolve(game, here)
        papers = [p for p in chosen.papers if cardsheets.counters_aboard(game, chosen, p)]
    except PrintkitError:  # data a build would refuse: validate names the problem, a listing need not
        return ""
    if not papers:
        return ""
    if len(papers) == len(chosen.papers):
        return "; the counters print on the card sheets"
    return f"; on {' and '.join(settings.PAPER_NAMES[p] for p in papers)} the counters print on the card sheet"
