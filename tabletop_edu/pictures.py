"""The information-flow picture as SVG, from our templates: what the widget and the class projector draw while
playing, with no matplotlib or networkx (a JupyterLite kernel has neither).

It says what `drawing.draw_information_flow` says (the same `layout`: a lane per seat then per object, a column
per event, a square where the information comes from, a filled dot for each seat that saw all of it, a hollow
dot for a redacted sight, one bar for a public event or one everyone else saw redacted, an object's journey in
orange), at its natural size: every text is 14 px or more, the picture scrolls sideways on a narrow screen
rather than shrinking. Names go through the templates' autoescape, like every page of the table.

    from tabletop_edu.pictures import flow_svg
    flow_svg(state)                                    # every seat's observations (the teacher's)
    flow_svg(flow_data(state.events, state.players, 1), title="What Ben can know")

Where matplotlib is missing (a JupyterLite kernel), `tabletop_edu.knowledge`'s `draw_information_flow`,
`draw_worlds` and `crossed_labels` are this module's: the same calls give a `Picture` drawn as SVG, so a
tutorial's cells run to their end in the browser too.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .core import GameState
from .i18n import check_language, tr
from .templates import render, short_name
from .knowledge import circle, layout
from .knowledge.flow import EVERYONE, FlowData, flow_data
from .knowledge.worlds import Worlds

#: Sizes in CSS pixels: every text is at least `SMALLEST_TYPE` at the picture's own (natural) size.
SMALLEST_TYPE = 14
LABEL_TYPE = 16
LEGEND_TYPE = 15
TITLE_TYPE = 20
LANE = 40
COLUMN = 36
MARGIN = 16
#: A generous average width of a character of the sans-serif font, in ems (the picture is sized from it).
CHARACTER = 0.62


@dataclass(frozen=True)
class Line:
    """A stroke from (x, y1) to (x, y2): a column's bar or link, or a lane."""

    x1: float
    y1: float
    x2: float
    y2: float
    colour: str
    width: float
    opacity: float = 1.0
    dashes: str = ""
    role: str = ""


@dataclass(frozen=True)
class Mark:
    """A seat's dot (filled: saw all; hollow: redacted) or an origin's square, centred on (x, y)."""

    x: float
    y: float
    shape: str
    fill: str
    stroke: str
    size: float


def flow_svg(source: FlowData | GameState[Any], *, title: str | None = None, language: str = "en",
             steps: tuple[int, int] | None = None, max_columns: int = 36,
             object_names: Mapping[Any, str] | None = None, kind_names: Mapping[str, str] | None = None,
             game: str | None = None) -> str:
    """Who learned what from whom, as an SVG picture inside a sideways-scrolling block (HTML to show as is).

    `source` is `flow_data(...)` (one seat's flow or everyone's) or a game state (everyone's). `steps`,
    `max_columns`, `object_names` and `kind_names` work as in `draw_information_flow`. The events' kinds on
    top of the columns are in `language`: the words `game` (`State.game`, taken from a state given as
    `source`) registers for them (`layout.event_key`), unless `kind_names` says otherwise."""
    language = check_language(language)
    if isinstance(source, GameState):
        game = game or source.game
    flow = flow_data(source.events, source.players, EVERYONE) if isinstance(source, GameState) else source
    columns, left_out = layout.shown_and_left_out(layout.columns(flow.edges), steps, max_columns)
    lanes = layout.lanes(flow.nodes)
    names = {node: layout.lane_label(node, flow.nodes[node], language, game, object_names) for node in lanes}
    labels = {node: short_name(names[node]) for node in lanes}
    kinds = [short_name(layout.kind_label(column.kind, language, game, kind_names)) for column in columns]

    left = round(MARGIN + _text_width(max(labels.values(), key=len, default=""), LABEL_TYPE) + 14)
    top = round(MARGIN + TITLE_TYPE + 14 + _text_width(max(kinds, key=len, default=""), SMALLEST_TYPE) + 10)
    y = {node: top + LANE / 2 + position * LANE for node, position in lanes.items()}
    x = [left + COLUMN / 2 + index * COLUMN for index in range(len(columns))]
    plot_right = left + max(len(columns), 8) * COLUMN
    bottom_lane = max(y.values(), default=top)

    heading = layout.heading(title or tr("flow.title", language), columns, left_out, language)
    legend = _legend(flow, columns, lanes, names, language)
    legend_width = round(max((_text_width(text, LEGEND_TYPE) + 44 for _, text in legend), default=0))
    width = max(plot_right + MARGIN, MARGIN * 2 + _text_width(heading, TITLE_TYPE), MARGIN * 2 + legend_width)
    per_row = max(1, int((width - 2 * MARGIN) // legend_width)) if legend_width else 1
    steps_y = bottom_lane + LANE / 2 + SMALLEST_TYPE + 4
    legend_top = steps_y + SMALLEST_TYPE + 34
    height = legend_top + -(-len(legend) // per_row) * 28 + MARGIN

    seat_ys = [y[node] for node in lanes if flow.nodes[node].get("kind") == "seat"]
    lines: list[Line] = [Line(left, y[node], plot_right, y[node], layout.LANE_COLOUR, 1) for node in lanes]
    marks: list[Mark] = []
    for column_x, column in zip(x, columns):
        _draw_column(column_x, column, y, seat_ys, lines, marks)
    journeys = [" ".join(_steps_post([(x[stop], y[actor]) for stop, actor in stops]))
                for stops in layout.journeys(columns, flow.nodes, y).values()]
    changes = [index for index, column in enumerate(columns) if index == 0 or columns[index - 1].step != column.step]
    return render("knowledge/flow.svg.j2", style=False, width=round(width), height=round(height), title=heading,
                  margin=MARGIN, sizes={"small": SMALLEST_TYPE, "label": LABEL_TYPE, "legend": LEGEND_TYPE,
                                        "title": TITLE_TYPE},
                  lanes=[{"y": y[node], "label": labels[node], "x": left - 14,
                          "colour": layout.OBJECT_COLOUR if flow.nodes[node].get("kind") == "object" else "#000000",
                          "bold": node == flow.perspective} for node in lanes],
                  lines=lines, marks=marks, journeys=journeys, journey_colour=layout.JOURNEY_COLOUR,
                  kinds=[{"x": x[index] + SMALLEST_TYPE // 3, "y": top - 10, "text": kinds[index]}
                         for index in range(len(columns))],
                  steps=[{"x": x[index], "y": steps_y, "text": columns[index].step} for index in changes],
                  step_word=tr("flow.step", language), step_word_x=(left + plot_right) / 2, step_word_y=steps_y + 20,
                  nothing=tr("flow.nothing", language) if not columns else "",
                  nothing_y=(top + bottom_lane) / 2 + LABEL_TYPE / 2, plot_left=left + 8,
                  legend=[{"x": MARGIN + (index % per_row) * legend_width, "y": legend_top + (index // per_row) * 28,
                           "symbol": symbol, "text": text} for index, (symbol, text) in enumerate(legend)],
                  colours={"seat": layout.SEAT_COLOUR, "full": layout.FULL_COLOUR,
                           "redacted": layout.REDACTED_COLOUR, "public": layout.PUBLIC_COLOUR,
                           "journey": layout.JOURNEY_COLOUR})


def _text_width(text: str, size: float) -> float:
    return len(text) * size * CHARACTER


def _draw_column(x: float, column: layout.Column, y: Mapping[Any, float], seat_ys: list[float], lines: list[Line],
                 marks: list[Mark]) -> None:
    origin_y = y[column.origin]
    if column.public or layout.redacted_to_all(column, len(seat_ys)):
        span = [*seat_ys, origin_y]
        colour, opacity = ((layout.PUBLIC_COLOUR, 0.35) if column.public else (layout.REDACTED_COLOUR, 0.2))
        lines.append(Line(x, min(span), x, max(span), colour, 14, opacity,
                          role="public" if column.public else "redacted-to-all"))
    else:
        full = [y[seat] for seat, saw_all in column.observers.items() if saw_all]
        redacted = [y[seat] for seat, saw_all in column.observers.items() if not saw_all]
        if redacted:
            span = [*redacted, origin_y]
            lines.append(Line(x, min(span), x, max(span), layout.REDACTED_COLOUR, 2, dashes="6 4", role="redacted"))
            marks.extend(Mark(x, seat_y, "dot", "#ffffff", layout.REDACTED_COLOUR, 6) for seat_y in redacted)
        if full:
            span = [*full, origin_y]
            lines.append(Line(x, min(span), x, max(span), layout.FULL_COLOUR, 3, role="full"))
            marks.extend(Mark(x, seat_y, "dot", layout.FULL_COLOUR, layout.FULL_COLOUR, 7) for seat_y in full)
    is_seat = isinstance(column.origin, int)
    marks.append(Mark(x, origin_y, "square", layout.SEAT_COLOUR if is_seat else layout.OBJECT_COLOUR, "#000000", 14))


def _steps_post(points: list[tuple[float, float]]) -> list[str]:
    """A polyline's points that hold each value until the next x (matplotlib's `drawstyle="steps-post"`)."""
    corners = []
    for index, (x, y) in enumerate(points):
        if index:
            corners.append(f"{x:g},{points[index - 1][1]:g}")
        corners.append(f"{x:g},{y:g}")
    return corners


def _legend(flow: FlowData, columns: list[layout.Column], lanes: Mapping[Any, float], names: Mapping[Any, str],
            language: str) -> list[tuple[str, str]]:
    """(symbol, words) of the legend: the five marks, then one line per object journey drawn."""
    entries = [("origin", tr("flow.origin", language)), ("full", tr("flow.full", language)),
               ("redacted", tr("flow.redacted", language)), ("public", tr("flow.public", language)),
               ("redacted-to-all", tr("flow.redacted_to_all", language))]
    for node in layout.journeys(columns, flow.nodes, lanes):
        thing = short_name(names[node])
        entries.append(("journey", tr("flow.journey", language).format(object=thing)))
    return entries


@dataclass(frozen=True)
class Picture:
    """An SVG picture that a notebook shows by itself, at its natural size (its HTML: a block holding the SVG)."""

    html: str

    def _repr_html_(self) -> str:
        return self.html


@dataclass(frozen=True)
class WorldsPicture(Picture):
    """A `draw_worlds` picture with its geometry in the circle's units: each edge's ends and each edge label's
    box (left, bottom, right, top), what `crossed_labels` checks."""

    segments: tuple[tuple[circle.Point, circle.Point], ...] = ()
    label_boxes: tuple[circle.Box, ...] = ()
    labels: tuple[str, ...] = ()


def draw_information_flow(source: Any, **options: Any) -> Picture:
    """`knowledge.draw_information_flow` without matplotlib: `source` an information-flow graph (networkx's)
    or a game state, the same options, drawn by `flow_svg`."""
    if not isinstance(source, (GameState, FlowData)):
        source = FlowData.from_networkx(source)
    return Picture(flow_svg(source, **options))


#: The possible-worlds picture: pixels per inch of `draw_worlds`' `size`, a world's radius, the title's type.
PIXELS_PER_INCH = 80
WORLD_RADIUS = 26
WORLDS_TITLE_TYPE = 18
#: How far the circle's units reach from its centre sideways (the worlds sit at radius 1).
HALF_WIDTH = 1.32


def draw_worlds(worlds: Worlds, *, label: Callable[[Any], str] = str, actual: Any = None, title: str | None = None,
                size: tuple[float, float] = (8, 8), language: str = "en") -> WorldsPicture:
    """`knowledge.draw_worlds` without matplotlib, as SVG: the worlds on a circle in the order that crosses
    fewest edges (the actual one outlined), each edge labelled, clear of the rest, with the agents that cannot
    tell its two worlds apart; the title wrapped to the picture's width."""
    language = check_language(language)
    graph = worlds.to_networkx()
    edges = [(first, second, circle.agents_label(agents, language))  # type: ignore[var-annotated]
             for first, second, agents in graph.edges(data="agents")]
    width, height = round(size[0] * PIXELS_PER_INCH), round(size[1] * PIXELS_PER_INCH)
    heading = textwrap.wrap(title or tr("worlds.title", language),
                            max(10, int((width - 2 * MARGIN) / (WORLDS_TITLE_TYPE * CHARACTER))))
    top = MARGIN + len(heading) * WORLDS_TITLE_TYPE * 1.25 + 8
    box_width, box_height = width - 2 * MARGIN, height - top - MARGIN
    scale = box_width / (2 * HALF_WIDTH)  # pixels per unit, the same both ways: a circle stays round
    centre = (MARGIN + box_width / 2, top + box_height / 2)

    def pixels(point: circle.Point) -> tuple[float, float]:
        return round(centre[0] + point[0] * scale, 1), round(centre[1] - point[1] * scale, 1)

    positions = circle.on_a_circle(circle.fewest_crossings(list(graph.nodes), [(a, b) for a, b, _ in edges]))
    pad = 0.25 * SMALLEST_TYPE
    sizes = [((_text_width(text, SMALLEST_TYPE) + 2 * pad) / scale, (SMALLEST_TYPE * 1.2 + 2 * pad) / scale)
             for _, _, text in edges]
    places = circle.label_places(positions, edges, sizes, WORLD_RADIUS / scale)
    boxes = tuple((x - w / 2, y - h / 2, x + w / 2, y + h / 2) for (x, y), (w, h) in zip(places, sizes))
    segments = tuple((positions[a], positions[b]) for a, b, _ in edges)
    html = render("knowledge/worlds.svg.j2", style=False, width=width, height=height, title=heading, margin=MARGIN,
                  radius=WORLD_RADIUS, sizes={"small": SMALLEST_TYPE, "title": WORLDS_TITLE_TYPE},
                  edges=[{"x1": pixels(start)[0], "y1": pixels(start)[1], "x2": pixels(end)[0], "y2": pixels(end)[1],
                          "colour": "#c1121f" if actual is not None and actual in (a, b) else "#999999"}
                         for (start, end), (a, b, _) in zip(segments, edges)],
                  worlds=[{"x": pixels(positions[node])[0], "y": pixels(positions[node])[1],
                           "label": label(node), "actual": node == actual} for node in graph.nodes],
                  labels=[{"x": pixels(place)[0], "y": pixels(place)[1], "width": round(w * scale, 1),
                           "height": round(h * scale, 1), "text": text}
                          for place, (w, h), (_, _, text) in zip(places, sizes, edges)])
    return WorldsPicture(html, segments, boxes, tuple(text for _, _, text in edges))


def crossed_labels(picture: WorldsPicture, width_pixels: int = 1280) -> list[tuple[str, int]]:
    """The edge labels of a `draw_worlds` picture that another edge runs through, as (label, the crossing
    edge's number): `knowledge.crossed_labels` for the SVG picture (its size does not change its geometry)."""
    return [(text, index) for own, (text, box) in enumerate(zip(picture.labels, picture.label_boxes))
            for index, segment in enumerate(picture.segments) if index != own and circle.meets(segment, box)]


__all__ = ["Picture", "WorldsPicture", "crossed_labels", "draw_information_flow", "draw_worlds", "flow_svg"]
