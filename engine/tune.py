"""Tuning: a search over changed values for the ones a target metric likes best, with Optuna's TPE sampler.

Each trial is a point of the sweep grid (printkit.data.variant changes) played like a sweep's point,
the same seeded games every time; the sampler is seeded and runs one trial at a time, so a tune
gives the same trials and the same best values on every run. A point tried twice is played once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine import registry, simulate, stats, sweep
from engine.targets import TARGETS
from printkit.core.errors import UsageError
from printkit.data import variant
from printkit.data.game import Game
from printkit.data.variant import Change


def run(
    game: Game,
    varied: Sequence[tuple[str, list[Any]]],
    target: str,
    agents: tuple[str, ...],
    games: int,
    seed: int,
    trials: int,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Every trial (its values, the target's figure and the point's metrics) and the best of them."""
    try:
        import optuna
    except ImportError:
        raise UsageError(
            "printkit tune needs Optuna: pipx inject printkit-studio optuna, "
            "or pip install -e '.[tune]' in printkit's clone (see docs/guides/simulate-balance.md)"
        ) from None
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    check_changes(game, varied)
    goal = TARGETS[target]
    names = registry.build(game).card_names()
    played: dict[tuple[Change, ...], dict[str, Any]] = {}
    tried: list[dict[str, Any]] = []

    def objective(trial: Any) -> float:
        changes = tuple((path, trial.suggest_categorical(path, values)) for path, values in varied)
        if changes not in played:
            sweep.check(game, [changes])
            plan = simulate.Plan(game.folder, agents, games, seed, changes)
            summary = stats.summarise(simulate.run(plan, workers), names)
            point = {
                "values": dict(changes),
                "seats": summary["seats"],
                "metrics": summary["metrics"],
                "card_spread": sweep.card_spread(summary["cards"]),
            }
            played[changes] = point | {"target": goal.figure(point)}
        tried.append(played[changes])
        if progress:
            progress(len(tried), trials)
        return float(played[changes]["target"])

    study = optuna.create_study(
        direction="maximize" if goal.larger_is_better else "minimize",
        sampler=optuna.samplers.TPESampler(seed=seed),
    )
    study.optimize(objective, n_trials=trials)
    best = dict(study.best_trial.params)
    return {
        "target": target,
        "words": goal.words,
        "larger_is_better": goal.larger_is_better,
        "varied": [{"path": path, "values": values} for path, values in varied],
        "trials": [t["values"] for t in tried],  # the point each trial tried, in order
        "points": list(played.values()),  # each point played once, with its figures
        "best": played[tuple((path, best[path]) for path, _ in varied)],
    }


def patch(found: dict[str, Any], command: str) -> str:
    """The best values as YAML, path: value, with how they were found: to copy into the game's data."""
    lines = [
        f"# {command}",
        f"# the best of {len(found['trials'])} trials for {found['words']}: {found['best']['target']:.3f}",
        "# each line a value of the game's data by its path (rules.<id>, cards.<id>.<field>, game.yaml's fields)",
    ]
    for path, value in found["best"]["values"].items():
        written = str(value).lower() if isinstance(value, bool) else value
        lines.append(f"{path}: {written}")
    return "\n".join(lines) + "\n"


def check_changes(game: Game, varied: Sequence[tuple[str, list[Any]]]) -> None:
    """Each varied value tried alone on the game: a value the data refuses stops the tune before any trial."""
    for path, values in varied:
        for value in values:
            variant.vary(game, [(path, value)])
