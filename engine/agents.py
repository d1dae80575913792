"""Agents: random, greedy (one step ahead on the game's heuristic), and information-set MCTS."""

from __future__ import annotations

import difflib
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.api import State, pick


class RandomAgent:
    name = "random"

    def act(self, state: State, rng: random.Random) -> int:
        return self.choose(state, rng, state.legal_actions())

    def choose(self, state: State, rng: random.Random, actions: Sequence[int]) -> int:
        """One of the given legal actions."""
        return pick(rng, actions)


def _settle(state: State, rng: random.Random) -> State:
    """Play out chance nodes so a position can be judged."""
    while state.is_chance_node() and not state.is_terminal():
        state.apply_action(state.sample_chance(rng))
    return state


class GreedyAgent:
    """Tries every move on a copy, settles chance at random, and keeps the move the heuristic likes best."""

    name = "greedy"

    def act(self, state: State, rng: random.Random) -> int:
        return self.choose(state, rng, state.legal_actions())

    def choose(self, state: State, rng: random.Random, actions: Sequence[int]) -> int:
        """The best of the given legal actions by the heuristic, one step ahead."""
        me = state.current_player()
        actions = list(actions)
        if len(actions) == 1:
            return actions[0]
        best, best_score = actions[0], -math.inf
        for action in actions:
            after = state.clone()
            after.apply_action(action)
            _settle(after, rng)
            score = after.heuristic(me) + rng.random() * 1e-6  # random tie-break
            if score > best_score:
                best, best_score = action, score
        return best


@dataclass
class _Node:
    visits: int = 0
    value: float = 0.0
    children: dict[int, _Node] = field(default_factory=dict)
    avail: dict[int, int] = field(default_factory=dict)  # how often each action was available


class MCTSAgent:
    """Information-set MCTS (one tree, a fresh determinisation per iteration) with short playouts
    cut off by the game's heuristic."""

    def __init__(self, iterations: int = 200, playout_depth: int = 8, exploration: float = 0.7) -> None:
        self.iterations = iterations
        self.playout_depth = playout_depth
        self.c = exploration
        self.name = f"mcts{iterations}"

    def act(self, state: State, rng: random.Random) -> int:
        me = state.current_player()
        actions = list(state.legal_actions())
        if len(actions) == 1:
            return actions[0]
        root = _Node()
        for _ in range(self.iterations):
            world = state.resample(me, rng)
            self._iterate(root, world, me, rng)

        # only moves legal in the real position count: a dealt world may have offered others;
        # ties in visits go to the better mean result, then to chance
        def rank(a: int) -> tuple[int, float, float]:
            child = root.children.get(a)
            if child is None:
                return (-1, 0.0, rng.random())
            return (child.visits, child.value / child.visits if child.visits else 0.0, rng.random())

        return max(actions, key=rank)

    def _iterate(self, root: _Node, world: State, me: int, rng: random.Random) -> None:
        node, path = root, [root]
        while not world.is_terminal():
            _settle(world, rng)
            if world.is_terminal():
                break
            legal = list(world.legal_actions())
            mover = world.current_player()
            for a in legal:
                node.avail[a] = node.avail.get(a, 0) + 1
            untried = [a for a in legal if a not in node.children]
            if untried:
                action = rng.choice(untried)
                node.children[action] = _Node()
                world.apply_action(action)
                path.append(node.children[action])
                break
            sign = 1.0 if mover == me else -1.0

            def ucb(a: int, n: _Node = node, s: float = sign) -> float:
                child = n.children[a]
                mean = s * child.value / child.visits if child.visits else 0.0
                return mean + self.c * math.sqrt(math.log(max(n.avail[a], 1)) / (child.visits + 1))

            action = max(legal, key=ucb)
            world.apply_action(action)
            node = node.children[action]
            path.append(node)
        value = self._playout(world, me, rng)
        for visited in path:
            visited.visits += 1
            visited.value += value

    def _playout(self, world: State, me: int, rng: random.Random) -> float:
        """A few random moves, then the heuristic's judgement (or the result, if the game ended)."""
        for _ in range(self.playout_depth):
            _settle(world, rng)
            if world.is_terminal():
                break
            world.apply_action(rng.choice(list(world.legal_actions())))
        _settle(world, rng)
        return world.returns()[me] if world.is_terminal() else world.heuristic(me)


MAX_MCTS = 100_000  # iterations a move: far past where more search stops paying
BANS = "!"  # "random!swordsman": the random agent, never playing the card swordsman


class RestrictedAgent:
    """An agent that may never play one card (restricted play, after Jaffe et al., AIIDE 2012), unless no
    other move is legal."""

    def __init__(self, inner: RandomAgent | GreedyAgent, banned: str) -> None:
        self.inner, self.banned = inner, banned
        self.name = f"{inner.name}{BANS}{banned}"

    def act(self, state: State, rng: random.Random) -> int:
        legal = state.legal_actions()
        allowed = [a for a in legal if state.played_card(a) != self.banned]
        return self.inner.choose(state, rng, allowed or legal)


def make(name: str) -> RandomAgent | GreedyAgent | MCTSAgent | RestrictedAgent:
    """An agent from its name: random, greedy, mcts or mctsN (N iterations per move); random!CARD or
    greedy!CARD for that agent never playing the card."""
    if BANS in name:
        base, _, card = name.partition(BANS)
        inner = make(base)
        if isinstance(inner, MCTSAgent | RestrictedAgent) or not card:
            raise ValueError(f"{name!r}: expected random!CARD or greedy!CARD")
        return RestrictedAgent(inner, card)
    if name.startswith("mcts") and name[4:].isdigit():
        budget = int(name[4:])
        if not 1 <= budget <= MAX_MCTS:
            raise ValueError(f"{name!r}: expected mctsN with N from 1 to {MAX_MCTS} iterations a move")
        return MCTSAgent(budget)
    if name == "mcts":
        return MCTSAgent()
    if name == "greedy":
        return GreedyAgent()
    if name == "random":
        return RandomAgent()
    hint = difflib.get_close_matches(name, ("random", "greedy", "mcts"), n=1)
    guess = f" (did you mean {hint[0]!r}?)" if hint else ""
    raise ValueError(f"unknown agent {name!r}: expected random, greedy, mcts or mctsN{guess}")
