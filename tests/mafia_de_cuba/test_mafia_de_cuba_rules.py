"""One scenario per numbered rule of seeds/mafia_de_cuba.md, played from action texts."""

from __future__ import annotations

import random

import pytest

from tabletop_edu.core import IllegalAction
from tabletop_edu.mafia_de_cuba import MafiaState, Rules, new_game
from tabletop_edu.mafia_de_cuba.engine import TOKEN_ORDER, TakeFromBox
from tabletop_edu.mafia_de_cuba.rules import TOKENS_BY_PLAYERS

#: 6 players: the Godfather hides 2; seat 1 takes 3, seat 2 loyal, seat 3 takes 4, seat 4 fbi, seat 5 driver.
BOX_6 = ["hide 2", "set-aside none", "take 3", "take loyal", "take 4", "take fbi", "take driver"]


def play(players: int, texts: list[str], rules: Rules | None = None) -> MafiaState:
    state = new_game(players, seed=0, rules=rules)
    for text in texts:
        state.apply(text)
    return state


def test_r1_1_godfather_seat_and_player_limits() -> None:
    state = new_game(7, rules=Rules(godfather_seat=2))
    assert state.current_player == 2 and state.order == [3, 4, 5, 6, 0, 1]
    for bad in (5, 13):
        with pytest.raises(ValueError):
            new_game(bad)


def test_r1_2_and_r1_3_box_contents_and_jokers_by_table_size() -> None:
    for players, (loyal, agents, drivers, jokers) in TOKENS_BY_PLAYERS.items():
        state = new_game(players)
        tokens = state.tokens_in_game
        assert state.box_diamonds == 15
        assert tokens["loyal"] == loyal and tokens["driver"] == drivers
        assert tokens.get("fbi", 0) + tokens.get("cia", 0) == agents
        assert state.jokers_left == jokers and "cleaner" not in tokens


def test_r1_4_cleaner_variant_adds_a_token() -> None:
    assert new_game(6, rules=Rules(cleaner=True)).tokens_in_game["cleaner"] == 1


def test_r2_1_hiding_is_private_and_bounded() -> None:
    state = play(6, ["hide 4"])
    assert state.view(0).facts["hidden"] == 4
    assert state.view(1).facts["hidden"] is None
    assert state.view(1).facts["box_seen"]["diamonds"] == 11
    assert "4" not in state.view(3).log[-2].text  # the table only sees that he hid some
    with pytest.raises(IllegalAction, match="0 to 5"):
        play(6, ["hide 6"])


def test_r3_1_box_goes_clockwise_and_each_taker_sees_it() -> None:
    state = play(6, BOX_6[:4])
    assert state.current_player == 3
    assert state.view(3).facts["box_seen"] == {"diamonds": 10, "tokens": ["fbi", "driver"]}
    assert state.view(2).facts["box_seen"] == {"diamonds": 10, "tokens": ["loyal", "fbi", "driver"]}
    assert state.view(2).facts["my_take"] == "loyal" and state.view(3).facts["my_take"] is None


def test_r3_2_first_taker_sets_a_token_aside() -> None:
    state = play(6, ["hide 0", "set-aside fbi", "take 2"])
    assert state.view(2).facts["box_seen"]["tokens"] == ["loyal", "driver"]
    assert state.view(1).facts["my_set_aside"] == "fbi" and state.view(2).facts["my_set_aside"] is None
    no_step = play(6, ["hide 0"], Rules(first_may_set_aside=False))
    assert no_step.phase == "take"


def test_r3_3_take_diamonds_or_exactly_one_token_never_nothing() -> None:
    state = play(6, ["hide 0", "set-aside none"])
    for text, word in [("take 0", "at least 1"), ("take loyal driver", "exactly one"), ("take nothing", "must take")]:
        with pytest.raises(IllegalAction, match=word):
            state.apply(text)


def test_r3_4_empty_box_and_last_taker_make_street_kids() -> None:
    empty = play(6, ["hide 5", "set-aside none", "take 10", "take loyal", "take fbi", "take driver"])
    assert [str(a) for a in empty.legal_actions()] == ["take nothing"]
    last = play(6, BOX_6[:-1])
    assert "take nothing" in [str(a) for a in last.legal_actions()]
    last.apply("take nothing")
    assert last.takes[5] == (0, None)
    strict = play(6, BOX_6[:-1], Rules(last_may_take_nothing=False))
    assert "take nothing" not in [str(a) for a in strict.legal_actions()]


@pytest.mark.parametrize("last_may_take_nothing", [True, False])
def test_r3_3_and_r3_4_a_take_is_accepted_exactly_when_the_menu_offers_it(last_may_take_nothing: bool) -> None:
    """Takes are checked by arithmetic, not by looking them up in the menu: both must agree on every take."""
    rules = Rules(last_may_take_nothing=last_may_take_nothing)
    for seed in range(30):
        state, rng = new_game(6 + seed % 7, seed=seed, rules=rules), random.Random(seed)
        while state.phase in ("hide", "set-aside", "take"):
            if state.phase == "take":
                offered = set(state.legal_actions())
                for diamonds in range(-1, state.box_diamonds + 2):
                    for token in (None, "bogus", *TOKEN_ORDER):
                        take, before = TakeFromBox(diamonds, token), state.fingerprint()
                        if take in offered:
                            state.clone().apply(take)
                        else:
                            with pytest.raises(IllegalAction):
                                state.apply(take)
                            assert state.fingerprint() == before
            state.apply(rng.choice(state.legal_actions()))


def test_r3_5_box_returns_to_the_godfather_who_alone_sees_it() -> None:
    state = play(6, BOX_6)
    assert state.view(0).facts["box_returned"] == {"diamonds": 6, "tokens": []}
    assert state.view(1).facts["box_returned"] is None
    assert state.phase == "question" and state.current_player == 0


def test_r3_6_nobody_stole_godfather_and_loyal_win() -> None:
    texts = ["hide 15", "set-aside none", "take loyal", "take fbi", "take driver", "take nothing", "take nothing"]
    state = play(6, texts, Rules(max_hidden=15))
    assert state.is_over and state.winners == (0, 1)
    going_on = play(6, texts, Rules(max_hidden=15, nobody_stole_godfather_wins=False))
    assert not going_on.is_over


def test_r4_1_typed_questions_within_a_budget() -> None:
    state = play(6, BOX_6, Rules(question_budget=1))
    state.apply("ask 3 took")
    assert state.current_player == 3 and state.view(5).facts["pending"] == [3, "took"]
    state.apply("took 1")
    with pytest.raises(IllegalAction, match="no question left"):
        state.apply("ask 2 seen")
    assert all(str(a).startswith("accuse") for a in state.legal_actions())


def test_r4_2_testimonies_are_of_the_asked_kind_public_and_may_lie() -> None:
    state = play(6, BOX_6 + ["ask 2 seen"])
    with pytest.raises(IllegalAction, match="asked 'seen'"):
        state.apply("took 3")
    state.apply("saw 13 loyal fbi driver")  # a lie: seat 2 saw 10 diamonds
    assert "13 diamond" in state.view(4).log[-1].text
    state.apply("floor")
    assert state.current_player == 1
    for _ in range(5):
        state.apply("silent")
    assert state.phase == "question"


def test_r4_3_eliminated_players_stay_silent() -> None:
    state = play(6, BOX_6 + ["accuse 1"])
    assert 1 in state.eliminated
    with pytest.raises(IllegalAction, match="eliminated"):
        state.apply("ask 1 took")
    state.apply("floor")
    assert state.floor == [2, 3, 4, 5]


def test_r4_4_accusing_thieves_recovers_diamonds_and_ends_when_all_back() -> None:
    state = play(6, BOX_6 + ["accuse 3"])
    assert state.recovered == 4 and 3 in state.eliminated and state.view(5).facts["revealed"] == {3: "4"}
    state.apply("accuse 1")
    assert state.is_over and state.outcome == "godfather"


def test_r4_5_wrong_accusation_gives_a_joker_once() -> None:
    box8 = ["hide 0", "set-aside none", "take loyal", "take 3", "take loyal", "take fbi", "take loyal",
            "take driver", "take 2"]
    state = play(8, box8 + ["accuse 1"])
    assert state.jokers_left == 0 and state.jokered == {1} and not state.is_over
    with pytest.raises(IllegalAction, match="joker"):
        state.apply("accuse 1")
    again = play(8, box8 + ["accuse 1"], Rules(jokered_can_be_accused=True))
    again.apply("accuse 1")
    assert again.is_over and again.outcome == "thieves"


def test_r4_6_no_joker_left_eliminates_the_godfather() -> None:
    state = play(6, BOX_6 + ["accuse 2"])
    assert state.is_over and 0 in state.eliminated and state.outcome == "thieves"


def test_r4_7_accused_agent_wins_alone() -> None:
    state = play(6, BOX_6 + ["accuse 4"])
    assert state.is_over and state.winners == (4,)


def test_r4_8_cannot_accuse_self_eliminated_or_missing_seat() -> None:
    state = play(6, BOX_6 + ["accuse 1"])
    for text, word in [("accuse 0", "himself"), ("accuse 1", "eliminated"), ("accuse 9", "no seat")]:
        with pytest.raises(IllegalAction, match=word):
            state.apply(text)


def test_r5_1_godfather_wins_with_loyal_henchmen_and_his_driver() -> None:
    state = play(6, ["hide 0", "set-aside none", "take driver", "take loyal", "take 4", "take fbi", "take 2",
                     "accuse 3", "accuse 5"])
    assert state.winners == (0, 1, 2)  # seat 1 is a Driver whose right neighbour is the Godfather


def test_r5_3_richest_living_thief_and_street_kids_win_ties_by_option() -> None:
    texts = ["hide 0", "set-aside none", "take 3", "take loyal", "take 3", "take fbi", "take nothing", "accuse 2"]
    state = play(6, texts)
    assert state.winners == (1, 3, 5)
    strict = play(6, texts, Rules(tied_thieves_all_win=False))
    assert strict.winners == (5,)
    single = play(6, ["hide 0", "set-aside none", "take 3", "take loyal", "take 5", "take fbi", "take nothing",
                      "accuse 3", "accuse 2"])
    assert single.winners == (1, 5)  # seat 3 (richest) was caught: seat 1 is the richest still in play


def test_r5_4_drivers_win_through_the_seat_on_their_right_and_in_chains() -> None:
    box11 = ["hide 0", "set-aside none", "take loyal", "take driver", "take driver", "take 5", "take fbi",
             "take cia", "take loyal", "take loyal", "take loyal", "take 4"]
    texts = box11 + ["accuse 4", "accuse 10"]
    assert play(11, texts).winners == (0, 1, 2, 3, 7, 8, 9)
    assert play(11, texts, Rules(driver_chain=False)).winners == (0, 1, 2, 7, 8, 9)


def test_r5_5_everything_is_shown_at_the_end() -> None:
    state = play(6, BOX_6 + ["accuse 4"])
    facts = state.view(2).facts
    assert facts["all_takes"] == {1: "3", 2: "loyal", 3: "4", 4: "fbi", 5: "driver"}
    assert facts["hidden"] == 2 and facts["set_aside"] == "none"


CLEANER_BOX = ["hide 0", "set-aside none", "take cleaner", "take 4", "take loyal", "take fbi", "take 2"]


def test_r6_1_every_living_taker_says_hold_or_shoot_in_secret() -> None:
    state = play(6, CLEANER_BOX + ["accuse 2"], Rules(cleaner=True))
    assert state.current_player == (1, 3, 4, 5)
    assert [str(a) for a in state.legal_actions(1)] == ["hold", "shoot"]
    assert [str(a) for a in state.legal_actions(3)] == ["hold"]
    with pytest.raises(IllegalAction, match="Only the Cleaner"):
        state.apply("shoot", player=3)
    for seat in (1, 3, 4, 5):
        state.apply("hold", player=seat)
    assert 2 in state.eliminated and state.recovered == 4


def test_r6_2_cleaner_shoots_thief_both_out_or_agent_cleaner_wins() -> None:
    state = play(6, CLEANER_BOX + ["accuse 2"], Rules(cleaner=True))
    state.apply("shoot", player=1)
    for seat in (3, 4, 5):
        state.apply("hold", player=seat)
    assert {1, 2} <= state.eliminated and state.recovered == 4 and state.jokers_left == 0 and not state.is_over
    agent = play(6, CLEANER_BOX + ["accuse 4"], Rules(cleaner=True))
    for seat in (1, 2, 3, 5):
        agent.apply("shoot" if seat == 1 else "hold", player=seat)
    assert agent.is_over and agent.winners == (1,)


def test_resample_keeps_the_view_and_varies_hidden_takes() -> None:
    """Determinization: worlds drawn for seat 3 keep what seat 3 saw but change what it did not."""
    import random

    state = play(6, BOX_6 + ["ask 1 took", "took loyal"])
    worlds = [state.resample(3, random.Random(k)) for k in range(40)]
    assert all(world.view(3) == state.view(3) for world in worlds)
    assert all(world.takes[3] == (4, None) for world in worlds)
    assert len({tuple(sorted(world.takes.items(), key=lambda kv: kv[0])) for world in worlds}) > 1
    # seat 3 saw 10 diamonds: whatever the world, 5 diamonds left the box before him
    assert {world.hidden + world.takes[1][0] + world.takes[2][0] for world in worlds} == {5}
