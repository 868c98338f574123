"""The review of a game played on the device, in the offline app with the network off (issue
26, item 3): the worker (Pyodide) works it out at the device's budget
(:data:`mattis.bots.review.DEVICE_ITERATIONS`), the sheet shows its progress and says the review
is a simpler one, and it passes axe. Prints how long the review took (``-s``)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, expect

from mattis.bots.review import DEVICE_ITERATIONS

from .axe_helpers import axe_violations
from .browser_helpers import watch_console
from .test_offline_app_browser import base_url, browser, built, context, create, installed, launched, play
from .test_web_axe import set_theme
from .test_web_table_page import shoot

pytestmark = pytest.mark.browser

__all__ = ["base_url", "browser", "built", "context", "launched"]  # the offline app's fixtures, shared

SEATS = [{"kind": "human", "name": "Kari"}, {"kind": "bot", "level": "normal"},
         {"kind": "bot", "level": "easy"}]


def test_the_device_reviews_your_game_more_simply_and_says_so(
        context: BrowserContext, base_url: str, shots: Path) -> None:
    page = installed(context, base_url)
    page.set_viewport_size({"width": 390, "height": 844})
    context.set_offline(True)
    created = create(page, {"rules": "kortregler", "players": 3, "seed": 5, "seats": SEATS}, where="local")
    table_id = created["data"]["table"]
    play(page, table_id)
    problems = watch_console(page)
    page.goto(f"{base_url}/t/{table_id}?lang=nn&pause=0")
    expect(page.locator("[data-result]")).to_be_visible(timeout=60_000)
    started = time.monotonic()
    page.locator("[data-review-open]").click()
    expect(page.locator("[data-review-open]")).to_have_text("Se gjennom spelet")
    expect(page.locator("[data-review-progress]")).to_be_visible()
    expect(page.locator("[data-review-device]")).to_be_visible()  # said while it works, too
    page.screenshot(path=str(shots / "review-device-progress.png"))
    expect(page.locator("[data-review-chart] polyline")).to_be_visible(timeout=300_000)
    seconds = time.monotonic() - started
    # the worker answered the page's asks while it worked: the bar moved before the end
    assert page.evaluate("document.getElementById('review-bar').value") > 0
    choices = page.locator(".review-choices tbody tr").count()
    print(f"\ndevice review (Pyodide in Chromium, {DEVICE_ITERATIONS} deals a choice): "
          f"{choices} choices in {seconds:.1f} s")
    expect(page.locator("[data-review-device]")).to_have_text(
        "Gjennomgangen på denne eininga er enklare: færre tilfeldige utdelingar per val, så tala er "
        "mindre sikre enn på ein tenar.")
    expect(page.locator("[data-review-sentence]")).not_to_be_empty()
    shoot(page, shots / "review-device-phone-light.png")
    for theme in ("light", "dark"):
        set_theme(page, theme)
        found = axe_violations(page)
        assert not found, (theme, found)
    assert problems == []
