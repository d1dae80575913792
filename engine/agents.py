"""Agents: random, greedy (one step ahead on the game's heuristic), information-set MCTS, and each game's expert."""

from __future__ import annotations

import difflib
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.api import DEFAULT_EXPERT, State, pick


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


PLAYOUT = 8  # random moves an MCTS search plays from a new position before the heuristic judges it


@dataclass
class _Node:
    visits: int = 0
    value: float = 0.0
    children: dict[int, _Node] = field(default_factory=dict)
    avail: dict[int, int] = field(default_factory=dict)  # how often each action was available


class MCTSAgent:
    """Information-set MCTS (one tree, a fresh determinisation per iteration) with short playouts
    cut off by the game's heuristic."""

    def __init__(
        self,
        iterations: int = 200,
        playout_depth: int = PLAYOUT,
        exploration: float = 0.7,
        banned: str | None = None,
    ) -> None:
        self.iterations = iterations
        self.playout_depth = playout_depth
        self.c = exploration
        self.banned = banned  # a card this agent never plays, in the real game or in its search, unless forced
        depth = "" if playout_depth == PLAYOUT else f"/{playout_depth}"
        self.name = f"mcts{iterations}{depth}" + (f"{BANS}{banned}" if banned else "")

    def _moves(self, world: State, me: int) -> list[int]:
        """The legal moves of the seat to move, less the banned card's when the seat is this agent's: a restricted
        agent searches as it will play, never counting on the card it may not play."""
        legal = list(world.legal_actions())
        if self.banned is None or world.current_player() != me:
            return legal
        allowed = [a for a in legal if world.played_card(a) != self.banned]
        return allowed or legal

    def act(self, state: State, rng: random.Random) -> int:
        me = state.current_player()
        actions = self._moves(state, me)
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
            legal = self._moves(world, me)
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
            world.apply_action(rng.choice(self._moves(world, me)))
        _settle(world, rng)
        return world.returns()[me] if world.is_terminal() else world.heuristic(me)


MAX_MCTS = 100_000  # iterations a move: far past where more search stops paying
MAX_PLAYOUT = 99  # random moves before a search judges its position: past a game's length it plays the game out
BANS = "!"  # "random!swordsman": the random agent, never playing the card swordsman
DEPTH = "/"  # "mcts100/0": MCTS 100 judging each position it reaches by the heuristic at once, no random moves
EXPERT = "expert"  # the agent a game's data names as playing it best (game.yaml expert:; api.DEFAULT_EXPERT if none)


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


def resolve(name: str, expert: str) -> str:
    """The agent's name with `expert` (alone or restricted, expert!CARD) spelled as the game's expert."""
    base, ban, card = name.partition(BANS)
    return f"{expert}{ban}{card}" if base == EXPERT else name


def check(name: str) -> None:
    """ValueError, saying what is expected, unless name is an agent's (expert for whichever agent a game names)."""
    make(resolve(name, DEFAULT_EXPERT))


def make(name: str) -> RandomAgent | GreedyAgent | MCTSAgent | RestrictedAgent:
    """An agent from its name: random, greedy, mcts, mctsN (N iterations per move) or mctsN/D (judging a
    position after D random moves, 8 unless said); AGENT!CARD for that agent never playing the card."""
    if BANS in name:
        base, _, card = name.partition(BANS)
        inner = make(base)
        if isinstance(inner, RestrictedAgent) or not card:
            raise ValueError(f"{name!r}: expected AGENT!CARD, such as random!CARD or mcts100!CARD")
        if isinstance(inner, MCTSAgent):
            return MCTSAgent(inner.iterations, inner.playout_depth, inner.c, card)
        return RestrictedAgent(inner, card)
    if name.startswith("mcts") and name != "mcts":
        budget, slash, depth = name[4:].partition(DEPTH)
        if not budget.isdigit() or (slash and not depth.isdigit()):
            raise ValueError(f"{name!r}: expected mctsN or mctsN/D, such as mcts100 or mcts100/0")
        if not 1 <= int(budget) <= MAX_MCTS:
            raise ValueError(f"{name!r}: expected mctsN with N from 1 to {MAX_MCTS} iterations a move")
        if slash and not 0 <= int(depth) <= MAX_PLAYOUT:
            raise ValueError(f"{name!r}: expected mctsN/D with D from 0 to {MAX_PLAYOUT} random moves")
        return MCTSAgent(int(budget), int(depth) if slash else PLAYOUT)
    if name == "mcts":
        return MCTSAgent()
    if name == "greedy":
        return GreedyAgent()
    if name == "random":
        return RandomAgent()
    hint = difflib.get_close_matches(name, ("random", "greedy", "mcts", EXPERT), n=1)
    guess = f" (did you mean {hint[0]!r}?)" if hint else ""
    raise ValueError(f"unknown agent {name!r}: expected random, greedy, mcts, mctsN, mctsN/D or expert{guess}")
