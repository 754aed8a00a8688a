"""Get Adler's words in English and French: cards, traits, colours, characters, phases, banners and move buttons.

Every term goes into the shared dictionary (`tabletop_edu.i18n`) under a prefixed key (`card.X`, `trait.X`,
`colour.X`, `character.X`, `adler.*`) when this module is imported, so `tr` finds it in either language. The
refusals the engine raises (`IllegalAction.because`) are worded here too, under `adler.refused.*`; a card they
name is its notation in English (what a player types) and its name in French (`adler.refused.card.X`).
"""

from __future__ import annotations

from ..i18n import register
from .rules import TRAIT_COLOURS, TRAIT_TABLE

_CARD_NAMES = {
    "en": {"document": "TOP-SECRET DOCUMENT", "question": "QUESTION MARK", "magnify": "MAGNIFYING GLASS",
           "binoculars": "BINOCULARS", "arrest": "ARREST", "escape": "escape", "disguise": "disguise",
           "bomb": "bomb", "pistol": "pistol", "plain": "plain card"},
    "fr": {"document": "DOCUMENT TOP-SECRET", "question": "POINT D'INTERROGATION", "magnify": "LOUPE",
           "binoculars": "PAIRE DE JUMELLES", "arrest": "ARRESTATION", "escape": "s'échapper",
           "disguise": "déguisement", "bomb": "bombe", "pistol": "revolver", "plain": "simple défausse"},
}
#: A card in a sentence, with its article: "Ann draws a bomb." / "Ann pioche une bombe."
_A_CARD = {
    "en": {"document": "a top-secret document", "question": "a question mark", "magnify": "a magnifying glass",
           "binoculars": "a pair of binoculars", "arrest": "an arrest card", "escape": "an escape card",
           "disguise": "a disguise", "bomb": "a bomb", "pistol": "a pistol", "plain": "a plain card"},
    "fr": {"document": "un document top-secret", "question": "un point d'interrogation", "magnify": "une loupe",
           "binoculars": "une paire de jumelles", "arrest": "une carte arrestation",
           "escape": "une carte s'échapper", "disguise": "un déguisement", "bomb": "une bombe",
           "pistol": "un revolver", "plain": "une carte sans effet (simple défausse)"},
}
_TRAIT_NAMES = {"en": {"hat": "hat", "hair": "hair", "eyes": "eyes", "coat": "coat"},
                "fr": {"hat": "chapeau", "hair": "cheveux", "eyes": "yeux", "coat": "manteau"}}
_COLOUR_NAMES = {
    "en": {c: c for colours in TRAIT_COLOURS.values() for c in colours},
    "fr": {"black": "noir", "brown": "marron", "grey": "gris", "blond": "blond", "red": "roux", "blue": "bleu",
           "green": "vert", "beige": "beige"},
}
#: French colours agree with the trait: "les cheveux noirs", "les yeux verts" (marron, roux, gris: invariable).
FRENCH_PLURAL = {"black": "noirs", "blond": "blonds", "red": "roux", "blue": "bleus", "green": "verts",
                  "brown": "marron"}
_CHARACTER_NAMES = {"en": {c: c for c in TRAIT_TABLE}, "fr": {c: c for c in TRAIT_TABLE}}
_CHARACTER_NAMES["fr"]["Agent Tarasov"] = "Agent Tarassov"
_PHASES = {
    "en": {"turn": "play a card", "skip": "skips this turn", "answer": "answer the question",
           "confront": "Adler answers the arrest", "escape": "stop the escape?", "duel": "pistol duel",
           "over": "game over"},
    "fr": {"turn": "jouer une carte", "skip": "passe son tour", "answer": "répondre à la question",
           "confront": "Adler répond à l'arrestation", "escape": "arrêter la fuite ?", "duel": "duel au revolver",
           "over": "partie terminée"},
}
#: Why a seat skips its turn (the engine's `SKIP_REASONS`, and "no_cards"), in the seed's words where it has
#: some: « sonné » for a bomb (R6.4), « éliminé pour un tour » for a wrong arrest (R5.3). First the short label
#: of the seat to act, then the banner.
_SKIPS = {
    "en": {"stunned": ("stunned by the bomb: skip", "{name} is stunned by the bomb and skips this turn"),
           "wrong_arrest": ("eliminated for one turn", "{name} is eliminated for one turn (wrong arrest)"),
           "duel": ("lost the duel: skip", "{name} lost the pistol duel and skips this turn"),
           "no_cards": ("no card: skip", "{name} has no card and passes this turn")},
    "fr": {"stunned": ("sonné : passe son tour", "{name} est sonné par la bombe et passe son tour"),
           "wrong_arrest": ("éliminé pour un tour", "{name} est éliminé pour un tour (mauvaise arrestation)"),
           "duel": ("duel perdu : passe son tour", "{name} a perdu le duel au revolver et passe son tour"),
           "no_cards": ("sans carte : passe son tour", "{name} n'a plus de carte et passe son tour")},
}
_UI = {
    "en": {"adler.title": "Get Adler", "adler.you_are": "You are {character}.",
           "adler.you_are_adler": "You are Adler, the double agent: survive seven hours with a top-secret "
           "document in hand.", "adler.your_traits": "Your traits", "adler.your_hand": "Your hand",
           "adler.hour": "Hour", "adler.hour_of": "{hour} of {hours}", "adler.deck": "Deck",
           "adler.cards_count": "{count} cards", "adler.card_count": "1 card", "adler.no_card": "no card",
           "adler.arrests_from": "Arrests from hour", "adler.character": "Character", "adler.name": "Player",
           "adler.known_cards": "known cards", "adler.out": "out of the game", "adler.skips": "skips {count}",
           "adler.not_adler": "not Adler", "adler.none": "none", "adler.won_adler": "Adler wins.",
           "adler.won_heroes": "The heroes win.", "adler.answers": "Questions and answers",
           "adler.no_answers": "No question answered yet.", "adler.yes": "yes", "adler.no": "no",
           "adler.asked": "asked", "adler.hand": "Hand", "adler.next": "Next cards of the deck",
           "adler.candidates": "Who can be Adler?", "adler.candidates_for": "Who can be Adler, for {name}?",
           "adler.candidates_public": "Who can be Adler, for the public?",
           "adler.candidates_all": "Who can be Adler, for each player?",
           "adler.world": "possible world", "adler.worlds": "possible worlds", "adler.suspect": "Could be Adler",
           "adler.chance": "Chance", "adler.everyone": "Row: who wonders; column: who might be Adler.",
           "adler.discards": "Discard pile", "adler.traits": "Who has which traits (the aid sheet)",
           "adler.question": "Question", "adler.answer": "Answer", "adler.truth": "True traits",
           "adler.asker": "Asked by", "adler.target": "Answered by", "adler.side": "Side",
           "adler.answers_column": "Answers", "adler.adler": "Adler",
           "adler.hero": "hero", "adler.who_was_who": "Who was who", "adler.answers_truth":
           "Every answer against the true traits", "adler.secrets": "Teacher only: characters and hands",
           "adler.question_now": "The question", "adler.documents": "top-secret documents in Adler's hand",
           # banners
           "adler.do_turn": "{name}: play a card", "adler.do_skip": "{name} skips this turn",
           "adler.do_answer": "{name} must answer {asker}: \u201c{question}\u201d",
           "adler.do_confront": "{name} (Adler) must answer the arrest by {accuser}",
           "adler.do_escape": "Adler is escaping: {name} may stop it with an arrest card",
           "adler.do_duel": "Pistol duel between Adler and {accuser}: {name} to shoot",
           "adler.your_turn": "Your turn \u2014 {what}",
           # move buttons
           "adler.m_discard": "Discard a card", "adler.m_ask": "Ask a question",
           "adler.m_answer": "Answer \u201c{question}\u201d", "adler.m_answer_plain": "Answer",
           "adler.m_magnify": "Look at a hand (magnifying glass)", "adler.m_binoculars": "Binoculars: swap a card",
           "adler.m_give": "Give a card", "adler.m_arrest": "Arrest", "adler.m_respond": "Play a card",
           "adler.m_surrender": "Surrender", "adler.m_pass": "Pass", "adler.m_pass_escape": "Let Adler escape",
           "adler.m_pass_duel": "Give up the duel", "adler.m_skip": "Skip this turn", "adler.m_yes": "Yes",
           "adler.m_no": "No"},
    "fr": {"adler.title": "Get Adler", "adler.you_are": "Vous êtes {character}.",
           "adler.you_are_adler": "Vous êtes Adler, l'agent double : tenez sept heures avec un document "
           "top-secret en main.", "adler.your_traits": "Vos signes distinctifs", "adler.your_hand": "Votre main",
           "adler.hour": "Heure", "adler.hour_of": "{hour} sur {hours}", "adler.deck": "Pioche",
           "adler.cards_count": "{count} cartes", "adler.card_count": "1 carte", "adler.no_card": "aucune carte",
           "adler.arrests_from": "Arrestations dès l'heure", "adler.character": "Personnage",
           "adler.name": "Joueur", "adler.known_cards": "cartes connues", "adler.out": "hors jeu",
           "adler.skips": "passe {count} tour(s)", "adler.not_adler": "pas Adler", "adler.none": "aucune",
           "adler.won_adler": "Adler gagne.", "adler.won_heroes": "Les héros gagnent.",
           "adler.answers": "Questions et réponses", "adler.no_answers": "Aucune question n'a encore eu de réponse.",
           "adler.yes": "oui", "adler.no": "non", "adler.asked": "a demandé", "adler.hand": "Main",
           "adler.next": "Prochaines cartes de la pioche", "adler.candidates": "Qui peut être Adler ?",
           "adler.candidates_for": "Qui peut être Adler, pour {name} ?",
           "adler.candidates_public": "Qui peut être Adler, pour le public ?",
           "adler.candidates_all": "Qui peut être Adler, pour chaque joueur ?",
           "adler.world": "monde possible", "adler.worlds": "mondes possibles", "adler.suspect": "Peut être Adler",
           "adler.chance": "Chance", "adler.everyone": "Ligne : qui se demande ; colonne : qui pourrait être Adler.",
           "adler.discards": "Défausse", "adler.traits": "Qui a quels signes distinctifs (la feuille d'aide)",
           "adler.question": "Question", "adler.answer": "Réponse", "adler.truth": "Vrais signes",
           "adler.asker": "Posée par", "adler.target": "Réponse de", "adler.side": "Camp",
           "adler.answers_column": "Réponses", "adler.adler": "Adler", "adler.hero": "héros",
           "adler.who_was_who": "Qui était qui",
           "adler.answers_truth": "Chaque réponse face aux vrais signes distinctifs",
           "adler.secrets": "Pour l'enseignant seulement : personnages et mains",
           "adler.question_now": "La question", "adler.documents": "documents top-secret dans la main d'Adler",
           "adler.do_turn": "{name} : jouer une carte", "adler.do_skip": "{name} passe son tour",
           "adler.do_answer": "{name} doit répondre à {asker} : « {question} »",
           "adler.do_confront": "{name} (Adler) doit répondre à l'arrestation par {accuser}",
           "adler.do_escape": "Adler s'échappe : {name} peut l'arrêter avec une carte arrestation",
           "adler.do_duel": "Duel au revolver entre Adler et {accuser} : {name} tire",
           "adler.your_turn": "À vous \u2014 {what}",
           "adler.m_discard": "Défausser une carte", "adler.m_ask": "Poser une question",
           "adler.m_answer": "Répondre à « {question} »", "adler.m_answer_plain": "Répondre",
           "adler.m_magnify": "Regarder une main (loupe)", "adler.m_binoculars": "Jumelles : échanger une carte",
           "adler.m_give": "Donner une carte", "adler.m_arrest": "Arrêter", "adler.m_respond": "Jouer une carte",
           "adler.m_surrender": "Se rendre", "adler.m_pass": "Passer", "adler.m_pass_escape": "Laisser fuir Adler",
           "adler.m_pass_duel": "Abandonner le duel", "adler.m_skip": "Passer ce tour", "adler.m_yes": "Oui",
           "adler.m_no": "Non"},
}

#: The engine's refusals and the terms they name.
_REFUSALS = {
    "en": {"not_an_action": "{text} is not a Get Adler action: write {notation}.",
           "not_an_action_value": "'{action}' is not a Get Adler action.",
           "what.card": "card", "what.trait": "trait", "what.colour": "{trait} colour", "what.answer": "answer",
           "target_self": "You cannot target yourself: choose another player.",
           "target_out": "{name} is out of the game.",
           "need": "You have no {card} card in hand to {why}.",
           "to.give": "give to {whom}", "to.respond": "respond with", "to.discard": "discard",
           "to.ask": "ask a question", "to.magnify": "look at a hand", "to.binoculars": "use binoculars",
           "to.arrest": "arrest someone",
           "skip_only": "{why}: you can only 'skip'.",
           "skip.stunned": "You are stunned by the bomb this turn",
           "skip.wrong_arrest": "You are out for one turn after a wrong arrest",
           "skip.duel": "You lost the pistol duel and miss this turn", "skip.no_cards": "You have no card left",
           "skip_none": "You have no turn to miss: you cannot skip.",
           "answer_now": "You were asked a question: reply 'answer yes' or 'answer no'.",
           "hero_truth": "Heroes must tell the truth: that answer is a lie.",
           "no_question": "Nobody asked you a question: there is nothing to answer.",
           "give_now": "You took a card with binoculars: now 'give CARD' to {whom}.",
           "give_later": "You give a card only after taking one with binoculars ('binoculars K').",
           "confrontation_only": "'{action}' is only for a confrontation; now play or discard a card.",
           "arrested": "Adler is being arrested: 'respond escape|disguise|bomb|pistol' or 'surrender'.",
           "respond_only": "Now you may only 'respond {needed}' (to {what}) or 'pass'.",
           "stop_escape": "stop the escape", "shoot_back": "shoot back",
           "no_card": "You have no {card} card in hand.",
           "nothing_to_take": "{name} has no card to take.",
           "arrest_hours": "Arrests are allowed from hour {first} to hour {last}: it is hour {hour}."},
    "fr": {"not_an_action": "{text} n'est pas un coup de Get Adler : écrivez {notation}.",
           "not_an_action_value": "'{action}' n'est pas un coup de Get Adler.",
           "what.card": "carte", "what.trait": "signe distinctif", "what.colour": "couleur de {trait}",
           "what.answer": "réponse",
           "target_self": "Vous ne pouvez pas vous viser vous-même : choisissez un autre joueur.",
           "target_out": "{name} est hors jeu.",
           "need": "Vous n'avez pas de carte {card} en main pour {why}.",
           "to.give": "donner à {whom}", "to.respond": "répondre", "to.discard": "la défausser",
           "to.ask": "poser une question", "to.magnify": "regarder une main", "to.binoculars": "utiliser des jumelles",
           "to.arrest": "arrêter quelqu'un",
           "skip_only": "{why} : vous pouvez seulement 'skip'.",
           "skip.stunned": "Vous êtes sonné par la bombe ce tour-ci",
           "skip.wrong_arrest": "Vous êtes éliminé pour un tour après une mauvaise arrestation",
           "skip.duel": "Vous avez perdu le duel au revolver et passez ce tour",
           "skip.no_cards": "Vous n'avez plus de carte",
           "skip_none": "Vous n'avez pas de tour à passer : vous ne pouvez pas faire 'skip'.",
           "answer_now": "On vous a posé une question : répondez 'answer yes' ou 'answer no'.",
           "hero_truth": "Les héros disent la vérité : cette réponse est un mensonge.",
           "no_question": "Personne ne vous a posé de question : il n'y a rien à répondre.",
           "give_now": "Vous avez pris une carte avec les jumelles : maintenant 'give CARD' à {whom}.",
           "give_later": "On ne donne une carte qu'après en avoir pris une avec les jumelles ('binoculars K').",
           "confrontation_only": "'{action}' ne sert que dans une confrontation ; maintenant, jouez ou défaussez "
                                 "une carte.",
           "arrested": "Adler est en état d'arrestation : 'respond escape|disguise|bomb|pistol' ou 'surrender'.",
           "respond_only": "Vous ne pouvez maintenant que 'respond {needed}' (pour {what}) ou 'pass'.",
           "stop_escape": "arrêter la fuite", "shoot_back": "riposter",
           "no_card": "Vous n'avez pas de carte {card} en main.",
           "nothing_to_take": "{name} n'a aucune carte à prendre.",
           "arrest_hours": "Les arrestations sont permises de l'heure {first} à l'heure {last} : il est "
                           "l'heure {hour}."},
}
_REFUSALS["en"].update({f"card.{k}": k for k in _CARD_NAMES["en"]})
_REFUSALS["fr"].update({f"card.{k}": v for k, v in _CARD_NAMES["fr"].items()})


def _register_terms() -> None:
    """Put every term in the shared dictionary under a prefixed key (card.X, trait.X, colour.X...)."""
    for language in ("en", "fr"):
        words: dict[str, str] = dict(_UI[language])
        words.update({f"card.{k}": v for k, v in _CARD_NAMES[language].items()})
        words.update({f"a_card.{k}": v for k, v in _A_CARD[language].items()})
        words.update({f"trait.{k}": v for k, v in _TRAIT_NAMES[language].items()})
        words.update({f"colour.{k}": v for k, v in _COLOUR_NAMES[language].items()})
        words.update({f"character.{k}": v for k, v in _CHARACTER_NAMES[language].items()})
        words.update({f"adler.phase.{k}": v for k, v in _PHASES[language].items()})
        words.update({f"adler.skip.{k}": label for k, (label, _) in _SKIPS[language].items()})
        words.update({f"adler.do_skip.{k}": banner for k, (_, banner) in _SKIPS[language].items()})
        words.update({f"adler.refused.{k}": v for k, v in _REFUSALS[language].items()})
        register({language: words})


_register_terms()
