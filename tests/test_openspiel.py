"""The OpenSpiel adapter: every registered game is a pyspiel game that passes OpenSpiel's own random-simulation
test, whose chance nodes are exactly the engine's own draws, whose information states are the seats' views,
and on which OpenSpiel's algorithms (MCCFR, ISMCTS) run."""

from __future__ import annotations

import itertools
import math
import random
from typing import Any

import pyspiel
import pytest
from open_spiel.python.algorithms import exploitability, external_sampling_mccfr, get_all_states
from open_spiel.python import policy as policy_lib

from tabletop_edu import registry
from tabletop_edu.examples import peek
from tabletop_edu.openspiel import (OpenSpielISMCTS, ScriptedRandom, deal, digit_outcomes, digits_of, load_game,
                                    rule_parameters, rules_from_parameters)
from tabletop_edu.tournament import bot_spec, run_tournament

GAMES = sorted(registry.games())
SMALL_PEEK = peek.Rules(highest_card=3, rounds=1)


@pytest.mark.parametrize("name", GAMES)
def test_every_game_passes_openspiels_random_simulation_test(name: str) -> None:
    plugin = registry.game(name)
    game = load_game(name, players=plugin.min_players)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    assert game.num_players() == plugin.min_players
    assert game.num_distinct_actions() == len(plugin.action_catalogue(plugin.min_players))
    assert game.max_game_length() == plugin.new_game(plugin.min_players, seed=0).max_steps
    assert str(game).startswith(f"tabletop_{name}(")


def test_player_counts_rules_and_game_strings_load() -> None:
    game = load_game("peek", players=4, rules=peek.Rules(highest_card=5, rounds=1))
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    again = pyspiel.load_game(str(game))  # OpenSpiel's own game string gives the same game back
    assert again.num_players() == 4 and again.table.rules == peek.Rules(highest_card=5, rounds=1)
    assert pyspiel.load_game("tabletop_peek(players=2,rounds=3)").table.rules == peek.Rules(rounds=3)
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter"):
        pyspiel.load_game("tabletop_peek(colour=3)")
    with pytest.raises(ValueError, match="2 to 4 players"):
        load_game("peek", players=5)
    with pytest.raises(ValueError, match="Unknown option"):
        load_game("peek", observation=3)
    with pytest.raises(ValueError, match="one card per player"):
        load_game("peek", rules=peek.Rules(highest_card=2), players=3)  # fewer cards than players


def test_options_that_are_not_plain_values_are_json_parameters() -> None:
    from dataclasses import dataclass

    from tabletop_edu.core import GameRules, option

    @dataclass(frozen=True)
    class Odd(GameRules):
        hours: int | None = option(None, low=1, high=9)
        deck: tuple[str, ...] = option(("a", "b"), length=(1, 5))

    parameters = rule_parameters(Odd(hours=3, deck=("x", "y", "z")))
    assert parameters == {"hours": "json:3", "deck": 'json:["x";"y";"z"]'}
    assert rules_from_parameters(Odd, parameters) == Odd(hours=3, deck=("x", "y", "z"))
    assert rules_from_parameters(Odd, rule_parameters(Odd())) == Odd()
    with pytest.raises(ValueError, match="cannot be written"):
        rule_parameters(Odd(deck=("a(b",)))


# ------------------------------------------------------------------------------------------ chance


class Recorder(random.Random):
    """A seeded `random.Random` that writes down every draw it makes (the same draws as an unrecorded one)."""

    def __init__(self, seed: int) -> None:
        self.drawn: list[tuple[int, int]] = []
        super().__init__(seed)

    def _randbelow(self, n: int) -> int:  # type: ignore[override]
        value = self._randbelow_with_getrandbits(n)
        if n > 1:
            self.drawn.append((value, n))
        return value


def replay_through_chance_nodes(name: str, seed: int, base: int = 64) -> tuple[Any, Any, float, float, int]:
    """A seeded game played at random, and the same game played through the adapter, its chance nodes answered
    by the draws the seeded `random.Random` made. (plain engine, adapter engine, the probability of the chance
    path, the product of 1/n over the draws, how many draws happened after the deal)."""
    plugin = registry.game(name)
    players = plugin.min_players
    plain = plugin.new_game(players, seed=seed)
    recorder = Recorder(seed)
    recorded = deal(plugin.state_class(), players, plain.rules, recorder)  # type: ignore[arg-type]
    dealt = len(recorder.drawn)
    moves = random.Random(seed)
    while not plain.is_over and len(plain.history) < 60:
        seat = plain.acting_seats[0]
        move = moves.choice(plain.legal_actions(seat))
        plain.apply(move, player=seat)
        recorded.apply(str(move), player=seat)
    assert recorded.events == plain.events  # the recorder draws exactly as the game's own seeded rng

    game = load_game(name, players=players, max_chance_outcomes=base)
    state = game.new_initial_state()
    draws, history = iter(recorder.drawn), iter(plain.history)
    probability = 1.0
    for _ in range(10_000):
        if state.is_chance_node():
            value, n = next(draws)
            assert state.pending_draw() == n
            for action in digits_of(value, n, base):
                probability *= dict(state.chance_outcomes())[action]
                state.apply_action(action)
        elif len(state.engine_state().history) < len(plain.history):
            seat, text = next(history)
            assert state.current_player() == seat
            state.apply_action(game.table.index[text])
        else:
            break
    assert next(draws, None) is None
    exact = math.prod(1 / n for _, n in recorder.drawn)
    return plain, state.engine_state(), probability, exact, len(recorder.drawn) - dealt


@pytest.mark.parametrize("name", GAMES)
def test_chance_nodes_are_the_engines_own_draws(name: str) -> None:
    for seed in (1, 2):
        plain, adapted, probability, exact, _ = replay_through_chance_nodes(name, seed)
        assert adapted.events == plain.events and adapted.history == plain.history
        assert probability == pytest.approx(exact)


def test_large_draws_become_digits_with_exact_probabilities() -> None:
    plain, adapted, probability, exact, _ = replay_through_chance_nodes("peek", 5, base=2)
    assert adapted.events == plain.events and probability == pytest.approx(exact)
    for outcomes, base in ((1000, 64), (7, 2), (64, 64), (65, 64)):
        total: dict[int, float] = {}
        for value in range(outcomes):  # walk every path of digits: each value keeps probability 1/n
            digits, p = digits_of(value, outcomes, base), 1.0
            for position, digit in enumerate(digits):
                choices = dict(digit_outcomes(outcomes, base, digits[:position])) if outcomes > base else \
                    {v: 1 / outcomes for v in range(outcomes)}
                assert sum(choices.values()) == pytest.approx(1.0)
                p *= choices[digit]
            total[value] = p
        assert all(p == pytest.approx(1 / outcomes) for p in total.values())


def test_the_scripted_rng_replays_its_draws_and_asks_for_more() -> None:
    rng = ScriptedRandom([2, 0])
    deck = ["a", "b", "c"]
    rng.shuffle(deck)  # draws below 3 then below 2, as CPython's shuffle does
    assert deck == ["b", "a", "c"] and rng.used == 2
    from tabletop_edu.openspiel import NeedDraw
    with pytest.raises(NeedDraw) as asked:
        rng.randrange(10)
    assert asked.value.outcomes == 10
    assert ScriptedRandom([5]).random() == 5 / 2**53 and ScriptedRandom([6]).getrandbits(3) == 6
    assert ScriptedRandom().choice(["only"]) == "only"  # one possible outcome: no chance node
    with pytest.raises(RuntimeError, match="not below 2"):
        ScriptedRandom([7]).choice(["x", "y"])



def test_a_shuffle_or_a_sample_short_of_draws_tells_the_sizes_of_the_rest() -> None:
    """So the adapter offers those chance nodes without playing the deal again for each: a 40-card shuffle is
    39 chance nodes and one replay, not 39; the draws are those of CPython's own methods."""
    from tabletop_edu.openspiel import NeedDraw
    for draws, method, first, rest in [([], "shuffle", 5, [4, 3, 2]), ([1, 0], "shuffle", 3, [2]),
                                       ([], "sample", 5, [4]), ([3], "sample", 4, [])]:
        rng = ScriptedRandom(draws)
        with pytest.raises(NeedDraw) as asked:
            rng.shuffle(list(range(5))) if method == "shuffle" else rng.sample(range(5), 2)
        assert (asked.value.outcomes, asked.value.then) == (first, rest)
    for seed in range(5):
        seeded = random.Random(seed)
        draws = [seeded.randrange(n) for n in (7, 6, 5)]
        deck = list(range(7))
        assert ScriptedRandom(draws).sample(deck, 3) == random.Random(seed).sample(deck, 3)

def test_a_peek_deal_is_uniform_over_all_deals() -> None:
    game = load_game("peek", players=2, rules=SMALL_PEEK)
    deals: dict[tuple[int, ...], float] = {}

    def walk(state: Any, p: float) -> None:
        if state.is_chance_node():
            for action, q in state.chance_outcomes():
                walk(state.child(action), p * q)
        else:
            cards = tuple(state.engine_state().cards)
            deals[cards] = deals.get(cards, 0.0) + p

    walk(game.new_initial_state(), 1.0)
    assert set(deals) == set(itertools.permutations(range(1, 4), 2))
    assert all(p == pytest.approx(1 / 6) for p in deals.values())


# ------------------------------------------------------------------------------------------ information


def test_information_states_are_the_views_and_respect_perfect_recall() -> None:
    game = load_game("peek", players=2, rules=SMALL_PEEK)
    states = get_all_states.get_all_states(game, include_chance_states=False, to_string=lambda s: s.history_str())
    assert len(states) > 100
    legal_by_infostate: dict[str, list[int]] = {}
    for state in states.values():
        if state.is_terminal():
            continue
        seat = state.current_player()
        key = state.information_state_string(seat)
        assert legal_by_infostate.setdefault(key, state.legal_actions()) == state.legal_actions()
        engine = state.engine_state()
        assert key.startswith(f"seat {seat}\n") and f"dealt the {engine.cards[1 - seat]}" not in key
        assert key == state.clone().information_state_string(seat)
        assert len(state.information_state_tensor(seat)) == game.information_state_tensor_size()
    # seat 0 before moving: three infostates (its own card), each shared by the two deals of the other card
    first = {s.information_state_string(0) for s in states.values() if s.history() and len(s.history()) == 2}
    assert len(first) == 3


@pytest.mark.parametrize("name", GAMES)
def test_worlds_drawn_from_an_information_state_keep_it(name: str) -> None:
    plugin = registry.game(name)
    game = load_game(name, players=plugin.min_players)
    state, rng = game.new_initial_state(), random.Random(3)
    moves = min(6, game.max_game_length() - 2)
    while state.is_chance_node() or len(state.engine_state().history) < moves:
        actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        state.apply_action(rng.choice(actions))
    seat = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    world = state.resample_from_infostate(seat, sampler)
    assert world.information_state_string(seat) == state.information_state_string(seat)
    assert world.legal_actions() == state.legal_actions()
    while not world.is_terminal():  # and it plays on, its future draws chance nodes again
        actions = [a for a, _ in world.chance_outcomes()] if world.is_chance_node() else world.legal_actions()
        world.apply_action(rng.choice(actions))
    assert len(world.returns()) == plugin.min_players


# ------------------------------------------------------------------------------------------ algorithms


def test_external_sampling_mccfr_approaches_an_equilibrium_of_small_peek() -> None:
    import numpy as np

    game = load_game("peek", players=2, rules=SMALL_PEEK)
    uniform = exploitability.nash_conv(game, policy_lib.UniformRandomPolicy(game))
    np.random.seed(0)
    solver = external_sampling_mccfr.ExternalSamplingSolver(game)
    for _ in range(150):
        solver.iteration()
    learned = exploitability.nash_conv(game, solver.average_policy())
    assert learned < uniform / 2


def test_the_constant_sum_option_lets_exploitability_run_and_cfr_lower_it() -> None:
    from open_spiel.python.algorithms import cfr

    game = load_game("peek", players=2, rules=SMALL_PEEK, constant_sum=True)
    assert game.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM and game.utility_sum() == 1.0
    same = pyspiel.load_game("tabletop_peek(players=2,highest_card=3,rounds=1,constant_sum=True)")
    assert same.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM
    terminals = [state for state in get_all_states.get_all_states(game, include_chance_states=True).values()
                 if state.is_terminal()]
    assert terminals and all(math.isclose(sum(state.returns()), 1.0) for state in terminals)
    assert {tuple(state.returns()) for state in terminals} >= {(1.0, 0.0), (0.0, 1.0)}
    uniform = exploitability.exploitability(game, policy_lib.UniformRandomPolicy(game))
    solver = cfr.CFRSolver(game)
    for _ in range(60):
        solver.evaluate_and_update_policy()
    learned = exploitability.exploitability(game, solver.average_policy())
    assert 0 <= learned < uniform / 4
    general = load_game("peek", players=2, rules=SMALL_PEEK)
    assert general.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM  # the default: a shared win is a win


def test_the_zero_sum_form_keeps_exploitability_and_cfr_plus_lowers_it() -> None:
    """The shared win less 1/2 at two seats: the returns add up to 0, each seat's payoff is its constant-sum
    payoff less a constant, so a profile is as exploitable in both forms; CFR+ lowers it checkpoint after
    checkpoint (its average profile converges in two-player zero-sum games)."""
    from open_spiel.python.algorithms import cfr

    game = load_game("peek", players=2, rules=SMALL_PEEK, zero_sum=True)
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM and game.utility_sum() == 0.0
    assert (game.min_utility(), game.max_utility()) == (-0.5, 0.5)
    same = pyspiel.load_game("tabletop_peek(players=2,highest_card=3,rounds=1,zero_sum=True)")
    assert same.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    terminals = [state for state in get_all_states.get_all_states(game, include_chance_states=True).values()
                 if state.is_terminal()]
    assert terminals and all(math.isclose(sum(state.returns()), 0.0, abs_tol=1e-12) for state in terminals)
    constant = load_game("peek", players=2, rules=SMALL_PEEK, constant_sum=True)
    uniform = exploitability.exploitability(game, policy_lib.UniformRandomPolicy(game))
    assert uniform == pytest.approx(exploitability.exploitability(constant, policy_lib.UniformRandomPolicy(constant)))
    solver = cfr.CFRPlusSolver(game)
    curve = []
    for iteration in range(1, 41):
        solver.evaluate_and_update_policy()
        if iteration in (5, 20, 40):
            curve.append(exploitability.exploitability(game, solver.average_policy()))
    assert uniform > curve[0] and all(later < earlier for earlier, later in zip(curve, curve[1:]))
    assert curve[-1] < 0.01
    with pytest.raises(ValueError, match="not both"):
        load_game("peek", players=2, rules=SMALL_PEEK, zero_sum=True, constant_sum=True)


def test_openspiels_sequence_form_lp_value_is_our_trees_value() -> None:
    """OpenSpiel's sequence-form LP (cvxpy with ECOS, not an extra of ours) on the zero-sum form, and
    `trees.solve_zero_sum` (scipy) on the tree built from every deal with the same payoffs: one value, -1/12."""
    pytest.importorskip("cvxpy")
    pytest.importorskip("ecos")
    from open_spiel.python.algorithms import sequence_form_lp

    from tabletop_edu.openspiel import zero_sum_form
    from tabletop_edu.trees import solve_zero_sum, tree_from_states

    game = load_game("peek", players=2, rules=SMALL_PEEK, zero_sum=True)
    value, opposite, first, second = sequence_form_lp.solve_zero_sum_game(game)
    deals = {tuple(state.cards): state for state in (peek.new_game(2, seed=seed, rules=SMALL_PEEK)
                                                      for seed in range(100))}
    assert len(deals) == 6  # two different cards of three, in order
    tree = tree_from_states([(f"cards {cards}", state, 1 / len(deals)) for cards, state in sorted(deals.items())],
                            payoff=lambda state: zero_sum_form(state.returns()))
    ours = solve_zero_sum(tree)
    assert value == pytest.approx(ours.value, abs=1e-6) == pytest.approx(-1 / 12, abs=1e-6)
    assert opposite == pytest.approx(-value, abs=1e-6)
    policy = policy_lib.merge_tabular_policies([first, second], game)
    assert exploitability.exploitability(game, policy) < 1e-6


def test_openspiel_ismcts_plays_in_our_tournaments_reproducibly() -> None:
    spec = bot_spec("commissario", "openspiel-ismcts(simulations=20)")  # a bot name of Commissario
    assert isinstance(spec.build(), OpenSpielISMCTS) and spec.build().simulations == 20
    runs = [run_tournament("peek", ["random", OpenSpielISMCTS(simulations=20)], players=2, games=4, seed=0)
            for _ in range(2)]
    assert not runs[0].failures and len(runs[0].games) == 4
    assert runs[0].games == runs[1].games  # seeded: the same games, move for move


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_ismcts_chooses_a_legal_move_in_every_game(name: str) -> None:
    """From the view alone where the game builds worlds from views (`world_from_view`), else through the
    referee's bound sampler, as tournaments seat it."""
    from tabletop_edu.ismcts import bind_worlds

    plugin = registry.game(name)
    state = plugin.new_game(plugin.min_players, seed=2)
    rng = random.Random(0)
    while len(state.legal_actions(state.acting_seats[0])) < 2:
        seat = state.acting_seats[0]
        state.apply(rng.choice(state.legal_actions(seat)), player=seat)
    seat = state.acting_seats[0]
    bot = OpenSpielISMCTS(simulations=4)
    bind_worlds(bot, state, seat)
    assert bot.choose(state.view(seat), state.legal_actions(seat), rng) in state.legal_actions(seat)


def test_a_game_that_cannot_be_registered_warns_and_the_others_stay(monkeypatch: pytest.MonkeyPatch) -> None:
    from tabletop_edu import openspiel

    def refuse(plugin: Any) -> str:
        if registry.game(plugin).name == "peek":
            raise ValueError("no parameters for this one")
        return openspiel.short_name(registry.game(plugin).name)

    monkeypatch.setattr(openspiel, "register", refuse)
    with pytest.warns(registry.PluginWarning, match="peek is not registered with OpenSpiel"):
        names = openspiel.register_all()
    assert "tabletop_peek" not in names and "tabletop_commissario" in names
