"""English and French words for everything the front-ends show.

The rules came to us in French and many teachers teach in French, so every label of the interface and every
game term has both forms. A game adds its own terms with `register`; a missing French word falls back to
English rather than failing in front of a class.
"""

from __future__ import annotations

from collections.abc import Mapping

LANGUAGES = ("en", "fr")

_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "perspective": "Perspective", "omniscient": "Omniscient (teacher)", "spectator": "Spectator",
        "seat": "Seat", "timeline": "Step", "play": "Play", "bots_play": "Let the bots play",
        "your_move": "Your move", "waiting_for": "Waiting for", "game_over": "Game over",
        "winners": "Winners", "log": "Log", "knowledge": "Information flow", "show_flow": "Draw information flow",
        "not_your_turn": "It is not this seat's turn.", "replaying": "Replaying an earlier step: go to the last "
        "step to play.", "language": "Language", "new_game": "New game", "no_view": "Choose a seat to play.",
        "type_action": "or type an action", "hidden": "hidden", "table": "Table",
    },
    "fr": {
        "perspective": "Point de vue", "omniscient": "Omniscient (enseignant)", "spectator": "Spectateur",
        "seat": "Place", "timeline": "Étape", "play": "Jouer", "bots_play": "Faire jouer les robots",
        "your_move": "À vous de jouer", "waiting_for": "En attente de", "game_over": "Partie terminée",
        "winners": "Vainqueurs", "log": "Journal", "knowledge": "Flux d'information",
        "show_flow": "Dessiner le flux d'information", "not_your_turn": "Ce n'est pas le tour de cette place.",
        "replaying": "Relecture d'une étape passée : revenez à la dernière étape pour jouer.",
        "language": "Langue", "new_game": "Nouvelle partie", "no_view": "Choisissez une place pour jouer.",
        "type_action": "ou tapez une action", "hidden": "caché", "table": "Table",
    },
}


def check_language(language: str) -> str:
    """`language` if supported, else a clear error."""
    if language not in LANGUAGES:
        raise ValueError(f"Language {language!r} is not available; choose one of {', '.join(LANGUAGES)}.")
    return language


def register(words: Mapping[str, Mapping[str, str]]) -> None:
    """Add a game's terms: `{"en": {"driver": "Driver"}, "fr": {"driver": "Chauffeur"}}`."""
    for language, table in words.items():
        _WORDS[check_language(language)].update(table)


def tr(key: str, language: str = "en") -> str:
    """The word for `key` in `language`, falling back to English, then to the key itself."""
    return _WORDS[check_language(language)].get(key) or _WORDS["en"].get(key, key)
