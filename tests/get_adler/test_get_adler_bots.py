"""Bots play whole games at every table size, and the smart ones beat random play by a measured margin."""

from __future__ import annotations

import random

import pytest

from tabletop_edu.core import IllegalAction, play_game
from tabletop_edu.get_adler import new_game
from tabletop_edu.get_adler.bots import AdlerBot, DeducingHeroBot, RandomBot, SmartBot
from tabletop_edu.get_adler.identities import adler_candidates, worlds_for_view

GAMES = 60


def heroes_win_rate(players, hero_bot, adler_bot, games=GAMES):
    wins = 0
    for seed in range(games):
        state = new_game(players, seed=seed)
        play_game(state, [adler_bot() if seat == state.adler else hero_bot() for seat in range(players)])
        wins += state.winner == "heroes"
    return wins / games


@pytest.mark.parametrize("players", [4, 5, 6])
@pytest.mark.parametrize("bot", [RandomBot, DeducingHeroBot, AdlerBot, SmartBot])
def test_bots_play_to_the_end(players, bot):
    for seed in range(3):
        state = play_game(new_game(players, seed=seed), [bot() for _ in range(players)])
        assert state.is_over and state.winners
        assert bot.__doc__ and bot.name


def test_deducing_heroes_beat_random_heroes():
    # measured over 100 seeds 0.79 vs 0.44 at 4 players, 0.76 vs 0.43 at 6
    smart = heroes_win_rate(4, SmartBot, RandomBot)
    baseline = heroes_win_rate(4, RandomBot, RandomBot)
    assert smart >= baseline + 0.15


def test_adler_bot_beats_random_adler():
    # measured over 100 seeds: heroes win 0.12 against AdlerBot, 0.44 against a random Adler (4 players)
    assert heroes_win_rate(4, RandomBot, AdlerBot) <= heroes_win_rate(4, RandomBot, RandomBot) - 0.15


def test_adler_bot_lies_to_keep_candidates():
    # find a turn where a hero can ask Adler a question, then let the bot answer
    for seed in range(200):
        state = new_game(4, seed=seed)
        seat = state.current_player
        if seat != state.adler and "question" in state.hands[seat]:
            break
    state.apply(f"ask {state.adler} hat black")
    answer = AdlerBot().choose(state.view(state.adler), state.legal_actions(), random.Random(0))
    assert str(answer) in ("answer yes", "answer no")
    state.apply(answer)
    # whatever he said, every seat is still a candidate for the public
    assert len(adler_candidates(worlds_for_view(state.view(None)))) == 4


def test_bots_only_choose_legal_actions():
    state = new_game(5, seed=11)
    rng = random.Random(0)
    bots = [SmartBot() for _ in range(5)]
    while not state.is_over:
        seat = state.acting_seats[0]
        action = bots[seat].choose(state.view(seat), state.legal_actions(seat), rng)
        try:
            state.apply(action, player=seat)
        except IllegalAction as error:  # pragma: no cover - the assertion message is the point
            raise AssertionError(f"{bots[seat].name} chose an illegal {action}: {error}") from None


class _Recording:
    """A bot that records which characters it was asked to play for, and plays like SmartBot."""

    def __init__(self) -> None:
        self.characters: set[str] = set()

    def choose(self, view, legal_actions, rng):
        self.characters.add(view.facts["my_character"])
        return SmartBot().choose(view, legal_actions, rng)


def test_sides_bot_plays_each_side_with_its_own_bot():
    from tabletop_edu.get_adler.bots import SidesBot
    from tabletop_edu.get_adler.rules import ADLER

    sides = SidesBot(adler="random", hero="smart")
    assert sides.name == "Adler: random, heroes: smart"
    assert isinstance(sides.adler, RandomBot) and isinstance(sides.hero, SmartBot)
    sides.adler, sides.hero = _Recording(), _Recording()
    state = new_game(4, seed=2)
    play_game(state, [sides] * 4)
    assert state.is_over and sides.adler.characters == {ADLER} and ADLER not in sides.hero.characters
    assert len(sides.hero.characters) == 3  # every hero of the table


@pytest.mark.parametrize("bad", [dict(adler="nobody"), dict(hero="sides"), dict(hero="sides(adler='random')"),
                                 dict(adler=3)])
def test_sides_bot_refuses_what_is_not_another_bot(bad):
    from tabletop_edu.get_adler.bots import SidesBot

    with pytest.raises(ValueError, match="Unknown bot|names another bot"):
        SidesBot(**bad)
