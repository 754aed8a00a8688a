"""One scenario per numbered rule of seeds/get_adler.md, played from seeded starts with action texts."""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import fields
from pathlib import Path

import pytest

from tabletop_edu.core import IllegalAction, RulesError, rules_from_dict
from tabletop_edu.get_adler import Rules, new_game
from tabletop_edu.get_adler.rules import CAST, TRAIT_COLOURS, TRAIT_TABLE, TRAITS, has_trait


@pytest.mark.parametrize("players", [4, 5, 6])
def test_R1_1_cast_by_player_count(players):
    state = new_game(players, seed=3)
    assert sorted(state.characters) == sorted(CAST[:players])
    assert ("Agent Tarasov" in state.characters) == (players == 6)


@pytest.mark.parametrize("players", [3, 7, 8])
def test_R1_1_R1_6_tables_of_four_to_six_only(players):
    """The later 4-8 player edition is out of scope (R1.6): its characters and deck were never found."""
    with pytest.raises(RulesError, match="4 to 6 players"):
        new_game(players, seed=0)


def test_R1_2_R1_3_R7_2_seven_hours_then_documents_decide(helpers):
    for seed in range(6):
        state = new_game(4, seed=seed)
        turns = 0
        while not state.is_over:
            helpers.plain_turn(state, keep=("document",))
            turns += 1
        assert turns == 7 * 4
        documents = state.hands[state.adler].count("document")
        assert state.winner == ("adler" if documents >= 1 else "heroes")
        expected = (state.adler,) if documents else tuple(s for s in range(4) if s != state.adler)
        assert state.winners == expected


def test_R1_3_turns_go_round_in_seat_order(helpers):
    state = new_game(5, seed=1)
    seats = []
    for _ in range(10):
        seats.append(state.current_player)
        helpers.plain_turn(state)
    assert seats == [0, 1, 2, 3, 4] * 2 and state.hour == 3


@pytest.mark.parametrize(("options", "complaint"), [
    ({"hours": 0}, "hours takes whole numbers from 1 to 20"),
    ({"hours": 10**9}, "hours takes whole numbers"),
    ({"hand_size": 1}, "hand_size takes whole numbers from 2"),
    ({"first_arrest_hour": 0}, "first_arrest_hour"),
    ({"documents_to_win": "x"}, "documents_to_win must be a whole number"),
    ({"documents_to_win": 1.0}, "documents_to_win must be a whole number"),
    ({"wrong_arrest_skips": True}, "wrong_arrest_skips must be a whole number"),
    ({"adler_may_lie": 1}, "adler_may_lie must be True or False"),
    ({"escape_answer_card": "umbrella"}, "escape_answer_card is one of"),
    ({"deck_4": (("plain", 10**9),)}, "deck_4 takes whole numbers from 0 to 40"),
    ({"deck_4": (("question", 30), ("umbrella", 10))}, "deck_4 is one of"),
    ({"deck_4": [("question", 40), ("plain", 30)]}, "deck_4 must be a tuple"),  # lists: only through records
    ({"deck_4": (("question", 40), ("question", 30))}, "names a card twice"),
    ({"deck_4": (("question", 20),)}, "more than the players' hands"),
    ({"cast": ("Gold", "Sharpe", "Townsend", "Kate Collins", "Adler", "Agent Tarasov")}, "Adler among the first"),
    ({"cast": ("Adler", "Adler", "Sharpe", "Townsend", "Kate Collins", "Agent Tarasov")}, "each of"),
    ({"cast": ("Adler", "Gold", "Sharpe", "Townsend")}, "cast holds exactly 6"),
    ({"last_arrest_hour": 3}, "Arrests would never be allowed"),
    ({"hours": 3}, "Arrests would never be allowed"),
])
def test_R3_2_R5_1_unplayable_rules_are_refused_at_construction(options, complaint):
    """No rules value can exhaust memory or fail later: each field is checked (bounds), then `check()`."""
    with pytest.raises(RulesError, match=complaint):
        Rules(**options)


def test_rules_written_with_lists_come_back_from_records_as_tuples():
    record = new_game(4, seed=3).record()
    assert isinstance(record["rules"]["deck_4"][0], tuple)  # asdict keeps tuples; JSON writes lists
    listed = rules_from_dict(Rules, json.loads(json.dumps(record["rules"])))
    assert listed == Rules() and new_game(4, seed=3, rules=listed).hands == new_game(4, seed=3).hands


@pytest.mark.parametrize("players", [4, 5, 6])
def test_R1_1_option_cast_chooses_who_plays(players):
    cast = ("Agent Tarasov", "Kate Collins", "Adler", "Gold", "Sharpe", "Townsend")
    state = new_game(players, seed=4, rules=Rules(cast=cast))
    assert sorted(state.characters) == sorted(cast[:players])
    for seat in range(players):
        assert all(world[seat] in cast[:players] for world in state.consistent_identities(seat))


def test_R2_1_character_is_secret():
    state = new_game(4, seed=5)
    for seat in range(4):
        facts = state.view(seat).facts
        assert facts["my_character"] == state.characters[seat] and facts["revealed"] == {}
    assert state.view(None).facts["my_character"] is None


def test_R2_2_traits_identify_characters_and_questions_split_differently():
    assert len({tuple(TRAIT_TABLE[c][t] for t in TRAITS) for c in CAST}) == len(CAST)
    splits = [frozenset(c for c in CAST if has_trait(c, t, col)) for t in TRAITS for col in TRAIT_COLOURS[t]]
    assert len(set(splits)) == len(splits) and all(len(s) == 2 for s in splits)


def test_R2_2_twelve_pairs_share_one_colour_and_three_share_none():
    shared = {frozenset((a, b)): sum(TRAIT_TABLE[a][t] == TRAIT_TABLE[b][t] for t in TRAITS)
              for i, a in enumerate(CAST) for b in CAST[i + 1:]}
    assert Counter(shared.values()) == {1: 12, 0: 3}
    assert {pair for pair, colours in shared.items() if colours == 0} == {
        frozenset(("Adler", "Agent Tarasov")), frozenset(("Gold", "Sharpe")), frozenset(("Townsend", "Kate Collins"))}


@pytest.mark.parametrize("players,total", [(4, 64), (5, 77), (6, 90)])
def test_R3_1_R3_2_hands_of_seven_and_deck_sizes(players, total):
    state = new_game(players, seed=2)
    sizes = [len(hand) for hand in state.hands]
    assert sizes[0] == 8 and sizes[1:] == [7] * (players - 1)  # seat 0 has drawn for its turn
    assert len(state.deck) + sum(sizes) == total == len(Rules().deck(players))


def test_R3_3_draw_then_discard():
    state = new_game(4, seed=4)
    card = state.hands[0][0]
    before = Counter(state.hands[1])
    state.apply(f"discard {card}")
    assert len(state.hands[0]) == 7 and state.discard_pile == [card]
    assert len(state.hands[1]) == 8 and sum((Counter(state.hands[1]) - before).values()) == 1
    assert state.view(2).log[-1].text == "Seat 1 draws a card."


def test_R3_4_empty_deck_is_reshuffled(helpers):
    state = new_game(4, seed=0, rules=Rules(hours=12))
    while not any(e.kind == "reshuffle" for e in state.events):
        helpers.plain_turn(state)
    assert len(state.deck) + len(state.discard_pile) + sum(map(len, state.hands)) == 64


def test_R3_4_without_reshuffle_hands_shrink(helpers):
    state = new_game(4, seed=0, rules=Rules(hours=12, reshuffle_discards=False))
    while state.deck:
        helpers.plain_turn(state)
    helpers.plain_turn(state)
    helpers.plain_turn(state)
    assert min(map(len, state.hands)) < 7 and not any(e.kind == "reshuffle" for e in state.events)


def test_R4_1_R4_2_questions_are_public_and_heroes_tell_the_truth(helpers):
    state = helpers.find_state(4, lambda s: "question" in s.hands[s.current_player]
                               and s.current_player != s.adler)
    asker = state.current_player
    target = next(s for s in range(4) if s not in (asker, state.adler))
    state.apply(f"ask {target} eyes blue")
    assert state.current_player == target
    truth = has_trait(state.characters[target], "eyes", "blue")
    assert [str(a) for a in state.legal_actions()] == [f"answer {'yes' if truth else 'no'}"]
    with pytest.raises(IllegalAction, match="truth"):
        state.apply(f"answer {'no' if truth else 'yes'}")
    state.apply(f"answer {'yes' if truth else 'no'}")
    for seat in [None, 0, 1, 2, 3]:
        assert state.view(seat).facts["answers"] == [[asker, target, "eyes", "blue", truth]]


def test_R4_2_adler_may_lie(helpers):
    state = helpers.find_state(4, lambda s: "question" in s.hands[s.current_player]
                               and s.current_player != s.adler)
    state.apply(f"ask {state.adler} hat black")  # Adler's hat is black
    assert {str(a) for a in state.legal_actions()} == {"answer yes", "answer no"}
    state.apply("answer no")
    assert state.answers[-1][-1] is False and state.phase in ("turn", "skip")


def test_R4_2_option_adler_tells_the_truth(helpers):
    state = helpers.find_state(4, lambda s: "question" in s.hands[s.current_player]
                               and s.current_player != s.adler, rules=Rules(adler_may_lie=False))
    state.apply(f"ask {state.adler} hat black")
    assert [str(a) for a in state.legal_actions()] == ["answer yes"]


def test_R4_3_lies_keep_adler_possible(helpers):
    state = helpers.find_state(4, lambda s: "question" in s.hands[s.current_player]
                               and s.current_player != s.adler)
    asker = state.current_player
    state.apply(f"ask {state.adler} hat black")
    state.apply("answer no")
    worlds = state.consistent_identities(asker)
    assert tuple(state.characters) in worlds
    assert all(w[state.adler] == "Adler" or TRAIT_TABLE[w[state.adler]]["hat"] != "black" for w in worlds)


def test_R4_4_magnifying_glass_is_private(helpers):
    state = helpers.find_state(4, lambda s: "magnify" in s.hands[s.current_player])
    seat = state.current_player
    target = (seat + 2) % 4
    hand = sorted(state.hands[target])
    state.apply(f"magnify {target}")
    assert state.view(seat).log[-2].data["cards"] == hand  # then the next seat's redacted draw
    assert state.view(seat).facts["known_cards"][target] == hand
    other = (seat + 1) % 4
    seen = [e for e in state.view(other).log if e.kind == "magnify"]
    assert seen[-1].data == {"seat": seat, "target": target} and "cards" not in seen[-1].data
    assert state.view(other).facts["known_cards"].get(target) is None


def test_R4_5_binoculars_take_at_random_then_give_any_card_even_the_one_taken(helpers):
    state = helpers.find_state(4, lambda s: "binoculars" in s.hands[s.current_player])
    seat = state.current_player
    target, third = (seat + 2) % 4, (seat + 1) % 4  # the third seat plays next (and draws)
    sizes = [len(h) for h in state.hands]
    before_target = Counter(state.hands[target])
    state.apply(f"binoculars {target}")
    taken = next(e for e in reversed(state.events) if e.kind == "binoculars").data["taken"]
    assert Counter(state.hands[target]) == before_target - Counter([taken])
    assert state.phase == "give" and state.current_player == seat  # the second decision, after seeing the card
    assert [str(a) for a in state.legal_actions()] == [f"give {card}" for card in sorted(set(state.hands[seat]))]
    assert f"give {taken}" in [str(a) for a in state.legal_actions()]
    for knower in (seat, target):
        assert state.view(knower).facts["binoculars"] == {"seat": seat, "target": target, "taken": taken}
        assert state.view(knower).log[-1].data == {"seat": seat, "target": target, "taken": taken}
    assert state.view(third).facts["binoculars"] == {"seat": seat, "target": target, "taken": None}
    assert state.view(third).log[-1].data == {"seat": seat, "target": target}
    assert state.view(target).facts["known_cards"][seat] == [taken]
    with pytest.raises(IllegalAction, match="give CARD"):
        state.apply("discard plain" if "plain" in state.hands[seat] else f"discard {taken}")
    state.apply(f"give {taken}")  # giving back the very card taken is allowed
    given = [e for e in state.events if e.kind == "give"][-1]
    assert given.data == {"seat": seat, "target": target, "card": taken} and given.observers == {seat, target}
    assert given.seen_by(third).data == {"seat": seat, "target": target}
    assert Counter(state.hands[target]) == before_target and state.phase in ("turn", "skip")
    assert len(state.hands[seat]) == sizes[seat] - 1  # only the binoculars card is gone
    assert state.view(seat).facts["known_cards"][target] == [taken]
    assert target not in state.view(third).facts["known_cards"]


def test_R4_5_give_only_after_binoculars():
    state = new_game(4, seed=0)
    refused = state.fingerprint()
    with pytest.raises(IllegalAction, match="only after taking one with binoculars"):
        state.apply(f"give {state.hands[0][0]}")
    assert state.fingerprint() == refused


def test_R4_6_documents_are_discarded_as_signals(helpers):
    state = helpers.find_state(4, lambda s: "document" in s.hands[s.current_player])
    before = state.view(None).facts["discards"].get("document", 0)
    state.apply("discard document")
    assert state.view(None).facts["discards"]["document"] == before + 1
    assert state.view(2).log[-2].text.endswith("discards document.")


def test_R5_1_no_arrest_before_hour_four(helpers):
    state = helpers.find_state(4, lambda s: "arrest" in s.hands[s.current_player])
    assert state.hour < 4
    with pytest.raises(IllegalAction, match="hour"):
        state.apply(f"arrest {(state.current_player + 1) % 4}")
    later = helpers.find_state(4, lambda s: "arrest" in s.hands[s.current_player], hour=4)
    assert any(str(a).startswith("arrest") for a in later.legal_actions())


def test_R1_5_heroes_may_still_arrest_in_the_seventh_hour(helpers):
    """Our reading of « avant la 7e heure »: the seventh hour is played in full, arrests included."""
    state = helpers.find_state(4, helpers.hero_to_arrest_adler_holding(None), hour=7, keep=("arrest",))
    assert state.hour == 7
    state.apply(f"arrest {state.adler}")
    assert state.phase == "confront"
    state.apply("surrender")
    assert state.winner == "heroes"


def test_R1_5_option_last_arrest_hour_six_is_the_strict_reading(helpers):
    rules = Rules(last_arrest_hour=6)
    state = helpers.find_state(4, lambda s: "arrest" in s.hands[s.current_player], hour=7, keep=("arrest",),
                               rules=rules)
    assert state.hour == 7 and not any(str(a).startswith("arrest") for a in state.legal_actions())
    before = state.fingerprint()
    with pytest.raises(IllegalAction, match="from hour 4 to hour 6"):
        state.apply(f"arrest {(state.current_player + 1) % 4}")
    assert state.fingerprint() == before
    while not state.is_over:  # Adler must still survive the seventh hour
        helpers.plain_turn(state)
    assert state.hour == 7 and any(e.kind == "end" and "documents" in e.data for e in state.events)


def test_R5_2_right_arrest_reveals_everyone(helpers):
    state = helpers.find_state(4, helpers.hero_to_arrest_adler_holding("disguise"), hour=4)
    state.apply(f"arrest {state.adler}")
    assert state.phase == "confront" and state.current_player == state.adler
    assert state.view(None).facts["revealed"] == dict(enumerate(state.characters))
    state.apply("respond disguise")
    assert state.view(1).facts["adler_seat"] == state.adler  # stays revealed (R5.2)


def test_R5_3_R5_4_wrong_arrest_both_skip(helpers):
    state = helpers.find_state(4, lambda s: "arrest" in s.hands[s.current_player], hour=4)
    seat = state.current_player
    target = next(s for s in range(4) if s not in (seat, state.adler))
    state.apply(f"arrest {target}")
    assert state.skips[seat] == 1 and state.skips[target] == 1 and state.not_adler == {target}
    assert state.view(None).facts["revealed"] == {}
    while state.current_player != target:
        helpers.plain_turn(state)
    hand = len(state.hands[target])
    assert [str(a) for a in state.legal_actions()] == ["skip"]
    with pytest.raises(IllegalAction, match="wrong arrest"):
        state.apply("discard plain")
    state.apply("skip")
    assert len(state.hands[target]) == hand and state.skips[target] == 0


def test_R6_1_R7_1_surrender_heroes_win(helpers):
    state = helpers.find_state(4, helpers.hero_to_arrest_adler_holding(None), hour=4)
    state.apply(f"arrest {state.adler}")
    state.apply("surrender")
    assert state.is_over and state.winner == "heroes" and state.adler not in state.winners


def test_R6_2_escape_all_pass(helpers):
    state = helpers.find_state(5, helpers.hero_to_arrest_adler_holding("escape"), hour=4)
    accuser = state.current_player
    state.apply(f"arrest {state.adler}")
    state.apply("respond escape")
    heroes = tuple(s for s in range(5) if s != state.adler and state.skips[s] == 0)
    assert state.current_player == heroes
    for hero in heroes:
        state.apply("pass", player=hero)
    assert state.turn_seat == (accuser + 1) % 5 and state.phase in ("turn", "skip")
    assert any(e.kind == "escape" for e in state.events)


def test_R6_2_escape_stopped_by_an_arrest(helpers):
    def situation(s):
        return helpers.hero_to_arrest_adler_holding("escape")(s) and any(
            "arrest" in s.hands[h] for h in range(5) if h not in (s.adler, s.current_player))
    state = helpers.find_state(5, situation, hour=4)
    state.apply(f"arrest {state.adler}")
    state.apply("respond escape")
    stopper = next(h for h in state.acting_seats if "arrest" in state.hands[h])
    state.apply("respond arrest", player=stopper)
    assert state.phase == "confront" and state.current_player == state.adler
    assert state.responders == [stopper]


def test_R6_3_duel_shots_alternate_and_adler_giving_up_loses(helpers):
    def situation(s):
        return helpers.hero_to_arrest_adler_holding("pistol")(s) and "pistol" in s.hands[s.current_player]
    state = helpers.find_state(4, situation, hour=4)
    accuser, adler = state.current_player, state.adler
    state.apply(f"arrest {adler}")
    state.apply("respond pistol")
    assert state.current_player == accuser and state.phase == "duel"
    state.apply("respond pistol")
    assert state.current_player == adler
    state.apply("pass")
    assert state.winner == "heroes" and state.is_over


def test_R6_3_R6_7_R7_3_hero_shot_is_out_but_still_wins_with_the_team(helpers):
    state = helpers.find_state(4, helpers.hero_to_arrest_adler_holding("pistol"), hour=4)
    accuser = state.current_player
    state.apply(f"arrest {state.adler}")
    state.apply("respond pistol")
    state.apply("pass")
    assert state.out == {accuser} and state.phase in ("turn", "skip")
    seats = []
    while not state.is_over:
        seats.append(state.current_player)
        helpers.plain_turn(state)
    assert accuser not in seats
    if state.winner == "heroes":
        assert accuser in state.winners


def test_R6_4_bomb_stuns_every_hero(helpers):
    state = helpers.find_state(4, helpers.hero_to_arrest_adler_holding("bomb"), hour=4)
    before = list(state.skips)
    state.apply(f"arrest {state.adler}")
    state.apply("respond bomb")
    for seat in range(4):
        assert state.skips[seat] == before[seat] + (seat != state.adler)


def test_R6_5_R6_6_disguise_escape_refill_and_resume_after_accuser(helpers):
    state = helpers.find_state(4, helpers.hero_to_arrest_adler_holding("disguise"), hour=4)
    accuser = state.current_player
    state.apply(f"arrest {state.adler}")
    state.apply("respond disguise")
    assert len(state.hands[state.adler]) == 7 + (state.current_player == state.adler)
    assert len(state.hands[accuser]) == 7
    assert state.turn_seat == (accuser + 1) % 4


def test_R6_6_option_refill_to(helpers):
    rules = Rules(refill_to=9)
    state = helpers.find_state(4, helpers.hero_to_arrest_adler_holding("disguise"), hour=4, rules=rules)
    accuser = state.current_player
    state.apply(f"arrest {state.adler}")
    state.apply("respond disguise")
    assert len(state.hands[accuser]) == 9 and len(state.hands[state.adler]) >= 9
    assert state.max_steps >= new_game(4, seed=0).max_steps  # hands of 10 bound the confrontations


def test_R5_2_second_arrest_of_revealed_adler_starts_a_new_confrontation(helpers):
    state = helpers.find_state(4, helpers.hero_to_arrest_adler_holding("disguise"), hour=4)
    state.apply(f"arrest {state.adler}")
    state.apply("respond disguise")
    for _ in range(8):
        seat = state.current_player
        if state.phase == "turn" and seat != state.adler and "arrest" in state.hands[seat]:
            state.apply(f"arrest {state.adler}")
            assert state.phase == "confront"
            return
        helpers.plain_turn(state)
    pytest.skip("no second arrest card in reach for this seed")


def test_R1_4_no_table_talk_only_actions():
    state = new_game(4, seed=0)
    before = state.fingerprint()
    with pytest.raises(IllegalAction, match="not a Get Adler action"):
        state.apply("say I am Gold")
    assert state.fingerprint() == before


def test_R6_2_option_stunned_heroes_may_respond(helpers):
    rules = Rules(stunned_can_respond=True)
    state = helpers.find_state(4, helpers.hero_to_arrest_adler_holding("escape"), hour=4, rules=rules)
    state.apply(f"arrest {state.adler}")
    state.apply("respond escape")
    assert set(state.acting_seats) == {s for s in range(4) if s != state.adler}


def test_R6_3_option_shot_hero_only_skips(helpers):
    rules = Rules(shot_hero_out=False, shot_hero_skips=2)
    state = helpers.find_state(4, helpers.hero_to_arrest_adler_holding("pistol"), hour=4, rules=rules)
    accuser = state.current_player
    before = state.skips[accuser]
    state.apply(f"arrest {state.adler}")
    state.apply("respond pistol")
    state.apply("pass")
    assert state.out == set() and state.skips[accuser] == before + 2


def test_R3_4_without_reshuffle_an_empty_handed_player_can_only_skip(helpers):
    rules = Rules(hours=20, hand_size=2, reshuffle_discards=False)
    state = new_game(4, seed=1, rules=rules)
    while not state.is_over and not (state.phase == "skip" and not state.hands[state.current_player]):
        helpers.plain_turn(state)
    seat = state.current_player
    assert not state.deck and not state.hands[seat] and state.skips[seat] == 0
    assert [str(a) for a in state.legal_actions()] == ["skip"]
    state.apply("skip")
    skip = next(event for event in reversed(state.events) if event.kind == "skip")
    assert skip.data == {"seat": seat, "why": "no cards"} and skip.text.endswith("has no card and passes this turn.")


SPEC = Path(__file__).resolve().parents[2] / "seeds" / "get_adler.md"


def _rule_ids(text):
    return set(re.findall(r"R\d+\.\d+", text))


def test_rules_docstring_cites_the_rules_the_spec_gives_each_option():
    """Issue 11: docstrings of `Rules` cited wrong rule ids (hand_size). Each option's bullet in the docstring
    and its row in the spec's option table name the same rules, and those rules exist."""
    spec = SPEC.read_text(encoding="utf-8")
    defined = set(re.findall(r"\*\*(R\d+\.\d+)\*\*", spec))
    rows = {match[0]: _rule_ids(match[1]) for match in re.findall(r"^\| `(\w+)`.*?\| ([^|]*) \|$", spec, re.M)}
    bullets = {match[0]: _rule_ids(match[1]) for match in re.findall(r"- `(\w+)`[^:]*: (.*?)(?=\n    - `|\Z)",
                                                                    Rules.__doc__ or "", re.S)}
    for name in (field.name for field in fields(Rules)):
        key = "deck_4" if name.startswith("deck_") else name  # the three deck parts share one bullet and row
        cited, listed = bullets.get(key), rows.get(key)
        assert cited and listed and cited == listed, (name, cited, listed)
        assert cited <= defined, (name, cited - defined)


def test_every_rule_a_test_names_is_in_the_spec():
    spec = SPEC.read_text(encoding="utf-8")
    defined = set(re.findall(r"\*\*(R\d+\.\d+)\*\*", spec))
    named = set()
    for path in Path(__file__).parent.glob("test_*.py"):
        for name in re.findall(r"def test_((?:R\d+_\d+_)+)", path.read_text(encoding="utf-8")):
            named |= {rule.replace("_", ".") for rule in re.findall(r"R\d+_\d+", name)}
    assert named and named <= defined, named - defined


# ----------------------------------------------------------------------------------- issue 22: the seed's words

def _stopped_escape(helpers, players, rules):
    """A hero arrests Adler (who holds an escape and a pistol or a disguise), Adler escapes, and another hero,
    further round the table, stops him with an arrest card: (state, accuser, stopper)."""
    def situation(s):
        hand = s.hands[s.adler]
        return helpers.hero_to_arrest_adler_holding("escape")(s) and "pistol" in hand and "disguise" in hand and any(
            "arrest" in s.hands[h] for h in range(players) if h not in (s.adler, s.current_player))
    state = helpers.find_state(players, situation, hour=4, rules=rules)
    accuser = state.current_player
    state.apply(f"arrest {state.adler}")
    state.apply("respond escape")
    stopper = next(h for h in state.acting_seats if "arrest" in state.hands[h])
    state.apply("respond arrest", player=stopper)
    return state, accuser, stopper


def test_R5_3_wrong_arrest_is_eliminated_for_a_turn_not_stunned(helpers):
    from tabletop_edu.get_adler.render import view_html

    state = helpers.find_state(4, lambda s: "arrest" in s.hands[s.current_player], hour=4)
    target = next(s for s in range(4) if s not in (state.current_player, state.adler))
    state.apply(f"arrest {target}")
    assert state.view(None).facts["skip_reasons"][target] == ["wrong_arrest"]
    while state.current_player != target:
        helpers.plain_turn(state)
    with pytest.raises(IllegalAction, match="wrong arrest") as refusal:
        state.apply("discard plain")
    assert "stunned" not in str(refusal.value)
    english, french = view_html(state.view(None), "en"), view_html(state.view(None), "fr")
    assert "eliminated for one turn" in english and "stunned" not in english
    assert "éliminé pour un tour" in french and "sous le choc" not in french and "sonné" not in french
    state.apply("skip")
    assert state.events[-1].data["why"] == "wrong_arrest" and state.view(None).facts["skip_reasons"][target] == []


def test_R6_4_bomb_leaves_every_hero_stunned_in_the_seeds_word(helpers):
    from tabletop_edu.get_adler.render import view_html

    state = helpers.find_state(4, helpers.hero_to_arrest_adler_holding("bomb"), hour=4)
    state.apply(f"arrest {state.adler}")
    state.apply("respond bomb")
    reasons = state.view(None).facts["skip_reasons"]
    assert all(reasons[seat] == ([] if seat == state.adler else ["stunned"]) for seat in range(4))
    while state.phase != "skip":
        helpers.plain_turn(state)
    english, french = view_html(state.view(None), "en"), view_html(state.view(None), "fr")
    assert "stunned by the bomb" in english and "eliminated" not in english
    assert "sonné" in french and "éliminé" not in french
    with pytest.raises(IllegalAction, match="stunned by the bomb"):
        state.apply("discard plain")


@pytest.mark.parametrize("duel_with", ["accuser", "latest_hero"])
def test_R6_3_option_duel_with(helpers, duel_with):
    state, accuser, stopper = _stopped_escape(helpers, 5, Rules(duel_with=duel_with))
    state.apply("respond pistol")
    hero = accuser if duel_with == "accuser" else stopper
    assert state.phase == "duel" and state.current_player == hero and accuser != stopper
    assert state.view(None).facts["confrontation"]["duel_hero"] == hero
    state.apply("pass")  # the hero gives up the duel: he is the one shot
    assert state.out == {hero}


@pytest.mark.parametrize("resume_after", ["accuser", "latest_hero"])
def test_R6_6_option_resume_after(helpers, resume_after):
    state, accuser, stopper = _stopped_escape(helpers, 5, Rules(resume_after=resume_after))
    turn = state.turn_index
    state.apply("respond disguise")
    after = accuser if resume_after == "accuser" else stopper
    assert state.turn_seat == (after + 1) % 5
    assert state.turn_index == turn + 1 + (after - accuser) % 5  # the turns in between are passed over


def test_R6_3_R6_6_hero_facing_adler_options_are_checked():
    for name in ("duel_with", "resume_after"):
        assert getattr(Rules(), name) == "accuser"
        with pytest.raises(RulesError, match=name):
            Rules(**{name: "stopper"})
        with pytest.raises(RulesError, match=name):
            Rules(**{name: 1})
