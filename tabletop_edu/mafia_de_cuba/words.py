"""Mafia de Cuba's words, in English and French: the vocabulary of its pages, and how a take, a box, a token,
a role, a question and a testimony are said.

Every key is registered with `i18n` when this module is imported (the renderer and the knowledge panel import
it, and `actions.py`, so the refusals the engine raises with `IllegalAction.because` are worded under their
`mdc_refused_` keys before any is raised); the log lines, which word whole events, are the renderer's
(`render.event_text`). A token a refusal names is its notation in English (what a player types, "fbi") and its
name in French (`mdc_token.X`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ..i18n import register, tr, word
from .rules import TOKEN_ORDER

register({
    "en": {
        "mdc_title": "Mafia de Cuba", "mdc_godfather": "Godfather", "mdc_the_godfather": "the Godfather",
        "mdc_role_thief": "Thief", "mdc_role_street-kid": "Street Kid", "mdc_role_loyal": "Loyal Henchman",
        "mdc_role_fbi": "FBI Agent", "mdc_role_cia": "CIA Agent", "mdc_role_driver": "Driver",
        "mdc_role_cleaner": "Cleaner", "mdc_role_godfather": "Godfather",
        "mdc_tokens_loyal": "Loyal Henchmen", "mdc_tokens_fbi": "FBI Agents", "mdc_tokens_cia": "CIA Agents",
        "mdc_tokens_driver": "Drivers", "mdc_tokens_cleaner": "Cleaners",
        "mdc_a_token_loyal": "a Loyal Henchman token", "mdc_a_token_fbi": "an FBI Agent token",
        "mdc_a_token_cia": "a CIA Agent token", "mdc_a_token_driver": "a Driver token",
        "mdc_a_token_cleaner": "a Cleaner token", "mdc_token_button": "{token} token",
        "mdc_diamond": "diamond", "mdc_diamonds": "diamonds", "mdc_no_diamond": "no diamond",
        "mdc_no_token": "no token", "mdc_nothing": "nothing", "mdc_box": "Cigar box",
        "mdc_empty_pockets": "Empty your pockets!", "mdc_phase": "Phase",
        "mdc_phase_hide": "the Godfather hides diamonds",
        "mdc_phase_set-aside": "the first taker may set a token aside",
        "mdc_phase_take": "the box goes round", "mdc_phase_question": "interrogation",
        "mdc_phase_answer": "waiting for an answer", "mdc_phase_floor": "the floor is open",
        "mdc_phase_cleaner": "the Cleaner may shoot", "mdc_phase_over": "game over",
        "mdc_questions_left": "Questions left", "mdc_jokers_left": "Jokers left",
        "mdc_recovered": "Diamonds recovered", "mdc_tokens_in_game": "Tokens in the box",
        "mdc_holds_box": "holds the box", "mdc_joker": "joker", "mdc_out": "out", "mdc_showed": "showed",
        "mdc_wins": "WINS", "mdc_to_play": "to play", "mdc_you_hid": "You hid {diamonds}.", "mdc_you_hid_none": "You hid no diamond.",
        "mdc_you_opened": "When you opened the box: {box}.", "mdc_you_set_aside": "You set aside {token}.",
        "mdc_you_set_nothing_aside": "You set nothing aside.", "mdc_you_took": "You took {take}.",
        "mdc_you_are": "So you are: {role}.", "mdc_came_back": "The box came back with {box}.",
        "mdc_box_with": "With {name}", "mdc_box_with_godfather": "With the Godfather",
        "mdc_box_now": "Inside now: {box}", "mdc_takers_done": "{done} of {total} have taken",
        "mdc_statements": "What was said", "mdc_no_statement": "Nobody has said anything yet.",
        "mdc_box_text": "{diamonds}; tokens: {tokens}", "mdc_box_text_no_token": "{diamonds}, no token",
        "mdc_secrets": "Teacher only: the secrets", "mdc_hidden": "Hidden by the Godfather",
        "mdc_set_aside": "Set aside", "mdc_opened": "Saw when opening the box", "mdc_took": "Took",
        "mdc_role": "Role", "mdc_said": "Said", "mdc_verdict": "Claims", "mdc_won": "Result",
        "mdc_box_journey": "The box's journey", "mdc_claims": "Every claim against the truth",
        "mdc_claim": "Claim", "mdc_truth": "Truth", "mdc_opinion": "an opinion", "mdc_silent": "(silent)",
        "mdc_who_was_who": "Who was who", "mdc_start": "Start: {box}",
        "mdc_gf_hid": "the Godfather hides {diamonds}", "mdc_gf_hid_none": "the Godfather hides no diamond", "mdc_came_back_short": "back to the Godfather: {box}",
        # banners: whose turn and what to do
        "mdc_do_hide": "{name}: hide diamonds in the cigar box",
        "mdc_do_set-aside": "{name}: set a token aside, or not",
        "mdc_do_take": "{name}: take something from the cigar box",
        "mdc_do_question": "{name} (the Godfather): ask a question or accuse",
        "mdc_do_answer": "{name} must answer the Godfather: \u201c{question}\u201d",
        "mdc_do_floor": "{name}: speak or keep silent (the floor is open)",
        "mdc_do_cleaner": "{name}: decide in secret whether to shoot",
        "mdc_your_turn": "Your turn \u2014 {what}",
        # questions and answers
        "mdc_q_seen": "What did you see in the box?", "mdc_q_took": "What did you take?",
        "mdc_q_suspect": "Whom do you suspect?",
        "mdc_claim_saw": "\u201cI saw {box}.\u201d", "mdc_claim_took": "\u201cI took {take}.\u201d",
        "mdc_claim_suspect": "\u201cI suspect {name}.\u201d",
        # outcomes and why each winner won
        "mdc_outcome_godfather": "The Godfather wins: every stolen diamond is back.",
        "mdc_outcome_thieves": "Wrong accusation and no joker left: the Godfather is out; the Thief still in play who stole the most wins, with every Street Kid.",
        "mdc_outcome_agent": "An accused Agent wins alone.",
        "mdc_outcome_cleaner": "The Cleaner shot an Agent and wins alone.",
        "mdc_why_godfather": "the Godfather got every stolen diamond back",
        "mdc_why_loyal": "Loyal Henchman: wins with the Godfather",
        "mdc_why_cleaner_team": "Cleaner: wins with the Godfather",
        "mdc_why_thief": "the Thief with the most diamonds ({diamonds})",
        "mdc_why_street-kid": "Street Kid: wins when the Godfather falls",
        "mdc_why_driver": "Driver: {name}, on the right, wins",
        "mdc_why_agent": "Agent accused: wins alone", "mdc_why_cleaner": "Cleaner: shot an Agent",
        "mdc_lost": "loses",
        # move buttons
        "mdc_m_hide": "Hide diamonds", "mdc_m_set-aside": "Set a token aside", "mdc_m_take": "Take from the box",
        "mdc_m_ask": "Ask a question", "mdc_m_floor": "Open the floor to everyone",
        "mdc_m_accuse": "Accuse: \u201cEmpty your pockets!\u201d", "mdc_m_saw": "\u201cI saw\u2026\u201d",
        "mdc_m_took": "\u201cI took\u2026\u201d", "mdc_m_suspect": "\u201cI suspect\u2026\u201d",
        "mdc_m_silent": "Keep silent", "mdc_m_pass": "Say nothing for now", "mdc_m_shoot": "Shoot", "mdc_m_hold": "Hold fire",
        "mdc_m_none": "Nothing", "mdc_m_nothing": "Nothing",
        # knowledge panel
        "mdc_knowledge_of": "What {name} can infer", "mdc_knowledge_public": "What the public can infer",
        "mdc_knowledge_teacher": "What the Godfather can infer",
        "mdc_p_thief": "P(Thief)", "mdc_p_agent": "P(Agent)", "mdc_p_other": "P(other)", "mdc_player": "Player",
        "mdc_posterior_note": "Probabilities from this perspective's information only.",
        "mdc_trust_note": "Testimonies weighed: each is believed true with probability {trust}.",
        "mdc_no_trust_note": "Testimonies ignored: only the box.",
        "mdc_trust_impossible": "No box fits every testimony believed: they are ignored here.",
        "mdc_no_posterior": "Nothing to infer yet: the box has not gone round.",
        "mdc_thief": "Thief", "mdc_agent": "Agent", "mdc_other": "other",
        "mdc_your_row": "What {name} can still rule in about each take",
        "mdc_could_have": "Could have taken",
        "mdc_matrix": "Who knows what about each take", "mdc_observer": "knows about \u2192",
        "mdc_status_known": "known", "mdc_status_narrowed": "narrowed", "mdc_status_unknown": "unknown",
        "mdc_status_self": "self", "mdc_status_-": "\u2014",
    },
    "fr": {
        "mdc_title": "Mafia de Cuba", "mdc_godfather": "Parrain", "mdc_the_godfather": "le Parrain",
        "mdc_role_thief": "Voleur", "mdc_role_street-kid": "Enfant des rues", "mdc_role_loyal": "Fidèle",
        "mdc_role_fbi": "Agent du FBI", "mdc_role_cia": "Agent de la CIA", "mdc_role_driver": "Chauffeur",
        "mdc_role_cleaner": "Nettoyeur", "mdc_role_godfather": "Parrain",
        "mdc_tokens_loyal": "Fidèles", "mdc_tokens_fbi": "Agents du FBI", "mdc_tokens_cia": "Agents de la CIA",
        "mdc_tokens_driver": "Chauffeurs", "mdc_tokens_cleaner": "Nettoyeurs",
        "mdc_a_token_loyal": "un jeton Fidèle", "mdc_a_token_fbi": "un jeton Agent du FBI",
        "mdc_a_token_cia": "un jeton Agent de la CIA", "mdc_a_token_driver": "un jeton Chauffeur",
        "mdc_a_token_cleaner": "un jeton Nettoyeur", "mdc_token_button": "jeton {token}",
        "mdc_diamond": "diamant", "mdc_diamonds": "diamants", "mdc_no_diamond": "aucun diamant",
        "mdc_no_token": "aucun jeton", "mdc_nothing": "rien", "mdc_box": "Boîte à cigares",
        "mdc_empty_pockets": "Vide tes poches !", "mdc_phase": "Phase",
        "mdc_phase_hide": "le Parrain cache des diamants", "mdc_phase_set-aside": "le premier peut écarter un jeton",
        "mdc_phase_take": "la boîte fait le tour", "mdc_phase_question": "interrogatoire",
        "mdc_phase_answer": "en attente d'une réponse", "mdc_phase_floor": "la parole est ouverte",
        "mdc_phase_cleaner": "le Nettoyeur peut tirer", "mdc_phase_over": "partie terminée",
        "mdc_questions_left": "Questions restantes", "mdc_jokers_left": "Jokers restants",
        "mdc_recovered": "Diamants récupérés", "mdc_tokens_in_game": "Jetons dans la boîte",
        "mdc_holds_box": "tient la boîte", "mdc_joker": "joker", "mdc_out": "hors jeu", "mdc_showed": "a montré",
        "mdc_wins": "GAGNE", "mdc_to_play": "à jouer", "mdc_you_hid": "Vous avez caché {diamonds}.",
        "mdc_you_hid_none": "Vous n'avez caché aucun diamant.",
        "mdc_you_opened": "Quand vous avez ouvert la boîte : {box}.",
        "mdc_you_set_aside": "Vous avez écarté {token}.",
        "mdc_you_set_nothing_aside": "Vous n'avez rien écarté.", "mdc_you_took": "Vous avez pris {take}.",
        "mdc_you_are": "Votre rôle : {role}.", "mdc_came_back": "La boîte est revenue avec {box}.",
        "mdc_box_with": "Chez {name}", "mdc_box_with_godfather": "Chez le Parrain",
        "mdc_box_now": "Dedans maintenant : {box}", "mdc_takers_done": "{done} sur {total} se sont servis",
        "mdc_statements": "Ce qui a été dit", "mdc_no_statement": "Personne n'a encore rien dit.",
        "mdc_box_text": "{diamonds} ; jetons : {tokens}", "mdc_box_text_no_token": "{diamonds}, aucun jeton",
        "mdc_secrets": "Pour l'enseignant seulement : les secrets", "mdc_hidden": "Cachés par le Parrain",
        "mdc_set_aside": "Écarté", "mdc_opened": "Vu en ouvrant la boîte", "mdc_took": "A pris",
        "mdc_role": "Rôle", "mdc_said": "A dit", "mdc_verdict": "Déclarations", "mdc_won": "Résultat",
        "mdc_box_journey": "Le voyage de la boîte", "mdc_claims": "Chaque déclaration face à la vérité",
        "mdc_claim": "Déclaration", "mdc_truth": "Vérité", "mdc_opinion": "une opinion", "mdc_silent": "(silence)",
        "mdc_who_was_who": "Qui était qui", "mdc_start": "Au départ : {box}",
        "mdc_gf_hid": "le Parrain cache {diamonds}", "mdc_gf_hid_none": "le Parrain ne cache aucun diamant", "mdc_came_back_short": "retour au Parrain : {box}",
        "mdc_do_hide": "{name} : cacher des diamants dans la boîte à cigares",
        "mdc_do_set-aside": "{name} : écarter un jeton, ou non",
        "mdc_do_take": "{name} : prendre quelque chose dans la boîte à cigares",
        "mdc_do_question": "{name} (le Parrain) : poser une question ou accuser",
        "mdc_do_answer": "{name} doit répondre au Parrain : « {question} »",
        "mdc_do_floor": "{name} : parler ou garder le silence (la parole est ouverte)",
        "mdc_do_cleaner": "{name} : décider en secret de tirer ou non",
        "mdc_your_turn": "À vous \u2014 {what}",
        "mdc_q_seen": "Qu'as-tu vu dans la boîte ?", "mdc_q_took": "Qu'as-tu pris ?",
        "mdc_q_suspect": "Qui soupçonnes-tu ?",
        "mdc_claim_saw": "« J'ai vu {box}. »", "mdc_claim_took": "« J'ai pris {take}. »",
        "mdc_claim_took_nothing": "« Je n'ai rien pris. »", "mdc_claim_suspect": "« Je soupçonne {name}. »",
        "mdc_outcome_godfather": "Le Parrain gagne : tous les diamants volés sont revenus.",
        "mdc_outcome_thieves": "Mauvaise accusation sans joker : le Parrain est éliminé ; le Voleur encore en jeu qui a volé le plus gagne, avec tous les Enfants des rues.",
        "mdc_outcome_agent": "Un Agent a été accusé : l'Agent gagne seul.",
        "mdc_outcome_cleaner": "Le Nettoyeur a abattu un Agent et gagne seul.",
        "mdc_why_godfather": "le Parrain a récupéré tous les diamants volés",
        "mdc_why_loyal": "Fidèle : gagne avec le Parrain",
        "mdc_why_cleaner_team": "Nettoyeur : gagne avec le Parrain",
        "mdc_why_thief": "le Voleur qui a le plus de diamants ({diamonds})",
        "mdc_why_street-kid": "Enfant des rues : gagne quand le Parrain tombe",
        "mdc_why_driver": "Chauffeur : {name}, à sa droite, gagne",
        "mdc_why_agent": "Agent accusé : gagne seul", "mdc_why_cleaner": "Nettoyeur : a abattu un Agent",
        "mdc_lost": "perd",
        "mdc_m_hide": "Cacher des diamants", "mdc_m_set-aside": "Écarter un jeton",
        "mdc_m_take": "Prendre dans la boîte", "mdc_m_ask": "Poser une question",
        "mdc_m_floor": "Donner la parole à tous", "mdc_m_accuse": "Accuser : « Vide tes poches ! »",
        "mdc_m_saw": "« J'ai vu… »", "mdc_m_took": "« J'ai pris… »", "mdc_m_suspect": "« Je soupçonne… »",
        "mdc_m_silent": "Garder le silence", "mdc_m_pass": "Ne rien dire pour l'instant", "mdc_m_shoot": "Tirer", "mdc_m_hold": "Ne pas tirer",
        "mdc_m_none": "Rien", "mdc_m_nothing": "Rien",
        "mdc_knowledge_of": "Ce que {name} peut déduire", "mdc_knowledge_public": "Ce que le public peut déduire",
        "mdc_knowledge_teacher": "Ce que le Parrain peut déduire",
        "mdc_p_thief": "P(Voleur)", "mdc_p_agent": "P(Agent)", "mdc_p_other": "P(autre)", "mdc_player": "Joueur",
        "mdc_posterior_note": "Probabilités calculées avec les seules informations de ce point de vue.",
        "mdc_trust_note": "Témoignages pris en compte : chacun est cru vrai avec la probabilité {trust}.",
        "mdc_no_trust_note": "Témoignages ignorés : seule compte la boîte.",
        "mdc_trust_impossible": "Aucune boîte ne s'accorde avec tous les témoignages crus : ils sont ignorés ici.",
        "mdc_no_posterior": "Rien à déduire encore : la boîte n'a pas fait le tour.",
        "mdc_thief": "Voleur", "mdc_agent": "Agent", "mdc_other": "autre",
        "mdc_your_row": "Ce que {name} ne peut pas encore exclure de chaque prise",
        "mdc_could_have": "A pu prendre",
        "mdc_matrix": "Qui sait quoi de chaque prise", "mdc_observer": "sait de \u2192",
        "mdc_status_known": "connu", "mdc_status_narrowed": "restreint", "mdc_status_unknown": "inconnu",
        "mdc_status_self": "soi", "mdc_status_-": "\u2014",
    },
})

register({
    "en": {
        "mdc_what_take": "a number of diamonds or a token", "mdc_what_diamonds": "a number of diamonds",
        "mdc_what_token": "token", "mdc_what_question": "question",
        **{f"mdc_token.{token}": token for token in TOKEN_ORDER},
        "mdc_refused_take_arity": "{text}: {verb} exactly one thing: a number of diamonds, one token ({tokens}) or "
                                  "'nothing'.",
        "mdc_refused_take_at_least": "{text}: take at least 1 diamond (or one token, or 'nothing').",
        "mdc_refused_saw_arity": "'saw' needs a number of diamonds: 'saw D [TOKENS...]'.",
        "mdc_refused_not_an_action": "{text} is not a Mafia de Cuba action: write {notation}.",
        "mdc_refused_not_an_action_value": "{action} is not an action of Mafia de Cuba.",
        "mdc_refused_hide_who": "Only the Godfather hides diamonds, once, before the box goes round.",
        "mdc_refused_hide_range": "The Godfather hides 0 to {most} diamonds, not {diamonds}.",
        "mdc_refused_set_aside_who": "Only the first taker may set a token aside, just before taking.",
        "mdc_refused_set_aside_none": "There is no {token} token in the box to set aside.",
        "mdc_refused_take_holder": "{name} does not hold the box: there is nothing to take now.",
        "mdc_refused_take_both": "Take diamonds or one token, not both.",
        "mdc_refused_take_no_token": "There is no {token} token in the box.",
        "mdc_refused_take_too_many": "The box holds {box} diamonds, not {diamonds}.",
        "mdc_refused_take_negative": "A taker takes diamonds from the box, not a negative number of them.",
        "mdc_refused_take_something": "You must take something: at least 1 diamond or one token (only an empty "
                                      "box, or the last taker, may take nothing).",
        "mdc_refused_question_who": "Only the Godfather asks questions and accuses, during the investigation.",
        "mdc_refused_floor_open": "The floor is already open: ask a question or accuse (that closes it).",
        "mdc_refused_floor_free": "In free talk the floor opens by itself before each of the Godfather's moves.",
        "mdc_refused_no_question_left": "The Godfather has no question left: he must accuse.",
        "mdc_refused_question_self": "The Godfather cannot question or accuse himself.",
        "mdc_refused_eliminated": "{name} is eliminated and stays silent.",
        "mdc_refused_asked_already": "The Godfather already asked {name} '{kind}' since the last accusation: ask "
                                     "another question, or accuse.",
        "mdc_refused_jokered": "{name} already received a joker and cannot be accused again.",
        "mdc_refused_testimony_when": "Testimonies are given when the Godfather asks, or on the floor (one word "
                                      "each).",
        "mdc_refused_floor_silent": "On the floor, say a testimony or 'pass'.",
        "mdc_refused_answer_kind": "The Godfather asked '{asked}': answer with '{wanted}' or keep 'silent'.",
        "mdc_refused_no_seat": "There is no seat {seat} at this table.",
        "mdc_refused_suspect_self": "You cannot suspect yourself.",
        "mdc_refused_saw_range": "The box never holds {diamonds} diamonds (0 to {most}).",
        "mdc_refused_saw_tokens": "This game has only {count} {token} token(s).",
        "mdc_refused_took_impossible": "Nobody could have taken that: it is not in this game.",
        "mdc_refused_pass_when": "'pass' is said on the floor, once, by a taker; an asked seat answers or keeps "
                                 "'silent'.",
        "mdc_refused_vote_when": "'shoot' and 'hold' are only said right after an accusation (Cleaner variant).",
        "mdc_refused_cleaner_only": "Only the Cleaner can shoot.",
    },
    "fr": {
        "mdc_what_take": "un nombre de diamants ou un jeton", "mdc_what_diamonds": "un nombre de diamants",
        "mdc_what_token": "jeton", "mdc_what_question": "question",
        **{f"mdc_token.{token}": text for token, text in (
            ("loyal", "Fidèle"), ("fbi", "Agent du FBI"), ("cia", "Agent de la CIA"), ("driver", "Chauffeur"),
            ("cleaner", "Nettoyeur"))},
        "mdc_refused_take_arity": "{text} : {verb} une seule chose : un nombre de diamants, un jeton ({tokens}) ou "
                                  "'nothing'.",
        "mdc_refused_take_at_least": "{text} : prenez au moins 1 diamant (ou un jeton, ou 'nothing').",
        "mdc_refused_saw_arity": "'saw' demande un nombre de diamants : 'saw D [TOKENS...]'.",
        "mdc_refused_not_an_action": "{text} n'est pas un coup de Mafia de Cuba : écrivez {notation}.",
        "mdc_refused_not_an_action_value": "{action} n'est pas un coup de Mafia de Cuba.",
        "mdc_refused_hide_who": "Seul le Parrain cache des diamants, une fois, avant que la boîte ne circule.",
        "mdc_refused_hide_range": "Le Parrain cache de 0 à {most} diamants, pas {diamonds}.",
        "mdc_refused_set_aside_who": "Seul le premier preneur peut mettre un jeton de côté, juste avant de prendre.",
        "mdc_refused_set_aside_none": "Il n'y a pas de jeton {token} dans la boîte à mettre de côté.",
        "mdc_refused_take_holder": "{name} n'a pas la boîte : il n'y a rien à prendre maintenant.",
        "mdc_refused_take_both": "Prenez des diamants ou un jeton, pas les deux.",
        "mdc_refused_take_no_token": "Il n'y a pas de jeton {token} dans la boîte.",
        "mdc_refused_take_too_many": "La boîte contient {box} diamants, pas {diamonds}.",
        "mdc_refused_take_negative": "Un preneur prend des diamants dans la boîte, pas un nombre négatif.",
        "mdc_refused_take_something": "Vous devez prendre quelque chose : au moins 1 diamant ou un jeton (seuls "
                                      "une boîte vide, ou le dernier preneur, permettent de ne rien prendre).",
        "mdc_refused_question_who": "Seul le Parrain pose des questions et accuse, pendant l'interrogatoire.",
        "mdc_refused_floor_open": "La parole est déjà ouverte : posez une question ou accusez (cela la ferme).",
        "mdc_refused_floor_free": "En discussion libre, la parole s'ouvre d'elle-même avant chaque coup du "
                                  "Parrain.",
        "mdc_refused_no_question_left": "Le Parrain n'a plus de question : il doit accuser.",
        "mdc_refused_question_self": "Le Parrain ne peut ni s'interroger ni s'accuser lui-même.",
        "mdc_refused_eliminated": "{name} est éliminé et reste silencieux.",
        "mdc_refused_asked_already": "Le Parrain a déjà demandé '{kind}' à {name} depuis la dernière accusation : "
                                     "posez une autre question, ou accusez.",
        "mdc_refused_jokered": "{name} a déjà reçu un joker et ne peut plus être accusé.",
        "mdc_refused_testimony_when": "On témoigne quand le Parrain le demande, ou quand la parole est ouverte "
                                      "(un mot chacun).",
        "mdc_refused_floor_silent": "Quand la parole est ouverte, dites un témoignage ou 'pass'.",
        "mdc_refused_answer_kind": "Le Parrain a demandé '{asked}' : répondez avec '{wanted}' ou restez "
                                   "'silent'.",
        "mdc_refused_no_seat": "Il n'y a pas de place {seat} à cette table.",
        "mdc_refused_suspect_self": "Vous ne pouvez pas vous soupçonner vous-même.",
        "mdc_refused_saw_range": "La boîte ne contient jamais {diamonds} diamants (0 à {most}).",
        "mdc_refused_saw_tokens": "Cette partie n'a que {count} jeton(s) {token}.",
        "mdc_refused_took_impossible": "Personne n'a pu prendre cela : ce n'est pas dans cette partie.",
        "mdc_refused_pass_when": "'pass' se dit quand la parole est ouverte, une fois, par un preneur ; une place "
                                 "interrogée répond ou reste 'silent'.",
        "mdc_refused_vote_when": "'shoot' et 'hold' ne se disent que juste après une accusation (variante du "
                                 "Nettoyeur).",
        "mdc_refused_cleaner_only": "Seul le Nettoyeur peut tirer.",
    },
})


def diamonds_text(count: int, language: str) -> str:
    """'1 diamond', '3 diamonds', 'no diamond' ('1 diamant', '3 diamants', 'aucun diamant')."""
    if count == 0:
        return tr("mdc_no_diamond", language)
    return f"{count} {tr('mdc_diamond' if count == 1 else 'mdc_diamonds', language)}"


def token_name(token: str, language: str = "en") -> str:
    """A token's name ('Loyal Henchman', 'Fidèle'); a token this module does not know keeps its notation."""
    return tr(f"mdc_role_{token}", language) if token in TOKEN_ORDER else token


def role_word(role: str, language: str = "en") -> str:
    """A role ('thief', 'loyal', 'street-kid'...) in `language` (a role this module does not know: as it is)."""
    return word(f"mdc_role_{role}", language, role)


def take_role(take: str) -> str:
    """The role a take text gives: 'thief' (diamonds), the token, or 'street-kid' (nothing)."""
    if take == "nothing":
        return "street-kid"
    return "thief" if take.isdigit() else take


def take_word(take: str, language: str = "en") -> str:
    """A take text ('3', 'driver', 'nothing') as a phrase: '3 diamonds', 'a Driver token', 'nothing'."""
    if take == "nothing":
        return tr("mdc_nothing", language)
    if take.isdigit():
        return diamonds_text(int(take), language)
    return tr(f"mdc_a_token_{take}", language) if take in TOKEN_ORDER else take


def tokens_listing(tokens: Mapping[str, int], language: str) -> str:
    """'2 Loyal Henchmen, 1 FBI Agent, 1 Driver' (plural where there are several)."""
    listed = [f"{count} {token_name(name, language) if count == 1 else tr(f'mdc_tokens_{name}', language)}"
              for name, count in sorted(tokens.items(), key=lambda kv: _token_order(kv[0])) if count]
    return ", ".join(listed) or tr("mdc_no_token", language)


def _token_order(token: str) -> int:
    return TOKEN_ORDER.index(token) if token in TOKEN_ORDER else len(TOKEN_ORDER)


def box_text(box: Mapping[str, Any] | None, language: str = "en") -> str:
    """'6 diamonds; tokens: 2 Loyal Henchmen, 1 FBI Agent' — a box content as someone saw it."""
    if not box:
        return "\u2014"
    diamonds = diamonds_text(int(box["diamonds"]), language)
    if not box["tokens"]:
        return tr("mdc_box_text_no_token", language).format(diamonds=diamonds)
    return tr("mdc_box_text", language).format(diamonds=diamonds,
                                                tokens=tokens_listing(Counter(box["tokens"]), language))


def question_text(kind: str, language: str) -> str:
    """The Godfather's question of a kind ('seen', 'took', 'suspect')."""
    return word(f"mdc_q_{kind}", language, kind)


def claim_text(claim: str, players: Sequence[str], language: str) -> str:
    """A testimony in words: “I took 3 diamonds.”, « J'ai vu 6 diamants et aucun jeton. »."""
    parts = claim.split()
    verb = parts[0]
    if verb == "saw":
        box = {"diamonds": int(parts[1]), "tokens": parts[2:]}
        return tr("mdc_claim_saw", language).format(box=box_text(box, language))
    if verb == "took":
        if parts[1] == "nothing" and language == "fr":
            return tr("mdc_claim_took_nothing", language)
        return tr("mdc_claim_took", language).format(take=take_word(parts[1], language))
    if verb == "suspect":
        return tr("mdc_claim_suspect", language).format(name=players[int(parts[1])])
    return claim


__all__ = ["box_text", "claim_text", "diamonds_text", "question_text", "role_word", "take_role", "take_word", "token_name",
           "tokens_listing"]
