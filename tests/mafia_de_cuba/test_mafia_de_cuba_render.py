"""Rendering: a seat's HTML holds its own secrets and none of the other seats' secrets; the teacher's table
holds them all; the reveal tells every claim against the truth."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from tabletop_edu.core import RandomBot, play_game
from tabletop_edu.mafia_de_cuba import MafiaState, Rules, new_game, role_of
from tabletop_edu.i18n import tr
from tabletop_edu.mafia_de_cuba import render as render_module
from tabletop_edu.mafia_de_cuba.render import event_text, reveal_html, state_html, view_html
from tabletop_edu.mafia_de_cuba.words import diamonds_text, role_word, take_word

BOX_6 = ["hide 2", "set-aside none", "take 3", "take loyal", "take 4", "take fbi", "take driver"]


def quiet(state: MafiaState) -> MafiaState:
    """Free talk: every taker lets the floor go by before the Godfather's move."""
    while state.phase == "floor":
        state.apply_script(["pass"])
    return state


def play(players: int, texts: list[str]) -> MafiaState:
    """Play `texts`, the floor going by in silence before each of the Godfather's questions and accusations."""
    state = new_game(players, seed=0)
    for text in texts:
        if text.split()[0] in ("ask", "accuse"):
            quiet(state)
        state.apply_script([text])
    return state


def private_texts_hidden_from(state: MafiaState, seat: int | None) -> list[str]:
    return [event.text for event in state.events if not event.sees_all(seat)]


def test_each_seat_sees_its_own_secret_and_no_other() -> None:
    state = play(6, BOX_6 + ["ask 2 took", "took 5"])
    pages = {seat: view_html(state.view(seat)) for seat in [None, *range(6)]}
    assert "You hid 2 diamonds." in pages[0] and "The box came back with 6 diamonds, no token." in pages[0]
    assert "You took 3 diamonds." in pages[1] and "So you are: Thief." in pages[1]
    assert "You took a Loyal Henchman token." in pages[2] and "So you are: Loyal Henchman." in pages[2]
    assert "When you opened the box: 10 diamonds; tokens: 1 Loyal Henchman, 1 FBI Agent, 1 Driver." in pages[2]
    for seat, page in pages.items():
        for secret in private_texts_hidden_from(state, seat):
            assert secret not in page, (seat, secret)
        if seat != 0:
            assert "You hid" not in page and "came back" not in page
        if seat in state.takes:
            others = [other for other in range(1, 6) if other != seat]
            assert all(f"You took {take_word(state_take(state, other))}." not in page for other in others
                       if state_take(state, other) != state_take(state, seat))
    assert "Seat 1 takes 3 diamonds." in pages[1]
    assert all("Seat 1 takes 3 diamonds." not in pages[s] for s in (None, 0, 2, 3, 4, 5))
    assert "Teacher only" not in "".join(pages.values())


def state_take(state: MafiaState, seat: int) -> str:
    diamonds, token = state.takes[seat]
    return token or (str(diamonds) if diamonds else "nothing")


def test_the_banner_names_the_question_to_answer() -> None:
    state = play(6, BOX_6 + ["ask 2 took"])
    assert "Seat 2 must answer the Godfather: \u201cWhat did you take?\u201d" in view_html(state.view(None))
    assert "Your turn \u2014 Seat 2 must answer the Godfather" in view_html(state.view(2))
    assert "Seat 2 doit répondre au Parrain : « Qu&#39;as-tu pris ? »" in view_html(state.view(4), language="fr")


@pytest.mark.parametrize("players", [6, 9, 12])
def test_no_private_event_text_leaks_in_random_games(players: int) -> None:
    for seed in range(2):
        state = new_game(players, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            if len(state.history) % 3 == 0:
                for seat in [None, *range(players)]:
                    page = view_html(state.view(seat))
                    for secret in private_texts_hidden_from(state, seat):
                        assert secret not in page
            seat = rng.choice(state.acting_seats)
            legal = state.legal_actions(seat)
            quiet = [action for action in legal if str(action) == "pass" and rng.random() < 0.8]
            state.apply(rng.choice(quiet or legal), player=seat)  # a mostly quiet floor keeps games short


def test_html_is_escaped_and_state_html_is_omniscient() -> None:
    state = new_game(["<b>Vito</b>", "Ann", "Bo", "Cy", "Di", "Ed"], seed=1)
    for text in BOX_6:
        state.apply_script([text])
    page = view_html(state.view(1))
    assert "<b>Vito</b>" not in page and "&lt;b&gt;Vito&lt;/b&gt;" in page
    omniscient = state_html(state)
    assert "Teacher only: the secrets" in omniscient and "Hidden by the Godfather: 2 diamonds" in omniscient
    for seat, take in state.takes.items():
        assert role_word(role_of(take)) in omniscient
    assert state._repr_html_() == omniscient
    play_game(state, [RandomBot()] * 6)
    assert "<b>Vito</b>" not in state_html(state)


# ---------------------------------------------------------------------------------------------- the reveal

def test_the_reveal_checks_every_claim_against_the_truth() -> None:
    """Seat 1 took 3 but says 5 (a lie); seat 2 saw the box truly; seat 3 lies about what it saw."""
    state = play(6, BOX_6 + ["ask 1 took", "took 5", "ask 2 seen", "saw 10 loyal fbi driver", "ask 3 seen",
                             "saw 9 loyal fbi driver", "ask 4 suspect", "suspect 1", "accuse 1"])
    assert not state.is_over
    with pytest.raises(ValueError, match="not over"):
        reveal_html(state)
    while not quiet(state).is_over:
        state.apply_script([f"accuse {state.accusable()[0]}"])
    html = reveal_html(state)
    claims = re.findall(r'<tr class="is-bad"><th scope="row"><span class="tt-name" title="([^"]+)">', html)
    assert sorted(set(claims)) == ["Seat 1", "Seat 3"]
    assert "\u201cI took 5 diamonds.\u201d" in html
    assert "\u201cI saw 9 diamonds; tokens: 1 Loyal Henchman, 1 FBI Agent, 1 Driver.\u201d" in html
    assert html.count("\u2718 LIE") == 2 and html.count("\u2714 true") == 1 and "Seat 1: Thief" in html
    for seat, take in state.takes.items():
        assert take_word(state_take(state, seat)) in html and role_word(role_of(take)) in html
    assert "The Godfather hides 2 diamonds" in html or "the Godfather hides 2 diamonds" in html
    winners = [state.players[seat] for seat in state.winners]
    assert all(f"title=\"{name}\"" in html for name in winners)
    french = reveal_html(state, "fr")
    assert french.count("\u2718 MENSONGE") == 2 and "« J&#39;ai pris 5 diamants. »" in french


def test_r1_2_the_log_and_the_reveal_follow_the_rules_diamonds() -> None:
    """`Rules(diamonds=20)`: the set-up line says 20 (not the rulebook's 15), and the reveal's "saw when opening
    the box" column is rebuilt from 20."""
    state = new_game(6, seed=0, rules=Rules(diamonds=20))
    state.apply_script(["hide 2", "set-aside none", "take 3", "take loyal", "take 4", "take fbi", "take driver"])
    while not quiet(state).is_over:
        state.apply_script([f"accuse {state.accusable()[0]}"])
    assert event_text(state.events[0], state.players).startswith("Seat 0 is the Godfather. The cigar box holds 20 ")
    assert "La boîte à cigares contient 20 diamants" in event_text(state.events[0], state.players, "fr")
    for language in ("en", "fr"):
        html = reveal_html(state, language)
        opened = re.findall(f'<td data-label="{tr("mdc_opened", language)}">([^<]*)</td>', html)
        assert opened[1].startswith(diamonds_text(18, language))  # seat 1 opened the box: 20 - 2 hidden
        assert all(opened[1:]) and opened[0] == tr("mdc_gf_hid", language).format(
            diamonds=diamonds_text(2, language))


def test_r5_3_the_headline_names_the_richest_thief_and_r2_1_no_hidden_diamond_in_french() -> None:
    """R5.3: only the richest living Thief (and the Street Kids) win, not "the Thieves"; the Godfather who hides
    nothing « ne cache aucun diamant »."""
    state = play(6, ["hide 0", "set-aside none", "take 2", "take loyal", "take 5", "take fbi", "take driver"])
    quiet(state).apply("accuse 2")  # a Loyal Henchman, and no joker at six: the Godfather falls
    assert state.outcome == "thieves" and state.winners == (3,)
    english, french = reveal_html(state), reveal_html(state, "fr")
    assert "the Thief still in play who stole the most wins, with every Street Kid" in english
    assert "Thieves win" not in english and "Voleurs gagnent" not in french
    assert "le Voleur encore en jeu qui a volé le plus gagne, avec tous les Enfants des rues" in french
    assert "le Parrain ne cache aucun diamant" in french and "the Godfather hides no diamond" in english


@pytest.mark.parametrize("seed", range(4))
def test_the_reveal_of_random_games_names_every_role_and_the_winners(seed: int) -> None:
    state = new_game(7, seed=seed)
    play_game(state, [RandomBot()] * 7, rng=random.Random(seed))
    for language in ("en", "fr"):
        html = reveal_html(state, language)
        rows = re.findall(r'<th scope="row"><span class="tt-name" title="([^"]+)">[^<]*</span></th><td[^>]*>'
                          r'<span class="tt-tag tt-tag--role">([^<]+)</span>', html)
        roles = {state.players[seat]: role_word(role_of(take), language) for seat, take in state.takes.items()}
        roles[state.players[state.godfather]] = role_word("godfather", language)
        assert dict(rows) == roles
        wins = "WINS: " if language == "en" else "GAGNE : "
        assert html.count(wins) == len(state.winners)


def boxes_of(page: str) -> dict[int, str]:
    """Each seat's box of a table's ring (its classes and what it holds), by seat."""
    ring = page[:page.index('<div class="tt-ring-centre">')]
    boxes = re.split(r'<div class="tt-seat(?=[ "])', ring)[1:]
    return {int(re.search(r'data-seat="(\d+)"', box)[1]): box for box in boxes}


@pytest.mark.parametrize("order", [[None, *range(6)], [5, 4, 3, 2, 1, 0, None]])
def test_the_tables_of_a_step_share_the_public_boxes_and_each_seat_has_its_own(order: list[int | None]) -> None:
    """The seats' public boxes are drawn once for the tables of a step, each seat putting its own in: whichever
    table is drawn first, a seat's own box alone is marked as its own and shows its secret take, and no table
    shows another seat's."""
    state = play(6, BOX_6)
    render_module._public_boxes.clear()
    for seat in order:
        boxes = boxes_of(view_html(state.view(seat)))
        assert sorted(boxes) == list(range(6))
        for number, box in boxes.items():
            assert ("is-me" in box) == (number == seat), (seat, number)
            assert ("tt-tag--secret" in box) == (number == seat and seat in state.takes), (seat, number, box)
    assert render_module._public_boxes  # kept for the next tables


@pytest.mark.parametrize("players", [6, 12])
def test_a_seats_own_box_is_its_public_box_marked_with_its_secret_as_its_ring_draws_it(players: int) -> None:
    """A seat's own box is made from its public box (`_own_box`), not drawn again: at every step of random games
    to their end, for every seat and both languages, it equals the box the whole ring draws for that seat as its
    viewer, its secret take shown (the teacher's way, `_seat_boxes`), through shown takes, the end's and winners."""
    seen: Counter[str] = Counter()
    for seed in range(4):
        state, rng = new_game([f"<i>P{seat}</i>" for seat in range(players)], seed=seed), random.Random(seed)
        while True:
            public = state.view(None)
            for language in ("en", "fr"):
                ring = render_module._public_ring(public, language)
                for place, box in enumerate(ring.boxes):
                    view = state.view(box.number)
                    take = view.facts["my_take"]
                    own = render_module._own_box(box, view.facts, take, language)
                    drawn = render_module._seat_boxes(view, language, {} if take is None else {box.number: take},
                                                      viewer=box.number)[place]
                    assert own == drawn, (seed, len(state.events), box.number, language)
                    assert own.me and not box.me
                    seen["secret"] += any(tag.kind == "secret" for tag in own.tags)
                    seen["shown"] += box.number in view.facts["revealed"]
                    seen["winner"] += box.number in view.facts["winners"]
            if state.is_over:
                break
            seat = state.acting_seats[0]
            state.apply(rng.choice(state.legal_actions(seat)), player=seat)
    assert seen["secret"] and seen["shown"] and seen["winner"], seen


def test_the_tables_of_a_step_are_drawn_around_a_few_kept_frames_and_each_is_the_table_drawn_whole() -> None:
    """The 13 tables of a step of twelve share their frames (a seat's view and the projector's): at every step of
    a game to its end, with hostile names and in both drawing orders, each table is the template drawn whole from
    the same context, and one frame is drawn for a step (a language)."""
    from tabletop_edu import templates
    from tabletop_edu.templates import frames

    state = new_game([f"<b>P{seat}</b> & co" if seat == 4 else f"<i>P{seat}</i>" for seat in range(12)],
                     seed=3)
    rng = random.Random(3)
    perspectives: list[int | None] = [*range(12), None]
    while True:
        for order in (perspectives, perspectives[::-1]):
            frames._frames.clear()
            for seat in order:
                for language in ("en", "fr"):
                    context = render_module._context(state.view(seat), language, log=False)
                    assert view_html(state.view(seat), language, log=False) == \
                        templates.render("mafia_de_cuba/table.html.j2", **context), (len(state.events), seat, language)
            assert len(frames._frames) == 2  # one a language: the seats' and the projector's differ in holes only
        if state.is_over:
            break
        seat = state.acting_seats[0]
        state.apply(rng.choice(state.legal_actions(seat)), player=seat)


@pytest.mark.parametrize(("players", "seed"), [(12, 5), (6, 8)])
def test_the_tables_of_a_step_drawn_from_its_public_view_are_the_tables_drawn_whole(players: int, seed: int) -> None:
    """Given the spectator's view of the step (the class server's), what a step's tables share is drawn once from
    it, and only each table's holes from its own view: at every step of games to their end, with hostile names, in
    both drawing orders and both languages, each table is the template drawn whole from its own view, and a step
    draws one frame (a language) for the seats and the projector."""
    from tabletop_edu import templates
    from tabletop_edu.templates import frames

    state = new_game([f"<b>P{seat}</b> & co" if seat == 4 else f"<i>P{seat}</i>" for seat in range(players)],
                     seed=seed)
    rng = random.Random(seed)
    perspectives: list[int | None] = [*range(players), None]
    steps = 0
    while True:
        public = state.view(None)
        for order in (perspectives, perspectives[::-1]):
            frames._frames.clear()
            for seat in order:
                view = state.view(seat)
                for language in ("en", "fr"):
                    whole = templates.render("mafia_de_cuba/table.html.j2", style=False,
                                             **render_module._context(view, language, log=False))
                    assert view_html(view, language, log=False, style=False, public=public) == whole, \
                        (steps, seat, language)
            assert len(frames._frames) == 2  # a frame a language, for the seats and the projector
        if state.is_over:
            break
        seat = state.acting_seats[0]
        state.apply(rng.choice(state.legal_actions(seat)), player=seat)
        steps += 1
    assert steps > 20


def test_the_steps_of_the_floor_share_their_frame(monkeypatch: pytest.MonkeyPatch) -> None:
    """What was said is a hole of the table: a floor step that only added a statement draws no new frame (the class
    server draws 13 tables a step), and every table is still the one drawn whole, what was said included."""
    from tabletop_edu import templates
    from tabletop_edu.templates import frames

    drawn: list[str] = []
    draw_frame = frames._draw_frame
    monkeypatch.setattr(frames, "_draw_frame", lambda *arguments: drawn.append("frame") or draw_frame(*arguments))
    frames._frames.clear()
    state = new_game([f"<i>P{seat}</i>" for seat in range(12)], seed=3)
    rng = random.Random(3)
    floor_steps = said = 0
    while not state.is_over and floor_steps < 40:
        seat = state.acting_seats[0]
        state.apply(rng.choice(state.legal_actions(seat)), player=seat)
        public = state.view(None)
        if public.facts["phase"] != "floor":
            continue
        floor_steps += 1
        for perspective in (0, 7, None):
            view = state.view(perspective)
            table = view_html(view, "fr", log=False, style=False, public=public)
            assert table == templates.render("mafia_de_cuba/table.html.j2", style=False,
                                             **render_module._context(view, "fr", log=False))
        said = len(public.facts["testimonies"])
    assert floor_steps >= 20 and said >= 10 and len(drawn) < floor_steps / 2, (floor_steps, said, len(drawn))


def test_a_public_view_not_of_the_tables_step_is_refused_and_nothing_is_kept() -> None:
    """The view given as the step's public one must be the spectator's view of the same game at the same step: a
    seat's view, an earlier step's or another table's is refused with a ValueError, and no frame is kept."""
    from tabletop_edu.templates import frames

    state = play(6, BOX_6)
    earlier = state.view(None)
    seat = state.acting_seats[0]
    state.apply(state.legal_actions(seat)[0], player=seat)
    other = new_game([f"Q{number}" for number in range(6)], seed=1)
    view = state.view(2)
    wrong = {"a seat's view": (state.view(1), "spectator's"), "an earlier step's": (earlier, "same step"),
             "another table's": (other.view(None), "same step"), "the view itself": (view, "spectator's")}
    for what, (public, message) in wrong.items():
        frames._frames.clear()
        render_module._step_frames.clear()
        with pytest.raises(ValueError, match=message):
            view_html(view, log=False, public=public)
        assert not frames._frames and not render_module._step_frames, what
    assert view_html(view, log=False, public=state.view(None)) == view_html(view, log=False)


def test_a_floor_step_words_only_its_new_statements(monkeypatch: pytest.MonkeyPatch) -> None:
    """The spectator's log kept from step to step (`SeatLog`) grows at its end: what was said before is not worded
    again at each step of the floor, and the list is still the one worded whole, also for a log of another game."""
    from tabletop_edu.core import SeatLog

    worded: list[int] = []
    said_text = render_module._said_text
    monkeypatch.setattr(render_module, "_said_text", lambda event, *rest: worded.append(event.step) or
                        said_text(event, *rest))
    state = new_game([f"<i>P{seat}</i>" for seat in range(12)], seed=3)
    log, rng = SeatLog(None), random.Random(3)
    steps = 0
    while not state.is_over and steps < 30:
        seat = state.acting_seats[0]
        state.apply(rng.choice(state.legal_actions(seat)), player=seat)
        steps += 1
        public = state.view(None, log)
        lines = render_module._statements(public, "fr")
        worded.clear()
        assert lines == render_module._statements(state.view(None), "fr")  # a fresh log: worded whole
        whole = len(worded)
        assert whole == len(lines)
    assert whole >= 10
    worded.clear()
    seat = state.acting_seats[0]
    state.apply(rng.choice(state.legal_actions(seat)), player=seat)
    render_module._statements(state.view(None, log), "fr")
    assert len(worded) <= 2  # the new step's statements only, not the `whole` said before
    other = new_game([f"<i>P{seat}</i>" for seat in range(12)], seed=4)
    assert render_module._statements(other.view(None, SeatLog(None)), "fr") == \
        render_module._statements(other.view(None), "fr")
