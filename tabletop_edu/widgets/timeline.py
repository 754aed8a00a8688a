"""The timeline: replay a game step by step, and come back to the game as it is now.

A wide slider (one notch per step) between four buttons: start, previous, next, live. Keyboard: once the
slider's handle has the focus (click it, or Tab to it), the left and right arrow keys step back and forth and
Home jumps to the start; ipywidgets' slider does this by itself in JupyterLab and in Voila (End does nothing
there: the Live button comes back to the game as it is now). The buttons answer Tab, Enter and Space like
any button. A page-wide shortcut would need JavaScript of our own, which ipywidgets' HTML does not run.
Beside it, the events of the step on show, as the perspective saw them.
"""

from __future__ import annotations

from collections.abc import Callable

import ipywidgets as widgets

from ..i18n import tr


class Timeline(widgets.VBox):
    """Step controls; `on_move()` is called whenever the step on show changes by a person's hand."""

    def __init__(self, on_move: Callable[[], None], language: str) -> None:
        self.on_move = on_move
        self._quiet = False
        self.slider = widgets.IntSlider(min=0, max=0, value=0, continuous_update=False, readout=True,
                                        style={"description_width": "initial"})
        self.slider.add_class("tabletop-timeline-slider")
        self.first_button = widgets.Button()
        self.previous_button = widgets.Button()
        self.next_button = widgets.Button()
        self.live_button = widgets.Button()
        self.first_button.on_click(lambda _: self.go(0))
        self.previous_button.on_click(lambda _: self.go(self.slider.value - 1))
        self.next_button.on_click(lambda _: self.go(self.slider.value + 1))
        self.live_button.on_click(lambda _: self.go(self.slider.max))
        self.slider.observe(self._moved, names="value")
        self.events = widgets.HTML()
        self.relabel(language)
        bar = widgets.HBox([self.first_button, self.previous_button, self.slider, self.next_button,
                            self.live_button])
        bar.add_class("tabletop-wrap")
        super().__init__([bar, self.events])
        self.add_class("tabletop-timeline")
        self._enable()

    def relabel(self, language: str) -> None:
        self.slider.description = tr("timeline", language)
        for button, key in ((self.first_button, "first"), (self.previous_button, "previous"),
                            (self.next_button, "next"), (self.live_button, "live")):
            button.description = tr(key, language)
            button.tooltip = tr(f"{key}_tip", language)

    @property
    def step(self) -> int:
        return int(self.slider.value)

    @property
    def live(self) -> bool:
        """True when the step on show is the game as it is now."""
        return self.slider.value >= self.slider.max

    def go(self, step: int) -> None:
        """Show `step` (clamped to the game's steps)."""
        self.slider.value = min(max(step, 0), self.slider.max)

    def extend(self, last: int) -> None:
        """The game now has `last` steps: follow it if live, else stay on the step being replayed. Never
        calls `on_move`: the owner redraws once, after everything changed."""
        follow = self.live
        self._quiet = True
        try:
            self.slider.max = last
            if follow:
                self.slider.value = last
        finally:
            self._quiet = False
        self._enable()

    def _moved(self, _: object) -> None:
        self._enable()
        if not self._quiet:
            self.on_move()

    def _enable(self) -> None:
        at_start, at_end = self.slider.value <= 0, self.slider.value >= self.slider.max
        self.first_button.disabled = self.previous_button.disabled = at_start
        self.next_button.disabled = self.live_button.disabled = at_end
