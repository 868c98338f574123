"""The table a grandparent enjoys (issue 24, items 3, 4, 5, 8, 10, 12): a table that holds
still, text and controls big enough, one tap to play, nothing covering anything else, advice
in step with the table, a focus ring that stands out on the cards, the device's settings, and
a header on one line.

Everything is measured in a real Chromium by walking the DOM (``getComputedStyle``,
``getBoundingClientRect``) and, for the layout shift, with a ``PerformanceObserver`` of
``layout-shift`` entries over a whole game (every entry counts, also those just after a tap,
which the web's CLS leaves out). Screenshots go to ``$MATTIS_SCREENSHOTS`` when set.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from mattis.table import MessageCursor

from .browser_helpers import PHONE, page_script, post, watch_console
from .test_web_table_page import (
    DESKTOP,
    contrast,
    events,
    first_move,
    follow_script,
    local_session,
    seats,
    shoot,
    sit_down,
    wait_my_turn,
)

pytestmark = pytest.mark.browser
"""Every test here drives Chromium (the fast loop leaves them out: ``-m "not browser"``)."""

SIZES: list[tuple[str, ViewportSize, bool]] = [("phone", PHONE, True), ("desktop", DESKTOP, False)]

SHIFT_WATCH = page_script("shift_watch.js")
"""Collects every ``layout-shift`` entry of the page (from its start) in ``window.shifts``."""

OVERLAP_WATCH = page_script("overlap_watch.js")
"""For ``page.evaluate``: watches the felt for overlaps every frame (``window.overlaps``)."""

ADVICE_WATCH = page_script("advice_watch.js")

LIVE_WATCH = page_script("live_watch.js")

MEASURE = page_script("measure.js")
"""For ``page.evaluate``: ``{text, control, small_texts, small_controls}``, the smallest text
(CSS px) and control (CSS px box) shown, and those under 14 px and 44×44 px."""


def measure(page: Page) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(MEASURE)
    return found


def assert_big_enough(page: Page, where: str) -> dict[str, Any]:
    found = measure(page)
    assert not found["small_texts"], f"{where}: text under 14 px: {found['small_texts'][:5]}"
    assert not found["small_controls"], f"{where}: controls under 44×44 px: {found['small_controls'][:5]}"
    return found


def layout_shift(page: Page) -> tuple[float, float, list[dict[str, Any]]]:
    entries: list[dict[str, Any]] = page.evaluate("window.shifts")
    total = sum(entry["value"] for entry in entries)
    unprompted = sum(entry["value"] for entry in entries if not entry["input"])
    return total, unprompted, entries


def play_whole_game(page: Page, tap: bool, on_move: Any = None) -> tuple[int, int]:
    """Play to the end as a person would: the first playable card (the first sequence if the
    chooser opens), else pick up or chance; by tap or by click. Each move gets one tap (two
    when the chooser asks which sequence): a tap that did not play would leave the turn
    where it was, and ``wait_my_turn`` fails. Returns (moves, taps)."""
    moves = taps = 0
    seen = -1
    while wait_my_turn(page, seen):
        seen = events(page)
        target = first_move(page)
        if tap:
            target.tap()
        else:
            target.click()
        taps += 1
        if page.locator("#chooser").is_visible():
            chooser = page.locator("#chooser [data-action]").first
            if tap:
                chooser.tap()
            else:
                chooser.click()
            taps += 1
        moves += 1
        if on_move:
            on_move(moves)
        assert moves < 500
    return moves, taps


# ---------------------------------------------------------------- a whole game


@pytest.mark.parametrize(("where", "viewport", "mobile"), SIZES, ids=[size[0] for size in SIZES])
def test_a_whole_game_holds_still_fits_overlaps_nothing_and_plays_by_one_tap(
        browser: Browser, base_url: str, shots: Path, where: str, viewport: ViewportSize, mobile: bool,
) -> None:
    """Items 3, 4, 5, 8 and 11 over one whole game against three robots: the layout shift
    (PerformanceObserver) stays at most 0.02 and the hand does not move between turns; text
    and controls are big enough at the start, in the middle and at the result; one tap a move
    on a phone; no label overlaps another or a card's rank, in flight or at rest; the advice
    waits while the last trick is shown; live regions say each thing once."""
    context = browser.new_context(viewport=viewport, is_mobile=mobile, has_touch=mobile)
    page = context.new_page()
    problems = watch_console(page)
    body = {"players": 4, "seats": seats(4, name="Mormor Ingeborg"), "seed": 11}
    table = post(base_url, "/api/tables", body)
    sit_down(page, base_url, table, "nb", pause=250)
    for watch in (SHIFT_WATCH, OVERLAP_WATCH, ADVICE_WATCH, LIVE_WATCH):
        page.evaluate(watch)
    assert_big_enough(page, "the first turn")
    hand_tops: list[float] = []

    def each_move(moves: int) -> None:
        hand_tops.append(page.evaluate(
            "document.getElementById('hand').getBoundingClientRect().top + scrollY"))
        if moves == 10:
            shoot(page, shots / f"steady-{where}-nb-light-mid-game.png")
            assert_big_enough(page, "the middle of the game")

    moves, taps = play_whole_game(page, tap=mobile, on_move=each_move)
    expect(page.locator("[data-result]")).to_be_visible()
    assert_big_enough(page, "the result")
    total, unprompted, entries = layout_shift(page)
    print(f"{where}: layout shift {total:.4f} (without recent input {unprompted:.4f}), "
          f"{moves} moves, {taps} taps")
    worst = sorted(entries, key=lambda entry: -entry["value"])[:6]
    assert total <= 0.02, worst
    moved = max(hand_tops) - min(hand_tops)
    assert moved < 0.5, f"the hand moved {moved:.1f} px between the player's turns"
    frames = page.evaluate("window.overlapFrames")
    overlaps = page.evaluate("[...window.overlaps]")
    assert frames > 100 and not overlaps, overlaps[:30]
    assert page.evaluate("window.holds") > 3, "completed tricks were held on the felt"
    assert page.evaluate("window.adviceTalks") == [], "the advice changed while the last trick was shown"
    assert page.evaluate("window.repeats") == []
    lines = page.locator("#log li").count()
    assert page.evaluate("window.logAdded") <= lines + 1, "the log said a line twice"
    for region in ("#status", "#advice", "#log", "#trick-note", "#hint-text"):
        expect(page.locator(region)).to_have_attribute("aria-live", "polite")
    assert not problems, problems
    context.close()


# ---------------------------------------------------------------- the settings


def test_settings_are_kept_per_device_large_cards_and_four_colours(browser: Browser, base_url: str,
                                                                   shots: Path) -> None:
    """Item 4: large cards and a four-colour deck (♦ blue, ♣ green), set in the table's settings
    panel on a phone, stay set on this device after a reload (and show on <html>)."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    problems = watch_console(page)
    table = post(base_url, "/api/tables", {"players": 3, "seats": seats(3), "seed": 5})
    sit_down(page, base_url, table, "nb", pause=0)
    # the ink of each suit in the hand's pictures (the cards' SVG, as CSS images)
    fills = """() => Object.fromEntries([...document.querySelectorAll('#hand [data-card]')].map((card) => [
      card.dataset.card[1],
      decodeURIComponent(getComputedStyle(card.querySelector('.face')).backgroundImage).match(/fill="(#[0-9a-f]{6})"/g)
        .map((fill) => fill.slice(6, 13)).filter((ink) => ink !== '#fffdf8')[0]]))"""
    width = "() => document.querySelector('#hand [data-card] .face').getBoundingClientRect().width"
    before_fills = page.evaluate(fills)
    before_width = page.evaluate(width)
    page.locator('[data-action="settings"]').tap()
    panel = page.locator("#settings-panel")
    expect(panel).to_be_visible()
    expect(panel).to_contain_text("Store kort")
    expect(page.locator('[data-setting="large-cards"]')).not_to_be_checked()
    assert_big_enough(page, "the settings panel")
    shoot(page, shots / "settings-phone-nb-light.png")
    page.locator('label:has([data-setting="large-cards"])').tap()
    page.locator('label:has([data-setting="four-colour"])').tap()
    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    page.reload()
    expect(page.locator("#hand [data-card]").first).to_be_visible()
    assert page.evaluate("document.documentElement.dataset.prefLargeCards") == "on"
    assert page.evaluate("document.documentElement.dataset.prefFourColour") == "on"
    after_fills = page.evaluate(fills)
    blue, green = "#1556c2", "#1b7a34"
    assert before_fills, "the hand has cards"
    assert all(fill in ("#c0262d", "#1b1b1b") for fill in before_fills.values()), before_fills
    for suit, fill in after_fills.items():
        assert fill == {"d": blue, "c": green, "h": "#c0262d", "s": "#1b1b1b"}[suit], (suit, fill)
    assert page.evaluate(width) > before_width * 1.15, "large cards are larger"
    shown = page.evaluate("() => Math.min(...[...document.querySelectorAll('#hand [data-card]')].map((c) => "
                          "c.getBoundingClientRect().width))")
    assert shown >= 44
    page.locator('[data-action="settings"]').tap()
    expect(page.locator('[data-setting="four-colour"]')).to_be_checked()
    shoot(page, shots / "settings-phone-nb-light-four-colours.png")
    page.locator('label:has([data-setting="four-colour"])').tap()  # off again
    page.locator('label:has([data-setting="large-cards"])').tap()
    assert page.evaluate("document.documentElement.dataset.prefFourColour") is None
    assert not problems, problems
    context.close()


def sequence_turn() -> tuple[dict[str, Any], list[str], str]:
    """A seeded three-player table (pagat: sequences of two or more, P2.2) where seat 0, always
    playing its first legal move, comes to a turn with a card that starts more than one play
    (a sequence choice): the request, seat 0's moves before that turn, and the card."""
    for seed in range(300):
        body = {"rules": "pagat", "players": 3, "seats": seats(3), "seed": seed}
        session = local_session(body)
        game = session.game
        assert game is not None
        script: list[str] = []
        while not game.is_over and len(script) < 80:
            while (turn := session.bot_move_due()) is not None:
                assert turn.action is not None
                session.bot_act(turn, turn.action)
            if game.is_over:
                break
            message = session.state_message(MessageCursor(0, "en"))
            choices = [card for card, plays in message["card_actions"].items() if len(plays) > 1]
            if choices:
                return body, script, choices[0]
            script.append(message["legal"][0])
            session.act(0, message["legal"][0])
    raise AssertionError("no seed of 300 comes to a sequence choice")


def test_one_tap_plays_a_card_the_confirm_setting_asks_twice_and_a_sequence_opens_the_chooser(
        browser: Browser, base_url: str) -> None:
    """Item 5: one tap plays a playable card on a touch screen; the device's "confirm-card"
    setting brings back raise-then-play; a card that starts several plays still asks which."""
    body, script, choice = sequence_turn()
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    problems = watch_console(page)
    table = post(base_url, "/api/tables", body)
    sit_down(page, base_url, table, "en", pause=0)
    follow_script(page, script)
    assert wait_my_turn(page, -1)
    page.locator(f'#hand [data-card="{choice}"]').tap()
    chooser = page.locator("#chooser")
    expect(chooser).to_be_visible()
    assert chooser.locator("[data-action]").count() > 1
    expect(page.locator(f'#hand [data-card="{choice}"]')).to_have_count(1)  # nothing played yet
    chooser.locator("[data-action]").first.tap()
    expect(page.locator(f'#hand [data-card="{choice}"]')).to_have_count(0)
    # the two-tap confirm, asked for in the settings
    page.locator('[data-action="settings"]').tap()
    page.locator('label:has([data-setting="confirm-card"])').tap()
    page.locator("#settings-close").tap()
    seen = events(page) - 1  # it may be this seat's turn again already
    while wait_my_turn(page, seen):
        seen = events(page)
        single = page.locator('#hand [data-playable="true"]').evaluate_all(
            "cards => cards.map(c => c.dataset.card)")
        if single:
            break
        first_move(page).tap()
    else:
        pytest.fail("the game ended before a card could be played")
    code = single[0]
    card = page.locator(f'#hand [data-card="{code}"]')
    card.tap()
    if page.locator("#chooser").is_visible():  # this one starts a sequence: the chooser is the confirm
        page.locator("#chooser [data-action]").first.tap()
    else:
        expect(card).to_have_attribute("data-raised", "true")
        expect(page.locator("#hint-text")).to_contain_text("Tap again")
        page.wait_for_timeout(300)
        assert events(page) == seen, "one tap played a card despite the confirm setting"
        card.tap()
    expect(page.locator(f'#hand [data-card="{code}"]')).to_have_count(0)
    assert not problems, problems
    context.close()


# ---------------------------------------------------------------- focus and the header


def test_focus_on_a_card_stands_out_3_to_1_in_both_themes(browser: Browser, base_url: str) -> None:
    """Item 10: a card with the keyboard's focus has the page's ring (--focus inside a
    --focus-halo); against the card, the rail and the felt, one of the two differs at least
    3:1 — in the light theme and the dark."""
    schemes: list[Literal["light", "dark"]] = ["light", "dark"]
    for scheme in schemes:
        context = browser.new_context(viewport=DESKTOP, color_scheme=scheme)
        page = context.new_page()
        table = post(base_url, "/api/tables", {"players": 3, "seats": seats(3), "seed": 5})
        sit_down(page, base_url, table, "en", pause=0)
        card = page.locator("#hand [data-card]").first
        card.focus()
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Tab")  # by keyboard, so :focus-visible applies
        ring = card.evaluate("""c => { const s = getComputedStyle(c.querySelector('.face'));
          return [s.outlineStyle, s.outlineWidth, s.outlineColor, s.boxShadow]; }""")
        assert ring[0] == "solid" and float(ring[1].rstrip("px")) >= 3, ring
        halo = re.match(r"(rgba?\([^)]*\))", ring[3])
        assert halo, ring
        surfaces = page.evaluate("""() => {
          const colour = (c) => {
            const d = document.createElement('div'); d.style.color = c; document.body.append(d);
            const v = getComputedStyle(d).color; d.remove(); return v; };
          const felt = getComputedStyle(document.documentElement).getPropertyValue('--felt').trim();
          const rail = getComputedStyle(document.querySelector('.play-column')).backgroundColor;
          return { card: colour('#fffdf8'), rail, felt: colour(felt) }; }""")
        for surface, colour in surfaces.items():
            best = max(contrast(ring[2], colour), contrast(halo.group(1), colour))
            assert best >= 3, f"{scheme}: the focus on a card stands out {best:.2f}:1 from the {surface}"
        context.close()


@pytest.mark.parametrize("lang", ["nb", "nn", "en"])
def test_the_header_is_one_line_of_big_enough_controls_on_a_phone(browser: Browser, base_url: str,
                                                                 lang: str) -> None:
    """Item 12 (and 4): at 390 px the header fits on one line, every control in it 44×44 px;
    the language is in the settings panel."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    table = post(base_url, "/api/tables", {"players": 3, "seats": seats(3), "seed": 5})
    sit_down(page, base_url, table, lang, pause=0)
    tops = page.locator("header.bar").evaluate(
        "bar => [...bar.querySelectorAll('h1, a, button')].filter((el) => el.getClientRects().length)"
        ".map((el) => { const r = el.getBoundingClientRect();"
        " return [r.top, r.bottom, r.width, r.height, el.textContent]; })")
    assert len(tops) >= 5
    first_top = min(top for top, *_ in tops)
    last_bottom = max(bottom for _, bottom, *_ in tops)
    assert last_bottom - first_top < 56, f"the header is more than one line: {tops}"
    assert all(width >= 44 and height >= 44 for _, _, width, height, _ in tops[1:]), tops
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.locator('[data-action="settings"]').tap()
    other = "en" if lang != "en" else "nb"
    page.locator(f'#settings-lang button[lang="{other}"]').tap()
    expect(page.locator("html")).to_have_attribute("lang", other)
    context.close()


def test_the_log_is_reached_by_keyboard(browser: Browser, base_url: str) -> None:
    """Item 11: the log (a scrolling list) takes the focus with Tab, so it scrolls by keyboard."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    table = post(base_url, "/api/tables", {"players": 3, "seats": seats(3), "seed": 5})
    sit_down(page, base_url, table, "en", pause=0)
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "log":
            break
    else:
        pytest.fail("Tab never reached the log")
    page.close()
