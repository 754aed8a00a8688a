"""Every game's pages through the shared templates: escaping of hostile names, titles for each perspective,
no other seat's secret on a seat's page (table, knowledge panel, never the reveal before the end), the
reveal against the truth, move labels for every legal word, and unknown events worded gracefully."""

from __future__ import annotations

import importlib
import random
import re
from collections.abc import Callable
from dataclasses import replace
from html import escape
from html.parser import HTMLParser
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_edu import commissario, get_adler, mafia_de_cuba
from tabletop_edu.core import Event, GameState, View
from tabletop_edu.rendering import game_renderer, generic_view_html, render_state_html, render_view_html
from tabletop_edu.examples import peek
from tabletop_edu.i18n import tr
from tabletop_edu.moves import labeller, move_step
from tabletop_edu.templates import NAME_LIMIT, display_names, page, page_with, short_name, style_block

LONG = "Bartholomew-" * 40  # 480 characters
HOSTILE = ["<script>alert(1)</script>", "\"onmouseover=alert(1) x=\"", "Chloé", LONG, "Dee & Eve",
           "'><img src=x onerror=alert(2)>", "{{ 7 * 7 }}", "Gus", "Hal", "Ivy", "Jo", "Kim"]
GAMES: dict[str, tuple[ModuleType, int]] = {
    "peek": (peek, 3), "commissario": (commissario, 4), "get_adler": (get_adler, 5),
    "mafia_de_cuba": (mafia_de_cuba, 8)}


def knowledge(game: str) -> Callable[[Any, str], str] | None:
    """The game's knowledge panel, if it has one."""
    if game == "peek":
        return None
    module = importlib.import_module(f"tabletop_edu.{game}.panel")
    return module.knowledge_html  # type: ignore[no-any-return]


def random_game(game: str, seed: int, names: list[str] | None = None,
                stop: Callable[[GameState[Any]], bool] = lambda state: False) -> GameState[Any]:
    module, players = GAMES[game]
    state = module.new_game(names or HOSTILE[:players], seed=seed)
    rng = random.Random(seed)
    while not state.is_over and not stop(state):
        seat = rng.choice(state.acting_seats)
        state.apply(rng.choice(state.legal_actions(seat)), player=seat)
    return state


def steps_of(game: str, seed: int, every: int = 1):  # -> Iterator[GameState]
    """The states of a random game, every `every` steps, ending with the final state."""
    module, players = GAMES[game]
    state = module.new_game(HOSTILE[:players], seed=seed)
    rng = random.Random(seed)
    step = 0
    while not state.is_over:
        if step % every == 0:
            yield state
        seat = rng.choice(state.acting_seats)
        state.apply(rng.choice(state.legal_actions(seat)), player=seat)
        step += 1
    yield state


def pages(state: GameState[Any], language: str, panels: bool = True) -> dict[object, str]:
    """Every perspective's page (with its knowledge panel): the teacher's, the spectator's, each seat's."""
    panel = knowledge(state.game.rsplit(".", 1)[-1]) if panels else None
    found = {"teacher": render_state_html(state, language) + (panel(state, language) if panel else "")}
    for seat in [None, *range(len(state.players))]:
        view = state.view(seat)
        found[seat] = render_view_html(view, language) + (panel(view, language) if panel else "")
    return found


class Elements(HTMLParser):
    """Every start tag and its attributes, and the text inside `.tt-name` and `h2` elements."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []
        self.names: list[str] = []
        self.titles: list[str] = []
        self._in: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))
        classes = dict(attrs).get("class") or ""
        self._in.append("name" if "tt-name" in classes.split() else ("title" if tag == "h2" else ""))
        if self._in[-1] == "name":
            self.names.append("")
        elif self._in[-1] == "title":
            self.titles.append("")

    def handle_endtag(self, tag: str) -> None:
        if self._in:
            self._in.pop()

    def handle_data(self, data: str) -> None:
        if "name" in self._in:
            self.names[-1] += data
        if "title" in self._in:
            self.titles[-1] += data


def without_style(html: str) -> str:
    """A page without its stylesheet (the markers searched for are class names the stylesheet styles)."""
    return re.sub(r"<style>.*?</style>", "", html, flags=re.S)


def parse(html: str) -> Elements:
    elements = Elements()
    elements.feed(html)
    return elements


# ---------------------------------------------------------------------------------------------- escaping

@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("game", list(GAMES))
def test_hostile_names_never_reach_a_page_unescaped(game: str, language: str) -> None:
    """Names typed by students are text everywhere: no script element, no event-handler attribute, no
    template evaluated, long names cut on screen and in tooltips, at every step and at the reveal."""
    reveal = game_renderer(GAMES[game][0].State.game, "reveal_html")
    final = None
    for index, state in enumerate(steps_of(game, seed=3, every=7)):
        final = state
        for perspective, html in pages(state, language, panels=index == 2 or state.is_over).items():
            if state.is_over:
                html += reveal(state, language)
            elements = parse(html)
            assert [tag for tag, _ in elements.tags if tag in ("script", "img", "iframe")] == [], perspective
            for tag, attrs in elements.tags:
                assert not [name for name, _ in attrs if name.startswith("on")], (perspective, tag, attrs)
                assert all(name in ("class", "title", "lang", "value", "data-seat", "data-label", "scope",
                                    "tabindex", "aria-hidden") for name, _ in attrs), \
                    (tag, attrs)  # no style attribute either: one stylesheet, CSP-friendly (and two for readers)
            assert "<script>alert" not in html and "\"onmouseover" not in html and "'><img" not in html
            if len(state.players) > 6:  # template syntax in a name is text, never evaluated
                assert "{{ 7 * 7 }}" in html
            assert LONG not in html and LONG[:200] not in html  # a very long name is cut, tooltip included
            assert all(len(name) <= NAME_LIMIT for name in elements.names), perspective
    assert final is not None and final.is_over


def test_short_names_keep_short_names_and_cut_long_ones() -> None:
    assert short_name("Ann") == "Ann" and short_name("  Ann \n Lee ") == "Ann Lee"
    assert short_name(LONG) == LONG[:NAME_LIMIT - 1] + "\u2026" and len(short_name(LONG)) == NAME_LIMIT
    assert display_names(["Ann", LONG]) == ("Ann", short_name(LONG))


# ---------------------------------------------------------------------------------------------- titles

TITLES = {"en": {"teacher": "Teacher's view: everything", "spectator": "Spectator (public information)",
                 "seat": "{name}'s view"},
          "fr": {"teacher": "Vue de l'enseignant : tout", "spectator": "Spectateur (informations publiques)",
                 "seat": "Vue de {name}"}}
GAME_TITLES = {"peek": "Peek", "commissario": "Commissario", "get_adler": "Get Adler",
               "mafia_de_cuba": "Mafia de Cuba"}


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("game", list(GAMES))
def test_every_page_is_titled_for_its_perspective(game: str, language: str) -> None:
    names = ["Ann", "Bob", "Chloé", "Dee", "Eve", "Fay", "Gus", "Hal"]
    state = random_game(game, seed=5, names=names[:GAMES[game][1]],
                        stop=lambda state: len(state.history) >= 6)
    for perspective, html in pages(state, language).items():
        title = parse(html).titles[0]
        kind = perspective if perspective in ("teacher",) else ("spectator" if perspective is None else "seat")
        who = TITLES[language][kind].format(name=names[perspective] if kind == "seat" else "")
        if language == "fr" and kind == "seat" and names[perspective][0] in "AEIOUÉ":  # French elides "de"
            who = f"Vue d'{names[perspective]}"
        assert title == f"{GAME_TITLES[game]} {who}", (perspective, title)
        for debug in ("seed", "to play: (", "Seat 0: Seat 0", "{'", "[0", "None"):
            assert debug not in html, (perspective, debug)


def test_default_seat_names_are_not_repeated_in_titles() -> None:
    state = peek.new_game(3, seed=0)
    title = parse(render_view_html(state.view(0))).titles[0]
    assert title == "Peek Seat 0's view" and "Seat 0: Seat 0" not in render_view_html(state.view(0))


def test_a_game_without_a_renderer_gets_a_titled_table_of_its_facts() -> None:
    view = View("tabletop_edu.nowhere", 1, ("Ann", "<b>Bob</b>"), 1, False,
                {"known_cards": {0: 3}, "my_card": None, "scores": [1, 2]},
                (Event(0, "deal", "<b>Bob</b> is dealt a card."),))
    html = generic_view_html(view, language="fr")
    assert parse(html).titles == ["Nowhere Vue de <b>Bob</b>"]
    assert "0: 3" in html and "1, 2" in html and "{0: 3}" not in html and "[1, 2]" not in html
    assert "&lt;b&gt;Bob&lt;/b&gt; is dealt a card." in html and "<b>Bob</b>" not in html
    assert html.startswith("<style>")  # drawn with the stylesheet, but for a page that links it (the class server's):
    linked = render_view_html(view, "fr", style=False)
    assert "<style>" not in linked and linked == html.removeprefix(style_block())


# ---------------------------------------------------------------------------------------------- secrets

Worded = dict[tuple[int, str, str], tuple[str, ...]]


def hidden_texts(state: GameState[Any], viewer: int | None, language: str, worded: Worded) -> list[str]:
    """Every event `viewer` did not see in full, worded as a page would word it, raw and escaped (`worded`
    remembers the wording of each event of this game)."""
    event_text = game_renderer(state.game, "event_text")
    names = display_names(state.players)
    texts: list[str] = []
    for event in state.events:
        if event.sees_all(viewer):
            continue
        if event.kind == "character" and getattr(state, "revealed", False) is True:
            continue  # Get Adler: every character is public once Adler is arrested
        key = (event.step, event.kind, event.text)
        if key not in worded:
            both = (event.text, event_text(event, names, language))
            worded[key] = (*both, *(str(escape(text)) for text in both))
        texts += worded[key]
    return texts


REVEAL_MARKERS = {language: [tr("tt.reveal", language), "-reveal", tr("tt.lie", language), tr("tt.liar", language),
                             "tt-teacher"] for language in ("en", "fr")}


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("game", list(GAMES))
def test_no_seat_page_holds_another_seats_secret_at_any_step(game: str, language: str) -> None:
    """Table and knowledge panel of each seat and of the spectator, at every step of random games: no text
    of an event they did not see, no teacher panel, and nothing of the reveal before the end (the reveal
    itself is refused before the end)."""
    module, _ = GAMES[game]
    reveal = game_renderer(module.State.game, "reveal_html")
    panel = knowledge(game)
    for seed in (1, 2) if game == "peek" else (1,):
        worded: Worded = {}
        for index, state in enumerate(steps_of(game, seed=seed, every=2)):
            with_panel = panel is not None and (index % 3 == 0 or state.is_over)  # panels cost more: 1 in 3
            public = state.view(None)
            for viewer in [None, *range(len(state.players))]:
                view = state.view(viewer)
                html = without_style(render_view_html(view, language) + (panel(view, language) if with_panel else "")
                                     + render_view_html(view, language, log=False, public=public))  # a class page's
                for secret in hidden_texts(state, viewer, language, worded):
                    assert secret not in html, (viewer, secret)
                if not state.is_over:
                    assert not any(marker in html for marker in REVEAL_MARKERS[language]), viewer
            if not state.is_over:
                with pytest.raises(ValueError, match="not over"):
                    reveal(state, language)


# ---------------------------------------------------------------------------------------------- move labels

@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("game", list(GAMES))
def test_move_labels_cover_every_legal_word_with_names_not_numbers(game: str, language: str) -> None:
    """Every word of every legal move gets a label in the language: verbs are sentences (never the notation
    word), seats are players' names, and no label is a bare number."""
    module, players = GAMES[game]
    names = ["Ann", "Bob", "Chloé", "Dee", "Eve", "Fay", "Gus", "Hal"][:players]
    state = module.new_game(names, seed=11)
    rng = random.Random(11)
    verbs_seen: set[str] = set()
    while not state.is_over:
        seat = rng.choice(state.acting_seats)
        legal = [str(action) for action in state.legal_actions(seat)]
        view = state.view(seat)
        label = labeller(view, language)
        stack: list[tuple[str, ...]] = [()]
        while stack:
            step = move_step(legal, stack.pop(), label)
            for option in step.options:
                path = (*step.chosen, option.word)
                assert option.label.strip() and not re.fullmatch(r"[\d\s+-]+", option.label), (path, option.label)
                if len(path) == 1:
                    verbs_seen.add(option.word)
                    assert option.label != option.word, (path, option.label)
                if option.word.isdigit() and any(option.label == short_name(name) for name in names):
                    assert option.label == short_name(names[int(option.word)]), path
                if option.action is None:
                    stack.append(path)
        state.apply(rng.choice(legal), player=seat)
    assert len(verbs_seen) >= 2


@pytest.mark.parametrize(("game", "path", "english", "french"), [
    ("peek", ("guess", "1"), "Bob", "Bob"), ("peek", ("guess", "1", "4"), "the 4", "le 4"),
    ("mafia_de_cuba", ("ask",), "Ask a question", "Poser une question"),
    ("mafia_de_cuba", ("ask", "2"), "Chloé", "Chloé"),
    ("mafia_de_cuba", ("ask", "2", "took"), "What did you take?", "Qu'as-tu pris ?"),
    ("mafia_de_cuba", ("take", "3"), "3 diamonds", "3 diamants"),
    ("mafia_de_cuba", ("take", "1"), "1 diamond", "1 diamant"),
    ("mafia_de_cuba", ("take", "driver"), "Driver token", "jeton Chauffeur"),
    ("mafia_de_cuba", ("saw", "4", "fbi"), "FBI Agent", "Agent du FBI"),
    ("get_adler", ("ask",), "Ask a question", "Poser une question"),
    ("get_adler", ("ask", "2"), "Chloé", "Chloé"), ("get_adler", ("ask", "2", "hat"), "hat", "chapeau"),
    ("get_adler", ("ask", "2", "hair", "black"), "black hair", "cheveux noirs"),
    ("get_adler", ("binoculars", "1", "give"), "Give a card", "Donner une carte"),
    ("get_adler", ("give", "bomb"), "bomb", "bombe"),
    ("commissario", ("pick", "red", "2x"), "the 2x card (twice red)", "la carte 2x (deux fois rouge)"),
    ("commissario", ("release", "red-3"), "red \u22123", "rouge \u22123"),
    ("commissario", ("reveal", "purple"), "purple commissaire", "commissaire mauve"),
])
def test_move_labels_in_words(game: str, path: tuple[str, ...], english: str, french: str) -> None:
    module, players = GAMES[game]
    state = module.new_game(["Ann", "Bob", "Chloé", "Dee", "Eve", "Fay", "Gus", "Hal"][:players], seed=1)
    move_label = game_renderer(state.game, "move_label")
    assert move_label(state.view(0), path, "en") == english
    assert move_label(state.view(0), path, "fr") == french


def test_the_answer_button_says_which_question() -> None:
    state = get_adler.new_game(["Ann", "Bob", "Chloé", "Dee"], seed=1)
    while "question" not in state.hands[state.current_player]:
        state.apply(f"discard {sorted(state.hands[state.current_player])[0]}")
    asker = state.current_player
    target = (asker + 1) % 4
    state.apply(f"ask {target} eyes green")
    move_label = game_renderer(state.game, "move_label")
    assert move_label(state.view(target), ("answer",), "en") == "Answer \u201cDo you have green eyes?\u201d"
    assert move_label(state.view(target), ("answer",), "fr") == "Répondre à « As-tu les yeux verts ? »"
    page = render_view_html(state.view(None), "en")
    names = ["Ann", "Bob", "Chloé", "Dee"]
    assert f"{names[target]} must answer {names[asker]}: \u201cDo you have green eyes?\u201d" in page


# ---------------------------------------------------------------------------------------------- events

@pytest.mark.parametrize("game", list(GAMES))
def test_unknown_or_reshaped_events_keep_their_english_text(game: str) -> None:
    """Engines gain new events while renderers catch up: an unknown kind, or a known kind whose details
    changed, is shown with the engine's own (escaped) text rather than breaking the page."""
    event_text = game_renderer(GAMES[game][0].State.game, "event_text")
    names = ("Ann", "Bob", "Chloé", "Dee", "Eve", "Fay", "Gus", "Hal")
    novel = Event(3, "volunteer", "Bob volunteers: <i>I saw 4</i>.", actor=1, data={"claim": "saw 4"})
    reshaped = Event(3, "guess" if game == "peek" else "reveal", "Bob shows.", actor=1, data={"new": 1})
    for language in ("en", "fr"):
        assert event_text(novel, names, language) == novel.text
        assert event_text(reshaped, names, language) == reshaped.text
    state = GAMES[game][0].new_game(list(names[:GAMES[game][1]]), seed=0)
    state.events.append(novel._replace(step=len(state.history)))
    for language in ("en", "fr"):
        html = render_state_html(state, language)
        assert "Bob volunteers: &lt;i&gt;I saw 4&lt;/i&gt;." in html and "<i>I saw" not in html


def test_french_elides_before_a_vowel_and_agrees_in_number() -> None:
    from tabletop_edu.templates import elide

    assert elide("de", "Ann") == "d'Ann" and elide("de", "Émile") == "d'Émile" and elide("de", "Bob") == "de Bob"
    assert elide("que", "Ivy") == "qu'Ivy"
    peek_text = game_renderer(peek.State.game, "event_text")
    assert peek_text(Event(1, "peek", "", actor=1, data={"target": 0}), ("Ann", "Bob"), "fr") == \
        "Bob regarde la carte d'Ann."
    assert peek_text(Event(1, "guess", "", actor=0, data={"target": 1, "value": 3, "right": False}),
                     ("Ann", "Eve"), "fr") == "Ann devine qu'Eve a le 3 : faux."
    mafia_text = game_renderer(mafia_de_cuba.State.game, "event_text")
    final = Event(9, "final-reveal", "", data={"takes": {1: "2", 2: "loyal"}, "hidden": 1, "set_aside": None,
                                               "winners": [0, 2]})
    assert mafia_text(final, ("Vito", "Ann", "Bob"), "fr") == (
        "Tout le monde montre sa prise : Ann : 2 diamants ; Bob : un jeton Fidèle. Le Parrain avait caché "
        "1 diamant ; écarté : rien. Vainqueurs : Vito et Bob.")
    assert mafia_text(final, ("Vito", "Ann", "Bob"), "en") == (
        "Everyone shows what they took: Ann: 2 diamonds; Bob: a Loyal Henchman token. The Godfather had hidden "
        "1 diamond; set aside: nothing. Winners: Vito and Bob.")


@pytest.mark.parametrize("game", ["commissario", "get_adler", "mafia_de_cuba"])
def test_a_phase_the_renderer_does_not_know_yet_shows_its_engine_name(game: str) -> None:
    """Engines gain phases (free talk in Mafia de Cuba, the binoculars' give step in Get Adler) before their
    renderers word them: the page shows the engine's name for the phase, never a translation key."""
    from dataclasses import replace

    state = random_game(game, seed=2, names=["Ann", "Bob", "Chloé", "Dee", "Eve", "Fay", "Gus", "Hal"][
        :GAMES[game][1]], stop=lambda state: len(state.history) >= 8)
    view = state.view(1)
    novel = replace(view, facts={**view.facts, "phase": "volunteer"})
    for language in ("en", "fr"):
        html = without_style(render_view_html(novel, language))
        assert "volunteer" in html and "phase_" not in html and "phase." not in html and "_do_" not in html


KEY_CHECK = r"""
import re, sys
from tabletop_edu.{game}.{module} import knowledge_html
from tabletop_edu.{game} import new_game
state = new_game({players}, seed=1)
html = knowledge_html(state.view(0), "fr") + knowledge_html(state, "fr")
text = re.sub(r"<style>.*?</style>|<[^>]+>", " ", html, flags=re.S)
keys = re.findall(r"\b(?:adler|mdc|cm|peek|tt)[._][a-z_.]+", text)
print(keys)
sys.exit(1 if keys else 0)
"""


@pytest.mark.parametrize(("game", "module", "players"), [
    ("get_adler", "panel", 4), ("mafia_de_cuba", "panel", 6), ("commissario", "panel", 3)])
def test_a_knowledge_panel_imported_alone_shows_words_not_keys(game: str, module: str, players: int) -> None:
    """A fresh interpreter that imports only a game's knowledge panel still finds every word it shows (the
    words are registered by the game's `words` module, which the panel must import)."""
    import subprocess
    import sys

    code = KEY_CHECK.format(game=game, module=module, players=players)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_seat_drawn_once_is_the_seat_the_macro_draws_and_each_look_is_its_own() -> None:
    """`seat_html` keeps each seat's box it drew (a class's 13 tables show the same seats at every step): what it
    hands back is what the `seat` macro draws for exactly those arguments, escaped the same, and a look that
    differs in anything (the viewer's seat, the ring's place, "you" given as markup) is drawn on its own."""
    from markupsafe import Markup

    from tabletop_edu.templates import Card, SeatBox, Tag, environment, seat_html

    macro = environment().get_template("macros.html.j2").module.seat
    hostile = SeatBox(3, "<b>Ann</b>&co", tags=(Tag("<i>", "bad"),), cards=(Card("7", note="<x>"),), turn=True,
                      lines=("a < b",))
    looks = [(hostile, "you", ""), (hostile, "you", "tt-at-3"), (replace(hostile, me=True), "you", ""),
             (replace(hostile, me=True), Markup("<em>you</em>"), ""), (replace(hostile, me=True), "<em>you</em>", "")]
    for box, you, extra in looks * 2:  # the second time from what was kept
        assert seat_html(box, you, extra) == str(macro(box, you, extra))
    assert "<b>Ann" not in seat_html(hostile, "you") and "&lt;b&gt;Ann" in seat_html(hostile, "you")
    mine = replace(hostile, me=True)  # "you" is shown on the viewer's own seat
    assert "<em>you</em>" in seat_html(mine, Markup("<em>you</em>"))
    assert "<em>you</em>" not in seat_html(mine, "<em>you</em>") and "&lt;em&gt;you" in seat_html(mine, "<em>you</em>")
    as_mapping = {"number": 1, "name": "Bo", "tags": [], "cards": [], "turn": False, "me": False, "out": False,
                  "role": "", "lines": []}
    assert seat_html(as_mapping, "you") == str(macro(as_mapping, "you"))  # cannot be kept: drawn each time


def test_list_items_drawn_once_are_the_items_the_template_loop_draws() -> None:
    """`list_items_html` (what was said, drawn once for the 13 tables of a step) escapes each line as the template's
    own loop does, and hands the same drawing back for the same lines."""
    from tabletop_edu.templates import environment, list_items_html

    loop = environment().from_string("{% for line in lines %}<li>{{ line }}</li>{% endfor %}")
    lines = ("Ann says: « <b>saw</b> 3 & more »", "Bo's \"silence\"", "")
    assert list_items_html(lines) == loop.render(lines=lines)
    assert "<b>" not in list_items_html(lines) and "&lt;b&gt;saw" in list_items_html(lines)
    assert list_items_html(tuple(list(lines))) is list_items_html(lines)  # kept, not drawn again
    assert list_items_html(()) == ""


def test_a_ring_drawn_in_one_call_is_the_ring_of_the_seats_drawn_one_by_one() -> None:
    from markupsafe import Markup

    from tabletop_edu.templates import SeatBox, ring_seats_html, seat_html

    boxes = [SeatBox(seat, f"<b>{seat}</b>", me=seat == 1) for seat in range(3)]
    drawn = ring_seats_html(boxes, "you")
    assert isinstance(drawn, Markup) and drawn == "".join(seat_html(box, "you", f"tt-at-{n}") for n, box in
                                                          enumerate(boxes))
    assert [f'tt-at-{n}"' in drawn for n in range(4)] == [True, True, True, False] and "<b>0" not in drawn


# ---------------------------------------------------------------------------------------------- kept frames

def framed_context(who: str, banner: str, statements: tuple[str, ...], ring: str, secrets: str,
                   facts: str = "Phase", box: str = "box", kind: str = "turn") -> dict[str, Any]:
    """A context for Mafia de Cuba's table template with whose view, the ring's seats and the secrets in holes."""
    from markupsafe import Markup

    from tabletop_edu.templates import Banner, Hole, Words, banner_html, list_items_html, page

    table = page("mafia", "<Mafia>", 1, ["Ann", "Bo"], "en")
    table.who = Hole(escape(who))
    table.banner = Hole(banner_html(Banner(banner, kind))) if kind == "mine" else Banner(banner, kind)  # drawn, or not
    table.facts = [(facts, "1")]
    return {"page": table, "t": Words("en"), "you": "you", "ring_size": 2, "seats_drawn": Hole(ring),
            "box_lines": [box], "secrets_html": Hole(secrets), "teacher": None,
            "statements_html": Markup(f"<ol>{list_items_html(statements)}</ol>") if statements else  # not a hole
            Markup('<p class="tt-note">Nobody has said anything yet.</p>')}


TEXTS = st.sampled_from(["Ann", "<b>Bo</b> & co", "", "\x000\x00", "« é »", "\U0001F600"])


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(TEXTS, TEXTS, st.lists(TEXTS, max_size=3), TEXTS, TEXTS, TEXTS, TEXTS,
                          st.sampled_from(["turn", "mine"])), min_size=1, max_size=6))
def test_a_table_drawn_around_kept_holes_is_the_table_drawn_whole(contexts: list[tuple[Any, ...]]) -> None:
    """`render_framed` keeps the frame around a table's holes by all the rest of its context: for any sequence of
    tables (texts from a small set, so that frames are met again; hostile markup; a text holding a hole's own
    mark), each is exactly the template drawn whole, both as a page and without its stylesheet."""
    from tabletop_edu.templates import render, render_framed

    for who, banner, statements, ring, secrets, facts, box, kind in contexts:
        for style in (True, False):
            context = framed_context(who, banner, tuple(statements), ring, secrets, facts, box, kind)
            assert render_framed("mafia_de_cuba/table.html.j2", style=style, **context) == \
                render("mafia_de_cuba/table.html.j2", style=style, **context)


def test_tables_that_differ_only_in_their_holes_share_one_frame() -> None:
    from tabletop_edu import templates
    from tabletop_edu.templates import frames

    frames._frames.clear()
    for who in ("Ann", "Bo", "<Cy>"):
        templates.render_framed("mafia_de_cuba/table.html.j2", **framed_context(who, "turn", ("a",), who, who))
    assert len(frames._frames) == 1
    templates.render_framed("mafia_de_cuba/table.html.j2", **framed_context("Ann", "turn", ("a", "b"), "", ""))
    assert len(frames._frames) == 2  # what was said is not a hole: another frame
    templates.render_framed("mafia_de_cuba/table.html.j2", **framed_context("\x000\x00", "turn", (), "", ""))
    templates.render_framed("mafia_de_cuba/table.html.j2", **framed_context("A", "\x000\x00", (), "", ""))
    assert len(frames._frames) == 3  # a mark in a hole is its own business; in the frame, drawn whole, not kept


def test_a_text_and_the_same_markup_are_two_frames() -> None:
    """`Markup("<em>you</em>")` equals the text "<em>you</em>", but one is drawn as it is and the other escaped."""
    from markupsafe import Markup

    from tabletop_edu import templates

    drawn = []
    for you in ("<em>you</em>", Markup("<em>you</em>"), "<em>you</em>"):
        context = framed_context("Ann", "turn", (), "", "")
        context["box_lines"] = [you]
        drawn.append(templates.render_framed("mafia_de_cuba/table.html.j2", **context))
        assert drawn[-1] == templates.render("mafia_de_cuba/table.html.j2", **context)
    assert "<p><em>you</em></p>" in drawn[1] and "<p><em>you</em></p>" not in drawn[0] and drawn[0] == drawn[2]


@pytest.mark.parametrize("value", [lambda key: key, object(), len, [object()]])
def test_a_frame_is_never_kept_by_what_only_its_identity_names(value: Any) -> None:
    """A function or a plain object in a context could change while its frame is kept: refused, in words."""
    from tabletop_edu import templates
    from tabletop_edu.templates import frames

    frames._frames.clear()
    context = framed_context("Ann", "turn", (), "", "")
    context["t"] = value
    with pytest.raises(TypeError, match="a frame cannot be kept by"):
        templates.render_framed("mafia_de_cuba/table.html.j2", **context)
    assert not frames._frames


def test_a_frame_kept_by_a_given_key_takes_the_holes_of_each_table_and_no_other_count() -> None:
    """A caller that gives the frame's key (`frame_key`: Mafia de Cuba's step) draws every table of that key with
    its own holes put in; a context with another number of holes under the same key is refused, in words."""
    from tabletop_edu import templates
    from tabletop_edu.templates import frames

    frames._frames.clear()
    key = object()
    for who in ("Ann", "<b>Bo</b>"):
        context = framed_context(who, "mine", ("a",), f"ring of {who}", f"secret of {who}", kind="mine")
        assert templates.render_framed("mafia_de_cuba/table.html.j2", frame_key=key, **context) == \
            templates.render("mafia_de_cuba/table.html.j2", **context)
    assert len(frames._frames) == 1
    fewer = framed_context("Cy", "turn", ("a",), "ring", "secret")  # its banner is not a hole
    with pytest.raises(ValueError, match="A frame with 4 holes was given 3"):
        templates.render_framed("mafia_de_cuba/table.html.j2", frame_key=key, **fewer)
    assert len(frames._frames) == 1


def test_a_page_copied_with_changes_is_the_page_replace_makes_and_leaves_the_first_alone() -> None:
    first = page("mafia", "Mafia de Cuba", 2, ["Ann", "Bob", "Chloé"], "fr")
    first.facts = [("Phase", "floor")]
    copied = page_with(first, who="Vue de Bob", banner=None)
    assert copied == replace(first, who="Vue de Bob", banner=None) and copied is not first
    copied.perspective = "spectator"
    assert first.perspective == "seat" and first.who == "Vue de Chloé"  # the step's page is not changed
    with pytest.raises(TypeError, match="A page has no field whom"):  # a misspelt field, as `replace` refuses it
        page_with(first, whom="Vue de Bob")
