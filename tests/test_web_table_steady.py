"""The table a grandparent enjoys (issue 24, items 3, 4, 5, 8, 10, 12): a table that holds
still, text and controls big enough, one tap to play, nothing covering anything else, a focus
ring that stands out on the cards, and nothing asked for offline that cannot exist.

Everything is measured in a real Chromium by walking the DOM (``getComputedStyle``,
``getBoundingClientRect``) and, for the layout shift, with a ``PerformanceObserver`` of
``layout-shift`` entries over a whole game. Screenshots go to ``$MATTIS_SCREENSHOTS`` when set.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from .browser_helpers import PHONE, post, watch_console
from .test_web_table_page import DESKTOP, events, seats, sit_down, wait_my_turn

pytestmark = pytest.mark.browser
"""Every test here drives Chromium (the fast loop leaves them out: ``-m "not browser"``)."""

SHIFT_WATCH = """() => {
  window.shifts = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      window.shifts.push({ value: entry.value, input: entry.hadRecentInput,
        sources: entry.sources.map((s) => {
          const n = s.node;
          const named = n && n.className && n.className.baseVal === undefined;
          const classes = named ? '.' + String(n.className).split(' ').join('.') : '';
          const name = !n ? '?' : n.id ? '#' + n.id : classes || n.nodeName;
          return name + ' ' + Math.round(s.previousRect.y) + '->' + Math.round(s.currentRect.y)
            + ' h' + Math.round(s.previousRect.height) + '->' + Math.round(s.currentRect.height);
        }) });
    }
  }).observe({ type: 'layout-shift', buffered: true });
}"""
"""Collects every ``layout-shift`` entry of the page from now on in ``window.shifts``."""


def play_whole_game(page: Page, tap: bool) -> int:
    """Play to the end: the first playable card (the first sequence if the chooser opens),
    else pick up or chance; by tap or by click. Returns the number of moves."""
    moves = 0
    seen = -1
    while wait_my_turn(page, seen):
        seen = events(page)
        playable = page.locator('#hand [data-playable="true"]')
        target = playable.first if playable.count() else page.locator(
            '.actions [data-action="pickup"]:enabled, .actions [data-action="chance"]:enabled').first
        if tap:
            target.tap()
        else:
            target.click()
        if page.locator("#chooser").is_visible():
            page.locator("#chooser [data-action]").first.click()
        moves += 1
        assert moves < 500
    return moves


def layout_shift(page: Page) -> tuple[float, float, list[dict[str, Any]]]:
    entries: list[dict[str, Any]] = page.evaluate("window.shifts")
    total = sum(entry["value"] for entry in entries)
    unprompted = sum(entry["value"] for entry in entries if not entry["input"])
    return total, unprompted, entries


@pytest.mark.parametrize(("viewport", "mobile"), [(PHONE, True), (DESKTOP, False)], ids=["phone", "desktop"])
def test_a_whole_game_holds_still(browser: Browser, base_url: str, viewport: Any, mobile: bool) -> None:
    context = browser.new_context(viewport=viewport, is_mobile=mobile, has_touch=mobile)
    page = context.new_page()
    problems = watch_console(page)
    table = post(base_url, "/api/tables", {"players": 4, "seats": seats(4), "seed": 11})
    sit_down(page, base_url, table, "nb", pause=30)
    page.evaluate(SHIFT_WATCH)
    play_whole_game(page, tap=False)
    total, unprompted, entries = layout_shift(page)
    where = "phone" if mobile else "desktop"
    print(f"layout shift {where}: all {total:.3f}, without recent input {unprompted:.3f}")
    worst = sorted(entries, key=lambda entry: -entry["value"])[:8]
    assert total <= 0.02, worst
    assert not problems, problems
    context.close()
