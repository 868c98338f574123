"""A table a grandparent enjoys (issue 24) in a real headless Chromium: the rules as a sheet
over the table and a rules page that finds its way back (item 1), the warning before a deal
likely to end in Blodmattis or Blåmattis (6), the result in plain words (7), a full or
finished table that says so (9), and sound, vibration and mute (13).

Needs Debian's ``chromium`` (see ``browser_helpers``); screenshots go to ``$MATTIS_SCREENSHOTS``
when set.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from mattis.i18n import Lang, t

from .app_helpers import PLAY
from .browser_helpers import PHONE, post, watch_console

pytestmark = pytest.mark.browser
"""Every test here drives Chromium (the fast loop leaves them out: ``-m "not browser"``)."""

BOTS = [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]


def choose_chip(page: Page, group: str, value: str) -> None:
    """Tap the chip of ``value`` in the chip group ``group`` (its radio is hidden under it)."""
    page.locator(f"#{group} label", has=page.locator(f'input[value="{value}"]')).click()


def seated(context: BrowserContext, base_url: str, body: dict[str, Any], lang: str = "en",
           path: str = "") -> tuple[Page, dict[str, Any]]:
    """A table made through the API, its page opened in ``context`` with the creator's seat."""
    table = post(base_url, "/api/tables", body)
    page = context.new_page()
    page.goto(f"{base_url}/?lang={lang}")
    keep_seat(page, table)
    page.goto(f"{base_url}/t/{table['table']}?lang={lang}&pause=0{path}")
    return page, table


def keep_seat(page: Page, table: dict[str, Any]) -> None:
    """The creator's seat, kept in the page's browser as the start page keeps it."""
    seat = json.dumps({"seat": table["seat"], "token": table["token"]})
    key = f"mattis.seat.{table['table']}"
    page.evaluate("([key, value]) => localStorage.setItem(key, value)", [key, seat])


def play_to_the_end(page: Page, table_id: str, lang: str = "en") -> dict[str, Any]:
    """Play the seat's first legal move each turn through the page's transport until the end
    (spaced under the server's message rate limit); the last state."""
    played: dict[str, Any] = page.evaluate(
        PLAY, {"tableId": table_id, "lang": lang, "moves": None, "hint": False, "pace": 120})
    last: dict[str, Any] = played["last"]
    return last


# ------------------------------------------------------------------ 7, 9: the result, a closed table


@pytest.mark.parametrize("lang", ["nb", "en"])
def test_the_result_says_what_happened_to_you_and_a_finished_table_invites_nobody(
        browser: Browser, base_url: str, shots: Path, lang: str) -> None:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page, table = seated(context, base_url, {"rules": "pagat", "players": 3, "seed": 11,
                                              "seats": [{"kind": "human", "name": "Mormor"}, *BOTS]}, lang)
    expect(page.locator("#hand [data-card]").first).to_be_visible()
    last = play_to_the_end(page, table["table"], lang)
    result = last["result"]
    seat = table["seat"]
    expected = {
        "nb": ("Du tapte – du er Mattis", "Du gikk ut først", "Du kom ut som nr. {n} av 3"),
        "en": ("You lost – you are Mattis", "You went out first", "You went out as number {n} of 3"),
    }[lang]
    if seat in result["losers"]:
        words = expected[0]
    elif result["order"].index(seat) == 0:
        words = expected[1]
    else:
        words = expected[2].format(n=result["order"].index(seat) + 1)
    assert result["you"] == words
    page.reload()
    expect(page.locator("[data-result-you]")).to_have_text(words)
    page.screenshot(path=str(shots / f"phone-result-{lang}.png"))
    stranger = browser.new_context(viewport=PHONE).new_page()
    problems = watch_console(stranger)
    stranger.goto(f"{base_url}/t/{table['table']}?lang={lang}")
    expect(stranger.locator("#join")).to_be_visible()
    expect(stranger.locator("#join-heading")).to_have_text(
        {"nb": "Dette spillet er over", "en": "This game is over"}[lang])
    stranger.screenshot(path=str(shots / f"phone-finished-table-{lang}.png"))
    closed_page_says_so(stranger, lang)
    assert not problems, problems
    stranger.context.close()
    context.close()


def assert_big_enough(control: Locator) -> None:
    """At least 44×44 CSS px, the platforms' touch target (WCAG 2.5.8 asks for 24)."""
    box = control.bounding_box()
    assert box is not None and box["width"] >= 44 and box["height"] >= 44, box


def closed_page_says_so(page: Page, lang: str) -> None:
    """No code to join with, no invitation, no name to fill in; a way to a table of one's own."""
    expect(page.locator("#join img[data-qr]")).to_be_hidden()
    assert page.locator("#join img[data-qr]").get_attribute("src") is None
    invites = {"nb": "inviterer deg", "en": "invites you"}[lang]
    assert invites not in page.locator("#join").inner_text()
    expect(page.locator("#join-form")).to_be_hidden()
    own = page.locator("#join [data-own-table]")
    expect(own).to_have_text({"nb": "Start ditt eget bord", "en": "Start your own table"}[lang])
    assert own.get_attribute("href") == "/"
    assert_big_enough(own)
    own.click()
    page.wait_for_url("**/")
    expect(page.locator('[data-action="quick-start"]')).to_be_visible()


@pytest.mark.parametrize("lang", ["nb", "en"])
def test_a_full_table_says_so_without_a_join_code(
        browser: Browser, base_url: str, shots: Path, lang: str) -> None:
    table = post(base_url, "/api/tables", {"seats": [{"kind": "human", "name": "Kari"}, *BOTS]})
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    problems = watch_console(page)
    page.goto(f"{base_url}/t/{table['table']}?lang={lang}")
    title = {"nb": "Bordet er fullt", "en": "This table is full"}[lang]
    expect(page.locator("#join-heading")).to_have_text(title)
    page.screenshot(path=str(shots / f"phone-full-table-{lang}.png"))
    closed_page_says_so(page, lang)
    assert not problems, problems
    context.close()


def test_an_open_table_still_invites_with_its_code(browser: Browser, base_url: str) -> None:
    table = post(base_url, "/api/tables", {"seats": [{"kind": "human", "name": "Kari"}, {"kind": "open"},
                                                     {"kind": "bot"}]})
    page = browser.new_page()
    page.goto(f"{base_url}/t/{table['table']}?lang=nb")
    expect(page.locator("#join-host")).to_have_text("Kari inviterer deg til et spill Mattis.")
    expect(page.locator("#join img[data-qr]")).to_be_visible()
    expect(page.locator("#join [data-own-table]")).to_be_hidden()
    expect(page.locator("#join-form")).to_be_visible()
    page.close()


# ------------------------------------------------------------------ 1: the rules


SHEET_OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const problems = [];
  for (const el of document.querySelectorAll('[data-rules-sheet] *')) {
    if (!el.getClientRects().length || el.closest('svg, table')) continue;  // a wide table scrolls by design
    const box = el.getBoundingClientRect();
    const name = `${el.tagName.toLowerCase()}.${el.className}`;
    if (box.right > width + 0.5 || box.left < -0.5) problems.push(`${name} sticks out: ${box.right}`);
    if (el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1 && !el.classList.contains('sheet-body')) {
      problems.push(`${name} cut: ${el.scrollWidth} > ${el.clientWidth}`);
    }
  }
  return problems;
}"""
"""What sticks out of the screen or is cut off inside the rules sheet."""

INSIDE_SHEET = "() => document.querySelector('[data-rules-sheet]').contains(document.activeElement)"


@pytest.mark.parametrize(("size", "lang"), [("phone", "nb"), ("desktop", "en")])
def test_the_rules_open_as_a_sheet_over_the_table_and_the_game_stays(
        browser: Browser, base_url: str, shots: Path, size: str, lang: Lang) -> None:
    viewport = PHONE if size == "phone" else {"width": 1280, "height": 800}
    context = browser.new_context(viewport=viewport, color_scheme="dark" if size == "desktop" else "light")
    page, _ = seated(context, base_url, {"rules": "pagat", "players": 3, "seed": 3,
                                              "seats": [{"kind": "human", "name": "Mormor"}, *BOTS]}, lang)
    problems = watch_console(page)
    expect(page.locator('#hand [data-playable="true"]').first).to_be_visible()
    address = page.url
    page.evaluate("window.sameDocument = true")
    sheet = page.locator("[data-rules-sheet]")
    expect(sheet).to_be_hidden()
    page.locator('[data-action="rules"]').click()
    expect(sheet).to_be_visible()
    # the rules page's own title, in the page's language
    expect(sheet.locator("h2").first).to_have_text(t("web.rules.title", lang))
    assert sheet.get_attribute("aria-labelledby") == "rules-title"
    assert page.evaluate("document.querySelector('[data-rules-sheet]').matches(':modal')")
    expect(sheet.locator("figure.example svg").first).to_be_visible()  # the table's card pictures
    expect(sheet.locator(".cta")).to_have_count(0)  # no link away from the table
    page.screenshot(path=str(shots / f"{size}-rules-sheet-{lang}.png"))
    assert page.evaluate(SHEET_OVERFLOW) == []  # nothing in it cut off or wider than the screen
    assert_big_enough(sheet.locator("#rules-close"))
    assert page.evaluate(INSIDE_SHEET)
    for _ in range(25):  # Tab goes round inside the sheet, never to the table behind it
        page.keyboard.press("Tab")
        assert page.evaluate(INSIDE_SHEET)
    page.keyboard.press("c")  # the table's keys wait while the rules are read
    page.keyboard.press("Escape")
    expect(sheet).to_be_hidden()
    assert page.evaluate("document.activeElement.dataset.action") == "rules"
    assert page.url == address and page.evaluate("window.sameDocument") is True
    page.locator('[data-action="rules"]').click()
    expect(sheet).to_be_visible()
    sheet.locator("#rules-close").click()
    expect(sheet).to_be_hidden()
    assert page.url == address and page.evaluate("window.sameDocument") is True
    before = page.locator("#log li").count()
    page.locator('#hand [data-playable="true"]').first.click()
    if page.locator("#chooser").is_visible():
        page.locator("#chooser button").last.click()
    expect(page.locator("#log li")).not_to_have_count(before)  # the same connection plays on
    assert not problems, problems
    context.close()


@pytest.fixture(scope="module")
def app_built() -> None:
    from mattis.web import pwa

    pwa.build(say=lambda line: None)  # once per machine: does nothing when current


def test_the_rules_page_from_the_service_worker_leads_back_to_its_table(
        app_built: None, browser: Browser, base_url: str) -> None:
    """Once the offline app's worker keeps /rules (one copy per language, written without a
    way back), the page opened from a table still leads back to that table."""
    from .app_helpers import install

    context = browser.new_context()
    page = context.new_page()
    install(page, f"{base_url}/?lang=nb")
    table = post(base_url, "/api/tables", {"seats": [{"kind": "human", "name": "Kari"}, *BOTS]})
    keep_seat(page, table)
    back = f"/t/{table['table']}"
    response = page.goto(f"{base_url}/rules?lang=nb&back={back}")
    assert response is not None and response.from_service_worker
    assert 'href="/"' in response.text() and back not in response.text()  # the kept copy knows no table
    expect(page.locator("a[data-back]").first).to_have_attribute("href", back)
    cta = page.locator("a[data-back-cta]")
    expect(cta).to_have_attribute("href", back)
    expect(cta).to_have_text("Tilbake til spillet")
    english = f"/rules?lang=en&back={back.replace('/', '%2F')}"
    expect(page.locator('nav.lang a[lang="en"]')).to_have_attribute("href", english)
    page.locator('nav.lang a[lang="en"]').click()
    expect(page.locator("a[data-back-cta]")).to_have_text("Back to the game")
    page.locator("a[data-back]").first.click()
    page.wait_for_url(f"**{back}")
    expect(page.locator("#hand [data-card]").first).to_be_visible()
    page.goto(f"{base_url}/rules?lang=nb&back=https://example.org/t/x")  # never off the site
    expect(page.locator("a[data-back]").first).to_have_attribute("href", "/")
    context.close()


# ------------------------------------------------------------------ 6: the warning before a deal


def test_the_start_page_warns_before_a_deal_likely_to_end_in_blodmattis(
        browser: Browser, base_url: str, shots: Path) -> None:
    """The warning gives the measured rate for the chosen rules and player count, as the terminal
    does (``mattis.frontend.empty_loss``), and follows every change of either."""
    from mattis.core.rules import Rules
    from mattis.frontend.empty_loss import empty_loss_risk

    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    problems = watch_console(page)
    page.goto(f"{base_url}/?lang=nb")
    setup = page.locator('#new-table [data-warning="empty-loss"]')
    friends = page.locator('section[aria-labelledby="friends-title"] [data-warning="empty-loss"]')
    expect(page.locator("#presets input").first).to_be_attached()
    expect(setup).to_be_hidden()  # pagat, 3 players: hardly ever
    expect(friends).to_be_hidden()
    page.locator('#presets input[value="app"]').check()
    choose_chip(page, "players", "4")
    expect(setup).to_be_hidden()  # 9 %: not worth a word
    choose_chip(page, "players", "5")
    expect(setup).to_have_text(str(empty_loss_risk(Rules.preset("app"), 5).warning("nb")))  # type: ignore[union-attr]
    expect(setup).to_contain_text("51 %")
    expect(setup).to_contain_text("Blodmattis")
    choose_chip(page, "players", "6")
    expect(setup).to_contain_text("93 %")
    page.locator("#house-rules > summary").click()
    page.locator('fieldset[data-field="follow_suit"] input:not(:checked)').first.check()
    expect(setup).to_be_hidden()  # a house rule: not measured, so no figure
    page.locator("#reset-options").click()
    expect(setup).to_contain_text("93 %")
    page.locator("#name").fill("Mormor")
    page.locator("#create").click()  # the choices are kept: "Play now" and the friends' table warn
    page.wait_for_url("**/t/**")
    page.goto(f"{base_url}/?lang=en")
    quick = page.locator('section[aria-labelledby="computer-title"] [data-warning="empty-loss"]')
    expect(quick).to_contain_text("93% of 100 test games ended early in Blodmattis")
    expect(friends).to_be_hidden()  # the friends' table is for 3 until chosen
    choose_chip(page, "friends-count", "5")
    expect(friends).to_contain_text("51%")
    page.screenshot(path=str(shots / "phone-start-warning-en.png"), full_page=True)
    choose_chip(page, "friends-count", "3")
    expect(friends).to_be_hidden()
    assert not problems, problems
    context.close()


# ------------------------------------------------------------------ 13: sound, vibration, mute

FAKE_AUDIO = """
window.heard = [];      // the frequency of every note begun, in order
window.buzzed = [];     // each navigator.vibrate() call's pattern
window.contexts = 0;
window.pageHidden = false;
Object.defineProperty(document, "visibilityState", { get: () => (window.pageHidden ? "hidden" : "visible") });
class FakeAudioContext {
  constructor() { window.contexts += 1; this.currentTime = 0; this.state = "running"; this.destination = {}; }
  resume() { return Promise.resolve(); }
  close() { return Promise.resolve(); }
  createGain() { return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect() {} }; }
  createOscillator() {
    const tone = { frequency: { setValueAtTime(value) { tone.hz = value; } }, connect() {}, stop() {},
                   start() { window.heard.push(tone.hz); } };
    return tone;
  }
}
window.AudioContext = FakeAudioContext;
navigator.vibrate = (pattern) => { window.buzzed.push(pattern); return true; };
"""
"""Web Audio and vibration stubbed (``add_init_script``): every note and every vibration are
counted, and the test can say the tab is hidden."""

SOUND_FIRST_NOTE = {"turn": 660, "war": 220, "trick": 523, "mattis": 392}
"""The first note of each sound (``static/table/sound.js`` SOUNDS), which no other sound plays:
how many times a sound was heard is how many times its first note was."""


def sounds_heard(page: Page) -> list[str]:
    """The sounds the stub heard, in order."""
    names = {hz: kind for kind, hz in SOUND_FIRST_NOTE.items()}
    return [names[hz] for hz in page.evaluate("window.heard") if hz in names]


def test_sounds_and_a_vibration_follow_the_game_and_the_mute_button_stops_them(
        browser: Browser, base_url: str) -> None:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.add_init_script(FAKE_AUDIO)
    page, table = seated(context, base_url, {"rules": "pagat", "players": 3, "seed": 21,
                                              "seats": [{"kind": "human", "name": "Mormor"}, *BOTS]}, "nb")
    problems = watch_console(page)
    mute = page.locator('[data-action="mute"]')
    expect(mute).to_have_attribute("aria-pressed", "false")
    expect(mute).to_have_attribute("aria-label", "Slå av lyd")
    assert_big_enough(mute)
    expect(page.locator('#hand [data-playable="true"]').first).to_be_visible()
    assert page.evaluate("window.heard") == []  # the first state is not news
    last = play_to_the_end(page, table["table"], "nb")  # the page's own connection hears every state
    expect(page.locator("[data-result]")).to_be_visible()
    heard = sounds_heard(page)
    assert heard.count("turn") >= 3, heard  # the page sounds your turn each time
    assert "trick" in heard, heard
    assert heard.count("mattis") == 1, heard
    assert last["view"]["phase"] == "over"
    buzzed = page.evaluate("window.buzzed")
    assert len(buzzed) == heard.count("turn") and all(b == 60 for b in buzzed)
    assert not problems, problems
    context.close()


SOUNDS_FOR = """async () => {
  const { soundsFor } = await import('/static/table/sound.js');
  const state = (phase, tie, legal, trick, game = 1) => ({ table: { game }, legal,
    view: { phase, tie },
    last_trick: trick === null ? null : { number: trick, reason: trick < 0 ? "taken_back" : "won" } });
  const before = state("collect", [], [], 1);
  return {
    first: soundsFor(null, before),
    war: soundsFor(before, state("collect", ["Kd"], [], 1)),
    won: soundsFor(before, state("collect", [], ["7h"], 2)),
    picked_up: soundsFor(state("shed", [], [], -1), state("shed", [], [], -2)),
    over: soundsFor(state("shed", [], [], 5), state("over", [], [], 5)),
    new_game: soundsFor(before, state("collect", [], ["7h"], null, 2)),
  };
}"""
"""What sound.js makes of changes of state: silence at the first state and at a new game."""


def sound_probe(page: Page, kinds: list[str]) -> tuple[list[str], list[Any]]:
    """Ask sound.js for these sounds; what the stubs heard and felt."""
    page.evaluate("() => { window.heard = []; window.buzzed = []; }")
    page.evaluate("(kinds) => import('/static/table/sound.js').then((m) => m.playSounds(kinds))", kinds)
    return sounds_heard(page), page.evaluate("window.buzzed")


def test_every_sound_is_its_own_the_tab_hidden_and_the_mute_kept_on_the_device_are_silent(
        browser: Browser, base_url: str, shots: Path) -> None:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, color_scheme="dark")
    context.add_init_script(FAKE_AUDIO)
    page, _ = seated(context, base_url, {"seats": [{"kind": "human", "name": "Mormor"}, *BOTS]}, "en")
    expect(page.locator("#hand [data-card]").first).to_be_visible()
    kinds = ["mattis", "war", "trick", "turn"]
    assert sound_probe(page, kinds) == (kinds, [60])
    news = page.evaluate(SOUNDS_FOR)
    assert news == {"first": [], "war": ["war"], "won": ["trick", "turn"], "picked_up": [],
                    "over": ["mattis"], "new_game": []}
    page.evaluate("window.pageHidden = true")
    assert sound_probe(page, ["turn", "war"]) == ([], [])  # hidden: nothing
    page.evaluate("window.pageHidden = false")
    mute = page.locator('[data-action="mute"]')
    mute.click()
    expect(mute).to_have_attribute("aria-pressed", "true")
    page.screenshot(path=str(shots / "phone-muted-dark.png"))
    assert sound_probe(page, ["turn", "trick"]) == ([], [])  # muted: no sound, no vibration
    page.reload()
    expect(page.locator('[data-action="mute"]')).to_have_attribute("aria-pressed", "true")  # kept
    assert page.evaluate("localStorage.getItem('mattis.pref.sound')") == "0"
    assert sound_probe(page, ["turn"]) == ([], [])
    page.locator('[data-action="mute"]').click()
    expect(page.locator('[data-action="mute"]')).to_have_attribute("aria-pressed", "false")
    assert sound_probe(page, ["turn"]) == (["turn"], [60])
    context.close()


def test_reduced_motion_makes_no_sound(browser: Browser, base_url: str) -> None:
    context = browser.new_context(reduced_motion="reduce")
    context.add_init_script(FAKE_AUDIO)
    page, _ = seated(context, base_url, {"seats": [{"kind": "human", "name": "Mormor"}, *BOTS]}, "en")
    expect(page.locator("#hand [data-card]").first).to_be_visible()
    assert sound_probe(page, ["turn", "war", "trick", "mattis"]) == ([], [])
    context.close()


# ------------------------------------------------------------------ the same in the offline app


def test_offline_the_warning_the_rules_sheet_and_the_way_back_work_from_the_workers_cache(
        app_built: None, browser: Browser, base_url: str, shots: Path) -> None:
    """With the network off: the start page's warning (the worker's /api/options), the rules
    sheet over a table on the device (the worker's /rules), and the rules page's way back."""
    from .app_helpers import CREATE, FAST_BOTS, install

    context = browser.new_context(viewport=PHONE, color_scheme="dark")
    page = context.new_page()
    install(page, f"{base_url}/?lang=nb")
    page.evaluate(FAST_BOTS)
    context.set_offline(True)
    problems = watch_console(page)
    page.goto(f"{base_url}/?lang=nb")
    page.locator('#presets input[value="app"]').check()
    choose_chip(page, "players", "6")
    expect(page.locator('#new-table [data-warning="empty-loss"]')).to_contain_text("93 %")
    seats = [{"kind": "human", "name": "Mormor"}, *BOTS]
    created = page.evaluate(CREATE, {"body": {"rules": "pagat", "players": 3, "seed": 4, "seats": seats},
                                     "lang": "nb", "where": "local"})
    table_id = created["data"]["table"]
    page.goto(f"{base_url}/t/{table_id}?lang=nb&pause=0")
    expect(page.locator("#hand [data-card]").first).to_be_visible(timeout=60_000)
    page.locator('[data-action="rules"]').click()
    sheet = page.locator("[data-rules-sheet]")
    expect(sheet).to_be_visible()
    expect(sheet.locator("h2").first).to_have_text(t("web.rules.title", "nb"))
    page.screenshot(path=str(shots / "phone-offline-rules-sheet-dark.png"))
    page.keyboard.press("Escape")
    expect(sheet).to_be_hidden()
    page.goto(f"{base_url}/rules?lang=nb&back=/t/{table_id}")
    page.locator("a[data-back-cta]").click()
    page.wait_for_url(f"**/t/{table_id}")
    expect(page.locator("#hand [data-card]").first).to_be_visible(timeout=60_000)
    assert not [problem for problem in problems if "qr.svg" not in problem], problems  # item 12 is another's
    context.close()
