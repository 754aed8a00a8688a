"""Class play without friction (issue 20): a student who closed the tab gets their seat back, French pages say
everything in French, any printable name (emoji with skin tones and joiners) is welcome, and the dashboard of
an empty room says it waits for students."""

from __future__ import annotations

import html
import http.cookiejar
import re
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from tabletop_edu import classroom
from tabletop_edu.classroom import ClassServer, TeacherClient
from tabletop_edu.classroom.pages import REFUSALS, UNKNOWN_REFUSAL_FR, lobby_html, refusal_text, status_text
from tabletop_edu.classroom.hall import Hall
from tabletop_edu.classroom.rooms import (MAX_NAME, MAX_NAME_CODE_POINTS, MAX_NAME_UTF16, Refused, clean_name,
                                          name_length)
from tabletop_edu.classroom.store import Store
from tabletop_edu.classroom.testing import Student, altered, run_now

#: English words no French page or refusal may hold.
ENGLISH = re.compile(r"\b(the|is|your|you|please|seat|room|ask|teacher|waiting|join|taken|full|link|expired|"
                     r"closed|not|bot|playing|move|turn|game|sorry|name|pick|again|this|lets|floor|by)\b",
                     re.IGNORECASE)


def english_words(text: str) -> list[str]:
    return ENGLISH.findall(text)


class Browser:
    """A browser without a script: a cookie jar (the form's XSRF cookie) and the pages it gets."""

    def __init__(self) -> None:
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def get(self, url: str) -> tuple[int, str, str]:
        return self._open(urllib.request.Request(url))

    def post(self, url: str, form: dict[str, str], page: str) -> tuple[int, str, str]:
        """Post `form` as the form of `page` (a page this browser got) would, with its XSRF token."""
        xsrf = re.search(r'name="_xsrf" value="([^"]+)"', page)
        assert xsrf is not None, "the form carries its XSRF token"
        body = urllib.parse.urlencode({"_xsrf": html.unescape(xsrf.group(1)), **form}).encode()
        return self._open(urllib.request.Request(url, data=body))

    def _open(self, request: urllib.request.Request) -> tuple[int, str, str]:
        """(status, final address, body); redirects are followed, as a browser does."""
        try:
            with self.opener.open(request, timeout=10) as response:
                return int(response.status), response.url, response.read().decode("utf-8")
        except urllib.error.HTTPError as error:
            return int(error.code), error.url, error.read().decode("utf-8")


def page_text(page: str) -> str:
    """What a person reads on a page: its text, without markup, scripts, or the language switcher."""
    body = re.sub(r"<script.*?</script>|<nav.*?</nav>|<style.*?</style>", " ", page, flags=re.DOTALL)
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


# ------------------------------------------------------------------------------ back to one's seat


def join(browser: Browser, server: ClassServer, code: str, name: str, kept: str = "",
         lang: str = "") -> tuple[int, str, str]:
    query = f"?lang={lang}" if lang else ""
    _, _, form = browser.get(f"{server.url}/{query}")
    return browser.post(f"{server.url}/join{query}", {"code": code, "name": name, "seat": kept}, form)


def test_a_browser_that_kept_its_seat_goes_back_to_it_and_no_one_else_does(server: ClassServer,
                                                                           teacher: TeacherClient) -> None:
    room = teacher.create_room("peek", 3, seed=2, bot_delay=0)
    other = teacher.create_room("peek", 2, seed=2, bot_delay=0)
    ana = Browser()
    status, address, _ = join(ana, server, room["code"], "Ana")
    assert status == 200 and "/s/" in address
    token = address.rsplit("/s/", 1)[1]
    # The tab is closed; the same browser types the code again (its page kept the seat's token): no name needed.
    status, again, page = join(ana, server, room["code"].lower(), "", kept=token)
    assert status == 200 and again == address and 'id="app"' in page
    assert join(ana, server, room["code"], " ana ", kept=token)[1] == address  # her own name: the same seat
    status, other_seat, _ = join(ana, server, room["code"], "Bo", kept=token)  # a shared computer: Bo's own seat
    assert status == 200 and "/s/" in other_seat and other_seat != address
    assert [seat["name"] for seat in teacher.room(room["code"])["seats"]] == ["Ana", "Bo", None]
    # The token of one room opens nothing through another room's code; a made-up token neither.
    for code, kept in ((other["code"], token), (room["code"], altered(token))):
        status, _, page = join(Browser(), server, code, "", kept=kept)
        assert status == 400 and "Please type a name" in page
        assert f'data-forget="{code}"' in page  # the page forgets a kept link that no longer opens that seat
    # Another browser, the same name: refused, saying how to get the seat back.
    status, _, page = join(Browser(), server, room["code"], "ana")
    assert status == 409 and "ask your teacher for your link" in html.unescape(page)
    status, _, page = join(Browser(), server, room["code"], "ANA", lang="fr")
    assert status == 409 and "demandez votre lien à l'enseignant" in html.unescape(page)
    assert [seat["name"] for seat in teacher.room(room["code"])["seats"]] == ["Ana", "Bo", None]


def test_a_link_the_teacher_replaced_sends_the_browser_to_a_new_join(server: ClassServer,
                                                                    teacher: TeacherClient) -> None:
    room = teacher.create_room("peek", 2, seed=2, bot_delay=0)
    ana = Browser()
    _, address, _ = join(ana, server, room["code"], "Ana")
    old = address.rsplit("/s/", 1)[1]
    teacher.command(room["code"], "new_link", seat=0)  # the teacher's one click: Ana gets her new link from her
    status, _, page = join(ana, server, room["code"], "", kept=old)
    assert status == 400 and f'data-forget="{room["code"]}"' in page
    status, _, page = ana.get(f"{server.url}/s/{old}")
    assert status == 410 and "ask your teacher for a new one" in page


# ------------------------------------------------------------------------------------------ French


def test_a_french_student_meets_no_english(server: ClassServer, teacher: TeacherClient) -> None:
    room = teacher.create_room("peek", 3, seed=2, bot_delay=0, language="fr", bots={2: "random"})
    browser = Browser()
    pages = [browser.get(f"{server.url}/j/{room['code']}")[2]]  # a French room's join page is French
    status, address, seat_page = join(browser, server, room["code"], "Inès", lang="fr")
    pages += [seat_page, browser.get(room["seats"][1]["link"])[2], browser.get(room["watch_url"])[2]]
    for code, name in (("ZZZZZ", "Léo"), (room["code"], "INÈS"), (room["code"], "a\u200bb"), (room["code"], " "),
                       (room["code"], "x" * (MAX_NAME + 1))):
        pages.append(join(Browser(), server, code, name, lang="fr")[2])
    pages.append(Browser().get(f"{server.url}/s/unknown-token-123456?lang=fr")[2])
    for page in pages:
        assert 'lang="fr"' in page and not english_words(page_text(page)), english_words(page_text(page))
    assert "Robot 3 (random)" in seat_page  # the room's bots are named in its language
    léo = Student.join(server.url, room["code"], "Léo", language="fr")
    try:
        table = léo.wait_step(0)
        assert not english_words(page_text(table["html"]) + table["status"]), table["status"]
        for message in ({"type": "move", "step": 0, "action": "nonsense"}, {"type": "move", "step": 9, "action": "x"},
                        {"type": "menu", "step": 0, "chosen": "x"}, "not json"):
            léo.feed.send(message)
            refusal = léo.next(lambda m: m["type"] == "refused")
            assert refusal["text"] and not english_words(refusal["text"]), refusal
    finally:
        léo.close()


#: Every refusal a student's page or the join page can meet.
STUDENT_CODES = ("bad_name", "name_taken", "room_full", "unknown_room", "closed", "unknown_token", "expired_token",
                 "seat_taken", "not_seated", "not_started", "paused", "over", "stale", "not_your_turn", "illegal",
                 "malformed", "too_big", "flood", "forbidden", "too_many", "too_many_guesses", "storage_busy",
                 "storage")


@pytest.mark.parametrize("code", STUDENT_CODES)
def test_every_refusal_a_student_meets_has_its_french_text(code: str) -> None:
    text = refusal_text(Refused(code, "An English message with details."), "fr")
    assert text == REFUSALS["fr"][code] and text != UNKNOWN_REFUSAL_FR and not english_words(text)
    english = refusal_text(Refused(code, "An English message with details."), "en")
    assert english == REFUSALS["en"].get(code, "An English message with details.")


def test_an_english_refusal_is_the_students_sentence_not_the_servers_details() -> None:
    stale = Refused("stale", "The table is at step 5, not 4: look again.", 409)
    assert refusal_text(stale, "en") == "The table changed: look again."  # no step numbers
    illegal = Refused("illegal", "Ben is not holding the box.", fr="Ben n'a pas la boîte.")
    assert refusal_text(illegal, "en") == "Ben is not holding the box."  # the reason is the student's to read


def test_refusals_with_details_carry_them_in_french(tmp_path: Path) -> None:
    hall = Hall(Store(tmp_path / "class.sqlite3"))
    room = run_now(hall.create_room("peek", 2, seed=1, language="fr"))
    run_now(hall.join(room.code, "Ana"))
    for call, detail in ((lambda: run_now(hall.join(room.code, "ANA")), "ANA"),
                         (lambda: run_now(hall.join("QQQQ", "Bo")), "QQQQ"),
                         (lambda: run_now(hall.join(room.code, "y" * 30)), "30")):
        with pytest.raises(Refused) as caught:
            call()
        text = refusal_text(caught.value, "fr")
        assert detail in text and text != REFUSALS["fr"][caught.value.code] and not english_words(text), text
    run_now(hall.join(room.code, "Bo"))
    with pytest.raises(Refused) as full:
        run_now(hall.join(room.code, "Cy"))
    assert "demandez votre lien à l'enseignant" in refusal_text(full.value, "fr")
    assert "ask your teacher for your link" in str(full.value)


def test_french_status_lines_and_lobby_put_a_space_before_the_colon() -> None:
    seats = [{"seat": 0, "name": "Ana", "bot": None}, {"seat": 1, "name": None, "bot": None}]
    kind, text = status_text(None, seats, "fr", paused=False)
    assert kind == "lobby" and text == "En attente des joueurs : 1/2 places prises"
    lobby = lobby_html(seats, 0, "fr")
    assert "Place 1 : Ana" in lobby and "Place 2 : " in lobby and not english_words(page_text(lobby))  # from 1


# ------------------------------------------------------------------------------------------ names

ASTRONAUT = "\U0001F469\U0001F3FD\u200d\U0001F680"  # 👩🏽‍🚀: woman, medium skin tone, joiner, rocket
FAMILY = "\U0001F468\u200d\U0001F469\u200d\U0001F467\u200d\U0001F466"
SCOTLAND = "\U0001F3F4\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F"


@pytest.mark.parametrize("name", [ASTRONAUT, f"Ana {ASTRONAUT}", FAMILY, SCOTLAND, "Zoë", "Zoe\u0308", "1\ufe0f\u20e3",
                                  "می\u200cخواهم", "<b>Ana</b>", ASTRONAUT * MAX_NAME])
def test_printable_names_are_welcome_emoji_included(tmp_path: Path, name: str) -> None:
    hall = Hall(Store(tmp_path / "class.sqlite3"))
    room = run_now(hall.create_room("peek", 2, seed=1))
    _, seat = run_now(hall.join(room.code, name))
    assert seat.name == clean_name(name) and Hall(Store(hall.store.path)).rooms[room.code].seats[0].name == seat.name


@pytest.mark.parametrize(("name", "why"), [
    ("a\x00b", "control"), ("tab\u200bhidden", "control"), ("\u202eevil", "control"), ("\u200dAna", "control"),
    ("Ana\u200d", "control"), ("a \u200d b", "control"), ("x" * (MAX_NAME + 1), "at most"),
    (ASTRONAUT * (MAX_NAME + 1), "at most"), ("x" + "\u0301" * MAX_NAME_CODE_POINTS, "at most")])
def test_names_with_hidden_characters_or_too_long_are_refused(tmp_path: Path, name: str, why: str) -> None:
    with pytest.raises(Refused, match=why) as caught:
        clean_name(name)
    assert caught.value.code == "bad_name" and caught.value.fr


def test_names_are_counted_as_people_count_them_and_a_joiner_hides_no_double() -> None:
    assert [name_length(name) for name in (ASTRONAUT, FAMILY, SCOTLAND, "Zoe\u0308", "Ana", f"Ana {ASTRONAUT}")] == \
        [1, 1, 1, 3, 3, 5]


def test_a_name_with_a_joiner_between_letters_is_the_same_name(tmp_path: Path) -> None:
    hall = Hall(Store(tmp_path / "class.sqlite3"))
    room = run_now(hall.create_room("peek", 3, seed=1))
    run_now(hall.join(room.code, "Ana"))
    with pytest.raises(Refused) as caught:
        run_now(hall.join(room.code, "A\u200dna"))
    assert caught.value.code == "name_taken"


def test_the_join_page_takes_an_emoji_name_and_escapes_markup(server: ClassServer, teacher: TeacherClient) -> None:
    room = teacher.create_room("peek", 2, seed=2, bot_delay=0)
    status, _, page = join(Browser(), server, room["code"], f"<i>{ASTRONAUT}</i>")
    assert status == 200 and f"&lt;i&gt;{ASTRONAUT}&lt;/i&gt;" in page and f"<i>{ASTRONAUT}" not in page
    assert teacher.room(room["code"])["seats"][0]["name"] == f"<i>{ASTRONAUT}</i>"
    _, _, form = Browser().get(server.url + "/")
    assert f'maxlength="{MAX_NAME_UTF16}"' in form  # the browser lets a name of emoji be typed whole


# ------------------------------------------------------------------------------------------ the dashboard


@pytest.mark.parametrize(("language", "word"), [("en", "waiting for students"), ("fr", "en attente des élèves")])
def test_the_dashboard_of_an_empty_room_waits_for_students(tmp_path: Path, language: str, word: str) -> None:
    dashboard = classroom.open("peek", 2, seed=1, db=tmp_path / "class.sqlite3", bot_delay=0, language=language)
    try:
        dashboard.wait_for(lambda d: d.info is not None)
        assert word in dashboard.title.value and "playing" not in dashboard.title.value
        assert "en cours" not in dashboard.title.value
        server = classroom.start(tmp_path / "class.sqlite3")
        students = [Student.join(server.url, dashboard.code, name) for name in ("Ana", "Bo")]
        try:
            dashboard.wait_for(lambda d: d.info["started"])
            assert ("playing" if language == "en" else "en cours") in dashboard.title.value
        finally:
            for student in students:
                student.close()
    finally:
        dashboard.close()
        classroom.stop_all()



# ------------------------------------------------------------------------------------------ seats drawn


def test_a_room_can_seat_students_at_random_the_same_way_after_a_restart(tmp_path: Path) -> None:
    hall = Hall(Store(tmp_path / "class.sqlite3"))
    names = ["Ana", "Bo", "Cy", "Dee", "Eve", "Fay"]
    drawn = run_now(hall.create_room("mafia_de_cuba", 6, seed=11, draw_seats=True))
    in_order = run_now(hall.create_room("mafia_de_cuba", 6, seed=11))
    seats = [run_now(hall.join(drawn.code, name))[1].number for name in names[:3]]
    reopened = Hall(Store(hall.store.path))  # the server restarts in the middle of the arrivals
    seats += [run_now(reopened.join(drawn.code, name))[1].number for name in names[3:]]
    assert sorted(seats) == list(range(6)) and seats != list(range(6)), "every seat once, not in arrival order"
    assert [run_now(hall.join(in_order.code, name))[1].number for name in names] == list(range(6))
    again = run_now(Hall(Store(tmp_path / "again.sqlite3")).create_room("mafia_de_cuba", 6, seed=11, draw_seats=True))
    hall_again = Hall(Store(tmp_path / "again.sqlite3"))
    drawn_again = [run_now(hall_again.join(again.code, name))[1].number for name in names]
    assert drawn_again == seats, "drawn from the room's seed"
    assert reopened.rooms[drawn.code].state is not None and reopened.rooms[drawn.code].state.players[seats[0]] == "Ana"
    with pytest.raises(Refused, match="draw_seats") as caught:
        run_now(hall.create_room("peek", 2, draw_seats="yes"))  # type: ignore[arg-type]
    assert caught.value.code == "bad_request" and len(hall.store.rooms()) == 2


def test_the_teacher_opens_a_room_with_seats_drawn(server: ClassServer, teacher: TeacherClient) -> None:
    room = teacher.create_room("peek", 3, seed=5, bot_delay=0, draw_seats=True)
    assert room["draw_seats"] is True and teacher.create_room("peek", 3, seed=5)["draw_seats"] is False
    students = [Student.join(server.url, room["code"], name) for name in ("Ana", "Bo", "Cy")]
    try:
        seats = teacher.room(room["code"])["seats"]
        assert {seat["name"]: seat["seat"] for seat in seats} == {student.name: student.seat for student in students}
    finally:
        for student in students:
            student.close()
