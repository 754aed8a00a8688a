"""Commissario's rule options and tables (rules spec: seeds/commissario.md, rule ids cited below).

Every open point of the seed (shared/seeds/000_496c4dc3724f87b3.txt) and every number of its set-up is a field of
`Rules`, with the seed's reading as default and bounds that keep any game small; the tables below (colours,
the notation of characters) are the material the seed describes.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from ..core import GameRules, IllegalAction, RulesError, option, quote
from . import words  # noqa: F401 - registers the words of the refusals raised below and above

#: The six families in the layout's order (R1.1); "earlier in colour order" (R4.2) means earlier here.
COLOURS: tuple[str, ...] = ("red", "orange", "yellow", "green", "blue", "purple")
#: The colour whose +k/-k pairs are dealt at set-up (R1.3).
DEAL_COLOUR = "purple"
#: The largest character value any rules allow: values are written with one digit (`red+9`).
MAX_VALUE = 9

Card = tuple[str, int]


def values_up_to(highest: int) -> tuple[int, ...]:
    """The values of one family, in arrest order (R1.1, R4.3): +h ... +1, then -1 ... -h."""
    return tuple(range(highest, 0, -1)) + tuple(range(-1, -highest - 1, -1))


#: The seed's values, +5..+1 and -1..-5 (the default `highest_value`).
VALUES: tuple[int, ...] = values_up_to(5)
#: Every character of any rules (values up to `MAX_VALUE`).
ALL_CARDS: tuple[Card, ...] = tuple((c, v) for c in COLOURS for v in values_up_to(MAX_VALUE))

#: The named readings of the seed's bonus cards (R1.7): one value per colour, in `COLOURS` order; 0 is no card.
BONUS_READINGS: dict[str, tuple[int, ...]] = {
    "every_colour": (1, 2, 3, 4, 5, 1),
    "purple_none": (1, 2, 3, 4, 5, 0),
}


def card_text(card: Card) -> str:
    """`red+3` for the bandit worth 3, `red-3` for the innocent worth -3.

    Anything that is not a character of some rules (a colour of `COLOURS`, a whole number from 1 to
    `MAX_VALUE` either way) is refused here, before it is written: an action holding `("red", True)` would
    otherwise be written `red+1` and pass for another value's text.
    """
    if not (type(card) is tuple and len(card) == 2 and type(card[0]) is str and type(card[1]) is int):
        raise IllegalAction.because("cm_refused_card_type", card=quote(card))
    colour, value = card
    if colour not in COLOURS or not 1 <= abs(value) <= MAX_VALUE:
        raise IllegalAction.because("cm_refused_card_range", card=quote(card), colours=COLOURS, most=MAX_VALUE)
    return _CARD_TEXT[card]


#: Every character's text, written once (views spell out every arrested card at every step).
_CARD_TEXT: dict[Card, str] = {(colour, value): f"{colour}{value:+d}"
                               for colour in COLOURS for value in values_up_to(MAX_VALUE)}


@dataclass(frozen=True)
class Rules(GameRules):
    """Commissario's options (seeds/commissario.md, "Rule options"); each default is our reading of the seed.

    - `highest_value` (R1.1, R1.2): bandits +1..+h and innocents -1..-h in every colour (seed: 5). A table of N
      players needs h >= N for the purple deal, checked by `new_game`.
    - `double_card` (R1.5): each player holds the 2x card (seed: True); False: every pick is two colours.
    - `double_card_each_round` (R5.1): True (default): the 2x card comes back to hand every round, like the
      commissaires; False: each player plays it once a game.
    - `bonus_values` (R1.7, R6.2): the bonus card of each colour, as a named reading of the seed
      (`BONUS_READINGS`: "every_colour", the default, or "purple_none") or six values in `COLOURS` order,
      0 for no card.
    - `laid_per_player` (R2.1): characters laid out each round, per player (seed: 2, « deux fois plus de
      personnages qu’il y a de joueurs »).
    - `released_go_to` (R3.4): "box" (default): released characters leave the game; "table": they go back
      face up to the layout, in their colour, and can be arrested again.
    - `reveal_choice` (R4.2): True (default): a player chooses at reveal time which of its two commissaires
      to show first; False: the one earlier in `COLOURS` order.
    - `partial_last_layout` (R5.3): True (default): when fewer characters remain than a layout takes, lay out
      what remains and play that last round; False: the game ends when the pile cannot fill a layout.
    - `tie_break` (R6.4): "shared" (default): players tied for the most points share the win;
      "fewest_innocents": among them, those who arrested the fewest innocents win (still tied: shared); every
      innocent a player arrested counts, those it released since included (the deal's purple -k counts for
      everyone alike).
    - `bonus_needs_positive` (R6.5): False (default): the single best total of a colour takes its bonus card,
      even 0 or below; True: only a single best total above 0 does.
    """

    highest_value: int = option(5, low=2, high=MAX_VALUE)
    double_card: bool = option(True)
    double_card_each_round: bool = option(True)
    bonus_values: str | tuple[int, ...] = option("every_colour", choices=tuple(BONUS_READINGS),
                                                 length=(len(COLOURS), len(COLOURS)), low=0, high=20)
    laid_per_player: int = option(2, low=1, high=6)
    released_go_to: str = option("box", choices=("box", "table"))
    reveal_choice: bool = option(True)
    partial_last_layout: bool = option(True)
    tie_break: str = option("shared", choices=("shared", "fewest_innocents"))
    bonus_needs_positive: bool = option(False)

    def check(self) -> None:
        """No option depends on another (each is checked alone by `GameRules`); the one link to the table size,
        `highest_value` >= players, is `check_players`, called by `new_game`."""

    def check_players(self, players: int) -> None:
        """R1.2: the purple deal gives +1..+N, so the families must go up to N at least."""
        if self.highest_value < players:
            raise RulesError(f"highest_value {self.highest_value} is too small for {players} players: the purple "
                             f"deal needs the cards +1 to +{players} (R1.2).")

    @functools.cached_property
    def bonus_table(self) -> dict[str, int]:
        """Colour -> value of its bonus card (0: no bonus card), from `bonus_values`."""
        values = BONUS_READINGS[self.bonus_values] if isinstance(self.bonus_values, str) else self.bonus_values
        return dict(zip(COLOURS, values))

    def bonus(self, colour: str) -> int:
        """The value of a colour's bonus card (0: no bonus card)."""
        return self.bonus_table[colour]

    @property
    def values(self) -> tuple[int, ...]:
        """The values of one family under these rules, in arrest order (R1.1, R4.3)."""
        return values_up_to(self.highest_value)


def full_pile(players: int, rules: Rules | None = None) -> list[Card]:
    """Every character but the purple pairs dealt at set-up, in a fixed order (R1.1, R1.3, R1.6)."""
    values = (rules or Rules()).values
    return [(c, v) for c in COLOURS for v in values if not (c == DEAL_COLOUR and abs(v) <= players)]
