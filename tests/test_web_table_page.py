"""The card table page in a real headless Chromium (issue 15, items 1–4, 6, 8–12), driven
only through its test hooks (``docs/web.md``): ``data-card``/``data-playable`` in the hand,
``data-action`` buttons, ``data-table`` and ``data-last-trick`` on the felt, ``data-war``,
``data-refusal``, ``data-result``/``data-mattis-seat`` and ``data-reaction``.

Seeded tables make the situations the tests need: a seeded table's deals and bots are
deterministic, so a :class:`~mattis.table.TableSession` made from the same request plays the
same game here in the test, which finds a seed whose first trick goes to war (P1.5) or whose
phase 2 gives this seat 20 cards or more. Screenshots go to ``$MATTIS_SCREENSHOTS`` when set.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

import pytest
from playwright.sync_api import Browser, Locator, Page, ViewportSize, expect

from mattis import Game
from mattis.table import MessageCursor, TableConfig, TableSession

from .browser_helpers import (
    PHONE,
    get,
    post,
    watch_console,
)

pytestmark = pytest.mark.browser
"""Every test here drives Chromium (the fast loop leaves them out: ``-m "not browser"``)."""

DESKTOP: ViewportSize = {"width": 1280, "height": 860}


# ---------------------------------------------------------------- helpers


def seats(players: int, name: str = "Kari", open_seats: int = 0) -> list[dict[str, Any]]:
    bots = [{"kind": "bot", "level": "normal"}] * (players - 1 - open_seats)
    return [{"kind": "human", "name": name}, *bots, *([{"kind": "open"}] * open_seats)]


def sit_down(page: Page, base_url: str, table: dict[str, Any], lang: str = "en",
             pause: int | None = 0) -> None:
    """Open a table as the seat ``table`` answered with (its token kept as the start page
    keeps it); ``pause`` sets the page's trick pause in ms (``None``: the page's default)."""
    key, value = f"mattis.seat.{table['table']}", json.dumps({"seat": table["seat"], "token": table["token"]})
    page.add_init_script(f"localStorage.setItem({json.dumps(key)}, {json.dumps(value)})")
    query = f"?lang={lang}" + ("" if pause is None else f"&pause={pause}")
    page.goto(f"{base_url}/t/{table['table']}{query}")
    expect(page.locator("#hand [data-card]").first).to_be_visible(timeout=20_000)


def events(page: Page) -> int:
    return int(page.locator("#game").get_attribute("data-events") or 0)


def wait_my_turn(page: Page, after: int, seat: int = 0, timeout: float = 30.0) -> bool:
    """Wait until more than ``after`` events have happened and ``seat`` is to move; False if
    the game ended first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.locator("[data-result]").is_visible():
            return False
        game = page.locator("#game")
        if events(page) > after and game.get_attribute("data-to-move") == str(seat):
            return True
        page.wait_for_timeout(25)
    raise AssertionError(f"the turn did not come back in time: {page.locator('#status').inner_text()}")


def act(page: Page, action: str) -> None:
    """Play ``action`` through the hooks: a card (opening the chooser if it asks) or a button."""
    if action in ("chance", "pickup"):
        page.click(f'.actions [data-action="{action}"]')
        return
    low = action.split("-")[0]
    page.click(f'#hand [data-card="{low}"]')
    chooser = page.locator(f'#chooser [data-action="{action}"]')
    if page.locator("#chooser").is_visible():
        chooser.click()


def play_by_hooks(page: Page, seat: int = 0, on_move: Callable[[int], None] | None = None) -> int:
    """Play the game to its end as a person would: the first playable card (the first option
    if the chooser opens), else pick up or chance. Returns the number of moves."""
    moves = 0
    seen = -1
    while wait_my_turn(page, seen, seat):
        seen = events(page)
        playable = page.locator('#hand [data-playable="true"]')
        if playable.count():
            playable.first.click()
            if page.locator("#chooser").is_visible():
                page.locator("#chooser [data-action]").first.click()
        elif page.locator('.actions [data-action="pickup"]').is_visible():
            page.click('.actions [data-action="pickup"]')
        else:
            page.click('.actions [data-action="chance"]')
        moves += 1
        if on_move:
            on_move(moves)
        assert moves < 500
    return moves


def local_session(body: dict[str, Any]) -> TableSession:
    session, _, _, _ = TableSession.create("local", body, TableConfig())
    return session


def bots_move(session: TableSession) -> None:
    while (turn := session.bot_move_due()) is not None:
        assert turn.action is not None
        session.bot_act(turn, turn.action)


def war_on_the_first_trick() -> tuple[dict[str, Any], str]:
    """A seeded pagat table where seat 0 leads a card, the bots tie it, and seat 0 must play
    again in the war (P1.5 replay): the request and the card."""
    for seed in range(500):
        body = {"rules": "pagat", "players": 3, "seats": seats(3), "seed": seed}
        game = local_session(body).game
        assert game is not None
        for card in [str(action) for action in game.legal_actions() if str(action) != "chance"]:
            session = local_session(body)
            session.act(0, card)
            bots_move(session)
            tied = session.game
            assert tied is not None
            if 0 in tied.tie and tied.to_move == 0:
                return body, card
    raise AssertionError("no seed of 500 gives a war on the first trick")


def long_phase_two(cards: int = 20) -> tuple[dict[str, Any], list[str]]:
    """A seeded two-player table (kortregler) where seat 0, always playing its first legal
    move, starts phase 2 with at least ``cards`` cards: the request and seat 0's moves."""
    for seed in range(500):
        body = {"rules": "kortregler", "players": 2, "seats": seats(2), "seed": seed}
        session = local_session(body)
        game = session.game
        assert game is not None
        script = []
        while game.phase == "collect":
            bots_move(session)
            if game.phase != "collect":
                break
            move = session.state_message(MessageCursor(0, "en"))["legal"][0]
            script.append(move)
            session.act(0, move)
        if game.phase == "shed" and game.hand_size(0) >= cards:
            return body, script
    raise AssertionError(f"no seed of 500 gives seat 0 {cards} cards in phase 2")


def forced_pick_up() -> tuple[dict[str, Any], list[str]]:
    """A seeded two-player table (kortregler: pick up only when you cannot beat, P2.4) where
    seat 0, always playing its first legal move, comes to a turn with nothing but a pick-up:
    the request and seat 0's moves before that turn."""
    for seed in range(200):
        body = {"rules": "kortregler", "players": 2, "seats": seats(2), "seed": seed}
        session = local_session(body)
        game = session.game
        assert game is not None
        script: list[str] = []
        while not game.is_over:
            bots_move(session)
            if game.is_over:
                break
            legal = session.state_message(MessageCursor(0, "en"))["legal"]
            if legal == ["pickup"] and len(script) > 3:
                return body, script
            script.append(legal[0])
            session.act(0, legal[0])
    raise AssertionError("no seed of 200 comes to a forced pick-up")


def first_move(page: Page) -> Locator:
    """The first playable card, else the move button that works now (pick up or chance)."""
    playable = page.locator('#hand [data-playable="true"]')
    if playable.count():
        return playable.first
    return page.locator('.actions [data-action="pickup"]:enabled, '
                        '.actions [data-action="chance"]:enabled').first


def follow_script(page: Page, script: list[str]) -> None:
    seen = -1
    for move in script:
        assert wait_my_turn(page, seen)
        seen = events(page)
        act(page, move)


def shoot(page: Page, path: Path, full_page: bool = False) -> None:
    """A screenshot once the cards have stopped moving."""
    page.wait_for_function("() => document.getAnimations().filter("
                           "a => !(a instanceof CSSAnimation) && a.playState === 'running').length === 0")
    page.screenshot(path=str(path), full_page=full_page)


CODES = "cards => cards.map(c => c.dataset.card)"
CARDS_SHOWN = """() => {
  // the least width and height of any hand card left uncovered by the cards after it
  const cards = [...document.querySelectorAll('#hand [data-card]')].map((c) => c.getBoundingClientRect());
  let least = Infinity;
  cards.forEach((box, index) => {
    let right = box.right, bottom = box.bottom;
    for (const later of cards.slice(index + 1)) {
      const sameRow = Math.abs(later.top - box.top) < 1;
      if (sameRow && later.left < right && later.left > box.left) right = later.left;
      const across = later.left < box.right && later.right > box.left;
      const below = later.top < bottom && later.top > box.top && across;
      if (!sameRow && below) bottom = later.top;
    }
    least = Math.min(least, right - box.left, bottom - box.top);
  });
  return least;
}"""
"""For ``page.evaluate``: how much of itself (CSS px, across or down) the most covered card of
the hand shows."""


def hand_rows(page: Page) -> list[float]:
    tops = page.locator("#hand [data-card]").evaluate_all("cards => cards.map(c => c.offsetTop)")
    return sorted(set(tops))


# ---------------------------------------------------------------- the tests


def test_a_whole_game_by_clicking_through_the_hooks_ends_in_a_result(
        browser: Browser, base_url: str, shots: Path) -> None:
    page = browser.new_page(viewport=DESKTOP)
    problems = watch_console(page)
    table = post(base_url, "/api/tables", {"players": 4, "seats": seats(4)})
    sit_down(page, base_url, table, "en", pause=20)
    expect(page.locator("[data-table]")).to_be_visible()
    expect(page.locator(".actions [data-action='hint']")).to_be_visible()

    def mid_game(moves: int) -> None:
        if moves == 8:
            shoot(page, shots / "table-desktop-en-light-mid-game.png")

    page.evaluate(HAND_WATCH)
    play_by_hooks(page, on_move=mid_game)
    wording: list[str] = page.evaluate("[...window.wording]")
    assert not any(re.search(r"\b1 cards", text) for text in wording), "one card is '1 card'"
    result = page.locator("[data-result]")
    expect(result).to_be_visible()
    record = get(base_url, f"/api/tables/{table['table']}/record")
    losers = sorted(int(s) for s in result.locator("[data-mattis-seat]").evaluate_all(
        "rows => rows.map(r => r.dataset.mattisSeat)"))
    assert losers == sorted(record["result"]["losers"])
    expect(page.locator("#headline")).to_contain_text("Mattis")
    # every player's remaining cards are shown, exactly the hands the finished game left
    shown = sorted(result.locator("[data-card]").evaluate_all(CODES))
    assert shown == sorted(code for hand in final_hands(base_url, table["table"]) for code in hand)
    shoot(page, shots / "table-desktop-en-light-result.png")
    page.click("#again")
    expect(page.locator("#status")).to_contain_text("Game 2")
    assert not problems, problems
    page.close()


def final_hands(base_url: str, table_id: str) -> list[list[str]]:
    record = get(base_url, f"/api/tables/{table_id}/record")
    game = Game.from_record(record)
    return [game.hand(seat) for seat in range(game.players)]


def test_a_completed_trick_stays_on_the_table_with_all_its_cards_p1_1(
        browser: Browser, base_url: str) -> None:
    page = browser.new_page(viewport=DESKTOP)
    problems = watch_console(page)
    body = {"rules": "pagat", "players": 3, "seats": seats(3), "seed": 21}
    table = post(base_url, "/api/tables", body)
    sit_down(page, base_url, table, "en", pause=None)  # the page's own pause (1.5 s)
    card = page.locator('#hand [data-playable="true"]').first.get_attribute("data-card")
    assert card
    session = local_session(body)  # the same game here, to know the trick it completes
    session.act(0, card)
    bots_move(session)
    trick = session.last_trick()
    page.evaluate(TRICK_WATCH)
    page.click(f'#hand [data-card="{card}"]')
    held = page.locator("[data-table] [data-last-trick]")
    expect(held).to_be_visible(timeout=10_000)
    assert trick is not None and trick["reason"] in ("won", "taken_back")
    codes = sorted(code for _, cards in trick["cards"] for code in cards)
    assert sorted(held.locator("[data-card]").evaluate_all(CODES)) == codes
    if trick["reason"] == "won":
        expect(held.locator('[data-winning="true"]')).to_have_count(1)
        taker = "You take the trick" if trick["winner"] == 0 else "takes the trick"
        expect(page.locator("#trick-note")).to_contain_text(taker)
    expect(held).to_have_count(0, timeout=5_000)
    shown_for = page.evaluate("window.trickShown[1] - window.trickShown[0]")
    assert shown_for >= 1000, f"the completed trick stayed {shown_for:.0f} ms, not about 1.5 s"
    assert not problems, problems
    page.close()


def test_a_war_is_announced_on_the_table_and_its_cards_light_up_p1_5(
        browser: Browser, base_url: str, shots: Path) -> None:
    body, card = war_on_the_first_trick()
    context = browser.new_context(viewport=DESKTOP, color_scheme="dark")
    page = context.new_page()
    problems = watch_console(page)
    table = post(base_url, "/api/tables", body)
    sit_down(page, base_url, table, "nb", pause=0)
    page.click(f'#hand [data-card="{card}"]')
    war = page.locator("[data-war]")
    expect(war).to_be_visible(timeout=10_000)
    expect(war).to_contain_text("Krig!")
    session = local_session(body)
    session.act(0, card)
    bots_move(session)
    game = session.game
    assert game is not None
    for seat in game.tie:
        name = "du" if seat == 0 else session.seats[seat].name
        expect(war).to_contain_text(name, ignore_case=True)
    tied = page.locator('[data-table] [data-tied="true"]')
    expect(tied).to_have_count(len(game.tie))
    assert card in tied.evaluate_all(CODES)
    expect(page.locator("#advice")).to_contain_text("Krig!")
    shoot(page, shots / "table-desktop-nb-dark-war.png")
    next_card = page.locator('#hand [data-playable="true"]').first
    next_card.click()
    expect(war).to_be_hidden(timeout=10_000)  # one more card each decides this war
    assert not problems, problems
    context.close()


TRICK_WATCH = """() => {
  window.trickShown = [];
  new MutationObserver(() => {
    const shown = Boolean(document.querySelector('[data-table] [data-last-trick]'));
    if (shown && window.trickShown.length === 0) window.trickShown.push(performance.now());
    if (!shown && window.trickShown.length === 1) window.trickShown.push(performance.now());
  }).observe(document.getElementById('area'), { childList: true, subtree: true });
}"""
ANIMATION_WATCH = """() => {
  window.animationCounts = [];
  const sample = () => {
    window.animationCounts.push(document.getAnimations().length);
    requestAnimationFrame(sample);
  };
  requestAnimationFrame(sample);
}"""
HAND_WATCH = """() => {
  window.handTops = [];
  window.wording = new Set();
  const sample = () => {
    const hand = document.getElementById('hand');
    if (hand && hand.children.length && document.getElementById('result').hidden) {
      // on the page, not in the window: a click that scrolls the page moves nothing on it
      const top = hand.getBoundingClientRect().top + window.scrollY;
      window.handTops.push([document.body.classList.contains('my-turn'), top]);
    }
    window.wording.add(document.getElementById('status').textContent);
    for (const facts of document.querySelectorAll('.seat-facts')) window.wording.add(facts.textContent);
    requestAnimationFrame(sample);
  };
  requestAnimationFrame(sample);
}"""


@pytest.mark.parametrize(("viewport", "mobile"), [(DESKTOP, False), (PHONE, True)], ids=["desktop", "phone"])
def test_the_hand_does_not_move_when_the_turn_comes_and_goes(
        browser: Browser, base_url: str, viewport: ViewportSize, mobile: bool,
        ) -> None:
    context = browser.new_context(viewport=viewport, is_mobile=mobile, has_touch=mobile)
    page = context.new_page()
    table = post(base_url, "/api/tables", {"players": 4, "seats": seats(4)})
    sit_down(page, base_url, table, "nb", pause=30)
    page.evaluate(HAND_WATCH)
    seen = -1
    for _ in range(8):
        if not wait_my_turn(page, seen):
            break
        seen = events(page)
        first_move(page).click()
        if page.locator("#chooser").is_visible():
            page.locator("#chooser [data-action]").first.click()
    samples: list[tuple[bool, float]] = page.evaluate("window.handTops")
    wording: list[str] = page.evaluate("[...window.wording]")
    # bokmål possessive: "Olas tur", never "Ola sin tur" (issue 15)
    assert any(re.search(r"(Olas|Siris|Pers) tur", text) for text in wording), wording
    assert not any(" sin tur" in text for text in wording)
    mine = [top for turn, top in samples if turn]
    theirs = [top for turn, top in samples if not turn]
    assert mine and theirs, "both the player's turn and the others' turns were sampled"
    tops = mine + theirs
    assert max(tops) - min(tops) < 0.5, f"the hand moved {max(tops) - min(tops):.1f} px"  # issue 24: 0 px
    context.close()


def test_a_phone_fits_twenty_cards_each_showing_44_px_and_plays_by_one_tap(
        browser: Browser, base_url: str, shots: Path) -> None:
    """Issue 24, items 4 and 5: every card of a long hand shows a fingertip of itself (44 CSS
    px across, and down where rows overlap), and one tap plays a card."""
    body, script = long_phase_two(20)
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    problems = watch_console(page)
    table = post(base_url, "/api/tables", body)
    sit_down(page, base_url, table, "nb", pause=0)
    follow_script(page, script)
    expect(page.locator("#status")).to_contain_text("fase 2", timeout=10_000)
    cards = page.locator("#hand [data-card]")
    expect(cards).not_to_have_count(0)
    count = cards.count()
    assert count >= 20
    rows = len(hand_rows(page))
    assert rows <= -(-count // 7), f"{count} cards in {rows} rows"  # 7 or more a row
    boxes = [cards.nth(index).bounding_box() for index in range(count)]
    assert all(box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] for box in boxes)
    assert min(box["width"] for box in boxes if box) >= 44, "a card's strip is narrower than a fingertip"
    assert page.evaluate(CARDS_SHOWN) >= 44
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shoot(page, shots / "table-phone-nb-light-twenty-cards.png")
    # the log is one tap away on a phone, in a drawer
    expect(page.locator("#log-panel")).not_to_be_in_viewport()
    page.locator("#log-toggle").tap()
    expect(page.locator("#log-panel")).to_be_in_viewport()
    expect(page.locator("#log li").first).to_be_visible()
    page.locator("#log-close").tap()
    expect(page.locator("#log-panel")).not_to_be_in_viewport()
    # one tap plays a playable card (a card that starts a sequence asks which first)
    seen = events(page) - 1
    assert wait_my_turn(page, seen)
    card = page.locator('#hand [data-playable="true"]').first
    code = card.get_attribute("data-card")
    card.tap()
    seen = events(page)
    if page.locator("#chooser").is_visible():
        page.locator("#chooser [data-action]").last.tap()
    expect(page.locator(f'#hand [data-card="{code}"]')).to_have_count(0, timeout=10_000)
    # a card that may not be played says why, next to the hand, in words
    while wait_my_turn(page, seen):
        seen = events(page)
        refused = page.locator('#hand [data-playable="false"]')
        if refused.count():
            refused.first.tap()
            expect(page.locator("[data-refusal]")).to_contain_text("Ikke lov", timeout=10_000)
            shoot(page, shots / "table-phone-nb-light-refusal.png")
            break
        first_move(page).click()
        if page.locator("#chooser").is_visible():
            page.locator("#chooser [data-action]").first.click()
    else:
        pytest.fail("the game ended before a card was refused")
    assert not problems, problems
    context.close()


def test_a_forced_pick_up_looks_different_and_the_hint_points_at_the_button_p2_4(
        browser: Browser, base_url: str, shots: Path) -> None:
    body, script = forced_pick_up()
    page = browser.new_page(viewport=DESKTOP)
    problems = watch_console(page)
    table = post(base_url, "/api/tables", body)
    sit_down(page, base_url, table, "en", pause=0)
    follow_script(page, script)
    assert wait_my_turn(page, -1)
    pickup = page.locator('.actions [data-action="pickup"]')
    expect(pickup).to_be_visible()
    expect(pickup).to_have_class(re.compile(r"\bforced\b"))
    expect(pickup).to_have_text("You must pick up")
    expect(page.locator('#hand [data-playable="true"]')).to_have_count(0)
    page.click('.actions [data-action="hint"]')
    expect(pickup).to_have_class(re.compile(r"\bhinted\b"), timeout=20_000)
    expect(page.locator("#hint-text")).to_contain_text("Hint: Pick up")
    shoot(page, shots / "table-desktop-en-light-forced-pick-up.png")
    held = page.locator("#hand [data-card]").count()
    pickup.click()
    page.wait_for_function("(held) => document.querySelectorAll('#hand [data-card]').length > held", arg=held)
    assert not problems, problems
    page.close()


def test_a_friend_sees_reactions_and_a_refusal_stays_until_the_next_move(
        browser: Browser, base_url: str, shots: Path) -> None:
    host_context = browser.new_context(viewport=DESKTOP)
    friend_context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, color_scheme="dark")
    host, friend = host_context.new_page(), friend_context.new_page()
    problems = watch_console(host) + watch_console(friend)
    table = post(base_url, "/api/tables", {"players": 2, "rules": "kortregler",
                                           "seats": seats(2, open_seats=1)})
    friend.goto(f"{base_url}/t/{table['table']}?lang=en&pause=0")
    expect(friend.locator("#join-heading")).to_contain_text("Kari's table")
    friend.fill("#join-name", "Ola")
    friend.click("#join-form button")
    expect(friend.locator("#hand [data-card]").first).to_be_visible()
    sit_down(host, base_url, table, "en", pause=0)
    host.click('[data-reaction="thumbs_up"]')
    bubble = friend.locator('[data-seat="0"] [data-shown-reaction="thumbs_up"]')
    expect(bubble).to_be_visible()
    expect(host.locator('[data-seat="0"] [data-shown-reaction="thumbs_up"]')).to_be_visible()
    host.click('[data-reaction="wow"]')  # too soon after the last one
    expect(host.locator("[data-refusal]")).to_contain_text("Too many")
    expect(friend.locator('[data-shown-reaction="wow"]')).to_have_count(0)
    shoot(friend, shots / "table-phone-en-dark-reaction.png")
    # the host leads (seat 0); the friend taps a card out of turn and is told why
    friend.locator("#hand [data-card]").first.tap()
    expect(friend.locator("[data-refusal]")).to_contain_text("not your turn")
    before = events(friend)
    host.locator('#hand [data-playable="true"]').first.click()
    expect(friend.locator("#game")).not_to_have_attribute("data-events", str(before))
    expect(friend.locator("[data-refusal]")).to_contain_text("not your turn")  # a new state keeps it
    friend.locator('#hand [data-playable="true"]').first.click()  # the next move clears it
    expect(friend.locator("[data-refusal]")).to_have_text("")
    assert not problems, problems
    host_context.close()
    friend_context.close()


def test_the_invite_page_names_the_host_the_rules_and_the_free_seats(
        browser: Browser, base_url: str, shots: Path) -> None:
    table = post(base_url, "/api/tables", {
        "players": 4, "rules": "pagat", "seed": 77, "set": {"min_sequence": 3},
        "seats": [{"kind": "human", "name": "Siri"}, {"kind": "bot", "level": "easy"}, {"kind": "open"},
                  {"kind": "open"}]})
    cases: list[tuple[str, Literal["light", "dark"], ViewportSize, bool]] = [
        ("nb", "light", PHONE, True), ("en", "dark", DESKTOP, False)]
    for lang, scheme, viewport, mobile in cases:
        context = browser.new_context(viewport=viewport, is_mobile=mobile, has_touch=mobile,
                                      color_scheme=scheme)
        page = context.new_page()
        problems = watch_console(page)
        page.goto(f"{base_url}/t/{table['table']}?lang={lang}")
        facts = page.locator("#join-facts")
        if lang == "nb":
            expect(page.locator("#join-heading")).to_have_text("Bordet til Siri")
            expect(facts).to_contain_text("2 ledige plasser")
            expect(facts).to_contain_text("Husregler")
        else:
            expect(page.locator("#join-heading")).to_have_text("Siri's table")
            expect(page.locator("#join-host")).to_contain_text("Siri invites you")
            expect(facts).to_contain_text("2 free seats")
            expect(facts).to_contain_text("House rules")
            expect(facts).to_contain_text("4 players")
        expect(page.locator("#join-seeded")).to_be_visible()
        qr = page.locator("#join img[data-qr]")
        assert qr.get_attribute("src") == f"/api/tables/{table['table']}/qr.svg"
        assert qr.get_attribute("alt")
        shoot(page, shots / f"invite-{'phone' if mobile else 'desktop'}-{lang}-{scheme}.png", full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        assert not problems, problems
        context.close()


def test_without_motion_nothing_flies_but_the_trick_is_still_held(
        browser: Browser, base_url: str) -> None:
    counts: dict[str, list[int]] = {}
    motions: list[Literal["reduce", "no-preference"]] = ["reduce", "no-preference"]
    for motion in motions:
        context = browser.new_context(viewport=DESKTOP, reduced_motion=motion)
        page = context.new_page()
        problems = watch_console(page)
        body = {"rules": "pagat", "players": 3, "seats": seats(3), "seed": 21}
        table = post(base_url, "/api/tables", body)
        sit_down(page, base_url, table, "en", pause=600)
        page.evaluate(ANIMATION_WATCH)
        page.locator('#hand [data-playable="true"]').first.click()
        expect(page.locator("[data-last-trick]")).to_be_visible(timeout=10_000)
        expect(page.locator("[data-last-trick]")).to_have_count(0, timeout=10_000)
        page.wait_for_timeout(400)
        counts[motion] = page.evaluate("window.animationCounts")
        assert not problems, problems
        context.close()
    assert max(counts["reduce"]) == 0, "with prefers-reduced-motion nothing animates"
    assert max(counts["no-preference"]) > 0, "otherwise the cards move (so the check above can fail)"


def contrast(first: str, second: str) -> float:
    """The WCAG contrast ratio of two CSS ``rgb()``/``rgba()`` colours (alpha ignored)."""
    def luminance(colour: str) -> float:
        channels = [float(part) / 255 for part in re.findall(r"[\d.]+", colour)[:3]]
        linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_focus_shows_on_the_felt_cards_are_labelled_and_the_table_has_dark_colours(
        browser: Browser, base_url: str) -> None:
    context = browser.new_context(viewport=DESKTOP, color_scheme="dark")
    page = context.new_page()
    problems = watch_console(page)
    table = post(base_url, "/api/tables", {"players": 3, "seats": seats(3), "seed": 5})
    sit_down(page, base_url, table, "en", pause=0)
    page.keyboard.press("Tab")
    card = page.locator("#hand [data-card]").first
    card.focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")  # focus by keyboard, so :focus-visible applies
    ring = card.evaluate("c => getComputedStyle(c.querySelector('.face')).outlineColor")
    rail = page.locator(".play-column").evaluate("c => getComputedStyle(c).backgroundColor")
    felt = page.locator("#felt").evaluate(
        "f => getComputedStyle(f).getPropertyValue('--felt').trim() || '#1b5e3b'")
    felt_rgb = page.evaluate("(c) => { const d = document.createElement('div'); d.style.color = c; "
                             "document.body.append(d); const v = getComputedStyle(d).color; d.remove(); "
                             "return v; }", felt)
    assert contrast(ring, rail) >= 3 and contrast(ring, felt_rgb) >= 3, (ring, rail, felt_rgb)
    button = page.locator('.actions [data-action="hint"]')
    button.focus()
    ring = button.evaluate("b => getComputedStyle(b).outlineColor")
    assert contrast(ring, rail) >= 3
    assert rail == "rgb(10, 36, 24)", "the dark theme's rail (prefers-color-scheme: dark)"
    page.evaluate("document.documentElement.dataset.theme = 'light'")
    background = "c => getComputedStyle(c).backgroundColor"
    assert page.locator(".play-column").evaluate(background) == "rgb(14, 58, 36)"
    page.evaluate("document.documentElement.dataset.theme = 'dark'")
    assert page.locator(".play-column").evaluate(background) == "rgb(10, 36, 24)"
    # screen readers: every card on the table has a label, the log is polite
    page.click('#hand [data-playable="true"] >> nth=0')
    on_table = page.locator("[data-table] [data-card]").first
    expect(on_table).to_have_attribute("aria-label", re.compile(r".+, played by "))
    expect(page.locator("#log")).to_have_attribute("aria-live", "polite")
    assert not problems, problems
    context.close()
