"""How still, big and quick the table page is (issue 24): layout shift, sizes, taps per move.

Starts ``mattis serve`` on a fresh SQLite file and plays whole games against two bots in
headless Chromium (Debian's, at ``/usr/bin/chromium``) on a 390×844 touch phone and a
1280×800 desktop, playing the first playable card each turn. Prints, for each screen:

* the cumulative layout shift over the whole game (``PerformanceObserver`` ``layout-shift``,
  every entry without recent input, as the issue measured it, and all entries);
* how far the hand's top moved on the page between your turns (px, the largest difference);
* taps (clicks on the desktop) per move;
* the smallest text (CSS px) and the smallest control (its shorter side, CSS px) on each page:
  the start page, the invite page, the waiting room, the table, the result and the rules.

    python benchmarks/table_steadiness.py --games 1

Needs the ``web`` and ``test`` extras (Playwright). The machine is shared: the figures of
layout and size do not depend on its load; run it to compare before and after a change.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, ViewportSize, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.browser_helpers import ARGS, CHROMIUM, SIZES, WATCH_SHIFTS, post, served_site

SCREENS: dict[str, ViewportSize] = {
    "phone": {"width": 390, "height": 844},
    "desktop": {"width": 1280, "height": 800},
}

HAND_TOP = "document.getElementById('hand').getBoundingClientRect().top + scrollY"
"""The hand's top on the page (not the screen: a page that scrolls to a card has not moved)."""


def sizes(page: Page) -> str:
    found: dict[str, Any] = page.evaluate(SIZES)
    (text, text_where), (control, control_where) = found["text"], found["control"]
    return f"text {text:.1f} px ({text_where}), control {control} px ({control_where})"


def play_game(page: Page, touch: bool) -> dict[str, Any]:
    """Play the first playable card (or chance, or pick up) each turn to the end."""
    taps = moves = choices = 0
    hand_tops: list[float] = []
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        if page.locator("#result").is_visible():
            break
        legal = page.locator("#hand .card[data-playable='true']")
        if page.locator("body.my-turn").count() and legal.count():
            hand_tops.append(page.evaluate(HAND_TOP))
            events = page.locator("#game").get_attribute("data-events")
            card = legal.first
            code = card.get_attribute("data-card")
            for _ in range(3):
                card = page.locator(f"#hand [data-card='{code}']")
                if touch:
                    card.tap()
                else:
                    card.click()
                taps += 1
                page.wait_for_timeout(120)
                if page.locator("#chooser").is_visible():
                    page.locator("#chooser button").last.click()
                    taps += 1
                    choices += 1
                    break
                if (
                    page.locator("#game").get_attribute("data-events") != events
                    or not card.count()
                    or card.get_attribute("data-raised") != "true"
                ):
                    break
            moves += 1
        else:
            for button in ("#pickup", "#chance"):
                if page.locator(f"{button}:not([disabled])").is_visible():
                    hand_tops.append(page.evaluate(HAND_TOP))
                    page.locator(button).tap() if touch else page.click(button)
                    taps += 1
                    moves += 1
                    break
            page.wait_for_timeout(60)
    shifts: dict[str, float] = page.evaluate("window.shifts")
    return {
        "moves": moves,
        "taps": taps,
        "choices": choices,
        "shifts": shifts,
        "hand_moved": max(hand_tops) - min(hand_tops) if hand_tops else 0.0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1, help="whole games per screen")
    options = parser.parse_args()
    with (
        tempfile.TemporaryDirectory() as folder,
        served_site(Path(folder)) as base,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for screen, viewport in SCREENS.items():
            touch = screen == "phone"
            context = browser.new_context(viewport=viewport, has_touch=touch, is_mobile=touch)
            context.add_init_script(WATCH_SHIFTS)
            page = context.new_page()
            page.goto(f"{base}/?lang=nb", wait_until="networkidle")
            print(f"{screen} start page: {sizes(page)}")
            page.goto(f"{base}/rules?lang=nb", wait_until="networkidle")
            print(f"{screen} rules page: {sizes(page)}")
            # a table with a free seat: its waiting room, and a friend's invite page
            table = post(
                base,
                "/api/tables",
                {
                    "rules": "pagat",
                    "players": 3,
                    "seats": [
                        {"kind": "human", "name": "Mormor"},
                        {"kind": "open"},
                        {"kind": "bot", "level": "normal"},
                    ],
                },
            )
            page.evaluate(
                "([k, v]) => localStorage.setItem(k, v)",
                [f"mattis.seat.{table['table']}", json.dumps({"seat": 0, "token": table["token"]})],
            )
            page.goto(f"{base}/t/{table['table']}?lang=nb")
            page.locator("#waiting").wait_for()
            print(f"{screen} waiting room: {sizes(page)}")
            friend = browser.new_context(viewport=viewport, has_touch=touch, is_mobile=touch).new_page()
            friend.goto(f"{base}/t/{table['table']}?lang=nb")
            friend.locator("#join-form").wait_for()
            print(f"{screen} invite page: {sizes(friend)}")
            friend.context.close()
            for game in range(options.games):
                body = {
                    "rules": "pagat",
                    "players": 3,
                    "seats": [
                        {"kind": "human", "name": "Mormor"},
                        {"kind": "bot", "level": "normal"},
                        {"kind": "bot", "level": "normal"},
                    ],
                }
                table = post(base, "/api/tables", body)
                page = context.new_page()
                page.goto(f"{base}/?lang=nb")
                page.evaluate(
                    "([k, v]) => localStorage.setItem(k, v)",
                    [f"mattis.seat.{table['table']}", json.dumps({"seat": 0, "token": table["token"]})],
                )
                page.goto(f"{base}/t/{table['table']}?lang=nb&pause=300")
                page.locator("#hand .card").first.wait_for()
                page.wait_for_timeout(400)
                print(f"{screen} table: {sizes(page)}")
                found = play_game(page, touch)
                print(
                    f"{screen} game {game + 1}: layout shift {found['shifts']['quiet']:.3f} "
                    f"(all entries {found['shifts']['all']:.3f}), hand moved {found['hand_moved']:.1f} px "
                    f"between turns, {found['taps']} taps for {found['moves']} moves "
                    f"({found['taps'] / max(1, found['moves']):.2f} a move; "
                    f"{found['choices']} of the taps chose a sequence)"
                )
                print(f"{screen} result: {sizes(page)}")
                page.close()
            context.close()
        browser.close()


if __name__ == "__main__":
    main()
