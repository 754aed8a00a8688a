"""The table's look: one style sheet for every game, scaled by one CSS variable.

`--tabletop-scale` (1 = 100 %) sizes everything: the widget's own controls and the games' table templates,
which write their sizes as `calc(var(--tabletop-scale, 1) * 16px)`. The size control sets it on one widget
(a rule for that widget's own class), so two tables on a page can have different sizes. Projector mode adds
high contrast; narrow screens stack the log and the knowledge panel. No web font and no icon font: nothing is
fetched from anywhere.
"""

from __future__ import annotations

#: Sizes offered by the size control, in percent; projector mode starts at `PROJECTOR_SIZE` at least.
SIZES = (100, 125, 150, 175, 200, 250)
PROJECTOR_SIZE = 150

STYLE = """
.tabletop-widget {
  font-size: calc(var(--tabletop-scale, 1) * 15px);
  --jp-widgets-font-size: calc(var(--tabletop-scale, 1) * 14px);
  --jp-widgets-inline-height: calc(var(--tabletop-scale, 1) * 32px);
  --jp-widgets-inline-label-width: auto;
  gap: calc(var(--tabletop-scale, 1) * 6px);
  max-width: 100%;
}
.tabletop-widget .widget-html-content { line-height: 1.4; font-size: inherit; }
.tabletop-widget .widget-html, .tabletop-widget .widget-html-content { max-width: 100%; }
.tabletop-widget .tabletop-table .widget-html-content { overflow-x: auto; }
.tabletop-widget .tabletop-status .widget-html-content { font-size: 1.15em; font-weight: 600; }
.tabletop-widget .jupyter-button { min-height: calc(var(--tabletop-scale, 1) * 40px); width: auto;
  padding: 0 0.9em; font-size: calc(var(--tabletop-scale, 1) * 15px); }
.tabletop-widget .tabletop-move-option { min-height: calc(var(--tabletop-scale, 1) * 48px);
  min-width: calc(var(--tabletop-scale, 1) * 48px); font-size: calc(var(--tabletop-scale, 1) * 17px);
  font-weight: 600; border-radius: 6px; }
.tabletop-widget .tabletop-move-built .widget-html-content { font-size: 1.1em; }
.tabletop-widget .tabletop-wrap { flex-wrap: wrap; gap: calc(var(--tabletop-scale, 1) * 6px); align-items: center; }
.tabletop-widget .tabletop-timeline-slider { flex: 1 1 12em; min-width: 8em; width: auto; }
.tabletop-widget .tabletop-panels { flex-wrap: wrap; gap: 1em; align-items: flex-start; }
.tabletop-widget .tabletop-column { flex: 1 1 26em; min-width: 0; max-width: 100%;
  border-top: 3px solid #4b5563; padding-top: 0.3em; }
.tabletop-widget .tabletop-column-title .widget-html-content { font-size: 1.15em; font-weight: 700; }
.tabletop-widget .tabletop-log-scroll { display: flex; flex-direction: column-reverse; max-height: 24em;
  overflow-y: auto; }
.tabletop-widget .tabletop-log { margin: 0; padding-left: 2.6em; }
.tabletop-widget .tabletop-step-events { display: flex; gap: 0.8em; align-items: baseline; }
.tabletop-widget .tabletop-step-list { max-height: 6em; overflow-y: auto; }
.tabletop-widget .tabletop-flow img { width: 100%; height: auto; }
.tabletop-widget .tabletop-error { color: #b91c1c; font-weight: 600; }
.tabletop-widget .tabletop-end { border: 3px solid #16a34a; border-radius: 8px; padding: 0.5em 1em;
  margin: 0.3em 0; }
.tabletop-widget .tabletop-hint { color: #4b5563; font-style: italic; }
.tabletop-widget.tabletop-projector { background: #ffffff; color: #000000; padding: 0.5em;
  --jp-widgets-color: #000000; --jp-widgets-label-color: #000000; --jp-ui-font-color1: #000000;
  --jp-content-font-color1: #000000; --jp-widgets-input-border-color: #000000; }
.tabletop-widget.tabletop-projector .widget-html-content { color: #000000; }
.tabletop-widget.tabletop-projector .jupyter-button { border: 2px solid #000000; font-weight: 700; }
.tabletop-widget.tabletop-projector .jupyter-button.mod-primary { background: #003f88; color: #ffffff; }
.tabletop-widget.tabletop-projector .tabletop-hint { color: #000000; }
.tabletop-widget .widget-toggle-buttons { display: flex; flex-wrap: wrap; align-items: center; gap: 0.4em; }
.tabletop-widget .widget-toggle-buttons > div { display: flex; flex-wrap: wrap; gap: 0.3em; }
.tabletop-widget .tabletop-results th { text-align: left; padding-right: 1.5em; }
@media (max-width: 700px) {
  .tabletop-widget .tabletop-column { flex-basis: 100%; }
}
"""


def style_html(instance_class: str, size: int) -> str:
    """The style sheet, plus this widget's own `--tabletop-scale` (`size` in percent)."""
    return f"<style>{STYLE}.{instance_class} {{ --tabletop-scale: {size / 100:g}; }}</style>"
