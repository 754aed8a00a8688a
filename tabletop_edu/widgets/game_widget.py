"""`GameWidget`: play any game of the package in a notebook, from any seat, against bots, on a projector.

The widget never renders the state directly for a seat: every piece a seat's page shows comes from
`state.view(seat)` or the seat's log, so what the page holds for seat k is exactly what seat k may know (no
secret hidden in the DOM). Only the omniscient perspective, meant for the teacher, renders the whole state.

Pieces, top to bottom: the perspective picker (absent on a student's screen, `lock_perspective=True`), the
language, projector mode and its size; the timeline (start / previous / next / live, the step's events beside
it); whose turn it is; the end of the game (the game's reveal); the table; the move buttons of the seat on
show; the bots' pace; the notation box; the log and the knowledge panel side by side, each titled for the
perspective. Projector mode keeps only the table, the moves and the bots' pace, in large type and high
contrast.

Every change (a move, a step, a perspective, a language) redraws once, and each piece is computed once per
(step, perspective, language): replaying or switching back is free. Any error, from a move, a bot or a
panel, is shown in the widget, which goes on working.
"""

from __future__ import annotations

import functools
import html
import itertools
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

import ipywidgets as widgets

from ..core import Bot, GameState, IllegalAction, Seat, View, play_turn
from ..i18n import LANGUAGES, check_language, tr
from ..moves import labeller
from .move_picker import HIDDEN, MovePicker
from .pace import INSTANT, PACES, STEP, TIMED, LoopScheduler, Scheduler, Timer
from .panels import (OMNISCIENT, Perspective, end_html, log_html, perspective_html, perspective_label, status_text,
                     step_events_html, step_heading, titled)
from .style import PROJECTOR_SIZE, SIZES, style_html
from .timeline import Timeline

LABEL_STYLE = {"description_width": "initial"}  # labels in full, in either language
Knowledge = Callable[[View | GameState, str], str]
_INSTANCES = itertools.count()
Method = TypeVar("Method", bound=Callable[..., Any])


def guarded(method: Method) -> Method:
    """Run a handler so that any exception is shown in the widget rather than breaking it: a table in front
    of a class must survive a bad move, a failing bot or a buggy panel."""
    @functools.wraps(method)
    def run(self: GameWidget, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except Exception as error:  # noqa: BLE001 - shown to the person, never raised into the page
            self.show_error(error)
            return None
    return run  # type: ignore[return-value]


@dataclass(frozen=True)
class Pieces:
    """Everything shown for one (step, perspective, language), computed once."""

    table: str
    log: str
    events: str
    knowledge: str
    status: str
    end: str


class GameWidget(widgets.VBox):
    """A playable, replayable table for any `GameState`.

    - `bots` maps seats to bots; every other seat is played by people through the widget (hot-seat).
    - `perspective`: a seat, None (a spectator) or `OMNISCIENT` (the teacher). `lock_perspective=True` makes
      a student's screen: no picker, and nothing switches the perspective.
    - `knowledge(subject, language) -> html` adds a game's panel (who knows what, posteriors...): it receives
      the perspective's view (the state itself for the omniscient perspective).
    - `projector=True` opens in projector mode; `size` is the type size in percent (see `style.SIZES`).
    - `bot_pace`: `"instant"`, `"timed"` (one bot move every `bot_delay` seconds, through `scheduler`) or
      `"step"` (one bot move per click on "Next move").
    """

    def __init__(self, state: GameState, *, bots: Mapping[Seat, Bot] | None = None,
                 perspective: Perspective = 0, language: str = "en", knowledge: Knowledge | None = None,
                 lock_perspective: bool = False, projector: bool = False, size: int = 100,
                 bot_pace: str = INSTANT, scheduler: Scheduler | None = None, bot_delay: float = 1.0) -> None:
        self._timer: Timer | None = None
        self.state = state
        self.knowledge = knowledge
        self.bots: dict[Seat, Bot] = dict(bots or {})
        self.language = check_language(language)
        self.rng = random.Random(f"bots-{state.seed}")
        if perspective not in (OMNISCIENT, None, *range(len(state.players))) or isinstance(perspective, bool):
            raise ValueError(f"perspective is {OMNISCIENT!r}, None (a spectator) or a seat from 0 to "
                             f"{len(state.players) - 1}, not {perspective!r}.")
        if bot_pace not in PACES:
            raise ValueError(f"bot_pace is one of {', '.join(PACES)}, not {bot_pace!r}.")
        if size not in SIZES:
            raise ValueError(f"size is one of {', '.join(map(str, SIZES))} (percent), not {size!r}.")
        if isinstance(bot_delay, bool) or not isinstance(bot_delay, (int, float)) or not 0 < bot_delay <= 60:
            raise ValueError(f"bot_delay is a number of seconds above 0 and at most 60, not {bot_delay!r}.")
        self.locked = bool(lock_perspective)
        self.scheduler: Scheduler = scheduler or LoopScheduler()
        self.bot_delay = float(bot_delay)
        self.redraws = 0
        self._size_before_projector = size
        self._instance = f"tabletop-id-{next(_INSTANCES)}"
        # Every step of a long game from every seat: a 12-player Mafia game is about 1,200 (step, seat) pairs.
        self._pieces = functools.lru_cache(maxsize=2048)(self._compute_pieces)
        self._replay = functools.lru_cache(maxsize=16)(self._compute_replay)
        self._legal = functools.lru_cache(maxsize=64)(self._compute_legal)
        self._live_view = functools.lru_cache(maxsize=64)(self._compute_live_view)
        self._flow = functools.lru_cache(maxsize=32)(self._compute_flow)
        self._flows_drawn: set[tuple[int, Perspective, str]] = set()

        self.style_sheet = widgets.HTML(style_html(self._instance, size))
        self.perspective_picker = self._perspective_dropdown(perspective)
        self.language_picker = widgets.ToggleButtons(options=list(LANGUAGES), value=language, style=LABEL_STYLE)
        self.projector_toggle = widgets.ToggleButton(value=False)
        self.size_picker = widgets.Dropdown(options=[(f"{percent} %", percent) for percent in SIZES], value=size,
                                            style=LABEL_STYLE, layout=widgets.Layout(width="auto"))
        self.timeline_bar = Timeline(self._on_timeline, language)
        self.timeline = self.timeline_bar.slider
        self.status = widgets.HTML()
        self.status.add_class("tabletop-status")
        self.end_panel = widgets.HTML()
        self.table = widgets.HTML()
        self.table.add_class("tabletop-table")
        self.moves = MovePicker(self.play, self._on_move_choice, language)
        self.message = widgets.HTML()
        self.pace_picker = self._pace_buttons(bot_pace)
        self.next_bot_button = widgets.Button(button_style="primary")
        self.action_picker = widgets.Dropdown(options=[], style=LABEL_STYLE, layout=widgets.Layout(width="auto"))
        self.action_text = widgets.Text()
        self.play_button = widgets.Button()
        self.log_title = widgets.HTML()
        self.log_panel = widgets.HTML()
        self.knowledge_title = widgets.HTML()
        self.knowledge_panel = widgets.HTML()
        self.flow_button = widgets.Button()
        self.flow = widgets.HTML()
        for title in (self.log_title, self.knowledge_title):
            title.add_class("tabletop-column-title")
        self.flow.add_class("tabletop-flow")

        self.language_picker.observe(self._on_language, names="value")
        self.projector_toggle.observe(lambda change: self.set_projector(change["new"]), names="value")
        self.size_picker.observe(self._on_size, names="value")
        self.next_bot_button.on_click(lambda _: self.next_bot_move())
        self.play_button.on_click(lambda _: self.play(self.action_text.value.strip() or self.action_picker.value))
        self.flow_button.on_click(lambda _: self.draw_flow())

        self.header = self._row(*self._header_children())
        self.bots_row = self._row(self.pace_picker, self.next_bot_button)
        self.notation = self._row(self.action_picker, self.action_text, self.play_button)
        log_column = widgets.VBox([self.log_title, self.log_panel])
        knowledge_column = widgets.VBox([self.knowledge_title, self.knowledge_panel, self.flow_button])
        for column in (log_column, knowledge_column):
            column.add_class("tabletop-column")
        self.panels = widgets.HBox([log_column, knowledge_column])
        self.panels.add_class("tabletop-panels")
        # The information-flow picture under both columns, in the table's whole width: a projector shows a
        # long game's columns and its title whole.
        super().__init__([self.style_sheet, self.header, self.timeline_bar, self.status, self.end_panel, self.table,
                          self.moves, self.message, self.bots_row, self.notation, self.panels, self.flow])
        self.add_class("tabletop-widget")
        self.add_class(self._instance)
        self._relabel()
        self.projector_toggle.value = bool(projector)  # observed: applies projector mode
        guarded(GameWidget._bots_answer)(self)

    # ---------------------------------------------------------------- what is on show

    @property
    def perspective(self) -> Perspective:
        return self.perspective_picker.value

    @property
    def bot_pace(self) -> str:
        return str(self.pace_picker.value)

    @property
    def projector(self) -> bool:
        return bool(self.projector_toggle.value)

    @property
    def live(self) -> bool:
        """True when the timeline shows the game as it is now (the only step where anyone may act)."""
        return self.timeline_bar.step >= len(self.state.history)

    @property
    def shown_state(self) -> GameState:
        """The state at the timeline's step: the live state, or a replay of the record's first steps."""
        step = self.timeline_bar.step
        return self.state if step >= len(self.state.history) else self._replay(step)

    def set_bot_pace(self, pace: str) -> None:
        """Bots move `"instant"`ly, one move a second (`"timed"`), or one per click on "Next move" (`"step"`)."""
        if pace not in PACES:
            raise ValueError(f"The bots' pace is one of {', '.join(PACES)}, not {pace!r}.")
        self.pace_picker.value = pace

    def set_perspective(self, perspective: Perspective) -> None:
        """Show the table from `perspective`; refused on a locked (student's) screen."""
        if self.locked:
            raise ValueError(f"This screen shows {perspective_label(self.state.players, self.perspective)} only.")
        self.perspective_picker.value = perspective

    def _compute_replay(self, step: int) -> GameState:
        record = self.state.record()
        record["actions"] = record["actions"][:step]
        return type(self.state).from_record(record)

    # ---------------------------------------------------------------- playing

    @guarded
    def play(self, action: str | None) -> None:
        """Play `action` (its notation) for the seat on show, then let the bots answer at their pace."""
        seat = self.perspective
        if not action:
            return
        if not self.live:
            self._say(tr("replaying", self.language))
            return
        if not isinstance(seat, int) or seat not in self.state.acting_seats:
            self._say(tr("not_your_turn", self.language))
            return
        try:
            self.state.apply(action, player=seat)
        except IllegalAction as reason:
            self._say(reason.words(self.language), error=True)
            return
        self.message.value = ""
        self.action_text.value = ""
        self.moves.chosen = ()
        self._bots_answer()

    def _bots_answer(self) -> None:
        """The game moved on: bots answer (all at once, or one later, or on request), then one redraw."""
        self.timeline_bar.extend(len(self.state.history))  # follows the game if it was live
        try:
            if self.bot_pace == INSTANT and self.live:
                for _ in range(self.state.max_steps + 1):
                    if self.state.is_over or not play_turn(self.state, self.bots, self.rng):
                        break
        finally:
            self._sync()
            self._schedule_bot()

    def _bot_to_move(self) -> bool:
        return self.live and not self.state.is_over and any(seat in self.bots for seat in self.state.acting_seats)

    @guarded
    def next_bot_move(self) -> None:
        """One bot move now (the "Next move" button of step-by-step play)."""
        if self._bot_to_move():
            play_turn(self.state, self.bots, self.rng)
            self._sync()
        self._schedule_bot()

    def _schedule_bot(self) -> None:
        """At the timed pace, a bot move in `bot_delay` seconds if a bot is to move; else no timer."""
        if self.bot_pace != TIMED or not self._bot_to_move():
            self._cancel_timer()
            return
        if self._timer is None:
            try:
                self._timer = self.scheduler.call_later(self.bot_delay, self._timed_bot_move)
            except RuntimeError:
                self._say(tr("timed_pace_needs_kernel", self.language))
                self.pace_picker.value = STEP

    @guarded
    def _timed_bot_move(self) -> None:
        self._timer = None
        if self.bot_pace == TIMED and self._bot_to_move():
            play_turn(self.state, self.bots, self.rng)
            self._sync()
        self._schedule_bot()

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    # ---------------------------------------------------------------- handlers

    @guarded
    def _on_timeline(self) -> None:
        self.moves.chosen = ()
        self._redraw()
        self._schedule_bot()  # replaying pauses timed bots; back to live resumes them

    @guarded
    def _on_perspective(self, _: Any) -> None:
        self.moves.chosen = ()
        self._redraw()

    @guarded
    def _on_move_choice(self) -> None:
        self._redraw_moves()

    @guarded
    def _on_language(self, change: dict[str, Any]) -> None:
        self.language = change["new"]
        old = self.perspective_picker
        self.perspective_picker = self._perspective_dropdown(old.value)
        self.header.children = self._header_children()
        old.close()
        old_pace = self.pace_picker
        self.pace_picker = self._pace_buttons(old_pace.value)
        self.bots_row.children = (self.pace_picker, self.next_bot_button)
        old_pace.close()
        self._relabel()
        self.set_projector(self.projector)
        self._redraw()

    @guarded
    def _on_pace(self, _: Any) -> None:
        self._cancel_timer()
        self._bots_answer()

    @guarded
    def _on_size(self, change: dict[str, Any]) -> None:
        self.style_sheet.value = style_html(self._instance, change["new"])

    def set_projector(self, on: bool) -> None:
        """Projector mode: large type, high contrast, only the table, the moves and the bots' pace."""
        if self.projector_toggle.value != on:
            self.projector_toggle.value = on  # observed: comes back here
            return
        for piece in (self.perspective_picker, self.language_picker, self.timeline_bar, self.notation,
                      self.panels):
            piece.layout.display = HIDDEN if on else None
        if self.locked:
            self.perspective_picker.layout.display = HIDDEN
        if on and "tabletop-projector" not in self._dom_classes:
            self._size_before_projector = self.size_picker.value
            self.add_class("tabletop-projector")
            self.size_picker.value = max(self.size_picker.value, PROJECTOR_SIZE)
        elif not on and "tabletop-projector" in self._dom_classes:
            self.remove_class("tabletop-projector")
            self.size_picker.value = self._size_before_projector

    # ---------------------------------------------------------------- building the controls

    def _perspective_dropdown(self, value: Perspective) -> widgets.Dropdown:
        """A perspective picker labelled in the current language, already set to `value` (on a locked screen,
        with `value` as its only choice).

        Changing the language builds a new picker rather than relabelling the old one: relabelling resets the
        choice for a moment, and the page must never show another perspective, not even for a moment.
        """
        choices: list[Perspective] = [OMNISCIENT, None, *range(len(self.state.players))]
        if self.locked:
            choices = [value]
        options = [(perspective_label(self.state.players, choice, self.language), choice) for choice in choices]
        picker = widgets.Dropdown(options=options, value=value, description=tr("perspective", self.language),
                                  style=LABEL_STYLE, disabled=self.locked, layout=widgets.Layout(width="auto"))
        picker.observe(self._on_perspective, names="value")
        if self.locked:
            picker.layout.display = HIDDEN
        return picker

    def _pace_buttons(self, value: str) -> widgets.ToggleButtons:
        """The bots' pace, labelled in the current language (rebuilt, like the perspective picker, so that a
        new language never switches the pace for a moment)."""
        keys = {INSTANT: "pace_instant", TIMED: "pace_second", STEP: "pace_step"}
        picker = widgets.ToggleButtons(options=[(tr(keys[pace], self.language), pace) for pace in PACES],
                                       value=value, description=tr("bot_pace", self.language), style=LABEL_STYLE)
        picker.observe(self._on_pace, names="value")
        return picker

    def _header_children(self) -> tuple[widgets.Widget, ...]:
        return (self.perspective_picker, self.language_picker, self.projector_toggle, self.size_picker)

    @staticmethod
    def _row(*children: widgets.Widget) -> widgets.HBox:
        row = widgets.HBox(list(children))
        row.add_class("tabletop-wrap")
        return row

    def _relabel(self) -> None:
        language = self.language
        self.language_picker.description = tr("language", language)
        self.projector_toggle.description = tr("projector", language)
        self.projector_toggle.tooltip = tr("projector_tip", language)
        self.size_picker.description = tr("size", language)
        self.next_bot_button.description = tr("next_bot", language)
        self.action_picker.description = tr("notation", language)
        self.action_text.placeholder = tr("type_action", language)
        self.play_button.description = tr("play", language)
        self.flow_button.description = tr("show_flow", language)
        self.timeline_bar.relabel(language)
        self.moves.relabel(language)

    # ---------------------------------------------------------------- drawing

    def refresh(self) -> None:
        """Redraw from the state: call it after changing `widget.state` from outside the widget."""
        self._sync()

    def invalidate(self) -> None:
        """Forget every piece computed so far and redraw: call it after changing what the panels depend on
        (a knowledge panel's setting, say)."""
        for cache in (self._pieces, self._replay, self._legal, self._live_view, self._flow):
            cache.cache_clear()
        self._sync()

    def _sync(self) -> None:
        self.timeline_bar.extend(len(self.state.history))
        self._redraw()

    def _compute_pieces(self, step: int, perspective: Perspective, language: str) -> Pieces:
        state = self.state if step >= len(self.state.history) else self._replay(step)
        knowledge: Callable[[], str] = lambda: ""  # noqa: E731
        if self.knowledge is not None:
            subject = state if perspective == OMNISCIENT else state.view(perspective)  # type: ignore[arg-type]
            knowledge = functools.partial(self.knowledge, subject, language)
        return Pieces(table=self._safely(perspective_html, state, perspective, language, log=False),
                      log=self._safely(log_html, state, perspective, language),
                      events=self._safely(step_events_html, state, perspective, step, language),
                      knowledge=self._safely(knowledge),
                      status=self._safely(lambda: html.escape(status_text(state, language))),
                      end=self._safely(end_html, state, language))

    def _safely(self, draw: Callable[..., str], *args: Any, **kwargs: Any) -> str:
        """A piece of the page, or the error that prevented it: a bug in one panel (a game's template, its
        knowledge panel) must not take the table down."""
        try:
            return str(draw(*args, **kwargs))
        except Exception as error:  # noqa: BLE001 - shown in place of the piece
            return self._error_html(error)

    def _redraw(self) -> None:
        """Show the step, perspective and language: every piece once, from the cache when already computed."""
        self.redraws += 1
        step, perspective, language = self.timeline_bar.step, self.perspective, self.language
        pieces = self._pieces(step, perspective, language)
        self.table.value = pieces.table
        self.log_panel.value = pieces.log
        heading = html.escape(step_heading(step, len(self.state.history), language))
        self.timeline_bar.events.value = (f"<div class='tabletop-step-events'><b>{heading}</b>"
                                          f"<div class='tabletop-step-list'>{pieces.events}</div></div>")
        self.knowledge_panel.value = pieces.knowledge
        self.status.value = pieces.status
        self.end_panel.value = pieces.end
        self.end_panel.layout.display = None if pieces.end else HIDDEN
        players = self.state.players
        self.log_title.value = html.escape(titled("log", players, perspective, language))
        self.knowledge_title.value = html.escape(titled("knowledge", players, perspective, language))
        drawn = (step, perspective, language) in self._flows_drawn
        self.flow.value = self._flow(step, perspective, language) if drawn else ""
        self._redraw_moves()

    def _redraw_moves(self) -> None:
        """The move buttons and the notation box of the seat on show: live and its turn, or a hint (none on a
        locked spectator's screen, which has no seat to choose). Only the live state is read: replaying an
        earlier step offers nothing to play."""
        seat, live, state = self.perspective, self.live, self.state
        acting = live and isinstance(seat, int) and not isinstance(seat, bool) and seat in state.acting_seats
        legal = list(self._legal(len(state.history), seat)) if acting else None
        if not live:
            hint = tr("replaying", self.language)
        elif not isinstance(seat, int) and not state.is_over and not self.locked:
            hint = tr("no_view", self.language)
        else:
            hint = ""
        label = labeller(self._live_view(len(state.history), seat), self.language) if legal else None
        self.moves.show(legal, label or (lambda path: path[-1]), hint)
        self.action_picker.options = legal or []
        self.action_picker.value = legal[0] if legal else None
        self.action_picker.disabled = self.play_button.disabled = self.action_text.disabled = not legal
        self.notation.layout.display = HIDDEN if self.projector else None
        stepping = self.bot_pace == STEP
        self.next_bot_button.layout.display = None if stepping else HIDDEN
        self.next_bot_button.disabled = not (stepping and self._bot_to_move())

    def _compute_legal(self, step: int, seat: Seat) -> tuple[str, ...]:
        """The seat's legal moves in the live state, which is at `step` (the key of the cache)."""
        return tuple(str(action) for action in self.state.legal_actions(seat))

    def _compute_live_view(self, step: int, seat: Seat) -> View:
        """The seat's view of the live state, which is at `step` (the key of the cache): its move labels'."""
        return self.state.view(seat)

    def _compute_flow(self, step: int, perspective: Perspective, language: str) -> str:
        """The information flow `perspective` can know of at `step`, as an SVG picture (no matplotlib: it
        draws in a browser kernel too)."""
        from ..knowledge.flow import EVERYONE, flow_data
        from ..pictures import flow_svg

        state = self.state if step >= len(self.state.history) else self._replay(step)
        seen_by = EVERYONE if perspective == OMNISCIENT else perspective
        flow = flow_data(state.events, state.players, seen_by)
        title = perspective_label(state.players, perspective, language)
        return flow_svg(flow, title=tr("flow_of", language).format(title=title), language=language,
                        game=state.game)

    @guarded
    def draw_flow(self) -> None:
        """Draw the information flow the perspective can know of, up to the step on show, as a picture."""
        key = (self.timeline_bar.step, self.perspective, self.language)
        self.flow.value = self._flow(*key)
        self._flows_drawn.add(key)

    # ---------------------------------------------------------------- messages

    def _say(self, text: str, *, error: bool = False) -> None:
        kind = "tabletop-error" if error else "tabletop-hint"
        self.message.value = f"<span class='{kind}'>{html.escape(text)}</span>"

    def _error_html(self, error: Exception) -> str:
        detail = error.words(self.language) if isinstance(error, IllegalAction) else f"{type(error).__name__}: {error}"
        text = tr("error", self.language).format(detail=detail[:400])
        return f"<span class='tabletop-error'>{html.escape(text)}</span>"

    def show_error(self, error: Exception) -> None:
        """Show `error` in the widget's message line (every handler's exceptions end up here)."""
        self.message.value = self._error_html(error)

    # ---------------------------------------------------------------- notebooks

    def close(self) -> None:
        self._cancel_timer()
        super().close()

    def __repr__(self) -> str:
        who = perspective_label(self.state.players, self.perspective)
        return (f"<GameWidget: {self.state.title}, {len(self.state.players)} players, step "
                f"{self.timeline_bar.step} of {len(self.state.history)}, seen by {who}>")

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        """The live widget, plus a static HTML picture of the table for pages that do not run widgets."""
        return with_static_picture(super()._repr_mimebundle_(**kwargs), repr(self),
                                   f"<div class='tabletop-static'><b>{self.status.value}</b>{self.end_panel.value}"
                                   f"{self.table.value}{self.log_panel.value}</div>")


def with_static_picture(bundle: Any, text: str, picture: str) -> dict[str, Any]:
    """A widget's display bundle with a text and an HTML picture added, for pages that run no widgets (a
    rendered notebook on a website, nbval's stored outputs)."""
    found = dict(bundle[0]) if isinstance(bundle, tuple) else dict(bundle or {})
    found["text/plain"] = text
    found["text/html"] = picture
    return found


__all__ = ["GameWidget", "OMNISCIENT", "perspective_html", "with_static_picture"]
