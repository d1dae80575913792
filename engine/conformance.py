"""The conformance kit: what every engine keeps, printkit's own and a designer's alike, checked by random play.

Each seed plays one game of random moves, checking at every step what the runner, the agents and the
reports rely on: a player to move always has a legal move, chance's probabilities add up to one, a clone
moves without its source, what a player sees survives resampling the hidden cards, the game ends within
its cap, and replaying its history gives its result again. Then a short run with one worker and with two
must give the same records. Each failure is one line naming its seed and its action's number.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import simulate
from engine.api import CHANCE, TERMINAL, GameDef, IllegalAction, State


@dataclass(frozen=True)
class Failure:
    """One broken promise: where (the seed of the game, the number of the action about to be taken), and what."""

    seed: int
    action: int
    message: str

    def __str__(self) -> str:
        return f"seed {self.seed}, action {self.action}: {self.message}"


def _observed(state: State, player: int) -> Any:
    try:
        return state.observation(player)
    except Exception as exc:  # an engine's own bug, said as one failure, not a traceback
        return f"<observation failed: {type(exc).__name__}: {exc}>"


def _step(game: GameDef, state: State, seed: int, n: int, rng: random.Random) -> tuple[int | None, list[Failure]]:
    """The checks of one position, and the action random play takes from it (None: the game cannot go on)."""
    out: list[Failure] = []

    def fail(message: str) -> None:
        out.append(Failure(seed, n, message))

    player = state.current_player()
    legal = list(state.legal_actions())
    if not legal:
        fail(f"no legal action, though the game is not over ({'chance' if player == CHANCE else f'seat {player}'})")
        return None, out
    if len(set(legal)) != len(legal):
        fail(f"the legal actions name an action twice: {sorted(legal)[:12]}")
    if player == CHANCE:
        outcomes = list(state.chance_outcomes())
        total = math.fsum(p for _, p in outcomes)
        if not math.isclose(total, 1.0, abs_tol=1e-9):
            fail(f"chance's outcomes add up to {total!r}, not 1")
        if sorted(a for a, _ in outcomes) != sorted(legal):
            fail("chance's outcomes are not its legal actions")
        if any(p <= 0 for _, p in outcomes):
            fail("chance lists an outcome of probability 0 or less")
        drawn = state.sample_chance(rng)
        if drawn not in legal:
            fail(f"sample_chance drew {drawn}, which is not a legal action")
            drawn = legal[0]
        action = drawn
    else:
        if not 0 <= player < game.num_players:
            fail(f"seat {player} is to move, but the game has {game.num_players} seats")
            return None, out
        seen = _observed(state, player)
        other = state.resample(player, random.Random(seed * 7919 + n))
        if _observed(other, player) != seen:  # it shows what the player cannot know, or resample forgets
            fail(f"resampling seat {player}'s unseen cards changes what it sees: it sees hidden cards, or loses some")
        if _observed(state, player) != seen:
            fail("resample changed the state it was asked of")
        action = legal[math.floor(rng.random() * len(legal))]
    illegal = max(legal) + 1
    try:
        state.clone().apply_action(illegal)
        fail(f"action {illegal}, not among the legal ones, was taken without an IllegalAction")
    except IllegalAction:
        pass

    def looks() -> tuple[Any, ...]:  # what a move could change: the moves, the record, what each seat sees
        seen = [_observed(state, p) for p in range(game.num_players)]
        return list(state.legal_actions()), list(state.history), state.current_player(), seen

    before = looks()
    copy = state.clone()
    copy.apply_action(action)
    if looks() != before:
        fail("a clone's move changed its source")
    return action, out


def play_checked(game: GameDef, seed: int, seconds: float = 60.0) -> list[Failure]:
    """One game of random moves from seed, every position checked; its failures (the first few of a game). An
    engine that raises is a failure too, at the action it raised on."""
    at = [0]
    failures: list[Failure] = []
    try:
        _play_checked(game, seed, seconds, at, failures)
    except Exception as exc:  # the engine's own error: one line with its seed and action, not a traceback
        failures.append(Failure(seed, at[0], f"the engine raised {type(exc).__name__}: {exc}"))
    return failures


def _play_checked(game: GameDef, seed: int, seconds: float, at: list[int], failures: list[Failure]) -> None:
    rng = random.Random(seed)
    state = game.new_initial_state()
    started = time.process_time()
    n = 0
    while not state.is_terminal():
        if n >= game.max_actions:
            failures.append(Failure(seed, n, f"the game runs past its cap of {game.max_actions:,} actions"))
            return
        if time.process_time() - started > seconds:  # CPU time: a busy machine does not make an engine fail
            failures.append(Failure(seed, n, f"the game takes over {seconds:g} s of CPU time and has not ended"))
            return
        at[0] = n
        action, found = _step(game, state, seed, n, rng)
        failures += found
        if action is None or len(failures) >= 5:
            return
        state.apply_action(action)
        n += 1
    if state.current_player() != TERMINAL:
        failures.append(Failure(seed, n, "the game is over, but a seat is still to move"))
    if list(state.legal_actions()):
        failures.append(Failure(seed, n, "the game is over, but it still lists legal actions"))
    result = list(state.returns())
    if len(result) != game.num_players or any(not -1.0 <= r <= 1.0 for r in result):
        failures.append(Failure(seed, n, f"returns {result}: expected one value from -1 to 1 for each seat"))
    again = game.new_initial_state()
    try:
        for action in state.history:
            again.apply_action(action)
    except IllegalAction as exc:
        failures.append(Failure(seed, n, f"replaying the game's history fails: {exc}"))
        return
    if list(again.returns()) != result or not again.is_terminal():
        failures.append(Failure(seed, n, "replaying the game's history does not give its result again"))


def same_with_two_workers(folder: Path, games: int, seed: int) -> list[Failure]:
    """A short simulate run with one worker and with two: the records must be identical, game by game."""
    plan = simulate.Plan(folder, ("random", "random"), games, seed)
    try:
        one = simulate.run(plan, workers=1)
        two = simulate.run(plan, workers=2)
    except Exception as exc:  # the engine's own error in a played game: the games above say where
        return [Failure(seed, 0, f"simulate could not play {games} games: {type(exc).__name__}: {exc}")]
    for index, (a, b) in enumerate(zip(one, two, strict=True)):
        if a != b:
            return [Failure(plan.game_seed(index), len(a.actions), "a run on two workers gives another record")]
    return []


def check(game: GameDef, seeds: int, first: int = 0, progress: Callable[[int], None] | None = None) -> list[Failure]:
    """Every failure of seeds random games, from seed first on."""
    out: list[Failure] = []
    for seed in range(first, first + seeds):
        out += play_checked(game, seed)
        if progress is not None:
            progress(seed - first + 1)
    return out
