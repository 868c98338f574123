"""A table a grandparent enjoys (issue 24, part B) in a real headless Chromium.

The rules as a sheet over the table, a table that holds still over a whole phone game, text
and controls big enough, one tap per card, settings kept per device, no overlapping labels,
a full table that invites nobody, the focus ring on cards, sounds and the mute button, and
axe-core at WCAG 2.2 AA on every page in both themes and languages. The offline app's side
(the rules page served by the service worker, a table on the device) is in
``test_table_polish_app.py``.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Literal

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

from .browser_helpers import PHONE, SIZES, WATCH_SHIFTS, axe_violations, post, watch_console

DESKTOP: ViewportSize = {"width": 1280, "height": 800}

OVERLAPS = """() => {
  const shown = (el) => el.getClientRects().length
    && el.checkVisibility({ visibilityProperty: true, opacityProperty: true });
  const labels = [...document.querySelectorAll("#felt .seat-name, #felt .seat-facts > span, #felt .badge, "
    + "#felt .who, #felt .win-mark, #trick-note, #war, #deck small, #felt .bubble")]
    .filter(shown).filter((el) => el.textContent.trim());
  // a card in flight passes over what lies on its way: the cards at rest are checked
  const resting = (card) => !card.getAnimations().some((motion) => motion.playState === "running");
  const resting_cards = [...document.querySelectorAll("#area .table-card")].filter(shown).filter(resting);
  const corners = resting_cards.map((card) => {
    const r = card.getBoundingClientRect();
    const corner = { left: r.left + 1, top: r.top + 1,
                     right: r.left + r.width * 0.3, bottom: r.top + r.height * 0.4 };
    return { el: card, r: corner };
  });
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  };
  const meet = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
  const what = (el) => `${el.className || el.id} "${el.textContent.trim().slice(0, 20)}"`;
  const problems = [];
  labels.forEach((a, i) => labels.slice(i + 1).forEach((b) => {
    if (a.contains(b) || b.contains(a)) return;
    if (meet(box(a), box(b))) problems.push(`${what(a)} overlaps ${what(b)}`);
  }));
  for (const label of labels) for (const corner of corners) {
    if (label.contains(corner.el) || corner.el.contains(label)) continue;
    // a label painted under the card is covered, not covering: only what is on top counts
    if (meet(box(label), corner.r)) {
      const [a, b] = [box(label), corner.r];
      const top = document.elementFromPoint((Math.max(a.left, b.left) + Math.min(a.right, b.right)) / 2,
                                            (Math.max(a.top, b.top) + Math.min(a.bottom, b.bottom)) / 2);
      if (top && label.contains(top)) problems.push(`${what(label)} covers ${corner.el.dataset.card}'s rank`);
    }
  }
  for (const name of document.querySelectorAll("#felt .seat-name")) {
    if (name.scrollWidth > name.clientWidth + 1) problems.push(`${what(name)} is cut`);
  }
  const note = document.getElementById("trick-note");
  if (shown(note) && note.textContent.trim() && document.getElementById("result").hidden) {
    const r = note.getBoundingClientRect();
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (top && !note.contains(top)) {
      problems.push(`the trick note is covered by ${top.tagName} "${top.textContent.trim().slice(0, 20)}" `
        + `in ${top.parentElement?.className}`);
    }
  }
  return problems;
}"""
"""Every label on the felt that overlaps another, or covers a card's rank corner; a seat's
name cut off; the trick's note covered (by a card in flight)."""


def seat_table(
    page: Page, base_url: str, seats: list[dict[str, Any]], lang: str = "en", query: str = ""
) -> dict[str, Any]:
    """A table made through the API, opened at this page's seat 0."""
    table = post(base_url, "/api/tables", {"rules": "pagat", "players": len(seats), "seats": seats})
    page.goto(f"{base_url}/?lang={lang}")
    page.evaluate(
        "([k, v]) => localStorage.setItem(k, v)",
        [f"mattis.seat.{table['table']}", json.dumps({"seat": 0, "token": table["token"]})],
    )
    page.goto(f"{base_url}/t/{table['table']}?lang={lang}{query}")
    return table


BOTS = [
    {"kind": "human", "name": "Mormor"},
    {"kind": "bot", "level": "normal"},
    {"kind": "bot", "level": "normal"},
]


def phone(browser: Browser, **options: Any) -> BrowserContext:
    return browser.new_context(
        viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True, **options
    )


def events(page: Page) -> str:
    return page.locator("#game").get_attribute("data-events") or ""


def one_move(page: Page, touch: bool, timeout: float = 60.0) -> tuple[int, bool] | None:
    """Wait for our turn and make one move by tapping (or clicking) once; a sequence's chooser
    takes a second tap. Returns (taps, whether the chooser opened), None once the game is over."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.locator("#result").is_visible():
            return None
        if page.locator("body.my-turn").count():
            before = events(page)
            card = page.locator("#hand .card[data-playable='true']").first
            if card.count():
                card.tap() if touch else card.click()
                if page.locator("#chooser").is_visible():
                    page.locator("#chooser button").last.click()
                    return 2, True
                expect(page.locator("#game")).not_to_have_attribute("data-events", before)
                return 1, False
            for button in ("#pickup", "#chance"):
                if page.locator(f"{button}:enabled").count():
                    page.locator(button).tap() if touch else page.locator(button).click()
                    return 1, False
        page.wait_for_timeout(30)
    raise AssertionError("no move became possible in time")


# ------------------------------------------------------------------ 1: the rules as a sheet


def test_the_rules_open_as_a_sheet_over_the_table_and_the_game_stays(
    browser: Browser, base_url: str, shots: Path
) -> None:
    context = phone(browser)
    page = context.new_page()
    problems = watch_console(page)
    seat_table(page, base_url, BOTS, lang="nb")
    expect(page.locator("#hand .card").first).to_be_visible()
    address = page.url
    hand = page.locator("#hand .card").count()
    page.locator('[data-action="rules"]').click()
    sheet = page.locator("[data-rules-sheet]")
    expect(sheet).to_be_visible()
    expect(sheet).to_contain_text("Slik spiller du")
    expect(sheet.locator("[data-show-card] svg").first).to_be_attached()  # the examples drawn as at the table
    page.screenshot(path=str(shots / "phone-rules-sheet-nb.png"))
    assert page.url == address
    page.keyboard.press("Escape")
    expect(sheet).to_be_hidden()
    assert page.url == address and page.locator("#hand .card").count() >= hand - 1
    page.locator('[data-action="rules"]').click()
    expect(sheet).to_be_visible()
    sheet.locator("#rules-close").click()
    expect(sheet).to_be_hidden()
    expect(page.locator('[data-action="rules"]')).to_be_focused()
    # the link itself still leads to the page, with the way back, for a new tab
    href = page.locator('[data-action="rules"]').get_attribute("href") or ""
    assert "/rules?lang=nb&back=" in href and "%2Ft%2F" in href
    assert not problems, problems
    context.close()


# ------------------------------------------------------------------ 3, 4, 5a: a whole phone game


def test_a_whole_phone_game_holds_still_is_big_enough_and_takes_one_tap_a_card(
    browser: Browser, base_url: str, shots: Path
) -> None:
    """Cumulative layout shift ≤ 0.02 over a whole game on a 390×844 touch phone, the hand's
    top never moves between turns, the buttons are always there (disabled when they do not
    apply), one tap plays a card, no text under 14 px, no control under 44 px, and each card
    of the hand shows at least 44 px of itself."""
    context = phone(browser)
    context.add_init_script(WATCH_SHIFTS)
    page = context.new_page()
    problems = watch_console(page)
    seat_table(page, base_url, BOTS, lang="nb", query="&pause=200")
    expect(page.locator("#hand .card").first).to_be_visible()
    page.wait_for_timeout(300)
    page.screenshot(path=str(shots / "phone-table-start-nb.png"))
    tops: set[float] = set()
    taps = moves = chooser = 0
    smallest_text, smallest_control, narrowest = 99.0, 99.0, 99.0
    while True:
        if page.locator("body.my-turn").count():
            tops.add(
                page.evaluate(
                    "Math.round(document.getElementById('hand').getBoundingClientRect().top + scrollY)"
                )
            )
            for button in ("#chance", "#pickup", "#hint"):
                expect(page.locator(button)).to_be_visible()
            sizes = page.evaluate(SIZES)
            smallest_text = min(smallest_text, sizes["text"][0])
            smallest_control = min(smallest_control, sizes["control"][0])
            assert sizes["text"][0] >= 14, sizes
            assert sizes["control"][0] >= 44, sizes
            strips = page.locator("#hand .card").evaluate_all(
                "cards => cards.map(c => c.getBoundingClientRect().width)"
            )
            narrowest = min([narrowest, *strips])
        made = one_move(page, touch=True)
        if made is None:
            break
        taps += made[0]
        moves += 1
        chooser += made[1]
        if moves == 10:
            page.screenshot(path=str(shots / "phone-table-mid-nb.png"))
        assert moves < 300
    page.wait_for_timeout(400)
    page.screenshot(path=str(shots / "phone-result-nb.png"))
    shift = page.evaluate("window.shifts.quiet")
    print(
        f"phone game: layout shift {shift:.4f}, hand tops {sorted(tops)}, {taps} taps for {moves} moves "
        f"({chooser} sequence choices), smallest text {smallest_text} px, control {smallest_control} px, "
        f"narrowest card {narrowest} px"
    )
    assert shift <= 0.02, shift
    assert len(tops) == 1, tops
    assert taps == moves + chooser
    assert narrowest >= 44
    result = page.evaluate(SIZES)
    assert result["text"][0] >= 14 and result["control"][0] >= 44, result
    assert not problems, problems
    context.close()


def test_seventeen_cards_show_44_px_each_on_a_phone_and_large_cards_are_larger(
    browser: Browser, base_url: str
) -> None:
    context = phone(browser)
    page = context.new_page()
    seat_table(page, base_url, BOTS, lang="en")
    expect(page.locator("#hand .card").first).to_be_visible()
    # the hand's own layout with 17 and with 26 cards (phase 2's hands): every card shows a
    # finger's width of itself
    for cards in (17, 26):
        widths = page.evaluate(
            """(n) => {
          const hand = document.getElementById('hand');
          const first = hand.children[0];
          while (hand.children.length < n) hand.append(first.cloneNode(true));
          while (hand.children.length > n) hand.lastElementChild.remove();
          window.dispatchEvent(new Event('resize'));
          return new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() =>
            done([...hand.children].map((c) => c.getBoundingClientRect().width)))));
        }""",
            cards,
        )
        assert min(widths) >= 44, (cards, widths)
    page.reload()
    expect(page.locator("#hand .card").first).to_be_visible()
    normal = page.locator("#hand .card .face").first.bounding_box()["width"]  # type: ignore[index]
    page.locator("#settings summary").click()
    page.locator('[data-setting="large-cards"]').check()
    page.locator('[data-setting="four-colour"]').check()
    page.reload()
    expect(page.locator('[data-setting="large-cards"]')).to_be_checked()
    expect(page.locator('[data-setting="four-colour"]')).to_be_checked()
    expect(page.locator("#hand .card").first).to_be_visible()
    large = page.locator("#hand .card .face").first.bounding_box()["width"]  # type: ignore[index]
    assert large > normal * 1.15, (normal, large)
    fills = page.evaluate("""async () => {
      const { cardSvg } = await import('/static/cards.js');
      const out = {};
      for (const code of ['7d', '7c', '7h', '7s']) {
        const svg = cardSvg(code);
        document.getElementById('hand').append(svg);
        out[code] = getComputedStyle(svg.querySelector('.ink')).fill;
        svg.remove();
      }
      return out;
    }""")
    assert fills["7d"] == "rgb(20, 83, 184)" and fills["7c"] == "rgb(18, 112, 42)", fills
    assert fills["7h"] == "rgb(192, 38, 45)" and fills["7s"] == "rgb(27, 27, 27)", fills
    context.close()


def test_confirm_card_brings_back_two_taps(browser: Browser, base_url: str) -> None:
    context = phone(browser)
    page = context.new_page()
    page.goto(f"{base_url}/?lang=en")
    page.evaluate("localStorage.setItem('mattis.settings', JSON.stringify({'confirm-card': true}))")
    seat_table(page, base_url, BOTS, lang="en")
    expect(page.locator("#hand .card.legal").first).to_be_visible(timeout=30_000)
    expect(page.locator('[data-setting="confirm-card"]')).to_be_checked()
    before = events(page)
    card = page.locator("#hand .card.legal").first
    code = card.get_attribute("data-card")
    card.tap()
    expect(page.locator(f'#hand [data-card="{code}"]')).to_have_attribute("data-raised", "true")
    assert events(page) == before
    page.locator(f'#hand [data-card="{code}"]').tap()
    expect(page.locator(f'#hand [data-card="{code}"]')).to_have_count(0)
    context.close()


# ------------------------------------------------------------------ 8: no overlaps


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_no_label_overlaps_another_or_a_cards_rank(
    browser: Browser, base_url: str, shots: Path, size: str
) -> None:
    """Every seat's name and badges, the played cards' names and the winner's mark, the trick's
    note and the war banner, checked at each step of a game (a held trick included, and while
    cards fly); the advice about the next trick waits until the last one is cleared."""
    context = phone(browser) if size == "phone" else browser.new_context(viewport=DESKTOP)
    # every change of the advice, and whether a completed trick was on the felt just then
    context.add_init_script("""(() => {
      window.adviceChanges = [];
      new MutationObserver(() => {
        const advice = document.getElementById('advice');
        if (!advice || advice.textContent === window.lastAdvice) return;
        window.lastAdvice = advice.textContent;
        const held = Boolean(document.querySelector('[data-last-trick]'));
        window.adviceChanges.push({ text: advice.textContent, held });
      }).observe(document, { subtree: true, childList: true, characterData: true });
    })()""")
    page = context.new_page()
    seat_table(
        page,
        base_url,
        [{"kind": "human", "name": "Mormor Gunnhild"}, *BOTS[1:], {"kind": "bot", "level": "easy"}],
        lang="nb",
        query="&pause=900",
    )
    expect(page.locator("#hand .card").first).to_be_visible()
    checked_held = checked_flight = 0
    for _ in range(60):
        made = one_move(page, touch=size == "phone")
        if made is None:
            break
        for _ in range(8):
            page.wait_for_timeout(120)
            problems = page.evaluate(OVERLAPS)
            assert problems == [], problems
            if page.locator("[data-last-trick]").count():
                checked_held += 1
                sizes = page.evaluate(SIZES)  # the held trick's marks and notes are big enough too
                assert sizes["text"][0] >= 14 and sizes["control"][0] >= 44, sizes
            if page.evaluate("document.getAnimations().length"):
                checked_flight += 1
        if checked_held >= 3 and checked_flight >= 3 and _ > 12:
            break
    page.screenshot(path=str(shots / f"{size}-no-overlaps.png"))
    changes = page.evaluate("window.adviceChanges")
    assert len(changes) > 3 and [change for change in changes if change["held"]] == [], changes
    assert checked_held and checked_flight, (checked_held, checked_flight)
    context.close()


# ------------------------------------------------------------------ 9: a full table


def test_a_full_table_invites_nobody_and_offers_your_own(
    browser: Browser, base_url: str, shots: Path
) -> None:
    table = post(base_url, "/api/tables", {"rules": "pagat", "players": 3, "seats": BOTS})
    context = phone(browser)
    page = context.new_page()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(f"{base_url}/t/{table['table']}?lang=nb")
    expect(page.locator("#join")).to_be_visible()
    expect(page.locator("#join-host")).to_contain_text("Bordet er fullt")
    expect(page.locator("#join")).not_to_contain_text("inviterer deg")
    expect(page.locator("#join img[data-qr]")).to_be_hidden()
    expect(page.locator("#join-form")).to_be_hidden()
    own = page.locator("#own-table a")
    expect(own).to_be_visible()
    expect(own).to_have_text("Start ditt eget bord")
    assert not [url for url in asked if "qr.svg" in url]
    page.screenshot(path=str(shots / "phone-full-table-nb.png"))
    context.close()


# ------------------------------------------------------------------ 10: focus on cards


def luminance(colour: str) -> float:
    parts = [float(x) for x in colour[colour.index("(") + 1 : colour.index(")")].split(",")[:3]]
    linear = [c / 255 / 12.92 if c / 255 <= 0.03928 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in parts]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_focus_on_a_card_meets_three_to_one(
    browser: Browser, base_url: str, theme: Literal["light", "dark"]
) -> None:
    context = browser.new_context(viewport=DESKTOP, color_scheme=theme)
    page = context.new_page()
    seat_table(page, base_url, BOTS)
    expect(page.locator("#hand .card").first).to_be_visible()
    page.locator("#hand .card").first.focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    ring = page.evaluate("""() => {
      const face = document.activeElement.querySelector('.face');
      const style = getComputedStyle(face);
      const rail = getComputedStyle(document.querySelector('.play-column')).backgroundColor;
      return { outline: style.outlineColor, width: style.outlineWidth, shadow: style.boxShadow, rail };
    }""")
    assert ring["width"] == "3px", ring
    halo = ring["shadow"][: ring["shadow"].index(")") + 1]
    best = max(contrast(ring["outline"], ring["rail"]), contrast(halo, ring["rail"]))
    assert best >= 3, ring
    context.close()


# ------------------------------------------------------------------ 13: sound and touch


SOUND_WATCH = """() => {
  window.buzzes = [];
  window.sounds = [];
  navigator.vibrate = (pattern) => { window.buzzes.push(pattern); return true; };
  new MutationObserver(() => {
    const sound = document.documentElement.dataset.lastSound;
    if (sound) window.sounds.push(sound);
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-last-sound"] });
}"""


def test_your_turn_sounds_and_buzzes_unless_muted_and_mute_is_kept(browser: Browser, base_url: str) -> None:
    context = phone(browser)
    context.add_init_script(f"({SOUND_WATCH})()")
    page = context.new_page()
    seat_table(page, base_url, BOTS, query="&pause=0")
    expect(page.locator("#hand .card").first).to_be_visible()
    mute = page.locator('[data-action="mute"]')
    expect(mute).to_have_attribute("aria-pressed", "false")
    for _ in range(3):
        one_move(page, touch=True)
    page.wait_for_function("() => window.sounds.includes('turn')", timeout=20_000)
    assert page.evaluate("window.buzzes.length") >= 1
    mute.tap()
    expect(mute).to_have_attribute("aria-pressed", "true")
    page.reload()
    expect(page.locator('[data-action="mute"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#hand .card").first).to_be_visible()
    page.evaluate("document.documentElement.removeAttribute('data-last-sound'); window.buzzes = []")
    for _ in range(3):
        one_move(page, touch=True)
    page.wait_for_timeout(500)
    assert page.locator("html").get_attribute("data-last-sound") is None
    assert page.evaluate("window.buzzes.length") == 0
    context.close()


def test_no_buzz_with_reduced_motion_and_no_sound_while_hidden(browser: Browser, base_url: str) -> None:
    context = phone(browser, reduced_motion="reduce")
    context.add_init_script(f"({SOUND_WATCH})()")
    page = context.new_page()
    seat_table(page, base_url, BOTS, query="&pause=0")
    expect(page.locator("#hand .card").first).to_be_visible()
    for _ in range(3):
        one_move(page, touch=True)
    page.wait_for_function("() => window.sounds.includes('turn')", timeout=20_000)
    assert page.evaluate("window.buzzes.length") == 0
    page.evaluate("""() => {
      Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
      document.documentElement.removeAttribute('data-last-sound');
    }""")
    for _ in range(2):
        one_move(page, touch=True)
    page.wait_for_timeout(500)
    assert page.locator("html").get_attribute("data-last-sound") is None
    context.close()


def test_your_turn_is_announced_once_a_turn_and_the_log_is_reachable_by_keyboard(
    browser: Browser, base_url: str
) -> None:
    context = browser.new_context(viewport=DESKTOP)
    context.add_init_script("""(() => {
      window.announced = [];
      new MutationObserver((mutations) => {
        const node = document.getElementById('announce');
        if (node && node.textContent && mutations.some((m) => node.contains(m.target))) {
          window.announced.push(node.textContent);
        }
      }).observe(document, { subtree: true, childList: true, characterData: true });
    })()""")
    page = context.new_page()
    seat_table(page, base_url, BOTS, query="&pause=0")
    expect(page.locator("#hand .card").first).to_be_visible()
    moves = 0
    for _ in range(5):
        assert one_move(page, touch=False)
        moves += 1
    page.wait_for_timeout(300)
    # each turn once (winning a trick and leading again is the same turn): never more than our moves
    assert 1 <= len(page.evaluate("window.announced")) <= moves
    assert page.locator("#announce").get_attribute("aria-live") == "polite"
    assert page.locator("#log").get_attribute("aria-live") == "polite"
    assert (
        page.locator("#status").get_attribute("aria-live") is None
    )  # the status line repeats the turn: not read out
    page.locator("#log").focus()
    for _ in range(80):
        if page.evaluate("document.activeElement.id") == "log":
            break
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "log"
    context.close()


# ------------------------------------------------------------------ 11: axe-core

RANKS = "23456789TJQKA"


def seek_war(page: Page) -> bool:
    """In phase 1, at our turn, play a card that ties the highest on the table (a war), if one
    may be played; whether one was."""
    if not page.locator("body.my-turn").count() or page.evaluate(
        "document.querySelector('#deck .stock') === null"
    ):
        return False
    if page.locator("[data-last-trick]").count():  # the trick before, still going to its winner
        expect(page.locator("[data-last-trick]")).to_have_count(0)
    on_table = page.locator("#area [data-card]").evaluate_all("cards => cards.map(c => c.dataset.card)")
    if not on_table:
        return False
    highest = max(RANKS.index(code[0]) for code in on_table)
    for code in page.locator("#hand .card[data-playable='true']").evaluate_all(
        "cards => cards.map(c => c.dataset.card)"
    ):
        if RANKS.index(code[0]) == highest:
            before = events(page)
            page.locator(f'#hand [data-card="{code}"]').click()
            expect(page.locator("#game")).not_to_have_attribute("data-events", before)
            return True
    return False


def check_axe(page: Page, where: str, found: dict[str, list[str]]) -> None:
    """axe in both themes (set as theme.js sets them), then back to light."""
    for theme in ("light", "dark"):
        page.evaluate("(theme) => { document.documentElement.dataset.theme = theme; }", theme)
        page.wait_for_timeout(50)
        found[f"{where} ({theme})"] = axe_violations(page)
    page.evaluate("document.documentElement.dataset.theme = 'light'")


@pytest.mark.parametrize("lang", ["nb", "en"])
def test_axe_finds_nothing_on_any_page_in_either_theme(browser: Browser, base_url: str, lang: str) -> None:
    """The start page, the invite page, the waiting room, the table in phase 1, in a war and
    in phase 2, the result, the rules sheet and the rules page, light and dark."""
    found: dict[str, list[str]] = {}
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.goto(f"{base_url}/?lang={lang}")
    check_axe(page, "start page", found)
    page.goto(f"{base_url}/rules?lang={lang}")
    check_axe(page, "rules page", found)
    table = seat_table(
        page,
        base_url,
        [{"kind": "human", "name": "Kari"}, {"kind": "open"}, {"kind": "bot", "level": "normal"}],
        lang=lang,
    )
    expect(page.locator("#waiting")).to_be_visible()
    check_axe(page, "waiting room", found)
    friend = browser.new_context(viewport=PHONE).new_page()
    friend.goto(f"{base_url}/t/{table['table']}?lang={lang}")
    expect(friend.locator("#join-form")).to_be_visible()
    check_axe(friend, "invite page", found)
    friend.context.close()
    seat_table(page, base_url, BOTS, lang=lang, query="&pause=0")
    expect(page.locator("#hand .card").first).to_be_visible()
    check_axe(page, "table, phase 1", found)
    page.locator('[data-action="rules"]').click()
    expect(page.locator("[data-rules-sheet]")).to_be_visible()
    check_axe(page, "rules sheet", found)
    page.keyboard.press("Escape")
    seen_war = seen_phase2 = seen_result = False
    for _ in range(6):  # games, until a war has been seen (a tie is played for when it can be)
        for _ in range(400):
            if not seen_war and page.locator("#war").is_visible():
                check_axe(page, "table, war", found)
                seen_war = True
            if (
                not seen_phase2
                and page.locator("#hand .card").count()
                and page.evaluate("document.querySelector('#deck .stock') === null")
            ):
                check_axe(page, "table, phase 2", found)
                seen_phase2 = True
            if seek_war(page):
                continue
            if one_move(page, touch=False) is None:
                break
        expect(page.locator("#result")).to_be_visible()
        if not seen_result:
            check_axe(page, "result", found)
            seen_result = True
        if seen_war:
            break
        page.locator("#again").click()
        expect(page.locator("#result")).to_be_hidden()
    print({where: len(problems) for where, problems in found.items()}, f"war seen: {seen_war}")
    print(json.dumps({where: problems for where, problems in found.items() if problems}, indent=1))
    assert seen_phase2 and seen_war
    assert {where: problems for where, problems in found.items() if problems} == {}
    context.close()


def test_axe_finds_nothing_in_nynorsk_either(browser: Browser, base_url: str) -> None:
    """The pages without a whole game (the game's pages are checked in bokmål and English)."""
    found: dict[str, list[str]] = {}
    page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    page.goto(f"{base_url}/?lang=nn")
    check_axe(page, "start page", found)
    page.goto(f"{base_url}/rules?lang=nn")
    check_axe(page, "rules page", found)
    table = seat_table(
        page,
        base_url,
        [{"kind": "human", "name": "Kari"}, {"kind": "open"}, {"kind": "bot", "level": "normal"}],
        lang="nn",
    )
    expect(page.locator("#waiting")).to_be_visible()
    check_axe(page, "waiting room", found)
    friend = browser.new_context(viewport=PHONE).new_page()
    friend.goto(f"{base_url}/t/{table['table']}?lang=nn")
    expect(friend.locator("#join-form")).to_be_visible()
    check_axe(friend, "invite page", found)
    friend.context.close()
    seat_table(page, base_url, BOTS, lang="nn", query="&pause=0")
    expect(page.locator("#hand .card").first).to_be_visible()
    check_axe(page, "table, phase 1", found)
    page.locator('[data-action="rules"]').click()
    expect(page.locator("[data-rules-sheet]")).to_be_visible()
    check_axe(page, "rules sheet", found)
    assert {where: problems for where, problems in found.items() if problems} == {}
    page.context.close()
