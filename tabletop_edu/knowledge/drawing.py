"""Drawings of knowledge, as matplotlib Figures (never `plt.show()`), with fixed layouts so notebook
outputs do not change from one run to the next."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import networkx as nx
from matplotlib.figure import Figure

from .worlds import Worlds

SEAT_COLOUR = "#8ecae6"
OBJECT_COLOUR = "#ffb703"


def table_layout(graph: nx.MultiDiGraph) -> dict[Any, tuple[float, float]]:
    """Seats around a circle as at a table (seat 0 at the top, clockwise), objects stacked in the middle."""
    seats = [node for node, kind in graph.nodes(data="kind") if kind == "seat"]
    objects = [node for node, kind in graph.nodes(data="kind") if kind != "seat"]
    positions: dict[Any, tuple[float, float]] = {}
    for index, seat in enumerate(seats):
        angle = math.pi / 2 - 2 * math.pi * index / max(len(seats), 1)
        positions[seat] = (math.cos(angle), math.sin(angle))
    for index, node in enumerate(objects):
        positions[node] = (0.0, 0.25 * (index - (len(objects) - 1) / 2))
    return positions


def draw_information_flow(graph: nx.MultiDiGraph, *, title: str = "Information flow",
                          size: tuple[float, float] = (6, 6)) -> Figure:
    """Seats and objects with one arrow per origin -> observer pair, thick for full observations and
    dashed for observations of a redacted form only; the number on an arrow counts its observations."""
    figure = Figure(figsize=size)
    axes = figure.add_subplot()
    positions = table_layout(graph)
    colours = [SEAT_COLOUR if kind == "seat" else OBJECT_COLOUR for _, kind in graph.nodes(data="kind")]
    labels = {node: label for node, label in graph.nodes(data="label")}
    nx.draw_networkx_nodes(graph, positions, ax=axes, node_color=colours, node_size=1400)
    nx.draw_networkx_labels(graph, positions, labels=labels, ax=axes, font_size=8)
    full: dict[tuple[Any, Any], int] = {}
    partial: dict[tuple[Any, Any], int] = {}
    for origin, seat, data in graph.edges(data=True):
        bucket = full if data["full"] else partial
        bucket[origin, seat] = bucket.get((origin, seat), 0) + 1
    nx.draw_networkx_edges(graph, positions, edgelist=list(partial), ax=axes, style="dashed", alpha=0.35,
                           node_size=1400, arrowsize=10, connectionstyle="arc3,rad=0.08")
    nx.draw_networkx_edges(graph, positions, edgelist=list(full), ax=axes, width=2.0, node_size=1400,
                           arrowsize=14, connectionstyle="arc3,rad=0.08")
    nx.draw_networkx_edge_labels(graph, positions, edge_labels=full, ax=axes, font_size=7,
                                 connectionstyle="arc3,rad=0.08")
    axes.set_title(title)
    axes.set_axis_off()
    axes.margins(0.15)
    return figure


def draw_worlds(worlds: Worlds, *, label: Callable[[Any], str] = str, actual: Any = None,
                title: str = "Possible worlds", size: tuple[float, float] = (6, 6)) -> Figure:
    """The Kripke structure: worlds as nodes (the actual one outlined), an edge labelled with the agents
    that cannot tell its two worlds apart."""
    graph = worlds.to_networkx()
    figure = Figure(figsize=size)
    axes = figure.add_subplot()
    positions = nx.circular_layout(graph) if len(graph) > 2 else nx.spring_layout(graph, seed=0)
    edge_colour = ["#c1121f" if actual is not None and actual in pair else "#999999" for pair in graph.edges]
    nx.draw_networkx_nodes(graph, positions, ax=axes, node_color=SEAT_COLOUR, node_size=900,
                           edgecolors=["black" if node == actual else SEAT_COLOUR for node in graph.nodes],
                           linewidths=2.5)
    nx.draw_networkx_labels(graph, positions, labels={node: label(node) for node in graph.nodes}, ax=axes,
                            font_size=8)
    nx.draw_networkx_edges(graph, positions, ax=axes, edge_color=edge_colour)
    nx.draw_networkx_edge_labels(graph, positions, ax=axes, font_size=7,
                                 edge_labels={(first, second): ",".join(map(str, agents))
                                              for first, second, agents in graph.edges(data="agents")})
    axes.set_title(title)
    axes.set_axis_off()
    return figure
