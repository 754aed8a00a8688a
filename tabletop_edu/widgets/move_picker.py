"""Moves by clicking: one button per next word of the notation, as `tabletop_edu.moves.move_step` offers them.

The picker shows the move being built ("Your move: Ask › Ben › …"), a button for each word that can come next
(labelled by the game's `render.move_label`), "Back" and "Start again", and "Play this move" when the words
chosen already make a move that could also go on (Mafia's "saw 3" and "saw 3 fbi"). A word that ends every
move it starts plays the move at once. Buttons are kept and relabelled rather than rebuilt at every redraw:
a page with a hundred moves does not leave a thousand dead widgets behind.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape

import ipywidgets as widgets

from ..moves import Labeller, MoveOption, MoveStep, move_step
from ..i18n import tr

HIDDEN = "none"
#: A button's label when it must say nothing: a space, since ipywidgets' button view keeps its old text in the
#: page when the label becomes "" (a seat's last move would stay there for the next seat to read).
BLANK = " "


def _never_failing(label: Labeller) -> Labeller:
    """`label`, falling back to the notation word itself: a game's labels must never stop a move."""
    def safe(path: tuple[str, ...]) -> str:
        try:
            return label(path)
        except Exception:  # noqa: BLE001 - the word is a correct, if plainer, label
            return path[-1]
    return safe


class MovePicker(widgets.VBox):
    """The clickable move builder of one seat. `on_play(text)` is called with a whole move's notation;
    `on_choice()` after every other click, so the owner can redraw just this picker."""

    def __init__(self, on_play: Callable[[str], None], on_choice: Callable[[], None], language: str) -> None:
        self.on_play = on_play
        self.on_choice = on_choice
        self.language = language
        self.chosen: tuple[str, ...] = ()
        self.step: MoveStep | None = None
        self.built = widgets.HTML()
        self.built.add_class("tabletop-move-built")
        self.options = widgets.HBox()
        self.options.add_class("tabletop-wrap")
        self.back_button = widgets.Button()
        self.clear_button = widgets.Button()
        self.play_this_button = widgets.Button(button_style="primary")
        self.back_button.on_click(lambda _: self._go_back(len(self.chosen) - 1))
        self.clear_button.on_click(lambda _: self._go_back(0))
        self.play_this_button.on_click(lambda _: self._play_complete())
        self._buttons: list[widgets.Button] = []
        self._shown: list[MoveOption] = []
        self.relabel(language)
        editing = widgets.HBox([self.back_button, self.clear_button, self.play_this_button])
        editing.add_class("tabletop-wrap")
        super().__init__([self.built, self.options, editing])
        self.add_class("tabletop-moves")

    def relabel(self, language: str) -> None:
        self.language = language
        self.back_button.description = tr("back", language)
        self.clear_button.description = tr("clear", language)
        self.play_this_button.description = tr("play_this", language)

    @property
    def option_buttons(self) -> list[widgets.Button]:
        """The word buttons on show, in order (the hidden spares left out)."""
        return self._buttons[:len(self._shown)]

    def show(self, legal: Sequence[str] | None, label: Labeller, hint: str = "") -> None:
        """Offer the next words of `legal` after the words chosen so far; `legal=None` shows `hint` alone
        (nobody may move from here). If the chosen words start no legal move any more, start again."""
        label = _never_failing(label)
        if legal is None or not legal:
            self.chosen, self.step = (), None
            self._show_options(())
            self.built.value = f"<span class='tabletop-hint'>{escape(hint)}</span>" if hint else ""
            self._editing(False, False)
            return
        try:
            self.step = move_step(legal, self.chosen, label)
        except ValueError:
            self.chosen = ()
            self.step = move_step(legal, (), label)
        self._show_options(self.step.options)
        words = [label(self.chosen[:index + 1]) for index in range(len(self.chosen))]
        built = " › ".join(escape(word) for word in words) + (" › …" if self.step.options else "")
        heading = tr("your_move", self.language) if words else tr("choose_move", self.language)
        self.built.value = f"<b>{escape(heading)}</b>{':&nbsp;' + built if words else ''}"
        self._editing(bool(self.chosen), self.step.complete is not None)

    def _editing(self, can_go_back: bool, can_play: bool) -> None:
        self.back_button.disabled = self.clear_button.disabled = not can_go_back
        self.back_button.layout.display = self.clear_button.layout.display = None if can_go_back else HIDDEN
        self.play_this_button.disabled = not can_play
        self.play_this_button.layout.display = None if can_play else HIDDEN

    def _show_options(self, options: Sequence[MoveOption]) -> None:
        while len(self._buttons) < len(options):
            button = widgets.Button()
            button.add_class("tabletop-move-option")
            index = len(self._buttons)
            button.on_click(lambda _, index=index: self._pick(index))
            self._buttons.append(button)
            self.options.children = (*self.options.children, button)
        self._shown = list(options)
        for button, option in zip(self._buttons, options):
            button.description = option.label
            button.tooltip = option.word
            button.disabled = False
            button.layout.display = None
        for button in self._buttons[len(options):]:
            button.description, button.tooltip = BLANK, ""  # a spare holds no word of the last seat's moves
            button.disabled = True
            button.layout.display = HIDDEN

    def _pick(self, index: int) -> None:
        if index >= len(self._shown):
            return  # a click on a button hidden since: nothing to do
        option = self._shown[index]
        if option.action is not None:
            self.chosen = ()
            self.on_play(option.action)
            return
        self.chosen = (*self.chosen, option.word)
        self.on_choice()

    def _go_back(self, length: int) -> None:
        self.chosen = self.chosen[:max(length, 0)]
        self.on_choice()

    def _play_complete(self) -> None:
        if self.step is not None and self.step.complete is not None:
            move = self.step.complete
            self.chosen = ()
            self.on_play(move)

    def click(self, *words: str) -> None:
        """Click the buttons of `words` in turn, as a person would (for scripts and tests); the last word
        plays the move if it ends it. Raises ValueError for a word that is not on offer."""
        for word in words:
            shown = [option.word for option in self._shown]
            if word not in shown:
                raise ValueError(f"No button {word!r} on offer; the buttons are {shown}.")
            self._buttons[shown.index(word)].click()
