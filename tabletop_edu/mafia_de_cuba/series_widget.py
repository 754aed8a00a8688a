"""A series of Mafia de Cuba rounds in a notebook: the round being played, the tallies, and "next round".

`play_series(7, rounds=3, seed=1)` seats you at seat 0 for every round (`seat=None`: bots only, watched as a
spectator). The round being played is the game's own widget (`widget.play`: table, log, knowledge panel, all
from your seat's view); under it the tally table (points per seat per round, R7.3) and, once the round is over,
the next Godfather (the winners' choice, R7.2, which you may change) and a "Next round" button.
"""

from __future__ import annotations

from html import escape
from typing import Any, cast

import ipywidgets as widgets

from ..core import Seat
from ..i18n import check_language, register, tr
from ..widgets import GameWidget
from .engine import MafiaState
from .rules import Rules
from .series import Series
from .widget import play

register({
    "en": {"mdc_series_round": "Round {number} of {rounds}", "mdc_series_godfather": "Godfather",
           "mdc_series_next_godfather": "Next Godfather", "mdc_series_next": "Next round",
           "mdc_series_winners_choice": "the winners' choice",
           "mdc_series_over": "The series is over. Leaders: {names}."},
    "fr": {"mdc_series_round": "Manche {number} sur {rounds}", "mdc_series_godfather": "Parrain",
           "mdc_series_next_godfather": "Prochain Parrain", "mdc_series_next": "Manche suivante",
           "mdc_series_winners_choice": "le choix des vainqueurs",
           "mdc_series_over": "La série est terminée. En tête : {names}."},
})


class SeriesWidget(widgets.VBox):
    """A series of rounds at one table, one GameWidget per round, with running tallies."""

    def __init__(self, series: Series, *, seat: Seat | None = 0, language: str = "en") -> None:
        self.series, self.seat, self.language = series, seat, check_language(language)
        self.header = widgets.HTML()
        self.tally = widgets.HTML()
        seats = [(f"{s}. {name}", s) for s, name in enumerate(series.players)]
        self.next_godfather = widgets.Dropdown(options=seats, description=tr("mdc_series_next_godfather", language),
                                               style={"description_width": "initial"})
        self.next_button = widgets.Button(description=tr("mdc_series_next", language), button_style="primary")
        self.next_button.on_click(lambda _: self.next_round())
        self._chosen_for = 0  # the round whose winners' choice the menu shows
        self.game = self._round_widget()
        super().__init__([self.header, self.game, self.tally, widgets.HBox([self.next_godfather, self.next_button])])
        self.add_class("mdc-series-widget")
        self.refresh()

    def _round_widget(self) -> GameWidget:
        """The game's own widget for the current round; its fresh game stands for the round in the series."""
        current = self.series.current
        game = play(list(self.series.players), seed=current.seed, rules=current.rules,
                    seat=self.seat, bots=self.series.bots, language=self.language)
        self.series.adopt(cast(MafiaState, game.state))  # `play` deals a Mafia de Cuba game
        game.status.observe(lambda _: self.refresh(), names="value")  # every redraw of the round
        return game

    def next_round(self, godfather: Seat | None = None) -> None:
        """Start the next round with `godfather` (default: the one picked in the menu, the winners' choice)."""
        self.series.next_round(self.next_godfather.value if godfather is None else godfather)
        self.game = self._round_widget()
        self.children: tuple[Any, ...] = (self.header, self.game, *self.children[2:])
        self.refresh()

    def refresh(self) -> None:
        """Redraw the header, the tallies and the next-round controls from the series."""
        series, language = self.series, self.language
        current = series.current
        godfather = f"{current.godfather}. {series.players[current.godfather]}"
        title = tr("mdc_series_round", language).format(number=series.round_number, rounds=series.rounds)
        self.header.value = (f"<h3>{escape(title)} — {escape(tr('mdc_series_godfather', language))} "
                             f"{escape(godfather)}</h3>")
        over = ""
        if series.is_over:
            names = ", ".join(series.players[seat] for seat in series.leaders())
            over = f"<p><b>{escape(tr('mdc_series_over', language).format(names=names))}</b></p>"
        self.tally.value = series.table_html(language) + over
        ready = current.is_over and series.round_number < series.rounds
        if ready and self._chosen_for != series.round_number:
            self.next_godfather.value = series.winners_choice()
            self._chosen_for = series.round_number
        self.next_godfather.disabled = self.next_button.disabled = not ready

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        """The live widget, plus a static picture (header, the round's table, tallies) for pages without widgets."""
        bundle = super()._repr_mimebundle_(**kwargs)
        bundle = dict(bundle[0]) if isinstance(bundle, tuple) else dict(bundle or {})
        picture = f"{self.header.value}{self.game.table.value}{self.tally.value}"
        bundle["text/html"] = f"<div class='mdc-series'>{picture}</div>"
        return bundle


def play_series(players: int | list[str] = 7, *, rounds: int = 3, seed: int = 0, seat: Seat | None = 0,
                rules: Rules | None = None, language: str = "en") -> SeriesWidget:
    """A seeded series at a table of bots where you sit at `seat` (None: watch the bots)."""
    return SeriesWidget(Series(players, rounds=rounds, seed=seed, rules=rules), seat=seat, language=language)


__all__ = ["SeriesWidget", "play_series"]
