"""Information flow: who learned what from whom, built from event visibility alone.

Because every event says where its information comes from (`Event.origin`) and who saw it (`observers`, or
everyone), one function draws the flow of any game, with no game-specific code: seats and table objects
(box, deck) are nodes, and each observation is an edge from the origin to the observer.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import networkx as nx

from ..core import Event, GameState


def information_flow(state: GameState, *, upto_step: int | None = None) -> nx.MultiDiGraph:
    """The information-flow graph of a game so far (or up to action `upto_step`).

    Nodes: every seat (`kind="seat"`, `label` its name) and every object that was a source
    (`kind="object"`). Edges: one per observation, from the event's origin to each seat that saw it, with
    `step`, `kind`, `text` (as that seat saw it) and `full` (False when it saw only the redacted form).
    A seat's own acts are not edges: nobody learns from themselves.
    """
    return events_flow(state.events, state.players, upto_step=upto_step)


def events_flow(events: Iterable[Event], players: Sequence[str], *,
                upto_step: int | None = None) -> nx.MultiDiGraph:
    """`information_flow` for a bare event list and the seat names."""
    graph = nx.MultiDiGraph()
    for seat, name in enumerate(players):
        graph.add_node(seat, kind="seat", label=name)
    for event in events:
        if upto_step is not None and event.step > upto_step:
            break
        origin = event.origin
        if origin is None:
            continue
        if origin not in graph:
            graph.add_node(origin, kind="object", label=str(origin))
        for seat in range(len(players)):
            seen = event.seen_by(seat)
            if seen is None or seat == origin:
                continue
            graph.add_edge(origin, seat, step=event.step, kind=event.kind, text=seen.text,
                           full=event.sees_all(seat))
    return graph
