"""Where the worlds of a possible-worlds picture go: round a circle in the order that crosses the fewest edges,
each edge's label on its own edge clear of the rest. Plain Python, shared by the matplotlib drawing (`drawing`,
for analysis) and the SVG one (`pictures.worlds_svg`, in a browser kernel), so the two pictures agree.

Positions are in the circle's units (radius 1); label sizes come in the same units from whoever measures text.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from typing import Any

#: Up to this many worlds, every order round the circle is tried for the fewest crossing edges.
ORDERED_WORLDS = 8
#: Where a label may sit along its edge (a share of the way from its first world), best first.
ALONG = (0.5, 0.42, 0.58, 0.34, 0.66, 0.27, 0.73, 0.21, 0.79)

Point = tuple[float, float]
Box = tuple[float, float, float, float]


def on_a_circle(order: Sequence[Any]) -> dict[Any, Point]:
    """The worlds round a circle of radius 1, the first at the top, then clockwise (two side by side)."""
    if len(order) <= 2:
        return {node: (-0.6 + 1.2 * k if len(order) == 2 else 0.0, 0.0) for k, node in enumerate(order)}
    return {node: (math.sin(2 * math.pi * k / len(order)), math.cos(2 * math.pi * k / len(order)))
            for k, node in enumerate(order)}


def fewest_crossings(nodes: list[Any], edges: list[tuple[Any, Any]]) -> list[Any]:
    """The order of `nodes` round a circle whose chords `edges` cross least: two chords cross when exactly
    one end of one lies between the ends of the other. Every order is tried (the first node fixed, mirror
    images skipped) up to `ORDERED_WORLDS` nodes; beyond, two nodes swap places while a swap removes a
    crossing. The first order found wins ties, so the picture is stable."""
    fewest: float  # crossings counted, or infinity before the first order is tried
    if len(nodes) < 4:
        return nodes
    if len(nodes) > ORDERED_WORLDS:
        order, fewest = list(nodes), _crossings(nodes, edges)
        improved = True
        while improved:
            improved = False
            for i, j in itertools.combinations(range(len(order)), 2):
                order[i], order[j] = order[j], order[i]
                crossings = _crossings(order, edges)
                if crossings < fewest:
                    fewest, improved = crossings, True
                else:
                    order[i], order[j] = order[j], order[i]
        return order
    best, fewest = nodes, math.inf
    for rest in itertools.permutations(nodes[1:]):
        if rest and repr(rest[0]) > repr(rest[-1]):
            continue  # the mirror image of an order already tried
        crossings = _crossings((nodes[0], *rest), edges)
        if crossings < fewest:
            best, fewest = [nodes[0], *rest], crossings
    return best


def _crossings(order: Sequence[Any], edges: list[tuple[Any, Any]]) -> int:
    """How many pairs of chords `edges` cross with the nodes round a circle in `order`."""
    place = {node: k for k, node in enumerate(order)}
    chords = [tuple(sorted((place[a], place[b]))) for a, b in edges]
    return sum(1 for i, (a, b) in enumerate(chords) for c, d in chords[i + 1:]
               if len({a, b, c, d}) == 4 and (a < c < b) != (a < d < b))


def label_places(positions: Mapping[Any, Point], edges: Sequence[tuple[Any, Any, str]],
                  sizes: Sequence[Point], node_radius: float) -> list[Point]:
    """A place for each edge's label on its own edge: the first of `ALONG` where its box meets no other edge,
    no world and no label placed before it; failing that, the place that meets fewest."""
    segments = [(positions[a], positions[b]) for a, b, _ in edges]
    placed: list[Box] = []
    places = []
    for index, ((start, end), (width, height)) in enumerate(zip(segments, sizes)):
        def conflicts(t: float) -> int:
            x, y = start[0] + t * (end[0] - start[0]), start[1] + t * (end[1] - start[1])
            box = (x - width / 2, y - height / 2, x + width / 2, y + height / 2)
            return (sum(1 for other, segment in enumerate(segments) if other != index and meets(segment, box))
                    + sum(1 for centre in positions.values() if disc_meets(centre, node_radius, box))
                    + sum(1 for taken in placed if boxes_meet(taken, box)))

        t = min(ALONG, key=lambda share: (conflicts(share), ALONG.index(share)))
        x, y = start[0] + t * (end[0] - start[0]), start[1] + t * (end[1] - start[1])
        placed.append((x - width / 2, y - height / 2, x + width / 2, y + height / 2))
        places.append((x, y))
    return places


def meets(segment: tuple[Point, Point], box: Box) -> bool:
    """Whether a segment runs through a box (Liang-Barsky clipping)."""
    (x0, y0), (x1, y1) = segment
    low, high = 0.0, 1.0
    for delta, start, lower, upper in ((x1 - x0, x0, box[0], box[2]), (y1 - y0, y0, box[1], box[3])):
        if delta == 0:
            if not lower <= start <= upper:
                return False
            continue
        first, second = sorted(((lower - start) / delta, (upper - start) / delta))
        low, high = max(low, first), min(high, second)
        if low > high:
            return False
    return True


def disc_meets(centre: Point, radius: float, box: Box) -> bool:
    nearest_x = min(max(centre[0], box[0]), box[2])
    nearest_y = min(max(centre[1], box[1]), box[3])
    return (centre[0] - nearest_x) ** 2 + (centre[1] - nearest_y) ** 2 < radius ** 2


def boxes_meet(first: Box, second: Box) -> bool:
    return first[0] < second[2] and second[0] < first[2] and first[1] < second[3] and second[1] < first[3]


def agents_label(agents: Sequence[Any], language: str) -> str:
    """The agents that cannot tell two worlds apart, as an edge's label: `0,2` in English; `0 et 2` in French,
    where `0,2` would read as a decimal number."""
    names = [str(agent) for agent in agents]
    if language == "fr" and len(names) > 1:
        return f"{', '.join(names[:-1])} et {names[-1]}"
    return ",".join(names)


__all__ = ["ALONG", "ORDERED_WORLDS", "Box", "Point", "agents_label", "boxes_meet", "disc_meets", "fewest_crossings",
           "label_places", "meets", "on_a_circle"]
