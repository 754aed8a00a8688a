"""Drawings of knowledge that Jupyter shows as pictures by themselves.

Every drawing is a `Figure` of this module: a matplotlib Figure built without pyplot that carries its own PNG,
so a fresh kernel shows it as an image with no `%matplotlib` magic and no `plt.show()`. Layouts are fixed
(lanes in seat order, worlds on a circle), never random, so notebook outputs do not change from one run to
the next.

The information-flow picture reads like a musical score: time runs left to right, one lane per seat and one
per object (box, deck, table), one column per event::

    from tabletop_edu.knowledge import draw_information_flow, information_flow
    draw_information_flow(information_flow(state), title="Who learned what")

It is sized for a projector: 1280 pixels wide at its own resolution, every label at 12 points or more.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

import networkx as nx
from matplotlib import figure as mpl_figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from ..core import GameState
from ..i18n import check_language, tr
from . import circle, layout
from .flow import information_flow
from .layout import (FULL_COLOUR, JOURNEY_COLOUR, LANE_COLOUR, NOTEBOOK_COLUMN, OBJECT_COLOUR, PUBLIC_COLOUR,
                     REDACTED_COLOUR, SEAT_COLOUR, Column)
from .worlds import Worlds

#: Width of the information-flow picture, in inches at `DPI`: 1280 pixels, a projector's width.
WIDTH = 12.8
DPI = 100
#: The smallest type of every drawing, in points (readable at the back of a classroom at 1280 pixels).
SMALLEST_TYPE = 14


def plain(text: Any) -> str:
    """`text` as matplotlib draws it letter for letter: every `$` escaped, so a name such as `$\\frac{1}{$`
    is shown as typed instead of being parsed (and refused) as mathematics. Every string of a drawing that
    comes from outside the code (names, objects, kinds, titles, labels) passes through here."""
    return str(text).replace("$", r"\$")


class Figure(mpl_figure.Figure):
    """A matplotlib Figure that notebooks show as a PNG picture, in any kernel, with no pyplot involved."""

    def png(self) -> bytes:
        """The picture as PNG bytes, at the figure's own resolution (the same bytes every time)."""
        buffer = io.BytesIO()
        self.savefig(buffer, format="png", dpi=self.dpi, metadata={"Software": None})
        return buffer.getvalue()

    def _repr_png_(self) -> bytes:
        return self.png()


def draw_information_flow(source: nx.MultiDiGraph | GameState, *, title: str | None = None,
                          steps: tuple[int, int] | None = None, max_columns: int = 36,
                          language: str = "en", object_names: Mapping[Any, str] | None = None,
                          kind_names: Mapping[str, str] | None = None, game: str | None = None) -> Figure:
    """Who learned what from whom, event by event: a picture for the class.

    `source` is an information-flow graph (`information_flow(state)`, `perspective_flow(...)`) or a game
    state. Time runs left to right, one column per event (its kind on top, its step below); one lane per
    seat, then one per object. In each column a square marks where the information comes from, a filled dot
    each seat that saw all of it, a hollow dot each seat that saw only its redacted form ("Ben took
    something"). A public event is one green bar across the table, drawn once rather than as an arrow to
    every seat; an event everyone else saw only in its redacted form is one grey bar. An object that seats
    open in turn (Mafia de Cuba's cigar box) has its journey drawn as an orange chain through the lanes of
    the seats that held it.

    `steps=(first, last)` keeps those steps; at most `max_columns` events are drawn (the latest ones; the
    title says how many earlier ones it leaves out), so
    the picture stays readable at 1280 pixels. `object_names` relabels object lanes (`{"box": "boîte"}`) and
    `kind_names` the events' kinds on top of the columns (`{"open": "ouvre"}`), for a class in another language;
    without `kind_names`, the kinds are the words `game` (`State.game`, taken from a state given as `source`)
    registers for them in `language` (`i18n.register_event_kinds`).

    Example::

        state = mafia_de_cuba.new_game(7, seed=1)  # ... play a few moves ...
        draw_information_flow(information_flow(state), title="Who saw inside the box?")
    """
    language = check_language(language)
    if isinstance(source, GameState):
        game = game or source.game
    graph = information_flow(source) if isinstance(source, GameState) else source
    columns, left_out = layout.shown_and_left_out(layout.columns(graph.edges(data=True)), steps, max_columns)
    kinds = [plain(layout.kind_label(column.kind, language, game, kind_names)) for column in columns]
    lanes = layout.lanes(graph.nodes)
    y = {node: -position for node, position in lanes.items()}
    names = {node: layout.lane_label(node, graph.nodes[node], language, game, object_names) for node in lanes}
    labels = [plain(names[node]) for node in lanes]
    # Margins in inches, from the longest texts (no layout engine: it would triple the drawing time).
    left = 0.4 + 0.13 * max((len(label) for label in labels), default=4)
    top = 0.75 + 0.105 * max((len(kind) for kind in kinds), default=0)
    journeys = layout.journeys(columns, graph.nodes, y)  # each object's stops, drawn and named in the legend
    entries = len(_legend(language)) + len(journeys)
    bottom = 1.0 + 0.3 * -(-entries // 2)  # the steps, their label, and the legend in two columns
    height = round((0.46 * (max(lanes.values(), default=0) + 1.4) + top + bottom) * DPI) / DPI  # whole pixels
    figure = Figure(figsize=(WIDTH, height), dpi=DPI)
    figure.subplots_adjust(left=left / WIDTH, right=1 - 0.25 / WIDTH, top=1 - top / height,
                           bottom=bottom / height)
    axes = figure.add_subplot()
    for node in lanes:
        axes.axhline(y[node], color=LANE_COLOUR, linewidth=1, zorder=0)
    axes.set_yticks([y[node] for node in lanes], labels=labels, fontsize=15)
    perspective = graph.graph.get("perspective")
    for tick, node in zip(axes.get_yticklabels(), lanes):
        tick.set_color(OBJECT_COLOUR if graph.nodes[node].get("kind") == "object" else "black")
        if node == perspective:
            tick.set_fontweight("bold")
    seat_ys = [y[node] for node in lanes if graph.nodes[node].get("kind") == "seat"]
    for x, column in enumerate(columns):
        _draw_column(axes, x, column, y, seat_ys)
    journey_handles = _draw_journeys(axes, journeys, y, names, language)
    highest, lowest = max(y.values()), min(y.values())
    _label_columns(axes, columns, kinds, highest + 0.55, language)
    axes.set_ylim(lowest - 0.7, highest + 0.5)
    axes.set_xlim(-0.7, max(len(columns), 8) - 0.3)
    for side in ("top", "right", "bottom", "left"):
        axes.spines[side].set_visible(False)
    heading = layout.heading(plain(title) if title else tr("flow.title", language), columns, left_out, language)
    if not columns:
        axes.text(0, (highest + lowest) / 2, tr("flow.nothing", language), fontsize=16, va="center")
    figure.suptitle(heading, fontsize=18, y=1 - 0.12 / height, va="top")
    figure.legend(handles=_legend(language) + journey_handles, loc="lower center", ncol=2,
                  fontsize=SMALLEST_TYPE + 1, frameon=False, bbox_to_anchor=(0.5, 0.0))
    return figure


def _draw_column(axes: Any, x: int, column: Column, y: Mapping[Any, float], seat_ys: list[float]) -> None:
    origin_y = y[column.origin]
    if column.public:
        ys = [*seat_ys, origin_y]
        axes.plot([x, x], [min(ys), max(ys)], color=PUBLIC_COLOUR, linewidth=11, alpha=0.35,
                  solid_capstyle="round", zorder=1, gid="public")
    else:
        full = [y[seat] for seat, saw_all in column.observers.items() if saw_all]
        redacted = [y[seat] for seat, saw_all in column.observers.items() if not saw_all]
        if layout.redacted_to_all(column, len(seat_ys)):
            ys = [*seat_ys, origin_y]  # everyone else saw the redacted form: one grey bar, drawn once
            axes.plot([x, x], [min(ys), max(ys)], color=REDACTED_COLOUR, linewidth=11, alpha=0.2,
                      solid_capstyle="round", zorder=1, gid="redacted-to-all")
        elif redacted:
            span = [*redacted, origin_y]
            axes.plot([x, x], [min(span), max(span)], color=REDACTED_COLOUR, linewidth=1.8, linestyle="--",
                      zorder=2, gid="redacted")
            axes.plot([x] * len(redacted), redacted, linestyle="none", marker="o", markersize=9,
                      markerfacecolor="white", markeredgecolor=REDACTED_COLOUR, markeredgewidth=2, zorder=4)
        if full:
            span = [*full, origin_y]
            axes.plot([x, x], [min(span), max(span)], color=FULL_COLOUR, linewidth=3, zorder=3, gid="full")
            axes.plot([x] * len(full), full, linestyle="none", marker="o", markersize=10, color=FULL_COLOUR,
                      zorder=5)
    is_seat = isinstance(column.origin, int)
    axes.plot([x], [origin_y], linestyle="none", marker="s", markersize=12,
              markerfacecolor=SEAT_COLOUR if is_seat else OBJECT_COLOUR, markeredgecolor="black", zorder=6)


def _draw_journeys(axes: Any, journeys: Mapping[Any, list[tuple[int, Any]]], y: Mapping[Any, float],
                   names: Mapping[Any, str], language: str) -> list[Line2D]:
    """The chain of seats that held each object in turn (the events it is the source of, by their actor)."""
    handles = []
    for node, stops in journeys.items():
        xs, ys = zip(*((x, y[actor]) for x, actor in stops))
        axes.plot(xs, ys, color=JOURNEY_COLOUR, linewidth=5, alpha=0.75, drawstyle="steps-post", zorder=1,
                  gid=f"journey-{node}")
        label = tr("flow.journey", language).format(object=plain(names[node]))
        handles.append(Line2D([], [], color=JOURNEY_COLOUR, linewidth=5, alpha=0.75, label=label))
    return handles


def _label_columns(axes: Any, columns: list[Column], kinds: list[str], above: float, language: str) -> None:
    """Each column's kind (its label in `kinds`) on top, turned, and its step below, where the step changes."""
    changes = [x for x, column in enumerate(columns) if x == 0 or columns[x - 1].step != column.step]
    axes.set_xticks(changes, labels=[str(columns[x].step) for x in changes], fontsize=SMALLEST_TYPE)
    axes.tick_params(axis="x", length=0)
    axes.set_xlabel(tr("flow.step", language), fontsize=SMALLEST_TYPE + 1)
    for x, kind in enumerate(kinds):
        axes.text(x, above, kind, rotation=90, ha="center", va="bottom", fontsize=SMALLEST_TYPE, clip_on=False)


def _legend(language: str) -> list[Any]:
    return [
        Line2D([], [], linestyle="none", marker="s", markersize=12, markerfacecolor=SEAT_COLOUR,
               markeredgecolor="black", label=tr("flow.origin", language)),
        Line2D([], [], color=FULL_COLOUR, linewidth=3, marker="o", markersize=10, label=tr("flow.full", language)),
        Line2D([], [], color=REDACTED_COLOUR, linewidth=1.8, linestyle="--", marker="o", markersize=9,
               markerfacecolor="white", markeredgewidth=2, label=tr("flow.redacted", language)),
        Patch(color=PUBLIC_COLOUR, alpha=0.35, label=tr("flow.public", language)),
        Patch(color=REDACTED_COLOUR, alpha=0.2, label=tr("flow.redacted_to_all", language)),
    ]


def draw_worlds(worlds: Worlds, *, label: Callable[[Any], str] = str, actual: Any = None,
                title: str | None = None, size: tuple[float, float] = (8, 8), language: str = "en") -> Figure:
    """The Kripke structure: worlds on a circle (the actual one outlined), an edge labelled with the agents
    that cannot tell its two worlds apart.

    The worlds go round the circle in the order that crosses the fewest edges (every order is tried up to
    `ORDERED_WORLDS` worlds), and each edge's label sits on its own edge where no other edge, world or label
    runs through it, if its edge has such a place (`crossed_labels` checks a picture).

    Example::

        draw_worlds(model, label=lambda world: "".join(map(str, world)), actual=(1, 0, 1))
    """
    graph = worlds.to_networkx()
    edges = [(first, second, plain(circle.agents_label(agents, language)))  # type: ignore[var-annotated]
             for first, second, agents in graph.edges(data="agents")]
    figure = Figure(figsize=size, dpi=DPI)
    axes = figure.add_axes((0.02, 0.02, 0.96, 0.96 - 0.5 / size[1]))  # the title above, in 0.5 inch
    box_width, box_height = 0.96 * size[0], (0.96 - 0.5 / size[1]) * size[1]
    half_width = 1.32
    half_height = half_width * box_height / box_width  # the same scale both ways: a circle stays round
    axes.set_xlim(-half_width, half_width)
    axes.set_ylim(-half_height, half_height)
    axes.set_axis_off()
    points_per_unit = 72 * box_width / (2 * half_width)
    positions = circle.on_a_circle(circle.fewest_crossings(list(graph.nodes), [(a, b) for a, b, _ in edges]))
    for index, (first, second, _) in enumerate(edges):
        on_actual = actual is not None and actual in (first, second)
        axes.plot(*zip(positions[first], positions[second]), color="#c1121f" if on_actual else "#999999",
                  linewidth=1.5, zorder=1, gid=f"edge-{index}")
    node_radius = math.sqrt(WORLD_SIZE) / 2 / points_per_unit
    for node in graph.nodes:
        axes.plot(*positions[node], marker="o", markersize=math.sqrt(WORLD_SIZE), color="#8ecae6",
                  markeredgecolor="black" if node == actual else "#8ecae6", markeredgewidth=3, zorder=2,
                  linestyle="none")
        axes.text(*positions[node], plain(label(node)), ha="center", va="center", fontsize=SMALLEST_TYPE, zorder=3)
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    renderer = FigureCanvasAgg(figure).get_renderer()
    sizes = []
    for _, _, text in edges:  # each label's box, in the data's units, with the padding drawn around it
        extent = axes.text(0, 0, text, fontsize=SMALLEST_TYPE).get_window_extent(renderer)
        axes.texts[-1].remove()
        pad = 0.25 * SMALLEST_TYPE
        sizes.append(((extent.width * 72 / DPI + 2 * pad) / points_per_unit,
                      (extent.height * 72 / DPI + 2 * pad) / points_per_unit))
    places = circle.label_places(positions, edges, sizes, node_radius)
    for index, ((_, _, text), (x, y)) in enumerate(zip(edges, places)):
        axes.text(x, y, text, ha="center", va="center", fontsize=SMALLEST_TYPE, zorder=4, gid=f"edge-label-{index}",
                  bbox={"boxstyle": "square,pad=0.25", "facecolor": "white", "edgecolor": "none"})
    axes.set_title(plain(title) if title else tr("worlds.title", language), fontsize=16, pad=6)
    return figure


#: The area of a world's disc, in square points (matplotlib's marker size is its diameter: the root of it).
WORLD_SIZE = 1500


def crossed_labels(figure: mpl_figure.Figure, width_pixels: int = 1280) -> list[tuple[str, int]]:
    """The edge labels of a `draw_worlds` picture that another edge runs through when the figure is shown
    `width_pixels` wide, as (label, the crossing edge's number): the geometric check behind "no label crossed
    by an edge". Label boxes (their white padding included) and edges are compared as drawn."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    original = figure.dpi
    figure.set_dpi(width_pixels / figure.get_figwidth())
    try:
        renderer = FigureCanvasAgg(figure).get_renderer()
        figure.draw(renderer)
        axes = figure.axes[0]
        lines = {int(cast(str, line.get_gid())[len("edge-"):]): axes.transData.transform(line.get_xydata())
                 for line in axes.get_lines() if str(line.get_gid()).startswith("edge-")}
        crossed = []
        for text in axes.texts:
            if not str(text.get_gid()).startswith("edge-label-"):
                continue
            own = int(cast(str, text.get_gid())[len("edge-label-"):])
            patch = text.get_bbox_patch()
            extent = (patch if patch is not None else text).get_window_extent(renderer)
            box = (extent.x0, extent.y0, extent.x1, extent.y1)
            crossed += [(text.get_text(), index) for index, ends in lines.items()
                        if index != own and circle.meets((tuple(ends[0]), tuple(ends[1])), box)]
        return crossed
    finally:
        figure.set_dpi(original)


def displayed_width(figure: mpl_figure.Figure, column: int | None = None) -> int:
    """How many pixels wide JupyterLab shows a figure's PNG: its own width (inches times dpi), never stretched,
    and scaled down to the notebook's column when wider (`NOTEBOOK_COLUMN`, measured in a 1280-pixel window)."""
    return min(round(figure.get_figwidth() * figure.dpi), NOTEBOOK_COLUMN if column is None else column)


def projected_type(figure: mpl_figure.Figure, width_pixels: int = 1280) -> tuple[float, list[str]]:
    """The smallest type of a figure in points when it is shown `width_pixels` wide, and the texts that
    reach past its edges (cut off when shown). The default, 1280, is a projector showing the picture alone
    across its width; in a notebook JupyterLab never stretches a picture: pass `displayed_width(figure)`."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.text import Text

    renderer = FigureCanvasAgg(figure).get_renderer()
    figure.draw(renderer)
    scale = width_pixels / (figure.get_figwidth() * figure.dpi)
    box = figure.bbox
    undrawn = {id(label) for axis in _axes_axes(figure) for tick in axis.get_major_ticks() + axis.get_minor_ticks()
               if not axis.axes.axison or not _within(tick.get_loc(), axis.get_view_interval())
               for label in (tick.label1, tick.label2)}
    texts = [t for t in figure.findobj(Text) if t.get_visible() and t.get_text().strip() and id(t) not in undrawn]
    cut = [t.get_text() for t in texts
           if (extent := t.get_window_extent(renderer)).x0 < box.x0 - 0.5 or extent.x1 > box.x1 + 0.5
           or extent.y0 < box.y0 - 0.5 or extent.y1 > box.y1 + 0.5]
    return min(cast(float, t.get_fontsize()) for t in texts) * scale, cut


def _axes_axes(figure: mpl_figure.Figure) -> list[Any]:
    return [axis for axes in figure.axes for axis in (axes.xaxis, axes.yaxis)]


def _within(location: float, interval: Sequence[float]) -> bool:
    """Whether a tick lies in an axis's view (matplotlib draws only those ticks)."""
    low, high = sorted(interval)
    slack = (high - low) * 1e-9
    return low - slack <= location <= high + slack
