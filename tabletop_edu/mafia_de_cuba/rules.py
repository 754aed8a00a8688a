"""Mafia de Cuba's rule options and tables (spec: seeds/mafia_de_cuba.md).

Every open point of the published rules is a field of `Rules` with the recommended default, so a teacher can
switch a variant on and a test can cite it.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Diamonds in the Godfather's cigar box at the start (R1.2).
DIAMONDS = 15
#: Token names, in the order the notation writes them.
TOKEN_ORDER = ("loyal", "fbi", "cia", "driver", "cleaner")
#: Roles from tokens; a seat that took diamonds is a "thief", one that took nothing a "street-kid".
AGENTS = ("fbi", "cia")

#: players -> (loyal henchmen, agents, drivers, jokers) (R1.3, table of RULES-NOTES.md).
TOKENS_BY_PLAYERS: dict[int, tuple[int, int, int, int]] = {
    6: (1, 1, 1, 0), 7: (2, 1, 1, 0), 8: (3, 1, 1, 1), 9: (4, 1, 1, 1),
    10: (4, 2, 1, 1), 11: (4, 2, 2, 2), 12: (5, 2, 2, 2),
}


@dataclass(frozen=True)
class Rules:
    """Mafia de Cuba's options; defaults follow the published rules and RULES-NOTES.md recommendations.

    - `godfather_seat`: the seat of the Godfather (the box then goes clockwise from the next seat).
    - `max_hidden`: the most diamonds the Godfather may hide before passing the box (R2.1).
    - `first_may_set_aside`: the first taker may put one token out of play (R3.1); when False the first
      taker's `set-aside` step does not exist.
    - `last_may_take_nothing`: the last taker may take nothing and become a Street Kid (R3.4).
    - `cleaner`: add the Cleaner token (advanced variant, R6).
    - `question_budget`: questions (and open floors) the Godfather may use per round (R4.1); keeps every
      game finite.
    - `tied_thieves_all_win`: when the Godfather falls, all thieves tied for the most diamonds win (R5.3);
      when False nobody of the tied thieves wins (only Street Kids and their Drivers).
    - `driver_chain`: a Driver wins through a Driver on his right who wins (transitively) (R5.4).
    - `jokered_can_be_accused`: a seat that received a joker may be accused again (R4.5).
    - `nobody_stole_godfather_wins`: if no diamond was stolen the Godfather and his Loyal Henchmen win at
      once (R5.5); otherwise the investigation goes on.
    """

    godfather_seat: int = 0
    max_hidden: int = 5
    first_may_set_aside: bool = True
    last_may_take_nothing: bool = True
    cleaner: bool = False
    question_budget: int = 8
    tied_thieves_all_win: bool = True
    driver_chain: bool = True
    jokered_can_be_accused: bool = False
    nobody_stole_godfather_wins: bool = True


def starting_tokens(players: int, rules: Rules) -> dict[str, int]:
    """The token counts in the box for `players` seats (the Godfather counts as a player)."""
    loyal, agents, drivers, _ = TOKENS_BY_PLAYERS[players]
    tokens = {"loyal": loyal, "fbi": 1, "cia": 1 if agents == 2 else 0, "driver": drivers,
              "cleaner": 1 if rules.cleaner else 0}
    return {name: count for name, count in tokens.items() if count}


def starting_jokers(players: int) -> int:
    """The Godfather's jokers for `players` seats."""
    return TOKENS_BY_PLAYERS[players][3]
