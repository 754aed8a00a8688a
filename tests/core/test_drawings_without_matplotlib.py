"""Where matplotlib is missing (a JupyterLite kernel), the knowledge drawings a tutorial calls are drawn as SVG by
the same names, so its cells run to their end; and every picture names the table's objects in its language."""

from __future__ import annotations

import itertools
import re

import pytest

import tabletop_edu.knowledge as knowledge
from tabletop_edu import get_adler, mafia_de_cuba
from tabletop_edu.core import RandomBot, play_game
from tabletop_edu.examples import peek
from tabletop_edu.i18n import object_key, words_of
from tabletop_edu.knowledge import Worlds, information_flow
from tabletop_edu.knowledge.flow import EVERYONE, flow_data
from tabletop_edu.pictures import Picture, WorldsPicture, flow_svg


@pytest.fixture()
def no_matplotlib(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel as the site's: matplotlib not installed."""
    monkeypatch.setattr(knowledge, "installed", lambda module: module != "matplotlib")


def after_the_father() -> Worlds:
    children = Worlds(itertools.product((0, 1), repeat=3),
                      {child: (lambda world, child=child: world[:child] + world[child + 1:]) for child in range(3)})
    return children.announce(lambda world: any(world))


def test_the_information_flow_is_an_svg_picture_without_matplotlib(no_matplotlib: None) -> None:
    from tabletop_edu.knowledge import draw_information_flow

    game = play_game(peek.new_game(["Ana", "Ben", "Chloé"], seed=7), [RandomBot()] * 3)
    picture = draw_information_flow(information_flow(game), title="Who learned what in this game of Peek")
    assert isinstance(picture, Picture) and "<svg" in picture._repr_html_()
    assert all(f">{name}</text>" in picture.html for name in ("Ana", "Ben", "Chloé", "deck"))
    assert "Who learned what in this game of Peek" in picture.html


def test_the_worlds_are_an_svg_picture_whose_labels_no_edge_crosses(no_matplotlib: None) -> None:
    from tabletop_edu.knowledge import crossed_labels, draw_worlds

    title = "After the father speaks (edges: who cannot tell the worlds apart)"
    picture = draw_worlds(after_the_father(), label=lambda w: "".join(map(str, w)), actual=(1, 1, 0), title=title)
    assert isinstance(picture, WorldsPicture) and crossed_labels(picture) == []
    assert all(f">{''.join(map(str, world))}</text>" in picture.html for world in after_the_father().worlds)
    assert picture.html.count('stroke="#000000" stroke-width="3"') == 1  # the actual world, outlined
    lines = re.findall(r'text-anchor="middle">([^<]*)</text>', picture.html)
    assert " ".join(line for line in lines if line in title) == title  # the whole title, wrapped in the width
    width = int(re.search(r'width="(\d+)"', picture.html).group(1))  # type: ignore[union-attr]
    assert all(len(line) * 18 * 0.62 < width for line in lines)


def test_crossed_labels_finds_a_label_on_another_edge() -> None:
    from tabletop_edu.pictures import crossed_labels

    across = WorldsPicture("", segments=(((-1.0, 0.0), (1.0, 0.0)), ((0.0, -1.0), (0.0, 1.0))),
                           label_boxes=((0.4, -0.1, 0.6, 0.1), (-0.1, -0.1, 0.1, 0.1)), labels=("0", "1"))
    assert crossed_labels(across) == [("1", 0)]


@pytest.mark.parametrize(("state", "english", "french"), [
    (play_game(mafia_de_cuba.new_game(6, seed=3), [RandomBot()] * 6), "box", "boîte"),
    (play_game(get_adler.new_game(4, seed=3), [RandomBot()] * 4), "deck", "pioche"),
    (play_game(peek.new_game(3, seed=3), [RandomBot()] * 3), "deck", "paquet"),
])
def test_french_pictures_name_the_objects_in_french(state: object, english: str, french: str) -> None:
    lanes = re.compile(r'text-anchor="end"[^>]*>([^<]*)</text>')
    assert english in lanes.findall(flow_svg(state))  # type: ignore[arg-type]
    shown = lanes.findall(flow_svg(state, language="fr"))  # type: ignore[arg-type]
    assert french in shown and english not in shown
    figure = knowledge.draw_information_flow(state, language="fr")
    assert french in [tick.get_text() for tick in figure.axes[0].get_yticklabels()]


@pytest.mark.parametrize("state", [play_game(game.new_game(players, seed=5), [RandomBot()] * players)
                                   for game, players in ((mafia_de_cuba, 6), (get_adler, 4), (peek, 3))])
def test_every_object_a_game_shows_has_a_french_word(state: object) -> None:
    flow = flow_data(state.events, state.players, EVERYONE)  # type: ignore[attr-defined]
    objects = [node for node, attributes in flow.nodes.items() if attributes["kind"] == "object"]
    french = words_of("fr")
    assert objects and all(object_key(state.game, str(node)) in french  # type: ignore[attr-defined]
                           or object_key(None, str(node)) in french for node in objects)
