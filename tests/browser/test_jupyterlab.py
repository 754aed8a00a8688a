"""Tutorials in a real JupyterLab: run every cell, click a widget, see the Python handler's effect."""

from __future__ import annotations

import json
from typing import Any

from tabletop_edu.i18n import tr

from .conftest import offline_requests

LOG = ".tabletop-widget .tabletop-log li"


def open_and_run_all(page: Any, lab: str, path: str) -> None:
    workspace = path.replace("/", "-").replace(".", "-")  # a fresh workspace: no tab restored from another test
    page.goto(f"{lab}/lab/workspaces/{workspace}/tree/{path}?reset")
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=90_000)
    page.get_by_text("| Idle").wait_for(timeout=90_000)  # the kernel is connected, not just announced
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()


def test_welcome_tutorial_runs_without_errors(page: Any, lab: str, screenshot: Any) -> None:
    open_and_run_all(page, lab, "00_welcome.ipynb")
    last_prompt = page.locator(".jp-CodeCell .jp-InputPrompt").last
    page.wait_for_function("() => document.querySelectorAll('.jp-CodeCell .jp-InputPrompt').length > 0 && "
                           "[...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')]"
                           ".every(p => /\\[\\d+\\]/.test(p.textContent))", timeout=120_000)
    assert "[" in last_prompt.inner_text()
    assert page.locator("[data-mime-type='application/vnd.jupyter.stderr']").count() == 0
    assert "passed" in page.locator(".jp-CodeCell").last.inner_text()
    # The information-flow drawings are pictures, not "<Figure size ...>" text, in a fresh kernel.
    assert page.locator(".jp-OutputArea-output img").count() >= 2
    screenshot("lab-welcome")
    assert offline_requests(page) == []


def test_widget_click_reaches_python_in_jupyterlab(page: Any, lab: str, screenshot: Any) -> None:
    """Click "Next move" on the projector's table: the kernel plays a bot's move and redraws the log. One page
    is enough here: every classroom page is the same widget, and each is played to the end in Voila."""
    name = "mafia_de_cuba"
    open_and_run_all(page, lab, f"classroom/{name}.ipynb")
    next_move = page.locator(".tabletop-widget").get_by_role("button", name=tr("next_bot", "en"), exact=True)
    next_move.wait_for(timeout=120_000)
    before = page.locator(LOG).all_inner_texts()
    next_move.click()
    page.wait_for_function("count => document.querySelectorAll(" + json.dumps(LOG) + ").length > count",
                           arg=len(before))
    after = page.locator(LOG).all_inner_texts()
    assert after[:len(before)] == before and len(after) > len(before)  # the kernel played and redrew the log
    screenshot(f"lab-{name}-widget")
    assert offline_requests(page) == []
