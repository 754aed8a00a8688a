"""Mafia de Cuba's declaration to the game registry (entry point `mafia_de_cuba` in pyproject.toml).

The named bots are `MafiaBot`s with one policy per role; `actions` lists every action a table can ever allow,
the PettingZoo adapter's fixed action space (declared here, so the generic layers know no game); `knowledge` and
`posteriors` are what the class server's dashboard and debrief show.
"""

from __future__ import annotations

from typing import Any

from ..core import Action, Bot, GameState
from ..registry import GamePlugin


def loyal() -> Bot:
    """A loyal taker and truthful witness, with a posterior-reasoning Godfather's mind."""
    from . import bots
    return bots.MafiaBot(taker=bots.LoyalTaker(), testimony=bots.Truthful(), godfather=bots.PosteriorGodfather())


def greedy_thief() -> Bot:
    """Steals as much as it dares, lies consistently, reasons as a Godfather."""
    from . import bots
    return bots.MafiaBot(taker=bots.GreedyThief(), testimony=bots.ConsistentLiar(),
                         godfather=bots.PosteriorGodfather())


def cautious_thief() -> Bot:
    """Steals a little, lies consistently, reasons as a Godfather."""
    from . import bots
    return bots.MafiaBot(taker=bots.CautiousThief(), testimony=bots.ConsistentLiar(),
                         godfather=bots.PosteriorGodfather())


def action_catalogue(players: int, rules: Any = None) -> list[Action]:
    """Every hiding, taking, question, accusation, testimony and Godfather's act at a table of `players` under
    `rules` (their diamonds, hiding and tokens; testimonies "saw D tokens..." for every combination of the
    tokens the rules deal; free talk's `pass`)."""
    from . import actions
    from .rules import TOKEN_ORDER, Rules, starting_tokens
    rules = rules or Rules()
    counts = starting_tokens(players, rules)
    combos: list[tuple[str, ...]] = [()]
    for name in TOKEN_ORDER:
        combos = [combo + (name,) * k for combo in combos for k in range(counts.get(name, 0) + 1)]
    seats, diamonds = range(players), range(rules.diamonds + 1)
    return ([actions.Hide(d) for d in range(rules.max_hidden + 1)]
            + [actions.SetAside(None)] + [actions.SetAside(t) for t in TOKEN_ORDER]
            + [actions.TakeFromBox(d) for d in diamonds] + [actions.TakeFromBox(0, t) for t in TOKEN_ORDER]
            + [actions.Ask(t, kind) for t in seats for kind in actions.KINDS] + [actions.Floor()]
            + [actions.Accuse(t) for t in seats]
            + [actions.Saw(d, combo) for d in diamonds for combo in combos]
            + [actions.Took(d) for d in diamonds] + [actions.Took(0, t) for t in TOKEN_ORDER]
            + [actions.Suspect(t) for t in seats]
            + [actions.Silent(), actions.Pass(), actions.Hold(), actions.Shoot()])


def godfather_posteriors(state: GameState[Any]) -> dict[int, dict[str, float]]:
    """What the Godfather can infer from their own view: each taker's posterior role under counting (empty before
    the box has moved, or where no world fits)."""
    from .inference import view_posterior
    godfather = state.godfather  # type: ignore[attr-defined]
    found = view_posterior(state.view(godfather), state.rules)
    if found is None:
        return {}
    return {seat: found.role_probabilities(seat) for kind, seat in found.observation.steps if kind == "take"}


GAME = GamePlugin(
    name="mafia_de_cuba",
    module="tabletop_edu.mafia_de_cuba",
    title="Mafia de Cuba",
    min_players=6,
    max_players=12,
    default_players=6,
    bots={"loyal": loyal, "greedy-thief": greedy_thief, "cautious-thief": cautious_thief},
    actions=action_catalogue,
    render="tabletop_edu.mafia_de_cuba.render",
    knowledge="tabletop_edu.mafia_de_cuba.panel:knowledge_html",
    posteriors=godfather_posteriors,
    summary="the cigar box, the diamonds and the Godfather's interrogation",
    beliefs="tabletop_edu.mafia_de_cuba.beliefs:MODEL",
)
