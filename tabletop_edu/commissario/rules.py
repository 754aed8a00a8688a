"""Commissario's rule options and tables (rules spec: seeds/commissario.md).

Every open point of the seed (seeds/000_496c4dc3724f87b3.txt) is a field of `Rules` with a documented
default; the tables below (colours, characters) are fixed by the seed itself.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from ..core import RulesError

#: The six families, clockwise around the table layout. Purple is the colour of the opening deal (R1.3).
COLOURS: tuple[str, ...] = ("red", "orange", "yellow", "green", "blue", "purple")
#: The colour whose +k/-k pairs are dealt at set-up.
DEAL_COLOUR = "purple"
#: Bandits are worth +1..+5, innocents -1..-5 (R1.1).
VALUES: tuple[int, ...] = (5, 4, 3, 2, 1, -1, -2, -3, -4, -5)

Card = tuple[str, int]


@functools.lru_cache(maxsize=256)
def card_text(card: Card) -> str:
    """`red+3` for the bandit worth 3, `red-3` for the innocent worth -3 (written once per card: views
    spell out every arrested card at every step)."""
    colour, value = card
    return f"{colour}{value:+d}"


@dataclass(frozen=True)
class Rules:
    """Commissario's options; the defaults follow the seed, open points resolved as below.

    - `bonus_values`: the bonus card of each colour, in `COLOURS` order (R6.2). The seed has five bonus
      cards worth 1 to 5 for six colours; by default purple, the colour of the opening deal, has none (0).
    - `reveal_choice`: True (default): a player chooses at reveal time which of its two commissaires to
      show first (R4.1). False: the first one is the one earlier in `COLOURS` order.
    - `partial_last_layout`: True (default): when fewer than 2N characters remain, lay out what remains
      and play that last round (R5.3). False: the game ends when the pile cannot fill 2N.
    - `released_go_to`: "box" (default): released characters leave the game (R3.4). "table": they go back
      face up to the layout, in their colour, and can be arrested again.
    - `tie_break`: "shared" (default): players tied for the most points share the win (R6.4).
      "fewest_innocents": among them, those who arrested the fewest innocents win (still tied: shared).
    """

    bonus_values: tuple[int, ...] = (1, 2, 3, 4, 5, 0)
    reveal_choice: bool = True
    partial_last_layout: bool = True
    released_go_to: str = "box"
    tie_break: str = "shared"

    def __post_init__(self) -> None:
        if len(self.bonus_values) != len(COLOURS) or not all(isinstance(v, int) for v in self.bonus_values):
            raise RulesError(f"bonus_values needs one whole number per colour {COLOURS}.")
        if self.released_go_to not in ("box", "table"):
            raise RulesError("released_go_to is 'box' or 'table'.")
        if self.tie_break not in ("shared", "fewest_innocents"):
            raise RulesError("tie_break is 'shared' or 'fewest_innocents'.")

    def bonus(self, colour: str) -> int:
        """The value of a colour's bonus card (0: no bonus card)."""
        return self.bonus_values[COLOURS.index(colour)]
