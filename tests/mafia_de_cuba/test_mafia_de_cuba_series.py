"""R7: a series of rounds, the winners choosing the next Godfather, with tallies and replayable records."""

from __future__ import annotations

import json
import random

import pytest

from tabletop_edu.core import RecordError, RulesError, load
from tabletop_edu.mafia_de_cuba import MafiaState, Rules
from tabletop_edu.mafia_de_cuba.series import Series, one_point_per_win, winners_pick


def test_r7_1_a_seeded_series_plays_the_same_rounds_every_time() -> None:
    first, again = Series(7, rounds=3, seed=1).play(), Series(7, rounds=3, seed=1).play()
    assert first.is_over and first.round_number == 3
    assert [game.to_json() for game in first.games] == [game.to_json() for game in again.games]
    assert len({game.seed for game in first.games}) == 3  # each round its own deal of seeds
    other = Series(7, rounds=3, seed=2).play()
    assert [game.seed for game in other.games] != [game.seed for game in first.games]


def test_r7_2_the_winners_designate_the_next_godfather() -> None:
    series = Series(8, rounds=4, seed=3, rules=Rules(cleaner=True))
    for number in range(1, 5):
        game = series.play_round()
        assert game.godfather == series.godfathers[number - 1]
        if number < 4:
            choice = series.winners_choice()
            assert choice in game.winners
            assert series.next_round().godfather == choice
            assert series.current.rules == Rules(cleaner=True, godfather_seat=choice)
    with pytest.raises(RulesError, match="over"):
        series.next_round()


def test_r7_2_a_person_may_name_any_seat_and_nobody_winning_passes_the_box_left() -> None:
    series = Series(6, rounds=2, seed=0)
    with pytest.raises(RulesError, match="Finish this round"):
        series.next_round()
    with pytest.raises(RulesError, match="still being played"):
        series.winners_choice()
    series.play_round()
    for bad in (6, -1, True, "2"):
        with pytest.raises(RulesError, match="seat from 0 to 5"):
            series.next_round(bad)  # type: ignore[arg-type]
    assert series.next_round(godfather=4).godfather == 4 and series.current.order[0] == 5
    nobody = MafiaState(6, seed=0)
    nobody.winner_seats = ()
    assert winners_pick(nobody, random.Random(0)) == nobody.order[0] == 1


def test_r7_3_tallies_one_point_per_win_and_running_totals() -> None:
    series = Series(9, rounds=3, seed=5).play()
    tallies = series.tallies()
    assert len(tallies) == 3 and all(len(row) == 9 for row in tallies)
    for game, row in zip(series.games, tallies):
        assert row == [1 if seat in game.winners else 0 for seat in range(9)] == one_point_per_win(game)
    assert series.totals() == [sum(row[seat] for row in tallies) for seat in range(9)]
    best = max(series.totals())
    assert set(series.leaders()) == {seat for seat, total in enumerate(series.totals()) if total == best}
    table = series.table_html()
    assert table.count("<tr>") == 5 and f"<td><b>{max(series.totals())}</b></td>" in table
    assert "<th>round</th><th>Godfather</th>" in table and "<th>total</th>" in table
    french = series.table_html("fr")
    assert "<th>manche</th><th>Parrain</th>" in french and french.count("<tr>") == 5
    custom = Series(6, rounds=1, seed=5, scoring=lambda game: [len(game.players)] * 6).play()
    assert custom.totals() == [6] * 6


def test_a_round_in_progress_scores_nothing_yet() -> None:
    series = Series(6, rounds=2, seed=1)
    assert series.tallies() == [[0] * 6] and "…" in series.table_html()


def test_records_of_each_round_replay_and_the_series_record_round_trips() -> None:
    series = Series(7, rounds=3, seed=11).play()
    for game in series.games:
        assert load(game.to_json()).events == game.events  # each round is an ordinary, replayable record
    record = json.loads(json.dumps(series.record()))
    copy = Series.from_record(record)
    assert copy.tallies() == series.tallies() and copy.godfathers == series.godfathers
    assert [game.events for game in copy.games] == [game.events for game in series.games]


@pytest.mark.parametrize(("change", "word"), [
    (lambda r: r.pop("games"), "no games"),
    (lambda r: r.update(format=2), "format"),
    (lambda r: r.update(series="tabletop_edu.get_adler"), "series"),
    (lambda r: r.update(games=[]), "games"),
    (lambda r: r.update(rounds=0), "1 to 50 rounds"),
    (lambda r: r.update(rules={"jokers": "two"}), "jokers"),
    (lambda r: r["games"][1].update(seed=1), "round 2"),
    (lambda r: r["games"][1]["actions"].append([0, "fly"]), "round 2"),
    (lambda r: r["games"][0]["actions"].pop(), "round 2"),  # round 1 unfinished: no next round yet
])
def test_malformed_series_records_are_refused_clearly(change, word: str) -> None:  # type: ignore[no-untyped-def]
    record = json.loads(json.dumps(Series(6, rounds=2, seed=2).play().record()))
    change(record)
    with pytest.raises(RecordError, match=word):
        Series.from_record(record)


def test_a_widget_may_stand_in_its_own_fresh_game_for_the_round() -> None:
    series = Series(6, rounds=2, seed=4)
    fresh = MafiaState(list(series.players), seed=series.current.seed, rules=series.current.rules)
    series.adopt(fresh)
    assert series.current is fresh
    with pytest.raises(RulesError, match="this round.s players"):
        series.adopt(MafiaState(6, seed=99))
    with pytest.raises(RulesError, match="1 to 50"):
        Series(6, rounds=51)
