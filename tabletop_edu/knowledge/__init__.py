"""Knowledge: information flow from event visibility, and explicit possible-worlds (S5) models."""

from .drawing import draw_information_flow, draw_worlds, table_layout
from .flow import events_flow, information_flow
from .worlds import Worlds

__all__ = ["Worlds", "draw_information_flow", "draw_worlds", "events_flow", "information_flow",
           "table_layout"]
