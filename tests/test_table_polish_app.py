"""Issue 24, part B, with the offline app's service worker active: the rules page leads back to
the exact table it came from when the worker serves it (the worker keeps one ``/rules?lang=X``
page and drops ``?back=``), and a table on the device loads with no console error, asks for
no QR code, and its header fits one line on a 390 px phone.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Literal

import pytest
from playwright.sync_api import Browser, Playwright, Response, expect

from mattis.web import pwa

from .app_helpers import CREATE, FAST_BOTS, chromium, install, wait_until
from .browser_helpers import PHONE, watch_console
from .web_helpers import free_port, server

SEATS = [
    {"kind": "human", "name": "Mormor"},
    {"kind": "bot", "level": "normal"},
    {"kind": "bot", "level": "easy"},
]

HEADER_LINES = """() => {
  const bar = document.querySelector('header.bar');
  const tops = new Set();
  for (const node of bar.querySelectorAll('h1, a, button, select, .badge')) {
    if (!node.checkVisibility() || !node.getClientRects().length) continue;
    const box = node.getBoundingClientRect();
    tops.add(Math.round(box.top + box.height / 2));
  }
  return { centres: [...tops], height: bar.getBoundingClientRect().height, width: bar.scrollWidth };
}"""
"""The vertical centres of the header's visible items (one line: all about the same)."""


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    pwa.build(say=lambda line: None)  # once per machine: does nothing when current
    port = free_port()
    db = f"sqlite:///{tmp_path_factory.mktemp('polish-app') / 'app.sqlite3'}"
    with server(port, db, "--bot-delay", "0", "--absence", "600"):
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    both: tuple[Playwright, Browser]
    with chromium() as both:
        yield both[1]


@pytest.mark.parametrize("lang", ["nb", "en"])
def test_the_rules_page_served_by_the_worker_leads_back_to_its_table(
    browser: Browser, base_url: str, lang: str
) -> None:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    install(page, f"{base_url}/?lang={lang}")
    created = page.evaluate(
        CREATE, {"body": {"rules": "pagat", "players": 3, "seats": SEATS}, "lang": lang, "where": "server"}
    )
    table = created["data"]["table"]
    page.goto(f"{base_url}/t/{table}?lang={lang}")
    expect(page.locator("#hand .card").first).to_be_visible(timeout=30_000)
    href = page.locator('[data-action="rules"]').get_attribute("href")
    assert href and "back=" in href
    answered: list[Response] = []
    page.on("response", lambda response: answered.append(response) if "/rules" in response.url else None)
    page.goto(f"{base_url}{href}")
    assert answered and answered[0].from_service_worker  # the worker's page, kept without ?back=
    back = page.locator("a[data-back]")
    expect(back.first).to_have_attribute("href", f"/t/{table}")
    for index in range(back.count()):
        expect(back.nth(index)).to_have_attribute("href", f"/t/{table}")
    other = "en" if lang == "nb" else "nb"
    expect(page.locator(f'.lang a[lang="{other}"]')).to_have_attribute(
        "href", f"/rules?lang={other}&back=%2Ft%2F{table}"
    )
    back.first.click()
    page.wait_for_url(f"**/t/{table}")
    expect(page.locator("#hand .card").first).to_be_visible(timeout=30_000)
    context.close()


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_table_on_the_device_offline_has_no_console_error_no_qr_and_a_one_line_header(
    browser: Browser, base_url: str, shots: Path, theme: Literal["light", "dark"]
) -> None:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, color_scheme=theme)
    page = context.new_page()
    install(page, f"{base_url}/?lang=nb")
    page.evaluate(FAST_BOTS)
    context.set_offline(True)
    created = page.evaluate(
        CREATE, {"body": {"rules": "pagat", "players": 3, "seats": SEATS}, "lang": "nb", "where": "local"}
    )
    table = created["data"]["table"]
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    problems = watch_console(page)
    page.goto(f"{base_url}/t/{table}?lang=nb&pause=0")
    expect(page.locator("#hand [data-card]").first).to_be_visible(timeout=60_000)
    expect(page.locator("#device-badge")).to_be_visible()
    wait_until(page, "document.getElementById('game').dataset.toMove === '0'")
    page.locator('#hand [data-playable="true"]').first.tap()
    page.wait_for_timeout(500)
    page.reload()
    expect(page.locator("#hand [data-card]").first).to_be_visible(timeout=60_000)
    page.wait_for_timeout(300)
    header = page.evaluate(HEADER_LINES)
    page.screenshot(path=str(shots / f"phone-offline-table-{theme}.png"))
    assert max(header["centres"]) - min(header["centres"]) <= 4, header
    assert header["height"] <= 56 and header["width"] <= PHONE["width"], header
    assert not [url for url in asked if "qr.svg" in url]
    assert not problems, problems
    context.close()
