"""Pass-and-play, played to the end by clicking its own buttons: at every privacy screen no seat's private text
is anywhere in the widget's HTML, the right name is called to the screen, and a seat's hand shows only to it.

A seat's private text is found, at the moment of the check, from the seat's own page: every text of its view
and log that the spectator's view and log (the public table) do not have, such as "You are Gold.", its cards,
"When you opened the box: 13 diamonds", "Your secret pick"."""

from __future__ import annotations

import html
import random
import re
from typing import Any

import ipywidgets as widgets
import pytest

from tabletop_edu.core import GameState, RandomBot
from tabletop_edu.registry import UnknownGame
from tabletop_edu.widgets import PassAndPlay, pass_and_play
from tabletop_edu.widgets.panels import log_html, perspective_html
from tabletop_edu.widgets.pass_and_play import LOOKING, OVER, PASSING

TABLES = {"commissario": ["Ana", "Ben", "Chloé"], "get_adler": ["Ana", "Ben", "Chloé", "Dan"],
          "mafia_de_cuba": ["Ana", "Ben", "Chloé", "Dan", "Eli", "Fay"]}
GENERIC = {"you", "vous"}  # short words every seat's own page has, secret to nobody


def texts(page: str) -> set[str]:
    """The texts of an HTML page, one per run between tags, unescaped and stripped."""
    return {text for text in (html.unescape(part).strip() for part in re.split(r"<[^>]*>", page)) if text}


def own_page(state: GameState[Any], seat: int | None, language: str) -> str:
    return perspective_html(state, seat, language, log=False) + log_html(state, seat, language)


def private_texts(state: GameState[Any], seat: int, language: str) -> set[str]:
    """What seat `seat`'s page says that the public table does not say, in a text of its own or inside one
    ("Dan is Sharpe." is public once "Characters revealed: ..., Dan is Sharpe." is in the public log)."""
    public = own_page(state, None, language)
    found = texts(own_page(state, seat, language)) - texts(public)
    public_text = html.unescape(public)
    return {text for text in found if len(text) >= 3 and text.lower() not in GENERIC and text not in public_text}


def strings_of(widget: widgets.Widget) -> list[str]:
    """Every text a widget and its children send to the page (each synced trait: values, labels, tooltips,
    options), shown or hidden."""
    found: list[str] = []
    for value in widget.get_state().values():
        items = value if isinstance(value, (list, tuple)) else [value]
        found.extend(item for item in items if isinstance(item, str) and not item.startswith("IPY_MODEL_"))
    for child in (widget.children if isinstance(widget, widgets.Box) else ()):
        found.extend(strings_of(child))
    return found


def leaked(widget: PassAndPlay, secrets: set[str]) -> set[str]:
    """The secrets found in the widget: as a whole text of a page, or inside one when long enough to be no
    word of the public table by chance."""
    strings = strings_of(widget)
    whole = set().union(*(texts(string) for string in strings))
    everything = html.unescape("\n".join(strings))
    return {secret for secret in secrets if secret in whole or (len(secret) >= 15 and secret in everything)}


def check_privacy_screen(widget: PassAndPlay, names: list[str], words: dict[str, str]) -> set[str]:
    """Check the privacy screen; return every secret it was checked against."""
    state, language, seat = widget.state, widget.language, widget.to_move
    assert widget.mode == PASSING and seat is not None and widget.seat == seat
    name = names[seat]
    assert widget.pass_heading.value == f"{words['pass']} {name}"
    assert widget.reveal_button.description.startswith(f"{words['i_am']} {name} — ")
    assert widget.private_screen.layout.display == "none" and widget.pass_screen.layout.display is None
    checked: set[str] = set()
    for other in range(len(names)):
        secrets = private_texts(state, other, language)
        assert not leaked(widget, secrets), (names[other], leaked(widget, secrets))
        checked |= secrets
    return checked


def check_own_screen(widget: PassAndPlay, names: list[str]) -> None:
    """The seat looking sees its own page, and nothing another seat alone knows."""
    state, language, seat = widget.state, widget.language, widget.seat
    assert widget.mode == LOOKING and seat is not None
    mine = texts(own_page(state, seat, language))
    assert private_texts(state, seat, language) <= leaked(widget, private_texts(state, seat, language))
    for other in set(range(len(names))) - {seat}:
        theirs = private_texts(state, other, language) - mine
        assert not leaked(widget, theirs), (names[seat], names[other], leaked(widget, theirs))


def click_a_move(widget: PassAndPlay, rng: random.Random) -> None:
    """Click word buttons (or "Play this move") at random until a move is played."""
    steps = len(widget.state.history)
    for _ in range(20):
        picker = widget.moves
        can_play = picker.play_this_button.layout.display is None and not picker.play_this_button.disabled
        buttons = picker.option_buttons
        if can_play and (not buttons or rng.random() < 0.5):
            picker.play_this_button.click()
        else:
            rng.choice(buttons).click()
        if len(widget.state.history) > steps:
            return
    raise AssertionError("No move after 20 clicks.")


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("game", sorted(TABLES))
def test_a_game_played_to_the_end_never_leaves_a_hand_in_the_page(game: str, language: str) -> None:
    names = TABLES[game]
    words = {"en": {"pass": "Pass to", "i_am": "I am"}, "fr": {"pass": "Passez à", "i_am": "Je suis"}}[language]
    widget = pass_and_play(game, names, seed=4, language=language)
    rng = random.Random(f"{game}-{language}")
    screens, secrets = 0, set()
    while widget.mode != OVER:
        secrets |= check_privacy_screen(widget, names, words)
        screens += 1
        seat = widget.seat
        if screens % 7 == 0:  # now and then a seat looks, then hides its hand again without moving
            widget.reveal_button.click()
            widget.hide_button.click()
            assert widget.mode == PASSING and widget.seat == seat
            check_privacy_screen(widget, names, words)
        widget.reveal_button.click()
        check_own_screen(widget, names)
        while widget.mode == LOOKING:
            click_a_move(widget, rng)
            if widget.mode == LOOKING:
                assert widget.seat == seat  # the same seat goes on
                check_own_screen(widget, names)
        assert screens < widget.state.max_steps
    assert widget.state.is_over and widget.end_panel.layout.display is None and widget.end_panel.value
    assert screens >= len(names) and len(secrets) >= 2 * len(names)  # the checks had secrets to look for
    assert widget.pass_heading.value == "" and widget.reveal_button.disabled and widget.private_table.value == ""


def test_the_check_has_teeth_a_private_table_left_behind_is_found() -> None:
    widget = pass_and_play("get_adler", TABLES["get_adler"], seed=2)
    widget.reveal_button.click()
    widget.private_screen.layout.display = "none"  # hidden, yet still in the page
    assert {"Ana is Adler.", "MAGNIFYING GLASS"} <= leaked(widget, private_texts(widget.state, 0, "en"))


def test_the_public_table_is_the_spectators_view_and_the_static_picture_shows_only_it() -> None:
    widget = pass_and_play("get_adler", TABLES["get_adler"], seed=2)
    state = widget.state
    assert widget.public_table.value == perspective_html(state, None, "en", log=False)
    widget.reveal_button.click()
    assert widget.public_box.layout.display == "none"
    assert "You are" in widget.private_table.value and "Ana&#x27;s screen" in widget.private_heading.value
    static = widget._repr_mimebundle_()["text/html"]
    assert not texts(static) & private_texts(state, 0, "en")
    assert repr(widget) == "<PassAndPlay: Get Adler, 4 players, looking (Ana), step 0>"


def test_french_words_and_a_language_switch_behind_the_privacy_screen() -> None:
    widget = pass_and_play("mafia_de_cuba", TABLES["mafia_de_cuba"], seed=1, language="fr")
    assert widget.pass_heading.value == "Passez à Ana"
    assert widget.reveal_button.description == "Je suis Ana — montrer mon jeu"
    assert widget.pass_hint.value == "Les autres regardent ailleurs : le bouton est pour Ana seulement."
    widget.reveal_button.click()
    assert widget.hide_button.description == "Cacher mon jeu" and widget.private_heading.value == "Écran de Ana : pour ses yeux seulement"
    widget.set_language("en")
    assert widget.hide_button.description == "Hide my hand" and widget.moves.option_buttons
    widget.hide_button.click()
    assert widget.pass_heading.value == "Pass to Ana" and not widget.hide_button.description.strip()


def test_bots_play_their_seats_on_the_public_screen_and_people_are_called_in_turn() -> None:
    widget = pass_and_play("commissario", TABLES["commissario"], seed=3, bots={1: RandomBot(), 2: RandomBot()})
    rng = random.Random(5)
    while widget.mode != OVER:
        assert widget.seat == 0 and widget.pass_heading.value == "Pass to Ana"
        widget.reveal_button.click()
        while widget.mode == LOOKING:
            click_a_move(widget, rng)
    assert widget.state.is_over


def test_an_illegal_move_is_refused_in_the_screen_and_nothing_is_played_by_a_hidden_seat() -> None:
    widget = pass_and_play("commissario", TABLES["commissario"], seed=3)
    widget.play(str(widget.state.legal_actions(widget.seat)[0]))
    assert widget.state.history == []  # the hand is hidden: no move
    widget.reveal_button.click()
    widget.play("release nobody-at-all")
    assert widget.state.history == [] and "tabletop-error" in widget.message.value
    widget.hide_button.click()
    assert widget.message.value == ""


@pytest.mark.parametrize(("call", "message"), [
    (lambda: pass_and_play("chess"), "There is no game 'chess'; installed games: .*commissario"),
    (lambda: pass_and_play("mafia_de_cuba", 3), "Mafia de Cuba is played by 6 to 12 players, not 3"),
    (lambda: pass_and_play("get_adler", ["Ana", "Ben"]), "Get Adler is played by 4 to 6 players"),
    (lambda: pass_and_play("commissario", True), "Commissario is played by 2 to 5 players, not True"),
    (lambda: pass_and_play("commissario", ["Ana", "Ana", "Ben"]), "Each player needs a name of their own"),
    (lambda: pass_and_play("commissario", 3, language="de"), "Language 'de' is not available"),
    (lambda: pass_and_play("commissario", 3, size=90), "size is one of"),
    (lambda: pass_and_play("commissario", 2, bots={0: RandomBot(), 1: RandomBot()}), "at least one person"),
    (lambda: pass_and_play("commissario", 2, bots={5: RandomBot()}), r"bots names seats \[5\]"),
])
def test_bad_input_is_refused_with_a_clear_error(call: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()


def test_an_unknown_game_is_the_registrys_error() -> None:
    with pytest.raises(UnknownGame):
        pass_and_play("chess")
