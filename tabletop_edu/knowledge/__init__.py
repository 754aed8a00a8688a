"""Knowledge: information flow from event visibility, explicit possible-worlds (S5) models, and pictures of both."""

from .drawing import Figure, draw_information_flow, draw_worlds
from .flow import events_flow, information_flow, perspective_flow
from .worlds import Worlds

__all__ = ["Figure", "Worlds", "draw_information_flow", "draw_worlds", "events_flow", "information_flow",
           "perspective_flow"]
