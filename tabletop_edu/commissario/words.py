"""Commissario's words in English and French: colours, cards, phases, the knowledge panel, banners, move buttons.

Every term goes into the shared dictionary (`tabletop_edu.i18n`) under a `cm_` key when this module is
imported, so `tr` finds it in either language.
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
