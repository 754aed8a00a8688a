"""Possible worlds on the muddy children puzzle, and information flow from event visibility."""

from __future__ import annotations

import itertools

import matplotlib.text
import pytest
from IPython.core.formatters import DisplayFormatter
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from tabletop_edu import commissario, mafia_de_cuba
from tabletop_edu.core import RandomBot, play_game
from tabletop_edu.examples import peek
from tabletop_edu.knowledge import (Worlds, draw_information_flow, draw_worlds, information_flow, perspective_flow,
                                    projected_type)


def muddy_children(children: int) -> Worlds:
    """Each child sees every forehead but its own."""
    worlds = itertools.product((False, True), repeat=children)
    return Worlds(worlds, {child: (lambda world, child=child: world[:child] + world[child + 1:])
                           for child in range(children)})


def knows_own_state(model: Worlds, child: int, world: tuple[bool, ...]) -> bool:
    return model.knows_whether(child, lambda w: w[child], world)


def rounds_until_muddy_know(children: int, actual: tuple[bool, ...]) -> int:
    """Announce 'at least one is muddy', then 'nobody knows' until some child knows: how many rounds."""
    model = muddy_children(children).announce(any)
    for round_number in range(1, children + 2):
        if any(knows_own_state(model, child, actual) for child in range(children)):
            return round_number
        model = model.announce(lambda world, m=model: not any(
            knows_own_state(m, child, world) for child in range(children)))
    raise AssertionError("nobody ever knew")


@pytest.mark.parametrize("children", [3, 4])
def test_muddy_children_know_after_as_many_rounds_as_there_are_muddy(children: int) -> None:
    for actual in itertools.product((False, True), repeat=children):
        muddy = sum(actual)
        if muddy == 0:
            continue
        assert rounds_until_muddy_know(children, actual) == muddy
        model = muddy_children(children).announce(any)
        for _ in range(muddy - 1):
            model = model.announce(lambda w, m=model: not any(knows_own_state(m, c, w) for c in range(children)))
        knowers = {child for child in range(children) if knows_own_state(model, child, actual)}
        assert knowers == {child for child in range(children) if actual[child]}


def test_knowledge_operators() -> None:
    model = muddy_children(3)
    actual = (True, True, False)
    someone_muddy = any
    assert model.knows(0, someone_muddy, actual)  # child 0 sees child 1 muddy
    assert not model.common_knowledge(someone_muddy, actual)
    assert model.announce(someone_muddy).common_knowledge(someone_muddy, actual)
    assert not model.knows_whether(0, lambda w: w[0], actual)
    assert len(model.partition(0)) == 4 and all(len(cell) == 2 for cell in model.partition(0))
    assert model.everyone_knows(someone_muddy, actual)  # each child sees a muddy forehead
    assert not model.everyone_knows(someone_muddy, (True, False, False))  # child 0 sees none
    graph = model.to_networkx()
    assert graph.number_of_nodes() == 8 and graph.number_of_edges() == 12


def test_worlds_refuse_nonsense() -> None:
    with pytest.raises(ValueError):
        Worlds([], {0: lambda w: w})
    model = muddy_children(2)
    with pytest.raises(ValueError, match="nothing would remain"):
        model.announce(lambda w: False)
    with pytest.raises(ValueError):
        model.knows(0, any, (True, True, True))


def test_information_flow_follows_visibility() -> None:
    state = peek.new_game(3, seed=4)
    state.apply("peek 2")
    graph = information_flow(state)
    assert set(graph.nodes) == {0, 1, 2, "deck"}
    peeks = [(u, v, d) for u, v, d in graph.edges(data=True) if d["kind"] == "peek"]
    assert {(u, v, d["full"]) for u, v, d in peeks} == {(2, 0, True), (2, 1, False)}
    assert all(str(state.cards[2]) not in d["text"] for u, v, d in peeks if v == 1)
    assert len({d["event"] for _, _, d in peeks}) == 1 and not any(d["public"] for _, _, d in peeks)
    deals = [(u, v, d["full"]) for u, v, d in graph.edges(data=True) if d["kind"] == "deal"]
    assert sorted(deals) == sorted((("deck", seat, seat == dealt) for dealt in range(3) for seat in range(3)))


def test_what_the_game_announces_comes_from_the_table() -> None:
    state = commissario.new_game(3, seed=1)
    graph = information_flow(state)
    layout = [(u, v, d) for u, v, d in graph.edges(data=True) if d["kind"] == "layout"]
    assert {u for u, _, _ in layout} == {"table"} and {v for _, v, _ in layout} == {0, 1, 2}
    assert all(d["public"] and d["full"] for _, _, d in layout)


def test_a_seats_flow_holds_only_what_it_observed() -> None:
    state = play_game(mafia_de_cuba.new_game(7, seed=3), [RandomBot()] * 7)
    for seat in range(7):
        graph = perspective_flow(state.events, state.players, seat)
        seen = {event.text for event in state.log(seat)}
        assert graph.graph["perspective"] == seat
        for _, observer, data in graph.edges(data=True):
            assert data["text"] in seen  # nothing but the seat's own log
            assert data["public"] or observer == seat  # nobody else's private observations
    spectator = perspective_flow(state.events, state.players, None)
    assert {v for _, v, d in spectator.edges(data=True) if not d["public"]} <= {"spectator"}


def flow_picture(state: object, **options: object) -> Figure:
    return draw_information_flow(information_flow(state), **options)  # type: ignore[arg-type]


def test_the_flow_picture_is_readable_on_a_projector() -> None:
    """1280 pixels wide, every label at 14 points or more once shown at 1280 pixels and none cut off (the
    legend included, in both languages); the same picture every time; shown by Jupyter as a PNG without pyplot."""
    state = play_game(mafia_de_cuba.new_game(12, seed=1), [RandomBot()] * 12)
    picture = flow_picture(state)
    width_pixels = picture.get_figwidth() * picture.dpi
    assert width_pixels == 1280
    texts = [text for text in picture.findobj(matplotlib.text.Text) if text.get_text().strip()]
    assert len(texts) > 30
    shown_at_1280 = 1280 / width_pixels
    assert min(text.get_fontsize() * shown_at_1280 for text in texts) >= 14
    for language in ("en", "fr"):
        smallest, cut = projected_type(draw_information_flow(state, language=language))
        assert smallest >= 14 and cut == [], (language, smallest, cut)
    png = picture._repr_png_()
    assert png.startswith(b"\x89PNG") and png == flow_picture(state).png()
    bundle, _ = DisplayFormatter().format(picture)
    assert "image/png" in bundle


def test_public_events_are_drawn_once_and_the_box_journey_as_a_chain() -> None:
    state = play_game(mafia_de_cuba.new_game(7, seed=1), [RandomBot()] * 7)
    graph = information_flow(state)
    picture = draw_information_flow(graph, max_columns=1000)
    public_events = {d["event"] for _, _, d in graph.edges(data=True) if d["public"]}
    bars = [line for line in picture.findobj(Line2D) if line.get_gid() == "public"]
    assert len(bars) == len(public_events) > 0
    assert graph.number_of_edges() > 3 * len(bars)  # the n(n-1) arrows it replaces
    journey = next(line for line in picture.findobj(Line2D) if line.get_gid() == "journey-box")
    openers = [event.actor for event in state.events if event.origin == "box"]
    lanes = [-seat for seat in openers]  # seat k's lane is at height -k
    assert list(journey.get_ydata()) == lanes and len(lanes) >= 7
    legend = [text.get_text() for text in picture.legends[0].get_texts()]
    assert "saw all of it" in legend and "saw only that it happened (redacted)" in legend
    assert "journey of the box" in legend


def test_the_picture_keeps_the_latest_steps_and_speaks_french() -> None:
    state = play_game(commissario.new_game(5, seed=1), [RandomBot()] * 5)
    picture = flow_picture(state, max_columns=20, language="fr")
    assert len(picture.axes[0].get_xticks()) <= 20 and str(len(state.history)) in picture.get_suptitle()
    assert "étapes" in picture.get_suptitle() and "a tout vu" in [t.get_text() for t in picture.legends[0].get_texts()]
    early = flow_picture(state, steps=(0, 3))
    assert "steps 0 to 3" in early.get_suptitle()
    empty = draw_information_flow(perspective_flow([], ["Ana", "Ben"], 0))
    assert "Nothing observed yet." in [text.get_text() for text in empty.axes[0].texts]


def test_drawings_are_figures() -> None:
    state = play_game(peek.new_game(3, seed=2), [RandomBot()] * 3)
    assert isinstance(draw_information_flow(information_flow(state)), Figure)
    assert isinstance(draw_information_flow(state), Figure)  # a state is drawn as its whole flow
    worlds = draw_worlds(muddy_children(3), actual=(True, False, True))
    assert isinstance(worlds, Figure) and worlds._repr_png_().startswith(b"\x89PNG")


def test_the_flow_picture_names_event_kinds_and_objects_as_asked() -> None:
    """`kind_names` relabels the columns' kinds (the rest keep theirs) and `object_names` the object lanes."""
    state = play_game(mafia_de_cuba.new_game(6, seed=1), [RandomBot()] * 6)

    def texts(**names: object) -> list[str]:
        return [text.get_text() for text in flow_picture(state, language="fr", **names).axes[0].texts]

    plain, named = texts(), texts(kind_names={"open": "ouvre", "take": "prend"}, object_names={"box": "boîte"})
    assert "open" in plain and "take" in plain and "ouvre" not in plain
    assert "ouvre" in named and "prend" in named and "open" not in named and "take" not in named
    assert [t for t in plain if t not in ("open", "take")] == [t for t in named if t not in ("ouvre", "prend")]
    lanes = [tick.get_text() for tick in flow_picture(state, object_names={"box": "boîte"}).axes[0].get_yticklabels()]
    assert "boîte" in lanes and "box" not in lanes


def test_the_worlds_picture_speaks_french() -> None:
    """French title, and the agents of an edge joined by "et": "0,2" would read as a decimal number."""
    # Agents 0 and 1 see only the first bit, agent 2 only the second: (0, 0) and (0, 1) are confused by 0 and 1.
    model = Worlds(itertools.product((0, 1), repeat=2), {0: lambda w: w[0], 1: lambda w: w[0], 2: lambda w: w[1]})

    def edge_labels(language: str) -> set[str]:
        texts = draw_worlds(model, actual=(0, 0), language=language).axes[0].texts
        return {text.get_text() for text in texts} - {str(world) for world in model.worlds}

    french = draw_worlds(model, language="fr")
    assert french.axes[0].get_title() == "Mondes possibles"
    assert edge_labels("fr") == {"0 et 1", "2"}
    assert edge_labels("en") == {"0,1", "2"}


def test_projected_type_scales_to_the_projector_and_finds_cut_text() -> None:
    """A 6.4-inch figure shown 1280 pixels wide doubles its type; text past the right edge is reported."""
    from tabletop_edu.knowledge import Figure, projected_type
    figure = Figure(figsize=(6.4, 3))
    axes = figure.add_subplot()
    axes.set_title("inside", fontsize=9)
    axes.tick_params(labelsize=10)
    figure.text(0.95, 0.5, "cut off at the right edge", fontsize=12)
    smallest, cut = projected_type(figure)
    assert smallest == 18.0
    assert cut == ["cut off at the right edge"]


def test_jupyterlab_shows_a_picture_at_its_own_width_never_stretched() -> None:
    """Measured in JupyterLab at 1280 x 800 (file browser open): PNGs of 600 and 800 pixels shown at 600 and
    800, wider ones scaled down to the 848-pixel column. So a 1280-pixel picture's 14-point type is shown at
    9.3 points, and an 800-pixel one's at its own size."""
    from tabletop_edu.knowledge import NOTEBOOK_COLUMN, Figure, displayed_width, projected_type
    assert NOTEBOOK_COLUMN == 848
    shown = {inches: displayed_width(Figure(figsize=(inches, 2), dpi=100)) for inches in (6, 8, 10, 12.8, 16)}
    assert shown == {6: 600, 8: 800, 10: 848, 12.8: 848, 16: 848}
    wide = Figure(figsize=(12.8, 3), dpi=100)
    wide.text(0.1, 0.5, "fourteen points", fontsize=14)
    assert projected_type(wide, displayed_width(wide))[0] == pytest.approx(14 * 848 / 1280)
    assert projected_type(wide)[0] == 14  # the projector's full-width stretch, not what a notebook shows


def test_projected_type_ignores_ticks_outside_the_view() -> None:
    """Log axes make tick labels beyond their limits that matplotlib never draws: they are neither small type
    nor cut off."""
    from tabletop_edu.knowledge import Figure, projected_type
    figure = Figure(figsize=(12.8, 5), layout="constrained")
    axes = figure.add_subplot()
    axes.loglog([1, 10, 1000], [1, 0.3, 0.05])
    axes.tick_params(labelsize=15)
    smallest, cut = projected_type(figure)
    assert smallest == 15.0 and cut == []


def test_no_edge_runs_through_an_edge_label_of_the_worlds_picture() -> None:
    """Checked on the drawn picture at 1280 pixels (`crossed_labels`): the muddy children's cube, the worlds
    left after the father speaks, a denser model where every agent sees one coordinate of two, and four
    children's sixteen worlds."""
    from tabletop_edu.knowledge import crossed_labels, projected_type

    cube = muddy_children(3)
    after_father = cube.announce(lambda world: any(world))
    pairs = Worlds(itertools.product(range(3), repeat=2), {0: lambda w: w[0], 1: lambda w: w[1],
                                                            2: lambda w: (w[0] + w[1]) % 3})
    for model in (cube, after_father, pairs):
        picture = draw_worlds(model, label=lambda world: "".join(str(int(v)) for v in world))
        labels = [text for text in picture.axes[0].texts if str(text.get_gid()).startswith("edge-label-")]
        assert len(labels) == model.to_networkx().number_of_edges() and not crossed_labels(picture)
        assert projected_type(picture)[0] >= 14 and not projected_type(picture)[1]
    hypercube = muddy_children(4)  # 16 worlds: too many to try every order, swaps find a clear one
    assert not crossed_labels(draw_worlds(hypercube, size=(10, 10)))
    # The check itself finds a crossing: a label moved onto the middle of another edge.
    picture = draw_worlds(cube)
    axes = picture.axes[0]
    label = next(text for text in axes.texts if text.get_gid() == "edge-label-0")
    other = next(line for line in axes.get_lines() if line.get_gid() == "edge-1")
    label.set_position(tuple(other.get_xydata().mean(axis=0)))
    assert ("0", 1) in crossed_labels(picture) or any(index == 1 for _, index in crossed_labels(picture))


def test_the_worlds_go_round_the_circle_in_the_order_that_crosses_fewest_edges() -> None:
    """The square 0-1-2-3 given in the order 0, 2, 1, 3 would cross its own diagonals; drawn, it does not."""
    from tabletop_edu.knowledge.circle import fewest_crossings

    square = [(0, 1), (1, 2), (2, 3), (3, 0)]
    order = fewest_crossings([0, 2, 1, 3], square)
    place = {node: k for k, node in enumerate(order)}
    assert all(abs(place[a] - place[b]) in (1, 3) for a, b in square)
