"""A two-player Commissario round as a game tree with its information sets, built from the protocol itself.

`round_tree` builds the round from its pick phase (`tabletop_edu.trees`): the picks, then every reveal, the seat
picking second and every seat revealing not knowing the other's pick; `small_round` is a round small enough to draw.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ..i18n import check_language, tr
from .actions import Pick
from .rules import COLOURS
from .words import card_word, colour_word, pick_word


def small_round(seed: int = 0) -> Any:
    """A two-player round at its pick phase small enough to draw as a tree: values up to 2, four characters laid
    out, no 2x card (`Rules` options), each seat releasing none."""
    from .engine import new_game
    from .rules import Rules

    state = new_game(2, seed=seed, rules=Rules(highest_value=2, laid_per_player=2, double_card=False))
    while state.phase == "release":
        state.apply("release none")
    return state


def round_tree(state: Any, picks: Sequence[Pick] | None = None, *, max_nodes: int | None = None,
               language: str = "en") -> Any:
    """The rest of a two-player round, from its pick phase, as a tree built from the protocol (`trees.
    tree_from_states`): each seat picks (the picks secret and simultaneous, so the seat picking second cannot
    tell the first's picks apart), then reveals in turn, choosing which commissaire to show first (a reveal left
    with one colour is played without a node). `picks` limits the menu (a smaller game; default: the pairs of
    colours with characters on the table). Payoffs: the points each seat gains this round minus the other's,
    zero-sum (the whole score, bonuses and what carries over, left out). Its title and drawing are in
    `language`."""
    from ..trees import MAX_NODES, tree_from_states

    if len(state.players) != 2 or state.phase != "pick":
        raise ValueError("round_tree starts from the pick phase of a two-player round.")
    menu = tuple(picks) if picks is not None else None
    start, round_number = list(state.scores), state.round

    def lead(after: Any) -> list[float]:
        gained = [after.scores[seat] - start[seat] for seat in (0, 1)]
        return [float(gained[0] - gained[1]), float(gained[1] - gained[0])]

    def actions(now: Any, seat: int) -> list[Any]:
        legal = now.legal_actions(seat)
        return [action for action in legal if action in menu] if menu and now.phase == "pick" else legal

    def round_over(now: Any) -> bool:
        return bool(now.round != round_number or now.is_over)

    language = check_language(language)

    def label(action: Any) -> str:
        """English keeps the move as typed (`pick red blue`); French says it (`rouge + bleu`, `révèle bleu`)."""
        if language == "en":
            return str(action)
        if isinstance(action, Pick):
            return pick_word(action.colours, language)
        return tr("cm_tree_reveal", language).format(colour=colour_word(action.colour, language))

    laid_out = ", ".join(f"{colour}{value:+d}" if language == "en" else card_word(f"{colour}{value:+d}", language)
                         for colour in COLOURS for value in state.table[colour])
    tree = tree_from_states(state, payoff=lead, stop=round_over, actions=actions, max_nodes=max_nodes or MAX_NODES,
                            title=tr("cm_round_tree", language).format(laid_out=laid_out), action_label=label)
    return replace(tree, language=language)
