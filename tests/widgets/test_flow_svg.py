"""The play-time information-flow picture: SVG from our templates, the same story as the matplotlib drawing,
readable on a projector, names escaped, and built with neither matplotlib nor networkx."""

from __future__ import annotations

import re
from html import escape
import xml.etree.ElementTree as ElementTree
from typing import Any

import pytest

from tabletop_edu import commissario, mafia_de_cuba
from tabletop_edu.core import RandomBot, play_game
from tabletop_edu.examples import peek
from tabletop_edu.knowledge import information_flow, layout, perspective_flow
from tabletop_edu.knowledge.flow import EVERYONE, flow_data
from tabletop_edu.pictures import SMALLEST_TYPE, flow_svg

SVG = "{http://www.w3.org/2000/svg}"


def parsed(html: str) -> ElementTree.Element:
    """The <svg> element (the picture comes inside a sideways-scrolling <div>): well-formed XML or an error."""
    root = ElementTree.fromstring(html)
    assert root.tag == "div" and "tt-scroll" in root.attrib["class"]
    svg = root.find(f"{SVG}svg")
    assert svg is not None
    return svg


def texts(svg: ElementTree.Element) -> list[str]:
    return ["".join(text.itertext()) for text in svg.iter(f"{SVG}text")]


def with_class(svg: ElementTree.Element, name: str) -> list[ElementTree.Element]:
    return [element for element in svg.iter() if element.attrib.get("class") == name]


def in_event_order(edges: Any) -> list[tuple[Any, Any, dict[str, Any]]]:
    """Edges by event, then origin and observer (networkx lists them node by node)."""
    return sorted(edges, key=lambda edge: (edge[2]["event"], str(edge[0]), str(edge[1])))


def test_the_flow_data_is_the_networkx_graph_in_plain_python() -> None:
    state = play_game(mafia_de_cuba.new_game(7, seed=3), [RandomBot()] * 7)
    everyone = flow_data(state.events, state.players, EVERYONE)
    graph = information_flow(state)
    assert list(graph.nodes(data=True)) == list(everyone.nodes.items())
    assert in_event_order(graph.edges(data=True)) == in_event_order(everyone.edges) and everyone.edges
    for seat in (None, 2):
        seen = perspective_flow(state.events, state.players, seat)
        plain = flow_data(state.events, state.players, seat)
        assert in_event_order(seen.edges(data=True)) == in_event_order(plain.edges)
        assert seen.graph["perspective"] == plain.perspective


def test_public_events_are_one_bar_each_and_the_box_journey_a_chain() -> None:
    state = play_game(mafia_de_cuba.new_game(7, seed=1), [RandomBot()] * 7)
    flow = flow_data(state.events, state.players, EVERYONE)
    svg = parsed(flow_svg(flow, max_columns=1000))
    public_events = {data["event"] for _, _, data in flow.edges if data["public"]}
    assert len(with_class(svg, "flow-public")) == len(public_events) > 0
    lanes = {name: float(text.attrib["y"]) for text in svg.iter(f"{SVG}text")
             if (name := "".join(text.itertext())) in state.players}
    openers = [state.players[event.actor] for event in state.events if event.origin == "box"]
    (journey,) = with_class(svg, "flow-journey")
    heights = [float(point.split(",")[1]) for point in journey.attrib["points"].split()]
    assert [height for index, height in enumerate(heights) if index % 2 == 0] == [lanes[name] for name in openers]
    assert len(openers) >= 7
    words = texts(svg)
    assert "saw all of it" in words and "saw only that it happened (redacted)" in words
    assert "journey of the box" in words


def test_every_text_is_readable_on_a_projector_at_its_natural_size() -> None:
    state = play_game(mafia_de_cuba.new_game(12, seed=1), [RandomBot()] * 12)
    svg = parsed(flow_svg(state))
    sizes = [float(text.attrib["font-size"]) for text in svg.iter(f"{SVG}text")]
    assert len(sizes) > 30 and min(sizes) >= SMALLEST_TYPE >= 14
    width = float(svg.attrib["width"])
    assert svg.attrib["viewBox"] == f"0 0 {svg.attrib['width']} {svg.attrib['height']}"  # drawn at 1:1
    assert width <= 1280 + 300  # 36 columns at most: about a projector's width, scrolling beyond it
    assert flow_svg(state) == flow_svg(state)  # the same picture every time
    assert "style=" not in flow_svg(state)  # presentation attributes only (a strict CSP allows it)


def test_names_are_escaped_and_a_seat_sees_only_its_own_flow() -> None:
    names = ["<script>alert(1)</script>", "Ben & Co", "Chloé \"C\""]
    state = play_game(peek.new_game(names, seed=4), [RandomBot()] * 3)
    html = flow_svg(flow_data(state.events, state.players, 1), title="<b>What Ben knows</b>")
    assert "<script>" not in html and "<b>" not in html and "&lt;script&gt;" in html
    svg = parsed(html)
    assert "<b>What Ben knows</b> (steps 0 to" in "".join(texts(svg))
    bold = [text for text in svg.iter(f"{SVG}text") if text.attrib.get("font-weight") == "700"]
    assert "Ben & Co" in ["".join(text.itertext()) for text in bold]  # the perspective's own lane
    for event in state.events:  # the picture holds kinds and steps, never what was seen
        assert event.text not in "".join(texts(svg)) and escape(event.text) not in html


def test_the_picture_keeps_the_latest_steps_and_speaks_french() -> None:
    state = play_game(commissario.new_game(5, seed=1), [RandomBot()] * 5)
    svg = parsed(flow_svg(state, max_columns=20, language="fr"))
    title = texts(svg)[0]
    assert "étapes" in title and f"à {len(state.history)} ;" in title and title.endswith("non dessinés)")
    assert "a tout vu" in texts(svg) and "étape" in texts(svg)
    assert len(re.findall(r"rotate\(-90\)", ElementTree.tostring(svg, encoding="unicode"))) == 20
    early = parsed(flow_svg(state, steps=(0, 3)))
    assert "(steps 0 to 3)" in texts(early)[0]
    empty = parsed(flow_svg(flow_data([], ["Ana", "Ben"], 0)))
    assert "Nothing observed yet." in texts(empty)


def test_object_names_relabel_their_lanes() -> None:
    state: Any = play_game(mafia_de_cuba.new_game(6, seed=2), [RandomBot()] * 6)
    words = texts(parsed(flow_svg(state, language="fr", object_names={"box": "boîte"})))
    assert "boîte" in words and "trajet : boîte" in words and "box" not in words


@pytest.mark.parametrize("language, words", [("en", "earlier events not drawn"), ("fr", "événements antérieurs non dessinés")])
def test_a_picture_that_keeps_the_latest_events_says_how_many_it_leaves_out(language: str, words: str) -> None:
    """No silent truncation: both pictures (SVG while playing, matplotlib for analysis) name what they drop."""
    from tabletop_edu.knowledge.drawing import draw_information_flow

    state = play_game(mafia_de_cuba.new_game(7, seed=1), [RandomBot()] * 7)
    columns = len(layout.columns(flow_data(state.events, state.players, EVERYONE).edges))
    assert columns > 12
    dropped = f"{columns - 12} {words}"
    assert dropped in flow_svg(state, max_columns=12, language=language)
    assert words not in flow_svg(state, max_columns=columns, language=language)
    figure = draw_information_flow(state, max_columns=12, language=language)
    assert dropped in figure._suptitle.get_text()
    assert words not in draw_information_flow(state, max_columns=columns, language=language)._suptitle.get_text()


def kinds_on_top(svg: ElementTree.Element) -> list[str]:
    """The turned texts on top of the columns: the events' kinds."""
    return ["".join(text.itertext()) for text in svg.iter(f"{SVG}text") if "rotate(-90" in text.attrib.get("transform", "")]


@pytest.mark.parametrize(("game", "players", "french"), [
    (commissario, 3, {"choix", "révèle", "libère", "mise en jeu"}),
    (mafia_de_cuba, 6, {"mise en place", "cache", "ouvre", "prend"}),
    (peek, 2, {"distribution"}),
])
def test_a_french_table_reads_the_events_kinds_in_french(game: Any, players: int, french: set[str]) -> None:
    """The kinds on top of the columns are the game's French words on a French table (the state's own game
    found without being told), English ones on an English table; `kind_names` still overrides them."""
    state = play_game(game.new_game(players, seed=2), [RandomBot()] * players)
    english = {column.kind for column in layout.columns(information_flow(state).edges(data=True))}
    in_french = set(kinds_on_top(parsed(flow_svg(state, language="fr", max_columns=1000))))
    assert french <= in_french and not french & english
    assert set(kinds_on_top(parsed(flow_svg(state, max_columns=1000)))) == english
    seen = flow_data(state.events, state.players, 0)  # a seat's flow names no game: told by `game=`
    assert french & set(kinds_on_top(parsed(flow_svg(seen, language="fr", game=state.game, max_columns=1000))))
    assert not french & set(kinds_on_top(parsed(flow_svg(seen, language="fr", max_columns=1000))))
    kind = sorted(english)[0]
    overridden = kinds_on_top(parsed(flow_svg(state, language="fr", kind_names={kind: "mon mot"}, max_columns=1000)))
    assert "mon mot" in overridden


def test_the_matplotlib_flow_reads_the_kinds_in_french_too() -> None:
    state = play_game(commissario.new_game(3, seed=2), [RandomBot()] * 3)
    from tabletop_edu.knowledge import draw_information_flow

    def kinds(**options: Any) -> set[str]:
        figure = draw_information_flow(state, max_columns=1000, **options)
        return {text.get_text() for text in figure.axes[0].texts if text.get_rotation() == 90}

    assert {"choix", "révèle", "libère"} <= kinds(language="fr") and "pick" in kinds()
