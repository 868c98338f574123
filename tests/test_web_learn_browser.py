"""Learn Mattis in a real headless Chromium (issue 26, item 4): a whole lesson on a phone, one
wrong move answered with the engine's reason, the end's offer of a game against easy
computer players, the start page's offer to first-time visitors, light and dark, and the
installed app with the network off.

Screenshots go to ``$MATTIS_SCREENSHOTS`` when set, else to the test's temporary folder.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from mattis.web import pwa

from .app_helpers import install
from .browser_helpers import OVERFLOW, PHONE, get, watch_console

pytestmark = pytest.mark.browser
"""Every test here drives Chromium (the fast loop leaves them out: ``-m "not browser"``)."""

SHOT_STEPS = {1, 3, 8}
"""The steps photographed: the first trick, the war, beating a play in phase 2."""


def expected(page: Page) -> str | None:
    return page.locator("#lesson").get_attribute("data-tutorial-expect")


def play_through(page: Page, shots: Path, scheme: str, wrong_at: str | None = None) -> list[str]:
    """Follow the lesson to its end, each step by its expected move; at the step teaching
    ``wrong_at``, first try the lesson's first refused move. Returns the refusals seen."""
    refusals: list[str] = []
    for _ in range(40):
        if page.locator("[data-tutorial-done]").count():
            return refusals
        continue_button = page.locator('[data-action="continue"]')
        if continue_button.is_visible():
            continue_button.click()
            continue
        step = page.locator("#lesson").get_attribute("data-tutorial-step")
        move = expected(page)
        assert step and move
        if int(step) in SHOT_STEPS:
            page.screenshot(path=str(shots / f"learn-step{step}-phone-{scheme}.png"), full_page=True)
        if wrong_at is not None and page.locator(f'.learn-move[data-move="{wrong_at}"]').count():
            page.locator(f'.learn-move[data-move="{wrong_at}"]').click()
            answer = page.locator("#learn-answer")
            expect(answer).not_to_be_empty()
            refusals.append(answer.inner_text())
            page.screenshot(path=str(shots / f"learn-wrong-phone-{scheme}.png"), full_page=True)
            assert expected(page) == move  # still waiting for the same move
            wrong_at = None
        page.locator(f'.learn-move[data-move="{move}"]').click()
        page.wait_for_function(
            "([step, move]) => { const s = document.querySelector('#lesson');"
            " return s.dataset.tutorialStep !== step || s.dataset.tutorialExpect !== move; }",
            arg=[step, move])
    raise AssertionError("the lesson did not end")


def test_a_whole_lesson_on_a_phone_with_one_wrong_move(browser: Browser, base_url: str, shots: Path) -> None:
    context = browser.new_context(viewport=PHONE, color_scheme="light")
    page = context.new_page()
    problems = watch_console(page)
    page.goto(f"{base_url}/learn?lang=en&preset=pagat")
    expect(page.locator('#lesson[data-tutorial-step="1"][data-tutorial-expect="Ah"]')).to_be_visible()
    lesson = get(base_url, "/api/learn/pagat.en.json")
    beat = next(step for step in lesson["steps"] if step["teaches"] == "beat")
    too_low = next(move for move in beat["moves"] if not move["ok"] and "not beat" in move["why"])
    # the page draws the cards as the table does, and each is a labelled button
    expect(page.locator(".learn-move .card-pic svg")).to_have_count(3)
    assert page.locator('.learn-move[data-move="Ah"]').get_attribute("aria-label") == "A♥"
    assert not page.evaluate(OVERFLOW, {"textOnly": True})
    # a legal move that is not the lesson's is answered kindly, and the step waits
    page.locator('.learn-move[data-move="4d"]').click()
    expect(page.locator("#learn-answer")).to_contain_text("is allowed")
    refusals = play_through(page, shots, "light", wrong_at=too_low["action"])
    assert refusals == [too_low["why"]]  # the engine's own reason (too_low), in words
    assert "does not beat" in refusals[0]
    done = page.locator("[data-tutorial-done]")
    expect(done).to_be_visible()
    expect(page.locator("#learn-say")).to_contain_text("Kari is Mattis")
    assert page.evaluate("localStorage.getItem('mattis.learn')") == "done"
    page.screenshot(path=str(shots / "learn-done-phone-light.png"), full_page=True)
    assert not page.evaluate(OVERFLOW, {"textOnly": True})
    # the end deals a real game against two easy computer players, with the lesson's rules
    done.locator('[data-action="play-easy"]').click()
    page.wait_for_url("**/t/**")
    table = page.url.rsplit("/t/", 1)[1].split("?")[0]
    info = get(base_url, f"/api/tables/{table}")
    assert info["preset"] == "pagat"
    levels = [seat.get("level") for seat in info["seats"] if seat.get("kind") == "bot"]
    assert levels == ["easy", "easy"]
    assert not problems
    context.close()


def test_the_lesson_follows_the_start_pages_rules_and_the_dark_theme(browser: Browser, base_url: str,
                                                                     shots: Path) -> None:
    context = browser.new_context(viewport=PHONE, color_scheme="dark")
    page = context.new_page()
    problems = watch_console(page)
    page.goto(f"{base_url}/?lang=nb")
    offer = page.locator("#learn-offer")
    expect(offer).to_be_visible()  # a first-time visitor: nothing remembered on this device
    page.screenshot(path=str(shots / "learn-offer-phone-dark.png"))
    choices = {"rules": "app", "set": {}, "players": 3, "levels": ["normal", "normal"], "friends": 3}
    page.evaluate(f"localStorage.setItem('mattis.choices', {json.dumps(json.dumps(choices))})")
    offer.locator("a").click()
    page.wait_for_url("**/learn")
    expect(page.locator("#learn-rules")).to_contain_text("Trumf fra start")
    expect(page.locator("#learn-say")).to_contain_text("hjerter er trumf fra starten")
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(15, 20, 18)"  # the dark theme, as the other pages
    play_through(page, shots, "dark")
    expect(page.locator("[data-tutorial-done]")).to_be_visible()
    page.goto(f"{base_url}/?lang=nb")
    expect(page.locator("#learn-quick-start, #quick-summary").first).not_to_be_empty()
    expect(page.locator("#learn-offer")).to_be_hidden()  # learned: no longer offered
    assert not problems
    context.close()


def test_the_offer_can_be_dismissed(browser: Browser, base_url: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(f"{base_url}/?lang=en")
    expect(page.locator("#learn-offer")).to_be_visible()
    page.locator('[data-action="learn-dismiss"]').click()
    expect(page.locator("#learn-offer")).to_be_hidden()
    page.reload()
    expect(page.locator("#quick-summary")).not_to_be_empty()
    expect(page.locator("#learn-offer")).to_be_hidden()
    context.close()


def test_the_lesson_works_offline_in_the_installed_app(browser: Browser, base_url: str, shots: Path) -> None:
    pwa.build(say=lambda line: None)  # the service worker is served once the app is built
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    install(page, f"{base_url}/?lang=nn")
    context.set_offline(True)
    page.goto(f"{base_url}/learn?preset=kortregler")
    expect(page.locator('#lesson[data-tutorial-step="1"]')).to_be_visible()
    expect(page.locator("#learn-say")).to_contain_text("duell")  # nynorsk, the pair trick (P1.2)
    play_through(page, shots, "offline")
    expect(page.locator("[data-tutorial-done]")).to_have_attribute("data-tutorial-done", "kortregler")
    # the first real game is dealt on the device, since no server answers
    page.locator('[data-action="play-easy"]').click()
    page.wait_for_url("**/t/local-**")
    context.close()


def test_the_lesson_can_be_followed_with_the_keyboard_alone(browser: Browser, base_url: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(f"{base_url}/learn?lang=en&preset=app")
    expect(page.locator('#lesson[data-tutorial-step="1"]')).to_be_visible()
    focused = "() => document.activeElement?.dataset.move ?? document.activeElement?.dataset.action ?? ''"
    for _ in range(60):
        if page.locator("[data-tutorial-done]").count():
            break
        if page.locator('[data-action="continue"]').is_visible():
            assert page.evaluate(focused) == "continue"  # focus waits on the way on
            page.keyboard.press("Enter")
            continue
        move = expected(page)
        for _ in range(12):  # Tab through the moves to the one the step asks for
            if page.evaluate(focused) == move:
                break
            page.keyboard.press("Tab")
        assert page.evaluate(focused) == move
        page.keyboard.press("Enter")
        page.wait_for_function("(move) => document.querySelector('#lesson').dataset.tutorialExpect !== move",
                               arg=move)
    expect(page.locator("[data-tutorial-done]")).to_be_visible()
    assert page.evaluate(focused) == "play-easy"
    context.close()
