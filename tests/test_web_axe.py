"""axe-core finds nothing on any page (issue 24, item 11), and the table page's text and
controls are big enough on each (item 4).

axe-core is pinned from npm (``tests/axe/package-lock.json``, installed on first use by
``tests/axe_helpers.py``) and runs at WCAG 2.2 AA (``wcag2a``, ``wcag2aa``, ``wcag21a``,
``wcag21aa``, ``wcag22aa``) on the start page, the invite page, the waiting room, the table in
phase 1 (with its settings panel or the rules sheet open too), in a war and in phase 2, the
result and the rules page: in the light theme and the dark, in bokmål and English, on a desktop and a phone.
Each page is brought into its state once, then switched in place between themes and
languages. The counts and the smallest text and control of each page are printed (``-s``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from .axe_helpers import axe_violations, pinned_version
from .browser_helpers import PHONE, post, watch_console
from .test_web_table_page import (
    DESKTOP,
    follow_script,
    long_phase_two,
    play_by_hooks,
    seats,
    shoot,
    sit_down,
    war_on_the_first_trick,
)
from .test_web_table_steady import measure

pytestmark = pytest.mark.browser
"""Every test here drives Chromium (the fast loop leaves them out: ``-m "not browser"``)."""

Combo = tuple[str, str]
"""A theme and a language: ("dark", "en")."""

EVERY_COMBO: list[Combo] = [("light", "nb"), ("dark", "nb"), ("dark", "en"), ("light", "en")]
TABLE_PAGES = {"invite", "waiting", "phase 1", "settings", "rules sheet", "war", "phase 2", "result"}
"""The states of the table page, where no text is under 14 px (no control on any page is
under 44×44 px)."""


def set_theme(page: Page, theme: str) -> None:
    """The theme as the page's switch leaves it (theme.js): kept, and on <html>."""
    page.evaluate("""(theme) => {
      localStorage.setItem('mattis.theme', theme);
      document.documentElement.dataset.theme = theme;
      document.documentElement.style.colorScheme = theme;
    }""", theme)


def set_lang(page: Page, lang: str) -> None:
    """Switch the table page's language with its own buttons (in the header on a wide
    screen, in the settings panel on a narrow one)."""
    if page.evaluate("document.documentElement.lang") == lang:
        return
    header = page.locator(f'#lang button[lang="{lang}"]')
    if header.is_visible():
        header.click()
    else:
        was_open = page.locator("#settings-panel").is_visible()
        if not was_open:
            page.locator('[data-action="settings"]').click()
        page.locator(f'#settings-lang button[lang="{lang}"]').click()
        if not was_open:
            page.keyboard.press("Escape")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    page.wait_for_timeout(300)  # the server's state in the new language


class Tour:
    """What the tour found: axe's violations and the sizes, by page and combination."""

    def __init__(self, where: str, combos: list[Combo], shots: Path) -> None:
        self.where = where
        self.combos = combos
        self.shots = shots
        self.violations: dict[str, list[dict[str, Any]]] = {}
        self.sizes: dict[str, dict[str, Any]] = {}

    def check(self, page: Page, name: str, reload: Callable[[Combo], None] | None = None) -> None:
        """Run axe on the page in every combination: switched in place, or with ``reload``
        (a page without a language switch of its own to click)."""
        for combo in self.combos:
            theme, lang = combo
            if reload:
                reload(combo)
            else:
                set_lang(page, lang)
            set_theme(page, theme)
            page.wait_for_timeout(100)
            if combo == self.combos[0]:
                self.sizes[name] = measure(page)
                shoot(page, self.shots / f"axe-{self.where}-{name.replace(' ', '-')}-{lang}-{theme}.png")
            self.violations[f"{name} ({theme}, {lang})"] = axe_violations(page)

    def report(self) -> None:
        print(f"\naxe-core {pinned_version()} at WCAG 2.2 AA, {self.where}:")
        for key, found in self.violations.items():
            print(f"  {key}: {len(found)} violations")
            for violation in found:
                print(f"    {violation['id']}: {'; '.join(violation['nodes'][:4])}")
        for name, sizes in self.sizes.items():
            text, control = sizes["text"], sizes["control"]
            smallest = "-"
            if control:
                smallest = f"{control['width']:.0f}×{control['height']:.0f} px ({control['what']})"
            print(f"  {name}: smallest text {text['size']} px ({text['what']}), smallest control {smallest}")


@pytest.mark.parametrize(("where", "viewport", "mobile", "combos"), [
    ("desktop", DESKTOP, False, EVERY_COMBO),
    ("phone", PHONE, True, [("light", "nb"), ("dark", "en")]),
], ids=["desktop", "phone"])
def test_every_page_passes_axe_at_wcag_22_aa_and_the_table_is_big_enough(
        browser: Browser, base_url: str, shots: Path, where: str, viewport: ViewportSize, mobile: bool,
        combos: list[Combo],
) -> None:
    tour = Tour(where, combos, shots)
    options: dict[str, Any] = {"viewport": viewport, "is_mobile": mobile, "has_touch": mobile}
    context = browser.new_context(**options)
    page = context.new_page()
    problems = watch_console(page)

    def start_page(combo: Combo) -> None:
        page.goto(f"{base_url}/?lang={combo[1]}")
        expect(page.locator("#name")).to_be_visible()
        page.wait_for_load_state("networkidle")

    tour.check(page, "start", reload=start_page)

    def rules_page(combo: Combo) -> None:
        page.goto(f"{base_url}/rules?lang={combo[1]}")
        expect(page.locator("h2").first).to_be_visible()

    tour.check(page, "rules", reload=rules_page)

    # the invite page (a friend without a seat) and the waiting room (the host)
    waiting = post(base_url, "/api/tables", {"players": 3, "seats": seats(3, open_seats=1), "seed": 9})
    friend = browser.new_context(**options).new_page()
    friend.goto(f"{base_url}/t/{waiting['table']}?lang=nb")
    expect(friend.locator("#join-heading")).to_contain_text("Kari")
    tour.check(friend, "invite")
    friend.context.close()
    host = context.new_page()
    key = f"mattis.seat.{waiting['table']}"
    token = waiting["token"]
    host.add_init_script(f"localStorage.setItem('{key}', JSON.stringify({{seat: 0, token: '{token}'}}))")
    host.goto(f"{base_url}/t/{waiting['table']}?lang=nb")
    expect(host.locator("#waiting")).to_be_visible()
    tour.check(host, "waiting")
    host.close()

    # the table: phase 1, with the settings open, and a war
    body, card = war_on_the_first_trick()
    table = post(base_url, "/api/tables", body)
    sit_down(page, base_url, table, "nb", pause=0)
    tour.check(page, "phase 1")
    page.locator('[data-action="settings"]').click()
    expect(page.locator("#settings-panel")).to_be_visible()
    tour.check(page, "settings")
    page.keyboard.press("Escape")

    def rules_sheet(combo: Combo) -> None:  # a modal: the header's switches wait behind it
        if page.locator("[data-rules-sheet]").is_visible():
            page.keyboard.press("Escape")
        set_lang(page, combo[1])
        page.locator('[data-action="rules"]').click()
        expect(page.locator("[data-rules-sheet] h2").first).to_be_visible()

    tour.check(page, "rules sheet", reload=rules_sheet)
    page.keyboard.press("Escape")
    expect(page.locator("[data-rules-sheet]")).to_be_hidden()
    set_lang(page, "nb")
    page.click(f'#hand [data-card="{card}"]')
    expect(page.locator("[data-war]")).to_be_visible(timeout=10_000)
    tour.check(page, "war")

    # phase 2 and the result
    body, script = long_phase_two(12)
    table = post(base_url, "/api/tables", body)
    sit_down(page, base_url, table, "nb", pause=0)
    follow_script(page, script)
    expect(page.locator("#status")).to_contain_text("fase 2", timeout=10_000)
    tour.check(page, "phase 2")
    set_lang(page, "nb")
    play_by_hooks(page)
    expect(page.locator("[data-result]")).to_be_visible()
    tour.check(page, "result")

    tour.report()
    found = {key: violations for key, violations in tour.violations.items() if violations}
    assert not found, found
    for name, small in tour.sizes.items():
        assert not small["small_controls"], (name, small["small_controls"][:5])
        if name in TABLE_PAGES:
            assert not small["small_texts"], (name, small["small_texts"][:5])
    assert not problems, problems
    context.close()
