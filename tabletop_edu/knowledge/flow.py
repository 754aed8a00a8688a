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

The graphs are networkx's (the analysis extra); `flow_data` gives the same nodes and edges as plain Python, for
what draws while playing (the SVG picture of `flow_svg`) where networkx may be missing (a browser kernel).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..core import Event, GameState, Seat
from ..extras import need

if TYPE_CHECKING:
    import networkx as nx

#: The node of what the game itself announces (events with neither actor nor source).
TABLE = "table"
#: The node of a spectator, in a spectator's `perspective_flow`.
SPECTATOR = "spectator"
#: `flow_data`'s perspective for the whole flow, every seat's observations (the teacher's).
EVERYONE = "everyone"

Node = Seat | str


@dataclass
class FlowData:
    """An information-flow graph as plain Python: `nodes` (node -> its attributes, in order of appearance),
    `edges` ((origin, observer, attributes), in event order) and the `perspective` it is seen from (None: all)."""

    nodes: dict[Node, dict[str, Any]] = field(default_factory=dict)
    edges: list[tuple[Node, Node, dict[str, Any]]] = field(default_factory=list)
    perspective: Node | None = None

    @classmethod
    def from_networkx(cls, graph: nx.MultiDiGraph) -> FlowData:
        """The plain-Python form of an information-flow graph (`information_flow`, `perspective_flow`), read
        through the graph's own methods: networkx need not be importable by the caller."""
        return cls(nodes=dict(graph.nodes(data=True)), edges=list(graph.edges(data=True)),
                   perspective=graph.graph.get("perspective"))

    def to_networkx(self) -> nx.MultiDiGraph:
        """The same nodes and edges as a networkx multigraph (`graph.graph["perspective"]` when seen by one)."""
        graph = need("networkx", "An information-flow graph").MultiDiGraph()
        if self.perspective is not None:
            graph.graph["perspective"] = self.perspective
        graph.add_nodes_from(self.nodes.items())
        graph.add_edges_from(self.edges)
        return graph


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
    return flow_data(events, players, EVERYONE, upto_step=upto_step).to_networkx()


def perspective_flow(events: Iterable[Event], players: Sequence[str], seat: Seat | None, *,
                     upto_step: int | None = None) -> nx.MultiDiGraph:
    """The information flow as `seat` (None: a spectator) can know it, from its own observations only.

    Public events are everyone's observations (drawn once). Of every other event the seat gets one edge, into
    its own node, full or redacted as it saw it: it is not told who else saw what. A spectator gets a node
    of its own (`SPECTATOR`) for the redacted forms it saw. Nothing in this graph is more than the seat's log.
    """
    return flow_data(events, players, seat, upto_step=upto_step).to_networkx()


def flow_data(events: Iterable[Event], players: Sequence[str], seat: Seat | None | str, *,
              upto_step: int | None = None) -> FlowData:
    """The nodes and edges of `events_flow` (`seat=EVERYONE`) or of `perspective_flow(..., seat)`, as plain
    Python: no networkx needed."""
    flow = FlowData(nodes={index: {"kind": "seat", "label": name} for index, name in enumerate(players)})
    if seat == EVERYONE:
        _everyone(flow, events, len(players), upto_step)
        return flow
    assert not isinstance(seat, str), f"a seat number, None (a spectator) or EVERYONE, not {seat!r}"
    flow.perspective = observer = SPECTATOR if seat is None else seat
    if seat is None:
        flow.nodes[SPECTATOR] = {"kind": "spectator", "label": SPECTATOR}
    for index, event in enumerate(events):
        if upto_step is not None and event.step > upto_step:
            break
        seen = event.seen_by(seat)
        if seen is None or not event.text:
            continue
        origin = _origin(flow, seen)
        details = dict(step=event.step, kind=event.kind, text=seen.text, event=index, actor=seen.actor)
        if event.is_public:
            for other in range(len(players)):
                if other != origin:
                    flow.edges.append((origin, other, dict(full=True, public=True, **details)))
        elif origin != observer:
            flow.edges.append((origin, observer, dict(full=event.sees_all(seat), public=False, **details)))
    return flow


def _everyone(flow: FlowData, events: Iterable[Event], seats: int, upto_step: int | None) -> None:
    for index, event in enumerate(events):
        if upto_step is not None and event.step > upto_step:
            break
        if not event.text:
            continue  # a move that tells nothing (its event has no text): no observation to draw
        origin = _origin(flow, event)
        for seat in range(seats):
            seen = event.seen_by(seat)
            if seen is None or seat == origin:
                continue
            flow.edges.append((origin, seat, dict(step=event.step, kind=event.kind, text=seen.text,
                                                  full=event.sees_all(seat), event=index, actor=event.actor,
                                                  public=event.is_public)))


def _origin(flow: FlowData, event: Event) -> Node:
    """The event's origin node (added as an object if new): its source, its actor, or the table."""
    origin = event.origin
    if origin is None:
        origin = TABLE
    if origin not in flow.nodes:
        flow.nodes[origin] = {"kind": "object", "label": str(origin)}
    return origin
