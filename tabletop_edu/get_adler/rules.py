"""Get Adler's rule options and tables: the cast, the trait table and the deck per player count.

The seed (001_69c19eb2521cea29.txt) gives the shape of the game; the colours of the traits, the deck
composition and the confrontation details were never published, so they are designed here and every open
point is a field of `Rules` (see seeds/get_adler.md for the numbered rules).
"""

from __future__ import annotations

from dataclasses import dataclass

#: The published cast, in the order characters join the game: 4 players use the first four.
CAST: tuple[str, ...] = ("Adler", "Gold", "Sharpe", "Townsend", "Kate Collins", "Agent Tarasov")
ADLER = "Adler"

#: The four traits and their colours; every (trait, colour) is a legal question.
TRAIT_COLOURS: dict[str, tuple[str, ...]] = {
    "hat": ("black", "brown", "grey"),
    "hair": ("black", "blond", "red"),
    "eyes": ("blue", "brown", "green"),
    "coat": ("grey", "beige", "black"),
}
TRAITS: tuple[str, ...] = tuple(TRAIT_COLOURS)

# Built from four disjoint perfect matchings of the six characters (a 1-factorisation of K6): every
# colour is shared by exactly two characters, every pair of characters shares exactly one colour, so each
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


@dataclass(frozen=True)
class Rules:
    """Every open point of Get Adler as a named option; defaults follow RULES-NOTES.md.

    - `hours`: rounds in a game (R1.3); Adler must survive them all.
    - `hand_size`: cards dealt and refilled to (R3.1, R6.7).
    - `first_arrest_hour`: arrests are forbidden before this hour (R5.1).
    - `deck_4`, `deck_5_extra`, `deck_6_extra`: (card, count) pairs: the 64-card deck and the 13 cards
      added for a 5th and again for a 6th player (R3.2).
    - `reshuffle_discards`: an empty deck is refilled by shuffling the discard pile; if False, a player
      who cannot draw simply does not draw (R3.4).
    - `adler_may_lie`: Adler may answer a question falsely (R4.2); heroes never may.
    - `wrong_arrest_skips`: turns the accuser and the accused skip after a wrong arrest (R5.3).
    - `escape_answer_card`: the card a hero plays to stop an escape (R6.2).
    - `stunned_can_respond`: whether a hero who must skip a turn may still stop an escape (R6.2).
    - `bomb_skips`: turns every hero skips after a bomb (R6.4).
    - `shot_hero_out`: a hero who loses a pistol duel is out of the game; if False he only skips a turn (R6.3).
    - `documents_to_win`: documents Adler must hold at the end of the last hour (R7.2).
    """

    hours: int = 7
    hand_size: int = 7
    first_arrest_hour: int = 4
    deck_4: tuple[tuple[str, int], ...] = (
        ("document", 8), ("question", 12), ("magnify", 6), ("binoculars", 6), ("arrest", 8),
        ("escape", 5), ("disguise", 3), ("bomb", 3), ("pistol", 5), ("plain", 8))
    deck_5_extra: tuple[tuple[str, int], ...] = (
        ("document", 2), ("question", 3), ("magnify", 1), ("binoculars", 1), ("arrest", 2),
        ("escape", 1), ("bomb", 1), ("pistol", 1), ("plain", 1))
    deck_6_extra: tuple[tuple[str, int], ...] = (
        ("document", 2), ("question", 3), ("magnify", 1), ("binoculars", 1), ("arrest", 2),
        ("escape", 1), ("bomb", 1), ("pistol", 1), ("plain", 1))
    reshuffle_discards: bool = True
    adler_may_lie: bool = True
    wrong_arrest_skips: int = 1
    escape_answer_card: str = "arrest"
    stunned_can_respond: bool = False
    bomb_skips: int = 1
    shot_hero_out: bool = True
    documents_to_win: int = 1

    def deck(self, players: int) -> list[str]:
        """The unshuffled action deck for `players` seats: 64, 77 or 90 cards by default."""
        parts = [self.deck_4] + [self.deck_5_extra] * (players >= 5) + [self.deck_6_extra] * (players >= 6)
        return [card for part in parts for card, count in part for _ in range(count)]


def cast_for(players: int) -> tuple[str, ...]:
    """The characters in play: Adler, Gold, Sharpe, Townsend, then Kate Collins (5) and Tarasov (6)."""
    return CAST[:players]


def has_trait(character: str, trait: str, colour: str) -> bool:
    """The true answer to "do you have a `colour` `trait`?" for `character`."""
    return TRAIT_TABLE[character][trait] == colour
