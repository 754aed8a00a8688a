"""Conformance: check_game at every table size, and with the options that change play (free talk is the default;
the Cleaner, the budgeted interrogation, two jokers at six players, other token tables).

Random games of free talk are long (every floor offers thousands of testimonies and one `pass`), and
check_game rebuilds a world for every seat at every step, so large tables resample every few steps
(`resample_every`); every step is still played, its notations, illegal moves and views checked.
"""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

import tabletop_edu.mafia_de_cuba as mafia
from tabletop_edu.testing import GameCheckFailed, check_game


#: Resample every k steps at the large tables (k by table size), where games are longest.
RESAMPLE_EVERY = {6: 1, 7: 1, 8: 2, 9: 2, 10: 3, 11: 3, 12: 4}
#: Large tables play one game, from a seed whose random game has a typical length (measured for seeds 100n to
#: 100n + 5: 42 to 130 steps at 10 players, 46 to 318 at 11, 25 to 296 at 12): check_game's cost grows with the
#: square of a game's length, and one 300-step game would cost more than all the others together.
LARGE_TABLE_SEED = {10: 1003, 11: 1101, 12: 1200}


@pytest.mark.parametrize("players", range(6, 13))
def test_check_game_every_player_count(players: int) -> None:
    games = 1 if players in LARGE_TABLE_SEED else 2
    report = check_game(mafia, players=players, games=games, seed=LARGE_TABLE_SEED.get(players, 100 * players),
                        resample_every=RESAMPLE_EVERY[players], illegal_per_step=2 if players >= 10 else 4)
    assert report.games == games and report.twins_checked > 0 and report.longest_game >= 40


#: (rules, players, resample every k steps, games): the options that change play, at tables of every size.
VARIANTS = [
    (mafia.Rules(cleaner=True), 7, 1, 2),
    (mafia.Rules(cleaner=True, godfather_seat=5), 12, 5, 1),
    (mafia.Rules(interrogation="budget", godfather_seat=3, first_may_set_aside=False, last_may_take_nothing=False,
                 nobody_stole_godfather_wins=False, jokered_can_be_accused=True, driver_chain=False,
                 tied_thieves_all_win=False, question_budget=2), 6, 1, 2),
    (mafia.Rules(interrogation="budget", cleaner=True, jokered_can_be_accused=True), 10, 2, 1),
    (mafia.Rules(jokers=2), 6, 1, 1),
    (mafia.Rules(interrogation="budget", max_hidden=15, question_budget=0), 8, 1, 2),
    (mafia.Rules(loyal=2, agents=1, drivers=4, jokers=3, diamonds=20, max_hidden=8, cleaner=True), 7, 1, 1),
    (mafia.Rules(loyal=0, agents=2, drivers=0, jokers=0, diamonds=4, max_hidden=4,
                 nobody_stole_godfather_wins=False), 7, 1, 2),
    (mafia.Rules(godfather_closes_floor=True), 9, 1, 2),
    (mafia.Rules(godfather_closes_floor=True, interrogation="budget", cleaner=True), 6, 1, 2),
]


@pytest.mark.parametrize(("rules", "players", "every", "games"), VARIANTS,
                         ids=["cleaner-7", "cleaner-12", "budget-flipped-6", "budget-cleaner-10", "two-jokers-6",
                              "hide-all-8", "token-table-7", "few-diamonds-7", "closes-floor-9",
                              "closes-floor-budget-6"])
def test_check_game_rule_variants(rules: mafia.Rules, players: int, every: int, games: int) -> None:
    report = check_game(mafia, players=players, games=games, seed=7, rules=rules, resample_every=every,
                        illegal_per_step=2 if players >= 10 else 4)
    assert report.games == games and report.twins_checked > 0


class LeakyMafia(mafia.State):
    """Shows every seat everybody's take: the kind of leak the non-interference check must catch."""

    def _facts(self, seat: int | None) -> dict[str, Any]:
        return {**super()._facts(seat), "everyone_took": {s: str(t) for s, t in sorted(self.takes.items())}}


def test_check_game_catches_a_view_that_leaks_the_takes() -> None:
    leaky = SimpleNamespace(__name__="leaky_mafia", parse_action=mafia.parse_action, Rules=mafia.Rules,
                            new_game=lambda players, *, seed=None, rules=None: LeakyMafia(players, seed=seed,
                                                                                         rules=rules))
    with pytest.raises(GameCheckFailed, match="resample"):
        check_game(leaky, players=7, games=4, seed=1)


@pytest.mark.parametrize("players", [6, 9])
def test_resample_really_redraws_what_the_godfather_did_not_see(players: int) -> None:
    """A determinization that mostly returned the true world would make the non-interference check weak."""
    changed = tried = 0
    for seed in range(20):
        state = mafia.new_game(players, seed=seed)
        rng = random.Random(seed)
        while state.current_player != state.rules.godfather_seat or not state.takes:
            seat = state.acting_seats[0]
            state.apply(rng.choice(state.legal_actions(seat)), player=seat)
        world = state.resample(state.rules.godfather_seat, rng)
        tried += 1
        changed += world.takes != state.takes
    assert changed >= tried * 0.75, f"only {changed} of {tried} worlds differ from the true one"


def test_worlds_know_only_the_view_two_games_a_seat_cannot_tell_apart_give_the_same_world() -> None:
    """Issue 10: the same view (seat 3 saw the same box and took the same, the rest differs) and the same rng give
    the same world, which holds neither game's hidden takes more often than chance."""
    first, second = mafia.new_game(6, seed=1), mafia.new_game(6, seed=2)
    for state, takes in ((first, ["take 3", "take loyal"]), (second, ["take loyal", "take 3"])):
        for text in ["hide 1", "set-aside none", *takes, "take 4", "take fbi", "take driver"]:
            state.apply_script([text])
    assert first.view(3) == second.view(3) and first.takes != second.takes
    assert mafia.world_from_view(first.view(3), random.Random(5)).fingerprint() == \
        second.resample(3, random.Random(5)).fingerprint()
    worlds = [first.resample(3, random.Random(k)) for k in range(60)]
    for truth in (first, second):
        same = sum(world.takes[1] == truth.takes[1] for world in worlds)
        assert same < 45, same  # seat 1's take is 3 in one game, loyal in the other: the worlds mix them


def test_the_public_facts_kept_for_a_step_follow_each_clone_and_pickle_through_its_own_moves() -> None:
    """The views' public facts are made once per step and shared by the step's views; a clone shares what was made
    before it, and each copy then plays on and shows only its own game, as a replay of its record does."""
    import pickle

    state = mafia.new_game(8, seed=12)
    rng = random.Random(12)
    while state.phase != "floor":
        seat = rng.choice(list(state.acting_seats))
        state.apply(rng.choice(state.legal_actions(seat)), player=seat)
    assert state.view(0).facts["floor"] == state.view(None).facts["floor"]  # kept for the step
    copies = [state, state.clone(), pickle.loads(pickle.dumps(state))]
    for number, game in enumerate(copies):
        chooser = random.Random(number)
        for _ in range(6):
            if game.is_over:
                break
            seat = chooser.choice(list(game.acting_seats))
            game.apply(chooser.choice(game.legal_actions(seat)), player=seat)
            replayed = mafia.MafiaState.from_record(game.record())
            for seat in (None, *range(8)):
                assert game.view(seat) == replayed.view(seat)
    assert len({tuple(map(tuple, game.view(None).facts["testimonies"])) for game in copies}) > 1  # they diverged
