"""Get Adler's rule options and tables: the cast, the trait table and the deck per player count.

The seed (001_69c19eb2521cea29.txt) gives the shape of the game; the colours of the traits, the deck
composition and the confrontation details were never published, so they are designed here and every open
point or set-up number is a checked field of `Rules` (see seeds/get_adler.md for the numbered rules).
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass

from ..core import GameRules, RulesError, option

#: The published cast, in the order characters join the game: 4 players use the first four (R1.1).
CAST: tuple[str, ...] = ("Adler", "Gold", "Sharpe", "Townsend", "Kate Collins", "Agent Tarasov")
ADLER = "Adler"
#: The table sizes of the edition we play (R1.1); the later 4-8 player edition is out of scope.
MIN_PLAYERS, MAX_PLAYERS = 4, 6
#: Readings of the hero who faces Adler in a confrontation (options `duel_with`, `resume_after`).
HERO_FACING_ADLER = ("accuser", "latest_hero")

#: The four traits and their colours; every (trait, colour) is a legal question.
TRAIT_COLOURS: dict[str, tuple[str, ...]] = {
    "hat": ("black", "brown", "grey"),
    "hair": ("black", "blond", "red"),
    "eyes": ("blue", "brown", "green"),
    "coat": ("grey", "beige", "black"),
}
TRAITS: tuple[str, ...] = tuple(TRAIT_COLOURS)

# Four disjoint perfect matchings of the six characters, one per trait: every colour is shared by exactly two
# characters, no two characters share two colours (12 of the 15 pairs share one, 3 share none), so each
# character is identified by its traits and every question splits the cast in a different way (R2.2).
TRAIT_TABLE: dict[str, dict[str, str]] = {
    "Adler": {"hat": "black", "hair": "black", "eyes": "blue", "coat": "grey"},
    "Gold": {"hat": "black", "hair": "blond", "eyes": "brown", "coat": "beige"},
    "Sharpe": {"hat": "brown", "hair": "black", "eyes": "green", "coat": "black"},
    "Townsend": {"hat": "brown", "hair": "red", "eyes": "blue", "coat": "beige"},
    "Kate Collins": {"hat": "grey", "hair": "blond", "eyes": "green", "coat": "grey"},
    "Agent Tarasov": {"hat": "grey", "hair": "red", "eyes": "brown", "coat": "black"},
}

#: Card names as written in the action notation (French names in seeds/get_adler.md).
CARDS: tuple[str, ...] = ("document", "question", "magnify", "binoculars", "arrest", "escape", "disguise",
                          "bomb", "pistol", "plain")
#: Cards Adler may answer an arrest with.
ADLER_RESPONSES: tuple[str, ...] = ("escape", "disguise", "bomb", "pistol")

#: The most copies of one card in one part of the deck: with ten kinds and three parts, a deck holds at
#: most 3 * 10 * 40 = 1,200 cards, whatever a record says.
MAX_COPIES = 40
#: The longest game: hours and hand sizes are bounded so that `max_steps` stays small.
MAX_HOURS, MAX_HAND = 20, 15

Deck = tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Rules(GameRules):
    """Every open point and set-up number of Get Adler as a checked option; defaults follow the seed and
    RULES-NOTES.md (rule ids: seeds/get_adler.md).

    - `hours`: hours in a game, one turn per seat each (R1.3); Adler must survive them all (R7.2).
    - `cast`: the six characters in the order they join the table: the first `players` are dealt (R1.1).
    - `hand_size`: action cards dealt to each player (R3.1).
    - `refill_to`: cards in hand after a confrontation (R6.6); None: `hand_size` (the seed's seven both times).
    - `deck_4`, `deck_5_extra`, `deck_6_extra`: (card, count) pairs: the 64-card deck and the 13 cards
      added for a 5th and again for a 6th player (R3.2).
    - `reshuffle_discards`: an empty deck is refilled by shuffling the discard pile; if False, a player
      who cannot draw simply does not draw (R3.4).
    - `adler_may_lie`: Adler may answer a question falsely (R4.2); heroes never may.
    - `first_arrest_hour`: arrests are forbidden before this hour (R5.1).
    - `last_arrest_hour`: arrests are forbidden after this hour (R1.5, R5.1); None: until the last hour (our
      reading of « avant la 7e heure »); 6 gives the strict reading, no arrest in the seventh hour.
    - `wrong_arrest_skips`: turns the accuser and the accused skip after a wrong arrest (R5.3).
    - `escape_answer_card`: the card a hero plays to stop an escape (R6.2).
    - `stunned_can_respond`: whether a hero who must skip a turn may still stop an escape (R6.2).
    - `shot_hero_out`: a hero who loses a pistol duel is out of the game (R6.3).
    - `shot_hero_skips`: with `shot_hero_out` False, the turns he skips instead (R6.3).
    - `bomb_skips`: turns every hero skips after a bomb (R6.4).
    - `duel_with`: the hero in a pistol duel (R6.3, « le héros qui est en confrontation avec lui »):
      "accuser" (default), the hero who arrested Adler; "latest_hero", the hero who stopped his latest
      escape (he played an arrest card too), else the accuser.
    - `resume_after`: after Adler escapes, play goes on with the seat after this hero (R6.6, « à partir de la
      personne qui a joué la carte arrestation »): "accuser" (default); "latest_hero", the hero who stopped
      his latest escape, else the accuser (the turns of the seats in between are passed over).
    - `documents_to_win`: documents Adler must hold at the end of the last hour (R7.2).
    """

    hours: int = option(7, low=1, high=MAX_HOURS)
    cast: tuple[str, ...] = option(CAST, choices=CAST, length=(len(CAST), len(CAST)))
    hand_size: int = option(7, low=2, high=MAX_HAND)
    refill_to: int | None = option(None, low=1, high=MAX_HAND)
    deck_4: Deck = option((
        ("document", 8), ("question", 12), ("magnify", 6), ("binoculars", 6), ("arrest", 8),
        ("escape", 5), ("disguise", 3), ("bomb", 3), ("pistol", 5), ("plain", 8)),
        low=0, high=MAX_COPIES, choices=CARDS, length=(1, len(CARDS)))
    deck_5_extra: Deck = option((
        ("document", 2), ("question", 3), ("magnify", 1), ("binoculars", 1), ("arrest", 2),
        ("escape", 1), ("bomb", 1), ("pistol", 1), ("plain", 1)),
        low=0, high=MAX_COPIES, choices=CARDS, length=(0, len(CARDS)))
    deck_6_extra: Deck = option((
        ("document", 2), ("question", 3), ("magnify", 1), ("binoculars", 1), ("arrest", 2),
        ("escape", 1), ("bomb", 1), ("pistol", 1), ("plain", 1)),
        low=0, high=MAX_COPIES, choices=CARDS, length=(0, len(CARDS)))
    reshuffle_discards: bool = option(True)
    adler_may_lie: bool = option(True)
    first_arrest_hour: int = option(4, low=1, high=MAX_HOURS)
    last_arrest_hour: int | None = option(None, low=1, high=MAX_HOURS)
    wrong_arrest_skips: int = option(1, low=0, high=5)
    escape_answer_card: str = option("arrest", choices=CARDS)
    stunned_can_respond: bool = option(False)
    shot_hero_out: bool = option(True)
    shot_hero_skips: int = option(1, low=0, high=5)
    bomb_skips: int = option(1, low=0, high=5)
    duel_with: str = option("accuser", choices=HERO_FACING_ADLER)
    resume_after: str = option("accuser", choices=HERO_FACING_ADLER)
    documents_to_win: int = option(1, low=0, high=MAX_COPIES)

    def check(self) -> None:
        """What no single field can say: a cast holding Adler, decks of distinct kinds larger than the hands."""
        if len(set(self.cast)) != len(self.cast) or ADLER not in self.cast[:MIN_PLAYERS]:
            raise RulesError(f"cast must name each of {', '.join(CAST)} once, with {ADLER} among the first "
                             f"{MIN_PLAYERS} (every table has him).")
        for name in ("deck_4", "deck_5_extra", "deck_6_extra"):
            kinds = [card for card, _ in getattr(self, name)]
            if len(set(kinds)) != len(kinds):
                raise RulesError(f"{name} names a card twice: give each card once, with its count.")
        for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
            if len(self.deck(players)) <= players * self.hand_size:
                raise RulesError(f"The deck for {players} players ({len(self.deck(players))} cards) must hold "
                                 f"more than the players' hands ({players} x {self.hand_size}).")
        last = self.arrests_until
        if last < self.first_arrest_hour or self.first_arrest_hour > self.hours:
            raise RulesError(f"Arrests would never be allowed: first_arrest_hour {self.first_arrest_hour}, "
                             f"last arrest hour {last}, {self.hours} hours.")

    @property
    def refill_size(self) -> int:
        """Cards in hand after a confrontation (R6.6)."""
        return self.hand_size if self.refill_to is None else self.refill_to

    @property
    def arrests_until(self) -> int:
        """The last hour in which an arrest may be made (R5.1)."""
        return self.hours if self.last_arrest_hour is None else min(self.last_arrest_hour, self.hours)

    @property
    def largest_hand(self) -> int:
        """The most cards a hand can hold: a full hand plus the card drawn at the start of a turn."""
        return max(self.hand_size, self.refill_size) + 1

    def deck(self, players: int) -> list[str]:
        """The unshuffled action deck for `players` seats: 64, 77 or 90 cards by default."""
        return list(deck_for(self, players))

    def composition(self, players: int) -> Counter[str]:
        """How many cards of each kind the deck for `players` holds."""
        return Counter(deck_for(self, players))


@functools.lru_cache(maxsize=32)
def deck_for(rules: Rules, players: int) -> tuple[str, ...]:
    """The unshuffled deck, built once per rules and table size (a rules-level value: bounded cache)."""
    parts = [rules.deck_4] + [rules.deck_5_extra] * (players >= 5) + [rules.deck_6_extra] * (players >= 6)
    return tuple(card for part in parts for card, count in part for _ in range(count))


def cast_for(players: int, rules: Rules | None = None) -> tuple[str, ...]:
    """The characters in play: the first `players` of the rules' cast (by default Adler, Gold, Sharpe,
    Townsend, then Kate Collins with 5 and Agent Tarasov with 6)."""
    return (CAST if rules is None else rules.cast)[:players]


def has_trait(character: str, trait: str, colour: str) -> bool:
    """The true answer to "do you have a `colour` `trait`?" for `character`."""
    return TRAIT_TABLE[character][trait] == colour
