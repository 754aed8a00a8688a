"""Testimony as cheap talk: what an answer to "what did you take?" is worth when the speaker chooses it.

A testimony costs nothing and proves nothing (R4.2), so it is *cheap talk*: a signal whose meaning comes only from
who would say it. The speaker's *type* is his take (a number of diamonds, a token, nothing); a `ClaimPolicy`
gives, for every type, a probability distribution over the claims the engine lets him make (each type's sums
to 1: `check_policy`). Hearing claim m, the Godfather's exact posterior is Bayes' rule over the box chain:
every world is weighed by P(m | the speaker's take in it). Two exact routes give it, and the tests check they
agree: `heard_posterior` folds the likelihood into the behaviour model of the forward-backward pass
(`inference.posterior`), and `Speaker` mixes the posteriors with the speaker's take pinned.

Incentives make it a game (a sender-receiver game): after the answer the Godfather accuses one living taker.
He wants a thief (R4.4); a thief wants anyone but himself accused; an Agent wants himself accused (he then wins
alone, R4.7); a Loyal Henchman wins with the Godfather (R5.1); a Driver wins with the seat on his right (R5.4),
so one beside the Godfather wants what the Godfather wants, and one elsewhere is modelled as indifferent (his
side is another taker's unknown take); a Street Kid wins when the thieves do (R5.3), i.e. when the accusation
misses. `deviation_gains` checks a profile (policy, response) over every claim the speaker may make and every
seat the Godfather may accuse: an equilibrium is a profile where no gain is positive.

`testimony_tree` draws this one-testimony game as a game tree with its information sets (`tabletop_edu.trees`),
built from this model (the protocol's tree of a whole round is far too big): chance gives the speaker his take,
he claims knowing it, the Godfather accuses knowing only the claim. It is general-sum, so it has no value; a
profile is checked by `trees.nash_conv` (Nash: a claim nobody makes is never reached, and only a perfect
Bayesian or sequential equilibrium asks the accusation after it to answer a belief).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..core import RulesError, View
from ._box import Box, Choice, Model, Observation, Posterior, _parse_take, observation_from_view
from .chain import posterior
from .rules import Rules, take_text

#: take text ("3", "driver", "nothing") -> claim text ("took 3", "silent") -> probability
ClaimPolicy = Mapping[str, Mapping[str, float]]
#: claim text -> the seat the Godfather accuses on hearing it
Response = Mapping[str, int]

TOLERANCE = 1e-9


def role(take: str) -> str:
    """The role a take gives (R3.3, R3.4): "thief", a token's name ("fbi" and "cia" are both "agent"),
    or "street-kid"."""
    if take.isdigit():
        return "thief"
    if take == "nothing":
        return "street-kid"
    return "agent" if take in ("fbi", "cia") else take


def claim_of(take: str) -> str:
    """The truthful answer to "what did you take?" in the engine's notation."""
    return f"took {take}"


@dataclass(frozen=True)
class Speaker:
    """One asked taker as the Godfather sees him before the answer: his possible takes (types) with their exact
    probabilities, every living taker's P(thief) given each take, and the claims the engine allows him."""

    seat: int
    godfather: int
    players: int
    takers: tuple[int, ...]
    claims: tuple[str, ...]
    types: Mapping[str, float]
    thief_given: Mapping[str, Mapping[int, float]]
    observation: Observation
    model: Model

    @classmethod
    def of(cls, view: View, seat: int, claims: Sequence[str], model: Model, rules: Rules | None = None) -> Speaker:
        """The speaker `seat` seen from `view` (the Godfather's), under the behaviour `model`; `claims` are the
        answers the engine offers him (`[str(a) for a in state.legal_actions()]` once he is asked)."""
        obs = observation_from_view(view, rules)
        index = _take_step(obs, seat)
        before = posterior(obs, model)
        types = {take_text(choice): p for choice, p in before.steps[index].items() if p > 0}
        takers = tuple(who for kind, who in obs.steps if kind == "take" and who not in view.facts["eliminated"])
        thief_given = {take: _thief_probabilities(posterior(_pinned(obs, index, take), model), takers)
                       for take in types}
        if len(set(claims)) != len(claims) or not claims:
            raise RulesError("The claims must be the speaker's menu: distinct, and at least one.")
        return cls(seat, view.facts["godfather"], len(view.players), takers, tuple(claims), types, thief_given,
                   obs, model)

    def claim_probability(self, policy: ClaimPolicy, claim: str) -> float:
        """P(claim) before it is heard: the sum over types of P(type) P(claim | type)."""
        return sum(p * policy[take].get(claim, 0.0) for take, p in self.types.items())

    def types_after(self, policy: ClaimPolicy, claim: str) -> dict[str, float]:
        """P(take | claim) by Bayes' rule; a claim no type would make under `policy` has no posterior."""
        check_policy(self, policy)
        evidence = self.claim_probability(policy, claim)
        if evidence <= 0:
            raise RulesError(f"Under this policy nobody would say {claim!r}: Bayes' rule says nothing about it "
                             "(an off-path claim; the response to it is a choice of the profile).")
        return {take: p * policy[take].get(claim, 0.0) / evidence for take, p in self.types.items()}

    def thief_after(self, policy: ClaimPolicy, claim: str) -> dict[int, float]:
        """Every living taker's P(thief) once `claim` is heard, the speaker believed to follow `policy`."""
        after = self.types_after(policy, claim)
        return {seat: sum(p * self.thief_given[take][seat] for take, p in after.items()) for seat in self.takers}

    def thief_before(self) -> dict[int, float]:
        """Every living taker's P(thief) before the answer (the prior of the talk game)."""
        return {seat: sum(p * self.thief_given[take][seat] for take, p in self.types.items())
                for seat in self.takers}

    # ---------------------------------------------------------------------------- the talk game

    def godfather_payoff(self, take: str, accused: int) -> float:
        """The chance the accusation finds a thief, the speaker's take being `take`."""
        return self.thief_given[take][accused]

    def speaker_payoff(self, take: str, accused: int) -> float:
        """What the speaker of type `take` wins (expected) when the Godfather accuses `accused` (see the module
        docstring for each role's side)."""
        kind = role(take)
        if kind == "thief":
            return 0.0 if accused == self.seat else 1.0
        if kind == "agent":
            return 1.0 if accused == self.seat else 0.0
        if kind == "street-kid":
            return 1.0 - self.godfather_payoff(take, accused)
        if kind == "driver" and (self.seat - 1) % self.players != self.godfather:
            return 0.0
        return self.godfather_payoff(take, accused)

    def best_response(self, policy: ClaimPolicy, off_path: int | None = None) -> dict[str, int]:
        """The Godfather's best accusation for every claim the speaker may make: the likeliest thief under the
        posterior (lowest seat on a tie); a claim nobody makes under `policy` is met with `off_path` (default:
        the speaker, a claim that no type makes being a lie)."""
        response = {}
        for claim in self.claims:
            if self.claim_probability(policy, claim) <= 0:
                response[claim] = self.seat if off_path is None else off_path
            else:
                after = self.thief_after(policy, claim)
                response[claim] = max(self.takers, key=lambda seat: (after[seat], -seat))
        return response

    def deviation_gains(self, policy: ClaimPolicy, response: Response) -> dict[str, float]:
        """How much each player gains by deviating from the profile: for the speaker of each type, his best claim
        against `response` minus what his policy gets; for the Godfather ("godfather"), the most any on-path
        claim's best accusation adds to his response. All <= 0 (to rounding): an equilibrium."""
        check_policy(self, policy)
        missing = set(self.claims) - set(response)
        if missing or any(seat not in self.takers for seat in response.values()):
            raise RulesError("A response names a living taker to accuse for every claim the speaker may make.")
        gains = {}
        for take in self.types:
            current = sum(q * self.speaker_payoff(take, response[claim]) for claim, q in policy[take].items())
            best = max(self.speaker_payoff(take, response[claim]) for claim in self.claims)
            gains[take] = best - current
        godfather = 0.0
        for claim in self.claims:
            if self.claim_probability(policy, claim) > 0:
                after = self.thief_after(policy, claim)
                godfather = max(godfather, max(after.values()) - after[response[claim]])
        gains["godfather"] = godfather
        return gains


def testimony_tree(speaker: Speaker, claims: Sequence[str] | None = None, accused: Sequence[int] | None = None):
    """The one-testimony game as an extensive form (a `tabletop_edu.trees.GameTree`): chance draws the speaker's
    take with its exact probability (`types`), the speaker (player A) chooses a claim among `claims` (default:
    every claim the engine allows) knowing his take, the Godfather (player B) accuses one of `accused` (default:
    every living taker) knowing the claim alone; payoffs `speaker_payoff` and `godfather_payoff`."""
    from ..trees import Chance, Decision, Terminal, tree_from_spec

    said = tuple(claims or speaker.claims)
    suspects = tuple(accused or speaker.takers)
    root = Chance(tuple((f"his take: {take}", p, Decision(0, ("claim", take), tuple(
        (f'says "{claim}"', Decision(1, ("accuse", claim), tuple(
            (f"accuse {seat}", Terminal((speaker.speaker_payoff(take, seat), speaker.godfather_payoff(take, seat))))
            for seat in suspects), f"heard {claim!r}")) for claim in said), f"the speaker took {take}"))
        for take, p in speaker.types.items()))
    return tree_from_spec((f"Speaker (seat {speaker.seat})", f"Godfather (seat {speaker.godfather})"), root,
                          title=f"Mafia de Cuba: one testimony at {speaker.players} seats, then an accusation")


def testimony_profile(tree: Any, policy: ClaimPolicy, response: Response) -> dict[int, tuple[float, ...]]:
    """A talk-game profile (the speaker's claim policy, the Godfather's response) as a behaviour profile of
    `testimony_tree`."""
    from ..trees import profile_of

    def play(infoset: Any) -> dict[str, float]:
        kind, what = infoset.key
        if kind == "claim":
            return {f'says "{claim}"': q for claim, q in policy[what].items() if q > 0}
        return {f"accuse {response[what]}": 1.0}

    return profile_of(tree, play)


def check_policy(speaker: Speaker, policy: ClaimPolicy) -> None:
    """A claim policy gives every type of the speaker a distribution over claims he may make (each sums to 1)."""
    for take in speaker.types:
        if take not in policy:
            raise RulesError(f"The policy says nothing for a speaker who took {take}.")
        distribution = policy[take]
        if any(claim not in speaker.claims for claim in distribution):
            raise RulesError(f"A claim the engine does not offer: {sorted(set(distribution) - set(speaker.claims))}.")
        if any(not 0.0 <= q <= 1.0 for q in distribution.values()):
            raise RulesError(f"Probabilities lie between 0 and 1 (type {take}).")
        if abs(sum(distribution.values()) - 1.0) > TOLERANCE:
            raise RulesError(f"The claims of a speaker who took {take} sum to {sum(distribution.values()):.6f}, not 1.")


# ------------------------------------------------------------------------------- policies

def babbling(speaker: Speaker, distribution: Mapping[str, float]) -> dict[str, dict[str, float]]:
    """Every type says the same distribution of claims: the claim tells nothing."""
    return {take: dict(distribution) for take in speaker.types}


def truthful(speaker: Speaker) -> dict[str, dict[str, float]]:
    """Every type says what it took."""
    return {take: {claim_of(take): 1.0} for take in speaker.types}


def lying_thieves(speaker: Speaker, lie: str, rate: float = 1.0) -> dict[str, dict[str, float]]:
    """Thieves say `lie` with probability `rate` and the truth otherwise; every other type tells the truth."""
    policy = truthful(speaker)
    for take in speaker.types:
        if role(take) == "thief" and rate > 0:
            policy[take] = {lie: rate} if rate >= 1 else {lie: rate, claim_of(take): 1.0 - rate}
    return policy


def role_blind(speaker: Speaker, honesty: float) -> dict[str, dict[str, float]]:
    """Whatever his role, the speaker tells the truth with probability `honesty`, else names one of the other
    `took` claims uniformly: the package's trust factor (`with_testimonies`), written as a real distribution."""
    took = [claim for claim in speaker.claims if claim.startswith("took ")]
    policy = {}
    for take in speaker.types:
        others = [claim for claim in took if claim != claim_of(take)]
        policy[take] = {claim_of(take): honesty, **{claim: (1.0 - honesty) / len(others) for claim in others}}
    return policy


def heard_posterior(speaker: Speaker, policy: ClaimPolicy, claim: str) -> Posterior:
    """The engine's exact posterior of every step once `claim` is heard: the behaviour model with each of the
    speaker's takes weighed by P(claim | take), through the forward-backward pass."""
    check_policy(speaker, policy)
    if speaker.claim_probability(policy, claim) <= 0:
        speaker.types_after(policy, claim)  # raises the off-path error
    model = speaker.model

    def heard(kind: str, seat: int, box: Box, choices: list[Choice], last: bool) -> list[float]:
        weights = model(kind, seat, box, choices, last)
        if kind != "take" or seat != speaker.seat:
            return weights
        return [weight * policy.get(take_text(choice), {}).get(claim, 0.0) for weight, choice in zip(weights, choices)]

    return posterior(speaker.observation, heard)


# ------------------------------------------------------------------------------- helpers

def _take_step(obs: Observation, seat: int) -> int:
    for index, (kind, who) in enumerate(obs.steps):
        if kind == "take" and who == seat:
            return index
    raise RulesError(f"Seat {seat} has not taken from the box: there is no take to talk about.")


def _pinned(obs: Observation, index: int, take: str) -> Observation:
    return replace(obs, pinned_choices={**obs.pinned_choices, index: _parse_take(take)})


def _thief_probabilities(post: Posterior, takers: Sequence[int]) -> dict[int, float]:
    return {seat: post.role_probabilities(seat).get("thief", 0.0) for seat in takers}
