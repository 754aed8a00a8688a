"""The projector notebooks (`make classroom`) show the public table only, never a seat's own screen.

Each notebook's code cell is run here and its bots are moved on, as the teacher does with "Next move", to the
game's end in English then French. At every step the widget must hold the spectator's table, and no text that only a seat's
own table shows (a hand, a role, a secret pick), nor any event a seat saw in full that the others did not.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import ipywidgets as widgets
import pytest

from tabletop_edu.i18n import tr
from tabletop_edu.widgets import GameWidget
from tabletop_edu.widgets.panels import perspective_html

CLASSROOM = Path(__file__).resolve().parents[2] / "notebooks" / "classroom"
TEXT_NODE = re.compile(r">([^<>]+)<")


def projector_table(name: str) -> GameWidget:
    """The widget the notebook's page shows: its code cell run here, its last expression the widget."""
    cells = json.loads((CLASSROOM / f"{name}.ipynb").read_text(encoding="utf-8"))["cells"]
    lines = "".join(next(cell["source"] for cell in cells if cell["cell_type"] == "code")).rstrip().splitlines()
    namespace: dict[str, Any] = {}
    exec("\n".join(lines[:-1]), namespace)  # noqa: S102 - our own notebook
    widget = eval(lines[-1], namespace)  # noqa: S307
    assert isinstance(widget, GameWidget)
    return widget


def shown(piece: Any) -> Iterator[str]:
    """Every text the widget holds, hidden pieces included, as text nodes: those of its HTML pieces and the
    labels of its controls. The knowledge panel is left out: it is computed from the spectator's view alone
    (checked below), and the public facts it lists may read like a seat's own line ("red + blue")."""
    if isinstance(piece, widgets.HTML):
        yield from texts(piece.value)
    for trait in ("description", "tooltip"):
        if isinstance(getattr(piece, trait, None), str):
            yield getattr(piece, trait)
    if isinstance(getattr(piece, "options", None), tuple):
        yield from (str(option[0] if isinstance(option, tuple) else option) for option in piece.options)
    for child in getattr(piece, "children", ()):
        yield from shown(child)


def texts(page: str) -> set[str]:
    return {html.unescape(node).strip() for node in TEXT_NODE.findall(page)} - {""}


def private_texts(widget: GameWidget, seat: int) -> set[str]:
    """What seat `seat`'s own table says that the spectator's table does not (its hand, its role...)."""
    state, language = widget.state, widget.language
    return texts(perspective_html(state, seat, language, log=False)) - texts(
        perspective_html(state, None, language, log=False))


def assert_public_only(widget: GameWidget) -> None:
    """The spectator's table and panels; no seat's private text (until the end reveals it); no seat's event."""
    state, language = widget.state, widget.language
    assert widget.table.value == perspective_html(state, None, language, log=False)
    if widget.knowledge is not None:
        assert widget.knowledge(state.view(None), language) in widget.knowledge_panel.value
    nodes = set(shown(widget)) - texts(widget.knowledge_panel.value)
    plain = "\n".join(nodes)
    for seat in range(len(state.players) if not state.is_over else 0):
        for secret in private_texts(widget, seat):
            sentence = len(secret) >= 20  # a sentence, too long to be met by chance inside a public one
            assert secret not in nodes and not (sentence and secret in plain), \
                f"the projector shows seat {seat}'s {secret!r}"
    for event in state.events:
        if not event.is_public and event.text != event.redacted:
            assert event.text not in plain, f"the projector shows a secret event: {event.text!r}"


def play_to_the_end(widget: GameWidget) -> None:
    """One bot move per "Next move", checking the projector after each."""
    for _ in range(widget.state.max_steps + 1):
        assert_public_only(widget)
        if widget.state.is_over:
            return
        widget.next_bot_button.click()
    raise AssertionError("the bots did not finish the game")


@pytest.mark.parametrize("name", sorted(path.stem for path in CLASSROOM.glob("*.ipynb")))
def test_the_projector_shows_the_public_table_to_the_end_in_both_languages(name: str) -> None:
    widget = projector_table(name)
    assert widget.perspective is None and widget.locked and widget.projector
    assert widget.bot_pace == "step" and widget.state.history == []  # nothing played before the class looks
    assert len(widget.perspective_picker.options) == 1  # no seat to switch to, even out of projector mode
    assert tr("no_view", widget.language) not in "\n".join(shown(widget))  # so no "Choose a seat to play."
    assert_public_only(widget)
    widget.next_bot_button.click()
    assert len(widget.state.history) == 1
    widget.language_picker.value = "fr"
    play_to_the_end(widget)
    assert widget.end_panel.value  # the reveal, at the end only
    widget.language_picker.value = "en"
    assert_public_only(widget)


def test_a_seat_table_does_say_what_the_projector_must_not() -> None:
    """The check above has teeth: seat 0's own table holds private words the spectator's does not."""
    widget = projector_table("mafia_de_cuba")
    assert private_texts(widget, 0)
    widget.language_picker.value = "fr"
    assert private_texts(widget, 0)
