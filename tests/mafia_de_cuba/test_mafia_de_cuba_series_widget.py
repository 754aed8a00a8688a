"""The series widget (R7): a round is the game's own widget; tallies and "next round" follow the series."""

from __future__ import annotations

from tabletop_edu.mafia_de_cuba.series import Series
from tabletop_edu.mafia_de_cuba.series_widget import SeriesWidget, play_series


def test_bots_play_a_three_round_series_through_the_next_round_button() -> None:
    view = play_series(7, rounds=3, seed=1, seat=None)
    series = view.series
    for number in (1, 2, 3):
        assert series.round_number == number and series.current.is_over and view.game.state is series.current
        assert f"Round {number} of 3" in view.header.value and view.tally.value.startswith(series.table_html())
        if number < 3:
            assert not view.next_button.disabled and view.next_godfather.value == series.winners_choice()
            view.next_button.click()
    assert view.next_button.disabled and "The series is over" in view.tally.value
    assert len(series.games) == 3 and sum(series.totals()) == sum(len(game.winners) for game in series.games)


def test_a_person_plays_the_godfather_then_names_the_next_one_in_french() -> None:
    view = SeriesWidget(Series(7, rounds=2, seed=1), seat=0, language="fr")
    assert view.next_button.disabled and "Manche 1 sur 2" in view.header.value
    view.game.play("hide 2")
    while not view.game.state.is_over:
        view.game.play(next(text for text in view.game.action_picker.options if text.startswith("accuse")))
    assert not view.next_button.disabled  # the round's end reached the series through the widget's redraw
    assert view.next_godfather.value in view.game.state.winners
    view.next_godfather.value = 3  # the table decides otherwise
    view.next_button.click()
    assert view.series.current.godfather == 3 and "Parrain 3. Seat 3" in view.header.value
    assert view.tally.value.startswith(view.series.table_html("fr"))
    assert "<th>manche</th><th>Parrain</th>" in view.tally.value
    assert view.series.tallies()[0] == view.series.points(view.series.games[0])
