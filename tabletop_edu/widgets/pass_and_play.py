"""Pass-and-play: one screen for a whole table, each seat's hand shown only while that seat looks.

A class without phones plays on one laptop or projector. The screen always shows the public table, the
spectator's view, which holds no seat's secret. When a seat is to move (in a simultaneous choice, each
acting seat in turn) a privacy screen says "Pass to Ben" with one big button, "I am Ben — show my hand";
only after Ben taps it does the widget draw his view (hand, role, what he saw) and his move buttons. After
his move, or his "Hide my hand", every private piece is emptied, not merely hidden: between seats the
widget's HTML holds no private text at all, so nothing is left in the page for the next seat to find.

Pure Python and ipywidgets: it runs the same in JupyterLab and in the static JupyterLite site.
"""

from __future__ import annotations

import html
import itertools
import random
from collections.abc import Mapping, Sequence
from typing import Any

import ipywidgets as widgets

from ..core import Bot, GameState, IllegalAction, Seat, play_turn
from ..i18n import check_language, tr
from ..moves import labeller
from ..registry import GamePlugin, game as find_plugin
from .game_widget import with_static_picture
from .move_picker import BLANK, HIDDEN, MovePicker
from .panels import end_html, log_html, perspective_html, seat_name, status_text
from .style import SIZES, style_html

PASS_STYLE = """
.tabletop-widget .tabletop-pass-screen { border: 4px dashed #1f2937; border-radius: 10px; padding: 1em;
  align-items: center; text-align: center; }
.tabletop-widget .tabletop-pass-heading .widget-html-content { font-size: 2em; font-weight: 700; }
.tabletop-widget .tabletop-pass-hint .widget-html-content { font-size: 1.25em; }
.tabletop-widget .jupyter-button.tabletop-pass-button { min-height: calc(var(--tabletop-scale, 1) * 72px);
  font-size: calc(var(--tabletop-scale, 1) * 22px); font-weight: 700; padding: 0 1.2em; max-width: 100%;
  white-space: normal; }
.tabletop-widget .tabletop-private { border: 4px solid #003f88; border-radius: 10px; padding: 0.6em; }
.tabletop-widget .tabletop-pass-log-title { font-size: 1.15em; font-weight: 700; margin-top: 0.6em; }
.tabletop-widget .tabletop-private-heading .widget-html-content { font-size: 1.4em; font-weight: 700;
  color: #003f88; }
"""

#: What the widget shows: the privacy screen for the seat to move, that seat's own screen, or the end.
PASSING, LOOKING, OVER = "passing", "looking", "over"
_INSTANCES = itertools.count()


def _heading(text: str, css: str) -> str:
    return f"<div class='{css}'>{html.escape(text)}</div>"


class PassAndPlay(widgets.VBox):
    """One screen for the whole table of `state`: the public table, a privacy screen before each seat's
    turn, and that seat's view only between its tap on "I am ... — show my hand" and its move.

    `bots` plays some seats (they move at once, on the public screen); people play every other seat.
    `size` is the type size in percent (see `style.SIZES`): 150 or more for a projector.
    """

    def __init__(self, state: GameState[Any], *, bots: Mapping[Seat, Bot] | None = None, language: str = "en",
                 size: int = 125) -> None:
        if size not in SIZES:
            raise ValueError(f"size is one of {', '.join(map(str, SIZES))} (percent), not {size!r}.")
        self.state = state
        self.language = check_language(language)
        self.bots: dict[Seat, Bot] = dict(bots or {})
        unknown = sorted(set(self.bots) - set(range(len(state.players))))
        if unknown:
            raise ValueError(f"bots names seats {unknown}, but this table has seats 0 to {len(state.players) - 1}.")
        if len(self.bots) == len(state.players):
            raise ValueError("Every seat has a bot: pass-and-play needs at least one person at the table.")
        self.rng = random.Random(f"bots-{state.seed}")
        self.mode = PASSING
        self.seat: Seat | None = None  # the seat the privacy screen or the private screen is for
        instance = f"tabletop-pass-{next(_INSTANCES)}"

        self.style_sheet = widgets.HTML(style_html(instance, size) + f"<style>{PASS_STYLE}</style>")
        self.status = widgets.HTML()
        self.status.add_class("tabletop-status")
        self.end_panel = widgets.HTML()
        self.public_table = widgets.HTML()
        self.public_table.add_class("tabletop-table")
        self.public_log = widgets.HTML()
        self.public_box = widgets.VBox([self.public_table, self.public_log])

        self.pass_heading = widgets.HTML()
        self.pass_heading.add_class("tabletop-pass-heading")
        self.pass_hint = widgets.HTML()
        self.pass_hint.add_class("tabletop-pass-hint")
        self.reveal_button = widgets.Button(button_style="primary", layout=widgets.Layout(width="auto"))
        self.reveal_button.add_class("tabletop-pass-button")
        self.reveal_button.on_click(lambda _: self.reveal())
        self.pass_screen = widgets.VBox([self.pass_heading, self.pass_hint, self.reveal_button])
        self.pass_screen.add_class("tabletop-pass-screen")

        self.private_heading = widgets.HTML()
        self.private_heading.add_class("tabletop-private-heading")
        self.private_table = widgets.HTML()
        self.private_table.add_class("tabletop-table")
        self.moves = MovePicker(self.play, self._draw_moves, self.language)
        self.message = widgets.HTML()
        self.private_log = widgets.HTML()
        self.hide_button = widgets.Button(layout=widgets.Layout(width="auto"))
        self.hide_button.on_click(lambda _: self.hide())
        top = widgets.HBox([self.private_heading, self.hide_button])
        top.add_class("tabletop-wrap")
        self.private_screen = widgets.VBox([top, self.private_table, self.moves, self.message, self.private_log])
        self.private_screen.add_class("tabletop-private")

        super().__init__([self.style_sheet, self.status, self.end_panel, self.pass_screen,
                          self.private_screen, self.public_box])
        self.add_class("tabletop-widget")
        self.add_class(instance)
        self._bots_move()
        self._pass_to_next()

    # ---------------------------------------------------------------- who is at the screen

    @property
    def to_move(self) -> Seat | None:
        """The person's seat that moves next (the first of several choosing at once), None at the end."""
        people = [seat for seat in self.state.acting_seats if seat not in self.bots]
        return None if self.state.is_over or not people else people[0]

    def name(self, seat: Seat) -> str:
        return seat_name(self.state.players, seat, self.language)

    def reveal(self) -> None:
        """The seat at the privacy screen tapped "I am ... — show my hand": draw its view and its moves."""
        if self.mode != PASSING or self.seat is None:
            return
        self.mode = LOOKING
        self._draw()

    def hide(self) -> None:
        """Back to the privacy screen for the same seat, its private pieces emptied."""
        if self.mode == LOOKING:
            self.mode = PASSING
            self._draw()

    def play(self, action: str) -> None:
        """Play `action` for the seat looking, let the bots answer, then hide the hand before the next seat."""
        seat = self.seat
        if self.mode != LOOKING or seat is None or not action:
            return
        try:
            self.state.apply(action, player=seat)
        except IllegalAction as reason:
            self.message.value = f"<span class='tabletop-error'>{html.escape(reason.words(self.language))}</span>"
            return
        self.message.value = ""
        self._bots_move()
        if self.to_move == seat:
            self._draw()  # the same seat goes on: nobody else is at the screen
        else:
            self._pass_to_next()

    def set_language(self, language: str) -> None:
        self.language = check_language(language)
        self.moves.relabel(self.language)
        self._draw()

    def _bots_move(self) -> None:
        for _ in range(self.state.max_steps + 1):
            if self.state.is_over or not play_turn(self.state, self.bots, self.rng):
                return

    def _pass_to_next(self) -> None:
        self.seat = self.to_move
        self.mode = OVER if self.seat is None else PASSING
        self._draw()

    # ---------------------------------------------------------------- drawing

    def _draw(self) -> None:
        """Every piece from the mode: the private pieces hold text only while their seat is LOOKING. They are
        drawn first, so that the page empties them before it calls the next seat to the screen."""
        state, language, looking = self.state, self.language, self.mode == LOOKING
        self._draw_private(looking)
        self.status.value = html.escape(status_text(state, language))
        self.end_panel.value = end_html(state, language)
        self.public_table.value = perspective_html(state, None, language, log=False)
        self.public_log.value = (_heading(tr("pass.public_log", language), "tabletop-pass-log-title")
                                 + log_html(state, None, language))
        self.public_box.layout.display = HIDDEN if looking else None
        seat = self.seat if self.mode == PASSING else None
        passing = seat is not None
        name = "" if seat is None else self.name(seat)
        self.pass_heading.value = html.escape(tr("pass.to", language).format(name=name)) if passing else ""
        self.pass_hint.value = html.escape(tr("pass.hint", language).format(name=name)) if passing else ""
        self.reveal_button.description = tr("pass.reveal", language).format(name=name) if passing else BLANK
        self.reveal_button.disabled = not passing
        self.pass_screen.layout.display = None if passing else HIDDEN
        self.end_panel.layout.display = None if self.mode == OVER else HIDDEN

    def _draw_private(self, looking: bool) -> None:
        seat, language = self.seat, self.language
        if looking and seat is not None:
            name = self.name(seat)
            self.private_heading.value = html.escape(tr("pass.screen_of", language).format(name=name))
            self.private_table.value = perspective_html(self.state, seat, language, log=False)
            self.private_log.value = (_heading(tr("pass.own_log", language), "tabletop-pass-log-title")
                                      + log_html(self.state, seat, language))
            self.hide_button.description = tr("pass.hide", language)
        else:
            self.moves.chosen = ()
            for piece in (self.private_heading, self.private_table, self.private_log, self.message):
                piece.value = ""
            self.hide_button.description = BLANK
        self.hide_button.disabled = not looking
        self.private_screen.layout.display = None if looking else HIDDEN
        self._draw_moves()

    def _draw_moves(self) -> None:
        """The move buttons of the seat looking; none at all (no labels in the page) otherwise."""
        seat = self.seat
        if self.mode != LOOKING or seat is None:
            self.moves.show(None, lambda path: path[-1])
            return
        legal = [str(action) for action in self.state.legal_actions(seat)]
        self.moves.show(legal, labeller(self.state.view(seat), self.language))

    # ---------------------------------------------------------------- notebooks

    def __repr__(self) -> str:
        who = "nobody" if self.seat is None else self.name(self.seat)
        return (f"<PassAndPlay: {self.state.title}, {len(self.state.players)} players, {self.mode} "
                f"({who}), step {len(self.state.history)}>")

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        """The live widget, plus a static picture of the public table only, for pages that run no widgets."""
        return with_static_picture(super()._repr_mimebundle_(**kwargs), repr(self),
                                   f"<div class='tabletop-static'><b>{self.status.value}</b>"
                                   f"{self.end_panel.value}{self.public_table.value}</div>")


def pass_and_play(game: str | GamePlugin, players: int | Sequence[str] | None = None, *, seed: int | None = None,
                  language: str = "en", rules: Any = None, bots: Mapping[Seat, Bot] | None = None,
                  size: int = 125) -> PassAndPlay:
    """A new game of `game` ("commissario", "get_adler", "mafia_de_cuba"...) for one screen and a whole table.

    `players` is a number of seats or the players' names (`["Ana", "Ben", "Chloé"]`), within the game's
    range; `seed` makes the deal the same every time; `language` is "en" or "fr".
    """
    plugin = find_plugin(game)
    count = players if isinstance(players, int) else None if players is None else len(players)
    if isinstance(players, (bool, str)) or (count is not None and not plugin.min_players <= count
                                            <= plugin.max_players):
        raise ValueError(f"{plugin.title} is played by {plugin.min_players} to {plugin.max_players} players, "
                         f"not {players!r}.")
    names = players if players is None or isinstance(players, int) else [str(name) for name in players]
    if isinstance(names, list) and (len(set(names)) != len(names) or not all(name.strip() for name in names)):
        raise ValueError(f"Each player needs a name of their own, to be called to the screen: {names!r}.")
    state = plugin.new_game(names, seed=seed, rules=rules)
    return PassAndPlay(state, bots=bots, language=language, size=size)


__all__ = ["LOOKING", "OVER", "PASSING", "PassAndPlay", "pass_and_play"]
