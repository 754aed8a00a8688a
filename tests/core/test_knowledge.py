"""Possible worlds on the muddy children puzzle, and information flow from event visibility."""

from __future__ import annotations

import itertools

import pytest
from matplotlib.figure import Figure

from tabletop_edu.core import RandomBot, play_game
from tabletop_edu.examples import peek
from tabletop_edu.knowledge import Worlds, draw_information_flow, draw_worlds, information_flow


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
    deals = [(u, v, d["full"]) for u, v, d in graph.edges(data=True) if d["kind"] == "deal"]
    assert sorted(deals) == sorted((("deck", seat, seat == dealt) for dealt in range(3) for seat in range(3)))


def test_drawings_are_figures() -> None:
    state = play_game(peek.new_game(3, seed=2), [RandomBot()] * 3)
    assert isinstance(draw_information_flow(information_flow(state)), Figure)
    assert isinstance(draw_worlds(muddy_children(3), actual=(True, False, True)), Figure)
