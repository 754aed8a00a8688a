"""How the class server lives with its file, its day and hostile requests (issue 23).

- Bad paths are plain 404s, never a 500 with a traceback; tokens never reach any log line.
"""

from __future__ import annotations

import logging
import urllib.error
import urllib.request
from typing import Any

import pytest

from tabletop_edu.classroom import ClassServer, TeacherClient
from tabletop_edu.classroom.client import join_room
from tabletop_edu.classroom.server import redacted


def fetch(url: str, data: bytes | None = None) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=data), timeout=10) as response:
            return int(response.status), response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return int(error.code), error.read().decode("utf-8", "replace")


def logged(caplog: pytest.LogCaptureFixture) -> str:
    """Every line the server's and Tornado's loggers wrote, tracebacks included."""
    lines = []
    for record in caplog.records:
        lines.append(record.getMessage())
        if record.exc_info:
            lines.append(logging.Formatter().formatException(record.exc_info))
    return "\n".join(lines)


# ------------------------------------------------------------------------------------------ paths and logs


BAD_PATHS = ["/static/seat.js%00.png", "/static/%00", "/static/nowhere.js", "/static/" + "a" * 300,
             "/s/%00", "/s/" + "A" * 65, "/w/bad%00token", "/j/%00", "/nowhere", "/api/rooms/%00"]


@pytest.mark.parametrize("path", BAD_PATHS)
def test_a_bad_path_is_a_plain_404_without_a_traceback(server: ClassServer, caplog: pytest.LogCaptureFixture,
                                                      path: str) -> None:
    caplog.set_level(logging.DEBUG)
    status, body = fetch(server.url + path)
    assert status == 404, (path, status)
    assert "Traceback" not in body and "Traceback" not in logged(caplog)
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]
    assert fetch(server.url + "/static/seat.js")[0] == 200  # and the server still serves


def test_paths_are_redacted_of_their_tokens() -> None:
    assert redacted("/s/abcDEF_-123?lang=fr") == "/s/<token>"
    assert redacted("/ws/seat/abc") == "/ws/seat/<token>" and redacted("/ws/watch/abc") == "/ws/watch/<token>"
    assert redacted("/w/abc") == "/w/<token>" and redacted("/j/K7QPX") == "/j/K7QPX"
    assert redacted("403 POST /s/abc (127.0.0.1)") == "403 POST /s/<token> (127.0.0.1)"


def test_no_token_reaches_any_log_line(server: ClassServer, teacher: TeacherClient,
                                      caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    caplog.set_level(logging.DEBUG)
    room = teacher.create_room("peek", 2, seed=3, bot_delay=0)
    seat = join_room(server.url, room["code"], "Ann")
    empty = teacher.room(room["code"])["seats"][1]
    tokens = [seat["token"], empty["link"].rsplit("/", 1)[1], room["watch_url"].rsplit("/", 1)[1]]
    assert fetch(empty["link"], data=b"name=Eve")[0] == 403  # no XSRF token: Tornado logs the refusal
    assert fetch(seat["link"] + "?lang=fr", data=b"name=Eve&_xsrf=forged")[0] == 403

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug in a page")

    monkeypatch.setattr(server, "table_for", broken)
    assert fetch(room["watch_url"])[0] == 500  # an uncaught exception: logged with its traceback
    text = logged(caplog)
    assert "403" in text and "a bug in a page" in text and "/w/<token>" in text  # the failures are logged...
    assert not [token for token in tokens if token in text]  # ...without any token
