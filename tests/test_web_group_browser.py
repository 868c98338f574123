"""The group page in Chromium (issue 25, items 1, 2 and 5): a player made on the first visit
without a question and kept in IndexedDB, a group made on one phone and joined from another
by its invite, a game of the group played to its end, then the season's ledger, the awards,
the charts and the history on the page; "Use on another device" moves the player by a code;
axe-core finds nothing on a phone and a desktop, light and dark, and nothing overflows."""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from websockets.sync.client import connect
from websockets.typing import Origin

from .axe_helpers import axe_violations
from .browser_helpers import OVERFLOW, PHONE, watch_console

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}
PACE = 0.11
"""Seconds between a scripted seat's moves (a socket may send ten messages a second)."""


def call(base_url: str, method: str, path: str, body: Any = None, key: str | None = None) -> Any:
    headers = {"content-type": "application/json"}
    if key is not None:
        headers["authorization"] = f"Bearer {key}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base_url + path, data=data, headers=headers, method=method)
    with urllib.request.urlopen(request, timeout=20) as response:
        return json.loads(response.read())


def device_player(page: Page) -> dict[str, Any]:
    """The player this page's device keeps in IndexedDB (database.js)."""
    player: dict[str, Any] = page.evaluate("() => self.mattisDatabase.loadPlayer()")
    return player


def play_seat(base_url: str, table: str, token: str) -> None:
    """Play the first legal move every turn (once per point of the game: another seat's
    connection sends the same turn again) until the game is over."""
    url = base_url.replace("http", "ws") + f"/ws/tables/{table}?token={token}&lang=en"
    acted_at = -1
    with connect(url, origin=Origin(base_url)) as socket:
        while True:
            message = json.loads(socket.recv(timeout=60))
            if message["type"] != "state" or message["view"] is None:
                continue
            if message["view"]["phase"] == "over":
                return
            if message["legal"] and message["view"]["event_count"] != acted_at:
                acted_at = message["view"]["event_count"]
                time.sleep(PACE)
                socket.send(json.dumps({"type": "act", "action": message["legal"][0]}))


def play_group_game(base_url: str, group: str, keys: list[str], seed: int) -> None:
    made = call(base_url, "POST", "/api/tables", {
        "rules": "pagat", "players": 3, "seed": seed, "group": group,
        "seats": [{"kind": "human"}, {"kind": "open"}, {"kind": "bot", "level": "easy"}]}, keys[0])
    joined = call(base_url, "POST", f"/api/tables/{made['table']}/join", {"name": "x"}, keys[1])
    threads = [threading.Thread(target=play_seat, args=(base_url, made["table"], token))
               for token in (made["token"], joined["token"])]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(90)


def phone(browser: Browser, scheme: str = "light") -> BrowserContext:
    return browser.new_context(viewport=PHONE, color_scheme=scheme, locale="nb-NO")  # type: ignore[arg-type]


def test_a_family_makes_a_group_joins_it_plays_and_reads_the_ledger(browser: Browser, base_url: str,
                                                                     shots: Path) -> None:
    first = phone(browser)
    mormor = first.new_page()
    problems = watch_console(mormor)
    mormor.goto(f"{base_url}/g/?lang=nb")
    expect(mormor.locator("#my-name")).to_have_value("Spiller")  # made without a question
    mormor.fill("#my-name", "Mormor")
    mormor.click("#name-form button")
    expect(mormor.locator("#name-saved")).not_to_be_empty()
    mormor.fill("#new-group-name", "Familien Hansen")
    mormor.click("#new-group button")
    expect(mormor.locator("#group-name")).to_have_text("Familien Hansen")
    expect(mormor.locator("#invite-qr svg")).to_be_visible()
    invite = mormor.locator("#invite-link").get_attribute("href")
    assert invite and "#join=" in invite
    mormor_player = device_player(mormor)
    assert mormor_player["name"] == "Mormor" and len(mormor_player["key"]) >= 32

    second = phone(browser)
    ola = second.new_page()
    ola.goto(invite)
    expect(ola.locator("#members li")).to_have_count(2)
    ola.fill("#my-name", "Ola")
    ola.click("#name-form button")
    expect(ola.locator("#members")).to_contain_text("Ola")
    ola_player = device_player(ola)
    group = mormor.url.split("/g/")[1].split("#")[0]

    play_group_game(base_url, group, [mormor_player["key"], ola_player["key"]], seed=3)
    play_group_game(base_url, group, [ola_player["key"], mormor_player["key"]], seed=4)

    mormor.reload()
    ledger = mormor.locator("[data-ledger]")
    for player in (mormor_player, ola_player):
        row = ledger.locator(f'[data-ledger-player="{player["player"]}"]')
        expect(row).to_have_count(1)
        expect(row.locator("svg polyline")).to_have_count(1)
    expect(mormor.locator("#ledger-games")).to_have_text("Spill talt med: 2")
    expect(mormor.locator("[data-history] li")).to_have_count(2)
    replay = mormor.locator("[data-history] li a").first.get_attribute("href")
    assert replay and replay.startswith("/replay/")
    expect(mormor.locator("[data-awards] li").first).to_be_visible()
    mormor.screenshot(path=str(shots / "group-phone-nb.png"), full_page=True)
    assert mormor.evaluate(OVERFLOW, {"textOnly": True}) == []
    assert axe_violations(mormor) == []
    assert problems == []

    # the result screen of a group game says what it changed, to a member on this device
    made = call(base_url, "POST", "/api/tables", {
        "rules": "pagat", "players": 3, "seed": 6, "group": group,
        "seats": [{"kind": "human", "name": "Mormor"}, {"kind": "open"}, {"kind": "bot", "level": "easy"}]},
        mormor_player["key"])
    joined = call(base_url, "POST", f"/api/tables/{made['table']}/join", {"name": "Ola"}, ola_player["key"])
    table_page = first.new_page()
    table_page.goto(f"{base_url}/?lang=nb")
    keep_seat = "([table, seat]) => localStorage.setItem(`mattis.seat.${table}`, JSON.stringify(seat))"
    table_page.evaluate(keep_seat, [made["table"], {"seat": made["seat"], "token": made["token"]}])
    table_page.goto(f"{base_url}/t/{made['table']}")
    seats = [threading.Thread(target=play_seat, args=(base_url, made["table"], token))
             for token in (made["token"], joined["token"])]
    for thread in seats:
        thread.start()
    for thread in seats:
        thread.join(90)
    changes = table_page.locator("[data-ledger-changes] li")
    expect(changes.first).to_contain_text("Mattis i år", timeout=15_000)
    expect(changes.filter(has_text="Mormor: ")).to_have_count(1)
    table_page.screenshot(path=str(shots / "result-group-phone-nb.png"))

    # each history entry opens its replay: every hand showing, step by step, with the story
    viewer = first.new_page()
    viewer.goto(f"{base_url}{replay}?lang=nb")
    hands = viewer.locator("[data-replay-hands] li")
    expect(hands).to_have_count(3)
    expect(hands.nth(0).locator("svg")).to_have_count(3)  # the deal: three cards in every hand
    expect(hands.nth(2).locator("svg")).to_have_count(3)
    viewer.click("#replay-next")
    expect(viewer.locator("#replay-move")).to_contain_text("spilte")
    steps = int(viewer.locator("#replay-slider").get_attribute("max") or 0)
    assert steps > 5
    viewer.locator("#replay-slider").fill(str(steps))
    expect(viewer.locator("[data-replay-lines] li.lost")).to_have_count(1)
    expect(viewer.locator("#replay-next")).to_be_disabled()
    assert viewer.locator("[data-replay-lines] li").count() > steps // 2
    viewer.screenshot(path=str(shots / "replay-phone-nb.png"), full_page=True)
    assert viewer.evaluate(OVERFLOW, {"textOnly": True}) == []
    assert axe_violations(viewer) == []

    # "Start a table for us": a group table with a seat open for Ola, Mormor's seat bound
    mormor.click("#start-table")
    mormor.wait_for_url(f"{base_url}/t/**")
    started = mormor.url.split("/t/")[1].split("?")[0]
    info = call(base_url, "GET", f"/api/tables/{started}")
    assert info["seats"][0]["player"] == mormor_player["player"] and info["open_seats"] == 1

    # "Use on another device": a code moves Mormor's player to a third device
    mormor.goto(f"{base_url}/g/{group}")
    mormor.click("#device-button")
    expect(mormor.locator("#device-qr svg")).to_be_visible()
    code = mormor.locator("#device-code").inner_text().replace("-", "")
    third = browser.new_context(viewport=PHONE)
    tablet = third.new_page()
    tablet.goto(f"{base_url}/device#code={code}")
    expect(tablet.locator("#group-list a")).to_have_text("Familien Hansen")
    moved = device_player(tablet)
    assert moved["player"] == mormor_player["player"] and moved["key"] != mormor_player["key"]
    for context in (first, second, third):
        context.close()


@pytest.mark.parametrize(("viewport", "scheme", "lang"), [(DESKTOP, "dark", "en"), (PHONE, "dark", "nn"),
                                                         (DESKTOP, "light", "nb")])
def test_the_group_page_passes_axe_everywhere(browser: Browser, base_url: str, shots: Path,
                                              viewport: Any, scheme: str, lang: str) -> None:
    context = browser.new_context(viewport=viewport, color_scheme=scheme)  # type: ignore[arg-type]
    page = context.new_page()
    page.goto(f"{base_url}/g/?lang={lang}")
    expect(page.locator("#my-name")).not_to_have_value("")
    page.fill("#new-group-name", "Venner")
    page.click("#new-group button")
    expect(page.locator("#invite-qr svg")).to_be_visible()
    key = device_player(page)["key"]
    friend = call(base_url, "POST", "/api/players", {"name": "Kari"})
    group = page.url.split("/g/")[1].split("#")[0]
    code = page.locator("#invite-link").get_attribute("href").split("#join=")[1]  # type: ignore[union-attr]
    call(base_url, "POST", f"/api/groups/{group}/join", {"code": code}, friend["key"])
    play_group_game(base_url, group, [key, friend["key"]], seed=5)
    page.reload()
    expect(page.locator("[data-ledger-player]")).to_have_count(2)
    page.screenshot(path=str(shots / f"group-{viewport['width']}-{scheme}-{lang}.png"), full_page=True)
    assert page.evaluate(OVERFLOW, {"textOnly": True}) == []
    assert axe_violations(page) == []
    context.close()
