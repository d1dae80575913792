"""What a balance report's figures mean, in sentences: whether caps and stalemates come from the rules or from weak
play, and the answers to the studies a game's data asks for (sweeps that look for values meeting an aim).

The verdicts read only figures the lab measured: the endings of each pairing of agents (the report's own games
and each rung of the skill ladder) and each study's sweep. Where the games played cannot tell, the sentence says
so and how to play more, rather than guess.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import stats, sweep
from printkit.core.errors import UsageError, safe
from printkit.data import variant
from printkit.data.game import Game
from printkit.data.model import MAX_STUDY_GAMES, Study

TROUBLE = 0.10  # a share of games ending by a cap or a stalemate past which a report asks where they come from

# the endings a report explains, and how a sentence names them
UNFINISHED = {"timeouts": "the cap", "stalemates": "stalemate"}
# how a sentence names each figure a study may aim at
FIGURE_WORDS = {
    "completion": "games completed by the rules",
    "timeouts": "games ended by the cap",
    "stalemates": "games ended by stalemate",
    "drawishness": "draws",
    "balance": "balance",
    "advantage_first": "the first player's score",
}


def _percent(share: float) -> str:
    return f"{100 * share:.0f}%"


def resting(figures: dict[str, Any], agents: tuple[str, ...], expert: str, named: bool) -> str:
    """Which agents the report's verdicts rest on, and whether that is the game's expert, with how the expert did
    against MCTS 100 on this ladder: a weaker agent's verdicts may be about how it plays, not about the game."""
    pair = " and ".join(dict.fromkeys(agents))  # "random" once when both seats are random
    valued = figures.get("card_values", {}).get("agent")
    cards = f", and the card values on {valued}" if valued and valued != agents[0] else ""
    whose = f"the game's expert, {expert}" if named else f"{expert}, which stands in as expert (game.yaml names none)"
    step = next((s for s in figures.get("ladder") or [] if s.get("expert")), None)
    measured = (
        f" (on this ladder it scored {_percent(step['score'])}, interval {100 * step['ci95'][0]:.0f}-"
        f"{_percent(step['ci95'][1])}, against {step['weaker']}: {step['verdict']})"
        if step
        else ""
    )
    if set(agents) == {expert} and (valued is None or valued == expert):
        return f"Every verdict here rests on games between {whose}{measured}."
    return (
        f"The seat, first-mover and card verdicts rest on games between {pair}{cards}, not on {whose}{measured}: "
        f"what a weaker agent finds may be about how it plays rather than the game; --agents expert,expert rests "
        f"them on the expert."
    )


def endings(figures: dict[str, Any]) -> list[str]:
    """For each unfinished ending common in the report's games or on the ladder, whether the rules or weak agents
    cause it: the strongest rung's rate with its interval decides, and an interval across the line says so."""
    ladder = figures.get("ladder") or []
    said = []
    for key, name in UNFINISHED.items():
        rates = [(label, m[key], m["games"]) for label, m in figures["pairings"].items()]
        rates += [(f"{s['stronger']} vs {s['weaker']}", s["endings"][key], s["games"]) for s in ladder]
        if all(rate < TROUBLE for _, rate, _ in rates):
            continue
        listed = "; ".join(f"{_percent(rate)} of {label} ({games} games)" for label, rate, games in rates)
        opening = f"Games ended by {name}: {listed}."
        if not ladder:
            said.append(
                f"{opening} With no skill ladder played, the lab cannot tell whether the rules or weak play cause them."
            )
            continue
        top = ladder[-1]
        label = f"{top['stronger']} against {top['weaker']}"
        low, high = stats.wilson(top["endings"][key] * top["games"], top["games"])
        interval = f"{_percent(low)}-{_percent(high)}"
        if low >= TROUBLE:
            verdict = f"the strongest agents, {label}, still end {interval} of their games so: the rules cause them"
        elif high < TROUBLE:
            verdict = f"the strongest agents, {label}, end under {_percent(high)} so: weak play causes them"
        else:
            verdict = (
                f"between the strongest agents, {label}, the rate lies within {interval}, across the "
                f"{_percent(TROUBLE)} line: play more ladder games (--ladder N) to tell whether the rules cause them"
            )
        said.append(f"{opening} Of the ladder, {verdict}.")
    return said


def plan(study: Study) -> tuple[list[tuple[str, list[Any]]], tuple[str, str]]:
    """A study's varied paths and values, and its two agents, read as the sweep command reads them."""
    from engine import agents as made

    varied = variant.parse_all(study.vary)
    first, second = study.agents.split(",")
    for name in (first, second):
        try:
            made.check(name)
        except ValueError as exc:
            raise UsageError(f"agents: {exc}") from None
    return varied, (first, second)


def problems(game: Game) -> list[str]:
    """Each study the game's engine cannot play, one line at the study: a path the data lacks, a value it refuses,
    an agent unknown, or more games than a balance run should take."""

    found = []
    for i, study in enumerate(game.info.studies):
        at = game.place("study", str(i))
        try:
            varied, _ = plan(study)
            points = sweep.grid(varied)
            if len(points) * study.games > MAX_STUDY_GAMES:
                raise UsageError(
                    f"{len(points)} points of {study.games:,} games: expected at most {MAX_STUDY_GAMES:,} games a study"
                )
            sweep.check(game, points)
        except UsageError as exc:
            found.append(f"{at}: studies[{i}]: {safe(str(exc).removeprefix('--vary: '))}")
    return found


def run(
    game: Game, study: Study, seed: int, workers: int, progress: Callable[[int, int], None] | None = None
) -> dict[str, Any]:
    """A study's sweep played, with its answer."""
    varied, agents = plan(study)
    figures = sweep.run(game, varied, agents, study.games, seed, workers, progress)
    return {
        "vary": list(study.vary),
        "agents": list(agents),
        "games": study.games,
        "aim": study.aim.model_dump(exclude_none=True),
        "why": study.why,
        "sweep": figures,
        "answer": answer(game, study, figures),
    }


def _current(game: Game, path: str) -> Any:
    """The game's own value at a rule option's path; None for other paths."""
    parts = path.split(".")
    if parts[0] == "rules" and len(parts) == 2:
        return next((o.value for o in game.info.rules if o.id == parts[1]), None)
    return None


def answer(game: Game, study: Study, figures: dict[str, Any]) -> str:
    """One sentence: at which points the study's figure meets its aim, and what the game's own value gives."""
    aim = study.aim
    bound = aim.below if aim.below is not None else aim.above
    assert bound is not None  # the model holds one of the two
    paths = [entry["path"] for entry in figures["varied"]]

    def meets(value: float) -> bool:
        return value < bound if aim.below is not None else value > bound

    def named(point: dict[str, Any]) -> str:
        if len(paths) == 1:
            return variant.spelled(point["values"][paths[0]])
        return ", ".join(f"{path} = {variant.spelled(value)}" for path, value in point["values"].items())

    points = figures["points"]
    rates = [p["metrics"][aim.figure] for p in points]
    words = FIGURE_WORDS[aim.figure]
    moves = "fall under" if aim.below is not None else "rise over"
    where = f"{paths[0]} " if len(paths) == 1 else ""
    met = [f"{named(p)} ({_percent(r)})" for p, r in zip(points, rates, strict=True) if meets(r)]
    if met:
        listed = ", ".join(met[:-1]) + f" and {met[-1]}" if len(met) > 1 else met[0]
        told = f"{words.capitalize()} {moves} {_percent(bound)} at {where}{listed}"
    else:
        best = min(range(len(points)), key=lambda i: rates[i] if aim.below is not None else -rates[i])
        nearest = f"{_percent(rates[best])} at {where}{named(points[best])}"
        told = f"No value tried makes {words} {moves} {_percent(bound)}: the nearest is {nearest}"
    own = _current(game, paths[0]) if len(paths) == 1 else None
    here = [r for p, r in zip(points, rates, strict=True) if own is not None and p["values"][paths[0]] == own]
    mine = f", against {_percent(here[0])} at the game's own {variant.spelled(own)}" if here else ""
    agents = " against ".join(study.agents.split(","))
    return f"{told}{mine} ({agents}, {study.games:,} games a point)."
