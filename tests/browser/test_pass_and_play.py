"""Pass-and-play in a real page (Voila, Chromium): the privacy screen's page holds none of Ben's hand, his tap
shows it, a move hides it again before the next seat, in English and French, on a projector and a phone.
Screenshots go to test-artifacts/pass_and_play/."""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

import pytest

from tabletop_edu.widgets import pass_and_play

from .conftest import ARTIFACTS, DESKTOP, PHONE, axe_violations

NAMES = ["Ben", "Ana", "Chloé", "Dan"]
WIDGET = ".tabletop-widget"
PICTURES = ARTIFACTS / "pass_and_play"


def notebook(folder: Path, language: str) -> str:
    """A notebook with a seeded Get Adler table for one screen, Ben to play first."""
    source = ("from tabletop_edu.widgets import pass_and_play\n"
              f"pass_and_play('get_adler', {NAMES!r}, seed=2, language={language!r})")
    cells = [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": source}]
    document = {"cells": cells, "nbformat": 4, "nbformat_minor": 5,
                "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}}}
    name = f"pass-and-play-{language}.ipynb"
    (folder / name).write_text(json.dumps(document), encoding="utf-8")
    return name


def shoot(page: Any, name: str, axe: str) -> None:
    """The screen as the table sees it first, and the whole widget, on a projector and a phone; axe-core finds
    nothing serious or critical at either size."""
    PICTURES.mkdir(parents=True, exist_ok=True)
    for size, viewport in (("1280x800", DESKTOP), ("390x844", PHONE)):
        page.set_viewport_size(viewport)
        found = axe_violations(page, axe)
        assert not found.get("critical") and not found.get("serious"), (name, size, found)
        page.screenshot(path=str(PICTURES / f"{name}-{size}.png"))
        height = page.locator(WIDGET).first.evaluate("element => element.scrollHeight")
        page.set_viewport_size({"width": viewport["width"], "height": height + 120})  # the page scrolls inside
        page.screenshot(path=str(PICTURES / f"{name}-{size}-whole.png"))
    page.set_viewport_size(DESKTOP)


@pytest.mark.parametrize(("language", "words"), [
    ("en", {"reveal": "I am {name} — show my hand", "hide": "Hide my hand", "pass": "Pass to {name}"}),
    ("fr", {"reveal": "Je suis {name} — montrer mon jeu", "hide": "Cacher mon jeu", "pass": "Passez à {name}"})])
def test_bens_hand_is_in_the_page_only_while_he_looks(page: Any, voila: str, axe: str, notebook_copy: Path,
                                                      language: str, words: dict[str, str]) -> None:
    twin = pass_and_play("get_adler", NAMES, seed=2, language=language)
    twin.reveal_button.click()
    moves = [button.description for button in twin.moves.option_buttons]
    secret = "Ben is Adler." if language == "en" else "Ben est Adler."
    assert secret in twin.private_log.value

    def nothing_of_bens_in_the_page() -> None:
        """Neither his role nor his moves' labels anywhere in the page (hidden elements included)."""
        texts = json.dumps([secret, *(f">{html.escape(label, quote=False)}<" for label in moves)])
        page.wait_for_function(f"() => {texts}.every(text => !document.body.innerHTML.includes(text))")

    page.goto(f"{voila}/voila/render/{notebook(notebook_copy, language)}")
    button = page.get_by_role("button", name=words["reveal"].format(name="Ben"))
    button.wait_for(timeout=90_000)
    nothing_of_bens_in_the_page()
    shoot(page, f"privacy-{language}", axe)

    button.click()
    hide = page.get_by_role("button", name=words["hide"])
    hide.wait_for()
    page.get_by_text(secret).wait_for()
    for label in moves:
        page.get_by_role("button", name=label, exact=True).wait_for()
    shoot(page, f"ben-looks-{language}", axe)

    hide.click()
    button.wait_for()
    nothing_of_bens_in_the_page()

    button.click()
    page.get_by_role("button", name=moves[0], exact=True).click()  # discard...
    page.locator(".tabletop-move-option:visible").first.click()  # ...his first card
    page.get_by_role("button", name=words["reveal"].format(name="Ana")).wait_for()
    page.get_by_text(words["pass"].format(name="Ana"), exact=True).wait_for()
    nothing_of_bens_in_the_page()
