"""The Peek classroom page in Voila: play by clicking, switch perspective, scrub the timeline, no leaks."""

from __future__ import annotations

from tabletop_edu.examples import peek


def open_table(page, voila: str, name: str):
    page.goto(f"{voila}/voila/render/classroom/{name}.ipynb")
    page.wait_for_selector(".tabletop-widget", timeout=90_000)
    return page


def log_lines(page) -> list[str]:
    return page.locator(".tabletop-widget .widget-tab .tabletop-log li").all_inner_texts()


def test_play_switch_and_scrub_in_voila(page, voila: str, screenshot) -> None:
    open_table(page, voila, "peek")
    cards = peek.new_game(["Ana", "Ben", "Chloé"], seed=1).cards
    assert f"Ana is dealt the {cards[0]}." in log_lines(page)
    page.locator(".tabletop-widget select").nth(1).select_option("peek 2")
    page.get_by_role("button", name="Play").click()
    page.wait_for_function("document.querySelectorAll('.widget-tab .tabletop-log li').length >= 6")
    assert f"Ana peeks: Chloé holds the {cards[2]}." in log_lines(page)
    screenshot("voila-peek-ana")

    page.locator(".tabletop-widget select").first.select_option(label="Seat 1: Ben")
    page.wait_for_function("[...document.querySelectorAll('.widget-tab .tabletop-log li')]"
                           ".some(li => li.textContent.includes('Ben is dealt the'))")
    dom = page.content()  # text, attributes, hidden elements and data URLs alike
    assert f"Ana is dealt the {cards[0]}" not in dom and f"holds the {cards[2]}" not in dom
    assert "Ana peeks at Chloé's card." in log_lines(page)

    page.locator(".tabletop-widget .noUi-handle").first.focus()
    page.keyboard.press("Home")
    page.wait_for_function("document.querySelectorAll('.widget-tab .tabletop-log li').length == 3")
    assert all("dealt" in line for line in log_lines(page))
    screenshot("voila-peek-ben-step0")
