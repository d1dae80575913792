"""Worked examples: scripts of engine actions (chance included) in cards/<game>/examples.yaml, replayed for the booklet.

An example names every action by the engine's own words for it (its action_to_string), so a
script reads as the game does and survives a change of the engine's action numbers. The replay
uses the engine's public API alone: legal actions, apply_action, the words of each action and
the narration of what the rules made of it. What the booklet prints of an example (each step,
what followed from it, the result) is that replay's text, so it cannot disagree with the rules
the engine plays; a result the script promises and the replay does not give stops the build.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from printkit.core.errors import DataError, Problem, display_path
from printkit.data.game import Game
from printkit.data.loader import EXAMPLES_FILE
from printkit.data.yamlsource import SourceMap, load

MAX_STEPS = 2_000  # actions in one example: the longest bundled one has a few hundred
_SEAT = re.compile(r"\bseat ([0-9])('s)?")


@dataclass(frozen=True)
class Step:
    """One action of a script: the engine's words for it, who the text says does it, a note after it."""

    words: str
    by: str | None
    note: str | None
    place: tuple[int, int]  # line, column in examples.yaml


@dataclass(frozen=True)
class Example:
    """A scripted position: actions played unseen to reach it, then the steps the booklet shows."""

    id: str
    title: str
    intro: str
    before: tuple[Step, ...]
    steps: tuple[Step, ...]
    result: tuple[str, ...]
    picture: str | None
    place: tuple[int, int]
    window: tuple[str, str] | None = None  # the narration the booklet tells: from the line holding the first words
    # to the line holding the second (not told); a step that runs a whole Day, say, tells of the one Day


@dataclass
class Shown:
    """A step as the booklet prints it: who acts, the action in words, and what the rules made of it."""

    number: int
    actor: str  # the seat's name, or the step's `by` words; "" for a chance step with none
    action: str
    events: list[str]
    note: str | None
    player: int  # the seat that acted, or -1 for chance
    window: list[str] = field(default_factory=list)  # the events the booklet tells (all, without a window)
    before: Any = None  # the state before the step (a clone), for a picture of the moment
    after: Any = None


@dataclass
class Replay:
    """An example played through the engine: its shown steps, the result lines, the states along the way."""

    example: Example
    seats: list[str]
    shown: list[Shown]
    results: list[str]  # each narration line that states one of the example's promised results
    start: Any  # the state the shown steps start from
    end: Any  # the state after the last step
    history: list[tuple[str, int]] = field(default_factory=list)  # (engine words, seat) of every action

    def events(self) -> list[str]:
        return [e for s in self.shown for e in s.events]


def path(game: Game) -> Any:
    return game.folder / EXAMPLES_FILE


def has_examples(game: Game) -> bool:
    """Whether the game has an examples.yaml: anything of that name, which load_examples reads or refuses (a pipe,
    a link out), rather than pass it over."""
    return path(game).exists() or path(game).is_symlink()


def _problem(smap: SourceMap, where: tuple[Any, ...], message: str) -> DataError:
    return DataError([smap.problem(where, message)])


def _text(data: Any, smap: SourceMap, where: tuple[Any, ...], required: bool = True) -> str | None:
    if data is None and not required:
        return None
    if not isinstance(data, str) or not data.strip():
        raise _problem(smap, where, "expected a text")
    return data


def _steps(data: Any, smap: SourceMap, where: tuple[Any, ...]) -> tuple[Step, ...]:
    if data is None:
        return ()
    if not isinstance(data, list):
        raise _problem(smap, where, "expected a list of actions, each in the engine's words")
    if len(data) > MAX_STEPS:
        raise _problem(smap, where, f"{len(data):,} actions: at most {MAX_STEPS:,} in one example")
    out = []
    for i, item in enumerate(data):
        at = (*where, i)
        mark = smap.values.get(at) or smap.keys.get(at) or smap.values.get((*at, "do"))
        place = (mark.line, mark.column) if mark else (1, 1)
        if isinstance(item, str):
            out.append(Step(item, None, None, place))
            continue
        if not isinstance(item, dict) or "do" not in item:
            raise _problem(smap, at, "expected an action in the engine's words, or {do: action, by: who, note: text}")
        unknown = sorted(set(item) - {"do", "by", "note"})
        if unknown:
            raise _problem(smap, (*at, unknown[0]), f"unknown field {unknown[0]!r}: expected do, by or note")
        words = _text(item["do"], smap, (*at, "do"))
        assert words is not None
        by = _text(item.get("by"), smap, (*at, "by"), required=False)
        note = _text(item.get("note"), smap, (*at, "note"), required=False)
        out.append(Step(words, by, note, place))
    return tuple(out)


@dataclass
class Script:
    """A game's examples.yaml: the players' names, the rule option giving the starting hand, the examples."""

    seats: list[str] | None = None
    hand: str | None = None
    examples: list[Example] = field(default_factory=list)


def load_examples(game: Game) -> Script:
    """The examples of a game's examples.yaml, checked; an empty script when it has no such file."""
    file = path(game)
    if not has_examples(game):
        return Script()
    data, smap = load(file, game.reads_from)
    if not isinstance(data, dict):
        raise _problem(smap, (), "expected a mapping with examples: (and seats:)")
    unknown = sorted(set(data) - {"seats", "hand", "examples"})
    if unknown:
        raise _problem(smap, (unknown[0],), f"unknown field {unknown[0]!r}: expected seats, hand or examples")
    hand = data.get("hand")
    if hand is not None and (not isinstance(hand, str) or hand not in {r.id for r in game.info.rules}):
        raise _problem(
            smap, ("hand",), "expected the id of the rule option that says how many cards a hand starts with"
        )
    seats = data.get("seats")
    if seats is not None and (
        not isinstance(seats, list) or not all(isinstance(s, str) and s.strip() for s in seats) or len(seats) < 2
    ):
        raise _problem(smap, ("seats",), "expected a list of the players' names, one a seat")
    items = data.get("examples")
    if not isinstance(items, list) or not items:
        raise _problem(smap, ("examples",), "expected a list of examples")
    out: list[Example] = []
    seen: set[str] = set()
    fields = {"id", "title", "intro", "before", "steps", "result", "picture", "window"}
    for i, item in enumerate(items):
        at: tuple[Any, ...] = ("examples", i)
        if not isinstance(item, dict):
            raise _problem(smap, at, "expected an example: id, title, steps and result")
        unknown = sorted(set(item) - fields)
        if unknown:
            raise _problem(
                smap, (*at, unknown[0]), f"unknown field {unknown[0]!r}: expected {', '.join(sorted(fields))}"
            )
        ident = _text(item.get("id"), smap, (*at, "id"))
        assert ident is not None
        if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", ident):
            raise _problem(smap, (*at, "id"), "expected an id of lower-case letters, digits and hyphens")
        if ident in seen:
            raise _problem(smap, (*at, "id"), f"a second example {ident!r}: ids are unique")
        seen.add(ident)
        steps = _steps(item.get("steps"), smap, (*at, "steps"))
        if not steps:
            raise _problem(smap, (*at, "steps"), "expected the steps the booklet shows, at least one")
        result = item.get("result")
        if not isinstance(result, list) or not result or not all(isinstance(r, str) and r.strip() for r in result):
            raise _problem(smap, (*at, "result"), "expected the results the steps reach, as words of their narration")
        window = item.get("window")
        if window is not None and (
            not isinstance(window, list) or len(window) != 2 or not all(isinstance(w, str) and w for w in window)
        ):
            raise _problem(smap, (*at, "window"), "expected two narration words: where the told part starts and ends")
        mark = smap.values.get((*at, "id"))
        out.append(
            Example(
                ident,
                _text(item.get("title"), smap, (*at, "title")) or "",
                _text(item.get("intro"), smap, (*at, "intro"), required=False) or "",
                _steps(item.get("before"), smap, (*at, "before")),
                steps,
                tuple(result),
                _text(item.get("picture"), smap, (*at, "picture"), required=False),
                (mark.line, mark.column) if mark else (1, 1),
                (window[0], window[1]) if window else None,
            )
        )
    return Script(list(seats) if seats else None, hand, out)


class Words:
    """The engine's words made the booklet's: seats by their players' names, card ids by the cards' names."""

    def __init__(self, game: Game, seats: list[str]) -> None:
        self.seats = seats
        names = {c.id: c.name for c in game.cards}
        # longest first, so R10 is read before R1; whole words only
        ids = sorted((i for i in names if i != names[i]), key=len, reverse=True)
        self._ids = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, ids)) + r")(?![\w-])") if ids else None
        self._names = names
        # the engine lists the cards of a formation by their ids, a space apart ("R8 O8 Y8", "Alexander as
        # R10 O9 Y8"); once named, a space no longer tells one card from the next, so the list gets commas
        self._list = self._item = None
        if ids:
            known = "|".join(map(re.escape, sorted(set(names.values()), key=len, reverse=True)))
            item = rf"(?<![\w-])(?:(?:{known}) as )?(?:{'|'.join(map(re.escape, ids))})(?![\w-])"
            self._item = re.compile(item)
            self._list = re.compile(rf"{item}(?: {item})+")

    def __call__(self, text: str) -> str:
        def seat(m: re.Match[str]) -> str:
            n = int(m.group(1))
            name = self.seats[n] if n < len(self.seats) else m.group(0)
            return name + (m.group(2) or "")

        text = _SEAT.sub(seat, text).replace(" -> ", " → ")
        if self._list is not None:
            text = self._list.sub(self._listed, text)
        if self._ids is not None:
            text = self._ids.sub(lambda m: self._names[m.group(1)], text)
        return text

    def _listed(self, found: re.Match[str]) -> str:
        """A run of cards the engine names a space apart, each by its name, a comma between them."""
        assert self._ids is not None and self._item is not None
        items = [m.group(0) for m in self._item.finditer(found.group(0))]
        return ", ".join(self._ids.sub(lambda m: self._names[m.group(1)], item) for item in items)


def seat_names(game: Game, named: list[str] | None) -> list[str]:
    """The players' names as the examples' text gives them: the file's seats, else the game's factions."""
    if named:
        return named
    factions = [f.name for f in game.info.factions]
    return factions if len(factions) >= 2 else [f"Player {n + 1}" for n in range(max(2, game.info.players))]


def _apply(state: Any, step: Step, file: str) -> tuple[int, int]:
    """Play the one legal action whose words are the step's; the seat that took it (-1 for chance) and the action."""
    player = -1 if state.is_chance_node() else int(state.current_player())
    if state.is_terminal():
        raise DataError([Problem(file, *step.place, f"{step.words!r}: the game is already over")])
    legal = list(state.chance_outcomes()) if state.is_chance_node() else list(state.legal_actions())
    actions = [a[0] if isinstance(a, tuple) else a for a in legal]
    matches = [a for a in actions if state.action_to_string(a) == step.words]
    if len(matches) != 1:
        choices = sorted({state.action_to_string(a) for a in actions})
        shown = "; ".join(choices[:12]) + ("; …" if len(choices) > 12 else "")
        who = "chance" if player < 0 else f"seat {player}"
        why = "is not legal now" if not matches else "names more than one action"
        raise DataError([Problem(file, *step.place, f"{step.words!r} {why} ({who} to act: {shown})")])
    state.apply_action(matches[0])
    return player, matches[0]


def replay(game: Game, example: Example, seats: list[str]) -> Replay:
    """Play an example through the game's engine; DataError at the step that is not legal, or a result not reached."""
    from engine import registry  # the engine loads only for a game with examples

    file = display_path(path(game))
    state = registry.build(game, again=False).new_initial_state()  # one engine game for all of them
    narration: list[str] = []
    state.narration = narration  # type: ignore[attr-defined]  # every engine game narrates a replay
    words = Words(game, seats)
    history: list[tuple[str, int]] = []
    for step in example.before:
        player, _ = _apply(state, step, file)
        history.append((step.words, player))
    narration.clear()
    start = state.clone()
    shown: list[Shown] = []
    inside = example.window is None
    for n, step in enumerate(example.steps, start=1):
        before = state.clone()
        player, _ = _apply(state, step, file)
        history.append((step.words, player))
        actor = step.by or (seats[player] if 0 <= player < len(seats) else "")
        note = game.phrase(step.note) if step.note else None
        told = []
        for event in narration:
            if example.window is not None:
                inside = (inside or example.window[0] in event) and example.window[1] not in event
            if inside:
                told.append(words(event))
        said = Shown(n, actor, words(step.words), [words(e) for e in narration], note, player, told, before)
        said.after = state.clone()
        shown.append(said)
        narration.clear()
    results = []
    events = [e for s in shown for e in s.window]
    for wanted in example.result:
        found = [e for e in events if wanted in e]
        if not found:
            last = "; ".join(events[-6:]) or "nothing"
            raise DataError(
                [
                    Problem(
                        file,
                        *example.place,
                        f"example {example.id}: the steps never say {wanted!r} (their last words: {last})",
                    )
                ]
            )
        results.append(found[0])
    return Replay(example, seats, shown, results, start, state, history)


def replays(game: Game) -> dict[str, Replay | None]:
    """Every example of a game, played: by example id, in the file's order; None for each when the game's engine
    cannot be built from its data (validate reports that once, as the engine's problem)."""
    from engine import registry

    script = load_examples(game)
    seats = seat_names(game, script.seats)
    try:
        registry.build(game, again=False)
    except (DataError, KeyError, registry.EngineMismatch):
        return {e.id: None for e in script.examples}
    return {e.id: replay(game, e, seats) for e in script.examples}
