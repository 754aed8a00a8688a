"""Mafia de Cuba's rule options and set-up table (spec: seeds/mafia_de_cuba.md).

Every number of the box's set-up and every open point of the published rules is a field of `Rules`, with the
rulebook's value (or the recommended reading) as default, so a teacher switches a variant on in one line and a
test can cite it. The token and joker counts follow the rulebook's table by table size unless a field
overrides them: `Rules(jokers=2)` gives two jokers whatever the table, e.g. "two jokers at six players".

Bounds keep every value playable and cheap: at most 30 diamonds and 8 + 2 + 4 + 1 tokens, so the largest
menu (every "saw D tokens..." testimony) stays near ten thousand actions and the inference chain small.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core import GameRules, RulesError, option

#: Diamonds in the Godfather's cigar box at the start in the rulebook (R1.2); `Rules.diamonds` may change it.
DIAMONDS = 15
#: Token names, in the order the notation writes them.
TOKEN_ORDER = ("loyal", "fbi", "cia", "driver", "cleaner")
#: The Agents' tokens: the first Agent is the FBI, the second the CIA.
AGENTS = ("fbi", "cia")
#: The interrogation's two forms (R4.1): free talk (the seed's) or a budget of questions.
INTERROGATIONS = ("free", "budget")

Take = tuple[int, "str | None"]  # a taker's secret take: (diamonds, token); (0, None) is "nothing"


def take_text(take: Take) -> str:
    """'3', 'driver' or 'nothing': the notation of a take, used in facts, testimonies and the box chain."""
    diamonds, token = take
    return f"{token}" if token else (f"{diamonds}" if diamonds else "nothing")


def role_of(take: Take) -> str:
    """The role a take gives: 'thief', a token name, or 'street-kid'."""
    diamonds, token = take
    return token if token else ("thief" if diamonds else "street-kid")


#: The rulebook's set-up table (R1.3): players -> (loyal henchmen, agents, drivers, jokers).
TOKENS_BY_PLAYERS: dict[int, tuple[int, int, int, int]] = {
    6: (1, 1, 1, 0), 7: (2, 1, 1, 0), 8: (3, 1, 1, 1), 9: (4, 1, 1, 1),
    10: (4, 2, 1, 1), 11: (4, 2, 2, 2), 12: (5, 2, 2, 2),
}


@dataclass(frozen=True)
class Rules(GameRules):
    """Mafia de Cuba's options; defaults follow the published rules and RULES-NOTES.md recommendations.

    Set-up (R1, R2):
    - `godfather_seat`: the seat of the Godfather (the box then goes clockwise from the next seat) (R1.1).
    - `diamonds`: diamonds in the cigar box at the start (R1.2; rulebook: 15).
    - `loyal`, `agents`, `drivers`, `jokers`: the counts of R1.3; None (the default) takes the rulebook's table
      for the table size, a number replaces it (`agents`: 1 is the FBI, 2 the FBI and the CIA).
    - `cleaner`: add the Cleaner token (variant, R1.4, R6).
    - `max_hidden`: the most diamonds the Godfather may hide before passing the box (R2.1; rulebook: 5).

    The box (R3):
    - `first_may_set_aside`: the first taker may put one token out of play (R3.2); when False the first
      taker's `set-aside` step does not exist.
    - `last_may_take_nothing`: the last taker may take nothing and become a Street Kid (R3.4: the published
      rulebook's exception to the seed's « Il est interdit de ne rien prendre »; False keeps the seed's letter).
    - `nobody_stole_godfather_wins`: if no diamond was stolen the Godfather and his side win at once (R3.6);
      otherwise the investigation goes on.

    The investigation (R4):
    - `interrogation`: "free" (default, the seed's free talk: before each of the Godfather's moves every
      living taker may volunteer one testimony or pass, all at once, and he may ask each seat each kind of question once between
      two accusations) or "budget" (at most `question_budget` questions and floors in the whole
      investigation, and takers speak unasked only on a floor the Godfather opens) (R4.1, R4.2).
    - `question_budget`: the questions and floors of the "budget" interrogation (R4.1); unused in free talk.
    - `jokered_can_be_accused`: a seat that received a joker may be accused again (R4.5).
    - `godfather_closes_floor`: the Godfather's move may close an open floor before every taker has answered
      (R4.2); by default he waits for the round of answers, given at once by everyone.

    The end (R5):
    - `tied_thieves_all_win`: when the Godfather falls, all thieves tied for the most diamonds win (R5.3);
      when False none of the tied thieves wins (only Street Kids and their Drivers).
    - `driver_chain`: a Driver wins through a Driver on his right who wins (transitively) (R5.4).
    - `driver_joins_lone_winner`: a Driver also wins beside an Agent or a Cleaner on his right who wins
      « seul » (R5.4); by default « seul » is read literally and he does not.
    """

    godfather_seat: int = option(0, low=0, high=11)
    diamonds: int = option(DIAMONDS, low=1, high=30)
    loyal: int | None = option(None, low=0, high=8)
    agents: int | None = option(None, low=0, high=2)
    drivers: int | None = option(None, low=0, high=4)
    jokers: int | None = option(None, low=0, high=11)
    cleaner: bool = option(False)
    max_hidden: int = option(5, low=0, high=30)
    first_may_set_aside: bool = option(True)
    last_may_take_nothing: bool = option(True)
    nobody_stole_godfather_wins: bool = option(True)
    interrogation: str = option("free", choices=INTERROGATIONS)
    question_budget: int = option(8, low=0, high=60)
    jokered_can_be_accused: bool = option(False)
    godfather_closes_floor: bool = option(False)
    tied_thieves_all_win: bool = option(True)
    driver_chain: bool = option(True)
    driver_joins_lone_winner: bool = option(False)

    def check(self) -> None:
        if self.max_hidden > self.diamonds:
            raise RulesError(f"The Godfather cannot hide more diamonds than the box holds: max_hidden "
                             f"{self.max_hidden} is more than diamonds {self.diamonds}.")

    @property
    def free_talk(self) -> bool:
        """True for the seed's free interrogation (R4.1), False for the budgeted one."""
        return self.interrogation == "free"


def set_up(players: int, rules: Rules) -> tuple[int, int, int, int]:
    """(loyal henchmen, agents, drivers, jokers) for `players` seats: the rulebook's row with the rules'
    overrides (R1.3)."""
    overrides = (rules.loyal, rules.agents, rules.drivers, rules.jokers)
    loyal, agents, drivers, jokers = (table if override is None else override
                                      for override, table in zip(overrides, TOKENS_BY_PLAYERS[players]))
    return loyal, agents, drivers, jokers


def starting_tokens(players: int, rules: Rules) -> dict[str, int]:
    """The token counts in the box for `players` seats (the Godfather counts as a player), in TOKEN_ORDER."""
    loyal, agents, drivers, _ = set_up(players, rules)
    tokens = {"loyal": loyal, "fbi": 1 if agents >= 1 else 0, "cia": 1 if agents == 2 else 0, "driver": drivers,
              "cleaner": 1 if rules.cleaner else 0}
    return {name: count for name, count in tokens.items() if count}


def starting_jokers(players: int, rules: Rules) -> int:
    """The Godfather's jokers for `players` seats."""
    return set_up(players, rules)[3]
