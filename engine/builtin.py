"""printkit's own engines, offered through the same printkit.engines entry points as an installed package's.

Each builds its game from modules imported only when a game is built: finding an engine (to check a
game's cards against its forms) costs no more than its forms' small module.
"""

from __future__ import annotations

from engine import needs
from engine.api import GameDef
from engine.cards import battle_line, soldier_battler, time_line, time_line_battle, torah_timeline
from engine.plugin import Engine
from printkit.data.enginecards import EngineCards
from printkit.data.game import Game


def _battle_line(game: Game) -> GameDef:
    from engine.games.battle_line import BattleLineGame

    return BattleLineGame(game)


def _soldier_battler(game: Game) -> GameDef:
    from engine.games.soldier_battler import SoldierBattlerGame

    return SoldierBattlerGame(game)


def _time_line(game: Game) -> GameDef:
    from engine.games.time_line import TimeLineGame

    return TimeLineGame(game)


def _time_line_battle(game: Game) -> GameDef:
    from engine.games.time_line_battle import TimeLineBattleGame

    return TimeLineBattleGame(game)


def _play(game: Game) -> GameDef:
    from engine import play

    return play.build(game)


def _torah_timeline(game: Game) -> GameDef:
    from engine.games.torah_timeline import TorahTimelineGame

    return TorahTimelineGame(game)


BATTLE_LINE = Engine("battle-line", _battle_line, needs.BATTLE_LINE, battle_line.VIEW)
SOLDIER_BATTLER = Engine("soldier-battler", _soldier_battler, needs.SOLDIER_BATTLER, soldier_battler.VIEW)
TIME_LINE = Engine("time-line", _time_line, needs.TIME_LINE, time_line.VIEW)
TIME_LINE_BATTLE = Engine("time-line-battle", _time_line_battle, needs.TIME_LINE_BATTLE, time_line_battle.VIEW)
TORAH_TIMELINE = Engine("torah-timeline", _torah_timeline, needs.TORAH_TIMELINE, torah_timeline.VIEW)
# the rules language's interpreter: a game's rules from its play.yaml, its needs checked as the book is read
PLAY = Engine("play", _play, None, EngineCards("play"))
ENGINES = (BATTLE_LINE, SOLDIER_BATTLER, TIME_LINE, TIME_LINE_BATTLE, TORAH_TIMELINE, PLAY)
