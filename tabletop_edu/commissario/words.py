"""Commissario's words in English and French: colours, cards, phases, the knowledge panel, banners, move buttons.

Every term goes into the shared dictionary (`tabletop_edu.i18n`) under a `cm_` key when this module is
imported, so `tr` finds it in either language. The refusals the engine raises (`IllegalAction.because`) are
worded here too, under `cm_refused_` keys; `rules.py` imports this module so they are known before any is raised.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..i18n import register, tr

register({
    "en": {
        "cm_title": "Commissario",
        "cm_red": "red", "cm_orange": "orange", "cm_yellow": "yellow", "cm_green": "green", "cm_blue": "blue",
        "cm_purple": "purple", "cm_of_red": "red", "cm_of_orange": "orange", "cm_of_yellow": "yellow",
        "cm_of_green": "green", "cm_of_blue": "blue", "cm_of_purple": "purple",
        "cm_commissaire": "commissaire", "cm_bandit": "bandit", "cm_innocent": "innocent",
        "cm_handcuffs": "handcuffs", "cm_bars": "turn order {position}", "cm_bonus": "bonus {value}",
        "cm_no_bonus": "no bonus", "cm_double": "2x",
        "cm_round": "Round", "cm_pile": "Pile", "cm_characters": "{count} characters", "cm_empty": "empty",
        "cm_points": "{points} points", "cm_point": "1 point", "cm_arrested": "Arrested",
        "cm_released": "released {card}", "cm_released_none": "released no one", "cm_none": "none",
        "cm_has_chosen": "has chosen", "cm_revealed": "revealed {colours}", "cm_then": "then",
        "cm_your_pick": "Your secret pick", "cm_still_hidden": "Still to reveal: {colours}.",
        "cm_game_over": "Game over", "cm_bonus_cards": "Bonus cards", "cm_spectator": "Spectator",
        "cm_secret_picks": "Teacher only: the secret picks and the pile", "cm_none_yet": "none yet",
        "cm_pile_next": "Next cards of the pile", "cm_phase": "Phase",
        "cm_phase_release": "releases (bids for turn order)", "cm_phase_pick": "secret pick",
        "cm_phase_first_reveal": "first reveals", "cm_phase_second_reveal": "second reveals",
        "cm_phase_over": "end of the game", "cm_not_chosen": "not chosen yet", "cm_hidden_pick": "chosen, hidden",
        "cm_knows": "knows", "cm_of_pick": "pick of", "cm_own_hidden": "knows its own pick",
        "cm_own_rest": "(it knows which)",
        "cm_knowledge_title": "Who knows what of this round's picks",
        "cm_knowledge_for": "What {name} knows of this round's picks",
        "cm_knowledge_public": "What the public knows of this round's picks",
        "cm_knowledge_all": "What each player knows of this round's picks",
        "cm_knowledge_note": "Rows: who knows; columns: whose pick. Before the reveals each player knows only "
        "their own pick; every reveal is public, so afterwards everybody knows the same.",
        "cm_log": "Log", "cm_table": "On the table", "cm_score_table": "Points per colour, with the bonus cards",
        "cm_total": "Total", "cm_bonus_row": "Bonus card", "cm_tie": "tie: nobody",
        "cm_picks_by_round": "Every round's picks", "cm_why": "{names}: the most points ({points})",
        "cm_why_tie_break": "{names}: the most points ({points}), then the fewest innocents arrested",
        "cm_you_won_bonus": "+{bonus} bonus",
        # banners
        "cm_do_release": "{name}: release a prisoner to bid for turn order, or no one",
        "cm_do_pick": "{name}: pick two commissaires in secret",
        "cm_do_first_reveal": "{name}: reveal a commissaire and arrest",
        "cm_do_second_reveal": "{name}: reveal the second commissaire and arrest",
        "cm_your_turn": "Your turn \u2014 {what}",
        # move buttons
        "cm_m_release": "Release a prisoner (bid for turn order)", "cm_m_release_none": "No one (bid 0)",
        "cm_m_pick": "Pick two commissaires", "cm_m_double": "the 2x card (twice {colour})",
        "cm_m_reveal": "Reveal a commissaire", "cm_m_reveal_colour": "{colour} commissaire",
        # refusals, and the terms they name
        "cm_card": "{colour}{value:+d}", "cm_what_colour": "colour", "cm_what_value": "a character's value",
        "cm_a_pick": "A pick", "cm_a_reveal": "A reveal",
        "cm_round_tree": "Commissario, a two-player round from its picks (laid out: {laid_out})",
        "cm_tree_reveal": "reveal {colour}",
        "cm_now_release": "release step", "cm_now_pick": "secret pick", "cm_now_first_reveal": "first reveal",
        "cm_now_second_reveal": "second reveal", "cm_now_over": "end of the game",
        "cm_refused_colour_field": "{action}: a colour is a text like 'red', not {value}.",
        "cm_refused_pick_field": "A pick holds a tuple of two colours, like ('red', 'blue'), not {value}.",
        "cm_refused_card_notation": "{word} is not a character: write a colour and a signed value, like red+3 or "
                                    "red-3.",
        "cm_refused_card_value": "{word}: characters are worth +1 to +{most} (bandits) or -1 to -{most} "
                                 "(innocents), written with one digit.",
        "cm_refused_one_commissaire": "You have only one {colour} commissaire: to arrest twice in {colour}, write "
                                      "'pick {notation} 2x' (your 2x card).",
        "cm_refused_not_an_action": "{text} is not a Commissario action: write {notation}.",
        "cm_refused_card_type": "{card} is not a character: write a colour and a whole number, like ('red', 3) "
                                "for red+3 or ('red', -3) for red-3.",
        "cm_refused_card_range": "{card} is not a character: colours are {colours} and values go from 1 to {most} "
                                 "(bandits) or -1 to -{most} (innocents).",
        "cm_refused_reveal_now": "Commissaires are revealed after everyone picked; now is the {phase}.",
        "cm_refused_reveal_order": "With reveal_choice off you must reveal {colour} first (R4.2).",
        "cm_refused_reveal_unpicked": "You cannot reveal {colour}: you did not pick a {colour} commissaire "
                                      "(still hidden: {hidden}).",
        "cm_refused_release_now": "Releasing is done at the start of a round; now is the {phase}.",
        "cm_refused_release_unheld": "You cannot release {card}: you do not hold it. You can only release a "
                                     "character you arrested.",
        "cm_refused_pick_now": "Commissaires are picked after the releases; now is the {phase}.",
        "cm_refused_double_used": "{action} is not a pick: you played your 2x card in an earlier round, and it is "
                                  "played once a game (option double_card_each_round off), so choose two different "
                                  "colours.",
        "cm_refused_no_double": "{action} is not a pick: this game is played without the 2x card (option "
                                "double_card), so choose two different colours.",
    },
    "fr": {
        "cm_title": "Commissario",
        "cm_red": "rouge", "cm_orange": "orange", "cm_yellow": "jaune", "cm_green": "vert", "cm_blue": "bleu",
        "cm_purple": "mauve", "cm_of_red": "du rouge", "cm_of_orange": "de l'orange", "cm_of_yellow": "du jaune",
        "cm_of_green": "du vert", "cm_of_blue": "du bleu", "cm_of_purple": "du mauve",
        "cm_commissaire": "commissaire", "cm_bandit": "bandit", "cm_innocent": "citoyen innocent",
        "cm_handcuffs": "menottes", "cm_bars": "ordre du tour {position}", "cm_bonus": "bonus {value}",
        "cm_no_bonus": "pas de bonus", "cm_double": "2x",
        "cm_round": "Manche", "cm_pile": "Pioche", "cm_characters": "{count} personnages", "cm_empty": "vide",
        "cm_points": "{points} points", "cm_point": "1 point", "cm_arrested": "Arrêtés",
        "cm_released": "a libéré {card}", "cm_released_none": "n'a libéré personne", "cm_none": "personne",
        "cm_has_chosen": "a choisi", "cm_revealed": "a révélé {colours}", "cm_then": "puis",
        "cm_your_pick": "Votre choix secret", "cm_still_hidden": "Encore à révéler : {colours}.",
        "cm_game_over": "Partie terminée", "cm_bonus_cards": "Cartes bonus", "cm_spectator": "Spectateur",
        "cm_secret_picks": "Pour l'enseignant seulement : les choix secrets et la pioche",
        "cm_none_yet": "aucun pour l'instant", "cm_pile_next": "Prochaines cartes de la pioche", "cm_phase": "Phase",
        "cm_phase_release": "libérations (enchères pour l'ordre du tour)", "cm_phase_pick": "choix secret",
        "cm_phase_first_reveal": "premières révélations", "cm_phase_second_reveal": "secondes révélations",
        "cm_phase_over": "fin de la partie", "cm_not_chosen": "pas encore choisi", "cm_hidden_pick": "choisi, caché",
        "cm_knows": "sait", "cm_of_pick": "choix de", "cm_own_hidden": "connaît son propre choix",
        "cm_own_rest": "(sait lequel)",
        "cm_knowledge_title": "Qui sait quoi des choix de cette manche",
        "cm_knowledge_for": "Ce que {name} sait des choix de cette manche",
        "cm_knowledge_public": "Ce que le public sait des choix de cette manche",
        "cm_knowledge_all": "Ce que chaque joueur sait des choix de cette manche",
        "cm_knowledge_note": "Lignes : qui sait ; colonnes : le choix de qui. Avant les révélations, chaque "
        "joueur ne connaît que son propre choix ; chaque révélation est publique, ensuite tout le monde sait la "
        "même chose.",
        "cm_log": "Journal", "cm_table": "Sur la table",
        "cm_score_table": "Points par couleur, avec les cartes bonus", "cm_total": "Total",
        "cm_bonus_row": "Carte bonus", "cm_tie": "égalité : personne",
        "cm_picks_by_round": "Les choix de chaque manche", "cm_why": "{names} : le plus de points ({points})",
        "cm_why_tie_break": "{names} : le plus de points ({points}), puis le moins d'innocents arrêtés",
        "cm_you_won_bonus": "bonus +{bonus}",
        "cm_do_release": "{name} : libérer un prisonnier pour miser sur l'ordre du tour, ou personne",
        "cm_do_pick": "{name} : choisir deux commissaires en secret",
        "cm_do_first_reveal": "{name} : révéler un commissaire et arrêter",
        "cm_do_second_reveal": "{name} : révéler le second commissaire et arrêter",
        "cm_your_turn": "À vous \u2014 {what}",
        "cm_m_release": "Libérer un prisonnier (mise pour l'ordre du tour)",
        "cm_m_release_none": "Personne (mise 0)",
        "cm_m_pick": "Choisir deux commissaires", "cm_m_double": "la carte 2x (deux fois {colour})",
        "cm_m_reveal": "Révéler un commissaire", "cm_m_reveal_colour": "commissaire {colour}",
        "cm_card": "{colour} {value:+d}", "cm_what_colour": "couleur", "cm_what_value": "la valeur d'un personnage",
        "cm_a_pick": "Un choix", "cm_a_reveal": "Une révélation",
        "cm_round_tree": "Commissario, une manche à deux joueurs depuis les choix (posés : {laid_out})",
        "cm_tree_reveal": "révèle {colour}",
        "cm_now_release": "libérations", "cm_now_pick": "choix secret",
        "cm_now_first_reveal": "première révélation",
        "cm_now_second_reveal": "seconde révélation", "cm_now_over": "fin de la partie",
        "cm_refused_colour_field": "{action} : une couleur est un texte comme 'red', pas {value}.",
        "cm_refused_pick_field": "Un choix contient un tuple de deux couleurs, comme ('red', 'blue'), pas {value}.",
        "cm_refused_card_notation": "{word} n'est pas un personnage : écrivez une couleur et une valeur signée, "
                                    "comme red+3 ou red-3.",
        "cm_refused_card_value": "{word} : les personnages valent de +1 à +{most} (bandits) ou de -1 à -{most} "
                                 "(innocents), écrits avec un seul chiffre.",
        "cm_refused_one_commissaire": "Vous n'avez qu'un commissaire {colour} : pour arrêter deux fois en "
                                      "{colour}, écrivez 'pick {notation} 2x' (votre carte 2x).",
        "cm_refused_not_an_action": "{text} n'est pas un coup de Commissario : écrivez {notation}.",
        "cm_refused_card_type": "{card} n'est pas un personnage : écrivez une couleur et un nombre entier, comme "
                                "('red', 3) pour red+3 ou ('red', -3) pour red-3.",
        "cm_refused_card_range": "{card} n'est pas un personnage : les couleurs sont {colours} et les valeurs vont "
                                 "de 1 à {most} (bandits) ou de -1 à -{most} (innocents).",
        "cm_refused_reveal_now": "Les commissaires sont révélés une fois que tout le monde a choisi ; l'étape "
                                 "en cours : {phase}.",
        "cm_refused_reveal_order": "Avec reveal_choice désactivée, vous devez d'abord révéler {colour} (R4.2).",
        "cm_refused_reveal_unpicked": "Vous ne pouvez pas révéler {colour} : vous n'avez pas choisi de commissaire "
                                      "{colour} (encore cachés : {hidden}).",
        "cm_refused_release_now": "On libère au début d'une manche ; l'étape en cours : {phase}.",
        "cm_refused_release_unheld": "Vous ne pouvez pas libérer {card} : vous ne le détenez pas. Vous ne pouvez "
                                     "libérer qu'un personnage que vous avez arrêté.",
        "cm_refused_pick_now": "Les commissaires sont choisis après les libérations ; l'étape en cours : {phase}.",
        "cm_refused_double_used": "{action} n'est pas un choix possible : vous avez joué votre carte 2x lors d'une "
                                  "manche précédente, et elle ne se joue qu'une fois par partie (option "
                                  "double_card_each_round désactivée) : choisissez deux couleurs différentes.",
        "cm_refused_no_double": "{action} n'est pas un choix possible : cette partie se joue sans la carte 2x "
                                "(option double_card) : choisissez deux couleurs différentes.",
    },
})


def colour_word(colour: str, language: str = "en") -> str:
    """A colour's name in `language` (purple is "mauve" in French, as in the seed)."""
    return tr(f"cm_{colour}", language)


def split_card(text: str) -> tuple[str, int]:
    """`red+3` as (colour, value): ("red", 3)."""
    colour = text.rstrip("+-0123456789")
    return colour, int(text[len(colour):])


def card_word(text: str, language: str = "en") -> str:
    """`red+3` as people read it: 'red +3', 'rouge \u22123' (a true minus sign)."""
    colour, value = split_card(text)
    return f"{colour_word(colour, language)} {value:+d}".replace("-", "\u2212")


def pick_word(colours: Sequence[str], language: str = "en") -> str:
    """A pick as people say it: `red + blue`, or `yellow + 2x` for the 2x card."""
    first, second = colours
    if first == second:
        return f"{colour_word(first, language)} + {tr('cm_double', language)}"
    return f"{colour_word(first, language)} + {colour_word(second, language)}"
