"""One room's step, worked out once: its seats' views, legal actions and menus, and its tables, dropped together.

Between two moves every page of a room asks for the same things again and again (13 tables on Mafia's floor, a
menu at each tap, a refused out-of-date move redrawn). A `Snapshot` is what the room knows of one step of one
game: built lazily, value by value, and replaced whole when the game moves on or another game starts (`Room.snapshot`).
It holds the game it is of, so a new game can never be taken for the old one (an `id` can be reused).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from ..core import Action, GameState, View

_NOT_YET = object()


class Snapshot:
    """The views, legal actions and other values of `state` after `step` moves, each computed on first use."""

    __slots__ = ("state", "step", "views", "legal", "_kept")

    def __init__(self, state: GameState[Any] | None, step: int) -> None:
        self.state = state
        self.step = step
        self.views: dict[int | None, View] = {}
        self.legal: dict[int, list[Action]] = {}
        self._kept: dict[Hashable, Any] = {}

    def is_of(self, state: GameState[Any] | None, step: int) -> bool:
        """Whether this is the snapshot of `state` at `step` (the very game, not an equal one)."""
        return self.state is state and self.step == step

    def remember(self, key: Hashable, compute: Callable[[], Any]) -> Any:
        """`compute()` once for this step (a table by seat and language, a menu, a view as JSON)."""
        value = self._kept.get(key, _NOT_YET)  # one look-up: a table's key holds what it shows, hashed each time
        if value is _NOT_YET:
            value = self._kept[key] = compute()
        return value
