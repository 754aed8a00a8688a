"""What the class server shows: pages (Jinja2 templates, escaped by default) and the messages of a seat.

A seat's message is a pure function of that seat's `View` and its legal actions (`table_message`,
`menu_message`): the table is the game's own renderer (`render_view_html`), the moves are the notation
words of the legal actions, one word at a time (`moves.move_step`), labelled by the game
(`moves.labeller`). Nothing here reads a game state, with one deliberate exception: after the end of a
game, when the teacher reveals the table, every page receives `reveal_html(state)`.

Every string a person typed (names) reaches a page through Jinja2's autoescaping or the renderers' own
escaping; the scripts set texts with `textContent`, never as HTML.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from functools import cache
from html import escape
from typing import Any

import jinja2

from ..core import Action, View
from ..extras import need
from ..i18n import register, tr
from ..moves import MoveTree, labeller, move_step
from ..registry import GamePlugin
from ..rendering import RunningLog, game_renderer, render_state_html, render_view_html
from ..templates import stylesheet, without_style
from ..templates.drawn import Drawn

#: The most words a move of any game has, and the longest word: a menu request beyond is malformed.
MAX_WORDS = 16
MAX_WORD = 40

_WORDS = {
    "en": {
        "class.join": "Join a table", "class.code": "Room code", "class.name": "Your name",
        "class.join_button": "Join", "class.choose_name": "Pick the name the table will know you by",
        "class.sit": "Sit down", "class.waiting_players": "Waiting for players", "class.seats_filled":
        "seats filled", "class.your_move": "Your move", "class.waiting_for": "Waiting for",
        "class.paused": "The teacher paused the game", "class.over": "Game over", "class.back": "Back",
        "class.play": "Play", "class.you": "you", "class.online": "online", "class.offline":
        "reconnecting…", "class.offline_short": "offline", "class.empty_seat": "empty seat", "class.bot": "bot", "class.seat": "Seat",
        "class.join_at": "Join at", "class.with_code": "with the code", "class.projector": "Projector",
        "class.revealed": "The whole table, revealed", "class.sent": "Sent…", "class.error": "Sorry",
        "class.lobby": "Who is at the table", "class.your_seat": "Your seat", "class.start_over":
        "Start again", "class.colon": ":", "class.room_closed": "The teacher closed this room.",
        "class.link_expired": "This link has expired: ask your teacher for a new one.",
        "class.link_expired_help": "Your teacher gave this seat a new link, so this page shows nothing any more. "
                                   "Ask your teacher for the new link (or its QR code) and open it: your seat and "
                                   "your game are waiting there.",
        "class.connection_lost": "Connection lost: reconnecting… The table comes back by itself.",
        "class.time_up": "Time's up: a bot played for you",
        "class.time_left": "Time left for your move", "class.seconds": "s",
        "class.offline_now": "Offline: no network. You can play again as soon as it is back (the table comes back "
                             "by itself); a belief you send meanwhile is kept and sent then.",
        "class.not_sent": "Not sent: the connection was lost. Look at the table once it is back, and tap again.",
        "class.belief_sent_later": "Sent now that the network is back.",
        "class.flood_closed": "Too many messages: reload the page.",
        "class.name_hint": "Back at a table you joined from this browser? Type its code: your seat opens again.",
    },
    "fr": {
        "class.join": "Rejoindre une table", "class.code": "Code de la salle", "class.name": "Votre nom",
        "class.join_button": "Rejoindre", "class.choose_name": "Choisissez le nom sous lequel la table vous "
        "connaîtra", "class.sit": "S'asseoir", "class.waiting_players": "En attente des joueurs",
        "class.seats_filled": "places prises", "class.your_move": "À vous de jouer",
        "class.waiting_for": "En attente de", "class.paused": "L'enseignant a mis la partie en pause",
        "class.over": "Partie terminée", "class.back": "Retour", "class.play": "Jouer", "class.you": "vous",
        "class.online": "en ligne", "class.offline": "reconnexion…",
        "class.offline_short": "hors ligne", "class.empty_seat": "place libre",
        "class.bot": "robot", "class.seat": "Place", "class.join_at": "Rejoindre sur",
        "class.with_code": "avec le code", "class.projector": "Projecteur",
        "class.revealed": "Toute la table, révélée", "class.sent": "Envoyé…", "class.error": "Désolé",
        "class.lobby": "Qui est à la table", "class.your_seat": "Votre place",
        "class.start_over": "Recommencer", "class.colon": " :",
        "class.room_closed": "L'enseignant a fermé cette salle.",
        "class.link_expired": "Ce lien a expiré : demandez un nouveau lien à l'enseignant.",
        "class.link_expired_help": "L'enseignant a donné un nouveau lien à cette place : cette page ne montre "
                                   "plus rien. Demandez le nouveau lien (ou son code QR) à l'enseignant et "
                                   "ouvrez-le : votre place et votre partie vous y attendent.",
        "class.connection_lost": "Connexion perdue : reconnexion… La table revient toute seule.",
        "class.time_up": "Temps écoulé : un robot a joué pour vous",
        "class.time_left": "Temps restant pour votre coup", "class.seconds": "s",
        "class.offline_now": "Hors ligne : pas de réseau. Vous pourrez jouer dès son retour (la table revient toute "
                             "seule) ; une croyance envoyée d'ici là est gardée et partira alors.",
        "class.not_sent": "Non envoyé : la connexion a été perdue. Regardez la table à son retour, et touchez à "
                          "nouveau.",
        "class.belief_sent_later": "Envoyée : le réseau est revenu.",
        "class.flood_closed": "Trop de messages : rechargez la page.",
        "class.name_hint": "De retour à une table rejointe depuis ce navigateur ? Tapez son code : votre place "
                           "se rouvre.",
    },
}
register(_WORDS)

#: Refusals as the student reads them, by code: in English a known code's sentence alone (the server's own message,
#: with its step numbers, is for programs: the socket's `message`) unless the refusal has details worded for people
#: (then it carries them in French too: `Refused.fr`), else the server's message; in French the text is whole (a refusal with details of its own carries them in French: `Refused.fr`), so no
#: English reaches a French page. Every code a student's page or the join page can meet has its French text.
REFUSALS = {
    "en": {"stale": "The table changed: look again.", "not_your_turn": "It is not your turn.",
           "paused": "The teacher paused the game.", "illegal": "This move is not allowed.",
           "flood": "Too many messages: slow down.", "over": "The game is over."},
    "fr": {"stale": "La table a changé : regardez à nouveau.", "not_your_turn": "Ce n'est pas votre tour.",
           "paused": "L'enseignant a mis la partie en pause.", "illegal": "Ce coup n'est pas permis.",
           "flood": "Trop de messages : ralentissez.", "over": "La partie est terminée.",
           "bad_name": "Ce nom n'est pas accepté : choisissez-en un autre.",
           "name_taken": "Ce nom est déjà pris dans cette salle : choisissez-en un autre.",
           "room_full": "La salle est pleine : demandez votre lien à l'enseignant.",
           "unknown_room": "Il n'y a pas de salle avec ce code : vérifiez le code.",
           "closed": "Cette salle est fermée.",
           "unknown_token": "Aucune place n'a ce lien : vérifiez-le, ou demandez à l'enseignant.",
           "expired_token": "Ce lien a expiré : demandez un nouveau lien à l'enseignant.",
           "seat_taken": "Cette place a déjà un joueur : ouvrez votre propre lien.",
           "not_seated": "Choisissez d'abord un nom sur la page de la place.",
           "not_started": "La partie commence quand toutes les places sont prises.",
           "too_many": "Trop de pages sont ouvertes pour cette place.",
           "too_many_guesses": "Trop de codes de salle erronés : vérifiez le code au tableau et réessayez dans "
                               "une minute.",
           "too_big": "Ce message est trop long.", "malformed": "Ce message n'est pas compris.",
           "forbidden": "Le projecteur ne fait que regarder.",
           "storage_busy": "Stockage occupé : la base de la classe est prise par un autre programme pour un "
                           "moment. Rien n'a changé ; nouvel essai.",
           "storage": "Le serveur n'a pas pu enregistrer cela ; rien n'a changé : réessayez."},
}
#: What a French page says of a refusal it has no text for (none that a student meets: a test checks).
UNKNOWN_REFUSAL_FR = "Demande refusée : rien n'a changé."


def refusal_text(refusal: Any, language: str) -> str:
    """A refusal (`rooms.Refused`) as the student reads it in `language`."""
    message = str(refusal)
    if language == "fr":
        return str(getattr(refusal, "fr", None) or REFUSALS["fr"].get(refusal.code, UNKNOWN_REFUSAL_FR))
    if getattr(refusal, "fr", None):  # details of its own, worded for people (an illegal move's reason)
        return message
    return REFUSALS["en"].get(refusal.code, message)


@cache
def environment() -> jinja2.Environment:
    """The page templates (tabletop_edu/classroom/templates), autoescaped, read once (`auto_reload` off)."""
    env = jinja2.Environment(loader=jinja2.PackageLoader("tabletop_edu.classroom", "templates"),
                             autoescape=True, trim_blocks=True, lstrip_blocks=True, auto_reload=False)
    env.globals["tr"] = tr
    return env


def page(template: str, language: str, **values: Any) -> str:
    """A whole page in `language` ("en" or "fr")."""
    words = {key: tr(key, language) for key in _WORDS["en"]}
    return environment().get_template(template).render(lang=language, words=words, style_version=style_version(),
                                                       words_json=json.dumps(words), **values)


# ------------------------------------------------------------------------------------ the tables' stylesheet
# The tables' HTML carries the whole stylesheet (about 16 KB) in a `<style>` block, as a notebook needs it. A
# class page links it once instead (`/style/tabletop.css?v=...`, cached by the browser for as long as its
# version holds), and every update carries the table alone.


@cache
def style_version() -> str:
    """A short hash of the tables' stylesheet: its address changes when it does, so browsers may cache it."""
    return hashlib.sha256(stylesheet().encode("utf-8")).hexdigest()[:12]


def qr_svg(text: str, scale: int = 4) -> str:
    """A QR code of `text` as inline SVG (segno), for links on the projector and the dashboard."""
    segno = need("segno", "A QR code of a link")
    return str(segno.make(text, error="m").svg_inline(scale=scale, border=2))


def language_of(value: Any, default: str = "en") -> str:
    return value if value in ("en", "fr") else default


# ------------------------------------------------------------------------------------ what a seat sees


def status_text(view: View | None, seats: Sequence[Mapping[str, Any]], language: str, *,
                paused: bool) -> tuple[str, str]:
    """(kind, text) of the status line: kind is lobby, paused, over, turn or wait."""
    colon = tr("class.colon", language)  # French puts a space before a colon
    if view is None:
        filled = sum(seat["name"] is not None for seat in seats)
        return "lobby", f"{tr('class.waiting_players', language)}{colon} {filled}/{len(seats)} {tr('class.seats_filled', language)}"
    if view.is_over:
        return "over", tr("class.over", language)
    if paused:
        return "paused", tr("class.paused", language)
    acting = view.current_player if isinstance(view.current_player, tuple) else (view.current_player,)
    if view.seat is not None and view.seat in acting:
        return "turn", tr("class.your_move", language)
    names = ", ".join(view.players[seat] for seat in acting if seat is not None)
    return "wait", f"{tr('class.waiting_for', language)}{colon} {names}"


def lobby_html(seats: Sequence[Mapping[str, Any]], me: int | None, language: str) -> str:
    """The seats and who sits there (names only), before the game starts."""
    rows = []
    for seat in seats:
        name = seat["name"]
        who = escape(name) if name is not None else f"<i>{escape(tr('class.empty_seat', language))}</i>"
        if seat.get("bot"):
            who += f" <small>({escape(tr('class.bot', language))})</small>"
        if me == seat["seat"]:
            who += f" <b>← {escape(tr('class.you', language))}</b>"
        rows.append(f"<li>{escape(tr('class.seat', language))} {seat['seat'] + 1}{escape(tr('class.colon', language))} "
                    f"{who}</li>")
    return (f"<div class='classroom-lobby'><h2>{escape(tr('class.lobby', language))}</h2>"
            f"<ul>{''.join(rows)}</ul></div>")


def view_step(view: View) -> int:
    """The number of moves played, as the view tells it: the step of its latest event. In every game of the
    package each move shows every seat at least a redacted event (a test checks it), so the step a message
    carries tells a seat nothing its view does not."""
    return max((event.step for event in view.log), default=0)


def table_message(view: View | None, language: str, *, seats: Sequence[Mapping[str, Any]], step: int = 0,
                  legal_actions: Sequence[Action | str] = (), paused: bool = False, revealed: str | None = None,
                  title: str = "", seat: int | None = None, style: bool = True,
                  words: MoveTree | None = None, log: RunningLog | None = None,
                  public: View | None = None, plugin: GamePlugin | None = None) -> dict[str, Any]:
    """Everything a seat's page (or the projector, `view.seat` None) shows now, from its view alone
    (`words`: the legal actions' tree of notation words, when the caller keeps it: `moves.MoveTree`; `log`: the
    seat's log kept from its last table, when the caller keeps it, so that only its new lines are worded;
    `public`: the spectator's view of the same step, when the caller keeps it, for the tables of a step to share
    what they show of it: `rendering.render_view_html`; `plugin`: the view's game, when the caller holds it).

    `step` is the number of moves played (the step a move must answer); `legal_actions` are the seat's own
    (empty when it is not to act); `revealed` is the reveal HTML once the teacher showed the whole table at
    the end of the game; `seat` is whose page it is before the game starts (after, the view says);
    `style=False` leaves the stylesheet out, for a page that links it (the class server's)."""
    kind, status = status_text(view, seats, language, paused=paused)
    me = seat if view is None else view.seat
    html = lobby_html(seats, me, language) if view is None else \
        log.table_html(view, public) if log is not None else \
        render_view_html(view, language, True, style=style, plugin=plugin)
    if revealed is not None:
        html = Drawn([f"<section class='classroom-reveal'><h2>{escape(tr('class.revealed', language))}</h2>"
                      f"{revealed}</section>", html])
    # a table drawn with `style=False` holds no stylesheet (`rendering.call_renderer`): only a reveal may
    if not style and (revealed is not None or (log is not None and log.style)):
        html = without_style(html)
    menu = None
    if view is not None and kind == "turn" and legal_actions:
        menu = menu_message(view, legal_actions, (), language, step, words, plugin)
    return {"type": "table", "step": step, "kind": kind, "status": status, "title": title, "html": html,
            "menu": menu, "seat": me, "started": view is not None, "over": kind == "over", "paused": paused,
            "revealed": revealed is not None}


def menu_message(view: View, legal_actions: Sequence[Action | str], chosen: Sequence[str],
                 language: str, step: int, words: MoveTree | None = None,
                 plugin: GamePlugin | None = None) -> dict[str, Any]:
    """The next choice of a move after the words `chosen`: buttons labelled by the game (ValueError if
    `chosen` starts no legal move: the menu changed, start again; `plugin`: the view's game, when held)."""
    label = labeller(view, language, plugin)
    choice = move_step(legal_actions, tuple(chosen), label, words)
    return {"type": "menu", "step": step, "chosen": list(choice.chosen),
            "labels": [label(tuple(choice.chosen[:index + 1])) for index in range(len(choice.chosen))],
            "options": [{"word": option.word, "label": option.label, "action": option.action}
                        for option in choice.options],
            "complete": choice.complete}


def move_words(view: View, action: str, language: str) -> str:
    """A move as the seat's buttons word it ("Ask › Ben › hat"), for the page of a seat a bot played for."""
    label, words = labeller(view, language), action.split()
    return " ".join(label(tuple(words[:index + 1])) for index in range(len(words)))


def reveal_html(state: Any, language: str) -> str:
    """The game's reveal of the whole table at the end (its `render.reveal_html`), else the omniscient table."""
    function = game_renderer(state.game, "reveal_html")
    if function is None:
        return render_state_html(state, language, log=False)
    return str(function(state, language))
