"""Knowledge: information flow from event visibility, explicit possible-worlds (S5) models, and pictures of both.

The drawings (`draw_information_flow`, `draw_worlds`, their `Figure`) need matplotlib, which is imported only
when one of them is first asked for: the models themselves run where matplotlib is missing (a Pyodide kernel).
"""

from __future__ import annotations

from typing import Any

from ..extras import need
from .flow import events_flow, information_flow, perspective_flow
from .worlds import Worlds

_DRAWINGS = ("Figure", "draw_information_flow", "draw_worlds")


def __getattr__(name: str) -> Any:
    if name in _DRAWINGS:
        for library in ("matplotlib", "networkx"):
            need(library, "Drawing knowledge as a picture")
        from . import drawing
        return getattr(drawing, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["Figure", "Worlds", "draw_information_flow", "draw_worlds", "events_flow", "information_flow",
           "perspective_flow"]
