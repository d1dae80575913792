"""Play one game from a seed: chance from the seeded generator, moves from the agents; replay a record."""

from __future__ import annotations

import dataclasses
import json
import random
from array import array
from collections import Counter
from collections.abc import ItemsView, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from math import floor
from typing import Any, Protocol

from engine.agents import RandomAgent
from engine.api import CHANCE, TERMINAL, GameDef, State, TwoPlayerState
from engine.metrics import Tension, tension_of


class EndlessGame(RuntimeError):
    """A game still running after its GameDef's max_actions: its rules or its data let it loop."""

    def __init__(self, actions: list[int], seed: int) -> None:
        super().__init__(f"no end after {len(actions):,} actions: the rules or the data let this game loop")
        self.actions, self.seed = actions, seed

    def __reduce__(self) -> tuple[type[EndlessGame], tuple[list[int], int]]:
        return EndlessGame, (self.actions, self.seed)  # so it crosses from a worker process whole


class Agent(Protocol):
    name: str

    def act(self, state: State, rng: random.Random) -> int: ...


@dataclass(slots=True)  # a long run holds every game's record: no dict of attributes for each
class Record:
    """One played game: enough to replay it exactly, and to count it in a report."""

    seed: int
    agents: list[str]
    # kept as machine integers, the narrowest that hold them (see packed): a long run holds every game's actions
    actions: Sequence[int]
    returns: list[float]
    length: int  # player moves
    decisions: int
    end: str
    first: int  # the seat that made the first move
    plays: Sequence[tuple[int, str]] = ()  # (seat, card id), a tuple: a list keeps room to grow
    branching: Mapping[int, int] = field(default_factory=dict)  # legal moves at a decision -> how many decisions
    tension: Tension | None = None  # what the lead did, from the heuristic; None when it was not read

    def winner(self) -> int | None:
        return _winner(self.returns)

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "agents": self.agents,
            "actions": _listed(self.actions),
            "returns": self.returns,
            "length": self.length,
            "decisions": self.decisions,
            "end": self.end,
            "first": self.first,
            "plays": self.plays,  # pairs: json writes a tuple as an array, as it would a list
            "branching": {str(k): v for k, v in sorted(self.branching.items())},
            "tension": dataclasses.asdict(self.tension) if self.tension else None,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Record:
        """The record to_json wrote, whole again."""
        tension = data.get("tension")
        return cls(
            data["seed"],
            list(data["agents"]),
            packed(data["actions"]),
            list(data["returns"]),
            data["length"],
            data["decisions"],
            data["end"],
            data["first"],
            tuple(_shared(seat, card) for seat, card in data["plays"]),
            Histogram({int(k): v for k, v in data.get("branching", {}).items()}),
            Tension(**tension) if tension else None,
        )


# one encoder for every record: json.dumps given separators builds a new encoder on each call
_ENCODER = json.JSONEncoder(separators=(",", ":"))
# between two records' JSON where a run's records are written: results.json's layout, which the chunk store shares so
# that results.json is the stored chunks' bytes, each game encoded once
BETWEEN = ",\n  "


_PAIR_JSON: dict[tuple[int, str], str] = {}  # each (seat, card) play's JSON, made once a process: a run repeats them


def encoded(record: Record) -> str:
    """The record's JSON on one line: json.dumps(record.to_json(), separators=(",", ":")) exactly, which a test
    holds, made without the dict to_json builds. A run encodes every game; the dict, and a game's fifty plays
    encoded each as a pair, were most of simulate's cost beyond the games."""
    encode = _ENCODER.encode
    plays = ",".join([_PAIR_JSON.get(pair) or _pair_json(pair) for pair in record.plays])
    branching = ",".join([f'"{k}":{v}' for k, v in sorted(record.branching.items())])
    tension = "null" if record.tension is None else encode(dataclasses.asdict(record.tension))
    return (
        f'{{"seed":{record.seed},"agents":{encode(record.agents)},"actions":[{_actions_json(record.actions)}],'
        f'"returns":{encode(record.returns)},"length":{record.length},"decisions":{record.decisions},'
        f'"end":{encode(record.end)},"first":{record.first},"plays":[{plays}],"branching":{{{branching}}},'
        f'"tension":{tension}}}'
    )


def _pair_json(pair: tuple[int, str]) -> str:
    return _PAIR_JSON.setdefault(pair, _ENCODER.encode(pair))


_LOOKED_UP = ("B", "H")
_NUMERALS: list[str] = []  # str(i) at i: an action's numerals looked up, where writing them was half a record's cost


def _actions_json(actions: Sequence[int]) -> str:
    """The actions' numerals joined by commas, as json writes a list of them."""
    # one or two bytes a number: the table stays under 65,536 numerals (a negative one would index from the end)
    if not (isinstance(actions, array) and actions.typecode in _LOOKED_UP):
        return _ENCODER.encode(list(actions))[1:-1]
    try:
        return ",".join(map(_NUMERALS.__getitem__, actions))
    except IndexError:  # a number past the table's end: grown to the game's largest, once a process for most games
        _NUMERALS.extend(str(i) for i in range(len(_NUMERALS), max(actions) + 1))
        return ",".join(map(_NUMERALS.__getitem__, actions))


def _listed(actions: Sequence[int]) -> list[int]:
    """The actions as a list for json: an array's tolist is one C call, where list() steps its iterator."""
    return actions.tolist() if isinstance(actions, array) else list(actions)


MAX_LEADS = 256  # positions a game's lead is read at: past it, every other reading is dropped and the step doubled


_PLAYS: dict[tuple[int, str], tuple[int, str]] = {}
_WIDTHS = ("B", "H", "I")  # array typecodes of unsigned integers, narrowest first


class Histogram(Mapping[int, int]):
    """How many times each of a few whole numbers came, in two arrays of machine integers, in the order first met: a
    dict of two dozen counts takes 1.2 KB, this a fifth of it, and a long run keeps one for every game."""

    __slots__ = ("_counts", "_keys")

    def __init__(self, counts: Mapping[int, int]) -> None:
        self._keys = packed(list(counts))
        self._counts = packed(list(counts.values()))

    def __getitem__(self, key: int) -> int:
        for found, count in zip(self._keys, self._counts, strict=True):
            if found == key:
                return count
        raise KeyError(key)

    def __iter__(self) -> Iterator[int]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)

    def items(self) -> ItemsView[int, int]:
        return _Pairs(self)  # each pair read once, where the mixin's would look each key up again

    def __repr__(self) -> str:
        return f"Histogram({dict(self)})"


class _Pairs(ItemsView[int, int]):
    """A Histogram's (number, count) pairs, read side by side from its two arrays."""

    _mapping: Histogram

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return zip(self._mapping._keys, self._mapping._counts, strict=True)


def packed(actions: Sequence[int]) -> array[int]:
    """The actions as machine integers of the narrowest width that holds them all: most games' action numbers fit
    in one or two bytes, where a Python int in a list costs 36 and a long run keeps every game's."""
    low, high = (min(actions), max(actions)) if actions else (0, 0)
    if low >= 0:
        for code in _WIDTHS:
            if high < 1 << (8 * array(code).itemsize):
                return array(code, actions)
    return array("q", actions)


def _shared(seat: int, card: str) -> tuple[int, str]:
    """One (seat, card) pair for every play of it: a long run's records hold a pointer a play, not a tuple."""
    pair = (seat, card)
    return _PLAYS.setdefault(pair, pair)


def play(game: GameDef, agents: list[Agent], seed: int, lead: bool = False) -> Record:
    """Play a whole game. One generator draws chance; each agent gets its own, all from the seed.

    lead: read the heuristic at the decisions (at most MAX_LEADS, evenly spread) for the tension
    metrics; it costs several times what random agents' moves do, so many-game runs read a sample.
    """
    chance = random.Random(seed)
    agent_rngs = [random.Random(seed * 7919 + 17 * (i + 1)) for i in range(len(agents))]
    state = game.new_initial_state()
    if not lead and all(type(agent) is RandomAgent for agent in agents):
        moves, first, branching = _play_random(state, chance, agent_rngs, game.max_actions, seed)
        leads: list[tuple[float, ...]] = []
    else:
        moves, first, branching, leads = _play_agents(state, chance, agents, agent_rngs, game.max_actions, seed, lead)
    tally = state.tally
    return Record(
        seed,
        [a.name for a in agents],
        packed(state.history),
        state.returns(),
        moves,
        tally.decisions,
        tally.end,
        first,
        tuple(_shared(e.player, e.what) for e in tally.events if e.kind == "play"),
        Histogram(branching),
        tension_of(leads, _winner(state.returns())) if lead else None,
    )


def _play_random(
    state: State, chance: random.Random, agent_rngs: list[random.Random], limit: int, seed: int
) -> tuple[int, int, dict[int, int]]:
    """play's loop when every agent is RandomAgent: its pick drawn here, the same draw, without its calls.

    The balance lab plays millions of random games, so this loop is kept to the calls the rules need
    (whose turn, the legal moves, the move): the state's methods bound once, the actions counted by
    the loop's range, and each decision's number of legal moves noted in a list, counted into the
    branching (in the order first met, as a dict would take them) and the moves once the game is over.
    A game that plays random moves in one method of its own (State.play_random) plays first, as far
    as it will; the loop goes on from there.
    """
    whose, legal_of, apply = state.current_player, state.legal_actions, state.apply_action
    draw_chance = state.sample_chance
    draws = [rng.random for rng in agent_rngs]
    sizes: list[int] = []
    note = sizes.append
    first = state.play_random(chance, draws, limit, sizes)  # as far as the game plays random moves itself
    for _ in range(limit - len(state.history)):
        seat = whose()
        if seat >= 0:  # a player's move, the commonest node: one test
            legal = legal_of()
            choices = len(legal)
            note(choices)
            if first < 0:
                first = seat
            apply(legal[floor(draws[seat]() * choices)])  # RandomAgent's pick (api.pick's floor, same draw)
        elif seat == CHANCE:
            apply(draw_chance(chance))
        else:
            break  # TERMINAL
    else:
        if whose() != TERMINAL:
            raise EndlessGame(list(state.history), seed)
    return len(sizes), first, dict(Counter(sizes))


def _play_agents(
    state: State,
    chance: random.Random,
    agents: list[Agent],
    agent_rngs: list[random.Random],
    limit: int,
    seed: int,
    lead: bool,
) -> tuple[int, int, dict[int, int], list[tuple[float, ...]]]:
    """play's loop for any agents: each asked for its move; the seats' heuristics read when lead is set."""
    moves = 0
    first = -1
    branching: dict[int, int] = {}
    leads: list[tuple[float, ...]] = []  # each seat's heuristic, at every step-th decision
    seats = range(len(agents))
    step, chosen = 1, 0
    while (seat := state.current_player()) != TERMINAL:
        if len(state.history) >= limit:
            raise EndlessGame(list(state.history), seed)
        if seat == CHANCE:
            action = state.sample_chance(chance)
        else:
            legal = state.legal_actions()
            choices = len(legal)
            branching[choices] = branching.get(choices, 0) + 1
            if lead and choices > 1:  # a forced move changes nothing: the lead is read where a player chooses
                if chosen % step == 0:
                    leads.append(tuple(state.heuristic(s) for s in seats))
                    if len(leads) == MAX_LEADS:
                        leads, step = leads[::2], step * 2
                chosen += 1
            action = agents[seat].act(state, agent_rngs[seat])
            first = seat if first < 0 else first
            moves += 1
        state.apply_action(action)
    return moves, first, branching, leads


def _winner(returns: list[float]) -> int | None:
    best = max(returns)
    return returns.index(best) if best > 0 else None


def replay(game: GameDef, actions: Sequence[int]) -> list[str]:
    """The game's log, a line per action, rebuilt from its action list alone."""
    state = game.new_initial_state()
    narration: list[str] = []
    if isinstance(state, TwoPlayerState):
        state.narration = narration  # the rules' events (claims, damage, rolls, scores) under each action
    lines: list[str] = []
    for number, action in enumerate(actions, 1):
        who = "chance" if state.is_chance_node() else f"seat {state.current_player()}"
        lines.append(f"{number:4d}  {who:<7} {state.action_to_string(action)}")
        state.apply_action(action)
        lines += [f"{'':14}{event}" for event in narration]
        narration.clear()
    lines.append(f"result: {state.returns()} ({state.tally.end})")
    return lines
