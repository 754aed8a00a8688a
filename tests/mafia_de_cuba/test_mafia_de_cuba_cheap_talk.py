"""Testimony as cheap talk: claim policies are distributions (bad ones refused), babbling moves nothing, the two
exact routes to a heard posterior agree (and with brute force), the package's trust factor is a role-blind policy,
and the deviation checks find the equilibria of the talk game (R4.2, R4.4, R4.7, R5.1, R5.4)."""

from __future__ import annotations

import pytest

from tabletop_edu.core import RulesError
from tabletop_edu.mafia_de_cuba import new_game
from tabletop_edu.mafia_de_cuba.cheap_talk import (Speaker, babbling, check_policy, heard_posterior, lying_thieves,
                                                    role, role_blind, truthful)
from tabletop_edu.mafia_de_cuba.inference import (RANDOM_CHOICES, UNIFORM_WORLDS, brute_force_posterior,
                                                   observation_from_view, posterior, with_testimonies)

ROUND = ["hide 5", "set-aside none", "take 1", "take driver", "take 1", "take 1", "take 1"]


def asked(seat: int = 1, model=RANDOM_CHOICES) -> tuple:
    """The notebook's round: Ana (Godfather) asks `seat` what he took; the speaker as she sees him."""
    state = new_game(["Ana", "Ben", "Chloé", "David", "Eve", "Farid"], seed=0)
    for action in ROUND:
        state.apply(action)
    while state.phase == "floor":
        state.apply("pass", player=state.acting_seats[0])
    state.apply(f"ask {seat} took")
    return state, Speaker.of(state.view(0), seat, [str(a) for a in state.legal_actions()], model)


def test_types_are_the_exact_posterior_of_the_speakers_take() -> None:
    state, speaker = asked()
    exact = posterior(observation_from_view(state.view(0)), RANDOM_CHOICES).of_seat(1)
    assert speaker.types == pytest.approx({take: p for take, p in exact.items() if p > 0})
    assert set(speaker.types) == {"1", "2", "driver"}
    assert speaker.thief_before() == pytest.approx(
        {seat: posterior(observation_from_view(state.view(0)), RANDOM_CHOICES).role_probabilities(seat).get(
            "thief", 0.0) for seat in speaker.takers})


@pytest.mark.parametrize("make", [truthful, lambda s: lying_thieves(s, "took driver", 0.4),
                                  lambda s: role_blind(s, 0.3), lambda s: babbling(s, {"silent": 0.5, "took 3": 0.5})])
def test_every_policy_is_a_distribution_over_claims_per_type(make) -> None:
    _, speaker = asked()
    policy = make(speaker)
    check_policy(speaker, policy)
    for take in speaker.types:
        assert sum(policy[take].values()) == pytest.approx(1.0)
        assert set(policy[take]) <= set(speaker.claims)


@pytest.mark.parametrize("bad, words", [
    ({"1": {"took 1": 1.0}, "2": {"took 2": 1.0}}, "says nothing"),
    ({"1": {"took 1": 1.0}, "2": {"took 2": 1.0}, "driver": {"took a taxi": 1.0}}, "does not offer"),
    ({"1": {"took 1": 1.5, "took 2": -0.5}, "2": {"took 2": 1.0}, "driver": {"took driver": 1.0}}, "between 0 and 1"),
    ({"1": {"took 1": 0.5}, "2": {"took 2": 1.0}, "driver": {"took driver": 1.0}}, "sum to"),
])
def test_a_bad_policy_is_refused_with_a_reason(bad, words) -> None:
    _, speaker = asked()
    with pytest.raises(RulesError, match=words):
        check_policy(speaker, bad)
    with pytest.raises(RulesError, match=words):
        speaker.thief_after(bad, "took 1")


def test_an_off_path_claim_has_no_posterior_and_bad_speakers_are_refused() -> None:
    state, speaker = asked()
    with pytest.raises(RulesError, match="nobody would say"):
        speaker.thief_after(truthful(speaker), "took loyal")
    with pytest.raises(RulesError, match="nobody would say"):
        heard_posterior(speaker, truthful(speaker), "took loyal")
    with pytest.raises(RulesError, match="has not taken"):
        Speaker.of(state.view(0), 0, speaker.claims, RANDOM_CHOICES)
    with pytest.raises(RulesError, match="distinct"):
        Speaker.of(state.view(0), 1, ["took 1", "took 1"], RANDOM_CHOICES)


@pytest.mark.parametrize("distribution", [{"took driver": 1.0}, {"silent": 0.25, "took 7": 0.75}])
def test_babbling_moves_nothing(distribution) -> None:
    _, speaker = asked()
    policy = babbling(speaker, distribution)
    for claim in distribution:
        assert speaker.thief_after(policy, claim) == pytest.approx(speaker.thief_before(), abs=1e-12)


@pytest.mark.parametrize("model", [RANDOM_CHOICES, UNIFORM_WORLDS])
@pytest.mark.parametrize("make, claim", [(truthful, "took driver"), (lambda s: lying_thieves(s, "took driver", 0.5),
                                                                      "took driver"),
                                         (lambda s: role_blind(s, 0.2), "took 2")])
def test_the_two_exact_routes_agree_with_each_other_and_brute_force(model, make, claim) -> None:
    _, speaker = asked(model=model)
    policy = make(speaker)
    folded = heard_posterior(speaker, policy, claim)
    mixed = speaker.thief_after(policy, claim)
    for seat in speaker.takers:
        assert folded.role_probabilities(seat).get("thief", 0.0) == pytest.approx(mixed[seat], abs=1e-9)
    likelihood = {take: policy[take].get(claim, 0.0) for take in speaker.types}

    def heard(kind, seat, box, choices, last):
        weights = model(kind, seat, box, choices, last)
        if kind != "take" or seat != speaker.seat:
            return weights
        return [w * likelihood.get(str(c[0]) if c[0] else (c[1] or "nothing"), 0.0) for w, c in zip(weights, choices)]

    brute = brute_force_posterior(speaker.observation, heard)
    for seat in speaker.takers:
        assert brute.role_probabilities(seat).get("thief", 0.0) == pytest.approx(mixed[seat], abs=1e-9)


def test_the_trust_factor_is_a_role_blind_policy() -> None:
    """with_testimonies weighs t against 1 - t; a role-blind speaker honest with probability h over K took-claims
    gives the same posterior when t / (1 - t) = h (K - 1) / (1 - h)."""
    state, speaker = asked()
    took = [claim for claim in speaker.claims if claim.startswith("took ")]
    honesty = 0.3
    trust = honesty * (len(took) - 1) / (honesty * (len(took) - 1) + 1 - honesty)
    state.apply("took driver")
    view = state.view(0)
    factor = posterior(with_testimonies(observation_from_view(view), view, trust), RANDOM_CHOICES)
    policy_after = speaker.thief_after(role_blind(speaker, honesty), "took driver")
    for seat in speaker.takers:
        assert factor.role_probabilities(seat).get("thief", 0.0) == pytest.approx(policy_after[seat], abs=1e-9)


def test_truthful_talk_is_no_equilibrium_when_a_thief_can_copy_the_driver() -> None:
    _, speaker = asked()
    policy = truthful(speaker)
    response = speaker.best_response(policy)
    assert response["took 1"] == 1 and response["took driver"] != 1
    gains = speaker.deviation_gains(policy, response)
    assert gains["1"] == pytest.approx(1.0) and gains["2"] == pytest.approx(1.0)
    assert gains["driver"] <= 1e-12 and gains["godfather"] <= 1e-12  # the driver beside Ana is on her side


def test_babbling_and_pooling_on_the_lie_are_equilibria() -> None:
    _, speaker = asked()
    for policy in (babbling(speaker, {"took driver": 1.0}), lying_thieves(speaker, "took driver")):
        response = speaker.best_response(policy)
        assert max(speaker.deviation_gains(policy, response).values()) <= 1e-12
        assert response["took driver"] == 1  # the likeliest thief before the talk: the talk changed nothing


def test_a_response_must_cover_every_claim_with_a_living_taker() -> None:
    _, speaker = asked()
    policy = truthful(speaker)
    with pytest.raises(RulesError, match="every claim"):
        speaker.deviation_gains(policy, {"took 1": 1})
    with pytest.raises(RulesError, match="every claim"):
        speaker.deviation_gains(policy, {claim: 0 for claim in speaker.claims})


def test_roles_and_their_sides() -> None:
    assert [role(t) for t in ("3", "fbi", "cia", "loyal", "driver", "nothing")] == [
        "thief", "agent", "agent", "loyal", "driver", "street-kid"]
    _, speaker = asked()
    assert speaker.speaker_payoff("1", 1) == 0.0 and speaker.speaker_payoff("1", 2) == 1.0
    assert speaker.speaker_payoff("fbi", 1) == 1.0 and speaker.speaker_payoff("fbi", 2) == 0.0
    assert speaker.speaker_payoff("driver", 2) == speaker.godfather_payoff("driver", 2) == pytest.approx(1.0)
    _, farid = asked(5)
    assert farid.speaker_payoff("nothing", 1) == pytest.approx(1 - farid.godfather_payoff("nothing", 1))


def test_an_agent_confesses_a_theft_under_truthful_talk() -> None:
    """R4.7: the Agent wins when accused, so against a believing Godfather he gains by claiming diamonds."""
    state = new_game(["Ana", "Ben", "Chloé", "David", "Eve", "Farid"], seed=0)
    for action in ["hide 5", "set-aside none", "take 1", "take fbi", "take 1", "take 1", "take 1"]:
        state.apply(action)
    while state.phase == "floor":
        state.apply("pass", player=state.acting_seats[0])
    state.apply("ask 1 took")
    speaker = Speaker.of(state.view(0), 1, [str(a) for a in state.legal_actions()], RANDOM_CHOICES)
    assert set(speaker.types) == {"1", "2", "fbi"}
    response = speaker.best_response(truthful(speaker))
    assert response["took fbi"] != 1 and response["took 1"] == 1
    gains = speaker.deviation_gains(truthful(speaker), response)
    assert gains["fbi"] == pytest.approx(1.0) and gains["1"] == pytest.approx(1.0)
    pooled = babbling(speaker, {"took 1": 1.0})
    assert max(speaker.deviation_gains(pooled, speaker.best_response(pooled)).values()) <= 1e-12
