"""Conformance: check_game for every table size, with default rules and with every option flipped."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

import tabletop_edu.mafia_de_cuba as mafia
from tabletop_edu.testing import GameCheckFailed, check_game


@pytest.mark.parametrize("players", range(6, 13))
def test_check_game_every_player_count(players: int) -> None:
    report = check_game(mafia, players=players, games=6, seed=100 * players)
    assert report.games == 6


VARIANTS = [
    mafia.Rules(cleaner=True),
    mafia.Rules(godfather_seat=3, first_may_set_aside=False, last_may_take_nothing=False,
                nobody_stole_godfather_wins=False, jokered_can_be_accused=True, driver_chain=False,
                tied_thieves_all_win=False, question_budget=2),
    mafia.Rules(max_hidden=15, question_budget=0),
]


@pytest.mark.parametrize("rules", VARIANTS, ids=["cleaner", "flipped", "hide-all"])
@pytest.mark.parametrize("players", [6, 9, 12])
def test_check_game_rule_variants(players: int, rules: mafia.Rules) -> None:
    check_game(mafia, players=players, games=3, seed=7, rules=rules)


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
