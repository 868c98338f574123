"""The spectator's page in Chromium (issue 26, item 1): ``/t/{ID}?watch=…`` shows the felt
from no seat with "Du ser på", no hand and nothing that acts, on a phone and a desktop, light
and dark, and passes axe-core; the player's page counts who watches (``[data-watchers]``),
offers the watch link, and turns watching off. ``docs/web.md`` ("Spectators") is the contract.
Screenshots go to ``$MATTIS_SCREENSHOTS`` when it is set.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from .browser_helpers import OVERFLOW, PHONE, post, watch_console
from .test_web_axe import Combo, Tour, set_lang, set_theme
from .test_web_table_page import DESKTOP, events, seats, shoot, sit_down

pytestmark = pytest.mark.browser


def watch(browser: Browser, table: dict[str, Any], options: dict[str, Any], lang: str = "nb") -> Page:
    """A spectator's page, opened with the watch link the table's creator was given."""
    page = browser.new_context(**options).new_page()
    page.goto(f"{table['watch']}&lang={lang}&pause=0")
    expect(page.locator("#felt")).to_be_visible(timeout=20_000)
    return page


@pytest.mark.parametrize(("where", "viewport", "mobile", "combos"), [
    ("phone", PHONE, True, [("light", "nb"), ("dark", "nb"), ("dark", "en")]),
    ("desktop", DESKTOP, False, [("light", "nb"), ("dark", "en")]),
], ids=["phone", "desktop"])
def test_a_spectator_sees_the_felt_from_no_seat_and_the_player_sees_them_counted(
        browser: Browser, base_url: str, shots: Path, where: str, viewport: ViewportSize, mobile: bool,
        combos: list[Combo]) -> None:
    options: dict[str, Any] = {"viewport": viewport, "is_mobile": mobile, "has_touch": mobile}
    table = post(base_url, "/api/tables", {"players": 3, "seats": seats(3), "seed": 21})
    player = browser.new_context(**options).new_page()
    player_problems = watch_console(player)
    sit_down(player, base_url, table, "nb")
    expect(player.locator("[data-watchers]")).to_be_hidden()

    spectator = watch(browser, table, options)
    problems = watch_console(spectator)
    expect(spectator.locator("[data-spectating]")).to_have_text("Du ser på")
    expect(spectator.locator("#players [data-seat]")).to_have_count(3)
    expect(spectator.locator("#players .seat.you")).to_have_count(0)
    assert spectator.locator("#hand [data-card]").count() == 0
    for hidden in ("#hand", '[data-action="hint"]', '[data-action="chance"]', '[data-action="pickup"]'):
        expect(spectator.locator(hidden)).to_be_hidden()
    expect(spectator.locator('[data-reaction="thumbs_up"]')).to_be_visible()
    expect(spectator.locator("#settings-watch")).to_be_hidden()  # a spectator is not given the link

    watchers = player.locator("[data-watchers]")
    expect(watchers).to_have_attribute("data-watchers", "1")
    expect(watchers).to_be_visible()
    expect(watchers).to_have_text("1 ser på")

    # the player moves: the spectator's felt follows; the spectator reacts: the player sees it
    before = events(spectator)
    player.locator('#hand [data-card][data-playable="true"]').first.click()
    spectator.wait_for_function(f"() => Number(document.querySelector('#game').dataset.events) > {before}")
    spectator.locator('[data-reaction="wow"]').click()
    expect(player.locator('#watchers-bubble[data-shown-reaction="wow"]')).to_be_visible()
    assert spectator.evaluate(OVERFLOW, {"textOnly": True}) == []

    tour = Tour(f"{where}-spectator", combos, shots)
    tour.check(spectator, "spectator")
    set_lang(spectator, "nb")
    for theme in ("light", "dark"):
        set_theme(spectator, theme)
        spectator.wait_for_timeout(100)
        shoot(spectator, shots / f"spectator-{where}-{theme}.png")

    # the player's settings hold the watch link and the switch; off closes the spectator's view
    player.locator('[data-action="settings"]').click()
    link = player.locator("#settings-watch [data-watch-link]")
    expect(link).to_have_value(table["watch"].replace("localhost", "127.0.0.1"))
    tour.check(player, "player settings")
    shoot(player, shots / f"watch-link-{where}.png")
    if not player.locator("#settings-panel").is_visible():  # a click on the header's languages closed it
        player.locator('[data-action="settings"]').click()
    player.locator("[data-watching-allowed]").uncheck()
    expect(spectator.locator("[data-watch-note]")).to_contain_text("slått av", timeout=10_000)
    expect(watchers).to_be_hidden()
    shoot(spectator, shots / f"spectator-off-{where}.png")
    player.locator("[data-watching-allowed]").check()
    again = watch(browser, table, options)
    expect(again.locator("[data-spectating]")).to_be_visible()
    expect(watchers).to_have_attribute("data-watchers", "1")

    tour.report()
    found = {key: violations for key, violations in tour.violations.items() if violations}
    assert not found, found
    for name, small in tour.sizes.items():
        assert not small["small_controls"], (name, small["small_controls"][:5])
    assert problems == [] and player_problems == []
