"""Issue 24 items 2 and 5 in a real headless Chromium on a phone: "Take back" against robots,
and what a robot played for you while you were away ([data-away-summary]), told to you alone;
and "Take back" in the offline app, where the table runs in the page's worker.

Screenshots go to ``$MATTIS_SCREENSHOTS`` when set, else to the test's temporary folder.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from mattis.web import pwa

from .app_helpers import CREATE, FAST_BOTS, install
from .browser_helpers import PHONE, get, post, watch_console
from .web_helpers import free_port, server

pytestmark = pytest.mark.browser
"""Every test here drives Chromium (the fast loop leaves them out: ``-m "not browser"``)."""

HIDE = """(hidden) => {
  Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
  const state = hidden ? "hidden" : "visible";
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => state });
  document.dispatchEvent(new Event("visibilitychange"));
}"""
"""What the browser does when the phone shows another app, and when it shows the page again."""


@pytest.fixture(scope="module")
def quick_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose stand-ins come after 1 s away (the other browser tests wait 600 s)."""
    port = free_port()
    db = f"sqlite:///{tmp_path_factory.mktemp('away') / 'away.sqlite3'}"
    with server(port, db, "--bot-delay", "0.05", "--absence", "1"):
        yield f"http://127.0.0.1:{port}"


def phone(browser: Browser) -> BrowserContext:
    return browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)


def sit_down(page: Page, base_url: str, table: str, seat: int, token: str, lang: str = "en") -> None:
    page.goto(f"{base_url}/?lang={lang}")
    page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                  [f"mattis.seat.{table}", json.dumps({"seat": seat, "token": token})])
    page.goto(f"{base_url}/t/{table}?lang={lang}")


def events(page: Page) -> int:
    return int(page.locator("#game").get_attribute("data-events") or 0)


def take_back_on_a_phone(page: Page, shots: Path, name: str) -> None:
    """On the table page of a robots-only game: "Take back" is there and disabled before the
    first move; after a move and the robots' replies it takes them back, and the hand and the
    table are as they were."""
    undo = page.locator('[data-action="undo"]')
    expect(page.locator("#hand .card.legal").first).to_be_visible(timeout=60_000)
    expect(undo).to_be_visible()
    expect(undo).to_be_disabled()
    hand_before = page.locator("#hand [data-card]").evaluate_all("cards => cards.map(c => c.dataset.card)")
    events_before = events(page)
    card = page.locator("#hand .card.legal").first
    played = card.get_attribute("data-card")
    card.click()
    if page.locator("#chooser").is_visible():
        page.locator("#chooser button").last.click()
    if page.locator("#hand .card.legal").count() == 0 or events(page) == events_before:
        page.wait_for_function("(n) => Number(document.querySelector('#game').dataset.events) > n",
                               arg=events_before)
    expect(undo).to_be_enabled(timeout=30_000)
    assert played not in page.locator("#hand [data-card]").evaluate_all(
        "cards => cards.map(c => c.dataset.card)")
    box = undo.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    page.screenshot(path=str(shots / f"{name}-before-take-back.png"))
    undo.click()
    page.wait_for_function("(n) => Number(document.querySelector('#game').dataset.events) === n",
                           arg=events_before, timeout=30_000)
    expect(page.locator(f'#hand [data-card="{played}"]')).to_be_visible()
    hand_after = page.locator("#hand [data-card]").evaluate_all("cards => cards.map(c => c.dataset.card)")
    assert hand_after == hand_before
    expect(undo).to_be_disabled()
    expect(page.locator("#hand .card.legal").first).to_be_visible()
    expect(page.locator(f'#area [data-card="{played}"]')).to_have_count(0)  # not on the table either
    page.screenshot(path=str(shots / f"{name}-after-take-back.png"))


def test_take_back_against_robots_on_a_phone(browser: Browser, base_url: str, shots: Path) -> None:
    table = post(base_url, "/api/tables", {"players": 3, "seed": 31, "seats": [
        {"kind": "human", "name": "Mormor"}, {"kind": "bot"}, {"kind": "bot"}]})
    context = phone(browser)
    page = context.new_page()
    problems = watch_console(page)
    sit_down(page, base_url, table["table"], 0, table["token"], "nb")
    expect(page.locator('[data-action="undo"]')).to_have_text("Angre")
    take_back_on_a_phone(page, shots, "phone")
    assert not problems, problems
    context.close()


def test_take_back_is_not_offered_at_a_table_of_people(browser: Browser, base_url: str) -> None:
    table = post(base_url, "/api/tables", {"players": 3, "seats": [
        {"kind": "human", "name": "Kari"}, {"kind": "open"}, {"kind": "bot"}]})
    post(base_url, f"/api/tables/{table['table']}/join", {"name": "Ola"})
    context = phone(browser)
    page = context.new_page()
    sit_down(page, base_url, table["table"], 0, table["token"])
    expect(page.locator("#hand .card").first).to_be_visible()
    expect(page.locator('[data-action="undo"]')).to_be_hidden()
    context.close()


def play_when_legal(page: Page) -> None:
    legal = page.locator("#hand .card.legal")
    if legal.count():
        legal.first.click()
        if page.locator("#chooser").is_visible():
            page.locator("#chooser button").last.click()
    elif page.locator("#pickup").is_visible() and page.locator("#pickup").is_enabled():
        page.locator("#pickup").click()
    elif page.locator("#chance").is_visible() and page.locator("#chance").is_enabled():
        page.locator("#chance").click()


def test_back_from_away_a_phone_shows_what_the_robot_played_for_you_alone(
        browser: Browser, quick_site: str, shots: Path) -> None:
    table = post(quick_site, "/api/tables", {"players": 3, "seed": 5, "seats": [
        {"kind": "human", "name": "Kari"}, {"kind": "open"}, {"kind": "bot"}]})
    kari_context, ola_context = browser.new_context(viewport={"width": 1280, "height": 800}), phone(browser)
    kari, ola_page = kari_context.new_page(), ola_context.new_page()
    problems = watch_console(ola_page)
    sit_down(kari, quick_site, table["table"], 0, table["token"])
    ola_page.goto(f"{quick_site}/t/{table['table']}?lang=nb")  # Ola joins by the invite
    ola_page.fill("#join-name", "Ola")
    ola_page.click("#join-form button")
    expect(ola_page.locator("#hand .card").first).to_be_visible()
    ola = {"seat": 1}
    expect(ola_page.locator("[data-away-summary]")).to_be_hidden()
    ola_page.evaluate(HIDE, True)  # Ola switches to another app: his absence clock starts
    deadline = time.monotonic() + 60
    while not get(quick_site, f"/api/tables/{table['table']}")["seats"][ola["seat"]]["stand_in"]:
        assert time.monotonic() < deadline, "no stand-in came"
        play_when_legal(kari)
        kari.wait_for_timeout(100)
    ola_name = get(quick_site, f"/api/tables/{table['table']}")["seats"][ola["seat"]]["name"]
    while "A robot" not in (kari.locator("#log").text_content() or ""):  # his robot plays
        assert time.monotonic() < deadline, "the stand-in never played"
        play_when_legal(kari)
        kari.wait_for_timeout(100)
    assert f"for {ola_name}" in (kari.locator("#log").text_content() or "")
    expect(ola_page.locator("[data-away-summary]")).to_be_hidden()  # not while he is away
    ola_page.evaluate(HIDE, False)  # back
    summary = ola_page.locator("[data-away-summary]")
    expect(summary).to_be_visible(timeout=10_000)
    expect(summary).to_contain_text("Mens du var borte, spilte en robot")
    expect(summary).to_contain_text("for deg")
    assert ola_page.locator("[data-away-summary]").evaluate(
        "node => node.closest('[aria-live]')?.getAttribute('aria-live')") == "polite"
    box = summary.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert "En robot " in (ola_page.locator("#log").text_content() or "")
    ola_page.screenshot(path=str(shots / "phone-away-summary.png"))
    expect(kari.locator("[data-away-summary]")).to_be_hidden()  # told to Ola alone
    summary.get_by_role("button").click()
    expect(summary).to_be_hidden()
    ola_page.evaluate("import('/static/table/away.js').then(m => m.showAwaySummary({text: 'again'}))")
    expect(summary).to_be_visible()
    ola_page.keyboard.press("Escape")  # Escape dismisses it too
    expect(summary).to_be_hidden()
    assert not problems, problems
    kari_context.close()
    ola_context.close()


@pytest.fixture(scope="module")
def app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    pwa.build(say=lambda line: None)  # once per machine: does nothing when current
    port = free_port()
    db = f"sqlite:///{tmp_path_factory.mktemp('app') / 'app.sqlite3'}"
    with server(port, db, "--bot-delay", "0", "--absence", "600"):
        yield f"http://127.0.0.1:{port}"


def test_take_back_in_the_offline_app_on_a_phone(browser: Browser, app_url: str, shots: Path) -> None:
    context = phone(browser)
    page = context.new_page()
    install(page, f"{app_url}/?lang=en")
    page.evaluate(FAST_BOTS)
    context.set_offline(True)
    page.reload()
    created: dict[str, Any] = page.evaluate(CREATE, {"body": {"players": 3, "seed": 9, "seats": [
        {"kind": "human", "name": "Kari"}, {"kind": "bot"}, {"kind": "bot"}]}, "lang": "en", "where": "auto"})
    assert created["ok"] and created["data"]["table"].startswith("local-"), created
    table = created["data"]  # the seat is kept in the page's storage, as the start page keeps it
    page.goto(f"{app_url}/t/{table['table']}?lang=en")
    take_back_on_a_phone(page, shots, "app-phone")
    context.close()
