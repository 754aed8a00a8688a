"""The non-interference check has teeth for every game: a view that shows one hidden thing too many is
caught by `check_game`, because each game's `resample` redraws what the seat has not observed."""

from __future__ import annotations

from types import ModuleType, SimpleNamespace
from typing import Any, Callable

import pytest

import tabletop_edu.commissario as commissario
import tabletop_edu.get_adler as get_adler
import tabletop_edu.mafia_de_cuba as mafia_de_cuba
from tabletop_edu.testing import GameCheckFailed, check_game

LEAKS: list[tuple[ModuleType, int, Callable[[Any], object]]] = [
    (get_adler, 4, lambda state: list(state.characters)),             # who is Adler
    (commissario, 3, lambda state: [str(card) for card in state.pile[:3]]),  # the next cards of the pile
    (commissario, 2, lambda state: sorted(state.picks.items())),      # the secret picks before the reveal
    (mafia_de_cuba, 6, lambda state: sorted(state.takes.items())),    # what each taker took
]


def leaky(module: ModuleType, secret: Callable[[Any], object]) -> SimpleNamespace:
    """`module` with every view showing `secret(state)`."""
    class Leaky(module.State):  # type: ignore[name-defined, misc]
        def _facts(self, seat: int | None) -> dict[str, Any]:
            return {**super()._facts(seat), "leak": repr(secret(self))}

    return SimpleNamespace(__name__=f"leaky {module.__name__}", parse_action=module.parse_action,
                           Rules=module.Rules,
                           new_game=lambda players, *, seed=None, rules=None: Leaky(players, seed=seed, rules=rules))


@pytest.mark.parametrize(("module", "players", "secret"), LEAKS,
                         ids=["adler-characters", "commissario-pile", "commissario-picks", "mafia-takes"])
def test_a_leaky_view_fails_check_game(module: ModuleType, players: int, secret: Callable[[Any], object]) -> None:
    with pytest.raises(GameCheckFailed, match="resample"):
        check_game(leaky(module, secret), players=players, games=3, seed=2)
