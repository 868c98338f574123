"""The screenshots in ``docs/screenshots/``: a spectator's phone, a coached player's phone and
the coach's, the review of a finished game, and three steps of the tutorial, all in bokmål.

    .venv/bin/python dev/screenshots.py                 # every picture, into docs/screenshots/
    .venv/bin/python dev/screenshots.py --only learn    # one group: spectator, coach, review, learn

It serves Mattis on a free port with a fresh database and data folder (quick bots, a small
review budget), drives Debian's Chromium with Playwright the way the browser tests do, and
stops the server at the end. Phones are 390x844 and desktops 1280x800, at device scale 1, and
each PNG is saved palette-reduced when that keeps it small (the pages are flat colours), so the
pictures stay light in the repository. Regenerate them when a page's look changes.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from PIL import Image
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
LANG = "nb"
REVIEW_ITERATIONS = 60
"""Random deals per choice in the review: enough for a line that says something, few enough
that a short game is reviewed in seconds on a small machine."""
LEARN_STEPS = (1, 3, 8)
"""The tutorial steps photographed: the first trick, a war, beating a play in phase 2."""
COACH_MOVES = 6
"""At most this many of the coached player's own moves before the coach is asked in."""
SMALL = 150_000
"""Bytes: a picture larger than this as a full-colour PNG is saved with a 256-colour palette."""
SETTLED = ("() => document.getAnimations().filter("
           "a => !(a instanceof CSSAnimation) && a.playState === 'running').length === 0")
"""Nothing but the looping CSS animations still moving: the cards have landed."""


# ---------------------------------------------------------------- the server


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def served(folder: Path, review_iterations: int) -> Iterator[str]:
    """``mattis serve`` on a fresh SQLite file and data folder in ``folder``; its base URL.
    The server is stopped on the way out, whatever happened."""
    port = free_port()
    environment = {**os.environ, "MATTIS_DATA_DIR": str(folder / "data")}
    command = [sys.executable, "-m", "mattis", "serve", "--port", str(port),
               "--db", f"sqlite:///{folder / 'site.sqlite3'}", "--bot-delay", "0.05",
               "--absence", "600", "--review-iterations", str(review_iterations)]
    log = (folder / "server.log").open("wb")
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=environment)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                urllib.request.urlopen(f"{base}/api/options", timeout=1).close()
                break
            except OSError:
                if process.poll() is not None:
                    raise SystemExit("the server stopped:\n" + (folder / "server.log").read_text()) from None
                if time.monotonic() > deadline:
                    raise SystemExit("the server did not start in 90 s") from None
                time.sleep(0.2)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        log.close()


def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(f"{base}{path}", data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        data: dict[str, Any] = json.loads(response.read())
        return data


# ---------------------------------------------------------------- pages


def phone(browser: Browser, scheme: str = "light") -> BrowserContext:
    return browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True,
                               color_scheme="dark" if scheme == "dark" else "light")


def desktop(browser: Browser) -> BrowserContext:
    return browser.new_context(viewport=DESKTOP, device_scale_factor=1, color_scheme="light")


def set_theme(page: Page, theme: str) -> None:
    """The theme as the page's own switch leaves it: kept, and on <html>."""
    page.evaluate("""(theme) => {
      localStorage.setItem('mattis.theme', theme);
      document.documentElement.dataset.theme = theme;
      document.documentElement.style.colorScheme = theme;
    }""", theme)


def sit_down(page: Page, base: str, table: str, seat: int, token: str) -> None:
    """Open a table as a seat, its token kept as the start page keeps it."""
    key, value = f"mattis.seat.{table}", json.dumps({"seat": seat, "token": token})
    page.add_init_script(f"localStorage.setItem({json.dumps(key)}, {json.dumps(value)})")
    page.goto(f"{base}/t/{table}?lang={LANG}&pause=0")


def events(page: Page) -> int:
    return int(page.locator("#game").get_attribute("data-events") or 0)


def wait_for_turn(page: Page, seat: int, timeout: float = 60.0) -> None:
    """Until ``seat`` is to move and has a card it may play."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if (page.locator("#game").get_attribute("data-to-move") == str(seat)
                and page.locator('#hand [data-playable="true"]').count()):
            return
        page.wait_for_timeout(50)
    raise SystemExit(f"seat {seat}'s turn did not come in {timeout:.0f} s")


def shoot(page: Page, name: str, full_page: bool = False) -> Path:
    """A screenshot once the cards have landed, saved small."""
    page.wait_for_function(SETTLED)
    page.evaluate("() => document.activeElement?.blur()")  # no focus ring left by the script's clicks
    page.wait_for_timeout(150)
    path = OUT / name
    page.screenshot(path=str(path), full_page=full_page)
    shrink(path)
    print(f"{path.relative_to(ROOT)}  {path.stat().st_size / 1000:.0f} kB")
    return path


def shrink(path: Path) -> None:
    """Re-save ``path`` optimised; when still above ``SMALL`` bytes, with a 256-colour palette
    (no dithering: the pages are flat colours and the dots would only add bytes)."""
    with Image.open(path) as image:
        picture = image.convert("RGB")
    picture.save(path, optimize=True)
    if path.stat().st_size > SMALL:
        picture.quantize(colors=256, method=Image.Quantize.MEDIANCUT,
                         dither=Image.Dither.NONE).save(path, optimize=True)


# ---------------------------------------------------------------- the four groups


def spectator(browser: Browser, base: str) -> None:
    """A spectator's phone during a game, light and dark: the felt from no seat, "Du ser på"."""
    table = post(base, "/api/tables", {"players": 3, "seed": 21, "seats": [
        {"kind": "human", "name": "Kari"}, {"kind": "bot", "level": "normal"},
        {"kind": "bot", "level": "normal"}]})
    player = desktop(browser).new_page()
    sit_down(player, base, table["table"], table["seat"], table["token"])
    for scheme in ("light", "dark"):
        page = phone(browser, scheme).new_page()
        page.goto(f"{table['watch']}&lang={LANG}&pause=0")
        expect(page.locator("[data-spectating]")).to_have_text("Du ser på", timeout=20_000)
        if scheme == "light":  # a few moves, so the felt has cards on it
            for _ in range(2):
                wait_for_turn(player, table["seat"])
                seen = events(page)
                player.locator('#hand [data-playable="true"]').first.click()
                page.wait_for_function(
                    f"() => Number(document.querySelector('#game').dataset.events) > {seen}")
            wait_for_turn(player, table["seat"])
        set_theme(page, scheme)
        shoot(page, f"spectator-phone-{scheme}.png")
        page.context.close()
    player.context.close()


def coach(browser: Browser, base: str) -> None:
    """A coached player's phone with the coach's suggestion, and the coach's own phone."""
    table = post(base, "/api/tables", {"rules": "pagat", "players": 3, "seed": 26, "seats": [
        {"kind": "human", "name": "Mormor"}, {"kind": "bot", "level": "easy"},
        {"kind": "bot", "level": "easy"}]})
    player = phone(browser).new_page()
    sit_down(player, base, table["table"], table["seat"], table["token"])
    expect(player.locator("#hand [data-card]").first).to_be_visible(timeout=20_000)
    for _ in range(COACH_MOVES):  # until a robot has led: the felt has cards to answer
        wait_for_turn(player, table["seat"])
        if player.locator("#area [data-card]").count():
            break
        seen = events(player)
        player.locator('#hand [data-playable="true"]').first.click()
        player.wait_for_function(f"() => Number(document.querySelector('#game').dataset.events) > {seen}")
    player.locator('[data-action="settings"]').click()
    player.locator('[data-action="coach-link"]').click()
    expect(player.locator("#coach-url")).not_to_have_value("", timeout=10_000)
    link = player.locator("#coach-url").input_value()
    player.keyboard.press("Escape")

    trainer = phone(browser).new_page()
    trainer.goto(f"{link}&lang={LANG}&pause=0")
    expect(trainer.locator("[data-coach-banner]")).to_contain_text("Du er trener for Mormor", timeout=20_000)
    wait_for_turn(player, table["seat"])
    wait_for_turn(trainer, table["seat"])
    suggested = trainer.locator('#hand [data-playable="true"]').last
    card = suggested.get_attribute("data-card")
    suggested.tap()
    expect(player.locator("[data-suggestion]")).to_be_visible()
    expect(player.locator(f'#hand [data-card="{card}"][data-suggested="true"]')).to_be_visible()
    expect(player.locator('[data-seat="0"][data-coached="0"]')).to_be_visible()
    shoot(player, "coach-player-phone.png")
    expect(trainer.locator("[data-suggestion]")).to_be_visible()
    shoot(trainer, "coach-coach-phone.png", full_page=True)  # the banner pushes the hand down
    trainer.context.close()
    player.context.close()


def finished_table(base: str, seed: int) -> dict[str, Any]:
    """A three-player table whose first game seat 0 played to its end over a socket (its first
    legal move each turn), as the create answer gave it."""
    from websockets.sync.client import connect
    from websockets.typing import Origin

    table = post(base, "/api/tables", {"rules": "kortregler", "players": 3, "seed": seed, "seats": [
        {"kind": "human", "name": "Kari"}, {"kind": "bot", "level": "normal"},
        {"kind": "bot", "level": "normal"}]})
    url = base.replace("http", "ws") + f"/ws/tables/{table['table']}?token={table['token']}&lang={LANG}"
    acted_at = -1
    deadline = time.monotonic() + 180
    with connect(url, origin=Origin(base)) as channel:
        while time.monotonic() < deadline:
            message = json.loads(channel.recv(timeout=60))
            if message["type"] != "state" or message["view"] is None:
                continue
            if message["view"]["phase"] == "over":
                return table
            if message["legal"] and message["view"]["event_count"] != acted_at:
                acted_at = message["view"]["event_count"]
                time.sleep(0.11)  # a socket may send ten messages a second
                channel.send(json.dumps({"type": "act", "action": message["legal"][0]}))
    raise SystemExit("the game did not end in 180 s")


def review(browser: Browser, base: str) -> None:
    """The review of a finished game, on a desktop and a phone: the risk line and a choice."""
    started = time.monotonic()
    table = finished_table(base, seed=5)
    print(f"  a game played in {time.monotonic() - started:.0f} s")
    for name, context in (("desktop", desktop(browser)), ("phone", phone(browser))):
        page = context.new_page()
        sit_down(page, base, table["table"], table["seat"], table["token"])
        button = page.locator("[data-review-open]")
        expect(button).to_have_text("Se gjennom spillet", timeout=20_000)
        started = time.monotonic()
        button.click()
        expect(page.locator("[data-review-chart] polyline")).to_be_visible(timeout=300_000)
        print(f"  the review on the {name} page took {time.monotonic() - started:.1f} s")
        turning = page.locator("[data-review-turning] li button")
        if turning.count():  # the costliest choice, as its sentence says it
            turning.first.click()
        else:
            page.locator("#review-next").click()
        page.locator(".review-body").evaluate("(body) => body.scrollTo(0, 0)")
        shoot(page, f"review-{name}.png")
        context.close()


def learn(browser: Browser, base: str) -> None:
    """Three steps of the tutorial on a phone, each a lesson of its own."""
    page = phone(browser).new_page()
    page.goto(f"{base}/learn?lang={LANG}&preset=pagat")
    expect(page.locator('#lesson[data-tutorial-step="1"]')).to_be_visible(timeout=20_000)
    wanted = set(LEARN_STEPS)
    for _ in range(60):
        if not wanted or page.locator("[data-tutorial-done]").count():
            break
        go_on = page.locator('[data-action="continue"]')
        if go_on.is_visible():
            go_on.click()
            continue
        lesson = page.locator("#lesson")
        step, move = lesson.get_attribute("data-tutorial-step"), lesson.get_attribute("data-tutorial-expect")
        if step is None or move is None:
            raise SystemExit("the tutorial step has no expected move")
        if int(step) in wanted:
            wanted.discard(int(step))
            shoot(page, f"learn-step{step}-phone.png", full_page=True)
        page.locator(f'.learn-move[data-move="{move}"]').click()
        page.wait_for_function(
            "([step, move]) => { const s = document.querySelector('#lesson');"
            " return s.dataset.tutorialStep !== step || s.dataset.tutorialExpect !== move; }",
            arg=[step, move])
    if wanted:
        raise SystemExit(f"the tutorial ended before steps {sorted(wanted)}")
    page.context.close()


def emoji_font() -> bool:
    """Whether the system has a font with 👍 (a phone has; a bare Debian has not)."""
    try:
        found = subprocess.run(["fc-list", ":charset=1f44d", "family"], capture_output=True, text=True,
                               check=False, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return True  # no fontconfig to ask: say nothing
    return bool(found.strip())


GROUPS: dict[str, Callable[[Browser, str], None]] = {
    "spectator": spectator, "coach": coach, "review": review, "learn": learn}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Take the screenshots in docs/screenshots/.")
    parser.add_argument("--only", choices=sorted(GROUPS), action="append",
                        help="take only this group (repeatable); default: all")
    parser.add_argument("--review-iterations", type=int, default=REVIEW_ITERATIONS,
                        help=f"the server's review budget (default {REVIEW_ITERATIONS})")
    arguments = parser.parse_args(argv)
    if not Path(CHROMIUM).exists():
        print(f"{CHROMIUM} is missing: apt-get install -y chromium", file=sys.stderr)
        return 1
    if not emoji_font():
        print("warning: no colour emoji font, the reactions' 👍 will be a blank box:"
              " apt-get install -y fonts-noto-color-emoji", file=sys.stderr)
    from mattis.web import pwa

    pwa.build(say=print)  # the offline app's files, as a person's site has them (nothing if current)
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="mattis-shots-") as folder, \
            served(Path(folder), arguments.review_iterations) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            for name in arguments.only or list(GROUPS):
                print(f"{name}:")
                GROUPS[name](browser, base)
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
