"""The start page, the rules page and the themes in a real headless Chromium (issue 15, items
5, 6, 7, 10 and 12): one click to a game, remembered choices, a table for friends, the
invite's QR code read back by a decoder, a phone screen with no cut-off text, the dark theme
and visible focus.

Screenshots (desktop and phone, light and dark, bokmål and English) go to
``$MATTIS_SCREENSHOTS`` when set, else to the test's temporary folder.
"""

from __future__ import annotations

import io
import json
import re
import urllib.request
from pathlib import Path
from typing import Any, Literal

import pytest
import zxingcpp
from PIL import Image
from playwright.sync_api import Browser, Page, ViewportSize, expect

from mattis.i18n import LANGS

from .browser_helpers import OVERFLOW, PHONE

pytestmark = pytest.mark.browser
"""Every test here drives Chromium (the fast loop leaves them out: ``-m "not browser"``)."""

DESKTOP: ViewportSize = {"width": 1200, "height": 900}
LIGHT_BG = "rgb(238, 242, 239)"
DARK_BG = "rgb(15, 20, 18)"
Scheme = Literal["light", "dark"]
THEME_VARIABLES = ("--bg", "--ink", "--paper", "--muted", "--felt", "--felt-dark", "--accent", "--focus",
                   "--focus-halo", "--danger", "--gold")


def api(base_url: str, path: str, body: dict[str, Any] | None = None) -> Any:
    request = urllib.request.Request(base_url + path, data=json.dumps(body).encode() if body else None,
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def watch_errors(page: Page) -> list[str]:
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    return problems


def open_start(page: Page, base_url: str, lang: str = "en") -> None:
    page.goto(f"{base_url}/?lang={lang}")
    expect(page.locator("#quick-summary")).not_to_be_empty()


def table_of(page: Page) -> str:
    page.wait_for_url("**/t/**")
    return page.url.rsplit("/t/", 1)[1].split("?")[0]


def seat_saved(page: Page, table: str) -> Any:
    return json.loads(page.evaluate(f"localStorage.getItem('mattis.seat.{table}')"))


# ---------------------------------------------------------------------------- one click


def test_quick_start_is_one_click_to_a_dealt_table_with_your_seat(browser: Browser, base_url: str) -> None:
    page = browser.new_page(viewport=DESKTOP)
    problems = watch_errors(page)
    open_start(page, base_url)
    expect(page.locator("#quick-summary")).to_contain_text("You and 2 computer players (normal)")
    page.click('[data-action="quick-start"]')
    table = table_of(page)
    expect(page.locator("[data-card]").nth(2)).to_be_visible()  # your three cards, dealt
    assert seat_saved(page, table)["seat"] == 0
    info = api(base_url, f"/api/tables/{table}")
    assert info["status"] == "playing" and info["preset"] == "pagat" and info["players"] == 3
    assert [(seat["kind"], seat["level"]) for seat in info["seats"]] == [
        ("human", None), ("bot", "normal"), ("bot", "normal")]
    assert not problems, problems
    page.close()


def test_the_last_choices_are_what_play_now_deals_next_time(browser: Browser, base_url: str) -> None:
    page = browser.new_page(viewport=DESKTOP)
    open_start(page, base_url)
    page.fill("#name", "Kari")
    page.locator(".preset-option", has_text="Duels").click()
    page.locator("#players .chip", has_text="4").click()
    kinds = page.locator("#seats select.kind")
    expect(kinds).to_have_count(3)
    for index, level in enumerate(("easy", "hard", "normal")):
        kinds.nth(index).select_option(f"bot:{level}")
    page.click("#house-rules > summary")
    page.locator('fieldset[data-field="min_sequence"] .chip', has_text="at least 2 cards").click()
    expect(page.locator("#changed")).to_have_text("1 changed")
    page.click("#rule-details > summary")  # the detail view names the field and the rule
    expect(page.locator("#details-table")).to_contain_text("min_sequence")
    expect(page.locator("#details-table")).to_contain_text("P2.2")
    page.click("#create")
    table_of(page)
    open_start(page, base_url)
    summary = page.locator("#quick-summary")
    expect(summary).to_contain_text("You and 3 computer players (easy, hard, normal)")
    expect(summary).to_contain_text("Duels, also for two + house rules")
    assert page.locator("#name").input_value() == "Kari"
    page.click('[data-action="quick-start"]')
    info = api(base_url, f"/api/tables/{table_of(page)}")
    assert info["players"] == 4 and info["rules"]["trick"] == "pair" and info["rules"]["min_sequence"] == 2
    assert [seat["level"] for seat in info["seats"]] == [None, "easy", "hard", "normal"]
    assert info["seats"][0]["name"] == "Kari"
    page.close()


def test_play_with_friends_makes_a_table_with_free_seats(browser: Browser, base_url: str) -> None:
    page = browser.new_page(viewport=DESKTOP)
    open_start(page, base_url, "nb")
    page.fill("#name", "Ola")
    page.locator("#friends-count .chip", has_text="4").click()
    page.click('[data-action="friends"]')
    table = table_of(page)
    info = api(base_url, f"/api/tables/{table}")
    assert info["status"] == "waiting" and info["players"] == 4
    assert [seat["kind"] for seat in info["seats"]] == ["human", "open", "open", "open"]
    assert info["seats"][0]["name"] == "Ola" and seat_saved(page, table)["seat"] == 0
    page.close()


def test_the_invite_qr_code_decodes_to_the_invite_link(browser: Browser, base_url: str) -> None:
    """Item 6: the SVG served for a table, drawn by Chromium, read back by zxing-cpp."""
    created = api(base_url, "/api/tables", {"rules": "pagat", "players": 3, "seats": [
        {"kind": "human", "name": "Kari"}, {"kind": "open"}, {"kind": "bot", "level": "easy"}]})
    page = browser.new_page(viewport=DESKTOP)
    page.goto(f"{base_url}/?lang=en")
    page.evaluate("""(src) => { const img = document.createElement("img"); img.src = src; img.id = "qr";
        img.style.cssText = "width: 280px; position: fixed; left: 20px; top: 20px; z-index: 9";
        document.body.append(img); return img.decode(); }""", f"/api/tables/{created['table']}/qr.svg")
    picture = Image.open(io.BytesIO(page.locator("#qr").screenshot()))
    assert [found.text for found in zxingcpp.read_barcodes(picture)] == [created["invite"]]
    assert created["invite"] == f"{base_url}/t/{created['table']}"
    page.close()


# ---------------------------------------------------------------------------- a phone


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_start_page_fits_a_phone_with_no_cut_off_text(browser: Browser, base_url: str, shots: Path,
                                                         lang: str, scheme: Scheme) -> None:
    """Item 5 at 390×844: nothing wider than the screen, no text cut off, every house rule open
    too, and the two choices one above the other with "play now" on the first screen."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                                  color_scheme=scheme)
    page = context.new_page()
    problems = watch_errors(page)
    open_start(page, base_url, lang)
    page.screenshot(path=str(shots / f"phone-start-{lang}-{scheme}.png"))
    assert page.evaluate(OVERFLOW) == []
    play_now = page.locator('[data-action="quick-start"]').bounding_box()
    assert play_now is not None and play_now["y"] + play_now["height"] <= PHONE["height"]
    computer, friends = (page.locator(".choice").nth(i).bounding_box() for i in range(2))
    assert computer and friends and friends["y"] >= computer["y"] + computer["height"]
    page.locator(".preset-option", has_text="kortregler").click()  # the most options: two players
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    page.locator("#seats select.kind").first.select_option("open")
    assert page.evaluate(OVERFLOW) == []
    page.screenshot(path=str(shots / f"phone-start-{lang}-{scheme}-everything.png"), full_page=True)
    assert not problems, problems
    context.close()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_desktop_shows_the_two_choices_side_by_side(browser: Browser, base_url: str, shots: Path,
                                                    lang: str, scheme: Scheme) -> None:
    context = browser.new_context(viewport=DESKTOP, color_scheme=scheme)
    page = context.new_page()
    open_start(page, base_url, lang)
    computer, friends = (page.locator(".choice").nth(i).bounding_box() for i in range(2))
    assert computer and friends and abs(computer["y"] - friends["y"]) < 1 and friends["x"] > computer["x"]
    assert page.evaluate(OVERFLOW) == []
    page.screenshot(path=str(shots / f"desktop-start-{lang}-{scheme}.png"), full_page=True)
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        page.goto(f"{base_url}/rules?lang={lang}")
        page.screenshot(path=str(shots / f"{size}-rules-{lang}-{scheme}.png"), full_page=True)
    context.close()


# ---------------------------------------------------------------------------- themes and focus


def page_background(page: Page) -> str:
    return str(page.evaluate("getComputedStyle(document.body).backgroundColor"))


def theme_variables(page: Page) -> dict[str, str]:
    values = page.evaluate("""(names) => { const style = getComputedStyle(document.documentElement);
        return Object.fromEntries(names.map((name) => [name, style.getPropertyValue(name).trim()])); }""",
                           list(THEME_VARIABLES))
    return dict(values)


def test_the_dark_theme_follows_the_system_and_the_switch_remembers(browser: Browser, base_url: str) -> None:
    light = browser.new_context(viewport=DESKTOP, color_scheme="light")
    page = light.new_page()
    open_start(page, base_url)
    switch = page.locator('header [data-action="theme"]')
    assert page_background(page) == LIGHT_BG and switch.get_attribute("aria-pressed") == "false"
    expect(switch).to_have_text("Dark theme")
    switch.click()
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert page.evaluate("localStorage.getItem('mattis.theme')") == "dark"
    assert page_background(page) == DARK_BG and switch.get_attribute("aria-pressed") == "true"
    saved_dark = theme_variables(page)
    # theme.js is a classic script in <head>, before the stylesheet: it runs before the first paint.
    head = page.evaluate("""[...document.head.children].map((node) => node.tagName === "SCRIPT"
        ? `script:${node.getAttribute("src")}:${node.type}:${node.defer}:${node.async}` : node.tagName)""")
    assert head.index("script:/static/theme.js::false:false") < head.index("LINK")
    page.goto(f"{base_url}/rules?lang=en")  # the other pages follow the same choice
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert page_background(page) == DARK_BG
    page.locator('[data-action="theme"]').click()  # back to light, which is the system's: forgotten
    assert page.evaluate("localStorage.getItem('mattis.theme')") is None
    assert page_background(page) == LIGHT_BG
    light.close()

    dark = browser.new_context(viewport=DESKTOP, color_scheme="dark")
    page = dark.new_page()
    open_start(page, base_url)
    switch = page.locator('header [data-action="theme"]')
    assert page.evaluate("document.documentElement.dataset.theme") is None
    assert page_background(page) == DARK_BG and switch.get_attribute("aria-pressed") == "true"
    assert theme_variables(page) == saved_dark, "the two dark definitions in style.css differ"
    switch.click()
    assert page.evaluate("localStorage.getItem('mattis.theme')") == "light"
    assert page_background(page) == LIGHT_BG
    dark.close()


def luminance(colour: str) -> float:
    """WCAG relative luminance of ``#rrggbb``."""
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(one: str, two: str) -> float:
    high, low = sorted((luminance(one), luminance(two)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def rgb(colour: str) -> str:
    return "rgb({}, {}, {})".format(*(int(colour[i:i + 2], 16) for i in (1, 3, 5)))


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_focus_stands_out_at_least_3_to_1_on_every_surface(browser: Browser, base_url: str,
                                                           scheme: Scheme) -> None:
    """Item 10: the focus ring (--focus inside --focus-halo) differs at least 3:1 from the page,
    the panels, the felt and the header, and the two rings from each other."""
    context = browser.new_context(viewport=DESKTOP, color_scheme=scheme)
    page = context.new_page()
    open_start(page, base_url)
    colours = theme_variables(page)
    assert all(re.fullmatch(r"#[0-9a-f]{6}", colours[name]) for name in ("--focus", "--focus-halo", "--bg"))
    ring, halo = colours["--focus"], colours["--focus-halo"]
    assert contrast(ring, halo) >= 3
    for surface in ("--bg", "--paper", "--felt", "--felt-dark"):
        best = max(contrast(ring, colours[surface]), contrast(halo, colours[surface]))
        assert best >= 3, (surface, colours[surface], best)
    for _ in range(30):  # keyboard only: Tab until "Play now" has the focus
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.dataset.action") == "quick-start":
            break
    focused = page.evaluate("""() => { const style = getComputedStyle(document.activeElement);
        return [style.outlineStyle, style.outlineWidth, style.outlineColor, style.boxShadow]; }""")
    assert focused[:3] == ["solid", "3px", rgb(ring)] and rgb(halo) in focused[3]
    context.close()


# ---------------------------------------------------------------------------- the rules page


def test_the_rules_page_draws_its_examples_with_the_table_cards(browser: Browser, base_url: str) -> None:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    problems = watch_errors(page)
    page.goto(f"{base_url}/rules?lang=nb")
    expect(page.locator("h2").first).to_contain_text("Regler")
    slots = page.locator("figure.example [data-show-card]")
    assert slots.count() >= 15
    expect(page.locator("figure.example [data-show-card] svg")).to_have_count(slots.count())
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.locator("details.chapter[open]").count() == 0  # the full rules wait, collapsed
    decisions = page.locator("details.chapter").filter(has=page.locator("summary", has_text="Avgjørelser"))
    decisions.locator("summary").click()
    expect(decisions.locator("li").first).to_be_visible()
    expect(decisions).to_contain_text("P1.5")
    page.locator("header [data-back]").click()
    page.wait_for_url(f"{base_url}/")
    assert not problems, problems
    context.close()


def test_a_master_bot_is_offered_seated_and_plays(browser: Browser, base_url: str) -> None:
    """Issue 27: the start page offers ``master`` (in bokmål: "mester"); a table seats it, and
    it plays its moves there while the person plays theirs."""
    from .test_web_browser import play_one

    page = browser.new_page(viewport=DESKTOP)
    problems = watch_errors(page)
    open_start(page, base_url, "nb")
    page.fill("#name", "Kari")
    page.locator("#players .chip", has_text="3").click()
    kinds = page.locator("#seats select.kind")
    expect(kinds).to_have_count(2)
    expect(kinds.first.locator('option[value="bot:master"]')).to_contain_text("mester")
    kinds.first.select_option("bot:master")
    page.click("#create")
    table = table_of(page)
    info = api(base_url, f"/api/tables/{table}")
    assert [seat["level"] for seat in info["seats"]] == [None, "master", "normal"]
    events = []
    for _ in range(6):
        if not play_one(page):
            break
        events.append(int(page.locator("#game").get_attribute("data-events") or 0))
    assert len(events) >= 3 and events == sorted(events)
    master = info["seats"][1]["name"]  # the bot's name at the table ("Ola")
    expect(page.locator("#log")).to_contain_text(re.compile(rf"{re.escape(master)} (la|sjanset)"))
    assert not problems, problems
    page.close()
