"""Get Adler's declaration to the game registry (entry point `get_adler` in pyproject.toml).

`actions` lists every action a Get Adler table can ever allow: the PettingZoo adapter's fixed action space
(declared here, so the generic adapter knows no game).
"""

from __future__ import annotations

from typing import Any

from ..core import Action
from ..registry import GamePlugin


def action_catalogue(players: int, rules: Any = None) -> list[Action]:
    """Every discard, question, answer, magnifier, binoculars take and give, arrest and response at a table of
    `players`."""
    from . import engine
    from .rules import CARDS, TRAIT_COLOURS
    seats = range(players)
    return ([engine.Discard(card) for card in CARDS]
            + [engine.Ask(t, trait, colour) for t in seats for trait, colours in TRAIT_COLOURS.items()
               for colour in colours]
            + [engine.Answer(True), engine.Answer(False)] + [engine.Magnify(t) for t in seats]
            + [engine.Binoculars(t) for t in seats] + [engine.Give(card) for card in CARDS]
            + [engine.Arrest(t) for t in seats]
            + [engine.Respond(card) for card in CARDS] + [engine.Surrender(), engine.Pass(), engine.Skip()])


GAME = GamePlugin(
    name="get_adler",
    module="tabletop_edu.get_adler",
    title="Get Adler",
    min_players=4,
    max_players=6,
    default_players=4,
    bots={
        "random": "tabletop_edu.get_adler.bots:RandomBot",
        "deducing": "tabletop_edu.get_adler.bots:DeducingHeroBot",
        "adler": "tabletop_edu.get_adler.bots:AdlerBot",
        "smart": "tabletop_edu.get_adler.bots:SmartBot",
    },
    actions=action_catalogue,
    render="tabletop_edu.get_adler.render",
    knowledge="tabletop_edu.get_adler.panel:knowledge_html",
    summary="find the double agent before the seventh hour ends",
    beliefs="tabletop_edu.get_adler.beliefs:MODEL",
)
