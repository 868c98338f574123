"""A coach, with consent, in Chromium (issue 26, item 2): on a phone the player gets a coach
link from the settings panel, a coach opens it in a second browser and taps a card, the player
sees the suggestion ([data-suggestion]) and the ringed card, every seat sees who has a coach
([data-coached]), and "End coaching" ends it at once. The coach's page and the coached player's
page pass axe-core at WCAG 2.2 AA in light and dark, on a phone and a desktop.

Screenshots (``MATTIS_SCREENSHOTS=folder`` keeps them): ``coach-player-phone-{light,dark}``,
``coach-coach-phone-{light,dark}`` and the same two pages on a desktop."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from .axe_helpers import axe_violations
from .browser_helpers import OVERFLOW, PHONE, post, watch_console
from .test_web_axe import set_theme
from .test_web_table_page import DESKTOP, events, shoot, sit_down
from .test_web_table_steady import measure

pytestmark = pytest.mark.browser


def seat_page(browser: Browser, base_url: str, table: str, seat: int, token: str, phone: bool = True) -> Page:
    """A phone (or a desktop) with the seat's token kept, on the table's page in bokmål."""
    context = browser.new_context(viewport=PHONE if phone else DESKTOP, is_mobile=phone, has_touch=phone)
    page = context.new_page()
    sit_down(page, base_url, {"table": table, "seat": seat, "token": token}, "nb")
    return page


def play_until_turn_of(page: Page, seat: int, others: dict[int, Page]) -> None:
    """Let the bots move and the other people play their first playable card (or pick up, or
    chance) until ``seat`` is to move; ``page`` is any page at the table."""
    for _ in range(400):
        to_move = page.locator("#game").get_attribute("data-to-move")
        playable = page.locator("[data-playable='true'], .actions button:not([disabled]):not(.off)")
        if to_move == str(seat) and playable.count():
            return
        mover = others.get(int(to_move)) if to_move else None
        if mover is not None and mover.locator("#game").get_attribute("data-to-move") == to_move:
            seen = events(mover)
            playable = mover.locator('#hand [data-playable="true"]')
            if playable.count():
                playable.first.click()
                if mover.locator("#chooser").is_visible():
                    mover.locator("#chooser [data-action]").first.click()
            else:
                mover.locator(".actions button:not([disabled]):not(.off)").first.click()
            mover.wait_for_function(f"() => Number(document.querySelector('#game').dataset.events) > {seen}")
        page.wait_for_timeout(50)
    raise AssertionError("the turn did not come")


def check_axe(page: Page, name: str, shots: Path, found: dict[str, Any]) -> None:
    """axe in light and dark, the smallest text and control, nothing sticking out; a screenshot each."""
    for theme in ("light", "dark"):
        set_theme(page, theme)
        page.wait_for_timeout(150)
        shoot(page, shots / f"coach-{name}-{theme}.png")
        found[f"{name} ({theme})"] = axe_violations(page)
    sizes = measure(page)
    assert not sizes["small_controls"], (name, sizes["small_controls"][:5])
    assert not sizes["small_texts"], (name, sizes["small_texts"][:5])
    assert page.evaluate(OVERFLOW, {"textOnly": True}) == [], name


def test_a_player_gets_a_coach_who_suggests_a_card_everyone_sees_it_and_the_player_ends_it(
        browser: Browser, base_url: str, shots: Path) -> None:
    body = {"rules": "pagat", "players": 3, "seed": 26,
            "seats": [{"kind": "human", "name": "Mormor"}, {"kind": "open"},
                      {"kind": "bot", "level": "easy"}]}
    table = post(base_url, "/api/tables", body)
    ola_seat = post(base_url, f"/api/tables/{table['table']}/join", {"name": "Ola"})
    player = seat_page(browser, base_url, table["table"], 0, table["token"])
    ola = seat_page(browser, base_url, table["table"], 1, ola_seat["token"])
    problems = watch_console(player) + watch_console(ola)

    # the player asks for a link in the settings panel
    player.locator('[data-action="settings"]').click()
    expect(player.locator('[data-action="coach-link"]')).to_have_text("Få hjelp av en trener")
    player.locator('[data-action="coach-link"]').click()
    expect(player.locator("#coach-url")).not_to_have_value("", timeout=10_000)
    link = player.locator("#coach-url").input_value()
    assert link.startswith(f"{base_url}/t/{table['table']}?coach=") and len(link.split("coach=")[1]) >= 32
    expect(player.locator('[data-action="coach-revoke"]')).to_be_visible()
    player.wait_for_function("() => { const qr = document.querySelector('[data-coach-qr]');"
                             " return qr.complete && qr.naturalWidth > 0; }")

    # the coach opens it on a phone of their own
    coach_context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    coach = coach_context.new_page()
    problems += watch_console(coach)
    coach.goto(f"{link}&lang=nb")
    expect(coach.locator("[data-coach-banner]")).to_contain_text("Du er trener for Mormor")
    expect(coach.locator("#hand [data-card]").first).to_be_visible()
    assert coach.locator("#hand [data-card]").evaluate_all("cards => cards.map(c => c.dataset.card)") == \
        player.locator("#hand [data-card]").evaluate_all("cards => cards.map(c => c.dataset.card)")
    for hidden in ('[data-action="hint"]', "#reactions", '[data-action="undo"]'):
        expect(coach.locator(hidden)).to_be_hidden()
    # the coach's page speaks of the player by name, not as "you" (that is the player's page)
    expect(coach.locator('[data-seat="0"] .seat-name')).to_have_text("Mormor")
    expect(player.locator('[data-seat="0"] .seat-name')).to_have_text("Mormor (du)")
    for page in (player, ola, coach):  # every seat sees who has a coach
        expect(page.locator('[data-seat="0"][data-coached="0"]')).to_be_visible()
        expect(page.locator('[data-seat="0"] .badge-coached')).to_have_text("har trener")
        assert page.locator("[data-coached]").count() == 1

    # on the player's turn the coach taps a card: the player sees it suggested
    player.keyboard.press("Escape")
    play_until_turn_of(player, 0, {1: ola})
    expect(coach.locator('#hand [data-playable="true"]').first).to_be_visible()
    expect(coach.locator("#status")).to_contain_text("Mormors tur")
    expect(player.locator("#status")).to_contain_text("Din tur")
    suggested = coach.locator('#hand [data-playable="true"]').last
    card = suggested.get_attribute("data-card")
    moves = events(player)
    suggested.tap()
    expect(player.locator("[data-suggestion]")).to_be_visible()
    expect(player.locator("[data-suggestion]")).to_contain_text("Treneren foreslår")
    expect(player.locator(f'#hand [data-card="{card}"][data-suggested="true"]')).to_be_visible()
    expect(coach.locator("[data-suggestion]")).to_contain_text("Treneren foreslår")
    expect(ola.locator("[data-suggestion]")).to_be_hidden()
    assert events(player) == moves  # suggested, not played
    found: dict[str, Any] = {}
    check_axe(player, "player-phone", shots, found)
    player.locator('[data-action="settings"]').click()
    expect(player.locator("#coach-panel")).to_be_visible()
    check_axe(player, "player-settings-phone", shots, found)
    player.keyboard.press("Escape")
    check_axe(coach, "coach-phone", shots, found)

    # the same two pages on a desktop (a second tab of each)
    wide = seat_page(browser, base_url, table["table"], 0, table["token"], phone=False)
    expect(wide.locator("[data-suggestion]")).to_contain_text("Treneren foreslår")
    check_axe(wide, "player-desktop", shots, found)
    wide_coach = browser.new_context(viewport=DESKTOP).new_page()
    wide_coach.goto(f"{link}&lang=nb")
    expect(wide_coach.locator("[data-coach-banner]")).to_contain_text("Du er trener for Mormor")
    check_axe(wide_coach, "coach-desktop", shots, found)
    wide.context.close()
    wide_coach.context.close()
    assert not {key: value for key, value in found.items() if value}, found

    # the player plays something else: the suggestion goes
    other = player.locator(f'#hand [data-playable="true"]:not([data-card="{card}"])')
    (other.first if other.count() else player.locator(f'#hand [data-card="{card}"]')).click()
    if player.locator("#chooser").is_visible():
        player.locator("#chooser [data-action]").first.click()
    expect(player.locator("[data-suggestion]")).to_be_hidden()
    expect(player.locator("[data-suggested]")).to_have_count(0)

    # "End coaching": the coach's page says so, and nobody is coached any more
    player.locator('[data-action="settings"]').click()
    player.locator('[data-action="coach-revoke"]').click()
    expect(coach.locator("[data-coach-banner]")).to_contain_text("Trenerhjelpen er avsluttet")
    expect(coach.locator("#game")).to_be_hidden()
    for page in (player, ola):
        expect(page.locator("[data-coached]")).to_have_count(0)
    expect(player.locator('[data-action="coach-revoke"]')).to_be_hidden()
    expect(player.locator('[data-action="coach-link"]')).to_have_text("Få hjelp av en trener")
    coach.reload()  # the old link is refused for good
    expect(coach.locator("[data-coach-banner]")).to_contain_text("virker ikke lenger")
    assert json.dumps(problems) == "[]", problems
