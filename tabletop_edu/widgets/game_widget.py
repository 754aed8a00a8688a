"""`GameWidget`: play any game of the package in a notebook, from any seat, against bots.

The widget never renders the state directly for a seat: every seat's picture is `view_html(state.view(seat))`,
so what the page holds for seat k is exactly what seat k may know (no secret hidden in the DOM). Only the
"omniscient" perspective, meant for the teacher, renders the whole state.

Pieces: the perspective picker (omniscient / spectator / seat k), a timeline slider that replays the record
up to any step, the table, the action picker for the seat being viewed (hot-seat play: switch the
perspective to the seat whose turn it is), the log as that perspective saw it, and a knowledge panel drawing
the information flow that perspective can know of.
"""

from __future__ import annotations

import base64
import html
import io
import random
from collections.abc import Callable, Mapping
from typing import Any

import ipywidgets as widgets

from ..core import Bot, GameState, IllegalAction, Seat, View, log_for, play_turn
from ..core.view import game_renderer, render_state_html, render_view_html
from ..i18n import LANGUAGES, check_language, tr

OMNISCIENT = "omniscient"
LABEL_STYLE = {"description_width": "initial"}  # labels in full, in either language
Perspective = Seat | None | str  # a seat, None for a spectator, or OMNISCIENT


def perspective_html(state: GameState, perspective: Perspective, language: str = "en", log: bool = True) -> str:
    """The table as `perspective` sees it: a seat's or spectator's view, or the whole state for the teacher.
    The widget asks for it without the log, which has a tab of its own."""
    if perspective == OMNISCIENT:
        return render_state_html(state, language, log)
    return render_view_html(state.view(perspective), language, log)  # type: ignore[arg-type]


def log_html(state: GameState, perspective: Perspective, language: str = "en") -> str:
    """The log as `perspective` observed it (the omniscient log shows every event in full), worded by the
    game's `render.event_text(event, players, language)` when it has one."""
    events = state.events if perspective == OMNISCIENT else log_for(state.events, perspective)  # type: ignore[arg-type]
    event_text = game_renderer(state.game, "event_text")
    texts = [event.text if event_text is None else event_text(event, state.players, language) for event in events]
    items = "".join(f"<li value='{event.step}'>{html.escape(text)}</li>" for event, text in zip(events, texts))
    return f"<ol class='tabletop-log'>{items}</ol>"


def flow_png(state: GameState, perspective: Perspective) -> bytes:
    """The information-flow drawing as `perspective` can know it, as PNG bytes."""
    from ..knowledge import draw_information_flow, events_flow

    events = state.events if perspective == OMNISCIENT else log_for(state.events, perspective)  # type: ignore[arg-type]
    figure = draw_information_flow(events_flow(events, state.players), size=(5, 5))
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=72)
    return buffer.getvalue()


class GameWidget(widgets.VBox):
    """A playable, replayable table for any `GameState`.

    `bots` maps seats to bots; every other seat is played by people through the widget (hot-seat).
    Bots move by themselves until a human seat is to act. `knowledge` adds a game's own panel (who knows
    what, posteriors...): it receives the perspective's view (the state itself for the omniscient
    perspective) and the language, and returns HTML.
    """

    def __init__(self, state: GameState, *, bots: Mapping[Seat, Bot] | None = None,
                 perspective: Perspective = 0, language: str = "en",
                 knowledge: Callable[[View | GameState, str], str] | None = None) -> None:
        self.state = state
        self.knowledge = knowledge
        self.bots: dict[Seat, Bot] = dict(bots or {})
        self.language = check_language(language)
        self.rng = random.Random(f"bots-{state.seed}")
        if perspective not in (OMNISCIENT, None, *range(len(state.players))):
            raise ValueError(f"perspective is {OMNISCIENT!r}, None (a spectator) or a seat from 0 to "
                             f"{len(state.players) - 1}, not {perspective!r}.")
        self.perspective_picker = self._perspective_dropdown(perspective)
        self.language_picker = widgets.ToggleButtons(options=list(LANGUAGES), value=language,
                                                     description=tr("language", language), style=LABEL_STYLE)
        self.timeline = widgets.IntSlider(min=0, max=0, value=0, description=tr("timeline", language),
                                          continuous_update=False, style=LABEL_STYLE)
        self.table = widgets.HTML()
        self.status = widgets.HTML()
        self.action_picker = widgets.Dropdown(options=[], description=tr("your_move", language), style=LABEL_STYLE)
        self.action_text = widgets.Text(placeholder=tr("type_action", language))
        self.play_button = widgets.Button(description=tr("play", language), button_style="primary")
        self.message = widgets.HTML()
        self.log_panel = widgets.HTML()
        self.flow_button = widgets.Button(description=tr("show_flow", language))
        self.flow = widgets.HTML()
        self.knowledge_panel = widgets.HTML()
        self.language_picker.observe(self._on_language, names="value")
        self.timeline.observe(lambda _: self.refresh(), names="value")
        self.play_button.on_click(lambda _: self.play(self.action_text.value.strip() or self.action_picker.value))
        self.flow_button.on_click(lambda _: self.draw_flow())
        controls = widgets.HBox([self.action_picker, self.action_text, self.play_button])
        knowledge = widgets.VBox([self.knowledge_panel, self.flow_button, self.flow])
        self.tabs = widgets.Tab(children=[self.log_panel, knowledge])
        self.tabs.set_title(0, tr("log", language))
        self.tabs.set_title(1, tr("knowledge", language))
        self.header = widgets.HBox([self.perspective_picker, self.language_picker])
        super().__init__([self.header, self.timeline,
                          self.status, self.table, controls, self.message, self.tabs])
        self.add_class("tabletop-widget")
        self._let_bots_play()
        self.refresh()

    # ---------------------------------------------------------------- state of the controls

    @property
    def perspective(self) -> Perspective:
        return self.perspective_picker.value

    @property
    def shown_state(self) -> GameState:
        """The state at the timeline's step: the live state, or a replay of the record's first steps."""
        if self.timeline.value >= len(self.state.history):
            return self.state
        record = self.state.record()
        record["actions"] = record["actions"][:self.timeline.value]
        return type(self.state).from_record(record)

    def _perspective_dropdown(self, value: Perspective) -> widgets.Dropdown:
        """A perspective picker labelled in the current language, already set to `value`.

        Changing the language builds a new picker rather than relabelling the old one: relabelling resets the
        choice for a moment, and the page must never show another perspective, not even for a moment.
        """
        options: list[tuple[str, Perspective]] = [(tr("omniscient", self.language), OMNISCIENT),
                                                  (tr("spectator", self.language), None)]
        options += [(f"{tr('seat', self.language)} {seat}: {name}", seat)
                    for seat, name in enumerate(self.state.players)]
        picker = widgets.Dropdown(options=options, value=value, description=tr("perspective", self.language),
                                  style=LABEL_STYLE)
        picker.observe(lambda _: self.refresh(), names="value")
        return picker

    def _on_language(self, change: dict[str, Any]) -> None:
        self.language = change["new"]
        self.language_picker.description = tr("language", self.language)
        self.timeline.description = tr("timeline", self.language)
        self.action_picker.description = tr("your_move", self.language)
        self.action_text.placeholder = tr("type_action", self.language)
        self.play_button.description = tr("play", self.language)
        self.flow_button.description = tr("show_flow", self.language)
        self.tabs.set_title(0, tr("log", self.language))
        self.tabs.set_title(1, tr("knowledge", self.language))
        self.perspective_picker = self._perspective_dropdown(self.perspective)
        self.header.children = (self.perspective_picker, self.language_picker)
        self.refresh()

    # ---------------------------------------------------------------- playing

    def play(self, action: str | None) -> None:
        """Play `action` for the seat being viewed, then let the bots answer."""
        seat = self.perspective
        if not action:
            return
        if self.timeline.value < len(self.state.history):
            self.message.value = html.escape(tr("replaying", self.language))
            return
        if not isinstance(seat, int) or seat not in self.state.acting_seats:
            self.message.value = html.escape(tr("not_your_turn", self.language))
            return
        try:
            self.state.apply(action, player=seat)
        except IllegalAction as reason:
            self.message.value = f"<span class='tabletop-error'>{html.escape(str(reason))}</span>"
            return
        self.message.value = ""
        self.action_text.value = ""
        self._let_bots_play()
        self.refresh()

    def _let_bots_play(self) -> None:
        for _ in range(self.state.max_steps + 1):
            if self.state.is_over or not play_turn(self.state, self.bots, self.rng):
                return

    # ---------------------------------------------------------------- drawing

    def refresh(self) -> None:
        """Redraw everything from the shown state and the perspective."""
        was_at_end = self.timeline.value >= self.timeline.max
        self.timeline.max = len(self.state.history)
        if was_at_end:
            self.timeline.value = self.timeline.max
        state = self.shown_state
        perspective = self.perspective
        self.table.value = perspective_html(state, perspective, self.language, log=False)
        self.log_panel.value = log_html(state, perspective, self.language)
        self.flow.value = ""
        if self.knowledge is not None:
            subject = state if perspective == OMNISCIENT else state.view(perspective)  # type: ignore[arg-type]
            self.knowledge_panel.value = self.knowledge(subject, self.language)
        self.status.value = f"<b>{html.escape(self._status(state))}</b>"
        live = state is self.state
        seat = perspective if isinstance(perspective, int) else None
        legal = state.legal_actions(seat) if live and seat is not None and seat in state.acting_seats else []
        self.action_picker.options = [str(action) for action in legal]
        self.action_picker.value = str(legal[0]) if legal else None
        self.action_picker.disabled = self.play_button.disabled = self.action_text.disabled = not legal

    def _status(self, state: GameState) -> str:
        if state.is_over:
            names = ", ".join(state.players[seat] for seat in state.winners)
            return f"{tr('game_over', self.language)}. {tr('winners', self.language)}: {names}"
        waiting = ", ".join(state.players[seat] for seat in state.acting_seats)
        return f"{tr('waiting_for', self.language)}: {waiting}"

    def draw_flow(self) -> None:
        """Draw the information flow the current perspective can know of, as an inline PNG."""
        png = base64.b64encode(flow_png(self.shown_state, self.perspective)).decode("ascii")
        self.flow.value = f"<img alt='{html.escape(tr('knowledge', self.language))}' src='data:image/png;base64,{png}'/>"

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        """The live widget, plus a static HTML picture of the table for pages that do not run widgets."""
        bundle = super()._repr_mimebundle_(**kwargs)
        bundle = dict(bundle[0]) if isinstance(bundle, tuple) else dict(bundle or {})
        bundle["text/html"] = (f"<div class='tabletop-static'>{self.status.value}{self.table.value}"
                               f"{self.log_panel.value}</div>")
        return bundle
