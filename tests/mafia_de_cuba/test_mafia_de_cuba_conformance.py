"""Conformance: check_game for every table size, with default rules and with every option flipped."""

from __future__ import annotations

import pytest

import tabletop_edu.mafia_de_cuba as mafia
from tabletop_edu.testing import check_game


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
