"""The review of your game in the browser (issue 26, item 3): from the result screen of a
finished game, "Review the game" opens a sheet that shows its progress, then your risk as an
SVG line over the game, a step-through of your choices with every move's risk, and the turning
points in words; on a 390×844 phone and a 1280×800 desktop, light and dark, axe-clean. The site
reviews with a small budget (``served_site``: ``--review-iterations 6``)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect
from websockets.sync.client import connect
from websockets.typing import Origin

from mattis.bots.review import plan_review

from .axe_helpers import axe_violations
from .browser_helpers import OVERFLOW, PHONE, get, post, watch_console
from .test_web_axe import set_theme
from .test_web_table_page import shoot

pytestmark = pytest.mark.browser

DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PACE = 0.11
"""Seconds between the scripted seat's moves (a socket may send ten messages a second)."""


def finished_table(base_url: str, seed: int) -> dict[str, Any]:
    """A three-player table whose first game seat 0 played to its end (its first legal move
    each turn, over a socket), as the create answer gave it."""
    table = post(base_url, "/api/tables", {
        "rules": "kortregler", "players": 3, "seed": seed,
        "seats": [{"kind": "human", "name": "Kari"}, {"kind": "bot", "level": "normal"},
                  {"kind": "bot", "level": "normal"}]})
    url = base_url.replace("http", "ws") + f"/ws/tables/{table['table']}?token={table['token']}&lang=en"
    acted_at = -1
    deadline = time.monotonic() + 120
    with connect(url, origin=Origin(base_url)) as socket:
        while time.monotonic() < deadline:
            message = json.loads(socket.recv(timeout=60))
            if message["type"] != "state" or message["view"] is None:
                continue
            if message["view"]["phase"] == "over":
                return table
            if message["legal"] and message["view"]["event_count"] != acted_at:
                acted_at = message["view"]["event_count"]
                time.sleep(PACE)
                socket.send(json.dumps({"type": "act", "action": message["legal"][0]}))
    raise AssertionError("the game did not end")


def open_review(page: Page, shot: Path | None = None) -> None:
    expect(page.locator("[data-result]")).to_be_visible(timeout=20_000)
    button = page.locator("[data-review-open]")
    expect(button).to_be_visible()
    if shot is not None:
        shoot(page, shot)
    button.click()
    expect(page.locator("[data-review]")).to_be_visible()
    expect(page.locator("[data-review-chart] polyline")).to_be_visible(timeout=90_000)


@pytest.mark.parametrize(("viewport", "name"), [(PHONE, "phone"), (DESKTOP, "desktop")])
def test_the_review_opens_from_the_result_and_steps_through_your_choices(
        browser: Browser, base_url: str, shots: Path, viewport: ViewportSize, name: str) -> None:
    table = finished_table(base_url, seed=5 if name == "phone" else 6)
    record = get(base_url, f"/api/tables/{table['table']}/record")
    page = browser.new_page(viewport=viewport)
    problems = watch_console(page)
    sit_down_finished(page, base_url, table, "nb")
    expect(page.locator("[data-review-open]")).to_have_text("Se gjennom spillet", timeout=20_000)
    open_review(page, shots / f"review-{name}-result.png")
    sheet = page.locator("[data-review]")
    # the keys stay in the sheet: Shift+Tab from its first control comes round to its last
    expect(page.locator("#review-close")).to_be_focused()
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.getElementById('review').contains(document.activeElement)")
    assert page.evaluate("document.activeElement.id") != "review-close"
    # the line over the game: a point for each choice, its title and description, and the text table
    chart = page.locator("[data-review-chart]")
    assert chart.get_attribute("role") == "img"
    expect(chart.locator("title")).to_have_text("Risikoen din for å bli Mattis gjennom spillet")
    rows = sheet.locator(".review-choices tbody tr")
    choices = rows.count()
    assert choices == len(plan_review(record, table["seat"]).choices) > 3  # every choice of yours
    points = chart.locator("polyline").get_attribute("points") or ""
    assert len(points.split()) == choices
    # the first choice: your hand as it was then, every move's risk, the one you played marked
    step = page.locator("[data-review-step]")
    expect(step.locator("#review-step-title")).to_contain_text(f"Valg 1 av {choices}")
    first_hand = page.locator("#review-hand [role=img]").get_attribute("aria-label") or ""
    assert first_hand and len(first_hand.split(", ")) >= 2
    options = page.locator("[data-review-options] li")
    assert options.count() >= 2
    expect(page.locator("[data-review-options] li.played")).to_have_count(1)
    expect(page.locator("[data-review-options] li.best")).to_have_count(1)
    # stepping on changes the position and the sentence
    page.locator("#review-next").click()
    expect(step.locator("#review-step-title")).to_contain_text(f"Valg 2 av {choices}")
    shoot(page, shots / f"review-{name}-light.png")
    # a turning point in words, as the terminal says it, and its button goes to that choice
    turning = page.locator("[data-review-turning] li")  # these seeded games have turning points
    assert turning.count() >= 1
    expect(turning.first).to_contain_text("ville ha senket risikoen fra")
    turning.first.locator("button").click()
    expect(page.locator("[data-review-sentence]")).to_contain_text("\u25c6")
    move = turning.first.get_attribute("data-turning-point")
    expect(page.locator("#review-step-title")).to_contain_text(f"Trekk {int(move or 0) + 1},")
    assert page.locator("[data-review-device]").is_hidden()  # the server's full budget
    shoot(page, shots / f"review-{name}-turning.png")
    assert page.evaluate(OVERFLOW, {"textOnly": True}) == []
    for theme in ("light", "dark"):
        set_theme(page, theme)
        found = axe_violations(page)
        assert not found, (theme, found)
    page.locator(".review-body").evaluate("(body) => body.scrollTo(0, 0)")
    shoot(page, shots / f"review-{name}-dark.png")
    page.keyboard.press("Escape")
    expect(sheet).to_be_hidden()
    expect(page.locator("[data-review-open]")).to_be_focused()
    assert problems == []
    page.close()


def sit_down_finished(page: Page, base_url: str, table: dict[str, Any], lang: str) -> None:
    """Open the table of a finished game as its seat 0 (the result screen shows at once)."""
    key, value = f"mattis.seat.{table['table']}", json.dumps({"seat": table["seat"], "token": table["token"]})
    page.add_init_script(f"localStorage.setItem({json.dumps(key)}, {json.dumps(value)})")
    page.goto(f"{base_url}/t/{table['table']}?lang={lang}&pause=0")
