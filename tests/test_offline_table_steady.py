"""The table page of the offline app, on a phone with the network off (issue 24, item 12): it
asks for nothing that cannot exist (a table on the device has no invite QR code on a server),
logs no console error, and its header stays on one line at 390 px.

The build (Pyodide from npm, the icons) is made when missing, as in
``test_offline_app_browser.py``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Request, expect

from mattis.web import pwa

from .app_helpers import CREATE, FAST_BOTS, install, wait_until
from .browser_helpers import PHONE, watch_console
from .test_web_table_page import first_move
from .web_helpers import free_port, server

pytestmark = pytest.mark.browser
"""Every test here drives Chromium (the fast loop leaves them out: ``-m "not browser"``)."""


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    pwa.build(say=lambda line: None)  # once per machine: does nothing when current
    port = free_port()
    db = f"sqlite:///{tmp_path_factory.mktemp('app') / 'app.sqlite3'}"
    with server(port, db, "--bot-delay", "0", "--absence", "600"):
        yield f"http://127.0.0.1:{port}"


def test_an_offline_table_asks_for_nothing_that_cannot_exist(browser: Browser, base_url: str) -> None:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    install(page, f"{base_url}/?lang=nb")
    page.evaluate(FAST_BOTS)
    context.set_offline(True)
    body = {"rules": "pagat", "players": 3, "seed": 5,
            "seats": [{"kind": "human", "name": "Mormor Ingeborg"}, {"kind": "bot"}, {"kind": "bot"}]}
    created = page.evaluate(CREATE, {"body": body, "lang": "nb", "where": "local"})
    assert created["ok"], created
    table_id = created["data"]["table"]
    asked: list[str] = []
    failed: list[str] = []

    def request(sent: Request) -> None:
        asked.append(sent.url)

    page.on("request", request)
    page.on("requestfailed", lambda sent: failed.append(sent.url))
    problems = watch_console(page)
    for _ in range(2):  # the first load, and a reload in the middle of the game
        page.goto(f"{base_url}/t/{table_id}?lang=nb&pause=0")
        expect(page.locator("#hand [data-card]").first).to_be_visible(timeout=90_000)
        expect(page.locator("#device-badge")).to_be_visible()
        for _ in range(3):
            wait_until(page, "document.getElementById('game').dataset.toMove === '0'")
            events = page.locator("#game").get_attribute("data-events")
            first_move(page).tap()
            if page.locator("#chooser").is_visible():
                page.locator("#chooser [data-action]").first.tap()
            wait_until(page, f"document.getElementById('game').dataset.events !== '{events}'")
    assert not [url for url in asked if "qr.svg" in url], "a table on the device has no QR code to ask for"
    assert not failed, failed
    assert not problems, problems
    header = page.locator("header.bar").evaluate(
        "bar => [...bar.querySelectorAll('h1, a, button')].filter((el) => el.getClientRects().length)"
        ".map((el) => el.getBoundingClientRect()).map((r) => [r.top, r.bottom])")
    assert max(bottom for _, bottom in header) - min(top for top, _ in header) < 56, header
    context.close()
