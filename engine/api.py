"""The game API every engine game implements: a static Game and a State that moves by actions."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence


class IllegalAction(ValueError):
    """An action that is not among the current state's legal actions."""


class State(ABC):
    """One position of a game; chance is decided outside it, from a seeded generator."""

    @abstractmethod
    def current_player(self) -> int:
        """The seat to act, 0-based; -1 once the game is over."""

    @abstractmethod
    def legal_actions(self) -> Sequence[int]:
        """The actions the current player may take, as integers."""

    @abstractmethod
    def apply_action(self, action: int) -> None:
        """Play an action; raise IllegalAction if it is not legal."""

    @abstractmethod
    def is_terminal(self) -> bool:
        """Whether the game has ended."""

    @abstractmethod
    def returns(self) -> list[float]:
        """Each seat's result: 1 a win, -1 a loss, 0 a draw or an unfinished game."""

    @abstractmethod
    def clone(self) -> State:
        """An independent copy."""
