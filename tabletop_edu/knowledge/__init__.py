"""Knowledge: information flow from event visibility, explicit possible-worlds (S5) models, and pictures of both.

The drawings for analysis (`draw_information_flow`, `draw_worlds`, their `Figure`) need matplotlib and networkx
(the analysis extra), imported only when one of them is first asked for. While playing, `tabletop_edu.pictures.flow_svg`
draws the information flow from `flow_data` with our templates alone: it works where neither is installed (a Pyodide kernel).
Where matplotlib is missing, `draw_information_flow`, `draw_worlds` and `crossed_labels` are those SVG drawings
(`draw_without_matplotlib`, connected by the package's `__init__`: the templates are on a floor above this one).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..extras import installed, need
from .flow import FlowData, events_flow, flow_data, information_flow, perspective_flow
from .worlds import Worlds

_DRAWINGS = ("Figure", "NOTEBOOK_COLUMN", "crossed_labels", "displayed_width", "draw_information_flow", "draw_worlds",
             "projected_type")
#: The drawings that have an SVG form, drawn without matplotlib.
_SVG_DRAWINGS = ("crossed_labels", "draw_information_flow", "draw_worlds")
_svg_drawing: Callable[[str], Any] | None = None


def draw_without_matplotlib(find: Callable[[str], Any]) -> None:
    """Where matplotlib is missing, take the drawings of `_SVG_DRAWINGS` from `find(name)`."""
    global _svg_drawing
    _svg_drawing = find


def __getattr__(name: str) -> Any:
    if name in _SVG_DRAWINGS and _svg_drawing is not None and not installed("matplotlib"):
        return _svg_drawing(name)
    if name in _DRAWINGS:
        for library in ("matplotlib", "networkx"):
            need(library, "Drawing knowledge as a picture")
        from . import drawing
        return getattr(drawing, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["Figure", "FlowData", "NOTEBOOK_COLUMN", "Worlds", "crossed_labels", "displayed_width",
           "draw_information_flow", "draw_without_matplotlib", "draw_worlds", "events_flow", "flow_data",
           "information_flow", "perspective_flow", "projected_type"]
