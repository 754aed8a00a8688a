"""The teacher's dashboard: an ipywidgets panel in the notebook, a client of the class server.

It follows one room over the teacher's websocket and replays the room's record in the notebook, so every
analysis tool of the package works on the game the class is playing: the omniscient table, the projector's
(spectator's) view, the game's knowledge panel (posteriors, candidate sets, who knows what) and the
information-flow graph, redrawn at every move. The buttons call the server's API with the teacher's token:
pause and resume, let the bot to move play one move, reveal the table at the end, seat bots in empty seats,
give a seat a new link, and, before the start, place students (swap two seats: who is the Godfather).

Messages arrive in the client loop's thread; the drawing happens in a worker thread of the dashboard, keeping
only the latest message, so a slow knowledge panel never holds up the feed.
"""

from __future__ import annotations

import html
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol

import ipywidgets as widgets

from ..core import GameState, load
from ..i18n import LANGUAGES, register, tr
from ..rendering import render_state_html
from . import games
from .errors import ClassroomError
from .pages import qr_svg, table_message

register({
    "en": {"dash.seats": "Seats", "dash.projector": "Projector", "dash.teacher": "Teacher (everything)",
           "dash.knowledge": "Knowledge", "dash.pause": "Pause", "dash.resume": "Resume",
           "dash.step": "Bot plays one move", "dash.reveal": "Reveal the table", "dash.seat_bot": "Seat bot",
           "dash.fill": "Bots in empty seats", "dash.remove_bot": "Remove bot", "dash.new_link": "New link",
           "dash.room": "Room", "dash.step_no": "step", "dash.online": "online", "dash.offline": "not connected",
           "dash.link": "Link", "dash.name": "Name", "dash.waiting": "waiting for a student",
           "dash.join": "Students join at", "dash.code": "code", "dash.open_projector": "Projector page",
           "dash.lobby": "The game starts when every seat is filled.", "dash.flow": "Information flow",
           "dash.paused": "paused", "dash.over": "game over", "dash.playing": "playing",
           "dash.gathering": "waiting for students",
           "dash.seat": "Seat", "dash.bot": "Bot", "dash.closed": "closed",
           "dash.ask": "Ask what they believe", "dash.beliefs": "Beliefs",
           "dash.beliefs_off": "This room asks no beliefs (open it with beliefs=True).",
           "dash.beliefs_count": "Beliefs stated so far at this table (what they said stays secret until the "
                                 "reveal)",
           "dash.asked_at": "You asked at steps",
           "dash.swap": "Swap these seats", "dash.with": "with",
           "dash.broken": "Rooms of this file that cannot be read (left out, kept in the file as they are):"},
    "fr": {"dash.seats": "Places", "dash.projector": "Projecteur", "dash.teacher": "Enseignant (tout)",
           "dash.knowledge": "Connaissances", "dash.pause": "Pause", "dash.resume": "Reprendre",
           "dash.step": "Un coup du robot", "dash.reveal": "Révéler la table", "dash.seat_bot": "Placer un robot",
           "dash.fill": "Robots aux places libres", "dash.remove_bot": "Retirer le robot",
           "dash.new_link": "Nouveau lien", "dash.room": "Salle", "dash.step_no": "étape",
           "dash.online": "en ligne", "dash.offline": "non connecté", "dash.link": "Lien", "dash.name": "Nom",
           "dash.waiting": "en attente d'un élève", "dash.join": "Les élèves rejoignent sur",
           "dash.code": "code", "dash.open_projector": "Page du projecteur",
           "dash.lobby": "La partie commence quand toutes les places sont prises.",
           "dash.flow": "Flux d'information", "dash.paused": "en pause", "dash.over": "partie terminée",
           "dash.playing": "en cours", "dash.gathering": "en attente des élèves", "dash.seat": "Place",
           "dash.ask": "Demander ce qu'ils croient", "dash.beliefs": "Croyances",
           "dash.beliefs_off": "Cette salle ne pose pas de questions sur les croyances (ouvrez-la avec beliefs=True).",
           "dash.beliefs_count": "Croyances données jusqu'ici à cette table (leur contenu reste secret jusqu'à la "
                                 "révélation)",
           "dash.asked_at": "Vous avez demandé aux étapes",
           "dash.bot": "Robot", "dash.closed": "fermée", "dash.swap": "Échanger ces places",
           "dash.with": "avec",
           "dash.broken": "Salles de ce fichier illisibles (laissées de côté, gardées telles quelles dans le "
                          "fichier) :"},
})


def flow_image(state: GameState[Any], language: str = "en") -> str:
    """The information-flow picture of the whole game (lanes per seat, time left to right), as SVG: drawn
    while the class plays, with no matplotlib."""
    from ..pictures import flow_svg

    return f"<div class='classroom-flow'>{flow_svg(state, language=language)}</div>"


def belief_count_html(beliefs: dict[str, Any], language: str = "en") -> str:
    """How many beliefs the table stated so far, and when the teacher asked: a count for the whole table, never
    per seat (the dashboard may be on the projector, and a seat never asked would single itself out: Adler)."""
    asked = ", ".join(str(step) for step in beliefs["asked_steps"]) or "—"
    return (f"<p><b>{html.escape(tr('dash.beliefs_count', language))}</b>: {sum(beliefs['counts'])}</p>"
            f"<p>{html.escape(tr('dash.asked_at', language))}: {asked}</p>")


class RoomClient(Protocol):
    """What the dashboard asks of its client (a `TeacherClient`, which builds dashboards: so the dashboard names
    no client class)."""

    def room(self, code: str) -> dict[str, Any]: ...

    def follow(self, code: str, on_message: Callable[[dict[str, Any]], None] | None = None) -> Any: ...

    def command(self, code: str, what: str, **body: Any) -> dict[str, Any]: ...

    def games(self) -> Any: ...

    def broken_rooms(self) -> dict[str, str]: ...


class Dashboard(widgets.VBox):
    """A room's live dashboard. `client` is a `TeacherClient` (any `RoomClient`); `code` the room's code."""

    def __init__(self, client: RoomClient, code: str, *, language: str = "en", qr: bool = True) -> None:
        self.client, self.code, self.language, self.qr = client, code, language, qr
        self.title_text = str(client.room(code)["title"])  # also refuses an unknown room or a wrong token at once
        self.info: dict[str, Any] | None = None
        self.state: GameState[Any] | None = None
        self.updates = 0
        self._changed = threading.Condition(threading.RLock())
        self._latest: dict[str, Any] | None = None
        self._pending = False
        self._lock = threading.Lock()
        self._closed = False
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"dashboard-{code}")
        self.title = widgets.HTML()
        self.message = widgets.HTML()
        self.broken = widgets.HTML()  # the rooms the server could not read, with their reasons
        self.broken_reasons = client.broken_rooms()
        self.pause_button = widgets.Button(icon="", layout=widgets.Layout(width="auto"))
        self.step_button = widgets.Button(layout=widgets.Layout(width="auto"))
        self.reveal_button = widgets.Button(button_style="warning", layout=widgets.Layout(width="auto"))
        self.fill_button = widgets.Button(layout=widgets.Layout(width="auto"))
        self.seat_picker = widgets.Dropdown(layout=widgets.Layout(width="9em"))
        self.bot_picker = widgets.Dropdown(layout=widgets.Layout(width="11em"))
        self.seat_bot_button = widgets.Button(layout=widgets.Layout(width="auto"))
        self.remove_bot_button = widgets.Button(layout=widgets.Layout(width="auto"))
        self.new_link_button = widgets.Button(layout=widgets.Layout(width="auto"))
        self.ask_button = widgets.Button(button_style="info", layout=widgets.Layout(width="auto"))
        self.place_picker = widgets.Dropdown(layout=widgets.Layout(width="11em"))  # the seat to swap with
        self.swap_button = widgets.Button(icon="exchange", layout=widgets.Layout(width="auto"))
        self.language_picker = widgets.ToggleButtons(options=list(LANGUAGES), value=language,
                                                     style={"button_width": "3em"})
        self.seats = widgets.HTML()
        self.projector = widgets.HTML()
        self.teacher = widgets.HTML()
        self.knowledge = widgets.HTML()
        self.flow = widgets.HTML()
        self.beliefs = widgets.HTML()
        self.tabs = widgets.Tab(children=[self.seats, self.projector, self.teacher,
                                          widgets.VBox([self.knowledge, self.flow]), self.beliefs])
        self.pause_button.on_click(lambda _: self._command("resume" if self._paused else "pause"))
        self.step_button.on_click(lambda _: self._command("step"))
        self.reveal_button.on_click(lambda _: self._command("reveal"))
        self.fill_button.on_click(lambda _: self.fill_with_bots(self.bot_picker.value))
        self.seat_bot_button.on_click(lambda _: self._command("bot", seat=self.seat_picker.value,
                                                              bot=self.bot_picker.value))
        self.remove_bot_button.on_click(lambda _: self._command("unbot", seat=self.seat_picker.value))
        self.new_link_button.on_click(lambda _: self._command("new_link", seat=self.seat_picker.value))
        self.ask_button.on_click(lambda _: self.ask())
        self.swap_button.on_click(lambda _: self.swap(self.seat_picker.value, self.place_picker.value))
        self.language_picker.observe(self._on_language, names="value")
        self.tabs.observe(lambda _: self._redraw(), names="selected_index")
        controls = widgets.HBox([self.pause_button, self.step_button, self.reveal_button, self.ask_button,
                                 self.language_picker],
                                layout=widgets.Layout(flex_flow="row wrap"))
        seating = widgets.HBox([self.seat_picker, self.place_picker, self.swap_button, self.bot_picker,
                                self.seat_bot_button, self.remove_bot_button, self.fill_button, self.new_link_button],
                               layout=widgets.Layout(flex_flow="row wrap"))
        super().__init__([self.title, controls, seating, self.message, self.broken, self.tabs])
        self.add_class("classroom-dashboard")
        self._label()
        self.feed = client.follow(code, on_message=self._receive)

    def __repr__(self) -> str:  # stable in stored notebooks: no token, no port
        return f"<Dashboard of a {self.title_text} room>"

    # ---------------------------------------------------------------- the feed

    def _receive(self, message: dict[str, Any]) -> None:
        """A message of the feed (client loop's thread): keep the latest, draw it in the worker."""
        with self._lock:
            self._latest = message
            if self._pending or self._closed:  # a message still in flight when the dashboard closed is dropped
                return
            self._pending = True
            self._worker.submit(self._draw_latest)

    def _draw_latest(self) -> None:
        with self._lock:
            message, self._latest, self._pending = self._latest, None, False
        if message is None:
            return
        with self._changed:  # a script waiting in `wait_for` sees a message drawn whole, never half
            try:
                self._apply(message)
            except Exception as error:  # shown, never raised into a thread nobody reads
                self.message.value = f"<span style='color:#b71c1c'>{html.escape(repr(error))[:300]}</span>"
            self.updates += 1
            self._changed.notify_all()

    def _apply(self, info: dict[str, Any]) -> None:
        self.info = info
        record = info.get("record")
        if record is None:
            self.state = None
        elif self.state is None or len(self.state.history) > len(record["actions"]) or \
                [list(entry) for entry in self.state.history] != record["actions"][:len(self.state.history)]:
            self.state = load(record)
        else:
            for seat, action in record["actions"][len(self.state.history):]:
                self.state.apply(action, player=seat)
        self._redraw()

    def wait_for(self, condition: Callable[[Dashboard], bool], timeout: float = 30) -> None:
        """Block until `condition(self)` holds after an update (for scripts and tests)."""
        with self._changed:
            if not self._changed.wait_for(lambda: self.info is not None and condition(self), timeout):
                raise TimeoutError(f"the dashboard of room {self.code} did not reach the condition in {timeout} s")

    # ---------------------------------------------------------------- drawing

    @property
    def _paused(self) -> bool:
        return bool(self.info and self.info["paused"])

    def _t(self, key: str) -> str:
        return tr(key, self.language)

    def _label(self) -> None:
        self.pause_button.description = self._t("dash.resume" if self._paused else "dash.pause")
        self.pause_button.button_style = "danger" if self._paused else ""
        self.step_button.description = self._t("dash.step")
        self.reveal_button.description = self._t("dash.reveal")
        self.fill_button.description = self._t("dash.fill")
        self.seat_bot_button.description = self._t("dash.seat_bot")
        self.remove_bot_button.description = self._t("dash.remove_bot")
        self.new_link_button.description = self._t("dash.new_link")
        self.ask_button.description = self._t("dash.ask")
        self.swap_button.description = self._t("dash.swap")
        for index, key in enumerate(("dash.seats", "dash.projector", "dash.teacher", "dash.knowledge",
                                     "dash.beliefs")):
            self.tabs.set_title(index, self._t(key))
        self.broken.value = self.broken_html()

    def broken_html(self) -> str:
        """The rooms that cannot be read, each with its reason (nothing when every room was read)."""
        if not self.broken_reasons:
            return ""
        items = "".join(f"<li><b>{html.escape(code)}</b>: {html.escape(reason)}</li>"
                        for code, reason in sorted(self.broken_reasons.items()))
        return (f"<div class='classroom-broken' style='color:#b71c1c'>{html.escape(self._t('dash.broken'))}"
                f"<ul>{items}</ul></div>")

    def _on_language(self, change: dict[str, Any]) -> None:
        self.language = change["new"]
        self._label()
        self._redraw()

    def _redraw(self) -> None:
        info = self.info
        if info is None:
            return
        self._label()
        state_word = self._t("dash.closed") if info["closed"] else self._t("dash.over") if info["over"] else \
            self._t("dash.paused") if info["paused"] else self._t("dash.playing") if info["started"] else \
            self._t("dash.gathering")
        self.title.value = (f"<h3 style='margin:4px 0'>{html.escape(info['title'])} — {self._t('dash.room')} "
                            f"<code style='font-size:120%;letter-spacing:.15em'>{html.escape(info['code'])}</code> — "
                            f"{self._t('dash.step_no')} {info['step']} — {html.escape(state_word)}</h3>")
        seat_options = [(f"{self._t('dash.seat')} {seat['seat'] + 1}: {seat['name'] or '—'}", seat["seat"])
                        for seat in info["seats"]]
        if list(self.seat_picker.options) != seat_options:
            keep = self.seat_picker.value
            self.seat_picker.options = seat_options
            values = [value for _, value in seat_options]
            self.seat_picker.value = keep if keep in values else next(
                (seat["seat"] for seat in info["seats"] if seat["name"] is None), values[0])
        self._place_options(info, seat_options)
        if list(self.bot_picker.options) != info["bots"]:
            self.bot_picker.options = info["bots"]
            self.bot_picker.value = "random" if "random" in info["bots"] else info["bots"][0]
        self.step_button.disabled = not info["started"] or info["over"]
        self.reveal_button.disabled = not info["over"] or info["revealed"]
        self.ask_button.disabled = "beliefs" not in info or not info["started"] or info["over"]
        self.beliefs.value = self.beliefs_html(info)
        self.seats.value = self.seats_html(info)
        state = self.state
        seats = [{"seat": seat["seat"], "name": seat["name"], "bot": seat["bot"]} for seat in info["seats"]]
        projector = table_message(None if state is None else state.view(None), self.language, seats=seats,
                                  step=info["step"], paused=info["paused"])
        self.projector.value = (f"<div class='classroom-projector'><p><b>{html.escape(projector['status'])}</b></p>"
                                f"{projector['html']}</div>")
        if state is None:
            self.teacher.value = f"<p>{html.escape(self._t('dash.lobby'))}</p>"
            self.knowledge.value = self.teacher.value
            self.flow.value = ""
            return
        self.teacher.value = render_state_html(state, self.language)
        if self.tabs.selected_index == 3:
            panel = games.knowledge_function(info["game"])
            self.knowledge.value = panel(state, self.language) if panel else ""
            self.flow.value = f"<h4>{html.escape(self._t('dash.flow'))}</h4>{flow_image(state, self.language)}"

    def _place_options(self, info: dict[str, Any], seat_options: list[tuple[str, int]]) -> None:
        """The seats the picked seat may swap with: before the start only (the teacher places students, who is
        the Godfather); after, the control is off."""
        options = [(f"{self._t('dash.with')} {label}", value) for label, value in seat_options]
        if list(self.place_picker.options) != options:
            keep = self.place_picker.value
            self.place_picker.options = options
            values = [value for _, value in options]
            self.place_picker.value = keep if keep in values else values[-1]
        self.place_picker.disabled = self.swap_button.disabled = bool(info["started"] or info["closed"])

    def seats_html(self, info: dict[str, Any]) -> str:
        """Who sits where, who is online, each seat's link and QR code; how to join by code."""
        rows = []
        for seat in info["seats"]:
            name = html.escape(seat["name"]) if seat["name"] else f"<i>{html.escape(self._t('dash.waiting'))}</i>"
            if seat["bot"]:
                status = f"{html.escape(self._t('dash.bot'))}: {html.escape(seat['bot'])}"
            else:
                status = self._t("dash.online") + f" ({seat['online']})" if seat["online"] else self._t("dash.offline")
            link = html.escape(seat["link"])
            code = qr_svg(seat["link"], scale=2) if self.qr and not seat["bot"] else ""
            rows.append(f"<tr><td style='font-size:130%'>{seat['seat'] + 1}</td><td style='font-size:120%'>{name}</td>"
                        f"<td>{html.escape(status)}</td><td><a href='{link}' target='_blank'>{link}</a></td>"
                        f"<td>{code}</td></tr>")
        join = html.escape(info["public_url"])
        join_qr = qr_svg(info["join_url"], scale=3) if self.qr else ""
        head = "".join(f"<th>{html.escape(self._t(key))}</th>" for key in
                       ("dash.seat", "dash.name", "dash.online", "dash.link"))
        return (f"<div class='classroom-seats'><p style='font-size:120%'>{html.escape(self._t('dash.join'))} "
                f"<b>{join}</b>, {html.escape(self._t('dash.code'))} <b style='font-size:150%;letter-spacing:.15em'>"
                f"{html.escape(info['code'])}</b> — <a href='{html.escape(info['watch_url'])}' target='_blank'>"
                f"{html.escape(self._t('dash.open_projector'))}</a></p>{join_qr}"
                f"<table><tr>{head}<th></th></tr>{''.join(rows)}</table></div>")

    def beliefs_html(self, info: dict[str, Any]) -> str:
        """During play how many beliefs the table stated (`belief_count_html`); after the reveal the debrief
        (the server's, in the dashboard's language)."""
        beliefs = info.get("beliefs")
        if beliefs is None:
            return f"<p>{html.escape(self._t('dash.beliefs_off'))}</p>"
        if "debrief" in beliefs:
            return str(beliefs["debrief"].get(self.language, beliefs["debrief"]["en"]))
        return belief_count_html(beliefs, self.language)

    # ---------------------------------------------------------------- commands

    def _command(self, what: str, **body: Any) -> dict[str, Any] | None:
        try:
            reply = self.client.command(self.code, what, **body)
        except ClassroomError as error:
            self.message.value = (f"<span style='color:#b71c1c;font-weight:bold'>"
                                  f"{html.escape(error.text_in(self.language))}</span>")
            return None
        self.message.value = ""
        return reply

    def pause(self) -> None:
        self._command("pause")

    def resume(self) -> None:
        self._command("resume")

    def step(self) -> None:
        """The bot to move plays one move (even while paused)."""
        self._command("step")

    def reveal(self) -> None:
        self._command("reveal")

    def ask(self) -> None:
        """Ask every student what they believe now (a room opened with beliefs=True)."""
        self._command("ask")

    def swap(self, seat: int, other: int) -> None:
        """Before the start: seats `seat` and `other` exchange who sits there (a student's link follows them)."""
        self._command("swap", seat=seat, to=other)

    def seat_bot(self, seat: int, bot: str) -> None:
        self._command("bot", seat=seat, bot=bot)

    def fill_with_bots(self, bot: str | None = None) -> None:
        """Seat a bot (default: the game's first) at every empty seat: the game starts."""
        info = self.info or self.client.room(self.code)
        bot = bot or info["bots"][0]
        for seat in info["seats"]:
            if seat["name"] is None:
                self._command("bot", seat=seat["seat"], bot=bot)

    @property
    def links(self) -> list[str]:
        """Each seat's join link, by seat."""
        info = self.info or self.client.room(self.code)
        return [seat["link"] for seat in info["seats"]]

    def games(self) -> Any:
        """The class's games (every room of the server) for the analysis tools."""
        return self.client.games()

    def close(self) -> None:
        """Stop following the room (the room itself goes on). The panels are emptied first, so that a saved
        notebook keeps no link (links are credentials) in its widget state."""
        with self._lock:
            self._closed = True
        self.feed.close()
        self._worker.shutdown(wait=True)
        for panel in (self.title, self.message, self.broken, self.seats, self.projector, self.teacher, self.knowledge,
                      self.flow, self.beliefs):
            panel.value = ""
        self.seat_picker.options = []
        self.place_picker.options = []
        super().close()
