"""Names are plain text in pictures: matplotlib must draw `$\\frac{1}{$` letter for letter, never parse it.

A student named so once stopped a room's Knowledge tab: matplotlib's maths parser raised on the name.
"""

from __future__ import annotations

import itertools

import pytest
from matplotlib.text import Text

from tabletop_edu import mafia_de_cuba
from tabletop_edu.classroom.dashboard import flow_image
from tabletop_edu.core import RandomBot, play_game
from tabletop_edu.examples import peek
from tabletop_edu.knowledge import Worlds, draw_information_flow, draw_worlds, information_flow

TEX_NAMES = ["$\\frac{1}{$", "$x^2$", "a$b", "\\$5 $$", "Ann"]


def drawn_texts(texts: list[Text]) -> list[str]:
    """What matplotlib draws for each text: (letters, False) unless it would parse them as mathematics."""
    shown = []
    for text in texts:
        letters, is_math = text._preprocess_math(text.get_text())
        assert is_math is False, f"{text.get_text()!r} would be parsed as mathematics"
        shown.append(letters)
    return shown


def test_tex_names_are_drawn_as_typed_in_the_information_flow() -> None:
    state = play_game(mafia_de_cuba.new_game(TEX_NAMES + ["Bo"], seed=2), [RandomBot()] * 6)
    picture = draw_information_flow(information_flow(state), title="Who paid $5?", object_names={"box": "$box$"})
    assert picture.png().startswith(b"\x89PNG")  # draws without the maths parser raising
    shown = drawn_texts(picture.findobj(Text))
    for name in [*TEX_NAMES, "Who paid $5? (steps"]:  # a long title breaks onto a second line
        assert any(name in " ".join(text.split()) for text in shown), name
    assert any("$box$" in text for text in shown)


def test_tex_labels_agents_and_titles_are_drawn_as_typed_in_worlds() -> None:
    """Two coins; the agent `$a$` sees the first, the agent `$b` the second."""
    model = Worlds(itertools.product((0, 1), repeat=2), {"$a$": lambda world: world[0], "$b": lambda world: world[1]})
    picture = draw_worlds(model, label=lambda world: "$" + "".join(map(str, world)), actual=(1, 0),
                          title="$\\frac{1}{$")
    assert picture.png().startswith(b"\x89PNG")
    shown = drawn_texts(picture.findobj(Text))
    assert "$\\frac{1}{$" in shown and "$10" in shown and "$a$" in shown and "$b" in shown


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_tex_name_does_not_stop_the_dashboards_knowledge_picture(language: str) -> None:
    state = play_game(peek.new_game(["$\\frac{1}{$", "Bob", "$x$"], seed=3), [RandomBot()] * 3)
    html = flow_image(state, language=language)
    assert html.startswith("<div class='classroom-flow'") and "<svg" in html
    assert "$\\frac{1}{$" in html and "$x$" in html  # the SVG picture writes the names as typed
