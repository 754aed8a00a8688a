"""The pure-Python forward-backward (used where numpy cannot be imported, issue 15) gives the numpy chain's
numbers and draws: same marginals and evidence to 1e-9 along seeded games at 6, 8 and 12 players (token tables,
the Cleaner, free talk and budgeted questions, testimonies as soft evidence, "a diamond is still out"), the
brute-force posterior on small tables, the same histories from the same rng, and only histories that have
weight. Then the public API, in a process where numpy cannot be imported, answers as it does with numpy."""

from __future__ import annotations

import dataclasses
import json
import random
import subprocess
import sys
import textwrap
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence

import pytest

from tabletop_edu.core import View
from tabletop_edu.mafia_de_cuba import Rules, new_game
from tabletop_edu.mafia_de_cuba._chain_numpy import NumpyChain
from tabletop_edu.mafia_de_cuba._chain_python import PythonChain
from tabletop_edu.mafia_de_cuba.inference import (RANDOM_CHOICES, UNIFORM_WORLDS, Model, Observation, Posterior,
                                                   PosteriorCache, brute_force_posterior, fastest_chain,
                                                   observation_from_view, policy_model, with_testimonies)



class LeaningTaker:
    """Takes anything legal, more likely the more diamonds it takes: a policy under which every world the view
    allows keeps some weight, unlike the bots' (one-sided) policies, so the policy model is compared on live
    chains."""

    def take_probabilities(self, diamonds: int, tokens: Mapping[str, int], legal: Sequence[str]) -> dict[str, float]:
        weights = {text: 1.0 + int(text) if text.isdigit() else 0.5 for text in legal}
        return {text: weight / sum(weights.values()) for text, weight in weights.items()}


POLICY = policy_model({1: LeaningTaker(), 2: LeaningTaker(), 4: LeaningTaker()})
#: (players, rules): the rulebook's tables and the R1.3 options, free talk and budgeted questions.
GAMES = [(6, Rules()), (6, Rules(cleaner=True, diamonds=7, max_hidden=7, first_may_set_aside=False)),
         (6, Rules(interrogation="budget", last_may_take_nothing=False, nobody_stole_godfather_wins=False)),
         (8, Rules(jokers=2)), (8, Rules(cleaner=True)), (8, Rules(loyal=0, agents=2, drivers=2, diamonds=9)),
         (12, Rules()), (12, Rules(cleaner=True, interrogation="budget"))]


def views_along(players: int, seed: int, rules: Rules, seats: tuple[int | None, ...], every: int = 1
                ) -> Iterator[View]:
    """The views of `seats` at every `every`-th step of a seeded random game that likes to talk and accuse (so
    testimonies, emptied pockets and "a diamond is still out" show up), while the box has moved."""
    state, rng = new_game(players, seed=seed, rules=rules), random.Random(seed)
    while not state.is_over and len(state.history) < 60:
        if len(state.history) % every == 0:
            for seat in seats:
                if observation_from_view(state.view(seat)).steps:
                    yield state.view(seat)
        actor = rng.choice(state.acting_seats)
        legal = state.legal_actions(actor)
        talk = [action for action in legal if str(action).split()[0] in ("took", "saw", "accuse", "ask")]
        state.apply(rng.choice(talk if talk and rng.random() < 0.5 else legal), player=actor)


def largest_difference(a: Posterior, b: Posterior) -> float:
    return max((abs(x.get(c, 0.0) - y.get(c, 0.0)) for x, y in zip(a.steps, b.steps) for c in {*x, *y}),
               default=0.0)


def assert_same_chain(obs: Observation, model: Model) -> bool:
    """Both chains agree on `obs`: same choices in the same order, marginals and evidence to 1e-9, the same
    histories drawn from the same rng; False when no world fits (then both say so)."""
    try:
        fast = NumpyChain(obs, model)
    except ValueError:
        with pytest.raises(ValueError, match="No world fits"):
            PythonChain(obs, model)
        return False
    pure = PythonChain(obs, model)
    ours, theirs = pure.posterior(), fast.posterior()
    assert [list(step) for step in ours.steps] == [list(step) for step in theirs.steps]
    assert largest_difference(ours, theirs) < 1e-9
    assert pure.evidence == pytest.approx(fast.evidence, rel=1e-9)
    numpy_rng, python_rng = random.Random(len(obs.steps)), random.Random(len(obs.steps))
    assert [fast.sample(numpy_rng) for _ in range(3)] == [pure.sample(python_rng) for _ in range(3)]
    return True


@pytest.mark.parametrize("game", range(len(GAMES)))
def test_the_pure_python_chain_is_the_numpy_chain(game: int) -> None:
    """(The bots' policy model is compared at 6 players only: the numpy chain asks a policy about every box of
    the game, which takes seconds at 12.)"""
    players, rules = GAMES[game]
    small = players == 6
    compared = Counter()
    seats = (None, 0, players - 1) if players == 12 else (None, 0, 2, players - 1)
    for view in views_along(players, game, rules, seats, every=10 if players == 12 else 4):
        obs = observation_from_view(view)
        soft = with_testimonies(obs, view, truth=0.8)
        for observation, model in [(obs, UNIFORM_WORLDS), (soft, RANDOM_CHOICES), *[(obs, POLICY)] * small]:
            fits = assert_same_chain(observation, model)
            compared.update(steps=fits, soft=fits and bool(observation.soft_choices or observation.soft_boxes),
                            out=fits and observation.diamonds_out)
    assert compared["steps"] > 20 and compared["soft"] and compared["out"]  # testimonies and the investigation


def test_the_pure_python_chain_equals_brute_force_on_small_tables() -> None:
    checked = Counter()
    for players, rules in GAMES[:3]:
        for view in views_along(players, 1, rules, (2, 4), every=4):  # the Godfather or a spectator take seconds to enumerate
            obs = observation_from_view(view)
            for observation, model in [(obs, UNIFORM_WORLDS), (with_testimonies(obs, view, 0.7), POLICY)]:
                slow = brute_force_posterior(observation, model)
                exact = PosteriorCache(model, chain=PythonChain).posterior(observation)
                assert largest_difference(exact, slow) < 1e-9
                assert exact.evidence == pytest.approx(slow.evidence, rel=1e-9)
                checked.update(cases=1, out=observation.diamonds_out, soft=bool(observation.soft_choices))
    assert checked["cases"] > 20 and checked["out"] and checked["soft"]


def test_the_pure_python_cache_extends_its_forward_pass_and_keeps_the_numbers() -> None:
    """A PosteriorCache on the pure-Python chain reuses the steps of the previous observation, step by step
    along an 8-player game, and gives the from-scratch numbers."""
    cache = PosteriorCache(chain=PythonChain, chains=2)
    reused = 0
    for view in views_along(8, 3, Rules(cleaner=True), (0,)):
        obs = with_testimonies(observation_from_view(view), view, 0.75)
        previous = next(reversed(cache._chains.values()), None)
        chain = cache.chain(obs)
        reused += previous is not None and chain.steps[0] is previous.steps[0]  # the very same step, not a copy
        scratch = PythonChain(obs, UNIFORM_WORLDS)
        assert largest_difference(cache.posterior(obs), scratch.posterior()) < 1e-12
        assert chain.evidence == pytest.approx(scratch.evidence, rel=1e-12)
    assert reused > 10


def test_pure_python_draws_have_weight_and_follow_the_posterior() -> None:
    """Every history the pure-Python chain draws is a world the brute force gives weight to (pinning all of
    its choices leaves some evidence), and 600 draws follow the exact marginals."""
    state = new_game(6, seed=0)
    for text in ["hide 2", "set-aside none", "take 3", "take loyal", "take 4", "take fbi", "take driver",
                 *["pass"] * 5, "ask 2 took", "took loyal", "pass", "took 1", "pass", "pass", "pass", "accuse 3"]:
        state.apply_script([text])
    view = state.view(None)
    obs = with_testimonies(observation_from_view(view), view, 0.8)
    chain, rng = PythonChain(obs, RANDOM_CHOICES), random.Random(7)
    draws = [chain.sample(rng) for _ in range(600)]
    for history in set(map(tuple, draws)):
        pinned = dataclasses.replace(obs, pinned_choices=dict(enumerate(history)))
        assert brute_force_posterior(pinned, RANDOM_CHOICES).evidence > 0
    exact = chain.posterior()
    for index, marginal in enumerate(exact.steps):
        counts = Counter(draw[index] for draw in draws)
        assert set(counts) <= set(marginal)
        for choice, p in marginal.items():
            assert abs(counts[choice] / len(draws) - p) < 0.07, (index, choice, counts[choice], p)


NO_NUMPY = textwrap.dedent('''
    import importlib.abc
    import json
    import random
    import sys


    class Blocker(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.partition(".")[0] == "numpy":
                raise ImportError(f"{name} is not installed here")
            return None


    sys.meta_path.insert(0, Blocker())
    sys.path.insert(0, sys.argv[1])
    from tests_pure_python_probe import probe

    print(json.dumps(probe()))
''')


PROBE = textwrap.dedent('''
    import random

    from tabletop_edu.mafia_de_cuba import Rules, new_game, world_from_view
    from tabletop_edu.mafia_de_cuba.inference import (fastest_chain, observation_from_view, posterior,
                                                       sample_choices, testimony_worth, view_posterior,
                                                       who_knows_what)


    def probe():
        state = new_game(8, seed=4, rules=Rules(cleaner=True))
        rng = random.Random(4)
        while not state.is_over and len(state.history) < 30:
            actor = rng.choice(state.acting_seats)
            state.apply(rng.choice(state.legal_actions(actor)), player=actor)
        view = state.view(3)
        weighed = view_posterior(view, truth=0.8)
        return {
            "chain": fastest_chain().__name__,
            "posterior": [sorted((repr(c), p) for c, p in step.items())
                          for step in posterior(observation_from_view(state.view(0))).steps],
            "weighed": [sorted((repr(c), p) for c, p in step.items()) for step in weighed.steps],
            "draws": [repr(sample_choices(observation_from_view(view), random.Random(seed))) for seed in range(5)],
            "worlds": [world_from_view(view, random.Random(seed)).fingerprint() for seed in range(3)],
            "worth": testimony_worth(view, state.rules, 0.8),
            "matrix": who_knows_what(state),
        }
''')


def test_the_public_api_answers_the_same_without_numpy(tmp_path) -> None:
    """posterior, view_posterior, sample_choices, world_from_view, testimony_worth and who_knows_what in a process
    where numpy cannot be imported: the pure-Python chain, the same numbers (to 1e-9) and the same draws and
    worlds from the same seeds as here, with numpy."""
    (tmp_path / "tests_pure_python_probe.py").write_text(PROBE)
    run = subprocess.run([sys.executable, "-c", NO_NUMPY, str(tmp_path)], capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    without = json.loads(run.stdout.strip().splitlines()[-1])
    sys.path.insert(0, str(tmp_path))
    try:
        from tests_pure_python_probe import probe

        here = json.loads(json.dumps(probe()))
    finally:
        sys.path.remove(str(tmp_path))
    assert fastest_chain() is NumpyChain and without["chain"] == "PythonChain"
    for key in ("posterior", "weighed"):
        for ours, theirs in zip(without[key], here[key], strict=True):
            assert [c for c, _ in ours] == [c for c, _ in theirs]
            assert all(abs(p - q) < 1e-9 for (_, p), (_, q) in zip(ours, theirs))
    assert without["draws"] == here["draws"] and without["worlds"] == here["worlds"]
    assert [text for text, _ in without["worth"]] == [text for text, _ in here["worth"]]
    assert all(abs(p - q) < 1e-9 for (_, p), (_, q) in zip(without["worth"], here["worth"]))
    assert without["matrix"] == here["matrix"]
    assert len(set(here["draws"])) > 1 and here["worth"]  # the draws vary with the seed, testimonies were given
