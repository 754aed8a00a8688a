"""Commissario's declaration to the game registry (entry point `commissario` in pyproject.toml).

`actions` lists every action a Commissario table can ever allow: the PettingZoo adapter's fixed action space
(declared here, so the generic adapter knows no game).
"""

from __future__ import annotations

from typing import Any

from ..core import Action
from ..registry import GamePlugin


def action_catalogue(players: int, rules: Any = None) -> list[Action]:
    """Every release (a card or nothing), every pick and every reveal, at any table size: the characters
    and picks of these rules (`highest_value`, `double_card`)."""
    from .actions import Pick, Release, Reveal, picks_allowed
    from .rules import COLOURS, Rules
    rules = rules or Rules()
    return ([Release(None)] + [Release((c, v)) for c in COLOURS for v in rules.values]
            + [Pick(p.colours) for p in picks_allowed(rules.double_card)] + [Reveal(c) for c in COLOURS])


GAME = GamePlugin(
    name="commissario",
    module="tabletop_edu.commissario",
    title="Commissario",
    min_players=2,
    max_players=5,
    default_players=3,
    bots={
        "random": "tabletop_edu.commissario.bots:RandomBot",
        "greedy": "tabletop_edu.commissario.bots:GreedyBot",
        "bidder": "tabletop_edu.commissario.bots:BidderBot",
        "equilibrium": "tabletop_edu.commissario.bots:EquilibriumBot",
        "lookahead": "tabletop_edu.commissario.bots:LookaheadBot",
        "openspiel-ismcts": "tabletop_edu.openspiel:OpenSpielISMCTS",  # OpenSpiel's ISMCTS (openspiel extra)
    },
    bot_needs={"equilibrium": ("numpy", "nashpy"), "openspiel-ismcts": ("pyspiel",)},
    actions=action_catalogue,
    render="tabletop_edu.commissario.render",
    knowledge="tabletop_edu.commissario.panel:knowledge_html",
    summary="arrest bandits, not innocents: an all-pay auction for turn order and a secret simultaneous pick",
    beliefs="tabletop_edu.commissario.beliefs:MODEL",
)
