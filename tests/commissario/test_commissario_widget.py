"""Commissario's widget and French rendering, driven from Python as a notebook user would.

The leak checks use the actual secret strings: the pick as the engine's log writes it ("secretly picks red
and blue") and as the renderer shows it ("red + blue", "rouge + bleu"), in both languages.
"""

from __future__ import annotations

from tabletop_edu.commissario import Rules, new_game
from tabletop_edu.commissario.bots import GreedyBot
from tabletop_edu.commissario.panel import knowledge_html
from tabletop_edu.commissario.render import state_html, view_html
from tabletop_edu.commissario.widget import play
from tabletop_edu.widgets import OMNISCIENT, GameWidget

SECRETS = {
    0: ["secretly picks red and blue", "red + blue", "choisit en secret rouge et bleu", "rouge + bleu"],
    1: ["secretly picks orange and green", "orange + green", "choisit en secret orange et vert", "orange + vert"],
    2: ["secretly picks yellow and the 2x", "yellow + 2x", "choisit en secret jaune", "jaune + 2x"],
}


def foreign_secrets(seat: int | None) -> list[str]:
    return [secret for other, secrets in SECRETS.items() if other != seat for secret in secrets]


def test_french_rendering_uses_french_names(picked_state) -> None:
    state = picked_state()
    page = view_html(state.view(0), language="fr")
    for word in ("rouge", "jaune", "vert", "bleu", "mauve", "menottes", "ordre du tour 1", "bonus 5", "Manche",
                 "rouge + bleu", "choisit en secret rouge et bleu", "Votre choix secret", "Vue d&#39;Ann"):
        assert word in page, word
    assert "secretly" not in page and "Your secret pick" not in page
    assert "pas de bonus" not in page  # R1.7: every colour has its bonus card by default, purple included
    without = new_game(3, seed=1, rules=Rules(bonus_values="purple_none"))
    assert "pas de bonus" in view_html(without.view(0), language="fr")
    assert "mauve" in state_html(state, language="fr") and "Pioche" in state_html(state, language="fr")


def test_no_foreign_pick_in_either_language_before_and_during_reveals(picked_state) -> None:
    state = picked_state()
    for _ in range(2):  # after the picks, then after the first reveal
        for seat in (None, 0, 1, 2):
            for language in ("en", "fr"):
                page = view_html(state.view(seat), language=language) + knowledge_html(state.view(seat), language)
                assert not any(secret in page for secret in foreign_secrets(seat)), (seat, language)
        first = state.current_player
        state.apply(f"reveal {state.picks[first][0]}", player=first)


def test_knowledge_panel_before_and_after_the_reveals(picked_state) -> None:
    state = picked_state()
    assert "chosen, hidden" in knowledge_html(state.view(1)) and "knows its own pick" in knowledge_html(state.view(1))
    assert "What Bob knows of this round" in knowledge_html(state.view(1))
    assert "What the public knows of this round" in knowledge_html(state.view(None))
    everything = knowledge_html(state)  # the teacher sees what every seat knows, secrets included
    assert "What each player knows of this round" in everything
    assert all(SECRETS[seat][1] in everything for seat in range(3))
    while state.phase == "first_reveal":
        seat = state.current_player
        state.apply(str(state.legal_actions(seat)[0]), player=seat)
    panel = knowledge_html(state.view(1), "fr")  # every seat has shown one commissaire, publicly
    assert "choisi, caché" not in panel and "+ ?" in panel and "(sait lequel)" in panel


def widget(language: str = "en") -> GameWidget:
    return play(["Ann", "Bob", "Cy"], seed=3, seat=0, language=language)


def play_until_pick(w: GameWidget) -> None:
    while w.state.phase == "release":
        w.play_button.click()  # the first legal release: "release none"


def test_default_bots_answer_and_the_simultaneous_pick_is_played_by_click() -> None:
    w = widget()
    assert set(w.bots) == {1, 2}
    play_until_pick(w)
    assert w.state.phase == "pick" and w.state.acting_seats == (0,)  # the bots have already picked, secretly
    page = w.table.value + w.log_panel.value + w.knowledge_panel.value
    bot_picks = {seat: w.state.picks[seat] for seat in (1, 2)}
    assert "has chosen two commissaires" in w.log_panel.value
    for seat, (first, second) in bot_picks.items():
        shown = f"{first} + 2x" if first == second else f"{first} + {second}"
        assert shown not in page  # never on Ann's page
        assert f"secretly picks {first}" not in w.log_panel.value
    w.action_picker.value = "pick green 2x"
    w.play_button.click()
    assert (0, "pick green 2x") in w.state.history
    assert w.state.phase in ("first_reveal", "second_reveal", "release")


def test_hot_seat_pick_and_perspective_changes_hide_each_others_pick() -> None:
    w = play(["Ann", "Bob", "Cy"], seed=4, seat=0, bots={2: GreedyBot()})
    while w.state.phase == "release":
        w.perspective_picker.value = w.state.current_player
        w.play_button.click()
    w.perspective_picker.value = 0
    w.play("pick red blue")
    assert w.state.phase == "pick" and w.state.acting_seats == (1,)
    w.perspective_picker.value = 1
    page = w.table.value + w.log_panel.value + w.knowledge_panel.value
    assert "red + blue" not in page and "secretly picks red and blue" not in page
    assert "Ann has chosen two commissaires" in w.log_panel.value
    w.play("pick orange green")
    w.perspective_picker.value = 0
    page = w.table.value + w.log_panel.value + w.knowledge_panel.value  # Bob has shown one commissaire at most
    assert "orange + green" not in page and "secretly picks orange and green" not in page
    w.perspective_picker.value = OMNISCIENT
    assert "secretly picks red and blue" in w.log_panel.value
    assert "Ann knows" in w.knowledge_panel.value


def test_the_timeline_replays_and_refuses_moves_in_the_past() -> None:
    w = widget()
    play_until_pick(w)
    steps = len(w.state.history)
    w.timeline.value = 0
    assert w.shown_state.history == [] and "releases" not in w.log_panel.value
    w.play("pick red blue")
    assert "earlier step" in w.message.value and len(w.state.history) == steps
    w.timeline.value = w.timeline.max
    assert "releases" in w.log_panel.value


def test_french_widget_labels_and_table() -> None:
    w = widget("fr")
    assert w.play_button.description == "Jouer"
    assert "Manche" in w.table.value and "Pioche" in w.table.value
    assert "Ce que Ann sait des choix de cette manche" in w.knowledge_panel.value
    w.language_picker.value = "en"
    assert "Round" in w.table.value and "What Ann knows of this round&#39;s picks" in w.knowledge_panel.value


def test_watching_bots_play_to_the_end() -> None:
    w = play(2, seed=5, seat=None, bots={0: GreedyBot(), 1: GreedyBot()})
    assert w.state.is_over and "Game over" in w.status.value and "Game over" in w.table.value
