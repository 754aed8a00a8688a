"""Bots: every combination finishes games at every table size; the posterior Godfather beats the random one."""

from __future__ import annotations

import random

import pytest

from tabletop_edu.core import play_game
from tabletop_edu.mafia_de_cuba import new_game
from tabletop_edu.mafia_de_cuba.bots import (CautiousThief, ConsistentLiar, GreedyThief, LoyalTaker, MafiaBot,
                                             PosteriorGodfather, RandomGodfather, RandomTaker, TokenSeeker, Truthful,
                                             WouldBeAgent)
from tabletop_edu.mafia_de_cuba.inference import RANDOM_CHOICES
from tabletop_edu.mafia_de_cuba.rules import Rules

TAKERS = [RandomTaker, LoyalTaker, CautiousThief, GreedyThief, TokenSeeker, WouldBeAgent]
TESTIMONIES = [Truthful, ConsistentLiar]


@pytest.mark.parametrize("players", range(6, 13))
def test_bots_play_full_games(players: int) -> None:
    """Every combination, in free talk (talkative witnesses speak up once), budgeted, with the Cleaner."""
    for seed in range(3):
        rng = random.Random(seed)
        godfather = PosteriorGodfather() if seed == 0 else RandomGodfather()
        bots = [MafiaBot(godfather=godfather)] + [
            MafiaBot(taker=rng.choice(TAKERS)(), testimony=rng.choice(TESTIMONIES)(talkative=rng.random() < 0.5),
                     set_aside="fbi") for _ in range(players - 1)]
        rules = Rules(cleaner=seed == 1, interrogation="budget" if seed == 2 else "free")
        state = play_game(new_game(players, seed=seed, rules=rules), bots)
        assert state.is_over and state.winners


def test_taker_policies_follow_their_idea() -> None:
    legal = ["1", "2", "3", "loyal", "fbi", "driver"]
    assert LoyalTaker().take_probabilities(3, {}, legal) == {"loyal": 1.0}
    assert GreedyThief().take_probabilities(3, {}, legal) == {"3": 1.0}
    assert set(CautiousThief().take_probabilities(3, {}, legal)) == {"1", "2"}
    assert WouldBeAgent().take_probabilities(3, {}, legal) == {"fbi": 1.0}
    assert set(TokenSeeker().take_probabilities(3, {}, legal)) == {"loyal", "fbi", "driver"}


def test_consistent_liar_story_fits_the_next_takers_box() -> None:
    state = new_game(6, seed=0)
    for text in ["hide 0", "set-aside none", "take loyal", "take 4", "take fbi"]:
        state.apply_script([text])
    rng = random.Random(0)
    claims = ConsistentLiar().claims(state.view(2), rng)
    truth_next = state.view(3).facts["box_seen"]
    assert claims["seen"].diamonds == truth_next["diamonds"]  # 15 - 4: what seat 3 will truly report
    assert claims["took"].token == "loyal" and claims["suspect"].target == 1
    assert Truthful().claims(state.view(2), rng)["took"].diamonds == 4


def test_talkative_witnesses_speak_up_once_in_free_talk_and_the_quiet_ones_pass() -> None:
    """R4.2: on the free-talk floor a talkative bot volunteers what it took, once; a quiet one passes."""
    from tabletop_edu.mafia_de_cuba.bots import default_bots

    bots = [MafiaBot(godfather=PosteriorGodfather(truth=0.7))] + [
        MafiaBot(testimony=(ConsistentLiar if seat % 2 else Truthful)(talkative=seat <= 3)) for seat in range(1, 7)]
    state = play_game(new_game(7, seed=4), bots)
    volunteered = [e for e in state.events if e.kind == "testimony" and e.data["volunteered"]]
    assert sorted(e.actor for e in volunteered) == [1, 2, 3]  # each talkative seat once, the others never
    assert all(e.data["claim"].startswith("took") for e in volunteered)
    passes = [e for e in state.events if e.kind == "pass"]
    assert passes and all(e.observers is None for e in passes)  # every seat sees that a move was made...
    assert all(bool(e.text) == e.data["closes"] for e in passes)  # ...but only the floor's closing has words
    assert len(default_bots(7)) == 7


def test_bots_play_with_a_godfather_who_may_close_the_floor() -> None:
    """`godfather_closes_floor` (R4.2): the Godfather is among the acting seats on the floor; a bot asked to
    move there rules as Godfather (it asks or accuses), which closes the floor."""
    from tabletop_edu.mafia_de_cuba.bots import default_bots

    rules = Rules(godfather_closes_floor=True)
    state = new_game(7, seed=2, rules=rules)
    bots = default_bots(7, rules)
    rng = random.Random(2)
    closed = 0
    while not state.is_over:
        seat = rng.choice(state.acting_seats)  # any acting seat may move first, the Godfather included
        closed += state.phase == "floor" and seat == state.godfather
        state.apply(bots[seat].choose(state.view(seat), state.legal_actions(seat), rng), player=seat)
    assert closed > 0 and state.winners


def godfather_wins(godfather: object, players: int, games: int) -> int:
    wins = 0
    for seed in range(games):
        bots = [MafiaBot(godfather=godfather)] + [MafiaBot() for _ in range(players - 1)]
        wins += 0 in play_game(new_game(players, seed=seed), bots).winners
    return wins


def test_posterior_godfather_beats_random_godfather() -> None:
    """Measured over these 80 seeded games per table (free talk): 32 vs 11 wins (6 players), 40 vs 13 (8 players)."""
    for players in (6, 8):
        smart = godfather_wins(PosteriorGodfather(model=RANDOM_CHOICES), players, 80)
        baseline = godfather_wins(RandomGodfather(), players, 80)
        assert smart >= baseline + 10, (players, smart, baseline)


def test_default_bots_fill_a_table_and_finish() -> None:
    from tabletop_edu.mafia_de_cuba.bots import default_bots

    for players in (6, 12):
        bots = default_bots(players, seed=players)
        assert len(bots) == players and all(bot.name for bot in bots)
        assert play_game(new_game(players, seed=3), bots).is_over


def test_listening_pays_against_truthful_tables_and_lying_pays_for_thieves() -> None:
    """Measured over these 40 seeded 6-player games: a Godfather who asks and believes (truth 0.8) wins 38
    against truthful takers but only 18 against consistent liars; without listening it wins 19 either way."""
    def wins(godfather: PosteriorGodfather, testimony: type) -> int:
        total = 0
        for seed in range(40):
            bots = [MafiaBot(godfather=godfather)] + [MafiaBot(testimony=testimony()) for _ in range(5)]
            total += 0 in play_game(new_game(6, seed=seed), bots).winners
        return total

    listener = PosteriorGodfather(model=RANDOM_CHOICES, truth=0.8)
    deaf = PosteriorGodfather(model=RANDOM_CHOICES)
    against_truth, against_lies = wins(listener, Truthful), wins(listener, ConsistentLiar)
    assert against_truth >= wins(deaf, Truthful) + 10
    assert against_lies <= against_truth - 10
