"""Moves as a person makes them: by clicking, one word of the notation at a time.

Every front-end (the notebook widget, the students' pages of the class server) offers the legal actions of a
seat as buttons rather than as a list of notation. The legal actions are split into their words and read as a
tree: "ask 2 hat black" is the path ask -> 2 -> hat -> black. A `MoveStep` is one level of that tree after the
words chosen so far: the next words to offer, and whether the chosen words already make a whole move (Mafia's
"saw 3" is a move, and also the start of "saw 3 fbi").

Words are labelled for people by the game's renderer, `render.move_label(view, path, language)`, which gets
the whole path up to the word to label (so a number after "ask" can become a player's name, and "hat" a hat in
French); a game without one shows the words themselves. Built from the legal actions alone, the tree offers
exactly the legal moves and nothing a seat may not know.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .core import Action, View
from .registry import GamePlugin
from .rendering import game_renderer

#: Labels a path of words: the label of its last word.
Labeller = Callable[[tuple[str, ...]], str]


@dataclass(frozen=True)
class MoveOption:
    """One button: the notation word it adds, its label, and the whole move if the word ends every move it
    can start (then one click plays it)."""

    word: str
    label: str
    action: str | None


@dataclass(frozen=True)
class MoveStep:
    """The choice after the words `chosen`: its options, and `complete`, the move the chosen words already
    make (None if they make none yet)."""

    chosen: tuple[str, ...]
    options: tuple[MoveOption, ...]
    complete: str | None


def move_texts(legal_actions: Sequence[Action | str]) -> list[tuple[str, ...]]:
    """The legal actions as tuples of notation words, in the game's order."""
    return [words_of(action) for action in legal_actions]


def words_of(action: Action | str) -> tuple[str, ...]:
    """An action's notation words, kept on the action value like its text (`Action.__str__`): games hand out
    the same values in menu after menu (a Mafia floor holds a thousand testimonies), and each word of a move
    a student taps walks the whole menu again."""
    if isinstance(action, str):
        return tuple(action.split())
    known = action.__dict__
    words: tuple[str, ...] | None = known.get("_words")
    if words is None:
        words = known["_words"] = tuple(str(action).split())
    return words


class MoveTree:
    """The legal actions' words as a tree, built once per menu: each word a person taps then costs the options
    at that level, not a walk over the whole menu (a Mafia floor of a thousand testimonies, walked again for
    every word of every student's move)."""

    def __init__(self, texts: Sequence[tuple[str, ...]]) -> None:
        self.moves = set(texts)
        self.after: dict[tuple[str, ...], dict[str, None]] = {}  # a start of moves -> its next words, in order
        for words in texts:
            for depth in range(len(words)):
                self.after.setdefault(words[:depth], {}).setdefault(words[depth], None)

    @classmethod
    def of(cls, menu: Sequence[Action | str]) -> MoveTree:
        """The tree of `menu`, built once while it is kept. Engines hand the same menu object out step after step
        and game after game (Mafia de Cuba's floor menus are shared by every table of its size: the 30 rooms of a
        class build 11 floor trees, not 330). Each tree is kept with its menu, so that the menu's id stays its
        own; the trees of the last `TREES_KEPT` menus are kept, then the memory starts again."""
        kept = _trees.get(id(menu))
        if kept is None or kept[0] is not menu:
            if len(_trees) >= TREES_KEPT:
                _trees.clear()
            kept = _trees[id(menu)] = (menu, cls(move_texts(menu)))
        return kept[1]

    def step(self, chosen: Sequence[str] = (), label: Labeller | None = None) -> MoveStep:
        """The next choice after the words `chosen` (ValueError if no legal move starts with them)."""
        prefix = tuple(chosen)
        if prefix not in self.after and prefix not in self.moves:
            raise ValueError(f"No legal move starts with {' '.join(prefix)!r}.")
        label = label or (lambda path: path[-1])
        options = []
        for word in self.after.get(prefix, ()):
            path = (*prefix, word)
            ends_here = path not in self.after  # no move goes on after this word: one click plays it
            options.append(MoveOption(word, label(path), " ".join(path) if ends_here else None))
        return MoveStep(prefix, tuple(options), " ".join(prefix) if prefix in self.moves else None)


#: How many menus' trees `MoveTree.of` keeps: the current menus of a busy class's rooms.
TREES_KEPT = 256
_trees: dict[int, tuple[Sequence[Any], MoveTree]] = {}


def move_step(legal_actions: Sequence[Action | str], chosen: Sequence[str] = (),
              label: Labeller | None = None, words: MoveTree | None = None) -> MoveStep:
    """The next choice after the words `chosen`, from the legal actions alone (`words`: their `MoveTree`,
    when the caller keeps it).

    Raises `ValueError` if `chosen` is not the start of any legal action (the menu changed under the person:
    start again from the top)."""
    tree = MoveTree(move_texts(legal_actions)) if words is None else words
    return tree.step(chosen, label)


def labeller(view: View, language: str = "en", plugin: GamePlugin | None = None) -> Labeller:
    """The game's labels for notation words (its `render.move_label`), or the words themselves. `plugin`: the
    view's game, when the caller holds it, instead of asking the registry."""
    function: Any = game_renderer(view.game, "move_label") if plugin is None else plugin.renderer("move_label")
    if function is None:
        return lambda path: path[-1]
    return lambda path: str(function(view, path, language))
