"""English and French words for everything the front-ends show.

The rules came to us in French and many teachers teach in French, so every label of the interface and every
game term has both forms. This module holds the interface's own words; a game adds its terms with `register`
(from its `words` module). A missing French word falls back to English rather than failing in front of a
class. Words with `{name}` slots are filled with `str.format` by the caller. The core's own refusals (`refused.*`,
raised by `IllegalAction.because`) are worded here too: the core imports nothing above it and finds them through
its word hook (`find`).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

LANGUAGES = ("en", "fr")

_WORDS: dict[str, dict[str, str]] = {
    "en": {
        # the perspective picker and the panels' titles
        "perspective": "Perspective", "omniscient": "Teacher (sees everything)", "spectator": "Spectator",
        "seat": "Seat", "language": "Language", "table": "Table", "hidden": "hidden",
        "knowledge": "Knowledge", "knowledge_of_seat": "What {name} knows",
        "knowledge_of_spectator": "What a spectator knows", "knowledge_of_omniscient": "What each seat knows",
        "log": "Log", "log_of_seat": "Log as {name} saw it", "log_of_spectator": "Log as a spectator saw it",
        "log_of_omniscient": "Log of everything that happened",
        "show_flow": "Draw the information flow", "flow_of": "Information flow: {title}",
        # playing
        "play": "Play", "play_typed": "Play", "play_this": "Play this move", "back": "Back", "clear": "Start again",
        "your_move": "Your move", "choose_move": "Choose a move", "type_action": "or type a move",
        "notation": "Notation", "to_play": "To play: {names}",
        "not_your_turn": "It is not this seat's turn.", "no_view": "Choose a seat to play.",
        "replaying": "Replaying an earlier step: go back to live to play.",
        "error": "Something went wrong: {detail}",
        # the timeline
        "timeline": "Step", "first": "|◀ Start", "previous": "◀ Back", "next": "Next ▶", "live": "Live ▶|",
        "first_tip": "First step", "previous_tip": "Previous step", "next_tip": "Next step",
        "live_tip": "Back to the game as it is now", "step_of": "Step {step} of {last}",
        "step_live": "Step {step} (live)", "setup": "The deal: {events}", "nothing_seen": "nothing seen",
        # the projector and the bots
        "projector": "Projector", "projector_tip": "Large type, high contrast, only the table",
        "size": "Size", "bot_pace": "Bots", "pace_instant": "Instant", "pace_second": "1 move / s",
        "pace_step": "Step by step", "next_bot": "Next move ▶", "bots_play": "Let the bots play",
        "timed_pace_needs_kernel": "Timed play needs a running notebook kernel: step by step instead.",
        # the end
        "game_over": "Game over", "winner_is": "Game over. Winner: {names}",
        "winners_are": "Game over. Winners: {names}",
        "no_winner": "Game over. Nobody won.", "won": "won", "lost": "did not win", "result": "Result",
        "waiting_for": "Waiting for", "winners": "Winners", "new_game": "New game",
        # pass-and-play: one screen for the whole table
        "pass.to": "Pass to {name}",
        "pass.reveal": "I am {name} — show my hand",
        "pass.hint": "Everyone else looks away: only {name} taps the button.",
        "pass.screen_of": "{name}'s screen: for {name}'s eyes only", "pass.hide": "Hide my hand",
        "pass.public_log": "What everyone saw",
        "pass.own_log": "What you saw",
        # pictures of knowledge
        "flow.title": "Information flow", "flow.origin": "where the information comes from",
        "flow.full": "saw all of it", "flow.redacted": "saw only that it happened (redacted)",
        "flow.public": "public: everyone saw it (drawn once)",
        "flow.redacted_to_all": "everyone else saw only that it happened", "flow.journey": "journey of the {object}",
        "flow.steps": "steps {first} to {last}", "flow.left_out": "; {count} earlier events not drawn", "flow.nothing": "Nothing observed yet.", "flow.step": "step",
        "worlds.title": "Possible worlds", "object:table": "table", "object:spectator": "spectator",
        # the core's refusals (a game's are in its words.py)
        "refused.not_text": "An action is written as text, like 'take 3'; got {kind}.",
        "refused.empty": "An empty text is not an action.",
        "refused.arity": "{text} is not written right: expected '{notation}'.",
        "refused.not_a_number": "{word} is not a number ({what} expected).",
        "refused.not_a_choice": "{word} is not a {what}: choose one of {choices}.", "refused.a_seat": "a seat",
        "refused.game_over": "The game is over: no more actions.",
        "refused.together": "Seats {seats} act at the same time: say which one, with player=.",
        "refused.no_seat": "There is no seat {seat} at this table of {count}.",
        "refused.not_turn": "It is not {name}'s turn: waiting for {waiting}.",
        "refused.seat_named": "{name} (seat {seat})", "refused.or": "{first} or {second}",
        "refused.unreadable": "{action} could not be read as a move of {title}: {kind}: {error}",
        "refused.unwritable": "{action} is not a well-formed action: its text cannot be written ({kind}).",
        "refused.reads_as": "{action} is not a well-formed action: its text {text} reads as {move}.",
        "refused.field_types": "{action} is not a well-formed action: its fields have other types than its text "
                               "{text} reads back (a bool is not a number, 1.0 is not 1, a list is not a tuple).",
    },
    "fr": {
        "perspective": "Point de vue", "omniscient": "Enseignant (voit tout)", "spectator": "Spectateur",
        "seat": "Place", "language": "Langue", "table": "Table", "hidden": "caché",
        "knowledge": "Connaissances", "knowledge_of_seat": "Ce que sait {name}",
        "knowledge_of_spectator": "Ce que sait un spectateur", "knowledge_of_omniscient": "Ce que sait chaque place",
        "log": "Journal", "log_of_seat": "Journal vu par {name}", "log_of_spectator": "Journal vu par un spectateur",
        "log_of_omniscient": "Journal de tout ce qui s'est passé",
        "show_flow": "Dessiner le flux d'information", "flow_of": "Flux d'information : {title}",
        "play": "Jouer", "play_typed": "Jouer", "play_this": "Jouer ce coup", "back": "Retour",
        "clear": "Recommencer", "your_move": "Votre coup", "choose_move": "Choisissez un coup",
        "type_action": "ou tapez un coup", "notation": "Notation", "to_play": "À jouer : {names}",
        "not_your_turn": "Ce n'est pas le tour de cette place.", "no_view": "Choisissez une place pour jouer.",
        "replaying": "Relecture d'une étape passée : revenez au direct pour jouer.",
        "error": "Un problème est survenu : {detail}",
        "timeline": "Étape", "first": "|◀ Début", "previous": "◀ Précédent", "next": "Suivant ▶",
        "live": "Direct ▶|", "first_tip": "Première étape", "previous_tip": "Étape précédente",
        "next_tip": "Étape suivante", "live_tip": "Revenir à la partie en cours",
        "step_of": "Étape {step} sur {last}", "step_live": "Étape {step} (en direct)", "setup": "La donne : {events}",
        "nothing_seen": "rien de visible",
        "projector": "Projecteur", "projector_tip": "Gros caractères, fort contraste, seulement la table",
        "size": "Taille", "bot_pace": "Robots", "pace_instant": "Immédiat", "pace_second": "1 coup / s",
        "pace_step": "Pas à pas", "next_bot": "Coup suivant ▶", "bots_play": "Faire jouer les robots",
        "timed_pace_needs_kernel": "Le jeu minuté demande un noyau de notebook actif : pas à pas à la place.",
        "game_over": "Partie terminée", "winner_is": "Partie terminée. Vainqueur : {names}",
        "winners_are": "Partie terminée. Vainqueurs : {names}", "no_winner": "Partie terminée. Personne n'a gagné.",
        "won": "a gagné", "lost": "n'a pas gagné", "result": "Résultat",
        "waiting_for": "En attente de", "winners": "Vainqueurs", "new_game": "Nouvelle partie",
        "pass.to": "Passez à {name}",
        "pass.reveal": "Je suis {name} — montrer mon jeu",
        "pass.hint": "Les autres regardent ailleurs : le bouton est pour {name} seulement.",
        "pass.screen_of": "Écran de {name} : pour ses yeux seulement", "pass.hide": "Cacher mon jeu",
        "pass.public_log": "Ce que tout le monde a vu",
        "pass.own_log": "Ce que vous avez vu",
        "flow.title": "Flux d'information", "flow.origin": "d'où vient l'information",
        "flow.full": "a tout vu", "flow.redacted": "a seulement vu que cela a eu lieu (masqué)",
        "flow.public": "public : tout le monde l'a vu (dessiné une fois)",
        "flow.redacted_to_all": "les autres ont seulement vu que cela a eu lieu", "flow.journey": "trajet : {object}",
        "flow.steps": "étapes {first} à {last}",
        "flow.left_out": " ; {count} événements antérieurs non dessinés", "flow.nothing": "Rien n'a encore été observé.",
        "flow.step": "étape", "worlds.title": "Mondes possibles", "object:table": "table",
        "object:spectator": "spectateur",
        "refused.not_text": "Un coup s'écrit en texte, comme 'take 3' ; reçu : {kind}.",
        "refused.empty": "Un texte vide n'est pas un coup.",
        "refused.arity": "{text} n'est pas bien écrit : on attend '{notation}'.",
        "refused.not_a_number": "{word} n'est pas un nombre (on attend {what}).",
        "refused.not_a_choice": "{word} n'est pas un choix possible ({what}) : choisissez parmi {choices}.",
        "refused.a_seat": "une place",
        "refused.game_over": "La partie est terminée : plus aucun coup.",
        "refused.together": "Les places {seats} jouent en même temps : dites laquelle, avec player=.",
        "refused.no_seat": "Il n'y a pas de place {seat} à cette table de {count}.",
        "refused.not_turn": "Ce n'est pas le tour de {name} : on attend {waiting}.",
        "refused.seat_named": "{name} (place {seat})", "refused.or": "{first} ou {second}",
        "refused.unreadable": "{action} ne se lit pas comme un coup de {title} : {kind} : {error}",
        "refused.unwritable": "{action} n'est pas un coup bien formé : son texte ne peut pas s'écrire ({kind}).",
        "refused.reads_as": "{action} n'est pas un coup bien formé : son texte {text} se lit {move}.",
        "refused.field_types": "{action} n'est pas un coup bien formé : ses champs n'ont pas les types que son "
                               "texte {text} redonne (un booléen n'est pas un nombre, 1.0 n'est pas 1, une liste "
                               "n'est pas un tuple).",
    },
}


_VOWELS = frozenset("aeiouyàâäéèêëîïôöûüœæAEIOUYÀÂÄÉÈÊËÎÏÔÖÛÜŒÆ")


def elide(word: str, name: str) -> str:
    """French elision before a name: 'de' + 'Ann' is "d'Ann", 'que' + 'Eve' is "qu'Eve"; 'de Bob' stays."""
    return f"{word[:-1]}'{name}" if name[:1] in _VOWELS else f"{word} {name}"


def check_language(language: str) -> str:
    """`language` if supported, else a clear error."""
    if language not in LANGUAGES:
        raise ValueError(f"Language {language!r} is not available; choose one of {', '.join(LANGUAGES)}.")
    return language


def register(words: Mapping[str, Mapping[str, str]]) -> None:
    """Add a game's terms: `{"en": {"driver": "Driver"}, "fr": {"driver": "Chauffeur"}}`."""
    for language, table in words.items():
        _WORDS[check_language(language)].update(table)


def event_key(game: str, kind: str) -> str:
    """The key of a game's word for one of its event kinds: `event:tabletop_edu.commissario:reveal`, the game
    being `State.game`, so kinds that two games share by name ("reveal", "pass") can read differently."""
    return f"event:{game}:{kind}"


def register_event_kinds(game: str, words: Mapping[str, Mapping[str, str]]) -> None:
    """Add a game's words for its event kinds, shown on top of the information-flow pictures' columns:
    `{"fr": {"reveal": "révèle"}}`. A kind without a word is shown as the engine names it."""
    register({language: {event_key(game, kind): word for kind, word in table.items()}
              for language, table in words.items()})


def object_key(game: str | None, name: str) -> str:
    """The key of the word for a table object (an information-flow lane: "box", "deck"): a game's own
    (`object:tabletop_edu.mafia_de_cuba:box`), or, with `game` None, every game's ("table", "spectator")."""
    return f"object:{name}" if game is None else f"object:{game}:{name}"


def register_objects(game: str, words: Mapping[str, Mapping[str, str]]) -> None:
    """Add a game's words for its table objects, the lanes of the information-flow pictures:
    `{"fr": {"box": "boîte"}}`. An object without a word is shown as the engine names it."""
    register({language: {object_key(game, name): word for name, word in table.items()}
              for language, table in words.items()})


def tr(key: str, language: str = "en") -> str:
    """The word for `key` in `language`, falling back to English, then to the key itself."""
    return _WORDS[check_language(language)].get(key) or _WORDS["en"].get(key, key)


def find(key: str, language: str) -> str | None:
    """The word for `key` in `language`, falling back to English; None when no language has it (the core's
    word hook: a refusal whose key has no word keeps its English message)."""
    return _WORDS[check_language(language)].get(key) or _WORDS["en"].get(key)


def words_of(language: str) -> Mapping[str, str]:
    """Every word registered in `language`, read-only and without fallback: how a test finds words left in
    English."""
    return MappingProxyType(_WORDS[check_language(language)])


def word(key: str, language: str, fallback: str) -> str:
    """The word for `key`, or `fallback` (say, the engine's own name for a new phase) if none is registered:
    an engine may gain a phase before its renderer words it, and a page never shows a bare key."""
    found = tr(key, language)
    return fallback if found == key else found
