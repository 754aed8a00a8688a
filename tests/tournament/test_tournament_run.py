"""Tournaments: seeded, replayable, executor-independent, with tables and plots that read well."""

from __future__ import annotations

import json
import math
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from tabletop_edu import registry
from tabletop_edu.core import RandomBot, load
from tabletop_edu.tournament import (SEAT_COLUMNS, BotSpec, MetaGame, TournamentResult, bot_names, bot_spec, game_seed,
                                     make_jobs, mean_ci, meta_game, play_job, results_json, run_tournament, wilson_ci)

LINEUP = ["random", "smart", "ismcts(iterations=6, worlds=2)"]


def test_game_seeds_are_stable_and_distinct() -> None:
    assert game_seed(7, 0) == game_seed(7, 0)
    assert len({game_seed(7, k) for k in range(100)}) == 100
    assert game_seed(7, 1) != game_seed(8, 1)


def test_seats_rotate_so_every_bot_takes_every_seat() -> None:
    jobs = make_jobs("peek", ["random", "ismcts"], players=2, games=4, seed=0)
    assert [tuple(spec.label for spec in job.seats) for job in jobs] == [
        ("random", "ismcts"), ("ismcts", "random"), ("random", "ismcts"), ("ismcts", "random")]


def test_same_seed_same_table_and_any_game_replays_alone() -> None:
    first = run_tournament("get_adler", LINEUP, players=4, games=6, seed=11)
    second = run_tournament("get_adler", LINEUP, players=4, games=6, seed=11)
    assert first.games == second.games
    assert first.summary() == second.summary()
    game = first.games[4]
    alone = play_job(make_jobs("get_adler", LINEUP, players=4, games=6, seed=11)[4])
    assert alone == game
    replayed = first.replay(4)
    assert replayed.is_over and tuple(replayed.winners) == game.winners
    archive = json.loads(results_json(first))
    assert [g["seed"] for g in archive["games"]] == [game_seed(11, k) for k in range(6)]
    assert load(archive["games"][4]["record"]).to_json() == replayed.to_json()


def test_results_identical_in_process_and_in_a_process_pool() -> None:
    here = run_tournament("peek", ["random", "ismcts(iterations=8)"], players=3, games=8, seed=5)
    with ProcessPoolExecutor(max_workers=2) as pool:
        there = run_tournament("peek", ["random", "ismcts(iterations=8)"], players=3, games=8, seed=5,
                               executor=pool, chunk_size=3)
    assert here.games == there.games


def test_results_identical_on_a_dask_cluster() -> None:
    distributed = pytest.importorskip("dask.distributed", reason="the `scale` extra (dask[distributed]) is not installed")
    here = run_tournament("peek", ["random", "ismcts(iterations=8)"], players=3, games=6, seed=9)
    with distributed.LocalCluster(n_workers=1, processes=False, threads_per_worker=1,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        there = run_tournament("peek", ["random", "ismcts(iterations=8)"], players=3, games=6, seed=9,
                               executor=client.get_executor(), chunk_size=2)
    assert here.games == there.games


def test_table_counts_add_up_and_intervals_contain_the_estimate() -> None:
    result = run_tournament("peek", ["random", "ismcts(iterations=4)"], players=2, games=10, seed=2)
    rows = result.rows()
    assert sum(row.games for row in rows) == 2 * 10
    for row in rows:
        assert row.win_low <= row.win_rate <= row.win_high
        assert row.score_low <= row.mean_score <= row.score_high
    text = result.summary()
    assert "win rate" in text and "95% CI" in text and "peek: 10 games" in text
    html = result._repr_html_()
    assert html.startswith("<table") and "ismcts(iterations=4)" in html
    assert set(result.seat_table()) == {"random", "ismcts(iterations=4)"}
    pairs = result.pairwise()
    a, b = "random", "ismcts(iterations=4)"
    assert pairs[a][b] + pairs[b][a] == pytest.approx(1.0)
    assert "seat 1" in result.seat_summary() and "A beats B" in result.pairwise_summary()
    assert repr(result) == "<TournamentResult peek: 10 games, 2 players, seed 2, line-up ['random', 'ismcts(iterations=4)']>"
    assert "<table" in result.seat_html() and "<table" in result.pairwise_html()


def test_cli_simulate_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    from tabletop_edu.__main__ import main, split_bots
    assert split_bots("random,ismcts(iterations=4, worlds=2)") == ["random", "ismcts(iterations=4, worlds=2)"]
    assert main(["simulate", "peek", "--players", "2", "--games", "4", "--bots", "random,ismcts(iterations=4)",
                 "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("peek: 4 games, 2 players, seed 3") and "Win rate by seat" in out
    assert main(["simulate", "peek", "--bots", "grandmaster"]) == 2
    assert "choose from" in capsys.readouterr().err


def test_a_tournament_as_tidy_rows_and_a_dataframe() -> None:
    result = run_tournament("peek", ["random", "ismcts(iterations=4)"], players=2, games=6, seed=2)
    frame = result.to_dataframe()
    assert list(frame.columns) == list(SEAT_COLUMNS) and len(frame) == 2 * 6
    assert frame.to_dict("records") == result.seat_rows()
    rates = frame.groupby("bot")["won"].mean()
    assert {row.bot: row.win_rate for row in result.rows()} == pytest.approx(rates.to_dict())
    assert frame["failure"].isna().all() and set(frame["seat"]) == {0, 1}
    empty = TournamentResult("peek", 2, 0, ("random",)).to_dataframe()
    assert list(empty.columns) == list(SEAT_COLUMNS) and len(empty) == 0


def test_tables_and_plots_speak_french() -> None:
    """French words, decimal commas, and intervals split by a semicolon (the comma is the decimal mark)."""
    result = run_tournament("peek", ["random", "ismcts(iterations=4)"], players=2, games=4, seed=2)
    table = result.html("fr")
    assert "taux de victoire" in table and "IC à 95 %" in table and "peek : 4 parties, 2 joueurs, graine 2" in table
    intervals = [cell for row in result._summary_cells("fr")[1] for cell in row if cell.startswith("[")]
    assert intervals and all(" ; " in cell and "." not in cell for cell in intervals)
    assert result.seat_summary("fr").startswith("Taux de victoire par place") and "place 1" in result.seat_summary("fr")
    assert "A bat B" in result.pairwise_summary("fr") and "Face à face" in result.pairwise_html("fr")
    assert "Taux de victoire par place" in result.seat_html("fr")
    french_plot = result.plot("fr")
    french_plot.canvas.draw()
    assert french_plot.axes[0].get_ylabel() == "taux de victoire"
    assert "0,4" in [label.get_text() for label in french_plot.axes[0].get_yticklabels()]
    seats = result.plot_seats("fr").axes[0]
    assert [label.get_text() for label in seats.get_xticklabels()] == ["place 0", "place 1"]
    assert result.html() == result._repr_html_() and "win rate" in result.html()  # English stays the default
    with pytest.raises(ValueError, match="Language 'de'"):
        result.seat_summary("de")


def test_plots_are_figures_readable_in_the_notebook_column() -> None:
    from matplotlib.figure import Figure

    from tabletop_edu.knowledge import NOTEBOOK_COLUMN, projected_type
    result = run_tournament("peek", ["random", "ismcts(iterations=4)"], players=2, games=4, seed=2)
    for language in ("en", "fr"):
        for picture in (result.plot(language), result.plot_seats(language)):
            smallest, cut = projected_type(picture)
            assert isinstance(picture, Figure) and picture.get_figwidth() * picture.dpi <= NOTEBOOK_COLUMN
            assert smallest >= 14 and not cut, (language, smallest, cut)


def test_bots_by_name_instance_or_spec_and_errors_that_explain() -> None:
    spec = bot_spec("commissario", "lookahead(worlds=2)")
    assert spec.factory == registry.game("commissario").bots["lookahead"] and dict(spec.kwargs) == {"worlds": 2}
    instance = bot_spec("peek", RandomBot())
    assert instance.label == "random" and isinstance(instance.build(), RandomBot)
    assert bot_spec("peek", spec) is spec
    with pytest.raises(ValueError, match="choose from"):
        bot_spec("peek", "grandmaster")
    with pytest.raises(ValueError, match="distinct"):
        run_tournament("peek", ["random", RandomBot()], players=2, games=1)
    with pytest.raises(ValueError, match="'lookahead.wrolds=2.' cannot be built: TypeError"):
        run_tournament("commissario", ["lookahead(wrolds=2)"], games=1)
    with pytest.raises(ValueError, match="plain values"):
        bot_spec("commissario", "lookahead(__import__('os'))")
    with pytest.raises(ValueError, match="played by 2 to 4 players, not 7"):
        run_tournament("peek", ["random"], players=7, games=1)


def test_progress_callback_sees_every_game() -> None:
    seen: list[tuple[int, int]] = []
    run_tournament("peek", ["random"], players=2, games=5, seed=0, chunk_size=2, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(2, 5), (4, 5), (5, 5)]


def test_every_game_runs_a_short_tournament() -> None:
    for game, players in (("commissario", 2), ("mafia_de_cuba", 6)):
        names = [name for name in bot_names(game) if name != "ismcts"][:2]
        result = run_tournament(game, names, players=players, games=2, seed=1)
        assert sum(row.games for row in result.rows()) == 2 * players


def test_statistics_helpers() -> None:
    assert mean_ci([1.0, 1.0, 1.0]) == (1.0, 1.0, 1.0)
    mean, low, high = mean_ci([0.0, 1.0, 2.0, 3.0, 4.0])  # Student's t with 4 degrees of freedom, not z = 1.96
    assert mean == 2.0 and (round(low, 2), round(high, 2)) == (0.04, 3.96)
    assert math.isnan(mean_ci([3.0])[1]) and all(math.isnan(v) for v in mean_ci([]))
    low, high = wilson_ci(0, 10)
    assert low == 0.0 and 0 < high < 0.35
    assert [round(bound, 4) for bound in wilson_ci(3, 10)] == [0.1078, 0.6032] and wilson_ci(10, 10)[1] == 1.0
    assert all(math.isnan(v) for v in wilson_ci(0, 0))


def test_meta_game_is_symmetric_and_has_an_equilibrium() -> None:
    meta = meta_game("peek", ["random", "ismcts(iterations=8)"], games=6, seed=1)
    assert isinstance(meta, MetaGame)
    for i in range(2):
        for j in range(2):
            assert meta.payoffs[i][j] + meta.payoffs[j][i] == pytest.approx(1.0)
    equilibria = meta.equilibria()
    assert equilibria and all(sum(row) == pytest.approx(1.0) for row, _ in equilibria)
    assert "row vs column" in str(meta)


def test_bot_spec_is_plain_data() -> None:
    import pickle
    spec = BotSpec("x", "tabletop_edu.core.bots:RandomBot")
    assert pickle.loads(pickle.dumps(spec)) == spec


def test_progress_bar_is_tqdm(capsys: pytest.CaptureFixture[str]) -> None:
    run_tournament("peek", ["random"], players=2, games=3, seed=0, progress=True)
    assert "3/3" in capsys.readouterr().err  # tqdm.auto: a text bar outside notebooks, on stderr


def test_rich_displays_of_a_game_result_worlds_and_a_round_game() -> None:
    import numpy as np

    from tabletop_edu.commissario.actions import ALL_PICKS
    from tabletop_edu.commissario.normal_form import RoundGame
    from tabletop_edu.knowledge import Worlds

    game = run_tournament("peek", ["random", "ismcts(iterations=2)"], players=2, games=1, seed=6).games[0]
    html = game._repr_html_()
    assert f"Game 0 (seed {game.seed}): {game.steps} actions" in html and html.count("<tr>") == 3
    assert ("&#10003;" in html) == bool(game.winners)
    worlds = Worlds([(0, 0), (0, 1), (1, 1)], {"a": lambda w: w[0], "b": lambda w: w[1]})
    cells = worlds._repr_html_()
    assert "3 possible worlds" in cells and "<tr><td>(0, 1)</td><td>1</td><td>2</td></tr>" in cells
    assert "... and 1 more worlds" in worlds._repr_html_(limit=2)
    matrix = RoundGame((0, 2), ALL_PICKS[:2], ALL_PICKS[:1], np.array([[3.0], [0.5]]), np.array([[1.0], [2.0]]))
    table = matrix._repr_html_()
    assert "Seat 0 (rows) against seat 2 (columns)" in table and "<td>3, 1</td>" in table and "<td>0.5, 2</td>" in table


def test_cli_saves_resumes_and_lists_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tabletop_edu.__main__ import main

    save = tmp_path / "run.jsonl"
    arguments = ["simulate", "peek", "--players", "2", "--games", "4", "--bots", "random,ismcts(iterations=2)",
                 "--save", str(save), "--budget", "30"]
    assert main(arguments) == 0
    first = capsys.readouterr().out
    assert len(save.read_text().splitlines()) == 5
    assert main(arguments) == 0 and capsys.readouterr().out == first  # everything read back, nothing replayed
    assert main(["games"]) == 0 and "peek: Peek, 2 to 4 players" in capsys.readouterr().out
    assert main(["simulate", "chess"]) == 2 and "unknown game 'chess'" in capsys.readouterr().err


def test_a_meta_game_says_what_its_entries_are() -> None:
    """The tutorial's text reads "share of wins": the table must say the same (and "points" when it is points)."""
    wins = MetaGame(("random", "greedy"), ((0.5, 0.2), (0.8, 0.5)), 40)
    points = MetaGame(("random", "greedy"), ((3.0, 1.0), (5.0, 3.0)), 40, score="points")
    assert str(wins).startswith("Share of wins of the row bot against the column bot (40 games per pairing)")
    assert "Share of wins" in wins._repr_html_() and "Mean points" in points._repr_html_()
    assert "Share of wins" not in str(points)


def test_chance_overlaps_and_the_reading_say_what_the_intervals_can_tell() -> None:
    """Chance is the share of seats that won; two bots are "told apart" exactly when their intervals do not
    overlap, and the reading says so in English and in French (decimal commas)."""
    result = run_tournament("commissario", ["random", "greedy", "bidder"], players=3, games=30, seed=4)
    seats = sum(len(g.labels) for g in result.finished)
    assert result.chance_win_rate() == pytest.approx(sum(len(g.winners) for g in result.finished) / seats)
    assert result.chance_win_rate() >= 1 / 3  # one winner a game at least
    rows = {row.bot: row for row in result.rows()}
    for a, b in [("greedy", "random"), ("bidder", "random"), ("bidder", "greedy")]:
        first, second = sorted((a, b), key=[row.bot for row in result.rows()].index)
        overlap = rows[a].win_low <= rows[b].win_high and rows[b].win_low <= rows[a].win_high
        assert ((first, second) in result.overlaps()) == overlap
    reading = result.reading()
    assert "greedy > random" in reading and "Below chance: random." in reading
    assert f"chance is a win rate of {result.chance_win_rate():.2f}" in reading
    french = result.reading("fr")
    assert "Départagés" in french and "Au-dessous du hasard : random." in french
    assert f"{result.chance_win_rate():.2f}".replace(".", ",") in french
    plot = result.plot()
    chance_lines = [line for line in plot.axes[0].get_lines() if line.get_linestyle() == "--"]
    assert [line.get_ydata()[0] for line in chance_lines] == [pytest.approx(result.chance_win_rate())]
    assert "hasard" in result.plot("fr").axes[0].get_legend().get_texts()[0].get_text()


def test_a_team_game_has_its_own_chance() -> None:
    """Get Adler's heroes win together, so the average seat wins more often than one in four."""
    result = run_tournament("get_adler", ["random", "smart"], players=4, games=12, seed=1)
    assert result.chance_win_rate() > 1 / 4


def test_deviation_gains_check_an_equilibrium_over_every_bot() -> None:
    cycle = MetaGame(("rock", "paper", "scissors"), ((0.5, 0.3, 0.7), (0.7, 0.5, 0.3), (0.3, 0.7, 0.5)), 100)
    assert cycle.deviation_gains((1 / 3, 1 / 3, 1 / 3)) == pytest.approx((0.0, 0.0, 0.0))
    gains = cycle.deviation_gains((1.0, 0.0, 0.0))  # all rock: paper gains 0.2
    assert gains == pytest.approx((0.0, 0.2, -0.2))
    dominant = MetaGame(("random", "greedy", "bidder"), ((0.5, 0.0, 0.0), (1.0, 0.5, 0.15), (1.0, 0.85, 0.5)), 40)
    assert max(dominant.deviation_gains(dominant.symmetric_equilibria()[0])) <= 1e-9
    for bad in [(0.5, 0.5), (0.5, 0.6, -0.1), (0.2, 0.2, 0.2), ("a", 0, 1)]:
        with pytest.raises((ValueError, TypeError)):
            dominant.deviation_gains(bad)  # type: ignore[arg-type]


def test_replicator_dynamics_end_where_the_theory_says() -> None:
    """A dominant bot takes over from any start that has it; an absent bot never appears; a zero-sum cycle
    keeps the product of the shares (it circles its equilibrium, never reaching it)."""
    dominant = MetaGame(("random", "greedy", "bidder"), ((0.5, 0.0, 0.0), (1.0, 0.5, 0.15), (1.0, 0.85, 0.5)), 40)
    times, path = dominant.replicator()
    assert times[0] == 0 and path[0] == pytest.approx((1 / 3, 1 / 3, 1 / 3)) and path[-1][2] > 0.999
    _, without = dominant.replicator((0.5, 0.5, 0.0))
    assert without[-1][2] == 0 and without[-1][1] > 0.999
    assert dominant.deviation_gains(without[-1])[2] > 0  # a rest point, not an equilibrium
    cycle = MetaGame(("rock", "paper", "scissors"), ((0.5, 0.3, 0.7), (0.7, 0.5, 0.3), (0.3, 0.7, 0.5)), 100)
    _, circling = cycle.replicator((0.6, 0.2, 0.2), until=60)
    products = [a * b * c for a, b, c in circling]
    assert max(products) - min(products) < 1e-4 * products[0] and max(p[0] for p in circling) > 0.59
    with pytest.raises(ValueError, match="one share per bot"):
        dominant.replicator((1.0, 0.0))


def test_the_replicator_picture_is_for_a_projector_in_both_languages() -> None:
    from tabletop_edu.knowledge import projected_type

    dominant = MetaGame(("random", "greedy", "bidder"), ((0.5, 0.0, 0.0), (1.0, 0.5, 0.15), (1.0, 0.85, 0.5)), 40)
    picture = dominant.plot_replicator([None, (0.5, 0.5, 0.0)], equilibrium=(0.0, 0.0, 1.0))
    smallest, cut = projected_type(picture)
    assert smallest >= 14 and not cut and len(picture.axes) == 2
    french = dominant.plot_replicator([(0.5, 0.5, 0.0)], language="fr")
    assert french.axes[0].get_title() == "t = 0 : (0,50 ; 0,50 ; 0,00)" and french.axes[0].get_xlabel() == "temps"
