"""Information flow: who learned what from whom, built from event visibility alone.

Because every event says where its information comes from (`Event.origin`) and who saw it (`observers`, or
everyone), one function builds the flow of any game, with no game-specific code: seats and table objects
(box, deck) are nodes, and each observation is an edge from the origin to the observer. What the game itself
announces (a deal, a layout, the final score: events with neither actor nor source) comes from the "table".

    >>> from tabletop_edu.examples import peek
    >>> state = peek.new_game(["Ana", "Ben", "Chloé"], seed=4)
    >>> _ = state.apply("peek 2")
    >>> graph = information_flow(state)
    >>> sorted(graph.nodes, key=str)
    [0, 1, 2, 'deck']
    >>> [(origin, observer, full) for origin, observer, full in graph.edges(data="full") if origin == 2]
    [(2, 0, True), (2, 1, False)]

`perspective_flow` gives the flow as one seat (or a spectator) can know it, from what that seat observed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import networkx as nx

from ..core import Event, GameState, Seat

#: The node of what the game itself announces (events with neither actor nor source).
TABLE = "table"
#: The node of a spectator, in a spectator's `perspective_flow`.
SPECTATOR = "spectator"


def information_flow(state: GameState, *, upto_step: int | None = None) -> nx.MultiDiGraph:
    """The information-flow graph of a game so far (or up to action `upto_step`): every seat's observations.

    Nodes: every seat (`kind="seat"`, `label` its name), then every object that was a source
    (`kind="object"`: "box", "deck", "table"), in order of first appearance. Edges: one per observation,
    from the event's origin to each seat that saw it, with `step`, `kind`, `text` (as that seat saw it),
    `full` (False when it saw only the redacted form), `event` (the event's index: all the observations of
    one event share it), `actor` and `public` (True when everyone saw the whole event).
    A seat's own acts are not edges: nobody learns from themselves, nor are events without text (a move that
    tells nothing, like Mafia de Cuba's pass on the floor).
    """
    return events_flow(state.events, state.players, upto_step=upto_step)


def events_flow(events: Iterable[Event], players: Sequence[str], *,
                upto_step: int | None = None) -> nx.MultiDiGraph:
    """`information_flow` for a bare event list and the seat names."""
    graph = _seat_nodes(players)
    for index, event in enumerate(events):
        if upto_step is not None and event.step > upto_step:
            break
        if not event.text:
            continue  # a move that tells nothing (its event has no text): no observation to draw
        origin = _origin(graph, event)
        for seat in range(len(players)):
            seen = event.seen_by(seat)
            if seen is None or seat == origin:
                continue
            graph.add_edge(origin, seat, step=event.step, kind=event.kind, text=seen.text,
                           full=event.sees_all(seat), event=index, actor=event.actor, public=event.is_public)
    return graph


def perspective_flow(events: Iterable[Event], players: Sequence[str], seat: Seat | None, *,
                     upto_step: int | None = None) -> nx.MultiDiGraph:
    """The information flow as `seat` (None: a spectator) can know it, from its own observations only.

    Public events are everyone's observations (drawn once). Of every other event the seat gets one edge, into
    its own node, full or redacted as it saw it: it is not told who else saw what. A spectator gets a node
    of its own (`SPECTATOR`) for the redacted forms it saw. Nothing in this graph is more than the seat's log.
    """
    graph = _seat_nodes(players)
    observer = SPECTATOR if seat is None else seat
    graph.graph["perspective"] = observer
    if seat is None:
        graph.add_node(SPECTATOR, kind="spectator", label=SPECTATOR)
    for index, event in enumerate(events):
        if upto_step is not None and event.step > upto_step:
            break
        seen = event.seen_by(seat)
        if seen is None or not event.text:
            continue
        origin = _origin(graph, seen)
        details = dict(step=event.step, kind=event.kind, text=seen.text, event=index, actor=seen.actor)
        if event.is_public:
            for other in range(len(players)):
                if other != origin:
                    graph.add_edge(origin, other, full=True, public=True, **details)
        elif origin != observer:
            graph.add_edge(origin, observer, full=event.sees_all(seat), public=False, **details)
    return graph


def _seat_nodes(players: Sequence[str]) -> nx.MultiDiGraph:
    graph = nx.MultiDiGraph()
    for seat, name in enumerate(players):
        graph.add_node(seat, kind="seat", label=name)
    return graph


def _origin(graph: nx.MultiDiGraph, event: Event) -> Seat | str:
    """The event's origin node (added as an object if new): its source, its actor, or the table."""
    origin = event.origin
    if origin is None:
        origin = TABLE
    if origin not in graph:
        graph.add_node(origin, kind="object", label=str(origin))
    return origin
