"""Where things go in an information-flow picture: its columns (events), lanes (seats, then objects) and the
journeys of objects passed from seat to seat. Plain Python, shared by the matplotlib drawing (`drawing`, for
analysis) and the SVG one (`flow_svg`, while playing), so the two pictures say the same thing.

Nodes and edges come as networkx gives them (`graph.nodes`, `graph.edges(data=True)`) or as `FlowData` holds
them (`flow.nodes`, `flow.edges`): a mapping of node -> attributes and (origin, observer, attributes) triples.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..i18n import event_key, object_key, tr

Attributes = Mapping[str, Any]

#: The colours of both pictures.
#: The widest JupyterLab shows a picture in a notebook at a 1280 x 800 window with its file browser open (as a
#: new workspace opens): the output area's width in pixels, measured in Chromium (1,100 with the side bar
#: closed). A wider PNG is scaled down to it; a narrower one is shown at its own size, never stretched; an SVG
#: is shown at its own width and a wider one scrolls sideways, its right part hidden.
NOTEBOOK_COLUMN = 848
SEAT_COLOUR = "#1d4ed8"
OBJECT_COLOUR = "#d97706"
FULL_COLOUR = "#1e3a8a"
REDACTED_COLOUR = "#6b7280"
PUBLIC_COLOUR = "#16a34a"
JOURNEY_COLOUR = "#f59e0b"
LANE_COLOUR = "#d1d5db"


def kind_label(kind: str, language: str, game: str | None = None, kind_names: Mapping[str, str] | None = None) -> str:
    """An event kind as a column shows it: `kind_names` first, then the game's own word for it in `language`
    (`i18n.register_event_kinds`), else the kind itself (the engine's English identifier)."""
    if kind_names and kind in kind_names:
        return kind_names[kind]
    if game is not None:
        key = event_key(game, kind)
        word = tr(key, language)
        if word != key:
            return word
    return kind


def lane_label(node: Any, attributes: Attributes, language: str, game: str | None = None,
               object_names: Mapping[Any, str] | None = None) -> str:
    """A lane's name: `object_names` first; a seat's is its player's name; an object's (the engine's "box",
    "deck", "table") is the game's word for it in `language` (`i18n.register_objects`), else every game's
    word, else the engine's own."""
    if object_names and node in object_names:
        return str(object_names[node])
    name = str(attributes.get("label", node))
    if attributes.get("kind") == "seat":
        return name
    for key in ((object_key(game, name),) if game is not None else ()) + (object_key(None, name),):
        word = tr(key, language)
        if word != key:
            return word
    return name


@dataclass
class Column:
    """One event of the picture: where it came from and who saw it (seat -> saw it all)."""

    step: int
    kind: str
    origin: Any
    actor: Any
    public: bool
    observers: dict[Any, bool] = field(default_factory=dict)


def columns(edges: Iterable[tuple[Any, Any, Attributes]]) -> list[Column]:
    """One column per event, in event order, from the observations (edges) of the flow."""
    found: dict[int, Column] = {}
    for origin, observer, data in edges:
        column = found.setdefault(data["event"], Column(data["step"], data["kind"], origin, data.get("actor"),
                                                        bool(data.get("public"))))
        column.observers[observer] = bool(data["full"])
    return [found[index] for index in sorted(found)]


def window(found: list[Column], steps: tuple[int, int] | None, max_columns: int) -> list[Column]:
    """The columns of steps `steps=(first, last)`, at most `max_columns` of them (the latest)."""
    return shown_and_left_out(found, steps, max_columns)[0]


def shown_and_left_out(found: list[Column], steps: tuple[int, int] | None,
                       max_columns: int) -> tuple[list[Column], int]:
    """`window`'s columns, and how many earlier columns of those steps it leaves out: a picture that keeps only
    the latest events says so, rather than passing the rest over in silence."""
    if steps is not None:
        found = [column for column in found if steps[0] <= column.step <= steps[1]]
    shown = found[-max_columns:] if max_columns > 0 else found
    return shown, len(found) - len(shown)


def heading(title: str, shown: list[Column], left_out: int, language: str) -> str:
    """The picture's title: `title`, the steps it shows, and how many earlier events it leaves out."""
    if not shown:
        return title
    span = tr("flow.steps", language).format(first=shown[0].step, last=shown[-1].step)
    if left_out:
        span += tr("flow.left_out", language).format(count=left_out)
    return f"{title} ({span})"


def lanes(nodes: Mapping[Any, Attributes]) -> dict[Any, float]:
    """Lane positions, top to bottom: seats in seat order, a spectator, then objects in order of appearance
    (with a half-lane gap between seats and objects)."""
    order: dict[str | None, int] = {"seat": 0, "spectator": 1, "object": 2}
    ordered = sorted(nodes, key=lambda node: order.get(nodes[node].get("kind"), 2))
    positions: dict[Any, float] = {}
    position = 0.0
    for index, node in enumerate(ordered):
        kinds = nodes[node].get("kind"), nodes[ordered[index - 1]].get("kind")
        if index and kinds[0] == "object" and kinds[1] != "object":
            position += 0.5
        positions[node] = position
        position += 1
    return positions


def redacted_to_all(column: Column, seats: int) -> bool:
    """Everyone else saw only the redacted form: drawn as one grey bar rather than one mark per seat."""
    redacted = [seat for seat, saw_all in column.observers.items() if not saw_all]
    return not column.public and len(redacted) > 1 and len(column.observers) >= seats - 1


def journeys(found: list[Column], nodes: Mapping[Any, Attributes],
             placed: Mapping[Any, float]) -> dict[Any, list[tuple[int, Any]]]:
    """Each object that seats opened in turn (Mafia de Cuba's box) -> its stops (column, seat that held it):
    the events it is the source of, by their actor. Objects with fewer than two stops have no journey."""
    trips = {}
    for node in nodes:
        if nodes[node].get("kind") != "object":
            continue
        stops = [(x, column.actor) for x, column in enumerate(found)
                 if column.origin == node and column.actor in placed]
        if len(stops) >= 2:
            trips[node] = stops
    return trips
