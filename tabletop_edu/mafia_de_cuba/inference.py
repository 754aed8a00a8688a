"""Exact inference for Mafia de Cuba: who took what, given one seat's information.

The box passing is a Markov chain: the box contents (diamonds, token counts) are the state, and each step (the
Godfather's hiding, the first taker's set-aside, each take) is a transition chosen by a behaviour model. A seat's
information pins some steps (its own choices, pockets emptied by accusations) and some states (the box it saw;
for the Godfather, the box that came back). The investigation adds one more fact: while it goes on after a
recovery check (R3.6, R4.4), some diamond is still out, i.e. some take whose pockets were not emptied holds
diamonds; a flag carried along the chain keeps that exact. The posterior of every step is then a
forward-backward pass over box contents, linear in the number of takers; `brute_force_posterior` enumerates
whole worlds instead and checks it (tests: to 1e-9 on tables up to 8 players, under any token table).

Behaviour models (`Model`): `UNIFORM_WORLDS` weighs every consistent world equally; `RANDOM_CHOICES` has every
seat pick uniformly among its legal choices; `policy_model(takers)` uses the take distributions of bots.

Testimonies may be lies, so they are not pinned: `with_testimonies(obs, view, truth)` adds each one as soft
evidence (a factor `truth` when the world agrees with the claim, `1 - truth` when it does not), which keeps the
chain structure, and `testimony_worth` measures how much each testimony moves the posterior. The trust factor is
role-blind (a thief lies as a Loyal Henchman would); `cheap_talk` gives each role its own distribution over claims
and solves the talk game.

Speed: `PosteriorCache` (and `view_posterior`, which a widget calls once per redraw) computes a view's exact
posterior once per observation, and extends the forward pass of an earlier observation when only later steps
changed (the box going round adds one step at a time); the transition tables of unchanged steps are shared.
The pass itself runs over numpy arrays (`_chain_numpy`) where numpy can be imported, and over dicts in pure
Python (`_chain_python`: same numbers, same draws from the same rng, a few times slower) where it cannot, so
that playing, the bots and the widget need no numpy (a Pyodide kernel).
`sample_world(view, rng, MafiaState)` draws a whole game state from the view alone: the box history by backward sampling
from this chain (uniform over the consistent histories), the investigation replayed from the view's log. It is
the game's `world_from_view`.

Where the code lives: this module is the package's face for analysis and re-exports the chain's names. The
model is `_box`, the passes `_chain_python`/`_chain_numpy`, the caches and testimonies `chain`, and
`sample_world` is in `worlds`, so the engine (which needs it for `world_from_view`) never imports this
module: rules <- _box <- _chain_* <- chain <- worlds <- engine <- inference.
"""

from __future__ import annotations

import random
from typing import Any

from ..core import View
from ..extras import need
from ._box import (BOX_PHASES, RANDOM_CHOICES, RECOVERY_CHECKS, UNIFORM_WORLDS, Box, Choice, Model, Observation,
                   Posterior, observation_from_view, policy_model)
from .chain import (PosteriorCache, brute_force_posterior, fastest_chain, posterior, sample_choices, view_posterior,
                    with_testimonies)
from .rules import Rules
from .worlds import sample_world

__all__ = ["BOX_PHASES", "RANDOM_CHOICES", "RECOVERY_CHECKS", "UNIFORM_WORLDS", "Box", "Choice", "Model",
           "Observation", "Posterior", "PosteriorCache", "brute_force_posterior", "determinize",
           "draw_information_flow", "draw_who_knows_what", "fastest_chain", "information_flow",
           "observation_from_view", "policy_model", "posterior", "sample_choices", "sample_world", "testimony_worth",
           "view_posterior", "who_knows_what", "with_testimonies"]


def determinize(state: Any, seat: int | None, rng: random.Random, model: Model = UNIFORM_WORLDS) -> Any:
    """A full world drawn from the posterior of `seat` (exactly, under `model`), consistent with its view:
    `sample_world(state.view(seat), rng, type(state), model)`, which reads nothing of `state` but that view."""
    return sample_world(state.view(seat), rng, type(state), model)


# ------------------------------------------------------------------------------- testimonies

def testimony_worth(view: View, rules: Rules, truth: float = 0.7, model: Model = UNIFORM_WORLDS
                    ) -> list[tuple[str, float]]:
    """For each testimony in `view.log`, in order, how far it moves the viewer's posterior of every take:
    the largest change of P(thief) over the takers when that single testimony is added."""
    base_obs = observation_from_view(view, rules)
    base = posterior(base_obs, model)
    takers = [seat for kind, seat in base_obs.steps if kind == "take"]
    worth = []
    for event in view.log:
        if event.kind != "testimony":
            continue
        alone = View(view.game, view.seat, view.players, view.current_player, view.is_over, view.facts, (event,))
        try:
            moved = posterior(with_testimonies(base_obs, alone, truth), model)
        except ValueError:
            worth.append((event.text, float("nan")))
            continue
        change = max((abs(moved.role_probabilities(s).get("thief", 0.0) - base.role_probabilities(s).get("thief", 0.0))
                      for s in takers), default=0.0)
        worth.append((event.text, change))
    return worth


# ------------------------------------------------------------------------------- who knows what

def who_knows_what(state: Any) -> list[list[dict[str, Any]]]:
    """Rows: observer seats; columns: subject seats. Each cell says what the observer knows of the subject's take
    (uniform-worlds support): "known" (one value), "narrowed" (fewer values than a spectator allows) or
    "unknown"; "self" on the diagonal and "-" for the Godfather's column. Built from views only."""
    rules = state.rules
    seats = range(len(state.players))
    spectator = posterior(observation_from_view(state.view(None), rules))
    matrix = []
    for observer in seats:
        post = posterior(observation_from_view(state.view(observer), rules))
        row = []
        for subject in seats:
            support = sorted(text for text, p in post.of_seat(subject).items() if p > 0)
            wide = [text for text, p in spectator.of_seat(subject).items() if p > 0]
            if subject == state.godfather:
                status = "known" if observer == subject else "-"
                support = [f"hid {post.hidden()}"] if observer == subject else []
            elif observer == subject:
                status = "self"
            elif not support:
                status = "-"
            elif len(support) == 1:
                status = "known"
            else:
                status = "narrowed" if len(support) < len(wide) else "unknown"
            row.append({"status": status, "support": support})
        matrix.append(row)
    return matrix


def draw_who_knows_what(state: Any) -> Any:
    """The matrix as a colored grid (a matplotlib Figure)."""
    need("matplotlib", "Drawing who knows what")
    from ..knowledge.drawing import DPI, SMALLEST_TYPE, WIDTH, Figure

    matrix = who_knows_what(state)
    shade = {"known": 1.0, "self": 1.0, "narrowed": 0.5, "unknown": 0.0, "-": 0.15}
    values = [[shade[cell["status"]] for cell in row] for row in matrix]
    figure = Figure(figsize=(WIDTH, min(0.5 * len(values) + 2.2, WIDTH)), dpi=DPI, layout="constrained")
    axes = figure.subplots()
    axes.imshow(values, cmap="Greens", vmin=0, vmax=1)
    for r, row in enumerate(matrix):
        for c, cell in enumerate(row):
            axes.text(c, r, cell["status"][0].upper(), ha="center", va="center", fontsize=SMALLEST_TYPE)
    axes.tick_params(labelsize=SMALLEST_TYPE)
    axes.set_xlabel("subject (whose take)", fontsize=SMALLEST_TYPE)
    axes.set_ylabel("observer", fontsize=SMALLEST_TYPE)
    axes.set_title("Who knows what after the box phase\n(K known, N narrowed, U unknown)", fontsize=SMALLEST_TYPE + 1)
    return figure


def information_flow(state: Any) -> Any:
    """The round's information-flow graph (networkx MultiDiGraph) from the shared knowledge module."""
    from ..knowledge import information_flow as flow

    return flow(state)


def draw_information_flow(state: Any) -> Any:
    """The information-flow graph drawn by the shared knowledge module (a matplotlib Figure)."""
    from ..knowledge import draw_information_flow as draw

    return draw(information_flow(state), title="Mafia de Cuba: who saw what")
