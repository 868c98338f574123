"""A table a grandparent enjoys (issue 24) in a real headless Chromium: the rules as a sheet
over the table and a rules page that finds its way back (item 1), the warning before a deal
likely to end in Blodmattis or Blåmattis (6), the result in plain words (7), a full or
finished table that says so (9), and sound, vibration and mute (13).

Needs Debian's ``chromium`` (see ``browser_helpers``); screenshots go to ``$MATTIS_SCREENSHOTS``
when set.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from .app_helpers import PLAY
from .browser_helpers import PHONE, post, watch_console

pytestmark = pytest.mark.browser
"""Every test here drives Chromium (the fast loop leaves them out: ``-m "not browser"``)."""

BOTS = [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]


def seated(context: BrowserContext, base_url: str, body: dict[str, Any], lang: str = "en",
           path: str = "") -> tuple[Page, dict[str, Any]]:
    """A table made through the API, its page opened in ``context`` with the creator's seat."""
    table = post(base_url, "/api/tables", body)
    page = context.new_page()
    page.goto(f"{base_url}/?lang={lang}")
    page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                  [f"mattis.seat.{table['table']}",
                   json.dumps({"seat": table["seat"], "token": table["token"]})])
    page.goto(f"{base_url}/t/{table['table']}?lang={lang}&pause=0{path}")
    return page, table


def play_to_the_end(page: Page, table_id: str, lang: str = "en") -> dict[str, Any]:
    """Play the seat's first legal move each turn through the page's transport until the end
    (spaced under the server's message rate limit); the last state."""
    played: dict[str, Any] = page.evaluate(
        PLAY, {"tableId": table_id, "lang": lang, "moves": None, "hint": False, "pace": 120})
    last: dict[str, Any] = played["last"]
    return last


# ------------------------------------------------------------------ 7, 9: the result, a closed table


@pytest.mark.parametrize("lang", ["nb", "en"])
def test_the_result_says_what_happened_to_you_and_a_finished_table_invites_nobody(
        browser: Browser, base_url: str, shots: Path, lang: str) -> None:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page, table = seated(context, base_url, {"rules": "pagat", "players": 3, "seed": 11,
                                              "seats": [{"kind": "human", "name": "Mormor"}, *BOTS]}, lang)
    expect(page.locator("#hand [data-card]").first).to_be_visible()
    last = play_to_the_end(page, table["table"], lang)
    result = last["result"]
    seat = table["seat"]
    expected = {
        "nb": ("Du tapte – du er Mattis", "Du gikk ut først", "Du kom ut som nr. {n} av 3"),
        "en": ("You lost – you are Mattis", "You went out first", "You went out as number {n} of 3"),
    }[lang]
    if seat in result["losers"]:
        words = expected[0]
    elif result["order"].index(seat) == 0:
        words = expected[1]
    else:
        words = expected[2].format(n=result["order"].index(seat) + 1)
    assert result["you"] == words
    page.reload()
    expect(page.locator("[data-result-you]")).to_have_text(words)
    page.screenshot(path=str(shots / f"phone-result-{lang}.png"))
    stranger = browser.new_context(viewport=PHONE).new_page()
    problems = watch_console(stranger)
    stranger.goto(f"{base_url}/t/{table['table']}?lang={lang}")
    expect(stranger.locator("#join")).to_be_visible()
    expect(stranger.locator("#join-heading")).to_have_text(
        {"nb": "Dette spillet er over", "en": "This game is over"}[lang])
    closed_page_says_so(stranger, lang)
    stranger.screenshot(path=str(shots / f"phone-finished-table-{lang}.png"))
    assert not problems, problems
    stranger.context.close()
    context.close()


def closed_page_says_so(page: Page, lang: str) -> None:
    """No code to join with, no invitation, no name to fill in; a way to a table of one's own."""
    expect(page.locator("#join img[data-qr]")).to_be_hidden()
    assert page.locator("#join img[data-qr]").get_attribute("src") is None
    invites = {"nb": "inviterer deg", "en": "invites you"}[lang]
    assert invites not in page.locator("#join").inner_text()
    expect(page.locator("#join-form")).to_be_hidden()
    own = page.locator("#join [data-own-table]")
    expect(own).to_have_text({"nb": "Start ditt eget bord", "en": "Start your own table"}[lang])
    assert own.get_attribute("href") == "/"
    own.click()
    page.wait_for_url("**/")
    expect(page.locator('[data-action="quick-start"]')).to_be_visible()


@pytest.mark.parametrize("lang", ["nb", "en"])
def test_a_full_table_says_so_without_a_join_code(
        browser: Browser, base_url: str, shots: Path, lang: str) -> None:
    table = post(base_url, "/api/tables", {"seats": [{"kind": "human", "name": "Kari"}, *BOTS]})
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    problems = watch_console(page)
    page.goto(f"{base_url}/t/{table['table']}?lang={lang}")
    title = {"nb": "Bordet er fullt", "en": "This table is full"}[lang]
    expect(page.locator("#join-heading")).to_have_text(title)
    page.screenshot(path=str(shots / f"phone-full-table-{lang}.png"))
    closed_page_says_so(page, lang)
    assert not problems, problems
    context.close()


def test_an_open_table_still_invites_with_its_code(browser: Browser, base_url: str) -> None:
    table = post(base_url, "/api/tables", {"seats": [{"kind": "human", "name": "Kari"}, {"kind": "open"},
                                                     {"kind": "bot"}]})
    page = browser.new_page()
    page.goto(f"{base_url}/t/{table['table']}?lang=nb")
    expect(page.locator("#join-host")).to_have_text("Kari inviterer deg til et spill Mattis.")
    expect(page.locator("#join img[data-qr]")).to_be_visible()
    expect(page.locator("#join [data-own-table]")).to_be_hidden()
    expect(page.locator("#join-form")).to_be_visible()
    page.close()
