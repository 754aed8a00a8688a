"""The click-by-click move tree offers exactly the legal moves."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_edu import get_adler, mafia_de_cuba
from tabletop_edu.examples import peek
from tabletop_edu.moves import MoveTree, move_step, words_of


def every_move_by_clicks(legal: list[str]) -> set[str]:
    """All moves reachable by clicking through the tree, one word at a time."""
    found: set[str] = set()
    stack: list[tuple[str, ...]] = [()]
    while stack:
        step = move_step(legal, stack.pop())
        if step.complete is not None:
            found.add(step.complete)
        for option in step.options:
            if option.action is not None:
                found.add(option.action)
            else:
                stack.append((*step.chosen, option.word))
    return found


@pytest.mark.parametrize(("module", "players"), [(peek, 3), (get_adler, 5), (mafia_de_cuba, 7)])
def test_clicking_reaches_exactly_the_legal_moves(module: object, players: int) -> None:
    rng = random.Random(3)
    state = module.new_game(players, seed=3)  # type: ignore[attr-defined]
    while not state.is_over:
        seat = rng.choice(state.acting_seats)
        legal = [str(action) for action in state.legal_actions(seat)]
        assert every_move_by_clicks(legal) == set(legal)
        state.apply(rng.choice(legal), player=seat)


def test_a_move_that_is_also_a_prefix_is_offered_as_complete() -> None:
    step = move_step(["saw 3", "saw 3 fbi", "silent"], ["saw", "3"])
    assert step.complete == "saw 3"
    assert [(o.word, o.action) for o in step.options] == [("fbi", "saw 3 fbi")]
    top = move_step(["saw 3", "saw 3 fbi", "silent"], [], label=lambda path: path[-1].upper())
    assert [(o.label, o.action) for o in top.options] == [("SAW", None), ("SILENT", "silent")]


def test_a_path_that_starts_no_legal_move_is_refused() -> None:
    with pytest.raises(ValueError, match="No legal move"):
        move_step(["pass"], ["peek"])


def test_the_words_of_an_action_are_kept_on_it_and_change_nothing_else() -> None:
    state = mafia_de_cuba.new_game(12, seed=2)
    menu = state.legal_actions(state.acting_seats[0])
    first = [words_of(action) for action in menu]
    assert first == [tuple(str(action).split()) for action in menu] and words_of(" take  3 ") == ("take", "3")
    assert all(words_of(action) is words for action, words in zip(menu, first))  # split once, kept
    twin = mafia_de_cuba.State.parse_action(str(menu[0]))
    assert twin == menu[0] and hash(twin) == hash(menu[0]) and repr(twin) == repr(menu[0])


def scanned_step(texts: list[tuple[str, ...]], prefix: tuple[str, ...]) -> tuple[Any, ...] | None:
    """The next choice after `prefix`, found by walking the whole menu (what every tap cost before the tree):
    (its options as (word, action), the complete move), or None if no move starts with `prefix`."""
    matching = [words for words in texts if words[:len(prefix)] == prefix]
    if not matching:
        return None
    nexts: dict[str, list[tuple[str, ...]]] = {}
    for words in matching:
        if len(words) > len(prefix):
            nexts.setdefault(words[len(prefix)], []).append(words)
    options = [(word, " ".join((*prefix, word)) if all(len(w) == len(prefix) + 1 for w in rest) else None)
               for word, rest in nexts.items()]
    return options, " ".join(prefix) if prefix in matching else None


WORDS = st.lists(st.sampled_from(["saw", "3", "fbi", "take", "1", "silent"]), min_size=1, max_size=4).map(tuple)


@settings(max_examples=300, deadline=None)
@given(texts=st.lists(WORDS, min_size=0, max_size=12), prefix=st.lists(st.sampled_from(["saw", "3", "take", "x"]),
                                                                        max_size=3).map(tuple))
def test_the_tree_answers_every_tap_as_a_walk_over_the_whole_menu_would(texts: list[tuple[str, ...]],
                                                                        prefix: tuple[str, ...]) -> None:
    tree = MoveTree(texts)
    expected = scanned_step(texts, prefix)
    if expected is None:
        with pytest.raises(ValueError, match="No legal move"):
            tree.step(prefix)
        return
    step = tree.step(prefix, label=lambda path: "/".join(path))
    assert ([(option.word, option.action) for option in step.options], step.complete) == expected
    assert [option.label for option in step.options] == ["/".join((*prefix, option.word)) for option in step.options]


def test_a_menus_tree_is_built_once_and_shared_by_the_games_that_share_the_menu(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Mafia de Cuba's floor menus belong to the table's size, not to one game: two rooms of twelve share each
    seat's floor tree. A menu that only equals another gets its own tree (kept with its menu, by identity), and
    the memory is bounded."""
    from tabletop_edu import moves

    def to_the_floor(seed: int) -> Any:
        state = mafia_de_cuba.new_game(12, seed=seed)
        while state.view(None).facts["phase"] != "floor":
            seat = state.acting_seats[0]
            state.apply(state.legal_actions(seat)[0], player=seat)
        return state

    first, second = to_the_floor(1), to_the_floor(2)
    seat = next(seat for seat in first.acting_seats if seat != first.view(None).facts["godfather"])
    tree = moves.MoveTree.of(first.legal_actions(seat))
    assert moves.MoveTree.of(second.legal_actions(seat)) is tree
    assert tree.step(()).options == moves.move_step(list(first.legal_actions(seat))).options
    copy = list(first.legal_actions(seat))
    assert moves.MoveTree.of(copy) is not tree and moves.MoveTree.of(copy) is moves.MoveTree.of(copy)
    monkeypatch.setattr(moves, "TREES_KEPT", 3)
    menus = [["a"], ["b"], ["c"], ["d"]]
    for menu in menus:
        moves.MoveTree.of(menu)
    assert len(moves._trees) <= 3
