"""End to end in a real headless Chromium driven by Playwright (issue 8, item 7).

Needs Debian's ``chromium`` at ``/usr/bin/chromium`` (``apt-get install -y chromium``);
Playwright's own browser download does not work here. Screenshots go to
``$MATTIS_SCREENSHOTS`` when set (to look at), else to the test's temporary folder.
"""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from mattis.i18n import LANGS

from .browser_helpers import OVERFLOW, PHONE, watch_console

pytestmark = pytest.mark.browser
"""Every test here drives Chromium (the fast loop leaves them out: ``-m "not browser"``)."""


def create_table(page: Page, base_url: str, name: str, open_seats: int = 0, lang: str = "en") -> None:
    page.goto(f"{base_url}/?lang={lang}")
    page.fill("#name", name)
    expect(page.locator("#seats select.kind")).to_have_count(2)
    kinds = page.locator("#seats select.kind")
    for index in range(open_seats):
        kinds.nth(1 - index).select_option("open")
    page.click("#create")
    page.wait_for_url("**/t/**")


def play_one(page: Page, timeout: float = 30.0) -> bool:
    """Wait for our turn and play the first legal card (or chance/pick up), then for the table
    to take it (its event count moves on); False once over."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.locator("#result").is_visible():
            return False
        before = page.locator("#game").get_attribute("data-events")
        legal = page.locator("#hand .card.legal")
        played = False
        if legal.count():
            try:  # the hand may be redrawn between counting and clicking: look again
                legal.first.click(timeout=3_000)
            except PlaywrightTimeoutError:
                continue
            chooser = page.locator("#chooser button")
            if page.locator("#chooser").is_visible() and chooser.count():
                chooser.last.click()
            played = True
        else:
            for button in ("#pickup:enabled", "#chance:enabled"):  # shown but disabled when not your move
                if page.locator(button).is_visible():
                    page.click(button)
                    played = True
                    break
        if played:
            expect(page.locator("#game")).not_to_have_attribute("data-events", before or "", timeout=10_000)
            return True
        page.wait_for_timeout(40)
    raise AssertionError("no move became possible in time")


def test_whole_game_against_bots_by_clicking(browser: Browser, base_url: str, shots: Path) -> None:
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    problems = watch_console(page)
    create_table(page, base_url, "Kari", lang="nb")
    expect(page.locator("#hand .card.legal").first).to_be_visible()
    page.click("#hint")
    expect(page.locator("#hint-text")).to_contain_text("Tips:", timeout=20_000)
    page.screenshot(path=str(shots / "desktop-start-of-game.png"))
    moves = 0
    while play_one(page):
        moves += 1
        if moves == 12:
            page.screenshot(path=str(shots / "desktop-mid-game.png"))
        assert moves < 400
    expect(page.locator("#headline")).to_contain_text("mattis", ignore_case=True)  # Blåmattis too
    page.screenshot(path=str(shots / "desktop-result.png"))
    page.click("#again")
    expect(page.locator("#status")).to_contain_text("Spill 2")
    page.goto(f"{base_url}/rules?lang=nb")
    expect(page.locator("h2").first).to_contain_text("Regler")
    assert not problems, problems
    page.close()


def test_friend_joins_by_invite_and_both_see_the_plays(browser: Browser, base_url: str, shots: Path) -> None:
    host = browser.new_context(viewport={"width": 1100, "height": 850})
    first = host.new_page()
    create_table(first, base_url, "Kari", open_seats=1)
    expect(first.locator("#waiting")).to_be_visible()
    invite = first.locator("#invite").input_value()
    assert "/t/" in invite
    first.screenshot(path=str(shots / "desktop-waiting-for-friend.png"))
    friend_context = browser.new_context(viewport={"width": 1100, "height": 850})
    friend = friend_context.new_page()
    friend.goto(invite + "?lang=en")
    friend.fill("#join-name", "Ola")
    friend.click("#join-form button")
    expect(friend.locator("#hand .card").first).to_be_visible()
    expect(first.locator("#players")).to_contain_text("Ola")
    expect(friend.locator("#players")).to_contain_text("Kari")
    for _ in range(3):
        for page in (first, friend):
            if page.locator("#hand .card.legal").count():
                played = page.locator("#hand .card.legal").first.get_attribute("data-card")
                page.locator("#hand .card.legal").first.click()
                chooser = page.locator("#chooser button")
                if page.locator("#chooser").is_visible():
                    chooser.last.click()
                other = friend if page is first else first
                name = "Kari" if page is first else "Ola"
                expect(other.locator("#log")).to_contain_text(f"{name} played")
                assert played
        first.wait_for_timeout(300)
    friend.screenshot(path=str(shots / "desktop-friend-view.png"))
    host.close()
    friend_context.close()


def test_reload_in_the_middle_restores_the_seat(browser: Browser, base_url: str) -> None:
    page = browser.new_page()
    create_table(page, base_url, "Siri")
    expect(page.locator("#hand .card.legal").first).to_be_visible()
    log_before = page.locator("#log li").count()
    page.locator("#hand .card.legal").first.focus()  # the keyboard plays too
    page.keyboard.press("Enter")
    if page.locator("#chooser").is_visible():
        page.keyboard.press("Enter")
    expect(page.locator("#log li")).not_to_have_count(log_before)
    for _ in range(3):
        assert play_one(page)
    expect(page.locator("#hand .card.legal").first).to_be_visible(timeout=20_000)
    hand = sorted(page.locator("#hand .card").evaluate_all("cards => cards.map(c => c.dataset.card)"))
    log_size = page.locator("#log li").count()
    page.reload()
    expect(page.locator("#hand .card.legal").first).to_be_visible()
    assert sorted(page.locator("#hand .card").evaluate_all("cards => cards.map(c => c.dataset.card)")) == hand
    assert page.locator("#log li").count() >= min(log_size, 40)
    assert page.locator("#join").is_hidden()
    page.close()


@pytest.mark.parametrize("lang", LANGS)
def test_phone_sized_screen(browser: Browser, base_url: str, shots: Path, lang: str) -> None:
    """A game on a 390×844 phone in each language: nothing wider than the screen, no label cut
    off, the cards big enough to tap (the screenshots are there to look at, nynorsk's too)."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{base_url}/?lang={lang}")
    page.screenshot(path=str(shots / f"phone-start-page-{lang}.png"), full_page=True)
    create_table(page, base_url, "Per", lang=lang)
    for _ in range(6):
        assert play_one(page)
    expect(page.locator("#hand .card").first).to_be_visible()
    page.screenshot(path=str(shots / f"phone-table-{lang}.png"), full_page=True)
    assert page.evaluate(OVERFLOW, {"textOnly": True}) == []
    page.locator("#log-toggle").click()
    expect(page.locator("#log-close")).to_be_in_viewport()
    page.wait_for_timeout(500)  # the drawer slides in
    assert page.evaluate(OVERFLOW, {"textOnly": True}) == []
    page.screenshot(path=str(shots / f"phone-log-{lang}.png"))
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page scrolls sideways ({width}px)"
    card = page.locator("#hand .card").first.bounding_box()
    assert card is not None and card["width"] >= 44  # big enough to tap
    context.close()


def test_a_waiting_table_can_seat_a_bot_instead(browser: Browser, base_url: str) -> None:
    page = browser.new_page()
    create_table(page, base_url, "Ingrid", open_seats=2)
    expect(page.locator("#waiting .fill-bot")).to_have_count(2)
    page.locator("#waiting .fill-bot").first.click()
    expect(page.locator("#waiting .fill-bot")).to_have_count(1)
    page.locator("#waiting .fill-bot").first.click()
    expect(page.locator("#hand .card").first).to_be_visible()
    page.close()


def test_a_seeded_table_says_so_on_the_join_page_the_invite_page_and_at_the_table(
        browser: Browser, base_url: str) -> None:
    body = {"seed": 77, "seats": [{"kind": "human", "name": "Kari"}, {"kind": "open"}, {"kind": "bot"}]}
    request = urllib.request.Request(f"{base_url}/api/tables", method="POST", data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        table = json.loads(response.read())
    creator = browser.new_context()
    page = creator.new_page()
    page.goto(f"{base_url}/?lang=en")
    page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                  [f"mattis.seat.{table['table']}", json.dumps({"seat": 0, "token": table["token"]})])
    page.goto(f"{base_url}/t/{table['table']}?lang=en")
    expect(page.locator("#waiting")).to_be_visible()
    expect(page.locator("[data-seeded]")).to_contain_text("fixed seed")
    friend = browser.new_context().new_page()
    friend.goto(f"{base_url}/t/{table['table']}?lang=nb")
    expect(friend.locator("#join")).to_be_visible()
    expect(friend.locator("[data-seeded]")).to_contain_text("fast frø")
    friend.fill("#join-name", "Ola")
    friend.click("#join-form button")
    expect(friend.locator("#hand .card").first).to_be_visible()
    expect(friend.locator("[data-seeded]")).to_be_visible()
    plain = browser.new_page()
    create_table(plain, base_url, "Siv")
    expect(plain.locator("#hand .card").first).to_be_visible()
    expect(plain.locator("[data-seeded]")).to_be_hidden()
    creator.close()
    friend.context.close()
    plain.close()
